"""Units that may no longer stay where they are must leave (LR 5.6.2, 6.1.4, 7.1, 7.1.2).

When control, a war, an alliance or a base changes, some units can find themselves in an area
they may not occupy. Each such unit retreats (LR 10.10) or goes to the action cup, as its owner
chooses; a unit with neither choice is destroyed. A unit going to the cup is interned and comes
back on its regular side (LR 5.6.2 design note), wherever a rule offers the cup. ``sweep`` queues
the check; it runs once the current procedure has finished its own moves. ``retreat_steps`` sends
given units away where a rule says they retreat (LR 10.10), with the cup as a choice only where
that rule allows it.
"""

from __future__ import annotations

from grandstrategy.cataclysm.engine.common import power_order, set_area
from grandstrategy.cataclysm.engine.game import CataclysmGame
from grandstrategy.cataclysm.engine.machine import Step, step
from grandstrategy.cataclysm.rules.control import friendly_powers, production_sites
from grandstrategy.cataclysm.rules.frozen import frozen
from grandstrategy.cataclysm.rules.movement import retreat_destinations
from grandstrategy.cataclysm.rules.occupation import may_stop
from grandstrategy.cataclysm.state import Unit

SWEEP = "occupation-sweep"
RETREAT = "forced-retreat"


def sweep(game: CataclysmGame, *, aftermath: bool = False) -> None:
    """Queue a check of every unit's right to stay, unless one is already queued.

    ``aftermath``: the change comes from a combat's aftermath (a conquest, a special British
    base removed), so the units that must leave retreat and may not go to the cup instead
    (LR 2.2.4, 2.3.3); the mark holds for the whole queued check.
    """
    queued = next((frame for frame in game.stack if frame.get("do") == SWEEP), None)
    if queued is None:
        queued = {"do": SWEEP}
        game.stack.insert(_insertion_point(game), queued)
    if aftermath:
        queued["aftermath"] = True


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
    with frozen(game.state):  # one snapshot for every unit's question
        return _stranded(game)


def _stranded(game: CataclysmGame) -> Unit | None:
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
    if unit.type != "logistics" and not current.get("aftermath"):
        # a fortress cannot retreat but may go to the cup (LR 6.1.4); a logistics unit is destroyed
        # when its area is no longer friendly (LR 7.1.4); no cup in a combat's aftermath (LR 2.2.4)
        options.append("to the cup")
    game.push(SWEEP, **({"aftermath": True} if current.get("aftermath") else {}))
    if not options:
        _destroy(game, unit)
        return
    if len(options) == 1 and options[0] == "to the cup":
        _to_cup(game, unit)
        return
    prompt = (
        "retreat (LR 2.2.4, 2.3.3, 10.10)"
        if current.get("aftermath")
        else "retreat or go to the cup (LR 6.1.4, 7.1)"
    )
    game.ask(
        unit.power,
        f"your {unit.type} may not stay in {module.area(unit.area).name}: {prompt}",
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


def retreat_steps(game: CataclysmGame, units: list[Unit], rule: str, *, cup: bool = False) -> list[Step]:
    """Steps making each unit leave its area by retreat (LR 10.10) or, with ``cup``, by retreat or
    the action cup as its owner chooses (LR 2.2.4); one that can do neither is destroyed.

    Units of several powers go in decreasing effectiveness order (LR 10.10); ``rule`` names the rule
    that sends them away, for the prompt.
    """
    order = power_order(game, decreasing=True)

    def rank(unit: Unit) -> tuple[int, int]:
        return (order.index(unit.power) if unit.power in order else len(order), unit.id)

    return [{"do": RETREAT, "unit": u.id, "cup": cup, "rule": rule} for u in sorted(units, key=rank)]


@step(RETREAT)
def _forced_retreat(game: CataclysmGame, current: Step) -> None:
    module, state = game.module, game.state
    unit = next((u for u in state.units if u.id == current["unit"]), None)
    if unit is None:
        return
    try:
        places = retreat_destinations(module, state, unit, "land")
    except ValueError:
        places = []
    options = [module.area(a).name for a in places if a != unit.area]
    if current["cup"] and unit.type not in ("fortress", "logistics"):
        options.append("to the cup")
    if not options:
        _destroy(game, unit, why=f"cannot retreat ({current['rule']}, LR 10.10.1)")
        return
    if len(options) == 1:
        game.push(f"{RETREAT}-answer", unit=unit.id, choice=options[0])
        return
    what = "retreat or go to the cup" if current["cup"] else "retreat"
    game.ask(
        unit.power,
        f"your {unit.type} must leave {module.area(unit.area).name}: {what} ({current['rule']}, LR 10.10)",
        options,
        f"{RETREAT}-answer",
        unit=unit.id,
    )


@step(f"{RETREAT}-answer")
def _forced_retreat_answer(game: CataclysmGame, current: Step) -> None:
    unit = next((u for u in game.state.units if u.id == current["unit"]), None)
    if unit is None:
        return
    if current["choice"] == "to the cup":
        _to_cup(game, unit)
        return
    area_id = game.module.find_area(current["choice"])
    if area_id is None:
        return
    source = game.module.area(unit.area).name
    game.note(f"{unit.power}'s {unit.type} retreats from {source} to {current['choice']}")
    set_area(game, unit, area_id)


def _to_cup(game: CataclysmGame, unit: Unit) -> None:
    """Put the unit's counter in the action cup on its regular side: it is interned and comes back
    as a new unit would (LR 5.6.2 design note, 3.7.2). Its upgrade marker went back to the force
    pool when it was played (LR 3.7.3), so the flip, as a loss's flip (LR 10.8), leaves no marker."""
    kind = next((t.id for t in game.module.unit_types.values() if t.upgrades_to == unit.type), unit.type)
    game.state.units.remove(unit)
    game.state.cup.append(f"unit:{unit.power}:{kind}")
    game.state.cup.sort()
    game.note(f"{unit.power}'s {unit.type} may not stay in {game.module.area(unit.area).name}: to the cup")


def _destroy(game: CataclysmGame, unit: Unit, *, why: str = "may not stay") -> None:
    state = game.state
    state.units.remove(unit)
    key = game.module.unit_types[unit.type].counter
    line = state.line_to_change(unit.power)
    line.force_pool[key] = line.force_pool.get(key, 0) + 1
    game.note(f"{unit.power}'s {unit.type} {why} in {game.module.area(unit.area).name}: destroyed")


def sweep_pending(game: CataclysmGame) -> bool:
    """Whether a sweep is queued or under way (the invariant check waits for it)."""
    if any(frame.get("do") in (SWEEP, RETREAT, f"{RETREAT}-answer") for frame in game.stack):
        return True
    return game.pending is not None and game.pending["then"].get("do") in (
        "occupation-sweep-answer",
        f"{RETREAT}-answer",
    )
