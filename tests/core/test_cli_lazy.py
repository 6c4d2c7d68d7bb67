"""The lazy top-level command group: its static table agrees with the commands it loads."""

from __future__ import annotations

import click
from tests.core.clirun import run_cli

from grandstrategy.cli import COMMANDS, LazyGroup, app


def test_every_table_entry_loads_the_command_its_help_describes() -> None:
    context = click.Context(app, info_name="grandstrategy")
    for name, (module, attribute, short) in COMMANDS.items():
        command = app.get_command(context, name)
        assert isinstance(command, click.Command), name
        assert command.name == name
        assert command.help is not None
        assert command.help.strip().splitlines()[0] == short, f"{module}.{attribute}: update COMMANDS"


def test_help_lists_each_command_with_its_one_line_help() -> None:
    result = run_cli("--help")
    assert result.code == 0
    lines = result.out.split("Commands:")[1].splitlines()
    names = [line.split()[0] for line in lines if line.strip()]
    assert names == sorted(COMMANDS)
    assert any(line.split()[0] == "rules" and "Rules assistant" in line for line in lines if line.strip())


def test_an_unknown_command_is_one_clear_error() -> None:
    result = run_cli("fly")
    assert result.code == 2
    assert "No such command 'fly'" in result.err
    assert "Traceback" not in result.err


def test_a_lazily_loaded_command_still_reports_errors_through_main() -> None:
    result = run_cli("status", "/nonexistent/save.json")
    assert result.code != 0
    assert result.err.startswith(("error:", "Usage:"))
    assert "Traceback" not in result.err


def test_a_group_built_by_hand_still_accepts_added_commands() -> None:
    group = LazyGroup(name="test")

    @click.command(name="hello")
    def hello() -> None:
        """Say hello."""

    group.add_command(hello)
    context = click.Context(group, info_name="test")
    assert "hello" in group.list_commands(context)
    assert group.get_command(context, "hello") is hello
    assert group.get_command(context, "nope") is None


def test_every_play_command_is_in_the_table() -> None:
    from grandstrategy.play.commands import COMMANDS as PLAY_COMMANDS

    assert {command.name for command in PLAY_COMMANDS} <= set(COMMANDS)
