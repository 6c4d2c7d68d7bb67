"""The sequence of play on the kernel: whole games, saves, hidden cup, and the rules' examples."""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest

from grandstrategy.cataclysm.engine import CATACLYSM, CataclysmGame
from grandstrategy.cataclysm.engine.invariants import problems
from grandstrategy.cataclysm.module import load_module
from grandstrategy.cataclysm.module.schema import Commitment, Stability
from grandstrategy.cataclysm.state import Unit, new_state
from grandstrategy.core.errors import IllegalActionError, NotationError
from grandstrategy.core.replay import replay
from grandstrategy.core.rng import Rng
from grandstrategy.core.save import loads_save, save_game
from grandstrategy.core.session import Match

MODULE = load_module()


def playout(seed: int, scenario: str, *, check: bool = True, limit: int = 100_000) -> Match:
    """Play a whole game with uniformly random choices, checking invariants after every action."""
    match = Match(CATACLYSM, seed=seed, options={"scenario": scenario})
    chooser = Rng(seed + 1000)
    steps = 0
    while not match.is_terminal() and steps < limit:
        decision = match.decision()
        assert decision is not None
        match.play(decision.seat, decision.legal[chooser.below(len(decision.legal))])
        steps += 1
        if check:
            broken = problems(match.state)  # type: ignore[arg-type]
            assert not broken, f"seed {seed} {scenario} step {steps}: {broken}"
    return match


@pytest.mark.parametrize("scenario", ["campaign-1933", "europe-1939"])
@pytest.mark.parametrize("seed", range(1, 9))
def test_random_games_reach_the_end_with_every_invariant_holding(seed: int, scenario: str) -> None:
    match = playout(seed, scenario)
    game = match.state
    assert isinstance(game, CataclysmGame)
    result = game.state.result
    assert result is not None and result["winner"] in ("democracy", "fascism", "communism")
    ended_early = "surrender" in result["how"] or "no power is at war" in result["how"]  # LR 1.6
    assert game.state.turn >= MODULE.scenarios[scenario].end or ended_early
    for seat, value in match.returns().items():
        assert value == (1.0 if MODULE.powers[seat].ideology.value == result["winner"] else -1.0)


def test_same_seed_same_game() -> None:
    first, second = playout(5, "europe-1939", check=False), playout(5, "europe-1939", check=False)
    assert first.state_hash() == second.state_hash()
    assert [str(entry) for entry in first.log] == [str(entry) for entry in second.log]
    assert playout(6, "europe-1939", check=False).state_hash() != first.state_hash()


def test_save_load_replay_round_trip() -> None:
    match = Match(CATACLYSM, seed=11, options={"scenario": "campaign-1933"})
    chooser = Rng(3)
    for _ in range(150):
        decision = match.decision()
        assert decision is not None
        match.play(decision.seat, decision.legal[chooser.below(len(decision.legal))])
    text = save_game(match, snapshot=True).dumps()
    loaded = loads_save(text)
    assert loaded.dumps() == text
    again = replay(loaded)
    assert again.state_hash() == match.state_hash()
    assert save_game(again, snapshot=True).dumps() == text


def test_views_never_show_the_cup() -> None:
    match = Match(CATACLYSM, seed=4, options={"scenario": "campaign-1933"})
    chooser = Rng(9)
    for _ in range(200):
        for seat in (*match.state.seats(), None):
            shown = json.loads(json.dumps(match.view(seat)))
            game = match.state
            assert isinstance(game, CataclysmGame)
            assert shown["state"]["state"]["cup"] == {"counters": len(game.state.cup)}
            assert "outcomes" not in json.dumps(shown)
        decision = match.decision()
        assert decision is not None
        match.play(decision.seat, decision.legal[chooser.below(len(decision.legal))])


