"""Games on the server: create, join, move, bots, per-seat views, export; one writer per game.

Everything a client receives is built here from the kernel's per-seat view
(:meth:`Match.view`, :meth:`Match.log_view`): never the state itself, the cup order, the chance
state, the bots' seed or the dice secret (which is revealed only when the game is over). A move
names the game's version its player saw (the log length until an undo; every stored change raises
it, so it never recurs); it is applied in one transaction that checks that version again
(``UPDATE ... WHERE version = seen``), so of two moves made on the same position only the first
counts and the other gets 409 with the fresh state. A move resubmitted with the same ``move_id``
is answered from what was stored, not played twice. Every stored change is announced to the live
streams (:mod:`grandstrategy.web.live`) from inside its transaction.
"""

from __future__ import annotations

import hashlib
import hmac
import io
import json
import secrets
import threading
from collections import OrderedDict
from collections.abc import Callable, Mapping
from dataclasses import asdict, dataclass, replace
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy import and_, delete, or_, select, text, update
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session
from sqlalchemy.orm.exc import StaleDataError

from grandstrategy.core.canonical import JSONObject, JSONValue, canonical_json
from grandstrategy.core.chance import ChanceEvent
from grandstrategy.core.committed import SECRET_BYTES, CommittedRng, commitment
from grandstrategy.core.errors import UserInputError
from grandstrategy.core.ids import Seat
from grandstrategy.core.log import ActionEntry, LogEntry
from grandstrategy.core.save import DICE_SCHEME, save_game
from grandstrategy.core.session import Match
from grandstrategy.core.view import HIDDEN
from grandstrategy.play.bots import bot_seed, make_bot
from grandstrategy.play.games import (
    Summary,
    as_cataclysm,
    decision_prompt,
    load_ruleset,
    option_chances,
    summary,
)
from grandstrategy.play.narrate import Narrator, Told, entries_after, grouped
from grandstrategy.play.seats import HUMAN, parse_kind
from grandstrategy.web.aamap import board_svg, territory_facts
from grandstrategy.web.live import Notifier, notifier_for
from grandstrategy.web.names import person_name
from grandstrategy.web.storage import ActionRow, ChanceRow, GameRow, SeatRow
from grandstrategy.web.territories import seen_state, territory_rows

MAX_NAME = 64
"""Longest rule set name, seat name, seat kind or move id accepted."""
MAX_OPTIONS_CHARS = 2000
"""Longest options object (as canonical JSON) accepted."""
MAX_ACTION_CHARS = 500
"""Longest action text accepted."""
MAX_SEATS = 32
"""Most seats a game may list."""
LOG_SHOWN = 40
"""Log entries sent with a state (the most recent ones)."""
LOCK_STRIPES = 64
"""Locks shared out among games by a hash of the game id."""
CACHED_MATCHES = 64
"""Games kept in memory between requests (others are rebuilt from the database)."""
SINCE_SHOWN = 200
"""Most moves told in "since you were last here" (the latest ones)."""
PRUNE_BATCH = 200
"""Games an expiry sweep reads at a time (it goes on until none is left to remove)."""
MAX_FACT_CHARS = 200
"""Longest public fact (title, turn, phase, result) kept for the listing."""


MOVED_ON = "the game moved on: look at the new position and choose again"


class _Raced(Exception):
    """Another process stored a move on the same position first."""


class _StaleRead(Exception):
    """The game's row and its log rows were read at different moments, with another process's
    commit in between (PostgreSQL's read committed: each statement sees the latest commit)."""


STALE_READ_RETRIES = 5
"""How often a replay re-reads a game whose rows changed under it before giving up."""


class WebError(Exception):
    """A request the server refuses: an HTTP status and one message for people."""

    def __init__(self, status: int, message: str, state: JSONObject | None = None) -> None:
        super().__init__(message)
        self.status = status
        self.message = message
        self.state = state


def _bad(message: str) -> WebError:
    return WebError(400, message)


def token_hash(token: str) -> str:
    """The SHA-256 of a seat token (all the database keeps of it)."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


@dataclass(frozen=True)
class Created:
    """A new game: its id, the dice commitment and each person's secret token (shown once)."""

    game_id: str
    commitment: str
    tokens: dict[str, str]
    seats: dict[str, str]
    names: dict[str, str]


@dataclass(frozen=True)
class Removed:
    """A game an expiry sweep removed (or, in a dry run, would remove)."""

    game_id: str
    ruleset: str
    last_move: str
    over: bool


@dataclass(frozen=True)
class _Seats:
    """A game's seats as stored: each seat's kind, and the names of the people who gave one."""

    kinds: dict[str, str]
    names: dict[str, str]


def utc_now() -> datetime:
    """The present moment in UTC (the service's clock unless a test hands it another)."""
    return datetime.now(UTC)


def stamp(moment: datetime) -> str:
    """``moment`` as stored: UTC ISO 8601 to the second, so stamps compare as strings."""
    return moment.astimezone(UTC).isoformat(timespec="seconds")


def seats_tag(names: Mapping[str, str]) -> str:
    """A short digest of a game's names: a live page refreshes when it differs from its own."""
    return hashlib.sha256(canonical_json(dict(names)).encode("utf-8")).hexdigest()[:12]


def _bounded(value: object, what: str, limit: int = MAX_NAME) -> str:
    if not isinstance(value, str) or not value.strip():
        raise _bad(f"{what} must be non-empty text")
    if len(value) > limit:
        raise _bad(f"{what} is longer than {limit} characters")
    return value.strip()


