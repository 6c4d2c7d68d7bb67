"""Rules-lawyer audit of LR 1.6-1.7 (game end, scoring, winner) and LR 2.2-2.9 (areas, control,
map features, counters, dice, cup), through the engine and the rules functions."""

from __future__ import annotations

import pytest
from tests.cataclysm.test_operations import MODULE, bare_game, choose

from grandstrategy.cataclysm.engine import CataclysmGame
from grandstrategy.cataclysm.engine.control import change_control
from grandstrategy.cataclysm.engine.invariants import problems
from grandstrategy.cataclysm.module.schema import Ideology, WarStatus
from grandstrategy.cataclysm.rules.control import (
    controller,
    ideology_scores,
    is_country,
    production_sites,
    victory_points,
    winner,
)
from grandstrategy.cataclysm.rules.dice import dice_pool, roll_result
from grandstrategy.cataclysm.rules.war import global_war_last_turn


def drive(game: CataclysmGame, face: int, *, stop_on: str | None = None) -> list[str]:
    """Play on: every die shows ``face``, every flag goes to the cup, every diplomatic opportunity is
    attempted (LR 5.7); stop at any other decision, or at a die whose label holds ``stop_on``.
    Returns the labels of the dice rolled."""
    labels: list[str] = []
    while game.pending is not None:
        if game.pending["type"] == "chance":
            label = game.pending["label"]
            if stop_on is not None and stop_on in label:
                break
            labels.append(label)
            game.apply_chance(str(face))
            assert not problems(game), problems(game)
        elif "place the flag" in game.pending["prompt"]:
            choose(game, game.pending["power"], "cup")
        elif game.pending["prompt"].startswith("diplomatic opportunity in "):
            choose(game, game.pending["power"], "attempt")
        else:
            break
    return labels


def roll_check(game: CataclysmGame, face: int) -> str:
    """Roll every die of the pending effectiveness check with ``face``; the check's label."""
    assert game.pending is not None and game.pending["type"] == "chance", game.pending
    label = game.pending["label"]
    while game.pending is not None and game.pending["type"] == "chance" and game.pending["label"] == label:
        game.apply_chance(str(face))
    return str(label)


def surrendered_earlier(game: CataclysmGame, power: str) -> None:
    """Take ``power`` out as if it had surrendered before: inactive, no units or cubes on the map."""
    state = game.state
    state.powers[power].active = False
    state.units = [u for u in state.units if u.power != power]
    for area_id in list(state.cubes):
        left = {p: n for p, n in state.cubes[area_id].items() if p != power}  # never in place
        if left:
            state.cubes[area_id] = left
        else:
            del state.cubes[area_id]


# --- LR 5.5.4 steps 6, 7 and 9 as they bear on control, scoring and the end of the game (LR 1.6) ---


def test_a_later_surrender_puts_neutral_cubes_in_an_earlier_surrendered_powers_areas_lr_5_5_4_step_7() -> (
    None
):
    """LR 5.5.4 step 7 (L1245): Germany surrenders holding Paris and Brittany of a France that
    surrendered before; neutral cubes replace the German ones (two in the capital), the former home
    areas get a diplomatic opportunity for the powers holding French home areas, and France, still
    scored (LR 1.7.1, L196), keeps losing those points."""
    game = bare_game("campaign-1933")
    state = game.state
    surrendered_earlier(game, "france")
    state.cubes["paris"] = {"germany": 2}
    state.cubes["brittany"] = {"germany": 1}
    state.cubes["lorraine"] = {"soviet-union": 1}
    france_before = victory_points(MODULE, state, "france")
    game.push("surrender", power="germany")
    game.run()
    rolled = drive(game, 1)  # every opportunity fails
    assert state.cubes["paris"] == {"neutral": 2}
    assert state.cubes["brittany"] == {"neutral": 1}
    assert state.cubes["lorraine"] == {"soviet-union": 1}
    assert controller(MODULE, state, "paris") is None and is_country(MODULE, state, "paris")
    assert victory_points(MODULE, state, "france") == france_before
    opportunities = [label for label in rolled if "diplomatic opportunity" in label]
    assert opportunities[0].startswith("soviet-union diplomatic opportunity in brittany")
    assert opportunities[-1].startswith("soviet-union diplomatic opportunity in paris")
    assert state.result is None


