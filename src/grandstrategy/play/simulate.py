"""Many complete bot games, seeded and reproducible, on one core or several.

Game ``i`` of a run with seed ``S`` uses the seed :func:`game_seed(S, i) <game_seed>`; every bot
draws from a generator seeded by that game seed, its seat and the ply, so a game's log is a pure
function of (rule set, module, options, game seed, seats). Running the same command twice, or with
any ``--jobs`` or backend (this process, local worker processes, or a Ray cluster: see
:mod:`grandstrategy.play.runner`), gives the same reports except the timings. Each worker plays
whole games.
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import asdict, dataclass
from typing import Any

from grandstrategy.core.canonical import JSONObject, content_hash
from grandstrategy.core.chance import ChanceEvent
from grandstrategy.core.collector import tune_for_play
from grandstrategy.core.errors import GrandStrategyError, UserInputError
from grandstrategy.core.session import Match
from grandstrategy.play.bots import Bot, bot_seed, derive_seed, make_bot
from grandstrategy.play.games import invariant_problems, load_ruleset, outcome
from grandstrategy.play.runner import run_all
from grandstrategy.play.seats import HUMAN


class InvariantError(GrandStrategyError):
    """A simulated game broke an invariant of the rules engine (a bug in the engine, exit code 1)."""


MAX_DECISIONS = 200_000
"""Decisions after which a simulated game is declared stuck (the engine or a bot loops)."""


def game_seed(seed: int, index: int) -> int:
    """The seed of game ``index`` in a run seeded ``seed`` (64 bits, from a hash of both)."""
    return derive_seed(seed, "game", index)


@dataclass(frozen=True)
class GameReport:
    """One finished game: who won, the score, how long, and a hash of its whole log."""

    index: int
    seed: int
    winner: str | None
    vp: dict[str, int]
    turns: int
    end: str | None
    decisions: int
    chance_events: int
    log_hash: str
    seconds: float

    def to_json(self) -> JSONObject:
        """The ``--json`` shape of one game."""
        data = asdict(self)
        data["seconds"] = round(self.seconds, 4)
        return data


@dataclass(frozen=True)
class GameSpec:
    """Everything a worker needs to play one game (plain data, so it pickles under spawn)."""

    index: int
    ruleset: str
    options: dict[str, Any]
    seed: int
    seats: dict[str, str]
    check: bool


def play_game(spec: GameSpec) -> GameReport:
    """Play one whole game with bots in every seat.

    :raises InvariantError: ``spec.check`` is set and an invariant breaks (after which action).
    :raises UserInputError: a seat is ``human`` (a simulation has nobody to ask).
    """
    started = time.perf_counter()
    ruleset = load_ruleset(spec.ruleset)
    tune_for_play()  # once per process: a tenth of a bot game's time is the collector's otherwise
    match = Match(ruleset, seed=spec.seed, options=spec.options)
    bots: dict[str, Bot] = {}
    for seat in match.state.seats():
        kind = spec.seats.get(seat, "bot:random")
        if kind == HUMAN:
            raise UserInputError(f"seat {seat} is human; a simulation needs a bot in every seat")
        bots[seat] = make_bot(kind, bot_seed(spec.seed, seat))
    if spec.check:
        _check(match, spec, "the start")
    decisions = 0
    while (decision := match.decision()) is not None:
        action = bots[decision.seat].choose(match.state, decision, ply=match.log_length())
        match.play(decision.seat, action)
        decisions += 1
        if decisions >= MAX_DECISIONS:
            raise InvariantError(
                f"game {spec.index} (seed {spec.seed}) has not ended after {decisions} decisions "
                f"(last: {action}); the engine or a bot loops"
            )
        if spec.check:
            _check(match, spec, str(action))
    result = outcome(match.state)
    log = match.log
    return GameReport(
        index=spec.index,
        seed=spec.seed,
        winner=result.winner,
        vp=result.vp,
        turns=result.turns,
        end=result.end,
        decisions=decisions,
        chance_events=sum(1 for entry in log if isinstance(entry, ChanceEvent)),
        log_hash=content_hash([entry.to_json() for entry in log]),
        seconds=time.perf_counter() - started,
    )


def _check(match: Match, spec: GameSpec, after: str) -> None:
    found = invariant_problems(match.state)
    if found:
        raise InvariantError(
            f"game {spec.index} (seed {spec.seed}): after {after} (log entry {len(match.log)}): "
            + "; ".join(found)
        )


@dataclass(frozen=True)
class SimulationReport:
    """Every game of a run, in order, and the totals."""

    games: list[GameReport]
    wall_seconds: float

    def totals(self) -> JSONObject:
        """Wins, win rates and mean VP per ideology, ends, mean turns, counts and timings."""
        count = len(self.games)
        wins = Counter(game.winner for game in self.games if game.winner is not None)
        groups = sorted({group for game in self.games for group in game.vp} | set(wins), key=_order)
        vp_sum: Counter[str] = Counter()
        for game in self.games:
            vp_sum.update(game.vp)
        seconds = sum(game.seconds for game in self.games)
        return {
            "games": count,
            "wins": {group: wins.get(group, 0) for group in groups},
            "win_rate": {group: round(wins.get(group, 0) / count, 4) if count else 0.0 for group in groups},
            "mean_vp": {group: round(vp_sum[group] / count, 3) if count else 0.0 for group in groups},
            "mean_turns": round(sum(g.turns for g in self.games) / count, 3) if count else 0.0,
            "ends": dict(sorted(Counter(str(g.end) for g in self.games).items())),
            "decisions": sum(g.decisions for g in self.games),
            "chance_events": sum(g.chance_events for g in self.games),
            "seconds": round(seconds, 3),
            "wall_seconds": round(self.wall_seconds, 3),
            "games_per_second": round(count / self.wall_seconds, 3) if self.wall_seconds > 0 else 0.0,
        }

    def to_json(self) -> JSONObject:
        """The ``--json`` shape: ``{"games": [...], "totals": {...}}``."""
        return {"games": [game.to_json() for game in self.games], "totals": self.totals()}


def _order(group: str) -> tuple[int, str]:
    known = ("democracy", "fascism", "communism")
    return (known.index(group), group) if group in known else (len(known), group)


def simulate(
    ruleset: str,
    *,
    options: Mapping[str, Any],
    games: int,
    seed: int,
    seats: Mapping[str, str],
    jobs: int = 1,
    check: bool = False,
    progress: Callable[[GameReport], None] | None = None,
    first_index: int = 0,
    backend: str = "local",
    address: str | None = None,
) -> SimulationReport:
    """Play ``games`` games (indices ``first_index`` ...) and report each, in index order.

    ``seats`` maps every seat to ``bot:random`` or ``bot:heuristic``. ``progress`` is called with
    each finished game (in finishing order when games run in parallel). ``backend`` and
    ``address`` choose where the games run (:func:`grandstrategy.play.runner.run_all`).

    :raises InvariantError: with ``check``, the first broken invariant.
    :raises UserInputError: ``games`` or ``jobs`` below 1, a human seat, a bad backend.
    """
    if games < 1:
        raise UserInputError(f"--games must be at least 1, not {games}")
    if jobs < 1:
        raise UserInputError(f"--jobs must be at least 1, not {jobs}")
    specs = [
        GameSpec(i, ruleset, dict(options), game_seed(seed, i), dict(seats), check)
        for i in range(first_index, first_index + games)
    ]
    started = time.perf_counter()
    reports = run_all(play_game, specs, backend=backend, jobs=jobs, address=address, progress=progress)
    return SimulationReport(sorted(reports, key=lambda r: r.index), time.perf_counter() - started)


def seats_for(ruleset: str, options: Mapping[str, Any], bots: str) -> dict[str, str]:
    """Every seat's bot for ``--bots``: ``random``, ``heuristic``, ``search`` or a SEATS text (no humans).

    A SEATS text leaves unnamed seats to random bots here (``*=bot:random``), so that
    ``fascism=heuristic`` reads "the Fascist powers heuristic, the rest random".

    :raises UserInputError: a bad SEATS text, bad options, or a human seat.
    """
    from grandstrategy.play.games import seat_groups, seat_names
    from grandstrategy.play.seats import RANDOM, parse_seats

    state = load_ruleset(ruleset).new_state(dict(options))
    seats = list(state.seats())
    shorthand = {"random": "*=bot:random", "heuristic": "*=bot:heuristic", "search": "*=bot:search"}
    text = shorthand.get(bots.strip().lower(), bots)
    parsed = parse_seats(text, seats, groups=seat_groups(state), names=seat_names(state), default=RANDOM)
    human = [seat for seat, kind in parsed.items() if kind == HUMAN]
    if human:
        raise UserInputError(
            f"--bots gives {', '.join(human)} to a human; a simulation needs bots "
            "(write e.g. germany=bot:heuristic)"
        )
    return parsed
