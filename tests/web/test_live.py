"""Live updates: the event stream of a game, on one process (SQLite) and across two (PostgreSQL)."""

from __future__ import annotations

import asyncio
import json
import signal
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest
import uvicorn
from sqlalchemy import create_engine
from sqlalchemy.orm import Session

from grandstrategy.web import live
from grandstrategy.web.app import create_app
from grandstrategy.web.live import LocalNotifier, TooManyWatchers
from grandstrategy.web.storage import open_database

from .helpers import create_pig, free_port, move, seat_state, start_server

TIMEOUT = httpx.Timeout(20.0)
"""Guards against a hang only: a stream that sends nothing fails the test instead of blocking it."""


@contextmanager
def serving(url: str) -> Iterator[tuple[str, Any]]:
    """The app on ``url`` served by uvicorn in a thread of this process: (base URL, service)."""
    engine = open_database(url)
    app = create_app(engine)
    port = free_port()
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    try:
        for _ in range(400):
            if server.started:
                break
            time.sleep(0.025)
        yield f"http://127.0.0.1:{port}", app.state.service
    finally:
        server.should_exit = True
        thread.join(10)
        engine.dispose()


def events(response: httpx.Response) -> Iterator[dict[str, str]]:
    """The server-sent events of a streamed response, each as its fields (comments and the
    ``retry`` advice skipped)."""
    fields: dict[str, str] = {}
    for line in response.iter_lines():
        if not line:
            if "data" in fields:
                yield fields
            fields = {}
        elif not line.startswith(":"):
            name, _, value = line.partition(":")
            fields[name] = value.removeprefix(" ")


def stream_url(game: dict[str, Any], seat: str) -> str:
    return f"/api/games/{game['game_id']}/events?seat={seat}&token={game['tokens'][seat]}"


def test_the_stream_sends_the_version_at_once_and_again_after_the_other_seats_move(tmp_path: Path) -> None:
    with serving(f"sqlite:///{tmp_path / 'server.db'}") as (base, service):
        with httpx.Client(base_url=base, timeout=TIMEOUT) as client:
            game = create_pig(client)
            state = seat_state(client, game, "north")
            mover = state["to_act"]
            waiter = "south" if mover == "north" else "north"
            with client.stream("GET", stream_url(game, waiter)) as response:
                assert response.status_code == 200
                assert response.headers["content-type"].startswith("text/event-stream")
                received = events(response)
                first = next(received)
                assert first["event"] == "version"
                assert json.loads(first["data"])["version"] == state["version"]
                assert service.live.watching(game["game_id"]) == 1
                with httpx.Client(base_url=base, timeout=TIMEOUT) as other:
                    played = move(other, game, mover, state["version"], "hold").json()
                second = next(received)
                data = json.loads(second["data"])
                assert data == {
                    "game_id": game["game_id"],
                    "version": played["version"],
                    "log_length": played["log_length"],
                    "over": False,
                    "seats_tag": played["seats_tag"],
                }
                assert second["id"] == str(played["version"])
        for _ in range(400):  # the client went away: the server lets go of the stream
            if service.live.watching(game["game_id"]) == 0:
                break
            time.sleep(0.025)
        assert service.live.watching(game["game_id"]) == 0


def test_a_stream_checks_the_token_like_the_views(tmp_path: Path) -> None:
    with (
        serving(f"sqlite:///{tmp_path / 'server.db'}") as (base, _service),
        httpx.Client(base_url=base, timeout=TIMEOUT) as client,
    ):
        game = create_pig(client)
        wrong = f"/api/games/{game['game_id']}/events?seat=north&token={game['tokens']['south']}"
        assert client.get(wrong).status_code == 403
        assert client.get("/api/games/nosuchgame/events").status_code == 404
        with client.stream("GET", f"/api/games/{game['game_id']}/events") as spectator:
            assert spectator.status_code == 200  # a spectator's stream needs no token
            assert next(events(spectator))["event"] == "version"


