"""Named identifiers shared by every rule set, and the answers to "whose move is it?".

Ids are :func:`typing.NewType` aliases over :class:`str`, so they cost nothing at run time but
let mypy keep a seat apart from an area. "Whose move" follows OpenSpiel: the answer is a
:data:`Seat`, :data:`CHANCE` (the driver must sample a chance node) or :data:`TERMINAL`.
"""

from __future__ import annotations

import enum
from typing import NewType, TypeAlias

Seat = NewType("Seat", str)
"""A place at the table (a player or a bot), e.g. ``Seat("axis")``."""

PowerId = NewType("PowerId", str)
"""A power (Germany, the USSR, ...) as named by a data module."""

AreaId = NewType("AreaId", str)
"""An area of a map as named by a data module."""

UnitTypeId = NewType("UnitTypeId", str)
"""A unit type (army, fleet, air, ...) as named by a data module."""


class Turn(enum.Enum):
    """The two answers to "whose move" that are not a seat."""

    CHANCE = "chance"
    """A chance node: the driver samples one of the state's listed outcomes."""

    TERMINAL = "terminal"
    """The game is over: nobody moves, :meth:`returns` holds the result."""

    def __str__(self) -> str:
        return self.value


CHANCE = Turn.CHANCE
TERMINAL = Turn.TERMINAL

ToAct: TypeAlias = Seat | Turn
"""What :meth:`GameState.to_act` returns: a seat, :data:`CHANCE` or :data:`TERMINAL`."""
