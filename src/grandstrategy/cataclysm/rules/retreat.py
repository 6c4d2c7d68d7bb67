"""Retreat (LR 10.10) and regroup (LR 10.11): where a unit may go after a combat.

Land units move to adjacent friendly areas (or back to an invasion's origin, LR 9.3.2); naval and
air units to friendly ports or airfields within range, by the movement of an operation
(:mod:`op_range`). The unit must be able to stop where it ends (LR 7.1).
"""

from __future__ import annotations

from grandstrategy.cataclysm.module import Module
from grandstrategy.cataclysm.rules.entry import land_entry
from grandstrategy.cataclysm.rules.occupation import FORTRESS, graph_of, snapshot, stop_allowed
from grandstrategy.cataclysm.rules.op_range import CombatKind, op_reach, unit_range
from grandstrategy.cataclysm.rules.special import denied_areas
from grandstrategy.cataclysm.state import CataclysmState, Unit

_RETREATING: dict[CombatKind, frozenset[str]] = {
    "air": frozenset({"air"}),
    "naval": frozenset({"air", "naval"}),
    "land": frozenset({"land", "naval", "air", "logistics"}),
}


def retreat_destinations(
    module: Module,
    state: CataclysmState,
    unit: Unit,
    combat: CombatKind,
    *,
    invasion_origin: str | None = None,
) -> list[str]:
    """Where the unit may retreat after a combat of this kind (LR 10.10), sorted; empty: destroyed.

    Land units: an adjacent friendly land or mixed area they may occupy (or, for invaders,
    ``invasion_origin`` only, LR 9.3.2). Naval and air units: a friendly port or airfield they may
    occupy within extended range (three areas; two for tactical air forces), by the movement of an
    operation; never the area they leave. Fortresses and logistics units cannot retreat (LR 10.10.1,
    7.1.4); minor armies are not units here.

    :raises ValueError: the unit does not retreat after this kind of combat (LR 10.10).
    """
    graph = graph_of(module)
    unit_class = graph.unit_class[unit.type]
    if unit_class not in _RETREATING[combat]:
        raise ValueError(f"a {unit.type} does not retreat after {combat} combat (LR 10.10)")
    if unit.type == FORTRESS or unit_class == "logistics":
        return []
    snap = snapshot(module, state)
    power = unit.power
    if unit_class == "land":
        if invasion_origin is not None:
            options = {invasion_origin}
        else:
            options = {b for b in graph.land[unit.area] if land_entry(snap, power, b, None)}
    else:
        reach = op_reach(snap, unit, unit.area, unit_range(unit.type, True), None)
        base = snap.is_port if unit_class == "naval" else snap.is_airfield
        options = {b for b in reach if base(power, b)}
    options.discard(unit.area)
    options -= denied_areas(state, power)  # Germany never enters the demilitarized Ruhr (LR 12.1.1)
    return sorted(b for b in options if stop_allowed(snap, power, unit.type, b, excluded=(unit.id,)))


def regroup_destinations(
    module: Module,
    state: CataclysmState,
    unit: Unit,
    target: str,
    *,
    extended: bool = False,
    invasion_origin: str | None = None,
    passing: bool = False,
) -> list[str]:
    """Where the unit may regroup after a combat in ``target`` (LR 10.11), sorted.

    Land units move between the target and adjacent friendly areas, either way (an invasion's
    origin counts as adjacent, LR 9.3.2). Naval and air units move from the target to friendly
    ports or airfields within range of it (``extended`` if declared), or from such a port or
    airfield into the target. Occupation must hold where the unit ends; with ``passing``, a unit
    leaving the target does not count the friendly units already where it goes, since the limits
    may be exceeded until the end of the regroup (LR 7.1, 9.2 step 7d); the target itself, checked
    when the operation ends, keeps its limits. Fortresses and logistics units never regroup.
    """
    graph = graph_of(module)
    unit_class = graph.unit_class[unit.type]
    if unit.type == FORTRESS or unit_class == "logistics":
        return []
    snap = snapshot(module, state)
    power, here = unit.power, unit.area
    options: set[str] = set()
    if unit_class == "land":
        if here == target:
            options = {b for b in graph.land[target] if land_entry(snap, power, b, None)}
            if invasion_origin is not None and land_entry(snap, power, invasion_origin, None):
                options.add(invasion_origin)
        elif (target in graph.land[here] or here == invasion_origin) and land_entry(
            snap, power, target, None
        ):
            options = {target}
    else:
        steps = unit_range(unit.type, extended)
        base = snap.is_port if unit_class == "naval" else snap.is_airfield
        if here == target:
            options = {b for b in op_reach(snap, unit, target, steps, None) if base(power, b)}
        elif base(power, here) and target in op_reach(snap, unit, here, steps, target):
            options = {target}
    options.discard(here)
    found = []
    for b in sorted(options):
        excluded = [unit.id]
        if passing and here == target:
            excluded += [u.id for u in snap.units_in(b) if snap.friendly(power, u.power)]
        if stop_allowed(snap, power, unit.type, b, excluded=excluded):
            found.append(b)
    return found


__all__ = ["regroup_destinations", "retreat_destinations"]
