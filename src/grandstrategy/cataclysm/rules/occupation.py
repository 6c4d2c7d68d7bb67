"""Occupation limits (LR 7.1): how many units of one ideology may stand in an area, and where.

Limits are counted per ideology per area. :func:`limits` gives the caps for one power's ideology,
keyed by what they count:

``land``, ``naval``, ``air``, ``logistics``
    every unit of that class (minor and Chinese armies count as land units of the ideology of
    the area's controller, LR 2.4.4, 11.4.1);
``fortress``
    fortresses (LR 7.1.1);
``chinese-army``
    Chinese armies (LR 7.1.1, 11.4.1);
``fleet``
    naval units other than submarine packs: in a sea area a belligerent may hold one sub pack
    (only) two areas from a friendly port (LR 7.1.2), so ``naval`` may exceed ``fleet`` there;
``tactical-air``
    air units other than strategic air forces: a belligerent may hold one strategic air force
    (only) next to a friendly airfield (LR 7.1.2), so ``air`` may exceed ``tactical-air``.

A set of units fits when, for every key, the units it counts are no more than its cap. The
allowances of LR 7.1.2 are not cumulative within a type: each cap is the best single allowance.

The map facts every question needs are computed once per module (:func:`graph_of`); the facts
that depend on the state are computed at most once per call (:class:`Snapshot`), which also
remembers its answers to :func:`stop_allowed` and to the caps, so a call asking about many units
(a deployment, say) pays for each distinct question once. Facts that do not depend on where the
units stand (control, friendly areas, ports, naval range, caps) live in a :class:`Position`, shared
by the snapshots of every state with the same :func:`position_key`: the states of one game keep
those fields for many actions in a row. The map facts and positions live in :mod:`map_graph`, the
snapshot in :mod:`snapshot` (both re-exported here); this module holds the caps and the rules.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from grandstrategy.cataclysm.module import Module
from grandstrategy.cataclysm.module.schema import BaseKind, Ideology
from grandstrategy.cataclysm.rules.map_graph import (
    _PARENT,
    FORTRESS,
    KEYS,
    LOGISTICS,
    STRATEGIC_AIR,
    SUBMARINE,
    UNLIMITED,
    Makeup,
    MapGraph,
    Position,
    UnitClass,
    UnitSpec,
    _zeros,
    graph_of,
    position_key,
)
from grandstrategy.cataclysm.rules.snapshot import Snapshot, snapshot
from grandstrategy.cataclysm.rules.special import ignores_restricted
from grandstrategy.cataclysm.state import CataclysmState, Unit

# -- caps ----------------------------------------------------------------------------------------


def caps(snap: Snapshot, power: str, area_id: str, *, during_op: bool, logistics: bool) -> dict[str, int]:
    """The caps of :func:`limits`, given whether a friendly logistics unit is (or will be) there."""
    return dict(_caps(snap, power, area_id, during_op, logistics))


def _caps(snap: Snapshot, power: str, area_id: str, during_op: bool, logistics: bool) -> dict[str, int]:
    """:func:`caps`, remembered by the snapshot: the dict is shared and must not be changed."""
    key = (power, area_id, during_op, logistics)
    found = snap.caps_memo.get(key)
    if found is None:
        found = snap.caps_memo[key] = _new_caps(
            snap, power, area_id, during_op=during_op, logistics=logistics
        )
    return found


def _new_caps(
    snap: Snapshot, power: str, area_id: str, *, during_op: bool, logistics: bool
) -> dict[str, int]:
    """The caps of :func:`caps`; the dict may be shared and must not be changed."""
    graph = snap.graph
    area = snap.module.areas[area_id]
    if area_id in graph.sea:
        return _sea_caps(snap, power, area_id, during_op=during_op, logistics=logistics)
    if area.remote:  # LR 2.2.8, 7.1.1: any number, the controller's units only
        found = _zeros()
        if snap.controller(area_id) == power:
            found = dict.fromkeys(KEYS, UNLIMITED)
            if not area.coastal:
                found["naval"] = found["fleet"] = 0
        return found
    owner = snap.special_base_owner(area_id)
    if owner is not None and not during_op and snap.friendly(power, owner):
        # LR 7.1.1, 2.3.3: as if it were that base in a sea area
        special = area.special_base
        room = 2 if logistics else 1
        found = _zeros()
        found["logistics"] = 1
        found["air"] = found["tactical-air"] = room
        if special is not None and special.kind is BaseKind.NAVAL:
            found["naval"] = found["fleet"] = room
        return found
    exempt = ignores_restricted(snap.module, snap.state, power, area_id)  # LR 12.3.1
    return graph.printed_caps(area_id, logistics, not exempt)


def _sea_caps(
    snap: Snapshot, power: str, area_id: str, *, during_op: bool, logistics: bool
) -> dict[str, int]:
    bases = snap.bases(area_id)
    naval_base = any(k is BaseKind.NAVAL and o is not None and snap.friendly(power, o) for k, o in bases)
    air_base = any(o is not None and snap.friendly(power, o) for _, o in bases)  # LR 2.3.2 design note
    room = 2 if logistics else 1
    naval = room if naval_base else 0
    air = room if air_base else 0
    fleet, tactical = naval, air
    ideology = snap.ideology(power)
    blocked = any(
        o is not None and snap.ideology(o) is not ideology and not snap.enemy(power, o) for _, o in bases
    )
    if snap.belligerent(power) and not blocked:
        graph = snap.graph
        neighbours = graph.naval[area_id]
        if any(snap.serves(power, n, area_id) for n in neighbours):
            naval = max(naval, 1)
            fleet = max(fleet, 1)
        if any(snap.is_airfield(power, n) for n in graph.air[area_id]):
            air = max(air, 1)  # a strategic air force only
        if naval < 1 and _sub_reach(snap, power, area_id):
            naval = 1  # a submarine pack only
    if during_op:
        naval, fleet, air, tactical = max(naval, 2), max(fleet, 2), max(air, 2), max(tactical, 2)
    found = _zeros()
    found["naval"], found["fleet"], found["air"], found["tactical-air"] = naval, fleet, air, tactical
    found["logistics"] = 1 if air_base else 0  # a friendly base of either kind (LR 7.1.2)
    return found


def _sub_reach(snap: Snapshot, power: str, area_id: str) -> bool:
    """Whether the sea area is at most two sea or mixed areas from a friendly port (LR 7.1.2)."""
    naval = snap.graph.naval
    for near in naval[area_id]:
        if snap.serves(power, near, area_id):
            return True
        if snap.naval_transit(power, near) and any(
            far != area_id and snap.serves(power, far, near) for far in naval[near]
        ):
            return True
    return False


# -- counting ------------------------------------------------------------------------------------


def tally(module: Module, types: Iterable[str], minors: int = 0, chinese: int = 0) -> Counter[str]:
    """Units counted under each key of :data:`KEYS`."""
    return Counter(_count(graph_of(module), types, minors, chinese))


def _count(graph: MapGraph, types: Iterable[str], minors: int, chinese: int) -> dict[str, int]:
    """:func:`tally` as a plain dict, with the same keys."""
    counted = graph.counted
    count: dict[str, int] = {}
    for unit_type in types:
        for key in counted[unit_type]:
            count[key] = count.get(key, 0) + 1
    if minors or chinese:
        count["land"] = count.get("land", 0) + minors + chinese
        count["chinese-army"] = count.get("chinese-army", 0) + chinese
    return count


def _spec(spec: UnitSpec) -> tuple[str, str, int | None]:
    if isinstance(spec, Unit):
        return spec.power, spec.type, spec.id
    power, unit_type = spec
    return power, unit_type, None


def stop_allowed(
    snap: Snapshot,
    power: str,
    unit_type: str,
    area_id: str,
    *,
    during_op: bool = False,
    excluded: Iterable[int] = (),
    target: bool = False,
) -> bool:
    """The body of :func:`may_stop` on a :class:`Snapshot`; ``excluded`` are unit ids not counted.

    The answer depends on the position and on the (power, type) of the units counted, so it is
    remembered under those (:data:`StopKey`) by the snapshot, and by its :class:`Position` once that
    is in use.
    """
    occupied = snap._units if snap._units is not None else snap.occupied()
    here = occupied.get(area_id)
    makeup: Makeup | None = None
    if here is None:
        here, makeup = [], ()
    elif excluded:
        skip = excluded if isinstance(excluded, (set, frozenset)) else set(excluded)
        if any(u.id in skip for u in here):
            here = [u for u in here if u.id not in skip]
            makeup = tuple([(u.power, u.type) for u in here])
    if makeup is None:
        makeup = snap.makeup(area_id)
    key = (power, snap.graph.stop_kind[unit_type], area_id, during_op, target, makeup)
    memo = snap.stops
    found = memo.get(key)
    if found is None:
        found = memo[key] = _stop_allowed(
            snap, power, unit_type, area_id, here, during_op=during_op, target=target
        )
    return found


def stops_in_empty(snap: Snapshot, power: str, unit_type: str, areas: frozenset[str]) -> set[str]:
    """The areas among ``areas`` that hold no unit and where :func:`stop_allowed` holds (no target,
    not during an operation), found with set operations from answers kept by the snapshot's
    :class:`Position`."""
    occupied = snap.occupied().keys()
    known, allowed = snap.empty_stop_sets(power, snap.graph.stop_kind[unit_type])
    for area_id in areas - known - occupied:
        known.add(area_id)
        if stop_allowed(snap, power, unit_type, area_id):
            allowed.add(area_id)
    found = allowed & areas
    found -= occupied
    return found


def _stop_allowed(
    snap: Snapshot,
    power: str,
    unit_type: str,
    area_id: str,
    present: list[Unit],
    *,
    during_op: bool,
    target: bool,
) -> bool:
    """:func:`stop_allowed` with the units counted in the area given (``present``)."""
    graph = snap.graph
    if area_id not in snap.in_play:
        return False
    unit_class = graph.unit_class[unit_type]
    sea = area_id in graph.sea
    if sea and unit_class == "land":
        return False
    if not sea and unit_class == "naval" and area_id not in graph.coastal:
        return False
    if area_id in graph.remote:  # LR 2.2.8: only the controller's units, any number
        return snap.controller(area_id) == power
    friendly = snap.friendly
    if not target:
        if (
            not sea
            and not snap.friendly_area(power, area_id)
            and (unit_class == "land" or not snap.friendly_special_base(power, area_id))
        ):
            return False
        # LR 7.1: no opposing (or unfriendly) unit or base may share the area
        if present and any(not friendly(power, u.power) for u in present):
            return False
        if graph.bases[area_id] and any(
            o is not None and not friendly(power, o) for _, o in snap.bases(area_id)
        ):
            return False
    ideology = snap.ideology(power)
    same = [u for u in present if snap.ideology(u.power) is ideology] if present else []
    logistics = unit_type == LOGISTICS or any(u.type == LOGISTICS and friendly(power, u.power) for u in same)
    cap = _caps(snap, power, area_id, during_op, logistics)
    minors, chinese = snap.native_land(area_id, ideology)
    if same or minors or chinese:
        count = _count(graph, [*(u.type for u in same), unit_type], minors, chinese)
        return all(value <= cap[key] for key, value in count.items())
    return all(cap[key] >= 1 for key in graph.counted[unit_type])  # the unit alone


# -- public API ----------------------------------------------------------------------------------


def limits(
    module: Module, state: CataclysmState, power: str, area_id: str, *, during_op: bool = False
) -> dict[str, int]:
    """Caps for the power's ideology in the area now (LR 7.1.1–7.1.4); keys: see :data:`KEYS`.

    A friendly logistics unit already there raises the caps; the bans on opposing units, bases and
    unfriendly areas are :func:`may_stop`'s business. ``during_op`` gives the operation's sea
    allowance (LR 7.1.2) and ignores a special base in a land area being fought over.
    """
    snap = snapshot(module, state)
    logistics = any(u.type == LOGISTICS and snap.friendly(power, u.power) for u in snap.units_in(area_id))
    return caps(snap, power, area_id, during_op=during_op, logistics=logistics)


def may_stop(
    module: Module,
    state: CataclysmState,
    unit_or_power_and_type: UnitSpec,
    area_id: str,
    *,
    during_op: bool = False,
    ignoring: Unit | None = None,
) -> bool:
    """Whether the unit (or a new unit of ``(power, type)``) could end its move in the area now (LR 7.1).

    Counts the units of the mover's ideology already there, minor and Chinese armies included;
    a :class:`Unit` never counts itself, and ``ignoring`` names one more unit not to count.
    Normally the area must be friendly (land or mixed) or a friendly special base, hold no unit or
    base of an opposing or unfriendly power, and a remote area takes only its controller's units.
    ``during_op=True`` asks about the target of an operation (attackers moving in, supporters,
    LR 9.2 step 6, 10.2): opposing units and control do not matter there, only the caps, with the
    operation's allowance at sea (two naval and two air units, LR 7.1.2).
    """
    power, unit_type, own_id = _spec(unit_or_power_and_type)
    excluded = [i for i in (own_id, ignoring.id if ignoring is not None else None) if i is not None]
    snap = snapshot(module, state)
    return stop_allowed(
        snap, power, unit_type, area_id, during_op=during_op, excluded=excluded, target=during_op
    )


def violations(module: Module, state: CataclysmState, *, exempt: Iterable[str] = ()) -> list[str]:
    """Every excess over the occupation limits, one sentence each (LR 7.1).

    The caps of an ideology are the best caps of its powers present there (they share the area,
    so they are friendly to each other, or the area is in breach anyway). ``exempt`` names areas
    not checked (for instance production sites just crowded by a new unit, LR 7.1).
    """
    snap = snapshot(module, state)
    skip = set(exempt)
    groups: dict[tuple[str, Ideology], list[Unit]] = {}
    for unit in state.units:
        groups.setdefault((unit.area, snap.ideology(unit.power)), []).append(unit)
    found: list[str] = []
    for (area_id, ideology), units in sorted(groups.items(), key=lambda item: (item[0][0], item[0][1].value)):
        if area_id in skip or area_id not in module.areas:
            continue
        best = _zeros()
        for power in sorted({u.power for u in units}):
            logistics = any(u.type == LOGISTICS and snap.friendly(power, u.power) for u in units)
            for key, value in caps(snap, power, area_id, during_op=False, logistics=logistics).items():
                best[key] = max(best[key], value)
        minors, chinese = snap.native_land(area_id, ideology)
        count = tally(module, (u.type for u in units), minors, chinese)
        for key in KEYS:
            covered = _PARENT.get(key)
            if covered is not None and count[covered] > best[covered]:
                continue  # the class is over its cap already: one sentence is enough
            if count[key] > best[key]:
                found.append(
                    f"{area_id}: {ideology.value} has {count[key]} {key} unit(s), "
                    f"at most {best[key]} (LR 7.1)"
                )
    return found


__all__ = [
    "FORTRESS",
    "KEYS",
    "LOGISTICS",
    "STRATEGIC_AIR",
    "SUBMARINE",
    "UNLIMITED",
    "MapGraph",
    "Position",
    "Snapshot",
    "UnitClass",
    "caps",
    "graph_of",
    "limits",
    "may_stop",
    "position_key",
    "snapshot",
    "stop_allowed",
    "stops_in_empty",
    "tally",
    "violations",
]
