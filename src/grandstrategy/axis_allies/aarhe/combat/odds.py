"""Odds of the variant's battles, fought by the variant's own step machine.

Each choice the battle leaves to a player is made by a *policy*: a function from the game and the
open options to one option. :func:`default_policy` is documented below; pass your own to change it.

* ``exact``: every battle state the machine can reach (its JSON state; the cycle counter is kept
  only as 1, 2 or later, so a cycle in which nothing happens leads back to the state it started
  from) with each die's six faces at 1/6 and each choice by the policy, solved as an absorbing
  Markov chain by repeated sweeps until no probability moves by more than 1e-12. Refused above
  ``max_states`` states (the size guard).
* ``monte-carlo``: ``trials`` battles through the same machine, the dice drawn from the kernel's
  seeded generator (:class:`grandstrategy.core.rng.Rng`); the result carries its standard error.
* ``auto``: exact when the state space fits the guard, else Monte Carlo.

An outcome is judged on the battle's place when the machine is done: a land battle is won by the
side keeping land units when the other has none (S3:L220: the other must leave); a sea battle by
the side keeping units when the other has none; anything else (both left, both broken off) is a
draw.
"""

from __future__ import annotations

import json
import math
from collections import deque
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from grandstrategy.axis_allies.game.board import copy_json, split
from grandstrategy.axis_allies.game.engine import AAGame, Choose
from grandstrategy.core.ids import CHANCE
from grandstrategy.core.rng import Rng

Policy = Callable[[AAGame, list[str]], str]

STAY = (
    "press attack",
    "hold",
    "remain",
    "press on",
    "chase",
    "keep submarines in the battle",
    "search for a passing submarine",
)
"""Options the default policy takes whenever offered: fight on, never retreat, break off or submerge."""


MAX_STEPS = 100_000
"""A simulated battle longer than this many dice and choices is a machine fault, not a battle."""


class TooBig(ValueError):
    """The battle has more states than the exact solver's size guard allows."""


def _cost(game: AAGame, words: list[str]) -> tuple[int, str]:
    unit = words[-1]
    return (game.stats[unit].cost if unit in game.stats else 0, unit)


def default_policy(game: AAGame, options: list[str]) -> str:
    """The documented default choices (AH-C10):

    * fight on: never retreat, break off or submerge (the first of :data:`STAY` offered);
    * aim every shooter (ID, fighter, submarine, hunter, battery) at the costliest target type;
    * screen the costliest ship with each destroyer or cruiser;
    * casualties: damage a two-hit unit first, else lose the cheapest unit;
    * a forced retreat or a one-way choice: the first option.
    """
    for option in STAY:
        if option in options:
            return option
    aims = [o for o in options if o.startswith("aim ")]
    if aims:
        return max(aims, key=lambda o: _cost(game, o.split(" at ", 1)[1].split()))
    screens = [o for o in options if o.startswith("screen ")]
    if screens:
        return max(screens, key=lambda o: _cost(game, o.split(" with ")[0].split()))
    damage = [o for o in options if o.startswith("damage ")]
    if damage:
        return damage[0]
    losses = [o for o in options if o.startswith("lose ")]
    if losses:
        return min(losses, key=lambda o: _cost(game, o.split()[:3]))
    return options[0]


@dataclass(frozen=True, slots=True)
class Odds:
    """Chances that the attacker wins, the defender wins, or neither (both stay or both fall)."""

    attacker: float
    defender: float
    draw: float
    method: str
    states: int = 0
    trials: int = 0
    seed: int | None = None

    @property
    def standard_error(self) -> float:
        """Of the attacker's chance, for a Monte Carlo result (0 for exact odds)."""
        if not self.trials:
            return 0.0
        return math.sqrt(max(self.attacker * (1 - self.attacker), 1e-4) / self.trials)


def _outcome(game: AAGame, where: str) -> int:
    """0 attacker wins, 1 defender wins, 2 draw (see the module's note)."""
    land = not game.is_sea(where)

    def holds(attacker: bool) -> bool:
        units = game.side_units(where, attacker)
        return any(game.stats[u].domain == "land" for _, _, u, _, _ in units) if land else bool(units)

    attacker, defender = holds(True), holds(False)
    if attacker and not defender:
        return 0
    if defender and not attacker:
        return 1
    return 2


