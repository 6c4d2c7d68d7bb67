"""Crisis rolls and events (LR 3.7.4, crisis tables): each event kind of the module has a handler.

Civil War and Revolt events roll on their sub-tables and start civil wars (LR 11.1, in
``engine/civil_war.py``); Coup events give an ideology a chance at an uncontrolled country, with a
diplomatic opportunity for its opponents when the coup fails (LR 5.7).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from grandstrategy.cataclysm.engine import civil_war
from grandstrategy.cataclysm.engine.common import (
    effectiveness_check,
    gain_flag,
    garrisoned,
    power_order,
    return_to_card,
    stability_test,
)
from grandstrategy.cataclysm.engine.control import change_control, check_status_quo
from grandstrategy.cataclysm.engine.displacement import retreat_steps, sweep
from grandstrategy.cataclysm.engine.game import CataclysmGame
from grandstrategy.cataclysm.engine.machine import Step, step
from grandstrategy.cataclysm.module.schema import Commitment, Stability, WarStatus
from grandstrategy.cataclysm.module.world import area_controller
from grandstrategy.cataclysm.rules.control import belligerent, controller, interests, is_country
from grandstrategy.cataclysm.rules.dice import crisis_key

NOT_YET: set[str] = set()
"""Event kinds of the module that no handler implements yet (each is logged and changes nothing)."""


@step("crisis-roll")
def _crisis_roll(game: CataclysmGame, current: Step) -> None:
    extra = {"cataclysm": True} if current.get("cataclysm") else {}
    game.roll(2, "crisis", "crisis-event", reroll=current["reroll"], **extra)


@step("crisis-event")
def _crisis_event(game: CataclysmGame, current: Step) -> None:
    """Read the two dice high-low on the table the war status selects (LR 3.7.4, 5.6.3)."""
    state = game.state
    key = crisis_key(*current["dice"])
    wartime = state.war_status is not WarStatus.NONE
    table = game.module.crisis.wartime if wartime else game.module.crisis.peacetime
    entry = table[key]
    game.note(f"crisis {key} ({'wartime' if wartime else 'peacetime'}): {entry.name}")
    if current.get("cataclysm") and entry.event == "double-crisis":
        game.note("a further Cataclysm in the same Crisis is rolled again (crisis 1-1)")
        game.push("crisis-roll", reroll=current["reroll"], cataclysm=True)
        return
    if current["reroll"] and not can_change(game, entry.event, entry.params):
        game.note("the event cannot change anything: roll again (LR 3.7.4)")
        extra = {"cataclysm": True} if current.get("cataclysm") else {}
        game.push("crisis-roll", reroll=False, **extra)
        return
    game.push(f"event-{entry.event}", params=entry.params)


def can_change(game: CataclysmGame, event: str, params: dict[str, Any]) -> bool:
    """Whether an event of this kind could change the game state now (LR 3.7.4, L807-809).

    Each kind has its own test in :data:`CAN_CHANGE`: an event could change the state when some
    power it names could lose or gain something, even if the dice may decide otherwise (a check
    that might fail counts, L809). Kinds without a test always could (a double crisis, an event
    that rolls on a sub-table of powers).
    """
    test = CAN_CHANGE.get(event)
    return True if test is None else test(game, params)


def _active(game: CataclysmGame, power: str) -> bool:
    line = game.state.powers.get(power)
    return line is not None and line.active


def _political_crisis_changes(game: CataclysmGame, params: dict[str, Any]) -> bool:
    """The power is in play and its effectiveness is not reduced yet (crisis 5-3 ... 4-1)."""
    return _active(game, params["power"]) and not game.state.powers[params["power"]].effectiveness_reduced


def _labor_strikes_change(game: CataclysmGame, params: dict[str, Any]) -> bool:
    """The power holds a counter in reserve (LR L809)."""
    return _active(game, params["power"]) and game.state.powers[params["power"]].reserve is not None


def _flags_could_be_gained(game: CataclysmGame, powers: list[str]) -> bool:
    """Some of these powers is in play with a flag left to gain (LR 5.2.2)."""
    return any(_active(game, p) and game.state.powers[p].available_flags > 0 for p in powers)


def _public_support_changes(game: CataclysmGame, params: dict[str, Any]) -> bool:
    """A power of the ideology could gain a flag (crisis 5-5)."""
    return _flags_could_be_gained(game, _members(game, params["ideology"]))


def _public_opposition_changes(game: CataclysmGame, params: dict[str, Any]) -> bool:
    """A power of the ideology is at the commitment named or higher and so takes a stability test
    that may lower its stability (crisis 2-2)."""
    return bool(_opposed(game, params))


def _incident_changes(game: CataclysmGame, params: dict[str, Any]) -> bool:
    """Some power of the sub-table could gain a flag (crisis 2-1)."""
    return _flags_could_be_gained(game, sorted({p for pair in params["table"].values() for p in pair}))


def _war_weariness_changes(game: CataclysmGame, params: dict[str, Any]) -> bool:
    """A belligerent power of the ideology is not Steady, so its test may lower its stability."""
    return bool(_weary(game, params["ideology"]))


def _setback_changes(game: CataclysmGame, params: dict[str, Any]) -> bool:
    """Economic Setback is not already waiting for the next counter drawn (crisis 3-3)."""
    return not game.state.economic_setback


CAN_CHANGE: dict[str, Callable[[CataclysmGame, dict[str, Any]], bool]] = {
    "no-effect": lambda game, params: False,
    "political-crisis": _political_crisis_changes,
    "labor-strikes": _labor_strikes_change,
    "neutrality-pact": lambda game, params: bool(_pact_targets(game, params["areas"])),
    "chinese-resistance": lambda game, params: bool(_chinese_targets(game)),
    "failed-putsch": lambda game, params: bool(_putsch_targets(game, params["power"])),
    "civil-war": lambda game, params: civil_war.outbreak_possible(game, params["table"]),
    "revolt": lambda game, params: civil_war.outbreak_possible(game, params["table"]),
    "coup": lambda game, params: bool(
        _coup_targets(game, params["areas"]) and _members(game, params["ideology"])
    ),
    "public-support": _public_support_changes,
    "public-opposition": _public_opposition_changes,
    "international-incident": _incident_changes,
    "war-weariness": _war_weariness_changes,
    "economic-setback": _setback_changes,
}
"""For each event kind, whether it could change the game state now (LR 3.7.4)."""


def _pact_targets(game: CataclysmGame, areas: list[str]) -> list[tuple[str, str]]:
    """(country, controller) for each listed country in play that a power holds ungarrisoned."""
    found = []
    in_play = set(game.module.in_play_ids(game.state.maps))
    for area_id in areas:
        if area_id not in in_play:
            continue
        holder = controller(game.module, game.state, area_id)
        if holder is not None and not garrisoned(game, area_id):
            found.append((area_id, holder))
    return found


def _chinese_targets(game: CataclysmGame) -> list[tuple[str, str]]:
    """Ungarrisoned Chinese countries held by a power and free of Chinese armies (crisis 5-4)."""
    chinese = [a.id for a in game.module.areas.values() if a.chinese]
    return [(a, h) for a, h in _pact_targets(game, chinese) if a not in game.state.chinese_armies]


@step("event-no-effect")
def _no_effect(game: CataclysmGame, current: Step) -> None:
    game.note("no effect")


@step("event-neutrality-pact")
def _neutrality_pact(game: CataclysmGame, current: Step) -> None:
    """Each power holding an ungarrisoned listed country checks effectiveness or loses its cube."""
    for area_id, holder in reversed(_pact_targets(game, current["params"]["areas"])):
        effectiveness_check(game, holder, f"hold {area_id}", "pact-result", area=area_id, holder=holder)


@step("pact-result")
def _pact_result(game: CataclysmGame, current: Step) -> None:
    """A failed check: the cube goes and every non-land unit retreats from the country (crisis
    6-5 ... 6-1, 5-4, 4-4; LR 10.10); anything else that may no longer stay leaves (LR 2.2.4).

    ``every``: every cube there goes, not only the holder's (crisis 4-4). A home or colony area
    left without a hostile cube returns to its active owner (LR 2.2.3): a change of control by
    crisis event, with its flags and provocations (LR 2.2.4, 5.2.3, 5.2.4).
    """
    if current["success"]:
        return
    state, module = game.state, game.module
    area_id = current["area"]
    here = [u for u in state.units if u.area == area_id]
    leaving = [u for u in here if module.unit_types[u.type].unit_class in ("naval", "air")]
    cubes = state.cubes.get(area_id, {})
    game.note(f"{current['holder']} loses its cube in {area_id}")
    owner = module.area(area_id).owner
    left = {} if current.get("every") else {p: n for p, n in cubes.items() if p != current["holder"]}
    if owner is not None and owner != current["holder"] and _owner_regains(game, area_id, left):
        change_control(game, area_id, owner)  # the area is its owner's again (LR 2.2.3)
        game.then(*retreat_steps(game, leaving, "crisis: the country drops its controller"))
        return
    if left:  # a new dict: copies of the state share the area's old one
        state.cubes[area_id] = left
    else:
        state.cubes.pop(area_id, None)
    sweep(game)  # then any other unit that may no longer stay, e.g. a logistics unit (LR 2.2.4, 7.1.4)
    game.then(*retreat_steps(game, leaving, "crisis: the country drops its controller"))
    check_status_quo(game)


def _owner_regains(game: CataclysmGame, area_id: str, cubes: dict[str, int]) -> bool:
    """Whether the area's owner controls it once only ``cubes`` are left there (LR 2.2.4)."""
    state = game.state
    owner = game.module.area(area_id).owner
    held = area_controller(
        game.module, area_id, cubes, lambda p: p in state.powers and state.powers[p].active
    )
    return owner is not None and held == owner


