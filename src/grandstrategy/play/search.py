"""A search bot: information-set Monte Carlo tree search over the kernel's step machine, spent
where it matters and built on the heuristic bot.

The bot grows one tree per decision with single-observer information-set MCTS (SO-ISMCTS;
Cowling, Powley and Whitehouse, "Information Set Monte Carlo Tree Search", IEEE Transactions on
Computational Intelligence and AI in Games 4(2), 2012), used as an on-line policy improvement of
the heuristic bot: the rollout algorithm of Tesauro and Galperin ("On-line Policy Improvement
using Monte-Carlo Search", NIPS 1996) and Bertsekas, Tsitsiklis and Wu ("Rollout Algorithms for
Combinatorial Optimization", Journal of Heuristics 3, 1997), with UCT choosing which candidate to
simulate next. What it keeps from the heuristic bot (:class:`grandstrategy.play.bots.HeuristicBot`):

- **search only where it matters**: in Cataclysm, the search runs at political and military
  actions (a menu that declares an operation, a war, diplomacy, propaganda, escalation,
  maneuvers or deployment); every other decision (a flag to place, a counter to play or reserve,
  a unit to move) is the heuristic bot's, from its own copy seeded like a heuristic bot. In
  another rule set every decision is searched. ``everywhere=True`` searches every decision;
- **progressive widening over the heuristic's ranking** (Coulom, "Computing Elo Ratings of Move
  Patterns in the Game of Go", ICGA Journal 30(4), 2007; Chaslot et al., "Progressive Strategies
  for Monte-Carlo Tree Search", New Mathematics and Natural Computation 4(3), 2008): the root's
  options are ranked by the heuristic bot's look-ahead values (its own choice first); after ``n``
  simulations only the first ``1 + widening * sqrt(n)`` are candidates, so a small budget is not
  spread one sample per option over twenty diplomacy targets, the failure of the first version;
- **priors**: among tried edges the choice is UCT (Kocsis and Szepesvari, "Bandit based Monte-Carlo
  Planning", ECML 2006) with a progressive-bias term ``bias * prior / (visits + 1)`` from
  :func:`grandstrategy.play.bots.option_prior` (the exact chance that a declared operation wins,
  ``attack_odds``), plus ``trust`` for the heuristic's own choice: the search leaves it only when
  the simulations say so;
- **the heuristic as the model of every seat in the rollouts**: after the tree (``depth`` decisions
  deep, default 1: the root's candidates), every seat's decisions for ``rollout`` more choices are
  a cheap heuristic bot's (one sample, one level; ``policy="heuristic"``), the policy of the other
  seats in the benchmark and the base policy a rollout algorithm improves on; ``prior`` (best
  prior, random among equals) and ``random`` remain for comparison;
- **the heuristic's position value at the leaves**: the position is scored with
  :func:`grandstrategy.play.games.position_value` for every ideology on the path. A value enters
  the tree as ``tanh((value - value at the root) / scale)``, a reward in (-1, 1);
- **common random numbers**: the ``j``-th simulation of every root candidate draws its chance
  outcomes from the same generator, so candidates are compared under the same luck (the
  variance reduction of the heuristic bot's sampling, and of Tesauro and Galperin's rollouts).

Each simulation **determinizes** (see :func:`determinize`), **selects** down the tree (options
legal in only some determinizations are the paper's subset-armed bandit: an edge's exploration
term counts the simulations in which it was *available*), **samples chance** from the kernel's
exact distributions (:func:`grandstrategy.core.chance.sample_index`; open loop, chance is not a
tree level), **rolls out**, **evaluates** and **backs up** each edge's reward from the ideology of
the seat that chose it. The move played is the root edge visited most (ties: better mean plus
prior, then the ranking).

The budget is a number of simulations (default :data:`DEFAULT_SIMULATIONS`), which keeps play a
pure function of ``(seed, ply, position)`` like the other bots. ``seconds`` replaces it with a
time budget per searched decision; play then depends on the machine's speed and is **not
reproducible** (a benchmark option, never the default). States are copied with the heuristic
bot's :func:`~grandstrategy.play.bots.fork` and applied in place through the trusting door
(``apply``), never through :class:`~grandstrategy.core.session.Match`.
"""

from __future__ import annotations

import math
import time
from collections.abc import Sequence
from dataclasses import dataclass, field

