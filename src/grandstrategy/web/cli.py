"""``grandstrategy serve``: run the web app for remote multi-player games (docs/web.md).

``--workers N`` runs N uvicorn worker processes on one port; each builds its app from the
environment (:func:`grandstrategy.web.app.app_from_environment`) after this process has migrated
the database once. ``--play`` is what ``make play`` runs: it finds or creates your own game
(:mod:`grandstrategy.web.local`), prints your seat's link and serves until Ctrl-C. ``grandstrategy
web prune`` removes the games finished or idle for longer than a number of days.
"""

from __future__ import annotations

import contextlib
import errno
import os
import socket
import sys
from pathlib import Path

import click

from grandstrategy.web.limits import CREATE_LIMIT, CREATE_WINDOW, parse_rate
from grandstrategy.web.storage import DEFAULT_DB

GRACEFUL_SECONDS = 3
"""How long a stopping server waits for open requests (a browser keeps connections open)."""
EXPIRE_DAYS = 30
"""Default age, in days without a move, at which ``serve`` removes a finished or idle game."""
MAX_DAYS = 36_500
"""Longest age accepted by ``--expire-days`` and ``--older-than-days`` (a hundred years)."""


def run_server(
    db: str,
    host: str,
    port: int,
    *,
    workers: int = 1,
    create_limit: str | None = None,
    listing: bool = True,
    expire_days: int = 0,
) -> None:
    """Open (and migrate) the database, then serve the app with uvicorn until stopped.

    One worker serves from this process (rule sets registered in it are served too); several
    are separate processes started by uvicorn, which import the app factory by name. With
    ``expire_days`` above 0, games without a move for that long are removed at start-up and hourly.
    """
    import uvicorn

    from grandstrategy.web.app import (
        ENV_CREATE_LIMIT,
        ENV_DB,
        ENV_EXPIRE_DAYS,
        ENV_LISTING,
        ENV_MIGRATED,
        create_app,
    )
    from grandstrategy.web.limits import RateLimiter
    from grandstrategy.web.storage import open_database

    rate = create_limit or f"{CREATE_LIMIT}/{CREATE_WINDOW:g}"
    limit, window = parse_rate(rate)
    engine = open_database(db)
    if workers <= 1:
        app = create_app(
            engine, create_limit=RateLimiter(limit, window), listing=listing, expire_days=expire_days
        )
        uvicorn.run(
            app, host=host, port=port, log_level="warning", timeout_graceful_shutdown=GRACEFUL_SECONDS
        )
        return
    engine.dispose()  # migrated; the workers open their own connections
    os.environ.update(
        {
            ENV_DB: db,
            ENV_CREATE_LIMIT: rate,
            ENV_MIGRATED: "1",
            ENV_LISTING: "1" if listing else "0",
            ENV_EXPIRE_DAYS: str(expire_days),
        }
    )
    uvicorn.run(
        "grandstrategy.web.app:app_from_environment",
        factory=True,
        host=host,
        port=port,
        workers=workers,
        log_level="warning",
        timeout_graceful_shutdown=GRACEFUL_SECONDS,
    )


def _check_port(host: str, port: int) -> None:
    """Fail with one clear line when the address is taken (before anything is created)."""
    with socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET) as probe:
        try:
            probe.bind((host, port))
        except OSError as error:
            if error.errno == errno.EADDRINUSE:
                raise click.ClickException(
                    f"port {port} on {host} is in use (another server?): choose another with "
                    f"--port (make play PORT={port + 1})"
                ) from None
            raise click.ClickException(f"cannot listen on {host}:{port}: {error.strerror}") from None


def _announce_and_play(
    db: str,
    host: str,
    port: int,
    power: str | None,
    scenario: str,
    new: bool,
    from_make: str | None,
    *,
    listing: bool = True,
    expire_days: int = 0,
) -> None:
    """Find or create your game, print its link, then serve until Ctrl-C."""
    from grandstrategy.core.errors import UserInputError
    from grandstrategy.web.local import RECORD, find_or_create
    from grandstrategy.web.service import GameService
    from grandstrategy.web.storage import open_database

    again = f"grandstrategy serve --play --power {power} --new"
    if from_make:
        again = f"{from_make} POWER={power} NEW=1"
    engine = open_database(db)
    try:
        game, created = find_or_create(
            GameService(engine), db, Path(RECORD), power=power, scenario=scenario, new=new, again=again
        )
    except UserInputError as error:
        click.echo(f"Error: {error}", err=True)
        sys.exit(2)
    finally:
        engine.dispose()
    shown = "127.0.0.1" if host in ("0.0.0.0", "::", "") else host
    base = f"http://{shown}:{port}" if ":" not in shown else f"http://[{shown}]:{port}"
    resume = from_make or "grandstrategy serve --play"
    what = "new game" if created else "resuming your game"
    click.echo(f"Cataclysm, {game.scenario}: {what}; you play {game.seat}, bots play the other powers.")
    click.echo(f"Open your seat's private link in a browser:\n\n    {game.link(base)}\n")
    click.echo(f"Serving on {base} until Ctrl-C; `{resume}` again resumes this game ({RECORD}).")
    sys.stdout.flush()
    from grandstrategy.play.commands import terminal_foreground

    with terminal_foreground(enabled=from_make is not None):
        run_server(db, host, port, listing=listing, expire_days=expire_days)


