"""Exact battle odds by dynamic programming, with a seeded Monte Carlo above a size guard.

Two exact solvers share one state space (see :mod:`grandstrategy.axis_allies.battle`):

* **General solver** (pure Python): forward propagation of probability mass over pairs of side
  states, in order of total tokens lost. A round's outcome distribution is built phase by phase:
  for each side and hit kind, the number of hits is a convolution of binomials (dice grouped by
  hit chance); hits are then allocated. The round in which nobody loses anything is a self-loop,
  removed analytically by dividing the leaving mass by ``1 - p(no change)``.
* **Linear solver** (numpy): when every hit after the first round may strike any unit and each
  side's dice depend only on its own survivors (no submarines), each side's states form a chain
  (index = tokens lost). Row ``i`` of the attacker then sees one fixed hit distribution, so the
  mass of a whole row is spread with one matrix product, and the row's self-loops are removed by
  one triangular solve. First-round specials (AA fire, bombardment) are computed by the general
  solver and then handed over, one chain per distinct starting state.

The Monte Carlo (:func:`simulate`) rolls individual dice with ``numpy.random.default_rng(seed)``,
vectorised over trials; it never touches the global ``random`` module.
"""

from __future__ import annotations

import math
import threading
import time
from collections import OrderedDict, defaultdict
from collections.abc import Callable, Hashable
from dataclasses import dataclass, field
from functools import cache, cached_property, lru_cache
from itertools import pairwise
from typing import Any, cast

import numpy as np
import numpy.typing as npt

from grandstrategy.axis_allies.battle import GENERAL, Battle, Counts, Dice, SideModel, SideState, loss_order
from grandstrategy.axis_allies.rules import Procedure, procedure_for
from grandstrategy.axis_allies.units import BattleSetupError

Pair = tuple[SideState, SideState]
#: One side's outcome distribution of a phase: (new state, chance, tokens lost in it).
Outcome = list[tuple[SideState, float, int]]
FloatArray = npt.NDArray[np.float64]

#: Linear solver size guard: attacker tokens x defender tokens x (their sum), over all chain pairs.
LINEAR_LIMIT = 16_000_000
#: General solver size guard: product of both sides' state counts (an upper bound on reachable pairs),
#: per rule set. The variant's two-phase cycles with several hit kinds reach far more of that bound
#: (about 0.7 s at 4,725 on the benchmark machine) than Revised sea battles (0.1 s at 70,000).
GENERAL_LIMIT = {"revised": 60_000, "lhtr": 60_000, "aarhe": 5_000}
#: Exact solving is refused above these sizes even when asked for (``method="exact"``): a Revised
#: general battle at ten times its guard took about 8 s and 180 MB, a linear one at 3.4 times
#: (300 against 300 infantry) 35 to 70 s; time and memory grow with the size, so a battle far
#: beyond them would run for many minutes and take gigabytes.
EXACT_CEILING_LINEAR = 2 * LINEAR_LIMIT
EXACT_CEILING_GENERAL = {name: 20 * limit for name, limit in GENERAL_LIMIT.items()}
DEFAULT_TRIALS = 100_000
#: The most Monte Carlo trials (about 7 s and 200 MB per million on a small battle).
MAX_TRIALS = 1_000_000
STALL = 1e-12


# --------------------------------------------------------------------------------------------
# side profiles: what one side's units mean under a procedure, kept across calls


class _Profile:
    """One side's model and the tables derived from it alone (kept across battles).

    Everything here depends only on the side's own units, its order of loss, the rule set's
    procedure class and sea or land, plus (for dice tables) the *dice key* of
    :meth:`_dice_key`: what the side's later-round dice depend on besides its own units. A
    battle calculator is asked about the same forces again and again (a bot weighing attacks, a
    player adding one unit at a time), so the per-state work (states, chains, dice and hit
    tables, the facts the summary reports) is done once per profile, not once per call.
    """

    def __init__(self, model: SideModel):
        self.model = model
        #: the chain of states from a start state under general hits (linear solver)
        self.chains: dict[SideState, list[SideState]] = {}
        #: per (chain start, dice key): P(hits >= h) for each chain state but the last, h = 0..max
        self.tails: dict[tuple[SideState, Hashable], FloatArray] = {}
        #: per state: (out of the fight?, units left, TUV lost, label) for the summary
        self.facts: dict[SideState, tuple[bool, Counts, float, str]] = {}
        #: the linear solver's one-side part from a start (chain, hit table, DP table), by enemy
        self.linear: dict[Hashable, tuple[list[SideState], FloatArray, FloatArray | None]] = {}
        #: per chain start: the chain's facts as arrays (linear solver, summary)
        self.chain_tables: dict[SideState, _StateTable] = {}
        #: the states reachable from some start states, with their tables (general solver)
        self.spaces: dict[tuple[Hashable, ...], _Space] = {}


class _StateTable:
    """Per-state facts of a list of one side's states as arrays, for the summary of a solution."""

    def __init__(self, ctx: Context, side: int, states: list[SideState]):
        units = ctx.sides[side].units
        facts = [ctx.fact(side, st) for st in states]
        self.out = np.array([f[0] for f in facts], dtype=bool)
        self.counts = np.array([[f[1][u] for u in units] for f in facts], dtype=float).reshape(
            len(states), len(units)
        )
        self.tuv = np.array([f[2] for f in facts])
        self.labels = [f[3] for f in facts]


class _Space:
    """A side's states reachable from its start states (general solver), numbered, with tables.

    ``hits[kind][s, h]`` is the state that ``h`` hits of ``kind`` leave of state ``s``;
    ``pmfs`` holds, per dice key and phase, the side's hit distributions by kind when it fires
    (``(states, hits + 1)`` arrays), so both are built once per profile, not once per battle.
    """

    def __init__(self, ctx: Context, side: int, starts: tuple[SideState, ...]):
        model = ctx.sides[side]
        kinds = list(ctx.proc.hit_kinds(side))
        steps = {k: ctx.groups(side, k) for k in kinds}
        states = list(dict.fromkeys(starts))
        index = {st: i for i, st in enumerate(states)}
        nxt: dict[str, list[int]] = {k: [] for k in kinds}
        i = 0
        while i < len(states):
            for k, groups in steps.items():
                after = model.alloc(states[i], groups, 1)
                if after not in index:
                    index[after] = len(states)
                    states.append(after)
                nxt[k].append(index[after])
            i += 1
        self.states = states
        self.index = index
        self.size = len(states)
        self.level = np.array([sum(st) for st in states], dtype=np.intp)
        self.table = _StateTable(ctx, side, states)
        self.out = self.table.out
        self.step = {k: np.array(v, dtype=np.intp) for k, v in nxt.items()}
        self.hits: dict[str, npt.NDArray[np.intp]] = {}
        self.keys = [ctx.proc.enemy_key(model.counts(st)) for st in states]
        # the enemy's dice depend on this side only through its key: one representative per key
        key_ids: dict[Hashable, int] = {}
        self.key_reps: list[Counts] = []
        for st, key in zip(states, self.keys, strict=True):
            if key not in key_ids:
                key_ids[key] = len(self.key_reps)
                self.key_reps.append(model.counts(st))
        self.key_of = np.array([key_ids[key] for key in self.keys], dtype=np.intp)
        self.distinct_keys = tuple(key_ids)
        self.pmfs: dict[tuple[Hashable, int], dict[str, FloatArray]] = {}
        #: per partner space (by id, the partner kept alongside): see :meth:`grid`
        self.grids: dict[int, tuple[Any, ...]] = {}
        #: per (firing side, the target's keys, phase): kinds in order and their stacked tables
        self.stacks: dict[tuple[Hashable, ...], list[tuple[str, FloatArray]]] = {}
        #: per sequence of (kind, most hits): every state's end states, one per hit combination
        self.combos: dict[Hashable, npt.NDArray[np.intp]] = {}

    def combo_table(self, seq: tuple[tuple[str, int], ...]) -> npt.NDArray[np.intp]:
        """``T[s, e]``: the state left of ``s`` by hit combination ``e`` of kinds ``seq`` in turn.

        Combinations run over ``h1 = 0..most1``, then ``h2``..., last kind fastest.
        """
        table = self.combos.get(seq)
        if table is None:
            table = np.arange(self.size, dtype=np.intp)[:, None]
            for kind, most in seq:
                table = self.hit_table(kind, most)[table].reshape(self.size, -1)
            self.combos[seq] = table
        return table

    def grid(
        self, other: _Space
    ) -> tuple[
        npt.NDArray[np.intp], npt.NDArray[np.intp], npt.NDArray[np.intp], list[int], npt.NDArray[np.bool_]
    ]:
        """The pairs of this (attacker) space and ``other`` in level order: each pair's attacker
        and defender state, the order itself (flat ``a * len(other) + d``), where each level
        starts, and whether a side is out; index bookkeeping only, kept for a few partners."""
        found = self.grids.get(id(other))
        if found is None or found[0] is not other:
            na, nd = self.size, other.size
            ia = np.repeat(np.arange(na), nd)
            id_ = np.tile(np.arange(nd), na)
            level = self.level[ia] + other.level[id_]
            order = np.argsort(level, kind="stable")
            ia, id_ = ia[order], id_[order]
            cuts = [0, *(np.flatnonzero(np.diff(level[order])) + 1).tolist(), na * nd]
            found = (other, ia, id_, order, cuts, self.out[ia] | other.out[id_])
            if len(self.grids) >= 16:
                self.grids.clear()
            self.grids[id(other)] = found
        return found[1:]

    def hit_table(self, kind: str, most: int) -> npt.NDArray[np.intp]:
        """``T[s, h]``: the state ``h`` hits of ``kind`` leave of state ``s``, h = 0..most."""
        table = self.hits.get(kind)
        if table is None or table.shape[1] <= most:
            width = max(most + 1, 2 if table is None else 2 * table.shape[1])
            cols = [np.arange(self.size, dtype=np.intp)]
            step = self.step[kind]
            for _ in range(width - 1):
                cols.append(step[cols[-1]])
            table = np.stack(cols, axis=1)
            self.hits[kind] = table
        return table[:, : most + 1]