def test_the_surrender_marker_counts_cubes_after_the_diplomatic_opportunities_lr_5_5_4_step_9() -> None:
    """LR 5.5.4 is applied strictly in order (L1230): the opportunities of step 6 (L1240) come before
    the Surrender marker of step 9 (L1247), as in the example where Germany takes Brittany first
    (L1256). A tie of one German and one Soviet cube broken by the opportunity is no tie."""
    game = bare_game("campaign-1933")
    state = game.state
    state.cubes["lorraine"] = {"germany": 1}
    state.cubes["provence"] = {"soviet-union": 1}
    game.push("surrender", power="france")
    game.run()
    drive(game, 1, stop_on="diplomatic opportunity in brittany")
    label = roll_check(game, 6)  # the first eligible power takes Brittany
    taker = label.split(" ")[0]
    assert taker in ("germany", "soviet-union")
    drive(game, 1)  # every later opportunity fails
    assert state.cubes["brittany"] == {taker: 1}
    assert state.surrenders == ["fascism" if taker == "germany" else "communism"]
    assert state.result is None


def test_no_opportunity_in_a_remote_former_home_area_lr_2_2_8() -> None:
    """LR 2.2.8 (L362-364): no other power ever gains control of a remote area; when the UK
    surrenders, Canada and South Africa become neutral countries but are offered to nobody, while its
    other former home areas get their diplomatic opportunity (LR 5.5.4 step 6)."""
    game = bare_game("campaign-1933")
    state = game.state
    state.cubes["london"] = {"germany": 2}
    game.push("surrender", power="united-kingdom")
    game.run()
    rolled = drive(game, 6)  # every check succeeds
    assert not any("canada" in label or "south-africa" in label for label in rolled)
    assert any("diplomatic opportunity" in label for label in rolled)
    for remote in ("canada", "south-africa"):
        assert state.cubes[remote] == {"neutral": 1}
        assert controller(MODULE, state, remote) is None


def test_two_surrender_markers_end_the_game_after_the_whole_procedure_lr_1_6() -> None:
    """LR 1.6 (L174-176): an ideology holding two Surrender markers ends the game, a shared marker
    (L1247) counting for both ideologies; the surrender procedure is completed first, its
    opportunities included, then the winner is scored."""
    game = bare_game("campaign-1933")
    state = game.state
    state.surrenders = ["communism+fascism"]
    state.cubes["paris"] = {"germany": 2}
    game.push("surrender", power="france")
    game.run()
    rolled = drive(game, 1)
    assert any("diplomatic opportunity" in label for label in rolled)
    assert state.result is not None and state.result["how"] == "fascism holds two Surrender markers"
    assert state.phase == "over" and game.pending is None
    scores = ideology_scores(MODULE, state)
    assert state.result["scores"] == {i.value: s for i, s in scores.items()}
    assert state.result["winner"] == winner(scores).value


def test_a_shared_surrender_marker_and_one_more_end_the_game_for_either_ideology_lr_1_6() -> None:
    """LR 1.6 (L176) with L1247: a marker between two ideologies counts as one for each."""
    game = bare_game("campaign-1933")
    game.state.surrenders = ["communism+fascism", "communism"]
    game.push("check-game-end")
    game.run()
    assert game.state.result is not None
    assert game.state.result["how"] == "communism holds two Surrender markers"


def test_every_power_of_an_ideology_surrendered_ends_the_game_lr_1_6() -> None:
    """LR 1.6 (L174): when the last Fascist power surrenders the game ends at step 10 of LR 5.5.4."""
    game = bare_game("campaign-1933")
    for power in ("italy", "japan"):
        surrendered_earlier(game, power)
    game.push("surrender", power="germany")
    game.run()
    drive(game, 1)
    assert game.state.result is not None
    assert game.state.result["how"] == "every fascism power has surrendered"


def test_one_surrender_does_not_end_the_game_lr_1_6() -> None:
    """LR 1.6: one Surrender marker, and an ideology with a power left, is no end."""
    game = bare_game("campaign-1933")
    game.state.surrenders = ["fascism"]
    game.push("check-game-end")
    game.run()
    assert game.state.result is None


