"""Undo on the server: one's own last choice, not past chance or another person's choice; versions."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from grandstrategy.core.chance import ChanceEvent
from grandstrategy.core.ids import Seat
from grandstrategy.core.log import ActionEntry
from grandstrategy.web.service import WebError, undo_point

from .helpers import create_pig, move, seat_state


def undo(client: TestClient, game: dict[str, Any], seat: str, seen: int) -> Any:
    """Post an undo for ``seat`` with its own token; return the raw response."""
    return client.post(
        f"/api/games/{game['game_id']}/seats/{seat}/undo",
        headers={"X-Seat-Token": game["tokens"][seat]},
        json={"seen": seen},
    )


def held(client: TestClient) -> tuple[dict[str, Any], str, str, dict[str, Any], dict[str, Any]]:
    """A new Pig game whose first mover has held: (game, mover, other, before, after)."""
    game = create_pig(client)
    before = seat_state(client, game, "north")
    mover = before["to_act"]
    other = "south" if mover == "north" else "north"
    response = move(client, game, mover, before["version"], "hold", "hold-1")
    assert response.status_code == 200, response.text
    return game, mover, other, before, response.json()


def test_a_seat_takes_back_its_last_choice_before_anyone_else_acts(client: TestClient) -> None:
    game, mover, other, before, after = held(client)
    assert after["undo"] == {"action": "hold", "label": "hold", "bot_moves": 0}
    assert seat_state(client, game, other)["undo"] is None  # the other seat has nothing to take back
    response = undo(client, game, mover, after["version"])
    assert response.status_code == 200, response.text
    undone = response.json()
    assert undone["undone"] == "hold"
    assert undone["log_length"] == before["log_length"]
    assert undone["log"] == before["log"]
    assert undone["to_act"] == mover and undone["decision"] is not None
    assert undone["version"] > after["version"]  # a new version, though the log is shorter
    assert seat_state(client, game, other)["to_act"] == mover


def test_undo_is_refused_after_a_die_or_another_persons_choice(client: TestClient) -> None:
    game = create_pig(client)
    state = seat_state(client, game, "north")
    mover = state["to_act"]
    nothing = undo(client, game, mover, state["version"])
    assert nothing.status_code == 400
    assert nothing.json()["detail"] == f"nothing to undo: {mover} has made no choice yet"
    rolled = move(client, game, mover, state["version"], "roll").json()
    assert rolled["undo"] is None
    refused = undo(client, game, mover, rolled["version"])
    assert refused.status_code == 400
    assert "chance has spoken since" in refused.json()["detail"]
    assert seat_state(client, game, mover)["log"] == rolled["log"]  # nothing changed
    game, mover, other, _, after = held(client)
    theirs = move(client, game, other, after["version"], "hold").json()
    late = undo(client, game, mover, theirs["version"])
    assert late.status_code == 400
    assert late.json()["detail"] == f"cannot undo 'hold': {other} has chosen since"
    assert seat_state(client, game, mover)["version"] == theirs["version"]


def test_undo_needs_the_current_version_and_the_seats_own_token(client: TestClient) -> None:
    game, mover, other, before, after = held(client)
    stale = undo(client, game, mover, before["version"])
    assert stale.status_code == 409 and stale.json()["state"]["version"] == after["version"]
    wrong = client.post(
        f"/api/games/{game['game_id']}/seats/{mover}/undo",
        headers={"X-Seat-Token": game["tokens"][other]},
        json={"seen": after["version"]},
    )
    assert wrong.status_code == 403
    assert undo(client, game, mover, -1).status_code == 400
    assert seat_state(client, game, other)["version"] == after["version"]  # nothing changed
    assert undo(client, game, mover, after["version"]).status_code == 200
    twice = undo(client, game, mover, after["version"])  # a second click on the same page
    assert twice.status_code == 409


def test_a_client_that_saw_the_position_before_an_undo_and_a_new_move_gets_409(client: TestClient) -> None:
    game, mover, other, _before, after = held(client)
    seen_by_other = seat_state(client, game, other)  # the other seat's page, before the undo
    undone = undo(client, game, mover, after["version"]).json()
    again = move(client, game, mover, undone["version"], "hold", "hold-2").json()
    assert again["log_length"] == seen_by_other["log_length"]  # the same length as before the undo
    stale = move(client, game, other, seen_by_other["version"], "hold", "other-1")
    assert stale.status_code == 409
    assert stale.json()["state"]["version"] == again["version"]
    by_length = move(client, game, other, seen_by_other["log_length"], "hold", "other-2")
    assert by_length.status_code == 409  # the log length alone is no longer a version
    fresh = move(client, game, other, again["version"], "hold", "other-3")
    assert fresh.status_code == 200


def test_move_ids_stay_idempotent_around_an_undo(client: TestClient) -> None:
    game, mover, _other, before, after = held(client)
    undone = undo(client, game, mover, after["version"]).json()
    retried = move(client, game, mover, before["version"], "hold", "hold-1")  # the undone move, resent
    assert retried.status_code == 409  # it was taken back: not replayed, not reported as played
    replayed = move(client, game, mover, undone["version"], "hold", "hold-1")  # its id may be used again
    assert replayed.status_code == 200
    repeat = move(client, game, mover, undone["version"], "hold", "hold-1")
    assert repeat.json()["repeated"] is True
    assert [e.get("action") for e in repeat.json()["log"]].count("hold") == 1


def test_a_finished_game_takes_nothing_back(client: TestClient) -> None:
    game = create_pig(client, target=1)  # the first hold after a good roll wins
    state = seat_state(client, game, "north")
    for _ in range(50):
        if state["over"]:
            break
        seat = state["to_act"]
        mine = seat_state(client, game, seat)
        action = "hold" if mine["view"]["state"]["turn_total"] > 0 else "roll"
        state = move(client, game, seat, mine["version"], action).json()
    assert state["over"] is True
    winner = next(seat for seat, value in state["returns"].items() if value > 0)
    assert seat_state(client, game, winner)["undo"] is None
    refused = undo(client, game, winner, state["version"])
    assert (
        refused.status_code == 400
        and refused.json()["detail"] == "the game is over: nothing can be taken back"
    )


def test_the_undo_button_shows_only_when_undo_is_allowed(client: TestClient) -> None:
    game, mover, other, _, after = held(client)
    mover_page = client.get(f"/g/{game['game_id']}/{mover}?token={game['tokens'][mover]}").text
    other_page = client.get(f"/g/{game['game_id']}/{other}?token={game['tokens'][other]}").text
    assert 'id="undo"' in mover_page and "Undo hold" in mover_page
    assert 'id="undo"' not in other_page
    move(client, game, other, after["version"], "hold")
    later = client.get(f"/g/{game['game_id']}/{mover}?token={game['tokens'][mover]}").text
    assert 'id="undo"' not in later


def test_bot_moves_after_the_choice_are_taken_back_with_it_but_another_persons_stop_it() -> None:
    north, south, east = Seat("north"), Seat("south"), Seat("east")
    log = (
        ChanceEvent(0, "uniform", "who goes first", "north"),
        ActionEntry(north, "hold"),
        ActionEntry(south, "hold"),
    )
    assert undo_point(log, "north", {"north": "human", "south": "bot:random"}, False) == 1
    try:
        undo_point(log, "north", {"north": "human", "south": "human"}, False)
    except WebError as error:
        assert error.status == 400 and error.message == "cannot undo 'hold': south has chosen since"
    else:
        raise AssertionError("another person's choice must stop the undo")
    drawn = (*log[:2], ChanceEvent(1, "counts", "north draws", "gold", private_to=east))
    try:
        undo_point(drawn, "north", {"north": "human"}, False)
    except WebError as error:
        assert error.message.endswith("chance has spoken since (north draws); undo stops at dice and draws")
        assert "gold" not in error.message  # a private draw's outcome is not told
    else:
        raise AssertionError("a draw must stop the undo")
