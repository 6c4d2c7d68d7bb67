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
