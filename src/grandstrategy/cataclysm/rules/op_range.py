"""Operation range (LR 7.3, 9.1.2), support (LR 10.2) and invasion paths (LR 9.3.2): which units can
reach an operation's target, and from where.

Naval units sail two areas (three extended), strategic air forces fly two and tactical air forces
one (plus one extended); the movement is that of an operation, so air units may pass over enemy
land and the target may hold enemies. Ranges are remembered with the snapshot's position under
the enemy units in the way, so the next states of a game reuse them.
"""

from __future__ import annotations

from typing import Literal

from grandstrategy.cataclysm.module import Module
from grandstrategy.cataclysm.rules.entry import air_entry, naval_entry, naval_onward, off_base_coast
from grandstrategy.cataclysm.rules.occupation import (
    FORTRESS,
    STRATEGIC_AIR,
    SUBMARINE,
    Snapshot,
    graph_of,
    snapshot,
    stop_allowed,
)
from grandstrategy.cataclysm.state import CataclysmState, Unit

CombatKind = Literal["land", "naval", "air"]

RANGE: dict[str, int] = {
    "surface-fleet": 2,
    "carrier-fleet": 2,
    SUBMARINE: 2,
    STRATEGIC_AIR: 2,
    "tactical-air": 1,
}
"""Normal range of naval and air units (LR 7.3.1, 7.3.2); extended range adds one (LR 7.3.3)."""


def unit_range(unit_type: str, extended: bool) -> int:
    """The range of a unit type (LR 7.3.1, 7.3.2), one more when extended (LR 7.3.3); 0: none."""
    base = RANGE.get(unit_type, 0)
    return base + 1 if base and extended else base


def op_reach(snap: Snapshot, unit: Unit, start: str, steps: int, target: str | None) -> dict[str, int]:
    """Areas within ``steps`` of ``start`` by the unit's operation movement, with their distance.

    Naval units use naval movement (no range check from ports: the steps are the range); air units
    use air movement, which may pass over enemy land. ``target`` may hold enemies and ends a path.
    The start is left out ("bases are not spaces", LR 7.3).
    """
    graph, power = snap.graph, unit.power
    naval = graph.unit_class[unit.type] == "naval"
    distance = {start: 0}
    frontier = [start]
    for step in range(1, steps + 1):
        following: list[str] = []
        for here in frontier:
            if here != start:
                if naval and not naval_onward(snap, power, here, target):
                    continue
                if not naval and (here == target or snap.delay_stops(here)):
                    continue
            onward = (
                graph.naval_from(here, unit.coast if here == start else None) if naval else graph.air[here]
            )
            for there in onward:
                if there in distance:
                    continue
                if naval:
                    ok = naval_entry(
                        snap, power, unit.type, there, target, check_range=False
                    ) and not off_base_coast(snap, power, here, there, target)
                else:
                    ok = air_entry(snap, power, there, target, in_op=True)
                if ok:
                    distance[there] = step
                    following.append(there)
        frontier = following
    del distance[start]
    return distance


def in_op_range(
    module: Module, state: CataclysmState, unit: Unit, target: str, *, extended: bool = False
) -> bool:
    """Whether the unit could reach ``target`` in an operation from where it stands (LR 7.3, 9.1.2).

    Naval units: two areas (three extended) by naval movement, not counting their own area, not
    through coastal land or areas holding enemy naval units or strategic air forces other than the
    target. Strategic air forces two, tactical air forces one (plus one extended) by air movement,
    over friendly, enemy or sea areas without enemy air units. Armies: the target is adjacent by
    land movement (invasions: :func:`invasion_paths`). Sub packs, fortresses and logistics never
    take part (LR 9.4.1, 7.1.4).
    """
    graph = graph_of(module)
    if target == unit.area or target not in graph.in_play(state.maps):
        return False
    unit_class = graph.unit_class[unit.type]
    if unit_class == "land":
        return unit.type != FORTRESS and target in graph.land[unit.area]
    if unit.type == SUBMARINE or unit_class == "logistics":
        return False
    snap = snapshot(module, state)
    steps = unit_range(unit.type, extended)
    # op_reach reads the position and where enemy units block the way: remembered under those
    coast = unit.coast if unit_class == "naval" else None
    key = ("op-reach", unit.power, unit.type, unit.area, coast, steps, target, snap.blockers(unit.power))
    shared = snap.shared_sets()
    found = shared.get(key)
    if found is None:
        found = shared[key] = frozenset(op_reach(snap, unit, unit.area, steps, target))
    return target in found


