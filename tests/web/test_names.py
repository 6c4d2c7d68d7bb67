"""Names for the people in the seats: given at creation (API and form), shown escaped on the
pages, the live updates and Cataclysm's position panel, changed only by the seat's own token."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient
from sqlalchemy import func, select
from sqlalchemy.orm import Session

from grandstrategy.web.storage import GameRow

from .helpers import create_pig, move, seat_state
from .test_live import TIMEOUT, events, serving, stream_url

SCRIPT = "<script>alert('x')</script>"


def rename(client: Any, game: dict[str, Any], seat: str, name: object, token_of: str | None = None) -> Any:
    """Post a new name for ``seat`` with the token of ``token_of`` (default: the seat's own)."""
    return client.post(
        f"/api/games/{game['game_id']}/seats/{seat}/name",
        headers={"X-Seat-Token": game["tokens"][token_of or seat]},
        json={"name": name},
    )


def games_stored(client: TestClient) -> int:
    engine = client.app.state.service.engine  # type: ignore[attr-defined]
    with Session(engine) as session:
        return int(session.scalar(select(func.count()).select_from(GameRow)) or 0)


def test_names_given_at_creation_are_shown_as_text_on_every_page(client: TestClient) -> None:
    game = create_pig(client, names={"north": f"  {SCRIPT} ", "south": "Anna"})
    assert game["names"] == {"north": SCRIPT, "south": "Anna"}  # stripped
    state = seat_state(client, game, "south")
    assert state["names"] == {"north": SCRIPT, "south": "Anna"}
    spectator = client.get(f"/api/games/{game['game_id']}").json()
    assert spectator["names"] == state["names"]
    for url in (f"/g/{game['game_id']}/south?token={game['tokens']['south']}", f"/g/{game['game_id']}"):
        page = client.get(url).text
        assert SCRIPT not in page  # never as markup
        assert '<span class="name">&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;</span>' in page
        assert re.search(r'<li data-seat="south">south — <span class="name">Anna</span>', page)
    mine = client.get(f"/g/{game['game_id']}/south?token={game['tokens']['south']}").text
    assert '<span id="my-name"> — Anna</span>' in mine and 'value="Anna"' in mine
    assert 'data-seat="south">south — <span class="name">Anna</span> (you)' in mine


def test_the_seat_on_move_is_named_in_the_status_line(client: TestClient) -> None:
    game = create_pig(client, names={"north": "Nora", "south": "Sam"})
    mover = seat_state(client, game, "north")["to_act"]
    page = client.get(f"/g/{game['game_id']}").text
    name = {"north": "Nora", "south": "Sam"}[mover]
    assert f'<p id="status">{mover} ({name}) to decide.</p>' in page


@pytest.mark.parametrize(
    ("names", "message"),
    [
        ({"north": "x" * 41}, "the name for seat north is longer than 40 characters"),
        ({"north": "bell\x07"}, "holds a control character (U+0007)"),
        ({"north": "two\nlines"}, "holds a control character (U+000A)"),
        ({"north": "evil\u202etxt.exe"}, "holds a control character (U+202E)"),
        ({"north": 7}, "the name for seat north must be text"),
        ({"south": "Bot Bob"}, "seat south is played by a bot: only a person's seat takes a name"),
        ({"east": "Eve"}, "a name for unknown seat 'east'"),
        (["north", "Anna"], "names must be an object"),
        ({"north": "y" * 10_000}, "longer than 40 characters"),
    ],
)
def test_a_bad_name_at_creation_is_one_clear_400_and_creates_nothing(
    client: TestClient, names: object, message: str
) -> None:
    response = client.post(
        "/api/games",
        json={"ruleset": "pig", "seats": {"north": "human", "south": "bot:random"}, "names": names},
    )
    assert response.status_code == 400
    assert message in response.json()["detail"]
    assert games_stored(client) == 0


def test_a_seat_changes_its_own_name_and_no_one_else_can(client: TestClient) -> None:
    game = create_pig(client, names={"north": "Nora"})
    before = seat_state(client, game, "north")
    changed = rename(client, game, "north", "  Nora B. ")
    assert changed.status_code == 200, changed.text
    assert changed.json()["name"] == "Nora B." and changed.json()["names"] == {"north": "Nora B."}
    assert "token" not in json.dumps(changed.json()).lower()
    after = seat_state(client, game, "south")
    assert after["names"] == {"north": "Nora B."}
    assert after["version"] == before["version"]  # a name is not a move: no move chosen meanwhile is stale
    assert after["seats_tag"] != before["seats_tag"]  # ... but live pages learn of it
    forged = rename(client, game, "north", "Mallory", token_of="south")
    assert forged.status_code == 403
    bad = rename(client, game, "north", "tab\there")
    assert bad.status_code == 400 and "control character (U+0009)" in bad.json()["detail"]
    assert seat_state(client, game, "north")["names"] == {"north": "Nora B."}  # unchanged by both
    cleared = rename(client, game, "north", "   ")
    assert cleared.status_code == 200 and cleared.json()["name"] is None
    assert seat_state(client, game, "north")["names"] == {}
    unknown = client.post(
        f"/api/games/{game['game_id']}/seats/east/name", headers={"X-Seat-Token": "x"}, json={"name": "E"}
    )
    assert unknown.status_code == 404


def test_a_move_chosen_before_a_rename_still_counts(client: TestClient) -> None:
    game = create_pig(client)
    state = seat_state(client, game, "north")
    other = "south" if state["to_act"] == "north" else "north"
    assert rename(client, game, other, "Olga").status_code == 200
    made = move(client, game, state["to_act"], state["version"], "hold")
    assert made.status_code == 200, made.text
    assert made.json()["names"] == {other: "Olga"}


def test_the_form_takes_one_name_a_line_and_refuses_a_bad_line(client: TestClient) -> None:
    page = client.post(
        "/games",
        data={
            "ruleset": "pig",
            "scenario": "",
            "seats": "north=human,*=human",
            "names": "North = Nora\n\nsouth=S&am",
        },
    )
    assert page.status_code == 200, page.text
    assert 'north — <span class="name">Nora</span>' in page.text
    assert 'south — <span class="name">S&amp;am</span>' in page.text
    game_id = re.findall(r'class="invite" href="[^"]*?/g/([^/]+)/', page.text)[0]
    assert client.get(f"/api/games/{game_id}").json()["names"] == {"north": "Nora", "south": "S&am"}
    bad = client.post(
        "/games", data={"ruleset": "pig", "scenario": "", "seats": "north=human", "names": "Nora"}
    )
    assert bad.status_code == 400 and "names line 1 is not SEAT=NAME" in bad.text
    bot = client.post(
        "/games", data={"ruleset": "pig", "scenario": "", "seats": "north=human", "names": "south=Sam"}
    )
    assert bot.status_code == 400 and "seat south is played by a bot" in bot.text
    assert games_stored(client) == 1


def test_the_position_panel_names_who_plays_each_power(client: TestClient) -> None:
    created = client.post(
        "/api/games",
        json={
            "ruleset": "cataclysm",
            "seats": {"germany": "human", "italy": "human"},
            "names": {"germany": "Anna", "italy": "<b>Bruno</b>"},
        },
    )
    assert created.status_code == 201, created.text
    game = created.json()
    page = client.get(f"/g/{game['game_id']}/germany?token={game['tokens']['germany']}").text
    panel = page[page.index('<div id="position-panel">') :]
    assert '<tr data-power="germany" class="yours">' in panel
    assert 'Germany — <span class="person">Anna</span> (you)</th>' in panel
    assert 'Italy — <span class="person">&lt;b&gt;Bruno&lt;/b&gt;</span></th>' in panel
    assert "<h3>Germany — Anna (you)</h3>" in panel
    assert '<th scope="row" class="name">France</th>' in panel  # a bot's power: no name


def test_a_rename_reaches_the_other_seats_live_stream(tmp_path: Path) -> None:
    with (
        serving(f"sqlite:///{tmp_path / 'server.db'}") as (base, _service),
        httpx.Client(base_url=base, timeout=TIMEOUT) as client,
    ):
        game = create_pig(client)
        with client.stream("GET", stream_url(game, "south")) as response:
            received = events(response)
            first = json.loads(next(received)["data"])
            with httpx.Client(base_url=base, timeout=TIMEOUT) as other:
                assert rename(other, game, "north", "Nora").status_code == 200
            second = next(received)
            data = json.loads(second["data"])
            assert second["event"] == "version"
            assert data["version"] == first["version"]
            assert data["seats_tag"] != first["seats_tag"]
            assert data["seats_tag"] == seat_state(client, game, "south")["seats_tag"]
