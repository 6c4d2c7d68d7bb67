"""The variant's combat numbers, read once from ``aarhe/data/combat.yaml`` (each record cites S3).

The file is package data of this project, so a broken file is a programming error: it raises at
import of the table rather than being reported to a user.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from functools import cache
from pathlib import Path
from types import MappingProxyType
from typing import Any

import yaml

from grandstrategy.axis_allies.game.profile import UnitStats

DATA = Path(__file__).resolve().parent.parent / "data" / "combat.yaml"
MAP = DATA.parent / "map.yaml"
"""The variant's map changes: its terrain classes and straits are read from there (one copy)."""
MINUS_ONE = ("snowy", "mountain")
"""Terrain kinds in which land units fight at -1 (S3:L224, L246)."""


@dataclass(frozen=True, slots=True)
class CombatUnit:
    """One unit type's combat numbers under the variant (S3:L244, L248)."""

    role: str  # the variant's abbreviation: INF, ART, ARM, FTR, BMR, BB, CV, DD, SS, AP, ID, ...
    module: str  # the unit id in the map module
    attack: int
    defence: int
    hits: int
    dogfight: tuple[int, int] | None
    anti_air: int
    supported_attack: int | None
    fighter_support: int
    defence_per_plane: int
    adjacent_modifier: int
    provenance: str


@dataclass(frozen=True, slots=True)
class CombatTables:
    """Every number the combat machine reads: units by module id, jets, dice thresholds, terrain."""

    units: MappingProxyType[str, CombatUnit]
    jets: MappingProxyType[str, dict[str, Any]]
    dice: MappingProxyType[str, dict[str, Any]]
    technologies: MappingProxyType[str, dict[str, Any]]
    built_in_ids: MappingProxyType[str, Any]
    terrain_minus_one: frozenset[str]
    miniature: frozenset[str]
    miniature_limit: int
    straits: tuple[tuple[str, tuple[str, str]], ...]

    def role(self, unit: str) -> str:
        """The variant's abbreviation of a module unit id ('' for a unit the variant does not name)."""
        found = self.units.get(unit)
        return found.role if found else ""

    def need(self, name: str, field: str = "hit") -> int:
        value = self.dice[name][field]
        assert isinstance(value, int)
        return value


def _unit(record: dict[str, Any]) -> CombatUnit:
    dogfight = record.get("dogfight")
    return CombatUnit(
        role=record["role"],
        module=record["module"],
        attack=record["attack"],
        defence=record["defence"],
        hits=record["hits"],
        dogfight=(dogfight[0], dogfight[1]) if dogfight else None,
        anti_air=record.get("anti_air", 0),
        supported_attack=record.get("supported_attack"),
        fighter_support=record.get("fighter_support", 0),
        defence_per_plane=record.get("defence_per_plane", 0),
        adjacent_modifier=record.get("adjacent_modifier", 0),
        provenance=record["provenance"],
    )


@cache
def tables() -> CombatTables:
    """The variant's combat tables (read once)."""
    raw = yaml.safe_load(DATA.read_text(encoding="utf-8"))
    world = yaml.safe_load(MAP.read_text(encoding="utf-8"))
    units = {r["module"]: _unit(r) for r in raw["units"]}
    return CombatTables(
        units=MappingProxyType(units),
        jets=MappingProxyType({r["role"]: r for r in raw["jets"]}),
        dice=MappingProxyType(raw["dice"]),
        technologies=MappingProxyType(raw["technologies"]),
        built_in_ids=MappingProxyType(raw["built_in_ids"]),
        terrain_minus_one=frozenset(r["territory"] for r in world["terrain"] if r["kind"] in MINUS_ONE),
        miniature=frozenset(r["territory"] for r in world["terrain"] if r["kind"] == "miniature"),
        miniature_limit=int(world["miniature_limit"]["value"]),
        straits=tuple((r["territory"], (r["sea_zones"][0], r["sea_zones"][1])) for r in world["straits"]),
    )


def with_variant_hits(stats: Mapping[str, UnitStats]) -> MappingProxyType[str, UnitStats]:
    """The profile's unit stats with the variant's hit points (two-hit carriers and heavy tanks,
    S3:L244, L248), so the base game's checks agree with the battle machine. The variant's
    profile sets ``self.stats = with_variant_hits(self.stats)``."""
    table = tables().units
    return MappingProxyType(
        {
            unit: replace(s, hit_points=table[unit].hits) if unit in table and table[unit].hits > 0 else s
            for unit, s in stats.items()
        }
    )