def test_illegal_choices_are_refused_and_change_nothing() -> None:
    match = Match(CATACLYSM, seed=2, options={"scenario": "europe-1939"})
    decision = match.decision()
    assert decision is not None
    before = match.state_hash()
    other = next(seat for seat in match.state.seats() if seat != decision.seat)
    with pytest.raises(IllegalActionError, match="turn"):
        match.play(other, f"{other}: reject")
    with pytest.raises(IllegalActionError, match="not legal"):
        match.play(decision.seat, f"{decision.seat}: conquer the world")
    with pytest.raises(NotationError, match="power: option"):
        match.play(decision.seat, "reject")
    assert match.state_hash() == before


def test_unknown_scenario_option_is_refused() -> None:
    with pytest.raises(Exception, match="unknown scenario"):
        Match(CATACLYSM, seed=1, options={"scenario": "1812"})
    with pytest.raises(Exception, match="unknown option"):
        Match(CATACLYSM, seed=1, options={"speed": 2})


def bare_game(scenario: str = "europe-1939") -> CataclysmGame:
    """A game at the start of a scenario, with no step pending: tests push their own."""
    return CataclysmGame(MODULE, new_state(MODULE, scenario))


def choose(game: CataclysmGame, power: str, option: str) -> None:
    assert game.pending is not None and game.pending["type"] == "decide", game.pending
    assert game.pending["power"] == power, game.pending
    assert option in game.pending["options"], game.pending["options"]
    game.apply(game.legal_actions()[game.pending["options"].index(option)])


def roll(game: CataclysmGame, *faces: int) -> None:
    for face in faces:
        assert game.pending is not None and game.pending["type"] == "chance", game.pending
        game.apply_chance(str(face))


def test_sudden_death_example_lr_l831() -> None:
    game = bare_game()
    state = game.state
    state.powers["france"].commitment = Commitment.REARMAMENT
    state.powers["united-kingdom"].commitment = Commitment.MOBILIZATION
    state.powers["germany"].commitment = Commitment.MOBILIZATION
    state.cup = [
        "flag:france",
        "flag:united-kingdom",
        "offensive:united-kingdom",
        "flag:germany",
        "offensive:germany",
        "offensive:germany",
    ]
    state.sudden_death = True
    game.push("crisis-drawn")
    game.run()
    assert "crisis" in state.cup and state.phase == "action"  # Germany's 3 counters keep the turn going
    state.cup = [
        "flag:france",
        "flag:united-kingdom",
        "offensive:united-kingdom",
        "flag:germany",
        "offensive:germany",
    ]
    game.pending = None
    game.stack = [{"do": "crisis-drawn"}]
    game.run()
    assert state.phase in ("end", "administration")  # nobody has enough: the action phase ends


def test_interrupt_priority_example_lr_l761() -> None:
    game = bare_game()
    state = game.state
    state.powers["italy"].reserve = "flag:italy"
    state.powers["united-kingdom"].reserve = "flag:united-kingdom"
    state.powers["germany"].reserve = None
    for power in ("france", "soviet-union", "united-states"):
        state.powers[power].reserve = None
    state.powers["soviet-union"].stability = Stability.WAVERING
    game.push("action-window")
    game.run()
    choose(game, "united-kingdom", "pass")  # the UK (effectiveness 2) is asked first, and waits
    choose(game, "italy", "interrupt")  # Italy (effectiveness 1) commits ...
    choose(game, "united-kingdom", "interrupt")  # ... and the UK may still go first
    assert state.powers["united-kingdom"].reserve is None and state.powers["italy"].reserve == "flag:italy"
    assert game.pending is not None and game.pending["prompt"].startswith("political action")


def test_no_interrupt_by_the_ideology_that_just_acted_lr_3_5() -> None:
    game = bare_game()
    for line in game.state.powers.values():
        line.reserve = None
    game.state.powers["italy"].reserve = "flag:italy"
    game.state.last_ideology = "fascism"
    game.push("action-window")
    game.run()
    assert game.pending is not None and game.pending["type"] == "chance"  # straight to the draw


