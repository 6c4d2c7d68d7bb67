"""Drawn counters: play, reserve or reject (LR 3.4, 3.6), and playing each kind (LR 3.7.1–3.7.3, 8.3)."""

from __future__ import annotations

from grandstrategy.cataclysm.engine import politics
from grandstrategy.cataclysm.engine.common import (
    parse_counter,
    return_to_card,
    set_area,
    to_reserve,
)
from grandstrategy.cataclysm.engine.game import CataclysmGame
from grandstrategy.cataclysm.engine.machine import Step, step
from grandstrategy.cataclysm.module.scenario_checks import occupation_limits
from grandstrategy.cataclysm.module.schema import AreaType, Commitment
from grandstrategy.cataclysm.rules.arithmetic import military_actions
from grandstrategy.cataclysm.rules.control import production_sites
from grandstrategy.cataclysm.rules.special import ignores_restricted
from grandstrategy.cataclysm.rules.supply import loc_reach
from grandstrategy.cataclysm.state import Unit


def playable(game: CataclysmGame, power: str, counter: str, *, from_reserve: bool = False) -> bool:
    """Whether playing the counter now can do anything (LR 3.3 legality, 3.7)."""
    kind, _, detail = parse_counter(counter)
    line = game.state.powers[power]
    if kind == "flag":
        return True  # a flag can always be played, if need be to forfeit its action (LR 3.7.1)
    if kind == "offensive":
        if line.posture == "collective-security":
            return False  # LR 12.3: offensives must be rejected or reserved
        if line.commitment is Commitment.CIVILIAN:
            # two offensives together, one drawn and one from reserve, give one action (LR 4.1)
            return (
                not from_reserve
                and line.reserve is not None
                and parse_counter(line.reserve)[0] == "offensive"
            )
        return True
    if kind == "unit" and detail is not None:
        return bool(placements(game, power, detail))
    if kind == "upgrade" and detail is not None:
        return bool(upgradable(game, power, detail))
    return False


@step("drawn-choice")
def _drawn_choice(game: CataclysmGame, current: Step) -> None:
    counter = current["counter"]
    _, power, _ = parse_counter(counter)
    assert power is not None
    if not game.state.powers[power].active:
        return
    options = (["play"] if playable(game, power, counter) else []) + ["reserve", "reject"]
    kind = parse_counter(counter)[0]
    if kind in ("unit", "upgrade") and "play" not in options:
        options.append("next turn")  # no legal placement: it may wait on the turn track (LR 3.7.2, 3.7.3)
    game.ask(
        power,
        f"you drew {counter}: play, reserve or reject it (LR 3.3, 3.4, 3.6)",
        options,
        "drawn-answer",
        counter=counter,
        power=power,
    )


@step("drawn-answer")
def _drawn_answer(game: CataclysmGame, current: Step) -> None:
    counter, power, choice = current["counter"], current["power"], current["choice"]
    if choice == "reserve":
        to_reserve(game, power, counter)
        game.note(f"{power} reserves {counter}")
    elif choice == "reject":
        return_to_card(game, counter)
        game.note(f"{power} rejects {counter}")
    elif choice == "next turn":
        game.state.turn_track.setdefault(game.state.turn + 2, []).append(counter)
        game.note(f"{power} puts {counter} on the turn track for next turn")
    else:
        game.push("play-counter", counter=counter, source="cup")


@step("play-counter")
def _play_counter(game: CataclysmGame, current: Step) -> None:
    counter = current["counter"]
    kind, power, detail = parse_counter(counter)
    assert power is not None
    line = game.state.powers[power]
    if kind == "flag":
        # the flag returns to available only once its action is resolved, so the power cannot
        # regain that same flag during the action (LR 3.7.1, 5.2, 5.2.2)
        game.push("return-counter", counter=counter)
        il_duce = detail == "il-duce" and "il-duce" in game.state.markers  # LR 12.1.2: one more die
        politics.choose_action(game, power, extra_dice=1 if il_duce else 0)
    elif kind == "offensive":
        # like a flag, a played offensive returns to available only once its military actions are
        # resolved, so it cannot also serve as the aid marker of an intervention (LR 3.7.1, 8.5)
        game.push("return-counter", counter=counter)
        count = 1
        if line.commitment is Commitment.CIVILIAN and current["source"] == "cup":
            assert line.reserve is not None
            game.push("return-counter", counter=line.reserve)
            line = game.state.line_to_change(power)
            line.reserve = None
            count = 2
        actions = military_actions(
            count, game.module.powers[power].status_card[line.commitment].military_actions
        )
        game.note(f"{power} plays an offensive for {actions} military action(s)")
        game.push("military-action", power=power, left=actions, deployed=[], only=None)
    elif kind == "unit" and detail is not None:
        game.ask(
            power,
            f"place your {detail} at a production site (LR 3.7.2)",
            _placement_options(game, power, detail),
            "place-unit",
            power=power,
            unit_type=detail,
        )
    elif kind == "upgrade" and detail is not None:
        options = [f"{unit.area} #{unit.id}" for unit in upgradable(game, power, detail)]
        game.ask(
            power,
            f"choose the unit your {detail} upgrade improves (LR 3.7.3)",
            options,
            "upgrade-unit",
            power=power,
            marker=detail,
        )