class GameService:
    """The server's games over one database engine (thread-safe: one lock per game).

    ``now`` is the clock stamped on every change and read by expiry (tests hand in their own).
    """

    def __init__(self, engine: Engine, *, now: Callable[[], datetime] = utc_now) -> None:
        self.engine = engine
        self.now = now
        self._matches: OrderedDict[str, Match] = OrderedDict()
        # Striped locks: a bounded set, so requests naming made-up games cannot grow it.
        self._locks = tuple(threading.Lock() for _ in range(LOCK_STRIPES))
        # The stored version each cached match stands for (a length can recur after an undo).
        self._versions: dict[str, int] = {}
        # Live updates: the open event streams of this process and how stored changes reach them.
        self.live: Notifier = notifier_for(engine)
        self._told: OrderedDict[str, _Told] = OrderedDict()
        # The page's map per (game, version): the same public picture for every viewer.
        self._svgs: OrderedDict[tuple[str, int], str] = OrderedDict()
        self._svgs_lock = threading.Lock()

    # ---- creating ---------------------------------------------------------------------------------

    def create(self, ruleset_name: object, options: object, seats: object, names: object = None) -> Created:
        """Create a game; ``seats`` maps seat names to kinds (``human``, ``bot:heuristic``,
        ``bot:random``), every seat not named is a heuristic bot, and at least one is a person;
        ``names`` may map a person's seat to the display name of who plays it (see
        :func:`~grandstrategy.web.names.person_name`). Bots then play until a person must decide.

        :raises WebError: 400 for an unknown rule set, bad options, bad seats or bad names.
        """
        name = _bounded(ruleset_name, "ruleset")
        if options is None:
            options = {}
        if not isinstance(options, dict):
            raise _bad("options must be an object")
        try:
            if len(canonical_json(options)) > MAX_OPTIONS_CHARS:
                raise _bad(f"options are longer than {MAX_OPTIONS_CHARS} characters")
        except (TypeError, ValueError):
            raise _bad("options must be plain JSON data") from None
        if not isinstance(seats, dict) or not seats:
            raise _bad('seats must be an object naming at least one seat, e.g. {"north": "human"}')
        if len(seats) > MAX_SEATS:
            raise _bad(f"at most {MAX_SEATS} seats")
        secret = secrets.token_bytes(SECRET_BYTES)
        seed = secrets.randbelow(2**64)
        try:
            ruleset = load_ruleset(name)
            match = Match(ruleset, seed=seed, options=options, rng=CommittedRng(secret))
        except UserInputError as error:
            raise _bad(str(error)) from None
        known = match.state.seats()
        kinds: dict[str, str] = {seat: "bot:heuristic" for seat in known}
        for seat, kind in seats.items():
            seat_name = _bounded(seat, "a seat name")
            if seat_name not in known:
                raise _bad(f"unknown seat {seat_name!r} (seats: {', '.join(known)})")
            try:
                kinds[seat_name] = parse_kind(_bounded(kind, f"the kind of seat {seat_name}"))
            except UserInputError as error:
                raise _bad(str(error)) from None
        if HUMAN not in kinds.values():
            raise _bad("at least one seat must be played by a person (kind 'human')")
        given = _check_names(names, kinds)
        tokens = {seat: secrets.token_urlsafe(24) for seat, kind in kinds.items() if kind == HUMAN}
        game_id = secrets.token_urlsafe(9)
        self._run_bots(match, kinds, int(seed))
        now = stamp(self.now())
        with Session(self.engine) as session, session.begin():
            session.add(
                GameRow(
                    id=game_id,
                    ruleset=ruleset.name,
                    options=canonical_json(match.options),
                    seed=str(seed),
                    secret=secret.hex(),
                    commitment=commitment(secret),
                    log_length=len(match.log),
                    version=len(match.log),
                    over=match.is_terminal(),
                    created=now,
                    last_move=now,
                    facts=public_facts(match),
                )
            )
            session.flush()
            for seat, kind in kinds.items():
                hashed = token_hash(tokens[seat]) if seat in tokens else None
                session.add(
                    SeatRow(game_id=game_id, seat=seat, kind=kind, token_hash=hashed, name=given.get(seat))
                )
            session.flush()
            _store_entries(session, game_id, match.log, 0, None)
        self._remember(game_id, match, len(match.log))
        return Created(game_id, commitment(secret), tokens, kinds, given)

    # ---- reading ----------------------------------------------------------------------------------

    def _game(self, session: Session, game_id: str) -> GameRow:
        row = session.get(GameRow, game_id) if len(game_id) <= MAX_NAME else None
        if row is None:
            raise WebError(404, f"no game {game_id!r} on this server")
        return row

    def authorise(self, session: Session, game_id: str, seat: str, token: str | None) -> SeatRow:
        """The seat row, if ``token`` is that seat's token.

        :raises WebError: 404 unknown seat; 403 a bot's seat, no token or another seat's token.
        """
        row = session.get(SeatRow, (game_id, seat)) if len(seat) <= MAX_NAME else None
        if row is None:
            raise WebError(404, f"no seat {seat!r} in game {game_id!r}")
        if row.token_hash is None:
            raise WebError(403, f"seat {seat} is played by a bot on the server")
        if not token or len(token) > 200 or not hmac.compare_digest(token_hash(token), row.token_hash):
            raise WebError(403, f"this link's token is not the token of seat {seat}")
        return row

    def _match(self, session: Session, game: GameRow) -> Match:
        """The game's match as stored: from memory when up to date, else replayed from the log."""
        cached = self._matches.get(game.id)
        if cached is not None and self._versions.get(game.id) == game.version:
            self._matches.move_to_end(game.id)
            return cached
        for _ in range(STALE_READ_RETRIES):
            try:
                match = _rebuild(session, game)
                break
            except _StaleRead:
                session.refresh(game)  # the row as now committed, then its log again
        else:
            raise RuntimeError(f"game {game.id}: its log kept changing while being read")
        self._remember(game.id, match, game.version)
        return match

    def _remember(self, game_id: str, match: Match, version: int) -> None:
        self._matches[game_id] = match
        self._versions[game_id] = version
        self._matches.move_to_end(game_id)
        while len(self._matches) > CACHED_MATCHES:
            forgotten, _ = self._matches.popitem(last=False)
            self._versions.pop(forgotten, None)

    def _lock(self, game_id: str) -> threading.Lock:
        """The lock that serialises this process's requests on ``game_id`` (one writer per game)."""
        digest = hashlib.sha256(game_id.encode("utf-8", "replace")).digest()
        return self._locks[digest[0] % LOCK_STRIPES]

    def state(
        self, game_id: str, seat: str | None, token: str | None = None, *, page: bool = False
    ) -> JSONObject:
        """What ``seat`` (``None``: a spectator) sees of the game now; with ``page``, also what
        only the HTML page shows (``page``: the inline map and the position panel).

        :raises WebError: 404 no such game or seat; 403 wrong token.
        """
        payload = self._state(game_id, seat, token, page)
        if _bot_due(payload) and self.play_due_bots(game_id):
            payload = self._state(game_id, seat, token, page)
        return payload

    def _state(self, game_id: str, seat: str | None, token: str | None, page: bool = False) -> JSONObject:
        """The body of :meth:`state`: the stored position as ``seat`` sees it."""
        with self._lock(game_id), Session(self.engine) as session:
            game = self._game(session, game_id)
            if seat is not None:
                self.authorise(session, game_id, seat, token)
            match = self._match(session, game)
            payload = _payload(game, match, seat, self._seats(session, game_id))
            if page:
                payload["page"] = self._page_parts(game, match, seat)
            return payload

    def _page_parts(self, game: GameRow, match: Match, seat: str | None) -> JSONObject:
        """The page's own parts for ``seat`` (``None``: a spectator): the map as inline SVG (public,
        kept per game version since every viewer gets the same) and the position panel; for the Axis
        & Allies rule sets, the schematic board (:func:`~grandstrategy.web.aamap.board_svg`) and the
        list of territories, both from the seat's own view."""
        key = (game.id, game.version)
        with self._svgs_lock:
            svg = self._svgs.get(key)
        if svg is None and as_cataclysm(match.state) is not None:
            from grandstrategy.play.session import render_position

            drawn = render_position(match)
            svg = drawn[drawn.index("<svg") :]  # no XML declaration inside HTML
            with self._svgs_lock:
                self._svgs[key] = svg
                while len(self._svgs) > CACHED_MATCHES:
                    self._svgs.popitem(last=False)
        territories = None
        if svg is None:  # A&A: the list and the board from this seat's own view, never shared
            seen = seen_state(match, seat)
            territories = territory_rows(match, seat, seen)
            svg = board_svg(match, seat, seen)
        return {"map_svg": svg, "panel": position_panel(match, seat), "territories": territories}

    def area(self, game_id: str, name: str, seat: str | None, token: str | None) -> JSONObject:
        """One area's facts, the terminal's ``area NAME`` (``AreaView``), as ``seat`` (``None``: a
        spectator) may see them: all of an area is open to every player in Cataclysm (LR 1.4), so
        the answer is the same for each viewer, but a seat's token is checked as for its view. For
        the Axis & Allies rule sets, one territory or sea zone (:func:`~.aamap.territory_facts`),
        read from the seat's own view.

        :raises WebError: 400 a name too long; 404 no such game, seat or area (the message suggests
            close names), or a rule set without areas; 403 wrong token.
        """
        if len(name) > MAX_NAME:
            raise _bad(f"the area name is longer than {MAX_NAME} characters")
        with self._lock(game_id), Session(self.engine) as session:
            game = self._game(session, game_id)
            if seat is not None:
                self.authorise(session, game_id, seat, token)
            match = self._match(session, game)
            cataclysm = as_cataclysm(match.state)
            if cataclysm is None:
                facts = territory_facts(match, seat, name)
                if facts is None:
                    raise WebError(404, _no_place(match, game.ruleset, name))
                return {"game_id": game.id, "version": game.version, "area": facts, "kind": "territory"}
            from grandstrategy.cataclysm.position import area_view

            try:
                view = area_view(cataclysm, name)
            except UserInputError as error:
                raise WebError(404, str(error)) from None
            return {"game_id": game.id, "version": game.version, "area": view.to_json()}

    def version(self, game_id: str) -> JSONObject:
        """The game's version, log length, whether it is over, and a digest of its people's names
        (cheap: what live streams send; a page refreshes when the version or the names change)."""
        with Session(self.engine) as session:
            game = self._game(session, game_id)
            names = self._seats(session, game_id).names
            return {
                "game_id": game.id,
                "version": game.version,
                "log_length": game.log_length,
                "over": game.over,
                "seats_tag": seats_tag(names),
            }

    def watch_check(self, game_id: str, seat: str | None, token: str | None) -> JSONObject:
        """:meth:`version`, after the same checks as the views (a seat needs its token).

        :raises WebError: 404 no such game or seat; 403 wrong token.
        """
        with Session(self.engine) as session:
            self._game(session, game_id)
            if seat is not None:
                self.authorise(session, game_id, seat, token)
        return self.version(game_id)

    def _seats(self, session: Session, game_id: str) -> _Seats:
        """The game's seats: kinds, and the names given (never the token hashes)."""
        rows = session.execute(
            select(SeatRow.seat, SeatRow.kind, SeatRow.name).where(SeatRow.game_id == game_id)
        ).all()
        return _Seats({seat: kind for seat, kind, _ in rows}, {seat: name for seat, _, name in rows if name})

    # ---- names -------------------------------------------------------------------------------------

    def rename(self, game_id: str, seat: str, token: str | None, name: object) -> JSONObject:
        """Set (or, with a blank name, clear) the display name of ``seat``'s person: only that
        seat's token may. The game's live pages learn of it (the names' digest changes); the
        game's version does not, so a move chosen meanwhile still counts.

        :raises WebError: 400 a bad name (nothing changes); 403 wrong token; 404 no such game or seat.
        """
        try:
            return self._rename(game_id, seat, token, name)
        except StaleDataError:  # the seat's row went with its game (expired) before the write
            raise WebError(404, f"no game {game_id!r} on this server") from None

    def _rename(self, game_id: str, seat: str, token: str | None, name: object) -> JSONObject:
        """The body of :meth:`rename`."""
        with self._lock(game_id), Session(self.engine) as session, session.begin():
            hold_game_lock(session, game_id)  # not while an expiry sweep removes the game
            self._game(session, game_id)
            row = self.authorise(session, game_id, seat, token)
            try:
                row.name = person_name(name, seat)
            except UserInputError as error:
                raise _bad(str(error)) from None
            self.live.announce(session, game_id)
            session.flush()
            names = self._seats(session, game_id).names
        return {
            "game_id": game_id,
            "seat": seat,
            "name": names.get(seat),
            "names": dict(names),
            "seats_tag": seats_tag(names),
        }

    # ---- expiry ------------------------------------------------------------------------------------

    def prune(self, older_than_days: int, *, dry_run: bool = False) -> list[Removed]:
        """Remove every game that has not changed for more than ``older_than_days`` days: finished
        games that long after their end (their last move) and unfinished ones left idle that long.
        With ``dry_run``, only list them.

        Each game is removed under the lock its moves take (this process's lock and, on
        PostgreSQL, the game's advisory lock) in one transaction that first claims the game row
        on the condition that it is still that old, so a move stored meanwhile keeps the game,
        and a move arriving after finds no game (404). Open live pages are told it is gone.

        :raises ValueError: ``older_than_days`` below 1.
        """
        if older_than_days < 1:
            raise ValueError("older_than_days must be at least 1")
        cutoff = stamp(self.now() - timedelta(days=older_than_days))
        removed: list[Removed] = []
        after: tuple[str, str] | None = None
        while True:
            query = select(GameRow.id, GameRow.ruleset, GameRow.last_move, GameRow.over).where(
                GameRow.last_move < cutoff
            )
            if after is not None:
                query = query.where(
                    or_(
                        GameRow.last_move > after[0],
                        and_(GameRow.last_move == after[0], GameRow.id > after[1]),
                    )
                )
            with Session(self.engine) as session:
                rows = session.execute(query.order_by(GameRow.last_move, GameRow.id).limit(PRUNE_BATCH)).all()
            for game_id, ruleset, last_move, over in rows:
                if dry_run or self._remove(game_id, cutoff):
                    removed.append(Removed(game_id, ruleset, last_move, bool(over)))
            if len(rows) < PRUNE_BATCH:
                return removed
            after = (rows[-1][2], rows[-1][0])

    def _remove(self, game_id: str, cutoff: str) -> bool:
        """Delete the game and its rows if it has still not changed since ``cutoff``."""
        with self._lock(game_id):
            with Session(self.engine) as session, session.begin():
                hold_game_lock(session, game_id)
                # The claim is the transaction's first write: on SQLite it takes the database's
                # write lock, on PostgreSQL the row's, so no move lands between it and the deletes.
                claimed = session.execute(
                    update(GameRow)
                    .where(GameRow.id == game_id, GameRow.last_move < cutoff)
                    .values(version=GameRow.version)
                )
                if getattr(claimed, "rowcount", 0) != 1:
                    return False
                for table in (ChanceRow, ActionRow, SeatRow):
                    session.execute(delete(table).where(table.game_id == game_id))
                session.execute(delete(GameRow).where(GameRow.id == game_id))
                self.live.announce(session, game_id)
            self._forget(game_id)
            return True

    def _forget(self, game_id: str) -> None:
        """Drop everything this process keeps in memory about a removed game."""
        self._matches.pop(game_id, None)
        self._versions.pop(game_id, None)
        self._told.pop(game_id, None)
        with self._svgs_lock:
            for key in [key for key in self._svgs if key[0] == game_id]:
                del self._svgs[key]

    # ---- moving -----------------------------------------------------------------------------------

    def move(
        self, game_id: str, seat: str, token: str | None, seen: object, action: object, move_id: object
    ) -> JSONObject:
        """Play ``action`` for ``seat`` on the position of log length ``seen``, then the bots.

        :raises WebError: 400 bad input or an illegal move (state unchanged); 403 wrong token;
            404 unknown game or seat; 409 the game moved on (``state`` holds the fresh one).
        """
        seen_version = _check_seen(seen)
        text = _bounded(action, "action", MAX_ACTION_CHARS)
        mid = None if move_id is None else _bounded(move_id, "move_id")
        return self._write(
            game_id, seat, lambda session: self._move(session, game_id, seat, token, seen_version, text, mid)
        )

    def _write(self, game_id: str, seat: str, change: Callable[[Session], JSONObject]) -> JSONObject:
        """Run ``change`` in one transaction on the game, one request of this process at a time.

        When another server process wrote the game first, nothing of ``change`` is kept and the
        seat gets 409 with the fresh position; on any error the cached match is dropped (it may
        hold a half-applied change), so the next request replays the stored game.
        """
        with self._lock(game_id):
            try:
                with Session(self.engine) as session, session.begin():
                    return change(session)
            except (_Raced, IntegrityError):
                self._matches.pop(game_id, None)
                with Session(self.engine) as session:
                    game = self._game(session, game_id)
                    fresh = _payload(game, self._match(session, game), seat, self._seats(session, game_id))
                raise WebError(409, MOVED_ON, fresh) from None
            except BaseException:
                self._matches.pop(game_id, None)
                raise

    def _move(
        self,
        session: Session,
        game_id: str,
        seat: str,
        token: str | None,
        seen: int,
        text: str,
        mid: str | None,
    ) -> JSONObject:
        """The body of :meth:`move`, inside its transaction."""
        hold_game_lock(session, game_id)
        game = self._game(session, game_id)
        self.authorise(session, game_id, seat, token)
        seats = self._seats(session, game_id)
        kinds = seats.kinds
        if mid is not None:
            done = session.scalars(
                select(ActionRow).where(ActionRow.game_id == game_id, ActionRow.move_id == mid)
            ).first()
            if done is not None:
                if done.seat != seat:
                    raise WebError(409, f"move id {mid!r} was used by another seat")
                state = _payload(game, self._match(session, game), seat, seats)
                state["repeated"] = True
                return state
        match = self._match(session, game)
        if seen != game.version:
            raise WebError(409, MOVED_ON, _payload(game, match, seat, seats))
        before = len(match.log)
        mark = match.checkpoint()
        try:
            match.play(seat, text)
            self._run_bots(match, kinds, int(game.seed))
        except UserInputError as error:
            match.rollback(mark)
            raise _bad(str(error)) from None
        self._commit_entries(session, game, match, before, mid)
        session.flush()
        session.refresh(game)
        return _payload(game, match, seat, seats)

    def _commit_entries(
        self, session: Session, game: GameRow, match: Match, before: int, mid: str | None
    ) -> None:
        """Store the log entries from index ``before`` on, claiming the game's next version on the
        version it was read at (``UPDATE ... WHERE version = seen``: of two writers on one
        position only the first commits), and wake the game's live streams once committed.

        :raises _Raced: another writer stored a change first.
        """
        version = game.version + len(match.log) - before  # equal to the length until an undo
        claimed = session.execute(
            update(GameRow)
            .where(GameRow.id == game.id, GameRow.version == game.version)
            .values(
                log_length=len(match.log),
                over=match.is_terminal(),
                version=version,
                last_move=stamp(self.now()),
                facts=public_facts(match),
            )
        )
        if getattr(claimed, "rowcount", 0) != 1:
            raise _Raced()
        _store_entries(session, game.id, match.log, before, mid)
        self.live.announce(session, game.id)
        self._versions[game.id] = version

    @staticmethod
    def _run_bots(match: Match, kinds: Mapping[str, str], seed: int) -> None:
        """Let the bots move until a person must decide or the game ends (deterministic: each
        bot's choice depends on the game's bots seed, its seat and the log length)."""
        while True:
            decision = match.decision()
            if decision is None or kinds.get(decision.seat) == HUMAN:
                return
            bot = make_bot(kinds[decision.seat], bot_seed(seed, decision.seat))
            match.play(decision.seat, bot.choose(match.state, decision, ply=len(match.log)))

    def play_due_bots(self, game_id: str) -> bool:
        """Let the bots play if the stored game waits on a bot (a safety net: bots normally play in
        the transaction of the move that made it their turn). Any process may notice it; exactly
        one plays: on PostgreSQL the one that wins the game's advisory lock (the others return at
        once), on SQLite the one whose ``UPDATE ... WHERE version = seen`` commits first (SQLite
        lets one writer at a time). The bots' choices depend only on the bots seed, the seat and the
        log length, so a loser's discarded work is identical to the winner's: nothing duplicates.

        :returns: whether this call stored bot moves.
        """
        with self._lock(game_id):
            try:
                with Session(self.engine) as session, session.begin():
                    if not try_game_lock(session, game_id):
                        return False
                    game = self._game(session, game_id)
                    match = self._match(session, game)
                    kinds = self._seats(session, game_id).kinds
                    decision = match.decision()
                    if decision is None or kinds.get(decision.seat) == HUMAN:
                        return False
                    before = len(match.log)
                    mark = match.checkpoint()
                    try:
                        self._run_bots(match, kinds, int(game.seed))
                    except BaseException:
                        match.rollback(mark)
                        raise
                    self._commit_entries(session, game, match, before, None)
                    return True
            except (_Raced, IntegrityError):
                self._matches.pop(game_id, None)
                return False
            except BaseException:
                self._matches.pop(game_id, None)
                raise

    def map_svg(self, game_id: str) -> str:
        """The board as SVG (public: the map, units and control cubes; for A&A the spectator's
        schematic board).

        :raises WebError: 404 no such game, or a rule set that draws no map.
        """
        from grandstrategy.play.session import render_position

        with self._lock(game_id), Session(self.engine) as session:
            match = self._match(session, self._game(session, game_id))
            board = None if as_cataclysm(match.state) is not None else board_svg(match, None)
            if board is not None:
                return '<?xml version="1.0" encoding="UTF-8"?>\n' + board
            try:
                return render_position(match)
            except UserInputError as error:
                raise WebError(404, str(error)) from None

    def rules_context(self, game_id: str) -> str | None:
        """The open decision's prompt, used only to rank the rules assistant's answers for a
        question asked beside this game (never sent to the client); None when nobody decides.

        :raises WebError: 404 no such game.
        """
        with self._lock(game_id), Session(self.engine) as session:
            match = self._match(session, self._game(session, game_id))
            return None if match.decision() is None else decision_prompt(match.state)

    # ---- export -----------------------------------------------------------------------------------

    def export(self, game_id: str) -> str:
        """The game as a save file (``grandstrategy replay --verify`` reads it): the dice
        commitment always, the secret only once the game is over, and never the bots' seed
        before then (0 stands in for it); before then too, a secret answer or a private draw
        reads ``?`` and the state hash is withheld when the log holds one."""
        with self._lock(game_id), Session(self.engine) as session:
            game = self._game(session, game_id)
            match = self._match(session, game)
            dice: JSONObject = {"scheme": DICE_SCHEME, "commitment": game.commitment}
            save = save_game(match)
            if game.over:
                dice["secret"] = game.secret
                return replace(save, dice=dice).dumps()
            if any(_private(entry) for entry in save.log):
                # Secret answers and private draws read "?" until the end, and the state hash
                # (which a guess at them could be checked against) is withheld.
                log = tuple(_masked(entry) for entry in save.log)
                save = replace(save, log=log, state_hash=HIDDEN)
            return replace(save, dice=dice, seed=0).dumps()

    # ---- undo ---------------------------------------------------------------------------------------

    def undo(self, game_id: str, seat: str, token: str | None, seen: object) -> JSONObject:
        """Take back ``seat``'s last choice, with the bot moves after it, on the position of
        version ``seen`` (see :func:`undo_point` for when that is allowed).

        :raises WebError: 400 undo not allowed now (nothing changes); 403 wrong token; 404 unknown
            game or seat; 409 the game moved on (``state`` holds the fresh one).
        """
        seen_version = _check_seen(seen)
        return self._write(
            game_id, seat, lambda session: self._undo(session, game_id, seat, token, seen_version)
        )

    def _undo(self, session: Session, game_id: str, seat: str, token: str | None, seen: int) -> JSONObject:
        """The body of :meth:`undo`, inside its transaction."""
        game = self._game(session, game_id)
        self.authorise(session, game_id, seat, token)
        seats = self._seats(session, game_id)
        kinds = seats.kinds
        match = self._match(session, game)
        if seen != game.version:
            raise WebError(409, MOVED_ON, _payload(game, match, seat, seats))
        index = undo_point(match.log, seat, kinds, match.is_terminal())
        entry = match.log[index]
        assert isinstance(entry, ActionEntry)
        earlier = _replay_prefix(game, match, index)
        version = game.version + 1  # a new version: the same length may come back with another position
        claimed = session.execute(
            update(GameRow)
            .where(GameRow.id == game_id, GameRow.version == game.version)
            .values(
                log_length=index,
                over=False,
                version=version,
                last_move=stamp(self.now()),
                facts=public_facts(earlier),
            )
        )
        if getattr(claimed, "rowcount", 0) != 1:
            raise _Raced()
        session.execute(delete(ActionRow).where(ActionRow.game_id == game_id, ActionRow.idx >= index))
        session.execute(delete(ChanceRow).where(ChanceRow.game_id == game_id, ChanceRow.idx >= index))
        session.execute(
            update(SeatRow)
            .where(SeatRow.game_id == game_id, SeatRow.last_seen > index)
            .values(last_seen=index)
        )
        self.live.announce(session, game_id)
        session.flush()
        session.refresh(game)
        self._remember(game_id, earlier, version)
        state = _payload(game, earlier, seat, seats)
        state["undone"] = entry.action
        return state

    # ---- a person's look at the game --------------------------------------------------------------

    def look(
        self, game_id: str, seat: str, token: str | None, *, narrate: bool = False, page: bool = False
    ) -> JSONObject:
        """What ``seat`` sees now (as :meth:`state`), remembering that its person has seen it.

        ``last_seen`` in the answer is the log length the seat had seen before this look; with
        ``narrate``, ``since`` tells the moves after it in sentences (the terminal's narration),
        at most :data:`SINCE_SHOWN` of them, for the page's "since you were last here"; with
        ``page``, the page's own parts (see :meth:`state`).

        :raises WebError: 404 no such game or seat (also one removed by another process while
            being looked at); 403 wrong token.
        """
        try:
            return self._look(game_id, seat, token, narrate, page)
        except StaleDataError:  # the seat's row went with its game (expired) before the write
            raise WebError(404, f"no game {game_id!r} on this server") from None

    def _look(self, game_id: str, seat: str, token: str | None, narrate: bool, page: bool) -> JSONObject:
        """The body of :meth:`look`."""
        with self._lock(game_id), Session(self.engine) as session, session.begin():
            game = self._game(session, game_id)
            row = self.authorise(session, game_id, seat, token)
            match = self._match(session, game)
            state = _payload(game, match, seat, self._seats(session, game_id))
            before = min(row.last_seen, len(match.log))
            state["last_seen"] = before
            if narrate:
                state["since"] = self._since(game, match, seat, before)
            if page:
                state["page"] = self._page_parts(game, match, seat)
            if row.last_seen != len(match.log):
                row.last_seen = len(match.log)
            return state

    def _since(self, game: GameRow, match: Match, seat: str, start: int) -> list[JSONValue]:
        """The moves from log index ``start`` on, told for ``seat``: one sentence per move with its
        consequences, and the chance entries as the seat may see them where the rule set tells none."""
        log = match.log
        if start >= len(log):
            return []
        told = self._told.get(game.id)
        if told is None or told.shadow.log != log[: len(told.shadow.log)]:
            told = _Told(_fresh(game))
        self._told[game.id] = told
        self._told.move_to_end(game.id)
        while len(self._told) > CACHED_MATCHES:
            self._told.popitem(last=False)
        told.extend(log)
        visible = match.log_view(Seat(seat))
        moves: list[JSONValue] = []
        first = next((i for i, entry in enumerate(log) if isinstance(entry, ActionEntry)), len(log))
        if start == 0 and first > 0 and not any(index == -1 for index, _ in told.moves):
            # What chance decided before the first choice (who goes first ...), where no opening is told.
            opening = [f"{e['label']}: {e['outcome']}" for e in visible[:first] if e.get("type") == "chance"]
            if opening:
                moves.append({"index": -1, "seat": "", "lines": opening})
        shown = [
            (index, move) for index, move in told.moves if index >= start or (index == -1 and start == 0)
        ]
        for index, move in grouped(shown):  # an A&A power's purchases in one phase as one move
            lines = move.seen_by(seat).lines()  # another seat's secret answer without its choice
            if not move.events:
                end = next((i for i, _ in told.moves if i > index), len(log))
                lines += [
                    f"  {entry['label']}: {entry['outcome']}"
                    for entry in visible[index + 1 : end]
                    if entry.get("type") == "chance"
                ]
            moves.append({"index": index, "seat": move.seat, "lines": list(lines)})
        return moves[-SINCE_SHOWN:]


