"""The game listing: the games on this server, newest activity first, a page at a time.

It reads only public columns (never a seat's token hash, the dice secret or the bots' seed): each
game's id, rule set, scenario, creation and last change, its public facts (title, turn and phase,
or the result) and its seats with their kinds and people's names, all of which any spectator of
the game sees anyway. ``serve --no-listing`` turns it off (docs/web.md).
"""

from __future__ import annotations

import json
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.engine import Engine
from sqlalchemy.orm import Session

from grandstrategy.core.canonical import JSONObject, JSONValue
from grandstrategy.play.seats import HUMAN
from grandstrategy.web.storage import GameRow, SeatRow

PER_PAGE = 20
"""Games on one page of the listing."""
MAX_PAGE = 10_000
"""Highest page number accepted (the listing is for people, not for walking a whole database)."""


class BadPage(ValueError):
    """A page number that is not a whole number from 1 to :data:`MAX_PAGE`."""


def page_number(text: str) -> int:
    """The page asked for in a query string (``""``: the first).

    :raises BadPage: with one message for people.
    """
    text = text.strip()
    if not text:
        return 1
    if len(text) > 6 or not text.isdigit() or not 1 <= int(text) <= MAX_PAGE:
        raise BadPage(f"page must be a whole number from 1 to {MAX_PAGE}")
    return int(text)


def _facts(raw: str) -> dict[str, str]:
    """The stored public facts, or empty ones for a game not changed since the listing began."""
    try:
        data: Any = json.loads(raw) if raw else {}
    except ValueError:
        data = {}
    if not isinstance(data, dict):
        data = {}
    return {key: str(data.get(key) or "") for key in ("title", "turn", "phase", "result")}


def _scenario(options: str) -> str:
    """The scenario named in the game's options ("" when it is the rule set's default)."""
    try:
        data: Any = json.loads(options)
    except ValueError:
        return ""
    scenario = data.get("scenario") if isinstance(data, dict) else None
    return scenario if isinstance(scenario, str) else ""


def list_games(engine: Engine, page: int) -> JSONObject:
    """One page of the listing: ``games`` (newest last change first, ties by id), ``page``,
    ``per_page``, ``total`` and ``pages``. A page past the last is empty."""
    with Session(engine) as session:
        total = int(session.scalar(select(func.count()).select_from(GameRow)) or 0)
        rows = session.execute(
            select(
                GameRow.id,
                GameRow.ruleset,
                GameRow.options,
                GameRow.created,
                GameRow.last_move,
                GameRow.over,
                GameRow.facts,
            )
            .order_by(GameRow.last_move.desc(), GameRow.id)
            .offset((page - 1) * PER_PAGE)
            .limit(PER_PAGE)
        ).all()
        ids = [row[0] for row in rows]
        seats: dict[str, list[JSONValue]] = {game_id: [] for game_id in ids}
        if ids:
            for game_id, seat, kind, name in session.execute(
                select(SeatRow.game_id, SeatRow.seat, SeatRow.kind, SeatRow.name)
                .where(SeatRow.game_id.in_(ids))
                .order_by(SeatRow.game_id, SeatRow.seat)
            ):
                seats[game_id].append(
                    {"seat": seat, "kind": kind, "person": kind == HUMAN, "name": name or None}
                )
    games: list[JSONValue] = []
    for game_id, ruleset, options, created, last_move, over, facts in rows:
        told = _facts(facts)
        games.append(
            {
                "game_id": game_id,
                "link": f"/g/{game_id}",
                "ruleset": ruleset,
                "scenario": _scenario(options),
                "title": told["title"],
                "created": created,
                "last_move": last_move,
                "over": bool(over),
                "turn": told["turn"],
                "phase": told["phase"],
                "result": told["result"],
                "seats": seats[game_id],
            }
        )
    return {
        "games": games,
        "page": page,
        "per_page": PER_PAGE,
        "total": total,
        "pages": max(1, -(-total // PER_PAGE)),
    }
