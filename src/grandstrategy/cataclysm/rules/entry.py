"""Entry rules of movement (LR 7.2): whether a unit may enter one area now, one move at a time.

Land movement crosses borders, black arrows and white connectors between land and mixed areas
(LR 7.2.1); naval movement goes between sea areas and coastal areas, never from land to land except
a mixed area across a black arrow (LR 7.2.2); air movement crosses any connection, blue arrows too
(LR 7.2.3). Land and mixed areas are entered when friendly or when they are the operation's
target; during an operation air units may also fly over enemy land. The per-area tests here serve
the searches of :mod:`deployment_reach` (which apply them to every area at once), :mod:`op_range`
and :mod:`retreat`; the coast a naval unit arrives on (LR 2.2.1) is worked out here too.
"""

from __future__ import annotations

from typing import Literal

from grandstrategy.cataclysm.module import Module
from grandstrategy.cataclysm.module.schema import BaseKind
from grandstrategy.cataclysm.rules.occupation import (
    SUBMARINE,
    Snapshot,
    UnitClass,
    graph_of,
    snapshot,
)
from grandstrategy.cataclysm.state import CataclysmState, Unit

Mode = Literal["land", "naval", "air"]

MOVES: dict[UnitClass, frozenset[Mode]] = {
    "land": frozenset({"land", "naval"}),  # naval movement in deployment and invasion (LR 7.2)
    "naval": frozenset({"naval"}),
    "air": frozenset({"air", "naval"}),  # naval movement to cross seas in deployment (LR 7.2)
    "logistics": frozenset({"land", "naval"}),
}
"""The kinds of movement each class of unit may use (LR 7.2)."""

# -- entry rules, one area at a time --------------------------------------------------------------


def _blocks_naval(snap: Snapshot, power: str, area_id: str) -> bool:
    """An enemy naval unit or strategic air force is there (LR 7.2.2)."""
    return area_id in snap.blockers(power)[0]


def _blocks_air(snap: Snapshot, power: str, area_id: str) -> bool:
    """An enemy air unit is there (LR 7.2.3)."""
    return area_id in snap.blockers(power)[1]


def land_entry(snap: Snapshot, power: str, area_id: str, op_target: str | None) -> bool:
    graph = snap.graph
    if area_id not in snap.in_play or area_id in graph.sea:
        return False
    if area_id in graph.remote:  # LR 2.2.8
        return snap.controller(area_id) == power
    return area_id == op_target or snap.friendly_area(power, area_id)


def naval_entry(
    snap: Snapshot,
    power: str,
    unit_type: str,
    area_id: str,
    op_target: str | None,
    *,
    check_range: bool,
) -> bool:
    graph = snap.graph
    if area_id not in snap.in_play:
        return False
    if check_range and area_id not in snap.in_naval_range(power):  # LR 7.2.2: at all times
        return False
    if area_id != op_target and unit_type != SUBMARINE and _blocks_naval(snap, power, area_id):
        return False
    if area_id in graph.sea:
        return True
    if area_id in graph.remote:
        return snap.controller(area_id) == power
    if area_id == op_target or snap.friendly_area(power, area_id):
        return True
    unit_class = graph.unit_class[unit_type]
    if unit_class == "land":
        return False
    kind = BaseKind.NAVAL if unit_class == "naval" else None
    return snap.friendly_special_base(power, area_id, kind)


def off_base_coast(snap: Snapshot, power: str, here: str, there: str, op_target: str | None) -> bool:
    """Whether a naval move from ``here`` reaches ``there`` on a coast where the power may not stand:
    in a two-coast area it enters only as a special base's guest, a fleet stands at the base, on the
    base's coast, so it must arrive from one of that coast's seas (LR 2.2.1, 2.3.3)."""
    if there not in snap.graph.base_coast or there == op_target:
        return False
    coast = snap.base_coast(power, there)
    return coast is not None and snap.graph.coast_of.get((there, here)) != coast


def naval_onward(snap: Snapshot, power: str, area_id: str, op_target: str | None) -> bool:
    """Whether naval movement may go on from an area it entered (LR 2.2.1, 2.3.5, 7.3.1)."""
    if area_id == op_target or snap.delay_stops(area_id):
        return False
    graph = snap.graph
    if area_id in graph.land_type:
        return area_id in graph.special_coastal and snap.friendly_area(power, area_id)
    return True


def air_entry(snap: Snapshot, power: str, area_id: str, op_target: str | None, *, in_op: bool) -> bool:
    graph = snap.graph
    if area_id not in snap.in_play:
        return False
    if area_id != op_target and _blocks_air(snap, power, area_id):
        return False
    if area_id in graph.sea:
        return True
    if area_id in graph.remote:
        return snap.controller(area_id) == power
    if area_id == op_target or snap.friendly_area(power, area_id):
        return True
    if in_op and snap.enemy_area(power, area_id):  # in transit only (LR 7.2.3)
        return True
    return snap.friendly_special_base(power, area_id)


