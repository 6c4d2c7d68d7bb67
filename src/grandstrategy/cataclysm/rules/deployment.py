"""Deployment (LR 8.4): where a unit may end a deployment, on which coast, and whether a fortress or
logistics unit may be withdrawn.

The areas a unit could reach come from :mod:`deployment_reach`; here they are kept where the unit
may stop (:func:`~grandstrategy.cataclysm.rules.occupation.stop_allowed`) and, for a naval unit, on
a coast it may use (LR 2.2.1, 2.3.3). Each public function builds one
:class:`~grandstrategy.cataclysm.rules.snapshot.Snapshot` and answers from it.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping

from grandstrategy.cataclysm.module import Module
from grandstrategy.cataclysm.rules.deployment_reach import (
    deployment_reach,
    no_sailing_on,
    reach_unless,
    sailable,
)
from grandstrategy.cataclysm.rules.occupation import (
    FORTRESS,
    Snapshot,
    graph_of,
    snapshot,
    stop_allowed,
    stops_in_empty,
)
from grandstrategy.cataclysm.rules.supply import loc_reach
from grandstrategy.cataclysm.state import CataclysmState, Unit


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
    if area_id not in sailable(snap, power, unit.type):
        return set()
    reach = deployment_reach(snap, power, unit.type, unit.area, unit.coast)
    stops = no_sailing_on(snap, power)
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
    Units of one power and class standing together share one search.
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


def deployment_movers(
    module: Module,
    state: CataclysmState,
    units: Iterable[Unit],
    *,
    played: bool = False,
    denied: Mapping[str, Collection[str]] | None = None,
    first_only: bool = False,
) -> list[int]:
    """The ids of the units that could end a deployment somewhere (LR 8.4), in the order given: those
    for which :func:`deployment_destinations` names an area outside ``denied[unit.power]``;
    ``first_only`` stops at the first one.

    A deployment's menu needs only whether each unit can move, so the search stops at the first
    area where the unit may end, the cheapest questions first: empty areas whose answer the
    position already knows, then occupied areas, then empty areas never asked about.
    """
    snap = snapshot(module, state)
    found: list[int] = []
    for unit in units:
        avoiding = frozenset(denied.get(unit.power, ())) if denied else frozenset()
        if _may_end_somewhere(snap, unit, played, avoiding):
            found.append(unit.id)
            if first_only:
                break
    return found


def _may_end_somewhere(snap: Snapshot, unit: Unit, played: bool, avoiding: frozenset[str]) -> bool:
    """Whether :func:`_deployment` holds an area outside ``avoiding``, without finding them all."""
    graph = snap.graph
    unit_class = graph.unit_class[unit.type]
    if (unit.type == FORTRESS or unit_class == "logistics") and not played:
        return False
    if unit.area not in snap.in_play:
        return False
    power, unit_type = unit.power, unit.type
    naval = unit_class == "naval"
    coast = unit.coast if naval else None
    areas = snap.module.areas
    occupied = snap.occupied()
    known, allowed = snap.empty_stop_sets(power, graph.stop_kind[unit_type])
    excluded = (unit.id,)

    def ends_here(b: str) -> bool:
        """Whether the unit may end in an area it reaches, for the areas where that needs no other
        area of the reach (a naval unit's two-coast areas are left to the full answer below)."""
        if b in avoiding or (naval and areas[b].coasts):
            return False
        if b in occupied:
            return stop_allowed(snap, power, unit_type, b, excluded=excluded)
        if b in known:
            return b in allowed
        known.add(b)
        if stop_allowed(snap, power, unit_type, b):
            allowed.add(b)
            return True
        return False

    # the search stops at the first area where the unit may end; only if there is none is the
    # whole reach gone through below (the same answer either way)
    searched = reach_unless(snap, power, unit_type, unit.area, coast, ends_here)
    if searched is None:
        return True
    reached = searched - avoiding if avoiding else searched

    def usable(b: str) -> bool:
        """A naval unit ends in a two-coast area only on a coast it may use (LR 2.2.1, 2.3.3)."""
        return not naval or not areas[b].coasts or bool(_deployment_coasts(snap, unit, b))

    if any(b not in occupied and usable(b) for b in allowed.intersection(reached)):
        return True
    for b in reached.intersection(occupied):
        if stop_allowed(snap, power, unit_type, b, excluded=excluded) and usable(b):
            return True
    for b in reached - known - occupied.keys():  # as stops_in_empty does, one area at a time
        known.add(b)
        if stop_allowed(snap, power, unit_type, b):
            allowed.add(b)
            if usable(b):
                return True
    # LR 2.2.1: the other coast of its own area, by sea
    return coast is not None and unit.area not in avoiding and bool(_deployment_coasts(snap, unit, unit.area))


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
    reached = deployment_reach(snap, power, unit_type, unit.area, coast)
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


def may_withdraw(module: Module, state: CataclysmState, unit: Unit) -> bool:
    """Whether a fortress or logistics unit may be withdrawn to the cup now: an LOC reaches it (LR 8.4.1)."""
    if unit.type != FORTRESS and graph_of(module).unit_class[unit.type] != "logistics":
        return False
    return unit.area in loc_reach(module, state, unit.power)


__all__ = [
    "deployment_coasts",
    "deployment_destinations",
    "deployment_map",
    "deployment_movers",
    "may_withdraw",
]