def test_administration_phase_example_lr_4_9() -> None:
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
    game.then(
        {"do": "gain-admin-flags", "power": "germany"},
        {"do": "produce", "power": "germany"},
        {"do": "final-disposition", "power": "germany"},
    )
    game.run()
    assert germany.holding_box.count("flag:germany") == 2  # Night of the Long Knives: two flags
    assert game.pending is not None and "of your 4 resources" in game.pending["prompt"]
    choose(game, "germany", "offensives 2")
    assert "4 build(s)" in game.pending["prompt"]
    choose(game, "germany", "build infantry-army")
    choose(game, "germany", "build tactical-air")
    choose(game, "germany", "build upgrade:army")
    assert sorted(germany.holding_box) == sorted(
        ["flag:germany"] * 2
        + ["offensive:germany"] * 5
        + ["unit:germany:infantry-army", "unit:germany:tactical-air", "upgrade:germany:army"]
    )
    choose(game, "germany", "keep upgrade:germany:army")
    assert germany.reserve == "upgrade:germany:army"
    assert germany.holding_box == [] and state.cup.count("offensive:germany") >= 5


def test_french_surrender_example_lr_l1252_1258() -> None:
    game = bare_game("campaign-1933")
    state = game.state
    for area in ("poland", "czechoslovakia", "rumania", "yugoslavia"):
        del state.cubes[area]
    state.cubes["paris"] = {"germany": 2}
    state.cubes["lorraine"] = {"germany": 1}
    state.alliances["democracy"] = ["france", "united-kingdom"]
    state.wars = [(["france", "united-kingdom"], ["germany"])]
    state.markers.remove("status-quo")  # France is at war: Status Quo is over (LR 12.2)
    state.units = [u for u in state.units if u.power != "france"]
    state.units.append(Unit(99, "united-kingdom", "infantry-army", "french-north-africa"))
    game.push("collapse", power="france")
    game.run()
    assert game.pending is not None and "threshold 4" in game.pending["label"]
    roll(game, 3)  # 3 <= 4: France surrenders
    choose(game, "germany", "reserve")  # 1. each enemy gains a flag
    roll(game, 6, 2)  # 2. the UK's stability test passes
    choose(game, "united-kingdom", "take")  # 3. the British army in French North Africa takes it
    assert not state.powers["france"].active
    assert state.cubes["french-north-africa"] == {"united-kingdom": 1}
    assert not any(c.split(":")[1:2] == ["france"] for c in state.cup)
    choose(game, "germany", "attempt")  # the check is Germany's choice (LR 5.7)
    roll(game, 6, 1, 1)  # Germany's diplomatic opportunity in Brittany (three dice): success
    choose(game, "germany", "attempt")
    roll(game, 3, 2, 1)  # ... and in Provence: failure
    assert state.cubes["brittany"] == {"germany": 1}
    assert state.cubes["provence"] == {"neutral": 1}
    assert state.powers["germany"].reserve == "flag:germany"
    assert state.surrenders == ["fascism"]  # step 9, after the opportunities: German cubes lead


def _games() -> Iterator[str]:
    yield from ("campaign-1933", "europe-1939")


def test_every_power_is_a_seat() -> None:
    for scenario in _games():
        game = CATACLYSM.new_state({"scenario": scenario})
        assert set(game.seats()) == set(MODULE.scenarios[scenario].powers)


def test_france_and_uk_alliance_example_lr_l1361_l1365() -> None:
    game = bare_game("campaign-1933")
    state = game.state
    state.alliances = {}
    state.powers["united-kingdom"].reserve = "flag:united-kingdom"
    game.push("play-counter", counter="flag:france", source="cup")
    game.run()
    choose(game, "france", "alliance united-kingdom")
    choose(game, "united-kingdom", "agree")
    assert game.pending is not None and game.pending["label"].startswith(
        "france alliance"
    )  # France's one die
    roll(game, 6)
    assert state.alliances["democracy"] == ["france", "united-kingdom"]
    assert state.powers["united-kingdom"].reserve is None  # its reserved flag was played too
    provoked = []
    while game.pending is not None and game.pending["type"] == "decide":
        provoked.append(game.pending["power"])
        choose(game, game.pending["power"], "cup")
    assert sorted(provoked) == ["germany", "italy"]  # one flag each, not two


