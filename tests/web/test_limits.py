"""Limits: the rate limit on new games per client address, bounded bodies (declared or chunked),
nesting, names, moves and seats; each bad request is one clear 4xx and changes nothing stored."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import func, select
from sqlalchemy.orm import Session

from grandstrategy.web.app import create_app
from grandstrategy.web.limits import RateLimiter, parse_rate
from grandstrategy.web.storage import ActionRow, GameRow, open_database

from .helpers import create_pig, move, seat_state


def _counts(client: TestClient) -> tuple[int, int]:
    """Games and actions stored (to show that a refused request stored nothing)."""
    engine = client.app.state.service.engine  # type: ignore[attr-defined]
    with Session(engine) as session:
        games = session.scalar(select(func.count()).select_from(GameRow)) or 0
        actions = session.scalar(select(func.count()).select_from(ActionRow)) or 0
    return games, actions


@pytest.fixture
def limited(tmp_path: Path) -> Iterator[TestClient]:
    """A client of an app that lets one address create two games per window."""
    engine = open_database(f"sqlite:///{tmp_path / 'server.db'}")
    with TestClient(create_app(engine, create_limit=RateLimiter(2, 600))) as test_client:
        yield test_client
    engine.dispose()


def test_creating_too_many_games_from_one_address_gets_429(limited: TestClient) -> None:
    create_pig(limited)
    create_pig(limited)
    before = _counts(limited)
    refused = limited.post("/api/games", json={"ruleset": "pig", "seats": {"north": "human"}})
    assert refused.status_code == 429
    assert "too many new games from testclient: at most 2 per 600 seconds" in refused.json()["detail"]
    form = limited.post("/games", data={"ruleset": "pig", "seats": "north=human"})
    assert form.status_code == 429 and "too many new games" in form.text
    assert _counts(limited) == before
    # Playing is not limited: only creating.
    engine = limited.app.state.service.engine  # type: ignore[attr-defined]
    with Session(engine) as session:
        game_id = session.scalars(select(GameRow.id)).first()
    assert limited.get(f"/api/games/{game_id}").status_code == 200


def test_the_window_slides_and_addresses_count_apart() -> None:
    now = [0.0]
    limiter = RateLimiter(2, 60, clock=lambda: now[0])
    assert limiter.allow("a") is None and limiter.allow("a") is None
    assert limiter.allow("a") == 60.0
    assert limiter.allow("b") is None  # another address has its own count
    now[0] = 30.0
    assert limiter.allow("a") == 30.0  # a refusal counts nothing
    now[0] = 60.0
    assert limiter.allow("a") is None  # the first creation left the window
    assert parse_rate("5/30") == (5, 30.0)
    for bad in ("five/30", "0/30", "5/-1"):
        with pytest.raises(ValueError, match=r"COUNT/SECONDS|positive"):
            parse_rate(bad)


def test_a_chunked_body_over_the_cap_is_refused_before_it_is_read_whole(client: TestClient) -> None:
    def chunks() -> Iterator[bytes]:
        yield b'{"ruleset": "pig", "seats": {"north": "human"}, "pad": "'
        for _ in range(40):
            yield b"x" * 1000
        yield b'"}'

    before = _counts(client)
    response = client.post("/api/games", content=chunks(), headers={"Content-Type": "application/json"})
    assert "content-length" not in {k.lower() for k in response.request.headers}
    assert response.status_code == 413
    assert response.json() == {"detail": "the request body is over 16384 bytes"}
    assert _counts(client) == before


@pytest.mark.parametrize(
    ("body", "status", "detail"),
    [
        (b'{"ruleset": "pig", "seats": {"north": "human"}, "options": ' + b"[" * 5000 + b"]" * 5000 + b"}",
         400, "nested at most 16 deep"),
        (b'{"ruleset": "pig", "seats": {"north": "human"}, "options": {"a": ' + b"[" * 40 + b"]" * 40 + b"}}",
         400, "nested at most 16 deep"),
        (b"[1, 2]", 400, "must be a JSON object"),
        (b'{"ruleset": "pig", "seats": {' + b", ".join(b'"s%d": "human"' % i for i in range(33)) + b"}}",
         400, "at most 32 seats"),
        (b'{"ruleset": "pig", "seats": {"' + b"n" * 65 + b'": "human"}}', 400, "longer than 64"),
        (b'{"ruleset": "pig", "seats": {"north": "' + b"h" * 65 + b'"}}', 400, "longer than 64"),
        (b'{"ruleset": "pig", "seats": {"north": "human"}, "options": {"target": "' + b"9" * 2100 + b'"}}',
         400, "options are longer than 2000"),
        (b'{"ruleset": "pig", "seats": []}', 400, "seats must be an object"),
        (b'{"ruleset": 7, "seats": {"north": "human"}}', 400, "ruleset must be non-empty text"),
    ],
)  # fmt: skip
def test_bad_new_games_get_one_clear_4xx_and_store_nothing(
    client: TestClient, body: bytes, status: int, detail: str
) -> None:
    before = _counts(client)
    response = client.post("/api/games", content=body, headers={"Content-Type": "application/json"})
    assert response.status_code == status, response.text
    assert detail in response.json()["detail"]
    assert _counts(client) == before


def test_bad_moves_and_addresses_get_one_clear_4xx_and_change_nothing(client: TestClient) -> None:
    game = create_pig(client)
    state = seat_state(client, game, "north")
    seat, seen = state["to_act"], state["log_length"]
    before = _counts(client)
    url = f"/api/games/{game['game_id']}/seats/{seat}/moves"
    token = {"X-Seat-Token": game["tokens"][seat]}
    cases: list[tuple[object, int, str]] = [
        ({"seen": True, "action": "hold"}, 400, "seen must be the game's version"),
        ({"seen": "3", "action": "hold"}, 400, "seen must be the game's version"),
        ({"seen": seen, "action": ["hold"]}, 400, "action must be non-empty text"),
        ({"seen": seen, "action": "   "}, 400, "action must be non-empty text"),
        ({"seen": seen, "action": "h" * 501}, 400, "longer than 500"),
        ({"seen": seen, "action": "hold", "move_id": "m" * 65}, 400, "move_id is longer than 64"),
        ({"seen": seen, "action": "hold", "move_id": 12}, 400, "move_id must be non-empty text"),
        ({"seen": seen, "action": "fly away"}, 400, ""),
    ]
    for body, status, detail in cases:
        response = client.post(url, json=body, headers=token)
        assert response.status_code == status, (body, response.text)
        assert detail in response.json()["detail"]
    long_token = client.post(url, json={"seen": seen, "action": "hold"}, headers={"X-Seat-Token": "t" * 5000})
    assert long_token.status_code == 403
    long_seat = client.get(f"/api/games/{game['game_id']}/seats/{'s' * 500}", headers=token)
    assert long_seat.status_code == 404 and "no seat" in long_seat.json()["detail"]
    long_game = client.get(f"/api/games/{'g' * 500}")
    assert long_game.status_code == 404 and "no game" in long_game.json()["detail"]
    assert _counts(client) == before
    assert seat_state(client, game, seat)["log_length"] == seen
    assert move(client, game, seat, seen, "hold").status_code == 200  # and the game goes on
