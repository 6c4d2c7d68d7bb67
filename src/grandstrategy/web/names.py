"""Display names for the people in a game's seats: what is accepted and how the form writes them.

A name is shown to everyone who sees the game (its pages, its live updates and the listing), so
it is checked before it is stored: text of at most :data:`MAX_PERSON_NAME` characters once
normalised (NFC) and stripped, with no control characters, no line or paragraph separators and
no bidirectional overrides (which could make a name read as something else). A blank name means
"no name". Templates escape it like every other text; nothing here makes it safe for HTML.
"""

from __future__ import annotations

import unicodedata

from grandstrategy.core.errors import UserInputError

MAX_PERSON_NAME = 40
"""Longest display name accepted, in characters after stripping."""
MAX_NAMES_TEXT = 2000
"""Longest names text the new-game form accepts (one ``SEAT=NAME`` per line)."""

_REFUSED_CATEGORIES = frozenset({"Cc", "Cs", "Co", "Cn", "Zl", "Zp"})
"""Control, surrogate, private-use and unassigned code points, line and paragraph separators."""
_BIDI_CONTROLS = frozenset(chr(c) for c in (*range(0x202A, 0x202F), *range(0x2066, 0x206A), 0x200E, 0x200F))
"""Bidirectional embeddings, overrides, isolates and marks: they can reorder the text around them."""


def person_name(value: object, seat: str) -> str | None:
    """``value`` as the display name of ``seat``'s person: stripped text, or None when blank.

    :raises UserInputError: not text, too long, or holding a control character.
    """
    if value is None:
        return None
    if not isinstance(value, str):
        raise UserInputError(f"the name for seat {seat} must be text")
    if len(value) > 4 * MAX_PERSON_NAME:  # bound the work before normalising
        raise UserInputError(f"the name for seat {seat} is longer than {MAX_PERSON_NAME} characters")
    name = unicodedata.normalize("NFC", value).strip()
    if not name:
        return None
    if len(name) > MAX_PERSON_NAME:
        raise UserInputError(f"the name for seat {seat} is longer than {MAX_PERSON_NAME} characters")
    for char in name:
        if unicodedata.category(char) in _REFUSED_CATEGORIES or char in _BIDI_CONTROLS:
            raise UserInputError(
                f"the name for seat {seat} holds a control character (U+{ord(char):04X}); "
                "use letters, digits, spaces and punctuation"
            )
    return name


def parse_names_text(text: str) -> dict[str, str]:
    """The new-game form's names: one ``SEAT=NAME`` per line, blank lines skipped; the seat as
    written in the seats text (case and spaces do not matter: ``Soviet Union`` is ``soviet-union``).

    :raises UserInputError: a line without ``=``, a seat named twice, or too long a text.
    """
    if len(text) > MAX_NAMES_TEXT:
        raise UserInputError(f"the names text is longer than {MAX_NAMES_TEXT} characters")
    names: dict[str, str] = {}
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        seat, equals, name = line.partition("=")
        key = "-".join(seat.lower().split())
        if not equals or not key:
            raise UserInputError(f"names line {number} is not SEAT=NAME (e.g. germany=Anna)")
        if key in names:
            raise UserInputError(f"names line {number} names seat {key} a second time")
        names[key] = name
    return names
