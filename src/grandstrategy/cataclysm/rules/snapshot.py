"""The facts of one state for occupation limits (LR 7.1): control, friendly areas, ports, naval
range and the units by area, worked out at most once per state (:class:`Snapshot`); what does not
depend on where the units stand goes into the shared
:class:`~grandstrategy.cataclysm.rules.map_graph.Position`.

One job: derived state for :mod:`occupation`, which holds the rules that read it.
"""

from __future__ import annotations

from grandstrategy.cataclysm.module import Module
from grandstrategy.cataclysm.module.schema import BaseKind, Ideology
from grandstrategy.cataclysm.module.world import area_controller
from grandstrategy.cataclysm.rules.control import at_war, belligerent, friendly_powers
from grandstrategy.cataclysm.rules.frozen import memo_of
from grandstrategy.cataclysm.rules.map_graph import (
    Makeup,
    Position,
    StopKey,
    StopKind,
    graph_of,
)
from grandstrategy.cataclysm.rules.special import delay_box_ignored
from grandstrategy.cataclysm.state import CataclysmState, Unit


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
        self._fliers: dict[str, tuple[set[str], set[str]]] | None = None
        """By power, the areas of its units that block naval movement and those that block air
        movement (:attr:`MapGraph.blocks`)."""
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

    def position(self) -> Position:
        """The state's :class:`Position`, found once per snapshot (see :meth:`_shared`)."""
        return self._shared()

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
            fliers = self._fliers
            if fliers is None:
                fliers = self._fliers = {}
                blocks = self.graph.blocks
                for unit in self.state.units:
                    how = blocks.get(unit.type)
                    if how is not None:
                        held = fliers.get(unit.power)
                        if held is None:
                            held = fliers[unit.power] = (set(), set())
                        if how[0]:
                            held[0].add(unit.area)
                        if how[1]:
                            held[1].add(unit.area)
            naval: set[str] = set()
            air: set[str] = set()
            for other, (by_sea, by_air) in fliers.items():
                if self.enemy(power, other):
                    naval |= by_sea
                    air |= by_air
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
