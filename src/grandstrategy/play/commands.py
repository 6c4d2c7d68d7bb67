"""The ``new``, ``play``, ``status``, ``simulate`` and ``replay`` commands (see ``grandstrategy.cli``).

Thin, like the rest of the command line: parse the arguments, call :mod:`grandstrategy.play`, print
text or JSON. Errors the library raises on purpose reach ``grandstrategy.cli.main``, which prints
one line and exits with the error's code (2 for a bad argument, 1 for a broken save).
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import shlex
import signal
import sys
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from grandstrategy.core.errors import GrandStrategyError, SaveError, UserInputError

if TYPE_CHECKING:
    from grandstrategy.play.session import PlaySession

SEED = click.IntRange(0, 2**64 - 1)

BACKEND = click.option(
    "--backend",
    type=click.Choice(["local", "ray"]),
    default="local",
    show_default=True,
    help="Where games run: this machine (--jobs processes) or Ray (a local instance, or --address).",
)
ADDRESS = click.option(
    "--address",
    default=None,
    metavar="ADDRESS",
    help="With --backend ray: the cluster to join, e.g. 'auto' or 'ray://head:10001'.",
)


def _print_json(data: Any) -> None:
    click.echo(json.dumps(data, indent=2, ensure_ascii=False))


def _options(scenario: str | None) -> dict[str, Any]:
    return {"scenario": scenario} if scenario is not None else {}


@click.command(name="new")
@click.argument("ruleset", metavar="RULESET")
@click.option(
    "--scenario", "scenario", default=None, help="Scenario id (Cataclysm: campaign-1933, europe-1939)."
)
@click.option(
    "--seed", type=SEED, default=None, help="Seed of the dice and the bots (default: a fresh random one)."
)
@click.option(
    "--seats",
    default=None,
    help="Who plays each power, e.g. 'germany=human,italy=bot:heuristic,*=bot:random'; "
    "a bare power means human ('--seats germany'). Unnamed powers: bot:heuristic.",
)
@click.option(
    "--save", "save_path", type=click.Path(path_type=Path), required=True, help="The save file to create."
)
@click.option("--force", is_flag=True, help="Overwrite an existing save.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON instead of text.")
@click.option(
    "--rules",
    "rules",
    default=None,
    help="A family's rules: RULESET-RULES names the rule set ('new aa --rules lhtr' is aa-lhtr, aa-revised).",
)
@click.option(
    "--bid",
    default=None,
    metavar="POWER=IPCS,...",
    help="Axis & Allies: IPCs bid to powers before round 1, e.g. 'russians=8', placed as units.",
)
def new_command(
    ruleset: str,
    scenario: str | None,
    seed: int | None,
    seats: str | None,
    save_path: Path,
    force: bool,
    as_json: bool,
    rules: str | None,
    bid: str | None,
) -> None:
    """Start a new game against bots and save it to a file; then: grandstrategy play FILE.

    Example: grandstrategy new cataclysm --scenario campaign-1933 --seats germany --save game.json
    """
    from grandstrategy.play.seats import format_seats, seats_path
    from grandstrategy.play.session import PlaySession

    if rules is not None:
        ruleset = f"{ruleset}-{rules[:40]}"

    if seed is None:
        seed = int.from_bytes(os.urandom(8), "big")
    chosen = _options(scenario)
    if bid is not None:
        chosen["bid"] = bid[:200]  # the rule set reads and checks it
    session = PlaySession.create(
        save_path, ruleset, options=chosen, seed=seed, seats=seats, force=force, lock=True
    )
    click.get_current_context().call_on_close(session.close)
    if as_json:
        _print_json(
            {
                "save": str(save_path),
                "seats_file": str(seats_path(save_path)),
                "ruleset": session.match.ruleset.name,
                "options": session.match.options,
                "seed": seed,
                "seats": session.seats,
            }
        )
        return
    options = ", ".join(f"{key} {value}" for key, value in session.match.options.items())
    described = f" ({options})" if options else ""
    click.echo(f"new {session.match.ruleset.name} game{described}, seed {seed}")
    click.echo(f"  seats: {format_seats(session.seats)}")
    click.echo(f"  saved to {save_path} (seats in {seats_path(save_path)})")
    click.echo(f"  play it with: {launcher()} play {shlex.quote(str(save_path))}")


@click.command(name="play")
@click.argument("save_path", metavar="FILE", type=click.Path(path_type=Path))
@click.option(
    "--seats", default=None, help="Change who plays each power (a SEATS text, stored with the save)."
)
@click.option(
    "--moves",
    default=None,
    help="Play these commands instead of reading the keyboard, comma-separated, e.g. '1,3,undo,2'; "
    "then stop (the game stays saved). A refused command stops with exit code 2.",
)
@click.option(
    "--power",
    default=None,
    help="The power you play, e.g. france. FILE missing: a new game as that power. FILE a game where "
    "you play another power: an error (or, at a terminal, an offer to start a new game).",
)
@click.option(
    "--new",
    "start_new",
    is_flag=True,
    help="Start a new game in FILE, replacing any saved one: as --power, else as the saved game's "
    "seats, else as Germany; same scenario unless --scenario.",
)
@click.option("--scenario", "scenario", default=None, help="Scenario of a new game (default: campaign-1933).")
@click.option("--from-make", "from_make", default=None, hidden=True)
def play_command(
    save_path: Path,
    seats: str | None,
    moves: str | None,
    power: str | None,
    start_new: bool,
    scenario: str | None,
    from_make: str | None,
) -> None:
    """Play a saved game in the terminal: bots move by themselves, you choose by number.

    Commands at the prompt: a number, log [N | page K | all], map, rules QUESTION, undo, help,
    quit. Input from a pipe is read as one command per line. Ctrl-C saves and leaves (exit 0).

    \b
    Examples:
      grandstrategy play game.json
      grandstrategy play game.json --power france --new
    """
    from rich.console import Console

    from grandstrategy.play.session import lock_save
    from grandstrategy.play.terminal import TerminalGame, scripted

    if save_path.parent.is_dir():  # one writer per save, from before it is read to the end
        lock = lock_save(save_path)
        click.get_current_context().call_on_close(lock.release)
    console = Console(highlight=False)
    again = from_make or f"{launcher()} play {shlex.quote(str(save_path))}"
    read_line = scripted(moves.split(","), console) if moves is not None else _keyboard(console)
    session = _open_or_start(save_path, seats, power, start_new, scenario, again, interactive=moves is None)
    if session is None:
        return
    game = TerminalGame(session, console, read_line, again=again, strict=moves is not None)
    ctrl_c_saves_and_leaves()
    with terminal_foreground(enabled=from_make is not None):
        game.run()


def ctrl_c_saves_and_leaves() -> None:
    """Make Ctrl-C (SIGINT) raise KeyboardInterrupt, which the terminal game turns into "save and
    leave", even when this process was started with SIGINT ignored or blocked: a shell that starts a
    command in the background (``cmd &`` in a script) ignores SIGINT for it, and children inherit that.
    """
    if threading.current_thread() is not threading.main_thread():
        return
    signal.signal(signal.SIGINT, signal.default_int_handler)
    if hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})


def launcher() -> str:
    """How to start ``grandstrategy`` again from the current directory, as this process was started.

    ``.venv/bin/grandstrategy`` when started by that path, ``grandstrategy`` when found on the
    PATH, ``.venv/bin/python -m grandstrategy`` when started with ``-m``.
    """
    program = sys.argv[0] if sys.argv else ""
    base = os.path.basename(program)

    def here(path: str) -> str:
        relative = os.path.relpath(path)
        shown = relative if len(relative) < len(path) else path
        return shlex.quote(shown if os.sep in shown else os.path.join(".", shown))

    if base == "grandstrategy" and os.sep in program:
        return here(program)
    if base == "__main__.py" and os.path.basename(os.path.dirname(program)) == "grandstrategy":
        return f"{here(sys.executable)} -m grandstrategy"
    return "grandstrategy"


def _keyboard(console: Any) -> Callable[[str], str]:
    """Read commands from the terminal, or one per line from a pipe or file.

    A closed standard input (``0<&-``) reads as an immediate end of input, so the game stops at
    the first prompt, saved, with one line saying why.
    """
    from rich.markup import escape

    from grandstrategy.play.terminal import scripted

    stdin = sys.stdin
    usable = stdin is not None and not stdin.closed
    with contextlib.suppress(AttributeError, ValueError, io.UnsupportedOperation):
        if usable:
            fd = stdin.fileno()  # a StringIO (tests) has none: it is still readable
            try:
                os.fstat(fd)
            except OSError:  # file descriptor 0 was closed before we started
                usable = False
    if not usable:
        console.print("standard input is closed: no commands to read")
        return scripted([], console)
    if stdin.isatty():

        def read_line(prompt: str) -> str:
            return str(console.input(escape(prompt)))

        return read_line
    return scripted((line.rstrip("\n") for line in stdin), console)


def _open_or_start(
    save_path: Path,
    seats: str | None,
    power: str | None,
    start_new: bool,
    scenario: str | None,
    again: str,
    *,
    interactive: bool,
) -> PlaySession | None:
    """The session to play: the saved game, or a new one when asked (``--new``, ``--power``).

    :raises UserInputError: ``--power`` names a power the saved game does not give you (and no
        new game was asked for or accepted); the save is left untouched.
    """
    from grandstrategy.play.games import seat_groups, seat_names
    from grandstrategy.play.seats import HUMAN, parse_seats
    from grandstrategy.play.session import PlaySession

    if start_new or (power is not None and not save_path.exists()):
        return _start(save_path, power, scenario, old=None)
    session = PlaySession.open(save_path, seats=seats)
    if power is None:
        return session
    state = session.match.state
    names = seat_names(state)
    wanted = parse_seats(power, list(state.seats()), groups=seat_groups(state), names=names)
    mine = sorted(seat for seat, kind in session.seats.items() if kind == HUMAN)
    asked = sorted(seat for seat, kind in wanted.items() if kind == HUMAN)
    if mine == asked:
        return session
    have = " and ".join(names.get(seat, seat) for seat in mine) or "no power (the bots play every one)"
    want = " and ".join(names.get(seat, seat) for seat in asked)
    again_new = (
        f"{again} POWER={power} NEW=1"
        if again.startswith("make ")
        else f"{launcher()} play {shlex.quote(str(save_path))} --power {shlex.quote(power)} --new"
    )
    message = f"{save_path} is a game where you play {have}, not {want}"
    if interactive and sys.stdin is not None and sys.stdin.isatty():
        click.echo(f"{message}.")
        if click.confirm(f"Start a new game as {want}? The saved game is replaced", default=False):
            return _start(save_path, power, scenario, old=session)
        click.echo(f"nothing changed; to go on as {have}: {again}")
        return None
    raise UserInputError(
        f"{message}; nothing changed. To start a new game as {want} (replacing the save): {again_new}; "
        f"to go on with the saved game, leave out the power"
    )


def _start(save_path: Path, power: str | None, scenario: str | None, old: PlaySession | None) -> PlaySession:
    """A new game in ``save_path`` (replacing it): the old game's rule set, scenario and seats
    unless ``power`` or ``scenario`` say otherwise; Cataclysm's 1933 campaign as Germany by default."""
    from grandstrategy.play.seats import format_seats
    from grandstrategy.play.session import PlaySession

    if old is None and save_path.exists():
        with contextlib.suppress(GrandStrategyError):
            old = PlaySession.open(save_path)
    ruleset = old.match.ruleset.name if old is not None else "cataclysm"
    options = dict(old.match.options) if old is not None else {"scenario": "campaign-1933"}
    if scenario is not None:
        options["scenario"] = scenario
    seats = power or (format_seats(old.seats) if old is not None else "germany")
    seed = int.from_bytes(os.urandom(8), "big")
    session = PlaySession.create(save_path, ruleset, options=options, seed=seed, seats=seats, force=True)
    described = ", ".join(f"{key} {value}" for key, value in options.items())
    click.echo(f"new {ruleset} game ({described}), seed {seed}, saved to {save_path}")
    return session


