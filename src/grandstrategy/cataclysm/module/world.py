"""The loaded module: immutable records plus the map graph that rules code asks questions of.

Movement kinds follow LR 7.2: land movement (7.2.1), naval movement (7.2.2) and air movement
(7.2.3) each use a different subset of the connections; :class:`Edge` says which.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from functools import cached_property
from types import MappingProxyType
from typing import Literal

from grandstrategy.cataclysm.module.schema import (
    Area,
    AreaType,
    CrisisFile,
    Ideology,
    ImpassableGroup,
    MapFile,
    ModuleInfo,
    Power,
    Scenario,
    UnitType,
)

Mode = Literal["land", "naval", "air"]


@dataclass(frozen=True, slots=True)
class Edge:
    """One connection between two areas, seen from ``source``."""

    source: str
    target: str
    kind: str
    label: str | None
    modes: frozenset[str] | None
    provenance: str


@dataclass(frozen=True)
class Module:
    """A validated, immutable Cataclysm module. Build it with :func:`load_module`."""

    info: ModuleInfo
    content_hash: str
    maps: Mapping[str, MapFile]
    areas: Mapping[str, Area]
    edges: Mapping[str, tuple[Edge, ...]]
    impassable: tuple[ImpassableGroup, ...]
    unit_types: Mapping[str, UnitType]
    neutral_cubes: int
    powers: Mapping[str, Power]
    crisis: CrisisFile
    scenarios: Mapping[str, Scenario]

    @property
    def id(self) -> str:
        return self.info.id

    # -- look-up -------------------------------------------------------------------------

    def area(self, area_id: str) -> Area:
        """The area with this id (raises KeyError for an unknown id)."""
        return self.areas[area_id]

    @cached_property
    def _names(self) -> dict[str, str]:
        names: dict[str, str] = {}
        for area in self.areas.values():
            names[area.id] = area.id
            names[area.name.casefold()] = area.id
        return names

    def find_area(self, text: str) -> str | None:
        """The id of the area named ``text`` (name or id, any case), or None."""
        key = text.strip().casefold()
        return self._names.get(key) or self._names.get(key.replace(" ", "-"))

    def area_names(self) -> list[str]:
        """Every area's display name, for suggestions."""
        return [area.name for area in self.areas.values()]

    # -- precomputed look-ups (the module is immutable) ------------------------------------

    @cached_property
    def _sea(self) -> dict[str, bool]:
        return {area.id: area.type is AreaType.SEA for area in self.areas.values()}

    @cached_property
    def _ideology(self) -> dict[str, Ideology]:
        return {power_id: power.ideology for power_id, power in self.powers.items()}

    @cached_property
    def _control_facts(self) -> dict[str, tuple[bool, str | None, Ideology | None]]:
        """Per area: whether it is a sea area, its owner if that is a power, and that power's ideology."""
        facts: dict[str, tuple[bool, str | None, Ideology | None]] = {}
        for area in self.areas.values():
            owner = area.owner if area.owner is not None and area.owner in self.powers else None
            ideology = self.powers[owner].ideology if owner is not None else None
            facts[area.id] = (area.type is AreaType.SEA, owner, ideology)
        return facts

    @cached_property
    def _adjacent(self) -> dict[tuple[str, Mode], tuple[str, ...]]:
        return {
            (area_id, mode): tuple(edge.target for edge in self.neighbors(area_id) if self.allows(edge, mode))
            for area_id in self.areas
            for mode in ("land", "naval", "air")
        }

    @cached_property
    def _in_play(self) -> dict[frozenset[str], tuple[str, ...]]:
        return {}

    # -- adjacency -----------------------------------------------------------------------

    def neighbors(self, area_id: str) -> tuple[Edge, ...]:
        """Every connection of the area, of any kind, in file order."""
        return self.edges.get(area_id, ())

    def is_sea(self, area_id: str) -> bool:
        return self._sea[area_id]

    def allows(self, edge: Edge, mode: Mode) -> bool:
        """Whether a unit may cross ``edge`` using ``mode`` movement (LR 7.2.1–7.2.3, 2.3.4, 2.3.6)."""
        source, target = self.areas[edge.source], self.areas[edge.target]
        if edge.kind == "connector":
            return edge.modes is not None and mode in edge.modes
        if edge.kind == "air":
            return mode == "air"
        if mode == "air":
            return True
        if mode == "land":
            return source.type is not AreaType.SEA and target.type is not AreaType.SEA
        # naval movement
        if source.type is AreaType.SEA or target.type is AreaType.SEA:
            return True
        if edge.kind == "strait":
            return AreaType.MIXED in (source.type, target.type) and source.coastal and target.coastal
        return False

    def adjacent(self, area_id: str, mode: Mode) -> list[str]:
        """Areas reachable in one step with this kind of movement."""
        found = self._adjacent.get((area_id, mode))
        if found is None:  # an unknown area or mode: worked out as ever
            return [edge.target for edge in self.neighbors(area_id) if self.allows(edge, mode)]
        return list(found)

    def sea_neighbors(self, area_id: str) -> list[str]:
        """Sea areas adjacent to the area by a connection naval movement may use."""
        return [target for target in self.adjacent(area_id, "naval") if self.is_sea(target)]

    def naval_transit(self, area_id: str, friendly: Iterable[str] = ()) -> bool:
        """Whether naval movement may pass *through* the area (LR 7.2.2, 7.3.1, 2.2.1).

        Sea areas and mixed areas (whose sea part is open, LR 2.2) can be crossed; a coastal
        land area cannot, except the special coastal areas when friendly to the mover.
        """
        area = self.areas[area_id]
        if area.type is not AreaType.LAND:
            return True
        return area.special_coastal and area_id in set(friendly)

    def naval_reach(self, start: str, steps: int, friendly: Iterable[str] = ()) -> dict[str, int]:
        """Areas within ``steps`` areas of ``start`` by naval movement, with their distance.

        The starting area itself is not counted (LR 7.3: bases are not spaces). ``friendly``
        names land areas friendly to the mover, which matters only for special coastal areas.
        """
        friendly_set = set(friendly)

        def onward(area_id: str) -> list[str]:
            if area_id != start and not self.naval_transit(area_id, friendly_set):
                return []
            return self.adjacent(area_id, "naval")

        return _distances(start, steps, onward)

    def range_by(self, start: str, steps: int, mode: Mode) -> dict[str, int]:
        """Areas within ``steps`` of ``start`` by land or air movement, ignoring control."""
        return _distances(start, steps, lambda area_id: self.adjacent(area_id, mode))

    # -- scenario-level facts -----------------------------------------------------------

    def in_play(self, scenario: Scenario) -> list[str]:
        """Areas on the maps the scenario uses."""
        return self.in_play_ids(tuple(map_id.value for map_id in scenario.maps))

    def in_play_ids(self, maps: Iterable[str]) -> list[str]:
        """Areas on the named maps."""
        wanted = frozenset(maps)
        found = self._in_play.get(wanted)
        if found is None:
            found = self._in_play[wanted] = tuple(
                area.id for area in self.areas.values() if area.map.value in wanted
            )
        return list(found)

    def controller(self, scenario: Scenario, area_id: str) -> str | None:
        """Which power controls the area at the start of the scenario (LR 2.2.4), or None."""
        return area_controller(self, area_id, scenario.cubes.get(area_id, {}))

    def victory_points(self, scenario: Scenario, power_id: str) -> int:
        """The power's victory points at the start of the scenario (LR 1.7.1)."""
        return score(self, scenario.cubes, power_id)