@step("event-chinese-resistance")
def _chinese_resistance(game: CataclysmGame, current: Step) -> None:
    """Each power holding an ungarrisoned Chinese country with no Chinese army checks (crisis 5-4)."""
    for area_id, holder in reversed(_chinese_targets(game)):
        effectiveness_check(game, holder, f"hold {area_id}", "pact-result", area=area_id, holder=holder)


@step("event-public-support")
def _public_support(game: CataclysmGame, current: Step) -> None:
    for power in reversed(_members(game, current["params"]["ideology"])):
        effectiveness_check(game, power, "public support", "support-result", power=power)


@step("support-result")
def _support_result(game: CataclysmGame, current: Step) -> None:
    if current["success"]:
        gain_flag(game, current["power"], "public support")


def _members(game: CataclysmGame, ideology: str) -> list[str]:
    return [
        p
        for p, line in game.state.powers.items()
        if line.active and game.module.powers[p].ideology.value == ideology
    ]


@step("event-political-crisis")
def _political_crisis(game: CataclysmGame, current: Step) -> None:
    line = game.state.powers.get(current["params"]["power"])
    if line is None or not line.active:
        game.note("the power is not in play: no effect")
        return
    line = game.state.line_to_change(current["params"]["power"])
    line.effectiveness_reduced = True
    game.note(f"{current['params']['power']} effectiveness reduced until the end of the turn")


