"""A round robin of bot kinds over seeded games, rated with Elo and bootstrap confidence intervals.

Schedule. For every pair of kinds (A, B), every seat group G (Cataclysm's ideologies; each seat of
another rule set) and every round r, two games share one seed: in the first A holds the seats of
G and B every other seat, in the second the roles swap. The kind whose seats win scores 1, the
other 0; a game without a winner is a draw (1/2 each). Playing both sides of the same seed cancels
the advantage of a strong group and most of the luck of the dice. Game seeds come from the run's
seed, so a tournament is reproduced by its seed, with any number of jobs and on any backend
(:mod:`grandstrategy.play.runner`).

Ratings. Elo ratings are the maximum-likelihood Bradley-Terry strengths of the pooled results
(draws count half a win each way), found by Hunter's MM iteration and shown on the Elo scale (400
points per factor of 10 in odds) with mean 1500. One virtual draw per pair of kinds keeps the
ratings finite when one kind wins every game. The 95% interval of each rating is analytic by
default (1.96 standard errors from the inverse Fisher information of that likelihood, with the
ratings' mean held fixed), or on request a percentile bootstrap over the mirrored pairs of games,
resampled with the kernel's seeded generator (it has no width when every resample agrees, e.g.
when one kind wins every game).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import Any
from xml.sax.saxutils import escape

import numpy as np

from grandstrategy.core.canonical import JSONObject
from grandstrategy.core.errors import UserInputError
from grandstrategy.core.rng import Rng
from grandstrategy.play.bots import derive_seed, make_bot
from grandstrategy.play.games import load_ruleset, seat_groups
from grandstrategy.play.runner import run_all
from grandstrategy.play.simulate import GameReport, GameSpec, play_game

BASE_ELO = 1500.0
MAX_KINDS = 16
MAX_GAMES = 100_000
"""Bounds on a tournament's size (inputs are bounded)."""


def bot_kinds(text: str) -> tuple[str, ...]:
    """The bot kinds of ``--bots`` (``random,heuristic`` or ``bot:random,...``), in the order given.

    :raises UserInputError: fewer than two kinds, a repeat, or a name that is not a kind of bot.
    """
    kinds: list[str] = []
    for word in text.split(","):
        name = word.strip().lower()
        if not name:
            continue
        kind = name if name.startswith("bot:") else f"bot:{name}"
        try:
            make_bot(kind, 0)
        except ValueError:
            raise UserInputError(
                f"{word.strip()!r} is not a kind of bot (kinds: random, heuristic, search)"
            ) from None
        if kind in kinds:
            raise UserInputError(f"bot kind {kind} is named twice in {text!r}")
        kinds.append(kind)
    if not 2 <= len(kinds) <= MAX_KINDS:
        raise UserInputError(f"a tournament needs 2 to {MAX_KINDS} bot kinds, not {len(kinds)} ({text!r})")
    return tuple(kinds)


@dataclass(frozen=True)
class Fixture:
    """One scheduled game: which kind holds the group in question, and who the opponent is."""

    index: int
    block: int
    focal: str
    opponent: str
    group: str
    seats: dict[str, str]
    seed: int


def groups_of(ruleset: str, options: Mapping[str, Any]) -> dict[str, list[str]]:
    """Seat groups for the schedule: the rule set's named groups, else one group per seat."""
    state = load_ruleset(ruleset).new_state(dict(options))
    groups = {name: seats for name, seats in seat_groups(state).items() if seats}
    return groups or {str(seat): [str(seat)] for seat in state.seats()}


def schedule(
    ruleset: str, options: Mapping[str, Any], kinds: Sequence[str], rounds: int, seed: int
) -> list[Fixture]:
    """Every game of the round robin, in a fixed order (see the module docstring).

    :raises UserInputError: ``rounds`` below 1, or more than :data:`MAX_GAMES` games.
    """
    if rounds < 1:
        raise UserInputError(f"--games must be at least 1, not {rounds}")
    groups = groups_of(ruleset, options)
    count = len(list(combinations(kinds, 2))) * len(groups) * 2 * rounds
    if count > MAX_GAMES:
        raise UserInputError(f"that tournament has {count} games; the limit is {MAX_GAMES}")
    fixtures: list[Fixture] = []
    block = 0
    for a, b in combinations(kinds, 2):
        for group, members in groups.items():
            for round_ in range(rounds):
                game_seed = derive_seed(seed, "tournament", a, b, group, round_)
                for focal, opponent in ((a, b), (b, a)):
                    seats = {seat: opponent for grouped in groups.values() for seat in grouped}
                    seats.update({seat: focal for seat in members})
                    fixtures.append(Fixture(len(fixtures), block, focal, opponent, group, seats, game_seed))
                block += 1
    return fixtures


