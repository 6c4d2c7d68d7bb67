"""Rules fidelity fixes of helper b2: resources in reserve (LR 3.2.4, 3.4, 4.5), surrender without
home areas (LR 5.5.4), the Global War game end (LR 1.6) and the order of collapses (LR 5.5.3)."""

from __future__ import annotations

from tests.cataclysm.test_operations import (
    MODULE,
    bare_game,
    choose,
    last_log,
    offensive,
    options,
    roll,
    settle,
    setup,
)

from grandstrategy.cataclysm.engine import CataclysmGame
from grandstrategy.cataclysm.engine.invariants import problems
from grandstrategy.cataclysm.module.schema import Commitment, Stability, WarStatus


def _german_production(reserve_carried: bool) -> CataclysmGame:
    """Germany's administration (the LR 4.9 example's position); a resource reserved last turn
    was moved back to the holding box by the end phase (LR 3.8 step 4) when ``reserve_carried``."""
    game = bare_game()
    state = game.state
    state.turn = 1941
    state.phase = "administration"
    state.markers.append("night-of-the-long-knives")
    state.wars = [(["france", "united-kingdom"], ["germany"])]
    state.cubes.update({"benelux": {"germany": 1}, "sweden": {"germany": 1}})
    state.used_limited.append("Ruhr")
    germany = state.powers["germany"]
    germany.commitment = Commitment.MOBILIZATION
    germany.force_pool = {"army": 2, "air": 1, "upgrade:army": 1}
    germany.reserve = None
    if reserve_carried:
        germany.available_offensives -= 1
        germany.holding_box.append("resource:germany")
    game.then(
        {"do": "gain-admin-flags", "power": "germany"},
        {"do": "produce", "power": "germany"},
        {"do": "final-disposition", "power": "germany"},
    )
    game.run()
    assert not problems(game), problems(game)
    return game


def test_a_reserved_resource_is_converted_with_next_turns_resources_lr_3_4() -> None:
    """LR 3.4 (L753), 3.8 step 4 (L860), 4.5 (L1000), 4.7 (L1026): a resource held in reserve comes
    back to the holding box and is converted with the four collected; it earns no war offensive."""
    game = _german_production(reserve_carried=True)
    germany = game.state.powers["germany"]
    assert "of your 5 resources" in game.pending["prompt"]  # type: ignore[index]
    choose(game, "germany", "offensives 2")
    assert "6 build(s)" in game.pending["prompt"]  # type: ignore[index]  # 3 resources at 1:2
    for item in ("infantry-army", "infantry-army", "tactical-air", "upgrade:army"):
        choose(game, "germany", f"build {item}")
    # two flags, two converted offensives and three war offensives (three industrial collected)
    assert germany.holding_box.count("offensive:germany") == 5
    assert "resource:germany" not in germany.holding_box


def test_a_resource_may_be_left_unconverted_and_reserved_lr_3_2_4() -> None:
    """LR 3.2.4 (L724, L728), 3.4 (L749): a resource may stay unconverted and go to reserve at
    final disposition; it never enters the cup."""
    game = _german_production(reserve_carried=False)
    state, germany = game.state, game.state.powers["germany"]
    assert "leave 1 unconverted" in options(game)
    choose(game, "germany", "leave 1 unconverted")
    assert "of your 3 resources" in game.pending["prompt"]  # type: ignore[index]
    assert "leave 1 unconverted" not in options(game)  # only one counter can be reserved
    choose(game, "germany", "offensives 1")
    assert "4 build(s)" in game.pending["prompt"]  # type: ignore[index]  # 2 resources at 1:2
    choose(game, "germany", "done")
    assert "keep resource:germany" in options(game)
    choose(game, "germany", "keep resource:germany")
    assert germany.reserve == "resource:germany"
    assert germany.holding_box == []
    assert not any(c.startswith("resource:") for c in state.cup)


def test_an_unreserved_unconverted_resource_goes_back_to_available_lr_3_2_4() -> None:
    """LR 3.2.4 (L728): a resource neither converted nor reserved returns to the available
    markers box, not to the action cup."""
    game = _german_production(reserve_carried=False)
    state, germany = game.state, game.state.powers["germany"]
    choose(game, "germany", "leave 1 unconverted")
    choose(game, "germany", "offensives 3")  # no builds left to spend
    available = germany.available_offensives
    choose(game, "germany", "keep flag:germany")
    assert germany.reserve == "flag:germany"
    assert germany.available_offensives == available + 1
    assert not any(c.startswith("resource:") for c in state.cup)
    assert germany.holding_box == []


