"""Movement (LR 7.2, 8.4), range (LR 7.3), support (LR 10.2), invasion paths (LR 9.3.2), retreat
(LR 10.10) and regroup (LR 10.11), as pure functions of the module and the state.

Land movement crosses borders, black arrows and white connectors between land and mixed areas
(LR 7.2.1); naval movement goes between sea areas and coastal areas, never from land to land except
a mixed area across a black arrow (LR 7.2.2); air movement crosses any connection, blue arrows too
(LR 7.2.3). Land and mixed areas are entered when friendly or when they are the operation's
target; during an operation air units may also fly over enemy land. Each function builds one
:class:`~grandstrategy.cataclysm.rules.occupation.Snapshot` and answers from it; the map's adjacency
by mode is computed once per module. Deployment searches and operation ranges are remembered with
the snapshot's :class:`~grandstrategy.cataclysm.rules.occupation.Position` under everything else
they read (the enemy units in the way), so the next states of a game reuse them.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Literal

from grandstrategy.cataclysm.module import Module
from grandstrategy.cataclysm.module.schema import BaseKind
from grandstrategy.cataclysm.rules.occupation import (
    FORTRESS,
    STRATEGIC_AIR,
    SUBMARINE,
    Snapshot,
    UnitClass,
    graph_of,
    snapshot,
    stop_allowed,
    stops_in_empty,
)
from grandstrategy.cataclysm.rules.special import denied_areas
from grandstrategy.cataclysm.rules.supply import loc_reach
from grandstrategy.cataclysm.state import CataclysmState, Unit

Mode = Literal["land", "naval", "air"]
CombatKind = Literal["land", "naval", "air"]

WNT = "wnt"
ISOLATIONISM = "isolationism"
UNITED_STATES = "united-states"

MOVES: dict[UnitClass, frozenset[Mode]] = {
    "land": frozenset({"land", "naval"}),  # naval movement in deployment and invasion (LR 7.2)
    "naval": frozenset({"naval"}),
    "air": frozenset({"air", "naval"}),  # naval movement to cross seas in deployment (LR 7.2)
    "logistics": frozenset({"land", "naval"}),
}
"""The kinds of movement each class of unit may use (LR 7.2)."""

RANGE: dict[str, int] = {
    "surface-fleet": 2,
    "carrier-fleet": 2,
    SUBMARINE: 2,
    STRATEGIC_AIR: 2,
    "tactical-air": 1,
}
"""Normal range of naval and air units (LR 7.3.1, 7.3.2); extended range adds one (LR 7.3.3)."""

_RETREATING: dict[CombatKind, frozenset[str]] = {
    "air": frozenset({"air"}),
    "naval": frozenset({"air", "naval"}),
    "land": frozenset({"land", "naval", "air", "logistics"}),
}

# -- entry rules, one area at a time --------------------------------------------------------------


def _blocks_naval(snap: Snapshot, power: str, area_id: str) -> bool:
    """An enemy naval unit or strategic air force is there (LR 7.2.2)."""
    return area_id in snap.blockers(power)[0]


def _blocks_air(snap: Snapshot, power: str, area_id: str) -> bool:
    """An enemy air unit is there (LR 7.2.3)."""
    return area_id in snap.blockers(power)[1]


def _land_entry(snap: Snapshot, power: str, area_id: str, op_target: str | None) -> bool:
    graph = snap.graph
    if area_id not in snap.in_play or area_id in graph.sea:
        return False
    if area_id in graph.remote:  # LR 2.2.8
        return snap.controller(area_id) == power
    return area_id == op_target or snap.friendly_area(power, area_id)


def _naval_entry(
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


def _off_base_coast(snap: Snapshot, power: str, here: str, there: str, op_target: str | None) -> bool:
    """Whether a naval move from ``here`` reaches ``there`` on a coast where the power may not stand:
    in a two-coast area it enters only as a special base's guest, a fleet stands at the base, on the
    base's coast, so it must arrive from one of that coast's seas (LR 2.2.1, 2.3.3)."""
    if there not in snap.graph.base_coast or there == op_target:
        return False
    coast = snap.base_coast(power, there)
    return coast is not None and snap.graph.coast_of.get((there, here)) != coast


def _naval_onward(snap: Snapshot, power: str, area_id: str, op_target: str | None) -> bool:
    """Whether naval movement may go on from an area it entered (LR 2.2.1, 2.3.5, 7.3.1)."""
    if area_id == op_target or snap.delay_stops(area_id):
        return False
    graph = snap.graph
    if area_id in graph.land_type:
        return area_id in graph.special_coastal and snap.friendly_area(power, area_id)
    return True


def _air_entry(snap: Snapshot, power: str, area_id: str, op_target: str | None, *, in_op: bool) -> bool:
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


def deployment_coasts(module: Module, state: CataclysmState, unit: Unit, area_id: str) -> list[str]:
    """The coasts of a two-coast area on which a naval unit could end a deployment, sorted (LR
    2.2.1, 8.4): those whose seas it reaches and may sail on from, less its own coast in its own
    area, and only a special British base's coast where the base alone lets it in (LR 2.3.3).
    Empty for an area with one coast and for units that are not naval."""
    if not module.areas[area_id].coasts or graph_of(module).unit_class.get(unit.type) != "naval":
        return []
    return sorted(_deployment_coasts(snapshot(module, state), unit, area_id))


def _deployment_coasts(snap: Snapshot, unit: Unit, area_id: str) -> set[str]:
    graph = snap.graph
    coasts = snap.module.areas[area_id].coasts
    if not coasts or graph.unit_class[unit.type] != "naval":
        return set()
    power = unit.power
    if area_id not in _sailable(snap, power, unit.type):
        return set()
    reach = _deployment_reach(snap, power, unit.type, unit.area, unit.coast)
    stops = _no_sailing_on(snap, power)
    found = {
        coast
        for coast, seas in coasts.items()
        if any(s == unit.area or (s in reach and s not in stops) for s in seas)
    }
    only = snap.base_coast(power, area_id)
    if only is not None:
        found &= {only}
    if area_id == unit.area:
        found.discard(unit.coast or "")
    return found


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
        return {b for b in graph.land[here] if _land_entry(snap, power, b, op_target)}
    if mode == "naval":
        coast = unit.coast if unit_class == "naval" else None
        return {
            b
            for b in graph.naval_from(here, coast)
            if _naval_entry(snap, power, unit.type, b, op_target, check_range=op_target is None)
            and (unit_class != "naval" or not _off_base_coast(snap, power, here, b, op_target))
        }
    return {b for b in graph.air[here] if _air_entry(snap, power, b, op_target, in_op=op_target is not None)}


def deployment_destinations(
    module: Module, state: CataclysmState, unit: Unit, *, played: bool = False
) -> list[str]:
    """Areas where the unit could end a deployment (LR 8.4), sorted.

    Any number of moves, mixing the modes the unit's class may use (LR 7.2): land units and
    logistics by land and naval movement, naval units by naval movement, air units by air movement
    but crossing two or more sea areas in a row only by naval movement. Naval movement stays within
    range of a friendly port throughout and does not pass through coastal land areas other than
    friendly Egypt, Ruhr and South Africa; entering a Delay box ends the move. The unit may end only
    where :func:`~grandstrategy.cataclysm.rules.occupation.may_stop` holds, never in the Washington
    Naval Treaty zone while the treaty stands (LR 12.1.3), and a US land or logistics unit only in
    US home areas and at US bases until the US is belligerent (LR 12.2.2). Fortresses and logistics
    units move only when just ``played`` (LR 3.7.2, 8.4.1); see :func:`may_withdraw`.
    """
    snap = snapshot(module, state)
    return sorted(_deployment(snap, unit, played=played))


def deployment_map(
    module: Module, state: CataclysmState, units: Iterable[Unit], *, first_only: bool = False
) -> dict[int, list[str]]:
    """:func:`deployment_destinations` for many units at once, sharing one snapshot of the state.

    Units with nowhere to go are left out; ``first_only`` stops at the first unit that can move.
    Units of one power and type standing together share one search.
    """
    snap = snapshot(module, state)
    found: dict[int, list[str]] = {}
    for unit in units:
        places = _deployment(snap, unit, played=False)
        if places:
            found[unit.id] = sorted(places)
            if first_only:
                break
    return found


def _deployment(snap: Snapshot, unit: Unit, *, played: bool) -> set[str]:
    """Where the unit may end a deployment (see :func:`deployment_destinations`)."""
    graph = snap.graph
    unit_class = graph.unit_class[unit.type]
    if (unit.type == FORTRESS or unit_class == "logistics") and not played:
        return set()
    if unit.area not in snap.in_play:
        return set()
    power, unit_type = unit.power, unit.type
    coast = unit.coast if unit_class == "naval" else None
    reached = _deployment_reach(snap, power, unit_type, unit.area, coast)
    ends = stops_in_empty(snap, power, unit_type, reached)
    excluded = (unit.id,)
    for b in reached.intersection(snap.occupied()):
        if stop_allowed(snap, power, unit_type, b, excluded=excluded):
            ends.add(b)
    if unit_class == "naval" and coast is not None and _deployment_coasts(snap, unit, unit.area):
        ends.add(unit.area)  # LR 2.2.1: the other coast of its own area, by sea
    if unit_class == "naval":
        for b in [b for b in ends if b != unit.area and snap.module.areas[b].coasts]:
            if not _deployment_coasts(snap, unit, b):
                ends.discard(b)  # reached only by a coast the unit may not use (LR 2.3.3)
    return ends


def _deployment_reach(
    snap: Snapshot, power: str, unit_type: str, start: str, coast: str | None
) -> frozenset[str]:
    """Where a unit of this power and type could move from ``start``, before occupation limits (LR 8.4).

    Besides the position, the search depends only on where enemy units block the way, so it is
    remembered with the position under those too: units of one power and type standing together
    search once, and so do the same units in the next states of a deployment.
    """
    graph = snap.graph
    unit_class = graph.unit_class[unit_type]
    if unit_class != "naval":
        coast = None  # only a naval unit's coast matters (LR 2.2.1)
    shared = snap.shared_sets()
    key = ("deployment", power, unit_type, start, coast, snap.blockers(power))
    found = shared.get(key)
    if found is not None:
        return found
    if unit_class == "naval":
        reached = _naval_deployment(snap, power, unit_type, start, coast)
    elif unit_class == "air":
        reached = _air_deployment(snap, power, unit_type, start)
    else:
        reached = _ground_deployment(snap, power, unit_type, start)
    reached.discard(start)
    state = snap.state
    if WNT in state.markers:
        reached -= graph.wnt_zone
    if (
        power == UNITED_STATES
        and unit_class in ("land", "logistics")
        and ISOLATIONISM in state.markers
        and not snap.belligerent(power)
    ):
        homes = graph.homes.get(power, frozenset())
        reached = {b for b in reached if b in homes or any(owner == power for _, owner in snap.bases(b))}
    found = shared[key] = frozenset(reached)
    return found


# The entry rules above for every area at once, outside an operation (no target). What does not
# depend on where units stand is kept with the snapshot's position; enemy units are taken out per
# snapshot. The searches of a deployment then test membership only.


def _remote_held(snap: Snapshot, power: str) -> frozenset[str]:
    """Remote areas the power controls: the only remote areas its units may enter (LR 2.2.8)."""
    shared = snap.shared_sets()
    key = ("remote-held", power)
    found = shared.get(key)
    if found is None:
        found = shared[key] = frozenset(a for a in snap.graph.remote if snap.controller(a) == power)
    return found


def _walkable(snap: Snapshot, power: str) -> frozenset[str]:
    """Every area :func:`_land_entry` lets the power's units enter, with no target."""
    shared = snap.shared_sets()
    key = ("walkable", power)
    found = shared.get(key)
    if found is None:
        graph = snap.graph
        held = (snap.friendly_areas(power) - graph.remote) | _remote_held(snap, power)
        found = shared[key] = (held & snap.in_play) - graph.sea
    return found


