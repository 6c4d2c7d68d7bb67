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

    def __init__(self, name: str, command: str, cwd: Path) -> None:
        assert TMUX is not None
        self.base = [TMUX, "-L", name]
        self.name = name
        env = {**os.environ, "TERM": "xterm-256color", "COLUMNS": "150", "LINES": "60"}
        subprocess.run(
            [*self.base, "new-session", "-d", "-s", name, "-x", "150", "-y", "60", "-c", str(cwd), command],
            check=True,
            env=env,
        )

    def screen(self) -> str:
        result = subprocess.run(
            [*self.base, "capture-pane", "-p", "-t", self.name], capture_output=True, text=True, check=False
        )
        return result.stdout

    def keys(self, *keys: str) -> None:
        subprocess.run([*self.base, "send-keys", "-t", self.name, *keys], check=True)

    def wait_for(self, test: Callable[[str], bool], polls: int = 600) -> str:
        """Look at the screen every 0.2 s until ``test`` holds, at most ``polls`` times (a generous
        bound for a busy machine; nothing here measures how long the program took)."""
        screen = ""
        for _ in range(polls):
            screen = self.screen()
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
        screen = pane.wait_for(lambda s: "you: italy:" in s)
        assert len(_human_actions(save)) == len(before) + 1  # the choice is in the save already
        pane.keys("help", "Enter")
        pane.wait_for(lambda s: "take back your last choice" in s)
        pane.keys("quit", "Enter")
        pane.wait_for(lambda s: "saved to" in s or not pane.alive(), polls=300)
    finally:
        pane.close()
    assert open_save(save).decision() is not None  # the save loads and the game goes on
