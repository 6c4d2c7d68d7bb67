"""Rules fidelity fixes of helper b2b: the Exhaustion force-pool cut (LR 4.1.2), limited resources
a power cannot collect (LR 4.4, 4.4.2), armistice timing (LR 5.6.2) and production (LR 4.1-4.9)."""

from __future__ import annotations

from tests.cataclysm.test_operations import (
    MODULE,
    bare_game,
    choose,
    last_log,
    offensive,
    options,
    roll,
    setup,
)

from grandstrategy.cataclysm.engine import CataclysmGame
from grandstrategy.cataclysm.engine.common import counters_in_play
from grandstrategy.cataclysm.engine.invariants import problems
from grandstrategy.cataclysm.module.schema import Commitment


def _force_pool_total(game: CataclysmGame, power: str) -> int:
    """Counters in play and unbuilt, the count the force-pool limit constrains (LR 4.1.1)."""
    return sum(counters_in_play(game, power).values()) + sum(game.state.powers[power].force_pool.values())


def _collapse_with_counters_off_the_map() -> CataclysmGame:
    """Germany at total war collapses with nothing unbuilt and no unit on the map: its 16 counters
    are 12 armies in its production holding box, an air force in reserve (back to the force pool
    at collapse, LR 5.5.3 step 3), a fleet and a fortress on the turn track and one submarine in
    the cup (exhaustion limit 14)."""
    game = bare_game()
    state = game.state
    germany = state.powers["germany"]
    germany.commitment = Commitment.TOTAL_WAR
    germany.force_pool = {}
    state.units = [u for u in state.units if u.power != "germany"]
    state.cup = [c for c in state.cup if not c.startswith(("unit:germany", "upgrade:germany"))]
    germany.holding_box = ["unit:germany:infantry-army"] * 12
    germany.reserve = "unit:germany:tactical-air"
    state.turn_track = {1941: ["unit:germany:surface-fleet", "unit:germany:fortress"]}
    state.cup.append("unit:germany:submarine-pack")
    assert _force_pool_total(game, "germany") == 16
    game.push("collapse", power="germany")
    game.run()
    roll(game, 6)  # above the surrender threshold: a collapse
    assert germany.commitment is Commitment.EXHAUSTION
    return game


def test_the_exhaustion_cut_reaches_the_holding_box_and_turn_track_lr_4_1_2() -> None:
    """LR 4.1.2 (L926), 4.1.1 (L916), 2.6 (L620), 1.4 (L164): the player removes counters down to
    the new limit, from the map, the cup or its status card; counters in the holding box and on
    the turn track count against the limit and are open to view, so the player may pick them;
    the hidden cup is left alone while they remain."""
    game = _collapse_with_counters_off_the_map()
    state, germany = game.state, game.state.powers["germany"]
    assert "exhaustion" in game.pending["prompt"]  # type: ignore[index]
    assert {
        "holding unit:germany:infantry-army",
        "unbuilt air",
        "turn-track 1941 unit:germany:fortress",
        "turn-track 1941 unit:germany:surface-fleet",
    } <= set(options(game))
    choose(game, "germany", "turn-track 1941 unit:germany:fortress")
    choose(game, "germany", "turn-track 1941 unit:germany:surface-fleet")
    assert game.pending is None or "exhaustion" not in game.pending.get("prompt", "")
    assert state.turn_track == {}
    assert germany.force_pool["air"] == 1
    assert germany.holding_box.count("unit:germany:infantry-army") == 12
    assert "unit:germany:submarine-pack" in state.cup
    assert _force_pool_total(game, "germany") == MODULE.powers["germany"].status_card["exhaustion"].force_pool
    assert not problems(game), problems(game)


def test_the_exhaustion_cut_may_take_counters_from_the_holding_box_lr_4_1_2() -> None:
    """LR 4.1.2 (L926), 2.6 (L620): the production holding box is on the status card, so its
    counters may be removed; the power ends at its exhaustion limit."""
    game = _collapse_with_counters_off_the_map()
    germany = game.state.powers["germany"]
    choose(game, "germany", "holding unit:germany:infantry-army")
    choose(game, "germany", "holding unit:germany:infantry-army")
    assert germany.holding_box.count("unit:germany:infantry-army") == 10
    assert _force_pool_total(game, "germany") == MODULE.powers["germany"].status_card["exhaustion"].force_pool
    assert not problems(game), problems(game)