def _sailable(snap: Snapshot, power: str, unit_type: str) -> frozenset[str]:
    """Every area :func:`_naval_entry` lets a unit of this type enter outside an operation (range checked)."""
    graph = snap.graph
    unit_class = graph.unit_class[unit_type]
    submarine = unit_type == SUBMARINE
    key = ("sailable", power, unit_class, "submarine" if submarine else "")
    found = snap.searches.get(key)
    if found is None:
        shared = snap.shared_sets()
        open_key = ("sailable", power, unit_class)
        open_areas = shared.get(open_key)
        if open_areas is None:
            land = snap.friendly_areas(power)
            if unit_class != "land":
                land |= snap.friendly_special_bases(power, BaseKind.NAVAL if unit_class == "naval" else None)
            allowed = graph.sea | _remote_held(snap, power) | (land - graph.remote)
            open_areas = shared[open_key] = frozenset(snap.in_naval_range(power)) & snap.in_play & allowed
        found = open_areas if submarine else open_areas - snap.blockers(power)[0]
        snap.searches[key] = found
    return found


def _flyable(snap: Snapshot, power: str) -> frozenset[str]:
    """Every area :func:`_air_entry` lets the power's air units enter outside an operation."""
    key = ("flyable", power)
    found = snap.searches.get(key)
    if found is None:
        shared = snap.shared_sets()
        open_areas = shared.get(key)
        if open_areas is None:
            graph = snap.graph
            land = snap.friendly_areas(power) | snap.friendly_special_bases(power)
            allowed = graph.sea | _remote_held(snap, power) | (land - graph.remote)
            open_areas = shared[key] = snap.in_play & allowed
        found = snap.searches[key] = open_areas - snap.blockers(power)[1]
    return found


