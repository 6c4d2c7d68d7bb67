"""Occupation limits (LR 7.1): how many units of one ideology may stand in an area, and where.

Limits are counted per ideology per area. :func:`limits` gives the caps for one power's ideology,
keyed by what they count:

``land``, ``naval``, ``air``, ``logistics``
    every unit of that class (minor and Chinese armies count as land units of the ideology of
    the area's controller, LR 2.4.4, 11.4.1);
``fortress``
    fortresses (LR 7.1.1);
``chinese-army``
    Chinese armies (LR 7.1.1, 11.4.1);
``fleet``
    naval units other than submarine packs: in a sea area a belligerent may hold one sub pack
    (only) two areas from a friendly port (LR 7.1.2), so ``naval`` may exceed ``fleet`` there;
``tactical-air``
    air units other than strategic air forces: a belligerent may hold one strategic air force
    (only) next to a friendly airfield (LR 7.1.2), so ``air`` may exceed ``tactical-air``.

A set of units fits when, for every key, the units it counts are no more than its cap. The
allowances of LR 7.1.2 are not cumulative within a type: each cap is the best single allowance.

The map facts every question needs are computed once per module (:func:`graph_of`); the facts
that depend on the state are computed at most once per call (:class:`Snapshot`), which also
remembers its answers to :func:`stop_allowed` and to the caps, so a call asking about many units
(a deployment, say) pays for each distinct question once. Facts that do not depend on where the
units stand (control, friendly areas, ports, naval range, caps) live in a :class:`Position`, shared
by the snapshots of every state with the same :func:`position_key`: the states of one game keep
those fields for many actions in a row.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from typing import Literal

from grandstrategy.cataclysm.module import Module
from grandstrategy.cataclysm.module.scenario_checks import occupation_limits
from grandstrategy.cataclysm.module.schema import AreaStatus, AreaType, BaseKind, Ideology, SpecialBase
from grandstrategy.cataclysm.module.world import area_controller
from grandstrategy.cataclysm.rules.control import at_war, belligerent, friendly_powers
from grandstrategy.cataclysm.rules.frozen import memo_of
from grandstrategy.cataclysm.rules.recall import Recall
from grandstrategy.cataclysm.rules.special import delay_box_ignored, ignores_restricted
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


_POSITIONS = Recall(_position_fields, size=_POSITIONS_KEPT)
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


def snapshot(module: Module, state: CataclysmState) -> Snapshot:
    """A :class:`Snapshot` of the state: a new one, or while the state is frozen (see
    :mod:`~grandstrategy.cataclysm.rules.frozen`) the one shared by every question asked of it."""
    memo = memo_of(state)
    if memo is None:
        return Snapshot(module, state)
    key = ("snapshot", id(module))
    found = memo.get(key)
    if found is None or found.module is not module:
        found = memo[key] = Snapshot(module, state)
    assert isinstance(found, Snapshot)
    return found


class Snapshot:
    """Read-only questions about one state, each answered at most once (the state must not change).

    Questions about single areas are answered lazily. Questions about every area at once
    (:meth:`controllers`, :meth:`friendly_areas`, :meth:`ports`, :meth:`airfields`,
    :meth:`in_naval_range`, ...) are answered from the state's :class:`Position`, shared with
    earlier snapshots of states that differ only in their units and counters; so are the caps and
    :func:`stop_allowed` once the position is in use. For its callers the snapshot keeps
    :attr:`searches` (the result of one named search) and :meth:`shared_sets` (sets of areas that
    depend on the position and what their keys name), so that searches for many units, and for the
    same units in the next states, share their work.
    """

    def __init__(self, module: Module, state: CataclysmState) -> None:
        self.module = module
        self.state = state
        self.graph = graph_of(module)
        self.in_play = self.graph.in_play(state.maps)
        self._position: Position | None = None
        self._controller: dict[str, str | None] = {}
        self._friendly: dict[tuple[str, str], bool] = {}
        self._friendly_area: dict[tuple[str, str], bool] = {}
        self._war: dict[tuple[str, str], bool] = {}
        self._belligerent: dict[str, bool] = {}
        self._units: dict[str, list[Unit]] | None = None
        self._makeup: dict[str, Makeup] = {}
        self._minors = set(state.minor_armies)
        self._port: dict[tuple[str, str], bool] = {}
        self._airfield: dict[tuple[str, str], bool] = {}
        self._blockers: dict[str, tuple[frozenset[str], frozenset[str]]] = {}
        self._fliers: list[tuple[str, str, bool, bool]] | None = None
        """(power, area, blocks naval movement, blocks air movement) of each naval and air unit."""
        self.caps_memo: dict[tuple[str, str, bool, bool], dict[str, int]] = {}
        """Caps by (power, area, during_op, logistics), shared read-only: see :func:`caps`."""
        self.stops: dict[StopKey, bool] = {}
        """:func:`stop_allowed` answers (see :data:`StopKey`); the position's once that is in use."""
        self.searches: dict[tuple[str | None, ...], frozenset[str]] = {}
        """Results of searches over the map, by a key naming the search and all it depends on."""

    def _shared(self) -> Position:
        """The state's position, found (or made) on first use; the snapshot's caps and stops join it."""
        found = self._position
        if found is None:
            found = self._position = self.graph.position(self.state)
            found.caps.update(self.caps_memo)
            self.caps_memo = found.caps
            found.stops.update(self.stops)
            self.stops = found.stops
            if found.controllers is not None:
                self._controller = found.controllers
        return found

    def empty_stop_sets(self, power: str, kind: StopKind) -> tuple[set[str], set[str]]:
        """The position's record for :func:`stops_in_empty` (to be filled in, never otherwise changed)."""
        shared = self._shared().empty_stops
        found = shared.get((power, kind))
        if found is None:
            found = shared[(power, kind)] = (set(), set())
        return found

    def shared_sets(self) -> dict[tuple[object, ...], frozenset[str]]:
        """The position's memo of sets of areas (see :attr:`Position.sets`); keys name what the set
        depends on besides the position's fields."""
        return self._shared().sets

    # powers ------------------------------------------------------------------------------------

    def ideology(self, power: str) -> Ideology:
        return self.module.powers[power].ideology

    def friendly(self, power: str, other: str) -> bool:
        """LR 6.1.2: the same power, or allies that are both belligerent."""
        if power == other:
            return True
        key = (power, other)
        found = self._friendly.get(key)
        if found is None:
            found = self._friendly[key] = friendly_powers(self.module, self.state, power, other)
        return found

    def enemy(self, power: str, other: str) -> bool:
        if power == other:
            return False
        key = (power, other)
        found = self._war.get(key)
        if found is None:
            found = self._war[key] = at_war(self.state, power, other)
        return found

    def belligerent(self, power: str) -> bool:
        found = self._belligerent.get(power)
        if found is None:
            found = self._belligerent[power] = belligerent(self.state, power)
        return found

    def friends(self, power: str) -> frozenset[str]:
        """The module's powers friendly to ``power`` (:meth:`friendly`), the power itself included."""
        shared = self._shared().friends
        found = shared.get(power)
        if found is None:
            found = shared[power] = frozenset(
                other for other in self.module.powers if self.friendly(power, other)
            )
        return found

    # areas -------------------------------------------------------------------------------------

    def controller(self, area_id: str) -> str | None:
        try:
            return self._controller[area_id]
        except KeyError:
            pass
        return self._control(area_id)

    def controllers(self) -> dict[str, str | None]:
        """The controller of every land and mixed area, all at once (a shared dict: do not change it).

        Sea areas asked about one at a time (:meth:`controller`) may be in it too, as None.
        """
        shared = self._shared()
        found = shared.controllers
        if found is None:
            powers = self.state.powers
            active = frozenset(power for power, line in powers.items() if line.active)
            found = dict(self.graph.uncontested(active))
            for area_id, cubes in self.state.cubes.items():
                if cubes and area_id in found:
                    found[area_id] = self._control(area_id)
            found.update(self._controller)
            shared.controllers = self._controller = found
        return found

    def _control(self, area_id: str) -> str | None:
        powers = self.state.powers
        cubes = self.state.cubes.get(area_id)
        found: str | None
        if not cubes:  # the owner of an untouched home or colony area, if still in the game
            owner = self.graph.owner.get(area_id)
            found = owner if owner in powers and powers[owner].active else None
        else:

            def active(power: str) -> bool:
                return power in powers and powers[power].active

            found = area_controller(self.module, area_id, cubes, active)
        self._controller[area_id] = found
        return found

    def friendly_areas(self, power: str) -> frozenset[str]:
        """Every area for which :meth:`friendly_area` holds, all at once."""
        shared = self._shared().friendly_areas
        found = shared.get(power)
        if found is None:
            friends = self.friends(power)
            chinese = self.state.chinese_armies
            found = shared[power] = frozenset(
                area_id
                for area_id, holder in self.controllers().items()
                if holder in friends and area_id not in chinese
            )
        return found

    def friendly_area(self, power: str, area_id: str) -> bool:
        """A land or mixed area held by the power or a friendly one; never a Chinese-army country."""
        if self._position is not None:
            bulk = self._position.friendly_areas.get(power)
            if bulk is not None:
                return area_id in bulk
        key = (power, area_id)
        found = self._friendly_area.get(key)
        if found is None:
            if area_id in self.graph.sea or area_id in self.state.chinese_armies:
                found = False
            else:
                holder = self.controller(area_id)
                found = holder is not None and self.friendly(power, holder)
            self._friendly_area[key] = found
        return found

    def enemy_area(self, power: str, area_id: str) -> bool:
        holder = self.controller(area_id)
        return holder is not None and self.enemy(power, holder)

    def units_in(self, area_id: str) -> list[Unit]:
        """The units standing in the area (the snapshot's own list: do not change it)."""
        return self.occupied().get(area_id, [])

    def occupied(self) -> dict[str, list[Unit]]:
        """The units standing in each area holding any (the snapshot's own dict: do not change it)."""
        if self._units is None:
            self._units = {}
            for unit in self.state.units:
                self._units.setdefault(unit.area, []).append(unit)
        return self._units

    def makeup(self, area_id: str) -> Makeup:
        """The (power, type) of each unit standing in the area."""
        found = self._makeup.get(area_id)
        if found is None:
            found = self._makeup[area_id] = tuple([(u.power, u.type) for u in self.units_in(area_id)])
        return found

    def blockers(self, power: str) -> tuple[frozenset[str], frozenset[str]]:
        """Areas holding an enemy naval unit or strategic air force, and areas holding an enemy air unit."""
        found = self._blockers.get(power)
        if found is None:
            if self._fliers is None:
                classes = self.graph.unit_class
                self._fliers = []
                for unit in self.state.units:
                    unit_class = classes[unit.type]
                    if unit_class in ("naval", "air"):
                        blocks_naval = unit_class == "naval" or unit.type == STRATEGIC_AIR
                        self._fliers.append((unit.power, unit.area, blocks_naval, unit_class == "air"))
            enemies = {other for other, _, _, _ in self._fliers if self.enemy(power, other)}
            naval: set[str] = set()
            air: set[str] = set()
            for other, area_id, blocks_naval, blocks_air in self._fliers:
                if other in enemies:
                    if blocks_naval:
                        naval.add(area_id)
                    if blocks_air:
                        air.add(area_id)
            found = self._blockers[power] = (frozenset(naval), frozenset(air))
        return found

    def bases(self, area_id: str) -> list[tuple[BaseKind, str | None]]:
        """Each base in the area with its current owner (None: unowned)."""
        owners = self.state.base_owners
        return [(kind, owners.get(key, printed)) for key, kind, printed in self.graph.bases[area_id]]

    def special_base_owner(self, area_id: str) -> str | None:
        """The owner of a special British base standing in an uncontrolled country (LR 2.3.3)."""
        special = self.graph.special_base.get(area_id)
        if special is None or area_id not in self.state.special_bases or self.controller(area_id) is not None:
            return None
        return special.owner

    def friendly_special_base(self, power: str, area_id: str, kind: BaseKind | None = None) -> bool:
        owner = self.special_base_owner(area_id)
        if owner is None or not self.friendly(power, owner):
            return False
        special = self.graph.special_base.get(area_id)
        return kind is None or kind is BaseKind.AIR or (special is not None and special.kind is kind)

    def friendly_special_bases(self, power: str, kind: BaseKind | None = None) -> frozenset[str]:
        """Every area for which :meth:`friendly_special_base` holds, all at once."""
        key = (power, kind)
        shared = self._shared().special
        found = shared.get(key)
        if found is None:
            found = shared[key] = frozenset(
                area_id
                for area_id in self.graph.special_base
                if self.friendly_special_base(power, area_id, kind)
            )
        return found

    def base_coast(self, power: str, area_id: str) -> str | None:
        """The one coast a friendly port in a two-coast area has for the power: the coast of a
        special base it uses there, the area being no friendly area (LR 2.2.1, 2.3.3); else None."""
        coast = self.graph.base_coast.get(area_id)
        if (
            coast is None
            or self.friendly_area(power, area_id)
            or not self.friendly_special_base(power, area_id, BaseKind.NAVAL)
        ):
            return None
        return coast

    def serves(self, power: str, port: str, sea: str) -> bool:
        """Whether the friendly port ``port`` serves the adjacent ``sea`` (LR 7.1.2): a special base on
        one coast of a two-coast area serves only that coast's seas (LR 2.2.1, 2.3.3)."""
        if not self.is_port(power, port):
            return False
        if port not in self.graph.base_coast:
            return True
        coast = self.base_coast(power, port)
        return coast is None or self.graph.coast_of.get((port, sea)) == coast

    def is_port(self, power: str, area_id: str) -> bool:
        """A friendly port area (LR 2.2.2, 2.3.3): a friendly coastal area or a friendly naval base."""
        if self._position is not None:
            bulk = self._position.ports.get(power)
            if bulk is not None:
                return area_id in bulk
        key = (power, area_id)
        found = self._port.get(key)
        if found is None:
            found = self._port[key] = self._is_port(power, area_id)
        return found

    def _is_port(self, power: str, area_id: str) -> bool:
        if area_id not in self.in_play:
            return False
        if area_id in self.graph.sea:
            return any(
                k is BaseKind.NAVAL and o is not None and self.friendly(power, o)
                for k, o in self.bases(area_id)
            )
        if area_id not in self.graph.coastal:
            return False
        return self.friendly_area(power, area_id) or self.friendly_special_base(
            power, area_id, BaseKind.NAVAL
        )

    def is_airfield(self, power: str, area_id: str) -> bool:
        """A friendly airfield area (LR 2.2.2): friendly land, or a friendly base of either kind."""
        if self._position is not None:
            bulk = self._position.airfields.get(power)
            if bulk is not None:
                return area_id in bulk
        key = (power, area_id)
        found = self._airfield.get(key)
        if found is None:
            found = self._airfield[key] = self._is_airfield(power, area_id)
        return found

    def _is_airfield(self, power: str, area_id: str) -> bool:
        if area_id not in self.in_play:
            return False
        if area_id in self.graph.sea:
            return any(o is not None and self.friendly(power, o) for _, o in self.bases(area_id))
        return self.friendly_area(power, area_id) or self.friendly_special_base(power, area_id)

    def ports(self, power: str) -> set[str]:
        """Every area for which :meth:`is_port` holds (a shared set: do not change it)."""
        shared = self._shared().ports
        found = shared.get(power)
        if found is None:
            graph = self.graph
            land = self.friendly_areas(power) | self.friendly_special_bases(power, BaseKind.NAVAL)
            found = set(land & graph.coastal_land & self.in_play)
            found.update(a for a in graph.sea_bases if a in self.in_play and self._is_port(power, a))
            shared[power] = found
        return found

    def airfields(self, power: str) -> frozenset[str]:
        """Every area for which :meth:`is_airfield` holds."""
        shared = self._shared().airfields
        found = shared.get(power)
        if found is None:
            graph = self.graph
            land = self.friendly_areas(power) | (self.friendly_special_bases(power) - graph.sea)
            seas = (a for a in graph.sea_bases if a in self.in_play and self._is_airfield(power, a))
            found = shared[power] = (land & self.in_play).union(seas)
        return found

    def delay_areas(self) -> frozenset[str]:
        """Every area where :meth:`delay_stops` holds."""
        shared = self._shared().sets
        found = shared.get(("delay",))
        if found is None:
            found = shared[("delay",)] = frozenset(
                a for a in self.graph.delay_box if not delay_box_ignored(self.state, a)
            )
        return found

    def naval_transit(self, power: str, area_id: str) -> bool:
        """Whether naval range may be traced through the area (world.Module.naval_transit)."""
        if area_id not in self.graph.land_type:
            return True
        return area_id in self.graph.special_coastal and self.friendly_area(power, area_id)

    def in_naval_range(self, power: str) -> set[str]:
        """Areas within naval range (2) of a friendly port, ports included (LR 7.2.2, 7.3.1).

        A shared set: do not change it.
        """
        shared = self._shared().ranges
        found = shared.get(power)
        if found is not None:
            return found
        ports = self.ports(power)
        found = set(ports)
        frontier = list(ports)
        for _ in range(2):
            following: list[str] = []
            for area_id in frontier:
                if area_id not in ports and not self.naval_transit(power, area_id):
                    continue
                onward = self.graph.naval[area_id]
                if area_id in self.graph.base_coast and area_id in ports:
                    onward = self.graph.naval_from(area_id, self.base_coast(power, area_id))
                for target in onward:
                    if target not in found and target in self.in_play:
                        found.add(target)
                        following.append(target)
            frontier = following
        shared[power] = found
        return found

    def delay_stops(self, area_id: str) -> bool:
        """Whether a unit entering the area must stop there (LR 2.3.5, 12.3.1)."""
        return area_id in self.graph.delay_box and not delay_box_ignored(self.state, area_id)

    def native_land(self, area_id: str, ideology: Ideology) -> tuple[int, int]:
        """Minor armies and Chinese armies in the area counted for this ideology (LR 2.4.4, 11.4.1)."""
        if area_id not in self._minors and area_id not in self.state.chinese_armies:
            return 0, 0
        minors = chinese = 0
        if area_id in self._minors:
            minors = self.graph.minor_army.get(area_id, 0)
        if area_id in self.state.chinese_armies:
            chinese = 1
        if not (minors or chinese):
            return 0, 0
        holder = self.controller(area_id)
        if holder is None or self.ideology(holder) is not ideology:
            return 0, 0
        return minors, chinese


