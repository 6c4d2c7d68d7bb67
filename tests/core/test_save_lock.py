"""One writer per save (issue 12, point 5): a second program on the same save refuses at once.

``play`` and ``new`` hold an operating-system lock (``fcntl.flock``) on ``.NAME.lock`` beside
the save for as long as they run; ``replay`` only reads and takes none. Temporary files that a
killed writer left beside the save are removed by the next program that takes the lock.
"""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

import pytest

from grandstrategy.core.errors import UserInputError
from grandstrategy.core.files import FileLock, lock_path
from grandstrategy.play.seats import seats_path
from grandstrategy.play.session import PlaySession

from .clirun import one_error, run_cli

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="flock is POSIX")

SCENARIO = "europe-1939"


@pytest.fixture
def save(tmp_path: Path) -> Path:
    """A new hot-seat game: every power human, so an open game waits for input and writes nothing."""
    path = tmp_path / "game.json"
    result = run_cli(
        "new", "cataclysm", "--scenario", SCENARIO, "--seed", "5", "--seats", "*=human", "--save", str(path)
    )
    assert result.code == 0, result.err
    return path


def _wait_for_holder(save: Path, pid: int, child: subprocess.Popen[str]) -> None:
    """Poll until the child process has written its id into the lock file (it holds the lock)."""
    for _ in range(1200):
        if child.poll() is not None:
            raise AssertionError(f"the first play ended early: {child.stderr.read() if child.stderr else ''}")
        if lock_path(save).exists() and lock_path(save).read_text(encoding="ascii").strip() == str(pid):
            return
        time.sleep(0.05)  # waiting for the other process, not measuring anything
    raise AssertionError("the first play never took the lock")


def test_a_second_play_process_on_one_save_is_refused_and_the_save_is_unchanged(save: Path) -> None:
    before = save.read_bytes(), seats_path(save).read_bytes()
    child = subprocess.Popen(
        [sys.executable, "-m", "grandstrategy", "play", str(save)],
        stdin=subprocess.PIPE,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        _wait_for_holder(save, child.pid, child)
        for command in (
            ["play", str(save), "--moves", "1"],
            ["play", str(save), "--seats", "*=bot:random"],
            ["new", "cataclysm", "--scenario", SCENARIO, "--save", str(save), "--force"],
        ):
            err = one_error(run_cli(*command), 2, f"this save is open in process {child.pid}")
            assert err.count("\n") == 1 and "only one program may play a save at a time" in err
        assert (save.read_bytes(), seats_path(save).read_bytes()) == before
        assert run_cli("replay", "--verify", str(save)).code == 0  # reading needs no lock
    finally:
        child.communicate("quit\n", timeout=120)
    assert child.returncode == 0
    assert (save.read_bytes(), seats_path(save).read_bytes()) == before
    after = run_cli("play", str(save), "--moves", "quit")  # the lock went with the process
    assert "open in process" not in after.err


def test_two_opens_in_one_process_conflict_until_the_first_closes(save: Path) -> None:
    before = save.read_bytes()
    first = PlaySession.open(save, lock=True)
    with pytest.raises(UserInputError, match="this save is open in process"):
        PlaySession.open(save, lock=True)
    one_error(run_cli("play", str(save), "--moves", "1"), 2, "this save is open in process")
    assert save.read_bytes() == before
    first.close()
    with PlaySession.open(save, lock=True) as second:
        assert second.match.state_hash() == first.match.state_hash()


def test_stale_temporary_files_are_removed_on_the_next_open(save: Path) -> None:
    directory = save.parent
    stale = [directory / ".game.json.abcd_123.tmp", directory / ".game.seats.json.x1y2z3w4.tmp"]
    kept = [directory / ".game.json.notes.tmp", directory / ".other.json.abcd1234.tmp"]
    for path in stale + kept:
        path.write_text('{"half": ', encoding="utf-8")
    with PlaySession.open(save, lock=True):
        pass
    assert [p.exists() for p in stale] == [False, False]
    assert [p.exists() for p in kept] == [True, True]


def test_a_file_lock_names_its_holder(tmp_path: Path) -> None:
    target = tmp_path / "x.json"
    with FileLock(target, what="save") as lock:
        assert lock.held
        with pytest.raises(UserInputError, match=r"x\.json: this save is open in process \d+"):
            FileLock(target, what="save")
    assert not lock.held
    FileLock(target).release()
