"""The real thing: ``grandstrategy play`` in a tmux terminal, driven by keystrokes.

Where tmux is missing, the test installs it with the system package manager, so a fresh
machine runs it too; it is skipped only when that is impossible (not root, or no apt-get).
The pane is made large enough for the whole screen, read with
``tmux capture-pane -p``, and must show the turn, the powers and the decision; typing a number must
advance the game (the choice lands in the save).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from grandstrategy.core.log import ActionEntry
from grandstrategy.core.replay import open_save


def ensure_tmux() -> str | None:
    """The path of tmux, installing Debian's package first when it is missing and we may."""
    found = shutil.which("tmux")
    if found is not None or os.geteuid() != 0 or shutil.which("apt-get") is None:
        return found
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    for step in (["apt-get", "update", "-qq"], ["apt-get", "install", "-y", "-qq", "tmux"]):
        subprocess.run(step, capture_output=True, check=False, env=env)
    return shutil.which("tmux")


TMUX = ensure_tmux()
pytestmark = pytest.mark.skipif(TMUX is None, reason="tmux is missing and cannot be installed here")


def _human_actions(path: Path) -> list[str]:
    return [e.action for e in open_save(path).log if isinstance(e, ActionEntry) and e.seat == "italy"]


class Pane:
    """One tmux server (its own socket) with one session running a command."""

    def __init__(self, name: str, command: str, cwd: Path, width: int = 150, height: int = 60) -> None:
        assert TMUX is not None
        self.base = [TMUX, "-L", name]
        self.name = name
        env = {**os.environ, "TERM": "xterm-256color", "COLUMNS": str(width), "LINES": str(height)}
        size = ["-x", str(width), "-y", str(height)]
        subprocess.run(
            [*self.base, "new-session", "-d", "-s", name, *size, "-c", str(cwd), command],
            check=True,
            env=env,
        )

    def screen(self, history: int = 0) -> str:
        """The visible screen, with up to ``history`` lines scrolled off above it."""
        start = ["-S", str(-history)] if history else []
        result = subprocess.run(
            [*self.base, "capture-pane", "-p", *start, "-t", self.name],
            capture_output=True,
            text=True,
            check=False,
        )
        return result.stdout

    def keys(self, *keys: str) -> None:
        subprocess.run([*self.base, "send-keys", "-t", self.name, *keys], check=True)

    def wait_for(self, test: Callable[[str], bool], polls: int = 600, history: int = 0) -> str:
        """Look at the screen every 0.2 s until ``test`` holds, at most ``polls`` times (a generous
        bound for a busy machine; nothing here measures how long the program took)."""
        screen = ""
        for _ in range(polls):
            screen = self.screen(history)
            if test(screen):
                return screen
            time.sleep(0.2)
        raise AssertionError(f"the screen never showed what was expected; last screen:\n{screen}")

    def alive(self) -> bool:
        return (
            subprocess.run([*self.base, "has-session", "-t", self.name], capture_output=True).returncode == 0
        )

    def close(self) -> None:
        subprocess.run([*self.base, "kill-server"], capture_output=True, check=False)


def test_play_in_tmux(tmp_path: Path) -> None:
    save = tmp_path / "game.json"
    command = [sys.executable, "-m", "grandstrategy", "new", "cataclysm", "--scenario", "europe-1939"]
    command += ["--seed", "5", "--seats", "italy=human,*=bot:random", "--save", str(save)]
    made = subprocess.run(command, capture_output=True, text=True, check=False)
    assert made.returncode == 0, made.stderr
    pane = Pane(f"gs-play-{os.getpid()}", f"{sys.executable} -m grandstrategy play {save}", tmp_path)
    try:
        screen = pane.wait_for(lambda s: "italy>" in s)
        assert "turn 1939-40" in screen
        for power in ("France", "Germany", "Italy", "Soviet Union"):
            assert power in screen
        assert "decision: italy (you)" in screen
        assert "1. " in screen
        before = _human_actions(save)
        pane.keys("1", "Enter")
        screen = pane.wait_for(lambda s: "you: italy:" in s, history=500)
        assert len(_human_actions(save)) == len(before) + 1  # the choice is in the save already
        pane.keys("help", "Enter")
        pane.wait_for(lambda s: "take back your last choice" in s)
        pane.keys("quit", "Enter")
        pane.wait_for(lambda s: "saved to" in s or not pane.alive(), polls=300)
    finally:
        pane.close()
    assert open_save(save).decision() is not None  # the save loads and the game goes on