# -- caps ----------------------------------------------------------------------------------------


def _zeros() -> dict[str, int]:
    return dict.fromkeys(KEYS, 0)


def caps(snap: Snapshot, power: str, area_id: str, *, during_op: bool, logistics: bool) -> dict[str, int]:
    """The caps of :func:`limits`, given whether a friendly logistics unit is (or will be) there."""
    return dict(_caps(snap, power, area_id, during_op, logistics))


def _caps(snap: Snapshot, power: str, area_id: str, during_op: bool, logistics: bool) -> dict[str, int]:
    """:func:`caps`, remembered by the snapshot: the dict is shared and must not be changed."""
    key = (power, area_id, during_op, logistics)
    found = snap.caps_memo.get(key)
    if found is None:
        found = snap.caps_memo[key] = _new_caps(
            snap, power, area_id, during_op=during_op, logistics=logistics
        )
    return found


def _new_caps(
    snap: Snapshot, power: str, area_id: str, *, during_op: bool, logistics: bool
) -> dict[str, int]:
    """The caps of :func:`caps`; the dict may be shared and must not be changed."""
    graph = snap.graph
    area = snap.module.areas[area_id]
    if area_id in graph.sea:
        return _sea_caps(snap, power, area_id, during_op=during_op, logistics=logistics)
    if area.remote:  # LR 2.2.8, 7.1.1: any number, the controller's units only
        found = _zeros()
        if snap.controller(area_id) == power:
            found = dict.fromkeys(KEYS, UNLIMITED)
            if not area.coastal:
                found["naval"] = found["fleet"] = 0
        return found
    owner = snap.special_base_owner(area_id)
    if owner is not None and not during_op and snap.friendly(power, owner):
        # LR 7.1.1, 2.3.3: as if it were that base in a sea area
        special = area.special_base
        room = 2 if logistics else 1
        found = _zeros()
        found["logistics"] = 1
        found["air"] = found["tactical-air"] = room
        if special is not None and special.kind is BaseKind.NAVAL:
            found["naval"] = found["fleet"] = room
        return found
    exempt = ignores_restricted(snap.module, snap.state, power, area_id)  # LR 12.3.1
    return graph.printed_caps(area_id, logistics, not exempt)


