"""The Cataclysm page's score block: the terminal's ``score`` (``ScoreView``: VP by ideology and
power, who wins if the game ended now under LR 1.7.2, what each ideology needs) in the position
panel, for a known position, and its words the same as the terminal's."""

from __future__ import annotations

import re
from html import unescape

from fastapi.testclient import TestClient

from grandstrategy.cataclysm.position import score_view
from grandstrategy.core.session import Match
from grandstrategy.play.games import as_cataclysm, load_ruleset
from grandstrategy.play.position_text import score_need
from grandstrategy.web.service import position_panel


def _rows(page: str) -> dict[str, str]:
    """The score table's rows: ideology -> its cells' text, joined by ' | '."""
    block = re.search(r'<section id="score".*?</section>', page, re.S)
    assert block, "no score block on the page"
    rows = re.findall(r'<tr data-ideology="(\w+)"[^>]*>(.*?)</tr>', block[0], re.S)
    table: dict[str, str] = {}
    for name, cells in rows:
        texts = re.findall(r"<t[hd][^>]*>(.*?)</t[hd]>", cells, re.S)
        table[name] = " | ".join(unescape(re.sub(r"<[^>]+>", "", cell)).strip() for cell in texts)
    return table


def test_the_score_block_of_the_1933_start() -> None:
    """The campaign's opening position: the Democracies lead 6 to 1 and 1; Fascism and Communism
    both score, so the Democracies must beat their sum (LR 1.7.2)."""
    match = Match(load_ruleset("cataclysm"), seed=0)
    panel = position_panel(match, None)
    assert panel is not None
    score = panel["score"]
    assert isinstance(score, dict)
    assert (
        score["verdict_label"] == "if the game ended now" and score["verdict"] == "democracy wins (LR 1.7.2)"
    )
    assert score["standings"][0] == {
        "ideology": "democracy", "vp": 6, "powers": {"France": 4, "United Kingdom": 2, "United States": 0},
        "wins_now": True, "margin": 4, "need": "wins now, and would with 3 VP less",
    }  # fmt: skip
    assert [s["need"] for s in score["standings"][1:]] == ["needs 4 VP more to win"] * 2  # type: ignore[index]
    assert "more VP than the two together" in str(score["note"])


def test_the_page_shows_the_score_block_live_with_the_terminals_words(client: TestClient) -> None:
    created = client.post("/api/games", json={"ruleset": "cataclysm", "seats": {"germany": "human"}})
    assert created.status_code == 201, created.text
    game = created.json()
    page = client.get(f"/g/{game['game_id']}/germany?token={game['tokens']['germany']}&part=body").text
    service = client.app.state.service  # type: ignore[attr-defined]
    cataclysm = as_cataclysm(service._matches[game["game_id"]].state)
    assert cataclysm is not None
    view = score_view(cataclysm)
    rows = _rows(page)
    assert list(rows) == [s.ideology for s in view.standings] == ["democracy", "fascism", "communism"]
    for standing in view.standings:
        powers = ", ".join(f"{name} {vp}" for name, vp in standing.powers.items())
        assert (
            rows[standing.ideology]
            == f"{standing.ideology} | {standing.vp} | {powers} | {score_need(standing)}"
        )
    assert rows["democracy"].startswith(
        "democracy | 6 | France 4, United Kingdom 2, United States 0 | wins now"
    )
    verdict = re.search(r'<p id="score-verdict">(.*?)</p>', page, re.S)
    assert (
        verdict
        and re.sub(r"<[^>]+>", "", verdict[1]) == f"if the game ended now: {view.winner} wins (LR 1.7.2)"
    )
    spectator = client.get(f"/g/{game['game_id']}?part=body").text  # open information: the same block
    assert _rows(spectator) == rows
