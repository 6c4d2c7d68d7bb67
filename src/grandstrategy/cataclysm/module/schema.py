"""Pydantic models for the files of a Cataclysm module, one model per kind of record.

Each model validates one record on its own (types, ranges, allowed values). Facts that span
records, such as "a connection names two known areas", are checked in :mod:`.checks`.
Every record carries ``provenance``: where its facts come from (see :func:`provenance_kind`).
"""

from __future__ import annotations

import re
from enum import StrEnum
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

Slug = Annotated[str, Field(pattern=r"^[a-z0-9]+(?:-[a-z0-9]+)*$", min_length=1, max_length=40)]

_SOURCE = re.compile(
    r"^(?:(?:LR|QA) L\d+(?:[-–]\d+)?(?: \([^;]+\))?|V45 L\d+(?:[-–]\d+)?(?: \(p\.\d+\))?(?: \([^;]+\))?"
    r"|public: .+|reconstructed(?:: .+)?)$"
)


def _check_provenance(value: str) -> str:
    parts = [part.strip() for part in value.split(";")]
    bad = [part for part in parts if not _SOURCE.match(part)]
    if not value.strip() or bad:
        raise ValueError(
            "provenance must be '; '-separated sources, each 'LR L<line>', 'V45 L<line>', 'QA L<line>', "
            f"'public: <where>' or 'reconstructed[: <note>]'; got {value!r}"
        )
    return value


def provenance_kind(value: str) -> Literal["rules", "public", "reconstructed"]:
    """Classify a provenance string: any rules citation wins, then a public account."""
    parts = [part.strip() for part in value.split(";")]
    if any(part.startswith(("LR ", "V45 ", "QA ")) for part in parts):
        return "rules"
    if any(part.startswith("public:") for part in parts):
        return "public"
    return "reconstructed"


class Record(BaseModel):
    """Base of every record: immutable, strict about unknown fields, with a provenance."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    provenance: str

    @field_validator("provenance")
    @classmethod
    def _provenance(cls, value: str) -> str:
        return _check_provenance(value)


class Ideology(StrEnum):
    DEMOCRACY = "democracy"
    FASCISM = "fascism"
    COMMUNISM = "communism"


class Commitment(StrEnum):
    """Commitment levels in their only direction of travel (LR 4.1)."""

    CIVILIAN = "civilian"
    REARMAMENT = "rearmament"
    MOBILIZATION = "mobilization"
    TOTAL_WAR = "total-war"
    EXHAUSTION = "exhaustion"


class AreaType(StrEnum):
    LAND = "land"
    SEA = "sea"
    MIXED = "mixed"


class MapId(StrEnum):
    EUROPE = "europe"
    PACIFIC = "pacific"


class AreaStatus(StrEnum):
    HOME = "home"
    COLONY = "colony"
    COUNTRY = "country"


class ResourceKind(StrEnum):
    NATURAL = "natural"
    INDUSTRIAL = "industrial"
    SOVIET_SPECIAL = "soviet-special"


class BaseKind(StrEnum):
    NAVAL = "naval"
    AIR = "air"


class Resource(Record):
    """A printed resource, a limited-resource marker or a special (Soviet) resource (LR 2.3.8)."""

    kind: ResourceKind
    limited: bool = False
    marker: str | None = None
    appears_at: Commitment | None = None
    enters_by: Slug | None = None

    @model_validator(mode="after")
    def _limited_has_marker(self) -> Resource:
        if self.limited and not self.marker:
            raise ValueError("a limited resource needs the name of its marker ('marker')")
        if self.kind is ResourceKind.SOVIET_SPECIAL and self.appears_at is None:
            raise ValueError("a Soviet special resource needs 'appears_at' (the commitment that places it)")
        return self


class Base(Record):
    """A base printed in a sea area (LR 2.3.2); ``owner`` null means an unowned base."""

    kind: BaseKind
    owner: Slug | None = None
    name: str | None = None


class SpecialBase(Record):
    """A special British base inside a country (LR 2.3.3); used only where a scenario says so."""

    owner: Slug
    name: str
    kind: BaseKind = BaseKind.NAVAL
    coast: str | None = None


class MinorArmy(Record):
    """A country's own minor army counter (LR 2.4.4)."""

    name: str
    count: int = Field(default=1, ge=1, le=2)