def _sea_caps(
    snap: Snapshot, power: str, area_id: str, *, during_op: bool, logistics: bool
) -> dict[str, int]:
    bases = snap.bases(area_id)
    naval_base = any(k is BaseKind.NAVAL and o is not None and snap.friendly(power, o) for k, o in bases)
    air_base = any(o is not None and snap.friendly(power, o) for _, o in bases)  # LR 2.3.2 design note
    room = 2 if logistics else 1
    naval = room if naval_base else 0
    air = room if air_base else 0
    fleet, tactical = naval, air
    ideology = snap.ideology(power)
    blocked = any(
        o is not None and snap.ideology(o) is not ideology and not snap.enemy(power, o) for _, o in bases
    )
    if snap.belligerent(power) and not blocked:
        graph = snap.graph
        neighbours = graph.naval[area_id]
        if any(snap.serves(power, n, area_id) for n in neighbours):
            naval = max(naval, 1)
            fleet = max(fleet, 1)
        if any(snap.is_airfield(power, n) for n in graph.air[area_id]):
            air = max(air, 1)  # a strategic air force only
        if naval < 1 and _sub_reach(snap, power, area_id):
            naval = 1  # a submarine pack only
    if during_op:
        naval, fleet, air, tactical = max(naval, 2), max(fleet, 2), max(air, 2), max(tactical, 2)
    found = _zeros()
    found["naval"], found["fleet"], found["air"], found["tactical-air"] = naval, fleet, air, tactical
    found["logistics"] = 1 if air_base else 0  # a friendly base of either kind (LR 7.1.2)
    return found


