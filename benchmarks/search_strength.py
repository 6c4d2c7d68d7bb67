"""Does the search bot beat the heuristic bot? Win rates per ideology, with a significance test.

For each ideology: ``--games`` seeded games with the search bot (``bot:search``, at
``--simulations`` per decision) on that ideology's powers and heuristic bots elsewhere, against the
same seeds with heuristic bots everywhere. The ideology's win rate both ways is compared with a
one-sided two-proportion z-test and a one-sided Fisher exact test (both written out here, so the
benchmark needs no SciPy).

The full run (600 searched games and 200 baseline games) takes longer than one session on a shared
machine, so it accumulates in a ledger, one JSON line per finished game
(``benchmarks/search_strength_games.jsonl``, committed): the scenario, the game's seed, the
searcher's ideology, the budget, the winner, the score, the decisions, the final state's hash and
the **code identity** the game was played with:

- ``engine``: a behaviour fingerprint of the rules engine and the heuristic bot together, the final
  state hash of one seeded heuristic game of the scenario (about 5 s to compute). A change that
  keeps games byte-identical (a speed-up of the engine or of the heuristic's position values)
  keeps the ledger; any change in play starts it afresh;
- ``bots``: for a searched game, a hash of the search bot's source (``play/search.py``), so a
  change to the search starts its games afresh while the baseline games survive it; ``heuristic``
  for a baseline game (its bots' behaviour is in the fingerprint).

``--resume`` plays only the games of the requested run that the ledger lacks for the same
settings and identity, appending each as it finishes (an interrupted run loses at most the games
in progress). ``--report`` prints the table from the ledger alone, without playing: for each
ideology the seeds played both ways (paired), the win rates, the points gained, both p-values and
the mean seconds per search decision, then whether the issue's bar is met. Run:

``.venv/bin/python benchmarks/search_strength.py --games 200 --jobs 2 --resume``, then
``.venv/bin/python benchmarks/search_strength.py --report [--append]``.

``--budget SECONDS`` gives the search bot a time budget per decision instead of a simulation
count; games then depend on the machine's speed, are not reproducible and are never resumed.
"""

from __future__ import annotations

import argparse
import datetime
import hashlib
import json
import math
import os
import platform
import subprocess
import sys
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from grandstrategy.core.session import Match
from grandstrategy.play import search as search_module
from grandstrategy.play.bots import Bot, HeuristicBot, bot_seed
from grandstrategy.play.games import load_ruleset, outcome, seat_group
from grandstrategy.play.runner import run_all
from grandstrategy.play.search import SearchBot
from grandstrategy.play.simulate import game_seed

IDEOLOGIES = ("democracy", "fascism", "communism")
MAX_DECISIONS = 20_000
LEDGER = Path(__file__).with_name("search_strength_games.jsonl")
BAR_P = 0.01  # the issue's bar: every ideology's gain significant at this level ...
BAR_POINTS = 15.0  # ... and this many percentage points gained on average over the ideologies
BAR_SECONDS = 1.0  # ... at no more than this many seconds per search decision


@dataclass(frozen=True)
class Spec:
    """One game: its seed, which ideology the search bot plays (None: nobody) and its budget."""

    scenario: str
    seed: int
    searcher: str | None
    simulations: int
    seconds: float | None


@dataclass(frozen=True)
class Result:
    """A finished game: its seed, the searcher's ideology, the winner and the search bot's decisions."""

    seed: int
    searcher: str | None
    winner: str | None
    search_decisions: int
    search_seconds: float
    searched: int
    scores: dict[str, int]
    decisions: int
    state_hash: str


