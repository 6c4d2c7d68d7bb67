"""Seat players: a uniform random bot and a heuristic bot with a one-ply lookahead.

Both are deterministic functions of their seed and the position: ``choose(state, decision, ply=n)``
draws from an :class:`~grandstrategy.core.rng.Rng` seeded by ``(seed, ply)``, so a resumed game, a
replay and a simulation in another process make exactly the same choices. Neither imports
``random`` (STYLE.md: all randomness comes from the kernel's generator).

The heuristic bot treats every option as an opaque string. For each legal option it copies the
state, applies the option through the trusting door and follows the game to the next point where
somebody else must decide; it then scores the position from its ideology
(:func:`grandstrategy.play.games.position_value`). On the way:

- an effectiveness check (LR 5.3) is split into its success and failure branches, weighted by the
  exact probability (LR 2.8 dice arithmetic); nested checks split too, a few levels deep;
- any other roll (crisis tables, combat) is sampled with common random numbers, the same dice for
  every option, over ``samples`` runs, so options are compared under the same luck;
- a draw from the cup ends the look-ahead: the position is scored at the chance node;
- when the next decision is the bot's own (playing a flag leads to choosing the political action),
  it looks one level further and takes the best follow-up, and remembers that follow-up so the
  next call costs nothing.

A rule set may answer the choice itself (:func:`grandstrategy.play.games.policy_choice`): Axis &
Allies, whose turns hold fifty decisions of a hundred options, uses a greedy policy on exact
battle odds (``axis_allies/game/policy.py``) instead of the look-ahead.

Small priors break ties and encode common sense (do not forfeit or reject when something else is
as good); an option the priors do not know scores 0. The number of simulated continuations per
decision is capped (``max_sims``): with many options the bot keeps the best by prior and shortens
its sampling, so a decision always stays in the low milliseconds.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from functools import cache
from itertools import product
from typing import Protocol

from grandstrategy.core.actions import Action
from grandstrategy.core.chance import sample_index
from grandstrategy.core.ids import CHANCE, TERMINAL
from grandstrategy.core.rng import Rng
from grandstrategy.core.session import DecisionPoint
from grandstrategy.core.state import GameState
from grandstrategy.play.games import (
    attack_odds,
    check_chain,
    has_option_odds,
    policy_choice,
    position_value,
    seat_group,
)


def derive_seed(*parts: object) -> int:
    """A 64-bit seed from any tuple of ints and strings, the same in every process and on every Python."""
    digest = hashlib.sha256(repr(parts).encode("utf-8")).digest()
    return int.from_bytes(digest[:8], "big")


class Bot(Protocol):
    """Anything that can hold a seat: picks one of the decision's legal actions."""

    kind: str

    def choose(self, state: GameState, decision: DecisionPoint, *, ply: int = 0) -> Action:
        """Return one of ``decision.legal``; ``ply`` (the log length) seeds the bot's dice."""
        ...


@dataclass
class RandomBot:
    """Chooses uniformly among the legal actions, with the kernel's seeded generator."""

    seed: int
    kind: str = "bot:random"

    def choose(self, state: GameState, decision: DecisionPoint, *, ply: int = 0) -> Action:
        """A uniformly random legal action; the same for the same ``(seed, ply)``."""
        legal = decision.legal
        if len(legal) == 1:
            return legal[0]
        return legal[Rng(derive_seed(self.seed, ply)).below(len(legal))]


# ---- priors -----------------------------------------------------------------------------------------

_WORD_PRIORS: dict[str, float] = {
    "forfeit": -0.6,  # an action thrown away (LR 3.7): only when everything else is worse
    "reject": -0.25,  # a drawn counter sent back unused (LR 3.6)
    "cancel": -0.3,
    "play": 0.15,
    "interrupt": 0.05,
    "propaganda": 0.05,
    "done": 0.05,  # ends a sequence (deployment, activation): on a tie, stop rather than loop
}


