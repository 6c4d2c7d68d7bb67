"""Facts for occupation limits (LR 7.1) shared across states: the map's, computed once per module
(adjacency by kind of move, per-area flags, printed caps, the vocabulary of caps in :data:`KEYS`),
and each :class:`Position`'s, kept by the module's :class:`MapGraph` for the states that share a
:func:`position_key`.

A :class:`~grandstrategy.cataclysm.rules.snapshot.Snapshot` (one state) fills a position in;
:mod:`occupation` holds the rules that read them.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Literal

from grandstrategy.cataclysm.module import Module
from grandstrategy.cataclysm.module.scenario_checks import occupation_limits
from grandstrategy.cataclysm.module.schema import AreaStatus, AreaType, BaseKind, SpecialBase
from grandstrategy.cataclysm.rules.recall import Recall, sharing_cubes
from grandstrategy.cataclysm.state import CataclysmState, Unit

UNLIMITED = 99
"""The cap given for a remote area to its controller (LR 2.2.8: any number of units)."""

SUBMARINE = "submarine-pack"
STRATEGIC_AIR = "strategic-air"
FORTRESS = "fortress"
LOGISTICS = "logistics"

KEYS = ("land", "naval", "air", "logistics", "fortress", "chinese-army", "fleet", "tactical-air")
_PARENT = {"fortress": "land", "chinese-army": "land", "fleet": "naval", "tactical-air": "air"}

UnitClass = Literal["land", "naval", "air", "logistics"]
UnitSpec = Unit | tuple[str, str]
StopKind = tuple[tuple[str, ...], bool]
"""What :func:`stop_allowed` asks of a unit type (see :attr:`MapGraph.stop_kind`)."""
Makeup = tuple[tuple[str, str], ...]
"""The (power, type) of each unit counted in an area, in the state's order."""
StopKey = tuple[str, StopKind, str, bool, bool, Makeup]
"""What a :func:`stop_allowed` answer depends on besides the position: the power, the kind of unit,
the area, ``during_op``, ``target`` and the units counted there."""


# -- map facts, once per module ------------------------------------------------------------------


