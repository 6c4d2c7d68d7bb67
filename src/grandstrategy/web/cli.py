"""``grandstrategy serve``: run the web app for remote multi-player games (docs/web.md).

``--workers N`` runs N uvicorn worker processes on one port; each builds its app from the
environment (:func:`grandstrategy.web.app.app_from_environment`) after this process has migrated
the database once. ``--play`` is what ``make play`` runs: it finds or creates your own game
(:mod:`grandstrategy.web.local`), prints your seat's link and serves until Ctrl-C.
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


def run_server(db: str, host: str, port: int, *, workers: int = 1, create_limit: str | None = None) -> None:
    """Open (and migrate) the database, then serve the app with uvicorn until stopped.

    One worker serves from this process (rule sets registered in it are served too); several
    are separate processes started by uvicorn, which import the app factory by name.
    """
    import uvicorn

    from grandstrategy.web.app import ENV_CREATE_LIMIT, ENV_DB, ENV_MIGRATED, create_app
    from grandstrategy.web.limits import RateLimiter
    from grandstrategy.web.storage import open_database

    rate = create_limit or f"{CREATE_LIMIT}/{CREATE_WINDOW:g}"
    limit, window = parse_rate(rate)
    engine = open_database(db)
    if workers <= 1:
        app = create_app(engine, create_limit=RateLimiter(limit, window))
        uvicorn.run(
            app, host=host, port=port, log_level="warning", timeout_graceful_shutdown=GRACEFUL_SECONDS
        )
        return
    engine.dispose()  # migrated; the workers open their own connections
    os.environ.update({ENV_DB: db, ENV_CREATE_LIMIT: rate, ENV_MIGRATED: "1"})
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
    db: str, host: str, port: int, power: str | None, scenario: str, new: bool, from_make: str | None
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
        run_server(db, host, port)


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
    try:
        if play:
            _check_port(host, port)
            with contextlib.suppress(KeyboardInterrupt):
                _announce_and_play(db, host, port, power, scenario, new, from_make)
            click.echo("Stopped; your game is kept in the database.")
        else:
            with contextlib.suppress(KeyboardInterrupt):
                run_server(db, host, port, workers=workers, create_limit=create_limit)
    except (ArgumentError, OperationalError) as error:
        raise click.ClickException(f"cannot open the database {db!r}: {str(error).splitlines()[0]}") from None
