"""Fixed-size numbers for learners: action ids, legal-action masks and per-seat observation vectors.

Reinforcement-learning libraries want a fixed integer action space and fixed-shape tensors, while
a kernel rule set speaks notation text and JSON views. This module is the one translation, shared
by the OpenSpiel game and the PettingZoo environment:

- an :class:`ActionCodec` turns legal actions into ids below a fixed bound and back. A
  :class:`VocabularyCodec` gives every action of the game one id for good (possible when the rule
  set's actions form a small closed list); a :class:`LegalIndexCodec` numbers the legal actions by
  their place in the rule set's stable order (always possible; an id then means "the i-th option
  offered now", so the observation describes each slot's option text, see below);
- a :class:`ViewEncoder` turns the kernel's per-seat view (:func:`grandstrategy.core.view.view`,
  the only form in which a state leaves the kernel) into a float vector by feature hashing: every
  leaf of the view JSON, named by its path, lands in one of a fixed number of buckets. What the
  view hides (the cup's contents, another seat's chits) cannot reach the vector;
- a :class:`ResearchSpec` binds a rule set, its options, a codec and an encoder, and knows the
  bounds OpenSpiel asks for (distinct actions, chance outcomes, utilities).

Hashes are CRC-32 of UTF-8 text (stable across processes and Python versions, unlike ``hash``).
Chance outcomes are numbered by their place in the chance node's outcome list (the rule set's
stable order).
"""

from __future__ import annotations

import math
import zlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

import numpy as np
import numpy.typing as npt

from grandstrategy.core.actions import Action
from grandstrategy.core.canonical import JSONObject, JSONValue
from grandstrategy.core.errors import UserInputError
from grandstrategy.core.game import RuleSet
from grandstrategy.core.ids import Seat, Turn
from grandstrategy.core.state import GameState
from grandstrategy.core.view import view

FloatArray = npt.NDArray[np.float32]
MaskArray = npt.NDArray[np.int8]


class EncodingError(RuntimeError):
    """A state does not fit the chosen encoding (more legal actions than ids, an unknown action).

    A bug or a too-small bound in the research configuration, never a user's input error.
    """


def _bucket(text: str, size: int) -> int:
    return zlib.crc32(text.encode("utf-8")) % size


# ---- actions -----------------------------------------------------------------------------------


class ActionCodec(Protocol):
    """Legal actions to ids below :attr:`size` and back, for the seat on move."""

    @property
    def size(self) -> int:
        """The number of distinct action ids (OpenSpiel's ``num_distinct_actions``)."""
        ...

    def ids(self, legal: Sequence[Action]) -> list[int]:
        """The id of each legal action, in the same order (distinct, each below :attr:`size`).

        :raises EncodingError: an action has no id.
        """
        ...

    def slot_texts(self, legal: Sequence[Action]) -> list[str] | None:
        """For each id below :attr:`size`, the notation it stands for now (``""``: none), when the
        meaning of ids depends on the state; ``None`` when ids mean the same in every state."""
        ...


@dataclass(frozen=True)
class VocabularyCodec:
    """One id per action notation for the whole game: ``vocabulary[i]`` is action ``i``.

    The stable choice, for a rule set whose every action can be listed up front (the toy game's
    ``roll``, ``hold``, ``draw``, ``spend <chit>``; an Axis & Allies purchase table).
    """

    vocabulary: tuple[str, ...]
    _index: dict[str, int] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if not self.vocabulary or len(set(self.vocabulary)) != len(self.vocabulary):
            raise ValueError("a vocabulary needs at least one notation and no repeats")
        object.__setattr__(self, "_index", {text: i for i, text in enumerate(self.vocabulary)})

    @property
    def size(self) -> int:
        """The vocabulary's length."""
        return len(self.vocabulary)

    def ids(self, legal: Sequence[Action]) -> list[int]:
        """The vocabulary index of each legal action's notation."""
        found = []
        for action in legal:
            index = self._index.get(str(action))
            if index is None:
                raise EncodingError(f"action {str(action)!r} is not in the vocabulary")
            found.append(index)
        return found

    def slot_texts(self, legal: Sequence[Action]) -> list[str] | None:
        """``None``: an id means the same action in every state."""
        return None


