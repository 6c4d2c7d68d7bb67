"""Special power rules (LR 12) audited against the Living Rules, through the engine."""

from __future__ import annotations

from tests.cataclysm.test_operations import MODULE, bare_game, choose, roll

from grandstrategy.cataclysm.engine import CataclysmGame
from grandstrategy.cataclysm.engine.control import change_control
from grandstrategy.cataclysm.module.schema import Commitment
from grandstrategy.cataclysm.rules.control import victory_points


def succeed(game: CataclysmGame, power: str, action: str, target: str = "") -> None:
    """Resolve a political action as if its effectiveness check succeeded."""
    game.push("political-result", power=power, action=action, target=target, success=True, dice=[6])
    game.run()


def answer_everything(game: CataclysmGame) -> None:
    """Take the first option of every decision and roll 6 on every die until the machine stops."""
    for _ in range(200):
        if game.pending is None:
            return
        if game.pending["type"] == "decide":
            choose(game, game.pending["power"], game.pending["options"][0])
        else:
            roll(game, 6)
    raise AssertionError("the game did not settle")


def tie_the_status_quo_score(game: CataclysmGame) -> None:
    """Give Germany and Italy exactly as many victory points as France and the UK (6 in 1933)."""
    state = game.state
    state.cubes.update(
        {
            "austria": {"germany": 1},
            "hungary": {"germany": 1},
            "bulgaria": {"germany": 1},
            "greece": {"germany": 1},
            "albania": {"italy": 1},
            "spain": {"italy": 1},
        }
    )

    def vp(power: str) -> int:
        return victory_points(MODULE, state, power)

    assert vp("germany") + vp("italy") == vp("france") + vp("united-kingdom") == 6


def status_quo_flags(game: CataclysmGame) -> list[str]:
    return [line for line in game.state.log if "a flag (Status Quo ends)" in line]


def test_japan_mobilizing_leaves_status_quo_in_play_lr_12_2() -> None:
    """LR 12.2 (L2494): only Germany, Italy or the Soviet Union mobilizing ends Status Quo; Japan's
    escalation to mobilization does not."""
    game = bare_game("campaign-1933")
    assert game.state.powers["japan"].commitment is Commitment.REARMAMENT
    succeed(game, "japan", "escalation")
    answer_everything(game)
    assert game.state.powers["japan"].commitment is Commitment.MOBILIZATION
    assert "status-quo" in game.state.markers
    assert status_quo_flags(game) == []


def test_italy_mobilizing_ends_status_quo_lr_12_2() -> None:
    """LR 12.2 (L2494): Italy's escalation to mobilization ends Status Quo; each Democracy gains a flag."""
    game = bare_game("campaign-1933")
    game.state.powers["italy"].commitment = Commitment.REARMAMENT
    succeed(game, "italy", "escalation")
    answer_everything(game)
    assert "status-quo" not in game.state.markers
    assert len(status_quo_flags(game)) == 3  # France, the UK and the US


def test_abyssinian_adventure_points_end_status_quo_at_once_lr_12_2() -> None:
    """LR 12.2 (L2495): the Abyssinian Adventure's cube in Rome gives Germany and Italy more victory
    points than France and the UK: Status Quo ends at once, though no area changed control."""
    game = bare_game("campaign-1933")
    tie_the_status_quo_score(game)
    succeed(game, "italy", "abyssinian-adventure")
    assert game.state.cubes["rome"] == {"italy": 1}
    assert "status-quo" not in game.state.markers
    assert any("Status Quo ends: Germany and Italy outscore" in line for line in game.state.log)
    answer_everything(game)
    assert len(status_quo_flags(game)) == 3


def test_a_crisis_removing_a_cube_ends_status_quo_lr_12_2() -> None:
    """LR 12.2 (L2495): France losing its Polish cube to a crisis drops France and the UK below
    Germany and Italy: Status Quo ends at once."""
    game = bare_game("campaign-1933")
    tie_the_status_quo_score(game)
    game.push("pact-result", area="poland", holder="france", success=False)
    game.run()
    assert "poland" not in game.state.cubes
    assert "status-quo" not in game.state.markers
    answer_everything(game)
    assert len(status_quo_flags(game)) == 3


def test_a_tie_in_victory_points_keeps_status_quo_lr_12_2() -> None:
    """LR 12.2 (L2495): Germany and Italy must have more points than France and the UK, not as many."""
    game = bare_game("campaign-1933")
    tie_the_status_quo_score(game)
    game.push("event-no-effect")
    game.run()
    assert "status-quo" in game.state.markers