def placements(game: CataclysmGame, power: str, unit_type: str) -> list[str]:
    """Where a new unit may be placed (LR 3.7.2): a production site; a naval unit in a coastal home area."""
    sites = production_sites(game.module, game.state, power)
    if game.module.unit_types[unit_type].unit_class != "naval":
        return sorted(sites)
    homes = [
        area.id
        for area in game.module.areas.values()
        if area.owner == power
        and area.status is not None
        and area.status.value == "home"
        and area.coastal
        and area.map.value in game.state.maps
        and area.type is not AreaType.SEA
    ]
    reach = loc_reach(game.module, game.state, power)
    reachable = [area for area in homes if area in sites or area in reach]
    # only a production site may be crowded by a newly placed unit (LR 7.1)
    return sorted(area for area in reachable if area in sites or _room_for(game, power, area, "naval"))


COAST_SUFFIX = " coast)"


def _placement_options(game: CataclysmGame, power: str, unit_type: str) -> list[str]:
    """:func:`placements` as options; a naval unit placed in an area with two coasts is placed on
    one of them, its owner's choice: ``lombardy (west coast)`` (LR 2.2.1, 3.7.2)."""
    naval = game.module.unit_types[unit_type].unit_class == "naval"
    options: list[str] = []
    for area_id in placements(game, power, unit_type):
        coasts = game.module.area(area_id).coasts
        if naval and coasts:
            options += [f"{area_id} ({coast}{COAST_SUFFIX}" for coast in sorted(coasts)]
        else:
            options.append(area_id)
    return options


def _room_for(game: CataclysmGame, power: str, area_id: str, unit_class: str) -> bool:
    """Whether one more unit of this class fits the area's occupation limit for the power's ideology."""
    module, state = game.module, game.state
    ideology = module.powers[power].ideology
    present = [u for u in state.units if u.area == area_id and module.powers[u.power].ideology is ideology]
    logistics = any(module.unit_types[u.type].unit_class == "logistics" for u in present)
    exempt = ignores_restricted(module, state, power, area_id)
    limit = occupation_limits(module, area_id, logistics, restricted=not exempt).get(unit_class, 0)
    return sum(1 for u in present if module.unit_types[u.type].unit_class == unit_class) < limit


@step("place-unit")
def _place_unit(game: CataclysmGame, current: Step) -> None:
    state = game.state
    choice: str = current["choice"]
    coast: str | None = None
    if choice.endswith(COAST_SUFFIX):
        choice, _, coast = choice.removesuffix(COAST_SUFFIX).rpartition(" (")
    area = game.module.area(choice)
    unit = Unit(state.next_unit_id, current["power"], current["unit_type"], area.id)
    set_area(game, unit, area.id, coast=coast)
    state.units.append(unit)
    power = current["power"]
    game.push("deploy", power=power, units=[state.next_unit_id], moved=[], offensive=False, played=True)
    state.next_unit_id += 1  # LR 3.7.2: the new unit may deploy at once, alone
    where = f"{area.name} ({coast} coast)" if coast is not None else area.name
    game.note(f"{power} places a {current['unit_type']} in {where}")


def upgradable(game: CataclysmGame, power: str, marker: str) -> list[Unit]:
    """The power's units an upgrade marker can flip, with an LOC to them (LR 3.7.3)."""
    flippable = {t.id for t in game.module.unit_types.values() if t.counter == marker and t.upgrades_to}
    mine = [unit for unit in game.state.units if unit.power == power and unit.type in flippable]
    if not mine:
        return []
    reach = loc_reach(game.module, game.state, power)
    return [unit for unit in mine if unit.area in reach]


@step("upgrade-unit")
def _upgrade_unit(game: CataclysmGame, current: Step) -> None:
    unit_id = int(current["choice"].split("#")[1])
    unit = next(u for u in game.state.units if u.id == unit_id)
    upgraded = game.module.unit_types[unit.type].upgrades_to
    assert upgraded is not None
    unit = game.state.unit_to_change(unit)  # units are copied on write
    unit.type = upgraded
    line = game.state.line_to_change(current["power"])
    key = f"upgrade:{current['marker']}"
    line.force_pool[key] = line.force_pool.get(key, 0) + 1  # the marker goes back to the force pool
    game.note(f"{current['power']} upgrades its unit in {unit.area} to a {upgraded}")