class MapGraph:
    """Adjacency by kind of movement and per-area flags of one module, computed once."""

    def __init__(self, module: Module) -> None:
        self.module = module
        self.land: dict[str, tuple[str, ...]] = {}
        self.naval: dict[str, tuple[str, ...]] = {}
        self.air: dict[str, tuple[str, ...]] = {}
        self.naval_coast: dict[tuple[str, str], tuple[str, ...]] = {}
        self.coast_of: dict[tuple[str, str], str] = {}
        self.bases: dict[str, tuple[tuple[str, BaseKind, str | None], ...]] = {}
        for area in module.areas.values():
            self.land[area.id] = tuple(dict.fromkeys(module.adjacent(area.id, "land")))
            self.naval[area.id] = tuple(dict.fromkeys(module.adjacent(area.id, "naval")))
            self.air[area.id] = tuple(dict.fromkeys(module.adjacent(area.id, "air")))
            if area.coasts:
                for coast, seas in area.coasts.items():
                    self.naval_coast[(area.id, coast)] = tuple(t for t in self.naval[area.id] if t in seas)
                    for sea in seas:
                        self.coast_of[(area.id, sea)] = coast
            self.bases[area.id] = tuple(
                (f"{area.id}#{index}", base.kind, base.owner) for index, base in enumerate(area.bases)
            )
        self.sea = frozenset(a.id for a in module.areas.values() if a.type is AreaType.SEA)
        self.land_type = frozenset(a.id for a in module.areas.values() if a.type is AreaType.LAND)
        self.owner: dict[str, str] = {
            a.id: a.owner
            for a in module.areas.values()
            if a.owner is not None and a.owner in module.powers and a.type is not AreaType.SEA
        }
        self.port_candidates = tuple(
            a.id for a in module.areas.values() if a.coastal or (a.type is AreaType.SEA and a.bases)
        )
        self.mixed = frozenset(a.id for a in module.areas.values() if a.type is AreaType.MIXED)
        self.coastal = frozenset(a.id for a in module.areas.values() if a.coastal or a.type is AreaType.SEA)
        self.special_coastal = frozenset(a.id for a in module.areas.values() if a.special_coastal)
        self.remote = frozenset(a.id for a in module.areas.values() if a.remote)
        self.delay_box = frozenset(a.id for a in module.areas.values() if a.delay_box)
        self.wnt_zone = frozenset(a.id for a in module.areas.values() if a.wnt_zone)
        self.homes: dict[str, frozenset[str]] = {
            power: frozenset(
                a.id for a in module.areas.values() if a.owner == power and a.status is AreaStatus.HOME
            )
            for power in module.powers
        }
        self.unit_class: dict[str, UnitClass] = {t.id: t.unit_class for t in module.unit_types.values()}
        self.counted: dict[str, tuple[str, ...]] = {
            unit_type: _counted_keys(unit_type, unit_class)
            for unit_type, unit_class in self.unit_class.items()
        }
        """The keys of :data:`KEYS` that one unit of each type counts under (see :func:`tally`)."""
        self.blocks: dict[str, tuple[bool, bool]] = {
            unit_type: (unit_class == "naval" or unit_type == STRATEGIC_AIR, unit_class == "air")
            for unit_type, unit_class in self.unit_class.items()
            if unit_class in ("naval", "air")
        }
        """For naval and air unit types: whether an enemy unit of the type blocks naval movement (a
        naval unit or strategic air force) and whether it blocks air movement (an air unit)."""
        self.stop_kind: dict[str, StopKind] = {
            unit_type: (keys, unit_type == LOGISTICS) for unit_type, keys in self.counted.items()
        }
        """What :func:`stop_allowed` asks of a unit type: the keys it counts under, and whether it is
        a logistics unit. Types alike in both get the same answers."""
        self.special_base: dict[str, SpecialBase] = {
            a.id: a.special_base for a in module.areas.values() if a.special_base is not None
        }
        self.base_coast: dict[str, str] = {
            a.id: a.special_base.coast
            for a in module.areas.values()
            if a.special_base is not None and a.special_base.coast is not None and a.coasts
        }
        """Two-coast areas whose special base stands on one coast (LR 2.2.1, 2.3.3): the coast."""
        self.minor_army: dict[str, int] = {
            a.id: a.minor_army.count for a in module.areas.values() if a.minor_army is not None
        }
        self.not_sea = tuple(a.id for a in module.areas.values() if a.type is not AreaType.SEA)
        self.coastal_land = frozenset(self.coastal - self.sea)
        self.sea_bases = tuple(a for a in self.sea if self.bases[a])
        """Sea areas with printed bases."""
        self._in_play: dict[tuple[str, ...], frozenset[str]] = {}
        self._uncontested: dict[frozenset[str], dict[str, str | None]] = {}
        self._printed_caps: dict[tuple[str, bool, bool], dict[str, int]] = {}

    def position(self, state: CataclysmState) -> Position:
        """The :class:`Position` of the state: shared with earlier states of the same :func:`position_key`.

        Found by comparing the fields the key is made of (:func:`_position_fields`, equal exactly
        when the keys are equal) with those of the last few positions, which is cheaper than
        building and hashing the key."""
        answers = _POSITIONS.answers(self.module, state)
        found = answers.get("position")
        if found is None:
            found = answers["position"] = Position()
        assert isinstance(found, Position)
        return found

    def printed_caps(self, area_id: str, logistics: bool, restricted: bool) -> dict[str, int]:
        """The caps of a land or mixed area from its printed limits (LR 7.1.1, 7.1.3), every key of
        :data:`KEYS` given; see :func:`caps`. A shared dict: do not change it."""
        key = (area_id, logistics, restricted)
        found = self._printed_caps.get(key)
        if found is None:
            found = _zeros()
            found.update(occupation_limits(self.module, area_id, logistics, restricted=restricted))
            found["chinese-army"] = 1
            found["fleet"] = found["naval"]
            found["tactical-air"] = found["air"]
            self._printed_caps[key] = found
        return found

    def uncontested(self, active: frozenset[str]) -> dict[str, str | None]:
        """The controller of each land or mixed area holding no cube, given the powers still in play.

        That is its owner while the owner is active, else nobody (LR 2.2.4). A shared dict: do not
        change it.
        """
        found = self._uncontested.get(active)
        if found is None:
            owners = self.owner
            found = {}
            for area_id in self.not_sea:
                owner = owners.get(area_id)
                found[area_id] = owner if owner in active else None
            self._uncontested[active] = found
        return found

    def in_play(self, maps: Iterable[str]) -> frozenset[str]:
        key = tuple(sorted(maps))
        found = self._in_play.get(key)
        if found is None:
            found = self._in_play[key] = frozenset(self.module.in_play_ids(key))
        return found

    def naval_from(self, area_id: str, coast: str | None) -> tuple[str, ...]:
        """Areas one naval move from the area; only one coast's seas for a unit on that coast."""
        if coast is not None and (area_id, coast) in self.naval_coast:
            return self.naval_coast[(area_id, coast)]
        return self.naval[area_id]


def _counted_keys(unit_type: str, unit_class: UnitClass) -> tuple[str, ...]:
    if unit_type == FORTRESS:
        return (unit_class, "fortress")
    if unit_class == "naval" and unit_type != SUBMARINE:
        return (unit_class, "fleet")
    if unit_class == "air" and unit_type != STRATEGIC_AIR:
        return (unit_class, "tactical-air")
    return (unit_class,)


