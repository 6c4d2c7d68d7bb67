"""Tests that assert the outcome of rules in sections 1 to 6 of the Living Rules through the engine.

Each test sets up a situation, forces the dice and the choices, and checks what the rule says
happens; the docstrings name the rule and the line of the Living Rules ("L1234").
"""

from __future__ import annotations

from grandstrategy.cataclysm.engine import CataclysmGame
from grandstrategy.cataclysm.engine.common import counters_in_play
from grandstrategy.cataclysm.engine.politics import political_options
from grandstrategy.cataclysm.module.schema import Commitment, Stability, WarStatus
from grandstrategy.cataclysm.rules.control import at_war, controller
from grandstrategy.cataclysm.state import Unit
from tests.cataclysm.test_operations import MODULE, bare_game, choose, options, roll, settle


def _flag_play(game: CataclysmGame, power: str, counter: str | None = None) -> None:
    """Play a flag of ``power`` drawn from the cup: the political-action menu opens."""
    game.push("play-counter", counter=counter or f"flag:{power}", source="cup")
    game.run()
    assert game.pending is not None and game.pending["prompt"].startswith("political action")


def _draw(game: CataclysmGame, counter: str) -> None:
    """Draw this counter from the cup (the chance outcome forced)."""
    assert counter in game.state.cup, counter
    game.stack = [{"do": "drawn", "outcome": counter}]
    game.pending = None
    game.run()


def pick(game: CataclysmGame, power: str, option: str) -> None:
    """Choose without the invariant check (for set-ups that leave the counter mix aside)."""
    assert game.pending is not None and game.pending["type"] == "decide", game.pending
    assert game.pending["power"] == power, game.pending
    assert option in game.pending["options"], game.pending["options"]
    game.apply(game.legal_actions()[game.pending["options"].index(option)])


def _answer_all(game: CataclysmGame, option: str = "cup") -> list[str]:
    """Answer every flag placement with ``option``; return the powers asked, in order."""
    asked: list[str] = []
    while (
        game.pending is not None
        and game.pending["type"] == "decide"
        and "place the flag" in game.pending["prompt"]
    ):
        asked.append(game.pending["power"])
        choose(game, game.pending["power"], option)
    return asked


# ---- LR 1.6: ending the game ------------------------------------------------------------------


def test_the_last_turn_ends_the_game_unless_global_war_runs_later_lr_1_6() -> None:
    """LR 1.6 (L181): the game ends after the scenario's final turn or the Global War marker's turn,
    whichever is later; the Global War marker on the current turn ends the game at its end (L701)."""
    game = bare_game()
    state = game.state
    state.turn = state.last_turn
    state.global_war_turn = state.last_turn + 2  # Global War runs one turn past the scenario
    game.push("end-phase-finish")
    game.run()
    assert state.result is None and state.turn == state.last_turn + 2  # the game goes on
    game.stack.clear()
    game.pending = None
    game.push("end-phase-finish")  # the end of the Global War marker's turn
    game.run()
    assert state.result is not None and state.phase == "over"
    assert state.result["how"] == "the last turn is over"


def test_the_final_turn_ends_the_game_when_global_war_is_earlier_lr_1_6() -> None:
    """LR 1.6 (L181): with the Global War marker on an earlier turn, the scenario's last turn ends it."""
    game = bare_game()
    state = game.state
    state.turn = state.last_turn - 2
    state.global_war_turn = state.last_turn - 2
    game.push("end-phase-finish")
    game.run()
    assert state.result is None and state.turn == state.last_turn
    game.stack.clear()
    game.pending = None
    game.push("end-phase-finish")
    game.run()
    assert state.result is not None


def test_two_surrender_markers_end_the_game_at_once_lr_1_6() -> None:
    """LR 1.6 (L174-176): an ideology that caused two surrenders ends the game; a shared marker
    counts for both ideologies; one marker is not enough."""
    game = bare_game("campaign-1933")
    state = game.state
    state.surrenders = ["fascism"]
    game.push("check-game-end")
    game.run()
    assert state.result is None
    state.surrenders = ["fascism", "communism+fascism"]
    game.push("check-game-end")
    game.run()
    assert state.result is not None and state.result["how"] == "fascism holds two Surrender markers"


