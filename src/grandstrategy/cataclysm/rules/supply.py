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
from grandstrategy.cataclysm.rules.occupation import snapshot
from grandstrategy.cataclysm.rules.special import delay_box_ignored, ignores_restricted
from grandstrategy.cataclysm.state import CataclysmState

_BLOCKING_AT_SEA = {"surface-fleet", "carrier-fleet", "submarine-pack", "strategic-air"}


class _Map:
    """The map facts LOCs need, worked out once per module."""

    def __init__(self, module: Module) -> None:
        self.module = module
        areas = module.areas.values()
        self.ports: list[tuple[str, str, tuple[str, ...] | None]] = []
        """(area, map, keys of its naval bases) of each sea area with a naval base, and (area, map,
        None) of each coastal land or mixed area: the only areas that can be ports."""
        for area in areas:
            if area.type is AreaType.SEA:
                keys = tuple(
                    f"{area.id}#{i}" for i, base in enumerate(area.bases) if base.kind is BaseKind.NAVAL
                )
                if keys:
                    self.ports.append((area.id, area.map.value, keys))
            elif area.coastal:
                self.ports.append((area.id, area.map.value, None))
        self.sea = frozenset(area.id for area in areas if area.type is AreaType.SEA)
        self.edges: dict[str, tuple[str, ...]] = {
            area.id: tuple(edge.target for edge in module.neighbors(area.id) if edge.kind != "air")
            for area in areas
        }
        """Connections an LOC may use (every kind but air-only arrows), in file order."""
        self.delay_box = frozenset(area.id for area in areas if area.delay_box)
        self.restricted = frozenset(
            area.id for area in areas if area.type is AreaType.LAND and area.restricted
        )
        self._near: dict[str, frozenset[str]] = {}
        self._in_play: dict[frozenset[str], frozenset[str]] = {}

    def near_base(self, port: str) -> frozenset[str]:
        """Sea areas within two areas of a special base's port: through its coast's seas alone when
        it stands on one coast of a two-coast area (LR 2.2.1, 2.3.3), else as :meth:`near`."""
        area = self.module.areas[port]
        coast = area.special_base.coast if area.special_base is not None else None
        if not area.coasts or coast is None or coast not in area.coasts:
            return self.near(port)
        key = f"{port}@{coast}"
        found = self._near.get(key)
        if found is None:
            seas = {sea for sea in area.coasts[coast] if sea in self.sea}
            for first in list(seas):
                seas |= {a for a in self.module.naval_reach(first, 1) if a in self.sea}
            found = self._near[key] = frozenset(seas)
        return found

    def near(self, port: str) -> frozenset[str]:
        """Sea areas within two areas of the port by naval movement (the port too, if a sea area)."""
        found = self._near.get(port)
        if found is None:
            module = self.module
            seas = {a for a in module.naval_reach(port, 2) if a in self.sea}
            if port in self.sea:
                seas.add(port)
            found = self._near[port] = frozenset(seas)
        return found

    def in_play(self, maps: Iterable[str]) -> frozenset[str]:
        key = frozenset(maps)
        found = self._in_play.get(key)
        if found is None:
            found = self._in_play[key] = frozenset(self.module.in_play_ids(key))
        return found


_MAPS: dict[int, _Map] = {}


def _map_of(module: Module) -> _Map:
    found = _MAPS.get(id(module))
    if found is None or found.module is not module:
        found = _MAPS[id(module)] = _Map(module)
    return found


class _Friendly:
    """Whether a power's areas, units and bases are friendly to any of ``powers`` (LR 6.1.2), remembered."""

    def __init__(self, module: Module, state: CataclysmState, powers: set[str]) -> None:
        self.module, self.state, self.powers = module, state, powers
        self.known: dict[str, bool] = {}

    def __call__(self, other: str) -> bool:
        found = self.known.get(other)
        if found is None:
            found = self.known[other] = _friendly_to_any(self.module, self.state, self.powers, other)
        return found


def friendly_ports(module: Module, state: CataclysmState, powers: Iterable[str]) -> set[str]:
    """Port areas friendly to any of ``powers`` (LR 2.2.2).

    Coastal areas that they (or belligerent allies) control, seas holding their naval bases, and
    uncontrolled countries holding a friendly special naval base (LR 2.3.3).
    """
    friendly = _Friendly(module, state, set(powers))
    return _friendly_ports(module, state, friendly) | _special_ports(module, state, friendly)