@pytest.mark.parametrize(
    ("turn", "last", "global_war", "ends"),
    [
        (1943, 1943, None, True),
        (1943, 1943, 1945, False),  # the Global War marker is later
        (1945, 1943, 1945, True),
        (1945, 1947, 1945, False),  # the scenario's last turn is later
        (1947, 1947, 1945, True),
    ],
)
def test_the_game_ends_after_the_later_of_the_last_turn_and_the_global_war_turn_lr_1_6(
    turn: int, last: int, global_war: int | None, ends: bool
) -> None:
    """LR 1.6 (L178): the game ends when the scenario's last turn or the Global War marker's turn is
    over, whichever is later."""
    game = bare_game("europe-1939")
    state = game.state
    state.turn, state.last_turn, state.global_war_turn = turn, last, global_war
    if global_war is not None:
        state.war_status = WarStatus.GLOBAL
    state.wars = [(["france"], ["germany"])]
    game.push("end-phase-finish")
    game.run()
    assert (state.result is not None) is ends
    if ends:
        assert state.result is not None and state.result["how"] == "the last turn is over"
    else:
        assert state.turn == turn + 2


def test_the_global_war_marker_goes_two_turns_ahead_or_on_1945_lr_5_6_5() -> None:
    """LR 5.6.5 (L1322-1324): two turns ahead of the current turn, never before 1945-46; the example
    puts a 1943-44 flip on 1947-48."""
    assert global_war_last_turn(1943) == 1947
    assert global_war_last_turn(1939) == 1945
    assert global_war_last_turn(1933) == 1945


# --- LR 1.7: scoring and the winner ---


def test_scoring_counts_own_cubes_and_every_other_cube_in_home_and_colonies_lr_1_7_1() -> None:
    """LR 1.7.1 (L196): own cubes anywhere on the map, minus cubes of every other colour in own home
    and colony areas (neutral and same-ideology cubes included); the score may be negative."""
    game = bare_game("campaign-1933")
    state = game.state
    uk, japan = (victory_points(MODULE, state, p) for p in ("united-kingdom", "japan"))
    state.cubes["india"] = {"japan": 1}  # a colony
    assert victory_points(MODULE, state, "united-kingdom") == uk - 1
    assert victory_points(MODULE, state, "japan") == japan + 1
    state.cubes["burma"] = {"neutral": 1}  # a neutral cube counts against the owner too
    state.cubes["canada"] = {"united-states": 1}  # and so does a cube of its own ideology
    assert victory_points(MODULE, state, "united-kingdom") == uk - 3
    state.cubes["london"] = {"germany": 2}
    assert victory_points(MODULE, state, "united-kingdom") == uk - 5 < 0


@pytest.mark.parametrize(
    ("democracy", "fascism", "communism", "expected"),
    [
        (10, 5, 5, Ideology.COMMUNISM),  # equal to the sum is not more: the other two tie, Communists
        (11, 5, 5, Ideology.DEMOCRACY),  # one more than the sum
        (5, 0, 5, Ideology.COMMUNISM),  # Fascists not positive: plain highest, a tie with the Communists
        (5, 5, 0, Ideology.FASCISM),  # Communists not positive: tie without them goes to the Fascists
        (4, 5, 0, Ideology.FASCISM),
        (3, -1, -2, Ideology.DEMOCRACY),
        (-1, -1, -1, Ideology.COMMUNISM),  # all tied and negative
        (0, 1, 7, Ideology.COMMUNISM),
    ],
)
def test_winner_ties_and_the_combined_total_lr_1_7_2(
    democracy: int, fascism: int, communism: int, expected: Ideology
) -> None:
    """LR 1.7.2 (L204-208): highest wins; ties go to the Communists if tied, else the Fascists; with
    both Fascists and Communists positive the Democracies must exceed their sum."""
    scores = {Ideology.DEMOCRACY: democracy, Ideology.FASCISM: fascism, Ideology.COMMUNISM: communism}
    assert winner(scores) is expected


# --- LR 2.2.3 / 2.2.4: control ---


def test_conquering_and_regaining_a_capital_lr_2_2_3_2_2_4() -> None:
    """LR 2.2.4 (L318): a gainer places two cubes in a capital and points follow the cubes; LR 2.2.3
    (L306): when the original owner regains it, no cube is placed and it is a home area again (a
    production site, LR 2.3.9), the owner gaining two flags as the non-friendly cubes leave (LR 5.2.4)."""
    game = bare_game("campaign-1933")
    state = game.state
    germany, france = victory_points(MODULE, state, "germany"), victory_points(MODULE, state, "france")
    state.units = [u for u in state.units if u.area != "paris"]
    change_control(game, "paris", "germany")
    game.run()
    drive(game, 6)
    assert game.pending is None
    assert state.cubes["paris"] == {"germany": 2}
    assert is_country(MODULE, state, "paris") and "paris" not in production_sites(MODULE, state, "france")
    assert victory_points(MODULE, state, "germany") == germany + 2
    assert victory_points(MODULE, state, "france") == france - 2
    change_control(game, "paris", "france")
    game.run()
    drive(game, 6)
    assert (
        len([line for line in state.log if "france" in line and "non-friendly cube leaves Paris" in line])
        == 2
    )
    assert "paris" not in state.cubes and controller(MODULE, state, "paris") == "france"
    assert not is_country(MODULE, state, "paris") and "paris" in production_sites(MODULE, state, "france")
    assert victory_points(MODULE, state, "germany") == germany
    assert victory_points(MODULE, state, "france") == france