def _no_sailing_on(snap: Snapshot, power: str) -> frozenset[str]:
    """Every area where :func:`_naval_onward` stops naval movement, with no target."""
    shared = snap.shared_sets()
    key = ("no-sailing-on", power)
    found = shared.get(key)
    if found is None:
        graph = snap.graph
        passable = graph.special_coastal & snap.friendly_areas(power)
        found = shared[key] = snap.delay_areas() | (graph.land_type - passable)
    return found


def _naval_deployment(snap: Snapshot, power: str, unit_type: str, start: str, coast: str | None) -> set[str]:
    graph = snap.graph
    enters = _sailable(snap, power, unit_type)
    stops = _no_sailing_on(snap, power)
    based = graph.base_coast
    seen = {start}
    stack = [start]
    while stack:
        here = stack.pop()
        if here != start and here in stops:
            continue
        for there in graph.naval_from(here, coast if here == start else None):
            if there in based and _off_base_coast(snap, power, here, there, None):
                continue
            if there in enters and there not in seen:
                seen.add(there)
                stack.append(there)
    return seen


def _ground_deployment(snap: Snapshot, power: str, unit_type: str, start: str) -> set[str]:
    """Land, fortress and logistics units: land movement, and naval movement between coasts."""
    graph = snap.graph
    land, naval, sea, coastal = graph.land, graph.naval, graph.sea, graph.coastal
    walks = _walkable(snap, power)
    sails = _sailable(snap, power, unit_type)
    delay = snap.delay_areas()
    seen = {start}
    stack = [start]
    while stack:
        here = stack.pop()
        if here in delay and here != start:
            continue
        if here not in sea:
            for there in land[here]:
                if there in walks and there not in seen:
                    seen.add(there)
                    stack.append(there)
        if here in coastal:
            for there in naval[here]:
                if there in sails and there not in seen:
                    seen.add(there)
                    stack.append(there)
    return seen


