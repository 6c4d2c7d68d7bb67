"""Shared steps of the web tests: create a Pig game and play it through the API."""

from __future__ import annotations

import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from httpx import Client as TestClient


def create_pig(
    client: TestClient,
    seats: dict[str, str] | None = None,
    names: dict[str, str] | None = None,
    **options: Any,
) -> dict[str, Any]:
    """Create a toy (Pig) game, north and south people unless ``seats`` says otherwise, with the
    people's ``names`` if given."""
    body: dict[str, Any] = {
        "ruleset": "pig",
        "options": options,
        "seats": seats or {"north": "human", "south": "human"},
    }
    if names is not None:
        body["names"] = names
    response = client.post("/api/games", json=body)
    assert response.status_code == 201, response.text
    result: dict[str, Any] = response.json()
    return result


def seat_state(client: TestClient, game: dict[str, Any], seat: str) -> dict[str, Any]:
    """A seat's view through the API."""
    response = client.get(
        f"/api/games/{game['game_id']}/seats/{seat}", headers={"X-Seat-Token": game["tokens"][seat]}
    )
    assert response.status_code == 200, response.text
    result: dict[str, Any] = response.json()
    return result


def move(
    client: TestClient, game: dict[str, Any], seat: str, seen: int, action: str, move_id: str | None = None
) -> Any:
    """Post a move for ``seat`` with its own token; return the raw response."""
    body: dict[str, Any] = {"seen": seen, "action": action}
    if move_id is not None:
        body["move_id"] = move_id
    return client.post(
        f"/api/games/{game['game_id']}/seats/{seat}/moves",
        headers={"X-Seat-Token": game["tokens"][seat]},
        json=body,
    )


def play_out(client: TestClient, game: dict[str, Any], prefer: str = "roll") -> dict[str, Any]:
    """Play the game to its end for its people: ``prefer`` when legal, else the first choice."""
    seats = list(game["tokens"])
    state = seat_state(client, game, seats[0])
    for n in range(2000):
        if state["over"]:
            return state
        seat = state["to_act"]
        mine = seat_state(client, game, seat)
        actions = [c["action"] for c in mine["decision"]["choices"]]
        action = prefer if prefer in actions else actions[0]
        response = move(client, game, seat, mine["log_length"], action, f"m{n}")
        assert response.status_code == 200, response.text
        state = response.json()
    raise AssertionError("the game did not end")


SERVER = """
import sys
sys.path.insert(0, {tests!r})
from core.toy_game import PIG
from grandstrategy.core.game import register_ruleset
from grandstrategy.web.cli import run_server
register_ruleset(PIG)
run_server({db!r}, "127.0.0.1", {port})
"""


def free_port() -> int:
    """A TCP port free on this machine now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def start_server(db: str, port: int) -> subprocess.Popen[bytes]:
    """``grandstrategy serve`` (with the toy rule set registered) in a subprocess, once it listens."""
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
