"""An Axis & Allies Revised game on the server: the form offers it, a person plays Germany
through the API against bots, every seat and spectators see the (open) position, and at the end
the revealed dice secret matches the commitment and replays every draw."""

from __future__ import annotations

import json
import re
from typing import Any

from fastapi.testclient import TestClient

from grandstrategy.core.committed import commitment
from grandstrategy.core.replay import replay
from grandstrategy.core.save import loads_save

from .helpers import move, seat_state

SEATS = {
    "germans": "human",
    "russians": "bot:heuristic",
    "british": "bot:random",
    "japanese": "bot:random",
    "americans": "bot:random",
}


def _create(client: TestClient) -> dict[str, Any]:
    response = client.post(
        "/api/games", json={"ruleset": "aa-revised", "options": {"max_rounds": 1}, "seats": SEATS}
    )
    assert response.status_code == 201, response.text
    game: dict[str, Any] = response.json()
    return game


def _germans_pick(choices: list[str], made: list[str]) -> str:
    """Germany's plan: buy one infantry, send one armour into combat, else move on ('done')."""
    for wanted in ("germans: buy infantry", "germans: move 1 armour "):
        if not any(m.startswith(wanted) for m in made):
            hit = [c for c in choices if c.startswith(wanted)]
            if hit:
                return hit[0]
    return "germans: done" if "germans: done" in choices else choices[0]


def test_the_new_game_form_offers_and_creates_axis_and_allies(client: TestClient) -> None:
    page = client.get("/").text
    assert 'value="aa-revised"' in page and "Axis &amp; Allies Revised" in page
    # Seats by alliance: the axis powers are people, every other seat a random bot.
    form = {"ruleset": "aa-revised", "scenario": "", "seats": "axis=human,*=random"}
    created = client.post("/games", data=form)
    assert created.status_code == 200, created.text
    links = re.findall(r'class="invite" href="[^"]*?/g/([^/]+)/(\w+)\?token=([^"]+)"', created.text)
    assert {seat for _, seat, _ in links} == {"germans", "japanese"}
    game_id, seat, token = links[0]
    assert client.get(f"/g/{game_id}/{seat}?token={token}").status_code == 200


def test_a_person_plays_germany_against_bots_through_the_api(client: TestClient) -> None:
    game = _create(client)
    gid, token = game["game_id"], game["tokens"]["germans"]
    assert set(game["tokens"]) == {"germans"}
    state = seat_state(client, game, "germans")
    # Russia (a bot) moved first; Germany now decides (its casualties in Russia's turn, or its own turn).
    assert state["to_act"] == "germans" and state["log_length"] > 0
    # Open information: the spectator sees the same position as the seat.
    spectator = client.get(f"/api/games/{gid}").json()
    assert spectator["view"]["state"] == state["view"]["state"] and spectator["decision"] is None
    page = client.get(f"/g/{gid}/germans?token={token}")
    assert page.status_code == 200 and 'class="choice"' in page.text
    # The page lists the territories, each with its owner, IPCs and units.
    row = re.search(r'<tr data-territory="germany" class="land">(.*?)</tr>', page.text, re.S)
    assert row and "<th" in row[1] and ">Germany</th>" in row[1]
    assert '<td class="owner">germans</td><td class="ipc">10</td>' in row[1]
    assert re.search(r'<td class="units">germans: [^<]*\d+ infantry', row[1])
    assert 'class="sea"' in page.text  # seas with units listed
    assert '<div id="map" class="map aa-map"' in page.text  # beside the drawn board (test_aa_map.py)
    # A move that is not legal is refused with one message; the game is unchanged.
    bad = move(client, game, "germans", state["log_length"], "germans: buy battleships galore")
    assert bad.status_code == 400 and "detail" in bad.json()
    assert seat_state(client, game, "germans")["log_length"] == state["log_length"]
    made: list[str] = []
    germans_turn_seen = False
    for n in range(400):
        if state["over"]:
            break
        choices = [c["action"] for c in state["decision"]["choices"]]
        action = _germans_pick(choices, made)
        made.append(action)
        germans_turn_seen |= state["view"]["state"]["turn"] == 1
        response = move(client, game, "germans", state["log_length"], action, f"m{n}")
        assert response.status_code == 200, response.text
        state = response.json()
        assert state["to_act"] in (None, "germans")  # the bots answered up to the next German decision
    assert state["over"] is True and germans_turn_seen
    assert any(m.startswith("germans: buy infantry") for m in made)
    assert any(m.startswith("germans: move 1 armour ") for m in made)
    # The bots played their powers' turns (round 1 went through every power).
    final = state["view"]["state"]
    assert final["result"] == {"winner": None, "how": "round limit 1", "round": 1}
    # The dice: the revealed secret matches the commitment and replays every draw.
    secret = bytes.fromhex(state["dice_secret"])
    assert commitment(secret) == state["dice_commitment"] == game["dice_commitment"]
    export = client.get(f"/api/games/{gid}/export").text
    data = json.loads(export)
    assert sum(e["type"] == "chance" for e in data["log"]) >= 10
    actions = [e for e in data["log"] if e["type"] == "action"]
    assert actions[0]["seat"] == "russians"  # the bots moved before the person was asked
    assert {e["seat"] for e in actions} == set(SEATS)  # every power played its turn
    match = replay(loads_save(export))  # raises if any draw differs from the secret's
    assert match.is_terminal() and match.state.to_json() == final