def test_failed_alliance_places_a_cube_for_each_power_lr_5_4() -> None:
    game = bare_game("campaign-1933")
    state = game.state
    state.alliances = {}
    state.powers["united-kingdom"].reserve = "flag:united-kingdom"
    game.push("play-counter", counter="flag:france", source="cup")
    game.run()
    choose(game, "france", "alliance united-kingdom")
    choose(game, "united-kingdom", "agree")
    roll(game, 2)
    assert state.powers["france"].failed_actions == {"alliance": 1}
    assert state.powers["united-kingdom"].failed_actions == {"alliance": 1}


def test_italian_diplomacy_in_yugoslavia_lr_l1451() -> None:
    game = bare_game("campaign-1933")
    del game.state.cubes["yugoslavia"]
    game.state.powers["italy"].reserve = None
    game.push("play-counter", counter="flag:italy", source="cup")
    game.run()
    choose(game, "italy", "diplomacy yugoslavia")
    roll(game, 5)  # 5 - 1 resistance = 4: Yugoslavia resists
    assert "yugoslavia" not in game.state.cubes
    assert "italy diplomacy yugoslavia: rolls 5-1, failure" in game.state.log[-1]
    assert game.state.powers["italy"].failed_actions == {}  # no cube for failed diplomacy


def test_crisis_reroll_only_when_nothing_can_change_lr_l809() -> None:
    game = bare_game("campaign-1933")
    state = game.state
    state.war_status = state.war_status.__class__("limited")
    state.powers["france"].reserve = None
    game.push("crisis-roll", reroll=True)
    game.run()
    roll(game, 4, 3)  # Wartime 4-3 Labor Strikes with no French reserve: roll again
    assert "roll again" in state.log[-1]
    assert game.pending is not None and game.pending["label"] == "crisis"
    roll(game, 4, 3)  # only one reroll: this time it stands (and changes nothing)
    assert "roll again" not in state.log[-1]
    peace = bare_game("campaign-1933")
    peace.push("crisis-roll", reroll=True)
    peace.run()
    roll(peace, 6, 4)  # Scandinavian League: nobody holds those countries, so nothing can change
    assert "roll again" in peace.state.log[-1]
    peace2 = bare_game("campaign-1933")
    peace2.push("crisis-roll", reroll=True)
    peace2.run()
    roll(peace2, 6, 2)  # Little Entente: France holds all three; its checks may fail, so it stands
    assert any("hold czechoslovakia" in line or "Little Entente" in line for line in peace2.state.log)
    assert "roll again" not in " ".join(peace2.state.log)


def test_a_scenario_opens_with_the_action_phase_of_its_first_turn() -> None:
    game = CATACLYSM.new_state({"scenario": "campaign-1933"})
    assert isinstance(game, CataclysmGame)
    assert game.state.phase == "action" and game.state.turn == 1933


def test_same_ideology_ties_are_ordered_by_power_id() -> None:
    from grandstrategy.cataclysm.engine.common import power_order

    game = bare_game("campaign-1933")
    game.state.powers["japan"].commitment = Commitment.REARMAMENT  # Japan 2 ... Germany 3
    game.state.powers["germany"].effectiveness_reduced = True  # Germany 2: tied with Japan
    order = power_order(game, decreasing=True)
    assert order.index("germany") < order.index("japan")


def test_a_partner_refusing_ends_the_alliance_attempt() -> None:
    game = bare_game("campaign-1933")
    game.state.alliances = {}
    game.state.powers["united-kingdom"].reserve = "flag:united-kingdom"
    game.push("play-counter", counter="flag:france", source="cup")
    game.run()
    choose(game, "france", "alliance united-kingdom")
    choose(game, "united-kingdom", "refuse")
    assert game.state.alliances == {} and game.pending is None
    assert game.state.powers["united-kingdom"].reserve == "flag:united-kingdom"  # it keeps its flag


