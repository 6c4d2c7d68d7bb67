"""The Chinese Civil War's resolution (LR 11.4.4-11.4.6): deciding powers, attacks between the
factions' armies, retreats and expansion.

The steps that run when :mod:`civil_war`'s resolution reaches China; the shared bookkeeping (armies
removed or moved, the war's end, cubes cleared) stays there.
"""

from __future__ import annotations

from typing import Any

from grandstrategy.cataclysm.engine import collapse  # noqa: F401  (registers the "opportunity" step)
from grandstrategy.cataclysm.engine.aid import area_name, give_back
from grandstrategy.cataclysm.engine.civil_war import (
    FACTION_NAMES,
    check_ccw_end,
    move_chinese_army,
    remove_area_cubes,
)
from grandstrategy.cataclysm.engine.displacement import retreat_steps
from grandstrategy.cataclysm.engine.game import CataclysmGame
from grandstrategy.cataclysm.engine.machine import Step, step
from grandstrategy.cataclysm.rules.civil_war import (
    FACTIONS,
    attack_pairs,
    ccw_active,
    ccw_in_progress,
    deciding_power,
    expansion_plan,
    expansion_targets,
    faction_armies,
    faction_dice,
    outcome,
    retreat_areas,
)
from grandstrategy.cataclysm.rules.dice import check_succeeds, roll_result

# ---- the Chinese Civil War (LR 11.4.4 - 11.4.6) --------------------------------------------------


def _decide(
    game: CataclysmGame, faction: str, prompt: str, options: list[str], then: str, /, **context: Any
) -> None:
    """A faction's choice: the deciding power picks (LR 11.4.4 B); a single option needs nobody."""
    decider = deciding_power(game.module, game.state, faction)
    if len(options) == 1 or decider is None:
        game.push(then, choice=options[0], **context)
        return
    game.ask(decider, f"for the {FACTION_NAMES[faction]}: {prompt}", options, then, **context)


@step("ccw-resolution")
def _ccw_resolution(game: CataclysmGame, current: Step) -> None:
    state, module = game.state, game.module
    if state.ccw_winner is not None:
        game.push("ccw-expand", plan=[list(item) for item in expansion_plan(state)])
        return
    if not ccw_in_progress(state):
        return
    if not ccw_active(module, state):
        game.note("the Chinese Civil War is Inactive: a Chinese country is garrisoned; both factions expand")
        game.push("ccw-expand", plan=[list(item) for item in expansion_plan(state)])
        return
    counts = {faction: len(faction_armies(state, faction)) for faction in FACTIONS}
    attacker = FACTIONS[0] if counts[FACTIONS[0]] >= counts[FACTIONS[1]] else FACTIONS[1]
    pairs = attack_pairs(module, state, attacker)
    if not pairs:
        game.note("the Chinese Civil War is Active, but no armies face each other: both factions expand")
        game.push("ccw-expand", plan=[list(item) for item in expansion_plan(state)])
        return
    game.note(f"the Chinese Civil War is Active: the {FACTION_NAMES[attacker]} must attack (LR 11.4.4)")
    _decide(
        game,
        attacker,
        "which army attacks which? (LR 11.4.4 C)",
        [f"{area} attacks {target}" for area, target in pairs],
        "ccw-attack",
    )


@step("ccw-attack")
def _ccw_attack(game: CataclysmGame, current: Step) -> None:
    area_id, _, target = current["choice"].split()
    state = game.state
    mine, theirs = faction_dice(
        len(state.chinese_aid.get(area_id, [])), len(state.chinese_aid.get(target, []))
    )
    game.roll(
        mine,
        f"Chinese Civil War: the army in {area_name(game, area_id)} attacks",
        "ccw-defend",
        armies=[area_id, target],
        defender_dice=theirs,
    )


@step("ccw-defend")
def _ccw_defend(game: CataclysmGame, current: Step) -> None:
    target = current["armies"][1]
    game.roll(
        current["defender_dice"],
        f"Chinese Civil War: the army in {area_name(game, target)} defends",
        "ccw-attack-result",
        armies=current["armies"],
        attacker=current["dice"],
    )


