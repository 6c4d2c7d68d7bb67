"""Shared helpers for the play tests: run the command line in-process, make a small game."""

from __future__ import annotations

import io
import json
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from grandstrategy.cli import main
from grandstrategy.play.games import register_rulesets

register_rulesets()

SCENARIO = "europe-1939"
"""The short scenario keeps the suite fast; the campaign is exercised by the benchmarks."""


@dataclass
class Result:
    code: int
    out: str
    err: str

    def json(self) -> Any:
        return json.loads(self.out)


Cli = Callable[..., Result]


@pytest.fixture
def cli(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> Cli:
    """Run ``grandstrategy ARGS`` in-process (``stdin``: text piped in); return code, stdout, stderr."""

    def run(*args: str, stdin: str | None = None) -> Result:
        if stdin is not None:
            monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
        with pytest.raises(SystemExit) as exit_info:
            main(list(args))
        captured = capsys.readouterr()
        code = exit_info.value.code
        return Result(code if isinstance(code, int) else 1, captured.out, captured.err)

    return run


@pytest.fixture
def new_game(cli: Cli, tmp_path: Path) -> Callable[..., Path]:
    """Create a saved game with ``grandstrategy new``; return the save's path."""

    def make(seats: str = "italy=human,*=bot:random", seed: int = 5, name: str = "game.json") -> Path:
        path = tmp_path / name
        result = cli(
            "new",
            "cataclysm",
            "--scenario",
            SCENARIO,
            "--seed",
            str(seed),
            "--seats",
            seats,
            "--save",
            str(path),
        )
        assert result.code == 0, result.err
        return path

    return make