class Area(Record):
    """One area of a map with every fact the rules attach to it (LR 2.2, 2.3)."""

    id: Slug
    name: str = Field(min_length=1)
    type: AreaType
    map: MapId
    pos: tuple[int, int]
    status: AreaStatus | None = None
    owner: Slug | None = None
    capital: bool = False
    chinese: bool = False
    coastal: bool = False
    coasts: dict[str, list[Slug]] | None = None
    special_coastal: bool = False
    off_map: bool = False
    remote: bool = False
    delay_box: bool = False
    adverse: bool = False
    restricted: bool = False
    resistance: int = Field(default=0, ge=0, le=2)
    resources: list[Resource] = Field(default_factory=list)
    bases: list[Base] = Field(default_factory=list)
    special_base: SpecialBase | None = None
    minor_army: MinorArmy | None = None
    wnt_zone: bool = False

    @model_validator(mode="after")
    def _consistent(self) -> Area:
        problems: list[str] = []
        if self.type is AreaType.SEA:
            for field in ("status", "owner", "special_base", "minor_army", "coasts"):
                if getattr(self, field):
                    problems.append(f"a sea area cannot have '{field}'")
            for flag in ("capital", "chinese", "coastal", "adverse", "restricted", "remote", "delay_box"):
                if getattr(self, flag):
                    problems.append(f"a sea area cannot be '{flag}'")
            if self.resources:
                problems.append("a sea area cannot hold resources")
            if self.resistance:
                problems.append("a sea area has no resistance")
        else:
            if self.status is None:
                problems.append("a land or mixed area needs 'status' (home, colony or country)")
            if self.bases:
                problems.append(
                    "bases are printed in sea areas only (LR 2.3.2); use special_base for a country"
                )
            if self.status in (AreaStatus.HOME, AreaStatus.COLONY) and not self.owner:
                problems.append(f"a {self.status.value} area needs its 'owner' power")
            if self.status is AreaStatus.COUNTRY and self.owner:
                problems.append("a country has no owner; control comes from cubes in a scenario")
            if self.capital and self.status is not AreaStatus.HOME:
                problems.append("only a home area can be a capital (LR 2.2.3)")
            if self.chinese and self.status is not AreaStatus.COUNTRY:
                problems.append("a Chinese area is always a country (LR 2.2.6)")
            if self.resistance and self.status is not AreaStatus.COUNTRY:
                problems.append("only countries have resistance (LR 2.3.7)")
            if self.type is AreaType.MIXED and not self.coastal:
                problems.append("every mixed area is coastal (LR 2.2.1)")
            if self.coasts is not None and len(self.coasts) != 2:
                problems.append("'coasts' lists exactly two separate coasts")
        if self.delay_box and not self.remote:
            problems.append("every Delay box area is also remote in the Living Rules (LR 2.2.8, 2.3.5)")
        if problems:
            raise ValueError("; ".join(problems))
        return self


ConnectionKind = Literal["border", "strait", "air", "offmap", "connector"]
MoveMode = Literal["land", "air", "naval"]


class ConnectionGroup(Record):
    """Pairs of areas joined the same way, with one provenance for the group.

    ``border`` a shared border; ``strait`` a black crossing arrow (LR 2.3.4); ``air`` a blue
    arrow, for air movement and air support only; ``offmap`` a white arrow to an off-map area
    (LR 2.2.7); ``connector`` a lettered map connector (LR 2.3.6) with the movement it allows.
    """

    kind: ConnectionKind = "border"
    label: str | None = None
    modes: list[MoveMode] | None = None
    pairs: list[tuple[Slug, Slug]] = Field(min_length=1)

    @model_validator(mode="after")
    def _connector_fields(self) -> ConnectionGroup:
        if self.kind == "connector":
            if not self.label or not self.modes:
                raise ValueError("a map connector needs a 'label' letter and its movement 'modes'")
        elif self.modes is not None:
            raise ValueError("only a map connector lists 'modes'")
        return self


