"""Deployment reach (LR 8.4, 7.2): every area a unit could move to in a deployment, before the
occupation limits of where it ends.

Any number of moves, mixing the modes the unit's class may use (LR 7.2). The entry rules of
:mod:`entry` are applied here to every area at once, outside an operation (no target): what does
not depend on where units stand is kept with the snapshot's
:class:`~grandstrategy.cataclysm.rules.map_graph.Position`, and the enemy units in the way are
taken out per snapshot, so that the searches test membership only. A search's result is remembered
with the position under everything else it reads, so the next states of a game reuse it.
"""

from __future__ import annotations

from collections.abc import Callable

from grandstrategy.cataclysm.module.schema import BaseKind
from grandstrategy.cataclysm.rules.entry import off_base_coast
from grandstrategy.cataclysm.rules.occupation import SUBMARINE, Snapshot

Check = Callable[[str], bool] | None
"""Asked of each area a search enters; the search stops as soon as it holds (None: never)."""

WNT = "wnt"
ISOLATIONISM = "isolationism"
UNITED_STATES = "united-states"


def deployment_reach(
    snap: Snapshot, power: str, unit_type: str, start: str, coast: str | None
) -> frozenset[str]:
    """Where a unit of this power and type could move from ``start``, before occupation limits (LR 8.4).

    Besides the position, the search depends only on where enemy units block the way, so it is
    remembered with the position under those too: units of one power and class standing together
    search once, and so do the same units in the next states of a deployment.
    """
    found = _reach(snap, power, unit_type, start, coast, None)
    assert found is not None
    return found


def reach_unless(
    snap: Snapshot, power: str, unit_type: str, start: str, coast: str | None, accept: Callable[[str], bool]
) -> frozenset[str] | None:
    """:func:`deployment_reach`, or None as soon as the search meets an area of it for which
    ``accept`` holds (asked of the areas of the reach, in no set order, some perhaps twice).

    Whether a unit can move at all needs one place where it may end, not all of them: the search
    stops there, and that area is remembered under the search's key, to be asked first next time
    (it is in the reach whatever the units standing there; ``accept`` is asked again). A reach
    already remembered is returned without asking ``accept``; a search that meets no such area is
    remembered as :func:`deployment_reach`'s.
    """
    return _reach(snap, power, unit_type, start, coast, accept)


def _reach(
    snap: Snapshot,
    power: str,
    unit_type: str,
    start: str,
    coast: str | None,
    accept: Callable[[str], bool] | None,
) -> frozenset[str] | None:
    graph = snap.graph
    unit_class = graph.unit_class[unit_type]
    if unit_class != "naval":
        coast = None  # only a naval unit's coast matters (LR 2.2.1)
    shared = snap.shared_sets()
    # the searches tell unit types apart only by class, and sub packs among naval units (sailable)
    kind = "submarine" if unit_type == SUBMARINE else unit_class
    key = ("deployment", power, kind, start, coast, snap.blockers(power))
    found = shared.get(key)
    if found is not None:
        return found
    state = snap.state
    wnt = WNT in state.markers
    isolated = (
        power == UNITED_STATES
        and unit_class in ("land", "logistics")
        and ISOLATIONISM in state.markers
        and not snap.belligerent(power)
    )
    homes = graph.homes.get(power, frozenset())

    def kept(b: str) -> bool:
        """Whether an area reached stays in the reach (the filters below, applied one area at a time)."""
        if b == start or (wnt and b in graph.wnt_zone):
            return False
        return not isolated or b in homes or any(owner == power for _, owner in snap.bases(b))

    check: Check = None
    if accept is not None:
        # an area where the last search stopped is in the reach (the key says so): try it first
        witness_key = ("deployment-stop", *key[1:])
        last = shared.get(witness_key)
        if last is not None and accept(next(iter(last))):
            return None

        def check(b: str) -> bool:
            if kept(b) and accept(b):
                shared[witness_key] = frozenset((b,))
                return True
            return False

    searched: set[str] | None
    if unit_class == "naval":
        searched = _naval_deployment(snap, power, unit_type, start, coast, check)
    elif unit_class == "air":
        searched = _air_deployment(snap, power, unit_type, start, check)
    else:
        searched = _ground_deployment(snap, power, unit_type, start, check)
    if searched is None:
        return None
    reached = searched
    reached.discard(start)
    if wnt:
        reached -= graph.wnt_zone
    if isolated:
        reached = {b for b in reached if b in homes or any(owner == power for _, owner in snap.bases(b))}
    found = shared[key] = frozenset(reached)
    return found


