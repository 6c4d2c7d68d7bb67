"""Fuzzing the command line with mutated files and arguments (issue 12, point 7).

Hypothesis mutates a real save, seats file, module file and situation file (cut short, bytes
flipped, bytes inserted, hostile tokens such as deep brackets, huge numbers, control characters
and invalid UTF-8 spliced in) and draws argument lists for the commands. Every run must end in
either a correct answer (exit 0 and sensible output) or one clean error (the documented non-zero
exit code, an ``error:`` line, no traceback), and must leave the input files byte for byte as
they were. The commands run in-process (:func:`tests.core.clirun.run_cli`): an exception escaping
``grandstrategy.cli.main`` fails the example. Example counts keep the whole file to seconds.
"""

from __future__ import annotations

import json
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from grandstrategy.cataclysm.module import DEFAULT_MODULE_DIR
from grandstrategy.play.seats import seats_path

from .clirun import Result, run_cli

FUZZ = settings(max_examples=40, suppress_health_check=[HealthCheck.function_scoped_fixture])

HOSTILE = [
    b"[" * 5000,
    b"{" * 70 + b"}" * 70,
    b"9" * 5000,
    b"1e999999",
    b"NaN",
    b"-Infinity",
    b'"\\ud800"',
    b"\x1b[2J\x1b]0;x\x07",
    b"\xff\xfe\x00",
    b"\x00",
    b'"seed": 1, "seed": 2',
    b"\xe2\x80\xae",
    b"&a [*a, *a, *a]",
    b"null",
    b"{}",
    b"[]",
    b'""',
    b"-1",
    b"true",
]


@st.composite
def mutated(draw: st.DrawFn, original: bytes) -> bytes:
    """``original`` changed in one to three ways a broken disk, editor or attacker might."""
    data = bytearray(original)
    for _ in range(draw(st.integers(1, 3))):
        kind = draw(st.sampled_from(["cut", "flip", "insert", "delete", "hostile"]))
        at = draw(st.integers(0, len(data)))
        if kind == "cut":
            del data[at:]
        elif kind == "flip" and at < len(data):
            data[at] = draw(st.integers(0, 255))
        elif kind == "insert":
            data[at:at] = draw(st.binary(min_size=1, max_size=8))
        elif kind == "delete":
            del data[at : at + draw(st.integers(1, 40))]
        else:
            data[at:at] = draw(st.sampled_from(HOSTILE))
    return bytes(data)


def _files(directory: Path) -> dict[str, bytes]:
    return {
        str(p.relative_to(directory)): p.read_bytes()
        for p in sorted(directory.rglob("*"))
        if p.is_file() and not p.is_symlink() and not p.name.endswith(".lock")
    }


def _clean(result: Result, codes: tuple[int, ...]) -> None:
    """Exit 0 or one of ``codes`` with an ``error:`` line; never a traceback or a raw escape."""
    assert "Traceback" not in result.out + result.err
    assert "\x1b" not in result.err
    if result.code != 0:
        assert result.code in codes, (result.code, result.err)
        assert result.err.startswith(("error: ", "Usage: ", "module in ", "Error: ")), result.err


