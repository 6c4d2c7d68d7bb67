"""Run the ``grandstrategy`` command line in-process and capture what a person would see.

Used by the bad-input and fuzz tests; unlike a pytest fixture it works inside Hypothesis
examples. An exception that escapes ``main`` (a traceback, that is, a bug) propagates and fails
the test.
"""

from __future__ import annotations

import io
import sys
from contextlib import redirect_stderr, redirect_stdout
from dataclasses import dataclass

from grandstrategy.cli import main


@dataclass(frozen=True)
class Result:
    """Exit code, standard output and standard error of one run."""

    code: int
    out: str
    err: str


def run_cli(*args: str, stdin: str | None = None) -> Result:
    """Run ``grandstrategy ARGS`` (``stdin``: text piped in; default an empty stream)."""
    out, err = io.StringIO(), io.StringIO()
    saved = sys.stdin
    sys.stdin = io.StringIO(stdin or "")
    try:
        with redirect_stdout(out), redirect_stderr(err):
            try:
                main(list(args))
                code = 0
            except SystemExit as done:
                code = done.code if isinstance(done.code, int) else (0 if done.code is None else 1)
    finally:
        sys.stdin = saved
    return Result(code, out.getvalue(), err.getvalue())


def one_error(result: Result, code: int, needle: str) -> str:
    """Assert ``result`` is a refusal: exit ``code``, ``needle`` in stderr, no traceback; return it."""
    assert result.code == code, (result.code, result.err, result.out[-500:])
    assert needle in result.err, result.err
    assert "Traceback" not in result.err + result.out
    return result.err