def test_a_power_holding_no_home_area_surrenders_at_once_lr_5_5_4() -> None:
    """LR 5.5.4 (L1230): France, left with Paris alone, loses it to a German conquest and surrenders
    on the spot, without the stability tests that would otherwise have to make it collapse."""
    game = setup(
        "europe-1939",
        [("germany", "tank-army", "lorraine"), ("germany", "infantry-army", "lorraine")],
        [("germany", "france")],
    )
    state = game.state
    state.alliances.clear()
    for home in ("lorraine", "brittany", "provence"):
        state.cubes[home] = {"germany": 1}
    offensive(game, "germany", 1)
    choose(game, "germany", "land operation against Paris")
    choose(game, "germany", "activate #2 infantry-army in Lorraine")
    choose(game, "germany", "activate #1 tank-army in Lorraine")
    choose(game, "united-kingdom", "cup")  # provoked by the attack on Paris
    roll(game, 6, 6, 6)  # Germany wins and conquers Paris
    assert last_log(game, "controls none of its home areas")
    assert game.pending is not None and "france surrenders" in game.pending["prompt"]
    choose(game, "germany", "cup")  # step 1 of the surrender: the enemy gains a flag
    settle(game)
    assert not state.powers["france"].active
    assert not any("stability test" in line for line in state.log)


def test_global_war_ends_as_soon_as_an_armistice_leaves_nobody_at_war_lr_1_6() -> None:
    """LR 1.6 (L178), 5.6.2: in Global War, the end-phase armistice that ends the last war ends the
    game there and then; it does not run on to the next turn."""
    game = bare_game()
    state = game.state
    state.alliances.clear()
    state.wars = [(["france"], ["germany"])]
    state.war_status = WarStatus.GLOBAL
    state.global_war_turn = 1945
    waiting = [c for c in state.cup if c.startswith(("home-front", "cw-resolution"))]
    state.cup = [c for c in state.cup if c not in waiting]  # no dice before the armistice window
    state.turn_track.setdefault(state.turn + 2, []).extend(waiting)
    game.push("end-phase")
    game.run()
    while game.pending is not None and game.pending["power"] != "germany":
        choose(game, game.pending["power"], "no")
    choose(game, "germany", "armistice with france")
    choose(game, "france", "accept")
    assert state.result is not None and state.phase == "over"
    assert "no power is at war" in state.result["how"]
    assert state.turn == 1939 and game.pending is None


def test_an_allys_collapse_waits_for_the_end_of_the_collapse_procedure_lr_5_5_3() -> None:
    """LR 5.5.3 step 6 (L1218): France collapses at exhaustion; its British ally fails its test and
    collapses too, but the British surrender roll comes only after France's armistice offer (step 7)."""
    game = bare_game()
    state = game.state
    state.wars = [(["france", "united-kingdom"], ["germany"])]
    france = state.powers["france"]
    france.commitment = Commitment.EXHAUSTION
    pool = france.force_pool
    while problems(game):  # the force pool cut that exhaustion brought (LR 4.1.2)
        pool[next(key for key in sorted(pool) if pool[key] > 0)] -= 1
    state.powers["united-kingdom"].stability = Stability.UNSTABLE
    game.push("collapse", power="france")
    game.run()
    roll(game, 6)  # France does not surrender
    choose(game, "germany", "cup")  # step 1: the enemy's flag
    while game.pending is not None and game.pending["type"] == "chance":
        assert "united-kingdom stability test" in game.pending["label"]
        roll(game, 1)  # the British test fails: the UK collapses
    assert game.pending is not None and "france offers an armistice" in game.pending["prompt"]
    choose(game, "germany", "accept")
    assert game.pending is not None and "united-kingdom surrender roll" in game.pending["label"]
    roll(game, 6)
    assert last_log(game, "united-kingdom rolls 6").endswith("fights on")