def play(spec: Spec) -> Result:
    """Play one game to the end with the spec's bots."""
    match = Match(load_ruleset("cataclysm"), seed=spec.seed, options={"scenario": spec.scenario})
    bots: dict[str, Bot] = {}
    for seat in match.state.seats():
        if spec.searcher is not None and seat_group(match.state, seat) == spec.searcher:
            bots[seat] = SearchBot(
                bot_seed(spec.seed, seat), simulations=spec.simulations, seconds=spec.seconds
            )
        else:
            bots[seat] = HeuristicBot(bot_seed(spec.seed, seat))
    decisions, searched, spent = 0, 0, 0.0
    while (decision := match.decision()) is not None:
        bot = bots[decision.seat]
        started = time.perf_counter()
        action = bot.choose(match.state, decision, ply=len(match.log))
        if isinstance(bot, SearchBot):
            searched += 1
            spent += time.perf_counter() - started
        match.play(decision.seat, action)
        decisions += 1
        if decisions >= MAX_DECISIONS:
            raise RuntimeError(f"game seeded {spec.seed} has not ended after {decisions} decisions")
    result = outcome(match.state)
    searched_trees = sum(bot.searched for bot in bots.values() if isinstance(bot, SearchBot))
    return Result(
        spec.seed,
        spec.searcher,
        result.winner,
        searched,
        spent,
        searched_trees,
        dict(result.vp),
        decisions,
        match.state.state_hash(),
    )


# ---- the ledger ------------------------------------------------------------------------------------


def bots_identity(searched: bool) -> str:
    """The search bot's source hash for a searched game; ``heuristic`` for a baseline game, whose
    bots' behaviour the engine fingerprint (a heuristic game) already pins."""
    if not searched:
        return "heuristic"
    return hashlib.sha256(Path(str(search_module.__file__)).read_bytes()).hexdigest()[:16]


def engine_fingerprint(scenario: str) -> str:
    """The engine's behaviour on the scenario: the final state hash of one seeded heuristic game.

    A change that keeps games byte-identical (the engine made faster) keeps the fingerprint, so
    the ledger survives it; a change in what the engine does almost surely changes this game."""
    result = play(Spec(scenario, game_seed(0, 0), None, 1, None))
    return result.state_hash.removeprefix("sha256:")[:16]


def git_commit() -> str | None:
    """The checked-out commit, for the record only (``None`` outside a git work tree)."""
    try:
        done = subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"],
            capture_output=True,
            text=True,
            check=True,
            cwd=Path(__file__).parent,
        )
    except (OSError, subprocess.CalledProcessError):
        return None
    return done.stdout.strip() or None


def read_ledger(path: Path) -> list[dict[str, Any]]:
    """The ledger's games in the order written (none when the file does not exist).

    :raises SystemExit: a line is not a JSON object (the line number is named)."""
    if not path.exists():
        return []
    entries = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if not line.strip():
            continue
        try:
            entry = json.loads(line)
        except json.JSONDecodeError as error:
            raise SystemExit(f"{path}:{number}: not a JSON line ({error.msg})") from None
        if not isinstance(entry, dict):
            raise SystemExit(f"{path}:{number}: not a JSON object")
        entries.append(entry)
    return entries


def game_key(
    scenario: str, seed: int, searcher: str | None, simulations: int, bots: str, engine: str
) -> tuple[object, ...]:
    """What makes two games the same game: a baseline game ignores the search budget."""
    return (scenario, seed, searcher, simulations if searcher else None, bots, engine)


def entry_key(entry: dict[str, Any]) -> tuple[object, ...] | None:
    """The key of a ledger line, or ``None`` for a game that cannot be replayed (a time budget)."""
    if entry.get("seconds") is not None:
        return None
    return game_key(
        entry["scenario"],
        entry["seed"],
        entry["searcher"],
        entry["simulations"],
        entry["bots"],
        entry["engine"],
    )


def pending(specs: Iterable[Spec], entries: Iterable[dict[str, Any]], engine: str) -> list[Spec]:
    """The specs the ledger has no game for with the same settings and code identity."""
    done = {key for key in (entry_key(e) for e in entries) if key is not None}
    identity = {True: bots_identity(True), False: bots_identity(False)}
    return [
        spec
        for spec in specs
        if spec.seconds is not None
        or game_key(
            spec.scenario,
            spec.seed,
            spec.searcher,
            spec.simulations,
            identity[spec.searcher is not None],
            engine,
        )
        not in done
    ]