def area_controller(
    module: Module, area_id: str, cubes: Mapping[str, int], active: Callable[[str], bool] = lambda _: True
) -> str | None:
    """The power controlling an area holding ``cubes``, or None (LR 2.2.4).

    A power controls its home and colony areas while they hold no opposing or neutral cube, and
    any other area holding one of its cubes; sea areas are never controlled. ``active`` says which
    powers are still in the game: a surrendered power controls nothing.
    """
    sea, owner, own = module._control_facts[area_id]
    if sea:
        return None
    if not cubes:
        return owner if owner is not None and active(owner) else None
    ideologies = module._ideology
    if owner is not None and active(owner):
        blocked = any(
            count and (power == "neutral" or (power in ideologies and ideologies[power] is not own))
            for power, count in cubes.items()
        )
        if not blocked:
            return owner
    for power, count in cubes.items():
        if count and power != "neutral" and power in ideologies and active(power):
            return power
    return None


def score(module: Module, cubes: Mapping[str, Mapping[str, int]], power: str) -> int:
    """Victory points: own cubes on the map minus other cubes in own home and colony areas (LR 1.7.1)."""
    own = sum(held.get(power, 0) for held in cubes.values())
    foreign = sum(
        count
        for area_id, held in cubes.items()
        if area_id in module.areas and module.areas[area_id].owner == power
        for holder, count in held.items()
        if holder != power
    )
    return own - foreign


def _distances(start: str, steps: int, onward: Callable[[str], list[str]]) -> dict[str, int]:
    """Breadth-first distances from ``start`` up to ``steps``, the start itself left out."""
    distance: dict[str, int] = {start: 0}
    frontier = [start]
    for step in range(1, steps + 1):
        following: list[str] = []
        for area_id in frontier:
            for target in onward(area_id):
                if target not in distance:
                    distance[target] = step
                    following.append(target)
        frontier = following
    del distance[start]
    return distance


def freeze(mapping: dict[str, object]) -> Mapping[str, object]:
    """A read-only view of a dict, so a loaded module cannot be changed during play."""
    return MappingProxyType(mapping)
