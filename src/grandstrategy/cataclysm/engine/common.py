"""Procedures many rules share: checks, stability tests, flags, counters (LR 2.4.3, 5.2, 5.3, 5.5.1)."""

from __future__ import annotations

from collections import Counter
from typing import Any

from grandstrategy.cataclysm.engine.game import CataclysmGame
from grandstrategy.cataclysm.engine.machine import Step, step
from grandstrategy.cataclysm.rules.arithmetic import Standing, effectiveness_order
from grandstrategy.cataclysm.rules.dice import check_succeeds
from grandstrategy.cataclysm.rules.economy import build_cost
from grandstrategy.cataclysm.rules.frozen import memo_of
from grandstrategy.cataclysm.rules.movement import coast_on_arrival
from grandstrategy.cataclysm.rules.politics import check_dice, effectiveness, lower_stability
from grandstrategy.cataclysm.state import Unit


def home_front_modifier(game: CataclysmGame, power: str) -> int:
    """The status card's home-front penalty at the power's commitment, for home-front tests and
    propaganda (LR 4.1, 6.7); none at Civilian, where there is no home-front test."""
    line = game.state.powers[power]
    return game.module.powers[power].status_card[line.commitment].home_front or 0


def parse_counter(counter: str) -> tuple[str, str | None, str | None]:
    """(kind, power, detail) of a counter's notation, e.g. ``unit:italy:surface-fleet``."""
    parts = counter.split(":")
    return parts[0], parts[1] if len(parts) > 1 else None, parts[2] if len(parts) > 2 else None


def counter_power(counter: str) -> str | None:
    """The power a counter belongs to, or None for neutral markers (Crisis, Civil War Resolution)."""
    return parse_counter(counter)[1]


def effectiveness_check(
    game: CataclysmGame,
    power: str,
    label: str,
    then: str,
    /,
    *,
    modifier: int = 0,
    extra_dice: int = 0,
    **context: Any,
) -> None:
    """Roll the power's effectiveness check (LR 5.3); ``then`` receives ``success`` and ``dice``."""
    dice, base_modifier = check_dice(game.module, game.state, power, extra_dice=extra_dice)
    game.roll(
        dice,
        f"{power} {label}",
        "check-result",
        modifier=modifier + base_modifier,
        label=label,
        checker=power,
        next={"do": then, **context},
    )


@step("check-result")
def _check_result(game: CataclysmGame, current: Step) -> None:
    success = check_succeeds(current["dice"], current["modifier"])
    dice = " ".join(str(d) for d in current["dice"])
    signed = f"{current['modifier']:+d}" if current["modifier"] else ""
    game.note(
        f"{current['checker']} {current['label']}: rolls {dice}{signed}, "
        f"{'success' if success else 'failure'}"
    )
    game.stack.append({**current["next"], "success": success, "dice": current["dice"]})


def set_area(game: CataclysmGame, unit: Unit, area_id: str, *, coast: str | None = None) -> None:
    """Put a unit in an area. In an area with two coasts (LR 2.2.1) a naval unit stands on ``coast``
    when its owner chose one, else on the coast it reaches by sea (at a special base, the base's
    coast, LR 2.3.3; ``rules.movement.coast_on_arrival``); any other unit on the first coast."""
    area = game.module.area(area_id)
    unit = game.state.unit_to_change(unit)  # units are copied on write
    if coast is not None and area.coasts and coast in area.coasts:
        unit.coast = coast
    else:
        unit.coast = coast_on_arrival(game.module, unit, area_id, game.state)
    unit.area = area_id


def unit_from_option(game: CataclysmGame, text: str) -> Unit:
    """The unit an option names by its ``#id`` (``move #12 tank-army in Silesia``)."""
    unit_id = int(text.split("#", 1)[1].split()[0])
    return next(u for u in game.state.units if u.id == unit_id)


def stability_step(power: str, reason: str, *, modifier: int = 0) -> Step:
    """A stability test (LR 5.5.1): an effectiveness check that drops stability on failure."""
    return {"do": "stability-test", "power": power, "reason": reason, "modifier": modifier}


def stability_test(game: CataclysmGame, power: str, reason: str, *, modifier: int = 0) -> None:
    """Run a stability test next."""
    game.stack.append(stability_step(power, reason, modifier=modifier))


@step("stability-test")
def _stability_test(game: CataclysmGame, current: Step) -> None:
    power = current["power"]
    if not game.state.powers[power].active:
        return
    extra = 1 if power == "soviet-union" else 0  # Za Rodinu!: one more die (LR 12.3.1)
    effectiveness_check(
        game,
        power,
        f"stability test ({current['reason']})",
        "stability-result",
        modifier=current["modifier"],
        extra_dice=extra,
        power=power,
        **({"defer": True} if current.get("defer") else {}),
    )