def _sub_reach(snap: Snapshot, power: str, area_id: str) -> bool:
    """Whether the sea area is at most two sea or mixed areas from a friendly port (LR 7.1.2)."""
    naval = snap.graph.naval
    for near in naval[area_id]:
        if snap.serves(power, near, area_id):
            return True
        if snap.naval_transit(power, near) and any(
            far != area_id and snap.serves(power, far, near) for far in naval[near]
        ):
            return True
    return False


# -- counting ------------------------------------------------------------------------------------


def tally(module: Module, types: Iterable[str], minors: int = 0, chinese: int = 0) -> Counter[str]:
    """Units counted under each key of :data:`KEYS`."""
    return Counter(_count(graph_of(module), types, minors, chinese))


def _count(graph: MapGraph, types: Iterable[str], minors: int, chinese: int) -> dict[str, int]:
    """:func:`tally` as a plain dict, with the same keys."""
    counted = graph.counted
    count: dict[str, int] = {}
    for unit_type in types:
        for key in counted[unit_type]:
            count[key] = count.get(key, 0) + 1
    if minors or chinese:
        count["land"] = count.get("land", 0) + minors + chinese
        count["chinese-army"] = count.get("chinese-army", 0) + chinese
    return count


def _spec(spec: UnitSpec) -> tuple[str, str, int | None]:
    if isinstance(spec, Unit):
        return spec.power, spec.type, spec.id
    power, unit_type = spec
    return power, unit_type, None