# -- public API ----------------------------------------------------------------------------------


def is_friendly_area(module: Module, state: CataclysmState, power: str, area_id: str) -> bool:
    """A land or mixed area controlled by the power or a belligerent ally (LR 1.1, 6.1.2).

    A Chinese country holding a Chinese army is friendly to nobody (LR 11.4.2).
    """
    return snapshot(module, state).friendly_area(power, area_id)


def friendly_airfields(module: Module, state: CataclysmState, power: str) -> set[str]:
    """Friendly airfield areas in play (LR 2.2.2, 2.3.2, 2.3.3): friendly land and friendly bases."""
    return set(snapshot(module, state).airfields(power))


def friendly_port_areas(module: Module, state: CataclysmState, power: str) -> set[str]:
    """Friendly port areas in play (LR 2.2.2, 2.3.2, 2.3.3), special British bases included."""
    return set(snapshot(module, state).ports(power))


def arrival_coast(module: Module, area_id: str, from_area: str) -> str | None:
    """The coast of a two-coast area that a naval unit reaches from ``from_area`` (LR 2.2.1)."""
    return graph_of(module).coast_of.get((area_id, from_area))


def coast_on_arrival(
    module: Module, unit: Unit, area_id: str, state: CataclysmState | None = None
) -> str | None:
    """The coast of ``area_id`` a unit stands on once it moves there from where it is (LR 2.2.1).

    A naval unit reaching a two-coast area by naval movement stands on the coast whose sea it
    reaches first from its area (and coast), passing only sea, mixed and special coastal areas;
    when two coasts are as near, or it cannot get there by sea, on the first coast by name. Given
    the ``state``, a naval unit standing there only at a friendly special base stands on the base's
    coast (LR 2.3.3). Other units and areas with one coast or none: the first coast by name, or None.
    """
    area = module.area(area_id)
    if not area.coasts:
        return None
    default = sorted(area.coasts)[0]
    graph = graph_of(module)
    if graph.unit_class.get(unit.type) != "naval" or unit.area not in module.areas:
        return default
    if state is not None and area_id in graph.base_coast:
        snap = snapshot(module, state)
        coast = snap.base_coast(unit.power, area_id)
        if coast is not None:
            return coast
    if unit.area == area_id:
        return unit.coast or default
    passable = graph.sea | graph.mixed | graph.special_coastal
    seen = {unit.area}
    frontier = [unit.area]
    while frontier:
        found = sorted({graph.coast_of[(area_id, x)] for x in frontier if (area_id, x) in graph.coast_of})
        if found:
            return found[0]
        following = []
        for here in frontier:
            if here != unit.area and here not in passable:
                continue
            for there in graph.naval_from(here, unit.coast if here == unit.area else None):
                if there not in seen:
                    seen.add(there)
                    following.append(there)
        frontier = following
    return default


def step_moves(
    module: Module, state: CataclysmState, unit: Unit, mode: Mode, *, op_target: str | None = None
) -> set[str]:
    """Areas one move of ``mode`` away from the unit that it may enter now (LR 7.2.1–7.2.3).

    Land and mixed areas must be friendly or ``op_target``; remote areas take only their
    controller's units. Naval movement stays within naval range of a friendly port outside an
    operation, cannot enter an area holding an enemy naval unit or strategic air force unless it is
    the target (sub packs may, to pass through), and leaves a two-coast area only from the unit's
    coast. Air movement enters any sea area without enemy air units, friendly land, and during an
    operation (``op_target`` given) enemy land in transit. A mode the unit's class cannot use
    gives no areas.
    """
    snap = snapshot(module, state)
    graph = snap.graph
    here, power = unit.area, unit.power
    unit_class = graph.unit_class[unit.type]
    if mode not in MOVES[unit_class] or here not in module.areas:
        return set()
    if mode == "land":
        if here in graph.sea:
            return set()
        return {b for b in graph.land[here] if land_entry(snap, power, b, op_target)}
    if mode == "naval":
        coast = unit.coast if unit_class == "naval" else None
        return {
            b
            for b in graph.naval_from(here, coast)
            if naval_entry(snap, power, unit.type, b, op_target, check_range=op_target is None)
            and (unit_class != "naval" or not off_base_coast(snap, power, here, b, op_target))
        }
    return {b for b in graph.air[here] if air_entry(snap, power, b, op_target, in_op=op_target is not None)}


__all__ = [
    "MOVES",
    "Mode",
    "air_entry",
    "arrival_coast",
    "coast_on_arrival",
    "friendly_airfields",
    "friendly_port_areas",
    "is_friendly_area",
    "land_entry",
    "naval_entry",
    "naval_onward",
    "off_base_coast",
    "step_moves",
]