@dataclass(frozen=True)
class Result:
    """A finished game of the tournament: the focal kind's score (1, 1/2 or 0)."""

    fixture: Fixture
    winner: str | None
    score: float
    log_hash: str

    def to_json(self) -> JSONObject:
        """The ``--json`` shape of one game."""
        return {
            "index": self.fixture.index,
            "seed": self.fixture.seed,
            "group": self.fixture.group,
            "kind": self.fixture.focal,
            "opponent": self.fixture.opponent,
            "winner": self.winner,
            "score": self.score,
            "log_hash": self.log_hash,
        }


def score_of(fixture: Fixture, winner: str | None) -> float:
    """1 if the focal kind's group won, 1/2 without a winner, else 0."""
    if winner is None:
        return 0.5
    return 1.0 if winner == fixture.group else 0.0


# ---- ratings -------------------------------------------------------------------------------------------


def fit_elo(
    kinds: Sequence[str], games: Sequence[tuple[str, str, float]], *, prior_draws: float = 1.0
) -> dict[str, float]:
    """Bradley-Terry maximum-likelihood ratings on the Elo scale (mean :data:`BASE_ELO`).

    ``games`` holds ``(kind, opponent, score of kind)``; ``prior_draws`` virtual draws are added
    between every pair of kinds.
    """
    index = {kind: i for i, kind in enumerate(kinds)}
    n = len(kinds)
    wins, played = _tally(kinds, games, prior_draws)
    strength = [1.0] * n
    for _ in range(10_000):
        new = []
        for i in range(n):
            denominator = sum(played[i][j] / (strength[i] + strength[j]) for j in range(n) if j != i)
            new.append(wins[i] / denominator if denominator > 0 else strength[i])
        scale = math.exp(sum(math.log(max(s, 1e-300)) for s in new) / n)
        new = [s / scale for s in new]
        change = max(
            abs(math.log(max(a, 1e-300)) - math.log(max(b, 1e-300)))
            for a, b in zip(new, strength, strict=True)
        )
        strength = new
        if change < 1e-12:
            break
    return {kind: BASE_ELO + 400.0 * math.log10(max(strength[index[kind]], 1e-300)) for kind in kinds}


def _tally(
    kinds: Sequence[str], games: Sequence[tuple[str, str, float]], prior_draws: float
) -> tuple[list[float], list[list[float]]]:
    """Points won by each kind and games played by each pair, virtual draws included."""
    index = {kind: i for i, kind in enumerate(kinds)}
    n = len(kinds)
    wins = [0.0] * n
    played = [[0.0] * n for _ in range(n)]
    for i, j in combinations(range(n), 2):
        played[i][j] += prior_draws
        played[j][i] += prior_draws
        wins[i] += prior_draws / 2
        wins[j] += prior_draws / 2
    for kind, opponent, score in games:
        i, j = index[kind], index[opponent]
        played[i][j] += 1.0
        played[j][i] += 1.0
        wins[i] += score
        wins[j] += 1.0 - score
    return wins, played


ELO_PER_NATURAL_LOG = 400.0 / math.log(10.0)


def analytic_intervals(
    kinds: Sequence[str],
    games: Sequence[tuple[str, str, float]],
    ratings: Mapping[str, float],
    *,
    prior_draws: float = 1.0,
    z: float = 1.959964,
) -> dict[str, tuple[float, float]]:
    """``rating +- z`` standard errors; the errors come from the pseudo-inverse of the Fisher
    information of the Bradley-Terry likelihood at ``ratings`` (the mean of the ratings fixed)."""
    _, played = _tally(kinds, games, prior_draws)
    n = len(kinds)
    theta = [(ratings[kind] - BASE_ELO) / ELO_PER_NATURAL_LOG for kind in kinds]
    information = np.zeros((n, n))
    for i, j in combinations(range(n), 2):
        p = 1.0 / (1.0 + math.exp(theta[j] - theta[i]))
        weight = played[i][j] * p * (1.0 - p)
        information[i, i] += weight
        information[j, j] += weight
        information[i, j] -= weight
        information[j, i] -= weight
    covariance = np.linalg.pinv(information)
    intervals = {}
    for i, kind in enumerate(kinds):
        half = z * ELO_PER_NATURAL_LOG * math.sqrt(max(float(covariance[i, i]), 0.0))
        intervals[kind] = (ratings[kind] - half, ratings[kind] + half)
    return intervals


