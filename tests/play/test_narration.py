"""Moves told as sentences, the screen within 80 x 24, and ``log`` paging through the whole game."""

from __future__ import annotations

import io
from collections.abc import Callable
from pathlib import Path

from rich.console import Console
from tests.cataclysm.test_operations import bare_game, choose, choose_starting, options, place_flags, roll

from grandstrategy.cataclysm.module import load_module
from grandstrategy.core.log import ActionEntry
from grandstrategy.play.narrate import Names, Narrator, Told, event_text, involves, log_lines, sentence, tidy
from grandstrategy.play.session import PlaySession
from grandstrategy.play.terminal import TerminalGame, render_screen, scripted

NAMES = Names(load_module())
NewGame = Callable[..., Path]


# ---- sentences --------------------------------------------------------------------------------------


def test_a_bot_political_action_is_told_with_its_question_and_its_dice() -> None:
    told = sentence("france", "political action (LR 6)", "diplomacy yugoslavia", NAMES)
    assert told == "France chooses the political action diplomacy in Yugoslavia (LR 6)"
    assert event_text("france diplomacy yugoslavia: rolls 5, success", NAMES) == (
        "France rolls 5 for diplomacy in Yugoslavia: success"
    )
    drawn = "you drew flag:italy: play, reserve or reject it (LR 3.3, 3.4, 3.6)"
    assert sentence("italy", drawn, "reserve", NAMES) == "Italy keeps its flag in reserve (LR 3.3, 3.4, 3.6)"


def test_a_prompt_without_its_own_sentence_is_quoted_with_the_answer() -> None:
    prompt = "for the GMD: which army attacks which? (LR 11.4.4 C)"
    assert sentence("united-states", prompt, "hunan attacks shaanxi", NAMES) == (
        'United States answers "for the GMD: which army attacks which?": Hunan attacks Shaanxi (LR 11.4.4 C)'
    )


def test_grammar_articles_plurals_and_names() -> None:
    line = "germany places a infantry-army in berlin; the attacker takes 1 loss(es), then 2 loss(es)"
    assert tidy(line, NAMES) == (
        "Germany places an infantry army in Berlin; the attacker takes 1 loss, then 2 losses"
    )
    assert tidy("united-kingdom plays an offensive for 1 military action(s)", NAMES) == (
        "United Kingdom plays an offensive for 1 military action"
    )
    assert tidy("a unit of soviet-union", NAMES) == "A unit of Soviet Union"  # no "an" before "unit"
    assert tidy("draws flag:germany", NAMES) == "Draws flag:germany"  # counter notation stays


def test_a_bots_combat_is_told_with_dice_modifiers_and_losses() -> None:
    """The Fall Weiss example (LR 9-10) through the engine, told by the narrator; France holds Poland."""
    game = bare_game()
    game.state.cup.remove("flag:germany")
    game.push("play-counter", counter="flag:germany", source="cup")
    game.run()
    choose(game, "germany", "maneuvers")
    roll(game, 6, 4, 3)
    narrator = Narrator(lambda seat: seat == "france")
    before = game.clone()
    choose(game, "germany", "land operation against Poland")
    declared = narrator.tell(before, game.clone(), "germany", "germany: land operation against Poland")
    assert declared.sentence == "Germany uses a military action: land operation against Poland (LR 8.0)"
    choose_starting(game, "germany", "activate #2 tank-army")
    choose_starting(game, "germany", "activate #1 infantry-army")
    place_flags(game, {"france": "reserve", "united-kingdom": "cup", "soviet-union": "reserve"})
    support = next(o for o in options(game) if o.startswith("support with #3"))
    before = game.clone()
    choose(game, "germany", support)
    roll(game, 6, 6, 4)
    roll(game, 3)
    told = narrator.tell(before, game.clone(), "germany", f"germany: {support}")
    assert told.sentence == "Germany supports the attacker with its tactical air in East Prussia (LR 10.2)"
    assert [text for _, text in told.events][:7] == [
        "Germany's tactical air supports the attacker",
        "Attacker 2 dice: has land units (LR 10.4)",
        "Defender 2 dice: has land units (LR 10.4)",
        "Attacker +1 die: air superiority (LR 10.3)",
        "Defender -1 die: attacker has armour superiority, tank armies 1 to 0 (LR 10.4)",
        "Land combat: attacker rolls 6 6 4 = 7, defender rolls 3 = 3",
        "The attacker wins; the defender takes 2 losses (LR 10.7)",
    ]
    assert told.parties == {"germany", "france"}  # the attacker and Poland's controller
    assert involves(told, ["france"]) and not involves(told, ["italy"])


