"""Civil wars with exact dice (LR 11, 8.5, 9.7.1): outbreaks, aid, resolution and the Chinese Civil War.

Each test drives the engine step by step; every decision and every die is checked against the
invariants (``engine/invariants.problems``).
"""

from __future__ import annotations

from grandstrategy.cataclysm.engine import CataclysmGame
from grandstrategy.cataclysm.engine.civil_war import (
    intervention_options,
    move_chinese_army,
    remove_chinese_army,
    spend_aid_for_attack,
)
from grandstrategy.cataclysm.engine.invariants import problems
from grandstrategy.cataclysm.module import load_module
from grandstrategy.cataclysm.module.schema import WarStatus
from grandstrategy.cataclysm.rules.civil_war import (
    chinese_army_blocks,
    deciding_power,
    diplomacy_barred,
    diplomacy_modifier,
    expansion_plan,
    has_interest,
    outcome,
    pick_row,
    subroll_key,
)
from grandstrategy.cataclysm.state import Unit, new_state

MODULE = load_module()


def bare(scenario: str = "campaign-1933") -> CataclysmGame:
    """A game at the start of a scenario, with no step pending: each test pushes its own."""
    return CataclysmGame(MODULE, new_state(MODULE, scenario))


def sound(game: CataclysmGame) -> None:
    broken = problems(game)
    assert not broken, broken


def run(game: CataclysmGame) -> None:
    game.run()
    sound(game)


def choose(game: CataclysmGame, power: str, option: str) -> None:
    assert game.pending is not None and game.pending["type"] == "decide", game.pending
    assert game.pending["power"] == power, game.pending
    assert option in game.pending["options"], game.pending["options"]
    game.apply(game.legal_actions()[game.pending["options"].index(option)])
    sound(game)


def roll(game: CataclysmGame, *faces: int) -> None:
    for face in faces:
        assert game.pending is not None and game.pending["type"] == "chance", game.pending
        game.apply_chance(str(face))
        sound(game)


def asking(game: CataclysmGame) -> tuple[str, list[str]]:
    assert game.pending is not None and game.pending["type"] == "decide", game.pending
    return game.pending["power"], list(game.pending["options"])


def keep_aid(game: CataclysmGame) -> None:
    """Every patron keeps its aid when offered to revoke it."""
    while game.pending is not None and game.pending["type"] == "decide":
        if not game.pending["prompt"].startswith("take back"):
            return
        choose(game, game.pending["power"], "keep")


def flags_to_cup(game: CataclysmGame) -> list[str]:
    """Place every flag gained in the cup; return who gained one."""
    gained = []
    while game.pending is not None and game.pending["type"] == "decide":
        if not game.pending["prompt"].startswith("place the flag"):
            break
        gained.append(game.pending["power"])
        choose(game, game.pending["power"], "cup")
    return gained


def give_aid(game: CataclysmGame, area: str, side: str, *powers: str) -> None:
    """Put aid markers in place, taking them from the powers' available boxes."""
    sides = game.state.civil_wars.setdefault(area, {"left": [], "right": []})
    for power in powers:
        game.state.powers[power].available_offensives -= 1
        sides[side].append(power)


def give_chinese_aid(game: CataclysmGame, area: str, *powers: str) -> None:
    for power in powers:
        game.state.powers[power].available_offensives -= 1
        game.state.chinese_aid.setdefault(area, []).append(power)


def move(game: CataclysmGame, power: str, source: str, target: str) -> None:
    """Move one of the power's land units, leaving the counter mix as it is."""
    unit = next(
        u
        for u in game.state.units
        if u.power == power and u.area == source and MODULE.unit_types[u.type].unit_class == "land"
    )
    unit.area = target


def crisis(game: CataclysmGame, high: int, low: int) -> None:
    game.push("crisis-roll", reroll=True)
    run(game)
    roll(game, high, low)


# ---- pure arithmetic ------------------------------------------------------------------------------