def bootstrap_intervals(
    kinds: Sequence[str], results: Sequence[Result], *, samples: int, seed: int, level: float = 0.95
) -> dict[str, tuple[float, float]]:
    """Percentile intervals of each rating over ``samples`` resamplings of the mirrored blocks.

    With ``samples == 0``, every interval is the rating itself.
    """
    blocks: dict[int, list[tuple[str, str, float]]] = {}
    for result in results:
        blocks.setdefault(result.fixture.block, []).append(
            (result.fixture.focal, result.fixture.opponent, result.score)
        )
    keys = sorted(blocks)
    if samples <= 0 or not keys:
        ratings = fit_elo(kinds, [game for key in keys for game in blocks[key]])
        return {kind: (ratings[kind], ratings[kind]) for kind in kinds}
    rng = Rng(derive_seed(seed, "bootstrap"))
    draws: dict[str, list[float]] = {kind: [] for kind in kinds}
    for _ in range(samples):
        games = [game for _ in keys for game in blocks[keys[rng.below(len(keys))]]]
        for kind, rating in fit_elo(kinds, games).items():
            draws[kind].append(rating)
    tail = (1.0 - level) / 2
    return {kind: (_quantile(values, tail), _quantile(values, 1.0 - tail)) for kind, values in draws.items()}


def _quantile(values: Sequence[float], q: float) -> float:
    """The ``q`` quantile by linear interpolation between order statistics."""
    ordered = sorted(values)
    at = q * (len(ordered) - 1)
    low = math.floor(at)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (at - low)


# ---- the run -------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Standing:
    """One kind's line of the results table."""

    kind: str
    games: int
    score: float
    elo: float
    low: float
    high: float

    def to_json(self) -> JSONObject:
        """The ``--json`` shape of one line."""
        return {
            "kind": self.kind,
            "games": self.games,
            "score": self.score,
            "score_rate": round(self.score / self.games, 4) if self.games else 0.0,
            "elo": round(self.elo, 1),
            "elo_low": round(self.low, 1),
            "elo_high": round(self.high, 1),
        }


@dataclass(frozen=True)
class TournamentReport:
    """Every game, the standings (best first) and the pairwise scores."""

    ruleset: str
    options: dict[str, Any]
    seed: int
    kinds: tuple[str, ...]
    results: list[Result]
    standings: list[Standing]

    def pairwise(self) -> dict[str, dict[str, float]]:
        """``pairwise()[a][b]``: the points ``a`` scored against ``b``."""
        table = {a: {b: 0.0 for b in self.kinds if b != a} for a in self.kinds}
        for result in self.results:
            table[result.fixture.focal][result.fixture.opponent] += result.score
            table[result.fixture.opponent][result.fixture.focal] += 1.0 - result.score
        return table

    def to_json(self) -> JSONObject:
        """The ``--json`` shape: settings, standings, pairwise scores and every game."""
        return {
            "ruleset": self.ruleset,
            "options": self.options,
            "seed": self.seed,
            "kinds": list(self.kinds),
            "standings": [standing.to_json() for standing in self.standings],
            "pairwise": self.pairwise(),
            "games": [result.to_json() for result in self.results],
        }

    def table(self) -> list[str]:
        """The results table as text lines."""
        width = max(len(kind) for kind in self.kinds)
        lines = [f"{'kind':<{width}}  games  score          elo  95% interval"]
        for s in self.standings:
            rate = s.score / s.games if s.games else 0.0
            lines.append(
                f"{s.kind:<{width}}  {s.games:>5}  {s.score:>5.1f} ({rate:>4.0%})  {s.elo:>6.0f}  "
                f"[{s.low:.0f}, {s.high:.0f}]"
            )
        return lines


def _play(fixture_spec: tuple[Fixture, GameSpec]) -> tuple[Fixture, GameReport]:
    fixture, spec = fixture_spec
    return fixture, play_game(spec)


