"""Migration 0002 on a database made by 0001: existing games get a version equal to their log length."""

from __future__ import annotations

from pathlib import Path

from alembic import command
from alembic.config import Config
from sqlalchemy import create_engine, text

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
                " VALUES ('g1', 'toy-pig', '{}', '1', 'aa', 'bb', 7, false, 'then')"
            )
        )
        connection.execute(text("INSERT INTO seats (game_id, seat, kind) VALUES ('g1', 'north', 'human')"))
    old.dispose()
    engine = open_database(url)  # runs 0002
    with engine.connect() as connection:
        assert connection.execute(text("SELECT version, log_length FROM games")).one() == (7, 7)
        assert connection.execute(text("SELECT last_seen FROM seats")).one() == (0,)
        assert connection.execute(text("SELECT version_num FROM alembic_version")).one() == ("0002",)
    engine.dispose()
