"""``grandstrategy serve``: run the web app for remote multi-player games (docs/web.md)."""

from __future__ import annotations

import click

from grandstrategy.web.storage import DEFAULT_DB


def run_server(db: str, host: str, port: int) -> None:
    """Open (and migrate) the database, then serve the app with uvicorn until stopped."""
    import uvicorn

    from grandstrategy.web.app import create_app
    from grandstrategy.web.storage import open_database

    uvicorn.run(create_app(open_database(db)), host=host, port=port, log_level="warning")


@click.command(name="serve")
@click.option(
    "--db", default=DEFAULT_DB, show_default=True, help="Database URL: sqlite:///FILE or postgresql://..."
)
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to listen on.")
@click.option(
    "--port", default=8000, show_default=True, type=click.IntRange(1, 65535), help="Port to listen on."
)
def serve_command(db: str, host: str, port: int) -> None:
    """Serve games on the web: private links per seat, bots on the server, verifiable dice.

    Games are kept in the database (SQLite file grandstrategy-server.db by default); its schema
    is created or upgraded at start-up. Open http://HOST:PORT/ to create a game.
    """
    from sqlalchemy.exc import ArgumentError, OperationalError

    try:
        run_server(db, host, port)
    except (ArgumentError, OperationalError) as error:
        raise click.ClickException(f"cannot open the database {db!r}: {str(error).splitlines()[0]}") from None
