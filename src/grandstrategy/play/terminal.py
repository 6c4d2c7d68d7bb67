"""``grandstrategy play FILE``: the game in a terminal, with rich.

Above every decision the screen shows, within 80 x 24, the position (turn, phase, war status,
each power's commitment, effectiveness, stability and VP with your powers first, the score per
ideology, the cup's size), the moves since your last choice told as sentences
(:mod:`grandstrategy.play.narrate`), and then the decision: whose it is, its prompt (which names
the rule) and the numbered legal choices. Bots move on their own until a person must decide. At
the prompt:

- a number (or the exact text of a choice) plays it;
- ``log`` shows the game told move by move (each move with the question it answered, then its dice
  and results), from the first move: ``log`` the last page, ``log N`` the last N lines,
  ``log page K`` one page, ``log all`` everything;
- ``map`` writes the SVG map of the position beside the save and prints its path;
- ``status`` (or ``me``) shows your powers' positions: areas and resources, units, production
  and reserve, force pool, flags, cubes, interests, relations and special markers in words;
  ``status POWER`` another power's (public, LR 1.4); ``area NAME`` one area; ``cup`` the action
  cup as counts (its contents are hidden; see :mod:`grandstrategy.play.position_text`); ``score``
  the VP by ideology and power and who would win if the game ended now (LR 1.7.2);
- ``rules QUESTION`` asks the rules assistant and prints the section and its summary;
- ``undo`` takes back your last choice (not past a die roll or a draw);
- ``help`` lists the commands, ``show`` draws the screen again, ``quit`` leaves (the game is saved
  after every action, so quitting loses nothing).

Bad input never ends the game: one line says what was wrong and the prompt comes back (except
in ``strict`` mode, ``--moves``, where a refused choice ends the script). Ctrl-C saves and leaves
like ``quit``. The input comes from a function, so tests and ``--moves`` drive the same loop as
the keyboard.
"""

from __future__ import annotations

import io
import re
from collections.abc import Callable, Iterable
from typing import NoReturn

from rich.cells import cell_len
from rich.console import Console, Group, RenderableType
from rich.markup import escape
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from grandstrategy.core.errors import GrandStrategyError, UserInputError
from grandstrategy.core.session import DecisionPoint
from grandstrategy.play.games import PowerLine, decision_prompt, game_log, outcome, seat_names, summary
from grandstrategy.play.narrate import event_text, grouped, involves, log_lines, names_for, split_stamp, tidy
from grandstrategy.play.position_text import WIDTH, area_text, cup_text, score_text, status_views
from grandstrategy.play.seats import HUMAN
from grandstrategy.play.session import PlaySession

HELP = """\
commands:
  <number>         play that choice (the exact text of a choice works too)
  log              the last page of the game, told move by move
  log N            the last N lines; log page K: page K; log all: everything
  map              write the SVG map of the position beside the save
  status [POWER]   your powers' position (or POWER's): areas, units, production,
                   force pool, flags, cubes, interests, markers in words (alias: me)
  area NAME        one area: control, resources, terrain, units, cubes, neighbours
  cup              the action cup as counts (never its order) and the reserves
  score            VP by ideology and power, and who wins if the game ended now
  rules QUESTION   ask the rules assistant, e.g. rules what is a flag
  undo             take back your last choice (not past a die roll or a draw)
  show             draw the screen again
  help             this list
  quit             leave; the game is saved after every action
"""

_IDEOLOGY_STYLE = {"democracy": "blue", "fascism": "red", "communism": "magenta"}
_STABILITY_STYLE = {"steady": "green", "wavering": "yellow", "unstable": "bold red", "surrendered": "dim"}
_VIEWS = ("status", "me", "area", "cup", "score")  # the position views (play/position_text.py)

ReadLine = Callable[[str], str]


class Quit(Exception):
    """The player asked to leave."""


class Refused(UserInputError):
    """A choice in a ``--moves`` script was refused (not legal now, or not a command); the message
    names it. Other commands that fail there (``log x``, an ``undo`` past a die) print one line and
    the script goes on, as at the keyboard."""