class ImpassableGroup(Record):
    """Pairs of areas separated by a solid red border: never adjacent (LR 2.2)."""

    pairs: list[tuple[Slug, Slug]] = Field(min_length=1)


class MapFile(BaseModel):
    """One map file: its areas, how they connect, and the impassable borders."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    map: MapId
    title: str
    size: tuple[int, int]
    areas: list[Area]
    connections: list[ConnectionGroup] = Field(default_factory=list)
    impassable: list[ImpassableGroup] = Field(default_factory=list)


class ConnectorFile(BaseModel):
    """Connections that join the two maps (LR 2.3.6)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    connections: list[ConnectionGroup]


class StatusColumn(Record):
    """One commitment column of a power's status card (LR 2.6, 4.1)."""

    effectiveness: int = Field(ge=1, le=6)
    force_pool: int = Field(ge=0, le=60)
    conversion: Literal["2:1", "1:1", "1:2", "1:3"]
    military_actions: Literal["2:1", "1:1", "1:2", "1:3"]
    home_front: int | None = Field(default=None, ge=-3, le=0)
    dow_allowed: bool
    upgrades_allowed: bool


class Provocation(Record):
    """Opposing powers provoked when this power forms an alliance or escalates (LR 2.6, 5.2.3)."""

    alliance: list[Slug] = Field(default_factory=list)
    escalation: list[Slug] = Field(default_factory=list)


class CounterMix(Record):
    """How many of each counter a power owns: a hard limit (LR 2.4).

    ``units`` counts counters by their unupgraded side (an army counter is an infantry army
    that flips to a tank army, and so on).
    """

    units: dict[Slug, int]
    upgrade_markers: dict[Slug, int] = Field(default_factory=dict)
    offensives: int = Field(ge=0)
    flags: int = Field(ge=0)
    cubes: int = Field(ge=0)
    bases: int = Field(default=0, ge=0)


class SpecialMarker(Record):
    """A power's special-rule marker (section 12 of the rules), referenced by scenarios."""

    id: Slug
    name: str


class Power(Record):
    """A power with its ideology, colour, status card, provocation lists and counters."""

    id: Slug
    name: str
    ideology: Ideology
    colour: str = Field(pattern=r"^#[0-9a-fA-F]{6}$")
    status_card: dict[Commitment, StatusColumn]
    provocation: Provocation
    counters: CounterMix
    special_markers: list[SpecialMarker] = Field(default_factory=list)

    @field_validator("status_card")
    @classmethod
    def _all_levels(cls, value: dict[Commitment, StatusColumn]) -> dict[Commitment, StatusColumn]:
        missing = [level.value for level in Commitment if level not in value]
        if missing:
            raise ValueError(f"status card lacks the column(s): {', '.join(missing)}")
        return value


class UnitType(Record):
    """A kind of unit (LR 2.4.2); ``upgrades_to`` names the other side of its counter."""

    id: Slug
    name: str
    unit_class: Literal["land", "naval", "air", "logistics"] = Field(alias="class")
    upgrades_to: Slug | None = None
    upgraded: bool = False
    counter: Slug
    model_config = ConfigDict(frozen=True, extra="forbid", populate_by_name=True)


class PowersFile(BaseModel):
    """The unit types, the neutral cube supply and every power."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    unit_types: list[UnitType]
    neutral_cubes: int = Field(ge=0)
    powers: list[Power]


CRISIS_KEYS = tuple(f"{high}-{low}" for high in range(6, 0, -1) for low in range(high, 0, -1))


class CrisisEntry(Record):
    """One result of a crisis table: an event id that the engine knows, with its parameters."""

    name: str
    event: Slug
    params: dict[str, object] = Field(default_factory=dict)
    summary: str = ""


class CrisisFile(BaseModel):
    """Both crisis tables, keyed by the {high}-{low} reading of two dice (LR 3.7.4)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    peacetime: dict[str, CrisisEntry]
    wartime: dict[str, CrisisEntry]


