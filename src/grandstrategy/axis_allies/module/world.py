"""The loaded A&A map module: records by id and the look-ups a game needs.

A :class:`MapModule` is built only from records that passed their schema; the cross-record
checks (:mod:`.checks`) run on it before anyone else sees it. It never changes after loading.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

from grandstrategy.axis_allies.module.schema import (
    Canal,
    MapFile,
    ModuleInfo,
    Placement,
    Power,
    PowersFile,
    RulesFile,
    SetupFile,
    Territory,
    TerritoryType,
    UnitsFile,
    UnitType,
)
from grandstrategy.core.graph import bfs_distances


@dataclass(frozen=True)
class MapModule:
    """A checked map module: territories and sea zones, canals, powers, unit types, the setup."""

    info: ModuleInfo
    content_hash: str
    map_file: MapFile
    powers_file: PowersFile
    units_file: UnitsFile
    setup_file: SetupFile
    rules: RulesFile
    territories: MappingProxyType[str, Territory]
    canals: MappingProxyType[str, Canal]
    powers: MappingProxyType[str, Power]
    unit_types: MappingProxyType[str, UnitType]

    @classmethod
    def build(
        cls,
        info: ModuleInfo,
        map_file: MapFile,
        powers: PowersFile,
        units: UnitsFile,
        setup: SetupFile,
        rules: RulesFile,
        content_hash: str = "",
    ) -> MapModule:
        """Index the records by id (the first record wins a duplicate id; checks report the rest)."""

        def index(records: Any) -> MappingProxyType[str, Any]:
            table: dict[str, Any] = {}
            for record in records:
                table.setdefault(record.id, record)
            return MappingProxyType(table)

        return cls(
            info=info,
            content_hash=content_hash,
            map_file=map_file,
            powers_file=powers,
            units_file=units,
            setup_file=setup,
            rules=rules,
            territories=index(map_file.territories),
            canals=index(map_file.canals),
            powers=index(powers.powers),
            unit_types=index(units.unit_types),
        )

    @property
    def setup(self) -> tuple[Placement, ...]:
        """The starting units, in file order."""
        return tuple(self.setup_file.units)

    def provenances(self) -> Iterator[str]:
        """The provenance of every record in the module."""
        yield self.info.provenance
        yield from (record.provenance for record in self.map_file.territories)
        yield from (record.provenance for record in self.map_file.canals)
        yield from (record.provenance for record in self.powers_file.powers)
        yield from (record.provenance for record in self.units_file.unit_types)
        yield from (record.provenance for record in self.setup_file.units)
        yield from (record.provenance for record in self.rules.phases)
        yield from (record.provenance for record in self.rules.properties)

    def turn_order(self) -> list[Power]:
        """The powers in the order they play."""
        return sorted(self.powers.values(), key=lambda power: power.turn)

    def find_territory(self, text: str) -> Territory | None:
        """The territory or sea zone named by id or name (any case), or by 'SZ 5' for a sea zone."""
        key = text.strip().casefold()
        if key in self.territories:
            return self.territories[key]
        compact = key.replace(" ", "")
        if compact.startswith("sz") and compact[2:].lstrip("-").isdigit():
            return self.territories.get(f"sz-{int(compact[2:].lstrip('-'))}")
        return next((t for t in self.territories.values() if t.name.casefold() == key), None)

    def is_sea(self, territory_id: str) -> bool:
        return self.territories[territory_id].type is TerritoryType.SEA

    def sea_neighbours(self, territory_id: str) -> list[str]:
        """The sea zones next to a territory or sea zone."""
        return [other for other in self.territories[territory_id].neighbours if self.is_sea(other)]

    def capital_of(self, power_id: str) -> Territory | None:
        return next((t for t in self.territories.values() if t.capital == power_id), None)

    def income(self, power_id: str) -> int:
        """The IPC value of every territory the power owns at the start."""
        return sum(t.ipc or 0 for t in self.territories.values() if t.original_owner == power_id)

    def alliance_of(self, power_id: str) -> str:
        return self.powers[power_id].alliance

    def sea_distances(self, starts: list[str]) -> dict[str, int]:
        """Sea zones reachable from the ``starts`` (sea zones) by sea alone, and their distance.

        Canals are not consulted: this is the shape of the map, not a legal move.
        """
        return bfs_distances(starts, self.sea_neighbours)

    def min_sea_zones_between(self, land_a: str, land_b: str) -> int | None:
        """The fewest sea zones a sea path from one coastal territory to another passes through."""
        reach = self.sea_distances(self.sea_neighbours(land_a))
        ends = [reach[zone] for zone in self.sea_neighbours(land_b) if zone in reach]
        return min(ends) + 1 if ends else None