def _check_names(names: object, kinds: Mapping[str, str]) -> dict[str, str]:
    """The display names given at creation, checked: only people's seats, each name valid;
    blank names are left out.

    :raises WebError: 400 naming what is wrong.
    """
    if names is None:
        return {}
    if not isinstance(names, dict):
        raise _bad('names must be an object giving a person\'s seat its name, e.g. {"germany": "Anna"}')
    if len(names) > MAX_SEATS:
        raise _bad(f"at most {MAX_SEATS} names")
    given: dict[str, str] = {}
    for seat, value in names.items():
        seat_name = _bounded(seat, "a seat name")
        if seat_name not in kinds:
            raise _bad(f"a name for unknown seat {seat_name!r} (seats: {', '.join(kinds)})")
        if kinds[seat_name] != HUMAN:
            raise _bad(f"seat {seat_name} is played by a bot: only a person's seat takes a name")
        try:
            name = person_name(value, seat_name)
        except UserInputError as error:
            raise _bad(str(error)) from None
        if name:
            given[seat_name] = name
    return given


def _no_place(match: Match, ruleset: str, name: str) -> str:
    """Why no place's facts are shown: a rule set without places, or no place of that name
    (with the closest names)."""
    module: Any = getattr(match.state, "module", None)
    places: dict[str, Any] = dict(getattr(module, "territories", None) or {})
    if not places:
        return f"rule set {ruleset!r} has no map areas to show"
    import difflib

    names = [*places, *(place.name for place in places.values())]
    close = difflib.get_close_matches(name, names, n=3, cutoff=0.6)
    hint = f" (did you mean {', '.join(close)}?)" if close else ""
    return f"no territory or sea zone {name!r}{hint}"