def test_an_ideology_all_surrendered_ends_the_game_after_the_surrender_procedure_lr_1_6() -> None:
    """LR 1.6 (L174-175): when every power of an ideology has surrendered the game ends, and the
    surrender procedure is completed first (its Surrender marker is placed, LR 5.5.4 step 9)."""
    game = bare_game()
    state = game.state
    state.cubes["moscow"] = {"germany": 2}
    state.cubes["leningrad"] = {"germany": 1}
    state.wars = [(["germany"], ["soviet-union"])]
    state.powers["soviet-union"].commitment = Commitment.MOBILIZATION
    game.push("collapse", power="soviet-union")
    game.run()
    roll(game, 1)  # at or below the threshold: the Soviet Union surrenders
    while state.result is None and game.pending is not None:
        if game.pending["type"] == "chance":
            game.apply_chance("1")  # diplomatic opportunities fail
        else:
            choose(game, game.pending["power"], game.pending["options"][0])
    assert not state.powers["soviet-union"].active
    assert state.surrenders == ["fascism"]  # the procedure ran to its end first
    assert state.result is not None and state.result["how"] == "every communism power has surrendered"


# ---- LR 3.2.1, 3.3, 3.4, 3.6, 3.7.3, 3.8: the sequence of play ----------------------------------


def test_turn_track_counters_go_to_the_cup_or_the_holding_box_lr_3_2_1() -> None:
    """LR 3.2.1 (L695-699): the Crisis, Home Front and Civil War Resolution markers on this turn's
    box go into the cup, power counters into their power's holding box; the Global War marker
    stays on the track."""
    game = bare_game()
    state = game.state
    state.turn = 1941
    state.cup = []
    state.global_war_turn = 1945
    state.turn_track = {
        1941: ["crisis", "crisis", "home-front:germany", "cw-resolution", "unit:germany:fortress"],
        1943: ["unit:france:fortress"],
    }
    game.push("administration")
    game.run()
    assert sorted(c for c in state.cup if c in ("crisis", "home-front:germany", "cw-resolution")) == [
        "crisis",
        "crisis",
        "cw-resolution",
        "home-front:germany",
    ]
    assert "unit:germany:fortress" in state.powers["germany"].holding_box + state.cup + [
        state.powers["germany"].reserve
    ]
    assert "unit:germany:fortress" not in state.cup  # not into the cup before the final disposition
    assert state.turn_track == {1943: ["unit:france:fortress"]}  # only this turn's box is emptied
    assert state.global_war_turn == 1945


def test_a_drawn_counter_is_played_reserved_or_rejected_and_markers_wait_for_next_turn_lr_3_3() -> None:
    """LR 3.3 (L739-742): a drawn flag is played, reserved or rejected by its power; a drawn Crisis
    marker is resolved at once (no choice) and placed on next turn's box."""
    game = bare_game()
    state = game.state
    _draw(game, "flag:italy")
    assert game.pending is not None and game.pending["power"] == "italy"
    assert options(game) == ["play", "reserve", "reject"]
    choose(game, "italy", "reject")
    crises = state.cup.count("crisis")
    _draw(game, "crisis")
    assert game.pending is not None and game.pending["type"] == "chance"  # the crisis dice, no choice
    assert game.pending["label"] == "crisis"
    assert state.turn_track[state.turn + 2] == ["crisis"]
    assert state.cup.count("crisis") == crises - 1


def test_no_political_action_that_could_not_change_the_game_lr_3_3() -> None:
    """LR 3.3 (L745): propaganda at Steady and a declaration of war with no legal target are not
    offered; at Wavering propaganda is."""
    game = bare_game("campaign-1933")
    state = game.state
    state.powers["france"].stability = Stability.STEADY
    listed = political_options(game, "france")
    assert "propaganda" not in listed
    assert not any(o.startswith("declare-war") for o in listed)  # France at civilian cannot declare war
    state.powers["france"].stability = Stability.WAVERING
    assert "propaganda" in political_options(game, "france")


def test_a_new_reserve_rejects_the_counter_it_replaces_lr_3_4() -> None:
    """LR 3.4 (L749-751): one counter in reserve; reserving another rejects the old one (LR 3.6),
    which goes back to the power's card."""
    game = bare_game()
    state = game.state
    line = state.powers["germany"]
    line.reserve = "offensive:germany"
    line.available_offensives -= 1
    offensives, flags = line.available_offensives, line.available_flags
    _draw(game, "flag:germany")
    choose(game, "germany", "reserve")
    assert line.reserve == "flag:germany"
    assert line.available_offensives == offensives + 1  # the replaced offensive is rejected
    assert line.available_flags == flags


