"""The main job as a new user meets it: `make play` runs `grandstrategy serve --play`, which prints
a private link to a 1933 campaign game against bots; the page shows the decision and its choices,
a real Chromium makes one, Ctrl-C stops the server with exit code 0, and a second run resumes the
same game instead of creating another."""

from __future__ import annotations

import html
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import IO

import httpx
import pytest

from .helpers import free_port

sync_api = pytest.importorskip("playwright.sync_api")
CHROMIUM = shutil.which("chromium") or "/usr/lib/chromium/chromium"
PROGRAM = Path(sys.executable).with_name("grandstrategy")
EUROPE = "europe-1939"
MAKE_PLAY_TRAILER = ("--from-make", "make play")


def _command(*args: str) -> list[str]:
    """The installed ``grandstrategy`` script when there is one (what the Makefile runs)."""
    if PROGRAM.exists():
        return [str(PROGRAM), *args]
    return [sys.executable, "-m", "grandstrategy", *args]


def _start(cwd: Path, port: int, *extra: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        _command("serve", "--play", "--port", str(port), *extra, *MAKE_PLAY_TRAILER),
        cwd=cwd,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def _read_link(stream: IO[str] | None) -> tuple[str, list[str]]:
    """Read the program's lines up to the one announcing that it serves; return the link and the lines."""
    assert stream is not None
    lines: list[str] = []
    for line in stream:
        lines.append(line.rstrip("\n"))
        if line.startswith("Serving on"):
            break
    links = [line.strip() for line in lines if line.strip().startswith("http://")]
    assert len(links) == 1, lines
    return links[0], lines


def _stop(server: subprocess.Popen[str]) -> tuple[int, str]:
    """Ctrl-C (SIGINT), then the exit code and what it printed after the link."""
    server.send_signal(signal.SIGINT)
    out, _err = server.communicate(timeout=60)
    return server.returncode, out


def _wait_listening(base: str, server: subprocess.Popen[str]) -> None:
    for _ in range(300):
        try:
            httpx.get(base + "/", timeout=2)
            return
        except httpx.TransportError:
            assert server.poll() is None, server.stderr.read() if server.stderr else "the server died"
            time.sleep(0.05)  # wait for the server to listen (no timing is asserted)
    raise AssertionError("the server did not start")


@pytest.mark.skipif(not Path(CHROMIUM).exists(), reason="no chromium installed (apt-get install chromium)")
def test_make_play_command_serves_a_1933_game_a_browser_can_play_and_resumes_it(tmp_path: Path) -> None:
    port = free_port()
    server = _start(tmp_path, port)
    try:
        link, lines = _read_link(server.stdout)
        assert "campaign-1933: new game; you play germany" in lines[0]
        base = f"http://127.0.0.1:{port}"
        assert link.startswith(f"{base}/g/") and "/germany?token=" in link
        _wait_listening(base, server)
        game_id = link.split("/g/")[1].split("/")[0]
        token = link.split("token=")[1]
        api = httpx.get(f"{base}/api/games/{game_id}/seats/germany", headers={"X-Seat-Token": token}).json()
        assert api["to_act"] == "germany" and api["seats"]["france"] == "bot:heuristic"
        choices = api["decision"]["choices"]
        page = httpx.get(link).text
        assert html.escape(api["decision"]["prompt"], quote=False) in page
        for choice in choices:
            assert f'data-action="{html.escape(choice["action"])}"' in page
            assert html.escape(choice["label"], quote=False) in page
        with sync_api.sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM)
            try:
                tab = browser.new_context().new_page()
                tab.goto(link)
                buttons = tab.locator("button.choice")
                assert buttons.count() == len(choices)
                chosen = buttons.first.get_attribute("data-action")
                version = tab.locator("#game-body").get_attribute("data-version")
                buttons.first.click()  # the page swaps in the new position once the move is stored
                tab.wait_for_function(
                    f"document.getElementById('game-body').dataset.version !== '{version}'", timeout=60_000
                )
                assert int(tab.locator("#game-body").get_attribute("data-version") or 0) > api["log_length"]
            finally:
                browser.close()
        after = httpx.get(f"{base}/api/games/{game_id}/seats/germany", headers={"X-Seat-Token": token}).json()
        assert after["log_length"] > api["log_length"]
        played = [e for e in after["log"] if e.get("type") == "action" and e.get("seat") == "germany"]
        assert played and played[-1]["action"] == chosen
        code, rest = _stop(server)
        assert code == 0, server.stderr.read() if server.stderr else rest
        assert "Stopped; your game is kept" in rest
    finally:
        if server.poll() is None:
            server.kill()
            server.wait()
    # Again: the same game, the same link, not a second game.
    again = _start(tmp_path, port)
    try:
        link_again, lines_again = _read_link(again.stdout)
        assert link_again == link
        assert "resuming your game; you play germany" in lines_again[0]
        _wait_listening(base, again)
        url = f"{base}/api/games/{game_id}/seats/germany"
        resumed = httpx.get(url, headers={"X-Seat-Token": token}).json()
        assert resumed["log_length"] == after["log_length"]
        assert _stop(again)[0] == 0
    finally:
        if again.poll() is None:
            again.kill()
            again.wait()


def test_another_power_with_a_saved_game_says_to_start_a_new_one(tmp_path: Path) -> None:
    from grandstrategy.web.local import RECORD, find_or_create
    from grandstrategy.web.service import GameService
    from grandstrategy.web.storage import open_database

    db = f"sqlite:///{tmp_path / 'server.db'}"
    engine = open_database(db)
    service = GameService(engine)
    record = tmp_path / RECORD
    first, created = find_or_create(service, db, record, power=None, scenario=EUROPE, new=False, again="x")
    assert created and first.seat == "germany"
    assert record.stat().st_mode & 0o077 == 0  # the token is readable by its owner only
    same, created_again = find_or_create(
        service, db, record, power="germany", scenario=EUROPE, new=False, again="x"
    )
    assert same == first and not created_again
    from grandstrategy.core.errors import UserInputError

    refusal = "played as germany, not italy; to start a new game as italy: again"
    with pytest.raises(UserInputError, match=refusal):
        find_or_create(service, db, record, power="italy", scenario=EUROPE, new=False, again="again")
    fresh, made = find_or_create(service, db, record, power="italy", scenario=EUROPE, new=True, again="x")
    assert made and fresh.seat == "italy" and fresh.game_id != first.game_id
    with pytest.raises(UserInputError, match="unknown seat 'narnia'"):
        find_or_create(service, db, record, power="narnia", scenario=EUROPE, new=True, again="x")
    assert find_or_create(service, db, record, power=None, scenario="x", new=False, again="x")[0] == fresh
    engine.dispose()


def test_a_busy_port_is_one_clear_line(tmp_path: Path) -> None:
    import socket

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        result = subprocess.run(
            _command("serve", "--play", "--port", str(port)), cwd=tmp_path, capture_output=True, text=True
        )
    assert result.returncode == 1
    assert f"port {port} on 127.0.0.1 is in use" in result.stderr and "Traceback" not in result.stderr
    assert not (tmp_path / "grandstrategy-play.json").exists()  # nothing was created