def public_facts(match: Match) -> str:
    """What the listing shows of a game's progress, as canonical JSON: its title, turn and phase
    (A&A's turn is a round) and its result once over; all public (the spectator's summary)."""
    facts = summary(match.state, events=0)
    turn, phase = facts.turn, facts.phase
    if as_cataclysm(match.state) is not None:
        turn, phase = turn and f"Turn {turn}", phase and f"phase {phase}"
    else:
        turn, phase = turn and f"Round {turn}", phase and f"Now: {phase}"
    data = {"title": facts.title, "turn": turn, "phase": phase, "result": facts.result or ""}
    return canonical_json({key: value[:MAX_FACT_CHARS] for key, value in data.items()})


def _private(entry: LogEntry) -> bool:
    """Whether only one seat may see the entry: a secret answer or a private draw."""
    return entry.private if isinstance(entry, ActionEntry) else entry.private_to is not None


def _masked(entry: LogEntry) -> LogEntry:
    """The entry as an export before the end holds it: a private one's content is ``?``."""
    if not _private(entry):
        return entry
    if isinstance(entry, ActionEntry):
        return replace(entry, action=HIDDEN)
    return replace(entry, outcome=HIDDEN)


def _check_seen(seen: object) -> int:
    """``seen`` as a version a client could have been given (a whole number, not negative).

    :raises WebError: 400 otherwise.
    """
    if isinstance(seen, bool) or not isinstance(seen, int) or seen < 0:
        raise _bad("seen must be the game's version the move was chosen on (a whole number)")
    return seen