#: Side profiles by (procedure class, rule set, sea, units, order of loss); least recently used
#: dropped beyond :data:`PROFILE_CACHE` (each holds at most a few tables of the side's states).
_PROFILES: OrderedDict[tuple[Hashable, ...], _Profile] = OrderedDict()
PROFILE_CACHE = 256
_PROFILES_LOCK = threading.Lock()


def _profile(
    proc: Procedure, units: tuple[tuple[str, int], ...], sea: bool, override: tuple[str, ...]
) -> _Profile:
    counts = dict(units)
    order = tuple(loss_order(counts, sea, override))
    key = (type(proc).__qualname__, proc.ruleset.name, sea, units, order)
    with _PROFILES_LOCK:  # (a server may solve battles in several threads)
        found = _PROFILES.get(key)
        if found is not None:
            _PROFILES.move_to_end(key)
            return found
        made = _Profile(SideModel(counts, proc.ruleset, order, proc.class_of))
        _PROFILES[key] = made
        if len(_PROFILES) > PROFILE_CACHE:
            _PROFILES.popitem(last=False)
        return made


def clear_caches() -> None:
    """Forget every side profile and dice table kept across calls (the next call starts cold)."""
    with _PROFILES_LOCK:
        _PROFILES.clear()
    for cached in (_binom, _np_binom, _np_tail, _shift_index, _end_index):
        cached.cache_clear()


def _dice_key(proc: Procedure, side: int, enemy: Counts) -> Hashable:
    """What ``side``'s later-round dice depend on besides its own units (a cache key)."""
    return (side, proc.battle.sea, proc.battle.terrain, proc.enemy_key(enemy))


@dataclass
class _Ends:
    """A solution's end states as arrays: ``p[k]`` is the chance of ending in
    (``tables[0]`` state ``ia[k]``, ``tables[1]`` state ``id[k]``); ``states`` name them."""

    states: tuple[list[SideState], list[SideState]]
    tables: tuple[_StateTable, _StateTable]
    ia: npt.NDArray[np.intp]
    id: npt.NDArray[np.intp]
    p: FloatArray

    def as_dict(self) -> dict[Pair, float]:
        out: dict[Pair, float] = defaultdict(float)
        sa, sd = self.states
        for i, j, p in zip(self.ia.tolist(), self.id.tolist(), self.p.tolist(), strict=True):
            if p:
                out[(sa[i], sd[j])] += p
        return dict(out)


# --------------------------------------------------------------------------------------------
# context shared by the solvers


class Context:
    """A battle made ready to solve: procedure, both side models, cached round transitions."""

    def __init__(self, battle: Battle):
        self.battle = battle
        self.proc: Procedure = procedure_for(battle)
        self.profiles = (
            _profile(self.proc, battle.attacker, battle.sea, battle.order),
            _profile(self.proc, battle.defender, battle.sea, battle.order),
        )
        self.sides = (self.profiles[0].model, self.profiles[1].model)
        self.start: Pair = (self.sides[0].start, self.sides[1].start)
        # the procedure builds its phase closures anew on every call: build them once
        self.later_phases = self.proc.phases(False)
        self._groups: dict[tuple[int, str], tuple[frozenset[str], ...]] = {}

    # the per-battle memos are made on first use: most calls need only a few of them

    @cached_property
    def round(self) -> Callable[[Pair, bool], dict[Pair, float]]:
        return cache(self._round)

    @cached_property
    def side_outcomes(self) -> Callable[[int, Pair], tuple[Outcome, Outcome]]:
        return cache(self._side_outcomes)

    @cached_property
    def listed(self) -> Callable[[int, SideState, tuple[Dice, ...]], Outcome]:
        return cache(self._listed_outcomes)

    @cached_property
    def phase(self) -> Callable[[bool, int, Pair], dict[Pair, float]]:
        return cache(self._phase)

    @cached_property
    def outcomes(self) -> Callable[[int, SideState, tuple[Dice, ...]], dict[SideState, float]]:
        return cache(self._outcomes)

    @cached_property
    def can_progress(self) -> Callable[[Pair], bool]:
        return cache(self._can_progress)

    @cached_property
    def work(self) -> tuple[str, float]:
        """Which exact solver fits, and its estimated size (see :func:`_work`)."""
        return _work_of(self)

    def fact(self, side: int, state: SideState) -> tuple[bool, Counts, float, str]:
        """What ``state`` of ``side`` means: (out of the fight?, units left, TUV lost, label)."""
        facts = self.profiles[side].facts
        known = facts.get(state)
        if known is None:
            model = self.sides[side]
            counts = model.counts(state)
            rs = self.proc.ruleset
            tuv = 0.0
            parts = []
            for unit in model.units:
                n = counts[unit]
                tuv += (model.initial[unit] - n) * rs.unit(unit).cost
                if n:
                    parts.append(f"{n} {unit}")
            known = (self.proc.eliminated(counts), counts, tuv, ", ".join(parts) or "none")
            facts[state] = known
        return known

    def ended(self, pair: Pair) -> bool:
        """True when either side of ``pair`` is out of the fight."""
        return self.fact(0, pair[0])[0] or self.fact(1, pair[1])[0]

    def groups(self, side: int, kind: str) -> tuple[frozenset[str], ...]:
        key = (side, kind)
        if key not in self._groups:
            self._groups[key] = self.proc.kind_groups(kind, self.sides[side].class_names)
        return self._groups[key]

    def kind_rank(self, kind: str) -> tuple[int, str]:
        """Where hits of ``kind`` are allocated in a phase: the procedure's order, kinds it does not
        order first, and the name after, so the order never comes from a set's (hash) order, which
        would change the float sums, and Monte Carlo's draws, from one process to the next."""
        order = self.proc.kind_order
        return (order.index(kind) if kind in order else -1, kind)

    def dice(
        self, phase: Callable[[int, Counts, Counts], list[Dice]], pair: Pair
    ) -> tuple[list[Dice], list[Dice]]:
        ca, cd = self.sides[0].counts(pair[0]), self.sides[1].counts(pair[1])
        return phase(0, ca, cd), phase(1, cd, ca)

    def _outcomes(self, target: int, state: SideState, dice: tuple[Dice, ...]) -> dict[SideState, float]:
        side = self.sides[target]
        dist = {state: 1.0}
        for kind in sorted({d[0] for d in dice}, key=self.kind_rank):
            cap = side.remaining(state)
            pmf = hit_pmf([(n, p) for k, n, p in dice if k == kind], cap)
            if len(pmf) <= 1:
                continue
            groups = self.groups(target, kind)
            new: dict[SideState, float] = defaultdict(float)
            for s, q in dist.items():
                for h, ph in enumerate(pmf):
                    if ph:
                        new[side.alloc(s, groups, h)] += q * ph
            dist = new
        return dist

    def _phase(self, first: bool, index: int, pair: Pair) -> dict[Pair, float]:
        dice_a, dice_d = self.dice(self.proc.phases(first)[index], pair)
        out_d = self.outcomes(1, pair[1], tuple(dice_a))
        out_a = self.outcomes(0, pair[0], tuple(dice_d))
        return {(a2, d2): pa * pd for a2, pa in out_a.items() for d2, pd in out_d.items()}

    def _side_outcomes(self, index: int, pair: Pair) -> tuple[Outcome, Outcome]:
        """Phase ``index`` of a later round from ``pair``: each side's own outcome distribution."""
        phase = self.later_phases[index]
        ca, cd = self.sides[0].counts(pair[0]), self.sides[1].counts(pair[1])
        dice_a, dice_d = tuple(phase(0, ca, cd)), tuple(phase(1, cd, ca))
        return (
            self.listed(0, pair[0], dice_d) if dice_d else [(pair[0], 1.0, sum(pair[0]))],
            self.listed(1, pair[1], dice_a) if dice_a else [(pair[1], 1.0, sum(pair[1]))],
        )

    def _listed_outcomes(self, target: int, state: SideState, dice: tuple[Dice, ...]) -> Outcome:
        return [(s, p, sum(s)) for s, p in self.outcomes(target, state, dice).items()]

    def _round(self, pair: Pair, first: bool) -> dict[Pair, float]:
        dist: dict[Pair, float] = {pair: 1.0}
        for index in range(len(self.proc.phases(first))):
            new: dict[Pair, float] = defaultdict(float)
            for mid, p in dist.items():
                for nxt, q in self.phase(first, index, mid).items():
                    new[nxt] += p * q
            dist = new
        return dist

    def _can_progress(self, pair: Pair) -> bool:
        for phase in self.proc.phases(False):
            dice_a, dice_d = self.dice(phase, pair)
            for target, dice in ((1, dice_a), (0, dice_d)):
                state = pair[target]
                for kind in {k for k, n, p in dice if n and p > 0}:
                    if self.sides[target].alloc(state, self.groups(target, kind), 10**6) != state:
                        return True
        return False