def test_a_limited_resource_not_collected_for_want_of_markers_stays_in_play_lr_4_4() -> None:
    """LR 4.4 (L963), 4.4.2 (L979): a limited marker leaves play when it is collected; when the
    power runs out of resource markers the excess is lost for this turn, and the printed resources
    are the ones collected, so the limited markers stay on the map (docs/decisions.md)."""
    game = bare_game()
    state = game.state
    state.turn = 1941
    state.phase = "administration"
    state.wars = [(["france", "united-kingdom"], ["germany"])]
    state.cubes.update({"benelux": {"germany": 1}, "sweden": {"germany": 1}})
    state.used_limited.append("Ruhr")
    germany = state.powers["germany"]
    germany.commitment = Commitment.MOBILIZATION
    shortfall = germany.available_offensives - 2
    germany.available_offensives = 2  # the other markers are in the cup
    state.cup += ["offensive:germany"] * shortfall
    assert not problems(game), problems(game)
    game.then({"do": "produce", "power": "germany"})
    game.run()
    assert "of your 2 resources" in game.pending["prompt"]  # type: ignore[index]
    assert germany.available_offensives == 0
    assert "Benelux" not in state.used_limited and "Sweden" not in state.used_limited
    assert last_log(game, "collects").endswith("collects 2 resource(s), 2 industrial")


def test_armistices_by_consent_are_offered_in_the_end_phase_not_between_draws_lr_5_6_2() -> None:
    """LR 5.6.2 (L1292), docs/decisions.md: a war may end by mutual consent at any time; the engine
    gives that consent one place, the end phase, where each belligerent may propose once to each
    enemy. Between draws of the action phase no armistice is asked for."""
    game = setup("europe-1939", [], [("france", "germany")])
    state = game.state
    state.phase = "action"
    for line in state.powers.values():
        if line.reserve is not None:
            state.cup.append(line.reserve)  # nobody can interrupt
            line.reserve = None
    game.push("action-window")
    game.run()
    assert game.pending is not None and game.pending["type"] == "chance"  # straight to the draw
    game = setup("europe-1939", [], [("france", "germany")])
    game.push("end-phase")
    game.run()
    assert any(s["do"] == "armistice-window" for s in game.stack)  # after the Home Front tests
    game.stack = [s for s in game.stack if s["do"] in ("armistice-window", "end-phase-finish")]
    game.pending = None
    game.run()
    assert game.pending is not None and game.pending["prompt"] == "propose an armistice? (LR 5.6.2)"
    assert options(game) == ["no", "armistice with france"]  # Germany, the most effective, first
    choose(game, "germany", "armistice with france")
    choose(game, "france", "accept")
    assert not any("france" in a + b for a, b in game.state.wars)


def _lend_lease_production(damaged: list[str]) -> CataclysmGame:
    """The 1933 campaign with Lend Lease in play and the UK at war with Germany: the US controls
    Iraq (a natural resource outside its home areas) and produces before the UK."""
    game = bare_game("campaign-1933")
    state = game.state
    state.phase = "administration"
    state.markers = [m for m in state.markers if m != "status-quo"]
    state.markers.append("lend-lease-in-play")
    state.wars = [(["united-kingdom"], ["germany"])]
    state.cubes["iraq"] = {"united-states": 3}
    state.damaged = damaged
    game.then({"do": "produce", "power": "united-states"}, {"do": "produce", "power": "united-kingdom"})
    game.run()
    return game


def test_lend_lease_sends_only_resources_of_us_home_areas_lr_12_2_2() -> None:
    """LR 12.2.2 (Lend Lease), 4.4.1 (L969): the US may transfer its home area resources; a
    natural resource it collected in Iraq is not one of them."""
    game = _lend_lease_production(damaged=["washington-dc"] * 3 + ["california"] * 2)  # all damaged
    assert last_log(game, "united-states collects").endswith("collects 1 resource(s), 0 industrial")
    assert game.pending is not None and "of your 1 resources" in game.pending["prompt"]  # no lending
    game = _lend_lease_production(damaged=[])
    assert game.pending is not None and game.pending["prompt"].startswith("Lend Lease")
    assert {"lend industrial to united-kingdom", "lend natural to united-kingdom"} <= set(options(game))


def test_the_a_bomb_can_be_constructed_during_production_lr_12_2_2() -> None:
    """LR 12.2.2 (A-Bomb), 4.6 (L1010): once available the A-Bomb is constructed for one build,
    which production gives as well as a build military action; it goes into the cup."""
    game = bare_game()
    state = game.state
    state.phase = "administration"
    state.markers.append("a-bomb-available")
    us = state.powers["united-states"]
    us.commitment = Commitment.TOTAL_WAR
    game.then({"do": "produce", "power": "united-states"})
    game.run()
    choose(game, "united-states", "offensives 0")
    assert "build a-bomb" in options(game)
    choose(game, "united-states", "build a-bomb")
    assert "a-bomb:united-states" in state.cup and "a-bomb-available" not in state.markers
    assert "build a-bomb" not in options(game)
    assert "production:" in game.pending["prompt"]  # type: ignore[index]  # the other builds remain


