"""A power's position, an area and the cup, as structured data for people (terminal, web app).

:func:`power_position` gathers what a player otherwise pieces together from the log: the areas a
power controls and their resources, its units, production and reserve, force pool, flags, cubes,
interests, relations, record line and the special markers that bind it, each named in words with
its rule. :func:`area_view` describes one area, :func:`cup_view` the action cup, :func:`score_view`
the score and who would win now. Each returns a
frozen dataclass with ``to_json``; rendering as text lives in the play layer.

Secrets (LR 1.4): every piece on the map, the record display and the status cards is open to all
players; only the contents of the action cup are hidden. So another power's position shows the
same facts as its owner sees, and the cup appears only as counts by power and kind, which anyone
can work out from the counters in sight and the printed counter mix (LR 2.4); never its order
(draws are made by the seeded chance service, and the list's order means nothing), nor which unit
or upgrade a cup counter is. This module reads ``state.cup`` in one place (:func:`_cup_counts`),
never the pending step's hidden fields (``then``, ``outcomes``) and never the generator.
"""

from __future__ import annotations

import difflib
from collections import Counter
from dataclasses import asdict, dataclass, field
from typing import Any

from grandstrategy.cataclysm.engine.common import counters_in_play, parse_counter
from grandstrategy.cataclysm.engine.game import CataclysmGame
from grandstrategy.cataclysm.lookup import CONNECTION_NAMES, resolve_area
from grandstrategy.cataclysm.markers import MARKERS, describe_marker, describe_posture
from grandstrategy.cataclysm.module import Module
from grandstrategy.cataclysm.module.schema import AreaType, Ideology, Resource, ResourceKind
from grandstrategy.cataclysm.rules.arithmetic import builds
from grandstrategy.cataclysm.rules.control import (
    allied,
    at_war,
    belligerent,
    controller,
    ideology_scores,
    interests,
    special_resource_in_play,
    victory_points,
    win_margin,
    winner,
)
from grandstrategy.cataclysm.rules.economy import build_cost, collectable, limited_in_play
from grandstrategy.cataclysm.rules.politics import effectiveness
from grandstrategy.cataclysm.rules.special import denied_areas
from grandstrategy.cataclysm.state import CataclysmState
from grandstrategy.core.errors import UserInputError

_MAX_NAME = 60  # longest power or area text read from a person before it is cut in messages

# ---- the data --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class MarkerLine:
    """A marker in words: id, printed name, rule, what it does now."""

    id: str
    name: str
    rule: str
    meaning: str


@dataclass(frozen=True)
class HeldArea:
    """An area a power controls (LR 2.2.4), with how it holds it and what it yields.

    ``status``: ``home`` or ``colony`` (its own, LR 2.2.3), ``occupied`` (another power's home or
    colony) or ``country``. ``resources`` are in words (``industrial``, ``natural``, ``limited:
    Ruhr``); ``damaged`` counts Damage markers (LR 9.5.2); ``denied``: the power may not use the
    area's resources now (the Rhineland marker, LR 12.1.1).
    """

    id: str
    name: str
    status: str
    capital: bool
    resources: list[str]
    damaged: int
    cubes: int
    denied: bool = False


@dataclass(frozen=True)
class UnitLine:
    """Units of one type in one area: ``2 x infantry army``; ``upgraded`` for the flipped side."""

    type: str
    name: str
    count: int
    upgraded: bool
    coast: str | None = None


@dataclass(frozen=True)
class UnitStack:
    """A power's units in one area."""

    area: str
    name: str
    units: list[UnitLine]


@dataclass(frozen=True)
class BuyOption:
    """Something production may build now (LR 4.6): the item, its cost in builds, how many wait."""

    item: str
    name: str
    cost: int
    in_pool: int
    next_turn: bool


