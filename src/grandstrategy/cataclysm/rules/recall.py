"""Facts remembered across states: the answer for the last few contents of the fields it reads.

Some facts are asked for after almost every step although the few fields they read rarely change:
every power's interests (LR 5.1) read control, bases and aid; the Status Quo test (LR 12.2) reads
the cubes. A :class:`Recall` keeps, for the last few distinct contents of those fields, a copy of
the fields and the answers worked out from them. A lookup compares the state's fields with each
copy (plain dict and list equality, done in C) and reuses the answers of an equal one; otherwise
it copies the fields and starts a new entry. An answer is therefore always the one the function
gives for fields equal to the state's: the same answers, computed less often. Answers must be
immutable (or copied by the caller) since they are shared.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from grandstrategy.cataclysm.module import Module
from grandstrategy.cataclysm.state import CataclysmState

Fields = tuple[Any, ...]


_LEAVES = frozenset({str, int, float, bool, type(None)})
"""Types copied as they are (immutable): :func:`_copy` does not descend into them."""


def _copy(value: Any) -> Any:
    """A copy of JSON-like data (dicts, lists, tuples of them, scalars), equal to the original.

    Strings and numbers (most of the items) are taken as they are without a call per item."""
    if isinstance(value, dict):
        return {key: item if type(item) in _LEAVES else _copy(item) for key, item in value.items()}
    if isinstance(value, list):
        return [item if type(item) in _LEAVES else _copy(item) for item in value]
    if isinstance(value, tuple):
        return tuple(item if type(item) in _LEAVES else _copy(item) for item in value)
    return value


def sharing_cubes(index: int) -> Callable[[Fields], Fields]:
    """How a :class:`Recall` whose field ``index`` is ``state.cubes`` copies its fields: that
    dict shallowly, sharing each area's holders, which no code changes in place (a change puts a
    new dict in the area's place, see :class:`CataclysmState`); the others in full. A later
    state's cubes then compare equal area by area by identity, the holders of the areas it did not
    change being the same objects (copies of a state share them)."""

    def copy_fields(fields: Fields) -> Fields:
        return tuple(dict(value) if place == index else _copy(value) for place, value in enumerate(fields))

    return copy_fields


class Recall:
    """Answers keyed by the contents of some fields of the state, for the last ``size`` contents.

    :param fields: the fields the answers depend on, read from the state (live objects: they are
        compared, and copied when a new entry starts).
    :param copy: how the fields are copied for a new entry (default: in full; see
        :func:`sharing_cubes`).
    """

    def __init__(
        self,
        fields: Callable[[CataclysmState], Fields],
        size: int = 16,
        copy: Callable[[Fields], Fields] | None = None,
    ) -> None:
        self._fields = fields
        self._size = size
        self._copy_fields: Callable[[Fields], Fields] = copy if copy is not None else _copy
        self._entries: list[tuple[Module, Fields, dict[Any, Any]]] = []

    def answers(self, module: Module, state: CataclysmState) -> dict[Any, Any]:
        """The answers remembered for fields equal to the state's (a dict to look up and fill in)."""
        now = self._fields(state)
        entries = self._entries
        for index, (known_module, known, answers) in enumerate(entries):
            if known_module is module and known == now:
                if index:
                    entries.insert(0, entries.pop(index))  # most recent first
                return answers
        fresh: dict[Any, Any] = {}
        entries.insert(0, (module, self._copy_fields(now), fresh))
        del entries[self._size :]
        return fresh

    def clear(self) -> None:
        """Forget everything (for tests)."""
        self._entries.clear()
