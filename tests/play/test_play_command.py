"""``grandstrategy play`` at its edges: another power asked for, a new game, Ctrl-C, closed input,
a refused ``--moves`` choice, and the command printed to resume."""

from __future__ import annotations

import json
import os
import select
import signal
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from grandstrategy.core.replay import open_save
from grandstrategy.play.commands import launcher
from grandstrategy.play.seats import seats_path

from .conftest import Cli

NewGame = Callable[..., Path]


def _human_seats(path: Path) -> list[str]:
    seats = json.loads(seats_path(path).read_text(encoding="utf-8"))["seats"]
    return sorted(seat for seat, kind in seats.items() if kind == "human")


def test_asking_for_another_power_says_so_and_changes_nothing(cli: Cli, new_game: NewGame) -> None:
    path = new_game(seats="italy=human,*=bot:random")
    before, seats_before = path.read_bytes(), seats_path(path).read_bytes()
    result = cli("play", str(path), "--power", "france", "--moves", "quit")
    assert result.code == 2
    assert "is a game where you play Italy, not France" in result.err
    assert "--power france --new" in result.err
    assert len(result.err.strip().splitlines()) == 1 and "Traceback" not in result.err
    assert path.read_bytes() == before and seats_path(path).read_bytes() == seats_before
    # the same power resumes the saved game
    same = cli("play", str(path), "--power", "italy", "--moves", "quit")
    assert same.code == 0, same.err


def test_the_make_hint_names_make_play_with_new(cli: Cli, new_game: NewGame) -> None:
    path = new_game(seats="italy=human,*=bot:random")
    result = cli("play", str(path), "--power", "france", "--moves", "quit", "--from-make", "make play")
    assert result.code == 2
    assert "make play POWER=france NEW=1" in result.err


def test_new_replaces_the_save_with_a_game_for_that_power(cli: Cli, new_game: NewGame) -> None:
    path = new_game(seats="italy=human,*=bot:random")
    result = cli("play", str(path), "--power", "france", "--new", "--moves", "quit")
    assert result.code == 0, result.err
    assert "new cataclysm game (scenario europe-1939)" in result.out  # the saved game's scenario
    assert _human_seats(path) == ["france"]
    assert open_save(path).decision() is not None
    again = cli("play", str(path), "--new", "--moves", "quit")  # no --power: the saved seats again
    assert again.code == 0, again.err
    assert "new cataclysm game (scenario europe-1939)" in again.out
    assert _human_seats(path) == ["france"]


def test_power_with_a_missing_file_starts_a_new_game(cli: Cli, tmp_path: Path) -> None:
    path = tmp_path / "fresh.json"
    result = cli("play", str(path), "--power", "germany", "--scenario", "europe-1939", "--moves", "quit")
    assert result.code == 0, result.err
    assert _human_seats(path) == ["germany"]


def test_a_refused_move_in_moves_stops_with_exit_code_2(cli: Cli, new_game: NewGame) -> None:
    path = new_game()
    assert cli("play", str(path), "--moves", "quit").code == 0  # the bots move up to our decision
    before = path.read_bytes()
    result = cli("play", str(path), "--moves", "log 2,99,1")
    assert result.code == 2
    assert "move 2 of --moves ('99') was refused: choose a number from 1 to" in result.err
    assert path.read_bytes() == before  # nothing after the refused move was played
    unknown = cli("play", str(path), "--moves", "banana")
    assert unknown.code == 2 and "('banana') was refused: unknown command" in unknown.err


def test_the_quit_hint_is_a_command_that_works_here(
    cli: Cli, new_game: NewGame, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    program = tmp_path / ".venv" / "bin" / "grandstrategy"
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sys, "argv", [str(program)])
    assert launcher() == os.path.join(".venv", "bin", "grandstrategy")
    monkeypatch.setattr(sys, "argv", ["grandstrategy"])
    assert launcher() == "grandstrategy"
    path = new_game()
    made = cli("play", str(path), "--moves", "quit", "--from-make", "make play")
    assert made.out.rstrip().endswith("continue with: make play")


# ---- a real process: Ctrl-C and closed input -------------------------------------------------------------


def _grandstrategy(*args: str) -> list[str]:
    return [sys.executable, "-m", "grandstrategy", *args]


def _ignore_ctrl_c() -> None:
    """What a script's background job (``cmd &``) gets from its shell: SIGINT ignored."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


@pytest.mark.parametrize("started_ignoring_ctrl_c", [False, True])
def test_ctrl_c_at_the_prompt_saves_and_exits_0(new_game: NewGame, started_ignoring_ctrl_c: bool) -> None:
    path = new_game()
    env = {**os.environ, "PYTHONUNBUFFERED": "1", "COLUMNS": "80"}
    process = subprocess.Popen(
        _grandstrategy("play", str(path)),
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=env,
        preexec_fn=_ignore_ctrl_c if started_ignoring_ctrl_c else None,
    )
    assert process.stdout is not None
    seen = b""
    try:
        while b"decision: italy (you)" not in seen or not seen.rstrip().endswith(b"\xe2\x95\xaf"):
            ready, _, _ = select.select([process.stdout], [], [], 120)
            assert ready, f"no prompt came; output so far: {seen[-400:]!r}"
            chunk = os.read(process.stdout.fileno(), 65536)
            assert chunk, f"the game ended before its prompt: {seen[-400:]!r}"
            seen += chunk
        saved = path.read_bytes()  # the save as it stands at the prompt
        process.send_signal(signal.SIGINT)
        # Wait with standard input still open: communicate() would close it at once, and a game
        # reading end-of-input before the signal lands quits the ordinary way (a race seen in CI).
        process.wait(timeout=120)
        out, err = process.communicate()
    finally:
        if process.poll() is None:
            process.kill()
    text = (seen + out).decode("utf-8")
    assert process.returncode == 0, err
    assert "interrupted: saved to" in text and "Traceback" not in text + err.decode()
    assert path.read_bytes() == saved
    assert open_save(path).decision() is not None


@pytest.mark.parametrize("how", ["closed", "devnull"])
def test_play_without_input_stops_cleanly_at_the_prompt(new_game: NewGame, how: str) -> None:
    path = new_game()
    command = _grandstrategy("play", str(path))
    if how == "closed":
        result = subprocess.run(
            ["sh", "-c", 'exec "$@" 0<&-', "sh", *command], capture_output=True, text=True, timeout=300
        )
        assert "standard input is closed" in result.stdout
    else:
        result = subprocess.run(
            command, stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=300
        )
    assert result.returncode == 0, result.stderr
    assert "saved to" in result.stdout and "Traceback" not in result.stdout + result.stderr
    assert open_save(path).decision() is not None