@contextlib.contextmanager
def terminal_foreground(*, enabled: bool) -> Iterator[None]:
    """Make this process the terminal's foreground process group for the game, then give it back.

    Under ``make play``, Ctrl-C would otherwise reach make as well, which reports an interrupted
    recipe however cleanly the game stops. With the game alone in the foreground, Ctrl-C reaches
    only the game, which saves and exits 0. Ctrl-Z is ignored meanwhile (make, waiting in the
    background, could not resume a stopped game). Does nothing off a terminal or where job
    control is missing.
    """

    fd = sys.stdin.fileno() if enabled and sys.stdin is not None and sys.stdin.isatty() else -1
    group = os.getpgrp()
    try:
        previous = os.tcgetpgrp(fd) if fd >= 0 else -1
        if previous >= 0:
            os.setpgid(0, 0)
            handler = signal.signal(signal.SIGTTOU, signal.SIG_IGN)
            try:
                os.tcsetpgrp(fd, os.getpgrp())
            finally:
                signal.signal(signal.SIGTTOU, handler)
    except (OSError, AttributeError):
        previous = -1
        with contextlib.suppress(OSError):
            os.setpgid(0, group)  # back in the group that owns the terminal, or reads would stop us
    stop = signal.signal(signal.SIGTSTP, signal.SIG_IGN) if previous >= 0 else None
    try:
        yield
    finally:
        if previous >= 0:
            handler = signal.signal(signal.SIGTTOU, signal.SIG_IGN)
            try:
                with contextlib.suppress(OSError):
                    os.tcsetpgrp(fd, previous)
            finally:
                signal.signal(signal.SIGTTOU, handler)
                signal.signal(signal.SIGTSTP, stop)