@cache
def _binom(n: int, p: float) -> tuple[float, ...]:
    if p <= 0.0:
        return (1.0,)
    if p >= 1.0:
        return (0.0,) * n + (1.0,)
    q = 1.0 - p
    return tuple(math.comb(n, k) * p**k * q ** (n - k) for k in range(n + 1))


def hit_pmf(groups: list[tuple[int, float]], cap: int) -> list[float]:
    """Distribution of total hits from dice ``groups`` of ``(count, chance)``, folded at ``cap``.

    Entry ``cap`` holds the probability of ``cap`` hits or more.
    """
    pmf = [1.0]
    for n, p in groups:
        if n <= 0 or p <= 0.0:
            continue
        b = _binom(n, p)
        out = [0.0] * min(len(pmf) + len(b) - 1, cap + 1)
        last = len(out) - 1
        for i, x in enumerate(pmf):
            if x:
                for j, y in enumerate(b):
                    out[min(i + j, last)] += x * y
        pmf = out
    return pmf


# --------------------------------------------------------------------------------------------
# general exact solver


def _level(pair: Pair) -> int:
    return sum(pair[0]) + sum(pair[1])


def _propagate(ctx: Context, init: dict[Pair, float]) -> dict[Pair, float]:
    """Terminal distribution reached from ``init`` (later rounds only), self-loops removed.

    Mass moves phase by phase rather than round by round: ``stages[k]`` holds the mass about to
    fire phase ``k`` of a round, so each phase's outcome (a product of the two sides' independent
    outcome distributions) is applied once per pair, never composed with the next phase's outcomes
    for every intermediate pair. A pair only receives mass from pairs with fewer tokens lost, or
    from itself when a phase changes nothing; pairs are therefore settled in order of tokens lost,
    and each pair's own cycle through the phases (nobody loses anything in a whole round) is
    summed as a geometric series, which is the same self-loop removal as before.
    """
    terminal: dict[Pair, float] = defaultdict(float)
    nphase = len(ctx.later_phases)
    top = len(ctx.sides[0].tokens) + len(ctx.sides[1].tokens)
    # buckets[level][stage]: mass about to fire phase ``stage`` at pairs with ``level`` tokens lost
    buckets: list[list[defaultdict[Pair, float]]] = [
        [defaultdict(float) for _ in range(nphase)] for _ in range(top + 1)
    ]
    for pair, p in init.items():
        buckets[_level(pair)][0][pair] += p
    sides = ctx.side_outcomes
    for level in range(top + 1):
        stages = buckets[level]
        if not any(stages):
            continue
        pairs = {pair: None for stage in stages for pair in stage}
        for pair in pairs:
            inflow = [stage.get(pair, 0.0) for stage in stages]
            if not any(inflow[1:]) and ctx.ended(pair):
                terminal[pair] += inflow[0]
                continue
            outs = [sides(k, pair) for k in range(nphase)]
            keep = [_keep(oa, od, pair) for oa, od in outs]
            stay = math.prod(keep)
            # visits at stage 0 from a full cycle: inflows carried forward to the round's end
            carried = 0.0
            for k in range(1, nphase):
                carried = carried * keep[k - 1] + inflow[k]
            back = carried * keep[nphase - 1] if nphase > 1 else 0.0
            if stay >= 1.0 - STALL or ctx.ended(pair):
                # an ended pair never starts a round (mass arriving mid-round finishes it); where
                # nobody can hurt anybody the battle stalls where it starts a round
                terminal[pair] += inflow[0] + back
                v = 0.0
                for k in range(1, nphase):
                    v = v * keep[k - 1] + inflow[k]
                    _spread(*outs[k], pair, v, (k + 1) % nphase, buckets)
                continue
            v = (inflow[0] + back) / (1.0 - stay)
            for k in range(nphase):
                if k:
                    v = v * keep[k - 1] + inflow[k]
                _spread(*outs[k], pair, v, (k + 1) % nphase, buckets)
    return terminal


#: The dense general solver holds, per phase, every pair's outcome over each side's states:
#: pairs x (attacker states + defender states) floats; above this it hands over to :func:`_propagate`.
DENSE_LIMIT = 400_000
#: ... and its per-level matrix products cost about (pairs)^2: above this many pairs, the same.
DENSE_PAIRS = 4_000


def _firing_pmfs(ctx: Context, side: int, space: _Space, enemy: Counts) -> list[dict[str, FloatArray]]:
    """Per later phase, ``side``'s hit distributions by kind over its states against ``enemy``."""
    found = []
    for k, phase in enumerate(ctx.later_phases):
        cache_key = (_dice_key(ctx.proc, side, enemy), k)
        tables = space.pmfs.get(cache_key)
        if tables is None:
            rows: list[dict[str, list[tuple[int, float]]]] = []
            for st in space.states:
                groups: dict[str, list[tuple[int, float]]] = defaultdict(list)
                for kind, n, p in phase(side, ctx.sides[side].counts(st), enemy):
                    if n and p > 0:
                        groups[kind].append((n, p))
                rows.append(groups)
            tables = {}
            for kind in {kind for row in rows for kind in row}:
                most = max(sum(n for n, _ in row.get(kind, ())) for row in rows)
                table = np.zeros((space.size, most + 1))
                for i, row in enumerate(rows):
                    pmf = hit_pmf(row.get(kind, []), most)
                    table[i, : len(pmf)] = pmf
                tables[kind] = table
            space.pmfs[cache_key] = tables
        found.append(tables)
    return found


