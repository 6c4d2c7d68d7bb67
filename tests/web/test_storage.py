"""Storage: games on a real PostgreSQL, and a server killed with -9 between moves loses nothing."""

from __future__ import annotations

import os
import signal
from pathlib import Path

import httpx
from fastapi.testclient import TestClient

from grandstrategy.web.app import create_app
from grandstrategy.web.storage import open_database

from .helpers import create_pig, free_port, move, play_out, seat_state, start_server


def test_a_game_on_postgresql_survives_a_new_app(pg_url: str) -> None:
    engine = open_database(pg_url)
    with TestClient(create_app(engine)) as client:
        game = create_pig(client, max_turns=3)
        state = seat_state(client, game, "north")
        first = move(client, game, state["to_act"], state["log_length"], "hold", "pg-1")
        assert first.status_code == 200
        stale = move(client, game, state["to_act"], state["log_length"], "roll")
        assert stale.status_code == 409
    engine.dispose()
    engine = open_database(pg_url)  # a second start: the migration is a no-op, the game is there
    with TestClient(create_app(engine)) as client:
        again = seat_state(client, game, "north")
        assert again["log_length"] == first.json()["log_length"]
        assert again["log"] == first.json()["log"]
        final = play_out(client, game)
        assert final["over"] is True
    engine.dispose()


def test_kill_9_between_moves_loses_no_move(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'server.db'}"
    port = free_port()
    server = start_server(db, port)
    base = f"http://127.0.0.1:{port}"
    try:
        with httpx.Client(base_url=base) as client:
            game = create_pig(client)
            state = seat_state(client, game, "north")
            made = move(client, game, state["to_act"], state["log_length"], "hold", "k-1")
            assert made.status_code == 200
        os.kill(server.pid, signal.SIGKILL)
        server.wait()
        server = start_server(db, port)
        with httpx.Client(base_url=base) as client:
            after = seat_state(client, game, "north")
            assert after["log_length"] == made.json()["log_length"]
            assert after["log"] == made.json()["log"]
            again = move(client, game, state["to_act"], state["log_length"], "hold", "k-1")
            assert again.json().get("repeated") is True  # the resubmission after the crash is not replayed
            nxt = move(client, game, after["to_act"], after["log_length"], "hold", "k-2")
            assert nxt.status_code == 200
            assert nxt.json()["log_length"] > after["log_length"]
    finally:
        server.kill()
        server.wait()


def test_two_server_processes_on_one_database_take_turns_without_losing_a_move(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'shared.db'}"
    first_engine, second_engine = open_database(url), open_database(url)
    with TestClient(create_app(first_engine)) as first, TestClient(create_app(second_engine)) as second:
        game = create_pig(first)
        state = seat_state(first, game, "north")
        seat = state["to_act"]
        other = "south" if seat == "north" else "north"
        played = move(second, game, seat, state["log_length"], "hold", "p-1")  # the other process
        assert played.status_code == 200
        stale = move(first, game, seat, state["log_length"], "roll", "p-2")  # its cached game is old
        assert stale.status_code == 409
        fresh = seat_state(first, game, other)  # rebuilt from the database, not the stale cache
        assert fresh["log"] == seat_state(second, game, other)["log"]
        assert move(first, game, other, fresh["log_length"], "hold", "p-3").status_code == 200
    first_engine.dispose()
    second_engine.dispose()