def test_the_surrender_marker_is_placed_after_the_diplomatic_opportunities_lr_5_5_4() -> None:
    """LR 5.5.4 steps 6 and 9 (L1238, L1244): the Surrender marker goes to the ideology with the
    most cubes in the home areas once the opportunities are resolved. The Soviets hold Paris (two
    cubes), Germany Lorraine (one); Germany then wins Brittany and Provence: Fascism takes it, 3 to 2."""
    game = bare_game("campaign-1933")
    state = game.state
    state.alliances.clear()
    state.wars = []
    state.cubes["paris"] = {"soviet-union": 2}
    state.cubes["lorraine"] = {"germany": 1}
    state.markers.remove("status-quo")  # its end would add the Democracies' flags (LR 12.2)
    game.push("surrender", power="france")
    game.run()
    for area in ("brittany", "provence"):
        choose(game, "germany", "attempt")  # the check is Germany's choice (LR 5.7)
        assert (
            game.pending is not None and f"germany diplomatic opportunity in {area}" in game.pending["label"]
        )
        roll(game, 6, 6, 6)
        settle(game)
    assert state.cubes["brittany"] == {"germany": 1} and state.cubes["provence"] == {"germany": 1}
    assert state.surrenders == ["fascism"]


def test_a_surrender_gives_back_the_home_areas_it_held_of_an_earlier_surrender_lr_5_5_4() -> None:
    """LR 5.5.4 step 7 (L1240): Germany held Italian home areas after Italy's surrender; when
    Germany surrenders, its cubes go and neutral cubes make those areas uncontrolled countries."""
    game = bare_game("campaign-1933")
    state = game.state
    state.alliances.clear()
    state.wars = []
    game.push("surrender", power="italy")
    game.run()
    settle(game)
    assert not state.powers["italy"].active and game.pending is None
    state.cubes["rome"] = {"germany": 2}  # Germany took the Italian capital afterwards
    game.push("surrender", power="germany")
    game.run()
    settle(game)
    assert state.cubes.get("rome") == {"neutral": 2}


def test_an_ally_with_a_fleet_at_a_surrendering_powers_base_may_take_it_lr_5_5_4() -> None:
    """LR 5.5.4 step 3 (L1234): the UK surrenders; its French ally, with a fleet in the Central
    Mediterranean, takes the British base there. The British special bases leave the game."""
    game = bare_game("campaign-1933")
    state = game.state
    state.wars = []
    state.alliances = {"democracy": ["france", "united-kingdom"]}
    fleet = next(u for u in state.units if u.power == "france" and u.type == "surface-fleet")
    fleet.area, fleet.coast = "central-mediterranean", None
    game.push("surrender", power="united-kingdom")
    game.run()
    while game.pending is not None and game.pending["type"] == "chance":
        assert "france stability test" in game.pending["label"]
        roll(game, 6)  # France's test (its ally surrenders) passes
    assert game.pending is not None and "take its base in central-mediterranean" in game.pending["prompt"]
    choose(game, "france", "take")
    settle(game)
    assert state.base_owners["central-mediterranean#0"] == "france"
    assert state.base_owners["eastern-mediterranean#0"] is None
    assert not any(MODULE.area(a).special_base is not None for a in state.special_bases)


def test_a_war_left_with_one_ideology_ends_by_capitulation_lr_5_6_2() -> None:
    """LR 5.6.2 (L1293), 1.6 (L178): Italy fights France alone; when Italy surrenders only Democracies
    are left in the war, so it ends, and in Global War with nobody at war the game ends."""
    game = bare_game()
    state = game.state
    state.alliances.clear()
    state.wars = [(["france"], ["italy"])]
    state.war_status = WarStatus.GLOBAL
    game.push("surrender", power="italy")
    game.run()
    settle(game)
    while game.pending is not None and game.pending["type"] == "chance":
        roll(game, 1)  # diplomatic opportunities in Italy's former home areas fail
        settle(game)
    assert state.wars == []
    assert state.result is not None and "no power is at war" in state.result["how"]


def test_an_allys_collapse_waits_for_the_end_of_the_surrender_procedure_lr_5_5_4() -> None:
    """LR 5.5.4 step 2 (L1232): the UK surrenders and its French ally collapses on its test; France's
    collapse is resolved after the surrender is complete (after the base offer of step 3)."""
    game = bare_game("campaign-1933")
    state = game.state
    state.wars = []
    state.alliances = {"democracy": ["france", "united-kingdom"]}
    state.powers["france"].stability = Stability.UNSTABLE
    fleet = next(u for u in state.units if u.power == "france" and u.type == "surface-fleet")
    fleet.area, fleet.coast = "central-mediterranean", None
    game.push("surrender", power="united-kingdom")
    game.run()
    while game.pending is not None and game.pending["type"] == "chance":
        assert "france stability test" in game.pending["label"]
        roll(game, 1)  # France fails: it collapses
    assert game.pending is not None and "take its base" in game.pending["prompt"]
    choose(game, "france", "take")
    settle(game)
    assert not state.powers["united-kingdom"].active
    assert game.pending is not None and "france surrender roll" in game.pending["label"]


