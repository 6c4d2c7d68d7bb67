"""Bad input from a bad-input campaign (issue 12): one clear message, a non-zero exit, no traceback.

Each test feeds one kind of hostile or mistaken input to the command line in-process and asserts
the message, the exit code (2 for a bad argument, 1 for a broken file) and that nothing changed
on disk. A FIFO that hung the program would hang the test: the files are checked with
``os.stat`` and opened non-blocking before anything is read (``grandstrategy.core.files``).
"""

from __future__ import annotations

import io
import json
import os
import shutil
from pathlib import Path

import pytest
import yaml
from rich.console import Console

from grandstrategy.cataclysm.module import DEFAULT_MODULE_DIR
from grandstrategy.core.errors import SaveError, UserInputError
from grandstrategy.core.files import MAX_SAVE_BYTES
from grandstrategy.core.replay import open_save
from grandstrategy.play.seats import seats_path
from grandstrategy.play.session import PlaySession
from grandstrategy.play.terminal import TerminalGame

from .clirun import one_error, run_cli

SCENARIO = "europe-1939"


@pytest.fixture
def save(tmp_path: Path) -> Path:
    """A new hot-seat Cataclysm game (every power human, so nothing moves by itself)."""
    path = tmp_path / "game.json"
    result = run_cli(
        "new", "cataclysm", "--scenario", SCENARIO, "--seed", "5", "--seats", "*=human", "--save", str(path)
    )
    assert result.code == 0, result.err
    return path


@pytest.fixture
def module_copy(tmp_path: Path) -> Path:
    """A copy of the shipped module that a test may break."""
    root = tmp_path / "module"
    shutil.copytree(DEFAULT_MODULE_DIR, root)
    return root


def _snapshot(directory: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(directory.iterdir()) if p.is_file() and not p.is_symlink()}


# ---- seats files -------------------------------------------------------------------------------------


def _play_refuses_seats_file(save: Path, text: str, needle: str) -> None:
    seats_path(save).write_text(text, encoding="utf-8")
    before = _snapshot(save.parent)
    err = one_error(run_cli("play", str(save), "--moves", "quit"), 1, needle)
    assert err.startswith(f"error: {seats_path(save)}: ") and err.count("\n") == 1
    assert _snapshot(save.parent) == before


def test_a_seats_file_nested_100000_deep_is_refused(save: Path) -> None:
    _play_refuses_seats_file(save, "[" * 100_000 + "]" * 100_000, "nests arrays or objects more than 64 deep")


def test_a_seats_file_with_a_5000_digit_number_is_refused(save: Path) -> None:
    text = '{"format": "grandstrategy-seats", "format_version": ' + "9" * 5000 + ', "seats": {}}'
    _play_refuses_seats_file(save, text, "a number of 5000 characters (the limit is 40)")


def test_a_seats_file_with_a_repeated_key_is_refused(save: Path) -> None:
    text = '{"format": "grandstrategy-seats", "format_version": 1, "seats": {}, "seats": {}}'
    _play_refuses_seats_file(save, text, "duplicate key 'seats'")


# ---- FIFOs, devices, symbolic links ----------------------------------------------------------------


def test_a_fifo_or_device_is_refused_as_a_save_without_hanging(tmp_path: Path) -> None:
    fifo = tmp_path / "fifo.json"
    os.mkfifo(fifo)
    zero = tmp_path / "zero.json"
    zero.symlink_to("/dev/zero")
    for path in (fifo, zero):
        for command in (["replay", str(path)], ["play", str(path), "--moves", "quit"]):
            err = one_error(run_cli(*command), 1, "not a regular file (a pipe, device or socket)")
            assert err.startswith(f"error: {path}: cannot read: ")


def test_a_fifo_is_refused_as_a_seats_file(save: Path) -> None:
    seats_path(save).unlink()
    os.mkfifo(seats_path(save))
    before = save.read_bytes()
    one_error(run_cli("play", str(save), "--moves", "quit"), 1, "not a regular file")
    assert save.read_bytes() == before


def test_a_fifo_or_device_is_refused_as_a_module_file(module_copy: Path) -> None:
    (module_copy / "connectors.yaml").unlink()
    os.mkfifo(module_copy / "connectors.yaml")
    (module_copy / "crisis.yaml").unlink()
    (module_copy / "crisis.yaml").symlink_to("/dev/zero")
    err = one_error(run_cli("cataclysm", "check", str(module_copy)), 1, "2 problem(s)")
    assert "connectors.yaml: cannot read: not a regular file" in err
    assert "crisis.yaml: cannot read: not a regular file" in err


# ---- size limits -------------------------------------------------------------------------------------