def tournament(
    ruleset: str,
    *,
    options: Mapping[str, Any],
    kinds: Sequence[str],
    rounds: int,
    seed: int,
    jobs: int = 1,
    backend: str = "local",
    address: str | None = None,
    bootstrap: int = 0,
    progress: Callable[[tuple[Fixture, GameReport]], None] | None = None,
) -> TournamentReport:
    """Play the round robin (see the module docstring) and rate the kinds; ``bootstrap`` resamples
    give bootstrap intervals, 0 the analytic ones.

    :raises UserInputError: bad kinds, options, sizes or backend.
    """
    if not 0 <= bootstrap <= 100_000:
        raise UserInputError(f"--bootstrap must be between 0 and 100000, not {bootstrap}")
    fixtures = schedule(ruleset, options, kinds, rounds, seed)
    specs = [(f, GameSpec(f.index, ruleset, dict(options), f.seed, dict(f.seats), False)) for f in fixtures]
    played = run_all(_play, specs, backend=backend, jobs=jobs, address=address, progress=progress)
    results = [
        Result(fixture, report.winner, score_of(fixture, report.winner), report.log_hash)
        for fixture, report in played
    ]
    pooled = [(r.fixture.focal, r.fixture.opponent, r.score) for r in results]
    ratings = fit_elo(kinds, pooled)
    if bootstrap:
        intervals = bootstrap_intervals(kinds, results, samples=bootstrap, seed=seed)
    else:
        intervals = analytic_intervals(kinds, pooled, ratings)
    standings = []
    for kind in kinds:
        games = sum(1 for r in results if kind in (r.fixture.focal, r.fixture.opponent))
        score = sum(
            r.score if r.fixture.focal == kind else 1.0 - r.score
            for r in results
            if kind in (r.fixture.focal, r.fixture.opponent)
        )
        low, high = intervals[kind]
        standings.append(
            Standing(kind, games, score, ratings[kind], min(low, ratings[kind]), max(high, ratings[kind]))
        )
    standings.sort(key=lambda s: (-s.elo, s.kind))
    return TournamentReport(ruleset, dict(options), seed, tuple(kinds), results, standings)


# ---- the plot ------------------------------------------------------------------------------------------


def svg_plot(report: TournamentReport) -> str:
    """The ratings as an SVG dot plot with 95% interval bars, best at the top (no dependencies)."""
    rows = report.standings
    left, right, top, row_height = 150, 30, 40, 34
    width = 640
    height = top + row_height * len(rows) + 40
    low = min(s.low for s in rows)
    high = max(s.high for s in rows)
    if high - low < 50:
        middle = (high + low) / 2
        low, high = middle - 25, middle + 25
    pad = (high - low) * 0.08
    low, high = low - pad, high + pad

    def x(value: float) -> float:
        return left + (value - low) / (high - low) * (width - left - right)

    title = f"Elo of bot kinds: {report.ruleset}, seed {report.seed} ({len(report.results)} games)"
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" font-family="sans-serif" font-size="13">',
        f'<rect width="{width}" height="{height}" fill="white"/>',
        f'<text x="{width / 2:.1f}" y="22" text-anchor="middle" font-size="14">{escape(title)}</text>',
    ]
    axis_y = top + row_height * len(rows) + 4
    parts.append(f'<line x1="{left}" y1="{axis_y}" x2="{width - right}" y2="{axis_y}" stroke="#444"/>')
    step = _tick_step(high - low)
    tick = math.ceil(low / step) * step
    while tick <= high:
        tx = x(tick)
        parts.append(f'<line x1="{tx:.1f}" y1="{top - 6}" x2="{tx:.1f}" y2="{axis_y}" stroke="#ddd"/>')
        parts.append(f'<text x="{tx:.1f}" y="{axis_y + 16}" text-anchor="middle">{tick:.0f}</text>')
        tick += step
    for row, standing in enumerate(rows):
        y = top + row_height * row + row_height / 2
        parts.append(
            f'<text x="{left - 10}" y="{y + 4:.1f}" text-anchor="end">{escape(standing.kind)}</text>'
        )
        parts.append(
            f'<line x1="{x(standing.low):.1f}" y1="{y:.1f}" x2="{x(standing.high):.1f}" y2="{y:.1f}" '
            'stroke="#1f77b4" stroke-width="2"/>'
        )
        for end in (standing.low, standing.high):
            parts.append(
                f'<line x1="{x(end):.1f}" y1="{y - 6:.1f}" x2="{x(end):.1f}" y2="{y + 6:.1f}" '
                'stroke="#1f77b4" stroke-width="2"/>'
            )
        parts.append(f'<circle cx="{x(standing.elo):.1f}" cy="{y:.1f}" r="5" fill="#d62728"/>')
    parts.append("</svg>")
    return "\n".join(parts) + "\n"


def _tick_step(span: float) -> float:
    """A round tick spacing giving about five ticks over ``span``."""
    raw = span / 5
    magnitude = 10 ** math.floor(math.log10(raw))
    for factor in (1, 2, 5, 10):
        if raw <= factor * magnitude:
            return float(factor * magnitude)
    return float(10 * magnitude)