class TerminalGame:
    """The interactive loop of one game: draw, read a command, act, repeat.

    ``again`` is the command that resumes the game, printed when the player leaves. ``strict``
    (for ``--moves``) stops at the first refused command instead of asking again.
    """

    def __init__(
        self,
        session: PlaySession,
        console: Console,
        read_line: ReadLine,
        *,
        again: str | None = None,
        strict: bool = False,
    ) -> None:
        self.session = session
        self.console = console
        self.read_line = read_line
        self.again = again or f"grandstrategy play {session.path}"
        self.strict = strict
        self._commands = 0

    # ---- the loop ---------------------------------------------------------------------------

    def run(self) -> int:
        """Play until the game ends or the player quits; return the exit code (0).

        Ctrl-C (KeyboardInterrupt) anywhere saves the position reached (a move is applied whole
        or not at all, ``Match.play``) and leaves like ``quit``, exit code 0.

        :raises Refused: in ``strict`` mode, the first command that was refused (after saving).
        """
        names = seat_names(self.session.match.state)
        people = [names.get(seat, seat) for seat in self.session.seats if self.session.is_human(seat)]
        who = f"you play {' and '.join(people)}" if people else "the bots play every power"
        self.console.print(
            f"[bold]{escape(str(self.session.path))}[/] · {escape(who)} · type [bold]help[/] for the commands"
        )
        try:
            while True:
                self._bots()
                if self.session.is_over():
                    self.show()
                    result = outcome(self.session.match.state)
                    self.console.print(
                        f"[bold]Game over[/]: {escape(str(result.winner))} wins ({result.end})."
                    )
                    return 0
                self.show()
                self._prompt()
        except Quit:
            self._saved("")
            return 0
        except KeyboardInterrupt:
            self.console.print()
            try:
                self.session.save()
            except GrandStrategyError as error:  # the last save on disk still stands
                self.console.print(f"[red]{escape(str(error))}[/]")
            self._saved("interrupted: ")
            return 0

    def _saved(self, why: str) -> None:
        self.console.print(
            f"{why}saved to {escape(str(self.session.path))}; continue with: {escape(self.again)}",
            highlight=False,
            soft_wrap=True,
        )

    def _bots(self) -> None:
        """Let the bots move up to the next decision of a person; the screen then tells their moves."""
        if self.console.is_terminal and not self.session.human_on_move() and not self.session.is_over():
            with self.console.status("the bots are playing…"):
                for _ in self.session.bot_moves():
                    pass
        else:
            for _ in self.session.bot_moves():
                pass

    def _prompt(self) -> None:
        """Read commands until one changes the game (a choice or an undo)."""
        decision = self.session.decision()
        assert decision is not None
        while True:
            try:
                line = self.read_line(f"{decision.seat}> ")
            except EOFError:
                raise Quit() from None
            self._commands += 1
            try:
                if self.handle(line, decision):
                    return
            except (Quit, Refused):
                raise
            except GrandStrategyError as error:
                self.console.print(f"[red]{escape(str(error))}[/]")

    def handle(self, line: str, decision: DecisionPoint) -> bool:
        """Carry out one command; return True when the game moved (redraw), False to prompt again.

        :raises Quit: on ``quit``.
        :raises UserInputError: the command or choice is not valid (one line, state unchanged).
        """
        text = " ".join(line.split())
        word, _, rest = text.partition(" ")
        word = word.lower()
        if not text:
            return False
        if text.isdigit():  # ASCII digits only: "²" and "٣" are digits to isdigit() but not to int()
            try:
                number = _choice_number(text, len(decision.legal))
            except GrandStrategyError as error:
                self._refuse(error, line)
            self._choose(number, line)
            return True
        if word in ("quit", "exit", "q"):
            raise Quit()
        if word in ("help", "?", "h"):
            self.console.print(HELP, markup=False)
            return False
        if word == "show":
            self.show()
            return False
        if word == "log":
            self._log(rest)
            return False
        if word == "map":
            path = self.session.write_map()
            self.console.print(f"map written to {escape(str(path))} (open it in a browser)")
            return False
        if word == "rules":
            self._rules(rest)
            return False
        if word == "undo":
            self.console.print(escape(self.session.undo()))
            return True
        if word in _VIEWS:
            self._view(word, rest, decision)
            return False
        options = [str(getattr(a, "option", a)) for a in decision.legal]
        if text in options or text in decision.notations():
            self._choose(text, line)
            return True
        self._refuse(
            UserInputError(
                f"unknown command {text[:40]!r}: type a number from 1 to {len(decision.legal)}, or help"
            ),
            line,
        )
        return False

    def _choose(self, choice: int | str, line: str) -> None:
        """Play a choice of the person on move and echo it."""
        try:
            move = self.session.play(choice)
        except GrandStrategyError as error:
            self._refuse(error, line)
        self.console.print(f"you: {escape(move.action)}")

    def _refuse(self, error: GrandStrategyError, line: str) -> NoReturn:
        """A choice that cannot be played: one line at the prompt, or the end of a ``--moves`` script."""
        if self.strict:
            raise Refused(
                f"move {self._commands} of --moves ({line.strip()[:40]!r}) was refused: {error}; "
                "the game is saved as it was before it"
            ) from None
        raise error

    # ---- commands -----------------------------------------------------------------------------

    def _log(self, rest: str) -> None:
        """``log`` (the last page), ``log N`` (the last N lines), ``log page K``, ``log all``."""
        lines = log_lines(self.session.history())
        if not lines:
            self.console.print("(the log is empty)")
            return
        size = max(self.console.height - 2, 5)
        pages = -(-len(lines) // size)
        words = rest.lower().split()
        number = (
            words[-1] if words and words[-1].isascii() and words[-1].isdigit() and len(words[-1]) <= 9 else ""
        )
        if not words:
            first, last = max(len(lines) - size, 0), len(lines)
        elif words == ["all"]:
            first, last = 0, len(lines)
        elif len(words) == 2 and words[0] == "page" and number and 1 <= int(number) <= pages:
            page = int(words[1])
            first, last = (page - 1) * size, min(page * size, len(lines))
        elif len(words) == 1 and number and int(number) >= 1:
            first, last = max(len(lines) - int(words[0]), 0), len(lines)
        else:
            raise UserInputError(
                f"log takes a number of lines (log 50), page K (1 to {pages}) or all; not {rest[:40]!r}"
            )
        for entry in lines[first:last]:
            self.console.print(escape(entry), highlight=False)
        self.console.print(
            f"[dim]log: lines {first + 1}–{last} of {len(lines)} ({pages} page{'s' if pages != 1 else ''} of "
            f"{size}); log page K, log N or log all[/]"
        )

    def _view(self, word: str, rest: str, decision: DecisionPoint) -> None:
        """``status``/``me``, ``area`` and ``cup``: the position views, at most 80 columns wide.

        A view word wins over a choice with the same text (placing a counter offers ``cup``):
        looking never changes the game, and the note says how to play that choice.
        """
        state = self.session.match.state
        if word in ("status", "me"):
            if word == "me" and rest:
                raise UserInputError(f"me shows your own powers; for another, type status {rest[:40]}")
            human = {seat for seat, kind in self.session.seats.items() if kind == HUMAN}
            view = status_views(state, rest, human)
        elif word == "area":
            view = area_text(state, rest)
        elif word == "score":
            view = score_text(state)
        else:
            view = cup_text(state)
        self.console.print(view, width=min(self.console.width, WIDTH))
        options = [str(getattr(a, "option", a)) for a in decision.legal]
        text = f"{word} {rest}".strip()
        if text in options:
            number = options.index(text) + 1
            self.console.print(f"(to play the choice {escape(text)!r}, type {number})")

    def _rules(self, question: str) -> None:
        if not question.strip():
            raise UserInputError("ask a question after rules, e.g. rules what is a flag")
        from grandstrategy.rulebook import ask

        # The open decision's prompt names its rule ("... LR 8.0"): that rule answers "rules what now"
        # and ranks first when the question is about it anyway.
        reply = ask(question, 1, context=decision_prompt(self.session.match.state))
        if not reply.answers:
            self.console.print(escape(reply.note or "the rules do not seem to cover that question"))
            return
        best = reply.answers[0]
        if best.fact:
            self.console.print(f"[bold]{escape(best.fact)}[/]")
        self.console.print(f"[bold]LR {escape(best.section)} {escape(best.title)}[/]")
        self.console.print(escape(best.summary))
        if best.related:
            self.console.print(f"[dim]related: {escape(', '.join(best.related))}[/]")

    # ---- the picture ----------------------------------------------------------------------------

    def show(self) -> None:
        """Draw the position and, if a person must decide, the decision."""
        width, height = self.console.size
        self.console.print(render_screen(self.session, width=min(width, 200), height=max(height, 12)))


def render_screen(session: PlaySession, *, width: int = 80, height: int = 24) -> Group:
    """The position, the moves since your last choice, and the open decision, as rich renderables.

    Made to fit ``width`` x ``height`` (80 x 24 by default) with the prompt line below it: one
    heading line, the score and war line, the powers table (your powers first), one line of
    markers, then as many lines of the story since your last choice as fit (older lines are cut
    with a pointer to ``log``, but the dice, modifiers and losses of a combat involving one of
    your powers are always shown), then the decision.
    """
    state = session.match.state
    info = summary(state)
    names = names_for(state)
    parts: list[RenderableType] = []
    cup = f" · cup: {info.cup} counters" if info.cup is not None else ""
    title = re.sub(r" \([a-z0-9-]+\)$", "", info.title)
    parts.append(
        Text.assemble(
            (title, "bold"),
            f" · turn {info.turn} · {info.phase} phase{cup}",
            no_wrap=True,
            overflow="ellipsis",
        )
    )
    if info.powers:
        scores = " · ".join(f"{ideology} {vp}" for ideology, vp in info.vp.items())
        parts.append(Text(f"VP by ideology: {scores} · war: {tidy(info.war, names, capital=False)}"))
        parts.append(_powers_table(session, info.powers))
        if info.markers:
            parts.append(_markers_line(info.markers, width))
    if info.result:
        parts.append(Text(f"Result: {info.result}", style="bold"))
    decision = session.decision()
    tail: list[RenderableType] = []
    if decision is not None:
        tail.append(render_decision(session, decision, screen_width=width))
    used = _rows(Group(*parts, *tail), width)
    story = _story(session, budget=height - 1 - used, width=width)
    return Group(*parts, *story, *tail)


def _powers_table(session: PlaySession, powers: list[PowerLine]) -> Table:
    """One row per power, the powers a person plays first (in the rules' order otherwise)."""
    table = Table(box=None, pad_edge=False, header_style="bold")
    for column in ("power", "seat", "commitment", "eff", "stability", "VP", "reserve"):
        table.add_column(column, justify="right" if column in ("eff", "VP") else "left")
    ordered = sorted(powers, key=lambda line: not session.is_human(line.power))
    for line in ordered:
        style = _IDEOLOGY_STYLE.get(line.ideology, "")
        seat = session.seats.get(line.power, "")
        table.add_row(
            Text(line.name, style=style),
            Text(
                "you" if seat == HUMAN else seat.removeprefix("bot:") + " bot",
                style="bold" if seat == HUMAN else "dim",
            ),
            line.commitment,
            str(line.effectiveness),
            Text(line.stability, style=_STABILITY_STYLE.get(line.stability, "")),
            str(line.vp),
            line.reserve or "-",
        )
    return table


def _markers_line(markers: list[str], width: int) -> Text:
    """As many markers as fit on one line, then how many more (``status`` lists them all)."""
    shown: list[str] = []
    for index, marker in enumerate(markers):
        rest = len(markers) - index - 1
        more = f", … {rest} more" if rest else ""
        if len("markers: " + ", ".join([*shown, marker]) + more) > width and shown:
            break
        shown.append(marker)
    hidden = len(markers) - len(shown)
    return Text(
        "markers: " + ", ".join(shown) + (f", … {hidden} more" if hidden else ""),
        no_wrap=True,
        overflow="ellipsis",
    )


def _rows(renderable: RenderableType, width: int) -> int:
    """How many terminal rows ``renderable`` takes at ``width`` columns."""
    console = Console(width=width, file=io.StringIO(), color_system=None, legacy_windows=False)
    return len(console.render_lines(renderable, console.options.update(width=width), pad=False))


def _story(session: PlaySession, *, budget: int, width: int) -> list[Text]:
    """The moves since your last choice, cut to ``budget`` rows from the oldest end.

    Lines of a combat that involves a power a person plays are never cut. Without moves told in
    this session (a game just opened), the last lines of the engine's log stand in.
    """
    humans = [seat for seat in session.seats if session.is_human(seat)]
    entries: list[tuple[str, bool, str]] = []
    for _, move in grouped(enumerate(session.recent)):  # an A&A power's purchases as one
        keep = involves(move, humans)
        style = "bold" if move.human else ""
        entries.extend((line, keep, style if not line.startswith(" ") else "") for line in move.lines())
    if not entries:
        names = names_for(session.match.state)
        tail = game_log(session.match.state)[-max(budget, 1) :]
        entries = [(f"  {event_text(split_stamp(line)[1], names)}", False, "") for line in tail]

    def rows(text: str) -> int:
        return max(1, -(-cell_len(text) // width))

    total = sum(rows(text) for text, _, _ in entries)
    chosen = [True] * len(entries)
    hidden = 0
    if total > budget:
        room = budget - 1 - sum(rows(text) for text, keep, _ in entries if keep)
        for index in range(len(entries) - 1, -1, -1):
            text, keep, _ = entries[index]
            if keep:
                continue
            if rows(text) <= room:
                room -= rows(text)
            else:
                room = -1  # keep the story contiguous: nothing older than a cut line
                chosen[index] = False
                hidden += 1
    shown: list[Text] = []
    if hidden:
        shown.append(
            Text(
                f"… {hidden} other line{'s' if hidden != 1 else ''} since your last choice: see log",
                style="dim",
            )
        )
    shown.extend(
        Text(text, style=style) for (text, _, style), keep in zip(entries, chosen, strict=True) if keep
    )
    return shown


def render_decision(session: PlaySession, decision: DecisionPoint, *, screen_width: int = 80) -> Panel:
    """The decision panel: whose it is, the prompt naming the rule, the numbered choices.

    A long list is set in columns that read down, then across (1, 2, 3 down the first column),
    with every column as wide as the widest choice so the numbers line up. An option whose outcome
    hangs on dice carries its exact chance before the dice
    (:func:`grandstrategy.play.games.option_chances`): a check's success, an operation's win,
    triumph, disaster and expected losses; it goes beside the option when both fit, else on the
    line below, and such a list stays in one column.
    """
    from grandstrategy.play.games import option_chances  # kept local: this function's own need

    mine = session.seats.get(decision.seat) == HUMAN
    prompt = decision_prompt(session.match.state)
    options = [str(getattr(action, "option", action)) for action in decision.legal]
    chances = option_chances(session.match.state)
    width = len(str(len(options)))
    room = screen_width - 4  # the panel's border and padding
    items: list[Text] = []
    for n, option in enumerate(options, 1):
        label = f"{n:>{width}}. {option}"
        chance = chances.get(option)
        if chance is None:
            items.append(Text(label))
        elif len(label) + 2 + len(chance.text) <= room:
            items.append(Text.assemble(label, "  ", (chance.text, "cyan")))
        else:
            items.append(Text.assemble(label, "\n", " " * (width + 2), (chance.text, "cyan")))
    columns = len(items) > 8 and not chances  # chances need the width of one column
    body: object = _in_columns(items, room) if columns else Group(*items)
    who = f"{decision.seat} (you)" if mine else decision.seat
    return Panel(
        Group(Text(prompt, style="italic"), body),  # type: ignore[arg-type]
        title=f"decision: {who}",
        title_align="left",
        border_style="bold green" if mine else "dim",
    )


def _in_columns(items: list[Text], width: int) -> RenderableType:
    """``items`` in as many equal columns as fit ``width``, filled down then across."""
    widest = max(cell_len(item.plain) for item in items)
    gap = 3
    columns = max(1, min(len(items), (width + gap) // (widest + gap)))
    rows = -(-len(items) // columns)
    columns = -(-len(items) // rows)
    grid = Table.grid(padding=(0, gap, 0, 0))
    for _ in range(columns):
        grid.add_column(min_width=widest, no_wrap=True, overflow="ellipsis")
    for row in range(rows):
        grid.add_row(
            *(items[col * rows + row] if col * rows + row < len(items) else "" for col in range(columns))
        )
    return grid


def scripted(commands: Iterable[str], console: Console) -> ReadLine:
    """A ``read_line`` that answers from a list of commands (echoed), then raises EOFError."""
    queue = iter(commands)

    def read(prompt: str) -> str:
        try:
            line = next(queue)
        except StopIteration:
            raise EOFError from None
        console.print(f"{escape(prompt)}{escape(line)}", highlight=False)
        return line

    return read


def _choice_number(text: str, options: int) -> int:
    """The number a person typed as a choice, read as ASCII digits of a sane length.

    :raises UserInputError: other digits (``²``, ``٣``) or more than nine of them; the message
        asks for a number in range.
    """
    if not text.isascii() or len(text) > 9:
        raise UserInputError(f"choose a number from 1 to {options}, typed with the digits 0-9")
    return int(text)