def test_outcomes_and_sub_rolls_lr_11_3() -> None:
    assert outcome(3, 3) == ("stalemate", None)
    assert outcome(4, 3) == ("marginal", 0)
    assert outcome(3, 6) == ("decisive", 1)
    assert outcome(7, 4) == ("marginal", 0)
    assert subroll_key([6, 1]) == subroll_key([6, 6]) == "6"  # a 6 reads the 6+ row
    table = {"1": "a", "2": "b", "3": {"table": "wartime", "result": "4-4"}, "4": "d", "5": "e", "6": "f"}
    assert pick_row(table, "5", lambda area: area != "e") == "d"  # next lower row
    assert pick_row(table, "4", lambda area: area not in "de") == {"table": "wartime", "result": "4-4"}
    assert pick_row(table, "2", lambda area: False) is None


def test_the_scenarios_open_with_the_chinese_civil_war_in_the_campaign_only() -> None:
    campaign = new_state(MODULE, "campaign-1933")
    assert sorted(a for a, f in campaign.chinese_armies.items() if f == "chicom") == ["gansu", "shaanxi"]
    assert len([f for f in campaign.chinese_armies.values() if f == "gmd"]) == 6
    assert all(MODULE.area(a).chinese for a in campaign.chinese_armies)
    assert campaign.civil_wars == {} and campaign.ccw_winner is None
    assert new_state(MODULE, "europe-1939").chinese_armies == {}


# ---- outbreaks (LR 11.1) --------------------------------------------------------------------------


def test_civil_war_breaks_out_and_the_next_lower_row_is_used_lr_11_1() -> None:
    game = bare()
    crisis(game, 3, 2)  # Peacetime 3-2 Civil War
    roll(game, 5, 2)  # sub-roll 5: Austria
    assert game.state.civil_wars == {"austria": {"left": [], "right": []}}
    assert game.pending is None
    crisis(game, 2, 3)
    roll(game, 1, 5)  # 5 again: Austria is in civil war, so the 4 row, Greece
    assert sorted(game.state.civil_wars) == ["austria", "greece"]
    crisis(game, 3, 2)
    roll(game, 6, 6)  # a 6 reads the 6+ row: Spain
    assert "spain" in game.state.civil_wars
    assert diplomacy_barred(game.state, "spain") and not diplomacy_barred(game.state, "hunan")


def test_a_garrisoned_country_suppresses_the_civil_war_lr_11_1() -> None:
    game = bare()
    state = game.state
    move(game, "france", "lorraine", "czechoslovakia")
    crisis(game, 3, 2)
    roll(game, 2, 1)  # row 2: Czechoslovakia, garrisoned by France
    assert state.civil_wars == {} and "suppressed" in state.log[-1]
    assert state.cubes["czechoslovakia"] == {"france": 1}


def test_a_controlled_country_loses_its_cube_and_minor_army_and_gets_founding_aid_lr_11_1() -> None:
    game = bare()
    state = game.state
    assert "czechoslovakia" in state.minor_armies
    offensives = state.powers["france"].available_offensives
    crisis(game, 3, 2)
    roll(game, 2, 2)  # Czechoslovakia: French cube, only the Czech minor army
    assert "czechoslovakia" not in state.minor_armies and "czechoslovakia" not in state.cubes
    choose(game, "france", "right")  # one aid marker, no LOC, no provocation
    assert state.civil_wars["czechoslovakia"] == {"left": [], "right": ["france"]}
    assert state.powers["france"].available_offensives == offensives - 1
    assert game.pending is None


def test_a_revolt_in_a_colony_places_a_neutral_cube_lr_11_1_and_2_4_5() -> None:
    game = bare()
    state = game.state
    crisis(game, 3, 2)
    roll(game, 3, 1)  # row 3: roll on the Wartime 4-4 Colonial Revolt table
    roll(game, 2, 2)  # row 2: Libya, an Italian colony: its units do not suppress the revolt
    assert "libya" in state.civil_wars and state.cubes["libya"] == {"neutral": 1}
    assert not [u for u in state.units if u.area == "libya"]  # nowhere to retreat: destroyed
    assert "cannot retreat" in state.log[-1]
    choose(game, "italy", "none")
    crisis(game, 3, 2)
    roll(game, 3, 3)
    roll(game, 3, 1)  # row 3: Syria, French and ungarrisoned
    assert state.cubes["syria"] == {"neutral": 1} and "syria" in state.civil_wars
    choose(game, "france", "none")
    assert state.civil_wars["syria"] == {"left": [], "right": []}