def test_a_same_ideology_gain_returns_the_area_to_its_owner_lr_2_2_4() -> None:
    """LR 2.2.4 (L318): the UK taking a French home area from Germany places no cube; France controls
    it again and no point goes to the UK."""
    game = bare_game("campaign-1933")
    state = game.state
    uk = victory_points(MODULE, state, "united-kingdom")
    state.cubes["lorraine"] = {"germany": 1}
    change_control(game, "lorraine", "united-kingdom")
    game.run()
    drive(game, 6)
    assert "lorraine" not in state.cubes
    assert controller(MODULE, state, "lorraine") == "france"
    assert victory_points(MODULE, state, "united-kingdom") == uk


def test_control_follows_cubes_not_units_lr_2_2_4_2_2_5() -> None:
    """LR 2.2.4-2.2.5 (L314, L328): a home area holding no opposing or neutral cube is its owner's
    whatever units stand there; a country is controlled by the power with a cube in it; a sea never."""
    from grandstrategy.cataclysm.state import Unit

    game = bare_game("campaign-1933")
    state = game.state
    state.units.append(Unit(900, "germany", "infantry-army", "lorraine"))
    assert controller(MODULE, state, "lorraine") == "france"
    state.cubes["austria"] = {"italy": 1}
    assert controller(MODULE, state, "austria") == "italy"
    assert controller(MODULE, state, "north-sea") is None
    state.cubes["burma"] = {"neutral": 1}
    assert controller(MODULE, state, "burma") is None and is_country(MODULE, state, "burma")


# --- LR 2.8: dice ---


def test_dice_rules_lr_2_8() -> None:
    """LR 2.8 (L650-657): the highest die counts, each extra six adds one, the result is never below
    one, and a single die that would be lost becomes -1."""
    assert roll_result([3, 6, 6]) == 7
    assert roll_result([6, 6, 6]) == 8
    assert roll_result([2], -3) == 1
    assert dice_pool(1, 1) == (1, -1)
    assert dice_pool(3, 1) == (2, 0)


def test_an_allys_collapse_waits_for_the_surrender_under_way_lr_5_5_4_step_2() -> None:
    """LR 5.5.4 step 2 (L1237): an ally that collapses on its stability test resolves its own procedure
    after the surrender under way is complete (LR 1.6, L172: a surrender procedure is always
    completed), so France is out and its Surrender marker placed before the UK rolls to surrender."""
    from grandstrategy.cataclysm.module.schema import Stability

    game = bare_game("campaign-1933")
    state = game.state
    state.cubes["paris"] = {"germany": 2}
    state.alliances["democracy"] = ["france", "united-kingdom"]
    state.powers["united-kingdom"].stability = Stability.UNSTABLE
    game.push("surrender", power="france")
    game.run()
    drive(game, 1, stop_on="united-kingdom surrender roll")  # the UK fails its test and collapses
    assert game.pending is not None and game.pending["label"].startswith("united-kingdom surrender roll")
    assert not state.powers["france"].active
    assert state.surrenders == ["fascism"]
    assert state.cubes["brittany"] == {"neutral": 1}


def test_the_game_ends_at_step_10_before_a_waiting_allys_procedure_lr_1_6() -> None:
    """LR 1.6 (L172, L176) and LR 5.5.4 step 10 (L1249): France's surrender gives the Fascists their
    second Surrender marker; the game ends there, and the UK's collapse, which was to follow France's
    procedure, is never resolved, so the UK keeps its cubes for scoring."""
    from grandstrategy.cataclysm.module.schema import Stability

    game = bare_game("campaign-1933")
    state = game.state
    state.surrenders = ["fascism"]
    state.cubes["paris"] = {"germany": 2}
    state.alliances["democracy"] = ["france", "united-kingdom"]
    state.powers["united-kingdom"].stability = Stability.UNSTABLE
    game.push("surrender", power="france")
    game.run()
    rolled = drive(game, 1)
    assert state.result is not None and state.result["how"] == "fascism holds two Surrender markers"
    assert not any("united-kingdom surrender roll" in label for label in rolled)
    assert state.powers["united-kingdom"].active
    assert ideology_scores(MODULE, state)[Ideology.DEMOCRACY] == state.result["scores"]["democracy"]