def _firing_stacks(
    ctx: Context, target: int, spaces: tuple[_Space, _Space]
) -> tuple[npt.NDArray[np.intp], list[list[tuple[str, FloatArray]]]]:
    """The firer's hit tables against ``target``, per phase: kinds in order, ``(keys, firer, hits)``.

    The firer's dice depend on the target only through its key (:meth:`Procedure.enemy_key`), so
    there is one table per key the target's states take; also returns each target state's key id.
    """
    own, other = spaces[target], spaces[1 - target]
    firer = 1 - target
    reps = own.key_reps
    battle = ctx.battle
    found: list[list[tuple[str, FloatArray]]] = []
    for k in range(len(ctx.later_phases)):
        stack_key = (firer, battle.sea, battle.terrain, own.distinct_keys, k)
        stack = other.stacks.get(stack_key)
        if stack is None:
            per_key = [_firing_pmfs(ctx, firer, other, rep)[k] for rep in reps]
            stack = []
            for kind in sorted({kind for tables in per_key for kind in tables}, key=ctx.kind_rank):
                most = max(tables[kind].shape[1] if kind in tables else 1 for tables in per_key) - 1
                stacked = np.zeros((len(per_key), other.size, most + 1))
                for kid, tables in enumerate(per_key):
                    table = tables.get(kind)
                    if table is None:
                        stacked[kid, :, 0] = 1.0
                    else:
                        stacked[kid, :, : table.shape[1]] = table
                stack.append((kind, stacked))
            other.stacks[stack_key] = stack
        found.append(stack)
    return own.key_of, found


def _outcome_tables(ctx: Context, target: int, spaces: tuple[_Space, _Space]) -> list[FloatArray]:
    """Per later phase, ``O[t, f, s]``: from target state t against firer state f, the chance
    that the target is left in state s."""
    own, other = spaces[target], spaces[1 - target]
    key_of, stacks = _firing_stacks(ctx, target, spaces)
    n_own, n_other = own.size, other.size
    out = []
    for stack in stacks:
        seq = tuple((kind, stacked.shape[2] - 1) for kind, stacked in stack)
        # where each (target state, firer state, hit combination) lands in the flat table
        where = own.combos.get((seq, n_other))
        if where is None:
            base = (np.arange(n_own * n_other, dtype=np.intp) * n_own).reshape(n_own, n_other, 1)
            where = (base + own.combo_table(seq)[:, None, :]).ravel()
            if where.size <= 100_000:  # kept only while small (a profile may live long)
                own.combos[(seq, n_other)] = where
        weight: FloatArray
        if not stack:
            weight = np.ones(n_own * n_other)
        else:
            weight = stack[0][1][key_of]  # (own, other, hits + 1)
            for _, stacked in stack[1:]:
                pmf = stacked[key_of]
                weight = (weight[:, :, :, None] * pmf[:, :, None, :]).reshape(n_own, n_other, -1)
        # (with weights, bincount sums floats; the stubs call its result integer)
        dense = cast(FloatArray, np.bincount(where, weight.ravel(), minlength=n_own * n_other * n_own))
        out.append(dense.reshape(n_own, n_other, n_own))
    return out


def _propagate_dense(ctx: Context, init: dict[Pair, float]) -> dict[Pair, float] | None:
    """:func:`_propagate` with numpy over whole levels of pairs; None when the battle is too large."""
    ends = _propagate_dense_ends(ctx, init)
    return None if ends is None else ends.as_dict()


def _propagate_dense_ends(ctx: Context, init: dict[Pair, float]) -> _Ends | None:
    """:func:`_propagate` with numpy over whole levels of pairs, its end states as arrays.

    None when the battle is too large for it.

    Every pair's phase outcome is a product of the two sides' own outcomes, so all pairs' outcome
    tables are built at once (``O_A[a, d, a']``, ``O_D[a, d, d']``), and the mass leaving all pairs
    of one level in one phase is spread by one matrix product ``O_A^T diag(v) O_D``. A pair
    receives mass only from pairs with fewer tokens lost and from itself, so levels are settled in
    order, each pair's own no-change cycle summed as a geometric series exactly as in
    :func:`_propagate` (the product also sends each pair's self-loop back into itself, into stage
    entries of a level already settled and never read again).
    """
    starts = (tuple(dict.fromkeys(a for a, _ in init)), tuple(dict.fromkeys(d for _, d in init)))
    spaces_list = []
    for side in (0, 1):
        # the states reachable depend on the hit kinds the enemy can fire, hence on the enemy
        space_key = (starts[side], side, ctx.proc.hit_kinds(side))
        found = ctx.profiles[side].spaces.get(space_key)
        if found is None:
            found = _Space(ctx, side, starts[side])
            ctx.profiles[side].spaces[space_key] = found
        spaces_list.append(found)
    spaces = (spaces_list[0], spaces_list[1])
    na, nd = spaces[0].size, spaces[1].size
    pairs = na * nd
    nphase = len(ctx.later_phases)
    if pairs > DENSE_PAIRS or pairs * (na + nd) * nphase > DENSE_LIMIT:
        return None
    out_a = _outcome_tables(ctx, 0, spaces)
    out_d = [o.transpose(1, 0, 2) for o in _outcome_tables(ctx, 1, spaces)]
    ia, id_, order, cuts, ended = spaces[0].grid(spaces[1])
    rows = np.arange(pairs)
    tables_a = [np.ascontiguousarray(oa.reshape(pairs, na)[order].T) for oa in out_a]  # (na, pairs)
    tables_d = [od.reshape(pairs, nd)[order] for od in out_d]  # (pairs, nd)
    keep = [ta[ia, rows] * td[rows, id_] for ta, td in zip(tables_a, tables_d, strict=True)]
    stay = np.prod(keep, axis=0)
    settle = (stay >= 1.0 - STALL) | ended
    scale = np.where(settle, 0.0, 1.0 / np.where(settle, 2.0, 1.0 - stay))
    settled = settle.astype(float)
    # stages[k][(a, d)]: mass about to fire phase k; spreads come out in (a, d) order
    stages = [np.zeros(pairs) for _ in range(nphase)]
    for (a, d), p in init.items():
        stages[0][spaces[0].index[a] * nd + spaces[1].index[d]] += p
    terminal = np.zeros(pairs)  # in level order
    if nphase == 2:  # every Revised sea battle and the variant's land cycle: the loop unrolled
        s0, s1 = stages
        a0, a1 = tables_a
        d0, d1 = tables_d
        k0, k1 = keep
        for lo, hi in pairwise(cuts):
            idx = order[lo:hi]
            in0, in1 = s0[idx], s1[idx]
            start = in0 + in1 * k1[lo:hi]
            terminal[lo:hi] = start
            v0 = start * scale[lo:hi]
            v1 = v0 * k0[lo:hi] + in1
            s1 += np.dot(a0[:, lo:hi] * v0, d0[lo:hi]).ravel()
            s0 += np.dot(a1[:, lo:hi] * v1, d1[lo:hi]).ravel()
        terminal *= settled
    else:
        last = nphase - 1
        for lo, hi in pairwise(cuts):
            idx = order[lo:hi]
            inflow = [stage[idx] for stage in stages]
            kp = [k[lo:hi] for k in keep]
            start = inflow[0]
            if nphase > 1:
                carried = inflow[1]
                for k in range(2, nphase):
                    carried = carried * kp[k - 1] + inflow[k]
                start = start + carried * kp[last]
            terminal[lo:hi] = start * settled[lo:hi]
            v = start * scale[lo:hi]
            for k in range(nphase):
                if k:
                    v = v * kp[k - 1] + inflow[k]
                stages[(k + 1) % nphase] += np.dot(tables_a[k][:, lo:hi] * v, tables_d[k][lo:hi]).ravel()
    in_pairs = np.empty(pairs)
    in_pairs[order] = terminal
    nonzero = np.flatnonzero(in_pairs)
    return _Ends(
        (spaces[0].states, spaces[1].states),
        (spaces[0].table, spaces[1].table),
        nonzero // nd,
        nonzero % nd,
        in_pairs[nonzero],
    )


