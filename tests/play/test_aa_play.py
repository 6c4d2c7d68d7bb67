"""The terminal game with a person playing Axis & Allies Revised (LHTR): ``new aa --rules lhtr``,
then ``play`` through a purchase, a combat move and a battle in which the person picks a casualty,
scripted with ``--moves`` and, once, typed in a tmux terminal of 80x24; then the bots take the
person's seat and play on to a victory-city win, which replays."""

from __future__ import annotations

import os
import re
import sys
from pathlib import Path

import pytest

from grandstrategy.core.log import ActionEntry
from grandstrategy.core.replay import open_save

from .conftest import Cli
from .test_tmux import TMUX, Pane

ATTACK = [
    "done",  # no research
    "buy infantry",
    "done",
    "move 3 infantry west-russia -> russia",
    "move 1 artillery west-russia -> russia",
    "move 1 armour west-russia -> russia",
    "done",
    "fight russia",
]
"""Germany's first turn of the seed-38 game (the allies' seats random bots, Japan the heuristic
bot): a purchase, a combat move on Moscow, which the random Russians left thin, the battle."""


def _human_actions(path: Path) -> list[str]:
    return [e.action for e in open_save(path).log if isinstance(e, ActionEntry) and e.seat == "germans"]


def _new(cli: Cli, path: Path) -> None:
    seats = "germans,allies=random"
    made = cli("new", "aa", "--rules", "lhtr", "--seats", seats, "--seed", "38", "--save", str(path))
    assert made.code == 0, made.err
    assert "new aa-revised game" in made.out


def test_a_person_buys_attacks_and_picks_a_casualty(cli: Cli, tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    _new(cli, path)
    result = cli("play", str(path), "--moves", ",".join([*ATTACK, "lose germans infantry"]))
    assert result.code == 0, result.err
    assert "(attacker-casualties)" in result.out  # the person was asked for the casualty
    assert _human_actions(path)[: len(ATTACK) + 1] == [
        *(f"germans: {move}" for move in ATTACK),
        "germans: lose germans infantry",
    ]
    state = open_save(path).state
    assert state.d["owner"]["russia"] == "germans"  # type: ignore[attr-defined]
    assert state.d["bank"]["germans"] >= 40 - 3  # type: ignore[attr-defined]  (plus Moscow's plunder)


def test_a_person_plays_saves_resumes_and_the_bots_finish_the_game(cli: Cli, tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    _new(cli, path)
    first = cli("play", str(path), "--moves", ",".join(ATTACK[:4]))
    assert first.code == 0, first.err
    assert "saved to" in first.out
    # the menu carries the exact odds beside every attack (here: three infantry on Moscow)
    assert re.search(r"move 3 infantry west-russia -> russia +wins \d+%", first.out)
    assert _human_actions(path) == [f"germans: {move}" for move in ATTACK[:4]]
    resumed = cli("play", str(path), "--moves", ",".join([*ATTACK[4:], "lose germans infantry"]))
    assert resumed.code == 0, resumed.err
    assert re.search(r"fight russia +wins \d+%", resumed.out)
    assert len(_human_actions(path)) == len(ATTACK) + 1
    # the person hands Germany to the heuristic bot: the bots play on to the end of the game
    handed = cli("play", str(path), "--seats", "germans=heuristic", stdin="")
    assert handed.code == 0, handed.err
    assert "Game over: axis wins (" in handed.out and "victory cities)" in handed.out
    state = open_save(path).state
    assert state.d["result"]["winner"] == "axis"  # type: ignore[attr-defined]
    verified = cli("replay", str(path), "--verify")
    assert verified.code == 0 and "game over, axis wins" in verified.out


def test_an_unknown_family_rules_name_is_one_clear_error(cli: Cli, tmp_path: Path) -> None:
    result = cli("new", "aa", "--rules", "classic", "--save", str(tmp_path / "g.json"))
    assert result.code == 2
    assert "unknown rule set 'aa-classic'" in result.err and "Traceback" not in result.err
    assert not (tmp_path / "g.json").exists()


@pytest.mark.skipif(TMUX is None, reason="tmux is missing and cannot be installed here")
def test_aa_revised_in_tmux_at_80_by_24(cli: Cli, tmp_path: Path) -> None:
    save = tmp_path / "game.json"
    _new(cli, save)
    played = cli("play", str(save), "--moves", ",".join(ATTACK))
    assert played.code == 0, played.err
    pane = Pane(f"gs-aa-{os.getpid()}", f"{sys.executable} -m grandstrategy play {save}", tmp_path, 80, 24)
    try:
        screen = pane.wait_for(lambda s: "germans>" in s)
        assert "Axis & Allies Revised, LHTR 1.3" in screen
        assert "decision: germans (you)" in screen
        assert "lose germans infantry" in screen
        before = _human_actions(save)
        pane.keys("lose germans artillery", "Enter")
        pane.wait_for(lambda s: "you: germans: lose germans artillery" in s, history=200)
        assert _human_actions(save) == [*before, "germans: lose germans artillery"]
        pane.keys("quit", "Enter")
        pane.wait_for(lambda s: "saved to" in s or not pane.alive(), polls=300)
    finally:
        pane.close()
