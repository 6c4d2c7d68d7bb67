"""The HTML pages: the new-game form, the invite links, a seat's page with its choices."""

from __future__ import annotations

import re

from fastapi.testclient import TestClient

from .helpers import create_pig, move, seat_state


def test_the_form_creates_a_game_and_shows_each_private_link(client: TestClient) -> None:
    assert "New game" in client.get("/").text
    page = client.post("/games", data={"ruleset": "pig", "scenario": "", "seats": "north=human,*=human"})
    assert page.status_code == 200, page.text
    links = re.findall(r'class="invite" href="[^"]*?/g/([^/]+)/(\w+)\?token=([^"]+)"', page.text)
    assert {seat for _, seat, _ in links} == {"north", "south"}
    game_id, seat, token = links[0]
    seat_page = client.get(f"/g/{game_id}/{seat}?token={token}")
    assert seat_page.status_code == 200
    assert f'data-seat="{seat}"' in seat_page.text
    other = next(t for _, s, t in links if s != seat)
    assert client.get(f"/g/{game_id}/{seat}?token={other}").status_code == 403


def test_a_bad_form_says_what_is_wrong(client: TestClient) -> None:
    page = client.post("/games", data={"ruleset": "pig", "scenario": "", "seats": "east=human"})
    assert page.status_code == 400
    assert "unknown power" in page.text


def test_the_seat_on_move_sees_its_choices_and_the_other_does_not(client: TestClient) -> None:
    game = create_pig(client)
    state = seat_state(client, game, "north")
    mover = state["to_act"]
    other = "south" if mover == "north" else "north"
    page = client.get(f"/g/{game['game_id']}/{mover}?token={game['tokens'][mover]}").text
    assert 'data-action="hold"' in page and 'data-action="roll"' in page
    waiting = client.get(f"/g/{game['game_id']}/{other}?token={game['tokens'][other]}").text
    assert 'data-action="' not in waiting
    assert f"{mover} to decide" in waiting
    move(client, game, mover, state["log_length"], "hold")
    version = client.get(f"/api/games/{game['game_id']}/version").json()
    assert version["log_length"] > state["log_length"]
    spectator = client.get(f"/g/{game['game_id']}").text
    assert "spectator" in spectator and 'data-action="' not in spectator


def test_the_form_chooses_rule_set_scenario_and_who_plays_and_gives_a_spectator_link(
    client: TestClient,
) -> None:
    form = client.get("/").text
    assert '<option value="cataclysm">' in form and '<option value="aa-revised">' in form
    assert '<option value="europe-1939">' in form  # the scenarios, offered by name
    assert "<code>soviet-union</code>" in form and "<code>americans</code>" in form  # the seats by name
    page = client.post(
        "/games",
        data={
            "ruleset": "cataclysm",
            "scenario": "europe-1939",
            "seats": "germany=human,italy=human,*=random",
        },
    )
    assert page.status_code == 200, page.text
    links = re.findall(r'class="invite" href="[^"]*?/g/([^/]+)/([\w-]+)\?token=([^"]+)"', page.text)
    assert sorted(seat for _, seat, _ in links) == ["germany", "italy"]
    game_id = links[0][0]
    assert f'/g/{game_id}">' in page.text  # the spectator link
    public = client.get(f"/api/games/{game_id}").json()
    assert public["seats"]["germany"] == "human" and public["seats"]["france"] == "bot:random"
    assert any("europe-1939" in line for line in public["summary"])
    assert public["decision"] is None and public["position"] is None and public["undo"] is None
    spectator = client.get(f"/g/{game_id}").text
    assert 'class="choice"' not in spectator and 'id="power-status"' not in spectator
    assert 'id="since"' not in spectator