def _special_ports(module: Module, state: CataclysmState, friendly: _Friendly) -> set[str]:
    """Uncontrolled countries whose special naval base is friendly: ports like any naval base (LR 2.3.3)."""
    found: set[str] = set()
    for area_id in state.special_bases:
        area = module.areas.get(area_id)
        special = area.special_base if area is not None else None
        if (
            area is None
            or special is None
            or special.kind is not BaseKind.NAVAL
            or area.map.value not in state.maps
            or controller(module, state, area_id) is not None
        ):
            continue
        if friendly(special.owner):
            found.add(area_id)
    return found


def _friendly_ports(module: Module, state: CataclysmState, friendly: _Friendly) -> set[str]:
    maps, owners = state.maps, state.base_owners
    ports: set[str] = set()
    for area_id, map_id, naval_bases in _map_of(module).ports:
        if map_id not in maps:
            continue
        if naval_bases is not None:
            for key in naval_bases:
                owner = owners.get(key)
                if owner is not None and friendly(owner):
                    ports.add(area_id)
        else:
            holder = controller(module, state, area_id)
            if holder is not None and friendly(holder):
                ports.add(area_id)
    return ports


def _friendly_to_any(module: Module, state: CataclysmState, powers: set[str], other: str) -> bool:
    return any(friendly_powers(module, state, power, other) for power in powers)


def _seas_near(module: Module, ports: set[str]) -> set[str]:
    """Sea areas within two areas of a port (a sea with a base counts itself)."""
    facts = _map_of(module)
    near: set[str] = set()
    for port in ports:
        near |= facts.near(port)
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

    Besides the start areas and the units that block or help, the search reads only fields of the
    state's :class:`~grandstrategy.cataclysm.rules.occupation.Position`, so it is remembered there.
    """
    starts = list(sources) if sources is not None else production_sites(module, state, power)
    facts = _map_of(module)
    tracers = frozenset({power, *also_friendly})
    friendly = _Friendly(module, state, set(tracers))
    sea = facts.sea
    at_war_with: dict[str, bool] = {}
    enemy_seas: set[str] = set()
    logistics: set[str] = set()
    for unit in state.units:
        if unit.type in _BLOCKING_AT_SEA and unit.area in sea:
            enemy = at_war_with.get(unit.power)
            if enemy is None:
                enemy = at_war_with[unit.power] = at_war(state, power, unit.power)
            if enemy:
                enemy_seas.add(unit.area)
        elif unit.type == "logistics" and friendly(unit.power):
            logistics.add(unit.area)
    remembered = snapshot(module, state).position().sets  # one lookup per frozen state
    key = ("loc", power, tuple(starts), tracers, frozenset(enemy_seas), frozenset(logistics))
    found = remembered.get(key)
    if found is None:
        found = remembered[key] = frozenset(
            _loc_search(module, state, power, starts, friendly, enemy_seas, logistics)
        )
    return set(found)


def _loc_search(
    module: Module,
    state: CataclysmState,
    power: str,
    starts: list[str],
    friendly: _Friendly,
    enemy_seas: set[str],
    logistics: set[str],
) -> set[str]:
    """The search of :func:`loc_reach`, given who counts as friendly and where units block or help."""
    facts = _map_of(module)
    sea = facts.sea
    in_play = facts.in_play(state.maps)
    near_ports: set[str] | None = None
    if belligerent(state, power):
        near_ports = _seas_near(module, _friendly_ports(module, state, friendly))
        for port in _special_ports(module, state, friendly):  # LR 2.3.3: a port like any naval base
            near_ports |= facts.near_base(port)
    chinese = state.chinese_armies
    holders = snapshot(module, state).controllers()  # every land area's, shared by the position

    def enterable(area_id: str) -> bool:
        if area_id not in in_play:
            return False
        if area_id in sea:
            return area_id not in enemy_seas and (near_ports is None or area_id in near_ports)
        if area_id in chinese:
            return False  # a Chinese army's country is friendly to nobody (LR 11.4.2)
        holder = holders[area_id] if area_id in holders else controller(module, state, area_id)
        return holder is not None and friendly(holder)

    def passable(area_id: str) -> bool:
        if area_id in facts.delay_box and not delay_box_ignored(state, area_id):
            return False
        if area_id not in facts.restricted or area_id in logistics:
            return True
        return ignores_restricted(module, state, power, area_id)

    origins = set(starts)
    reached = set(starts)
    queue = deque(starts)
    edges = facts.edges
    while queue:
        here = queue.popleft()
        if here not in origins and not passable(here):
            continue  # into or out of, but not through (LR 4.3)
        for nxt in edges.get(here, ()):
            if nxt not in reached and enterable(nxt):
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