def test_the_historical_edition_plays_to_its_end_on_the_server_and_its_dice_verify(
    client: TestClient,
) -> None:
    """The variant (issue 14) on the same server: offered by the form, a person holds Germany,
    bots the rest; the Soviet Union's lone first round and the Axis team's turn go by, and at the
    round limit the revealed secret replays every die."""
    assert 'value="aa-aarhe"' in client.get("/").text
    seats = {**SEATS, "russians": "bot:random"}
    response = client.post(
        "/api/games", json={"ruleset": "aa-aarhe", "options": {"max_rounds": 2}, "seats": seats}
    )
    assert response.status_code == 201, response.text
    game = response.json()
    state = seat_state(client, game, "germans")
    assert state["to_act"] == "germans"
    opening = [
        e for e in client.get(f"/api/games/{game['game_id']}").json()["log"] if e.get("type") == "action"
    ]
    assert opening and {e["seat"] for e in opening} == {"russians"}  # S3:L206: round 1 is Soviet alone
    for n in range(600):
        if state["over"]:
            break
        choices = [c["action"] for c in state["decision"]["choices"]]
        action = "germans: done" if "germans: done" in choices else choices[0]
        response = move(client, game, "germans", state["version"], action, f"h{n}")
        assert response.status_code == 200, response.text
        state = response.json()
    assert state["over"] is True
    assert state["view"]["state"]["result"]["how"].startswith("round limit")
    secret = bytes.fromhex(state["dice_secret"])
    assert commitment(secret) == game["dice_commitment"]
    export = client.get(f"/api/games/{game['game_id']}/export").text
    match = replay(loads_save(export))
    assert match.is_terminal() and match.state.to_json() == state["view"]["state"]


def test_a_secret_convoy_route_stays_out_of_every_other_seats_responses(client: TestClient) -> None:
    """AARHE (S3:L214): the United Kingdom writes its convoy routes down in secret; Germany's
    state, a spectator's and Germany's story of the moves never show them, the British seat's do."""
    seats = {**SEATS, "british": "human", "russians": "bot:random"}
    response = client.post(
        "/api/games", json={"ruleset": "aa-aarhe", "options": {"max_rounds": 3}, "seats": seats}
    )
    assert response.status_code == 201, response.text
    game = response.json()
    chosen: list[str] = []
    state = seat_state(client, game, "germans")
    for n in range(1500):
        seat = state["to_act"]
        mine = seat_state(client, game, seat)
        choices = [c["action"] for c in mine["decision"]["choices"]]
        routing = any(" convoy via " in c for c in choices)
        if seat == "british" and routing:
            action = choices[-1]  # a zone, never the safest route
            chosen.append(action)
        else:
            action = f"{seat}: done" if f"{seat}: done" in choices else choices[0]
        state = move(client, game, seat, mine["version"], action, f"m{n}").json()
        if chosen and not routing and seat == "british":
            break
    assert chosen, "the British never had a route to choose"
    routes = state["view"]["state"]["aarhe"]["convoys"]["british"]["routes"]  # the British see them
    service = client.app.state.service  # type: ignore[attr-defined]
    # the page's "since you were last here" for Germany (read first: a look marks the log seen)
    told = service.look(game["game_id"], "germans", game["tokens"]["germans"], narrate=True)["since"]
    lines = [line for move_told in told for line in move_told["lines"]]
    assert any(line.endswith("makes a secret choice") for line in lines)  # the bots' routes too
    export = client.get(f"/api/games/{game['game_id']}/export").text  # anyone may download it
    assert "convoy" not in export and '"state_hash": "?"' in export.replace('":"', '": "')
    assert not any("convoy via" in line for line in lines)
    enemy = client.get(
        f"/api/games/{game['game_id']}/seats/germans",
        headers={"X-Seat-Token": game["tokens"]["germans"]},
    ).json()
    spectator = client.get(f"/api/games/{game['game_id']}").json()
    # The pages' territory lists come from the same views: no route there either.
    pages = [
        client.get(f"/g/{game['game_id']}/germans?token={game['tokens']['germans']}").text,
        client.get(f"/g/{game['game_id']}").text,
    ]
    for page in pages:
        assert '<table id="territories"' in page
        assert not any(option.split(": ")[1] in page for option in chosen)
    for body in (enemy, spectator):
        dumped = json.dumps(body)
        assert not any(option.split(": ")[1] in dumped for option in chosen)
        assert body["view"]["state"]["aarhe"]["convoys"]["british"] == "?"
        for route in routes:
            assert json.dumps(route[0]) not in dumped


def test_since_you_were_last_here_tells_the_bots_moves_in_sentences(client: TestClient) -> None:
    """The page's "since you were last here" tells Russia's turn as a player would: one sentence
    for its purchases with their cost, moves by the places' names, one line per battle round
    with every die, never one line per die or a raw 'answers' line for a known move."""
    game = _create(client)
    service = client.app.state.service  # type: ignore[attr-defined]
    told = service.look(game["game_id"], "germans", game["tokens"]["germans"], narrate=True)["since"]
    lines = [line for move_told in told for line in move_told["lines"]]
    purchases = [line for line in lines if line.startswith("Russians buy ")]
    assert len(purchases) == 1 and re.fullmatch(r"Russians buy .+ \(\d+ IPC\)", purchases[0])
    assert any(re.fullmatch(r"Russians (move|attack) .+ (from|to) [A-Z].*", line) for line in lines)
    assert not any(re.search(r"hits on \d or less: \d$", line) for line in lines)  # no die alone
    assert not any('answers "round 1 russians' in line for line in lines)
    battles = [line for line in lines if line.startswith("  Battle of ")]
    assert battles and "Russians fight the battle of West Russia" in lines
    for line in battles:
        assert re.match(r"  Battle of [A-Z][^,]*, round \d+: Russians hit \d+ \([a-z]+ at \d: [\d,]+", line)