@dataclass(frozen=True)
class LegalIndexCodec:
    """Id ``i`` is the ``i``-th legal action in the rule set's stable order; at most ``size`` of them.

    Always available (the kernel promises a stable order, nothing more), but an id's meaning
    changes from state to state, so observations carry each slot's option text (hashed). A state
    offering more than ``size`` options raises :class:`EncodingError`.
    """

    size: int

    def __post_init__(self) -> None:
        if self.size < 1:
            raise ValueError(f"a legal-index codec needs at least one slot, not {self.size}")

    def ids(self, legal: Sequence[Action]) -> list[int]:
        """``0 .. len(legal) - 1``."""
        if len(legal) > self.size:
            raise EncodingError(f"{len(legal)} legal actions but only {self.size} action ids")
        return list(range(len(legal)))

    def slot_texts(self, legal: Sequence[Action]) -> list[str] | None:
        """Each slot's option notation, ``""`` for unused slots."""
        texts = [str(action) for action in legal[: self.size]]
        return texts + [""] * (self.size - len(texts))


# ---- observations --------------------------------------------------------------------------------


def _scaled(number: float) -> float:
    """Signed log scale: keeps years (1939) and counts (3) in one comparable range."""
    return math.copysign(math.log1p(abs(number)), number)


@dataclass(frozen=True)
class ViewEncoder:
    """A per-seat view as a fixed-length float vector.

    Layout (lengths in brackets), the same for every seat:

    - ``seat`` [seats]: one-hot, the observing seat;
    - ``to_act`` [seats + 2]: one-hot, the seat on move, then chance, then terminal;
    - ``view`` [``view_size``]: feature-hashed leaves of the view's ``state`` part. A leaf at path
      ``p`` (keys and list positions joined by ``/``) holding a number ``x`` adds
      ``sign(x) log(1 + |x|)`` to bucket ``crc32(p)``; a string, boolean or null ``v`` adds 1 to
      bucket ``crc32(p=v)``. Keys in ``drop_keys`` (e.g. a free-text log) are skipped;
    - ``slots`` [``slot_count`` x ``slot_size``]: with a :class:`LegalIndexCodec`, for the seat on
      move only, each slot's option notation as hashed words (word ``w`` at position ``k`` adds 1
      to bucket ``crc32(k:w)`` and to ``crc32(w)``); zeros for every other seat, which is not
      shown another seat's options.
    """

    seats: tuple[Seat, ...]
    view_size: int = 512
    slot_count: int = 0
    slot_size: int = 16
    drop_keys: frozenset[str] = frozenset()

    @property
    def size(self) -> int:
        """The vector's length."""
        n = len(self.seats)
        return n + n + 2 + self.view_size + self.slot_count * self.slot_size

    def layout(self) -> dict[str, tuple[int, int]]:
        """Each part's ``(offset, length)`` in the vector."""
        n = len(self.seats)
        parts = {
            "seat": n,
            "to_act": n + 2,
            "view": self.view_size,
            "slots": self.slot_count * self.slot_size,
        }
        offsets, at = {}, 0
        for name, length in parts.items():
            offsets[name] = (at, length)
            at += length
        return offsets

    def encode(
        self,
        state: GameState,
        seat: Seat | None,
        slot_texts: Sequence[str] | None = None,
        *,
        seen: JSONObject | None = None,
    ) -> FloatArray:
        """The vector for ``seat`` (``None``: a spectator, no seat bit set; ``seen``: the view, if
        the caller already has it)."""
        out = np.zeros(self.size, dtype=np.float32)
        n = len(self.seats)
        if seat is not None:
            out[self.seats.index(seat)] = 1.0
        who = state.to_act()
        if isinstance(who, Turn):
            out[n + n + (0 if who is Turn.CHANCE else 1)] = 1.0
        else:
            out[n + self.seats.index(who)] = 1.0
        data = (seen if seen is not None else view(state, seat))["state"]
        base = n + n + 2
        self._hash_leaves(data, "", out, base)
        if self.slot_count and slot_texts is not None and seat is not None and who == seat:
            start = base + self.view_size
            for slot, text in enumerate(slot_texts[: self.slot_count]):
                offset = start + slot * self.slot_size
                for position, word in enumerate(text.replace(":", " ").split()):
                    out[offset + _bucket(f"{position}:{word}", self.slot_size)] += 1.0
                    out[offset + _bucket(word, self.slot_size)] += 1.0
        return out

    def _hash_leaves(self, data: JSONValue, path: str, out: FloatArray, base: int) -> None:
        stack: list[tuple[str, Any]] = [(path, data)]
        size = self.view_size
        while stack:
            where, value = stack.pop()
            if isinstance(value, dict):
                stack.extend(
                    (f"{where}/{key}", item) for key, item in value.items() if key not in self.drop_keys
                )
            elif isinstance(value, list):
                stack.extend((f"{where}/{index}", item) for index, item in enumerate(value))
            elif isinstance(value, bool) or value is None or isinstance(value, str):
                out[base + _bucket(f"{where}={value}", size)] += 1.0
            else:
                out[base + _bucket(where, size)] += _scaled(float(value))


# ---- one rule set, ready for learners ----------------------------------------------------------------