def ledger_entry(spec: Spec, result: Result, engine: str, commit: str | None) -> dict[str, Any]:
    """One ledger line: the game's settings, its result and the code identity it was played with."""
    return {
        "scenario": spec.scenario,
        "seed": spec.seed,
        "searcher": spec.searcher,
        "simulations": spec.simulations if spec.searcher else None,
        "seconds": spec.seconds,
        "winner": result.winner,
        "scores": result.scores,
        "decisions": result.decisions,
        "search_decisions": result.search_decisions,
        "search_seconds": round(result.search_seconds, 3),
        "searched": result.searched,
        "state_hash": result.state_hash,
        "bots": bots_identity(spec.searcher is not None),
        "engine": engine,
        "commit": commit,
    }


# ---- statistics and the report ----------------------------------------------------------------------


def z_test(wins_a: int, n_a: int, wins_b: int, n_b: int) -> float:
    """One-sided p-value that rate a exceeds rate b (pooled two-proportion z-test)."""
    pooled = (wins_a + wins_b) / (n_a + n_b)
    spread = math.sqrt(pooled * (1 - pooled) * (1 / n_a + 1 / n_b))
    if spread == 0:
        return 1.0 if wins_a / n_a <= wins_b / n_b else 0.0
    z = (wins_a / n_a - wins_b / n_b) / spread
    return 0.5 * math.erfc(z / math.sqrt(2))


def fisher_test(wins_a: int, n_a: int, wins_b: int, n_b: int) -> float:
    """One-sided Fisher exact p-value: P(a's wins >= wins_a) with the margins fixed (hypergeometric)."""
    wins, total = wins_a + wins_b, n_a + n_b
    denominator = math.comb(total, n_a)
    top = min(wins, n_a)
    return (
        sum(math.comb(wins, k) * math.comb(total - wins, n_a - k) for k in range(wins_a, top + 1))
        / denominator
    )


@dataclass(frozen=True)
class Row:
    """One ideology's comparison over the seeds played both ways."""

    ideology: str
    games: int
    base_wins: int
    wins: int
    points: float
    z_p: float
    fisher_p: float
    seconds_per_decision: float | None
    seconds_per_searched: float | None
    lead_gained: float | None


@dataclass(frozen=True)
class Report:
    """The table, the identity it was computed for and whether the issue's bar is met."""

    scenario: str
    simulations: int
    bots: str | None
    engine: str | None
    rows: list[Row]
    mean_points: float | None
    passed: bool


def report(entries: Sequence[dict[str, Any]], scenario: str, simulations: int) -> Report:
    """The comparison from ledger lines alone (no game is played).

    Only reproducible games of the scenario count, played with the engine of the newest such line;
    the baseline arm uses the newest baseline line's bot identity and the searched arms the newest
    searched line's at ``simulations``. Each ideology is compared on the seeds present in both arms
    (a paired, equal-sized sample), so a run stopped half-way still compares like with like."""
    usable = [e for e in entries if e["scenario"] == scenario and e.get("seconds") is None]
    engine = usable[-1]["engine"] if usable else None
    usable = [e for e in usable if e["engine"] == engine]
    base = [e for e in usable if e["searcher"] is None]
    searched = [e for e in usable if e["searcher"] is not None and e["simulations"] == simulations]
    base_bots = base[-1]["bots"] if base else None
    search_bots = searched[-1]["bots"] if searched else None
    base_entry = {e["seed"]: e for e in base if e["bots"] == base_bots}
    base_winner = {seed: e["winner"] for seed, e in base_entry.items()}
    rows = []
    for ideology in IDEOLOGIES:
        mine = {e["seed"]: e for e in searched if e["bots"] == search_bots and e["searcher"] == ideology}
        seeds = sorted(set(mine) & set(base_winner))
        if not seeds:
            continue
        n = len(seeds)
        base_wins = sum(base_winner[s] == ideology for s in seeds)
        wins = sum(mine[s]["winner"] == ideology for s in seeds)
        decisions = sum(mine[s]["search_decisions"] for s in seeds)
        seconds = sum(mine[s]["search_seconds"] for s in seeds)
        counted = [mine[s] for s in seeds if mine[s].get("searched")]  # older lines lack the count
        trees = sum(e["searched"] for e in counted)
        tree_seconds = sum(e["search_seconds"] for e in counted)
        pairs = [(_lead(mine[s], ideology), _lead(base_entry[s], ideology)) for s in seeds]
        known = [after - before for after, before in pairs if after is not None and before is not None]
        rows.append(
            Row(
                ideology,
                n,
                base_wins,
                wins,
                100.0 * (wins - base_wins) / n,
                z_test(wins, n, base_wins, n),
                fisher_test(wins, n, base_wins, n),
                seconds / decisions if decisions else None,
                tree_seconds / trees if trees else None,
                sum(known) / len(known) if len(known) == n else None,
            )
        )
    mean_points = sum(r.points for r in rows) / len(rows) if rows else None
    passed = (
        len(rows) == len(IDEOLOGIES)
        and all(max(r.z_p, r.fisher_p) < BAR_P for r in rows)
        and mean_points is not None
        and mean_points >= BAR_POINTS
        and all(r.seconds_per_decision is not None and r.seconds_per_decision <= BAR_SECONDS for r in rows)
    )
    return Report(scenario, simulations, search_bots, engine, rows, mean_points, passed)


