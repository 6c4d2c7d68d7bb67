"""Two people in two real Chromium contexts: one moves, the other's page shows it by itself."""

from __future__ import annotations

import shutil
from pathlib import Path

import httpx
import pytest

from .helpers import create_pig, free_port, seat_state, start_server

sync_api = pytest.importorskip("playwright.sync_api")
CHROMIUM = shutil.which("chromium") or "/usr/lib/chromium/chromium"


@pytest.mark.skipif(not Path(CHROMIUM).exists(), reason="no chromium installed (apt-get install chromium)")
def test_a_move_in_one_browser_shows_in_the_other_without_reloading(tmp_path: Path) -> None:
    port = free_port()
    server = start_server(f"sqlite:///{tmp_path / 'server.db'}", port)
    try:
        with httpx.Client(base_url=f"http://127.0.0.1:{port}") as client:
            game = create_pig(client)
            mover = seat_state(client, game, "north")["to_act"]
        waiter = "south" if mover == "north" else "north"
        with sync_api.sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM)
            try:
                pages = {}
                for seat in (mover, waiter):
                    page = browser.new_context().new_page()
                    page.goto(game["links"][seat].replace("http://testserver", f"http://127.0.0.1:{port}"))
                    pages[seat] = page
                assert pages[waiter].locator("button.choice").count() == 0
                assert pages[waiter].locator("#status").inner_text() == f"{mover} to decide."
                pages[mover].click('button.choice[data-action="hold"]')
                # The waiting page polls the game's version and shows its own turn, untouched by the test.
                pages[waiter].wait_for_selector('button.choice[data-action="hold"]', timeout=20_000)
                assert pages[waiter].locator("#status").inner_text() == f"{waiter} to decide."
                assert f"{mover}: hold" in pages[waiter].locator("#log").inner_text()
                pages[mover].wait_for_selector(f"#status:has-text('{waiter} to decide.')", timeout=20_000)
                assert pages[mover].locator("button.choice").count() == 0
            finally:
                browser.close()
    finally:
        server.kill()
        server.wait()