# ---- the screen -------------------------------------------------------------------------------------


def _screen_lines(session: PlaySession, width: int = 80, height: int = 24) -> list[str]:
    console = Console(width=width, file=io.StringIO(), color_system=None, legacy_windows=False)
    console.print(render_screen(session, width=width, height=height))
    text = console.file.getvalue()  # type: ignore[attr-defined]
    return str(text).splitlines()


def test_the_screen_fits_80_by_24_with_your_powers_first(new_game: NewGame) -> None:
    session = PlaySession.open(new_game(seats="italy=human,*=bot:random"))
    list(session.bot_moves())
    assert session.human_on_move()
    lines = _screen_lines(session)
    assert len(lines) <= 23  # and the prompt line makes 24
    assert max(len(line) for line in lines) <= 80
    header = next(i for i, line in enumerate(lines) if line.startswith("power "))
    assert lines[header + 1].startswith("Italy ") and " you " in lines[header + 1]


def test_a_combat_of_yours_is_never_cut_from_the_screen(new_game: NewGame) -> None:
    session = PlaySession.open(new_game(seats="italy=human,*=bot:random"))
    list(session.bot_moves())
    combat = Told(
        "germany",
        False,
        "Germany uses a military action: land operation against Albania (LR 8.0)",
        "1939 action",
        tuple(("1939 action", f"combat line {n}") for n in range(6)),
        frozenset({"germany", "italy"}),
    )
    filler = [Told("france", False, f"France filler move {n}", "1939 action") for n in range(40)]
    session.recent = [*filler[:20], combat, *filler[20:]]
    lines = _screen_lines(session, height=40)
    assert all(f"  combat line {n}" in lines for n in range(6))  # older than the newest lines shown
    assert "France filler move 39" in lines and "France filler move 20" not in lines
    assert "France filler move 0" not in lines
    assert any("other lines since your last choice" in line for line in lines)
    assert len(lines) <= 39


def test_wide_option_lists_read_down_then_across(new_game: NewGame) -> None:
    from grandstrategy.core.session import DecisionPoint
    from grandstrategy.play.terminal import render_decision

    session = PlaySession.open(new_game(seats="italy=human,*=bot:random"))
    list(session.bot_moves())
    decision = session.decision()
    assert decision is not None
    from grandstrategy.cataclysm.engine.game import Choose

    fake = DecisionPoint(decision.seat, tuple(Choose("italy", f"diplomacy area-{n:02d}") for n in range(20)))
    console = Console(width=80, file=io.StringIO(), color_system=None)
    console.print(render_decision(session, fake))
    rows = [line for line in console.file.getvalue().splitlines() if " 1. " in line]  # type: ignore[attr-defined]
    assert len(rows) == 1
    first = rows[0]
    assert first.index(" 1. ") < first.index(" 8. ") if " 8. " in first else True
    body = console.file.getvalue().splitlines()  # type: ignore[attr-defined]
    assert " 2. " in body[body.index(first) + 1]  # 2 sits under 1: the columns read down
    assert all(len(line) <= 80 for line in body)


# ---- log ----------------------------------------------------------------------------------------------


def test_log_pages_through_the_whole_game_from_the_first_bot_move(new_game: NewGame) -> None:
    session = PlaySession.open(new_game(seats="italy=human,*=bot:random"))
    list(session.bot_moves())
    played_before_us = [e for e in session.match.log if isinstance(e, ActionEntry)]
    assert played_before_us  # bots moved before our first prompt
    history = session.history()
    told = [move for move in history if move.sentence]
    assert len(told) == len(played_before_us)  # every one of those moves is in the log
    everything = log_lines(history)
    out = io.StringIO()
    console = Console(width=200, height=12, file=out, color_system=None)
    game = TerminalGame(session, console, scripted([], console))
    decision = session.decision()
    assert decision is not None
    game.handle("log all", decision)
    assert out.getvalue().splitlines()[: len(everything)] == everything
    out.truncate(0)
    out.seek(0)
    game.handle("log 3", decision)
    assert out.getvalue().splitlines()[:3] == everything[-3:]
    assert f"lines {len(everything) - 2}–{len(everything)} of {len(everything)}" in out.getvalue()
    out.truncate(0)
    out.seek(0)
    game.handle("log page 1", decision)
    assert out.getvalue().splitlines()[:10] == everything[:10]  # pages of height - 2 lines
    out.truncate(0)
    out.seek(0)
    game.handle("log", decision)
    assert out.getvalue().splitlines()[:10] == everything[-10:]