def test_home_areas_freed_by_a_surrender_return_with_flags_lr_5_2_4() -> None:
    """LR 5.5.4 step 5 (L1239) removes Germany's cubes; France, active, controls Paris and Lorraine
    again (LR 2.2.3, L306; 2.2.4, L314) and gains a flag for each non-friendly cube removed from a
    home area, one more for its capital (LR 5.2.4, L1122)."""
    game = bare_game("campaign-1933")
    state = game.state
    state.cubes["paris"] = {"germany": 2}
    state.cubes["lorraine"] = {"germany": 1}
    state.cubes["austria"] = {"germany": 1}  # a country: no flag for anybody
    france = victory_points(MODULE, state, "france")
    game.push("surrender", power="germany")
    game.run()
    drive(game, 1)
    assert controller(MODULE, state, "paris") == "france" and "paris" not in state.cubes
    assert controller(MODULE, state, "lorraine") == "france"
    assert controller(MODULE, state, "austria") is None and "austria" not in state.cubes
    assert victory_points(MODULE, state, "france") == france + 3
    freed = [line for line in state.log if "france" in line and "(germany's cubes leave" in line]
    assert len(freed) == 3  # gained, or noted as forfeit when no flag is left (LR 5.2.2)


def test_a_surrender_that_tips_the_score_ends_status_quo_lr_12_2() -> None:
    """LR 1.7.1 (L194: points follow cubes at once) and LR 12.2 (L2492-2498): France's surrender puts
    neutral cubes in its areas; Germany and Italy now outscore France and the UK, so Status Quo ends
    at once and each remaining Democracy gains a flag, though no diplomatic opportunity follows."""
    game = bare_game("campaign-1933")
    state = game.state
    assert "status-quo" in state.markers
    game.push("surrender", power="france")
    game.run()
    drive(game, 1)
    vp = {p: victory_points(MODULE, state, p) for p in ("germany", "italy", "france", "united-kingdom")}
    assert vp["germany"] + vp["italy"] > vp["france"] + vp["united-kingdom"]
    assert "status-quo" not in state.markers
    assert any("united-kingdom" in line and "(Status Quo ends)" in line for line in state.log)


def test_a_cube_lost_to_a_neutrality_pact_can_end_status_quo_lr_12_2() -> None:
    """LR 12.2 (L2495): the Balkan Pact (crisis 6-3) takes France's cube from Rumania; with Germany
    and Italy ahead on points Status Quo ends at once."""
    game = bare_game("campaign-1933")
    state = game.state
    state.cubes["austria"] = {"germany": 1}
    state.cubes["hungary"] = {"italy": 1}
    state.cubes["albania"] = {"italy": 1}
    state.cubes["bulgaria"] = {"germany": 1}
    state.cubes["greece"] = {"italy": 1}
    state.cubes["portugal"] = {"italy": 1}
    vp = {p: victory_points(MODULE, state, p) for p in ("germany", "italy", "france", "united-kingdom")}
    assert vp["germany"] + vp["italy"] == vp["france"] + vp["united-kingdom"] == 6  # level: no end yet
    game.push("event-neutrality-pact", params={"areas": ["rumania"]})
    game.run()
    drive(game, 1)
    assert "rumania" not in state.cubes
    assert "status-quo" not in state.markers


def test_surrender_neutral_cubes_stop_at_the_sixteen_in_the_box_lr_2_4_lr_2_4_5() -> None:
    """LR 2.0 (L226) and LR 2.4 (L542): sixteen neutral cubes exist and they are a hard limit; a second
    large surrender places what is left, and its areas are uncontrolled countries all the same."""
    game = bare_game("campaign-1933")
    state = game.state
    surrendered_earlier(game, "soviet-union")
    for area in MODULE.areas.values():
        if area.owner == "soviet-union":
            state.cubes[area.id] = {"neutral": 2 if area.capital else 1}  # thirteen cubes
    game.push("surrender", power="united-kingdom")
    game.run()
    drive(game, 1)
    assert sum(held.get("neutral", 0) for held in state.cubes.values()) == MODULE.neutral_cubes
    assert controller(MODULE, state, "india") is None and is_country(MODULE, state, "india")
    assert any("no neutral cube is left" in line for line in state.log)