from grandstrategy.core.actions import Action
from grandstrategy.core.chance import sample_index
from grandstrategy.core.ids import CHANCE, TERMINAL
from grandstrategy.core.rng import Rng
from grandstrategy.core.session import DecisionPoint
from grandstrategy.core.state import GameState
from grandstrategy.play.bots import HeuristicBot, _is_attack, _option_text, derive_seed, fork, option_prior
from grandstrategy.play.games import as_cataclysm, position_value, seat_group

DEFAULT_SIMULATIONS = 16
"""Simulations per searched decision when no time budget is given."""

MAX_SIMULATIONS = 100_000
"""Cap on simulations per decision, also under a time budget (inputs are bounded)."""

_MAX_CHANCE = 400  # chance nodes answered in one simulation before it is cut short (a loop guard)
_MAX_FORCED = 2000  # decisions with one legal option played in one simulation (a loop guard)
_STREAK = 60  # own decisions in a row with nothing else happening: a loop; follow the priors
_POLICIES = ("heuristic", "prior", "random")
_STRATEGIC = frozenset({"deploy", "diplomacy", "declare-war", "propaganda", "escalation", "maneuvers"})
"""First words of Cataclysm's political (LR 6) and military (LR 8.0) action menus: where searching pays."""


def matters(state: GameState, options: Sequence[str]) -> bool:
    """Whether the search spends its budget on a decision with these options (see the module doc):
    in Cataclysm a political or military action menu, in any other rule set every decision."""
    if as_cataclysm(state) is None:
        return True
    return any(_is_attack(option) or option.split(" ", 1)[0] in _STRATEGIC for option in options)


@dataclass
class _Edge:
    """One option at a node: its statistics and the subtree after it."""

    prior: float
    rank: int = 0
    visits: int = 0
    total: float = 0.0
    available: int = 0
    child: _Node | None = None

    def mean(self) -> float:
        """The mean reward so far (0 before any visit)."""
        return self.total / self.visits if self.visits else 0.0


@dataclass
class _Node:
    """A sequence of decisions from the root; edges by the option's notation."""

    edges: dict[str, _Edge] = field(default_factory=dict)
    visits: int = 0


def determinize(state: GameState, rng: Rng) -> GameState:
    """A copy of ``state`` standing for one member of the deciding seat's information set.

    What a seat may not see is what :func:`grandstrategy.core.view.view` leaves out. In
    Cataclysm that is only the contents of the action cup (LR 1.4: the view shows its size).
    Every counter enters and leaves the cup in the open, so the contents follow from public
    history, and the engine keeps the cup as a sorted multiset: a draw is a chance node weighted
    by the counts, with no hidden order to shuffle. The unknown part of a Cataclysm position is
    therefore its future chance outcomes, which the search samples afresh in every simulation
    with ``rng``; the copy itself needs no change. A rule set with hidden hands would resample
    them here.
    """
    del rng  # nothing hidden to resample in the shipped rule sets (see above)
    return fork(state)