def test_a_home_area_in_civil_war_costs_its_owner_a_stability_test_lr_5_5_1() -> None:
    game = bare()
    state = game.state
    move(game, "soviet-union", "ukraine", "caucasus")
    state.powers["soviet-union"].force_pool["fleet"] -= 1
    fleet = Unit(state.next_unit_id, "soviet-union", "carrier-fleet", "ukraine")
    state.units.append(fleet)
    game.push("cw-outbreak", area="ukraine")
    run(game)
    assert state.cubes["ukraine"] == {"neutral": 1}
    assert fleet.area == "caucasus"  # it retreats (LR 11.1, 10.10): its one friendly port in range
    choose(game, "soviet-union", "left")
    assert game.pending is not None and "stability test" in game.pending["label"]
    roll(game, 6, 1)  # Za Rodinu: two dice; passes


def test_influence_turns_back_into_aid_in_increasing_effectiveness_order_lr_11_1() -> None:
    game = bare()
    state = game.state
    for power in ("germany", "italy"):
        state.powers[power].available_offensives -= 1
    state.influence["spain"] = ["germany", "italy"]
    game.push("cw-outbreak", area="spain")
    run(game)
    choose(game, "italy", "right")  # Italy (1) before Germany (3)
    choose(game, "germany", "left")
    assert state.civil_wars["spain"] == {"left": ["germany"], "right": ["italy"]}
    assert "spain" not in state.influence


def test_nothing_eligible_rerolls_the_crisis_lr_3_7_4() -> None:
    game = bare("europe-1939")
    for area in ("spain", "austria", "greece", "czechoslovakia", "benelux"):
        game.state.civil_wars[area] = {"left": [], "right": []}
        game.state.cubes.pop(area, None)
    for area in ("french-north-africa", "syria", "libya"):  # India, Indochina, Burma: not in play
        game.state.civil_wars[area] = {"left": [], "right": []}
    crisis(game, 3, 2)
    assert "roll again" in game.state.log[-1]


# ---- coups (LR 5.7) ---------------------------------------------------------------------------


def test_a_communist_coup_and_the_opportunity_after_its_failure_lr_5_7() -> None:
    game = bare()
    state = game.state
    state.war_status = WarStatus.LIMITED
    crisis(game, 6, 4)  # Wartime 6-4 Communist Coup
    power, options = asking(game)
    assert power == "soviet-union" and options == ["bulgaria", "greece", "persia"]  # Yugoslavia is French
    choose(game, "soviet-union", "greece")
    roll(game, 6)
    assert state.cubes["greece"] == {"soviet-union": 1}
    flags_to_cup(game)
    crisis(game, 4, 6)
    choose(game, "soviet-union", "bulgaria")
    roll(game, 2)  # the coup fails: opposing powers, Germany first
    choose(game, "germany", "attempt")  # the check is Germany's choice (LR 5.7)
    roll(game, 5, 1, 1)
    assert state.cubes["bulgaria"] == {"germany": 1}


# ---- intervention (LR 8.5) ---------------------------------------------------------------------


def test_intervention_needs_an_loc_and_provokes_interested_powers_lr_8_5() -> None:
    game = bare()
    state = game.state
    state.civil_wars["austria"] = {"left": [], "right": []}
    assert "intervene austria left" in intervention_options(game, "germany")  # from Bavaria
    assert not any("austria" in o for o in intervention_options(game, "soviet-union"))  # no LOC
    offensives = state.powers["germany"].available_offensives
    game.push("intervene", power="germany", choice="intervene austria left")
    run(game)
    assert state.civil_wars["austria"]["left"] == ["germany"]
    assert state.powers["germany"].available_offensives == offensives - 1
    assert flags_to_cup(game) == ["france"]  # France holds Czechoslovakia and Yugoslavia, next door
    assert has_interest(MODULE, state, "germany", "austria")
    state.powers["italy"].available_offensives = 0
    assert intervention_options(game, "italy") == []  # no marker to place