def test_collapse_falls_to_exhaustion_only_after_the_enemies_flags_lr_5_5_3() -> None:
    """LR 5.5.3 strictly in order (L1208-1220): Germany collapses at total war; France gains its
    flag (step 1) before Germany falls to exhaustion and cuts its force pool (step 8)."""
    game = bare_game()
    state = game.state
    state.alliances.clear()
    state.wars = [(["france"], ["germany"])]
    germany = state.powers["germany"]
    germany.commitment = Commitment.TOTAL_WAR
    germany.force_pool = {"army": 6, "air": 4}
    game.push("collapse", power="germany")
    game.run()
    roll(game, 6)  # above the threshold: collapse, not surrender
    assert germany.commitment is Commitment.TOTAL_WAR
    assert game.pending is not None and game.pending["power"] == "france"
    choose(game, "france", "cup")
    assert germany.commitment is Commitment.EXHAUSTION
    assert game.pending is not None and game.pending["prompt"].startswith("exhaustion")


def test_an_area_taken_by_one_ally_is_not_offered_to_the_next_lr_5_5_4() -> None:
    """LR 5.5.4 step 3 (L1234): the British and American armies both stand in Paris when France
    surrenders; the UK takes it, and the US is not asked to take it from the UK."""
    game = bare_game("campaign-1933")
    state = game.state
    state.wars = []
    state.alliances = {"democracy": ["france", "united-kingdom", "united-states"]}
    state.units = [u for u in state.units if u.area != "paris"]
    for power in ("united-kingdom", "united-states"):
        army = next(u for u in state.units if u.power == power and u.type == "infantry-army")
        army.area = "paris"
    game.push("surrender", power="france")
    game.run()
    while game.pending is not None and game.pending["type"] == "chance":
        roll(game, 6)  # the allies' stability tests pass
    assert game.pending is not None and game.pending["power"] == "united-kingdom"
    assert "take control of paris" in game.pending["prompt"]
    choose(game, "united-kingdom", "take")
    assert game.pending is None or "take control of paris" not in game.pending.get("prompt", "")
    settle(game)
    assert state.cubes["paris"] == {"united-kingdom": 2}


def test_the_ally_left_alone_by_a_surrender_may_form_a_new_alliance_lr_5_5_4() -> None:
    """LR 5.5.4 step 4 (L1236), 6.1.4: Italy's surrender breaks its alliance with Germany; Germany,
    left alone, is in no alliance and may propose one to Japan (which holds a flag in reserve)."""
    from grandstrategy.cataclysm.engine.alliance import alliance_options

    game = bare_game("campaign-1933")
    state = game.state
    state.wars = []
    state.alliances = {"fascism": ["germany", "italy"]}
    japan = state.powers["japan"]
    assert japan.reserve is None
    japan.available_flags -= 1
    japan.reserve = "flag:japan"
    game.push("surrender", power="italy")
    game.run()
    while game.pending is not None:
        if game.pending["type"] == "chance":
            roll(game, 6)  # Germany's test passes; opportunities succeed or not, no matter
        else:
            settle(game)
    assert "fascism" not in state.alliances
    assert "alliance japan" in alliance_options(game, "germany")


def test_the_invariant_check_follows_resource_markers_lr_3_2_4() -> None:
    """LR 3.2.4 (L728), 3.4 (L749): a reserved resource is one of the power's offensive/resource
    markers; a resource left in a holding box in the action phase is reported."""
    game = bare_game()
    germany = game.state.powers["germany"]
    assert germany.reserve is None
    germany.available_offensives -= 1
    germany.reserve = "resource:germany"
    assert problems(game) == []
    germany.reserve = None
    germany.holding_box.append("resource:germany")
    assert any("left in a holding box" in p for p in problems(game))
    germany.holding_box.clear()
    assert any("germany: offensive/resource markers" in p for p in problems(game))
