"""SEATS texts: good ones resolve every power, bad ones are one clear error (exit code 2)."""

from __future__ import annotations

import pytest

from grandstrategy.core.errors import UserInputError
from grandstrategy.play.seats import (
    HEURISTIC,
    HUMAN,
    RANDOM,
    format_seats,
    parse_seats,
    read_seats,
    write_seats,
)

from .conftest import Cli

POWERS = ["france", "united-kingdom", "united-states", "germany", "italy", "soviet-union"]
GROUPS = {
    "democracy": ["france", "united-kingdom", "united-states"],
    "fascism": ["germany", "italy"],
    "communism": ["soviet-union"],
}
NAMES = {"united-kingdom": "United Kingdom", "soviet-union": "Soviet Union", "united-states": "United States"}


def parse(text: str | None) -> dict[str, str]:
    return parse_seats(text, POWERS, groups=GROUPS, names=NAMES)


def test_the_example_from_the_issue() -> None:
    seats = parse("germany=human,italy=bot:heuristic,*=bot:random")
    assert seats["germany"] == HUMAN
    assert seats["italy"] == HEURISTIC
    assert {seats[p] for p in POWERS if p not in ("germany", "italy")} == {RANDOM}


def test_default_is_heuristic_bots_everywhere() -> None:
    assert set(parse(None).values()) == {HEURISTIC}
    assert set(parse("").values()) == {HEURISTIC}


def test_a_bare_power_is_a_human_and_short_forms_work() -> None:
    seats = parse("Soviet Union, fascism=random, uk=bot")
    assert seats["soviet-union"] == HUMAN
    assert seats["germany"] == seats["italy"] == RANDOM
    assert seats["united-kingdom"] == HEURISTIC
    assert parse("us=random")["united-states"] == RANDOM


def test_precedence_power_over_ideology_over_star() -> None:
    seats = parse("*=human,fascism=random,germany=heuristic")
    assert seats["germany"] == HEURISTIC
    assert seats["italy"] == RANDOM
    assert seats["france"] == HUMAN


def test_prefixes_and_printed_names() -> None:
    assert parse("soviet=random")["soviet-union"] == RANDOM
    assert parse("united kingdom=random")["united-kingdom"] == RANDOM
    assert parse("GERMANY=Human")["germany"] == HUMAN


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("prussia=human", ["unknown power 'prussia'", "germany"]),
        ("germany=genius", ["unknown seat kind 'genius'", "bot:heuristic"]),
        ("germany=human,germany=bot", ["names 'germany' twice"]),
        ("germany=human,,italy=bot", ["empty entry"]),
        ("united=human", ["ambiguous", "united-kingdom", "united-states"]),
        ("germany=", ["no kind"]),
        ("*=human,*=bot", ["twice"]),
        ("=human", ["names no power"]),
    ],
)
def test_bad_specs_raise_one_clear_error(text: str, words: list[str]) -> None:
    with pytest.raises(UserInputError) as error:
        parse(text)
    message = str(error.value)
    assert "\n" not in message
    for word in words:
        assert word in message


def test_format_round_trips() -> None:
    seats = parse("germany=human,italy=random")
    assert parse(format_seats(seats)) == seats


def test_seats_file_round_trip_and_defects(tmp_path) -> None:  # type: ignore[no-untyped-def]
    save = tmp_path / "g.json"
    seats = parse("germany")
    assert write_seats(save, seats) == tmp_path / "g.seats.json"
    assert read_seats(save, POWERS) == seats
    assert read_seats(tmp_path / "other.json", POWERS) is None
    (tmp_path / "g.seats.json").write_text("{not json", encoding="utf-8")
    from grandstrategy.core.errors import SaveError

    with pytest.raises(SaveError, match="not valid JSON"):
        read_seats(save, POWERS)


@pytest.mark.parametrize("seats", ["prussia=human", "germany=wizard", "germany,germany"])
def test_cli_rejects_bad_seats_with_exit_2(cli: Cli, tmp_path, seats: str) -> None:  # type: ignore[no-untyped-def]
    path = tmp_path / "g.json"
    result = cli(
        "new", "cataclysm", "--scenario", "europe-1939", "--seed", "1", "--seats", seats, "--save", str(path)
    )
    assert result.code == 2
    assert result.err.startswith("error: ")
    assert len(result.err.strip().splitlines()) == 1
    assert "Traceback" not in result.err
    assert not path.exists()


def test_simulate_refuses_a_human_seat(cli: Cli) -> None:
    result = cli(
        "simulate", "cataclysm", "--scenario", "europe-1939", "--games", "1", "--bots", "germany=human"
    )
    assert result.code == 2
    assert "needs bots" in result.err