def undo_point(log: tuple[LogEntry, ...], seat: str, kinds: Mapping[str, str], over: bool) -> int:
    """The log index of ``seat``'s last choice, if it may be taken back now.

    As in the terminal (``play/session.py``), undo stops at new information: not past a chance
    event (a die, a draw). On the server it also stops at another person's choice, since that
    person decided on the position the undo would take away; bots' moves after the choice are
    taken back with it (they follow from the position). A finished game has revealed its dice
    secret, so nothing in it is taken back.

    :raises WebError: 400 with the reason when the undo is not allowed.
    """
    if over:
        raise _bad("the game is over: nothing can be taken back")
    mine = [i for i, entry in enumerate(log) if isinstance(entry, ActionEntry) and entry.seat == seat]
    if not mine:
        raise _bad(f"nothing to undo: {seat} has made no choice yet")
    index = mine[-1]
    entry = log[index]
    assert isinstance(entry, ActionEntry)
    what = entry.action.partition(": ")[2] or entry.action
    for later in log[index + 1 :]:
        if isinstance(later, ChanceEvent):
            raise _bad(
                f"cannot undo {what!r}: chance has spoken since ({later.label}); undo stops at dice and draws"
            )
        if isinstance(later, ActionEntry) and kinds.get(later.seat) == HUMAN:
            raise _bad(f"cannot undo {what!r}: {later.seat} has chosen since")
    return index


