"""The web API: creating and joining games, moves, tokens, stale and repeated moves, secrets."""

from __future__ import annotations

import json

from fastapi.testclient import TestClient

from .helpers import create_pig, move, seat_state


def test_create_gives_private_links_and_a_commitment(client: TestClient) -> None:
    game = create_pig(client)
    assert set(game["tokens"]) == {"north", "south"}
    assert game["tokens"]["north"] != game["tokens"]["south"]
    assert game["links"]["north"].endswith(f"/g/{game['game_id']}/north?token={game['tokens']['north']}")
    assert len(game["dice_commitment"]) == 64
    state = seat_state(client, game, "north")
    assert state["dice_commitment"] == game["dice_commitment"]
    assert state["to_act"] in ("north", "south")


def test_a_move_is_played_and_both_seats_see_it(client: TestClient) -> None:
    game = create_pig(client)
    state = seat_state(client, game, "north")
    seat = state["to_act"]
    response = move(client, game, seat, state["log_length"], "hold")
    assert response.status_code == 200, response.text
    after = response.json()
    assert after["log_length"] > state["log_length"]
    other = "south" if seat == "north" else "north"
    seen_by_other = seat_state(client, game, other)
    assert seen_by_other["log_length"] == after["log_length"]
    assert {"type": "action", "seat": seat, "action": "hold"} in seen_by_other["log"]
    assert seen_by_other["to_act"] == other


def test_another_seats_token_is_refused_with_403(client: TestClient) -> None:
    game = create_pig(client)
    state = seat_state(client, game, "north")
    seat = state["to_act"]
    other = "south" if seat == "north" else "north"
    url = f"/api/games/{game['game_id']}/seats/{seat}"
    wrong = {"X-Seat-Token": game["tokens"][other]}
    assert client.get(url, headers=wrong).status_code == 403
    response = client.post(
        url + "/moves", headers=wrong, json={"seen": state["log_length"], "action": "hold"}
    )
    assert response.status_code == 403
    assert "not the token of seat" in response.json()["detail"]
    assert client.get(url).status_code == 403  # no token at all
    assert seat_state(client, game, seat)["log_length"] == state["log_length"]  # nothing moved


def test_a_stale_move_gets_409_with_the_fresh_state(client: TestClient) -> None:
    game = create_pig(client)
    state = seat_state(client, game, "north")
    seat = state["to_act"]
    assert move(client, game, seat, state["log_length"], "hold").status_code == 200
    other = "south" if seat == "north" else "north"
    stale = move(client, game, other, state["log_length"], "hold")
    assert stale.status_code == 409
    body = stale.json()
    assert body["detail"].startswith("the game moved on")
    assert body["state"]["log_length"] == state["log_length"] + 1  # the hold
    assert body["state"]["seat"] == other


def test_a_repeated_move_id_is_played_once(client: TestClient) -> None:
    game = create_pig(client)
    state = seat_state(client, game, "north")
    seat = state["to_act"]
    first = move(client, game, seat, state["log_length"], "hold", "abc")
    again = move(client, game, seat, state["log_length"], "hold", "abc")
    assert first.status_code == again.status_code == 200
    assert again.json()["repeated"] is True
    assert again.json()["log_length"] == first.json()["log_length"]
    holds = [e for e in again.json()["log"] if e.get("action") == "hold"]
    assert len(holds) == 1


def test_an_illegal_move_is_a_400_and_changes_nothing(client: TestClient) -> None:
    game = create_pig(client)
    state = seat_state(client, game, "north")
    seat = state["to_act"]
    response = move(client, game, seat, state["log_length"], "spend gold")
    assert response.status_code == 400
    assert "not legal" in response.json()["detail"]
    assert move(client, game, seat, state["log_length"], "fly away").status_code == 400
    other = "south" if seat == "north" else "north"
    not_yours = move(client, game, other, state["log_length"], "hold")
    assert not_yours.status_code == 400
    assert not_yours.json()["detail"].startswith(f"it is {seat}'s turn")
    assert seat_state(client, game, seat)["log_length"] == state["log_length"]


def test_bad_requests_get_clear_4xx(client: TestClient) -> None:
    assert client.post("/api/games", json={"ruleset": "chess", "seats": {"a": "human"}}).status_code == 400
    bad_seat = client.post("/api/games", json={"ruleset": "pig", "seats": {"east": "human"}})
    assert bad_seat.status_code == 400 and "unknown seat 'east'" in bad_seat.json()["detail"]
    no_person = client.post("/api/games", json={"ruleset": "pig", "seats": {"north": "random"}})
    assert no_person.status_code == 400 and "person" in no_person.json()["detail"]
    long_name = client.post("/api/games", json={"ruleset": "x" * 65, "seats": {"north": "human"}})
    assert long_name.status_code == 400
    huge = client.post(
        "/api/games", content=b"{" + b" " * 20_000 + b"}", headers={"Content-Type": "application/json"}
    )
    assert huge.status_code == 413
    assert client.post("/api/games", content=b"not json").status_code == 400
    assert client.get("/api/games/nosuchgame").status_code == 404
    game = create_pig(client)
    state = seat_state(client, game, "north")
    assert move(client, game, state["to_act"], -1, "hold").status_code == 400
    assert move(client, game, state["to_act"], state["log_length"], "x" * 501).status_code == 400


def test_a_bot_seat_plays_on_the_server(client: TestClient) -> None:
    # A far target: the server's dice are unpredictable, and the bot must not win within one turn.
    game = create_pig(client, seats={"north": "human", "south": "random"}, target=1000)
    assert list(game["tokens"]) == ["north"]
    state = seat_state(client, game, "north")
    assert state["to_act"] == "north"  # south, a bot, already moved if it went first
    after = move(client, game, "north", state["log_length"], "hold").json()
    assert after["to_act"] == "north"  # the bot played its whole turn in the same request
    assert any(e.get("seat") == "south" for e in after["log"])


def test_no_response_holds_another_seats_secret_the_seed_or_the_dice_secret(client: TestClient) -> None:
    game = create_pig(client, cup={"gold": 3})
    service = client.app.state.service  # type: ignore[attr-defined]
    state = seat_state(client, game, "north")
    seat = state["to_act"]
    other = "south" if seat == "north" else "north"
    drawn = move(client, game, seat, state["log_length"], "draw").json()
    assert drawn["view"]["state"]["hands"][seat] == ["gold"]  # the drawer sees its chit
    from sqlalchemy import text

    with service.engine.connect() as connection:
        seed, secret = connection.execute(text("select seed, secret from games")).one()
    responses = [
        seat_state(client, game, other),
        client.get(f"/api/games/{game['game_id']}").json(),
        seat_state(client, game, seat),
    ]
    for body in responses:
        dumped = json.dumps(body)
        assert secret not in dumped and seed not in dumped
        assert "rng" not in dumped and "hmac:" not in dumped
    for body in responses[:2]:  # the other seat and a spectator never see the chit
        assert "gold" not in json.dumps(body)
    export = client.get(f"/api/games/{game['game_id']}/export").text
    assert secret not in export and seed not in export
    assert '"commitment"' in export
