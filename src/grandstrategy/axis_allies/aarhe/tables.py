"""The Historical Edition variant's tables and map changes, read from ``data/*.yaml`` and checked.

Every record carries its provenance: the variant document's line (``S3:L212``) or
``reconstructed: <why>`` where the document leaves a gap (brief §4.1, docs/decisions.md). The
files are validated by pydantic models (unknown fields, wrong types and bad provenance are
refused) and then cross-checked against the Revised map module they change; a broken file
raises one :class:`~grandstrategy.core.errors.DataError` that lists every problem.
"""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path
from typing import Annotated, Any

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from grandstrategy.axis_allies.module.world import MapModule
from grandstrategy.core.errors import DataError

DATA_DIR = Path(__file__).parent / "data"
FILES = ("victory", "economy", "research", "diplomacy", "map", "goals")

_PART = re.compile(r"^S3:L\d+(?:-\d+)?(?:, L\d+(?:-\d+)?)*$|^reconstructed: [^;]+$")
Slug = Annotated[str, Field(pattern=r"^[a-z0-9]+(?:-[a-z0-9]+)*$", max_length=60)]
Count = Annotated[int, Field(ge=0, le=100)]


def check_source(value: str) -> str:
    """Accept '; '-separated parts, each 'S3:L<line>[, L<line>]' or 'reconstructed: <why>'."""
    if not all(_PART.match(part.strip()) for part in value.split(";")):
        raise ValueError(f"provenance must be 'S3:L<line>' or 'reconstructed: <why>' parts, got {value!r}")
    return value


def reconstructed(provenance: str) -> bool:
    """Whether a record fills a gap of the document (any part is a reconstruction)."""
    return "reconstructed" in provenance