def _keep(out_a: Outcome, out_d: Outcome, pair: Pair) -> float:
    """Chance that a phase leaves ``pair`` as it is."""
    pa = next((p for s, p, _ in out_a if s == pair[0]), 0.0)
    if not pa:
        return 0.0
    return pa * next((p for s, p, _ in out_d if s == pair[1]), 0.0)


def _spread(
    out_a: Outcome,
    out_d: Outcome,
    pair: Pair,
    mass: float,
    nxt: int,
    buckets: list[list[defaultdict[Pair, float]]],
) -> None:
    """Move ``mass`` through one phase from ``pair`` into stage ``nxt`` (other pairs only)."""
    if not mass:
        return
    a0, d0 = pair
    for a2, pa, la in out_a:
        ma = mass * pa
        same = a2 == a0
        for d2, pd, ld in out_d:
            if same and d2 == d0:
                continue
            buckets[la + ld][nxt][(a2, d2)] += ma * pd


def _step(
    ctx: Context, dist: dict[Pair, float], first: bool, terminal: dict[Pair, float]
) -> dict[Pair, float]:
    """One explicit round from ``dist``; ended pairs move to ``terminal``."""
    new: dict[Pair, float] = defaultdict(float)
    for pair, p in dist.items():
        for nxt, q in ctx.round(pair, first).items():
            new[nxt] += p * q
    rest: dict[Pair, float] = {}
    for pair, p in new.items():
        if ctx.ended(pair):
            terminal[pair] = terminal.get(pair, 0.0) + p
        else:
            rest[pair] = p
    return rest


# --------------------------------------------------------------------------------------------
# linear exact solver


class _Chains:
    """Chains of side states under general hits: each state's next state after one more loss.

    Each state has one successor, so a chain is the path from a starting state to elimination.
    The chains themselves and their hit tables live in the side's profile (kept across calls).
    """

    def __init__(self, ctx: Context, side: int):
        self.ctx, self.side = ctx, side
        self.profile = ctx.profiles[side]
        self.index: dict[SideState, tuple[int, int]] = {}
        self.chains: list[list[SideState]] = []

    def locate(self, state: SideState) -> tuple[int, int]:
        if state not in self.index:
            chain = self.profile.chains.get(state)
            if chain is None:
                model = self.ctx.sides[self.side]
                groups = self.ctx.groups(self.side, GENERAL)
                chain = [state]
                while model.remaining(chain[-1]) > 0:
                    chain.append(model.alloc(chain[-1], groups, 1))
                self.profile.chains[state] = chain
            cid = len(self.chains)
            self.chains.append(chain)
            for i, s in enumerate(chain):
                # chains may merge (a later start joins an older chain); the shared tail is simply
                # solved again inside the new chain, each state's start mass is placed once
                self.index.setdefault(s, (cid, i))
        return self.index[state]

    def tails(self, cid: int, enemy: Counts, width: int) -> FloatArray:
        """``T[i, h]`` = P(state ``i`` of chain ``cid`` scores at least ``h`` hits), h = 0..width."""
        chain = self.chains[cid]
        key = (chain[0], _dice_key(self.ctx.proc, self.side, enemy))
        table = self.profile.tails.get(key)
        if table is None:
            model = self.ctx.sides[self.side]
            rows: list[tuple[tuple[int, float], ...]] = []
            for s in chain[:-1]:
                own = model.counts(s)
                groups: list[tuple[int, float]] = []
                for phase in self.ctx.later_phases:
                    groups += [(n, p) for _, n, p in phase(self.side, own, enemy) if n and p > 0]
                rows.append(tuple(groups))
            most = max((sum(n for n, _ in g) for g in rows), default=0)
            table = np.zeros((len(rows), most + 1))
            for i, g in enumerate(rows):
                table[i] = _np_tail(g, most)
            self.profile.tails[key] = table
        if table.shape[1] >= width + 1:
            return table[:, : width + 1]
        out = np.zeros((table.shape[0], width + 1))
        out[:, : table.shape[1]] = table
        return out


@cache
def _np_binom(n: int, p: float) -> FloatArray:
    return np.array(_binom(n, p))


@lru_cache(maxsize=4096)
def _np_tail(groups: tuple[tuple[int, float], ...], width: int) -> FloatArray:
    """``P(hits >= h)`` for h = 0..width from dice ``groups``; a pure dice table, so kept across calls
    (callers copy it, never write into it)."""
    pmf = np.ones(1)
    for n, p in groups:
        pmf = np.convolve(pmf, _np_binom(n, p))
    tail = np.zeros(width + 1)
    rev = np.cumsum(pmf[::-1])[::-1]  # rev[h] = P(hits >= h)
    m = min(len(rev), width + 1)
    tail[:m] = rev[:m]
    return tail


@cache
def _shift_index(width: int) -> npt.NDArray[np.intp]:
    j = np.arange(width)[:, None]
    c = np.arange(width)[None, :]
    idx = c - j
    idx[idx < 0] = width  # points at a zero pad
    return idx


#: Above this size (attacker tokens x defender tokens x their sum) the linear DP builds its
#: per-row tables one row at a time instead of all at once (three arrays of about that many floats).
BATCH_LIMIT = 60_000


def _kernel(pat: FloatArray) -> FloatArray:
    """``K[i, j, c]``: attacker row ``i`` sends the defender from state j to c (c = ld: gone).

    A function of the attacker's hit table alone (and the defender's size): kept in its profile.
    """
    la, ld = pat.shape[0], pat.shape[1] - 1
    pmf = np.zeros((la, ld + 1))
    pmf[:, :ld] = pat[:, :ld] - pat[:, 1 : ld + 1]
    kernel = np.empty((la, ld, ld + 1))
    kernel[:, :, :ld] = pmf[:, _shift_index(ld)]
    kernel[:, :, ld] = pat[:, ld:0:-1]
    return kernel


def _down(pdt: FloatArray) -> FloatArray:
    """``D[i, g, j]``: from defender state j, attacker row i loses g tokens (g = la - i: g or more,
    the attacker gone). A function of the defender's hit table alone: kept in its profile."""
    ld, la = pdt.shape[0], pdt.shape[1] - 1
    padded = np.zeros((ld, la + 2))
    padded[:, : la + 1] = pdt[:, : la + 1]
    exact = (padded[:, :-1] - padded[:, 1:]).T  # (la + 1, ld)
    g = np.arange(la + 1)[None, :]
    last = (la - np.arange(la))[:, None]
    down = np.where(
        (g < last)[:, :, None], exact[None], np.where((g == last)[:, :, None], pdt[:, : la + 1].T[None], 0.0)
    )
    down[:, 0, :] = 1.0 - pdt[:, 1]
    return down


def _linear_dp(
    pat: FloatArray,
    pdt: FloatArray,
    mass: FloatArray,
    kernel: FloatArray | None = None,
    down: FloatArray | None = None,
) -> tuple[FloatArray, FloatArray]:
    """Run the chain-pair DP (see :func:`_linear_dp_rows`), with every row's tables built at once.

    The row loop is then two small matrix products per attacker row: the row's visits through its
    own self-loops (``row @ inverse``, the inverses of all rows built at once) and their spreading
    into that row (terminal column) and the rows below. ``kernel`` and ``down`` (:func:`_kernel`,
    :func:`_down`) may come from the profiles. Falls back to the row-by-row version on large
    battles and where a pair cannot change (a stall).
    """
    la, ld = pat.shape[0], pdt.shape[0]
    if ld == 0 or la == 0 or la * ld * (la + ld) > BATCH_LIMIT:
        return _linear_dp_rows(pat, pdt, mass)
    if kernel is None:
        kernel = _kernel(pat)
    pd0 = 1.0 - pdt[:, 1]
    loop = pd0[None, :, None] * kernel[:, :, :ld]
    diag = np.arange(ld)
    if (loop[:, diag, diag] >= 1.0 - STALL).any():
        return _linear_dp_rows(pat, pdt, mass)
    inverse = _triangular_inverse(loop)
    if down is None:
        down = _down(pdt)
    m_all = mass.copy()
    for i in range(la):
        visits = m_all[i, :ld] @ inverse[i]  # (an empty row costs less to spread than to test)
        # row i itself receives its visits' within-row moves too, but only its terminal column
        # is read afterwards (the rest is cleared below)
        m_all[i:, :] += (down[i, : la + 1 - i] * visits) @ kernel[i]
    m_all[:la, :ld] = 0.0
    return m_all, np.zeros_like(mass)