def outcome_of(game: AAGame, where: str) -> int:
    """How the finished battle at ``where`` ended: 0 attacker wins, 1 defender wins, 2 draw."""
    return _outcome(game, where)


def _key(game: AAGame) -> str:
    battle = game.d["battle"]
    if battle is not None:
        battle = dict(battle)
        battle["cycle"] = min(int(battle.get("cycle", 0)), 2)
    data = {k: v for k, v in game.d.items() if k not in ("log", "battle")}
    return json.dumps([data, battle], sort_keys=True, separators=(",", ":"))


def _child(game: AAGame) -> AAGame:
    data = copy_json(game.d)
    data["log"] = []
    return AAGame(game.profile, data)


def _step(game: AAGame, policy: Policy) -> list[tuple[float, AAGame]]:
    """The states one step away with their probabilities (six faces, or the policy's choice)."""
    who = game.to_act()
    if who == CHANCE:
        result = []
        for face in range(1, 7):
            child = _child(game)
            child.apply_chance(str(face))
            result.append((1 / 6, child))
        return result
    child = _child(game)
    child.apply(Choose(str(who), policy(game, game.options())))
    return [(1.0, child)]


def open_battle(game: AAGame, where: str) -> AAGame:
    """A copy of ``game`` with the battle at ``where`` opened (it must be waiting to be fought)."""
    start = _child(game)
    if start.d["battle"] is None:
        start.choose(f"fight {where}")
    return start


def exact_odds(game: AAGame, where: str, policy: Policy = default_policy, max_states: int = 20_000) -> Odds:
    """Exact odds of the battle at ``where`` (see the module's note).

    :raises TooBig: when more than ``max_states`` states are reachable.
    """
    start = open_battle(game, where)
    index = {_key(start): 0}
    states = [start]
    edges: list[list[tuple[int, float]]] = []
    value: list[list[float]] = []
    queue = deque([0])
    edges.append([])
    value.append([0.0, 0.0, 0.0])
    while queue:
        i = queue.popleft()
        state = states[i]
        if state.d["battle"] is None:
            value[i][_outcome(state, where)] = 1.0
            continue
        merged: dict[int, float] = {}
        for p, child in _step(state, policy):
            k = _key(child)
            j = index.get(k)
            if j is None:
                j = index[k] = len(states)
                if j >= max_states:
                    raise TooBig(f"more than {max_states} battle states: use the Monte Carlo")
                states.append(child)
                edges.append([])
                value.append([0.0, 0.0, 0.0])
                queue.append(j)
            merged[j] = merged.get(j, 0.0) + p
        edges[i] = sorted(merged.items())
    order = list(range(len(states) - 1, -1, -1))
    for _ in range(100_000):
        moved = 0.0
        for i in order:
            if not edges[i]:
                continue
            new = [sum((p * value[j][o] for j, p in edges[i]), 0.0) for o in range(3)]
            moved = max(moved, *(abs(a - b) for a, b in zip(new, value[i], strict=True)))
            value[i] = new
        if moved < 1e-12:
            break
    a, d, n = value[0]
    return Odds(a, d, n, "exact", states=len(states))


def _seeded_battles(game: AAGame, where: str, policy: Policy, trials: int, seed: int) -> Iterator[AAGame]:
    """``trials`` battles at ``where`` fought through the machine with dice from ``seed`` (one
    stream for all of them, so the same seed gives the same battles), each yielded at its end."""
    rng = Rng(seed)
    start = open_battle(game, where)
    for _ in range(trials):
        state = _child(start)
        for _ in range(MAX_STEPS):
            if state.d["battle"] is None:
                break
            who = state.to_act()
            if who == CHANCE:
                state.apply_chance(str(rng.below(6) + 1))
            else:
                state.apply(Choose(str(who), policy(state, state.options())))
        else:
            raise RuntimeError(f"a battle at {where} went on for {MAX_STEPS} steps")
        yield state


