"""The Cataclysm game state: plain, JSON-serialisable data that the rules read and change.

Static facts (the map, status cards, tables) live in the :class:`Module`; the state holds only
what changes in play: cubes, units, counters, the record display and the political display.
Counters outside the map are written in a short notation (see :func:`counter`).
"""

from __future__ import annotations

import copy
from dataclasses import asdict, dataclass, field, fields
from typing import Any

from grandstrategy.cataclysm.module import Module
from grandstrategy.cataclysm.module.schema import Commitment, Stability, WarStatus
from grandstrategy.core.errors import UserInputError


def counter(kind: str, power: str | None = None, detail: str | None = None) -> str:
    """Notation of a counter off the map: ``flag:germany``, ``unit:italy:surface-fleet``, ``crisis``."""
    return ":".join(part for part in (kind, power, detail) if part)


@dataclass
class Unit:
    """One unit on the map."""

    id: int
    power: str
    type: str
    area: str
    coast: str | None = None


_UNIT_FIELDS = ("id", "power", "type", "area", "coast")
if tuple(f.name for f in fields(Unit)) != _UNIT_FIELDS:  # pragma: no cover - guards CataclysmState.clone
    raise TypeError("Unit has new fields: copy them in CataclysmState.clone")


@dataclass
class PowerState:
    """One power's line of the record display and its status card (LR 2.5, 2.6).

    Failed political action boxes (LR 5.4): ``failed_actions`` counts the power's cubes per box;
    ``failed_special`` names the special action whose failure its cubes in the special box count
    for (the reminder marker; None in saves written before it was kept); ``alliance_partners``
    lists the powers whose failed alliance attempt with this one placed its alliance cubes.
    """

    commitment: Commitment
    stability: Stability
    active: bool = True
    effectiveness_reduced: bool = False
    escalated_this_turn: bool = False
    reserve: str | None = None
    available_flags: int = 0
    available_offensives: int = 0
    force_pool: dict[str, int] = field(default_factory=dict)
    holding_box: list[str] = field(default_factory=list)
    failed_actions: dict[str, int] = field(default_factory=dict)
    posture: str | None = None
    posture_changed: bool = False
    failed_special: str | None = None
    alliance_partners: list[str] = field(default_factory=list)

    def clone(self) -> PowerState:
        """An independent copy (the other fields are immutable and shared)."""
        data = self.__dict__.copy()
        data["force_pool"] = self.force_pool.copy()
        data["holding_box"] = self.holding_box.copy()
        data["failed_actions"] = self.failed_actions.copy()
        data["alliance_partners"] = self.alliance_partners.copy()
        new = object.__new__(PowerState)
        new.__dict__ = data
        return new


