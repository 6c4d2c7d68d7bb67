"""The ``grandstrategy`` command: one entry point, one sub-command group per job.

The command line is thin: it parses arguments, calls the library and prints text or JSON.
Every error the engine raises on purpose becomes one line on stderr and a non-zero exit code;
a traceback means a bug in grandstrategy, never a user mistake.
"""

from __future__ import annotations

import sys

import click

from grandstrategy import __version__
from grandstrategy.axis_allies.cli import app as aa_app
from grandstrategy.cataclysm.cli import app as cataclysm_app
from grandstrategy.core.errors import GrandStrategyError, printable
from grandstrategy.play.commands import COMMANDS as PLAY_COMMANDS
from grandstrategy.rulebook.cli import app as rules_app


@click.group(
    name="grandstrategy",
    context_settings={"help_option_names": ["-h", "--help"]},
)
@click.version_option(__version__, prog_name="grandstrategy")
def app() -> None:
    """World War II grand-strategy board games: Cataclysm rules and world, odds, rules answers."""


app.add_command(cataclysm_app, name="cataclysm")
app.add_command(aa_app, name="aa")
app.add_command(rules_app, name="rules")
for _command in PLAY_COMMANDS:  # new, play, status, simulate, replay, tournament (docs/play.md)
    app.add_command(_command)


def main(argv: list[str] | None = None) -> None:
    """Run the command line; turn expected errors into one message and an exit code.

    Messages pass through :func:`~grandstrategy.core.errors.printable`, so input they repeat
    cannot put control characters on the terminal.
    """
    if argv is not None and any("\0" in arg for arg in argv):  # a shell cannot pass one; a caller can
        click.echo("error: an argument contains a NUL character", err=True)
        sys.exit(2)
    try:
        result = app.main(args=argv, prog_name="grandstrategy", standalone_mode=False)
    except GrandStrategyError as error:
        click.echo(f"error: {printable(str(error))}", err=True)
        sys.exit(error.exit_code)
    except click.exceptions.Abort:
        click.echo("aborted", err=True)
        sys.exit(130)
    except click.exceptions.ClickException as error:
        vars(error)["message"] = printable(error.message)  # it may repeat what was typed
        error.show()
        sys.exit(error.exit_code)
    except (KeyboardInterrupt, EOFError):
        click.echo("interrupted", err=True)
        sys.exit(130)
    except BrokenPipeError:
        sys.exit(0)
    sys.exit(result if isinstance(result, int) else 0)