@click.command(name="status")
@click.argument("save_path", metavar="FILE", type=click.Path(path_type=Path))
@click.argument("power", metavar="[POWER]", required=False, default="")
@click.option("--json", "as_json", is_flag=True, help="Print JSON instead of text.")
def status_command(save_path: Path, power: str, as_json: bool) -> None:
    """Show a saved game's position: your powers (the human seats), or POWER's.

    The same view as the status command at the play prompt (Cataclysm only): areas and resources,
    units, production and reserve, force pool, flags, cubes, interests, relations and special
    markers in words. Everything shown is public (LR 1.4); the cup appears only as counts.
    """
    from rich.console import Console

    from grandstrategy.play.position_text import WIDTH, positions, render_power
    from grandstrategy.play.seats import HUMAN
    from grandstrategy.play.session import PlaySession

    session = PlaySession.open(save_path)
    human = {seat for seat, kind in session.seats.items() if kind == HUMAN}
    found = positions(session.match.state, power[:60], human)
    if as_json:
        _print_json({"file": str(save_path), "positions": [view.to_json() for view in found]})
        return
    console = Console(highlight=False)
    for view in found:
        console.print(render_power(view), width=min(console.width, WIDTH))


@click.command(name="simulate")
@click.argument("ruleset", metavar="RULESET")
@click.option(
    "--scenario", "scenario", default=None, help="Scenario id (Cataclysm: campaign-1933, europe-1939)."
)
@click.option(
    "--games", type=click.IntRange(1, 100_000), default=10, show_default=True, help="Games to play."
)
@click.option(
    "--seed",
    type=SEED,
    default=1,
    show_default=True,
    help="Seed of the run; game i uses a seed made from it and i.",
)
@click.option(
    "--bots",
    default="random",
    show_default=True,
    help="random, heuristic, search, or a SEATS text such as 'fascism=heuristic' (unnamed powers: random).",
)
@click.option("--jobs", type=click.IntRange(1, 256), default=1, show_default=True, help="Worker processes.")
@BACKEND
@ADDRESS
@click.option("--check", is_flag=True, help="Check the engine's invariants after every action.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON instead of text.")
def simulate_command(
    ruleset: str,
    scenario: str | None,
    games: int,
    seed: int,
    bots: str,
    jobs: int,
    backend: str,
    address: str | None,
    check: bool,
    as_json: bool,
) -> None:
    """Play many whole games between bots and report each game and the totals.

    The same seed gives the same games (and log hashes) on every run, with any --jobs and on
    either backend.
    """
    from grandstrategy.play.simulate import GameReport, SimulationReport, seats_for, simulate

    options = _options(scenario)
    seats = seats_for(ruleset, options, bots)
    show_progress = not as_json and sys.stderr.isatty()

    def run(progress: Callable[[GameReport], None] | None) -> SimulationReport:
        return simulate(
            ruleset,
            options=options,
            games=games,
            seed=seed,
            seats=seats,
            jobs=jobs,
            check=check,
            progress=progress,
            backend=backend,
            address=address,
        )

    if show_progress:
        from rich.console import Console
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

        with Progress(
            TextColumn("games"),
            BarColumn(),
            MofNCompleteColumn(),
            TimeRemainingColumn(),
            console=Console(stderr=True),
            transient=True,
        ) as bar:
            task = bar.add_task("games", total=games)
            report = run(lambda _: bar.advance(task))
    else:
        report = run(None)
    if as_json:
        _print_json(report.to_json())
        return
    for game in report.games:
        vp = ", ".join(f"{k} {v}" for k, v in game.vp.items())
        click.echo(
            f"game {game.index} seed {game.seed}: {game.winner} wins ({game.end}); {vp}; {game.turns} turns, "
            f"{game.decisions} decisions, {game.chance_events} chance events, {game.seconds:.2f} s"
        )
    totals = report.totals()
    wins = ", ".join(f"{k} {v} ({totals['win_rate'][k]:.0%})" for k, v in totals["wins"].items())
    mean_vp = ", ".join(f"{k} {v:.2f}" for k, v in totals["mean_vp"].items())
    click.echo(f"{totals['games']} games: wins {wins}; mean VP {mean_vp}; mean turns {totals['mean_turns']}")
    click.echo(
        f"  {totals['decisions']} decisions, {totals['chance_events']} chance events, "
        f"{totals['wall_seconds']:.1f} s ({totals['games_per_second']:.2f} games/s)"
    )