def test_a_rejected_counter_returns_to_the_power_card_lr_3_6() -> None:
    """LR 3.6 (L765): a rejected flag goes to the available markers box, a rejected unit to the
    available force pool; Crisis markers are never offered for rejection (L767)."""
    game = bare_game()
    state = game.state
    line = state.powers["united-kingdom"]
    line.force_pool["army"] -= 1  # an army counter in the cup, as built last turn
    state.cup.append("unit:united-kingdom:infantry-army")
    flags = line.available_flags
    in_cup = state.cup.count("flag:united-kingdom")
    _draw(game, "flag:united-kingdom")
    choose(game, "united-kingdom", "reject")
    assert line.available_flags == flags + 1 and state.cup.count("flag:united-kingdom") == in_cup - 1
    pool = dict(line.force_pool)
    _draw(game, "unit:united-kingdom:infantry-army")
    choose(game, "united-kingdom", "reject")
    assert line.force_pool["army"] == pool.get("army", 0) + 1


def test_an_upgrade_flips_a_unit_and_returns_to_the_force_pool_lr_3_7_3() -> None:
    """LR 3.7.3 (L791): the upgrade flips one of the power's units of the right type that it can
    trace an LOC to, and the marker goes back to the force pool."""
    game = bare_game()
    state = game.state
    state.units = [Unit(1, "germany", "infantry-army", "bavaria"), Unit(2, "germany", "tactical-air", "ruhr")]
    state.next_unit_id = 3
    line = state.powers["germany"]
    before = line.force_pool.get("upgrade:army", 0)
    game.push("play-counter", counter="upgrade:germany:army", source="cup")
    game.run()
    assert options(game) == ["bavaria #1"]  # only the army; the air force needs another marker
    pick(game, "germany", "bavaria #1")
    assert [u.type for u in state.units] == ["tank-army", "tactical-air"]
    assert line.force_pool["upgrade:army"] == before + 1


def test_an_upgrade_with_no_eligible_unit_is_rejected_reserved_or_kept_for_next_turn_lr_3_7_3() -> None:
    """LR 3.7.3 (L793): with no unit to improve, the upgrade cannot be played; its power rejects
    it, reserves it or puts it on next turn's box."""
    game = bare_game()
    state = game.state
    state.units = [u for u in state.units if not (u.power == "germany" and u.type == "infantry-army")]
    game.push("drawn-choice", counter="upgrade:germany:army")
    game.run()
    assert options(game) == ["reserve", "reject", "next turn"]
    choose(game, "germany", "next turn")
    assert state.turn_track[state.turn + 2] == ["upgrade:germany:army"]


def test_the_end_phase_sequence_lr_3_8() -> None:
    """LR 3.8 (L839-848): leftover cup counters: Civil War Resolution first, Home Front markers in
    increasing effectiveness order, power counters to their holding boxes; reserves to the holding
    boxes; reduced effectiveness flips back; the turn advances and Sudden Death ends."""
    game = bare_game()
    state = game.state
    state.cup = ["home-front:germany", "home-front:france", "flag:italy", "offensive:germany", "crisis"]
    state.powers["france"].commitment = Commitment.REARMAMENT  # France (1) before Germany (3)
    state.powers["germany"].effectiveness_reduced = True
    state.powers["italy"].reserve = "offensive:italy"
    state.sudden_death = True
    start = state.turn
    game.push("end-phase")
    game.run()
    assert state.cup == []
    assert "flag:italy" in state.powers["italy"].holding_box
    assert "offensive:germany" in state.powers["germany"].holding_box
    # France's home front test comes first (increasing effectiveness order)
    assert game.pending is not None and game.pending["label"].startswith("france stability test (home front)")
    while game.pending is not None and state.phase == "end":
        if game.pending["type"] == "chance":
            game.apply_chance("6")
        else:
            pick(game, game.pending["power"], "done" if "done" in options(game) else options(game)[0])
    tests = [line for line in state.log if "stability test (home front)" in line]
    assert [line.split()[2] for line in tests] == ["france", "germany"]
    assert state.turn == start + 2 and not state.sudden_death
    assert "crisis" in state.cup  # the leftover Crisis marker waited for this turn (LR 3.7.4)
    assert state.powers["germany"].effectiveness_reduced is False
    italy = state.powers["italy"]
    assert italy.reserve is None and "offensive:italy" in italy.holding_box + state.cup