def test_an_undo_is_announced_too(tmp_path: Path) -> None:
    with (
        serving(f"sqlite:///{tmp_path / 'server.db'}") as (base, _service),
        httpx.Client(base_url=base, timeout=TIMEOUT) as client,
    ):
        game = create_pig(client)
        state = seat_state(client, game, "north")
        mover = state["to_act"]
        waiter = "south" if mover == "north" else "north"
        played = move(client, game, mover, state["version"], "hold").json()
        with client.stream("GET", stream_url(game, waiter)) as response:
            received = events(response)
            assert json.loads(next(received)["data"])["version"] == played["version"]
            undone = client.post(
                f"/api/games/{game['game_id']}/seats/{mover}/undo",
                headers={"X-Seat-Token": game["tokens"][mover]},
                json={"seen": played["version"]},
            )
            assert undone.status_code == 200
            data = json.loads(next(received)["data"])
            assert data["version"] == undone.json()["version"]
            assert data["log_length"] == state["log_length"]


def test_a_move_on_one_process_reaches_a_stream_on_another_through_postgresql(pg_url: str) -> None:
    ports = free_port(), free_port()
    servers = [start_server(pg_url, port) for port in ports]
    first, second = (f"http://127.0.0.1:{port}" for port in ports)
    try:
        with (
            httpx.Client(base_url=first, timeout=TIMEOUT) as a,
            httpx.Client(base_url=second, timeout=TIMEOUT) as b,
        ):
            game = create_pig(a)
            state = seat_state(a, game, "north")
            mover = state["to_act"]
            waiter = "south" if mover == "north" else "north"
            with b.stream("GET", stream_url(game, waiter)) as response:
                received = events(response)
                assert json.loads(next(received)["data"])["version"] == state["version"]
                played = move(a, game, mover, state["version"], "hold")  # on the first process
                assert played.status_code == 200
                data = json.loads(next(received)["data"])  # heard on the second
                assert data["version"] == played.json()["version"]
                assert seat_state(b, game, waiter)["to_act"] == waiter
    finally:
        for server in servers:
            server.kill()
            server.wait()


def test_a_stored_change_wakes_watchers_only_once_committed(tmp_path: Path) -> None:
    engine = create_engine(f"sqlite:///{tmp_path / 'x.db'}")

    async def scenario() -> tuple[bool, bool]:
        notifier = LocalNotifier()
        watch = notifier.watch("g1")
        with Session(engine) as session:
            session.begin()
            notifier.announce(session, "g1")
            session.rollback()
        rolled_back = await watch.wait(0.05)
        with Session(engine) as session, session.begin():
            notifier.announce(session, "g1")
        committed = await watch.wait(5)
        watch.close()
        assert notifier.watching("g1") == 0
        return rolled_back, committed

    assert asyncio.run(scenario()) == (False, True)
    engine.dispose()


def test_open_streams_are_bounded_per_game(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(live, "MAX_WATCHES_PER_GAME", 2)

    async def scenario() -> None:
        notifier = LocalNotifier()
        first, _second = notifier.watch("g1"), notifier.watch("g1")
        with pytest.raises(TooManyWatchers, match="already has 2 live pages"):
            notifier.watch("g1")
        notifier.watch("g2")  # another game has its own bound
        first.close()
        first.close()  # closing twice is harmless
        notifier.watch("g1")
        assert notifier.watching("g1") == 2

    asyncio.run(scenario())


def test_stopping_the_server_ends_the_open_streams(tmp_path: Path) -> None:
    port = free_port()
    server = start_server(f"sqlite:///{tmp_path / 'server.db'}", port)
    try:
        with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=TIMEOUT) as client:
            game = create_pig(client)
            with client.stream("GET", stream_url(game, "north")) as response:
                received = events(response)
                assert next(received)["event"] == "version"
                server.send_signal(signal.SIGINT)  # Ctrl-C: uvicorn waits for open responses to end
                assert list(received) == []  # the stream ends (no more events) instead of hanging
        server.wait(30)  # and the server exits (TimeoutExpired fails the test)
    finally:
        server.kill()
        server.wait()


def test_a_stream_beyond_the_bound_gets_503_with_a_message(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(live, "MAX_WATCHES_PER_GAME", 1)
    with (
        serving(f"sqlite:///{tmp_path / 'server.db'}") as (base, _service),
        httpx.Client(base_url=base, timeout=TIMEOUT) as client,
    ):
        game = create_pig(client)
        with client.stream("GET", stream_url(game, "north")) as first:
            received = events(first)  # kept: dropping the reader would close the connection
            assert next(received)["event"] == "version"
            refused = client.get(stream_url(game, "south"))
            assert refused.status_code == 503
            assert refused.json()["detail"] == "this game already has 1 live pages open here"