def test_chinese_factions_carry_or_block_the_loc_lr_8_5() -> None:
    game = bare()
    state = game.state
    japan = intervention_options(game, "japan")
    assert "intervene hebei gmd-army" in japan and "intervene sichuan gmd-army" in japan
    assert not any("chicom" in option for option in japan)  # Chahar is not Japan's
    state.cubes["chahar"] = {"japan": 1}
    japan = intervention_options(game, "japan")
    assert "intervene gansu chicom-army" in japan and "intervene shaanxi chicom-army" in japan
    state.chinese_armies["chahar"] = "gmd"  # a GMD army in Chahar: not friendly (LR 11.4.2), blocks
    assert chinese_army_blocks(state, "chahar") and not chinese_army_blocks(state, "chahar-sea")
    japan = intervention_options(game, "japan")
    assert not any("chicom" in option for option in japan)
    assert "intervene chahar gmd-army" in japan
    state.ccw_winner = "gmd"
    assert intervention_options(game, "japan") == []  # no intervention once the war has ended


def test_chinese_aid_and_influence_on_diplomacy_lr_11_4_3() -> None:
    game = bare()
    state = game.state
    assert diplomacy_modifier(state, "japan", "hebei") == -1
    assert diplomacy_modifier(state, "japan", "shanxi") == 0
    state.influence["china"] = ["japan"]
    state.powers["japan"].available_offensives -= 1
    assert diplomacy_modifier(state, "japan", "hebei") == 0
    sound(game)


# ---- aid against attacks (LR 9.7.1) --------------------------------------------------------------


def test_an_attack_spends_one_aid_per_faction_lowest_patron_first_lr_9_7_1() -> None:
    game = bare()
    state = game.state
    give_aid(game, "spain", "left", "germany", "italy")
    give_aid(game, "spain", "right", "france")
    italy, france = state.powers["italy"].available_offensives, state.powers["france"].available_offensives
    assert spend_aid_for_attack(game, "spain", "united-kingdom")
    assert state.civil_wars["spain"] == {"left": ["germany"], "right": []}  # Italy (1) below Germany (3)
    assert state.powers["italy"].available_offensives == italy + 1
    assert state.powers["france"].available_offensives == france + 1
    sound(game)
    assert spend_aid_for_attack(game, "spain", "united-kingdom")
    assert not spend_aid_for_attack(game, "spain", "united-kingdom")
    give_chinese_aid(game, "hunan", "japan", "united-states")
    assert spend_aid_for_attack(game, "hunan", "japan")
    assert state.chinese_aid["hunan"] == ["japan"]  # the US (1) below Japan (2)
    sound(game)
    move_chinese_army(game, "hunan", "guangxi")  # a retreat: the aid goes along
    assert state.chinese_aid == {"guangxi": ["japan"]} and state.chinese_armies["guangxi"] == "gmd"
    japan = state.powers["japan"].available_offensives
    remove_chinese_army(game, "guangxi")  # destroyed: its aid goes back
    assert state.chinese_aid == {} and state.powers["japan"].available_offensives == japan + 1
    sound(game)


def test_patrons_may_revoke_aid_before_resolution_lr_11_2() -> None:
    game = bare("europe-1939")
    state = game.state
    give_aid(game, "spain", "left", "germany")
    give_aid(game, "spain", "right", "soviet-union")
    game.push("cw-resolution")
    run(game)
    choose(game, "germany", "revoke aid spain left")  # Germany has nothing left to revoke
    choose(game, "soviet-union", "keep")
    assert state.civil_wars["spain"] == {"left": [], "right": ["soviet-union"]}
    assert game.pending is not None and game.pending["label"].endswith("the left")


# ---- resolution (LR 11.3) ------------------------------------------------------------------------


