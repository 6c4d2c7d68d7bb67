"""Answers remembered while a state is known not to change: a menu being worked out.

Building one menu (the operations a power could declare, its political actions) asks the same
questions of the same state hundreds of times: who controls an area, which areas are friendly
ports, how far a fleet reaches. Inside ``with frozen(state):`` the caller promises not to change
``state``; the rules functions then keep their answers about it in :func:`memo_of` (one dict per
frozen state) and share one :class:`~grandstrategy.cataclysm.rules.occupation.Snapshot`, so each
question is worked out once. Outside such a block nothing is remembered and every answer is
computed from the state as it is, so the answers are the same either way.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from grandstrategy.cataclysm.state import CataclysmState

_FROZEN: dict[int, tuple[CataclysmState, dict[Any, Any]]] = {}
"""The frozen states by id, each with its memo (the state is held, so its id cannot be reused)."""


@contextmanager
def frozen(state: CataclysmState) -> Iterator[None]:
    """Remember answers about ``state`` until the block ends; the block must not change it.

    Nested blocks for the same state share the outer block's memo.
    """
    key = id(state)
    if key in _FROZEN:
        yield
        return
    _FROZEN[key] = (state, {})
    try:
        yield
    finally:
        del _FROZEN[key]


def memo_of(state: CataclysmState) -> dict[Any, Any] | None:
    """The memo of a frozen state, or None when the state may change (nothing is remembered)."""
    if not _FROZEN:
        return None
    hit = _FROZEN.get(id(state))
    if hit is None or hit[0] is not state:
        return None
    return hit[1]