def test_a_save_above_the_size_limit_is_refused_before_parsing(tmp_path: Path) -> None:
    path = tmp_path / "huge.json"
    with path.open("wb") as handle:  # a sparse file: the limit is checked before reading
        handle.truncate(MAX_SAVE_BYTES + 1)
    err = one_error(run_cli("replay", str(path)), 1, "64.0 MiB, larger than the limit of 64.0 MiB")
    assert err.startswith(f"error: {path}: ")


# ---- echoed input --------------------------------------------------------------------------------------


def test_echoed_input_is_cut_and_escaped() -> None:
    hostile = "\x1b[2J\x1b]0;title\x07" + "y" * 5000
    err = one_error(run_cli("cataclysm", "area", hostile), 2, "unknown area '\\x1b[2J\\x1b]0;title\\x07yyy")
    assert "\x1b" not in err and "\x07" not in err
    assert "... (5014 characters)" in err and len(err) < 200
    click_err = one_error(run_cli("no\x1b[31msuch"), 2, "No such command 'no\\x1b[31msuch'")
    assert "\x1b" not in click_err


# ---- choices -----------------------------------------------------------------------------------------


def test_a_unicode_digit_typed_as_a_choice_is_refused_cleanly(save: Path) -> None:
    session = PlaySession.open(save)
    game = TerminalGame(session, Console(file=io.StringIO()), lambda prompt: "quit")
    decision = session.decision()
    assert decision is not None and "²".isdigit()
    before = save.read_bytes()
    for typed in ("²", "٣", "9" * 5000):
        with pytest.raises(UserInputError, match=r"choose a number from 1 to \d+, typed with the digits 0-9"):
            game.handle(typed, decision)
    assert len(session.match.log) == 0 and save.read_bytes() == before


# ---- file names --------------------------------------------------------------------------------------


def test_new_with_a_300_character_name_is_refused(tmp_path: Path) -> None:
    path = tmp_path / ("g" * 295 + ".json")
    err = one_error(
        run_cli("new", "cataclysm", "--scenario", SCENARIO, "--save", str(path)),
        2,
        "the file name is too long (300 bytes; the limit is 200)",
    )
    assert "g" * 100 not in err
    assert list(tmp_path.iterdir()) == []


# ---- situation files and question sets ---------------------------------------------------------------


def test_a_deeply_nested_situation_on_stdin_is_refused() -> None:
    text = '{"combat": ' + "[" * 50_000 + "]" * 50_000 + "}"
    err = one_error(
        run_cli("cataclysm", "odds", "--situation", "-", stdin=text), 2, "nests arrays or objects"
    )
    assert err == "error: stdin: nests arrays or objects more than 64 deep\n"


def test_rules_eval_on_a_file_that_is_not_utf8(tmp_path: Path) -> None:
    path = tmp_path / "questions.jsonl"
    path.write_bytes(b'{"question": "what is a flag", "section": "1.1"}\n\xff\xfe\n')
    err = one_error(run_cli("rules", "eval", str(path)), 2, "is not UTF-8 text at byte 49")
    assert err.startswith(f"error: {path}: ")


# ---- module files ------------------------------------------------------------------------------------


def test_a_module_file_that_is_not_utf8(module_copy: Path) -> None:
    (module_copy / "connectors.yaml").write_bytes(b"connections: []\n# \xe9t\xe9\n")
    one_error(
        run_cli("cataclysm", "check", str(module_copy)), 1, "connectors.yaml: is not UTF-8 text at byte 18"
    )


def test_a_module_file_that_is_a_dangling_symlink(module_copy: Path) -> None:
    (module_copy / "pacific.yaml").unlink()
    (module_copy / "pacific.yaml").symlink_to(module_copy / "nowhere.yaml")
    one_error(
        run_cli("cataclysm", "check", str(module_copy)),
        1,
        "pacific.yaml: is a symbolic link to a file that does not exist",
    )


def test_a_directory_named_like_a_module_file(module_copy: Path) -> None:
    (module_copy / "extra.yaml").mkdir()
    one_error(
        run_cli("cataclysm", "check", str(module_copy)), 1, "extra.yaml: cannot read: it is a directory"
    )
    (module_copy / "extra.yaml").rmdir()
    (module_copy / "powers.yaml").unlink()
    (module_copy / "powers.yaml").mkdir()
    one_error(
        run_cli("cataclysm", "check", str(module_copy)), 1, "powers.yaml: cannot read: it is a directory"
    )


def _edit_yaml(path: Path, change: object) -> None:
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    assert callable(change)
    change(data)
    path.write_text(yaml.safe_dump(data, sort_keys=False, allow_unicode=True), encoding="utf-8")