def _shared(snap: Snapshot, key: tuple[str, ...], make: Callable[[], frozenset[str]]) -> frozenset[str]:
    """The position's shared set under ``key``, made by ``make`` the first time it is asked for."""
    shared = snap.shared_sets()
    found = shared.get(key)
    if found is None:
        found = shared[key] = make()
    return found


def _remote_held(snap: Snapshot, power: str) -> frozenset[str]:
    """Remote areas the power controls: the only remote areas its units may enter (LR 2.2.8)."""
    return _shared(
        snap,
        ("remote-held", power),
        lambda: frozenset(a for a in snap.graph.remote if snap.controller(a) == power),
    )


def _walkable(snap: Snapshot, power: str) -> frozenset[str]:
    """Every area :func:`land_entry` lets the power's units enter, with no target."""

    def make() -> frozenset[str]:
        graph = snap.graph
        held = (snap.friendly_areas(power) - graph.remote) | _remote_held(snap, power)
        return (held & snap.in_play) - graph.sea

    return _shared(snap, ("walkable", power), make)


def sailable(snap: Snapshot, power: str, unit_type: str) -> frozenset[str]:
    """Every area :func:`naval_entry` lets a unit of this type enter outside an operation (range checked)."""
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
    """Every area :func:`air_entry` lets the power's air units enter outside an operation."""
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


def no_sailing_on(snap: Snapshot, power: str) -> frozenset[str]:
    """Every area where :func:`naval_onward` stops naval movement, with no target."""

    def make() -> frozenset[str]:
        graph = snap.graph
        passable = graph.special_coastal & snap.friendly_areas(power)
        return snap.delay_areas() | (graph.land_type - passable)

    return _shared(snap, ("no-sailing-on", power), make)


def _naval_deployment(
    snap: Snapshot, power: str, unit_type: str, start: str, coast: str | None, check: Check
) -> set[str] | None:
    """Naval units: naval movement; None as soon as ``check`` holds for an area entered."""
    graph = snap.graph
    enters = sailable(snap, power, unit_type)
    stops = no_sailing_on(snap, power)
    based = graph.base_coast
    seen = {start}
    stack = [start]
    while stack:
        here = stack.pop()
        if here != start and here in stops:
            continue
        for there in graph.naval_from(here, coast if here == start else None):
            if there in based and off_base_coast(snap, power, here, there, None):
                continue
            if there in enters and there not in seen:
                seen.add(there)
                stack.append(there)
                if check is not None and check(there):
                    return None
    return seen


def _ground_deployment(
    snap: Snapshot, power: str, unit_type: str, start: str, check: Check
) -> set[str] | None:
    """Land, fortress and logistics units: land movement, and naval movement between coasts; None as
    soon as ``check`` holds for an area entered."""
    graph = snap.graph
    land, naval, sea, coastal = graph.land, graph.naval, graph.sea, graph.coastal
    walks = _walkable(snap, power)
    sails: frozenset[str] | None = None  # found when first needed: a search that stops early may not
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
                    if check is not None and check(there):
                        return None
        if here in coastal:
            if sails is None:
                sails = sailable(snap, power, unit_type)
            for there in naval[here]:
                if there in sails and there not in seen:
                    seen.add(there)
                    stack.append(there)
                    if check is not None and check(there):
                        return None
    return seen


_AFIELD, _AIR_SEA, _NAVAL_SEA = 0, 1, 2


def _air_deployment(snap: Snapshot, power: str, unit_type: str, start: str, check: Check) -> set[str] | None:
    """Air units: air movement, with at most one sea area in a row crossed by air (LR 7.2); None as
    soon as ``check`` holds for an area entered.

    The search remembers how the unit entered its current area: over land or a friendly air base
    (``_AFIELD``), into a bare sea area by air (``_AIR_SEA``), or into one by naval movement
    (``_NAVAL_SEA``). A sea area crossed by air must sit between two such airfields or land areas.
    """
    graph = snap.graph
    air, naval, coastal = graph.air, graph.naval, graph.coastal
    flies = _flyable(snap, power)
    sails = sailable(snap, power, unit_type)
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
                if check is not None and check(there):
                    return None
        if how == _AIR_SEA or here not in coastal:
            continue
        for there in naval[here]:
            if there not in sails:
                continue
            node = (there, _NAVAL_SEA if there in bare else _AFIELD)
            if node not in seen:
                seen.add(node)
                stack.append(node)
                if check is not None and check(there):
                    return None
    return {area_id for area_id, _ in seen}


__all__ = ["deployment_reach", "no_sailing_on", "reach_unless", "sailable"]