def resolve(game: CataclysmGame, left: tuple[int, ...], right: tuple[int, ...]) -> None:
    game.push("cw-resolution")
    run(game)
    keep_aid(game)
    roll(game, *left)
    roll(game, *right)


def test_stalemate_costs_both_factions_their_aid_lr_11_3() -> None:
    game = bare("europe-1939")
    state = game.state
    germany = state.powers["germany"].available_offensives
    give_aid(game, "spain", "left", "germany", "italy")
    give_aid(game, "spain", "right", "soviet-union")
    resolve(game, (3, 2, 1), (3, 1))  # the left has more aid: three dice; 3 against 3
    assert state.civil_wars["spain"] == {"left": [], "right": []}
    assert state.powers["germany"].available_offensives == germany


def test_marginal_victory_costs_the_loser_its_aid_lr_11_3() -> None:
    game = bare("europe-1939")
    state = game.state
    give_aid(game, "spain", "left", "germany", "italy")
    give_aid(game, "spain", "right", "soviet-union")
    resolve(game, (4, 1, 1), (3, 2))
    assert state.civil_wars["spain"] == {"left": ["germany", "italy"], "right": []}


def test_marginal_victory_over_an_unaided_faction_leaves_influence_lr_11_3() -> None:
    game = bare("europe-1939")
    state = game.state
    give_aid(game, "spain", "left", "germany", "germany", "italy")
    germany = state.powers["germany"].available_offensives
    resolve(game, (5, 1, 1), (3, 1))  # 5 against 3: not double
    assert "spain" not in state.civil_wars
    assert state.influence["spain"] == ["germany", "italy"]  # one marker from each patron
    assert state.powers["germany"].available_offensives == germany + 1
    assert has_interest(MODULE, state, "italy", "spain")
    assert diplomacy_modifier(state, "italy", "spain") == 1


def test_decisive_victory_gives_the_single_patron_control_lr_11_3() -> None:
    game = bare("europe-1939")
    state = game.state
    italy = state.powers["italy"].available_offensives
    give_aid(game, "spain", "left", "italy")
    resolve(game, (6, 1, 1), (3, 2))  # 6 is double 3
    assert state.cubes["spain"] == {"italy": 1}
    assert "spain" not in state.civil_wars and "spain" not in state.influence
    assert state.powers["italy"].available_offensives == italy
    flags_to_cup(game)


def test_decisive_victory_with_several_patrons_opens_a_diplomatic_opportunity_lr_11_3() -> None:
    game = bare("europe-1939")
    state = game.state
    give_aid(game, "spain", "left", "italy", "germany")
    resolve(game, (6, 1, 1), (2, 1))
    choose(game, "germany", "attempt")  # each check is the power's choice (LR 5.7)
    roll(game, 1, 2, 3)  # Germany first (effectiveness 3): fails
    choose(game, "italy", "attempt")
    roll(game, 5)  # Italy succeeds
    assert state.cubes["spain"] == {"italy": 1}


def test_decisive_victory_without_patrons_just_ends_the_war_lr_11_3() -> None:
    game = bare("europe-1939")
    state = game.state
    state.civil_wars["spain"] = {"left": [], "right": []}
    resolve(game, (1, 2), (4, 3))
    assert state.civil_wars == {} and "spain" not in state.cubes and state.influence == {}


def test_a_civil_war_ends_when_a_power_takes_control_lr_11_0() -> None:
    game = bare("europe-1939")
    state = game.state
    italy = state.powers["italy"].available_offensives
    give_aid(game, "spain", "left", "italy")
    state.cubes["spain"] = {"germany": 1}  # e.g. a conquest elsewhere in the engine
    game.push("cw-resolution")
    run(game)
    assert state.civil_wars == {}
    assert state.powers["italy"].available_offensives == italy