@dataclass
class CataclysmState:
    """Everything that changes during a game of Cataclysm.

    Military and civil-war fields (LR 2.4.4, 9.8, 11): ``minor_armies`` lists the areas whose
    printed minor army still stands; ``no_surprise`` the ideologies immune to surprise attack;
    ``civil_wars`` maps an area in civil war to the powers whose aid sits on each faction
    (``{"left": [...], "right": [...]}``, one entry per aid marker); ``influence`` maps an area to
    the powers with an Influence offensive there; ``chinese_armies`` maps a Chinese country to the
    faction of the army in it (``gmd`` or ``chicom``) and ``chinese_aid`` to the aid attached to
    that army; ``ccw_winner`` is the faction that won the Chinese Civil War, once it has ended.

    ``cubes`` maps an area to its holders and their cubes, in the order they came. Copies share
    those per-area dicts (:meth:`clone`), so they are never changed in place: a change puts a new
    dict in the area's place (or removes the area).
    """

    module_id: str
    scenario: str
    turn: int
    last_turn: int
    maps: list[str]
    powers: dict[str, PowerState]
    cubes: dict[str, dict[str, int]]
    units: list[Unit]
    cup: list[str]
    markers: list[str]
    special_bases: list[str]
    alliances: dict[str, list[str]]
    wars: list[tuple[list[str], list[str]]]
    war_status: WarStatus = WarStatus.NONE
    global_war_turn: int | None = None
    turn_track: dict[int, list[str]] = field(default_factory=dict)
    damaged: list[str] = field(default_factory=list)
    used_limited: list[str] = field(default_factory=list)
    base_owners: dict[str, str | None] = field(default_factory=dict)
    next_unit_id: int = 1
    phase: str = "action"
    crises_drawn: int = 0
    sudden_death: bool = False
    last_ideology: str | None = None
    economic_setback: bool = False
    result: dict[str, Any] | None = None
    surrenders: list[str] = field(default_factory=list)
    peace: list[list[str]] = field(default_factory=list)
    transfers: list[list[str]] = field(default_factory=list)
    minor_armies: list[str] = field(default_factory=list)
    no_surprise: list[str] = field(default_factory=list)
    civil_wars: dict[str, dict[str, list[str]]] = field(default_factory=dict)
    influence: dict[str, list[str]] = field(default_factory=dict)
    chinese_armies: dict[str, str] = field(default_factory=dict)
    chinese_aid: dict[str, list[str]] = field(default_factory=dict)
    ccw_winner: str | None = None
    log: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        self._sharing = False
        """Whether units may be shared with another state (see :meth:`clone`): only then are they
        copied on write."""
        self._own: dict[int, Unit] = {}
        """Units (by ``id()``) this state holds alone and may change in place (see :meth:`unit_to_change`)."""
        self._own_lines: dict[str, PowerState] = {}
        """Power lines this state holds alone and may change in place (see :meth:`line_to_change`)."""

    def __getstate__(self) -> dict[str, Any]:
        """For pickle and ``copy.deepcopy``: everything but the record of units held alone (the
        copy's units are new objects, held alone by nobody yet)."""
        data = self.__dict__.copy()
        data.pop("_own", None)
        data.pop("_own_lines", None)
        return data

    def __setstate__(self, data: dict[str, Any]) -> None:
        """Restore what :meth:`__getstate__` gave, with no unit held alone."""
        self.__dict__.update(data)
        self._own = {}
        self._own_lines = {}
        self._sharing = data.get("_sharing", False)

    def to_json(self) -> dict[str, Any]:
        """The state as plain JSON data, keys in a fixed order."""
        data = asdict(self)
        data["turn_track"] = {str(turn): items for turn, items in sorted(self.turn_track.items())}
        data["wars"] = [[list(a), list(b)] for a, b in self.wars]
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> CataclysmState:
        """Rebuild a state written by :meth:`to_json`.

        :raises ValueError: the data is not such a state.
        """
        try:
            fields = dict(copy.deepcopy(data))
            fields["powers"] = {
                power: PowerState(
                    **{
                        **line,
                        "commitment": Commitment(line["commitment"]),
                        "stability": Stability(line["stability"]),
                    }
                )
                for power, line in fields["powers"].items()
            }
            fields["units"] = [Unit(**unit) for unit in fields["units"]]
            fields["wars"] = [(list(a), list(b)) for a, b in fields["wars"]]
            fields["war_status"] = WarStatus(fields["war_status"])
            fields["turn_track"] = {int(turn): items for turn, items in fields["turn_track"].items()}
            return cls(**fields)
        except (KeyError, TypeError, ValueError) as error:
            raise ValueError(f"not a Cataclysm state: {error}") from None

    def clone(self, *, share_units: bool = False, keep_log: bool = True) -> CataclysmState:
        """An independent copy, field by field; lists of strings are copied shallowly.

        Built without ``dataclasses.replace`` (which is slow): fields not named here are immutable
        and shared. Units are copied through their ``__dict__`` (their fields are immutable values,
        see ``_UNIT_FIELDS``). With ``share_units`` (a bot's look-ahead, see
        ``CataclysmGame.fork``) they are copied on write instead: the copy and this state share
        the unit objects, and whichever changes a unit first replaces it with its own copy
        (:meth:`unit_to_change`); a unit object held from this state may then be left behind.
        The power lines go the same way (:meth:`line_to_change`): shared by a fork, copied in a
        plain copy.
        Without ``keep_log`` the copy's log starts empty (a look-ahead: no rule reads the log, and
        copying a long one for every option tried is a cost the look-ahead need not pay).
        """
        data = self.__dict__.copy()
        make = object.__new__
        if share_units:
            self._own = {}  # every unit and power line is shared from now on, on both sides
            self._own_lines = {}
            self._sharing = data["_sharing"] = True
            data["units"] = self.units.copy()
            data["powers"] = self.powers.copy()
        else:
            units = []
            for unit in self.units:
                copied = make(Unit)
                copied.__dict__ = unit.__dict__.copy()
                units.append(copied)
            data["units"] = units
            data["powers"] = {power: line.clone() for power, line in self.powers.items()}
            data["_sharing"] = False  # the copy's units and lines are its own; this state's are unchanged
        data["_own"] = {}
        data["_own_lines"] = {}
        data["maps"] = list(self.maps)
        data["cubes"] = self.cubes.copy()  # each area's holders are shared: see the class docstring
        data["cup"] = self.cup.copy()
        data["markers"] = self.markers.copy()
        data["special_bases"] = self.special_bases.copy()
        data["alliances"] = {ideology: members.copy() for ideology, members in self.alliances.items()}
        data["wars"] = [(list(a), list(b)) for a, b in self.wars]
        # the nested containers below are often empty: an empty one is copied without a comprehension
        data["turn_track"] = (
            {turn: items.copy() for turn, items in self.turn_track.items()} if self.turn_track else {}
        )
        data["damaged"] = self.damaged.copy()
        data["used_limited"] = self.used_limited.copy()
        data["base_owners"] = self.base_owners.copy()
        data["result"] = copy.deepcopy(self.result) if self.result is not None else None
        data["surrenders"] = self.surrenders.copy()
        data["peace"] = [list(pair) for pair in self.peace]
        data["transfers"] = [list(item) for item in self.transfers]
        data["minor_armies"] = self.minor_armies.copy()
        data["no_surprise"] = self.no_surprise.copy()
        data["civil_wars"] = (
            {
                area: {side: list(aid) for side, aid in sides.items()}
                for area, sides in self.civil_wars.items()
            }
            if self.civil_wars
            else {}
        )
        data["influence"] = (
            {area: list(owners) for area, owners in self.influence.items()} if self.influence else {}
        )
        data["chinese_armies"] = self.chinese_armies.copy()
        data["chinese_aid"] = (
            {area: list(aid) for area, aid in self.chinese_aid.items()} if self.chinese_aid else {}
        )
        data["log"] = self.log.copy() if keep_log else []
        new = make(CataclysmState)
        new.__dict__ = data
        return new

    def unit_to_change(self, unit: Unit) -> Unit:
        """The object to change for ``unit`` (copy on write, see :meth:`clone`): the unit itself
        when this state holds it alone, else a copy put in its place in :attr:`units`. A unit not
        on the map yet (being placed) is returned as it is.

        Every change to a unit's fields goes through here, and the caller goes on with the object
        returned (the one it was given may be another state's).
        """
        own = self._own
        if not self._sharing or own.get(id(unit)) is unit:
            return unit
        units = self.units
        for index, held in enumerate(units):
            if held.id == unit.id:
                if own.get(id(held)) is held:
                    return held
                copied = object.__new__(Unit)
                copied.__dict__ = held.__dict__.copy()
                units[index] = own[id(copied)] = copied
                return copied
        return unit

    def line_to_change(self, power: str) -> PowerState:
        """The power's line of the record display, to change (copy on write, see :meth:`clone`):
        the line itself when this state holds it alone, else a copy put in its place in
        :attr:`powers`.

        Every change to a line's fields or containers (force pool, holding box, failed-action
        boxes, alliance partners) goes through here; a line read from :attr:`powers` before the
        change may be another state's and is left behind. Reading needs no call.
        """
        line = self.powers[power]
        if not self._sharing or self._own_lines.get(power) is line:
            return line
        copied = self.powers[power] = self._own_lines[power] = line.clone()
        return copied

    def units_in(self, area_id: str) -> list[Unit]:
        """Units standing in an area."""
        return [unit for unit in self.units if unit.area == area_id]


