"""The variant's battles as a step machine: the land cycle, the amphibious first cycle, the naval cycle.

The base engine (:mod:`grandstrategy.axis_allies.game.engine`) asks the profile's
``battle_machine()`` hook for the object that fights a battle opened with ``fight WHERE``; for the
Historical Edition that is :class:`~.battles.AarheBattles`, which runs the steps here. The
battle lives in the game's JSON state (``d["battle"]``, marked ``"machine": "aarhe"``): a queue
of steps still to run, the dice waiting to be rolled (each one chance event with its label) and
at most one open question (``ask``: who decides, and the options). Every choice the variant
leaves to a player is such a question: the target of each ID, fighter, submarine and destroyer,
each destroyer's screen, each hit's casualty, retreats, submerging, pressing on or breaking off.

Rules are cited by the variant document's line (S3:L220 ...). Readings of what the document leaves
open are the AH-C decisions listed in docs/aarhe-coverage.md (Combat section).

The machine is one class, :class:`CycleRun`, put together from the step mixins by job:
:mod:`.cycle` (plumbing, facts, aiming, casualties), :mod:`.land` (ID, air and land fire, the
amphibious first cycle), :mod:`.naval` (the naval cycle) and :mod:`.retreat` (retreats and the end
of a cycle). The names other modules use are re-exported here.
"""

from __future__ import annotations

from grandstrategy.axis_allies.aarhe.combat.cycle import (
    AMPHIBIOUS_FIRST,
    ARMOUR_CLASS,
    CAPITAL,
    ESCORT,
    LAND_CYCLE,
    POOL_ORDER,
    SEA_CYCLE,
    SELECTIVE_AIR,
    CycleBase,
    _has,
    _name,
    _techs,
)
from grandstrategy.axis_allies.aarhe.combat.land import LandSteps
from grandstrategy.axis_allies.aarhe.combat.naval import NavalSteps
from grandstrategy.axis_allies.aarhe.combat.retreat import RetreatSteps

__all__ = [
    "AMPHIBIOUS_FIRST",
    "ARMOUR_CLASS",
    "CAPITAL",
    "ESCORT",
    "LAND_CYCLE",
    "POOL_ORDER",
    "SEA_CYCLE",
    "SELECTIVE_AIR",
    "CycleRun",
    "_has",
    "_name",
    "_techs",
]


class CycleRun(LandSteps, NavalSteps, RetreatSteps, CycleBase):
    """One step of the machine on one game: reads and writes ``game.d["battle"]``."""