def test_soviet_mobilization_counts_the_volga_for_escalation_offensives_lr_12_3_1() -> None:
    """LR 12.3.1 (L2576): the Volga special resource is placed on mobilization and counts at once
    towards the escalation offensives: three printed industrial resources and the Volga give four."""
    game = bare_game("campaign-1933")
    game.state.powers["soviet-union"].commitment = Commitment.REARMAMENT
    succeed(game, "soviet-union", "escalation")
    answer_everything(game)
    assert any("soviet-union gains 4 escalation offensive(s)" in line for line in game.state.log)


def test_soviet_total_war_counts_the_urals_for_escalation_offensives_lr_12_3_1() -> None:
    """LR 12.3.1 (L2576): at total war the Urals joins the Volga: five escalation offensives."""
    game = bare_game("campaign-1933")
    game.state.powers["soviet-union"].commitment = Commitment.MOBILIZATION
    succeed(game, "soviet-union", "escalation")
    answer_everything(game)
    assert game.state.powers["soviet-union"].commitment is Commitment.TOTAL_WAR
    assert any("soviet-union gains 5 escalation offensive(s)" in line for line in game.state.log)


def test_soviet_special_resources_are_collected_as_industrial_lr_12_3_1() -> None:
    """LR 12.3.1 (L2576), LR 4.4.2, 4.7: the Volga and Urals are permanent industrial resources,
    collected every production and counted for war offensives."""
    game = bare_game("campaign-1933")
    state = game.state
    line = state.powers["soviet-union"]
    line.commitment = Commitment.TOTAL_WAR
    state.wars = [(["soviet-union"], ["japan"])]
    state.damaged = ["moscow", "leningrad"]  # bombed: they yield nothing this turn (LR 4.8)
    state.phase = "administration"
    game.push("produce", power="soviet-union")
    game.run()
    # Ukraine (industrial), Caucasus (natural), Volga and Urals (special, industrial)
    assert any("soviet-union collects 4 resource(s), 3 industrial" in line for line in state.log)
    choose(game, "soviet-union", "offensives 4")  # no builds to spend
    assert line.holding_box.count("offensive:soviet-union") == 4 + 3  # conversions and war offensives


def test_soviet_special_resources_are_not_in_play_before_their_commitment_lr_12_3_1() -> None:
    """LR 12.3.1 (L2576): below mobilization neither special resource is on the map."""
    game = bare_game("campaign-1933")
    state = game.state
    state.phase = "administration"
    game.push("produce", power="soviet-union")
    game.run()
    assert any("soviet-union collects 4 resource(s), 3 industrial" in line for line in state.log)


def test_japan_losing_tokyo_ends_us_japan_trade_lr_12_2_2() -> None:
    """LR 12.2.2 (L2525): US-Japan Trade leaves the game once Japan loses control of Tokyo."""
    game = bare_game("campaign-1933")
    assert "us-japan-trade" in game.state.markers
    change_control(game, "tokyo", "soviet-union")
    game.run()
    assert "us-japan-trade" not in game.state.markers
    assert any("US-Japan Trade ends" in line for line in game.state.log)


def test_japan_may_end_the_naval_treaty_in_the_middle_of_an_action_lr_12_1_3() -> None:
    """LR 12.1.3 (L2476-2478): Japan may end the Washington Naval Treaty at any time, even in the
    middle of an action, which provokes the UK and the US; ending it spends no military action."""
    game = bare_game("campaign-1933")
    game.push("military-action", power="japan", left=2, deployed=[], only=None)
    game.run()
    assert game.pending is not None and "2 left" in game.pending["prompt"]
    choose(game, "japan", "end the Washington Naval Treaty")
    assert "wnt" not in game.state.markers
    for power in ("united-kingdom", "united-states"):  # provoked: each gains a flag
        assert game.pending is not None and game.pending["power"] == power
        choose(game, power, "cup")
    assert game.pending is not None and game.pending["power"] == "japan"
    assert "2 left" in game.pending["prompt"]
    assert "end the Washington Naval Treaty" not in game.pending["options"]


def test_the_dreadnought_refit_is_the_players_choice_lr_12_2_1() -> None:
    """LR 12.2.1 (L2506), 4.6 (L1018): France *may* spend its Dreadnought Refit marker to build a
    surface fleet for one build; building one at full price keeps the marker."""
    game = bare_game("campaign-1933")
    state = game.state
    state.phase = "administration"
    state.powers["france"].commitment = Commitment.REARMAMENT  # room in the force pool
    state.powers["france"].force_pool = {"fleet": 2}
    game.push("construct", power="france", builds=3, industrial=0)
    game.run()
    assert game.pending is not None
    refit = "build surface-fleet with dreadnought refit"
    assert {"build surface-fleet", refit} <= set(game.pending["options"])
    choose(game, "france", "build surface-fleet")  # two builds, the marker stays available
    assert "dreadnought-refit-france" in state.markers
    assert game.pending is not None and "1 build(s) to spend" in game.pending["prompt"]
    choose(game, "france", refit)  # one build, the marker goes
    assert "dreadnought-refit-france" not in state.markers
    assert state.turn_track[state.turn + 2] == ["unit:france:surface-fleet"] * 2


