"""Pydantic models for the files of an Axis & Allies map module, one model per kind of record.

Each model validates one record on its own (types, allowed values, provenance). Facts that span
records, such as "a neighbour is a known territory and lists this one back", are checked in
:mod:`.checks`. The format is described in docs/aa-module.md.
"""

from __future__ import annotations

import re
from enum import StrEnum
from typing import Annotated

from pydantic import BaseModel, ConfigDict, Field, field_validator

Slug = Annotated[str, Field(pattern=r"^[a-z0-9]+(?:-[a-z0-9]+)*$", min_length=1, max_length=60)]
Name = Annotated[str, Field(min_length=1, max_length=80)]

_LINES = r"L\d+(?:-\d+)?(?:, L\d+(?:-\d+)?)*"
_SOURCE = re.compile(rf"^(?:[\w.+-]+/)*[\w.+-]+\.xml {_LINES}(?: \([^;()]+\))?$|^reconstructed(?:: [^;]+)?$")


def check_provenance(value: str) -> str:
    """Accept '; '-separated sources: 'DIR/FILE.xml L<n>[-<m>], ... [(note)]' or 'reconstructed[: why]'."""
    parts = [part.strip() for part in value.split(";")]
    if not value.strip() or any(not _SOURCE.match(part) for part in parts):
        raise ValueError(
            "provenance must be '; '-separated sources, each 'DIR/FILE.xml L<line>[, L<line>...] "
            f"[(note)]' or 'reconstructed[: <why>]'; got {value!r}"
        )
    return value


def provenance_kind(value: str) -> str:
    """``source`` when any part cites a game file's lines, else ``reconstructed``."""
    parts = [part.strip() for part in value.split(";")]
    return "reconstructed" if all(part.startswith("reconstructed") for part in parts) else "source"


class Record(BaseModel):
    """Base of every record: immutable, strict about unknown fields, with a provenance."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    provenance: str

    @field_validator("provenance")
    @classmethod
    def _provenance(cls, value: str) -> str:
        return check_provenance(value)


class Strict(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class TerritoryType(StrEnum):
    LAND = "land"
    SEA = "sea"


class Domain(StrEnum):
    """Where a unit type moves: TripleA's isSea / isAir flags, else land; factories don't move."""

    LAND = "land"
    SEA = "sea"
    AIR = "air"
    STRUCTURE = "structure"


class Source(Strict):
    """The game file a module was imported from, by a label and its SHA-256."""

    file: Name
    sha256: Annotated[str, Field(pattern=r"^[0-9a-f]{64}$")]


class ModuleInfo(Record):
    """``module.yaml``: what the module is and where it came from."""

    id: Slug
    title: Name
    game: Name
    game_version: Annotated[str, Field(max_length=20)]
    source: Source | None = None
    generated_by: str | None = None
    description: str = ""


class Territory(Record):
    """A land territory or a sea zone, with its neighbours (every adjacency is listed both ways)."""

    id: Slug
    name: Name
    type: TerritoryType
    neighbours: list[Slug]
    ipc: int | None = Field(default=None, ge=0, le=100)
    original_owner: Slug | None = None
    capital: Slug | None = None
    victory_city: bool = False
    impassable: bool = False
    island: bool = False


class Canal(Record):
    """A canal: ships pass between its sea zones only if their side controls every listed territory."""

    id: Slug
    name: Name
    sea_zones: list[Slug] = Field(min_length=2)
    controlled_by: list[Slug] = Field(min_length=1)


class MapFile(Strict):
    """``map.yaml``."""

    territories: list[Territory]
    canals: list[Canal] = Field(default_factory=list)


class Power(Record):
    """A power (a TripleA player), its alliance, place in the turn order and starting IPCs."""

    id: Slug
    name: Name
    alliance: Slug
    turn: int = Field(ge=1, le=20)
    starting_ipcs: int = Field(ge=0, le=10_000)
    production_frontier: Name


class PowersFile(Strict):
    """``powers.yaml``."""

    powers: list[Power]


StatValue = bool | int | str


class UnitType(Record):
    """A unit type with its stats as the game file states them (TripleA option names and values)."""

    id: Slug
    name: Name
    domain: Domain
    cost: int | None = Field(default=None, ge=0, le=1000)
    frontier_costs: dict[str, int] = Field(default_factory=dict)
    stats: dict[str, StatValue] = Field(default_factory=dict)


class UnitsFile(Strict):
    """``units.yaml``."""

    unit_types: list[UnitType]


class Placement(Record):
    """Starting units: ``count`` units of one type for one power in one territory or sea zone."""

    power: Slug
    type: Slug
    territory: Slug
    count: int = Field(ge=1, le=1000)


class SetupFile(Strict):
    """``setup.yaml``: the starting units (ownership is ``original_owner`` in map.yaml)."""

    units: list[Placement]


class Phase(Record):
    """One step of a power's turn, by the game file's delegate name."""

    delegate: Name
    name: Name


class Property(Record):
    """A game option as the game file states it."""

    name: Name
    value: StatValue
    editable: bool = False


class RulesFile(Strict):
    """``rules.yaml``: the turn's phases and the game options of the imported file."""

    phases: list[Phase]
    properties: list[Property] = Field(default_factory=list)