def _triangular_inverse(loop: FloatArray) -> FloatArray:
    """``inv(I - loop[i])`` for a stack of upper triangular ``loop`` matrices (diagonal below 1).

    With ``I - loop = D (I - N)``, ``D`` its diagonal and ``N`` strictly upper triangular (so
    ``N ** n = 0``), the inverse is ``(I + N)(I + N^2)(I + N^4)... D^-1``: a few batched matrix
    products of non-negative matrices, no pivoting and no LAPACK call overhead.
    """
    n = loop.shape[-1]
    diag = np.arange(n)
    scale = 1.0 / (1.0 - loop[:, diag, diag])
    power = loop * scale[:, :, None]
    power[:, diag, diag] = 0.0
    total = power.copy()
    total[:, diag, diag] = 1.0
    step = 2
    while step < n:
        power = power @ power
        total = total + total @ power
        step *= 2
    return total * scale[:, None, :]


def _linear_dp_rows(pat: FloatArray, pdt: FloatArray, mass: FloatArray) -> tuple[FloatArray, FloatArray]:
    """Run the chain-pair DP, one attacker row at a time.

    ``pat[i, h]``: P(attacker at chain index i scores >= h hits), shape (La, Ld+1);
    ``pdt[j, a]``: the same for the defender, shape (Ld, La+1); ``mass``: (La+1, Ld+1) initial
    mass. Returns (terminal mass matrix, stalled mass matrix); terminal mass sits in row La
    (attacker gone) and column Ld (defender gone).
    """
    la, ld = pat.shape[0], pdt.shape[0]
    m_all = mass.copy()
    stalled = np.zeros_like(mass)
    if ld == 0 or la == 0:
        return m_all, stalled
    idx = _shift_index(ld)
    pd0 = 1.0 - pdt[:, 1]
    eye = np.eye(ld)
    kernel = np.empty((ld, ld + 1))
    for i in range(la):
        row = m_all[i, :ld]
        if not row.any():
            continue
        tail = pat[i]
        pmf = np.empty(ld + 1)
        pmf[:ld] = tail[:ld] - tail[1 : ld + 1]
        pmf[ld] = 0.0
        kernel[:, :ld] = pmf[idx]
        kernel[:, ld] = tail[ld:0:-1]
        loop = pd0[:, None] * kernel[:, :ld]
        stall = np.diagonal(loop) >= 1.0 - STALL
        if stall.any():
            loop[stall, :] = 0.0
        visits = np.linalg.solve((eye - loop).T, row)
        if stall.any():
            stalled[i, :ld][stall] += visits[stall]
            visits[stall] = 0.0
        m_all[i, :ld] = 0.0
        m_all[i, ld] += (visits * pd0) @ kernel[:, ld]
        r = la - i
        pdi = pdt[:, 1 : r + 1].copy()
        pdi[:, :-1] -= pdt[:, 2 : r + 1]
        m_all[i + 1 : i + r + 1, :] += (pdi * visits[:, None]).T @ kernel
    return m_all, stalled


def _linear_side(
    ctx: Context, side: int, enemy: Counts, width: int, batched: bool
) -> tuple[list[SideState], FloatArray, FloatArray | None]:
    """One side's part of the linear solver from its start: its chain, hit table (``width``
    columns past 0) and, for the batched DP, its one-side table (:func:`_kernel` or
    :func:`_down`); kept in the side's profile, keyed by the enemy's dice key and size."""
    profile = ctx.profiles[side]
    key = (ctx.start[side], _dice_key(ctx.proc, side, enemy), width, batched)
    found = profile.linear.get(key)
    if found is None:
        chains = _Chains(ctx, side)
        cid, _ = chains.locate(ctx.start[side])
        tails = chains.tails(cid, enemy, width)
        extra = (_kernel(tails) if side == 0 else _down(tails)) if batched else None
        found = profile.linear[key] = (chains.chains[cid], tails, extra)
    return found


@cache
def _end_index(la: int, ld: int) -> tuple[npt.NDArray[np.intp], npt.NDArray[np.intp]]:
    """Where a linear DP's end states sit: the attacker gone (row la), then the defender gone."""
    ia = np.concatenate([np.full(ld + 1, la), np.arange(la)])
    id_ = np.concatenate([np.arange(ld + 1), np.full(la, ld)])
    return ia, id_


def _solve_linear_ends(ctx: Context) -> _Ends:
    """:func:`_solve_linear` from the start alone (one chain a side), its end states as arrays."""
    enemy = (ctx.sides[1].counts(ctx.start[1]), ctx.sides[0].counts(ctx.start[0]))
    tokens = (len(ctx.sides[0].tokens), len(ctx.sides[1].tokens))
    # a chain from the start holds every token of its side, so its length is known beforehand
    batched = 0 < tokens[0] * tokens[1] * (tokens[0] + tokens[1]) <= BATCH_LIMIT
    chain_a, pat, kernel = _linear_side(ctx, 0, enemy[0], tokens[1], batched)
    chain_d, pdt, down = _linear_side(ctx, 1, enemy[1], tokens[0], batched)
    la, ld = len(chain_a) - 1, len(chain_d) - 1
    mass = np.zeros((la + 1, ld + 1))
    mass[0, 0] = 1.0
    final, stalled = _linear_dp(pat, pdt, mass, kernel, down)
    ia, id_ = _end_index(la, ld)
    p = np.concatenate([final[la], final[:la, ld]])
    if stalled.any():
        si, sj = np.nonzero(stalled)
        ia, id_, p = np.concatenate([ia, si]), np.concatenate([id_, sj]), np.concatenate([p, stalled[si, sj]])
    tables = []
    for side, chain in ((0, chain_a), (1, chain_d)):
        profile = ctx.profiles[side]
        table = profile.chain_tables.get(chain[0])
        if table is None:
            table = profile.chain_tables[chain[0]] = _StateTable(ctx, side, chain)
        tables.append(table)
    return _Ends((chain_a, chain_d), (tables[0], tables[1]), ia, id_, p)


def _solve_linear(ctx: Context, init: dict[Pair, float]) -> dict[Pair, float]:
    terminal: dict[Pair, float] = defaultdict(float)
    chains = (_Chains(ctx, 0), _Chains(ctx, 1))
    jobs: dict[tuple[int, int], list[tuple[int, int, float]]] = defaultdict(list)
    for pair, p in sorted(init.items(), key=lambda kv: _level(kv[0])):
        if ctx.ended(pair):
            terminal[pair] += p
            continue
        ca, i = chains[0].locate(pair[0])
        cd, j = chains[1].locate(pair[1])
        jobs[(ca, cd)].append((i, j, p))
    enemy = (ctx.sides[1].counts(ctx.start[1]), ctx.sides[0].counts(ctx.start[0]))
    tails: dict[tuple[int, int], FloatArray] = {}
    for (ca, cd), items in jobs.items():
        chain_a, chain_d = chains[0].chains[ca], chains[1].chains[cd]
        la, ld = len(chain_a) - 1, len(chain_d) - 1
        if (0, ca) not in tails:
            tails[(0, ca)] = chains[0].tails(ca, enemy[0], ld)
        if (1, cd) not in tails:
            tails[(1, cd)] = chains[1].tails(cd, enemy[1], la)
        mass = np.zeros((la + 1, ld + 1))
        for i, j, p in items:
            mass[i, j] += p
        final, stalled = _linear_dp(tails[(0, ca)][:, : ld + 1], tails[(1, cd)][:, : la + 1], mass)
        gone_a = chain_a[la]
        for j, value in enumerate(final[la].tolist()):
            if value:
                terminal[(gone_a, chain_d[j])] += value
        gone_d = chain_d[ld]
        for i, value in enumerate(final[:la, ld].tolist()):
            if value:
                terminal[(chain_a[i], gone_d)] += value
        if stalled.any():
            for i, j in zip(*np.nonzero(stalled), strict=True):
                terminal[(chain_a[int(i)], chain_d[int(j)])] += float(stalled[i, j])
    return terminal