def test_economic_setback_returns_the_next_playable_counter_lr_l2971() -> None:
    game = bare_game("campaign-1933")
    game.state.economic_setback = True
    flags = game.state.powers["italy"].available_flags
    game.state.cup = ["flag:italy", "crisis"]
    game.stack = [{"do": "drawn", "outcome": "flag:italy"}]
    game.run()
    assert game.state.powers["italy"].available_flags == flags + 1 and not game.state.economic_setback


def test_a_lone_offensive_at_civilian_cannot_be_played_lr_4_1() -> None:
    from grandstrategy.cataclysm.engine.counters import playable

    game = bare_game("campaign-1933")
    game.state.powers["france"].reserve = None
    assert not playable(game, "france", "offensive:france")
    game.state.powers["france"].reserve = "offensive:france"
    assert playable(game, "france", "offensive:france")  # drawn, with the reserved one: one action


def test_collapse_at_total_war_cuts_the_force_pool_to_exhaustion_lr_4_1_2() -> None:
    game = bare_game()
    state = game.state
    germany = state.powers["germany"]
    germany.commitment = Commitment.TOTAL_WAR
    germany.force_pool = {"army": 6, "air": 4}
    limit = MODULE.powers["germany"].status_card["exhaustion"].force_pool
    game.push("collapse", power="germany")
    game.run()
    roll(game, 6)  # above the threshold: collapse, not surrender
    assert germany.commitment is Commitment.EXHAUSTION and germany.stability is Stability.WAVERING
    removed = 0
    while (
        game.pending is not None and game.pending["type"] == "decide" and game.pending["power"] == "germany"
    ):
        assert game.pending["prompt"].startswith("exhaustion")
        choose(game, "germany", game.pending["options"][0])
        removed += 1
    from grandstrategy.cataclysm.engine.common import counters_in_play

    assert sum(counters_in_play(game, "germany").values()) + sum(germany.force_pool.values()) == limit
    assert removed > 0


def test_selfplay_command(cli) -> None:  # type: ignore[no-untyped-def]
    first = cli("cataclysm", "selfplay", "--scenario", "europe-1939", "--seed", "4", "--json").json()
    again = cli("cataclysm", "selfplay", "--scenario", "europe-1939", "--seed", "4", "--json").json()
    assert first["winner"] in ("democracy", "fascism", "communism") and 1 <= first["turns"] <= 5
    assert first["state_hash"] == again["state_hash"] and first["decisions"] == again["decisions"]
    assert first["turns"] == again["turns"]
    assert cli("cataclysm", "selfplay", "--scenario", "nope").code == 2


def test_escalation_offensives_with_the_ruhr_limited_resource_lr_l1487() -> None:
    game = bare_game()
    state = game.state
    germany = state.powers["germany"]
    germany.reserve = None
    before = state.cup.count("offensive:germany")
    game.push("political-result", power="germany", action="escalation", target="", success=True, dice=[6])
    game.run()
    assert germany.commitment is Commitment.MOBILIZATION
    while (
        game.pending is not None
        and game.pending["type"] == "decide"
        and not game.pending["prompt"].startswith("escalation offensives")
    ):
        option = game.pending["options"][0]
        choose(game, game.pending["power"], option)  # force pool picks, then provoked powers' flags
    assert game.pending is not None and "Ruhr limited resource" in game.pending["prompt"]
    choose(game, "germany", "count")
    choose(game, "germany", "reserve")
    assert "Ruhr" in state.used_limited
    # three offensives: Berlin, Ruhr and the Ruhr limited resource (V45 L38 gives the same count)
    assert state.cup.count("offensive:germany") - before == 2 and germany.reserve == "offensive:germany"


def test_a_unit_with_nowhere_to_go_may_wait_for_next_turn_lr_3_7_2() -> None:
    game = bare_game("campaign-1933")
    game.state.cubes["berlin"] = {"france": 2}  # Germany has no production site left
    game.push("drawn-choice", counter="unit:germany:infantry-army")
    game.run()
    assert game.pending is not None and game.pending["options"] == ["reserve", "reject", "next turn"]
    choose(game, "germany", "next turn")
    assert "unit:germany:infantry-army" in game.state.turn_track[1935]