def test_resistance_and_neutral_cubes_lr_2_3_7_2_4_5() -> None:
    """LR 2.3.7 (L490-494) and 2.4.5 (L597): resistance is the printed fists, or one per neutral cube
    where there are any, and is taken off diplomacy; a diplomatic opportunity ignores it (LR 5.7)."""
    from grandstrategy.cataclysm.rules.politics import diplomacy_modifier

    game = bare_game("campaign-1933")
    state = game.state
    assert diplomacy_modifier(MODULE, state, "germany", "turkey") == -2
    assert diplomacy_modifier(MODULE, state, "germany", "austria") == 0
    state.cubes["turkey"] = {"neutral": 1}
    assert diplomacy_modifier(MODULE, state, "germany", "turkey") == -1
    state.cubes["burma"] = {"neutral": 1}
    assert diplomacy_modifier(MODULE, state, "germany", "burma") == -1
    del state.cubes["turkey"]
    game.push("opportunity", area="turkey", powers=["germany"])
    game.run()
    choose(game, "germany", "attempt")  # the check is Germany's choice (LR 5.7)
    roll_check(game, 5)  # a plain 5 succeeds: Turkey's resistance of 2 does not apply
    drive(game, 6)
    assert controller(MODULE, state, "turkey") == "germany"


def test_a_captured_base_goes_back_to_its_printed_owner_when_the_captor_surrenders_lr_5_5_4_step_5() -> None:
    """LR 5.5.4 step 5 (L1239) and LR 2.3.2 (L386): the surrendered power's base markers leave the map;
    only its own printed bases (and bases of powers already out) get an Unowned Base marker, so a
    British base Germany had captured shows its British roundel again."""
    game = bare_game("campaign-1933")
    state = game.state
    state.base_owners["central-mediterranean#0"] = "germany"
    state.base_owners["marshalls#0"] = "germany"
    surrendered_earlier(game, "japan")
    state.base_owners["palaus#0"] = None
    game.push("surrender", power="germany")
    game.run()
    drive(game, 1)
    assert state.base_owners["central-mediterranean#0"] == "united-kingdom"
    assert state.base_owners["marshalls#0"] is None  # Japan is out: unowned


@pytest.mark.parametrize(("colony", "tests"), [("burma", 0), ("india", 1)])
def test_a_colony_without_a_resource_costs_no_stability_test_lr_2_2_3(colony: str, tests: int) -> None:
    """LR 2.2.3 (L308) and 5.5.1 (L1185): losing a colony causes a stability test only if it holds a
    resource; either way the cube is placed and the points move (LR 2.2.4, 1.7.1)."""
    game = bare_game("campaign-1933")
    state = game.state
    state.units = [u for u in state.units if u.area != colony]
    uk = victory_points(MODULE, state, "united-kingdom")
    change_control(game, colony, "japan")
    game.run()
    drive(game, 6)
    assert len([line for line in state.log if "united-kingdom stability test (loss of" in line]) == tests
    assert state.cubes[colony] == {"japan": 1}
    assert victory_points(MODULE, state, "united-kingdom") == uk - 1


def test_an_allys_collapse_waits_for_the_collapse_under_way_lr_5_5_3_step_6() -> None:
    """LR 5.5.3 (L1208, L1220-1222): France, at exhaustion, collapses; the UK fails the test of step 6
    and collapses too, but its procedure follows France's, whose step 7 armistice offer comes first."""
    from grandstrategy.cataclysm.module.schema import Commitment, Stability

    game = bare_game("campaign-1933")
    state = game.state
    state.powers["france"].commitment = Commitment.EXHAUSTION
    state.powers["united-kingdom"].stability = Stability.UNSTABLE
    state.alliances["democracy"] = ["france", "united-kingdom"]
    state.wars = [(["france", "united-kingdom"], ["germany"])]
    game.push("collapse", power="france")
    game.run()
    assert game.pending is not None and game.pending["label"].startswith("france surrender roll")
    game.apply_chance("6")  # above the threshold: France collapses and fights on
    drive(game, 1, stop_on="united-kingdom surrender roll")
    assert game.pending is not None and game.pending["type"] == "decide", game.pending
    assert game.pending["power"] == "germany" and "armistice" in game.pending["prompt"]
    choose(game, "germany", "decline")
    drive(game, 1, stop_on="united-kingdom surrender roll")
    assert game.pending is not None and game.pending["label"].startswith("united-kingdom surrender roll")