def simulate_odds(
    game: AAGame, where: str, policy: Policy = default_policy, trials: int = 2000, seed: int = 1
) -> Odds:
    """Seeded Monte Carlo odds of the battle at ``where``: ``trials`` battles through the machine."""
    counts = [0, 0, 0]
    for state in _seeded_battles(game, where, policy, trials, seed):
        counts[_outcome(state, where)] += 1
    a, d, n = (c / trials for c in counts)
    return Odds(a, d, n, "monte-carlo", trials=trials, seed=seed)


def battle_odds(
    game: AAGame,
    where: str,
    *,
    policy: Policy = default_policy,
    method: str = "auto",
    max_states: int = 20_000,
    trials: int = 2000,
    seed: int = 1,
) -> Odds:
    """Odds of the variant's battle waiting at ``where``: ``exact``, ``monte-carlo`` or ``auto``."""
    if method not in ("auto", "exact", "monte-carlo"):
        raise ValueError(f"method must be auto, exact or monte-carlo, not {method!r}")
    if method != "monte-carlo":
        try:
            return exact_odds(game, where, policy, max_states)
        except TooBig:
            if method == "exact":
                raise
    return simulate_odds(game, where, policy, trials, seed)


def units_at(game: AAGame, where: str) -> dict[str, Any]:
    """``power unit`` -> count at ``where`` (a convenience for reports)."""
    totals: dict[str, Any] = {}
    for stack, n in game.stacks(where):
        owner, unit, _, _ = split(stack)
        totals[f"{owner} {unit}"] = totals.get(f"{owner} {unit}", 0) + n
    return totals


def exact_outcomes(
    game: AAGame, where: str, policy: Policy = default_policy, max_states: int = 20_000
) -> tuple[list[tuple[float, AAGame]], int]:
    """Every way the battle at ``where`` can end, each with its exact chance, and the number of
    states reached: the same state graph as :func:`exact_odds`, solved for each end state instead
    of the three outcomes, so callers can report survivors and losses (the battle calculator).

    :raises TooBig: when more than ``max_states`` states are reachable.
    """
    start = open_battle(game, where)
    index = {_key(start): 0}
    states = [start]
    edges: list[list[tuple[int, float]]] = [[]]
    queue = deque([0])
    ends: list[int] = []
    while queue:
        i = queue.popleft()
        if states[i].d["battle"] is None:
            ends.append(i)
            continue
        merged: dict[int, float] = {}
        for p, child in _step(states[i], policy):
            k = _key(child)
            j = index.get(k)
            if j is None:
                j = index[k] = len(states)
                if j >= max_states:
                    raise TooBig(f"more than {max_states} battle states: use the Monte Carlo")
                states.append(child)
                edges.append([])
                queue.append(j)
            merged[j] = merged.get(j, 0.0) + p
        edges[i] = sorted(merged.items())
    # value[i][e]: the chance that state i ends in end state ends[e]; Gauss-Seidel sweeps from the
    # deepest states up, as in exact_odds.
    column = {state: e for e, state in enumerate(ends)}
    value: list[dict[int, float]] = [{column[i]: 1.0} if i in column else {} for i in range(len(states))]
    order = [i for i in range(len(states) - 1, -1, -1) if edges[i]]
    for _ in range(100_000):
        moved = 0.0
        for i in order:
            new: dict[int, float] = {}
            for j, p in edges[i]:
                for e, q in value[j].items():
                    new[e] = new.get(e, 0.0) + p * q
            old = value[i]
            moved = max(moved, max((abs(q - old.get(e, 0.0)) for e, q in new.items()), default=0.0))
            value[i] = new
        if moved < 1e-12:
            break
    return [(q, states[ends[e]]) for e, q in sorted(value[0].items())], len(states)


def simulate_outcomes(
    game: AAGame, where: str, policy: Policy = default_policy, trials: int = 2000, seed: int = 1
) -> list[tuple[float, AAGame]]:
    """``trials`` seeded battles at ``where`` through the machine (as :func:`simulate_odds`, same
    dice for the same seed): each distinct end state with the share of battles ending in it."""
    found: dict[str, tuple[int, AAGame]] = {}
    for state in _seeded_battles(game, where, policy, trials, seed):
        k = _key(state)
        found[k] = (found[k][0] + 1 if k in found else 1, state)
    return [(n / trials, state) for n, state in found.values()]
