"""Who sits in each seat: a person at the terminal or a bot, written as a short SEATS text.

A SEATS text is a comma-separated list of ``WHO=KIND`` entries, for example
``germany=human,italy=bot:heuristic,*=bot:random``:

- ``WHO`` is a power (``germany``; a unique prefix such as ``soviet``, the initials ``uk``, or
  the printed name ``Soviet Union`` also work), an ideology (``fascism``: every power of it), or ``*`` (every
  power not otherwise named). A power named on its own beats its ideology, which beats ``*``.
- ``KIND`` is ``human``, ``bot:random``, ``bot:heuristic`` or ``bot:search`` (``random``,
  ``heuristic``, ``search`` and ``bot`` are accepted as short forms; ``bot`` means ``bot:heuristic``).
- A bare ``WHO`` without ``=KIND`` means ``WHO=human``: ``--seats germany`` is "I play Germany".

Powers that no entry covers get :data:`DEFAULT_KIND` (a heuristic bot: a fair opponent). Every
mistake is one :class:`~grandstrategy.core.errors.UserInputError` (exit code 2) that names the
entry and lists what would have been accepted.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Final

from grandstrategy.core.errors import SaveError, UserInputError, quoted
from grandstrategy.core.files import MAX_SMALL_FILE_BYTES, BadFile, atomic_write, read_json

HUMAN: Final = "human"
RANDOM: Final = "bot:random"
HEURISTIC: Final = "bot:heuristic"
SEARCH: Final = "bot:search"
KINDS: Final = (HUMAN, RANDOM, HEURISTIC, SEARCH)
"""Every kind of seat, in their canonical spelling."""

DEFAULT_KIND: Final = HEURISTIC
"""The kind of a power that no SEATS entry names: opponents that play sensibly."""

_ALIASES: Final = {
    "human": HUMAN,
    "me": HUMAN,
    "bot": HEURISTIC,
    "heuristic": HEURISTIC,
    "bot:heuristic": HEURISTIC,
    "random": RANDOM,
    "bot:random": RANDOM,
    "search": SEARCH,
    "bot:search": SEARCH,
}

MAX_SEATS_CHARS: Final = 4096
"""The longest SEATS text read (a game with every power named fits in a few hundred)."""

SEATS_FORMAT: Final = "grandstrategy-seats"
SEATS_VERSION: Final = 1


def _key(text: str) -> str:
    """Compare names loosely: case, spaces, dashes and underscores do not matter."""
    return "".join(ch for ch in text.lower() if ch.isalnum())


def _initials(seat: str) -> str:
    """``united-kingdom`` -> ``uk``; a one-word seat has none."""
    parts = [part for part in seat.lower().split("-") if part]
    return "".join(part[0] for part in parts) if len(parts) > 1 else ""


def parse_kind(text: str) -> str:
    """The canonical kind for ``text`` (``random`` -> ``bot:random``).

    :raises UserInputError: ``text`` is no kind of seat; the kinds are listed.
    """
    kind = _ALIASES.get(text.strip().lower().replace(" ", ""))
    if kind is None:
        raise UserInputError(
            f"unknown seat kind {quoted(text.strip())}: use one of {', '.join(KINDS)} (or random, heuristic)"
        )
    return kind


def _resolve_who(
    who: str, seats: Sequence[str], groups: Mapping[str, Sequence[str]], names: Mapping[str, str]
) -> tuple[str, list[str]]:
    """Return ``(rank, powers)`` for an entry's left side; rank orders precedence."""
    if who == "*":
        return "any", list(seats)
    key = _key(who)
    if not key:
        raise UserInputError(f"seat entry {quoted(who)} names no power")
    exact = [s for s in seats if key in (_key(s), _key(names.get(s, "")), _initials(s))]
    if exact:
        return "power", exact[:1]
    for group, members in groups.items():
        if _key(group) == key:
            return "group", [m for m in members if m in seats]
    prefixed = [s for s in seats if _key(s).startswith(key) or _key(names.get(s, "")).startswith(key)]
    if len(prefixed) == 1:
        return "power", prefixed
    known = ", ".join(seats)
    extra = f"; ideologies: {', '.join(groups)}" if groups else ""
    if len(prefixed) > 1:
        raise UserInputError(f"seat {quoted(who)} is ambiguous: it could be {', '.join(prefixed)}")
    raise UserInputError(f"unknown power {quoted(who)} in SEATS; powers: {known}{extra}; or * for the rest")


