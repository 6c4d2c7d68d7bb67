"""The battle calculator's Historical Edition sea battles and amphibious assaults.

``grandstrategy aa odds --rules aarhe --sea`` and ``--amphibious`` (or ``--bombard``) are answered
by the variant's own battle machine (:mod:`grandstrategy.axis_allies.aarhe.combat`) and its odds
(:mod:`grandstrategy.axis_allies.aarhe.combat.odds`, default policy AH-C10): the forces are set
down on an otherwise empty board and the battle is solved over every state the machine reaches
(exact), or by seeded battles through the same machine above its size guard. Land battles without
a landing keep the older model (:class:`grandstrategy.axis_allies.rules.AarheProcedure`).

The board is the shipped Revised map with the variant's battles, as the variant's combat tests
use it: the Revised module plus the optional units the variant adds (heavy tank, heavy artillery,
cruiser, naval fighter, dive bomber), costed from the variant's unit table (S3:L244, L248) so the
default policy's "lose the cheapest, aim at the costliest" reads the variant's prices. The battle
is placed in a sea zone, or a coastal land territory next to one, that carries no victory city,
strait or terrain rule, unless ``--terrain`` asks for snow or mountains (S3:L224).
"""

from __future__ import annotations

import time
from collections import defaultdict
from dataclasses import replace
from types import MappingProxyType

from grandstrategy.axis_allies.aarhe.combat import BATTLES
from grandstrategy.axis_allies.aarhe.combat import odds as machine_odds
from grandstrategy.axis_allies.aarhe.combat.tables import tables, with_variant_hits
from grandstrategy.axis_allies.battle import Battle, check_battle
from grandstrategy.axis_allies.game import AAGame, AARuleSet, Profile
from grandstrategy.axis_allies.game.board import key, split
from grandstrategy.axis_allies.game.profile import BattleMachine
from grandstrategy.axis_allies.module.world import MapModule
from grandstrategy.axis_allies.odds import BattleOdds
from grandstrategy.axis_allies.units import BattleSetupError, RuleSet, find_rules

MODULE_ID = {
    "inf": "infantry",
    "art": "artillery",
    "arm": "armour",
    "hart": "heavy-artillery",
    "harm": "heavy-armour",
    "id": "aagun",
    "ftr": "fighter",
    "bmr": "bomber",
    "nav": "naval-fighter",
    "div": "dive-bomber",
    "trn": "transport",
    "sub": "submarine",
    "dd": "destroyer",
    "ca": "cruiser",
    "cv": "carrier",
    "bb": "battleship",
}
"""The calculator's aarhe unit keys -> the unit ids the combat machine's table names."""

EXTRA_UNITS = {
    "heavy-armour": "armour",
    "heavy-artillery": "artillery",
    "cruiser": "destroyer",
    "naval-fighter": "fighter",
    "dive-bomber": "fighter",
}
"""Optional units the Revised module lacks, each copied from the unit it moves like (its combat
numbers come from the variant's combat table, S3:L248)."""

EXACT_STATES = 20_000
"""The exact solver's size guard, in machine states (the odds module's default)."""
DEFAULT_TRIALS = 2_000
"""Monte Carlo battles when the user gives no ``--trials``: each is a full machine run."""
MAX_TRIALS = 20_000
"""At most this many machine battles per request (each die is a step of the machine)."""
MAX_UNITS = 60
"""At most this many units in one request, both sides and the bombarding ships together."""


def order_policy(order: tuple[str, ...]) -> machine_odds.Policy:
    """The default policy (AH-C10) with ``--order`` for casualties: a two-hit unit is still damaged
    first; then the unit type named earliest in ``order`` is lost, unnamed types after every named
    one, cheapest first among them (as the default). Every other choice is the default's."""
    rank = {MODULE_ID[unit]: i for i, unit in enumerate(order)}

    def policy(game: AAGame, options: list[str]) -> str:
        casualty = all(o.startswith(("lose ", "damage ")) and " retreating " not in o for o in options)
        if not casualty or any(o.startswith("damage ") for o in options):
            return machine_odds.default_policy(game, options)
        return min(
            options,
            key=lambda o: (rank.get(o.split()[2], len(rank)), game.stats[o.split()[2]].cost, o),
        )

    return policy


class CalculatorProfile(Profile):
    """Revised with the variant's battle machine, the variant's optional units and unit costs."""

    name = "aarhe-calculator"

    def __init__(self, module: MapModule) -> None:
        super().__init__(module)
        costs = {MODULE_ID[u.key]: u.cost for u in find_rules("aarhe").units.values()}
        stats = dict(self.stats)
        for unit, like in EXTRA_UNITS.items():
            stats[unit] = replace(stats[like], id=unit)
        for unit, cost in costs.items():
            if unit in stats:
                stats[unit] = replace(stats[unit], cost=cost)
        self.stats = with_variant_hits(MappingProxyType(stats))

    def battle_machine(self) -> BattleMachine | None:
        return BATTLES