@step("ccw-attack-result")
def _ccw_attack_result(game: CataclysmGame, current: Step) -> None:
    """The modified results of LR 11.4.4 C."""
    state, module = game.state, game.module
    armies = current["armies"]
    scores = (roll_result(current["attacker"]), roll_result(current["dice"]))
    result, winner_index = outcome(*scores)
    shown = f"{area_name(game, armies[0])} {scores[0]}, {area_name(game, armies[1])} {scores[1]}"
    if winner_index is None:
        for area_id in armies:
            give_back(game, state.chinese_aid.pop(area_id, []))
        game.note(f"Chinese Civil War: {shown}, stalemate; both armies lose their aid")
        return
    won, lost = armies[winner_index], armies[1 - winner_index]
    winner = state.chinese_armies[won]
    aid = state.chinese_aid.pop(lost, [])
    give_back(game, aid)
    if result == "decisive":
        state.chinese_armies[lost] = winner
        game.note(
            f"Chinese Civil War: {shown}, decisive; the army in {area_name(game, lost)} "
            f"joins the {FACTION_NAMES[winner]}"
        )
        remove_area_cubes(game, lost)
        check_ccw_end(game)
        return
    if aid:
        game.note(f"Chinese Civil War: {shown}, marginal; the army in {area_name(game, lost)} loses its aid")
        return
    game.note(f"Chinese Civil War: {shown}, marginal; the army in {area_name(game, lost)} must retreat")
    places = retreat_areas(module, state, lost)
    if not places:
        game.push("ccw-retreat", choice="none", area=lost, winner=winner)
        return
    _decide(
        game,
        state.chinese_armies[lost],
        f"where does the army in {area_name(game, lost)} retreat? (LR 11.4.1)",
        places,
        "ccw-retreat",
        area=lost,
        winner=winner,
    )


@step("ccw-retreat")
def _ccw_retreat(game: CataclysmGame, current: Step) -> None:
    state = game.state
    area_id, winner = current["area"], current["winner"]
    if current["choice"] == "none":
        game.note(f"the army in {area_name(game, area_id)} cannot retreat and is removed (LR 11.4.4 C)")
        state.chinese_armies.pop(area_id)
    else:
        move_chinese_army(game, area_id, current["choice"])
        game.note(f"the army in {area_name(game, area_id)} retreats to {area_name(game, current['choice'])}")
    state.chinese_armies[area_id] = winner
    state.chinese_armies = dict(sorted(state.chinese_armies.items()))
    game.note(f"a new {FACTION_NAMES[winner]} army stands in {area_name(game, area_id)}")
    remove_area_cubes(game, area_id)
    check_ccw_end(game)


@step("ccw-expand")
def _ccw_expand(game: CataclysmGame, current: Step) -> None:
    """Each faction in turn tries to expand by diplomacy with no modifiers (LR 11.4.6).

    During the war each faction must make its attempt; once the war has ended the winner only may,
    so its deciding power may also answer ``none``.
    """
    plan = current["plan"]
    if not plan:
        return
    faction, eff = plan[0]
    targets = expansion_targets(game.module, game.state, faction)
    if not targets:
        game.note(f"the {FACTION_NAMES[faction]} have nowhere to expand")
        game.push("ccw-expand", plan=plan[1:])
        return
    optional = game.state.ccw_winner == faction  # "may attempt" after the war (LR 11.4.6)
    _decide(
        game,
        faction,
        f"expand into which country (effectiveness {eff})? (LR 11.4.6)",
        [*targets, "none"] if optional else targets,
        "ccw-expand-target",
        plan=plan,
    )


@step("ccw-expand-target")
def _ccw_expand_target(game: CataclysmGame, current: Step) -> None:
    faction, eff = current["plan"][0]
    if current["choice"] == "none":
        game.note(f"the {FACTION_NAMES[faction]} do not try to expand (LR 11.4.6)")
        game.push("ccw-expand", plan=current["plan"][1:])
        return
    game.roll(
        eff,
        f"{FACTION_NAMES[faction]} expansion into {area_name(game, current['choice'])}",
        "ccw-expand-result",
        plan=current["plan"],
        area=current["choice"],
    )


@step("ccw-expand-result")
def _ccw_expand_result(game: CataclysmGame, current: Step) -> None:
    state = game.state
    faction = current["plan"][0][0]
    area_id = current["area"]
    faces = " ".join(str(d) for d in current["dice"])
    if check_succeeds(current["dice"]):
        state.chinese_armies[area_id] = faction
        state.chinese_armies = dict(sorted(state.chinese_armies.items()))
        game.note(
            f"the {FACTION_NAMES[faction]} roll {faces} and expand into"
            f" {area_name(game, area_id)} (LR 11.4.6)"
        )
        remove_area_cubes(game, area_id)
        leaving = [unit for unit in state.units if unit.area == area_id]
        # the other units retreat or go to the cup, as each owner chooses (LR 11.4.6)
        steps = retreat_steps(game, leaving, "LR 11.4.6", cup=True)
        game.then(*steps, {"do": "ccw-expand", "plan": current["plan"][1:]})
        return
    game.note(f"the {FACTION_NAMES[faction]} roll {faces}: no expansion into {area_name(game, area_id)}")
    game.push("ccw-expand", plan=current["plan"][1:])
