"""The Axis & Allies board in a real Chromium: a person opens the Revised game's page, sees the
drawn board, clicks Germany on it and reads its facts (owner, IPC value, units by owner) in the
side panel, as a click on Cataclysm's map does; the zoom survives the live refresh."""

from __future__ import annotations

import shutil
from pathlib import Path

import httpx
import pytest

from grandstrategy.web.aamap import unit_counts

from .helpers import free_port, start_server

sync_api = pytest.importorskip("playwright.sync_api")
CHROMIUM = shutil.which("chromium") or "/usr/lib/chromium/chromium"
SEATS = {"germans": "human", "russians": "bot:random", "british": "bot:random", "japanese": "bot:random",
         "americans": "bot:random"}  # fmt: skip


@pytest.mark.skipif(not Path(CHROMIUM).exists(), reason="no chromium installed (apt-get install chromium)")
def test_a_click_on_a_territory_of_the_board_shows_its_facts(tmp_path: Path) -> None:
    port = free_port()
    server = start_server(f"sqlite:///{tmp_path / 'server.db'}", port)
    try:
        base = f"http://127.0.0.1:{port}"
        with httpx.Client(base_url=base, timeout=60) as client:
            body = {"ruleset": "aa-revised", "options": {"max_rounds": 1}, "seats": SEATS}
            game = client.post("/api/games", json=body).json()
            units = client.get(
                f"/api/games/{game['game_id']}/seats/germans",
                headers={"X-Seat-Token": game["tokens"]["germans"]},
            ).json()["view"]["state"]["units"]
        sea = unit_counts(units.get("sz-5"))
        sea_text = "".join(
            f"{p}: " + ", ".join(f"{n} {k}" for k, n in held.items()) for p, held in sea.items()
        )
        units = units["germany"]
        infantry = sum(n for stack, n in units.items() if stack.startswith("germans:infantry:"))
        assert infantry > 0
        with sync_api.sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM)
            try:
                page = browser.new_context(viewport={"width": 1200, "height": 900}).new_page()
                errors: list[str] = []
                page.on("pageerror", lambda error: errors.append(str(error)))
                page.goto(game["links"]["germans"])
                assert page.locator("#map svg.aa-board").count() == 1
                assert page.locator("#map [data-area]").count() > 143  # every place, and unit labels
                assert page.locator("#area-panel").is_hidden()
                page.click('#map rect[data-area="germany"]')
                page.wait_for_selector("#area-panel #area-name", timeout=20_000)
                assert page.locator("#area-name").inner_text() == "Germany"
                assert page.locator("#area-owner").inner_text() == "germans"
                assert page.locator("#area-ipc").inner_text() == "10"
                assert page.locator("#area-marks").inner_text() == "capital of germans, victory city"
                held = page.locator("#area-units").inner_text()
                assert held.startswith("germans: ") and f"{infantry} infantry" in held
                assert page.locator('#map rect[data-area="germany"].selected').count() == 1
                # A neighbour's link in the panel opens that place instead.
                page.click('#area-facts a.area-link[data-area="sz-5"]')
                page.wait_for_selector("#area-name:has-text('5 Sea Zone')", timeout=20_000)
                assert page.locator("#area-units").inner_text().replace("\n", "") == (sea_text or "none")
                # The zoom widens the board, and says how to go back.
                before = page.locator("#map svg").bounding_box()
                page.click("#map-zoom")
                after = page.locator("#map svg").bounding_box()
                assert before and after and after["width"] > 2 * before["width"]
                assert page.locator("#map-zoom").inner_text() == "Fit to page"
                assert errors == []
            finally:
                browser.close()
    finally:
        server.kill()
        server.wait()