def _putsch_targets(game: CataclysmGame, power: str) -> list[str]:
    """The countries a Failed Putsch may strike: controlled, ungarrisoned and in the power's
    interest, those of least resistance only (crisis 4-4).

    Any power's cube makes a country controlled, the chooser's own or another's (LR 2.2.5); a home
    or colony area held by a power other than its owner is a country too (LR 2.2.3); resistance is
    one per neutral cube where there are any, else the printed value (LR 2.3.7).
    """
    state, module = game.state, game.module
    if power not in state.powers or not state.powers[power].active:
        return []  # an event naming a power out of play has no effect (LR 3.7.4)
    held = [
        a
        for a in interests(module, state, power)
        if is_country(module, state, a)
        and controller(module, state, a) is not None
        and not garrisoned(game, a)
    ]
    if not held:
        return []

    def resistance(area_id: str) -> int:
        return state.cubes.get(area_id, {}).get("neutral", 0) or module.area(area_id).resistance

    least = min(resistance(a) for a in held)
    return sorted(a for a in held if resistance(a) == least)


@step("event-failed-putsch")
def _failed_putsch(game: CataclysmGame, current: Step) -> None:
    power = current["params"]["power"]
    targets = _putsch_targets(game, power)
    if targets:
        game.ask(
            power,
            "Failed Putsch: choose the country that throws out its controller (crisis 4-4)",
            targets,
            "putsch-result",
            power=power,
        )


@step("putsch-result")
def _putsch_result(game: CataclysmGame, current: Step) -> None:
    """Every cube in the chosen country goes, whoever holds it, and its non-land units retreat."""
    area_id = current["choice"]
    holder = controller(game.module, game.state, area_id)
    if holder is None:
        return
    game.push("pact-result", success=False, area=area_id, holder=holder, every=True)


@step("event-economic-setback")
def _economic_setback(game: CataclysmGame, current: Step) -> None:
    game.state.economic_setback = True


def _opposed(game: CataclysmGame, params: dict[str, Any]) -> list[str]:
    """Active powers of the ideology at the commitment named or higher (crisis 2-2)."""
    levels = list(Commitment)
    floor = levels.index(Commitment(params["commitment"]))
    return [
        power
        for power in _members(game, params["ideology"])
        if levels.index(game.state.powers[power].commitment) >= floor
    ]


@step("event-public-opposition")
def _public_opposition(game: CataclysmGame, current: Step) -> None:
    for power in _opposed(game, current["params"]):
        stability_test(game, power, "public opposition")