@dataclass(frozen=True)
class Production:
    """Production and reserve (LR 3.4, 4.4-4.6).

    ``collectable``/``industrial``: resources the power would collect if production came now
    (LR 4.4.2), each needing a free marker from ``markers_available`` (the offensive/resource
    markers in the available box, LR 2.4.3); ``builds_if_all_built``: builds from all of them at
    its conversion rate (LR 4.5).
    """

    reserve: str | None
    holding_box: list[str]
    markers_available: int
    collectable: int
    industrial: int
    collect_from: list[str]
    conversion: str
    military_actions: str
    builds_if_all_built: int
    may_buy: list[BuyOption]


@dataclass(frozen=True)
class ForcePool:
    """The force pool box (LR 2.4.3, 4.1.1): counters waiting to be built, the limit and the room.

    ``room``: counters still to be added to the pool on reaching the limit (the limit less the
    power's units and upgrades in play and in the pool). ``counters`` by counter kind in words.
    """

    counters: dict[str, int]
    limit: int
    in_play: int
    room: int
    upgrades_allowed: bool
    fleets_barred: bool


@dataclass(frozen=True)
class Counts:
    """Where a power's flags or offensives are: available, in reserve, holding box, cup, map."""

    available: int
    in_reserve: int
    in_holding_box: int
    in_cup: int
    on_map: int = 0


@dataclass(frozen=True)
class Relations:
    """Alliance (LR 6.1), wars (LR 1.1), armistices (LR 5.5.4)."""

    alliance: list[str]
    at_war_with: list[str]
    at_peace_with: list[str]
    belligerent: bool


@dataclass(frozen=True)
class PowerPosition:
    """Everything public about one power, for its player or anyone else (LR 1.4)."""

    power: str
    name: str
    ideology: str
    yours: bool
    active: bool
    commitment: str
    stability: str
    effectiveness: int
    effectiveness_reduced: bool
    vp: int
    areas: list[HeldArea]
    lost_areas: list[str]
    units: list[UnitStack]
    production: Production
    force_pool: ForcePool
    flags: Counts
    offensives: Counts
    cubes_on_map: dict[str, int]
    failed_actions: dict[str, int]
    failed_special: str | None
    interests: list[str]
    relations: Relations
    markers: list[MarkerLine]
    posture: MarkerLine | None
    turn_track: dict[str, list[str]]
    cup: dict[str, int]
    deciding: str | None = None

    def to_json(self) -> dict[str, Any]:
        """Plain JSON data, fields in a fixed order."""
        return asdict(self)


@dataclass(frozen=True)
class Neighbor:
    """An adjacent area and how it connects (LR 2.2, 2.3.4, 2.3.6)."""

    id: str
    name: str
    kind: str


@dataclass(frozen=True)
class AreaView:
    """One area now: who owns and holds it, what it yields, its terrain, pieces and neighbours."""

    id: str
    name: str
    type: str
    map: str
    in_play: bool
    status: str | None
    owner: str | None
    controller: str | None
    capital: bool
    resources: list[str]
    terrain: list[str]
    units: list[tuple[str, list[UnitLine]]]
    minor_army: str | None
    cubes: dict[str, int]
    markers: list[str]
    bases: list[str]
    neighbors: list[Neighbor] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        """Plain JSON data, fields in a fixed order."""
        return asdict(self)


@dataclass(frozen=True)
class CupView:
    """The action cup as counts (LR 1.4, 3.3) and the public boxes beside it.

    ``by_power`` maps a power to counts by kind (flag, offensive, unit, upgrade, home front);
    ``neutral`` counts Crisis and Civil War Resolution markers; ``reserves`` and ``turn_track``
    are open to all (LR 2.5, 3.4).
    """

    total: int
    by_power: dict[str, dict[str, int]]
    neutral: dict[str, int]
    crises_drawn: int
    reserves: dict[str, str]
    turn_track: dict[str, list[str]]

    def to_json(self) -> dict[str, Any]:
        """Plain JSON data, fields in a fixed order."""
        return asdict(self)


