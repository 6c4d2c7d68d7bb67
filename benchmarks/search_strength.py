"""Does the search bot beat the heuristic bot? Win rates per ideology, with a significance test.

For each ideology: ``--games`` seeded games with the search bot (``bot:search``, at
``--simulations`` per decision) on that ideology's powers and heuristic bots elsewhere, against the
same seeds with heuristic bots everywhere. The ideology's win rate both ways is compared with a
one-sided two-proportion z-test and a one-sided Fisher exact test (both written out here, so the
benchmark needs no SciPy). Then the search bot's decisions per second at a few budgets, on the
decisions of one seeded heuristic game. Run:
``.venv/bin/python benchmarks/search_strength.py --games 200 --jobs 2 [--append]``.

``--budget SECONDS`` gives the search bot a time budget per decision instead of a simulation
count; games then depend on the machine's speed and are not reproducible.
"""

from __future__ import annotations

import argparse
import datetime
import math
import os
import platform
import time
from dataclasses import dataclass
from pathlib import Path

from grandstrategy.core.session import Match
from grandstrategy.play.bots import Bot, HeuristicBot, bot_seed
from grandstrategy.play.games import load_ruleset, outcome, seat_group, seat_groups
from grandstrategy.play.runner import run_all
from grandstrategy.play.search import SearchBot
from grandstrategy.play.simulate import game_seed

IDEOLOGIES = ("democracy", "fascism", "communism")
MAX_DECISIONS = 20_000


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
    """A finished game: the searcher's ideology, the winner and the search bot's decisions."""

    searcher: str | None
    winner: str | None
    search_decisions: int
    search_seconds: float


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
    return Result(spec.searcher, outcome(match.state).winner, searched, spent)


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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scenario", default="europe-1939")
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--simulations", type=int, default=32, help="Search simulations per decision.")
    parser.add_argument(
        "--budget", type=float, default=None, help="Seconds per decision instead (NOT reproducible)."
    )
    parser.add_argument("--speed-budgets", default="8,16,32,64", help="Budgets timed for decisions/s.")
    parser.add_argument("--only", choices=IDEOLOGIES, action="append", help="Only these ideologies.")
    parser.add_argument("--append", action="store_true", help="Append the section to benchmarks/RESULTS.md.")
    args = parser.parse_args()
    if not 1 <= args.games <= 10_000:
        parser.error("--games must be from 1 to 10000")
    started = time.perf_counter()
    ideologies = args.only or list(IDEOLOGIES)
    seeds = [game_seed(args.seed, i) for i in range(args.games)]
    specs = [Spec(args.scenario, s, None, args.simulations, args.budget) for s in seeds]
    specs += [
        Spec(args.scenario, s, ideo, args.simulations, args.budget) for ideo in ideologies for s in seeds
    ]
    done = [0]

    def progress(result: Result) -> None:
        done[0] += 1
        print(
            f"  {done[0]}/{len(specs)} games ({result.searcher or 'baseline'}: {result.winner})", flush=True
        )

    results = run_all(play, specs, jobs=args.jobs, progress=progress)
    baseline = [r for r in results if r.searcher is None]
    n = args.games
    rows = []
    for ideology in ideologies:
        mine = [r for r in results if r.searcher == ideology]
        base_wins = sum(r.winner == ideology for r in baseline)
        wins = sum(r.winner == ideology for r in mine)
        decisions = sum(r.search_decisions for r in mine)
        seconds = sum(r.search_seconds for r in mine)
        rows.append(
            f"| {ideology} | {base_wins}/{n} ({base_wins / n:.0%}) | {wins}/{n} ({wins / n:.0%}) | "
            f"{z_test(wins, n, base_wins, n):.3f} | {fisher_test(wins, n, base_wins, n):.3f} | "
            f"{seconds / max(1, decisions):.2f} |"
        )
        print(rows[-1], flush=True)
    budgets = [int(b) for b in args.speed_budgets.split(",") if b.strip()]
    rates = speed(args.scenario, args.seed, budgets, 40)
    elapsed = time.perf_counter() - started
    machine = f"`{platform.machine()}`, {os.cpu_count()} CPUs, Python {platform.python_version()}"
    budget = (
        f"{args.budget} s per decision (not reproducible)"
        if args.budget
        else f"{args.simulations} simulations"
    )
    groups = ", ".join(seat_groups(load_ruleset("cataclysm").new_state({"scenario": args.scenario})))
    section = "\n".join(
        [
            f"## Search bot against heuristic bots ({args.scenario})",
            "",
            f"Machine: {machine}; date {datetime.date.today().isoformat()}. Command: "
            f"`.venv/bin/python benchmarks/search_strength.py --scenario {args.scenario} --games {n} "
            f"--seed {args.seed} --jobs {args.jobs} --simulations {args.simulations}` ({elapsed:.0f} s). "
            f"Search budget: {budget}; ideologies: {groups}.",
            "",
            "| ideology | wins, heuristic everywhere | wins, search on this ideology | z-test p (one-sided) "
            "| Fisher p (one-sided) | s per search decision |",
            "|---|---:|---:|---:|---:|---:|",
            *rows,
            "",
            "Search decisions per second (40 positions of one seeded heuristic game): "
            + ", ".join(f"{b} simulations: {r:.1f}/s" for b, r in rates)
            + ".",
        ]
    )
    print(section)
    if args.append:
        path = Path(__file__).with_name("RESULTS.md")
        path.write_text(
            path.read_text(encoding="utf-8").rstrip("\n") + "\n\n" + section + "\n", encoding="utf-8"
        )


if __name__ == "__main__":
    main()
