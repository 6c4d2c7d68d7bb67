"""Storage: games on a real PostgreSQL, and a server killed with -9 between moves loses nothing."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx
from fastapi.testclient import TestClient

from grandstrategy.web.app import create_app
from grandstrategy.web.storage import open_database

from .helpers import create_pig, move, play_out, seat_state

SERVER = """
import sys
sys.path.insert(0, {tests!r})
from core.toy_game import PIG
from grandstrategy.core.game import register_ruleset
from grandstrategy.web.cli import run_server
register_ruleset(PIG)
run_server({db!r}, "127.0.0.1", {port})
"""


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


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def _start(db: str, port: int) -> subprocess.Popen[bytes]:
    tests = str(Path(__file__).resolve().parents[1])
    code = SERVER.format(tests=tests, db=db, port=port)
    process = subprocess.Popen(
        [sys.executable, "-c", code], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
    )
    for _ in range(300):
        try:
            socket.create_connection(("127.0.0.1", port), 0.2).close()
            return process
        except OSError:
            if process.poll() is not None:
                raise AssertionError(
                    process.stderr.read().decode() if process.stderr else "server died"
                ) from None
            time.sleep(0.05)
    process.kill()
    raise AssertionError("the server did not start")


def test_kill_9_between_moves_loses_no_move(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'server.db'}"
    port = _free_port()
    server = _start(db, port)
    base = f"http://127.0.0.1:{port}"
    try:
        with httpx.Client(base_url=base) as client:
            game = create_pig(client)
            state = seat_state(client, game, "north")
            made = move(client, game, state["to_act"], state["log_length"], "hold", "k-1")
            assert made.status_code == 200
        os.kill(server.pid, signal.SIGKILL)
        server.wait()
        server = _start(db, port)
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