RULES = AARuleSet(profile=CalculatorProfile)


def _arena_place(game: AAGame, sea: bool, terrain: str) -> tuple[str, str]:
    """``(where, zone)``: the battle's place and the sea zone a landing comes from."""
    t = tables()
    straits = {name for name, _ in t.straits} | {z for _, zones in t.straits for z in zones}
    for where in sorted(game.module.territories):
        info = game.module.territories[where]
        if where in straits or info.victory_city or info.impassable or info.capital:
            continue
        if sea:
            if info.type.value == "sea":
                return where, where
            continue
        if info.type.value == "sea" or (where in t.terrain_minus_one) != (terrain != "normal"):
            continue
        zones = sorted(n for n in info.neighbours if game.module.territories[n].type.value == "sea")
        zones = [z for z in zones if z not in straits]
        if zones:
            return where, zones[0]
    raise BattleSetupError(
        f"the map has no coastal territory with {terrain} terrain for an amphibious assault"
    )


def arena(
    attacker: dict[str, int],
    defender: dict[str, int],
    *,
    sea: bool = False,
    bombard: dict[str, int] | None = None,
    terrain: str = "normal",
    overland: dict[str, int] | None = None,
) -> tuple[AAGame, str]:
    """A board holding only the battle, the battle waiting to be fought: the first power in turn
    order attacks the first power of the other alliance. In a land battle the attacking land units
    land from the adjacent sea zone (an amphibious assault), where ``bombard`` ships wait, except
    the ``overland`` ones, which came by land. Units are the calculator's aarhe keys (``inf`` ...)."""
    game = RULES.new_state({"max_rounds": 0})
    game.d["units"] = {}
    where, zone = _arena_place(game, sea, terrain)
    first = game.order[0]
    enemy = next(p for p in game.order if game.alliance(p) != game.alliance(first))
    game.d["owner"][where] = enemy if not sea else game.d["owner"].get(where)
    game.d["turn"] = game.order.index(first)
    game.start_turn()
    game.d["phase"] = "combat"
    for power, force in ((first, attacker), (enemy, defender)):
        for unit, n in force.items():
            if n:
                game.add(where, key(power, MODULE_ID[unit], 0), n)
    if not sea:
        by_land = overland or {}
        land = {
            MODULE_ID[u]: n - by_land.get(u, 0)
            for u, n in attacker.items()
            if n > by_land.get(u, 0) and find_rules("aarhe").unit(u).domain == "land"
        }
        game.d["amphibious"] = {where: land}
        if bombard:
            for unit, n in bombard.items():
                game.add(zone, key(first, MODULE_ID[unit], 0), n)
            game.d["bombard"] = {where: [zone]}
    game.d["battles"] = [where]
    return game, where


def _forces(game: AAGame, power: str, ruleset: RuleSet) -> dict[str, int]:
    """``calculator key -> count`` of ``power``'s units anywhere on the board (a damaged two-hit
    unit still counts: it survived)."""
    back = {module: unit for unit, module in MODULE_ID.items()}
    totals: dict[str, int] = defaultdict(int)
    for place in list(game.d["units"]):
        for stack, n in game.stacks(place):
            owner, unit, _, _ = split(stack)
            if owner == power and unit in back:
                totals[back[unit]] += n
    order = list(ruleset.units)
    return {u: totals[u] for u in sorted(totals, key=order.index) if totals[u]}


def _text(force: dict[str, int]) -> str:
    return ", ".join(f"{n} {u}" for u, n in force.items()) or "-"


