"""Expiry: games finished or idle beyond an age are removed by the sweep and by ``web prune``,
exactly those, never under a move; their links then give a clear 404 page."""

from __future__ import annotations

import json
import os
import time
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient
from sqlalchemy import func, select
from sqlalchemy.engine import Engine
from sqlalchemy.orm import Session

from grandstrategy.cli import main
from grandstrategy.web.service import GameService
from grandstrategy.web.storage import ActionRow, ChanceRow, GameRow, SeatRow, open_database

from .clock import START, Clock, clocked_client
from .helpers import create_pig, move, play_out, seat_state
from .test_live import TIMEOUT, events, serving, stream_url


@pytest.fixture
def engine(tmp_path: Path) -> Iterator[Engine]:
    made = open_database(f"sqlite:///{tmp_path / 'server.db'}")
    yield made
    made.dispose()


def rows_of(engine: Engine, game_id: str) -> dict[str, int]:
    """How many rows each table holds for the game."""
    with Session(engine) as session:
        return {
            table.__tablename__: int(
                session.scalar(select(func.count()).select_from(table).where(_key(table) == game_id)) or 0
            )
            for table in (GameRow, SeatRow, ActionRow, ChanceRow)
        }


def _key(table: Any) -> Any:
    return table.id if table is GameRow else table.game_id


def four_games(client: TestClient, clock: Clock) -> dict[str, dict[str, Any]]:
    """Two games last changed on day 0 (one idle, one finished) and two on day 25 (the same)."""
    games: dict[str, dict[str, Any]] = {}
    games["old idle"] = create_pig(client)
    games["old over"] = create_pig(client, seats={"north": "human", "south": "bot:random"}, max_turns=1)
    assert play_out(client, games["old over"])["over"] is True
    clock.advance(days=25)
    games["new idle"] = create_pig(client)
    games["new over"] = create_pig(client, seats={"north": "human", "south": "bot:random"}, max_turns=1)
    assert play_out(client, games["new over"])["over"] is True
    return games


def test_prune_removes_exactly_the_games_past_the_age_finished_or_idle(engine: Engine) -> None:
    clock = Clock()
    with clocked_client(engine, clock) as client:
        games = four_games(client, clock)
        # A game created on day 0 but moved on day 25 is not idle: its age runs from its last move.
        clock.moment = START
        kept_by_move = games["moved"] = create_pig(client)
        clock.moment = START + timedelta(days=25)
        state = seat_state(client, kept_by_move, "north")
        assert move(client, kept_by_move, state["to_act"], state["version"], "hold").status_code == 200
        assert rows_of(engine, games["old over"]["game_id"])["actions"] > 0
        service: GameService = client.app.state.service  # type: ignore[attr-defined]
        clock.advance(days=20)  # day 45: day 0 is 45 days ago, day 25 is 20
        assert service.prune(30, dry_run=True) and rows_of(engine, games["old idle"]["game_id"])["games"] == 1
        removed = service.prune(30)
        assert sorted(game.game_id for game in removed) == sorted(
            games[name]["game_id"] for name in ("old idle", "old over")
        )
        assert {game.game_id: game.over for game in removed}[games["old over"]["game_id"]] is True
        for name in ("old idle", "old over"):
            assert rows_of(engine, games[name]["game_id"]) == {
                "games": 0,
                "seats": 0,
                "actions": 0,
                "chance_outcomes": 0,
            }
            assert client.get(f"/api/games/{games[name]['game_id']}").status_code == 404
        for name in ("new idle", "new over", "moved"):
            assert client.get(f"/api/games/{games[name]['game_id']}").status_code == 200
        assert service.prune(30) == []  # nothing more is that old


def test_a_game_moved_while_the_sweep_runs_is_kept(engine: Engine, monkeypatch: pytest.MonkeyPatch) -> None:
    clock = Clock()
    with clocked_client(engine, clock) as client:
        game = create_pig(client)
        other = create_pig(client)
        service: GameService = client.app.state.service  # type: ignore[attr-defined]
        clock.advance(days=31)
        remove = service._remove

        def move_first(game_id: str, cutoff: str) -> bool:
            # The sweep has read the game as idle; a move lands before it takes the game's lock.
            if game_id == game["game_id"]:
                state = seat_state(client, game, "north")
                assert move(client, game, state["to_act"], state["version"], "hold").status_code == 200
            return remove(game_id, cutoff)

        monkeypatch.setattr(service, "_remove", move_first)
        removed = service.prune(30)
        assert [r.game_id for r in removed] == [other["game_id"]]
        assert seat_state(client, game, "north")["log_length"] > 0
        assert rows_of(engine, game["game_id"])["games"] == 1