def test_the_drawer_orders_the_resolutions_and_the_marker_waits_for_next_turn_lr_11_3() -> None:
    game = bare()
    state = game.state
    state.civil_wars["spain"] = {"left": [], "right": []}
    game.push("drawn", outcome="cw-resolution")
    run(game)
    assert state.turn_track[1935] == ["cw-resolution"]
    power, options = asking(game)
    assert power == "germany" and options == ["spain", "china"]  # the most effective power
    choose(game, "germany", "spain")
    roll(game, 6, 6)
    roll(game, 1, 1)  # decisive, no patron
    assert state.civil_wars == {}
    assert asking(game)[0] == "united-states"  # then China: the GMD attack, decided by the US


# ---- the Chinese Civil War (LR 11.4) ---------------------------------------------------------------


def china(game: CataclysmGame, **armies: str) -> None:
    game.state.chinese_armies = dict(sorted(armies.items()))


def test_deciding_powers_lr_11_4_4_b() -> None:
    game = bare()
    state = game.state
    assert deciding_power(MODULE, state, "gmd") == "united-states"
    assert deciding_power(MODULE, state, "chicom") == "soviet-union"
    give_chinese_aid(game, "shaanxi", "germany")
    assert deciding_power(MODULE, state, "chicom") == "germany"  # most aid
    state.cubes["gansu"] = {"japan": 1}
    assert deciding_power(MODULE, state, "chicom") == "japan"  # most cubes beats aid
    state.powers["united-states"].active = False
    assert deciding_power(MODULE, state, "gmd") == "germany"  # highest effectiveness


def test_marginal_win_over_an_unaided_army_makes_it_retreat_lr_11_4_4() -> None:
    game = bare()
    state = game.state
    china(game, hunan="gmd", sichuan="gmd", shaanxi="chicom", gansu="chicom")
    game.push("cw-resolution")
    run(game)
    choose(game, "united-states", "hunan attacks shaanxi")  # tied 2-2: the GMD attack
    roll(game, 4, 1)
    roll(game, 3, 2)  # 4 against 3: marginal; Shaanxi had no aid
    power, options = asking(game)
    assert power == "soviet-union" and options == ["chahar", "shanxi"]
    choose(game, "soviet-union", "shanxi")
    assert state.chinese_armies == {
        "gansu": "chicom",
        "hunan": "gmd",
        "shaanxi": "gmd",
        "shanxi": "chicom",
        "sichuan": "gmd",
    }


def test_marginal_win_with_no_retreat_removes_the_army_lr_11_4_4() -> None:
    game = bare()
    state = game.state
    china(game, hunan="gmd", sichuan="gmd", shaanxi="chicom", shanxi="chicom", chahar="chicom")
    state.cubes["gansu"] = {"soviet-union": 1}  # controlled: no retreat there
    game.push("cw-resolution")
    run(game)
    choose(game, "soviet-union", "shaanxi attacks sichuan")  # the ChiComs are more numerous
    roll(game, 2, 1)
    roll(game, 3, 3)  # the defending GMD army in Sichuan wins 3 to 2, marginally
    assert state.chinese_armies["shaanxi"] == "gmd"  # nowhere to retreat: removed, and a new GMD army
    assert sorted(a for a, f in state.chinese_armies.items() if f == "chicom") == ["chahar", "shanxi"]


def test_decisive_win_flips_the_army_and_removes_cubes_lr_11_4_4() -> None:
    game = bare()
    state = game.state
    china(game, hunan="gmd", shaanxi="chicom", gansu="chicom", sichuan="gmd")
    state.cubes["shaanxi"] = {"japan": 1}
    give_chinese_aid(game, "shaanxi", "germany")
    game.push("cw-resolution")
    run(game)
    keep_aid(game)
    choose(game, "united-states", "hunan attacks shaanxi")
    roll(game, 6, 1)
    roll(game, 3, 1, 2)  # Shaanxi has more aid: three dice; 6 is double 3
    assert state.chinese_armies["shaanxi"] == "gmd" and "shaanxi" not in state.cubes
    assert "shaanxi" not in state.chinese_aid


