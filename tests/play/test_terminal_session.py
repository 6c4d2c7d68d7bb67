"""A person's game without a terminal: new, play by script, undo, map, rules, quit, resume, replay."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from grandstrategy.core.chance import ChanceEvent
from grandstrategy.core.errors import UserInputError
from grandstrategy.core.log import ActionEntry
from grandstrategy.core.replay import open_save
from grandstrategy.play.bots import RandomBot
from grandstrategy.play.seats import seats_path
from grandstrategy.play.session import PlaySession, UndoError

from .conftest import Cli

NewGame = Callable[..., Path]


def human_actions(path: Path, seat: str = "italy") -> list[str]:
    return [e.action for e in open_save(path).log if isinstance(e, ActionEntry) and e.seat == seat]


def test_new_writes_a_save_that_loads_and_the_seats_beside_it(cli: Cli, new_game: NewGame) -> None:
    path = new_game()
    assert open_save(path).decision() is not None
    seats = json.loads(seats_path(path).read_text(encoding="utf-8"))["seats"]
    assert seats["italy"] == "human" and seats["germany"] == "bot:random"
    again = cli("new", "cataclysm", "--scenario", "europe-1939", "--seats", "italy", "--save", str(path))
    assert again.code == 2 and "already exists" in again.err


def test_scripted_session_moves_undoes_and_resumes(cli: Cli, new_game: NewGame) -> None:
    path = new_game()
    first = cli("play", str(path), "--moves", "help,show,log 3,rules what is a flag,map,1,quit")
    assert first.code == 0, first.err
    out = first.out
    for expected in ("turn 1939-40", "Italy", "decision: italy (you)", "1. play", "VP by ideology", "cup:"):
        assert expected in out
    assert "5.2 Flags" in out  # the rules assistant answered
    assert "map written to" in out and (path.parent / "game-map.svg").read_text(encoding="utf-8").startswith(
        "<?xml"
    )
    assert "saved to" in out
    assert len(human_actions(path)) == 1
    # resume from the file: the game goes on from where it stopped
    second = cli("play", str(path), "--moves", "undo,quit")
    assert second.code == 0, second.err
    assert "undone: italy: " in second.out or "undo stops at dice and draws" in second.out
    assert len(human_actions(path)) == (0 if "undone:" in second.out else 1)
    assert cli("replay", str(path), "--verify").code == 0


def test_bad_input_is_one_line_and_the_prompt_comes_back(cli: Cli, new_game: NewGame) -> None:
    path = new_game()
    assert cli("play", str(path), "--moves", "quit").code == 0  # the bots move up to our decision
    before = open_save(path).state_hash()
    result = cli("play", str(path), stdin="0\n99\nbanana\nlog x\nrules\nundo\nquit\n")
    assert result.code == 0
    assert "choose a number from 1 to" in result.out
    assert "unknown command 'banana'" in result.out
    assert "log takes a number" in result.out
    assert "ask a question after rules" in result.out
    assert "nothing to undo" in result.out
    assert "Traceback" not in result.out + result.err
    assert open_save(path).state_hash() == before


def test_commands_from_a_pipe(cli: Cli, new_game: NewGame) -> None:
    path = new_game()
    session = PlaySession.open(path)
    list(session.bot_moves())
    decision = session.decision()
    assert decision is not None
    option = decision.legal[-1].option  # type: ignore[attr-defined]
    result = cli("play", str(path), stdin=f"{option}\nquit\n")
    assert result.code == 0, result.err
    assert human_actions(path) == [f"italy: {option}"]


def test_undo_refuses_after_a_chance_event(new_game: NewGame) -> None:
    path = new_game(seats="italy=human,*=bot:random")
    session = PlaySession.open(path)
    list(session.bot_moves())
    chooser = RandomBot(3)
    for ply in range(300):  # play until a choice of ours is followed by a chance event
        decision = session.decision()
        if decision is None:
            pytest.skip("the game ended before a chance event followed a choice")
        pick = chooser.choose(session.match.state, decision, ply=ply)
        session.play(pick)
        list(session.bot_moves())
        log = session.match.log
        index = max(i for i, e in enumerate(log) if isinstance(e, ActionEntry) and e.seat == "italy")
        if any(isinstance(e, ChanceEvent) for e in log[index + 1 :]):
            break
        session.undo()  # nothing random happened since: undo brings back the same decision
        assert session.decision() == decision
        session.play(pick)
        list(session.bot_moves())
    before = session.match.state_hash()
    with pytest.raises(UndoError, match="undo stops at dice and draws"):
        session.undo()
    assert session.match.state_hash() == before


def test_undo_without_checkpoints_replays_the_log(new_game: NewGame) -> None:
    path = new_game(seats="*=human")
    session = PlaySession.open(path)
    for _ in range(100):  # play until a choice is not followed by a chance event
        session.play(1)
        if isinstance(session.match.log[-1], ActionEntry):
            break
    else:
        pytest.fail("every choice was followed by chance")
    undone = session.match.log[-1]
    before = session.match.log[:-1]
    reopened = PlaySession.open(path)  # as a new process would: no checkpoints in memory
    assert reopened.undo() == f"undone: {undone.action}"
    assert reopened.match.log == before
    assert open_save(path).log == before


def test_a_bot_seat_cannot_be_played_by_hand(new_game: NewGame) -> None:
    path = new_game(seats="*=bot:random")
    session = PlaySession.open(path)
    with pytest.raises(UserInputError, match="a bot plays"):
        session.play(1)


def test_all_bot_game_plays_to_the_end(cli: Cli, new_game: NewGame) -> None:
    path = new_game(seats="*=random")
    result = cli("play", str(path), "--moves", "")
    assert result.code == 0
    assert "Game over" in result.out
    verify = cli("replay", str(path), "--verify", "--json")
    assert verify.code == 0 and verify.json()["game_over"] is True


def test_replay_verify_names_a_tampered_log(cli: Cli, new_game: NewGame) -> None:
    path = new_game()
    cli("play", str(path), "--moves", "1,quit")
    data = json.loads(path.read_text(encoding="utf-8"))
    for entry in data["log"]:
        if entry["type"] == "chance" and entry["kind"] == "die":
            entry["outcome"] = "6" if entry["outcome"] != "6" else "5"
            break
    path.write_text(json.dumps(data), encoding="utf-8")
    result = cli("replay", str(path), "--verify")
    assert result.code == 1
    assert "log[" in result.err and len(result.err.strip().splitlines()) == 1


def test_replay_prints_the_game(cli: Cli, new_game: NewGame) -> None:
    path = new_game()
    cli("play", str(path), "--moves", "quit")
    result = cli("replay", str(path))
    assert result.code == 0
    assert "draws" in result.out and result.out.strip().splitlines()[-1].startswith("OK:")