def test_an_expired_games_links_are_a_clear_404_page(engine: Engine) -> None:
    clock = Clock()
    with clocked_client(engine, clock, expire_days=30) as client:
        game = create_pig(client)
        clock.advance(days=31)
        service: GameService = client.app.state.service  # type: ignore[attr-defined]
        assert [r.game_id for r in service.prune(30)] == [game["game_id"]]
        for url in (f"/g/{game['game_id']}/north?token={game['tokens']['north']}", f"/g/{game['game_id']}"):
            page = client.get(url)
            assert page.status_code == 404
            assert page.headers["content-type"].startswith("text/html")
            assert f"no game {game['game_id']!r} on this server" in page.text.replace("&#39;", "'")
            assert "had no move for 30 days" in page.text and "Traceback" not in page.text
        gone = move(client, game, "north", 0, "hold")
        assert gone.status_code == 404 and "no game" in gone.json()["detail"]
        renamed = client.post(
            f"/api/games/{game['game_id']}/seats/north/name",
            headers={"X-Seat-Token": game["tokens"]["north"]},
            json={"name": "Nora"},
        )
        assert renamed.status_code == 404


def test_a_server_with_expiry_sweeps_at_start_up(engine: Engine) -> None:
    clock = Clock()
    with clocked_client(engine, clock) as client:
        old = create_pig(client)
        clock.advance(days=20)
        recent = create_pig(client)
    clock.advance(days=11)  # old: 31 days idle; recent: 11
    with clocked_client(engine, clock, expire_days=30) as client:
        assert client.get(f"/api/games/{old['game_id']}").status_code == 404
        assert client.get(f"/api/games/{recent['game_id']}").status_code == 200
    clock.advance(days=100)
    with clocked_client(engine, clock, expire_days=0) as client:  # 0: never
        assert client.get(f"/api/games/{recent['game_id']}").status_code == 200


def test_a_running_server_sweeps_again_later(engine: Engine) -> None:
    clock = Clock()
    with clocked_client(engine, clock, expire_days=30, sweep_seconds=0.02) as client:
        game = create_pig(client)
        assert client.get(f"/api/games/{game['game_id']}").status_code == 200
        clock.advance(days=31)
        for _ in range(500):  # the next sweep (every 0.02 s here) removes it; wait for it
            if client.get(f"/api/games/{game['game_id']}/version").status_code == 404:
                break
            time.sleep(0.02)
        assert rows_of(engine, game["game_id"])["games"] == 0


def test_an_open_page_hears_that_its_game_is_gone(tmp_path: Path) -> None:
    with serving(f"sqlite:///{tmp_path / 'server.db'}") as (base, service):
        clock = Clock()
        service.now = clock
        with httpx.Client(base_url=base, timeout=TIMEOUT) as client:
            game = create_pig(client)
            with client.stream("GET", stream_url(game, "south")) as response:
                received = events(response)
                assert next(received)["event"] == "version"
                clock.advance(days=31)
                assert [r.game_id for r in service.prune(30)] == [game["game_id"]]
                gone = next(received)
                assert gone["event"] == "gone"
                assert "no game" in json.loads(gone["data"])["detail"]


def test_prune_on_postgresql_removes_only_the_old_game(pg_url: str) -> None:
    engine = open_database(pg_url)
    clock = Clock(START.replace(year=2001))  # older than every other test's games, which are kept
    try:
        with clocked_client(engine, clock) as client:
            old = create_pig(client, names={"north": "Nora"})
            state = seat_state(client, old, "north")
            assert move(client, old, state["to_act"], state["version"], "hold").status_code == 200
            clock.advance(days=10)
            recent = create_pig(client)
            clock.advance(days=25)
            service: GameService = client.app.state.service  # type: ignore[attr-defined]
            assert [r.game_id for r in service.prune(30)] == [old["game_id"]]
            assert rows_of(engine, old["game_id"]) == {
                "games": 0,
                "seats": 0,
                "actions": 0,
                "chance_outcomes": 0,
            }
            assert client.get(f"/api/games/{recent['game_id']}").status_code == 200
            clock.advance(days=10)
            assert [r.game_id for r in service.prune(30)] == [recent["game_id"]]
    finally:
        engine.dispose()


