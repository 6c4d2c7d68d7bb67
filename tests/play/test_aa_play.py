"""The terminal game with a person playing Axis & Allies Revised (LHTR): ``new aa --rules lhtr``,
then ``play`` through a purchase, a combat move and a battle in which the person picks a casualty,
scripted with ``--moves`` and, once, typed in a tmux terminal of 80x24."""

from __future__ import annotations

import os
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
    "move 3 infantry west-russia -> karelia-ssr",
    "move 1 artillery west-russia -> karelia-ssr",
    "move 1 armour west-russia -> karelia-ssr",
    "done",
    "fight karelia-ssr",
]
"""Germany's first turn of the seed-3 game: a purchase, a combat move, the battle."""


def _human_actions(path: Path) -> list[str]:
    return [e.action for e in open_save(path).log if isinstance(e, ActionEntry) and e.seat == "germans"]


def _new(cli: Cli, path: Path) -> None:
    made = cli("new", "aa", "--rules", "lhtr", "--seats", "germans", "--seed", "3", "--save", str(path))
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
    assert state.d["bank"]["germans"] == 40 - 3  # type: ignore[attr-defined]


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
