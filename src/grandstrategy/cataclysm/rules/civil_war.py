"""Civil-war arithmetic over a state (LR 8.5, 9.7.1, 11): factions, aid, outcomes, China.

The state keeps a civil war as the powers whose aid sits on each faction
(``state.civil_wars[area] = {"left": [...], "right": [...]}``, one entry per aid marker), Influence
as ``state.influence[area]`` (one entry per Influence marker; the key :data:`CHINA` holds the
Influence that replaces the Chinese Civil War marker, LR 11.4.5), and the Chinese Civil War as the
armies (``state.chinese_armies``), the aid attached to each army (``state.chinese_aid``) and, once it
has ended, ``state.ccw_winner``. Every function here is pure: the procedures live in
``engine/civil_war.py``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Literal

from grandstrategy.cataclysm.module import Module
from grandstrategy.cataclysm.module.schema import AreaType
from grandstrategy.cataclysm.rules import control as control_rules
from grandstrategy.cataclysm.rules import politics as politics_rules
from grandstrategy.cataclysm.rules import supply as supply_rules
from grandstrategy.cataclysm.rules.aid import CHINA as CHINA
from grandstrategy.cataclysm.rules.aid import aid_interests as aid_interests
from grandstrategy.cataclysm.rules.aid import diplomacy_modifier as diplomacy_modifier
from grandstrategy.cataclysm.rules.arithmetic import Standing, effectiveness_order
from grandstrategy.cataclysm.rules.special import delay_box_ignored, ignores_restricted
from grandstrategy.cataclysm.state import CataclysmState

# control, politics and supply are named by module (``control_rules.interests``) to keep their names
# apart from this module's own; none of them imports this module (see tests/cataclysm/test_layers.py).

LEFT = "left"
RIGHT = "right"
SIDES = (LEFT, RIGHT)
GMD = "gmd"
CHICOM = "chicom"
FACTIONS = (GMD, CHICOM)

SPONSORS = {CHICOM: "soviet-union", GMD: "united-states"}
"""The power that decides for a Chinese faction when nobody has cubes or aid there (LR 11.4.4 B3)."""

Outcome = Literal["stalemate", "marginal", "decisive"]


def other_side(side: str) -> str:
    """The opposing faction of a civil war (left/right) or of China (gmd/chicom)."""
    if side in SIDES:
        return RIGHT if side == LEFT else LEFT
    return CHICOM if side == GMD else GMD


# ---- the state of the civil wars --------------------------------------------------------------


def chinese_army_blocks(state: CataclysmState, area_id: str) -> bool:
    """Whether the area holds a Chinese army, so that it is not friendly to its controller (LR 11.4.2).

    Such a country still counts for its controller's score and interests, but that power may not
    move units or trace an LOC into or through it (and so cannot collect its resource).
    """
    return area_id in state.chinese_armies


def faction_armies(state: CataclysmState, faction: str) -> list[str]:
    """The Chinese countries holding an army of the faction, in id order (LR 11.4.1)."""
    return sorted(area for area, held in state.chinese_armies.items() if held == faction)


def ccw_in_progress(state: CataclysmState) -> bool:
    """Whether the Chinese Civil War goes on: no winner yet and armies of both factions (LR 11.4.5)."""
    return state.ccw_winner is None and set(state.chinese_armies.values()) == set(FACTIONS)


def ccw_active(module: Module, state: CataclysmState) -> bool:
    """The status of LR 11.4.4 A: Inactive while any Chinese country is garrisoned (LR 2.2.5)."""
    return not any(
        module.area(unit.area).chinese and module.unit_types[unit.type].unit_class == "land"
        for unit in state.units
    )


def patrons(aid: Iterable[str]) -> list[str]:
    """The distinct powers among aid markers, in the order their first marker was placed."""
    return list(dict.fromkeys(aid))


def has_interest(module: Module, state: CataclysmState, power: str, area_id: str) -> bool:
    """Whether the power (or an ally, LR 6.1.2) has an interest in the area, aid and Influence included."""
    if area_id in control_rules.interests(module, state, power):
        return True
    partners = [
        power,
        *(other for other in state.powers if control_rules.allied(module, state, power, other)),
    ]
    return any(area_id in aid_interests(state, partner) for partner in partners)


def diplomacy_barred(state: CataclysmState, area_id: str) -> bool:
    """No diplomacy against an area with a Civil War marker (LR 11.0, 6.3); Chinese countries never
    carry one, so the Chinese Civil War does not bar it (LR 11.4.3)."""
    return area_id in state.civil_wars


def civil_war_eligible(module: Module, state: CataclysmState, area_id: str) -> bool:
    """Whether a crisis sub-table row can start a civil war in the area (LR 11.1): on a map in play
    and not already in civil war."""
    return module.area(area_id).map.value in state.maps and area_id not in state.civil_wars


# ---- crisis sub-tables (LR 11.1, crisis tables) -----------------------------------------------


def subroll_key(dice: Iterable[int]) -> str:
    """The row of a crisis sub-table two dice point to: the higher die, a 6 reading the 6+ row.

    >>> subroll_key([2, 5]), subroll_key([6, 6])
    ('5', '6')
    """
    return str(min(6, max(dice)))


def pick_row(table: Mapping[str, object], key: str, eligible: Callable[[str], bool]) -> object | None:
    """The row a civil-war sub-roll lands on (LR 11.1): the rolled row, or the next lower one while
    the area named there is not eligible; a row sending to another table is always followed.
    None when no row at or below ``key`` is usable (the event has no effect)."""
    for row in range(int(key), 0, -1):
        value = table[str(row)]
        if not isinstance(value, str) or eligible(value):
            return value
    return None


# ---- resolution (LR 11.3, 11.4.4) ------------------------------------------------------------


def faction_dice(first_aid: int, second_aid: int) -> tuple[int, int]:
    """Dice of the two factions: two each, and one more for the side with more aid (LR 11.3)."""
    return 2 + (first_aid > second_aid), 2 + (second_aid > first_aid)


def outcome(first: int, second: int) -> tuple[Outcome, int | None]:
    """The result of a civil-war roll-off between two modified results (LR 11.3).

    Equal results are a stalemate; otherwise the higher wins, decisively when it is at least double
    the other. The second value is the winner's index (0 or 1), None on a stalemate.

    >>> outcome(4, 4), outcome(5, 3), outcome(6, 3)
    (('stalemate', None), ('marginal', 0), ('decisive', 0))
    """
    if first == second:
        return "stalemate", None
    winner = 0 if first > second else 1
    high, low = max(first, second), min(first, second)
    return ("decisive" if high >= 2 * low else "marginal"), winner


def _effectiveness_rank(module: Module, state: CataclysmState, *, decreasing: bool) -> list[str]:
    standings = [
        Standing(p, politics_rules.effectiveness(module, state, p), module.powers[p].ideology)
        for p, line in state.powers.items()
        if line.active
    ]
    return [p for group in effectiveness_order(standings, decreasing=decreasing) for p in group]


def deciding_power(module: Module, state: CataclysmState, faction: str) -> str | None:
    """The power that decides for a Chinese faction (LR 11.4.4 B).

    The priorities apply in turn, each breaking the ties of the one before: most cubes in the
    countries of the faction's armies; most aid on its armies (with the Influence over China for
    the winner of an ended war); the USSR deciding for ChiComs, the US for the GMD;
    then the highest effectiveness (decreasing order, LR 3.1). None when no power is active.
    """
    armies = faction_armies(state, faction)
    order = _effectiveness_rank(module, state, decreasing=True)
    if not order:
        return None

    def priority(power: str) -> tuple[int, int, bool, int]:
        cubes = sum(state.cubes.get(area, {}).get(power, 0) for area in armies)
        aid = sum(state.chinese_aid.get(area, []).count(power) for area in armies)
        if state.ccw_winner == faction:
            aid += state.influence.get(CHINA, []).count(power)
        return cubes, aid, SPONSORS[faction] == power, -order.index(power)

    return max(order, key=priority)


def lowest_patron(module: Module, state: CataclysmState, aid: Iterable[str]) -> str:
    """The patron whose aid an attack spends (LR 9.7.1): the lowest effectiveness; ties follow the
    increasing order of play (LR 3.1), standing in for the attacker's choice (docs/decisions.md)."""
    owners = patrons(aid)
    order = _effectiveness_rank(module, state, decreasing=False)
    return min(owners, key=lambda p: order.index(p) if p in order else -1)


