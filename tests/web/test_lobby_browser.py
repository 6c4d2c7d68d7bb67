"""The listing and the names in a real Chromium: from the home page to the listing to a game, a
name shown as text (never markup), and a person's new name appearing on another seat's page live."""

from __future__ import annotations

import shutil
from pathlib import Path

import httpx
import pytest

from .helpers import free_port, start_server

sync_api = pytest.importorskip("playwright.sync_api")
CHROMIUM = shutil.which("chromium") or "/usr/lib/chromium/chromium"
NAME = "<b>N</b><script>hacked=1</script>"


@pytest.mark.skipif(not Path(CHROMIUM).exists(), reason="no chromium installed (apt-get install chromium)")
def test_the_listing_leads_to_a_game_whose_names_show_and_change_live(tmp_path: Path) -> None:
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    server = start_server(f"sqlite:///{tmp_path / 'server.db'}", port)
    try:
        with httpx.Client(base_url=base) as client:
            created = client.post(
                "/api/games",
                json={
                    "ruleset": "pig",
                    "seats": {"north": "human", "south": "human"},
                    "names": {"north": NAME},
                },
            )
            assert created.status_code == 201, created.text
            game = created.json()
        with sync_api.sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM)
            try:
                page = browser.new_context().new_page()
                page.goto(base + "/")
                page.click("#listing-link")
                page.wait_for_selector("#games")
                row = page.locator(f'tr[data-game="{game["game_id"]}"]')
                assert row.locator('.seats [data-seat="north"]').inner_text() == f"north — {NAME}"
                assert row.locator('.seats [data-seat="south"]').inner_text() == "south — a person"
                listing_html = page.content()
                assert all(token not in listing_html for token in game["tokens"].values())
                row.locator("a.game-link").click()
                page.wait_for_selector("#seats")
                assert page.url == f"{base}/g/{game['game_id']}"
                assert page.locator('#seats li[data-seat="north"]').inner_text() == f"north — {NAME}"
                assert page.locator("#seats b").count() == 0  # the name is text, not markup
                assert page.evaluate("window.hacked") is None
                south = browser.new_context().new_page()
                south.goto(game["links"]["south"].replace("http://testserver", base))
                south.wait_for_selector("#seats")
                south.evaluate("window.liveMarker = 'not reloaded'")
                north = browser.new_context().new_page()
                north.goto(game["links"]["north"].replace("http://testserver", base))
                assert north.locator("#name-input").input_value() == NAME
                assert north.locator("#my-name").inner_text().strip() == f"— {NAME}"
                north.fill("#name-input", "  Nora B. ")
                north.click('#name-form button[type="submit"]')
                north.wait_for_selector("#message:has-text('Your name is now Nora B.')", timeout=20_000)
                assert north.locator("#my-name").inner_text().strip() == "— Nora B."
                # The other seat's page hears of it through the live stream and swaps in its body.
                south.wait_for_selector(
                    '#seats li[data-seat="north"]:has-text("north — Nora B.")', timeout=20_000
                )
                assert south.evaluate("window.liveMarker") == "not reloaded"
                north.evaluate("document.getElementById('name-input').maxLength = 1000")
                north.fill("#name-input", "bad\u202ename")
                north.click('#name-form button[type="submit"]')
                north.wait_for_selector("#message:has-text('control character (U+202E)')", timeout=20_000)
                assert south.locator('#seats li[data-seat="north"]').inner_text() == "north — Nora B."
            finally:
                browser.close()
    finally:
        server.kill()
        server.wait()