_GRAPHS: dict[int, tuple[Module, MapGraph]] = {}


def graph_of(module: Module) -> MapGraph:
    """The module's :class:`MapGraph`, built on first use and then kept (modules are few and immutable)."""
    hit = _GRAPHS.get(id(module))
    if hit is not None and hit[0] is module:
        return hit[1]
    graph = MapGraph(module)
    _GRAPHS[id(module)] = (module, graph)
    return graph


def _zeros() -> dict[str, int]:
    return dict.fromkeys(KEYS, 0)


# -- facts of one position, memoised for one call -----------------------------------------------

_POSITIONS_KEPT = 32


def position_key(state: CataclysmState) -> tuple[object, ...]:
    """Every field of the state that the facts of a :class:`Position` read, as one hashable value.

    The maps, cubes, which powers are in play, alliances, wars and armistices, Chinese and minor
    armies, special bases, base owners and markers (plus surrenders and transfers, to be safe). It
    leaves out the units and everything else that changes from one action to the next.
    """
    return (
        tuple(state.maps),
        tuple([(area, tuple(held.items())) for area, held in state.cubes.items()]),
        tuple([(power, line.active) for power, line in state.powers.items()]),
        tuple([(ideology, tuple(members)) for ideology, members in state.alliances.items()]),
        tuple([(tuple(a), tuple(b)) for a, b in state.wars]),
        tuple([tuple(pair) for pair in state.peace]),
        tuple(state.chinese_armies.items()),
        tuple(state.minor_armies),
        tuple(state.special_bases),
        tuple(state.base_owners.items()),
        tuple(state.markers),
        tuple(state.surrenders),
        tuple([tuple(item) for item in state.transfers]),
    )


def _position_fields(state: CataclysmState) -> tuple[object, ...]:
    """The fields :func:`position_key` reads, as live objects to compare: two states' fields are
    equal exactly when their keys are. Dicts compare without regard to order, so the order of
    their keys is added (and, for cubes, the order of the holders of each area held by several)."""
    cubes = state.cubes
    return (
        state.maps,
        cubes,
        list(cubes),
        [(area, list(held)) for area, held in cubes.items() if len(held) > 1],
        [(power, line.active) for power, line in state.powers.items()],
        state.alliances,
        list(state.alliances),
        state.wars,
        state.peace,
        state.chinese_armies,
        list(state.chinese_armies),
        state.minor_armies,
        state.special_bases,
        state.base_owners,
        list(state.base_owners),
        state.markers,
        state.surrenders,
        state.transfers,
    )


_POSITIONS = Recall(_position_fields, size=_POSITIONS_KEPT, copy=sharing_cubes(1))
"""The positions of the last few distinct :func:`position_key` values (see :mod:`.recall`)."""


class Position:
    """Facts of a state that do not depend on where its units stand, worked out once and shared.

    Control, friendly areas, ports, airfields, naval range and caps read only the fields in
    :func:`position_key`, and whether a unit may stop in an area reads those and the units already
    there (kept under them); the states of one game share those fields for many actions in a row
    (a deployment moves units and nothing else). Each :class:`MapGraph` keeps the positions of the
    last few keys. A snapshot computes what is missing from its own state, whose key is the
    position's, so every entry is a function of the key (and of what its own key names).
    """

    __slots__ = (
        "airfields",
        "caps",
        "controllers",
        "empty_stops",
        "friendly_areas",
        "friends",
        "ports",
        "ranges",
        "sets",
        "special",
        "stops",
    )

    def __init__(self) -> None:
        self.controllers: dict[str, str | None] | None = None
        self.friends: dict[str, frozenset[str]] = {}
        self.friendly_areas: dict[str, frozenset[str]] = {}
        self.special: dict[tuple[str, BaseKind | None], frozenset[str]] = {}
        self.ports: dict[str, set[str]] = {}
        self.airfields: dict[str, frozenset[str]] = {}
        self.ranges: dict[str, set[str]] = {}
        self.caps: dict[tuple[str, str, bool, bool], dict[str, int]] = {}
        self.stops: dict[StopKey, bool] = {}
        """:func:`stop_allowed` answers (see :data:`StopKey`)."""
        self.empty_stops: dict[tuple[str, StopKind], tuple[set[str], set[str]]] = {}
        """For :func:`stops_in_empty`: the areas asked about so far, and those among them allowed."""
        self.sets: dict[tuple[object, ...], frozenset[str]] = {}
        """Callers' own sets of areas, by a key naming the set and all it depends on besides the position."""