def undo_offer(log: tuple[LogEntry, ...], seat: str, kinds: Mapping[str, str], over: bool) -> JSONValue:
    """What an undo would take back for ``seat`` now (the ``action``'s notation, its ``label``
    without the seat, and the ``bot_moves`` after it), or ``None`` when it is not allowed (the
    page shows the undo button only then)."""
    try:
        index = undo_point(log, seat, kinds, over)
    except WebError:
        return None
    entry = log[index]
    assert isinstance(entry, ActionEntry)
    bots = sum(1 for later in log[index + 1 :] if isinstance(later, ActionEntry))
    label = entry.action.partition(": ")[2] or entry.action
    return {"action": entry.action, "label": label, "bot_moves": bots}


def _fresh(game: GameRow) -> Match:
    """A new match of the stored game, before any action (with its committed dice)."""
    options: Any = json.loads(game.options)
    return Match(
        load_ruleset(game.ruleset),
        seed=int(game.seed),
        options=options,
        rng=CommittedRng(bytes.fromhex(game.secret)),
    )


def _replay_prefix(game: GameRow, match: Match, index: int) -> Match:
    """The game replayed up to (not including) log entry ``index``, checked against ``match``."""
    earlier = _fresh(game)
    wanted = match.log[:index]
    for entry in wanted:
        if isinstance(entry, ActionEntry):
            earlier.play(entry.seat, entry.action)
    if earlier.log != wanted:
        raise RuntimeError(f"game {game.id}: replaying {index} log entries did not reproduce them")
    return earlier


