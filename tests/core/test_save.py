"""Saves: canonical round trip, replay, tamper detection, malformed files, atomic writes."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

from grandstrategy.core.errors import SaveError
from grandstrategy.core.replay import open_save, replay, restore
from grandstrategy.core.save import FORMAT_VERSION, load_save, loads_save, save_game, write_save
from grandstrategy.core.session import Match

from .playout import playout
from .toy_game import PIG


@pytest.fixture
def finished() -> Match:
    return playout(8)


@pytest.fixture
def save_text(finished: Match) -> str:
    return save_game(finished).dumps()


def _edit(text: str, change: Any) -> str:
    data = json.loads(text)
    change(data)
    return json.dumps(data)


@pytest.mark.parametrize("snapshot", [False, True])
def test_save_load_save_is_byte_identical(tmp_path: Path, finished: Match, snapshot: bool) -> None:
    first = tmp_path / "a.json"
    second = tmp_path / "b.json"
    write_save(first, save_game(finished, snapshot=snapshot))
    loaded = load_save(first)
    write_save(second, loaded)
    assert first.read_bytes() == second.read_bytes()
    # ... and replaying, then saving again, also gives the same bytes.
    write_save(second, save_game(replay(loaded), snapshot=snapshot))
    assert first.read_bytes() == second.read_bytes()
    assert first.read_bytes().endswith(b"}\n")


def test_replay_reaches_the_same_state_for_many_games_including_unfinished_ones() -> None:
    for seed in range(25):
        match = playout(seed, max_steps=seed * 3)
        again = replay(loads_save(save_game(match).dumps()))
        assert again.state_hash() == match.state_hash()
        assert again.log == match.log
        assert again.chance.getstate() == match.chance.getstate()


def test_replayed_match_plays_on_exactly_like_the_original(finished: Match) -> None:
    unfinished = playout(8, max_steps=5)
    resumed = open_restore(unfinished)
    for m in (unfinished, resumed):
        m.play(m.to_act(), "roll")  # type: ignore[arg-type]
    assert resumed.log == unfinished.log


def open_restore(match: Match) -> Match:
    return replay(loads_save(save_game(match).dumps()))


def test_snapshot_restore_without_replay(finished: Match) -> None:
    save = loads_save(save_game(finished, snapshot=True).dumps())
    fast = restore(save, verify=False)
    assert fast.state_hash() == finished.state_hash()
    assert fast.chance.getstate() == finished.chance.getstate()
    assert fast.log == finished.log


def _first(data: dict[str, Any], entry_type: str, **where: str) -> int:
    for index, entry in enumerate(data["log"]):
        if entry["type"] == entry_type and all(entry.get(k) == v for k, v in where.items()):
            return index
    raise AssertionError(f"no {entry_type} entry {where}")


def test_changed_chance_outcome_is_caught_at_its_entry(save_text: str) -> None:
    data = json.loads(save_text)
    index = _first(data, "chance", kind="die")
    old = data["log"][index]["outcome"]
    data["log"][index]["outcome"] = "6" if old != "6" else "5"
    with pytest.raises(
        SaveError, match=rf"log\[{index}\]: the save records chance die .*but replaying from seed 8 gives"
    ):
        replay(loads_save(json.dumps(data)))


def test_changed_action_is_caught_at_its_entry(save_text: str) -> None:
    data = json.loads(save_text)
    index = _first(data, "action", action="roll")
    data["log"][index]["action"] = "spend gold"  # nobody holds gold at the first roll of seed 8
    with pytest.raises(SaveError, match=rf"log\[{index}\]: .*'spend gold' is not legal"):
        replay(loads_save(json.dumps(data)))


def test_action_by_the_wrong_seat_is_caught(save_text: str) -> None:
    data = json.loads(save_text)
    index = _first(data, "action")
    data["log"][index]["seat"] = "north" if data["log"][index]["seat"] == "south" else "south"
    with pytest.raises(SaveError, match=rf"log\[{index}\]: it is \w+'s turn"):
        replay(loads_save(json.dumps(data)))


def test_removed_chance_entry_and_truncated_log_are_caught(save_text: str) -> None:
    data = json.loads(save_text)
    index = _first(data, "chance", kind="die")
    del data["log"][index]
    with pytest.raises(SaveError, match=rf"log\[{index}\]: the save records"):
        replay(loads_save(json.dumps(data)))
    data = json.loads(save_text)
    index = _first(data, "chance", kind="die")
    data["log"] = data["log"][:index]
    with pytest.raises(
        SaveError, match=rf"log\[{index}\]: the log ends here, but the game goes on with chance die"
    ):
        replay(loads_save(json.dumps(data)))


def test_wrong_state_hash_and_wrong_snapshot_are_caught(finished: Match) -> None:
    data = save_game(finished, snapshot=True).to_json()
    data["state_hash"] = "sha256:" + "0" * 64
    with pytest.raises(SaveError, match=r"state_hash: the save says sha256:0+, but replaying the log gives"):
        replay(loads_save(json.dumps(data)))
    data = save_game(finished, snapshot=True).to_json()
    data["snapshot"]["state"]["scores"]["north"] += 1
    with pytest.raises(SaveError, match="snapshot: it differs"):
        replay(loads_save(json.dumps(data)))
    with pytest.raises(SaveError, match="snapshot: its state hash"):
        restore(loads_save(json.dumps(data)), verify=False)


MALFORMED: list[tuple[str, Any, str]] = [
    ("empty", "", r"the file is empty"),
    ("not json", "hello", r"not valid JSON \(line 1, column 1"),
    ("truncated", "TRUNCATE", r"not valid JSON .*may be truncated"),
    ("not an object", "[1, 2]", r"the JSON is not an object"),
    ("wrong marker", lambda d: d.update(format="chess-pgn"), r"field 'format' is not 'grandstrategy-save'"),
    ("no marker", lambda d: d.pop("format"), r"field 'format' is not"),
    (
        "future version",
        lambda d: d.update(format_version=99),
        rf"version 99 is not supported .*reads version {FORMAT_VERSION}",
    ),
    ("missing field", lambda d: d.pop("seed"), r"missing field 'seed'"),
    ("ill-typed field", lambda d: d.update(seed="12"), r"field 'seed' must be an integer, not \"12\""),
    ("bool seed", lambda d: d.update(seed=True), r"field 'seed' must be an integer"),
    ("unknown field", lambda d: d.update(colour="red"), r"unknown field\(s\) 'colour'"),
    ("unknown ruleset", lambda d: d.update(ruleset="chess"), r"unknown rule set 'chess' \(known: .*toy-pig"),
    (
        "bad module hash",
        lambda d: d["module"].update(hash="sha256:beef"),
        r"made with module 'toy-pig-module' version 1 \(sha256:beef\)",
    ),
    ("module field", lambda d: d["module"].pop("version"), r"field 'module.version' must be text"),
    (
        "log entry type",
        lambda d: d["log"].__setitem__(2, "roll"),
        r"log\[2\]: a log entry must be a JSON object",
    ),
    ("log entry field", lambda d: d["log"][1].pop("seat"), r"log\[1\]: missing field 'seat'"),
    (
        "unparsable action",
        lambda d: d["log"][1].update(action="fly away"),
        r"log\[1\]: cannot parse 'fly away'",
    ),
    (
        "bad options",
        lambda d: d.update(options={"target": -1}),
        r"options: option target must be a positive integer",
    ),
    ("duplicate key", "DUPLICATE", r"duplicate key 'seed'"),
]


@pytest.mark.parametrize(("name", "change", "pattern"), MALFORMED, ids=[m[0] for m in MALFORMED])
def test_malformed_saves_give_one_clear_error(
    tmp_path: Path, save_text: str, name: str, change: Any, pattern: str
) -> None:
    if change == "TRUNCATE":
        text = save_text[: len(save_text) // 2]
    elif change == "DUPLICATE":
        text = save_text.replace('"seed": 8', '"seed": 8, "seed": 9')
    elif isinstance(change, str):
        text = change
    else:
        text = _edit(save_text, change)
    path = tmp_path / "game.json"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(SaveError, match=pattern) as info:
        open_save(path)  # the one call a command line makes
    message = str(info.value)
    assert message.startswith(f"{path}: ")
    assert "\n" not in message and "Traceback" not in message
    # No chained exception that a traceback printer would show as "during handling of ...".
    assert info.value.__cause__ is None
    assert info.value.__context__ is None or info.value.__suppress_context__


def test_unreadable_and_binary_files(tmp_path: Path) -> None:
    with pytest.raises(SaveError, match=r"missing\.json: cannot read: No such file"):
        open_save(tmp_path / "missing.json")
    with pytest.raises(SaveError, match=r"cannot read"):
        open_save(tmp_path)  # a directory
    (tmp_path / "bin.json").write_bytes(b"\xff\xfe\x00garbage")
    with pytest.raises(SaveError, match=r"not UTF-8 text at byte 0"):
        open_save(tmp_path / "bin.json")


def test_atomic_write_keeps_the_old_file_when_replace_fails(
    tmp_path: Path, finished: Match, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "game.json"
    write_save(path, save_game(playout(1, max_steps=3)))
    old = path.read_bytes()

    def failing_replace(src: object, dst: object) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", failing_replace)
    with pytest.raises(SaveError, match=r"game\.json: cannot write: No space left on device"):
        write_save(path, save_game(finished))
    assert path.read_bytes() == old
    assert [p.name for p in tmp_path.iterdir()] == ["game.json"]


def test_atomic_write_cleans_up_when_writing_fails(
    tmp_path: Path, finished: Match, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "game.json"

    def failing_fsync(fd: int) -> None:
        raise OSError(5, "Input/output error")

    monkeypatch.setattr(os, "fsync", failing_fsync)
    with pytest.raises(SaveError, match="Input/output error"):
        write_save(path, save_game(finished))
    assert list(tmp_path.iterdir()) == []
    with pytest.raises(SaveError, match="cannot write"):
        write_save(tmp_path / "no" / "such" / "dir.json", save_game(finished))


def test_save_records_ruleset_module_seed_options() -> None:
    match = playout(5, target=10)
    data = json.loads(save_game(match).dumps())
    assert data["format"] == "grandstrategy-save" and data["format_version"] == 1
    assert data["ruleset"] == "toy-pig" and data["module"] == PIG.module.to_json()
    assert data["seed"] == 5 and data["options"] == {"target": 10}
    assert data["state_hash"] == match.state_hash() and "snapshot" not in data


def test_atomic_write_makes_an_ordinary_file(tmp_path) -> None:  # type: ignore[no-untyped-def]
    import os
    import stat

    from grandstrategy.core.files import atomic_write

    target = tmp_path / "out.txt"
    atomic_write(target, b"hello")
    mask = os.umask(0)
    os.umask(mask)
    assert target.read_bytes() == b"hello"
    assert stat.S_IMODE(target.stat().st_mode) == 0o666 & ~mask