@click.command(name="replay")
@click.argument("save_path", metavar="FILE", type=click.Path(path_type=Path))
@click.option(
    "--verify", is_flag=True, help="Only check: re-execute the log, compare the state hash, print OK."
)
@click.option("--json", "as_json", is_flag=True, help="Print JSON instead of text.")
def replay_command(save_path: Path, verify: bool, as_json: bool) -> None:
    """Replay a saved game from its seed and log: print its events, or with --verify just check it.

    A save that does not replay (edited, truncated, made with other rules) is one error line, exit 1.
    """
    from grandstrategy.core.chance import ChanceEvent
    from grandstrategy.core.log import describe
    from grandstrategy.core.replay import open_save
    from grandstrategy.play.games import game_log, invariant_problems, outcome, register_rulesets

    register_rulesets()
    match = open_save(save_path)
    log = match.log
    chance = sum(1 for entry in log if isinstance(entry, ChanceEvent))
    problems = invariant_problems(match.state)
    result = outcome(match.state)
    data = {
        "ok": not problems,
        "file": str(save_path),
        "actions": len(log) - chance,
        "chance_events": chance,
        "state_hash": match.state_hash(),
        "game_over": match.is_terminal(),
        "winner": result.winner,
        "problems": problems,
    }
    if problems:
        if as_json:
            _print_json(data)
        raise SaveError(f"{save_path}: replays, but the final state breaks invariants: {'; '.join(problems)}")
    if as_json:
        if not verify:
            data["log"] = game_log(match.state) or [describe(entry) for entry in log]
        _print_json(data)
        return
    if not verify:
        for line in game_log(match.state) or [describe(entry) for entry in log]:
            click.echo(line)
    status = f"game over, {result.winner} wins" if match.is_terminal() else "in progress"
    click.echo(
        f"OK: {save_path} replays: {data['actions']} actions, {chance} chance events, "
        f"state {match.state_hash()[:23]}… ({status})"
    )