def new_state(module: Module, scenario_id: str) -> CataclysmState:
    """The starting state of a scenario (LR 1.3): pieces, cup, reserve, record and political display.

    :raises UserInputError: the scenario id is unknown.
    """
    scenario = module.scenarios.get(scenario_id)
    if scenario is None:
        raise UserInputError(f"unknown scenario {scenario_id!r}; known: {', '.join(module.scenarios)}")
    powers: dict[str, PowerState] = {}
    cup: list[str] = []
    for power_id, line in scenario.powers.items():
        power = module.powers[power_id]
        mix = power.counters
        in_cup = scenario.cup.get(power_id)
        reserve = scenario.reserve.get(power_id)
        reserved = counter(reserve.kind, power_id, reserve.type) if reserve is not None else None
        used_units: dict[str, int] = {}
        for unit in scenario.units:
            if unit.power == power_id:
                key = module.unit_types[unit.type].counter
                used_units[key] = used_units.get(key, 0) + unit.count
        flags = offensives = 0
        if in_cup is not None:
            flags, offensives = in_cup.flags, in_cup.offensives
            cup += [counter("flag", power_id)] * in_cup.flags + [
                counter("offensive", power_id)
            ] * in_cup.offensives
            for unit_type, count in in_cup.units.items():
                cup += [counter("unit", power_id, unit_type)] * count
                key = module.unit_types[unit_type].counter
                used_units[key] = used_units.get(key, 0) + count
            for marker, count in in_cup.upgrade_markers.items():
                cup += [counter("upgrade", power_id, marker)] * count
            if in_cup.home_front:
                cup.append(counter("home-front", power_id))
        if reserve is not None:
            flags += reserve.kind == "flag"
            offensives += reserve.kind in ("offensive", "resource")
        for war in scenario.civil_wars:  # aid markers are the power's offensives (LR 8.5)
            offensives += war.left.count(power_id) + war.right.count(power_id)
        limit = power.status_card[line.commitment].force_pool
        pool_size = max(0, limit - sum(used_units.values()))
        force_pool = _fill_force_pool(mix.units, used_units, pool_size)
        powers[power_id] = PowerState(
            commitment=line.commitment,
            stability=line.stability,
            reserve=reserved,
            available_flags=mix.flags - flags,
            available_offensives=mix.offensives - offensives,
            force_pool=force_pool,
            posture=scenario.postures[power_id].value if power_id in scenario.postures else None,
        )
    cup += ["crisis"] * scenario.crisis_markers
    if scenario.civil_war_resolution:
        cup.append("cw-resolution")
    units: list[Unit] = []
    for placement in scenario.units:
        for _ in range(placement.count):
            units.append(
                Unit(len(units) + 1, placement.power, placement.type, placement.area, placement.coast)
            )
    base_owners = {
        f"{area.id}#{index}": base.owner
        for area in module.areas.values()
        for index, base in enumerate(area.bases)
    }
    scenario_maps = {map_id.value for map_id in scenario.maps}
    armies = scenario.chinese_armies
    chinese_armies = (
        {
            area: faction
            for faction, areas in (("gmd", armies.gmd), ("chicom", armies.chicom))
            for area in areas
            if module.area(area).map.value in scenario_maps
        }
        if armies is not None
        else {}
    )
    in_civil_war = {war.area for war in scenario.civil_wars}
    return CataclysmState(
        module_id=module.id,
        scenario=scenario.id,
        turn=scenario.start,
        last_turn=scenario.end,
        maps=[map_id.value for map_id in scenario.maps],
        powers=powers,
        cubes={area: dict(cubes) for area, cubes in scenario.cubes.items()},
        units=units,
        cup=sorted(cup),
        markers=list(scenario.markers),
        special_bases=list(scenario.special_bases),
        alliances={ideology.value: list(members) for ideology, members in scenario.alliances.items()},
        wars=[(list(a), list(b)) for a, b in scenario.wars],
        war_status=scenario.war_status,
        base_owners=base_owners,
        next_unit_id=len(units) + 1,
        minor_armies=sorted(
            area.id
            for area in module.areas.values()
            if area.minor_army is not None and area.map.value in scenario_maps and area.id not in in_civil_war
        ),
        civil_wars={
            war.area: {"left": list(war.left), "right": list(war.right)} for war in scenario.civil_wars
        },
        chinese_armies=dict(sorted(chinese_armies.items())),
    )


def _fill_force_pool(mix: dict[str, int], used: dict[str, int], size: int) -> dict[str, int]:
    """Unbuilt counters up to the force-pool limit, taken in the mix's order (reconstructed)."""
    pool: dict[str, int] = {}
    remaining = size
    spare = {key: mix[key] - used.get(key, 0) for key in mix}
    while remaining > 0 and any(spare.values()):
        for key in mix:
            if remaining and spare[key] > 0:
                pool[key] = pool.get(key, 0) + 1
                spare[key] -= 1
                remaining -= 1
    return pool
