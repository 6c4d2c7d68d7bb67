"""The ``grandstrategy`` command: one entry point, one sub-command group per job.

The command line is thin: it parses arguments, calls the library and prints text or JSON.
Every error the engine raises on purpose becomes one line on stderr and a non-zero exit code;
a traceback means a bug in grandstrategy, never a user mistake.

Sub-commands are imported only when they run (or when their own help is shown): a static table
names each one's module, attribute and one-line help, so ``grandstrategy --help`` lists them all
without importing the Cataclysm engine, and ``grandstrategy rules ask`` starts in a fraction of a
second (benchmarks/rules_latency.py).
"""

from __future__ import annotations

import importlib
import os
import sys

# One BLAS thread unless the user says otherwise (before anything imports numpy): the A&A odds
# solvers multiply many small matrices, on which OpenBLAS's helper threads only spin and bill CPU.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import click

from grandstrategy import __version__
from grandstrategy.core.errors import GrandStrategyError, printable

# name -> (module, attribute, one-line help). The help must be the first line of the command's own
# docstring; tests/core/test_cli_lazy.py checks that every entry matches the command it loads.
COMMANDS: dict[str, tuple[str, str, str]] = {
    "aa": (
        "grandstrategy.axis_allies.cli",
        "app",
        "Axis & Allies family (Revised, LHTR 1.3, Historical Edition variant): battle odds and the map.",
    ),
    "cataclysm": (
        "grandstrategy.cataclysm.cli",
        "app",
        "Cataclysm: A Second World War: the world the engine plays on.",
    ),
    "rules": (
        "grandstrategy.rulebook.cli",
        "app",
        "Rules assistant for Cataclysm: the numbered Living Rules section and a short answer.",
    ),
    # The play layer (docs/play.md).
    "new": (
        "grandstrategy.play.commands",
        "new_command",
        "Start a new game against bots and save it to a file; then: grandstrategy play FILE.",
    ),
    "play": (
        "grandstrategy.play.commands",
        "play_command",
        "Play a saved game in the terminal: bots move by themselves, you choose by number.",
    ),
    "status": (
        "grandstrategy.play.commands",
        "status_command",
        "Show a saved game's position: your powers (the human seats), or POWER's.",
    ),
    "simulate": (
        "grandstrategy.play.commands",
        "simulate_command",
        "Play many whole games between bots and report each game and the totals.",
    ),
    "replay": (
        "grandstrategy.play.commands",
        "replay_command",
        "Replay a saved game from its seed and log: print its events, or with --verify just check it.",
    ),
    "tournament": (
        "grandstrategy.play.commands",
        "tournament_command",
        "Rate bot kinds: a seeded round robin, Elo with 95% intervals, a table and an optional plot.",
    ),
    # The web app (docs/web.md).
    "serve": (
        "grandstrategy.web.cli",
        "serve_command",
        "Serve games on the web: private links per seat, bots on the server, verifiable dice.",
    ),
    "web": (
        "grandstrategy.web.cli",
        "web_group",
        "Look after the web server's database: web prune removes old finished or idle games.",
    ),
}


class LazyGroup(click.Group):
    """A group whose sub-commands come from :data:`COMMANDS`, each imported on first use.

    Listing the commands (``--help``) uses the table's one-line help and imports nothing.
    """

    def list_commands(self, ctx: click.Context) -> list[str]:
        """Every command name, sorted, without importing any of them."""
        return sorted({*COMMANDS, *self.commands})

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        """The named command, importing its module now (None for an unknown name)."""
        if cmd_name in self.commands:
            return self.commands[cmd_name]
        entry = COMMANDS.get(cmd_name)
        if entry is None:
            return None
        module, attribute, _ = entry
        command = getattr(importlib.import_module(module), attribute)
        if not isinstance(command, click.Command):
            raise TypeError(f"{module}.{attribute} is not a click command")
        self.commands[cmd_name] = command
        return command

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        """The "Commands:" section from the static table, cut to the width as click would."""
        names = self.list_commands(ctx)
        if not names:
            return
        limit = formatter.width - 6 - max(len(name) for name in names)
        rows = []
        for name in names:
            # A stand-in command carrying the table's help is shortened exactly as the real one would be.
            command = self.commands.get(name) or click.Command(name, help=COMMANDS[name][2])
            rows.append((name, command.get_short_help_str(limit)))
        with formatter.section("Commands"):
            formatter.write_dl(rows)


@click.group(
    name="grandstrategy",
    cls=LazyGroup,
    context_settings={"help_option_names": ["-h", "--help"]},
)
@click.version_option(__version__, prog_name="grandstrategy")
def app() -> None:
    """World War II grand-strategy board games: Cataclysm rules and world, odds, rules answers."""


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
