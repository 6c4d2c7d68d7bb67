"""The web app's rules box: the same assistant as ``rules ask``, bounded, with the game's situation."""

from __future__ import annotations

from fastapi.testclient import TestClient


def test_a_rules_question_gets_the_fact_and_the_section(client: TestClient) -> None:
    response = client.get("/api/rules", params={"q": "how many armies can I cram into Leningrad?"})
    assert response.status_code == 200, response.text
    body = response.json()
    assert body["answers"][0]["section"] == "7.1.1"
    assert "2 land units" in body["fact"]


def test_an_off_topic_question_is_refused_with_a_note(client: TestClient) -> None:
    body = client.get("/api/rules", params={"q": "how many tanks did the germans have at kursk"}).json()
    assert body["answers"] == [] and body["note"]


def test_empty_long_and_unknown_game_questions_get_a_4xx(client: TestClient) -> None:
    assert client.get("/api/rules", params={"q": "   "}).status_code == 400
    long = client.get("/api/rules", params={"q": "flag " * 200})
    assert long.status_code == 400 and "500 characters" in long.json()["detail"]
    unknown = client.get("/api/rules", params={"q": "what is a flag", "game": "no-such-game"})
    assert 400 <= unknown.status_code < 500


def test_a_cataclysm_page_has_the_rules_box_and_a_toy_game_page_does_not(client: TestClient) -> None:
    made = client.post(
        "/api/games",
        json={"ruleset": "cataclysm", "options": {"scenario": "europe-1939"}, "seats": {"italy": "human"}},
    )
    assert made.status_code == 201, made.text
    game = made.json()
    page = client.get(f"/g/{game['game_id']}/italy", params={"token": game["tokens"]["italy"]})
    assert page.status_code == 200 and 'id="rules-form"' in page.text
    pig = client.post(
        "/api/games", json={"ruleset": "pig", "options": {}, "seats": {"north": "human", "south": "human"}}
    ).json()
    assert 'id="rules-form"' not in client.get(f"/g/{pig['game_id']}").text
