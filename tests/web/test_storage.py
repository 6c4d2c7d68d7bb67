"""Storage: games on a real PostgreSQL, and a server killed with -9 between or during moves loses nothing."""

from __future__ import annotations

import os
import signal
import threading
import time
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


def test_kill_9_while_moves_are_in_flight_keeps_each_move_whole_or_absent(tmp_path: Path) -> None:
    """A server killed with -9 while a client streams moves: after the restart every answered move
    is stored at the index it was answered for, a move whose answer never came is either stored
    whole (its dice with it) or not at all, the stored game replays, and the game goes on."""
    db = f"sqlite:///{tmp_path / 'server.db'}"
    port = free_port()
    server = start_server(db, port)
    base = f"http://127.0.0.1:{port}"
    answered: list[tuple[int, str, str]] = []  # (version seen, seat, action) of each 200
    sent: list[str] = []
    gone = threading.Event()
    try:
        with httpx.Client(base_url=base, timeout=30) as client:
            game = create_pig(client, max_turns=400, target=100_000)

            def stream() -> None:
                state = seat_state(client, game, "north")
                for n in range(10_000):
                    seat = state["to_act"]
                    action = "roll" if n % 3 else "hold"
                    sent.append(f"f-{n}")
                    try:
                        response = move(client, game, seat, state["version"], action, f"f-{n}")
                    except httpx.HTTPError:
                        gone.set()
                        return
                    assert response.status_code == 200, response.text
                    answered.append((state["version"], seat, action))
                    state = response.json()

            worker = threading.Thread(target=stream)
            worker.start()
            while len(answered) < 25 and worker.is_alive():
                time.sleep(0.001)  # let some moves land first (no timing is asserted)
            os.kill(server.pid, signal.SIGKILL)  # the client is mid-stream: a move is being sent
            server.wait()
            worker.join()
        assert gone.is_set() and len(answered) >= 25
        server = start_server(db, port)
        with httpx.Client(base_url=base, timeout=30) as client:
            after = seat_state(client, game, "north")  # the stored log replays (or this is a 500)
            exported = client.get(f"/api/games/{game['game_id']}/export").json()
            stored = [e for e in exported["log"] if e["type"] == "action"]
            assert len(stored) in (len(answered), len(answered) + 1)  # the unanswered one whole or not at all
            for (_, seat, action), entry in zip(answered, stored, strict=False):
                assert (entry["seat"], entry["action"].split(": ")[-1]) == (seat, action)
            assert after["log_length"] == len(
                exported["log"]
            )  # the replay (every stored die checked) is the whole log
            nxt = move(client, game, after["to_act"], after["version"], "hold", "after-crash")
            assert nxt.status_code == 200 and nxt.json()["version"] > after["version"]
    finally:
        server.kill()
        server.wait()
