"""A person who comes back sees what happened since: each seat's last look, and the page's narration."""

from __future__ import annotations

import re
from typing import Any

from fastapi.testclient import TestClient

from .helpers import create_pig, move, seat_state


def page(client: TestClient, game: dict[str, Any], seat: str) -> str:
    response = client.get(f"/g/{game['game_id']}/{seat}?token={game['tokens'][seat]}")
    assert response.status_code == 200, response.text
    return response.text


def since(html: str) -> list[str]:
    """The "since you were last here" block's moves, as text (empty when the page has none)."""
    block = re.search(r'<section id="since">(.*?)</section>', html, re.S)
    if block is None:
        return []
    items = re.findall(r"<li>(.*?)</li>", block.group(1), re.S)
    return [
        re.sub(r"<br>", " / ", re.sub(r"<(?!br>)[^>]+>", "", item)).replace("&#34;", '"') for item in items
    ]


def test_the_page_tells_the_moves_made_since_the_seats_last_look_and_then_nothing(client: TestClient) -> None:
    game = create_pig(client)
    state = client.get(f"/api/games/{game['game_id']}").json()  # a spectator's look marks no seat
    mover = state["to_act"]
    waiter = "south" if mover == "north" else "north"
    first = since(page(client, game, waiter))
    assert first == [f"who goes first: {mover}"]  # a first look starts at the beginning
    drew = move(client, game, mover, state["version"], "draw").json()
    move(client, game, mover, drew["version"], "hold")
    assert since(page(client, game, waiter)) == [
        f'{mover} answers "turn 1": draw / {mover} draws: ?',  # a private draw stays hidden
        f'{mover} answers "turn 1": hold',
    ]
    assert since(page(client, game, waiter)) == []  # looked again: nothing new


def test_each_look_through_the_api_moves_the_seats_mark(client: TestClient) -> None:
    game = create_pig(client)
    state = seat_state(client, game, "north")
    assert state["last_seen"] == 0
    assert seat_state(client, game, "north")["last_seen"] == state["log_length"]
    assert seat_state(client, game, "south")["last_seen"] == 0  # marks are per seat
    mover = state["to_act"]
    played = move(client, game, mover, state["version"], "hold").json()
    assert seat_state(client, game, "north")["last_seen"] == state["log_length"]
    assert seat_state(client, game, "north")["last_seen"] == played["log_length"]
    spectator = client.get(f"/api/games/{game['game_id']}").json()
    assert "last_seen" not in spectator and "since" not in spectator


def test_an_undo_brings_a_seats_mark_back_to_the_shorter_log(client: TestClient) -> None:
    game = create_pig(client)
    state = seat_state(client, game, "north")
    mover = state["to_act"]
    waiter = "south" if mover == "north" else "north"
    played = move(client, game, mover, state["version"], "hold").json()
    assert seat_state(client, game, waiter)["log_length"] == played["log_length"]  # the waiter saw the hold
    undone = client.post(
        f"/api/games/{game['game_id']}/seats/{mover}/undo",
        headers={"X-Seat-Token": game["tokens"][mover]},
        json={"seen": played["version"]},
    )
    assert undone.status_code == 200
    assert seat_state(client, game, waiter)["last_seen"] == state["log_length"]
    again = move(client, game, mover, undone.json()["version"], "hold").json()
    assert since(page(client, game, waiter)) == [f'{mover} answers "turn 1": hold']  # told again
    assert again["log_length"] == played["log_length"]


def test_a_cataclysm_seat_reads_the_other_powers_moves_in_sentences(client: TestClient) -> None:
    created = client.post(
        "/api/games", json={"ruleset": "cataclysm", "seats": {"germany": "human", "france": "human"}}
    )
    game = created.json()
    assert since(page(client, game, "france")) == ["Japan keeps the Washington Naval Treaty (LR 12.1.3)"]
    state = seat_state(client, game, "germany")
    assert state["to_act"] == "germany"
    choice = state["decision"]["choices"][0]["action"]
    assert move(client, game, "germany", state["version"], choice).status_code == 200
    told = since(page(client, game, "france"))
    assert told and told[0].startswith("Germany ")  # the project's narration, with printed names
    assert all("germany:" not in line for line in told)
