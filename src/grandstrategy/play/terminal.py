"""``grandstrategy play FILE``: the game in a terminal, with rich.

Above every decision the screen shows the position (turn, phase, war status, each power's
commitment, effectiveness, stability and VP, the score per ideology, the cup's size, the last
events) and then the decision: whose it is, its prompt (which names the rule) and the numbered
legal choices. Bots move on their own until a person must decide. At the prompt:

- a number (or the exact text of a choice) plays it;
- ``log [N]`` shows the last N lines of the game log (default 30);
- ``map`` writes the SVG map of the position beside the save and prints its path;
- ``rules QUESTION`` asks the rules assistant and prints the section and its summary;
- ``undo`` takes back your last choice (not past a die roll or a draw);
- ``help`` lists the commands, ``show`` draws the screen again, ``quit`` leaves (the game is saved
  after every action, so quitting loses nothing).

Bad input never ends the game: one line says what was wrong and the prompt comes back. The input
comes from a function, so tests and ``--moves`` drive the same loop as the keyboard.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from rich.columns import Columns
from rich.console import Console, Group
from rich.markup import escape
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from grandstrategy.core.errors import GrandStrategyError, UserInputError
from grandstrategy.core.session import DecisionPoint
from grandstrategy.play.games import decision_prompt, game_log, outcome, summary
from grandstrategy.play.seats import HUMAN
from grandstrategy.play.session import PlaySession

HELP = """\
commands:
  <number>         play that choice (the exact text of a choice works too)
  log [N]          the last N lines of the game log (default 30)
  map              write the SVG map of the position beside the save
  rules QUESTION   ask the rules assistant, e.g. rules what is a flag
  undo             take back your last choice (not past a die roll or a draw)
  show             draw the screen again
  help             this list
  quit             leave; the game is saved after every action
"""

_IDEOLOGY_STYLE = {"democracy": "blue", "fascism": "red", "communism": "magenta"}
_STABILITY_STYLE = {"steady": "green", "wavering": "yellow", "unstable": "bold red", "surrendered": "dim"}
_BOT_LINES = 12  # bot moves shown in full between two of your decisions

ReadLine = Callable[[str], str]


class Quit(Exception):
    """The player asked to leave."""


class TerminalGame:
    """The interactive loop of one game: draw, read a command, act, repeat."""

    def __init__(self, session: PlaySession, console: Console, read_line: ReadLine) -> None:
        self.session = session
        self.console = console
        self.read_line = read_line

    # ---- the loop ---------------------------------------------------------------------------

    def run(self) -> int:
        """Play until the game ends or the player quits; return the exit code (0)."""
        seats = ", ".join(f"{seat}={kind}" for seat, kind in self.session.seats.items())
        self.console.print(f"[bold]{escape(str(self.session.path))}[/] · seats: {escape(seats)}")
        self.console.print("type [bold]help[/] for the commands")
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
            self.console.print(
                f"saved to {escape(str(self.session.path))}; continue with: "
                f"grandstrategy play {escape(str(self.session.path))}"
            )
            return 0

    def _bots(self) -> None:
        if self.console.is_terminal and not self.session.human_on_move() and not self.session.is_over():
            with self.console.status("the bots are playing…"):
                moves = list(self.session.bot_moves())
        else:
            moves = list(self.session.bot_moves())
        hidden = len(moves) - _BOT_LINES
        if hidden > 0:
            self.console.print(f"[dim]… and {hidden} earlier bot move(s); type log to see the game log[/]")
        for move in moves[-_BOT_LINES:]:
            self.console.print(f"[dim]{escape(move.kind)}[/] {escape(move.action)}")

    def _prompt(self) -> None:
        """Read commands until one changes the game (a choice or an undo)."""
        decision = self.session.decision()
        assert decision is not None
        while True:
            try:
                line = self.read_line(f"{decision.seat}> ")
            except EOFError:
                raise Quit() from None
            try:
                if self.handle(line, decision):
                    return
            except Quit:
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
        if text.isdigit():
            move = self.session.play(int(text))
            self.console.print(f"you: {escape(move.action)}")
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
        options = [str(getattr(a, "option", a)) for a in decision.legal]
        if text in options or text in decision.notations():
            move = self.session.play(text)
            self.console.print(f"you: {escape(move.action)}")
            return True
        raise UserInputError(
            f"unknown command {text[:40]!r}: type a number from 1 to {len(decision.legal)}, or help"
        )

    # ---- commands -----------------------------------------------------------------------------

    def _log(self, rest: str) -> None:
        count = 30
        if rest:
            if not rest.isdigit() or int(rest) < 1:
                raise UserInputError(f"log takes a number of lines, e.g. log 50; not {rest!r}")
            count = int(rest)
        lines = game_log(self.session.match.state)
        if not lines:
            self.console.print("(the log is empty)")
        for entry in lines[-count:]:
            self.console.print(escape(entry), highlight=False)

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
        self.console.print(render_screen(self.session))


def render_screen(session: PlaySession) -> Group:
    """The position and the open decision as rich renderables."""
    state = session.match.state
    info = summary(state)
    parts: list[object] = []
    cup = f" · cup: {info.cup} counters" if info.cup is not None else ""
    heading = Text.assemble(
        (f"{info.title}", "bold"),
        f" · turn {info.turn} · {info.phase} phase · war: {info.war}{cup}",
    )
    parts.append(heading)
    if info.powers:
        table = Table(box=None, pad_edge=False, header_style="bold")
        for column in ("power", "seat", "commitment", "eff", "stability", "VP", "reserve"):
            table.add_column(column, justify="right" if column in ("eff", "VP") else "left")
        for line in info.powers:
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
        parts.append(table)
        scores = " · ".join(f"{ideology} {vp}" for ideology, vp in info.vp.items())
        parts.append(
            Text(
                f"VP by ideology: {scores}"
                + (f" · markers: {', '.join(info.markers)}" if info.markers else "")
            )
        )
    if info.events:
        parts.append(
            Panel(Text("\n".join(info.events)), title="last events", title_align="left", border_style="dim")
        )
    if info.result:
        parts.append(Text(f"Result: {info.result}", style="bold"))
    decision = session.decision()
    if decision is not None:
        parts.append(render_decision(session, decision))
    return Group(*parts)  # type: ignore[arg-type]


def render_decision(session: PlaySession, decision: DecisionPoint) -> Panel:
    """The decision panel: whose it is, the prompt naming the rule, the numbered choices."""
    mine = session.seats.get(decision.seat) == HUMAN
    prompt = decision_prompt(session.match.state)
    options = [str(getattr(action, "option", action)) for action in decision.legal]
    width = len(str(len(options)))
    items = [Text(f"{n:>{width}}. {option}") for n, option in enumerate(options, 1)]
    body: object = Columns(items, column_first=True, padding=(0, 3)) if len(items) > 8 else Group(*items)
    who = f"{decision.seat} (you)" if mine else decision.seat
    return Panel(
        Group(Text(prompt, style="italic"), body),  # type: ignore[arg-type]
        title=f"decision: {who}",
        title_align="left",
        border_style="bold green" if mine else "dim",
    )


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
