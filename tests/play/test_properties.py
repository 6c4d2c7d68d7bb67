"""Property tests: no input a person or a file can give crashes the game or changes it wrongly.

Random text, choices for the wrong power, options that are not offered: each is one clear error
and the state hash does not move. Truncated, bit-flipped or ill-typed saves: one ``SaveError`` line
(exit code 1 on the command line), never a traceback.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from grandstrategy.core.errors import SaveError, UserInputError
from grandstrategy.play.session import PlaySession

from .conftest import Cli

POWERS = ["france", "united-kingdom", "united-states", "germany", "italy", "soviet-union", "japan", "neutral"]
WORDS = ["play", "reserve", "reject", "pass", "interrupt", "diplomacy", "forfeit", "escalation", "offensives"]


@pytest.fixture(scope="module")
def game_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A 1939 game after a few moves: Italy is human and on move."""
    path = tmp_path_factory.mktemp("props") / "game.json"
    session = PlaySession.create(
        path, "cataclysm", options={"scenario": "europe-1939"}, seed=5, seats="italy=human,*=bot:random"
    )
    list(session.bot_moves())
    return path


text_choices = st.one_of(
    st.text(max_size=40),
    st.builds(
        lambda p, w, x: f"{p}: {w} {x}".strip(),
        st.sampled_from(POWERS),
        st.sampled_from(WORDS),
        st.text(max_size=8),
    ),
    st.builds(lambda w, n: f"{w} {n}", st.sampled_from(WORDS), st.integers(-3, 30)),
    st.integers(-5, 100),
)


@pytest.fixture(scope="module")
def session(game_file: Path) -> PlaySession:
    return PlaySession.open(game_file)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(choice=text_choices)
def test_illegal_choices_leave_the_game_unchanged(session: PlaySession, choice: str | int) -> None:
    decision = session.decision()
    assert decision is not None
    legal = {str(a) for a in decision.legal} | {a.option for a in decision.legal}  # type: ignore[attr-defined]
    before = session.match.state_hash()
    text = str(choice).strip()
    is_legal = (isinstance(choice, int) and 1 <= choice <= len(decision.legal)) or (
        isinstance(choice, str) and " ".join(text.split()) in legal
    )
    if is_legal:
        return
    with pytest.raises(UserInputError) as error:
        session.play(choice)
    assert "\n" not in str(error.value)
    assert session.match.state_hash() == before


def test_a_refused_choice_saves_nothing(game_file: Path) -> None:
    session = PlaySession.open(game_file)
    text = game_file.read_bytes()
    with pytest.raises(UserInputError):
        session.play("italy: conquer the world")
    assert game_file.read_bytes() == text


def test_wrong_power_is_refused(game_file: Path) -> None:
    session = PlaySession.open(game_file)
    before = session.match.state_hash()
    with pytest.raises(UserInputError, match="italy"):
        session.play("germany: reserve")
    assert session.match.state_hash() == before


@st.composite
def damaged(draw: st.DrawFn, original: bytes) -> bytes:
    how = draw(st.sampled_from(["truncate", "flip", "retype"]))
    if how == "truncate":
        return original[: draw(st.integers(0, len(original) - 1))]
    if how == "flip":
        index = draw(st.integers(0, len(original) - 1))
        bit = draw(st.integers(0, 7))
        data = bytearray(original)
        data[index] ^= 1 << bit
        return bytes(data)
    data = json.loads(original)
    key = draw(st.sampled_from(sorted(data)))
    data[key] = draw(
        st.one_of(st.none(), st.integers(), st.text(max_size=5), st.lists(st.integers(), max_size=2))
    )
    return json.dumps(data).encode("utf-8")


@settings(max_examples=50, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_damaged_saves_give_one_clear_error(
    game_file: Path, tmp_path_factory: pytest.TempPathFactory, data: st.DataObject
) -> None:
    original = game_file.read_bytes()
    expected = PlaySession.open(game_file).match.state_hash()
    broken = data.draw(damaged(original))
    target = tmp_path_factory.mktemp("broken") / "game.json"
    target.write_bytes(broken)
    try:
        session = PlaySession.open(target)
    except SaveError as error:
        assert "\n" not in str(error)
        assert str(target) in str(error)
    else:  # a harmless change (e.g. in spacing) still loads, and to the same game
        assert session.match.state_hash() == expected


def test_damaged_save_on_the_command_line(cli: Cli, game_file: Path, tmp_path: Path) -> None:
    target = tmp_path / "cut.json"
    target.write_bytes(game_file.read_bytes()[:100])
    for args in (("play", str(target), "--moves", "quit"), ("replay", str(target), "--verify")):
        result = cli(*args)
        assert result.code == 1
        assert result.err.startswith("error: ") and len(result.err.strip().splitlines()) == 1
        assert "Traceback" not in result.err
