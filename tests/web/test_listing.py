"""The game listing: newest activity first, a page at a time, public facts only, off on request."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import select
from sqlalchemy.engine import Engine
from sqlalchemy.orm import Session

from grandstrategy.web.lobby import PER_PAGE
from grandstrategy.web.storage import GameRow, SeatRow, open_database

from .clock import START, Clock, clocked_client
from .helpers import create_pig, move, play_out, seat_state


@pytest.fixture
def engine(tmp_path: Path) -> Iterator[Engine]:
    made = open_database(f"sqlite:///{tmp_path / 'server.db'}")
    yield made
    made.dispose()


def secrets_of(engine: Engine) -> list[str]:
    """Every secret the database holds: token hashes, dice secrets, bots' seeds."""
    with Session(engine) as session:
        hashes = [h for h in session.scalars(select(SeatRow.token_hash)) if h]
        games = session.execute(select(GameRow.secret, GameRow.seed)).all()
    return [*hashes, *(secret for secret, _ in games), *(seed for _, seed in games if len(seed) > 4)]


def test_the_listing_shows_each_game_newest_activity_first_and_nothing_secret(engine: Engine) -> None:
    clock = Clock()
    with clocked_client(engine, clock) as client:
        first = create_pig(client, names={"north": "<i>Nora</i>"})
        clock.advance(hours=1)
        second = create_pig(client, seats={"north": "human", "south": "bot:random"}, max_turns=1)
        clock.advance(hours=1)
        state = seat_state(client, first, "north")
        assert move(client, first, state["to_act"], state["version"], "hold").status_code == 200
        listed = client.get("/api/games")
        assert listed.status_code == 200
        body = listed.json()
        assert [game["game_id"] for game in body["games"]] == [first["game_id"], second["game_id"]]
        top = body["games"][0]
        assert top["link"] == f"/g/{first['game_id']}" and top["ruleset"] == "toy-pig"
        assert top["created"] == "2031-05-06T07:08:09+00:00"
        assert top["last_move"] == "2031-05-06T09:08:09+00:00"
        assert top["over"] is False and top["result"] == ""
        assert top["seats"] == [
            {"seat": "north", "kind": "human", "person": True, "name": "<i>Nora</i>"},
            {"seat": "south", "kind": "human", "person": True, "name": None},
        ]
        assert body["games"][1]["seats"][1] == {
            "seat": "south",
            "kind": "bot:random",
            "person": False,
            "name": None,
        }
        assert body["total"] == 2 and body["page"] == 1 and body["pages"] == 1
        page = client.get("/games").text
        assert page.index(first["game_id"]) < page.index(second["game_id"])
        assert "&lt;i&gt;Nora&lt;/i&gt;" in page and "<i>Nora</i>" not in page
        assert "south — bot (random)" in page
        assert (
            '<td class="last-move"><time datetime="2031-05-06T09:08:09+00:00">2031-05-06 09:08 UTC</time>'
            in page
        )
        for text in (listed.text, page):
            for game in (first, second):
                for token in game["tokens"].values():
                    assert token not in text
            for secret in secrets_of(engine):
                assert secret not in text
        assert "token" not in page.lower()


def test_a_finished_game_is_listed_as_over_and_a_running_one_with_its_phase(engine: Engine) -> None:
    clock = Clock()
    with clocked_client(engine, clock) as client:
        running = create_pig(client)
        game = create_pig(client, max_turns=1)  # two people: someone moves before it ends
        clock.advance(days=2)
        final = play_out(client, game)
        assert final["over"] is True
        listed = {g["game_id"]: g for g in client.get("/api/games").json()["games"]}
        assert listed[game["game_id"]]["over"] is True
        assert listed[game["game_id"]]["last_move"] == "2031-05-08T07:08:09+00:00"  # when it ended
        assert listed[running["game_id"]]["over"] is False
        assert listed[running["game_id"]]["phase"].startswith("Now: ")  # the rule set's own phase
        page = client.get("/games").text
        row = page[page.index(f'<tr data-game="{game["game_id"]}">') :]
        assert '<td class="progress">Over</td>' in row[: row.index("</tr>")]


def test_the_listing_goes_a_page_at_a_time_and_refuses_a_bad_page(engine: Engine) -> None:
    clock = Clock()
    with clocked_client(engine, clock) as client:
        made = []
        for _ in range(PER_PAGE + 1):
            made.append(create_pig(client)["game_id"])
            clock.advance(minutes=1)
        first = client.get("/api/games").json()
        assert [game["game_id"] for game in first["games"]] == made[::-1][:PER_PAGE]
        assert first["total"] == PER_PAGE + 1 and first["pages"] == 2
        second = client.get("/api/games?page=2").json()
        assert [game["game_id"] for game in second["games"]] == [made[0]]
        assert client.get("/api/games?page=3").json()["games"] == []
        page_two = client.get("/games?page=2").text
        assert 'id="newer" href="/games?page=1"' in page_two and 'id="older"' not in page_two
        assert 'id="older" href="/games?page=2"' in client.get("/games").text
        for bad in ("0", "-1", "two", "10001", "9" * 40, "1.5"):
            refused = client.get(f"/api/games?page={bad}")
            assert refused.status_code == 400
            assert refused.json() == {"detail": "page must be a whole number from 1 to 10000"}
        refused_page = client.get("/games?page=zero")
        assert refused_page.status_code == 400 and "page must be a whole number" in refused_page.text


def test_the_home_page_links_the_listing_unless_it_is_turned_off(engine: Engine) -> None:
    with clocked_client(engine, Clock(START)) as client:
        create_pig(client)
        assert 'href="/games"' in client.get("/").text
    with clocked_client(engine, Clock(START), listing=False) as client:
        assert 'href="/games"' not in client.get("/").text
        api = client.get("/api/games")
        assert api.status_code == 404 and "does not list its games" in api.json()["detail"]
        page = client.get("/games")
        assert page.status_code == 404 and "does not list its games" in page.text
        assert (
            client.post("/api/games", json={"ruleset": "pig", "seats": {"north": "human"}}).status_code == 201
        )


def test_the_listing_is_the_same_on_postgresql(pg_url: str) -> None:
    engine = open_database(pg_url)
    clock = Clock(START.replace(year=2090))  # after every other test's games: these list first
    try:
        with clocked_client(engine, clock) as client:
            older = create_pig(client, names={"south": "Sam"})
            clock.advance(seconds=1)
            newer = create_pig(client)
            listed = client.get("/api/games").json()
            assert [g["game_id"] for g in listed["games"][:2]] == [newer["game_id"], older["game_id"]]
            assert listed["games"][1]["seats"][1] == {
                "seat": "south",
                "kind": "human",
                "person": True,
                "name": "Sam",
            }
            assert listed["total"] >= 2
    finally:
        engine.dispose()