@dataclass(frozen=True)
class IdeologyStanding:
    """One ideology on the winner test of LR 1.7.2 if the game ended now."""

    ideology: str
    vp: int
    powers: dict[str, int]
    wins_now: bool
    margin: int
    """From :func:`~grandstrategy.cataclysm.rules.control.win_margin`: at 1 or more it wins and
    would still win with ``margin - 1`` VP less; at 0 or less it needs ``1 - margin`` VP more."""


@dataclass(frozen=True)
class ScoreView:
    """Victory points by ideology and power (LR 1.7.1) and who wins if the game ended now
    (LR 1.7.2), with what each ideology needs; ``sum_rule`` says whether the Democracies must
    beat Fascism and Communism together (both score above zero)."""

    standings: list[IdeologyStanding]
    winner: str
    sum_rule: bool
    result: str | None

    def to_json(self) -> dict[str, Any]:
        """Plain JSON data, fields in a fixed order."""
        return asdict(self)


def score_view(game: CataclysmGame) -> ScoreView:
    """The score as the winner test reads it (LR 1.7): open information only (VP come from cubes
    on the map and the powers' status, LR 1.4)."""
    module, state = game.module, game.state
    scores = ideology_scores(module, state)
    standings = []
    for ideology, vp in scores.items():
        powers = {
            _name(module, power): victory_points(module, state, power)
            for power in state.powers
            if module.powers[power].ideology is ideology
        }
        margin = win_margin(scores, ideology)
        standings.append(IdeologyStanding(ideology.value, vp, powers, margin > 0, margin))
    fascism, communism = scores[Ideology.FASCISM], scores[Ideology.COMMUNISM]
    result = None
    if state.result is not None:
        result = f"{state.result.get('winner')} won ({state.result.get('how')})"
    return ScoreView(standings, winner(scores).value, fascism > 0 and communism > 0, result)


# ---- words -----------------------------------------------------------------------------------------

_KIND_WORDS = {
    "flag": "flag",
    "offensive": "offensive",
    "resource": "resource marker",
    "unit": "unit",
    "upgrade": "upgrade",
    "home-front": "home front",
    "crisis": "crisis",
    "cw-resolution": "civil war resolution",
    "a-bomb": "A-Bomb",
    "a-bomb-timer": "A-Bomb (timer)",
}


def counter_words(module: Module, notation: str) -> str:
    """A counter off the map in words: ``unit:germany:tank-army`` -> ``Germany tank army``."""
    kind, power, detail = parse_counter(notation)
    owner = module.powers[power].name if power is not None and power in module.powers else (power or "")
    if kind == "unit" and detail is not None and detail in module.unit_types:
        what = module.unit_types[detail].name
    elif kind == "upgrade" and detail:
        what = f"{detail} upgrade"
    else:
        what = _KIND_WORDS.get(kind, kind)
    return f"{owner} {what}".strip()


def _resource_words(module: Module, state: CataclysmState, area_id: str) -> list[str]:
    """An area's resources in words; limited markers no longer on the map and special resources
    not yet placed are left out (LR 2.3.8, 12.3.1)."""
    area = module.area(area_id)
    words = []
    for resource in area.resources:
        words.extend(_one_resource(state, area.owner, resource))
    return words


def _one_resource(state: CataclysmState, owner: str | None, resource: Resource) -> list[str]:
    if resource.kind is ResourceKind.SOVIET_SPECIAL:
        return ["special (industrial)"] if special_resource_in_play(state, owner, resource) else []
    if resource.limited:
        return [f"limited: {resource.marker}"] if limited_in_play(state, resource) else []
    return [resource.kind.value]


def _marker_line(marker: str) -> MarkerLine:
    meaning = describe_marker(marker)
    return MarkerLine(marker, meaning.name, meaning.rule, meaning.meaning)


def _name(module: Module, power: str) -> str:
    return module.powers[power].name if power in module.powers else power