def stop_allowed(
    snap: Snapshot,
    power: str,
    unit_type: str,
    area_id: str,
    *,
    during_op: bool = False,
    excluded: Iterable[int] = (),
    target: bool = False,
) -> bool:
    """The body of :func:`may_stop` on a :class:`Snapshot`; ``excluded`` are unit ids not counted.

    The answer depends on the position and on the (power, type) of the units counted, so it is
    remembered under those (:data:`StopKey`) by the snapshot, and by its :class:`Position` once that
    is in use.
    """
    occupied = snap._units if snap._units is not None else snap.occupied()
    here = occupied.get(area_id)
    makeup: Makeup | None = None
    if here is None:
        here, makeup = [], ()
    elif excluded:
        skip = excluded if isinstance(excluded, (set, frozenset)) else set(excluded)
        if any(u.id in skip for u in here):
            here = [u for u in here if u.id not in skip]
            makeup = tuple([(u.power, u.type) for u in here])
    if makeup is None:
        makeup = snap.makeup(area_id)
    key = (power, snap.graph.stop_kind[unit_type], area_id, during_op, target, makeup)
    memo = snap.stops
    found = memo.get(key)
    if found is None:
        found = memo[key] = _stop_allowed(
            snap, power, unit_type, area_id, here, during_op=during_op, target=target
        )
    return found


