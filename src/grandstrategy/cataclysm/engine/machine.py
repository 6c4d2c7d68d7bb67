"""The step machine: a stack of pending steps, one pending request, and the handler registry."""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from grandstrategy.cataclysm.engine.game import CataclysmGame

Step = dict[str, Any]

HANDLERS: dict[str, Callable[[CataclysmGame, Step], None]] = {}

WATCHERS: list[Callable[[CataclysmGame], None]] = []
"""Checks run after every step: rules that apply the moment a condition holds, whatever changed it.

A watcher reads only ``game.state`` and, when it acts, says so in the game log (``game.note``):
the machine uses that to skip the watchers after a step in :data:`PURE_STEPS` when they have
just run on the same state and found nothing to do (the answer cannot have changed)."""

PURE_STEPS = frozenset(
    {"roll-die", "roll-die-face", "action-window", "interrupt-window", "wnt-offer", "draw"}
)
"""Steps that change only the machine (the stack and the open request), never ``game.state``: the
dice, and the steps before a draw that only ask who interrupts or offer Japan the treaty's end
(``tests/cataclysm/test_pure_steps.py`` checks the state after each in random games)."""


def step(
    name: str,
) -> Callable[[Callable[[CataclysmGame, Step], None]], Callable[[CataclysmGame, Step], None]]:
    """Register the handler of a kind of step."""

    def register(function: Callable[[CataclysmGame, Step], None]) -> Callable[[CataclysmGame, Step], None]:
        if name in HANDLERS:
            raise ValueError(f"step {name!r} is registered twice")
        HANDLERS[name] = function
        return function

    return register


def watch(function: Callable[[CataclysmGame], None]) -> Callable[[CataclysmGame], None]:
    """Register a check to run after every step (see ``WATCHERS``: it notes whatever it does)."""
    if function not in WATCHERS:
        WATCHERS.append(function)
    return function


_DIE = tuple((str(face), Fraction(1, 6)) for face in range(1, 7))


def die_outcomes() -> list[tuple[str, Fraction]]:
    """The six faces of a die, each 1/6."""
    return list(_DIE)
