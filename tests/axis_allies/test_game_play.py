"""Whole A&A games through the play layer: bots, simulate with invariants, saves and replay, views."""

from __future__ import annotations

from pathlib import Path

import pytest

from grandstrategy.axis_allies.game import AA_REVISED
from grandstrategy.cli import main
from grandstrategy.core import Match, loads_save, replay, save_game, view
from grandstrategy.play.bots import RandomBot
from grandstrategy.play.games import invariant_problems, outcome, seat_group, seat_groups
from grandstrategy.play.simulate import simulate


def test_random_bots_play_a_round_with_every_invariant_holding() -> None:
    report = simulate("aa-revised", options={"max_rounds": 1}, games=1, seed=11, seats={}, check=True)
    game = report.games[0]
    assert game.end == "round limit 1" or game.winner in ("axis", "allies")
    assert game.turns == 1
    assert game.decisions > 20 and game.chance_events > 0
    again = simulate("aa-revised", options={"max_rounds": 1}, games=1, seed=11, seats={}, check=True)
    assert again.games[0].log_hash == game.log_hash


def _played(seed: int, decisions: int) -> Match:
    match = Match(AA_REVISED, seed=seed, options={"max_rounds": 1})
    bot = RandomBot(seed)
    for _ in range(decisions):
        decision = match.decision()
        if decision is None:
            break
        match.play(decision.seat, bot.choose(match.state, decision, ply=len(match.log)))
    return match


def test_save_and_replay_reproduce_the_state_hash() -> None:
    match = _played(4, 150)
    assert any(entry.to_json()["type"] == "chance" for entry in match.log)
    text = save_game(match, snapshot=True).dumps()
    again = replay(loads_save(text))
    assert again.state_hash() == match.state_hash()
    assert again.state.to_json() == match.state.to_json()
    assert AA_REVISED.state_from_json(match.state.to_json()).state_hash() == match.state_hash()


def test_views_are_json_and_show_the_board_to_every_seat() -> None:
    match = _played(2, 30)
    for seat in (None, "germans", "americans"):
        seen = view(match.state, seat)  # type: ignore[arg-type]
        assert seen["state"]["owner"]["germany"] == "germans"


def test_play_layer_knows_the_alliances_and_the_outcome() -> None:
    state = AA_REVISED.new_state({})
    assert seat_groups(state) == {
        "allies": ["russians", "british", "americans"],
        "axis": ["germans", "japanese"],
    }
    assert seat_group(state, "japanese") == "axis"
    assert invariant_problems(state) == []
    result = outcome(state)
    assert result.winner is None and result.vp == {"allies": 6, "axis": 6} and result.turns == 1


def test_invariant_check_catches_a_broken_position() -> None:
    state = AA_REVISED.new_state({})
    state.d["bank"]["germans"] = -1
    state.d["units"].pop("sz-1", None)
    state.add("sz-1", "germans:infantry:1:0")
    found = invariant_problems(state)
    assert "germans has a bank of -1 IPCs" in found
    assert "germans has more cargo in sz-1 than its transports hold" in found


def test_heuristic_bot_makes_a_legal_choice() -> None:
    from grandstrategy.play.bots import HeuristicBot

    match = Match(AA_REVISED, seed=3, options={"max_rounds": 1})
    decision = match.decision()
    assert decision is not None
    bot = HeuristicBot(seed=1, max_sims=8)
    action = bot.choose(match.state, decision, ply=0)
    assert action in decision.legal


def test_command_line_new_play_and_replay(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    save = tmp_path / "aa.json"

    def run(*args: str) -> int:
        with pytest.raises(SystemExit) as exit_info:
            main(list(args))
        code = exit_info.value.code
        return code if isinstance(code, int) else 1

    assert run("new", "aa-revised", "--seed", "2", "--seats", "russians=human", "--save", str(save)) == 0
    assert run("play", str(save), "--moves", "done,1") == 0
    assert "russians: buy infantry" in capsys.readouterr().out
    assert run("replay", str(save)) == 0
    assert "replays" in capsys.readouterr().out
    assert run("new", "aa-revised", "--scenario", "1939", "--save", str(tmp_path / "x.json")) != 0
    assert "scenario must be '1942'" in capsys.readouterr().err


def test_terminal_heading_shows_round_banks_and_victory_cities() -> None:
    from grandstrategy.play.games import summary

    info = summary(AA_REVISED.new_state({}))
    assert info.title == "Axis & Allies Revised, LHTR 1.3"
    assert info.turn == "1" and info.phase == "russians research"
    assert "russians 24" in info.war and "victory cities allies 6, axis 6" in info.war