def stops_in_empty(snap: Snapshot, power: str, unit_type: str, areas: frozenset[str]) -> set[str]:
    """The areas among ``areas`` that hold no unit and where :func:`stop_allowed` holds (no target,
    not during an operation), found with set operations from answers kept by the snapshot's
    :class:`Position`."""
    occupied = snap.occupied().keys()
    known, allowed = snap.empty_stop_sets(power, snap.graph.stop_kind[unit_type])
    for area_id in areas - known - occupied:
        known.add(area_id)
        if stop_allowed(snap, power, unit_type, area_id):
            allowed.add(area_id)
    found = allowed & areas
    found -= occupied
    return found


def _stop_allowed(
    snap: Snapshot,
    power: str,
    unit_type: str,
    area_id: str,
    present: list[Unit],
    *,
    during_op: bool,
    target: bool,
) -> bool:
    """:func:`stop_allowed` with the units counted in the area given (``present``)."""
    graph = snap.graph
    if area_id not in snap.in_play:
        return False
    unit_class = graph.unit_class[unit_type]
    sea = area_id in graph.sea
    if sea and unit_class == "land":
        return False
    if not sea and unit_class == "naval" and area_id not in graph.coastal:
        return False
    if area_id in graph.remote:  # LR 2.2.8: only the controller's units, any number
        return snap.controller(area_id) == power
    friendly = snap.friendly
    if not target:
        if (
            not sea
            and not snap.friendly_area(power, area_id)
            and (unit_class == "land" or not snap.friendly_special_base(power, area_id))
        ):
            return False
        # LR 7.1: no opposing (or unfriendly) unit or base may share the area
        if present and any(not friendly(power, u.power) for u in present):
            return False
        if graph.bases[area_id] and any(
            o is not None and not friendly(power, o) for _, o in snap.bases(area_id)
        ):
            return False
    ideology = snap.ideology(power)
    same = [u for u in present if snap.ideology(u.power) is ideology] if present else []
    logistics = unit_type == LOGISTICS or any(u.type == LOGISTICS and friendly(power, u.power) for u in same)
    cap = _caps(snap, power, area_id, during_op, logistics)
    minors, chinese = snap.native_land(area_id, ideology)
    if same or minors or chinese:
        count = _count(graph, [*(u.type for u in same), unit_type], minors, chinese)
        return all(value <= cap[key] for key, value in count.items())
    return all(cap[key] >= 1 for key in graph.counted[unit_type])  # the unit alone