def test_check_refuses_duplicate_scenario_ids(module_copy: Path) -> None:
    shutil.copy(module_copy / "scenarios" / "europe-1939.yaml", module_copy / "scenarios" / "copy.yaml")
    _edit_yaml(module_copy / "module.yaml", lambda d: d["scenarios"].append("scenarios/copy.yaml"))
    one_error(
        run_cli("cataclysm", "check", str(module_copy)),
        1,
        "scenarios/copy.yaml: field 'id': duplicates scenario id 'europe-1939' of scenarios/europe-1939.yaml",
    )


def test_check_refuses_duplicate_area_names(module_copy: Path) -> None:
    def rename(data: dict[str, list[dict[str, str]]]) -> None:
        data["areas"][1]["name"] = data["areas"][0]["name"].upper()

    _edit_yaml(module_copy / "europe.yaml", rename)
    one_error(
        run_cli("cataclysm", "check", str(module_copy)),
        1,
        "europe.yaml: areas[1] (scotland) field 'name': 'LONDON' is also the name of area 'london'",
    )


def test_check_refuses_duplicate_yaml_keys(module_copy: Path) -> None:
    path = module_copy / "module.yaml"
    path.write_text(path.read_text(encoding="utf-8") + "version: 0.2.0\n", encoding="utf-8")
    one_error(run_cli("cataclysm", "check", str(module_copy)), 1, "module.yaml: is not valid YAML at line")
    assert "the key 'version' appears twice" in run_cli("cataclysm", "check", str(module_copy)).err


# ---- saves ---------------------------------------------------------------------------------------------


def test_a_changed_module_version_in_a_save_is_detected(save: Path) -> None:
    data = json.loads(save.read_text(encoding="utf-8"))
    data["module"]["version"] = "0.0.9"
    save.write_text(json.dumps(data), encoding="utf-8")
    for command in (["replay", str(save)], ["play", str(save), "--moves", "quit"]):
        one_error(
            run_cli(*command),
            1,
            "the save was made with module 'cataclysm-reconstructed' version 0.0.9",
        )


# ---- SEATS texts ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("blank", ["\n", " ", "\t\n "])
def test_a_seats_text_of_only_blanks_is_refused(tmp_path: Path, blank: str) -> None:
    path = tmp_path / "game.json"
    one_error(
        run_cli("new", "cataclysm", "--scenario", SCENARIO, "--seats", blank, "--save", str(path)),
        2,
        "SEATS holds only blanks",
    )
    assert not path.exists()


# ---- numeric options -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (["cataclysm", "reach", "london", "--naval", "1000"], "1000 is not in the range 0<=x<=20"),
        (["simulate", "cataclysm", "--games", "1000000"], "1000000 is not in the range 1<=x<=100000"),
        (
            ["cataclysm", "odds", "--attacker-dice", "3", "--defender-dice", "2", "--attacker-mod", "99999"],
            "99999 is not in the range -20<=x<=20",
        ),
        (["aa", "odds", "-a", "1 inf", "-d", "1 inf", "--retreat-after", "5000"], "x<=1000"),
        (["aa", "odds", "-a", "1 inf", "-d", "1 inf", "--trials", "10000000"], "1<=x<=1000000"),
        (["aa", "odds", "-a", "9" * 5000 + " inf", "-d", "1 inf"], "count too large in '99999"),
        (["aa", "odds", "-a", "5000 inf", "-d", "1 inf"], "5000 units in one force; the limit is 1000"),
        (["aa", "odds", "-a", "600 inf, 600 arm", "-d", "1 inf"], "1200 units in one force; the limit"),
        (["aa", "odds", "-a", "1 inf", "-d", "1 inf", "--seed", "-1"], "-1 is not in the range 0<=x<="),
    ],
)
def test_numeric_options_are_bounded(args: list[str], needle: str) -> None:
    one_error(run_cli(*args), 2, needle)


def test_exact_odds_refuse_a_battle_too_large_and_point_to_monte_carlo() -> None:
    args = ["aa", "odds", "-a", "300 inf", "-d", "300 inf"]
    err = one_error(run_cli(*args, "--method", "exact"), 2, "too large to solve exactly")
    assert "use --method monte-carlo" in err and err.count("\n") == 1
    sampled = run_cli(*args, "--method", "monte-carlo", "--trials", "200", "--json")
    assert sampled.code == 0 and json.loads(sampled.out)["method"] == "monte-carlo"


def test_a_nul_character_in_a_path_is_refused() -> None:
    one_error(run_cli("replay", "game\0.json"), 2, "an argument contains a NUL character")
    with pytest.raises(SaveError, match=r"a file name cannot contain a NUL character"):
        open_save("game\0.json")
