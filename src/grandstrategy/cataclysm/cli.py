"""Command-line sub-commands for this package (filled in by its issue)."""

from __future__ import annotations

import click


@click.group(name="placeholder")
def app() -> None:
    """(not yet available)"""


@app.command()
def status() -> None:
    """Say that this part is not available yet."""
    click.echo("not available yet")
