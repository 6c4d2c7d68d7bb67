"""The Axis & Allies board on the game page (``web/aamap.py``): every place drawn at its centre
with its owner's fill and its units' counts for the Revised setup, the side panel's facts from a
click (``GET /api/games/{id}/areas/{name}``), escaped text, and nothing of another seat's secrets
(AARHE convoy routes) in its picture."""

from __future__ import annotations

import re
from typing import Any

from fastapi.testclient import TestClient

from grandstrategy.core.session import Match
from grandstrategy.play.games import load_ruleset
from grandstrategy.web.aamap import board_svg, power_colours

from .helpers import seat_state


def _shape(svg: str, place: str) -> str:
    """The one shape (rect or ellipse, with its title) drawn for ``place``."""
    found = re.findall(rf'<(?:rect|ellipse) class="\w+" data-area="{re.escape(place)}"[^>]*>.*?</title>', svg)
    assert len(found) == 1, (place, found)
    return found[0]


def _chips(svg: str, place: str) -> dict[str, str]:
    """The unit count labels under ``place``: power -> label."""
    found = re.findall(
        rf'<g class="units" data-area="{re.escape(place)}" data-power="(\w+)">'
        r".*?<text[^>]*>([^<]*)</text></g>",
        svg,
    )
    return dict(found)


def test_the_revised_setup_is_drawn_with_owners_fills_and_unit_counts() -> None:
    match = Match(load_ruleset("aa-revised"), seed=0)
    svg = board_svg(match, "germans")
    assert svg is not None and svg.startswith("<svg") and svg.endswith("</svg>")
    module: Any = match.state.module
    for place in module.territories.values():  # every territory and sea zone, once
        _shape(svg, place.id)
    germany = _shape(svg, "germany")
    assert 'data-owner="germans"' in germany and "<title>Germany; owner germans; 10 IPC; capital" in germany
    # Germany's fill is its owner's colour, lightened; another German land has the same fill.
    fill = re.search(r'fill="(#[0-9a-f]{6})"', germany)
    assert fill and f'fill="{fill[1]}"' in _shape(svg, "western-europe")
    assert f'fill="{fill[1]}"' not in _shape(svg, "russia")  # the Russians' colour differs
    assert power_colours(match)["germans"] != power_colours(match)["russians"]
    # The setup's units (TripleA's Revised): Germany 3 infantry, 2 armour, a fighter, a bomber,
    # an AA gun and a factory; Karelia 3 Russian infantry and a fighter; sea zone 5 German ships.
    assert _chips(svg, "germany") == {"germans": "3i 2a 1f 1b 1aa 1IC"}
    assert _chips(svg, "karelia-ssr") == {"russians": "3i 1f"}
    assert _chips(svg, "sz-5") == {"germans": "1t 2s 1d"}
    assert _chips(svg, "switzerland") == {}  # neutral, empty
    assert 'data-owner=""' in _shape(svg, "switzerland") and 'class="sea"' in _shape(svg, "sz-5")
    assert "owner neutral; 0 IPC; impassable" in _shape(svg, "turkey")  # Revised: nobody enters it
    assert (
        "Suez Canal: ships pass between 15 Sea Zone and 34 Sea Zone only if their side holds Anglo Egypt"
        in svg
    )
    assert "★ ◎ 10 IPC" in svg  # Germany's marks: capital, victory city, IPC value
    assert 'class="legend"' in svg and "i infantry" in svg  # the key of colours and codes
    assert 'class="convoy"' not in svg and "⚖" not in re.sub(
        r'class="legend".*', "", svg
    )  # Revised has neither


def test_every_text_in_the_picture_is_escaped() -> None:
    match = Match(load_ruleset("aa-revised"), seed=0)
    match.state.d["units"]["germany"]['germans:<script>alert("x")</script>:1:0'] = 2
    svg = board_svg(match, None)
    assert svg is not None and "<script>" not in svg and "2&lt;script&gt;alert" in svg