@dataclass
class SearchBot:
    """Chooses by information-set MCTS on top of the heuristic bot (see the module doc).

    :param seed: seeds every simulation's generator (with the ply and the simulation's number),
        and the heuristic bot that answers the decisions not searched.
    :param simulations: simulations per searched decision (the reproducible budget).
    :param seconds: a time budget per searched decision instead; not reproducible (``None``: off).
    :param rollout: decisions with a choice played after the tree, at most, before scoring.
    :param policy: ``heuristic`` (a cheap heuristic bot for every seat), ``prior`` or ``random``.
    :param exploration: the UCT constant for rewards in (-1, 1).
    :param bias: weight of the progressive bias ``prior / (visits + 1)``.
    :param scale: value difference that maps to a reward of about 0.76 (``tanh(1)``).
    :param depth: decisions selected in the tree per simulation (1: the root's options only).
    :param widening: progressive widening, candidates ``1 + widening * sqrt(visits)``; 0: all.
    :param trust: prior added to the heuristic bot's own choice at the root.
    :param everywhere: search every decision, not only those that matter.
    """

    seed: int
    simulations: int = DEFAULT_SIMULATIONS
    seconds: float | None = None
    rollout: int = 8
    policy: str = "heuristic"
    exploration: float = 0.7
    bias: float = 1.0
    scale: float = 3.0
    depth: int = 1
    widening: float = 0.6
    trust: float = 0.1
    everywhere: bool = False
    kind: str = "bot:search"
    sims: int = field(default=0, repr=False)
    searched: int = field(default=0, repr=False)
    _streak: int = field(default=0, repr=False)
    _last_ply: int = field(default=-2, repr=False)
    _heuristic: HeuristicBot | None = field(default=None, repr=False)

    def __post_init__(self) -> None:
        if not 1 <= self.simulations <= MAX_SIMULATIONS:
            raise ValueError(f"simulations must be from 1 to {MAX_SIMULATIONS}, not {self.simulations}")
        if self.seconds is not None and not 0 < self.seconds <= 3600:
            raise ValueError(f"a time budget must be above 0 and at most 3600 seconds, not {self.seconds}")
        if self.policy not in _POLICIES:
            raise ValueError(f"rollout policy must be one of {', '.join(_POLICIES)}, not {self.policy!r}")
        if self.rollout < 0:
            raise ValueError(f"rollout length must be 0 or more, not {self.rollout}")
        if not 1 <= self.depth <= 40:
            raise ValueError(f"tree depth must be from 1 to 40, not {self.depth}")
        if self.widening < 0:
            raise ValueError(f"progressive widening must be 0 or more, not {self.widening}")
        self._heuristic = HeuristicBot(self.seed)

    def choose(self, state: GameState, decision: DecisionPoint, *, ply: int = 0) -> Action:
        """The heuristic bot's choice where the search does not pay, else the root option the
        search visited most; the same for the same seed, ply and position (unless a time budget)."""
        legal = decision.legal
        if len(legal) == 1:
            return legal[0]
        assert self._heuristic is not None
        own = self._heuristic.choose(state, decision, ply=ply)  # also keeps its plans in step
        texts = [_option_text(a) for a in legal]
        if not self.everywhere and not matters(state, texts):
            return own
        self._streak = self._streak + 1 if ply == self._last_ply + 1 else 0
        self._last_ply = ply
        if self._streak > _STREAK:  # the same seat deciding on and on: a loop, follow the heuristic
            return own
        self.searched += 1
        root = self._root(state, decision, own, texts, ply)
        baseline: dict[str, float] = {}
        deadline = None if self.seconds is None else time.perf_counter() + self.seconds
        limit = MAX_SIMULATIONS if deadline is not None else self.simulations
        base = derive_seed(self.seed, ply, "search")
        for number in range(limit):
            self._simulate(state, root, base, number, ply, baseline)
            self.sims += 1
            if deadline is not None and time.perf_counter() >= deadline:
                break
        edges = [root.edges[str(a)] for a in legal]
        best = max(
            range(len(legal)),
            key=lambda i: (edges[i].visits, edges[i].mean() + edges[i].prior, -edges[i].rank),
        )
        return legal[best]

    def _root(
        self, state: GameState, decision: DecisionPoint, own: Action, texts: list[str], ply: int
    ) -> _Node:
        """The root's edges, ranked: the heuristic's choice, then its look-ahead values, then the
        options its screen dropped by prior (the engine's order on ties)."""
        legal = decision.legal
        priors = [option_prior(state, decision.seat, text) for text in texts]
        values = dict(HeuristicBot(self.seed).option_values(state, decision, ply=ply))
        chosen = legal.index(own)
        order = sorted(
            range(len(legal)),
            key=lambda i: (i != chosen, i not in values, -values.get(i, priors[i]), i),
        )
        root = _Node()
        for rank, i in enumerate(order):
            bonus = self.trust if i == chosen else 0.0
            root.edges[str(legal[i])] = _Edge(priors[i] + bonus, rank=rank)
        return root

    # -- one simulation -----------------------------------------------------------------------------

    def _simulate(
        self, root_state: GameState, root: _Node, base: int, number: int, ply: int, baseline: dict[str, float]
    ) -> None:
        """Determinize, select and expand, roll out, evaluate and back up once."""
        state = determinize(root_state, Rng(derive_seed(base, "determinize", number)))
        node: _Node | None = root
        path: list[tuple[_Edge, str]] = []
        rng: Rng | None = None
        rollout_bot: HeuristicBot | None = None
        chance = rolled = forced = 0
        while True:
            who = state.to_act()
            if who is TERMINAL:
                break
            if who is CHANCE:
                chance += 1
                if chance > _MAX_CHANCE or rng is None:
                    break
                outcomes = state.chance_node().outcomes
                state.apply_chance(outcomes[sample_index(rng, [p for _, p in outcomes])][0])
                ply += 1
                continue
            seat = str(who)
            legal = state.legal_actions()
            if len(legal) == 1:
                forced += 1
                if forced > _MAX_FORCED:
                    break
                state.apply(legal[0])
                ply += 1
                continue
            if node is None:  # past the tree: the rollout
                if rolled >= self.rollout or rng is None:
                    break
                if rollout_bot is None and self.policy == "heuristic":
                    rollout_bot = HeuristicBot(
                        rng.below(2**62), samples=1, depth=1, max_sims=12, check_width=3
                    )
                state.apply(self._rollout_choice(state, seat, legal, rng, rollout_bot, ply))
                rolled += 1
                ply += 1
                continue
            index, edge = self._select(state, node, seat, legal)
            if rng is None:  # common random numbers: the j-th visit of every root edge, the same dice
                rng = Rng(derive_seed(base, "dice", edge.visits))
            path.append((edge, seat))
            node.visits += 1
            expanded = edge.visits == 0
            state.apply(legal[index])
            ply += 1
            if edge.child is None:
                edge.child = _Node()
            node = None if expanded or len(path) >= self.depth else edge.child
        values: dict[str, float] = {}
        for edge, seat in path:
            group = seat_group(state, seat)
            if group not in values:
                if group not in baseline:
                    baseline[group] = position_value(root_state, seat)
                values[group] = math.tanh((position_value(state, seat) - baseline[group]) / self.scale)
            edge.visits += 1
            edge.total += values[group]

    def _select(self, state: GameState, node: _Node, seat: str, legal: Sequence[Action]) -> tuple[int, _Edge]:
        """The edge to follow at ``node``: among the candidates progressive widening admits, an
        untried one (best rank first), else UCT with progressive bias, counting each edge's
        availability (the subset-armed bandit)."""
        actions = list(legal)
        edges: list[_Edge] = []
        for action in actions:
            text = str(action)
            edge = node.edges.get(text)
            if edge is None:
                prior = option_prior(state, seat, _option_text(action))
                edge = node.edges[text] = _Edge(prior, rank=len(node.edges) + 10_000)
            edges.append(edge)
        order = sorted(range(len(edges)), key=lambda i: (edges[i].rank, -edges[i].prior, i))
        if self.widening > 0:
            order = order[: 1 + int(self.widening * math.sqrt(node.visits))]
        for i in order:
            edges[i].available += 1
        untried = [i for i in order if edges[i].visits == 0]
        if untried:
            return untried[0], edges[untried[0]]

        def score(i: int) -> float:
            edge = edges[i]
            explore = self.exploration * math.sqrt(math.log(edge.available) / edge.visits)
            return edge.mean() + explore + self.bias * edge.prior / (edge.visits + 1)

        best = max(order, key=lambda i: (score(i), -edges[i].rank))
        return best, edges[best]

    def _rollout_choice(
        self,
        state: GameState,
        seat: str,
        legal: Sequence[Action],
        rng: Rng,
        bot: HeuristicBot | None,
        ply: int,
    ) -> Action:
        """The rollout policy's option: a cheap heuristic bot's, uniformly random, or the best
        prior (random among equals).

        The prior policy skips the exact odds of operations (an attack counts as neutral there):
        they cost more than the rest of a rollout step, and the tree's edges use them already."""
        actions = list(legal)
        if bot is not None:
            return bot.choose(state, DecisionPoint(seat, tuple(actions)), ply=ply)  # type: ignore[arg-type]
        if self.policy == "random":
            return actions[rng.below(len(actions))]
        texts = [_option_text(a) for a in actions]
        priors = [0.0 if _is_attack(text) else option_prior(state, seat, text) for text in texts]
        top = max(priors)
        best = [a for a, p in zip(actions, priors, strict=True) if p >= top - 1e-9]
        return best[rng.below(len(best))]


__all__ = ["DEFAULT_SIMULATIONS", "MAX_SIMULATIONS", "SearchBot", "determinize", "matters"]