def test_web_prune_says_what_it_removed(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    url = f"sqlite:///{tmp_path / 'server.db'}"
    engine = open_database(url)
    long_ago = Clock(datetime(2001, 1, 1, tzinfo=UTC))
    with clocked_client(engine, long_ago) as client:
        old = create_pig(client)
    with clocked_client(engine, Clock(datetime.now(UTC))) as client:
        fresh = create_pig(client)
    engine.dispose()
    with pytest.raises(SystemExit) as leaving:
        main(["web", "prune", "--db", url, "--older-than-days", "30", "--dry-run"])
    assert leaving.value.code == 0
    out = capsys.readouterr().out
    assert out.startswith("Would remove 1 game(s) without a move for more than 30 days:")
    assert old["game_id"] in out and fresh["game_id"] not in out
    with pytest.raises(SystemExit) as leaving:
        main(["web", "prune", "--db", url, "--older-than-days", "30"])
    assert leaving.value.code == 0
    out = capsys.readouterr().out
    assert out.splitlines() == [
        "Removed 1 game(s) without a move for more than 30 days:",
        f"  {old['game_id']}  toy-pig  unfinished, last move 2001-01-01T00:00:00+00:00",
    ]
    with pytest.raises(SystemExit) as leaving:
        main(["web", "prune", "--db", url, "--older-than-days", "30"])
    assert capsys.readouterr().out == "No game has gone more than 30 days without a move; nothing removed.\n"
    engine = open_database(url)
    assert rows_of(engine, fresh["game_id"])["games"] == 1 and rows_of(engine, old["game_id"])["games"] == 0
    engine.dispose()


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["web", "prune", "--older-than-days", "0"], "0 is not in the range 1<=x<=36500"),
        (["web", "prune", "--older-than-days", "soon"], "'soon' is not a valid integer"),
        (["web", "prune"], "Missing option '--older-than-days'"),
        (["serve", "--expire-days", "-1"], "-1 is not in the range 0<=x<=36500"),
        (["serve", "--expire-days", "month"], "'month' is not a valid integer"),
    ],
)
def test_a_bad_age_is_one_clear_message(
    args: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as leaving:
        main(args)
    assert leaving.value.code == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err


def test_a_look_at_a_game_removed_under_it_is_a_404(engine: Engine, monkeypatch: pytest.MonkeyPatch) -> None:
    clock = Clock()
    with clocked_client(engine, clock) as client:
        game = create_pig(client)
        service: GameService = client.app.state.service  # type: ignore[attr-defined]
        authorise = service.authorise

        def removed_by_another_process(session: Session, game_id: str, seat: str, token: str | None) -> Any:
            row = authorise(session, game_id, seat, token)
            with Session(engine) as other, other.begin():  # as another server's sweep would
                for table in (ChanceRow, ActionRow, SeatRow):
                    other.execute(table.__table__.delete().where(table.game_id == game_id))
                other.execute(GameRow.__table__.delete().where(GameRow.id == game_id))
            return row

        monkeypatch.setattr(service, "authorise", removed_by_another_process)
        page = client.get(f"/g/{game['game_id']}/north?token={game['tokens']['north']}")
        assert page.status_code == 404 and "no game" in page.text


def test_web_prune_refuses_a_database_that_is_not_there(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    missing = tmp_path / "typo.db"
    with pytest.raises(SystemExit) as leaving:
        main(["web", "prune", "--db", f"sqlite:///{missing}", "--older-than-days", "30"])
    assert leaving.value.code == 1
    err = capsys.readouterr().err
    assert f"no database file {str(missing)!r} (check --db)" in err and "Traceback" not in err
    assert not missing.exists()  # not created by the attempt


def test_serve_hands_its_listing_and_expiry_options_to_the_app(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import uvicorn

    from grandstrategy.web import app, cli

    seen: list[dict[str, Any]] = []
    monkeypatch.setattr(cli, "run_server", lambda *args, **options: seen.append(options))
    for args in ([], ["--no-listing", "--expire-days", "7"], ["--expire-days", "0"]):
        with pytest.raises(SystemExit) as leaving:
            main(["serve", "--db", f"sqlite:///{tmp_path / 'a.db'}", *args])
        assert leaving.value.code == 0
    assert [(o["listing"], o["expire_days"]) for o in seen] == [(True, 30), (False, 7), (True, 0)]
    # Several worker processes get them through the environment their app factory reads.
    monkeypatch.undo()
    monkeypatch.setattr(uvicorn, "run", lambda *args, **options: None)
    for name in (app.ENV_DB, app.ENV_CREATE_LIMIT, app.ENV_MIGRATED, app.ENV_LISTING, app.ENV_EXPIRE_DAYS):
        monkeypatch.setenv(name, "")  # restored (unset) after the test: run_server sets them all
    cli.run_server(f"sqlite:///{tmp_path / 'b.db'}", "127.0.0.1", 1, workers=2, listing=False, expire_days=9)
    assert (os.environ[app.ENV_LISTING], os.environ[app.ENV_EXPIRE_DAYS]) == ("0", "9")