@step("event-international-incident")
def _incident(game: CataclysmGame, current: Step) -> None:
    game.roll(2, "international incident", "incident-result", table=current["params"]["table"])


@step("incident-result")
def _incident_result(game: CataclysmGame, current: Step) -> None:
    key = str(min(6, max(current["dice"])))  # keep the higher die; a 6 reads the 6+ row
    for power in current["table"][key]:
        gain_flag(game, power, "international incident")


@step("event-double-crisis")
def _double(game: CataclysmGame, current: Step) -> None:
    """Cataclysm: two more rolls, each applied in turn; a further 1-1 is rolled again (crisis 1-1)."""
    game.then(
        {"do": "crisis-roll", "reroll": True, "cataclysm": True},
        {"do": "crisis-roll", "reroll": True, "cataclysm": True},
    )


@step("event-labor-strikes")
def _labor_strikes(game: CataclysmGame, current: Step) -> None:
    power = current["params"]["power"]
    line = game.state.powers.get(power)
    reserved = line.reserve if line is not None else None
    if reserved is not None:
        return_to_card(game, reserved)
        game.note(f"{power} loses its reserved {reserved}")
        game.state.line_to_change(power).reserve = None


def _weary(game: CataclysmGame, ideology: str) -> list[str]:
    """Belligerent powers of the ideology that are not Steady (reconstructed War Weariness)."""
    return [
        power
        for power in _members(game, ideology)
        if belligerent(game.state, power) and game.state.powers[power].stability is not Stability.STEADY
    ]


@step("event-war-weariness")
def _war_weariness(game: CataclysmGame, current: Step) -> None:
    for power in _weary(game, current["params"]["ideology"]):
        stability_test(game, power, "war weariness")


@step("event-civil-war")
def _civil_war(game: CataclysmGame, current: Step) -> None:
    """Roll two dice, keep the higher, and start a civil war where the sub-table says (LR 11.1)."""
    civil_war.start_outbreak(game, current["params"]["table"], "civil war")


@step("event-revolt")
def _revolt(game: CataclysmGame, current: Step) -> None:
    """A Revolt or Colonial Revolt is a civil-war sub-table of the Wartime table (LR 11.1, L2974)."""
    civil_war.start_outbreak(game, current["params"]["table"], "revolt")


def _coup_targets(game: CataclysmGame, areas: list[str]) -> list[str]:
    """Listed countries in play that nobody controls and that are not in civil war (LR 5.7)."""
    state, module = game.state, game.module
    in_play = set(module.in_play_ids(state.maps))
    return sorted(
        a
        for a in areas
        if a in in_play and controller(module, state, a) is None and a not in state.civil_wars
    )


@step("event-coup")
def _coup(game: CataclysmGame, current: Step) -> None:
    """The most effective active power of the coup's ideology picks one uncontrolled listed country
    and checks its effectiveness to gain control of it (docs/decisions.md)."""
    ideology, areas = current["params"]["ideology"], current["params"]["areas"]
    targets = _coup_targets(game, areas)
    plotters = power_order(game, decreasing=True, powers=_members(game, ideology))
    if not targets or not plotters:
        game.note("no uncontrolled country or no power for the coup: no effect")
        return
    leader = plotters[0]
    if len(targets) == 1:
        game.push("coup-target", choice=targets[0], power=leader, ideology=ideology)
        return
    game.ask(
        leader,
        "coup: choose the uncontrolled country it strikes (crisis; LR 5.7)",
        targets,
        "coup-target",
        power=leader,
        ideology=ideology,
    )


@step("coup-target")
def _coup_target(game: CataclysmGame, current: Step) -> None:
    effectiveness_check(
        game,
        current["power"],
        f"coup in {current['choice']}",
        "coup-result",
        area=current["choice"],
        power=current["power"],
        ideology=current["ideology"],
    )


@step("coup-result")
def _coup_result(game: CataclysmGame, current: Step) -> None:
    """Success gains control (LR 2.2.4); failure gives the opposing powers a diplomatic opportunity,
    in decreasing effectiveness order (LR 5.7)."""
    area = current["area"]
    if current["success"]:
        change_control(game, area, current["power"])
        return
    opposing = [
        p
        for p in power_order(game, decreasing=True)
        if game.module.powers[p].ideology.value != current["ideology"]
    ]
    game.note(f"the coup in {area} fails: diplomatic opportunity for {', '.join(opposing)} (LR 5.7)")
    game.push("opportunity", area=area, powers=opposing)


def _not_yet(game: CataclysmGame, current: Step) -> None:
    game.note("this crisis event has no handler yet: no effect")


for _kind in NOT_YET:
    step(f"event-{_kind}")(_not_yet)
