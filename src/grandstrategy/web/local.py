"""Your own game on this machine: what ``make play`` (``grandstrategy serve --play``) serves.

The first run creates a Cataclysm game on the server's database with one seat for you and
heuristic bots in the others, and keeps its id and your seat's token in a small file in the
working directory (``grandstrategy-play.json``, readable by you alone: the token is the key to
your seat, and the database keeps only its hash). A later run finds that file and the game in
the database and serves the same game again, unless asked for a new one.
"""

from __future__ import annotations

import json
import os
from dataclasses import asdict, dataclass
from pathlib import Path

from grandstrategy.core.errors import UserInputError
from grandstrategy.web.service import GameService, WebError

RECORD = "grandstrategy-play.json"
"""The file (in the working directory) naming your game and holding your seat's token."""
DEFAULT_POWER = "germany"
"""The power you play when none is named."""
RULESET = "cataclysm"


@dataclass(frozen=True)
class LocalGame:
    """Your game: where it is stored, its id, your seat and that seat's private token."""

    db: str
    game_id: str
    seat: str
    token: str
    scenario: str

    def link(self, base: str) -> str:
        """Your seat's private page on the server at ``base`` (``http://host:port``)."""
        return f"{base}/g/{self.game_id}/{self.seat}?token={self.token}"


def _read(record: Path, db: str) -> LocalGame | None:
    """The saved game for database ``db``, or None when there is none (or it is unreadable)."""
    try:
        data = json.loads(record.read_text(encoding="utf-8"))
        game = LocalGame(**{key: str(data[key]) for key in ("db", "game_id", "seat", "token", "scenario")})
    except (OSError, ValueError, TypeError, KeyError):
        return None
    return game if game.db == db else None


def _write(record: Path, game: LocalGame) -> None:
    """Save the record atomically, readable by the owner only (it holds the seat's token)."""
    temporary = record.with_name(record.name + ".tmp")
    descriptor = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(descriptor, "w", encoding="utf-8") as out:
        json.dump(asdict(game), out, indent=1)
        out.write("\n")
    os.replace(temporary, record)


def find_or_create(
    service: GameService,
    db: str,
    record: Path,
    *,
    power: str | None,
    scenario: str,
    new: bool,
    again: str,
) -> tuple[LocalGame, bool]:
    """Your game: the one saved in ``record`` if it is still in the database (and ``new`` is not
    asked), else a new game of ``scenario`` with you as ``power`` (default Germany) and bots in
    every other seat. ``again`` is the command that was run (for the hint when ``power`` differs).

    :returns: the game and whether it was created now.
    :raises UserInputError: an unknown power or scenario, or ``power`` differs from the saved game's.
    """
    saved = None if new else _read(record, db)
    if saved is not None:
        try:
            service.state(saved.game_id, saved.seat, saved.token)
        except WebError:
            saved = None  # the database no longer has it (a new database file): start afresh
    if saved is not None:
        if power is not None and power != saved.seat:
            raise UserInputError(
                f"the game in {record.name} is played as {saved.seat}, not {power}; "
                f"to start a new game as {power}: {again}"
            )
        return saved, False
    seat = power or DEFAULT_POWER
    try:
        created = service.create(RULESET, {"scenario": scenario}, {seat: "human"})
    except WebError as error:
        raise UserInputError(error.message) from None
    game = LocalGame(db, created.game_id, seat, created.tokens[seat], scenario)
    _write(record, game)
    return game, True
