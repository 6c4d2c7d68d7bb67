"""The administration phase (LR 3.2): turn-track counters, flags, production, final disposition."""

from __future__ import annotations

from grandstrategy.cataclysm.engine import atomic
from grandstrategy.cataclysm.engine.common import (
    build_options,
    construct,
    counters_off_map,
    parse_counter,
    power_order,
    refit_marker,
    return_to_card,
    stability_test,
    to_reserve,
)
from grandstrategy.cataclysm.engine.game import CataclysmGame
from grandstrategy.cataclysm.engine.machine import Step, step
from grandstrategy.cataclysm.module.schema import AreaStatus, Ideology
from grandstrategy.cataclysm.rules.arithmetic import builds
from grandstrategy.cataclysm.rules.control import at_war, belligerent, production_sites
from grandstrategy.cataclysm.rules.economy import collect, collectable, war_offensives
from grandstrategy.cataclysm.rules.special import LEND_LEASE_IN_PLAY
from grandstrategy.cataclysm.rules.supply import loc_reach

MARKERS_FOR_THE_CUP = ("crisis", "home-front", "cw-resolution")


@step("administration")
def _administration(game: CataclysmGame, current: Step) -> None:
    state = game.state
    state.phase = "administration"
    for counter in state.turn_track.pop(state.turn, []):  # LR 3.2.1
        kind, power, _ = parse_counter(counter)
        if kind == "a-bomb-timer":  # the A-Bomb becomes available (LR 12.2.2)
            state.markers.append("a-bomb-available")
            game.note("the A-Bomb is available to the United States")
        elif kind in (*MARKERS_FOR_THE_CUP, "a-bomb"):
            if power is None or state.powers[power].active:
                state.cup.append(counter)
        elif power is not None and state.powers[power].active:
            state.line_to_change(power).holding_box.append(counter)
    steps: list[Step] = []
    for power, line in state.powers.items():
        if line.active:
            steps.append({"do": "gain-admin-flags", "power": power})
    for power in power_order(game, decreasing=False):
        steps.append({"do": "produce", "power": power})
    steps.append({"do": "repair"})
    for power in power_order(game, decreasing=False):
        steps.append({"do": "final-disposition", "power": power})
    steps.append({"do": "start-action-phase"})
    game.then(*steps)


def _take_flags(game: CataclysmGame, power: str, count: int) -> None:
    line = game.state.line_to_change(power)
    taken = min(count, line.available_flags)
    line.available_flags -= taken
    line.holding_box.extend([f"flag:{power}"] * taken)


@step("gain-admin-flags")
def _gain_admin_flags(game: CataclysmGame, current: Step) -> None:
    """One flag each (LR 3.2.2); Germany two under Night of the Long Knives; Status Quo limits Democracies."""
    power = current["power"]
    state = game.state
    if power == "germany" and "night-of-the-long-knives" in state.markers:
        _take_flags(game, power, 2)
    elif power == "italy" and "il-duce" in state.markers and not il_duce_in_play(game):  # LR 12.1.2
        if state.powers[power].available_flags:
            game.ask(
                power,
                "take the Il Duce flag? (LR 12.1.2)",
                ["flag", "il-duce flag"],
                "il-duce-flag",
                power=power,
            )
    elif state.powers[power].posture == "military-reforms":  # LR 12.3
        game.ask(
            power,
            "Military Reforms: take your flag at the cost of a stability test? (LR 12.3)",
            ["decline", "take"],
            "flag-at-a-cost",
            power=power,
        )
    elif "status-quo" in state.markers and game.module.powers[power].ideology is Ideology.DEMOCRACY:
        if power == "united-states":
            return
        game.ask(
            power,
            "Status Quo: take your flag at the cost of a stability test? (LR 12.2)",
            ["decline", "take"],
            "flag-at-a-cost",
            power=power,
        )
    else:
        _take_flags(game, power, 1)


def il_duce_in_play(game: CataclysmGame) -> bool:
    """Whether Italy's Il Duce flag is already out of its available markers."""
    return "flag:italy:il-duce" in counters_off_map(game)


@step("il-duce-flag")
def _il_duce_flag(game: CataclysmGame, current: Step) -> None:
    line = game.state.line_to_change(current["power"])
    line.available_flags -= 1
    line.holding_box.append("flag:italy:il-duce" if current["choice"] == "il-duce flag" else "flag:italy")


@step("flag-at-a-cost")
def _flag_at_a_cost(game: CataclysmGame, current: Step) -> None:
    if current["choice"] == "take":
        _take_flags(game, current["power"], 1)
        stability_test(game, current["power"], "flag taken at a cost")


