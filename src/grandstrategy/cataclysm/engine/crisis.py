"""Crisis rolls and events (LR 3.7.4, crisis tables): each event kind of the module has a handler.

Civil War and Revolt events roll on their sub-tables and start civil wars (LR 11.1, in
``engine/civil_war.py``); Coup events give an ideology a chance at an uncontrolled country, with a
diplomatic opportunity for its opponents when the coup fails (LR 5.7).
"""

from __future__ import annotations

from typing import Any

from grandstrategy.cataclysm.engine import civil_war
from grandstrategy.cataclysm.engine.common import (
    effectiveness_check,
    gain_flag,
    power_order,
    return_to_card,
    stability_test,
)
from grandstrategy.cataclysm.engine.control import change_control, check_status_quo
from grandstrategy.cataclysm.engine.game import CataclysmGame
from grandstrategy.cataclysm.engine.machine import Step, step
from grandstrategy.cataclysm.engine.politics import garrisoned
from grandstrategy.cataclysm.module.schema import Commitment, Stability, WarStatus
from grandstrategy.cataclysm.rules.control import belligerent, controller, interests
from grandstrategy.cataclysm.rules.dice import crisis_key

NOT_YET: set[str] = set()
"""Event kinds of the module that no handler implements yet (each is logged and changes nothing)."""


@step("crisis-roll")
def _crisis_roll(game: CataclysmGame, current: Step) -> None:
    game.roll(2, "crisis", "crisis-event", reroll=current["reroll"])


@step("crisis-event")
def _crisis_event(game: CataclysmGame, current: Step) -> None:
    """Read the two dice high-low on the table the war status selects (LR 3.7.4, 5.6.3)."""
    state = game.state
    key = crisis_key(*current["dice"])
    wartime = state.war_status is not WarStatus.NONE
    table = game.module.crisis.wartime if wartime else game.module.crisis.peacetime
    entry = table[key]
    game.note(f"crisis {key} ({'wartime' if wartime else 'peacetime'}): {entry.name}")
    if current["reroll"] and not _can_change(game, entry.event, entry.params):
        game.note("the event cannot change anything: roll again (LR 3.7.4)")
        game.push("crisis-roll", reroll=False)
        return
    game.push(f"event-{entry.event}", params=entry.params)


def _can_change(game: CataclysmGame, event: str, params: dict[str, Any]) -> bool:
    """Whether an event could change the game state; events that roll always could (LR L809)."""
    state = game.state
    if event == "no-effect":
        return False
    if event == "political-crisis":
        line = state.powers.get(params["power"])
        return line is not None and line.active and not line.effectiveness_reduced
    if event == "labor-strikes":
        line = state.powers.get(params["power"])
        return line is not None and line.active and line.reserve is not None
    if event == "neutrality-pact":
        return bool(_pact_targets(game, params["areas"]))
    if event == "failed-putsch":
        return bool(_putsch_targets(game, params["power"]))
    if event in ("civil-war", "revolt"):
        return civil_war.outbreak_possible(game, params["table"])
    if event == "coup":
        return bool(_coup_targets(game, params["areas"]) and _members(game, params["ideology"]))
    return True


def _pact_targets(game: CataclysmGame, areas: list[str]) -> list[tuple[str, str]]:
    found = []
    in_play = set(game.module.in_play_ids(game.state.maps))
    for area_id in areas:
        if area_id not in in_play:
            continue
        holder = controller(game.module, game.state, area_id)
        if holder is not None and not garrisoned(game, area_id):
            found.append((area_id, holder))
    return found


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
    if current["success"]:
        return
    cubes = game.state.cubes.get(current["area"], {})
    cubes.pop(current["holder"], None)
    if not cubes:
        game.state.cubes.pop(current["area"], None)
    game.note(f"{current['holder']} loses its cube in {current['area']}")
    check_status_quo(game)  # victory points changed with the cube (LR 1.7.1, 12.2)


@step("event-chinese-resistance")
def _chinese_resistance(game: CataclysmGame, current: Step) -> None:
    chinese = [a.id for a in game.module.areas.values() if a.chinese]
    game.push("event-neutrality-pact", params={"areas": chinese})


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
    line.effectiveness_reduced = True
    game.note(f"{current['params']['power']} effectiveness reduced until the end of the turn")


def _putsch_targets(game: CataclysmGame, power: str) -> list[str]:
    state, module = game.state, game.module
    if power not in state.powers or not state.powers[power].active:
        return []
    held = [
        a
        for a in interests(module, state, power)
        if module.area(a).owner is None and controller(module, state, a) == power and not garrisoned(game, a)
    ]
    if not held:
        return []
    least = min(module.area(a).resistance for a in held)
    return sorted(a for a in held if module.area(a).resistance == least)


@step("event-failed-putsch")
def _failed_putsch(game: CataclysmGame, current: Step) -> None:
    power = current["params"]["power"]
    targets = _putsch_targets(game, power)
    if targets:
        game.ask(
            power,
            "Failed Putsch: choose the country that throws you out (crisis 4-4)",
            targets,
            "putsch-result",
            power=power,
        )


@step("putsch-result")
def _putsch_result(game: CataclysmGame, current: Step) -> None:
    game.push("pact-result", success=False, area=current["choice"], holder=current["power"])


@step("event-economic-setback")
def _economic_setback(game: CataclysmGame, current: Step) -> None:
    game.state.economic_setback = True


@step("event-public-opposition")
def _public_opposition(game: CataclysmGame, current: Step) -> None:
    levels = list(Commitment)
    floor = levels.index(Commitment(current["params"]["commitment"]))
    for power in _members(game, current["params"]["ideology"]):
        if levels.index(game.state.powers[power].commitment) >= floor:
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
    game.then({"do": "crisis-roll", "reroll": True}, {"do": "crisis-roll", "reroll": True})


@step("event-labor-strikes")
def _labor_strikes(game: CataclysmGame, current: Step) -> None:
    line = game.state.powers.get(current["params"]["power"])
    if line is not None and line.reserve is not None:
        return_to_card(game, line.reserve)
        game.note(f"{current['params']['power']} loses its reserved {line.reserve}")
        line.reserve = None


@step("event-war-weariness")
def _war_weariness(game: CataclysmGame, current: Step) -> None:
    for power in _members(game, current["params"]["ideology"]):
        line = game.state.powers[power]
        if belligerent(game.state, power) and line.stability is not Stability.STEADY:
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