class Row(BaseModel):
    """A record of a table: immutable, strict, with its provenance."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    provenance: str

    @field_validator("provenance")
    @classmethod
    def _source(cls, value: str) -> str:
        return check_source(value)


class Value(Row):
    value: Count


class Mode(Row):
    id: Slug


class Target(Row):
    alliance: Slug
    points: Count


class City(Row):
    city: Annotated[str, Field(min_length=1, max_length=40)]
    territory: Slug
    points: Annotated[int, Field(ge=1, le=10)]
    nation: Slug


class NationTotal(Row):
    nation: Slug
    points: Count


class VictoryFile(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")
    modes: list[Mode]
    city_targets: list[Target]
    cities: list[City]
    nation_totals: list[NationTotal]


class Cost(Row):
    location: Slug
    cost: Count


class Recruit(Row):
    nth: Annotated[int, Field(ge=1, le=10)]
    major: Count
    minor: Count


class Band(Row):
    low: Count
    high: Count
    loss: Count


class UnitRow(Row):
    unit: Slug


class LendLease(Row):
    per_turn: Count
    per_transport: Count
    load_from: list[Slug]
    unload_zones: list[Slug]
    receivers: list[Slug]
    giver: Slug


class EconomyFile(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")
    ic_costs: list[Cost]
    minor_vc_points: Value
    authoritarian: list[Slug]
    authoritarian_infantry: list[Cost]
    democratic_infantry: list[Recruit]
    production_cap_factor: Value
    two_turn_builds: list[UnitRow]
    interruption: list[Band]
    interruption_cycles: Value
    desert_upkeep: Value
    convoy_hit: Value
    convoy_slack: Value
    lend_lease: LendLease


class Tech(Row):
    id: Slug
    boxes: Annotated[int, Field(ge=1, le=20)]
    start: dict[Slug, Count]


class Capacity(Row):
    power: Slug
    free: Count
    purchasable: Count


class Pair(Row):
    powers: list[Slug] = Field(min_length=2, max_length=2)


class Cheaper(Row):
    """One of Advanced Production's price cuts; ``optional`` marks a unit of the optional rules
    (``data/optional.yaml``), which the Revised module lacks and so is not checked against it."""

    unit: Slug
    by: Count
    optional: bool = False


class ResearchFile(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")
    die_cost: Value
    box_hit: Value
    minor_boxes: Value
    transfer_pairs: list[Pair]
    techs: list[Tech]
    capacity: list[Capacity]
    cheaper: list[Cheaper]


class Rolls(Row):
    power: Slug
    rolls: Count


class Modifier(Row):
    id: Slug
    bonus: Count


class Threshold(Row):
    id: Slug
    at: Annotated[int, Field(ge=1, le=5)]


class Neutral(Row):
    territory: Slug
    income: Count
    army: dict[Slug, Count]
    position: Annotated[int, Field(ge=-5, le=5)]
    extreme: bool = False
    part_of: Slug | None = None


class DiplomacyFile(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")
    rolls: list[Rolls]
    hit: Value
    target_range: Value
    modifiers: list[Modifier]
    thresholds: list[Threshold]
    neutrals: list[Neutral]


class Adjacency(Row):
    between: list[Slug] = Field(min_length=2, max_length=2)


class Gate(Row):
    id: Slug
    sea_zones: list[Slug] = Field(min_length=2)
    controlled_by: list[Slug] = Field(min_length=1)


class Terrain(Row):
    territory: Slug
    kind: Annotated[str, Field(pattern=r"^(desert|snowy|mountain|extreme|miniature)$")]


class Xenophobia(Row):
    closed_to: list[Slug]
    owner: Slug
    also: list[Slug]
    lifted_by: Slug


class NonCooperation(Row):
    apart: list[Slug]
    from_: list[Slug] = Field(alias="from")
    until_taken: list[Slug]


class Strait(Row):
    territory: Slug
    sea_zones: list[Slug] = Field(min_length=2, max_length=2)


class PowerList(Row):
    powers: list[Slug]


class Team(Row):
    alliance: Slug
    powers: list[Slug] = Field(min_length=1)


class MapChanges(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")
    adjacencies: list[Adjacency]
    gates: list[Gate]
    terrain: list[Terrain]
    miniature_limit: Value
    xenophobia: Xenophobia
    non_cooperation: NonCooperation
    straits: list[Strait]
    first_round: PowerList
    teams: list[Team]


GoalKind = Annotated[
    str,
    Field(
        pattern=r"^(hold|never-lost|captured|income-reached|income-above|income-over|first-capture|any|majority"
        r"|none-held|no-enemy-near)$"
    ),
]


class Part(BaseModel):
    """One condition of a national goal (``any`` goals have several)."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    kind: GoalKind
    places: list[Slug] = Field(default_factory=list)
    regions: list[Slug] = Field(default_factory=list)
    by: Slug | list[Slug] | None = None
    by_nation: Slug | None = None
    unless_neutral: bool = False
    original: bool = False
    original_islands: bool = False
    amount: Count | None = None
    rival: Slug | None = None


class Goal(Part):
    """A national goal (S3:L250-252) with its nation, id and provenance."""

    nation: Slug
    id: Slug
    parts: list[Part] = Field(default_factory=list)
    provenance: str

    @field_validator("provenance")
    @classmethod
    def _source(cls, value: str) -> str:
        return check_source(value)


class Region(Row):
    id: Slug
    places: list[Slug]