def parse_seats(
    spec: str | None,
    seats: Sequence[str],
    *,
    groups: Mapping[str, Sequence[str]] | None = None,
    names: Mapping[str, str] | None = None,
    default: str = DEFAULT_KIND,
) -> dict[str, str]:
    """Turn a SEATS text into ``{seat: kind}`` for every one of ``seats``, in their order.

    ``groups`` maps an ideology (or any group name) to its powers; ``names`` maps a seat to its
    printed name. ``None`` or an empty text gives every seat ``default``; a text of only blanks
    or newlines is refused (a mistyped option, not a request for the defaults).

    >>> parse_seats("germany=human,*=random", ["germany", "italy"])
    {'germany': 'human', 'italy': 'bot:random'}

    :raises UserInputError: a text of only blanks, one longer than :data:`MAX_SEATS_CHARS`, an empty
        entry, an unknown or ambiguous power or kind, or a power
        (or ideology, or ``*``) given twice.
    """
    if spec and not spec.strip():
        raise UserInputError(
            "SEATS holds only blanks: name who plays, e.g. 'germany' or '*=bot:random' "
            "(or leave the option out)"
        )
    if spec is not None and len(spec) > MAX_SEATS_CHARS:
        raise UserInputError(f"SEATS is {len(spec)} characters long; the limit is {MAX_SEATS_CHARS}")
    groups = groups or {}
    names = names or {}
    ranked: dict[str, dict[str, str]] = {"power": {}, "group": {}, "any": {}}
    seen: set[str] = set()
    for raw in (spec or "").split(","):
        entry = raw.strip()
        if not entry:
            if spec and spec.strip():
                raise UserInputError(
                    f"SEATS {quoted(spec)} has an empty entry (two commas, or one at an end)"
                )
            continue
        who, equals, kind_text = entry.partition("=")
        who = who.strip()
        if equals and not kind_text.strip():
            raise UserInputError(
                f"seat entry {quoted(entry)} has no kind after '='; kinds: {', '.join(KINDS)}"
            )
        kind = parse_kind(kind_text) if equals else HUMAN
        rank, powers = _resolve_who(who, seats, groups, names)
        label = who if rank != "power" else powers[0]
        if label.lower() in seen:
            raise UserInputError(f"SEATS names {quoted(label)} twice")
        seen.add(label.lower())
        for power in powers:
            ranked[rank][power] = kind
    result: dict[str, str] = {}
    for seat in seats:
        result[seat] = (
            ranked["power"].get(seat) or ranked["group"].get(seat) or ranked["any"].get(seat) or default
        )
    return result


def format_seats(seats: Mapping[str, str]) -> str:
    """The shortest SEATS text that gives back ``seats`` (``*`` covers the most common kind)."""
    if not seats:
        return ""
    kinds = list(seats.values())
    common = max(KINDS, key=kinds.count)
    named = [f"{seat}={kind}" for seat, kind in seats.items() if kind != common]
    return ",".join([*named, f"*={common}"])


def humans(seats: Mapping[str, str]) -> list[str]:
    """The seats a person plays, in order."""
    return [seat for seat, kind in seats.items() if kind == HUMAN]


# ---- the seats file beside a save ------------------------------------------------------------------


def seats_path(save_path: str | os.PathLike[str]) -> Path:
    """Where the seats of the save at ``save_path`` are kept: ``game.json`` -> ``game.seats.json``.

    The kernel save format (version 1) accepts no extra field, so the seats live in this small
    file beside the save rather than inside it (docs/play.md).
    """
    path = Path(save_path)
    stem = path.name[: -len(path.suffix)] if path.suffix else path.name
    return path.with_name(f"{stem}.seats.json")


def write_seats(save_path: str | os.PathLike[str], seats: Mapping[str, str]) -> Path:
    """Write the seats file of a save atomically; return its path.

    :raises SaveError: the file cannot be written.
    """
    target = seats_path(save_path)
    data = {"format": SEATS_FORMAT, "format_version": SEATS_VERSION, "seats": dict(seats)}
    try:
        atomic_write(target, (json.dumps(data, indent=2, sort_keys=True) + "\n").encode("utf-8"))
    except OSError as error:
        raise SaveError(f"{target}: cannot write: {error.strerror or error}") from None
    return target


def read_seats(save_path: str | os.PathLike[str], seats: Sequence[str]) -> dict[str, str] | None:
    """The seats stored beside a save, checked against the game's ``seats``; ``None`` if no file.

    :raises SaveError: the file exists but cannot be read (not a regular file, above
        :data:`~grandstrategy.core.files.MAX_SMALL_FILE_BYTES`, not UTF-8, JSON that is invalid,
        too deep, has huge numbers or repeated keys), is not a seats file, or names an unknown
        seat or kind (one line naming the file).
    """
    source = seats_path(save_path)
    try:
        data = read_json(source, limit=MAX_SMALL_FILE_BYTES)
    except BadFile as error:
        if error.missing:
            return None
        raise SaveError(f"{error} (the seats file: delete it or fix it)") from None
    if not isinstance(data, dict) or data.get("format") != SEATS_FORMAT:
        raise SaveError(f"{source}: not a grandstrategy seats file")
    if data.get("format_version") != SEATS_VERSION:
        version = quoted(data.get("format_version"))
        raise SaveError(f"{source}: seats format version {version} is not supported")
    raw = data.get("seats")
    if not isinstance(raw, dict):
        raise SaveError(f"{source}: field 'seats' must be an object")
    result: dict[str, str] = {}
    for seat in seats:
        kind = raw.get(seat, DEFAULT_KIND)
        if kind not in KINDS:
            raise SaveError(f"{source}: seat {seat!r} has unknown kind {quoted(str(kind))}")
        result[seat] = kind
    unknown = sorted(set(raw) - set(seats))
    if unknown:
        raise SaveError(f"{source}: unknown seat(s) {quoted(', '.join(unknown))} for this game")
    return result