def _unit_lines(module: Module, units: list[tuple[str, str | None]]) -> list[UnitLine]:
    counted = Counter(units)
    lines = []
    for (unit_type, coast), count in sorted(counted.items(), key=lambda item: (item[0][0], item[0][1] or "")):
        spec = module.unit_types.get(unit_type)
        name = spec.name if spec is not None else unit_type
        lines.append(UnitLine(unit_type, name, count, spec.upgraded if spec is not None else False, coast))
    return lines


# ---- look-ups for people ----------------------------------------------------------------------------


def resolve_power(game: CataclysmGame, text: str) -> str:
    """The power in this game that a person named (id or name, any case), or a UserInputError
    suggesting close names."""
    key = " ".join(text.split()).casefold()
    names = {power: _name(game.module, power) for power in game.state.powers}
    for power, name in names.items():
        if key in (power, name.casefold(), power.replace("-", " ")):
            return power
    folded = {name.casefold(): name for name in names.values()} | {p: names[p] for p in names}
    close = difflib.get_close_matches(key, list(folded), n=3, cutoff=0.6)
    hints = sorted({folded[c] for c in close})
    hint = f"; did you mean {' or '.join(hints)}?" if hints else f"; powers: {', '.join(names.values())}"
    raise UserInputError(f"no power {text[:_MAX_NAME]!r} in this game{hint}")


# ---- the power ----------------------------------------------------------------------------------------


def power_position(
    game: CataclysmGame, power: str, *, viewer_seats: frozenset[str] | set[str] = frozenset()
) -> PowerPosition:
    """The public position of ``power`` (LR 1.4), as seen by a player holding ``viewer_seats``.

    The facts are the same whoever looks (the rules hide only the cup's contents); ``yours``
    tells a client whether the viewer plays this power.

    :raises UserInputError: ``power`` is not in this game.
    """
    module, state = game.module, game.state
    if power not in state.powers:
        raise UserInputError(f"no power {power[:_MAX_NAME]!r} in this game")
    line = state.powers[power]
    spec = module.powers[power]
    in_play = module.in_play_ids(state.maps)
    holders = {area_id: controller(module, state, area_id) for area_id in in_play}

    denied = denied_areas(state, power)
    areas = []
    for area_id in in_play:
        if holders[area_id] != power:
            continue
        area = module.area(area_id)
        if area.owner == power:
            status = area.status.value if area.status is not None else "country"
        elif area.owner is not None:
            status = "occupied"
        else:
            status = "country"
        areas.append(
            HeldArea(
                area_id,
                area.name,
                status,
                area.capital and area.owner == power,
                _resource_words(module, state, area_id),
                state.damaged.count(area_id),
                state.cubes.get(area_id, {}).get(power, 0),
                area_id in denied,
            )
        )
    lost = sorted(
        module.area(a).name
        for a in in_play
        if module.area(a).owner == power and module.area(a).type is not AreaType.SEA and holders[a] != power
    )

    stacks: dict[str, list[tuple[str, str | None]]] = {}
    for unit in state.units:
        if unit.power == power:
            stacks.setdefault(unit.area, []).append((unit.type, unit.coast))
    units = [
        UnitStack(area_id, module.area(area_id).name, _unit_lines(module, held))
        for area_id, held in sorted(stacks.items(), key=lambda item: module.area(item[0]).name)
    ]

    cup = _cup_counts(state).get(power, {})
    production = _production(game, power)
    force_pool = _force_pool(game, power)
    aid_on_map = sum(aid.count(power) for sides in state.civil_wars.values() for aid in sides.values())
    aid_on_map += sum(aid.count(power) for aid in state.chinese_aid.values())
    aid_on_map += sum(held.count(power) for held in state.influence.values())
    flags = Counts(
        line.available_flags,
        int(line.reserve == f"flag:{power}"),
        line.holding_box.count(f"flag:{power}"),
        cup.get("flag", 0),
    )
    offensives = Counts(
        line.available_offensives,
        int(line.reserve == f"offensive:{power}"),
        line.holding_box.count(f"offensive:{power}"),
        cup.get("offensive", 0),
        aid_on_map,
    )
    cubes = {
        module.area(area_id).name: held[power]
        for area_id, held in sorted(state.cubes.items(), key=lambda item: module.area(item[0]).name)
        if held.get(power)
    }
    ideology = spec.ideology.value
    alliance = (
        [p for p in state.alliances.get(ideology, []) if p != power]
        if power in state.alliances.get(ideology, [])
        else []
    )
    relations = Relations(
        alliance=[_name(module, p) for p in alliance if allied(module, state, power, p)],
        at_war_with=[_name(module, p) for p in state.powers if p != power and at_war(state, power, p)],
        at_peace_with=[_name(module, p) for pair in state.peace if power in pair for p in pair if p != power],
        belligerent=belligerent(state, power),
    )
    markers = [_marker_line(m) for m in state.markers if power in describe_marker(m).powers]
    posture = None
    if line.posture is not None:
        meaning = describe_posture(line.posture)
        posture = MarkerLine(line.posture, meaning.name, meaning.rule, meaning.meaning)
    track = {
        f"{turn}-{(turn + 1) % 100:02d}": [
            counter_words(module, c) for c in items if parse_counter(c)[1] == power
        ]
        for turn, items in sorted(state.turn_track.items())
    }
    deciding = None
    if (
        game.pending is not None
        and game.pending.get("type") == "decide"
        and game.pending.get("power") == power
    ):
        deciding = str(game.pending.get("prompt", ""))
    return PowerPosition(
        power=power,
        name=spec.name,
        ideology=ideology,
        yours=power in viewer_seats,
        active=line.active,
        commitment=line.commitment.value,
        stability=line.stability.value if line.active else "surrendered",
        effectiveness=effectiveness(module, state, power),
        effectiveness_reduced=line.effectiveness_reduced,
        vp=victory_points(module, state, power),
        areas=areas,
        lost_areas=lost,
        units=units,
        production=production,
        force_pool=force_pool,
        flags=flags,
        offensives=offensives,
        cubes_on_map=cubes,
        failed_actions={box: n for box, n in sorted(line.failed_actions.items()) if n},
        failed_special=line.failed_special,
        interests=sorted(module.area(a).name for a in interests(module, state, power)),
        relations=relations,
        markers=markers,
        posture=posture,
        turn_track={turn: items for turn, items in track.items() if items},
        cup={_KIND_WORDS.get(kind, kind): n for kind, n in sorted(cup.items())},
        deciding=deciding,
    )