# --------------------------------------------------------------------------------------------
# Monte Carlo


def simulate(ctx: Context, trials: int, seed: int) -> dict[Pair, int]:
    """Fight the battle ``trials`` times with ``numpy.random.default_rng(seed)``; count end states."""
    rng = np.random.default_rng(seed)
    ids: tuple[dict[SideState, int], dict[SideState, int]] = ({}, {})
    states: tuple[list[SideState], list[SideState]] = ([], [])

    def sid(side: int, state: SideState) -> int:
        if state not in ids[side]:
            ids[side][state] = len(states[side])
            states[side].append(state)
        return ids[side][state]

    sid(0, ctx.start[0])
    sid(1, ctx.start[1])
    cur = (np.zeros(trials, np.int64), np.zeros(trials, np.int64))
    active = np.arange(trials)
    ca0, cd0 = ctx.sides[0].counts(ctx.start[0]), ctx.sides[1].counts(ctx.start[1])
    if ctx.ended(ctx.start) and not ctx.proc.fights_first_round(ca0, cd0):
        active = active[:0]
    big = 1 << 31
    rounds = 0
    while active.size:
        rounds += 1
        for phase in ctx.proc.phases(rounds == 1):
            key = cur[0][active] * big + cur[1][active]
            order = np.argsort(key, kind="stable")
            skey = key[order]
            cuts = np.flatnonzero(np.diff(skey)) + 1
            for lo, hi in zip(np.r_[0, cuts], np.r_[cuts, len(skey)], strict=True):
                idx = active[order[lo:hi]]
                k = int(skey[lo])
                pair = (states[0][k // big], states[1][k % big])
                dice_a, dice_d = ctx.dice(phase, pair)
                new_d = _mc_apply(ctx, 1, pair[1], dice_a, len(idx), rng, sid)
                new_a = _mc_apply(ctx, 0, pair[0], dice_d, len(idx), rng, sid)
                cur[0][idx] = new_a
                cur[1][idx] = new_d
        key = cur[0][active] * big + cur[1][active]
        uniq, inv = np.unique(key, return_inverse=True)
        keep_u = np.array(
            [
                not ctx.ended(p) and ctx.can_progress(p)
                for p in ((states[0][int(u) // big], states[1][int(u) % big]) for u in uniq)
            ],
            dtype=bool,
        )
        active = active[keep_u[inv]]
        if ctx.battle.retreat_after is not None and rounds >= ctx.battle.retreat_after:
            break
    counts: dict[Pair, int] = defaultdict(int)
    key = cur[0] * big + cur[1]
    uniq, num = np.unique(key, return_counts=True)
    for u, n in zip(uniq, num, strict=True):
        counts[(states[0][int(u) // big], states[1][int(u) % big])] += int(n)
    return counts


def _mc_apply(
    ctx: Context,
    target: int,
    state: SideState,
    dice: list[Dice],
    size: int,
    rng: np.random.Generator,
    sid: Callable[[int, SideState], int],
) -> npt.NDArray[np.int64]:
    side = ctx.sides[target]
    cur = np.full(size, sid(target, state), np.int64)
    lookup = {sid(target, state): state}
    for kind in sorted({d[0] for d in dice}, key=ctx.kind_rank):
        hits = np.zeros(size, np.int64)
        for k, n, p in dice:
            if k == kind and n and p > 0:
                hits += rng.binomial(n, p, size)
        if not hits.any():
            continue
        groups = ctx.groups(target, kind)
        key = cur * 4096 + np.minimum(hits, 4095)
        uniq, inv = np.unique(key, return_inverse=True)
        mapped = np.empty(len(uniq), np.int64)
        for u_i, u in enumerate(uniq):
            s = lookup[int(u) // 4096]
            s2 = side.alloc(s, groups, int(u) % 4096)
            n2 = sid(target, s2)
            lookup[n2] = s2
            mapped[u_i] = n2
        cur = mapped[inv]
    return cur


# --------------------------------------------------------------------------------------------
# results


@dataclass
class BattleOdds:
    """Outcome of a battle calculation. Probabilities sum to 1 over the four outcome buckets.

    ``undecided`` is the attacker having retreated (``--retreat-after``) or a battle in which no
    side can hurt the other; it is neither a win nor a draw. ``draw`` is mutual destruction.
    """

    rules: str
    attacker_win: float
    defender_win: float
    draw: float
    undecided: float
    attacker_survivors: dict[str, float]
    defender_survivors: dict[str, float]
    attacker_remaining: list[tuple[str, float]]
    defender_remaining: list[tuple[str, float]]
    attacker_tuv_lost: float
    defender_tuv_lost: float
    method: str
    compute_ms: float
    trials: int | None = None
    seed: int | None = None
    standard_errors: dict[str, float] = field(default_factory=dict)
    note: str = ""

    @property
    def tuv_swing(self) -> float:
        """Defender's expected loss minus the attacker's (positive favours the attacker)."""
        return self.defender_tuv_lost - self.attacker_tuv_lost

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "rules": self.rules,
            "attacker_win": self.attacker_win,
            "defender_win": self.defender_win,
            "draw": self.draw,
            "undecided": self.undecided,
            "attacker_survivors": self.attacker_survivors,
            "defender_survivors": self.defender_survivors,
            "attacker_remaining": [{"units": u, "p": p} for u, p in self.attacker_remaining],
            "defender_remaining": [{"units": u, "p": p} for u, p in self.defender_remaining],
            "attacker_tuv_lost": self.attacker_tuv_lost,
            "defender_tuv_lost": self.defender_tuv_lost,
            "tuv_swing": self.tuv_swing,
            "method": self.method,
            "compute_ms": self.compute_ms,
        }
        if self.method == "monte-carlo":
            out.update(trials=self.trials, seed=self.seed, standard_errors=self.standard_errors)
        if self.note:
            out["note"] = self.note
        return out


def _summarise(ctx: Context, dist: dict[Pair, float], weight_total: float) -> dict[str, Any]:
    buckets = dict.fromkeys(("attacker_win", "defender_win", "draw", "undecided"), 0.0)
    surv: tuple[dict[str, float], dict[str, float]] = ({}, {})
    rem: tuple[dict[str, float], dict[str, float]] = (defaultdict(float), defaultdict(float))
    lost = [0.0, 0.0]
    moments = {k: [0.0, 0.0] for k in ("attacker_tuv_lost", "defender_tuv_lost")}
    for side in (0, 1):
        surv[side].update(dict.fromkeys(ctx.sides[side].units, 0.0))
    # what each side state means (out?, units left, TUV lost, label): kept in the side's profile
    fact = ctx.fact

    # each side's marginal over its own states, then the per-state facts once per state
    marginal: tuple[dict[SideState, float], dict[SideState, float]] = (defaultdict(float), defaultdict(float))
    known = (ctx.profiles[0].facts, ctx.profiles[1].facts)
    # by 2 * (attacker out) + (defender out)
    sums = [0.0, 0.0, 0.0, 0.0]
    known_a, known_d = known
    marginal_a, marginal_d = marginal
    for (a, d), w in dist.items():
        p = w / weight_total
        fa = known_a.get(a)
        if fa is None:
            fa = fact(0, a)
        fd = known_d.get(d)
        if fd is None:
            fd = fact(1, d)
        sums[2 * fa[0] + fd[0]] += p
        marginal_a[a] += p
        marginal_d[d] += p
    buckets["undecided"], buckets["attacker_win"], buckets["defender_win"], buckets["draw"] = sums
    for side in (0, 1):
        mom = moments["attacker_tuv_lost" if side == 0 else "defender_tuv_lost"]
        units = ctx.sides[side].units
        totals = surv[side]
        labels = rem[side]
        facts = known[side]
        for state, p in marginal[side].items():
            _, counts, tuv, label = facts[state]
            for unit in units:
                totals[unit] += p * counts[unit]
            labels[label] += p
            lost[side] += p * tuv
            mom[0] += p * tuv
            mom[1] += p * tuv * tuv
    return {
        **buckets,
        "attacker_survivors": surv[0],
        "defender_survivors": surv[1],
        "attacker_remaining": sorted(rem[0].items(), key=lambda kv: -kv[1]),
        "defender_remaining": sorted(rem[1].items(), key=lambda kv: -kv[1]),
        "attacker_tuv_lost": lost[0],
        "defender_tuv_lost": lost[1],
        "_moments": moments,
    }


def _summarise_ends(ctx: Context, ends: _Ends) -> dict[str, Any]:
    """:func:`_summarise` of end states given as arrays: a few vector operations, no loop per pair."""
    ta, td = ends.tables
    sums = np.bincount(2 * ta.out[ends.ia] + td.out[ends.id], ends.p, minlength=4).tolist()
    out: dict[str, Any] = {
        "attacker_win": sums[1],
        "defender_win": sums[2],
        "draw": sums[3],
        "undecided": sums[0],
    }
    moments = {}
    for side, table, idx in ((0, ta, ends.ia), (1, td, ends.id)):
        marginal = np.bincount(idx, ends.p, minlength=len(table.labels))
        units = ctx.sides[side].units
        survivors = dict(zip(units, (marginal @ table.counts).tolist(), strict=True))
        remaining: dict[str, float] = defaultdict(float)
        for label, share in zip(table.labels, marginal.tolist(), strict=True):
            if share:
                remaining[label] += share
        lost = float(marginal @ table.tuv)
        name = "attacker" if side == 0 else "defender"
        out[f"{name}_survivors"] = survivors
        out[f"{name}_remaining"] = sorted(remaining.items(), key=lambda kv: -kv[1])
        out[f"{name}_tuv_lost"] = lost
        moments[f"{name}_tuv_lost"] = [lost, float(marginal @ (table.tuv * table.tuv))]
    out["_moments"] = moments
    return out


def _work(ctx: Context) -> tuple[str, float]:
    """Which exact solver fits, and its estimated size (compared with its guard)."""
    return ctx.work


def _work_of(ctx: Context) -> tuple[str, float]:
    if ctx.proc.linear() and ctx.battle.retreat_after is None:
        la, ld = len(ctx.sides[0].tokens), len(ctx.sides[1].tokens)
        variants = 1
        if not ctx.battle.sea and ctx.sides[1].fixed:
            for unit in ctx.sides[0].units:
                if ctx.proc.ruleset.unit(unit).domain == "air":
                    variants *= ctx.sides[0].initial[unit] + 1
        return "linear", float(la * ld * (la + ld) * variants)
    size = 1.0
    for model in ctx.sides:
        for tokens in model.class_tokens:
            size *= len(tokens) + 1
    return "general", size


def exact_distribution(ctx: Context) -> dict[Pair, float]:
    """The exact distribution of end states (pairs of side states) of ``ctx``'s battle."""
    found = _exact(ctx)
    return found.as_dict() if isinstance(found, _Ends) else found


def _exact(ctx: Context) -> _Ends | dict[Pair, float]:
    """:func:`exact_distribution`, as arrays where the solver gives them (no dictionary built)."""
    ca, cd = ctx.sides[0].counts(ctx.start[0]), ctx.sides[1].counts(ctx.start[1])
    if ctx.ended(ctx.start) and not ctx.proc.fights_first_round(ca, cd):
        return {ctx.start: 1.0}
    solver, _ = _work(ctx)
    special_first = bool(ctx.battle.bombard) or (bool(ctx.sides[1].fixed) and not ctx.battle.sea)
    terminal: dict[Pair, float] = {}
    if solver == "linear" and not special_first:
        return _solve_linear_ends(ctx)
    # a first round like the others needs no explicit step, unless the start has ended already
    # (an ID alone still fights its first cycle)
    plain = ctx.battle.retreat_after is None and not ctx.proc.first_round_special()
    if solver == "general" and plain and not ctx.ended(ctx.start):
        dense = _propagate_dense_ends(ctx, {ctx.start: 1.0})
        return dense if dense is not None else dict(_propagate(ctx, {ctx.start: 1.0}))
    if solver == "linear" and ctx.battle.retreat_after is None and ctx.proc.opening_phases() == 1:
        # only the first phase of round 1 is special (AA fire): play it, then every round alike
        rest = {}
        for pair, p in ctx.phase(True, 0, ctx.start).items():
            if ctx.ended(pair):
                terminal[pair] = terminal.get(pair, 0.0) + p
            else:
                rest[pair] = p
    else:
        rest = _step(ctx, {ctx.start: 1.0}, True, terminal)
    if ctx.battle.retreat_after is not None:
        for _ in range(ctx.battle.retreat_after - 1):
            rest = _step(ctx, rest, False, terminal)
        out = defaultdict(float, terminal)
        for pair, p in rest.items():
            out[pair] += p
        return dict(out)
    final = _solve_linear(ctx, rest) if solver == "linear" else _propagate_dense(ctx, rest)
    if final is None:
        final = _propagate(ctx, rest)
    out = defaultdict(float, terminal)
    for pair, p in final.items():
        out[pair] += p
    return dict(out)


def battle_odds(
    battle: Battle, *, method: str = "auto", trials: int = DEFAULT_TRIALS, seed: int = 1
) -> BattleOdds:
    """Solve ``battle``: exactly when it fits the size guard (or ``method="exact"``), else by Monte Carlo.

    :raises BattleSetupError: for battles the rules forbid, a bad ``method``, ``trials`` outside 1 to
        :data:`MAX_TRIALS`, a seed outside 0 to 2**63 - 1, or ``method="exact"`` on a battle above
        the exact ceiling (:data:`EXACT_CEILING_LINEAR`, :data:`EXACT_CEILING_GENERAL`).
    """
    if method not in ("auto", "exact", "monte-carlo"):
        raise BattleSetupError(f"unknown method {method!r}; choose auto, exact or monte-carlo")
    if not 1 <= trials <= MAX_TRIALS:
        raise BattleSetupError(f"--trials must be from 1 to {MAX_TRIALS:,}, not {trials}")
    if not 0 <= seed < 2**63:
        raise BattleSetupError(f"--seed must be from 0 to 2**63 - 1, not {seed}")
    t0 = time.perf_counter()
    ctx = Context(battle)
    solver, size = _work(ctx)
    limit = LINEAR_LIMIT if solver == "linear" else GENERAL_LIMIT[ctx.proc.ruleset.name]
    ceiling = EXACT_CEILING_LINEAR if solver == "linear" else EXACT_CEILING_GENERAL[ctx.proc.ruleset.name]
    if method == "exact" and size > ceiling:
        raise BattleSetupError(
            f"this battle is too large to solve exactly ({solver} solver: size {size:.3g} > "
            f"{ceiling:.3g}, it would run for minutes and could take gigabytes); use --method "
            "monte-carlo (or auto) for a seeded estimate with its standard errors"
        )
    note = ""
    if method == "auto" and size > limit:
        method = "monte-carlo"
        note = (
            f"battle above the exact size guard ({solver} solver: {size:.3g} > {limit:.3g}); used Monte Carlo"
        )
    if method == "monte-carlo":
        counts = simulate(ctx, trials, seed)
        dist = {k: float(v) for k, v in counts.items()}
        summary = _summarise(ctx, dist, float(trials))
        ses = {}
        for key in ("attacker_win", "defender_win", "draw", "undecided"):
            p = summary[key]
            ses[key] = math.sqrt(max(p * (1 - p), 0.0) / trials)
        for key, (m1, m2) in summary["_moments"].items():
            ses[key] = math.sqrt(max(m2 - m1 * m1, 0.0) / trials)
        used = "monte-carlo"
    else:
        found = _exact(ctx)
        summary = _summarise_ends(ctx, found) if isinstance(found, _Ends) else _summarise(ctx, found, 1.0)
        ses = {}
        used = "exact"
    ms = (time.perf_counter() - t0) * 1000.0
    summary.pop("_moments")
    return BattleOdds(
        rules=ctx.proc.ruleset.name,
        method=used,
        compute_ms=ms,
        trials=trials if used == "monte-carlo" else None,
        seed=seed if used == "monte-carlo" else None,
        standard_errors=ses,
        note=note,
        **summary,
    )