def _lead(entry: dict[str, Any], ideology: str) -> float | None:
    """The ideology's final score minus the best other ideology's (``None`` without scores)."""
    scores = entry.get("scores")
    if not scores or ideology not in scores:
        return None
    return float(scores[ideology] - max(v for k, v in scores.items() if k != ideology))


def render(result: Report) -> str:
    """The report as a Markdown table and a verdict line."""
    lines = [
        f"Scenario {result.scenario}, search at {result.simulations} simulations; bots {result.bots}, "
        f"engine {result.engine}.",
        "",
        "| ideology | games (paired) | wins, heuristic everywhere | wins, search on this ideology "
        "| points gained | z-test p (one-sided) | Fisher p (one-sided) | VP lead gained "
        "| s per decision | s per searched decision |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]

    def number(value: float | None, form: str) -> str:
        return "-" if value is None else format(value, form)

    for r in result.rows:
        lines.append(
            f"| {r.ideology} | {r.games} | {r.base_wins}/{r.games} ({r.base_wins / r.games:.0%}) | "
            f"{r.wins}/{r.games} ({r.wins / r.games:.0%}) | {r.points:+.1f} | {r.z_p:.3f} | "
            f"{r.fisher_p:.3f} | {number(r.lead_gained, '+.2f')} | {number(r.seconds_per_decision, '.2f')} | "
            f"{number(r.seconds_per_searched, '.2f')} |"
        )
    mean = "-" if result.mean_points is None else f"{result.mean_points:+.1f}"
    verdict = "met" if result.passed else "not met"
    lines += [
        "",
        f"Mean points gained over the ideologies: {mean}. The issue's bar (every p < {BAR_P}, a mean "
        f"gain of at least {BAR_POINTS:.0f} points, at most {BAR_SECONDS:.0f} s per decision): {verdict}.",
    ]
    return "\n".join(lines)


# ---- speed -----------------------------------------------------------------------------------------


def speed(scenario: str, seed: int, budgets: list[int], positions: int) -> list[tuple[int, float]]:
    """Search decisions per second at each budget, over the first ``positions`` real choices of a
    seeded heuristic game (the same positions for every budget)."""
    match = Match(load_ruleset("cataclysm"), seed=seed, options={"scenario": scenario})
    heuristic = {seat: HeuristicBot(bot_seed(seed, seat)) for seat in match.state.seats()}
    snapshots = []
    while len(snapshots) < positions and (decision := match.decision()) is not None:
        if len(decision.legal) > 1:
            snapshots.append((match.state.clone(), decision, len(match.log)))
        match.play(decision.seat, heuristic[decision.seat].choose(match.state, decision, ply=len(match.log)))
    rates = []
    for budget in budgets:
        bot = SearchBot(seed, simulations=budget)
        started = time.perf_counter()
        for state, decision, ply in snapshots:
            bot.choose(state, decision, ply=ply)
        rates.append((budget, len(snapshots) / (time.perf_counter() - started)))
    return rates


# ---- the command line ------------------------------------------------------------------------------


def run_games(args: argparse.Namespace, ledger: Path) -> None:
    """Play the requested games (only the missing ones with ``--resume``), appending each to the ledger."""
    ideologies = args.only or list(IDEOLOGIES)
    seeds = [game_seed(args.seed, i) for i in range(args.games)]
    specs = [Spec(args.scenario, s, None, args.simulations, args.budget) for s in seeds]
    specs += [
        Spec(args.scenario, s, ideo, args.simulations, args.budget) for ideo in ideologies for s in seeds
    ]
    engine = engine_fingerprint(args.scenario)
    commit = git_commit()
    if args.resume:
        total = len(specs)
        specs = pending(specs, read_ledger(ledger), engine)
        print(f"{total - len(specs)} of {total} games already in {ledger.name}; playing {len(specs)}")
    started = time.perf_counter()
    done = [0]
    by_seed = {(spec.seed, spec.searcher): spec for spec in specs}

    def record(result: Result) -> None:
        done[0] += 1
        spec = by_seed[(result.seed, result.searcher)]
        with ledger.open("a", encoding="utf-8") as out:
            out.write(json.dumps(ledger_entry(spec, result, engine, commit), sort_keys=True) + "\n")
        rate = (time.perf_counter() - started) / done[0]
        print(
            f"  {done[0]}/{len(specs)} games ({result.searcher or 'baseline'}: {result.winner}); "
            f"about {rate * (len(specs) - done[0]) / 3600:.1f} h to go",
            flush=True,
        )

    run_all(play, specs, jobs=args.jobs, progress=record)


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scenario", default="europe-1939")
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--simulations", type=int, default=16, help="Search simulations per decision.")
    parser.add_argument(
        "--budget", type=float, default=None, help="Seconds per decision instead (NOT reproducible)."
    )
    parser.add_argument("--only", choices=IDEOLOGIES, action="append", help="Only these ideologies.")
    parser.add_argument("--ledger", type=Path, default=LEDGER, help="The JSON-lines ledger of games.")
    parser.add_argument("--resume", action="store_true", help="Skip games the ledger already holds.")
    parser.add_argument("--report", action="store_true", help="Only print the table from the ledger.")
    parser.add_argument("--speed-budgets", default="", help="Budgets timed for decisions/s (e.g. 8,16,32).")
    parser.add_argument("--append", action="store_true", help="Append the section to benchmarks/RESULTS.md.")
    args = parser.parse_args(argv)
    if not 1 <= args.games <= 10_000:
        parser.error("--games must be from 1 to 10000")
    if args.budget is not None and args.resume:
        parser.error("--resume needs a simulation budget: games under --budget are not reproducible")
    if not args.report:
        run_games(args, args.ledger)
    table = render(report(read_ledger(args.ledger), args.scenario, args.simulations))
    machine = f"`{platform.machine()}`, {os.cpu_count()} CPUs, Python {platform.python_version()}"
    section = [
        f"## Search bot against heuristic bots ({args.scenario}), from the ledger",
        "",
        f"Machine: {machine}; date {datetime.date.today().isoformat()}. Ledger: `{args.ledger.name}`.",
        "",
        table,
    ]
    budgets = [int(b) for b in args.speed_budgets.split(",") if b.strip()]
    if budgets:
        rates = speed(args.scenario, args.seed, budgets, 40)
        section += [
            "",
            "Search decisions per second (40 positions of one seeded heuristic game): "
            + ", ".join(f"{b} simulations: {r:.1f}/s" for b, r in rates)
            + ".",
        ]
    text = "\n".join(section)
    print(text)
    if args.append:
        path = Path(__file__).with_name("RESULTS.md")
        path.write_text(
            path.read_text(encoding="utf-8").rstrip("\n") + "\n\n" + text + "\n", encoding="utf-8"
        )


if __name__ == "__main__":
    sys.exit(main())