def _german_collection(damaged: list[str]) -> str:
    """Germany's production in 1939 with the Ruhr's printed resource damaged or not; the log line."""
    game = bare_game()
    state = game.state
    state.phase = "administration"
    state.damaged = damaged
    game.then({"do": "produce", "power": "germany"})
    game.run()
    return last_log(game, "germany collects")


def test_a_damage_marker_does_not_stop_the_limited_resource_beside_it_lr_4_4_2() -> None:
    """LR 4.4.2 (L977), 9.5.2 (L1895): a Damage marker sits on one printed resource, and only it
    cannot be collected; the Ruhr's limited marker in the same area is still collected."""
    assert _german_collection([]).endswith("collects 3 resource(s), 3 industrial")
    assert _german_collection(["ruhr"]).endswith("collects 2 resource(s), 2 industrial")


def test_no_resource_of_a_damaged_area_counts_for_escalation_offensives_lr_6_4_2() -> None:
    """LR 6.4.2 (L1487): resources in damaged areas earn no escalation offensive, so the Ruhr's
    limited marker is not offered while its printed resource is damaged."""
    game = bare_game()
    state = game.state
    state.damaged = ["ruhr"]
    germany = state.powers["germany"]
    germany.reserve = None
    game.push("political-result", power="germany", action="escalation", target="", success=True, dice=[6])
    game.run()
    assert germany.commitment is Commitment.MOBILIZATION
    while (
        game.pending is not None
        and game.pending["type"] == "decide"
        and not game.pending["prompt"].startswith("escalation offensives")
    ):
        choose(game, game.pending["power"], options(game)[0])  # force pool picks, provoked flags
    assert game.pending is not None and game.pending["prompt"].startswith("escalation offensives: one")
    assert "Ruhr" not in state.used_limited
    assert last_log(game, "escalation offensive").endswith(
        "germany gains 1 escalation offensive(s)"
    )  # Berlin


def test_a_damage_marker_stops_one_printed_resource_of_several_lr_9_5_2() -> None:
    """LR 9.5.2 (L1895), 4.4.2 (L977): strategic bombing damages one resource in the area, so
    Washington DC (two industrial resources and one natural) keeps collecting the other two; a
    second bombing may damage a second one (docs/decisions.md: industrial ones are hit first)."""
    game = bare_game()
    state = game.state
    state.phase = "administration"
    state.damaged = ["washington-dc"]
    game.then({"do": "produce", "power": "united-states"})
    game.run()
    assert last_log(game, "united-states collects").endswith("collects 2 resource(s), 1 industrial")
    game = bare_game()
    game.state.damaged = ["washington-dc"]
    game.push("bombing-damage", op={"target": "washington-dc", "power": "germany"})
    game.run()
    assert game.state.damaged == ["washington-dc", "washington-dc"]
    assert last_log(game, "strategic bombing").endswith("damages the resource in Washington DC")


def test_the_dreadnought_refit_also_serves_a_build_action_lr_8_3() -> None:
    """LR 12.2.1 (L2506), 4.6 (L1018), 8.3 (L1714): France's Dreadnought Refit takes one build off a
    surface fleet whenever it is constructed, so a single military action of a build pays for it."""
    game = setup("europe-1939", [], [("france", "germany")])
    state = game.state
    assert "dreadnought-refit-france" in state.markers and state.powers["france"].force_pool["fleet"] == 1
    offensive(game, "france", 1)
    assert "build surface-fleet with dreadnought refit" in options(game)
    choose(game, "france", "build surface-fleet with dreadnought refit")
    assert "dreadnought-refit-france" not in state.markers
    assert "unit:france:surface-fleet" in state.turn_track[state.turn + 2]
    assert game.pending is None  # the one military action is spent


def test_japan_receives_no_trade_resource_the_us_cannot_give_lr_12_2_2() -> None:
    """LR 12.2.2 (US-Japan Trade), 4.4.1 (L969): the US transfers one of its industrial resources;
    with all of them damaged it has none to give, so Japan, producing first, receives nothing."""
    game = bare_game("campaign-1933")
    state = game.state
    state.phase = "administration"
    assert "us-japan-trade" in state.markers
    game.then({"do": "produce", "power": "japan"}, {"do": "produce", "power": "united-states"})
    game.run()
    assert "japan receives a resource from the US" in last_log(game, "US-Japan Trade")
    game = bare_game("campaign-1933")
    state = game.state
    state.phase = "administration"
    state.damaged = ["washington-dc"] * 3 + ["california"] * 2
    before = state.powers["japan"].available_offensives
    game.then({"do": "produce", "power": "japan"}, {"do": "produce", "power": "united-states"})
    game.run()
    assert last_log(game, "US-Japan Trade").endswith("the US has no industrial resource to ship")
    collected = int(last_log(game, "japan collects").split("collects ")[1].split()[0])
    assert state.powers["japan"].available_offensives == before - collected