_AFIELD, _AIR_SEA, _NAVAL_SEA = 0, 1, 2


def _air_deployment(snap: Snapshot, power: str, unit_type: str, start: str) -> set[str]:
    """Air units: air movement, with at most one sea area in a row crossed by air (LR 7.2).

    The search remembers how the unit entered its current area: over land or a friendly air base
    (``_AFIELD``), into a bare sea area by air (``_AIR_SEA``), or into one by naval movement
    (``_NAVAL_SEA``). A sea area crossed by air must sit between two such airfields or land areas.
    """
    graph = snap.graph
    air, naval, coastal = graph.air, graph.naval, graph.coastal
    flies = _flyable(snap, power)
    sails = _sailable(snap, power, unit_type)
    bare = graph.sea - snap.airfields(power)
    delay = snap.delay_areas()
    seen = {(start, _AFIELD)}
    stack = [(start, _AFIELD)]
    while stack:
        here, how = stack.pop()
        if here in delay and here != start:
            continue
        for there in air[here]:
            if there not in flies:
                continue
            bare_sea = there in bare
            if bare_sea and how != _AFIELD:
                continue
            node = (there, _AIR_SEA if bare_sea else _AFIELD)
            if node not in seen:
                seen.add(node)
                stack.append(node)
        if how == _AIR_SEA or here not in coastal:
            continue
        for there in naval[here]:
            if there not in sails:
                continue
            node = (there, _NAVAL_SEA if there in bare else _AFIELD)
            if node not in seen:
                seen.add(node)
                stack.append(node)
    return {area_id for area_id, _ in seen}