@step("produce")
def _produce(game: CataclysmGame, current: Step) -> None:
    """Collect (LR 4.4.2) with any US transfers (LR 4.4.1), then choose conversions (LR 4.5)."""
    power = current["power"]
    if not game.state.powers[power].active:
        return
    lend_lease = power == "united-states" and LEND_LEASE_IN_PLAY in game.state.markers
    home = _home_resources(game) if lend_lease else [0, 0]
    resources, industrial = collect(game.module, game.state, power)
    game.note(f"{power} collects {resources} resource(s), {industrial} industrial")
    resources, industrial = _us_japan_trade(game, power, resources, industrial)
    resources, industrial = _receive_lend_lease(game, power, resources, industrial)
    if lend_lease:
        game.push("lend-lease", power=power, resources=resources, industrial=industrial, lent=[], home=home)
    else:
        game.push("conversion", power=power, resources=resources, industrial=industrial)


UNCONVERTED = "leave 1 unconverted"


def _resource_markers(game: CataclysmGame, power: str) -> int:
    """Resource markers in the power's production holding box: those collected or received this
    turn and one carried over from last turn's reserve (LR 3.4, 3.8 step 4, 4.5)."""
    return sum(1 for c in game.state.powers[power].holding_box if parse_counter(c)[0] == "resource")


@step("conversion")
def _conversion(game: CataclysmGame, current: Step) -> None:
    """Each resource marker in the holding box becomes an offensive or builds (LR 4.5); one may
    instead stay unconverted, to be reserved at final disposition (LR 3.2.4, 3.4)."""
    power = current["power"]
    unconverted = current.get("unconverted", 0)
    resources = _resource_markers(game, power) - unconverted
    options = [f"offensives {n}" for n in range(resources + 1)]
    if resources and not unconverted:
        options.append(UNCONVERTED)
    game.ask(
        power,
        f"production: how many of your {resources} resources become offensives? (LR 4.5)",
        options,
        "convert",
        power=power,
        resources=resources,
        industrial=current["industrial"],
        unconverted=unconverted,
    )


def _us_homes(game: CataclysmGame) -> list[str]:
    module, state = game.module, game.state
    return [
        a.id
        for a in module.areas.values()
        if a.owner == "united-states" and a.status is AreaStatus.HOME and a.map.value in state.maps
    ]


def _receive(game: CataclysmGame, power: str, what: str) -> bool:
    """Take one resource shipped by the US, if an LOC runs from a US home area to a production
    site of the power, US ports counting as friendly (LR 4.4.1)."""
    module, state = game.module, game.state
    line = state.powers[power]
    sites = production_sites(module, state, power)
    reach = loc_reach(module, state, power, sources=_us_homes(game), also_friendly=["united-states"])
    reached = any(site in reach for site in sites)
    if not reached or line.available_offensives == 0:
        game.note(f"{what}: the shipment cannot reach {power}")
        return False
    line = state.line_to_change(power)
    line.available_offensives -= 1
    line.holding_box.append(f"resource:{power}")
    game.note(f"{what}: {power} receives a resource from the US")
    return True


def _give(game: CataclysmGame) -> None:
    us = game.state.line_to_change("united-states")
    us.holding_box.remove("resource:united-states")
    us.available_offensives += 1


SHIPPED = ["japan", "trade"]  # the US has shipped this phase's trade resource; Japan has yet to produce
ADVANCED = ["united-states", "trade"]  # Japan, producing first, took the shipment the US owes


def _us_will_ship(game: CataclysmGame) -> bool:
    """Whether the US, yet to produce this phase, will collect an industrial resource to ship: its
    resources in collection order, as many as it has resource markers for (LR 4.4.2)."""
    state = game.state
    if not any(s.get("do") == "produce" and s.get("power") == "united-states" for s in game.stack):
        return False
    markers = state.powers["united-states"].available_offensives
    return any(c.industrial for c in collectable(game.module, state, "united-states")[:markers])