def option_prior(state: GameState, seat: str, option: str) -> float:
    """A small, game-aware nudge for an option's text; unknown options get 0 (neutral).

    Operations and attacks consult the exact chance that the attack wins, the figure the terminal
    shows beside the option (:func:`grandstrategy.play.games.attack_odds`; nothing when unknown).
    In Axis & Allies every option is asked: combat moves into a battle, fights, pressing an
    attack and each casualty get the exact chance that the battle goes the seat's way.
    """
    words = option.split()
    if not words:
        return 0.0
    prior = _WORD_PRIORS.get(words[0], 0.0)
    if _is_attack(option) or has_option_odds(state):
        prior += _odds_prior(state, seat, option)
    return prior


_ATTACKS = ("invasion of ", "strategic bombing of ", "base capture at ", "surprise ", "atomic bombing of ")


def _is_attack(option: str) -> bool:
    """Whether the option declares an operation (e.g. ``land operation against Poland``)."""
    return " operation against " in option or option.startswith(_ATTACKS)


def _odds_prior(state: GameState, seat: str, option: str) -> float:
    """From -1 to +1 with the exact chance that the operation wins its combat (0 when unknown)."""
    p = attack_odds(state, seat, option)
    return 0.0 if p is None else 2.0 * (p - 0.5)


# ---- exact check probabilities ------------------------------------------------------------------------


@cache
def _success_probability(dice: tuple[int, ...], left: int, modifier: int) -> float:
    """P(an effectiveness check succeeds) given the dice rolled so far and the dice still to roll."""
    from grandstrategy.cataclysm.rules.dice import SUCCESS, result_distribution, roll_result

    if not dice:
        return float(sum(p for value, p in result_distribution(left, modifier).items() if value >= SUCCESS))
    hits = 0
    for rest in product(range(1, 7), repeat=left):
        hits += roll_result([*dice, *rest], modifier) >= SUCCESS
    return float(hits) / float(6**left)


def _check_probability(state: GameState) -> float | None:
    """The success probability of the effectiveness check about to be rolled, if one is."""
    chain = check_chain(state)
    if chain is None:
        return None
    dice, left, modifier = chain
    try:
        return _success_probability(tuple(dice), left, modifier)
    except (ImportError, ValueError):
        return None


# ---- the heuristic bot ----------------------------------------------------------------------------------


@dataclass
class _Run:
    """Book-keeping of one simulated continuation."""

    rng: Rng
    sampled: bool = False
    chance_steps: int = 0
    own_steps: int = 0
    sims: int = 0


_ROLLOUT_STEPS = 30  # own decisions played by prior, at most, when the look-ahead runs out of depth
_STREAK = 60  # own decisions in a row with nothing else happening: a loop; follow the priors


def _by_prior(state: GameState, seat: str, legal: list[Action]) -> Action:
    """The option with the best prior (the engine's first on ties)."""
    priors = [option_prior(state, seat, _option_text(a)) for a in legal]
    return legal[max(range(len(legal)), key=lambda i: (priors[i], -i))]