@click.command(name="tournament")
@click.argument("ruleset", metavar="RULESET")
@click.option(
    "--scenario", "scenario", default=None, help="Scenario id (Cataclysm: campaign-1933, europe-1939)."
)
@click.option(
    "--bots",
    default="random,heuristic",
    show_default=True,
    help="The bot kinds to rate, comma-separated (at least two): random, heuristic, search.",
)
@click.option(
    "--games",
    type=click.IntRange(1, 10_000),
    default=2,
    show_default=True,
    help="Rounds: games per pair of kinds, seat group and side.",
)
@click.option("--seed", type=SEED, default=1, show_default=True, help="Seed of the run (every game seed).")
@click.option("--jobs", type=click.IntRange(1, 256), default=1, show_default=True, help="Worker processes.")
@BACKEND
@ADDRESS
@click.option(
    "--bootstrap",
    type=click.IntRange(0, 100_000),
    default=0,
    show_default=True,
    help="Bootstrap resamples for the 95% intervals (0: analytic intervals from the likelihood).",
)
@click.option(
    "--plot", "plot_path", type=click.Path(path_type=Path), default=None, help="Write the ratings as SVG."
)
@click.option("--json", "as_json", is_flag=True, help="Print JSON instead of text.")
def tournament_command(
    ruleset: str,
    scenario: str | None,
    bots: str,
    games: int,
    seed: int,
    jobs: int,
    backend: str,
    address: str | None,
    bootstrap: int,
    plot_path: Path | None,
    as_json: bool,
) -> None:
    """Rate bot kinds: a seeded round robin, Elo with 95% intervals, a table and an optional plot.

    Every pair of kinds meets in every seat group (Cataclysm: ideology), each kind playing the
    group once per seed and the rest once. The same seed gives the same games and ratings on every
    run, with any --jobs and on either backend.
    """
    from grandstrategy.play.tournament import bot_kinds, svg_plot, tournament

    kinds = bot_kinds(bots)
    report = tournament(
        ruleset,
        options=_options(scenario),
        kinds=kinds,
        rounds=games,
        seed=seed,
        jobs=jobs,
        backend=backend,
        address=address,
        bootstrap=bootstrap,
    )
    if plot_path is not None:
        try:
            plot_path.write_text(svg_plot(report), encoding="utf-8")
        except OSError as error:
            raise UserInputError(f"cannot write the plot to {plot_path}: {error.strerror or error}") from None
    if as_json:
        _print_json(report.to_json())
        return
    for line in report.table():
        click.echo(line)
    pairwise = report.pairwise()
    for kind in kinds:
        against = ", ".join(f"{other} {points:g}" for other, points in pairwise[kind].items())
        click.echo(f"  {kind} scored against: {against}")
    click.echo(f"{len(report.results)} games, seed {seed}")
    if plot_path is not None:
        click.echo(f"plot written to {plot_path}")


COMMANDS = (new_command, play_command, status_command, simulate_command, replay_command, tournament_command)
"""The commands of the top-level group; ``grandstrategy.cli.COMMANDS`` names each (a test checks)."""