def test_a_build_action_may_use_the_dreadnought_refit_lr_12_1_2() -> None:
    """LR 12.1.2 (L2457), 8.3 (L1714): builds from military actions construct units as in
    production, so Italy's refit fleet costs one build action instead of two."""
    game = bare_game("campaign-1933")
    state = game.state
    state.wars = [(["italy"], ["france"])]
    state.powers["italy"].force_pool = {"fleet": 1}
    game.push("military-action", power="italy", left=1, deployed=[], only=None)
    game.run()
    assert game.pending is not None and "build surface-fleet" not in game.pending["options"]
    choose(game, "italy", "build surface-fleet with dreadnought refit")
    assert "dreadnought-refit-italy" not in state.markers
    assert state.turn_track[state.turn + 2] == ["unit:italy:surface-fleet"]


def test_the_a_bomb_may_be_built_in_production_lr_12_2_2() -> None:
    """LR 12.2.2 (L2541), 4.6: once available the A-Bomb is constructed for one build, production
    builds included, and goes straight into the action cup, never the holding box or reserve."""
    game = bare_game("campaign-1933")
    state = game.state
    state.phase = "administration"
    state.markers.append("a-bomb-available")
    game.push("construct", power="united-states", builds=2, industrial=0)
    game.run()
    choose(game, "united-states", "build a-bomb")
    assert "a-bomb:united-states" in state.cup
    assert "a-bomb-available" not in state.markers
    assert state.powers["united-states"].holding_box == []
    assert game.pending is not None and "1 build(s) to spend" in game.pending["prompt"]
    assert "build a-bomb" not in game.pending["options"]


def test_german_units_never_retreat_into_the_demilitarized_ruhr_lr_12_1_1() -> None:
    """LR 12.1.1 (L2429): while the Rhineland is demilitarized Germany may not occupy the Ruhr, so a
    German army forced out of Benelux cannot retreat there and goes to the cup."""
    game = bare_game("campaign-1933")
    state = game.state
    army = next(u for u in state.units if u.power == "germany" and u.type == "infantry-army")
    army.area = "benelux"
    state.cubes["benelux"] = {"germany": 1}
    change_control(game, "benelux", "france")
    game.run()
    answer_everything(game)
    assert not any(u.power == "germany" and u.area in ("benelux", "ruhr") for u in state.units)
    assert any("germany" in line and "cup" in line for line in state.log[-6:]), state.log[-6:]


def test_isolationism_ends_for_good_once_the_us_is_belligerent_lr_12_2_2() -> None:
    """LR 12.2.2 (L2512): Isolationism binds the US *until* it is belligerent; after an armistice
    its land units may still deploy beyond its home areas and bases."""
    from grandstrategy.cataclysm.engine.war_start import make_war
    from grandstrategy.cataclysm.rules.movement import deployment_destinations

    game = bare_game("campaign-1933")
    state = game.state
    army = next(u for u in state.units if u.power == "united-states" and u.type == "infantry-army")
    army.area = "california"
    assert "philippines" not in deployment_destinations(MODULE, state, army)
    make_war(game, [("united-states", "japan")])
    game.run()
    answer_everything(game)
    assert "isolationism" not in state.markers
    state.peace.append(sorted(["united-states", "japan"]))  # an armistice (LR 5.6.2)
    assert "philippines" in deployment_destinations(MODULE, state, army)


def test_a_captured_special_resource_is_collected_by_its_controller_lr_12_3_1() -> None:
    """LR 12.3.1 (L2576), 4.4.2: once placed, the Volga's special resource is an industrial resource
    of its area like any other, so a Germany holding the Volga with an LOC collects it; before the
    Soviet Union mobilizes there is nothing there to collect."""
    for soviet, collected in ((Commitment.REARMAMENT, 2), (Commitment.MOBILIZATION, 3)):
        game = bare_game("campaign-1933")
        state = game.state
        state.powers["soviet-union"].commitment = soviet
        for area in ("poland", "byelorussia", "ukraine", "volga"):
            state.cubes[area] = {"germany": 1}
        state.phase = "administration"
        game.push("produce", power="germany")
        game.run()
        # Berlin and the Ukraine, and the Volga once placed
        assert any(
            f"germany collects {collected} resource(s), {collected} industrial" in x for x in state.log
        )
