"""Tournaments: the mirrored schedule, Bradley-Terry Elo and its intervals, the command's table,
JSON and plot, and runs that repeat with their seed. Games are the toy rule set's (fast)."""

from __future__ import annotations

import math
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from core.toy_game import PIG
from grandstrategy.core.game import register_ruleset
from grandstrategy.play.tournament import (
    BASE_ELO,
    analytic_intervals,
    bootstrap_intervals,
    bot_kinds,
    fit_elo,
    schedule,
    score_of,
    svg_plot,
    tournament,
)

from .conftest import Cli

register_ruleset(PIG)
KINDS = ("bot:random", "bot:heuristic")


def test_every_pair_meets_in_every_group_on_both_sides_of_one_seed() -> None:
    fixtures = schedule("toy-pig", {}, KINDS, rounds=2, seed=5)
    assert len(fixtures) == 1 * 2 * 2 * 2  # pairs x groups (seats) x rounds x sides
    assert [f.index for f in fixtures] == list(range(8))
    for first, second in zip(fixtures[::2], fixtures[1::2], strict=True):
        assert first.block == second.block and first.seed == second.seed and first.group == second.group
        assert (first.focal, first.opponent) == (second.opponent, second.focal)
        assert first.seats[first.group] == first.focal and second.seats[second.group] == second.focal
        assert set(first.seats) == {"north", "south"}
    assert len({f.seed for f in fixtures}) == 4  # one seed per block, all different
    assert schedule("toy-pig", {}, KINDS, rounds=2, seed=5) == fixtures


def test_cataclysm_groups_are_the_ideologies() -> None:
    fixtures = schedule("cataclysm", {"scenario": "europe-1939"}, KINDS, rounds=1, seed=1)
    assert [f.group for f in fixtures[::2]] == ["democracy", "fascism", "communism"]
    fascist = fixtures[2]
    assert fascist.seats["germany"] == fascist.seats["italy"] == fascist.focal
    assert fascist.seats["france"] == fascist.seats["soviet-union"] == fascist.opponent


def test_scores_one_half_or_zero() -> None:
    fixture = schedule("toy-pig", {}, KINDS, rounds=1, seed=5)[0]
    assert score_of(fixture, fixture.group) == 1.0
    assert score_of(fixture, None) == 0.5
    assert score_of(fixture, "somebody else") == 0.0


def test_elo_of_even_results_is_equal_and_follows_the_odds_otherwise() -> None:
    even = fit_elo(KINDS, [("bot:random", "bot:heuristic", 1.0), ("bot:heuristic", "bot:random", 1.0)])
    assert even["bot:random"] == pytest.approx(BASE_ELO) == even["bot:heuristic"]
    # 3 wins and 1 loss, plus the virtual draw: odds 3.5 : 1.5
    games = [("bot:heuristic", "bot:random", 1.0)] * 3 + [("bot:heuristic", "bot:random", 0.0)]
    ratings = fit_elo(KINDS, games)
    assert ratings["bot:heuristic"] - ratings["bot:random"] == pytest.approx(400 * math.log10(3.5 / 1.5))
    assert (ratings["bot:heuristic"] + ratings["bot:random"]) / 2 == pytest.approx(BASE_ELO)


def test_elo_orders_three_kinds_by_strength() -> None:
    kinds = ("a", "b", "c")
    games = [("a", "b", 1.0)] * 4 + [("b", "c", 1.0)] * 4 + [("a", "c", 1.0)] * 4 + [("c", "a", 1.0)]
    ratings = fit_elo(kinds, games)
    assert ratings["a"] > ratings["b"] > ratings["c"]


def test_intervals_contain_the_rating_and_narrow_with_more_games() -> None:
    few = [("bot:heuristic", "bot:random", 1.0)] * 3 + [("bot:heuristic", "bot:random", 0.0)]
    many = few * 10
    widths = []
    for games in (few, many):
        ratings = fit_elo(KINDS, games)
        intervals = analytic_intervals(KINDS, games, ratings)
        for kind in KINDS:
            low, high = intervals[kind]
            assert low < ratings[kind] < high
        widths.append(intervals["bot:random"][1] - intervals["bot:random"][0])
    assert widths[1] < widths[0] / 2


def test_bootstrap_intervals_repeat_with_their_seed_and_bracket_the_rating() -> None:
    report = tournament("toy-pig", options={}, kinds=KINDS, rounds=4, seed=3, bootstrap=0)
    first = bootstrap_intervals(KINDS, report.results, samples=200, seed=9)
    assert bootstrap_intervals(KINDS, report.results, samples=200, seed=9) == first
    for standing in report.standings:
        low, high = first[standing.kind]
        assert low <= standing.elo <= high


def test_a_tournament_repeats_with_its_seed_and_adds_up() -> None:
    first = tournament("toy-pig", options={}, kinds=KINDS, rounds=3, seed=2)
    again = tournament("toy-pig", options={}, kinds=KINDS, rounds=3, seed=2)
    assert first.to_json() == again.to_json()
    assert len(first.results) == 12
    points = {s.kind: s.score for s in first.standings}
    assert sum(points.values()) == 12 and all(s.games == 12 for s in first.standings)
    pairwise = first.pairwise()
    assert pairwise["bot:random"]["bot:heuristic"] == points["bot:random"]
    best, worst = first.standings
    assert best.elo >= worst.elo and best.score >= worst.score


def test_the_command_prints_a_table_writes_a_plot_and_json(cli: Cli, tmp_path: Path) -> None:
    plot = tmp_path / "elo.svg"
    args = ("tournament", "toy-pig", "--bots", "random,heuristic", "--games", "2", "--seed", "4")
    text = cli(*args, "--plot", str(plot))
    assert text.code == 0, text.err
    lines = text.out.splitlines()
    assert lines[0].split()[:3] == ["kind", "games", "score"]
    assert {lines[1].split()[0], lines[2].split()[0]} == set(KINDS)
    assert "8 games, seed 4" in text.out
    svg = ET.fromstring(plot.read_text(encoding="utf-8"))
    labels = [node.text for node in svg.iter("{http://www.w3.org/2000/svg}text")]
    assert "bot:random" in labels and "bot:heuristic" in labels
    data = cli(*args, "--json").json()
    assert [g["index"] for g in data["games"]] == list(range(8))
    assert {s["kind"] for s in data["standings"]} == set(KINDS)
    assert cli(*args, "--json").json() == data


def test_the_plot_has_one_point_and_one_interval_per_kind() -> None:
    report = tournament("toy-pig", options={}, kinds=KINDS, rounds=1, seed=1)
    svg = ET.fromstring(svg_plot(report))
    assert len(list(svg.iter("{http://www.w3.org/2000/svg}circle"))) == 2
    blue = [n for n in svg.iter("{http://www.w3.org/2000/svg}line") if n.get("stroke") == "#1f77b4"]
    assert len(blue) == 2 * 3  # a bar and two end ticks per kind


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("--bots", "random"), "needs 2 to 16 bot kinds"),
        (("--bots", "random,random"), "named twice"),
        (("--bots", "random,wizard"), "'wizard' is not a kind of bot"),
        (("--address", "auto"), "use it with --backend ray"),
    ],
)
def test_bad_arguments_are_one_line_and_exit_2(cli: Cli, args: tuple[str, ...], message: str) -> None:
    result = cli("tournament", "toy-pig", *args)
    assert result.code == 2
    assert message in result.err and result.err.count("\n") == 1 and result.out == ""


def test_bot_kinds_accept_both_spellings() -> None:
    assert bot_kinds("random, bot:heuristic") == KINDS
