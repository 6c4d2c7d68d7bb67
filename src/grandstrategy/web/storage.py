"""The server's tables (SQLAlchemy 2) and the database set-up: SQLite by default, PostgreSQL by URL.

A game is stored as what reproduces it, never as pickled objects: the rule set, options, the
bots' seed, the dice secret and its commitment, the seats (a person's seat keeps only the SHA-256
of its invite token) and the log, one row per action and one per chance outcome, each with its
index in the log. ``games.version`` is the version a move must name (optimistic concurrency): it
grows with the log and also on an undo, so a position taken back and played again is never
mistaken for the old one. ``seats.last_seen`` is the log length a seat's person last looked at.
``games.last_move`` is when the game last changed (its creation, a move or an undo: what the
listing sorts by and expiry measures), ``games.facts`` its public summary for the listing, and
``seats.name`` the display name a person's seat may carry (0003).
The schema is created by the Alembic migration in ``migrations/`` when the server starts.
"""

from __future__ import annotations

from pathlib import Path

from alembic import command
from alembic.config import Config
from sqlalchemy import (
    ForeignKey,
    Integer,
    String,
    Text,
    UniqueConstraint,
    create_engine,
    event,
)
from sqlalchemy.engine import Engine
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

DEFAULT_DB = "sqlite:///grandstrategy-server.db"
"""Where the server keeps its games unless ``--db`` says otherwise."""

MIGRATIONS = Path(__file__).with_name("migrations")


class Base(DeclarativeBase):
    """The declarative base of the server's tables."""


class GameRow(Base):
    """One game: its rule set, options, secrets and version (the length of its log)."""

    __tablename__ = "games"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    ruleset: Mapped[str] = mapped_column(String(64))
    options: Mapped[str] = mapped_column(Text)  # canonical JSON
    seed: Mapped[str] = mapped_column(String(24))  # the bots' seed (decimal; up to 2**64 - 1)
    secret: Mapped[str] = mapped_column(String(64))  # hex; revealed only when the game is over
    commitment: Mapped[str] = mapped_column(String(64))
    log_length: Mapped[int] = mapped_column(Integer)
    # Grows with every stored change, undo included, so it never names two positions (0002).
    version: Mapped[int] = mapped_column(Integer, default=0)
    over: Mapped[bool] = mapped_column(default=False)
    created: Mapped[str] = mapped_column(String(32))
    # When the game last changed: created, a move or an undo (UTC ISO 8601 to the second, 0003).
    last_move: Mapped[str] = mapped_column(String(32), default="", index=True)
    # Public facts for the listing as canonical JSON: title, turn, phase, result (0003).
    facts: Mapped[str] = mapped_column(Text, default="")


class SeatRow(Base):
    """A seat of a game: a person's (with the hash of its token) or a bot's (its kind)."""

    __tablename__ = "seats"

    game_id: Mapped[str] = mapped_column(ForeignKey("games.id"), primary_key=True)
    seat: Mapped[str] = mapped_column(String(64), primary_key=True)
    kind: Mapped[str] = mapped_column(String(32))
    token_hash: Mapped[str | None] = mapped_column(String(64), nullable=True)
    # The log length this seat's person last looked at ("since you were last here", 0002).
    last_seen: Mapped[int] = mapped_column(Integer, default=0)
    # The display name of the person in the seat, public to everyone who sees the game (0003).
    name: Mapped[str | None] = mapped_column(String(64), nullable=True)


class ActionRow(Base):
    """An action in a game's log; ``move_id`` is the client's id making a resubmission harmless."""

    __tablename__ = "actions"
    __table_args__ = (UniqueConstraint("game_id", "move_id"),)

    game_id: Mapped[str] = mapped_column(ForeignKey("games.id"), primary_key=True)
    idx: Mapped[int] = mapped_column(Integer, primary_key=True)
    seat: Mapped[str] = mapped_column(String(64))
    action: Mapped[str] = mapped_column(Text)
    move_id: Mapped[str | None] = mapped_column(String(64), nullable=True)


class ChanceRow(Base):
    """A chance outcome in a game's log (``private_to``: the one seat that may see it)."""

    __tablename__ = "chance_outcomes"

    game_id: Mapped[str] = mapped_column(ForeignKey("games.id"), primary_key=True)
    idx: Mapped[int] = mapped_column(Integer, primary_key=True)
    seq: Mapped[int] = mapped_column(Integer)
    kind: Mapped[str] = mapped_column(String(16))
    label: Mapped[str] = mapped_column(Text)
    outcome: Mapped[str] = mapped_column(Text)
    private_to: Mapped[str | None] = mapped_column(String(64), nullable=True)


def normalise_url(url: str) -> str:
    """A database URL for SQLAlchemy: ``postgresql://`` uses psycopg 3, anything else as given."""
    for prefix in ("postgresql://", "postgres://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url[len(prefix) :]
    return url


def open_database(url: str = DEFAULT_DB, *, upgrade: bool = True) -> Engine:
    """Connect to ``url`` and bring its schema up to date (the Alembic migrations, to head);
    ``upgrade=False`` only connects (a worker process whose parent already migrated)."""
    engine = create_engine(normalise_url(url))
    if engine.dialect.name == "sqlite":

        @event.listens_for(engine, "connect")
        def _pragmas(dbapi_connection: object, _record: object) -> None:
            cursor = dbapi_connection.cursor()  # type: ignore[attr-defined]
            cursor.execute("PRAGMA foreign_keys=ON")
            cursor.execute("PRAGMA journal_mode=WAL")
            cursor.execute("PRAGMA busy_timeout=5000")
            cursor.close()

    if upgrade:
        migrate(engine)
    return engine


def migrate(engine: Engine) -> None:
    """Run the migrations up to the newest revision on ``engine`` (a no-op when up to date)."""
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    with engine.begin() as connection:
        config.attributes["connection"] = connection
        command.upgrade(config, "head")