# -- public API ----------------------------------------------------------------------------------


def limits(
    module: Module, state: CataclysmState, power: str, area_id: str, *, during_op: bool = False
) -> dict[str, int]:
    """Caps for the power's ideology in the area now (LR 7.1.1–7.1.4); keys: see :data:`KEYS`.

    A friendly logistics unit already there raises the caps; the bans on opposing units, bases and
    unfriendly areas are :func:`may_stop`'s business. ``during_op`` gives the operation's sea
    allowance (LR 7.1.2) and ignores a special base in a land area being fought over.
    """
    snap = snapshot(module, state)
    logistics = any(u.type == LOGISTICS and snap.friendly(power, u.power) for u in snap.units_in(area_id))
    return caps(snap, power, area_id, during_op=during_op, logistics=logistics)


def may_stop(
    module: Module,
    state: CataclysmState,
    unit_or_power_and_type: UnitSpec,
    area_id: str,
    *,
    during_op: bool = False,
    ignoring: Unit | None = None,
) -> bool:
    """Whether the unit (or a new unit of ``(power, type)``) could end its move in the area now (LR 7.1).

    Counts the units of the mover's ideology already there, minor and Chinese armies included;
    a :class:`Unit` never counts itself, and ``ignoring`` names one more unit not to count.
    Normally the area must be friendly (land or mixed) or a friendly special base, hold no unit or
    base of an opposing or unfriendly power, and a remote area takes only its controller's units.
    ``during_op=True`` asks about the target of an operation (attackers moving in, supporters,
    LR 9.2 step 6, 10.2): opposing units and control do not matter there, only the caps, with the
    operation's allowance at sea (two naval and two air units, LR 7.1.2).
    """
    power, unit_type, own_id = _spec(unit_or_power_and_type)
    excluded = [i for i in (own_id, ignoring.id if ignoring is not None else None) if i is not None]
    snap = snapshot(module, state)
    return stop_allowed(
        snap, power, unit_type, area_id, during_op=during_op, excluded=excluded, target=during_op
    )


