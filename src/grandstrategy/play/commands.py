"""The ``new``, ``play``, ``simulate`` and ``replay`` commands (registered in ``grandstrategy.cli``).

Thin, like the rest of the command line: parse the arguments, call :mod:`grandstrategy.play`, print
text or JSON. Errors the library raises on purpose reach ``grandstrategy.cli.main``, which prints
one line and exits with the error's code (2 for a bad argument, 1 for a broken save).
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Any

import click

from grandstrategy.core.errors import SaveError, UserInputError

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
def new_command(
    ruleset: str,
    scenario: str | None,
    seed: int | None,
    seats: str | None,
    save_path: Path,
    force: bool,
    as_json: bool,
) -> None:
    """Start a new game against bots and save it to a file; then: grandstrategy play FILE.

    Example: grandstrategy new cataclysm --scenario campaign-1933 --seats germany --save game.json
    """
    from grandstrategy.play.seats import format_seats, seats_path
    from grandstrategy.play.session import PlaySession

    if seed is None:
        seed = int.from_bytes(os.urandom(8), "big")
    session = PlaySession.create(
        save_path, ruleset, options=_options(scenario), seed=seed, seats=seats, force=force
    )
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
    click.echo(f"  play it with: grandstrategy play {save_path}")


@click.command(name="play")
@click.argument("save_path", metavar="FILE", type=click.Path(path_type=Path))
@click.option(
    "--seats", default=None, help="Change who plays each power (a SEATS text, stored with the save)."
)
@click.option(
    "--moves",
    default=None,
    help="Play these commands instead of reading the keyboard, comma-separated, e.g. '1,3,undo,2'; "
    "then stop (the game stays saved).",
)
def play_command(save_path: Path, seats: str | None, moves: str | None) -> None:
    """Play a saved game in the terminal: bots move by themselves, you choose by number.

    Commands at the prompt: a number, log [N], map, rules QUESTION, undo, help, quit. Input from a
    pipe is read as one command per line.
    """
    from rich.console import Console
    from rich.markup import escape

    from grandstrategy.play.session import PlaySession
    from grandstrategy.play.terminal import TerminalGame, scripted

    session = PlaySession.open(save_path, seats=seats)
    console = Console(highlight=False)
    if moves is not None:
        read_line = scripted([m for m in moves.split(",")], console)
    elif sys.stdin.isatty():

        def read_line(prompt: str) -> str:
            return console.input(escape(prompt))

    else:
        read_line = scripted((line.rstrip("\n") for line in sys.stdin), console)
    TerminalGame(session, console, read_line).run()


@click.command(name="simulate")
@click.argument("ruleset", metavar="RULESET")
@click.option(
    "--scenario", "scenario", default=None, help="Scenario id (Cataclysm: campaign-1933, europe-1939)."
)
@click.option("--games", type=click.IntRange(1, None), default=10, show_default=True, help="Games to play.")
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
    help="random, heuristic, or a SEATS text such as 'fascism=heuristic' (unnamed powers: random).",
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
    from grandstrategy.play.simulate import GameReport, seats_for, simulate

    options = _options(scenario)
    seats = seats_for(ruleset, options, bots)
    show_progress = not as_json and sys.stderr.isatty()
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

            def advance(_: GameReport) -> None:
                bar.advance(task)

            report = simulate(
                ruleset,
                options=options,
                games=games,
                seed=seed,
                seats=seats,
                jobs=jobs,
                check=check,
                progress=advance,
                backend=backend,
                address=address,
            )
    else:
        report = simulate(
            ruleset,
            options=options,
            games=games,
            seed=seed,
            seats=seats,
            jobs=jobs,
            check=check,
            backend=backend,
            address=address,
        )
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
    help="The bot kinds to rate, comma-separated (at least two).",
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


COMMANDS = (new_command, play_command, simulate_command, replay_command, tournament_command)
"""The commands ``grandstrategy.cli`` adds to the top-level group."""