def test_stalemate_and_aided_loser_lose_their_aid_lr_11_4_4() -> None:
    game = bare()
    state = game.state
    china(game, hunan="gmd", shaanxi="chicom")
    give_chinese_aid(game, "hunan", "united-states")
    give_chinese_aid(game, "shaanxi", "japan")
    game.push("cw-resolution")
    run(game)
    keep_aid(game)
    roll(game, 4, 2)
    roll(game, 4, 1)  # the only pair: no choice; stalemate
    assert state.chinese_aid == {} and len(state.chinese_armies) == 2
    give_chinese_aid(game, "shaanxi", "japan")
    game.push("cw-resolution")
    run(game)
    keep_aid(game)
    roll(game, 5, 1)
    roll(game, 3, 3, 3)  # the aided defender loses marginally: it loses its aid and stays
    assert state.chinese_armies == {"hunan": "gmd", "shaanxi": "chicom"} and state.chinese_aid == {}


def test_the_chinese_civil_war_ends_with_influence_lr_11_4_5() -> None:
    game = bare()
    state = game.state
    china(game, hunan="gmd", sichuan="gmd", shaanxi="chicom")
    give_chinese_aid(game, "hunan", "united-states")
    give_chinese_aid(game, "sichuan", "united-states", "japan")
    us = state.powers["united-states"].available_offensives
    game.push("cw-resolution")
    run(game)
    keep_aid(game)
    choose(game, "united-states", "hunan attacks shaanxi")
    roll(game, 6, 5, 1)  # Hunan's aid: three dice
    roll(game, 1, 2)  # decisive: Shaanxi flips; only the GMD remains
    assert state.ccw_winner == "gmd" and state.chinese_aid == {}
    assert state.influence["china"] == ["united-states", "japan"]
    assert state.powers["united-states"].available_offensives == us + 1
    assert has_interest(MODULE, state, "japan", "shaanxi")
    assert expansion_plan(state) == [("gmd", 2)]


def test_expansion_tie_rule_gmd_first_at_one_lr_11_4_6() -> None:
    game = bare()
    state = game.state
    china(game, hunan="gmd", shaanxi="chicom", gansu="chicom", guangdong="gmd")
    state.cubes["hebei"] = {"japan": 1}
    move(game, "japan", "korea", "hebei")  # a garrisoned Chinese country: the war is Inactive
    assert expansion_plan(state) == [("gmd", 1), ("chicom", 1)]
    game.push("cw-resolution")
    run(game)
    assert "Inactive" in " ".join(state.log)
    power, options = asking(game)
    assert power == "united-states" and "effectiveness 1" in game.pending["prompt"]  # type: ignore[index]
    assert "hebei" not in options and "shaanxi" not in options
    choose(game, "united-states", "sichuan")
    roll(game, 4)  # one die: fails
    power, options = asking(game)
    assert power == "soviet-union" and "sichuan" in options  # the same area may be tried again
    choose(game, "soviet-union", "sichuan")
    roll(game, 5)
    assert state.chinese_armies["sichuan"] == "chicom"


def test_the_larger_faction_expands_first_at_two_lr_11_4_6() -> None:
    game = bare()
    china(game, hunan="gmd", guangdong="gmd", yunnan="gmd", chahar="chicom")
    assert expansion_plan(game.state) == [("gmd", 2), ("chicom", 1)]
    game.push("cw-resolution")
    run(game)  # not adjacent anywhere: both expand
    choose(game, "united-states", "guangxi")
    assert game.pending is not None and game.pending["type"] == "chance"
    roll(game, 1, 6)
    assert game.state.chinese_armies["guangxi"] == "gmd"


def test_after_the_war_the_winner_expands_into_controlled_countries_lr_11_4_6() -> None:
    game = bare()
    state = game.state
    china(game, hunan="gmd")
    state.ccw_winner = "gmd"
    state.cubes["guangxi"] = {"japan": 1}
    game.push("cw-resolution")
    run(game)
    power, options = asking(game)
    assert power == "united-states" and "guangxi" in options and "yunnan" not in options
    choose(game, "united-states", "guangxi")
    roll(game, 2, 5)
    assert state.chinese_armies["guangxi"] == "gmd" and "guangxi" not in state.cubes