@click.command(name="serve")
@click.option(
    "--db", default=DEFAULT_DB, show_default=True, help="Database URL: sqlite:///FILE or postgresql://..."
)
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to listen on.")
@click.option(
    "--port", default=8000, show_default=True, type=click.IntRange(1, 65535), help="Port to listen on."
)
@click.option(
    "--workers",
    default=1,
    show_default=True,
    type=click.IntRange(1, 64),
    help="Server processes (several need a database they can share: PostgreSQL, or SQLite on one host).",
)
@click.option(
    "--create-limit",
    default=f"{CREATE_LIMIT}/{CREATE_WINDOW:g}",
    show_default=True,
    help="New games one client address may create, COUNT/SECONDS (counted in each process).",
)
@click.option(
    "--listing/--no-listing",
    default=True,
    show_default=True,
    help="List the games at /games (rule set, progress, seats and names; never a seat's link).",
)
@click.option(
    "--expire-days",
    type=click.IntRange(0, MAX_DAYS),
    default=None,
    help=f"Remove games without a move for this many days, finished or not (0: never). "
    f"Default {EXPIRE_DAYS}; with --play, never.",
)
@click.option("--play", is_flag=True, help="Serve your own Cataclysm game against bots and print its link.")
@click.option("--power", default=None, help="With --play: the power you play (default germany).")
@click.option(
    "--scenario", default="campaign-1933", show_default=True, help="With --play: the scenario of a new game."
)
@click.option("--new", is_flag=True, help="With --play: start a new game instead of resuming yours.")
@click.option("--from-make", "from_make", default=None, hidden=True)
def serve_command(
    db: str,
    host: str,
    port: int,
    workers: int,
    create_limit: str,
    listing: bool,
    expire_days: int | None,
    play: bool,
    power: str | None,
    scenario: str,
    new: bool,
    from_make: str | None,
) -> None:
    """Serve games on the web: private links per seat, bots on the server, verifiable dice.

    Games are kept in the database (SQLite file grandstrategy-server.db by default); its schema
    is created or upgraded at start-up. Open http://HOST:PORT/ to create a game. With --play,
    your own game of Cataclysm against bots is created (or resumed) and its link printed.
    Games without a move for --expire-days days (finished or idle) are removed at start-up and
    every hour; your own --play game is kept unless --expire-days is given.
    """
    from sqlalchemy.exc import ArgumentError, OperationalError

    try:
        parse_rate(create_limit)
    except ValueError as error:
        raise click.BadParameter(str(error), param_hint="--create-limit") from None
    if play and workers > 1:
        raise click.BadParameter("--play serves from one process", param_hint="--workers")
    if not play and (power is not None or new):
        raise click.BadParameter("--power and --new go with --play", param_hint="--play")
    days = expire_days if expire_days is not None else (0 if play else EXPIRE_DAYS)
    try:
        if play:
            _check_port(host, port)
            with contextlib.suppress(KeyboardInterrupt):
                _announce_and_play(
                    db, host, port, power, scenario, new, from_make, listing=listing, expire_days=days
                )
            click.echo("Stopped; your game is kept in the database.")
        else:
            with contextlib.suppress(KeyboardInterrupt):
                run_server(
                    db,
                    host,
                    port,
                    workers=workers,
                    create_limit=create_limit,
                    listing=listing,
                    expire_days=days,
                )
    except (ArgumentError, OperationalError) as error:
        raise click.ClickException(f"cannot open the database {db!r}: {str(error).splitlines()[0]}") from None


@click.group(name="web")
def web_group() -> None:
    """Look after the web server's database: web prune removes old finished or idle games."""


@web_group.command(name="prune")
@click.option(
    "--db", default=DEFAULT_DB, show_default=True, help="Database URL: sqlite:///FILE or postgresql://..."
)
@click.option(
    "--older-than-days",
    "days",
    type=click.IntRange(1, MAX_DAYS),
    required=True,
    help="Remove the games without a move for more than this many days (finished or idle).",
)
@click.option("--dry-run", is_flag=True, help="Only list the games that would be removed.")
def prune_command(db: str, days: int, dry_run: bool) -> None:
    """Remove the games finished or idle for longer than --older-than-days, saying which.

    Safe while a server runs on the same database: a game that gets a move meanwhile is kept.
    """
    from sqlalchemy.engine import make_url
    from sqlalchemy.exc import ArgumentError, OperationalError

    from grandstrategy.web.service import GameService
    from grandstrategy.web.storage import normalise_url, open_database

    try:
        url = make_url(normalise_url(db))
        on_file = url.get_backend_name() == "sqlite" and url.database not in (None, "", ":memory:")
        if on_file and not Path(str(url.database)).is_file():
            # A mistyped path would otherwise be a new, empty database with nothing to remove.
            raise click.ClickException(f"no database file {url.database!r} (check --db)")
        engine = open_database(db)
    except (ArgumentError, OperationalError) as error:
        raise click.ClickException(f"cannot open the database {db!r}: {str(error).splitlines()[0]}") from None
    try:
        removed = GameService(engine).prune(days, dry_run=dry_run)
    finally:
        engine.dispose()
    if not removed:
        click.echo(f"No game has gone more than {days} days without a move; nothing removed.")
        return
    verb = "Would remove" if dry_run else "Removed"
    click.echo(f"{verb} {len(removed)} game(s) without a move for more than {days} days:")
    for game in removed:
        state = "finished" if game.over else "unfinished"
        click.echo(f"  {game.game_id}  {game.ruleset}  {state}, last move {game.last_move}")