class GoalsFile(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")
    picked: Value  # goals each nation writes down in secret before play (National Victory)
    regions: list[Region]
    goals: list[Goal]


class Tables(BaseModel):
    """All the variant's data, one attribute per file."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    victory: VictoryFile
    economy: EconomyFile
    research: ResearchFile
    diplomacy: DiplomacyFile
    map: MapChanges
    goals: GoalsFile

    def provenances(self) -> list[str]:
        """Every record's provenance (for the coverage check: each cites S3 or says why not)."""
        found: list[str] = []

        def walk(value: Any) -> None:
            if isinstance(value, (Row, Goal)):
                found.append(value.provenance)
            if isinstance(value, BaseModel):
                for name in type(value).model_fields:
                    walk(getattr(value, name))
            elif isinstance(value, list):
                for item in value:
                    walk(item)

        walk(self)
        return found


def parse_tables(files: dict[str, Any]) -> Tables:
    """Validate the files' contents; :raises DataError: naming each field that is wrong."""
    try:
        return Tables.model_validate(files)
    except ValidationError as error:
        lines = [
            f"{'.'.join(str(part) for part in problem['loc'])}: {problem['msg']}"
            for problem in error.errors()
        ]
        raise DataError("the AARHE tables have problems:\n  " + "\n  ".join(lines)) from None


def cross_problems(tables: Tables, module: MapModule) -> list[str]:
    """What the tables say that the Revised module contradicts (unknown places, powers, units)."""
    places, powers, units = set(module.territories), set(module.powers), set(module.unit_types)
    problems: list[str] = []

    def need(kind: str, known: set[str], *names: str) -> None:
        problems.extend(f"unknown {kind} {name!r}" for name in names if name not in known)

    v, e, r, d, m = tables.victory, tables.economy, tables.research, tables.diplomacy, tables.map
    need("territory", places, *(c.territory for c in v.cities))
    need("power", powers | {"neutral"}, *(c.nation for c in v.cities))
    for total in v.nation_totals:
        listed = sum(c.points for c in v.cities if c.nation == total.nation)
        if listed != total.points:
            problems.append(f"{total.nation}'s cities add up to {listed} points, not {total.points}")
    need("power", powers, *e.authoritarian, *(c.power for c in r.capacity), *(x.power for x in d.rolls))
    need("unit", units, *(u.unit for u in e.two_turn_builds), *(c.unit for c in r.cheaper if not c.optional))
    need("territory", places, *e.lend_lease.load_from, *e.lend_lease.unload_zones)
    for tech in r.techs:
        need("power", powers, *tech.start)
        problems.extend(
            f"{tech.id} starts {n} of {tech.boxes} boxes" for n in tech.start.values() if n >= tech.boxes
        )
    for neutral in d.neutrals:
        need("territory", places, neutral.territory)
        need("unit", units, *neutral.army)
    need(
        "territory", places, *(a for x in m.adjacencies for a in x.between), *(t.territory for t in m.terrain)
    )
    need("territory", places, *(z for g in m.gates for z in (*g.sea_zones, *g.controlled_by)))
    need("territory", places, *m.xenophobia.also, m.xenophobia.lifted_by, *m.non_cooperation.until_taken)
    need("power", powers, *(p for t in m.teams for p in t.powers), *m.first_round.powers)
    regions = {r.id for r in tables.goals.regions}
    need("territory", places, *(p for r in tables.goals.regions for p in r.places))
    for goal in tables.goals.goals:
        need("power", powers, goal.nation)
        for part in (goal, *goal.parts):
            need("territory", places, *part.places)
            need("region", regions, *part.regions)
    return problems


def read_files(directory: Path = DATA_DIR) -> dict[str, Any]:
    """The raw contents of the data files; :raises DataError: when one is missing or not YAML."""
    files: dict[str, Any] = {}
    for name in FILES:
        path = directory / f"{name}.yaml"
        try:
            files[name] = yaml.safe_load(path.read_text(encoding="utf-8"))
        except (OSError, yaml.YAMLError) as error:
            raise DataError(f"cannot read the AARHE table {path.name}: {error}") from None
    return files


@cache
def shipped_tables() -> Tables:
    """The shipped ``data/`` files, validated (read once)."""
    return parse_tables(read_files())


def load_tables(module: MapModule) -> Tables:
    """The variant's checked tables for ``module`` (the shipped ``data/`` files)."""
    tables = shipped_tables()
    problems = cross_problems(tables, module)
    if problems:
        raise DataError("the AARHE tables do not fit the map:\n  " + "\n  ".join(problems))
    return tables
