"""Chance as a player: chance nodes with exact probabilities, sampled by one seeded service.

A rule set never rolls a die itself. At a chance node its state lists the possible outcomes as a
:class:`ChanceNode` (outcome notation text and a :class:`~fractions.Fraction` probability); the
driver asks the :class:`ChanceService` to pick one and hands it back to the state. Odds code can
enumerate the very same outcomes, and a game is reproduced by its seed.

Every draw made through the service, whether from a chance node or one of the conveniences
(:meth:`ChanceService.roll`, :meth:`~ChanceService.draw`, :meth:`~ChanceService.choose`), is
recorded as a :class:`ChanceEvent` in :attr:`ChanceService.events`.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Protocol

from grandstrategy.core.canonical import JSONObject
from grandstrategy.core.ids import Seat
from grandstrategy.core.rng import Rng

CHANCE_KINDS = frozenset({"die", "dice", "draw", "choice", "table"})
"""Kinds of chance event: one die, several dice, a draw from a cup, a random choice, a table."""


class RandomSource(Protocol):
    """Where a :class:`ChanceService` gets its bits: the seeded :class:`~grandstrategy.core.rng.Rng`
    offline, or :class:`~grandstrategy.core.committed.CommittedRng` on a server."""

    def below(self, n: int) -> int:
        """A uniform integer ``0 <= r < n``, without bias."""
        ...

    def getstate(self) -> str:
        """The source's state as text (nothing that reveals future draws beyond the seed's own)."""
        ...

    def setstate(self, state: str) -> None:
        """Return to a state from :meth:`getstate` (:raises ValueError: a malformed state)."""
        ...


@dataclass(frozen=True, slots=True)
class ChanceNode:
    """The outcomes possible at a chance node, each with its exact probability.

    ``outcomes`` keeps the rule set's order (the sampling order, so it must be stable); outcome
    texts are unique, probabilities are positive and add up to exactly 1. ``private_to`` names
    the one seat that may see the outcome (e.g. a chit drawn into a hidden hand); ``None`` means
    the outcome is public.

    :raises ValueError: on an unknown kind, no outcomes, a repeated outcome, a probability that is
        not a positive :class:`Fraction` or :class:`int`, or probabilities not summing to 1. These
        are bugs in a rule set, not user errors.
    """

    kind: str
    label: str
    outcomes: tuple[tuple[str, Fraction], ...]
    private_to: Seat | None = None

    def __post_init__(self) -> None:
        if self.kind not in CHANCE_KINDS:
            raise ValueError(f"chance kind {self.kind!r} is not one of {sorted(CHANCE_KINDS)}")
        if not self.outcomes:
            raise ValueError(f"chance node {self.label!r} has no outcomes")
        seen: set[str] = set()
        for outcome, p in self.outcomes:
            if not isinstance(outcome, str) or not outcome or outcome != outcome.strip():
                raise ValueError(f"chance node {self.label!r}: bad outcome text {outcome!r}")
            if outcome in seen:
                raise ValueError(f"chance node {self.label!r}: outcome {outcome!r} appears twice")
            seen.add(outcome)
            if isinstance(p, bool) or not isinstance(p, Fraction | int) or p <= 0:
                raise ValueError(f"chance node {self.label!r}: outcome {outcome!r} has probability {p!r}")
        # The sum, exactly, in integers over the least common denominator (no Fraction arithmetic).
        denominator = math.lcm(*(p.denominator for _, p in self.outcomes))
        total = sum(p.numerator * (denominator // p.denominator) for _, p in self.outcomes)
        if total != denominator:
            raise ValueError(
                f"chance node {self.label!r}: probabilities add up to {Fraction(total, denominator)}, not 1"
            )

    @classmethod
    def die(cls, label: str, sides: int = 6) -> ChanceNode:
        """One fair die with faces ``"1"`` .. ``str(sides)``."""
        if sides < 1:
            raise ValueError(f"a die needs at least one side, not {sides}")
        p = Fraction(1, sides)
        return cls("die", label, tuple((str(face), p) for face in range(1, sides + 1)))

    @classmethod
    def uniform(cls, label: str, options: Iterable[str], *, kind: str = "choice") -> ChanceNode:
        """Each of ``options`` equally likely ("determine randomly")."""
        opts = tuple(options)
        if not opts:
            raise ValueError(f"chance node {label!r} has no options")
        p = Fraction(1, len(opts))
        return cls(kind, label, tuple((o, p) for o in opts))

    @classmethod
    def from_counts(
        cls, label: str, counts: Mapping[str, int], *, kind: str = "draw", private_to: Seat | None = None
    ) -> ChanceNode:
        """Draw one counter from a multiset (a cup): each counter equally likely.

        Names with a count of 0 are left out; names are taken in sorted order, so the node does
        not depend on the mapping's insertion order.
        """
        if any(n < 0 for n in counts.values()):
            raise ValueError(f"chance node {label!r}: negative count in {dict(counts)!r}")
        total = sum(counts.values())
        if total == 0:
            raise ValueError(f"chance node {label!r}: the cup is empty")
        return cls(
            kind,
            label,
            tuple((name, Fraction(counts[name], total)) for name in sorted(counts) if counts[name]),
            private_to,
        )

    def relabelled(self, label: str) -> ChanceNode:
        """The same node under another label, without checking the outcomes again (they were
        checked when this node was made): a rule set building the same outcomes with many labels
        (every die of a game) validates them once."""
        node = object.__new__(ChanceNode)
        object.__setattr__(node, "kind", self.kind)
        object.__setattr__(node, "label", label)
        object.__setattr__(node, "outcomes", self.outcomes)
        object.__setattr__(node, "private_to", self.private_to)
        return node

    def probability(self, outcome: str) -> Fraction:
        """Return the probability of ``outcome`` (0 if it is not possible here)."""
        for o, p in self.outcomes:
            if o == outcome:
                return Fraction(p)
        return Fraction(0)


@dataclass(frozen=True, slots=True)
class ChanceEvent:
    """One recorded draw: its sequence number, kind, label (why it was drawn) and outcome text.

    ``private_to`` is the only seat allowed to see the outcome (``None``: public); views of the
    log for other seats hide it (see :func:`grandstrategy.core.view.log_view`).
    """

    seq: int
    kind: str
    label: str
    outcome: str
    private_to: Seat | None = None

    def to_json(self) -> JSONObject:
        """Return the event as a JSON object (the log entry form used in saves).

        ``private_to`` is written only when set, so public events stay short.
        """
        data: JSONObject = {
            "type": "chance",
            "seq": self.seq,
            "kind": self.kind,
            "label": self.label,
            "outcome": self.outcome,
        }
        if self.private_to is not None:
            data["private_to"] = self.private_to
        return data


def sample_index(rng: RandomSource, probabilities: Sequence[Fraction]) -> int:
    """Pick an index with exactly the given probabilities (they must sum to 1).

    The probabilities are put over their least common denominator ``D``; one integer below ``D``
    is drawn without bias and mapped through the cumulative numerators. No floating point.
    """
    denominator, cumulative = _table(tuple(probabilities))
    r = rng.below(denominator)
    for index, bound in enumerate(cumulative):
        if r < bound:
            return index
    raise AssertionError("probabilities do not add up to 1")  # ChanceNode guarantees they do


_TABLES: dict[tuple[Fraction | int, ...], tuple[int, tuple[int, ...]]] = {}
_TABLES_KEPT = 4096


def _table(probabilities: tuple[Fraction | int, ...]) -> tuple[int, tuple[int, ...]]:
    """The least common denominator of the probabilities and their cumulative numerators over it
    (the same few distributions recur all game long: dice, cups, tables), worked out once each."""
    found = _TABLES.get(probabilities)
    if found is None:
        exact = [p if isinstance(p, Fraction) else Fraction(p) for p in probabilities]
        denominator = math.lcm(*(p.denominator for p in exact))
        bounds: list[int] = []
        cumulative = 0
        for p in exact:
            cumulative += p.numerator * (denominator // p.denominator)
            bounds.append(cumulative)
        if len(_TABLES) >= _TABLES_KEPT:
            _TABLES.clear()
        found = _TABLES[probabilities] = (denominator, tuple(bounds))
    return found


@dataclass(frozen=True, slots=True)
class ChanceCheckpoint:
    """What :meth:`ChanceService.rollback` needs to undo draws: Rng state and event count."""

    rng_state: str
    events: int


class ChanceService:
    """The seeded source of every random draw in a game; it records each draw as an event.

    >>> service = ChanceService(7)
    >>> service.roll(2, label="attack")
    (6, 3)
    >>> service.events[0].outcome
    '6 3'

    :param seed: an integer with ``0 <= seed < 2**64``.
    :param rng: another source of bits than the seeded generator (a server's committed dice);
        the seed is then not used for chance.
    :raises ValueError: on a bad seed.
    """

    def __init__(self, seed: int, rng: RandomSource | None = None) -> None:
        self.seed = seed
        self._rng: RandomSource = Rng(seed) if rng is None else rng
        self._events: list[ChanceEvent] = []

    @property
    def events(self) -> tuple[ChanceEvent, ...]:
        """Every draw so far, oldest first."""
        return tuple(self._events)

    def _record(self, kind: str, label: str, outcome: str, private_to: Seat | None = None) -> ChanceEvent:
        event = ChanceEvent(len(self._events), kind, label, outcome, private_to)
        self._events.append(event)
        return event

    def resolve(self, node: ChanceNode) -> ChanceEvent:
        """Sample one outcome of ``node``, record it and return the event."""
        index = sample_index(self._rng, [p for _, p in node.outcomes])
        return self._record(node.kind, node.label, node.outcomes[index][0], node.private_to)

    def sample(self, kind: str, label: str, outcomes: Sequence[tuple[str, Fraction]]) -> str:
        """Sample one of ``outcomes`` (text, probability) and return its text.

        :raises ValueError: the outcomes do not form a valid :class:`ChanceNode`.
        """
        return self.resolve(ChanceNode(kind, label, tuple(outcomes))).outcome

    def roll(self, n: int = 1, sides: int = 6, *, label: str) -> tuple[int, ...]:
        """Roll ``n`` fair dice; record one event (kind ``die`` or ``dice``, faces space-separated)."""
        if n < 1 or sides < 1:
            raise ValueError(f"cannot roll {n} dice of {sides} sides")
        faces = tuple(self._rng.below(sides) + 1 for _ in range(n))
        self._record("die" if n == 1 else "dice", label, " ".join(map(str, faces)))
        return faces

    def draw(self, counts: Mapping[str, int], *, label: str, private_to: Seat | None = None) -> str:
        """Draw one counter from a multiset such as a cup (each counter equally likely)."""
        return self.resolve(ChanceNode.from_counts(label, counts, private_to=private_to)).outcome

    def choose(self, options: Sequence[str], *, label: str) -> str:
        """Pick one of ``options`` uniformly ("determine randomly")."""
        return self.resolve(ChanceNode.uniform(label, options)).outcome

    def checkpoint(self) -> ChanceCheckpoint:
        """Return a mark to come back to with :meth:`rollback`."""
        return ChanceCheckpoint(self._rng.getstate(), len(self._events))

    def rollback(self, mark: ChanceCheckpoint) -> None:
        """Forget every draw made since ``mark`` and rewind the generator to it."""
        self._rng.setstate(mark.rng_state)
        del self._events[mark.events :]

    def getstate(self) -> JSONObject:
        """Return the service's state (generator and event count) for a snapshot."""
        return {"rng": self._rng.getstate(), "events": len(self._events)}

    def restore(self, state: JSONObject, events: Sequence[ChanceEvent]) -> None:
        """Restore a state from :meth:`getstate` together with the events drawn before it.

        :raises ValueError: the state is malformed or disagrees with ``events``.
        """
        rng_state = state.get("rng") if isinstance(state, dict) else None
        if not isinstance(rng_state, str) or state.get("events") != len(events):
            raise ValueError(f"chance state {state!r} does not match {len(events)} recorded events")
        self._rng.setstate(rng_state)
        self._events = list(events)