def test_an_illegal_choice_names_the_rule() -> None:
    match = Match(CATACLYSM, seed=2, options={"scenario": "europe-1939"})
    decision = match.decision()
    assert decision is not None
    with pytest.raises(IllegalActionError, match=r"LR \d"):
        match.play(decision.seat, f"{decision.seat}: conquer the world")


def test_the_invariant_check_catches_broken_states() -> None:
    game = bare_game("campaign-1933")
    assert problems(game) == []
    for number in range(3):
        game.state.units.append(Unit(200 + number, "germany", "infantry-army", "bavaria"))
    game.state.cup.append("flag:germany")  # a flag out of nowhere
    game.state.cubes["poland"] = {"france": 30}
    found = " | ".join(problems(game))
    assert "bavaria" in found and "flags in play" in found and "cubes on the map" in found


def test_an_alliance_with_a_belligerent_draws_the_new_ally_into_its_war_lr_6_1_3() -> None:
    game = bare_game("campaign-1933")
    state = game.state
    state.alliances = {}
    state.wars = [(["united-kingdom"], ["germany"])]
    for power in ("united-kingdom", "france"):
        state.powers[power].commitment = Commitment.MOBILIZATION  # able to go to war (LR 6.2)
    state.powers["united-kingdom"].reserve = "flag:united-kingdom"
    game.push("play-counter", counter="flag:france", source="cup")
    game.run()
    choose(game, "france", "alliance united-kingdom")
    choose(game, "united-kingdom", "agree")
    roll(game, 6)
    assert state.wars == [(["france", "united-kingdom"], ["germany"])]
    assert state.war_status.value == "limited"
    assert "status-quo" not in state.markers  # a Democracy at war ends it (LR 12.2)
    assert "wnt" not in state.markers  # the UK at war ends the treaty (LR 12.1.3)
    assert "rhineland" not in state.markers  # Germany at war flips the marker (LR 12.1.1)


def test_no_alliance_with_a_belligerent_for_a_power_that_cannot_go_to_war() -> None:
    from grandstrategy.cataclysm.engine.alliance import alliance_options

    game = bare_game("campaign-1933")
    game.state.alliances = {}
    game.state.wars = [(["united-kingdom"], ["germany"])]
    game.state.powers["united-kingdom"].reserve = "flag:united-kingdom"
    assert alliance_options(game, "france") == []  # France at civilian could not join the war


def test_collapse_cancels_pending_stability_tests_lr_5_5_3() -> None:
    game = bare_game("campaign-1933")
    state = game.state
    state.powers["france"].stability = Stability.UNSTABLE
    game.then(
        {"do": "stability-test", "power": "france", "reason": "first", "modifier": 0},
        {"do": "stability-test", "power": "france", "reason": "second", "modifier": 0},
    )
    game.run()
    roll(game, 1)  # fails: France collapses
    roll(game, 6)  # above the threshold: collapse only
    assert state.powers["france"].stability is Stability.WAVERING
    assert game.pending is None or "second" not in str(game.pending)
    assert not any(s.get("reason") == "second" for s in game.stack)


def test_a_power_holding_no_home_area_surrenders_at_once_lr_5_5_4() -> None:
    game = bare_game("campaign-1933")
    for area in ("paris", "lorraine", "brittany", "provence"):
        game.state.cubes[area] = {"germany": 1}
    game.push("collapse", power="france")
    game.run()
    assert not game.state.powers["france"].active or game.pending is not None
    assert "none of its home areas" in " ".join(game.state.log)