def _production(game: CataclysmGame, power: str) -> Production:
    """Reserve, holding box, what would be collected and what the builds may buy (LR 3.4, 4.4-4.6)."""
    module, state = game.module, game.state
    line = state.powers[power]
    card = module.powers[power].status_card[line.commitment]
    found = collectable(module, state, power)
    count = min(len(found), line.available_offensives)  # a resource needs a free marker (LR 4.4.2)
    refit = f"dreadnought-refit-{power}" in state.markers
    buy = []
    for key in sorted(line.force_pool):
        waiting = line.force_pool[key]
        if waiting <= 0:
            continue
        items = (
            [key]
            if key.startswith("upgrade:")
            else [t.id for t in module.unit_types.values() if t.counter == key and not t.upgraded]
        )
        for item in items:
            cost, next_turn = build_cost(module, power, item)
            name = (
                f"{key.removeprefix('upgrade:')} upgrade"
                if key.startswith("upgrade:")
                else module.unit_types[item].name
            )
            buy.append(BuyOption(item, name, cost, waiting, next_turn))
            if refit and item == "surface-fleet":
                cheaper, _ = build_cost(module, power, item, dreadnought_refit=True)
                buy.append(BuyOption(item, f"{name} with Dreadnought Refit", cheaper, waiting, next_turn))
    if "a-bomb-available" in state.markers and power == "united-states":  # LR 12.2.2
        buy.append(BuyOption("a-bomb", "A-Bomb", 1, 1, False))
    return Production(
        reserve=counter_words(module, line.reserve) if line.reserve else None,
        holding_box=[counter_words(module, c) for c in line.holding_box],
        markers_available=line.available_offensives,
        collectable=count,
        industrial=sum(1 for c in found[:count] if c.industrial),
        collect_from=sorted({module.area(c.area).name for c in found}),
        conversion=card.conversion,
        military_actions=card.military_actions,
        builds_if_all_built=builds(count, card.conversion),
        may_buy=buy,
    )