@pytest.fixture(scope="module")
def base(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A directory holding a short Cataclysm game (a few bot moves, then a person on move)."""
    root = tmp_path_factory.mktemp("fuzz-base")
    path = root / "game.json"
    made = run_cli(
        "new",
        "cataclysm",
        "--scenario",
        "europe-1939",
        "--seed",
        "7",
        "--seats",
        "*=human",
        "--save",
        str(path),
    )
    assert made.code == 0, made.err
    return root


@pytest.fixture
def scratch() -> Iterator[Path]:
    """A temporary directory for the whole test (Hypothesis reuses it across examples)."""
    with tempfile.TemporaryDirectory(prefix="gs-fuzz-") as name:
        yield Path(name)


def _fresh(scratch: Path) -> Path:
    """A new empty directory for one example."""
    return Path(tempfile.mkdtemp(dir=scratch))


@FUZZ
@given(data=st.data())
def test_mutated_saves_replay_or_fail_cleanly(base: Path, scratch: Path, data: st.DataObject) -> None:
    directory = _fresh(scratch)
    save = directory / "game.json"
    save.write_bytes(data.draw(mutated((base / "game.json").read_bytes())))
    shutil.copy(seats_path(base / "game.json"), seats_path(save))
    before = _files(directory)
    replayed = run_cli("replay", "--verify", str(save))
    _clean(replayed, (1,))
    if replayed.code == 0:
        assert replayed.out.startswith(f"OK: {save} replays")
    _clean(run_cli("play", str(save), "--moves", "quit"), (1, 2))
    assert _files(directory) == before


@FUZZ
@given(data=st.data())
def test_mutated_seats_files_load_or_fail_cleanly(base: Path, scratch: Path, data: st.DataObject) -> None:
    directory = _fresh(scratch)
    save = directory / "game.json"
    shutil.copy(base / "game.json", save)
    seats_path(save).write_bytes(data.draw(mutated(seats_path(base / "game.json").read_bytes())))
    before = _files(directory)
    result = run_cli("play", str(save), "--moves", "quit")
    _clean(result, (1, 2))
    if result.code == 1:
        assert result.err.startswith(f"error: {seats_path(save)}: ")
    assert _files(directory) == before


@settings(max_examples=15, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data(), name=st.sampled_from(["module.yaml", "connectors.yaml", "scenarios/europe-1939.yaml"]))
def test_mutated_module_files_check_or_fail_cleanly(scratch: Path, data: st.DataObject, name: str) -> None:
    root = _fresh(scratch) / "module"
    shutil.copytree(DEFAULT_MODULE_DIR, root)
    (root / name).write_bytes(data.draw(mutated((DEFAULT_MODULE_DIR / name).read_bytes())))
    before = _files(root)
    result = run_cli("cataclysm", "check", str(root))
    _clean(result, (1,))
    if result.code == 0:
        assert ": OK" in result.out
    assert _files(root) == before


SITUATION = json.dumps(
    {
        "combat": "land",
        "attacker": {"name": "Germany", "units": ["tank-army", "infantry-army"], "air": ["tactical-air"]},
        "defender": {"name": "Poland", "units": ["minor-army"]},
    }
).encode()


@FUZZ
@given(data=st.data())
def test_mutated_situations_give_odds_or_fail_cleanly(scratch: Path, data: st.DataObject) -> None:
    directory = _fresh(scratch)
    path = directory / "situation.json"
    text = data.draw(mutated(SITUATION))
    path.write_bytes(text)
    result = run_cli("cataclysm", "odds", "--situation", str(path), "--json")
    _clean(result, (2,))
    if result.code == 0:
        odds = json.loads(result.out)
        total = odds["attacker_wins"] + odds["defender_wins"] + odds["tie"]
        assert abs(total - 1) < 1e-9
    assert path.read_bytes() == text
    piped = run_cli("cataclysm", "odds", "--situation", "-", stdin=text.decode("utf-8", "replace"))
    _clean(piped, (2,))


TEXT = st.one_of(
    st.text(max_size=30),
    st.sampled_from(["london", "germany", "3 inf, 1 art", "1 ftr", "*=human", "europe-1939", "-1", "0", "²"]),
    st.sampled_from([h.decode("utf-8", "replace") for h in HOSTILE]).map(lambda s: s[:200]),
)
NUMBER = st.one_of(st.integers(-3, 25).map(str), st.sampled_from(["1" * 40, "-0", "1e3", "x", "", "²"]))
FORCE = st.one_of(
    TEXT,
    st.lists(
        st.tuples(
            st.integers(0, 6), st.sampled_from(["inf", "art", "arm", "ftr", "bmr", "dd", "sub", "bb", "zz"])
        ),
        min_size=1,
        max_size=3,
    ).map(lambda items: ", ".join(f"{n} {u}" for n, u in items)),
)


@st.composite
def command_lines(draw: st.DrawFn, save: str, fresh: str) -> list[str]:
    """One argument list for a cheap command, its values drawn from hostile and ordinary ones."""
    kind = draw(st.sampled_from(["area", "reach", "dice", "aa", "new", "replay", "play", "rules", "raw"]))
    if kind == "area":
        return ["cataclysm", "area", draw(TEXT)]
    if kind == "reach":
        return ["cataclysm", "reach", draw(TEXT), "--naval", draw(NUMBER)]
    if kind == "dice":
        return ["cataclysm", "odds", "--attacker-dice", draw(NUMBER), "--defender-dice", draw(NUMBER)]
    if kind == "aa":
        extra = draw(
            st.sampled_from(
                [
                    [],
                    ["--retreat-after", draw(NUMBER)],
                    ["--seed", draw(NUMBER)],
                    ["--sea"],
                    ["--order", draw(TEXT)],
                ]
            )
        )
        method = draw(st.sampled_from(["auto", "exact", "monte-carlo", draw(TEXT)]))
        trials = draw(st.one_of(NUMBER, st.sampled_from(["300", "1000000000"])))
        return [
            "aa",
            "odds",
            "-a",
            draw(FORCE),
            "-d",
            draw(FORCE),
            "--method",
            method,
            "--trials",
            trials,
            *extra,
        ]
    if kind == "new":
        return ["new", "cataclysm", "--scenario", draw(TEXT), "--seats", draw(TEXT), "--save", fresh]
    if kind == "replay":
        return ["replay", draw(st.sampled_from([save, draw(TEXT) or "x"])), "--verify"]
    if kind == "play":
        seats = draw(TEXT) or "*=human"  # no seats text at all would hand the whole game to bots (slow)
        return ["play", save, "--seats", seats, "--moves", "quit"]
    if kind == "rules":
        return ["rules", "ask", draw(TEXT) or "?"]
    return draw(st.lists(TEXT, max_size=4))


@FUZZ
@given(data=st.data())
def test_drawn_command_lines_answer_or_fail_cleanly(base: Path, scratch: Path, data: st.DataObject) -> None:
    directory = _fresh(scratch)
    save = directory / "game.json"
    shutil.copy(base / "game.json", save)
    shutil.copy(seats_path(base / "game.json"), seats_path(save))
    fresh = directory / "new" / "made.json"
    fresh.parent.mkdir()
    args = data.draw(command_lines(str(save), str(fresh)))
    before = _files(directory)
    result = run_cli(*args)
    _clean(result, (1, 2))
    after = _files(directory)
    if args[:1] == ["play"] and result.code == 0:  # new seats stored, bots may have moved: still valid
        assert run_cli("replay", "--verify", str(save)).code == 0
        after = before
    if args[:1] == ["new"] and result.code == 0:
        assert fresh.exists()
        after = {k: v for k, v in after.items() if not k.startswith("new/")}
    assert after == before