class ModuleInfo(BaseModel):
    """``module.yaml``: identity of the module and the files it consists of."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    id: Slug
    title: str
    version: str
    description: str
    reconstructed: bool
    maps: list[str]
    connectors: str
    powers: str
    crisis_tables: str
    scenarios: list[str]


class Stability(StrEnum):
    """Stability track positions a power can rest on (LR 2.5, 5.5)."""

    STEADY = "steady"
    WAVERING = "wavering"
    UNSTABLE = "unstable"


class Posture(StrEnum):
    """A Communist power's posture (LR 12.3)."""

    MILITARY_REFORMS = "military-reforms"
    POLITICAL_PURGES = "political-purges"
    COLLECTIVE_SECURITY = "collective-security"


class WarStatus(StrEnum):
    NONE = "none"
    LIMITED = "limited"
    GLOBAL = "global"


class ScenarioPower(Record):
    """A power's line of the record display at the start of a scenario."""

    commitment: Commitment
    stability: Stability = Stability.STEADY
    effectiveness: int = Field(ge=1, le=6)
    vp: int


class Placement(Record):
    """Units of one power and type in one area (``coast`` for the two-coast areas)."""

    power: Slug
    type: Slug
    area: Slug
    count: int = Field(default=1, ge=1, le=9)
    coast: str | None = None


class CupContents(Record):
    """What one power has in the action cup (or, for ``reserve``, its single reserved counter)."""

    flags: int = Field(default=0, ge=0)
    offensives: int = Field(default=0, ge=0)
    units: dict[Slug, int] = Field(default_factory=dict)
    upgrade_markers: dict[Slug, int] = Field(default_factory=dict)
    home_front: bool = True


class ReserveCounter(Record):
    """The one counter a power holds in reserve (LR 3.4)."""

    kind: Literal["flag", "offensive", "resource", "unit", "upgrade"]
    type: Slug | None = None


class CivilWarSetup(Record):
    """A civil war in progress when a scenario opens (LR 11.0): its area and the powers whose aid
    sits on each faction (one entry per aid marker, taken from the power's available offensives)."""

    area: Slug
    left: list[Slug] = Field(default_factory=list)
    right: list[Slug] = Field(default_factory=list)


class ChineseArmies(Record):
    """The Chinese armies when a scenario opens (LR 11.4.1): the countries each faction holds."""

    gmd: list[Slug] = Field(default_factory=list)
    chicom: list[Slug] = Field(default_factory=list)

    @model_validator(mode="after")
    def _one_army_each(self) -> ChineseArmies:
        areas = [*self.gmd, *self.chicom]
        doubled = sorted({area for area in areas if areas.count(area) > 1})
        if doubled:
            raise ValueError(f"at most one Chinese army per country (LR 11.4.1): {', '.join(doubled)}")
        return self


class Scenario(Record):
    """A scenario: start and end, maps in play, every piece's starting place, the record display."""

    id: Slug
    title: str
    start: int = Field(ge=1933, le=1947)
    end: int = Field(ge=1933, le=1947)
    maps: list[MapId] = Field(min_length=1)
    description: str = ""
    powers: dict[Slug, ScenarioPower]
    cubes: dict[Slug, dict[str, int]] = Field(default_factory=dict)
    units: list[Placement] = Field(default_factory=list)
    markers: list[Slug] = Field(default_factory=list)
    special_bases: list[Slug] = Field(default_factory=list)
    cup: dict[Slug, CupContents] = Field(default_factory=dict)
    crisis_markers: int = Field(default=4, ge=0, le=4)
    civil_war_resolution: bool = True
    reserve: dict[Slug, ReserveCounter] = Field(default_factory=dict)
    war_status: WarStatus = WarStatus.NONE
    alliances: dict[Ideology, list[Slug]] = Field(default_factory=dict)
    wars: list[tuple[list[Slug], list[Slug]]] = Field(default_factory=list)
    postures: dict[Slug, Posture] = Field(default_factory=dict)
    civil_wars: list[CivilWarSetup] = Field(default_factory=list)
    chinese_armies: ChineseArmies | None = None

    @model_validator(mode="after")
    def _turns(self) -> Scenario:
        if self.end < self.start:
            raise ValueError(f"the scenario ends ({self.end}) before it starts ({self.start})")
        if (self.start - 1933) % 2 or (self.end - 1933) % 2:
            raise ValueError("turns cover two years from 1933-34: start and end must be odd years from 1933")
        return self