def attack_pairs(module: Module, state: CataclysmState, faction: str) -> list[tuple[str, str]]:
    """(attacking army, target army) pairs of adjacent opposing Chinese armies (LR 11.4.4 C)."""
    return [
        (area, target)
        for area in faction_armies(state, faction)
        for target in sorted(module.adjacent(area, "land"))
        if state.chinese_armies.get(target) == other_side(faction)
    ]


def retreat_areas(module: Module, state: CataclysmState, area_id: str) -> list[str]:
    """Where a beaten Chinese army may retreat: an adjacent uncontrolled Chinese country without an
    army (LR 11.4.1, 11.4.4 C)."""
    return sorted(
        target
        for target in module.adjacent(area_id, "land")
        if module.area(target).chinese
        and target not in state.chinese_armies
        and control_rules.controller(module, state, target) is None
        and module.area(target).map.value in state.maps
    )


def expansion_plan(state: CataclysmState) -> list[tuple[str, int]]:
    """Which faction expands first and with what effectiveness (LR 11.4.6).

    While the war goes on, the larger faction first at 2 and the other at 1; tied, the GMD first at
    1 and then the ChiComs at 1. After the war, the winner alone at 2.
    """
    if state.ccw_winner is not None:
        return [(state.ccw_winner, 2)] if faction_armies(state, state.ccw_winner) else []
    gmd, chicom = len(faction_armies(state, GMD)), len(faction_armies(state, CHICOM))
    if gmd == chicom:
        return [(GMD, 1), (CHICOM, 1)]
    larger = GMD if gmd > chicom else CHICOM
    return [(larger, 2), (other_side(larger), 1)]