def aarhe_odds(
    attacker: dict[str, int],
    defender: dict[str, int],
    *,
    sea: bool,
    bombard: dict[str, int],
    terrain: str = "normal",
    overland: dict[str, int] | None = None,
    order: tuple[str, ...] = (),
    method: str = "auto",
    trials: int | None = None,
    seed: int = 1,
) -> BattleOdds:
    """Odds of a variant sea battle (``sea``) or amphibious assault in the calculator's format.

    Win/loss as the machine's odds judge them (:func:`~.aarhe.combat.odds.outcome_of`); of the
    rest, ``draw`` is both sides destroyed (bombarding ships aside) and ``undecided`` the others:
    both sides left, or a landing thrown back to its sea zone. Their sum is the machine odds' draw.

    :raises BattleSetupError: for a battle the rules forbid or ``method="exact"`` above the guard.
    """
    ruleset = find_rules("aarhe")
    if method not in ("auto", "exact", "monte-carlo"):
        raise BattleSetupError(f"unknown method {method!r}; choose auto, exact or monte-carlo")
    check_battle(Battle.make("aarhe", attacker, defender, sea=sea, bombard=bombard, terrain=terrain))
    if sea and terrain != "normal":
        raise BattleSetupError("--terrain applies only to land battles")
    by_land = overland or {}
    if by_land and sea:
        raise BattleSetupError("--overland applies only to amphibious assaults")
    for unit, n in by_land.items():
        if ruleset.unit(unit).domain != "land" or n > attacker.get(unit, 0):
            raise BattleSetupError(
                f"--overland: {n} {ruleset.unit(unit).name} is not among the attacking land units"
            )
    if not sea and not any(
        ruleset.unit(u).domain == "land" and n > by_land.get(u, 0) for u, n in attacker.items()
    ):
        raise BattleSetupError("an amphibious assault needs attacking land units to land from the sea")
    units = sum(attacker.values()) + sum(defender.values()) + sum(bombard.values())
    if units > MAX_UNITS:
        raise BattleSetupError(
            f"{units} units in one aarhe sea battle or landing; the machine takes at most {MAX_UNITS}"
        )
    if trials is not None and trials > MAX_TRIALS:
        raise BattleSetupError(
            f"--trials above {MAX_TRIALS:,} for an aarhe sea battle or landing (each trial is a full "
            f"machine battle), not {trials:,}"
        )
    policy = order_policy(order) if order else machine_odds.default_policy
    t0 = time.perf_counter()
    game, where = arena(attacker, defender, sea=sea, bombard=bombard, terrain=terrain, overland=by_land)
    first = game.order[0]
    powers = first, next(p for p in game.order if game.alliance(p) != game.alliance(first))
    note = ""
    ends: list[tuple[float, AAGame]]
    if method != "monte-carlo":
        try:
            ends, _ = machine_odds.exact_outcomes(game, where, policy, max_states=EXACT_STATES)
            used = "exact"
        except machine_odds.TooBig as exc:
            if method == "exact":
                raise BattleSetupError(
                    f"this battle is too large to solve exactly (more than {EXACT_STATES:,} machine "
                    "states); use --method monte-carlo (or auto) for a seeded estimate"
                ) from exc
            note = f"battle above the exact size guard ({EXACT_STATES:,} machine states); used Monte Carlo"
            method = "monte-carlo"
    n_trials = trials if trials is not None else DEFAULT_TRIALS
    if method == "monte-carlo":
        ends = machine_odds.simulate_outcomes(game, where, policy, trials=n_trials, seed=seed)
        used = "monte-carlo"
    start = (_forces(game, powers[0], ruleset), _forces(game, powers[1], ruleset))
    buckets = dict.fromkeys(("attacker_win", "defender_win", "draw", "undecided"), 0.0)
    survivors: tuple[dict[str, float], dict[str, float]] = (defaultdict(float), defaultdict(float))
    remaining: tuple[dict[str, float], dict[str, float]] = (defaultdict(float), defaultdict(float))
    lost = [0.0, 0.0]
    for p, end in ends:
        outcome = machine_odds.outcome_of(end, where)
        left = [_forces(end, power, ruleset) for power in powers]
        if outcome == 2:
            fighting = [
                [u for u in force if sea or ruleset.unit(u).domain != "sea"] for force in left
            ]  # the bombarding ships take no part in judging a landing
            outcome = 2 if not fighting[0] and not fighting[1] else 3
        buckets[("attacker_win", "defender_win", "draw", "undecided")[outcome]] += p
        for side in (0, 1):
            for unit, n in left[side].items():
                survivors[side][unit] += p * n
            remaining[side][_text(left[side])] += p
            lost[side] += p * sum(
                ruleset.unit(u).cost * (n - left[side].get(u, 0)) for u, n in start[side].items()
            )
    ses: dict[str, float] = {}
    if used == "monte-carlo":
        ses = {k: (v * (1 - v) / n_trials) ** 0.5 for k, v in buckets.items()}
    return BattleOdds(
        rules="aarhe",
        **buckets,
        attacker_survivors={u: survivors[0].get(u, 0.0) for u in start[0]},
        defender_survivors={u: survivors[1].get(u, 0.0) for u in start[1]},
        attacker_remaining=sorted(remaining[0].items(), key=lambda x: (-x[1], x[0])),
        defender_remaining=sorted(remaining[1].items(), key=lambda x: (-x[1], x[0])),
        attacker_tuv_lost=lost[0],
        defender_tuv_lost=lost[1],
        method=used,
        compute_ms=1000 * (time.perf_counter() - t0),
        trials=n_trials if used == "monte-carlo" else None,
        seed=seed if used == "monte-carlo" else None,
        standard_errors=ses,
        note=note,
    )