def op_arrival_coasts(
    module: Module, state: CataclysmState, unit: Unit, target: str, *, extended: bool = False
) -> list[str]:
    """The coasts of a two-coast target on which a naval unit of an operation could arrive, sorted
    (LR 2.2.1, 7.3): those with a sea the unit reaches within its range less one and may sail on
    from (its own sea included). Empty for other targets and units."""
    graph = graph_of(module)
    coasts = module.areas[target].coasts
    if not coasts or graph.unit_class.get(unit.type) != "naval":
        return []
    snap = snapshot(module, state)
    steps = unit_range(unit.type, extended)
    distance = op_reach(snap, unit, unit.area, steps - 1, target) if steps > 1 else {}
    found = {
        coast
        for coast, seas in coasts.items()
        if any(s == unit.area or (s in distance and naval_onward(snap, unit.power, s, target)) for s in seas)
    }
    only = snap.base_coast(unit.power, target)
    if only is not None:
        found &= {only}
    return sorted(found)


def support_possible(
    module: Module,
    state: CataclysmState,
    unit: Unit,
    target: str,
    kind: CombatKind | None = None,
) -> bool:
    """Whether the unit may support a combat in ``target`` now (LR 10.2).

    Air units in a friendly airfield area support any combat in an air-adjacent area; fleets in a
    friendly port area support naval combat (``kind="naval"``; ``None`` skips the kind check) in an
    area next to them by naval movement. Range does not matter; the supporter must still fit the
    target's occupation limits as in an operation. Units already in the target must support and
    are eligible whatever their base. Sub packs and land units never support.
    """
    graph = graph_of(module)
    unit_class = graph.unit_class[unit.type]
    if unit_class not in ("air", "naval") or unit.type == SUBMARINE:
        return False
    if unit_class == "naval" and kind not in (None, "naval"):
        return False
    if unit.area == target:
        return True
    snap = snapshot(module, state)
    if unit_class == "air":
        if not snap.is_airfield(unit.power, unit.area) or target not in graph.air[unit.area]:
            return False
    elif not snap.is_port(unit.power, unit.area) or target not in graph.naval_from(unit.area, unit.coast):
        return False
    return stop_allowed(snap, unit.power, unit.type, target, during_op=True, excluded=(unit.id,), target=True)


def invasion_paths(
    module: Module, state: CataclysmState, power: str, origin: str, target: str
) -> list[tuple[str, ...]]:
    """Invasion paths from ``origin`` to ``target`` (LR 9.3.2), sorted.

    One or two sea or mixed areas, each next to the previous by naval movement, each holding a
    fleet (not a sub pack) of the power or a friendly power. A two-area path is extended range.
    """
    snap = snapshot(module, state)
    graph = snap.graph
    if origin not in snap.in_play or target not in snap.in_play or origin == target:
        return []
    if origin in graph.sea or target in graph.sea:
        return []

    def usable(area_id: str) -> bool:
        if area_id in (origin, target) or area_id not in snap.in_play or area_id in graph.land_type:
            return False
        return any(
            graph.unit_class[u.type] == "naval" and u.type != SUBMARINE and snap.friendly(power, u.power)
            for u in snap.units_in(area_id)
        )

    paths: set[tuple[str, ...]] = set()
    for first in graph.naval[origin]:
        if not usable(first):
            continue
        if target in graph.naval[first]:
            paths.add((first,))
        for second in graph.naval[first]:
            if second != first and usable(second) and target in graph.naval[second]:
                paths.add((first, second))
    return sorted(paths)


__all__ = [
    "RANGE",
    "CombatKind",
    "in_op_range",
    "invasion_paths",
    "op_arrival_coasts",
    "op_reach",
    "support_possible",
    "unit_range",
]