def _us_japan_trade(game: CataclysmGame, power: str, resources: int, industrial: int) -> tuple[int, int]:
    """US-Japan Trade (LR 12.2.2): the US hands one industrial resource to Japan each turn.

    The US gives up one industrial resource it collected; Japan receives it if its LOC is open. Each
    side settles at its own production, whatever their order; with no industrial resource to give
    the US ships nothing and Japan receives nothing.
    """
    state = game.state
    if "us-japan-trade" not in state.markers:
        return resources, industrial
    us, japan = state.powers.get("united-states"), state.powers.get("japan")
    if us is None or japan is None or not (us.active and japan.active):
        return resources, industrial
    if power == "united-states" and industrial > 0:
        _give(game)
        game.note("US-Japan Trade: the US ships one industrial resource to Japan")
        if ADVANCED in state.transfers:
            state.transfers.remove(ADVANCED)
        else:
            state.transfers.append(list(SHIPPED))
        return resources - 1, industrial - 1
    if power == "japan":
        if SHIPPED in state.transfers:
            state.transfers.remove(SHIPPED)
        elif _us_will_ship(game):
            state.transfers.append(list(ADVANCED))
        else:
            game.note("US-Japan Trade: the US has no industrial resource to ship")
            return resources, industrial
        if _receive(game, power, "US-Japan Trade"):
            return resources + 1, industrial + 1
    return resources, industrial


def _receive_lend_lease(game: CataclysmGame, power: str, resources: int, industrial: int) -> tuple[int, int]:
    """Collect the resources the US lent this power this turn (LR 12.2.2)."""
    for recipient, kind in [t for t in game.state.transfers if t[0] == power and t[1] != "trade"]:
        game.state.transfers.remove([recipient, kind])
        if _receive(game, power, "Lend Lease"):
            resources += 1
            industrial += kind == "industrial"
    return resources, industrial


def _home_resources(game: CataclysmGame) -> list[int]:
    """[natural, industrial]: how many of the resources the US collects now lie in its home areas,
    the only ones Lend Lease may send (LR 12.2.2)."""
    homes = set(_us_homes(game))
    found = [c for c in collectable(game.module, game.state, "united-states") if c.area in homes]
    industrial = sum(c.industrial for c in found)
    return [len(found) - industrial, industrial]


def _lendable(current: Step) -> tuple[int, int]:
    """(natural, industrial) the US may still lend: home-area resources it still holds (LR 12.2.2).

    Resources lost for want of markers, or shipped under US-Japan Trade, are taken from the
    non-home ones first, the choice most favourable to the US.
    """
    natural = current["resources"] - current["industrial"]
    home = current.get("home")
    if not (isinstance(home, list) and len(home) == 2 and all(isinstance(n, int) for n in home)):
        return natural, current["industrial"]  # a step saved before the home count was kept
    return min(natural, home[0]), min(current["industrial"], home[1])


@step("lend-lease")
def _lend_lease(game: CataclysmGame, current: Step) -> None:
    """While Lend Lease is in play the US may send resources collected in its home areas to
    belligerent powers, one each, to powers that have yet to produce this turn (LR 12.2.2)."""
    state = game.state
    waiting = {s["power"] for s in game.stack if s.get("do") == "produce"}
    natural, industrial = _lendable(current)
    options = ["done"]
    for power in sorted(waiting - set(current["lent"])):
        if not (state.powers[power].active and belligerent(state, power)) or at_war(
            state, power, "united-states"
        ):
            continue
        if industrial:
            options.append(f"lend industrial to {power}")
        if natural:
            options.append(f"lend natural to {power}")
    if options == ["done"]:
        game.push("conversion", **{k: current[k] for k in ("power", "resources", "industrial")})
        return
    game.ask(
        "united-states",
        "Lend Lease: send a resource? (LR 12.2.2)",
        options,
        "lend-lease-answer",
        **{k: v for k, v in current.items() if k != "do"},
    )


@step("lend-lease-answer")
def _lend_lease_answer(game: CataclysmGame, current: Step) -> None:
    fields = {k: current[k] for k in ("power", "resources", "industrial")}
    if current["choice"] == "done":
        game.push("conversion", **fields)
        return
    _, kind, _, recipient = current["choice"].split()
    _give(game)
    game.state.transfers.append([recipient, kind])
    fields["resources"] -= 1
    fields["industrial"] -= kind == "industrial"
    natural, industrial = _lendable(current)
    home = [natural - (kind == "natural"), industrial - (kind == "industrial")]
    game.push("lend-lease", **fields, lent=[*current["lent"], recipient], home=home)