class _Told:
    """A game's moves told so far (cached per game): a shadow match replayed alongside the log.

    ``moves`` pairs each told move with the log index of its action (-1 for what the engine
    logged before the first decision).
    """

    def __init__(self, shadow: Match) -> None:
        self.shadow = shadow
        self.narrator = Narrator(lambda _seat: True)
        self.moves: list[tuple[int, Told]] = []
        opening = self.narrator.opening(shadow.state)
        if opening is not None:
            self.moves.append((-1, opening))

    def extend(self, log: tuple[LogEntry, ...]) -> None:
        """Tell the actions of ``log`` past the shadow's log (``log`` continues the shadow's)."""
        for index in range(len(self.shadow.log), len(log)):
            entry = log[index]
            if isinstance(entry, ActionEntry) and index >= len(self.shadow.log):
                before = self.shadow.state.clone()  # the match plays in place
                self.shadow.play(entry.seat, entry.action)
                chances = entries_after(self.shadow, index)  # the dice the action led to
                told = self.narrator.tell(before, self.shadow.state, entry.seat, entry.action, chances)
                self.moves.append((index, told))


def _bot_due(payload: JSONObject) -> bool:
    """Whether a state waits on a bot's seat."""
    seat, kinds = payload.get("to_act"), payload.get("seats")
    return isinstance(seat, str) and isinstance(kinds, dict) and kinds.get(seat) not in (None, HUMAN)


def _lock_key(game_id: str) -> int:
    """The game's advisory lock key: 64 bits of the SHA-256 of its id, as PostgreSQL's signed bigint."""
    return int.from_bytes(hashlib.sha256(game_id.encode("utf-8", "replace")).digest()[:8], "big", signed=True)


def hold_game_lock(session: Session, game_id: str) -> None:
    """On PostgreSQL, wait for the game's transaction-scoped advisory lock, so that of all the
    server processes only one at a time writes this game (its move and the bots' moves after it);
    the lock ends with the transaction. Elsewhere a no-op: SQLite lets one writer at a time, and the
    ``UPDATE ... WHERE version = seen`` check turns the later of two writes into a 409."""
    if session.get_bind().dialect.name == "postgresql":
        session.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": _lock_key(game_id)})


def try_game_lock(session: Session, game_id: str) -> bool:
    """Like :func:`hold_game_lock` without waiting: False when another process holds the lock
    (it is already writing this game). Always True off PostgreSQL."""
    if session.get_bind().dialect.name != "postgresql":
        return True
    got = session.execute(text("SELECT pg_try_advisory_xact_lock(:key)"), {"key": _lock_key(game_id)})
    return bool(got.scalar())