def deferred_collapse(game: CataclysmGame, power: str) -> bool:
    """Queue the collapse of an ally that failed its test during another power's collapse or
    surrender; they are resolved after that procedure, one at a time (LR 5.5.3 step 6, 5.5.4 step 2).

    A power whose collapse is already queued or about to run is not queued twice: its stability
    marker is already in the collapse box. Returns False when no queue is waiting.
    """
    queues = [s for s in game.stack if s["do"] == "collapse-queue"]
    if not queues:
        return False
    if not any(s["do"] == "collapse" and s.get("power") == power for s in game.stack) and not queued(
        game, power
    ):
        queues[-1]["powers"].append(power)
        game.note(f"{power} collapses; resolved once the current procedure is complete (LR 5.5.3)")
    return True


def queued(game: CataclysmGame, power: str) -> bool:
    """Whether the power's collapse waits in a queue: a further failed test changes nothing."""
    return any(s["do"] == "collapse-queue" and power in s["powers"] for s in game.stack)


@step("stability-result")
def _stability_result(game: CataclysmGame, current: Step) -> None:
    if current["success"]:
        return
    power = current["power"]
    if lower_stability(game.state, power):
        if current.get("defer") and deferred_collapse(game, power):
            return  # an ally's test within a collapse or surrender (LR 5.5.3 step 6)
        if queued(game, power):
            return  # its collapse already waits its turn
        game.push("collapse", power=power)
    else:
        game.note(f"{power} stability drops to {game.state.powers[power].stability.value}")


def flag_step(power: str, reason: str) -> Step:
    """A flag gain (LR 5.2.2): from available into the cup, the reserve or the holding box."""
    return {"do": "gain-flag", "power": power, "reason": reason}


def gain_flag(game: CataclysmGame, power: str, reason: str) -> None:
    """Run a flag gain next."""
    game.stack.append(flag_step(power, reason))


@step("gain-flag")
def _gain_flag(game: CataclysmGame, current: Step) -> None:
    power = current["power"]
    line = game.state.powers.get(power)
    if line is None or not line.active:
        return
    if line.available_flags == 0:
        game.note(f"{power} would gain a flag ({current['reason']}) but has none available")
        return
    line = game.state.line_to_change(power)
    line.available_flags -= 1
    counter = f"flag:{power}"
    if game.state.phase == "administration":
        line.holding_box.append(counter)
        return
    game.note(f"{power} gains a flag ({current['reason']})")
    game.ask(
        power,
        f"place the flag gained ({current['reason']}; LR 5.2.2)",
        ["cup", "reserve"],
        "place-counter",
        power=power,
        counter=counter,
    )


@step("place-counter")
def _place_counter(game: CataclysmGame, current: Step) -> None:
    if current["choice"] == "reserve":
        to_reserve(game, current["power"], current["counter"])
    else:
        game.state.cup.append(current["counter"])
        game.state.cup.sort()


def to_reserve(game: CataclysmGame, power: str, counter: str) -> None:
    """Put a counter in reserve; the counter it replaces is rejected (LR 3.4)."""
    line = game.state.line_to_change(power)
    if line.reserve is not None:
        return_to_card(game, line.reserve)
    line.reserve = counter


def return_to_card(game: CataclysmGame, counter: str) -> None:
    """Return a counter to its power's status card: available markers or force pool (LR 2.4.3, 3.6)."""
    kind, power, detail = parse_counter(counter)
    if power is None or power not in game.state.powers:
        return
    line = game.state.line_to_change(power)
    if kind == "flag":
        line.available_flags += 1
    elif kind in ("offensive", "resource"):
        line.available_offensives += 1
    elif kind == "unit" and detail is not None:
        key = game.module.unit_types[detail].counter
        line.force_pool[key] = line.force_pool.get(key, 0) + 1
    elif kind == "upgrade" and detail is not None:
        key = f"upgrade:{detail}"
        line.force_pool[key] = line.force_pool.get(key, 0) + 1


@step("return-counter")
def _return_counter(game: CataclysmGame, current: Step) -> None:
    """A played flag or offensive goes back to its power's available box once its action(s) are
    resolved (LR 3.7.1)."""
    return_to_card(game, current["counter"])


def next_turn_box(game: CataclysmGame, counter: str) -> None:
    """Put a marker on the turn track for next turn (LR 3.7.4, 3.7.6, 3.7.7)."""
    game.state.turn_track.setdefault(game.state.turn + 2, []).append(counter)


def power_order(game: CataclysmGame, *, decreasing: bool, powers: list[str] | None = None) -> list[str]:
    """Active powers in effectiveness order (LR 3.1); ties within an ideology by name (see decisions)."""
    wanted = powers if powers is not None else [p for p, line in game.state.powers.items() if line.active]
    standings = [
        Standing(p, effectiveness(game.module, game.state, p), game.module.powers[p].ideology) for p in wanted
    ]
    return [p for group in effectiveness_order(standings, decreasing=decreasing) for p in group]