def violations(module: Module, state: CataclysmState, *, exempt: Iterable[str] = ()) -> list[str]:
    """Every excess over the occupation limits, one sentence each (LR 7.1).

    The caps of an ideology are the best caps of its powers present there (they share the area,
    so they are friendly to each other, or the area is in breach anyway). ``exempt`` names areas
    not checked (for instance production sites just crowded by a new unit, LR 7.1).
    """
    snap = snapshot(module, state)
    skip = set(exempt)
    groups: dict[tuple[str, Ideology], list[Unit]] = {}
    for unit in state.units:
        groups.setdefault((unit.area, snap.ideology(unit.power)), []).append(unit)
    found: list[str] = []
    for (area_id, ideology), units in sorted(groups.items(), key=lambda item: (item[0][0], item[0][1].value)):
        if area_id in skip or area_id not in module.areas:
            continue
        best = _zeros()
        for power in sorted({u.power for u in units}):
            logistics = any(u.type == LOGISTICS and snap.friendly(power, u.power) for u in units)
            for key, value in caps(snap, power, area_id, during_op=False, logistics=logistics).items():
                best[key] = max(best[key], value)
        minors, chinese = snap.native_land(area_id, ideology)
        count = tally(module, (u.type for u in units), minors, chinese)
        for key in KEYS:
            covered = _PARENT.get(key)
            if covered is not None and count[covered] > best[covered]:
                continue  # the class is over its cap already: one sentence is enough
            if count[key] > best[key]:
                found.append(
                    f"{area_id}: {ideology.value} has {count[key]} {key} unit(s), "
                    f"at most {best[key]} (LR 7.1)"
                )
    return found


__all__ = [
    "KEYS",
    "UNLIMITED",
    "MapGraph",
    "Position",
    "Snapshot",
    "caps",
    "graph_of",
    "limits",
    "may_stop",
    "position_key",
    "stop_allowed",
    "stops_in_empty",
    "tally",
    "violations",
]