REPO = Path(__file__).resolve().parents[2]
MAKE = shutil.which("make")


@pytest.mark.skipif(
    MAKE is None or not (REPO / ".venv" / ".installed").exists() or Path(sys.prefix) != REPO / ".venv",
    reason="needs make and the repository's own .venv (as `make test` sets up)",
)
def test_make_play_terminal_shows_chances_and_the_position_at_80_by_24(tmp_path: Path) -> None:
    """Issue 12 as a new user sees it: `make play-terminal` in an 80x24 terminal, a political action shows
    each option's chance before the dice, `status` lists the power's position, and an operation shows
    its exact odds on the menu and again at each activation, changing as units join."""
    save = tmp_path / "game.json"
    command = f"make play-terminal SAVE={save} SCENARIO=europe-1939 SEED=11"
    pane = Pane(f"gs-make-{os.getpid()}", command, REPO, width=80, height=24)
    try:
        screen = pane.wait_for(lambda s: "germany>" in s and "place the flag gained" in s)
        pane.keys("2", "Enter")  # keep the flag in reserve
        pane.wait_for(lambda s: "germany>" in s and "interrupt with your reserved" in s)
        pane.keys("2", "Enter")  # interrupt: the flag's political action follows
        screen = pane.wait_for(lambda s: "germany>" in s and "political action" in s)
        assert "maneuvers  success 70%" in screen  # LR 2.8 dice, effectiveness 3: the exact chance
        assert "diplomacy poland  success 42%" in screen  # a modifier lowers it: still before any die
        assert max(len(line) for line in screen.splitlines()) <= 80
        pane.keys("status", "Enter")
        screen = pane.wait_for(lambda s: "interests (LR 5.1" in s, polls=300)
        screen = pane.screen(history=200)
        for expected in ("Germany (you)", "areas controlled", "Berlin (capital)", "force pool (LR 4.1.1)"):
            assert expected in screen
        pane.keys("2", "Enter")  # maneuvers (seed 11: the dice succeed), then a military action
        screen = pane.wait_for(lambda s: "germany>" in s and "military action (1 left" in s)
        rows = screen.splitlines()
        at = next(i for i, row in enumerate(rows) if ". land operation against Poland" in row)
        assert "win 67% · triumph 38%" in rows[at] + rows[at + 1]  # the force Germany could bring
        pane.keys(rows[at].split(".")[0].split()[-1], "Enter")
        screen = pane.wait_for(lambda s: "germany>" in s and "activate units for the operation" in s)
        rows = screen.splitlines()
        for unit, odds in (("infantry-army in Silesia", "win 49%"), ("tank-army in Silesia", "win 67%")):
            at = next(i for i, row in enumerate(rows) if unit in row)
            assert odds in rows[at] + rows[at + 1], rows[at : at + 2]  # each unit's own odds, no die yet
        tank = next(row for row in rows if "tank-army in Silesia" in row)
        pane.keys(tank.split(".")[0].split()[-1], "Enter")
        screen = pane.wait_for(lambda s: "Germany activates its tank army" in s and "germany>" in s)
        rows = screen.splitlines()
        assert "win 67%" in next(row for row in rows if ". done" in row)  # the tank army counted in
        at = next(i for i, row in enumerate(rows) if "infantry-army in Silesia" in row)
        assert "win 49%" not in rows[at] + rows[at + 1]  # the infantry's figure now has the tank in it
        pane.keys("quit", "Enter")
        pane.wait_for(lambda s: "saved to" in s or not pane.alive(), polls=300)
    finally:
        pane.close()
    assert open_save(save).decision() is not None