def _force_pool(game: CataclysmGame, power: str) -> ForcePool:
    """The force pool box and the room left under the limit at this commitment (LR 4.1.1).

    The count of counters in play includes the power's units in the cup, as a number only.
    """
    module, state = game.module, game.state
    line = state.powers[power]
    card = module.powers[power].status_card[line.commitment]
    used = sum(counters_in_play(game, power).values())
    pooled = sum(n for n in line.force_pool.values() if n > 0)
    words = {}
    for key, count in sorted(line.force_pool.items()):
        if count > 0:
            words[f"{key.removeprefix('upgrade:')} upgrade" if key.startswith("upgrade:") else key] = count
    treaty = "wnt" in state.markers and "wnt" in _binding(power)
    return ForcePool(
        counters=words,
        limit=card.force_pool,
        in_play=used,
        room=max(0, card.force_pool - used - pooled),
        upgrades_allowed=card.upgrades_allowed,
        fleets_barred=treaty,
    )


def _binding(power: str) -> set[str]:
    """Marker ids whose rule binds ``power``."""
    return {marker for marker, meaning in MARKERS.items() if power in meaning.powers}


def _cup_counts(state: CataclysmState) -> dict[str, dict[str, int]]:
    """The cup as counts by owner (``""`` for neutral markers) and kind; the only reader of the cup."""
    counts: dict[str, dict[str, int]] = {}
    for counter in state.cup:
        kind, power, _ = parse_counter(counter)
        held = counts.setdefault(power or "", {})
        held[kind] = held.get(kind, 0) + 1
    return counts


# ---- an area ------------------------------------------------------------------------------------------


