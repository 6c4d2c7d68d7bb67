"""Simulations: deterministic across runs and --jobs, invariants checked, reports complete."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from grandstrategy.play.simulate import GameSpec, game_seed, play_game, seats_for, simulate

from .conftest import SCENARIO, Cli


def without_seconds(report: dict[str, Any]) -> dict[str, Any]:
    data = copy.deepcopy(report)
    for game in data["games"]:
        del game["seconds"]
    for key in ("seconds", "wall_seconds", "games_per_second"):
        del data["totals"][key]
    return data


def test_json_report_has_every_field_and_is_deterministic(cli: Cli) -> None:
    args = (
        "simulate",
        "cataclysm",
        "--scenario",
        SCENARIO,
        "--games",
        "3",
        "--seed",
        "11",
        "--check",
        "--json",
    )
    first, second = cli(*args), cli(*args)
    assert first.code == 0, first.err
    data = first.json()
    assert len(data["games"]) == 3
    game = data["games"][0]
    for key in ("seed", "winner", "vp", "turns", "end", "decisions", "chance_events", "log_hash", "seconds"):
        assert key in game
    assert game["winner"] in ("democracy", "fascism", "communism")
    assert set(game["vp"]) == {"democracy", "fascism", "communism"}
    assert game["log_hash"].startswith("sha256:")
    assert data["totals"]["games"] == 3 and sum(data["totals"]["wins"].values()) == 3
    assert without_seconds(first.json()) == without_seconds(second.json())
    assert first.err == ""  # no progress bar when not on a terminal or with --json


def test_jobs_do_not_change_results() -> None:
    options = {"scenario": SCENARIO}
    seats = seats_for("cataclysm", options, "italy=heuristic")
    one = simulate("cataclysm", options=options, games=3, seed=7, seats=seats, jobs=1, check=True)
    two = simulate("cataclysm", options=options, games=3, seed=7, seats=seats, jobs=2, check=True)
    assert without_seconds(one.to_json()) == without_seconds(two.to_json())
    assert [g.index for g in two.games] == [0, 1, 2]


def test_game_seeds_differ_and_are_stable() -> None:
    seeds = [game_seed(1, i) for i in range(50)]
    assert len(set(seeds)) == 50
    assert game_seed(1, 0) == game_seed(1, 0) and all(0 <= s < 2**64 for s in seeds)


def test_heuristic_games_keep_every_invariant() -> None:
    options = {"scenario": SCENARIO}
    seats = seats_for("cataclysm", options, "heuristic")
    for index in range(2):
        report = play_game(GameSpec(index, "cataclysm", options, game_seed(3, index), seats, check=True))
        assert report.winner is not None and report.decisions > 0


def test_text_report(cli: Cli) -> None:
    result = cli("simulate", "cataclysm", "--scenario", SCENARIO, "--games", "2", "--seed", "1")
    assert result.code == 0, result.err
    lines = result.out.strip().splitlines()
    assert lines[0].startswith("game 0 seed ") and "wins" in lines[0]
    assert lines[2].startswith("2 games: wins")


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("--games", "0"), "--games"),
        (("--bots", "wizards"), "unknown"),
        (("--scenario", "atlantis"), "atlantis"),
    ],
)
def test_bad_arguments(cli: Cli, args: tuple[str, ...], message: str) -> None:
    result = cli("simulate", "cataclysm", *args)
    assert result.code == 2
    assert message in result.err