def counters_off_map(game: CataclysmGame) -> list[str]:
    """Every counter that is not on the map: cup, turn track, holding boxes, reserves, and counters
    waiting for their owner's choice (drawn or gained, named by a pending step)."""
    state = game.state
    found = [*state.cup, *(c for items in state.turn_track.values() for c in items)]
    for line in state.powers.values():
        found.extend(line.holding_box)
        if line.reserve is not None:
            found.append(line.reserve)
    found += [s["counter"] for s in game.stack if isinstance(s.get("counter"), str)]
    if game.pending is not None and isinstance(game.pending["then"].get("counter"), str):
        found.append(game.pending["then"]["counter"])
    return found


def aid_and_influence(game: CataclysmGame) -> list[str]:
    """Offensive markers standing on the map as aid or Influence, one ``offensive:<power>`` each
    (LR 8.5, 11.2, 11.3, 11.4.5): they belong to neither the available box nor the cup."""
    state = game.state
    owners = [p for sides in state.civil_wars.values() for aid in sides.values() for p in aid]
    owners += [p for aid in state.chinese_aid.values() for p in aid]
    owners += [p for held in state.influence.values() for p in held]
    return [f"offensive:{power}" for power in owners]


def counters_in_play(game: CataclysmGame, power: str) -> Counter[str]:
    """The power's units and upgrade markers outside its force pool box, by counter (LR 4.1.1).

    Units on the map, and unit or upgrade counters in the cup, reserve, holding box, on the turn
    track or waiting for a choice. Keys are counter ids (``army``) or ``upgrade:<counter>``.
    """
    state, module = game.state, game.module
    found: Counter[str] = Counter()
    for unit in state.units:
        if unit.power == power:
            found[module.unit_types[unit.type].counter] += 1
    places = counters_off_map(game)
    for counter in places:
        kind, owner, detail = parse_counter(counter)
        if owner != power or detail is None:
            continue
        if kind == "unit":
            found[module.unit_types[detail].counter] += 1
        elif kind == "upgrade":
            found[f"upgrade:{detail}"] += 1
    return found


REFIT = " with dreadnought refit"


def refit_marker(game: CataclysmGame, power: str) -> str | None:
    """The power's Dreadnought Refit marker while it is available (LR 12.1.2, 12.2.1), else None."""
    marker = f"dreadnought-refit-{power}"
    return marker if marker in game.state.markers else None


def build_options(
    game: CataclysmGame, power: str, budget: int, *, dreadnought_refit: bool = False
) -> list[str]:
    """``build <item>`` for each force-pool counter that ``budget`` builds pay for (LR 4.6, 8.3).

    With ``dreadnought_refit`` the power may also build a surface fleet for one build less by using
    up its Dreadnought Refit marker: ``build surface-fleet with dreadnought refit``; it need not
    (LR 12.1.2, 12.2.1).
    """

    line = game.state.powers[power]
    options = []
    for key in sorted(line.force_pool):
        if line.force_pool[key] <= 0:
            continue
        items = (
            [key]
            if key.startswith("upgrade:")
            else [t.id for t in game.module.unit_types.values() if t.counter == key and not t.upgraded]
        )
        for item in items:
            cost, _ = build_cost(game.module, power, item)
            if cost <= budget:
                options.append(f"build {item}")
            if dreadnought_refit and item == "surface-fleet":
                cost, _ = build_cost(game.module, power, item, dreadnought_refit=True)
                if cost <= budget:
                    options.append(f"build {item}{REFIT}")
    return options


def construct(game: CataclysmGame, power: str, choice: str) -> tuple[str, int, bool]:
    """Build what a ``build_options`` choice names: take it from the force pool and, for a refit
    fleet, remove the Dreadnought Refit marker from play (LR 4.6, 12.1.2, 12.2.1); return the
    counter, its cost in builds and whether it goes to the turn track."""
    item = choice.removeprefix("build ")
    refit = item.endswith(REFIT)
    item = item.removesuffix(REFIT)
    marker = refit_marker(game, power) if refit else None
    if marker is not None:
        game.state.markers.remove(marker)
    cost, next_turn = build_cost(game.module, power, item, dreadnought_refit=marker is not None)
    return take_built(game, power, item), cost, next_turn


def take_built(game: CataclysmGame, power: str, item: str) -> str:
    """Take a built counter out of the force pool; return its notation (``unit:...``/``upgrade:...``)."""
    line = game.state.line_to_change(power)
    if item.startswith("upgrade:"):
        line.force_pool[item] -= 1
        return f"upgrade:{power}:{item.removeprefix('upgrade:')}"
    line.force_pool[game.module.unit_types[item].counter] -= 1
    return f"unit:{power}:{item}"


def garrisoned(game: CataclysmGame, area_id: str) -> bool:
    """A country holding a power's land unit; minor armies do not count (LR 2.2.5).

    While the state is frozen (a menu), the areas holding land units are worked out once.
    """
    memo = memo_of(game.state)
    if memo is not None:
        held = memo.get("garrisoned")
        if held is None:
            types = game.module.unit_types
            held = memo["garrisoned"] = frozenset(
                unit.area for unit in game.state.units if types[unit.type].unit_class == "land"
            )
        return area_id in held
    return any(
        game.module.unit_types[unit.type].unit_class == "land"
        for unit in game.state.units
        if unit.area == area_id
    )