def test_the_historical_edition_marks_its_own_facts_and_keeps_another_seats_convoys_out() -> None:
    """S3:L214: a power's written-down convoy routes are its secret until revealed; the board
    draws them for that seat only (from its own view), never for another seat or a spectator."""
    match = Match(load_ruleset("aa-aarhe"), seed=0)
    match.state.d["aarhe"]["convoys"] = {"british": {"routes": [[["sz-7", "sz-8", "sz-9"], 5]], "zones": {}}}
    mine, theirs, public = (board_svg(match, seat) for seat in ("british", "germans", None))
    assert mine is not None and theirs is not None and public is not None
    assert re.search(r'<path class="convoy" data-power="british" d="M[^"]+"', mine)
    assert "british convoy of 5 IPC via sz-7, sz-8, sz-9" in mine
    for other in (theirs, public):
        assert 'class="convoy"' not in other and "5 IPC via" not in other
        assert other == public  # nothing in it depends on who looks, but the owner's own routes
    # The variant's public facts: terrain letters and each neutral's place on the diplomacy track.
    turkey = _shape(public, "turkey")
    assert "terrain mountain" in turkey and "diplomacy track -1" in turkey
    assert "impassable" not in turkey  # the variant lets a team attack a neutral (S3:L242)
    assert "⚖+3" in public  # Eire leans to the Allies
    assert "terrain: D desert" in public


SEATS = {"germans": "human", "russians": "bot:random", "british": "bot:random", "japanese": "bot:random",
         "americans": "bot:random"}  # fmt: skip


def test_the_page_shows_the_board_and_a_click_reads_a_territorys_facts(client: TestClient) -> None:
    created = client.post(
        "/api/games", json={"ruleset": "aa-revised", "options": {"max_rounds": 1}, "seats": SEATS}
    )
    assert created.status_code == 201, created.text
    game = created.json()
    gid, token = game["game_id"], game["tokens"]["germans"]
    page = client.get(f"/g/{gid}/germans?token={token}").text
    assert '<div id="map" class="map aa-map"' in page and '<aside id="area-panel"' in page
    assert '<rect class="land" data-area="germany" data-owner="germans"' in page
    assert '<table id="territories"' in page  # the list stays beside the picture
    state = seat_state(client, game, "germans")["view"]["state"]
    facts = client.get(f"/api/games/{gid}/areas/Germany?seat=germans", headers={"X-Seat-Token": token}).json()
    area = facts["area"]
    assert (area["id"], area["owner"], area["ipc"], area["capital"], area["victory_city"]) == (
        "germany", "germans", 10, "germans", True,
    )  # fmt: skip
    infantry = sum(
        n for stack, n in state["units"]["germany"].items() if stack.startswith("germans:infantry:")
    )
    assert f"{infantry} infantry" in area["units"][0]["units"] and area["units"][0]["power"] == "germans"
    assert {"id": "sz-5", "name": "5 Sea Zone"} in area["neighbours"]
    html = client.get(f"/api/games/{gid}/areas/germany?format=html").text  # a spectator's panel
    assert '<h3 id="area-name">Germany</h3>' in html and '<dd id="area-owner">germans</dd>' in html
    assert '<dd id="area-ipc">10</dd>' in html and 'class="area-link" data-area="sz-5"' in html
    missing = client.get(f"/api/games/{gid}/areas/Germny")
    assert missing.status_code == 404 and "did you mean" in missing.json()["detail"]
    wrong = client.get(f"/api/games/{gid}/areas/germany?seat=germans", headers={"X-Seat-Token": "nope"})
    assert wrong.status_code == 403
    alone = client.get(f"/api/games/{gid}/map.svg")
    assert alone.status_code == 200 and alone.headers["content-type"].startswith("image/svg+xml")
    assert 'data-area="germany"' in alone.text
