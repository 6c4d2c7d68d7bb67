"""Actions: frozen dataclasses with a one-line text notation that round-trips.

Every action a seat can take is a small, hashable value. ``str(action)`` gives its notation, and
the rule set's ``parse_action(text)`` turns the notation back into an equal action; logs, saves,
the command line and tests all speak the notation.

A rule set subclasses :class:`Action` once per kind of action (implementing :meth:`Action.notation`)
and parses text with :func:`parse_with`, a table from the first word (the verb) to a function
that builds the action from the remaining words.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from grandstrategy.core.errors import NotationError

ArgsParser = Callable[[Sequence[str]], "Action"]
"""Builds an action from the words after the verb; raises :class:`ValueError` on bad words."""


@dataclass(frozen=True, slots=True)
class Action:
    """Base of every action. Subclasses are frozen dataclasses and implement :meth:`notation`.

    Equality and hashing are by value, so ``action in state.legal_actions()`` works.
    """

    def notation(self) -> str:
        """Return the one-line text of this action, e.g. ``"roll"`` or ``"spend gold"``."""
        raise NotImplementedError(f"{type(self).__name__} does not define notation()")

    def __str__(self) -> str:
        return self.notation()


def words(text: str) -> list[str]:
    """Split notation text into words on whitespace.

    :raises NotationError: the text is not a string, is empty, or spans several lines.
    """
    if not isinstance(text, str):
        raise NotationError(f"an action must be text, not {type(text).__name__} {text!r}")
    if "\n" in text or "\r" in text:
        raise NotationError(f"an action is one line of text, not {text!r}")
    parts = text.split()
    if not parts:
        raise NotationError("empty action text")
    return parts


def parse_with(text: str, parsers: Mapping[str, ArgsParser]) -> Action:
    """Parse ``text`` by looking its first word up in ``parsers`` (case-insensitive verbs).

    ``parsers`` maps a lower-case verb to a function of the remaining words. A
    :class:`ValueError` raised by that function becomes a :class:`NotationError` that quotes the
    input and gives the reason.

    :raises NotationError: empty text, an unknown verb (the known ones are listed), or words the
        verb's parser rejects.
    """
    parts = words(text)
    verb = parts[0].lower()
    parser = parsers.get(verb)
    if parser is None:
        known = ", ".join(sorted(parsers))
        raise NotationError(f"cannot parse {text!r}: unknown action {parts[0]!r} (known: {known})")
    try:
        return parser(parts[1:])
    except NotationError:
        raise
    except ValueError as error:
        raise NotationError(f"cannot parse {text!r}: {error}") from None


def no_args(make: Callable[[], Action]) -> ArgsParser:
    """An :data:`ArgsParser` for a verb without words: ``parse_with(t, {"pass": no_args(Pass)})``."""

    def parse(args: Sequence[str]) -> Action:
        if args:
            raise ValueError(f"takes no arguments, got {' '.join(args)!r}")
        return make()

    return parse