@dataclass
class HeuristicBot:
    """Scores each legal option by a short look-ahead from its seat's side (see the module doc).

    :param seed: seeds the sampling of rolls in the look-ahead (with the ply).
    :param samples: runs per option when an unknown roll is sampled.
    :param depth: how many of its own decisions in a row it looks through (1 = only the next).
    :param branch_depth: how many nested effectiveness checks it splits into success and failure.
    :param max_sims: cap on simulated continuations per decision.
    :param check_width: options leading to an effectiveness check that are followed in full.
    """

    seed: int
    samples: int = 2
    depth: int = 2
    branch_depth: int = 3
    max_sims: int = 160
    check_width: int = 5
    kind: str = "bot:heuristic"
    _plans: dict[tuple[object, ...], str] = field(default_factory=dict, repr=False)
    sims: int = field(default=0, repr=False)
    _streak: int = field(default=0, repr=False)
    _last_ply: int = field(default=-2, repr=False)

    def choose(self, state: GameState, decision: DecisionPoint, *, ply: int = 0) -> Action:
        """The legal action with the best look-ahead value plus prior (first in order on ties)."""
        legal = decision.legal
        if len(legal) == 1:
            return legal[0]
        texts = [_option_text(a) for a in legal]
        planned_by_rules = policy_choice(state, decision.seat, texts)
        if planned_by_rules is not None and planned_by_rules in texts:
            return legal[texts.index(planned_by_rules)]
        self._streak = self._streak + 1 if ply == self._last_ply + 1 else 0
        self._last_ply = ply
        if self._streak > _STREAK:  # the same seat deciding on and on with nothing else happening
            return _by_prior(state, decision.seat, list(legal))
        key = (ply, decision.seat, state.phase(), decision.notations())
        planned = self._plans.pop(key, None)
        if len(self._plans) > 64:
            self._plans.clear()
        if planned is not None:
            for action in legal:
                if str(action) == planned:
                    return action
        best = self._best(state, decision.seat, list(legal), ply, self.depth, self.max_sims)
        return best[0]

    # -- search -------------------------------------------------------------------------------------

    def option_values(
        self, state: GameState, decision: DecisionPoint, *, ply: int = 0
    ) -> list[tuple[int, float]]:
        """``(index in decision.legal, value)`` of the options the look-ahead scores, in the engine's
        order; the options the screen drops are left out. For the search bot's ranking: the same
        computation as :meth:`choose` without its plans (a fresh bot gives the fresh values)."""
        return self._values(state, decision.seat, list(decision.legal), ply, self.depth, self.max_sims)

    def _best(
        self, state: GameState, seat: str, legal: list[Action], ply: int, depth: int, budget: int
    ) -> tuple[Action, float]:
        """The best of ``legal`` with its value, spending about ``budget`` simulations (the first of
        equal values, within 1e-9, in the engine's order)."""
        values = self._values(state, seat, legal, ply, depth, budget)
        best_index, best_value = values[0][0], float("-inf")
        for index, value in values:
            if value > best_value + 1e-9:
                best_index, best_value = index, value
        return legal[best_index], best_value

    def _values(
        self, state: GameState, seat: str, legal: list[Action], ply: int, depth: int, budget: int
    ) -> list[tuple[int, float]]:
        """The look-ahead value plus prior of the options worth following, spending about ``budget``
        simulations.

        First every option is applied once (a screen): an option whose next step is an
        effectiveness check gets its exact success probability. Of those, only the ``check_width``
        most likely to succeed are followed further (success and failure both), which keeps a
        menu of twenty diplomacy targets affordable; every other option is followed in full.
        """
        priors = [option_prior(state, seat, _option_text(a)) for a in legal]
        screened: list[tuple[int, GameState, float | None]] = []
        for index, action in enumerate(legal):
            child = fork(state)
            child.apply(action)
            screened.append((index, child, _check_probability(child)))
        checks = [item for item in screened if item[2] is not None]
        if len(checks) > self.check_width:
            ranked = sorted(checks, key=lambda item: (-((item[2] or 0.0) + priors[item[0]]), item[0]))
            dropped = {item[0] for item in ranked[self.check_width :]}
            screened = [item for item in screened if item[0] not in dropped]
        width = max(2, budget // 2)
        if len(screened) > width:  # keep the most promising by prior; ties keep the engine's order
            screened = sorted(screened, key=lambda item: (-priors[item[0]], item[0]))[:width]
            screened.sort(key=lambda item: item[0])
        per_option = max(1, budget // max(1, len(screened)))
        base = derive_seed(self.seed, ply, "look-ahead")
        return [
            (
                index,
                self._option_value(state, child, seat, legal[index], ply, depth, per_option, base)
                + priors[index],
            )
            for index, child, _ in screened
        ]

    def _option_value(
        self,
        parent: GameState,
        applied: GameState,
        seat: str,
        action: Action,
        ply: int,
        depth: int,
        budget: int,
        base: int,
    ) -> float:
        """Mean value over sampled runs from ``applied`` (``parent`` after ``action``).

        One run suffices when nothing had to be sampled (the usual case), so later runs, which
        need a fresh copy, are made only when the first one sampled a roll.
        """
        total, runs = 0.0, 0
        samples = max(1, min(self.samples, budget // 2))
        for sample in range(samples):
            run = _Run(Rng(derive_seed(base, sample)))
            if sample == 0:
                child = applied
            else:
                child = fork(parent)
                child.apply(action)
            total += self._settle(child, seat, run, ply + 1, depth, self.branch_depth, budget, action)
            runs += 1
            self.sims += run.sims
            if not run.sampled:
                break
        return total / runs

    def _settle(
        self,
        state: GameState,
        seat: str,
        run: _Run,
        ply: int,
        depth: int,
        branches: int,
        budget: int,
        first: Action | None = None,
    ) -> float:
        """Follow ``state`` to the next decision by someone else (or a draw), then score it."""
        run.sims += 1
        while True:
            who = state.to_act()
            if who is TERMINAL:
                return position_value(state, seat)
            if who is CHANCE:
                chain = check_chain(state) if branches > 0 else None
                if chain is not None:
                    dice, left, modifier = chain
                    try:
                        p = _success_probability(tuple(dice), left, modifier)
                    except (ImportError, ValueError):
                        chain = None
                if chain is not None:
                    if p >= 1.0 or p <= 0.0:
                        _feed(state, "6" if p >= 1.0 else "1", left)
                        ply += left
                        continue
                    win = fork(state)
                    _feed(win, "6", left)
                    _feed(state, "1", left)
                    rest = max(2, budget // 2)
                    good = self._settle(win, seat, run, ply + left, depth, branches - 1, rest)
                    bad = self._settle(state, seat, run, ply + left, depth, branches - 1, rest)
                    return p * good + (1.0 - p) * bad
                node = state.chance_node()
                if node.kind == "draw" or run.chance_steps > 200:
                    return position_value(state, seat)  # scored at the node: who draws what is luck
                index = sample_index(run.rng, [p for _, p in node.outcomes])
                state.apply_chance(node.outcomes[index][0])
                run.sampled = True
                run.chance_steps += 1
                ply += 1
                continue
            if who != seat:
                return position_value(state, seat)
            legal = list(state.legal_actions())
            if len(legal) == 1:
                state.apply(legal[0])
                ply += 1
                continue
            if depth > 1 and budget >= 4:
                action, value = self._best(state, seat, legal, ply, depth - 1, budget)
                if run.chance_steps == 0 and first is not None:
                    self._plans[(ply, who, state.phase(), tuple(str(a) for a in legal))] = str(action)
                return value
            # Out of depth at our own decision: finish the sequence with the priors' choice, so
            # that stopping ("done") and going on are compared with the same consequences.
            run.own_steps += 1
            if run.own_steps > _ROLLOUT_STEPS:
                return position_value(state, seat)
            state.apply(_by_prior(state, seat, legal))
            ply += 1


def fork(state: GameState) -> GameState:
    """A copy of ``state`` to look ahead on: the rule set's cheaper ``fork()`` (copy on write,
    Cataclysm's units) where it has one, else ``clone()``. The original is not changed either way."""
    cheaper = getattr(state, "fork", None)
    if callable(cheaper):
        copied: GameState = cheaper()
        return copied
    return state.clone()


def _option_text(action: Action) -> str:
    """The option part of an action's notation (``germany: diplomacy poland`` -> ``diplomacy poland``)."""
    option = getattr(action, "option", None)
    if isinstance(option, str):
        return option
    text = str(action)
    return text.partition(":")[2].strip() or text


def _feed(state: GameState, face: str, count: int) -> None:
    """Answer ``count`` die chance nodes in a row with ``face``."""
    for _ in range(count):
        state.apply_chance(face)


def make_bot(kind: str, seed: int) -> Bot:
    """A bot of the given kind (``bot:random``, ``bot:heuristic`` or ``bot:search``).

    :raises ValueError: ``kind`` is not a bot (``human`` included).
    """
    if kind == "bot:random":
        return RandomBot(seed)
    if kind == "bot:heuristic":
        return HeuristicBot(seed)
    if kind == "bot:search":
        from grandstrategy.play.search import SearchBot  # it builds on this module's priors

        return SearchBot(seed)
    raise ValueError(f"{kind!r} is not a kind of bot")


def bot_seed(game_seed: int, seat: str) -> int:
    """The seed of the bot in ``seat`` for a game seeded ``game_seed``."""
    return derive_seed(game_seed, "bot", seat)


__all__ = [
    "Bot",
    "HeuristicBot",
    "RandomBot",
    "bot_seed",
    "derive_seed",
    "make_bot",
    "option_prior",
    "seat_group",
]