def area_view(game: CataclysmGame, name: str) -> AreaView:
    """One area as it stands (name or id, any case).

    :raises UserInputError: no such area; the message suggests close names.
    """
    module, state = game.module, game.state
    area_id = resolve_area(module, name[:_MAX_NAME])
    area = module.area(area_id)
    in_play = area.map.value in state.maps
    holder = controller(module, state, area_id) if in_play else None
    terrain = []
    for flag, words in (
        ("coastal", "coastal"),
        ("adverse", "adverse terrain (LR 2.3.5)"),
        ("restricted", "restricted terrain (LR 2.3.5)"),
        ("remote", "remote (LR 2.2.8)"),
        ("delay_box", "Delay box (LR 2.2.8)"),
        ("off_map", "off-map (LR 2.2.7)"),
        ("chinese", "Chinese area (LR 2.2.6)"),
    ):
        if getattr(area, flag):
            terrain.append(words)
    if area.resistance:
        terrain.append(f"resistance {area.resistance} (LR 2.3.7)")
    if area.coasts:
        terrain.append(f"two coasts: {', '.join(area.coasts)} (LR 2.2.1)")
    by_power: dict[str, list[tuple[str, str | None]]] = {}
    for unit in state.units:
        if unit.area == area_id:
            by_power.setdefault(unit.power, []).append((unit.type, unit.coast))
    units = [(_name(module, p), _unit_lines(module, held)) for p, held in sorted(by_power.items())]
    minor = None
    if area.minor_army is not None and area_id in state.minor_armies:
        minor = (
            f"{area.minor_army.name} ({area.minor_army.count} step{'s' if area.minor_army.count > 1 else ''})"
        )
    markers = []
    if state.damaged.count(area_id):
        markers.append(f"{state.damaged.count(area_id)} Damage marker(s) (LR 9.5.2)")
    if area_id in state.chinese_armies:
        faction = {"gmd": "GMD", "chicom": "ChiCom"}.get(
            state.chinese_armies[area_id], state.chinese_armies[area_id]
        )
        aid = ", ".join(_name(module, p) for p in state.chinese_aid.get(area_id, []))
        markers.append(f"{faction} Chinese army (LR 11.4)" + (f", aid from {aid}" if aid else ""))
    if area_id in state.civil_wars:
        sides = state.civil_wars[area_id]
        left = ", ".join(_name(module, p) for p in sides.get("left", [])) or "none"
        right = ", ".join(_name(module, p) for p in sides.get("right", [])) or "none"
        markers.append(f"civil war (LR 11.1): aid left {left}; aid right {right}")
    if state.influence.get(area_id):
        markers.append(
            f"Influence of {', '.join(_name(module, p) for p in state.influence[area_id])} (LR 11.3)"
        )
    if area.special_base is not None and area_id in state.special_bases:
        markers.append(
            f"special base {area.special_base.name} of {_name(module, area.special_base.owner)} (LR 2.3.3)"
        )
    if area.wnt_zone and "wnt" in state.markers:
        markers.append("beyond the WNT line: no deployment or attack while the treaty holds (LR 12.1.3)")
    if area_id == "washington-dc" and "a-bomb-ready" in state.markers:
        markers.append("the A-Bomb is here (LR 12.2.2)")
    bases = []
    for index, base in enumerate(area.bases):
        owner = state.base_owners.get(f"{area_id}#{index}", base.owner)
        label = base.name or f"{base.kind.value} base"
        bases.append(f"{label} ({base.kind.value}), owner {_name(module, owner) if owner else 'none'}")
    neighbors = [
        Neighbor(edge.target, module.area(edge.target).name, CONNECTION_NAMES.get(edge.kind, edge.kind))
        for edge in module.neighbors(area_id)
    ]
    return AreaView(
        id=area_id,
        name=area.name,
        type=area.type.value,
        map=area.map.value,
        in_play=in_play,
        status=area.status.value if area.status is not None else None,
        owner=_name(module, area.owner) if area.owner else None,
        controller=_name(module, holder) if holder else None,
        capital=area.capital,
        resources=_resource_words(module, state, area_id) if area.type is not AreaType.SEA else [],
        terrain=terrain,
        units=units,
        minor_army=minor,
        cubes={
            _name(module, p) if p in module.powers else p: n
            for p, n in sorted(state.cubes.get(area_id, {}).items())
            if n
        },
        markers=markers,
        bases=bases,
        neighbors=sorted(neighbors, key=lambda n: n.name),
    )


# ---- the cup ------------------------------------------------------------------------------------------


def cup_view(game: CataclysmGame) -> CupView:
    """The action cup as counts by power and kind, never its order (LR 1.4), with the public
    reserves and turn track beside it (LR 2.5, 3.4)."""
    module, state = game.module, game.state
    counts = _cup_counts(state)
    neutral = {_KIND_WORDS.get(k, k): n for k, n in sorted(counts.pop("", {}).items())}
    by_power = {
        _name(module, power): {_KIND_WORDS.get(k, k): n for k, n in sorted(counts[power].items())}
        for power in [*state.powers, *sorted(set(counts) - set(state.powers))]
        if power in counts
    }
    reserves = {
        _name(module, power): counter_words(module, line.reserve)
        for power, line in state.powers.items()
        if line.reserve is not None
    }
    track = {
        f"{turn}-{(turn + 1) % 100:02d}": [counter_words(module, c) for c in items]
        for turn, items in sorted(state.turn_track.items())
        if items
    }
    return CupView(
        total=len(state.cup),
        by_power=by_power,
        neutral=neutral,
        crises_drawn=state.crises_drawn,
        reserves=reserves,
        turn_track=track,
    )


__all__ = [
    "AreaView",
    "CupView",
    "IdeologyStanding",
    "PowerPosition",
    "ScoreView",
    "area_view",
    "counter_words",
    "cup_view",
    "power_position",
    "resolve_power",
    "score_view",
]
