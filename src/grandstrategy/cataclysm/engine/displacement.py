"""Units that may no longer stay where they are must leave (LR 5.6.2, 6.1.4, 7.1, 7.1.2).

When control, a war, an alliance or a base changes, some units can find themselves in an area
they may not occupy. Each such unit retreats (LR 10.10) or goes to the action cup, as its owner
chooses; a unit with neither choice is destroyed. ``sweep`` queues the check; it runs once the
current procedure has finished its own moves.
"""

from __future__ import annotations

from grandstrategy.cataclysm.engine.common import set_area
from grandstrategy.cataclysm.engine.game import CataclysmGame
from grandstrategy.cataclysm.engine.machine import Step, step
from grandstrategy.cataclysm.rules.control import friendly_powers, production_sites
from grandstrategy.cataclysm.rules.movement import retreat_destinations
from grandstrategy.cataclysm.rules.occupation import may_stop
from grandstrategy.cataclysm.state import Unit

SWEEP = "occupation-sweep"


def sweep(game: CataclysmGame) -> None:
    """Queue a check of every unit's right to stay, unless one is already queued."""
    if not any(frame.get("do") == SWEEP for frame in game.stack):
        game.stack.insert(_insertion_point(game), {"do": SWEEP})


def _insertion_point(game: CataclysmGame) -> int:
    """Just under the running operation, if any, so that it finishes first; else on top."""
    for index, frame in enumerate(game.stack):
        if frame.get("do") in ("op-end",):
            return index
    return len(game.stack)


def stranded(game: CataclysmGame) -> Unit | None:
    """The first unit that may not stay in its area, or None (production sites may be crowded, LR 7.1).

    A unit that could stay but for units of powers no longer friendly to it beside it is taken only
    when no unit lacks the right to stay on its own: the guests leave, not their host (LR 6.1.4: the
    units in a former ally's areas retreat, and those that stay are then alone).
    """
    module, state = game.module, game.state
    sites: dict[str, set[str]] = {}
    crowded: Unit | None = None
    for unit in state.units:
        if unit.power not in sites:
            sites[unit.power] = set(production_sites(module, state, unit.power))
        if unit.area in sites[unit.power]:
            continue
        if not may_stop(module, state, unit, unit.area):
            if not _alone_it_may_stay(game, unit):
                return unit
            if crowded is None:
                crowded = unit
    return crowded


def _alone_it_may_stay(game: CataclysmGame, unit: Unit) -> bool:
    """Whether the unit could stay in its area if the units there of powers not friendly to it left."""
    module, state = game.module, game.state
    others = [
        u
        for u in state.units
        if u.area == unit.area and not friendly_powers(module, state, unit.power, u.power)
    ]
    if not others:
        return False
    trial = state.clone()
    gone = {u.id for u in others}
    trial.units = [u for u in trial.units if u.id not in gone]
    return may_stop(module, trial, unit, unit.area)


@step(SWEEP)
def _sweep(game: CataclysmGame, current: Step) -> None:
    unit = stranded(game)
    if unit is None:
        return
    module = game.module
    try:
        places = retreat_destinations(module, game.state, unit, "land")
    except ValueError:
        places = []
    options = [module.area(a).name for a in places if a != unit.area]
    if unit.type != "logistics":  # destroyed when its area is no longer friendly (LR 7.1.4)
        options.append("to the cup")  # a fortress cannot retreat, but may go to the cup (LR 6.1.4)
    game.push(SWEEP)
    if not options:
        _destroy(game, unit)
        return
    if len(options) == 1 and options[0] == "to the cup":
        _to_cup(game, unit)
        return
    game.ask(
        unit.power,
        f"your {unit.type} may not stay in {module.area(unit.area).name}: retreat or go to the cup"
        " (LR 6.1.4, 7.1)",
        options,
        "occupation-sweep-answer",
        unit=unit.id,
    )


@step("occupation-sweep-answer")
def _sweep_answer(game: CataclysmGame, current: Step) -> None:
    unit = next(u for u in game.state.units if u.id == current["unit"])
    if current["choice"] == "to the cup":
        _to_cup(game, unit)
        return
    area_id = game.module.find_area(current["choice"])
    assert area_id is not None
    area = game.module.area(area_id)
    game.note(f"{unit.power}'s {unit.type} leaves {game.module.area(unit.area).name} for {area.name}")
    set_area(game, unit, area_id)


def _to_cup(game: CataclysmGame, unit: Unit) -> None:
    """Into the action cup, on its regular side (LR 5.6.2: interned units come back unupgraded)."""
    types = game.module.unit_types.values()
    regular = next((t.id for t in types if t.upgrades_to == unit.type), unit.type)
    game.state.units.remove(unit)
    game.state.cup.append(f"unit:{unit.power}:{regular}")
    game.state.cup.sort()
    game.note(f"{unit.power}'s {unit.type} may not stay in {game.module.area(unit.area).name}: to the cup")


def _destroy(game: CataclysmGame, unit: Unit) -> None:
    state = game.state
    state.units.remove(unit)
    key = game.module.unit_types[unit.type].counter
    line = state.powers[unit.power]
    line.force_pool[key] = line.force_pool.get(key, 0) + 1
    game.note(f"{unit.power}'s {unit.type} may not stay in {game.module.area(unit.area).name}: destroyed")


def sweep_pending(game: CataclysmGame) -> bool:
    """Whether a sweep is queued or under way (the invariant check waits for it)."""
    if any(frame.get("do") == SWEEP for frame in game.stack):
        return True
    return game.pending is not None and game.pending["then"].get("do") == "occupation-sweep-answer"