def expansion_targets(module: Module, state: CataclysmState, faction: str) -> list[str]:
    """Chinese countries the faction may expand into (LR 11.4.6).

    During the war: adjacent to one of its armies, uncontrolled and without an army. After the war
    the winner may take any adjacent Chinese country with no land unit (no Chinese army and no
    power's land unit), even a controlled one.
    """
    after = state.ccw_winner == faction
    found: set[str] = set()
    for area in faction_armies(state, faction):
        for target in module.adjacent(area, "land"):
            spot = module.area(target)
            if not spot.chinese or spot.map.value not in state.maps or target in state.chinese_armies:
                continue
            if after:
                if not any(
                    u.area == target and module.unit_types[u.type].unit_class == "land" for u in state.units
                ):
                    found.add(target)
            elif control_rules.controller(module, state, target) is None:
                found.add(target)
    return sorted(found)


# ---- intervention (LR 8.5, 4.3) -----------------------------------------------------------------


def _can_leave(module: Module, state: CataclysmState, power: str, area_id: str, starts: set[str]) -> bool:
    """An LOC goes into or out of, not through, a restricted land area or a Delay box (LR 4.3)."""
    if area_id in starts:
        return True
    area = module.area(area_id)
    if area.delay_box and not delay_box_ignored(state, area_id):
        return False
    if area.type is not AreaType.LAND or not area.restricted:
        return True
    if any(
        u.area == area_id
        and u.type == "logistics"
        and control_rules.friendly_powers(module, state, power, u.power)
        for u in state.units
    ):
        return True
    return ignores_restricted(module, state, power, area_id)


def _touches(module: Module, area_id: str, reach: set[str], leave: Callable[[str], bool]) -> bool:
    """Whether an LOC in ``reach`` can take its last step into the area (the target of an
    intervention may be entered, LR 4.3)."""
    if area_id in reach:
        return True
    return any(
        edge.kind != "air" and edge.target in reach and leave(edge.target)
        for edge in module.neighbors(area_id)
    )


def _faction_reach(
    module: Module, state: CataclysmState, power: str, faction: str | None, base: set[str], starts: set[str]
) -> set[str]:
    """Grow an LOC reach by the LR 8.5 rule for aid to a Chinese army of ``faction``.

    Countries of the same faction's armies carry the LOC; those of the other faction block it, and
    so does any Chinese-army country when no faction is aided (LR 11.4.2).
    """

    def usable(area_id: str) -> bool:
        held = state.chinese_armies.get(area_id)
        return held is None or held == faction

    def leave(area_id: str) -> bool:
        return _can_leave(module, state, power, area_id, starts)

    reach = {area for area in base if usable(area)}
    if faction is None:
        return reach
    while True:
        fresh = [
            area
            for area in faction_armies(state, faction)
            if area not in reach
            and module.area(area).map.value in state.maps
            and _touches(module, area, reach, leave)
        ]
        if not fresh:
            return reach
        reach |= set(fresh)
        reach |= {
            area for area in supply_rules.loc_reach(module, state, power, sources=fresh) if usable(area)
        }


def intervention_targets(module: Module, state: CataclysmState, power: str) -> list[tuple[str, str]]:
    """Every (area, faction) the power can aid now, by LOC alone (LR 8.5, 4.3, 11.4.5).

    The faction is ``left``/``right`` for a civil war, ``gmd``/``chicom`` for a Chinese army.
    Civil-war areas under a power's control are skipped (their war has ended, LR 11.0); Chinese
    armies only while the Chinese Civil War goes on. Whether the power has a marker to place is
    the caller's concern.
    """
    wars = sorted(area for area in state.civil_wars if control_rules.controller(module, state, area) is None)
    china = ccw_in_progress(state)
    if not wars and not china:
        return []
    starts = set(control_rules.production_sites(module, state, power))
    base = supply_rules.loc_reach(module, state, power)

    def leave(area_id: str) -> bool:
        return _can_leave(module, state, power, area_id, starts)

    found: list[tuple[str, str]] = []
    if wars:
        plain = _faction_reach(module, state, power, None, base, starts)
        for area in wars:
            if _touches(module, area, plain, leave):
                found += [(area, LEFT), (area, RIGHT)]
    if china:
        for faction in FACTIONS:
            reach = _faction_reach(module, state, power, faction, base, starts)
            found += [
                (area, faction)
                for area in faction_armies(state, faction)
                if _touches(module, area, reach, leave)
            ]
    return sorted(found)
