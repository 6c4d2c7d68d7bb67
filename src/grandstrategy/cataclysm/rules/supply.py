"""Lines of communication (LR 4.3): from a production site to an area, over friendly ground and open sea.

An LOC enters friendly land or mixed areas, and sea areas with no enemy naval unit or strategic
air force (within two areas of a friendly port while the tracer is belligerent). It may go into or
out of, but not through, a restricted land area (unless a friendly logistics unit is there) or a
Delay-box area. Air-only arrows carry no LOC.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable

from grandstrategy.cataclysm.module import Module
from grandstrategy.cataclysm.module.schema import AreaType, BaseKind
from grandstrategy.cataclysm.rules.control import (
    at_war,
    belligerent,
    controller,
    friendly_powers,
    production_sites,
)
from grandstrategy.cataclysm.rules.special import delay_box_ignored, ignores_restricted
from grandstrategy.cataclysm.state import CataclysmState

_BLOCKING_AT_SEA = {"surface-fleet", "carrier-fleet", "submarine-pack", "strategic-air"}


def friendly_ports(module: Module, state: CataclysmState, powers: Iterable[str]) -> set[str]:
    """Port areas friendly to any of ``powers`` (LR 2.2.2).

    Coastal areas that they (or belligerent allies) control, and seas holding their naval bases.
    """
    wanted = set(powers)
    ports: set[str] = set()
    for area in module.areas.values():
        if area.map.value not in state.maps:
            continue
        if area.type is AreaType.SEA:
            for index, base in enumerate(area.bases):
                owner = state.base_owners.get(f"{area.id}#{index}")
                if (
                    base.kind is BaseKind.NAVAL
                    and owner is not None
                    and _friendly_to_any(module, state, wanted, owner)
                ):
                    ports.add(area.id)
        elif area.coastal:
            holder = controller(module, state, area.id)
            if holder is not None and _friendly_to_any(module, state, wanted, holder):
                ports.add(area.id)
    return ports


def _friendly_to_any(module: Module, state: CataclysmState, powers: set[str], other: str) -> bool:
    return any(friendly_powers(module, state, power, other) for power in powers)


def _seas_near(module: Module, ports: set[str]) -> set[str]:
    """Sea areas within two areas of a port (a sea with a base counts itself)."""
    near = {port for port in ports if module.is_sea(port)}
    for port in ports:
        near.update(a for a, _ in module.naval_reach(port, 2).items() if module.is_sea(a))
    return near


def loc_reach(
    module: Module,
    state: CataclysmState,
    power: str,
    *,
    sources: Iterable[str] | None = None,
    also_friendly: Iterable[str] = (),
) -> set[str]:
    """Every area ``power`` can trace an LOC to from its production sites (or ``sources``).

    ``also_friendly`` names other powers whose areas and ports count as friendly for this trace
    (LR 4.4.1: a US transfer treats the ports of both powers as friendly). One search answers for
    every target, so callers checking many areas compute it once.
    """
    starts = list(sources) if sources is not None else production_sites(module, state, power)
    tracers = {power, *also_friendly}
    in_play = set(module.in_play_ids(state.maps))
    near_ports = (
        _seas_near(module, friendly_ports(module, state, tracers)) if belligerent(state, power) else None
    )
    enemy_seas = {
        unit.area
        for unit in state.units
        if unit.type in _BLOCKING_AT_SEA and module.is_sea(unit.area) and at_war(state, power, unit.power)
    }
    logistics = {
        unit.area
        for unit in state.units
        if unit.type == "logistics" and _friendly_to_any(module, state, tracers, unit.power)
    }

    def enterable(area_id: str) -> bool:
        if area_id not in in_play:
            return False
        if module.is_sea(area_id):
            return area_id not in enemy_seas and (near_ports is None or area_id in near_ports)
        if area_id in state.chinese_armies:
            return False  # a Chinese army's country is friendly to nobody (LR 11.4.2)
        holder = controller(module, state, area_id)
        return holder is not None and _friendly_to_any(module, state, tracers, holder)

    def passable(area_id: str) -> bool:
        area = module.area(area_id)
        if area.delay_box and not delay_box_ignored(state, area_id):
            return False
        if area.type is not AreaType.LAND or not area.restricted or area_id in logistics:
            return True
        return ignores_restricted(module, state, power, area_id)

    reached = set(starts)
    queue = deque(starts)
    while queue:
        here = queue.popleft()
        if here not in starts and not passable(here):
            continue  # into or out of, but not through (LR 4.3)
        for edge in module.neighbors(here):
            nxt = edge.target
            if edge.kind != "air" and nxt not in reached and enterable(nxt):
                reached.add(nxt)
                queue.append(nxt)
    return reached


def trace_loc(
    module: Module,
    state: CataclysmState,
    power: str,
    target: str,
    *,
    sources: Iterable[str] | None = None,
    also_friendly: Iterable[str] = (),
) -> bool:
    """Whether ``power`` can trace an LOC to ``target`` (see :func:`loc_reach`)."""
    return target in loc_reach(module, state, power, sources=sources, also_friendly=also_friendly)
