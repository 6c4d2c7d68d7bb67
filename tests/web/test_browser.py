"""Two people in two real Chromium contexts: one moves, the other's page shows it by itself.

A Cataclysm seat's page opens an area's facts from a click on the map and plays one choice in
place; with ``GS_DOCS_SCREENSHOT=1`` its screenshot is also saved as ``docs/web-play.png`` (the
README's picture of a game in the browser).
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import httpx
import pytest

from .helpers import create_pig, free_port, seat_state, start_server

sync_api = pytest.importorskip("playwright.sync_api")
CHROMIUM = shutil.which("chromium") or "/usr/lib/chromium/chromium"
DOCS_SHOT = Path(__file__).resolve().parents[2] / "docs" / "web-play.png"


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
                # A marker in the waiting page's window survives only if the page is never reloaded.
                pages[waiter].evaluate("window.liveMarker = 'not reloaded'")
                navigations: list[str] = []
                pages[waiter].on("framenavigated", lambda frame: navigations.append(frame.url))
                pages[mover].click('button.choice[data-action="hold"]')
                # The server's event stream tells the waiting page, which swaps in its new body.
                pages[waiter].wait_for_selector('button.choice[data-action="hold"]', timeout=20_000)
                assert pages[waiter].locator("#status").inner_text() == f"{waiter} to decide."
                assert f"{mover}: hold" in pages[waiter].locator("#log").inner_text()
                assert f'{mover} answers "turn 1": hold' in pages[waiter].locator("#since").inner_text()
                pages[mover].wait_for_selector(f"#status:has-text('{waiter} to decide.')", timeout=20_000)
                assert pages[mover].locator("button.choice").count() == 0
                pages[mover].wait_for_selector("#undo", timeout=20_000)  # nobody has acted since
                assert pages[waiter].locator("#undo").count() == 0
                shots = {seat: tmp_path / f"{seat}.png" for seat in pages}
                for seat, page in pages.items():
                    page.screenshot(path=str(shots[seat]), full_page=True)
                    assert shots[seat].read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
                pages[mover].click("#undo")  # taken back: the waiting page loses its turn, live
                pages[waiter].wait_for_selector(f"#status:has-text('{mover} to decide.')", timeout=20_000)
                assert pages[waiter].locator("button.choice").count() == 0
                pages[mover].wait_for_selector('button.choice[data-action="hold"]', timeout=20_000)
                assert "Undone: hold" in pages[mover].locator("#message").inner_text()
                assert pages[waiter].evaluate("window.liveMarker") == "not reloaded"
                assert navigations == []
            finally:
                browser.close()
    finally:
        server.kill()
        server.wait()


@pytest.mark.skipif(not Path(CHROMIUM).exists(), reason="no chromium installed (apt-get install chromium)")
def test_a_cataclysm_seat_plays_a_choice_in_place_with_its_map_and_story(tmp_path: Path) -> None:
    port = free_port()
    server = start_server(f"sqlite:///{tmp_path / 'server.db'}", port)
    try:
        with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=60) as client:
            created = client.post("/api/games", json={"ruleset": "cataclysm", "seats": {"germany": "human"}})
            assert created.status_code == 201, created.text
            game = created.json()
        with sync_api.sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM)
            try:
                page = browser.new_context(viewport={"width": 1100, "height": 900}).new_page()
                page.goto(game["links"]["germany"])
                assert page.locator("#power-status").inner_text().startswith("Germany (you)")
                assert "Japan keeps the Washington Naval Treaty" in page.locator("#since").inner_text()
                # The map is inline SVG: a click on an area opens its facts (AreaView) beside it.
                assert page.locator("#map svg").count() == 1
                assert page.locator("#area-panel").is_hidden()
                page.click('#map rect[data-area="ruhr"]')
                page.wait_for_selector("#area-panel #area-name", timeout=20_000)
                assert page.locator("#area-name").inner_text() == "Ruhr"
                assert page.locator("#area-controller").inner_text() == "Germany"
                assert "industrial" in page.locator("#area-resources").inner_text()
                assert page.locator('#map rect[data-area="ruhr"].selected').count() == 1
                version = page.locator("#game-body").get_attribute("data-version")
                page.evaluate("window.liveMarker = 'not reloaded'")
                page.locator("button.choice").first.click()
                page.wait_for_function(
                    f"document.getElementById('game-body').dataset.version !== '{version}'", timeout=20_000
                )
                assert (
                    page.locator("#since li").first.inner_text().startswith("Germany ")
                )  # its own choice, told
                assert page.evaluate("window.liveMarker") == "not reloaded"
                page.wait_for_selector("#since", timeout=20_000)  # the story stays after the live refreshes
                # The area's panel stays open over the new body, its area still marked on the new map.
                assert page.locator("#area-panel").is_visible()
                assert page.locator("#area-name").inner_text() == "Ruhr"
                page.wait_for_selector('#map rect[data-area="ruhr"].selected', timeout=20_000)
                shot = tmp_path / "germany.png"
                page.screenshot(path=str(shot))
                assert shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
                if os.environ.get("GS_DOCS_SCREENSHOT"):
                    shutil.copyfile(shot, DOCS_SHOT)
            finally:
                browser.close()
    finally:
        server.kill()
        server.wait()
