"""The terminal's position commands: status/me, status POWER, area NAME, cup, score (position_text.py)."""

from __future__ import annotations

import io
from collections.abc import Callable
from pathlib import Path

import pytest
from rich.console import Console

from grandstrategy.play.games import as_cataclysm
from grandstrategy.play.position_text import WIDTH
from grandstrategy.play.session import PlaySession
from grandstrategy.play.terminal import TerminalGame, scripted

from .conftest import Cli


def session(tmp_path: Path, seats: str = "germany=human,*=bot:random") -> PlaySession:
    """The 1933 campaign; Germany's first decision comes before any bot moves."""
    return PlaySession.create(
        tmp_path / "game.json", "cataclysm", options={"scenario": "campaign-1933"}, seed=3, seats=seats
    )


def play(game: PlaySession, commands: list[str]) -> list[str]:
    """Run the terminal on ``commands`` at 80 columns; return the printed lines, prompts included."""
    console = Console(width=WIDTH, record=True, file=io.StringIO(), color_system=None)
    TerminalGame(game, console, scripted(commands, console)).run()
    return console.export_text().splitlines()


def section(lines: list[str], command: str) -> list[str]:
    """The lines printed for one command: after its echoed prompt, up to the next prompt."""
    start = next(i for i, line in enumerate(lines) if line.endswith(f"> {command}"))
    rest = lines[start + 1 :]
    end = next(
        (i for i, line in enumerate(rest) if "> " in line and line.split("> ")[0].isalpha()), len(rest)
    )
    return rest[:end]


def test_status_lists_your_areas_units_and_markers_within_80_columns(tmp_path: Path) -> None:
    game = session(tmp_path)
    list(game.bot_moves())
    before = game.match.state_hash()
    lines = play(game, ["status", "quit"])
    out = "\n".join(section(lines, "status"))
    assert out.startswith("Germany (you)")
    for expected in ("Berlin (capital)", "Ruhr", "Bavaria", "Silesia", "East Prussia"):
        assert expected in out
    assert "1 x infantry army" in out
    assert "Night of the Long Knives (LR 12.1.1, 3.2.2)" in out
    assert "force pool (LR 4.1.1): air 1, army 1, fleet 1, submarine 1 · limit 6" in out
    assert max(len(line) for line in section(lines, "status")) <= WIDTH
    assert game.match.state_hash() == before  # looking changes nothing


def test_me_shows_each_of_your_powers(tmp_path: Path) -> None:
    lines = play(session(tmp_path, "fascism=human,*=bot:random"), ["me", "me france"])
    shown = section(lines, "me")
    assert "Germany (you)" in shown and "Italy (you)" in shown
    assert "me shows your own powers; for another, type status france" in lines


def test_status_of_another_power_is_its_public_position_only(tmp_path: Path) -> None:
    game = session(tmp_path)
    lines = play(game, ["status france", "status frnace"])
    out = "\n".join(section(lines, "status france"))
    assert out.startswith("France\n") and "(you)" not in out
    assert "Paris (capital)" in out and "Status Quo in force (LR 12.2" in out
    # the cup only as counts: no counter notation, no seed or generator
    assert "flag:" not in out and "seed" not in out and "rng" not in out.lower()
    assert "no power 'frnace' in this game; did you mean France?" in lines


def test_area_with_a_typo_suggests_and_a_good_name_describes(tmp_path: Path) -> None:
    lines = play(session(tmp_path), ["area rhur", "area RUHR", "area"])
    assert "unknown area 'rhur'; did you mean Ruhr?" in lines
    out = "\n".join(section(lines, "area RUHR"))
    assert "Ruhr (land, europe map)" in out and "home of Germany · controlled by Germany" in out
    assert "adjacent: Baltic Sea, Bavaria, Benelux, Berlin" in out
    assert "name an area after area, e.g. area ruhr" in lines


def test_cup_shows_counts_and_no_order(tmp_path: Path) -> None:
    game = session(tmp_path)
    lines = play(game, ["cup"])
    out = section(lines, "cup")
    cataclysm = as_cataclysm(game.match.state)
    assert cataclysm is not None
    total = len(cataclysm.state.cup)
    assert out[0] == f"the action cup: {total} counter(s) (contents hidden, LR 1.4; counts only)"
    japan = next(line for line in out if line.startswith("Japan"))
    assert japan.split()[1:] == ["1", "1", "1"]  # flag, home front, offensive
    assert "neutral: crisis 4, civil war resolution 1" in "\n".join(out)
    assert not any(":" in line and line.split(":")[0] in ("flag", "unit", "offensive") for line in out)


def test_score_says_who_wins_if_the_game_ended_now(tmp_path: Path) -> None:
    game = session(tmp_path)
    list(game.bot_moves())
    before = game.match.state_hash()
    out = [line for line in section(play(game, ["score"]), "score") if not line.startswith("saved to")]
    text = "\n".join(out)
    assert out[0] == "the score (victory points, LR 1.7.1)"
    assert "democracy: 6 (France 4, United Kingdom 2, United States 0) · wins now" in text
    assert "fascism: 1 (Germany 0, Italy 0, Japan 1) · needs 4 VP more to win" in text
    assert "if the game ended now: democracy wins (LR 1.7.2)" in text
    assert "more VP than the two together" in " ".join(out)
    assert max(len(line) for line in out) <= WIDTH
    assert game.match.state_hash() == before


@pytest.mark.parametrize("command", ["status", "area ruhr", "cup", "score"])
def test_help_names_the_commands(command: str) -> None:
    from grandstrategy.play.terminal import HELP

    assert command.split()[0] in HELP


def test_a_view_word_wins_over_a_choice_of_the_same_text(tmp_path: Path) -> None:
    """Placing a counter offers ``cup``: typing cup shows the cup and says how to play the choice."""
    from grandstrategy.cataclysm.engine.game import Choose
    from grandstrategy.core.ids import Seat
    from grandstrategy.core.session import DecisionPoint

    game = session(tmp_path)
    list(game.bot_moves())
    before = game.match.state_hash()
    console = Console(width=WIDTH, record=True, file=io.StringIO(), color_system=None)
    terminal = TerminalGame(game, console, scripted([], console))
    offer = DecisionPoint(Seat("germany"), (Choose("germany", "reserve"), Choose("germany", "cup")))
    assert terminal.handle("cup", offer) is False
    out = console.export_text()
    assert "the action cup:" in out and "(to play the choice 'cup', type 2)" in out
    assert game.match.state_hash() == before


def test_status_on_the_command_line(cli: Cli, new_game: Callable[..., Path]) -> None:
    path = new_game()
    text = cli("status", str(path))
    assert text.code == 0, text.err
    assert text.out.startswith("Italy (you)") and "Rome (capital)" in text.out
    data = cli("status", str(path), "Germany", "--json")
    assert data.code == 0
    (germany,) = data.json()["positions"]
    assert germany["power"] == "germany" and not germany["yours"]
    assert {area["id"] for area in germany["areas"]} >= {"berlin", "ruhr"}
    bad = cli("status", str(path), "germny")
    assert bad.code == 2 and "did you mean Germany?" in bad.err and "Traceback" not in bad.err
