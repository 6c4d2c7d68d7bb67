"""A search bot: information-set Monte Carlo tree search over the kernel's step machine.

The bot grows one tree per decision with single-observer information-set MCTS (SO-ISMCTS;
Cowling, Powley and Whitehouse, "Information Set Monte Carlo Tree Search", IEEE Transactions on
Computational Intelligence and AI in Games 4(2), 2012). Every simulation:

1. **determinizes**: takes a copy of the position the bot may reason about (see
   :func:`determinize`) and seeds a private generator from ``(seed, ply, simulation)``;
2. **selects** down the tree. A node is a sequence of decisions; its edges are the options by
   notation. Options that were legal in only some determinizations are handled as the paper's
   subset-armed bandit: an edge's exploration term counts the simulations in which it was
   *available*, not the parent's visits. Among tried edges the choice is UCT (Kocsis and
   Szepesvari, "Bandit based Monte-Carlo Planning", ECML 2006) with a progressive-bias term
   (Chaslot et al., "Progressive Strategies for Monte-Carlo Tree Search", 2008) from the
   heuristic bot's priors, :func:`grandstrategy.play.bots.option_prior`, which include the exact
   chance that a declared operation wins (``attack_odds``). Untried edges are expanded first,
   best prior first. Every seat's decisions are in the tree, each chosen for its own ideology;
   a decision with one legal option is played straight through and takes no tree level;
3. **samples chance** from the kernel's exact distributions: each chance node (dice, tables, cup
   draws) is answered with :func:`grandstrategy.core.chance.sample_index` on the simulation's
   generator, so chance outcomes are part of the determinization and are not tree levels
   (open-loop: the same decisions after different dice share a node);
4. **rolls out** a short, fixed number of decisions with the priors' policy (best prior, random
   among equals) or uniformly at random, then **evaluates** the position with
   :func:`grandstrategy.play.games.position_value` for every ideology on the path. A value enters
   the tree as ``tanh((value - value at the root) / scale)``, a reward in (-1, 1);
5. **backs up** each edge's reward from the ideology of the seat that chose it.

The move played is the root edge visited most (ties: better mean, then the engine's order).

The budget is a number of simulations (default :data:`DEFAULT_SIMULATIONS`), which keeps play a
pure function of ``(seed, ply, position)`` like the other bots. ``seconds`` replaces it with a
time budget per decision; play then depends on the machine's speed and is **not reproducible**
(a benchmark option, never the default). Copying a state is the main cost, as in the heuristic
bot: one copy per simulation, applied in place through the trusting door (``apply``), never
through :class:`~grandstrategy.core.session.Match`.
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
from grandstrategy.play.bots import _is_attack, _option_text, derive_seed, option_prior
from grandstrategy.play.games import position_value, seat_group

DEFAULT_SIMULATIONS = 32
"""Simulations per decision when no time budget is given."""

MAX_SIMULATIONS = 100_000
"""Cap on simulations per decision, also under a time budget (inputs are bounded)."""

_MAX_CHANCE = 400  # chance nodes answered in one simulation before it is cut short (a loop guard)
_MAX_FORCED = 2000  # decisions with one legal option played in one simulation (a loop guard)
_MAX_TREE_DEPTH = 40  # decisions selected in the tree in one simulation
_STREAK = 60  # own decisions in a row with nothing else happening: a loop; follow the priors
_POLICIES = ("prior", "random")


@dataclass
class _Edge:
    """One option at a node: its statistics and the subtree after it."""

    prior: float
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
    return state.clone()


@dataclass
class SearchBot:
    """Chooses by information-set MCTS (see the module doc).

    :param seed: seeds every simulation's generator (with the ply and the simulation's number).
    :param simulations: simulations per decision (the reproducible budget).
    :param seconds: a time budget per decision instead; not reproducible (``None``: off).
    :param rollout: decisions played after the tree, at most, before the position is scored.
    :param policy: ``prior`` (the heuristic's priors, random among equals) or ``random``.
    :param exploration: the UCT constant for rewards in (-1, 1).
    :param bias: weight of the progressive bias ``prior / (visits + 1)``.
    :param scale: value difference that maps to a reward of about 0.76 (``tanh(1)``).
    """

    seed: int
    simulations: int = DEFAULT_SIMULATIONS
    seconds: float | None = None
    rollout: int = 10
    policy: str = "prior"
    exploration: float = 0.7
    bias: float = 1.0
    scale: float = 3.0
    kind: str = "bot:search"
    sims: int = field(default=0, repr=False)
    _streak: int = field(default=0, repr=False)
    _last_ply: int = field(default=-2, repr=False)

    def __post_init__(self) -> None:
        if not 1 <= self.simulations <= MAX_SIMULATIONS:
            raise ValueError(f"simulations must be from 1 to {MAX_SIMULATIONS}, not {self.simulations}")
        if self.seconds is not None and not 0 < self.seconds <= 3600:
            raise ValueError(f"a time budget must be above 0 and at most 3600 seconds, not {self.seconds}")
        if self.policy not in _POLICIES:
            raise ValueError(f"rollout policy must be one of {', '.join(_POLICIES)}, not {self.policy!r}")
        if self.rollout < 0:
            raise ValueError(f"rollout length must be 0 or more, not {self.rollout}")

    def choose(self, state: GameState, decision: DecisionPoint, *, ply: int = 0) -> Action:
        """The root option the search visited most; the same for the same seed, ply and position
        (unless a time budget is set)."""
        legal = decision.legal
        if len(legal) == 1:
            return legal[0]
        self._streak = self._streak + 1 if ply == self._last_ply + 1 else 0
        self._last_ply = ply
        if self._streak > _STREAK:  # the same seat deciding on and on: a loop, follow the priors
            priors = [option_prior(state, decision.seat, _option_text(a)) for a in legal]
            return legal[max(range(len(legal)), key=lambda i: (priors[i], -i))]
        root = _Node()
        for action in legal:
            root.edges[str(action)] = _Edge(option_prior(state, decision.seat, _option_text(action)))
        baseline: dict[str, float] = {}
        deadline = None if self.seconds is None else time.perf_counter() + self.seconds
        limit = MAX_SIMULATIONS if deadline is not None else self.simulations
        base = derive_seed(self.seed, ply, "search")
        for number in range(limit):
            self._simulate(state, root, Rng(derive_seed(base, number)), baseline)
            self.sims += 1
            if deadline is not None and time.perf_counter() >= deadline:
                break
        texts = [str(a) for a in legal]
        edges = [root.edges[t] for t in texts]
        best = max(range(len(legal)), key=lambda i: (edges[i].visits, edges[i].mean() + edges[i].prior, -i))
        return legal[best]

    # -- one simulation -----------------------------------------------------------------------------

    def _simulate(self, root_state: GameState, root: _Node, rng: Rng, baseline: dict[str, float]) -> None:
        """Determinize, select and expand, roll out, evaluate and back up once."""
        state = determinize(root_state, rng)
        node: _Node | None = root
        path: list[tuple[_Edge, str]] = []
        chance = rolled = forced = 0
        while True:
            who = state.to_act()
            if who is TERMINAL:
                break
            if who is CHANCE:
                chance += 1
                if chance > _MAX_CHANCE:
                    break
                outcomes = state.chance_node().outcomes
                state.apply_chance(outcomes[sample_index(rng, [p for _, p in outcomes])][0])
                continue
            seat = str(who)
            legal = state.legal_actions()
            if len(legal) == 1:
                forced += 1
                if forced > _MAX_FORCED:
                    break
                state.apply(legal[0])
                continue
            if node is None:  # past the tree: the rollout
                if rolled >= self.rollout:
                    break
                state.apply(self._rollout_choice(state, seat, legal, rng))
                rolled += 1
                continue
            index, edge = self._select(state, node, seat, legal)
            path.append((edge, seat))
            expanded = edge.visits == 0
            state.apply(legal[index])
            if edge.child is None:
                edge.child = _Node()
            node = None if expanded or len(path) >= _MAX_TREE_DEPTH else edge.child
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
        """The edge to follow at ``node``: an untried one (best prior first), else UCT with
        progressive bias, counting each edge's availability (the subset-armed bandit)."""
        actions = list(legal)
        edges: list[_Edge] = []
        for action in actions:
            text = str(action)
            edge = node.edges.get(text)
            if edge is None:
                edge = node.edges[text] = _Edge(option_prior(state, seat, _option_text(action)))
            edge.available += 1
            edges.append(edge)
        untried = [i for i, edge in enumerate(edges) if edge.visits == 0]
        if untried:
            best = max(untried, key=lambda i: (edges[i].prior, -i))
            return best, edges[best]

        def score(i: int) -> float:
            edge = edges[i]
            explore = self.exploration * math.sqrt(math.log(edge.available) / edge.visits)
            return edge.mean() + explore + self.bias * edge.prior / (edge.visits + 1)

        best = max(range(len(edges)), key=lambda i: (score(i), -i))
        return best, edges[best]

    def _rollout_choice(self, state: GameState, seat: str, legal: Sequence[Action], rng: Rng) -> Action:
        """The rollout policy's option: uniformly random, or the best prior (random among equals).

        Rollouts skip the exact odds of operations (an attack counts as neutral there): they cost
        more than the rest of a rollout step, and the tree's edges use them already."""
        actions = list(legal)
        if self.policy == "random":
            return actions[rng.below(len(actions))]
        texts = [_option_text(a) for a in actions]
        priors = [0.0 if _is_attack(text) else option_prior(state, seat, text) for text in texts]
        top = max(priors)
        best = [a for a, p in zip(actions, priors, strict=True) if p >= top - 1e-9]
        return best[rng.below(len(best))]


__all__ = ["DEFAULT_SIMULATIONS", "MAX_SIMULATIONS", "SearchBot", "determinize"]
