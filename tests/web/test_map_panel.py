"""The Cataclysm page's map and panels: an area's facts (``GET /api/games/{id}/areas/{name}``),
the position panel built from ``PowerPosition``/``CupView``, and the map inline as SVG."""

from __future__ import annotations

import json
from html.parser import HTMLParser
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import text

from grandstrategy.cataclysm.position import area_view, cup_view, power_position
from grandstrategy.play.games import as_cataclysm

from .helpers import create_pig


@pytest.fixture
def cataclysm(client: TestClient) -> dict[str, Any]:
    """A Cataclysm game with Germany and France played by people, bots elsewhere."""
    created = client.post(
        "/api/games", json={"ruleset": "cataclysm", "seats": {"germany": "human", "france": "human"}}
    )
    assert created.status_code == 201, created.text
    game: dict[str, Any] = created.json()
    return game


def _game(client: TestClient, game_id: str) -> Any:
    """The server's Cataclysm game as it stands (the service's cached match)."""
    service = client.app.state.service  # type: ignore[attr-defined]
    found = as_cataclysm(service._matches[game_id].state)
    assert found is not None
    return found


class _Rows(HTMLParser):
    """The position panel's rows: power id -> {cell class -> text}, and the own-power sections."""

    def __init__(self) -> None:
        super().__init__()
        self.rows: dict[str, dict[str, str]] = {}
        self.own: list[str] = []
        self._power: str | None = None
        self._cell: str | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        if tag == "tr" and found.get("data-power"):
            self._power = found["data-power"]
            self.rows[str(self._power)] = {}
        elif tag in ("td", "th") and self._power is not None:
            self._cell = found.get("class") or ""
            self.rows[self._power][self._cell] = ""
        elif tag == "section" and "own-power" in (found.get("class") or ""):
            self.own.append(str(found.get("data-power")))

    def handle_endtag(self, tag: str) -> None:
        if tag == "tr":
            self._power = None
        if tag in ("td", "th"):
            self._cell = None

    def handle_data(self, data: str) -> None:
        if self._power is not None and self._cell is not None:
            self.rows[self._power][self._cell] += data


def _panel(page: str) -> _Rows:
    parser = _Rows()
    parser.feed(page)
    return parser


def test_an_area_s_facts_are_the_terminal_s_for_a_seat_and_a_spectator_and_nothing_hidden(
    client: TestClient, cataclysm: dict[str, Any]
) -> None:
    gid, tokens = cataclysm["game_id"], cataclysm["tokens"]
    base = f"/api/games/{gid}/areas"
    mine = client.get(f"{base}/Ruhr?seat=germany", headers={"X-Seat-Token": tokens["germany"]})
    assert mine.status_code == 200, mine.text
    expected = json.loads(json.dumps(area_view(_game(client, gid), "ruhr").to_json()))
    assert mine.json()["area"] == expected
    assert expected["controller"] == "Germany" and "industrial" in expected["resources"]
    theirs = client.get(f"{base}/ruhr?seat=france&token={tokens['france']}")
    spectator = client.get(f"{base}/ruhr")
    assert theirs.json()["area"] == spectator.json()["area"] == expected  # all public (LR 1.4)
    cup = client.app.state.service._matches[gid].state.state.cup  # type: ignore[attr-defined]
    assert len(cup) >= 2
    with client.app.state.service.engine.connect() as connection:  # type: ignore[attr-defined]
        seed, secret = connection.execute(text("select seed, secret from games")).one()
    for response in (mine, theirs, spectator):
        assert json.dumps(cup) not in response.text  # the cup's order stays on the server
        assert secret not in response.text and seed not in response.text
    html = client.get(f"{base}/ruhr?format=html&seat=germany", headers={"X-Seat-Token": tokens["germany"]})
    assert html.status_code == 200 and '<h3 id="area-name">Ruhr</h3>' in html.text
    assert '<span id="area-controller">Germany</span>' in html.text


