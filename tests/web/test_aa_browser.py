"""The Historical Edition (issue 14) played to its end in a real Chromium: a person holds Germany,
bots hold the other powers, and the person clicks the page's choices (``done`` when offered,
else the first) until the economic victory is decided at the round limit. The page then names
the winner and how, lists the territories with owners and units, and the game's save file
replays to the same final state; the browser's console shows no error on the way."""

from __future__ import annotations

import re
import shutil
from pathlib import Path
from typing import Any

import httpx
import pytest

from grandstrategy.core.replay import replay
from grandstrategy.core.save import loads_save
from grandstrategy.play.games import load_ruleset

from .helpers import free_port, start_server

sync_api = pytest.importorskip("playwright.sync_api")
CHROMIUM = shutil.which("chromium") or "/usr/lib/chromium/chromium"
SEATS = {
    "germans": "human",
    "russians": "bot:random",
    "british": "bot:random",
    "japanese": "bot:random",
    "americans": "bot:random",
}
MAX_CLICKS = 200
"""A bound on the person's clicks (the game below asks Germany about twenty times)."""


def _create(client: httpx.Client) -> dict[str, Any]:
    """An AARHE game decided by territory IPCs once round 2 ends (S3:L208): the soonest end."""
    options = {"victory": "economic", "max_rounds": 2}
    created = client.post("/api/games", json={"ruleset": "aa-aarhe", "options": options, "seats": SEATS})
    assert created.status_code == 201, created.text
    game: dict[str, Any] = created.json()
    return game


def _pick(page: Any) -> Any:
    """The button the person clicks: ``germans: done`` when offered, else the first choice."""
    done = page.locator('button.choice[data-action="germans: done"]')
    return done if done.count() else page.locator("button.choice").first


def _watch(page: Any) -> list[str]:
    """The problems the page meets, as they come: script errors, console errors (a failed
    load among them) and answers of 400 or more to the page's own requests."""
    problems: list[str] = []
    page.on("pageerror", lambda error: problems.append(f"page error: {error}"))
    page.on("console", lambda msg: problems.append(f"console: {msg.text}") if msg.type == "error" else None)
    page.on("response", lambda got: problems.append(f"{got.status} {got.url}") if got.status >= 400 else None)
    return problems


@pytest.mark.skipif(not Path(CHROMIUM).exists(), reason="no chromium installed (apt-get install chromium)")
def test_a_person_plays_the_historical_edition_to_its_victory_in_the_browser(tmp_path: Path) -> None:
    port = free_port()
    server = start_server(f"sqlite:///{tmp_path / 'server.db'}", port)
    try:
        base = f"http://127.0.0.1:{port}"
        with httpx.Client(base_url=base, timeout=60) as client:
            game = _create(client)
            with sync_api.sync_playwright() as playwright:
                browser = playwright.chromium.launch(executable_path=CHROMIUM)
                try:
                    page = browser.new_context(viewport={"width": 1100, "height": 900}).new_page()
                    problems = _watch(page)
                    page.goto(game["links"]["germans"])
                    # Beside the drawn board (test_aa_map_browser.py), a list of the territories.
                    assert page.locator("#map svg").count() == 1
                    germany = page.locator('#territories tr[data-territory="germany"]')
                    assert germany.locator("th").inner_text() == "Germany"
                    assert germany.locator(".owner").inner_text() == "germans"
                    seen = client.get(
                        f"/api/games/{game['game_id']}/seats/germans",
                        headers={"X-Seat-Token": game["tokens"]["germans"]},
                    ).json()["view"]["state"]["units"]["germany"]
                    infantry = sum(n for stack, n in seen.items() if stack.startswith("germans:infantry:"))
                    assert infantry > 0
                    listed = germany.locator(".units").inner_text()
                    assert f"{infantry} infantry" in listed.split("germans: ")[1]
                    assert page.locator("#status").inner_text() == "germans to decide."
                    clicks = 0
                    while page.locator("#result").count() == 0:
                        assert clicks < MAX_CLICKS, "the game did not end"
                        version = page.locator("#game-body").get_attribute("data-version")
                        _pick(page).click()
                        clicks += 1
                        # The move and the bots' answers stored, the page swaps in its new body.
                        page.wait_for_function(
                            f"document.getElementById('game-body').dataset.version !== '{version}'"
                            " && !document.getElementById('game-body').querySelector('button:disabled')",
                            timeout=30_000,
                        )
                        assert page.locator("#message").inner_text() == ""  # no move refused
                    assert clicks >= 5  # the person played real decisions, not only one
                    state = client.get(f"/api/games/{game['game_id']}").json()
                    result = state["view"]["state"]["result"]
                    assert state["over"] is True and result["round"] == 2
                    assert result["winner"] in ("axis", "allies")
                    # The end says who won and how, in the page's words and the state's.
                    shown = page.locator("#result").inner_text()
                    assert shown == f"{result['winner']} wins ({result['how']})"
                    assert re.fullmatch(
                        r"(axis|allies) wins \(majority of territory IPCs allies \d+, axis \d+\)", shown
                    )
                    assert page.locator("button.choice").count() == 0
                    assert "Round 2" in page.locator("#position li").all_inner_texts()
                    assert page.locator(".dice code").nth(1).inner_text() == state["dice_secret"]
                    assert problems == []
                finally:
                    browser.close()
            # The save file replays every move and die to the same final state.
            export = client.get(f"/api/games/{game['game_id']}/export").text
            load_ruleset("aa-aarhe")  # registers the rule set in this process, as the server did
            match = replay(loads_save(export))
            assert match.is_terminal() and match.state.to_json() == state["view"]["state"]
    finally:
        server.kill()
        server.wait()
