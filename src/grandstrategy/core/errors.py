"""One hierarchy of errors, so that the command line can turn any of them into one clear line.

Errors that a user can cause (bad notation, an illegal action, a broken data module, a malformed
save, a bad argument) subclass :class:`ValueError` as well, and quote the offending input.
"""

from __future__ import annotations


class GrandStrategyError(Exception):
    """Base of every error the engine raises on purpose.

    ``exit_code`` is what the command line exits with when this error reaches it.
    """

    exit_code: int = 1


class UserInputError(GrandStrategyError, ValueError):
    """Input from a person or a file is wrong; the message says what and where."""

    exit_code = 2


class NotationError(UserInputError):
    """Text that should name an action, a unit or a place cannot be parsed."""


class IllegalActionError(UserInputError):
    """A well-formed action that the rules do not allow in the current state."""


class DataError(UserInputError):
    """A data module (map, powers, scenarios, ...) is missing, unreadable or inconsistent."""

    exit_code = 1


class SaveError(UserInputError):
    """A saved game cannot be read, is of an unknown format, or does not replay."""

    exit_code = 1


QUOTE_LIMIT = 80
"""How many characters of a person's input an error message repeats."""


def quoted(text: object, limit: int = QUOTE_LIMIT) -> str:
    """``text`` quoted for an error message: cut to ``limit`` characters, control characters escaped.

    A value that is not a string is shown by its ``repr``, cut the same way.

    Python's ``repr`` escapes every character that is not printable (newlines, ANSI escape
    sequences, bidirectional overrides), so the message cannot move the cursor or recolour the
    terminal, and a pasted megabyte comes back as one short line.

    >>> quoted("abc")
    "'abc'"
    >>> quoted("\\x1b[31mred")
    "'\\\\x1b[31mred'"
    >>> quoted("x" * 100, limit=5)
    "'xxxxx'... (100 characters)"
    >>> quoted([1, 2, 3], limit=5)
    '[1, 2...'
    """
    if not isinstance(text, str):
        shown = repr(text)
        return shown if len(shown) <= limit else shown[:limit] + "..."
    if len(text) <= limit:
        return repr(text)
    return f"{text[:limit]!r}... ({len(text)} characters)"


def printable(message: str, *, line_limit: int = 500, lines: int = 200) -> str:
    """``message`` made safe for a terminal: each line's unprintable characters escaped and cut.

    The command line passes every error message through this, so a message that repeats input
    nobody quoted with :func:`quoted` still cannot carry control characters or run for pages.

    >>> printable("bad \\x1b[2J input\\nsecond line")
    'bad \\\\x1b[2J input\\nsecond line'
    """
    out: list[str] = []
    all_lines = message.split("\n")
    for line in all_lines[:lines]:
        safe = "".join(ch if ch.isprintable() else repr(ch)[1:-1] for ch in line)
        out.append(safe if len(safe) <= line_limit else safe[:line_limit] + "...")
    if len(all_lines) > lines:
        out.append(f"... and {len(all_lines) - lines} more lines")
    return "\n".join(out)