@step("convert")
def _convert(game: CataclysmGame, current: Step) -> None:
    power = current["power"]
    if current["choice"] == UNCONVERTED:
        game.push("conversion", power=power, industrial=current["industrial"], unconverted=1)
        return
    line = game.state.line_to_change(power)
    offensives = int(current["choice"].split()[1])
    kept = current["resources"] - offensives
    converted = current["resources"]  # the markers left unconverted stay in the box (LR 3.2.4)
    for counter in [c for c in line.holding_box if parse_counter(c)[0] == "resource"][:converted]:
        line.holding_box.remove(counter)
    line.holding_box.extend([f"offensive:{power}"] * offensives)
    line.available_offensives += kept  # converted resource markers return to available (LR 4.6)
    rate = game.module.powers[power].status_card[line.commitment].conversion
    game.push("construct", power=power, builds=builds(kept, rate), industrial=current["industrial"])


@step("construct")
def _construct(game: CataclysmGame, current: Step) -> None:
    """Spend builds on counters from the force pool (LR 4.6), and on the A-Bomb while it is
    available (LR 12.2.2); leftover builds are lost."""
    power, left = current["power"], current["builds"]
    refit = refit_marker(game, power)
    options = ["done", *build_options(game, power, left, dreadnought_refit=refit is not None)]
    options += atomic.build_option(game, power)  # the A-Bomb costs one build (LR 12.2.2)
    if left == 0 or options == ["done"]:
        game.push("war-offensives", power=power, industrial=current["industrial"])
        return
    game.ask(
        power,
        f"production: {left} build(s) to spend (LR 4.6)",
        options,
        "construct-answer",
        power=power,
        builds=left,
        industrial=current["industrial"],
    )


@step("construct-answer")
def _construct_answer(game: CataclysmGame, current: Step) -> None:
    power = current["power"]
    if current["choice"] == "done":
        game.push("war-offensives", power=power, industrial=current["industrial"])
        return
    if current["choice"] == "build a-bomb":  # straight into the cup, never the reserve (LR 12.2.2)
        atomic.build(game)
        game.push("construct", power=power, builds=current["builds"] - 1, industrial=current["industrial"])
        return
    state = game.state
    line = state.line_to_change(power)
    counter, cost, next_turn = construct(game, power, current["choice"])  # LR 4.6, 12.1.2, 12.2.1
    if next_turn:
        state.turn_track.setdefault(state.turn + 2, []).append(counter)
    else:
        line.holding_box.append(counter)
    game.push("construct", power=power, builds=current["builds"] - cost, industrial=current["industrial"])


@step("war-offensives")
def _war_offensives(game: CataclysmGame, current: Step) -> None:
    power = current["power"]
    line = game.state.line_to_change(power)
    gained = min(war_offensives(game.state, power, current["industrial"]), line.available_offensives)
    line.available_offensives -= gained
    line.holding_box.extend([f"offensive:{power}"] * gained)


@step("repair")
def _repair(game: CataclysmGame, current: Step) -> None:
    game.state.damaged.clear()  # LR 4.8
    game.state.transfers.clear()  # shipments nobody could collect are lost


@step("final-disposition")
def _final_disposition(game: CataclysmGame, current: Step) -> None:
    """One counter from the holding box, an unconverted resource included, may go to reserve; the
    rest go into the cup (LR 3.2.4, 3.4)."""
    power = current["power"]
    line = game.state.powers[power]
    if not line.active:
        return
    reservable = ("flag", "offensive", "unit", "upgrade", "resource")
    choices = sorted({c for c in line.holding_box if parse_counter(c)[0] in reservable})
    if not choices:
        game.push("to-cup", power=power)
        return
    game.ask(
        power,
        "final disposition: keep one counter in reserve? (LR 3.2.4)",
        ["none", *[f"keep {c}" for c in choices]],
        "disposition-answer",
        power=power,
    )


@step("disposition-answer")
def _disposition_answer(game: CataclysmGame, current: Step) -> None:
    power = current["power"]
    line = game.state.line_to_change(power)
    if current["choice"] != "none":
        counter = current["choice"].removeprefix("keep ")
        line.holding_box.remove(counter)
        to_reserve(game, power, counter)  # a counter it replaces is rejected (LR 3.4)
    game.push("to-cup", power=power)


@step("to-cup")
def _to_cup(game: CataclysmGame, current: Step) -> None:
    """The holding box empties into the cup, except resources: those not converted or reserved go
    back to the available markers (LR 3.2.4)."""
    line = game.state.line_to_change(current["power"])
    for counter in line.holding_box:
        if parse_counter(counter)[0] == "resource":
            return_to_card(game, counter)
        else:
            game.state.cup.append(counter)
    game.state.cup.sort()
    line.holding_box = []


@step("start-action-phase")
def _start_action_phase(game: CataclysmGame, current: Step) -> None:
    game.state.phase = "action"
    game.push("action-window")