def test_an_area_is_refused_with_a_message_for_a_bad_name_token_or_rule_set(
    client: TestClient, cataclysm: dict[str, Any]
) -> None:
    gid, tokens = cataclysm["game_id"], cataclysm["tokens"]
    unknown = client.get(f"/api/games/{gid}/areas/atlantis")
    assert unknown.status_code == 404 and unknown.json()["detail"].startswith("unknown area 'atlantis'")
    long = client.get(f"/api/games/{gid}/areas/{'x' * 65}")
    assert long.status_code == 400 and "longer than 64" in long.json()["detail"]
    wrong = client.get(
        f"/api/games/{gid}/areas/ruhr?seat=germany", headers={"X-Seat-Token": tokens["france"]}
    )
    assert wrong.status_code == 403
    assert client.get("/api/games/nosuchgame/areas/ruhr").status_code == 404
    pig = create_pig(client)
    toy = client.get(f"/api/games/{pig['game_id']}/areas/ruhr")
    assert toy.status_code == 404 and "no map areas" in toy.json()["detail"]


def test_the_position_panel_shows_each_power_s_position_and_only_the_seat_s_own_production(
    client: TestClient, cataclysm: dict[str, Any]
) -> None:
    gid, tokens = cataclysm["game_id"], cataclysm["tokens"]
    page = client.get(f"/g/{gid}/germany?token={tokens['germany']}").text
    game = _game(client, gid)
    panel = _panel(page)
    assert list(panel.rows) == list(game.state.powers)
    for power, row in panel.rows.items():
        view = power_position(game, power, viewer_seats={"germany"})
        flags, offensives = view.flags, view.offensives
        assert row["name"] == view.name + (" (you)" if power == "germany" else "")
        assert row["ideology"] == view.ideology and row["commitment"] == view.commitment
        assert row["stability"] == view.stability
        assert row["effectiveness"].split()[0] == str(view.effectiveness)
        assert row["vp"] == str(view.vp) and row["areas"] == str(len(view.areas))
        assert (
            row["flags"]
            == f"{flags.available} / {flags.in_reserve} / {flags.in_holding_box} / {flags.in_cup}"
        )
        assert row["offensives"].startswith(f"{offensives.available} / {offensives.in_reserve} /")
        assert row["cubes"] == str(sum(view.cubes_on_map.values()))
        assert row["cup"] == str(sum(view.cup.values()))
    assert panel.rows["germany"]["cup"] != "0"  # the counts are live data, not blanks
    assert panel.own == ["germany"]  # France's production and force pool are not on Germany's page
    germany = power_position(game, "germany", viewer_seats={"germany"})
    assert f'<span class="builds">{germany.production.builds_if_all_built}</span>' in page
    assert f'<td class="limit">{germany.force_pool.limit}, {germany.force_pool.in_play} in play' in page
    assert f'<span id="cup-total">{cup_view(game).total}</span>' in page
    spectator = client.get(f"/g/{gid}").text
    watched = _panel(spectator)
    assert list(watched.rows) == list(game.state.powers) and watched.own == []
    assert 'class="builds"' not in spectator and "(you)" not in spectator


def test_the_map_is_inline_svg_with_each_area_named_for_clicks(
    client: TestClient, cataclysm: dict[str, Any]
) -> None:
    gid, tokens = cataclysm["game_id"], cataclysm["tokens"]
    body = client.get(f"/g/{gid}/france?token={tokens['france']}&part=body").text
    start = body.index('<div id="map"')
    assert body[start:].split(">", 1)[1].lstrip().startswith("<svg")
    assert "<?xml" not in body and '<img id="map"' not in body
    assert '<rect id="area-ruhr" data-area="ruhr"' in body
    assert '<ellipse id="area-north-sea" data-area="north-sea"' in body
    assert 'id="position-panel"' in body  # swapped in with the body, so it updates live