def may_withdraw(module: Module, state: CataclysmState, unit: Unit) -> bool:
    """Whether a fortress or logistics unit may be withdrawn to the cup now: an LOC reaches it (LR 8.4.1)."""
    if unit.type != FORTRESS and graph_of(module).unit_class[unit.type] != "logistics":
        return False
    return unit.area in loc_reach(module, state, unit.power)


def _unit_range(unit_type: str, extended: bool) -> int:
    base = RANGE.get(unit_type, 0)
    return base + 1 if base and extended else base


def _op_reach(snap: Snapshot, unit: Unit, start: str, steps: int, target: str | None) -> dict[str, int]:
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
                if naval and not _naval_onward(snap, power, here, target):
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
                    ok = _naval_entry(
                        snap, power, unit.type, there, target, check_range=False
                    ) and not _off_base_coast(snap, power, here, there, target)
                else:
                    ok = _air_entry(snap, power, there, target, in_op=True)
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
    steps = _unit_range(unit.type, extended)
    # _op_reach reads the position and where enemy units block the way: remembered under those
    coast = unit.coast if unit_class == "naval" else None
    key = ("op-reach", unit.power, unit.type, unit.area, coast, steps, target, snap.blockers(unit.power))
    shared = snap.shared_sets()
    found = shared.get(key)
    if found is None:
        found = shared[key] = frozenset(_op_reach(snap, unit, unit.area, steps, target))
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
    steps = _unit_range(unit.type, extended)
    distance = _op_reach(snap, unit, unit.area, steps - 1, target) if steps > 1 else {}
    found = {
        coast
        for coast, seas in coasts.items()
        if any(s == unit.area or (s in distance and _naval_onward(snap, unit.power, s, target)) for s in seas)
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
            options = {b for b in graph.land[unit.area] if _land_entry(snap, power, b, None)}
    else:
        reach = _op_reach(snap, unit, unit.area, _unit_range(unit.type, True), None)
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
            options = {b for b in graph.land[target] if _land_entry(snap, power, b, None)}
            if invasion_origin is not None and _land_entry(snap, power, invasion_origin, None):
                options.add(invasion_origin)
        elif (target in graph.land[here] or here == invasion_origin) and _land_entry(
            snap, power, target, None
        ):
            options = {target}
    else:
        steps = _unit_range(unit.type, extended)
        base = snap.is_port if unit_class == "naval" else snap.is_airfield
        if here == target:
            options = {b for b in _op_reach(snap, unit, target, steps, None) if base(power, b)}
        elif base(power, here) and target in _op_reach(snap, unit, here, steps, target):
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


__all__ = [
    "MOVES",
    "RANGE",
    "arrival_coast",
    "coast_on_arrival",
    "deployment_coasts",
    "deployment_destinations",
    "friendly_airfields",
    "friendly_port_areas",
    "in_op_range",
    "invasion_paths",
    "is_friendly_area",
    "may_withdraw",
    "op_arrival_coasts",
    "regroup_destinations",
    "retreat_destinations",
    "step_moves",
    "support_possible",
]
