"""Migrations on a database made by 0001: 0002 gives existing games a version equal to their log
length, 0003 their last change (their creation time), empty listing facts and seats without names."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

from alembic import command
from alembic.config import Config
from sqlalchemy import create_engine, text

from grandstrategy.web.lobby import list_games
from grandstrategy.web.service import GameService
from grandstrategy.web.storage import MIGRATIONS, open_database


def test_an_older_database_is_upgraded_with_versions_and_marks(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'old.db'}"
    old = create_engine(url)
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    with old.begin() as connection:
        config.attributes["connection"] = connection
        command.upgrade(config, "0001")
        connection.execute(
            text(
                "INSERT INTO games (id, ruleset, options, seed, secret, commitment, log_length, over,"
                " created)"
                " VALUES ('g1', 'toy-pig', '{}', '1', 'aa', 'bb', 7, false, '2026-01-02T03:04:05+00:00')"
            )
        )
        connection.execute(text("INSERT INTO seats (game_id, seat, kind) VALUES ('g1', 'north', 'human')"))
    old.dispose()
    engine = open_database(url)  # runs 0002 and 0003
    with engine.connect() as connection:
        assert connection.execute(text("SELECT version, log_length FROM games")).one() == (7, 7)
        assert connection.execute(text("SELECT last_move, facts FROM games")).one() == (
            "2026-01-02T03:04:05+00:00",
            "",
        )
        assert connection.execute(text("SELECT last_seen, name FROM seats")).one() == (0, None)
        assert connection.execute(text("SELECT version_num FROM alembic_version")).one() == ("0003",)
    listed = list_games(engine, 1)["games"]
    assert [(g["game_id"], g["last_move"], g["turn"], g["over"]) for g in listed] == [
        ("g1", "2026-01-02T03:04:05+00:00", "", False)
    ]
    # An upgraded game ages from its creation: 30 days on it is not yet removed, 31 days on it is.
    assert GameService(engine, now=lambda: datetime(2026, 2, 1, 3, 4, 5, tzinfo=UTC)).prune(30) == []
    removed = GameService(engine, now=lambda: datetime(2026, 2, 2, 3, 4, 6, tzinfo=UTC)).prune(30)
    assert [game.game_id for game in removed] == ["g1"]
    engine.dispose()
