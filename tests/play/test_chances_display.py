"""The terminal shows each option's chance before the dice: in the decision panel and in tmux."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from rich.console import Console

from core.toy_game import PigRuleSet
from grandstrategy.play.games import attack_odds, option_chances
from grandstrategy.play.session import PlaySession
from grandstrategy.play.terminal import render_decision

from .test_tmux import TMUX, Pane

SEATS = "germany=human,*=bot:random"
SEED = 3
"""Europe 1939 with this seed: Germany's first draw is a flag; maneuvers succeed on the seeded dice."""


def _session(tmp_path: Path) -> PlaySession:
    session = PlaySession.create(
        tmp_path / "game.json", "cataclysm", options={"scenario": "europe-1939"}, seed=SEED, seats=SEATS
    )
    list(session.bot_moves())
    return session


def _panel(session: PlaySession) -> list[str]:
    """The decision panel as an 80-column terminal shows it, line by line."""
    decision = session.decision()
    assert decision is not None
    console = Console(width=80, record=True, color_system=None)
    console.print(render_decision(session, decision))
    return console.export_text().splitlines()


def _line_of(lines: list[str], option: str) -> int:
    found = [i for i, line in enumerate(lines) if f". {option}" in line]
    assert len(found) == 1, (option, lines)
    return found[0]


def _beside_or_below(lines: list[str], option: str, text: str) -> None:
    """The chance text on the option's line or the line after it."""
    at = _line_of(lines, option)
    assert text in lines[at] or text in lines[at + 1], (option, text, lines[at : at + 2])


def _play(session: PlaySession, prefix: str) -> None:
    decision = session.decision()
    assert decision is not None
    options = [str(getattr(a, "option", a)) for a in decision.legal]
    session.play(next(o for o in options if o.startswith(prefix)))
    list(session.bot_moves())


def test_the_decision_panel_carries_each_options_chance_within_80_columns(tmp_path: Path) -> None:
    session = _session(tmp_path)
    _play(session, "play")  # the drawn flag buys a political action (LR 3.3)
    lines = _panel(session)
    assert all(len(line) <= 80 for line in lines)
    chances = option_chances(session.match.state)
    assert chances["maneuvers"].text == "success 70%"  # three dice at effectiveness 3 (LR 5.3)
    _beside_or_below(lines, "maneuvers", "success 70%")
    assert "success" not in lines[_line_of(lines, "forfeit")]
    _play(session, "maneuvers")  # the seeded dice succeed: one military action (LR 6.5)
    lines = _panel(session)
    assert all(len(line) <= 80 for line in lines)
    poland = option_chances(session.match.state)["land operation against Poland"]
    assert poland.text.startswith("win 67% · triumph 38%")
    _beside_or_below(lines, "land operation against Poland", poland.text[:30])
    state = session.match.state
    assert attack_odds(state, "germany", "land operation against Poland") == float(poland.success)
    _play(session, "land operation against Poland")
    lines = _panel(session)
    chances = option_chances(session.match.state)
    tank = next(o for o in chances if o.startswith("activate #2 tank-army"))
    infantry = next(o for o in chances if o.startswith("activate #1 infantry-army"))
    assert chances[tank].text.startswith("win 67%") and chances[infantry].text.startswith("win 49%")
    _beside_or_below(lines, tank, "win 67%")
    _beside_or_below(lines, infantry, "win 49%")
    _play(session, "activate #2 tank-army")  # the next activation prompt counts the tank army in
    lines = _panel(session)
    _beside_or_below(lines, "done", "win 67%")


def test_other_rule_sets_have_no_chances() -> None:
    state = PigRuleSet().new_state({})
    assert option_chances(state) == {}
    assert attack_odds(state, "p1", "roll") is None


@pytest.mark.skipif(TMUX is None, reason="tmux is not installed")
def test_tmux_shows_the_percentages_before_the_dice(tmp_path: Path) -> None:
    save = tmp_path / "game.json"
    command = [sys.executable, "-m", "grandstrategy", "new", "cataclysm", "--scenario", "europe-1939"]
    command += ["--seed", str(SEED), "--seats", SEATS, "--save", str(save)]
    made = subprocess.run(command, capture_output=True, text=True, check=False)
    assert made.returncode == 0, made.stderr
    pane = Pane(f"gs-chances-{os.getpid()}", f"{sys.executable} -m grandstrategy play {save}", tmp_path)
    try:
        pane.wait_for(lambda s: "germany>" in s and "play, reserve or reject" in s)
        pane.keys("1", "Enter")  # play the flag
        screen = pane.wait_for(lambda s: "political action (LR 6)" in s and "germany>" in s)
        assert "maneuvers  success 70%" in screen  # the chance, before any die is rolled
        number = next(line for line in screen.splitlines() if ". maneuvers" in line).split(".")[0].split()[-1]
        pane.keys(number, "Enter")
        screen = pane.wait_for(lambda s: "military action (1 left" in s and "germany>" in s)
        assert "rolls" in screen or "success" in screen
        rows = screen.splitlines()
        at = next(i for i, line in enumerate(rows) if ". land operation against Poland" in line)
        assert "win 67% · triumph 38%" in rows[at] + rows[at + 1]  # beside it, or below where too long
        pane.keys(rows[at].split(".")[0].split()[-1], "Enter")
        screen = pane.wait_for(lambda s: "activate units for the operation" in s and "germany>" in s)
        rows = screen.splitlines()
        for unit, text in (("tank-army in Silesia", "win 67%"), ("infantry-army in Silesia", "win 49%")):
            at = next(i for i, line in enumerate(rows) if unit in line)
            assert text in rows[at] or text in rows[at + 1], rows[at : at + 2]
        pane.keys("quit", "Enter")
        pane.wait_for(lambda s: "saved to" in s or not pane.alive(), polls=300)
    finally:
        pane.close()