def test_a_new_fleet_may_not_crowd_a_port_that_is_not_a_production_site_lr_7_1() -> None:
    from grandstrategy.cataclysm.engine.counters import placements

    game = bare_game("campaign-1933")
    assert "okinawa" in placements(game, "japan", "surface-fleet")
    for number in range(2):
        game.state.units.append(Unit(300 + number, "japan", "surface-fleet", "okinawa"))
    assert "okinawa" not in placements(game, "japan", "surface-fleet")
    assert "tokyo" in placements(game, "japan", "surface-fleet")  # a production site may be crowded


def test_reserve_example_of_the_land_operation_lr_l2225() -> None:
    """The UK keeps the offensive in its reserve and sends its provocation flag to the cup; France,
    with an empty reserve, keeps its flag there."""
    game = bare_game()  # europe-1939: the UK starts with an offensive in reserve
    state = game.state
    assert state.powers["united-kingdom"].reserve == "offensive:united-kingdom"
    state.powers["france"].reserve = None
    in_cup = state.cup.count("flag:united-kingdom")
    game.then(
        {"do": "gain-flag", "power": "france", "reason": "provocation"},
        {"do": "gain-flag", "power": "united-kingdom", "reason": "provocation"},
    )
    game.run()
    choose(game, "france", "reserve")
    choose(game, "united-kingdom", "cup")
    assert state.powers["france"].reserve == "flag:france"
    assert state.powers["united-kingdom"].reserve == "offensive:united-kingdom"
    assert state.cup.count("flag:united-kingdom") == in_cup + 1


def test_collapse_at_exhaustion_breaks_alliances_and_offers_an_armistice_lr_5_5_3() -> None:
    game = bare_game()
    state = game.state
    state.alliances = {"fascism": ["germany", "italy"], "democracy": ["france", "united-kingdom"]}
    state.wars = [(["france", "united-kingdom"], ["germany", "italy"])]
    state.powers["italy"].commitment = Commitment.EXHAUSTION
    game.push("collapse", power="italy")
    game.run()
    roll(game, 6)  # collapse, not surrender
    asked = []
    while game.pending is not None:
        if game.pending["type"] == "chance":
            game.apply_chance("6")  # Germany's stability test passes
            continue
        power, prompt = game.pending["power"], game.pending["prompt"]
        asked.append((power, prompt.split(":")[0]))
        if "armistice" in prompt:
            choose(game, power, "accept" if power == "france" else "decline")
        else:
            choose(game, power, "cup")
    assert [p for p, what in asked if "armistice" in what] == ["france", "united-kingdom"]  # increasing order
    assert "fascism" not in state.alliances  # Italy left; Germany alone is no alliance
    assert "democracy" not in state.alliances  # France made peace while the UK fights on
    from grandstrategy.cataclysm.rules.control import at_war

    assert not at_war(state, "france", "italy")  # the armistice France accepted
    assert at_war(state, "france", "germany") and at_war(state, "united-kingdom", "italy")


def test_every_kind_of_decision_names_its_rule_and_refuses_illegal_choices() -> None:
    """Over whole random games, each kind of decision (by its prompt) names the rule it applies,
    and an option it did not offer is refused with that rule in the message, leaving the game as
    it was (LR 3.3: only the choices the rules give)."""
    import re

    seen: set[str] = set()
    for seed in (3, 4):
        match = Match(CATACLYSM, seed=seed, options={"scenario": "campaign-1933"})
        chooser = Rng(seed + 500)
        while not match.is_terminal():
            decision = match.decision()
            assert decision is not None
            game = match.state
            assert isinstance(game, CataclysmGame) and game.pending is not None
            prompt = game.pending["prompt"]
            assert re.search(r"LR \d|crisis \d-\d", prompt), prompt
            kind = re.sub(r"[0-9#]+|\(.*?\)", "", prompt.split(":")[0]).strip()
            if kind not in seen:
                seen.add(kind)
                before = match.state_hash()
                with pytest.raises(IllegalActionError, match=r"LR \d|crisis \d-\d"):
                    match.play(decision.seat, f"{decision.seat}: an option nobody offered")
                assert match.state_hash() == before
            match.play(decision.seat, decision.legal[chooser.below(len(decision.legal))])
    assert len(seen) >= 20, sorted(seen)