@dataclass(frozen=True)
class RulesetDefaults:
    """Research bounds for one rule set (see :data:`DEFAULTS`)."""

    max_actions: int = 64
    max_chance_outcomes: int = 64
    view_size: int = 512
    drop_keys: frozenset[str] = frozenset()
    zero_sum: bool = False
    max_game_length: int = 200_000


DEFAULTS: Mapping[str, RulesetDefaults] = {
    # Cataclysm: at most 26 options were offered in sampled games (64 leaves room); a cup draw
    # lists each distinct counter once (17 at the 1933 start); the public log is free text.
    # Returns are +1 for every power of the winning ideology, -1 for the others: general-sum.
    "cataclysm": RulesetDefaults(max_actions=64, max_chance_outcomes=64, drop_keys=frozenset({"log"})),
}
"""Per rule set name; a rule set not listed gets :class:`RulesetDefaults()`."""


@dataclass(frozen=True)
class ResearchSpec:
    """A rule set with options, seats, action codec, view encoder and the bounds OpenSpiel needs."""

    ruleset: RuleSet
    options: JSONObject
    seats: tuple[Seat, ...]
    actions: ActionCodec
    encoder: ViewEncoder
    max_chance_outcomes: int
    zero_sum: bool
    max_game_length: int

    def legal_ids(self, state: GameState) -> list[int]:
        """The ids of the legal actions of the seat on move, sorted (empty when nobody may move)."""
        return sorted(self.actions.ids(state.legal_actions()))

    def action_for(self, state: GameState, action_id: int) -> Action:
        """The legal action with this id.

        :raises EncodingError: no legal action has it.
        """
        legal = state.legal_actions()
        for action, found in zip(legal, self.actions.ids(legal), strict=True):
            if found == action_id:
                return action
        raise EncodingError(f"action id {action_id} is not legal in {state.phase() or 'this state'}")

    def mask(self, state: GameState, seat: Seat) -> MaskArray:
        """1 for each legal id when ``seat`` is on move, else all zeros."""
        mask = np.zeros(self.actions.size, dtype=np.int8)
        if state.to_act() == seat:
            mask[self.actions.ids(state.legal_actions())] = 1
        return mask

    def observe(self, state: GameState, seat: Seat | None, *, seen: JSONObject | None = None) -> FloatArray:
        """The observation vector of ``seat`` (``None``: a spectator; see :class:`ViewEncoder`)."""
        on_move = seat is not None and state.to_act() == seat
        texts = self.actions.slot_texts(state.legal_actions()) if on_move else None
        return self.encoder.encode(state, seat, texts, seen=seen)

    def chance_outcomes(self, state: GameState) -> list[tuple[int, str, float]]:
        """At a chance node: ``(id, outcome text, probability)`` for each outcome, id = list position.

        :raises EncodingError: more outcomes than :attr:`max_chance_outcomes`.
        """
        node = state.chance_node()
        if len(node.outcomes) > self.max_chance_outcomes:
            raise EncodingError(
                f"chance node {node.label!r} has {len(node.outcomes)} outcomes; "
                f"the bound is {self.max_chance_outcomes}"
            )
        return [(i, text, float(p)) for i, (text, p) in enumerate(node.outcomes)]


def research_spec(
    ruleset: RuleSet,
    options: Mapping[str, JSONValue] | None = None,
    *,
    actions: ActionCodec | None = None,
    view_size: int | None = None,
    zero_sum: bool | None = None,
) -> ResearchSpec:
    """A spec for ``ruleset`` with ``options``: the rule set's :data:`DEFAULTS` unless overridden.

    Without ``actions``, the codec is a :class:`LegalIndexCodec` of ``max_actions`` slots, and the
    encoder describes each slot's option text.

    :raises UserInputError: bad options (from the rule set).
    """
    opts: JSONObject = dict(options or {})
    defaults = DEFAULTS.get(ruleset.name, RulesetDefaults())
    seats = tuple(ruleset.new_state(opts).seats())
    if not seats:
        raise UserInputError(f"rule set {ruleset.name} has no seats")
    codec: ActionCodec = actions if actions is not None else LegalIndexCodec(defaults.max_actions)
    slots = codec.size if isinstance(codec, LegalIndexCodec) else 0
    encoder = ViewEncoder(
        seats,
        view_size=view_size if view_size is not None else defaults.view_size,
        slot_count=slots,
        drop_keys=defaults.drop_keys,
    )
    return ResearchSpec(
        ruleset=ruleset,
        options=opts,
        seats=seats,
        actions=codec,
        encoder=encoder,
        max_chance_outcomes=defaults.max_chance_outcomes,
        zero_sum=defaults.zero_sum if zero_sum is None else zero_sum,
        max_game_length=defaults.max_game_length,
    )