def _store_entries(
    session: Session, game_id: str, log: tuple[LogEntry, ...], start: int, move_id: str | None
) -> None:
    """Insert log entries ``start:`` (the first action carries the client's move id)."""
    first = True
    for idx in range(start, len(log)):
        entry = log[idx]
        if isinstance(entry, ActionEntry):
            session.add(
                ActionRow(
                    game_id=game_id,
                    idx=idx,
                    seat=entry.seat,
                    action=entry.action,
                    move_id=move_id if first else None,
                )
            )
            first = False
        elif isinstance(entry, ChanceEvent):
            session.add(
                ChanceRow(
                    game_id=game_id,
                    idx=idx,
                    seq=entry.seq,
                    kind=entry.kind,
                    label=entry.label,
                    outcome=entry.outcome,
                    private_to=entry.private_to,
                )
            )


def _rebuild(session: Session, game: GameRow) -> Match:
    """Replay a stored game from its secret and actions, checking every stored chance outcome."""
    options: Any = json.loads(game.options)
    match = Match(
        load_ruleset(game.ruleset),
        seed=int(game.seed),
        options=options,
        rng=CommittedRng(bytes.fromhex(game.secret)),
    )
    # Only the rows of the log the game row stands for: another process may have committed more
    # (or, by an undo, fewer) since the row was read.
    actions = session.scalars(
        select(ActionRow)
        .where(ActionRow.game_id == game.id, ActionRow.idx < game.log_length)
        .order_by(ActionRow.idx)
    ).all()
    for row in actions:
        match.play(Seat(row.seat), row.action)
    chances = session.scalars(
        select(ChanceRow).where(ChanceRow.game_id == game.id, ChanceRow.idx < game.log_length)
    ).all()
    log = match.log
    if len(log) != game.log_length:
        raise _StaleRead()
    for chance in chances:
        entry = log[chance.idx] if chance.idx < len(log) else None
        if not isinstance(entry, ChanceEvent) or entry.outcome != chance.outcome:
            raise RuntimeError(f"game {game.id}: stored chance outcome log[{chance.idx}] differs on replay")
    return match


def _payload(game: GameRow, match: Match, seat: str | None, seats: _Seats) -> JSONObject:
    """The response for one seat (``None``: a spectator): only the kernel's views of it, and the
    seats' kinds and people's names (public to everyone who sees the game)."""
    kinds = seats.kinds
    viewer = None if seat is None else Seat(seat)
    decision = match.decision()
    facts = summary(match.state)
    data: JSONObject = {
        "game_id": game.id,
        "ruleset": game.ruleset,
        "seat": seat,
        "seats": dict(kinds),
        "names": dict(seats.names),
        "seats_tag": seats_tag(seats.names),
        "log_length": len(match.log),
        "version": game.version,
        "over": match.is_terminal(),
        "dice_commitment": game.commitment,
        "view": match.view(viewer),
        "log": match.log_view(viewer)[-LOG_SHOWN:],
        "to_act": None if decision is None else decision.seat,
        "decision": None,
        "summary": _summary(facts, as_cataclysm(match.state) is not None),
        "result": facts.result,
        "position": _position(match, seat),
        "undo": None if seat is None else undo_offer(match.log, seat, kinds, match.is_terminal()),
    }
    if match.is_terminal():
        data["dice_secret"] = game.secret
        data["returns"] = {str(k): v for k, v in match.returns().items()}
    if decision is not None and decision.seat == seat:
        chances = option_chances(match.state)
        choices: list[JSONValue] = []
        for action in decision.legal:
            label = str(getattr(action, "option", action))
            chance = chances.get(label)
            choices.append(
                {"action": str(action), "label": label, "chance": None if chance is None else chance.text}
            )
        data["decision"] = {
            "phase": decision.phase,
            "prompt": decision_prompt(match.state),
            "choices": choices,
        }
    return data


def _position(match: Match, seat: str | None) -> str | None:
    """The seat's own power status as the terminal's ``status`` prints it (Cataclysm only), built
    for that viewer alone; ``None`` for a spectator or another rule set."""
    if seat is None or as_cataclysm(match.state) is None:
        return None
    from rich.console import Console

    from grandstrategy.play.position_text import WIDTH, status_views

    console = Console(width=WIDTH, record=True, file=io.StringIO(), color_system=None)
    console.print(status_views(match.state, "", [seat]))
    return console.export_text()


def position_panel(match: Match, seat: str | None) -> JSONObject | None:
    """The page's position panel (Cataclysm only; ``None`` otherwise): turn, phase and war status,
    every power's position (``PowerPosition``, the terminal's ``status``), the cup's counts
    (``CupView``, never its order) and the score (``ScoreView``, the terminal's ``score``: VP by
    ideology and power, who would win now under LR 1.7.2 and what each ideology needs), for the
    viewer ``seat`` (``None``: a spectator). Each power's ``yours`` says whether the viewer plays
    it; the page shows production and force pool only for the viewer's own powers (a spectator
    sees the public tracks only)."""
    game = as_cataclysm(match.state)
    if game is None:
        return None
    from grandstrategy.cataclysm.position import cup_view, power_position, score_view
    from grandstrategy.play.position_text import SUM_RULE_NOTE, score_need, score_verdict

    viewer = frozenset() if seat is None else frozenset({seat})
    facts = summary(match.state)
    powers: list[JSONValue] = [
        power_position(game, power, viewer_seats=viewer).to_json() for power in game.state.powers
    ]
    score = score_view(game)
    label, verdict = score_verdict(score)
    standings: list[JSONValue] = [
        {**asdict(standing), "need": score_need(standing)} for standing in score.standings
    ]
    return {
        "turn": facts.turn,
        "phase": facts.phase,
        "war": facts.war,
        "powers": powers,
        "cup": cup_view(game).to_json(),
        "score": {
            "standings": standings,
            "winner": score.winner,
            "verdict_label": label,
            "verdict": verdict,
            "note": SUM_RULE_NOTE if score.sum_rule else None,
        },
    }


def _summary(facts: Summary, cataclysm: bool) -> list[str]:
    """A few public lines about the position (turn, phase, war, victory points, result). Cataclysm's
    page shows its turn, phase and war in the position panel and leaves those lines out by value;
    another rule set's bare turn and phase get a word saying what they are (A&A counts rounds)."""
    turn, phase = facts.turn, facts.phase
    if not cataclysm:
        turn, phase = turn and f"Round {turn}", phase and f"Now: {phase}"
    lines = [line for line in (facts.title, turn, phase, facts.war) if line]
    if facts.vp:
        lines.append("VP: " + ", ".join(f"{k} {v}" for k, v in facts.vp.items()))
    if facts.result:
        lines.append(facts.result)
    return lines
