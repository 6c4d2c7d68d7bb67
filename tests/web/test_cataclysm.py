"""A Cataclysm game on the server: choices and chances, the power status, the map; the cup stays hidden."""

from __future__ import annotations

import json

from fastapi.testclient import TestClient

from .helpers import seat_state


def test_a_cataclysm_seat_sees_its_decision_and_status_but_never_the_cup(client: TestClient) -> None:
    created = client.post(
        "/api/games", json={"ruleset": "cataclysm", "seats": {"germany": "human", "france": "human"}}
    )
    assert created.status_code == 201, created.text
    game = created.json()
    assert game["seats"]["italy"] == "bot:heuristic"
    service = client.app.state.service  # type: ignore[attr-defined]
    cup = service._matches[game["game_id"]].state.state.cup  # the hidden cup, in its order
    assert len(cup) >= 2
    states = {seat: seat_state(client, game, seat) for seat in ("germany", "france")}
    mover = next(seat for seat, state in states.items() if state["decision"] is not None)
    decision = states[mover]["decision"]
    assert decision["prompt"] and len(decision["choices"]) >= 2
    assert all(set(choice) == {"action", "label", "chance"} for choice in decision["choices"])
    assert states["germany"]["position"].startswith("Germany (you)")
    assert states["france"]["position"].startswith("France (you)")
    spectator = client.get(f"/api/games/{game['game_id']}").json()
    assert spectator["position"] is None
    for body in [*states.values(), spectator]:
        assert body["view"]["state"]["state"]["cup"] == {"counters": len(cup)}
        assert json.dumps(cup) not in json.dumps(body)
    page = client.get(f"/g/{game['game_id']}/{mover}?token={game['tokens'][mover]}").text
    assert 'id="power-status"' in page and 'class="choice"' in page
    svg = client.get(f"/api/games/{game['game_id']}/map.svg")
    assert svg.status_code == 200 and svg.text.lstrip().startswith("<")
    assert "svg" in svg.headers["content-type"]
