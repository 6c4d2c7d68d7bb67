"""Do heuristic bots beat random ones? Win rates per ideology, heuristic vs random seats.

For each ideology (democracy, fascism, communism): ``--games`` seeded games in which that
ideology's powers are heuristic bots and every other power a random bot; against the baseline of
the same seeds with every power random. Prints the win rate of the ideology both ways, and with
``--append`` adds a section to benchmarks/RESULTS.md. Run:
``.venv/bin/python benchmarks/bots_vs_random.py --games 200 --jobs 2 [--scenario campaign-1933]``.
"""

from __future__ import annotations

import argparse
import datetime
import os
import platform
import time
from pathlib import Path

from grandstrategy.play.simulate import SimulationReport, seats_for, simulate

IDEOLOGIES = ("democracy", "fascism", "communism")


def run(scenario: str, games: int, seed: int, jobs: int, bots: str) -> SimulationReport:
    options = {"scenario": scenario}
    seats = seats_for("cataclysm", options, bots)
    return simulate("cataclysm", options=options, games=games, seed=seed, seats=seats, jobs=jobs)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scenario", default="campaign-1933")
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--only", choices=IDEOLOGIES, action="append", help="Only these ideologies.")
    parser.add_argument("--append", action="store_true", help="Append the table to benchmarks/RESULTS.md.")
    args = parser.parse_args()
    started = time.perf_counter()
    baseline = run(args.scenario, args.games, args.seed, args.jobs, "random").totals()
    rows = []
    for ideology in args.only or IDEOLOGIES:
        mixed = run(args.scenario, args.games, args.seed, args.jobs, f"{ideology}=bot:heuristic").totals()
        random_rate = baseline["win_rate"].get(ideology, 0.0)
        heuristic_rate = mixed["win_rate"].get(ideology, 0.0)
        rows.append(
            f"| {ideology} | {random_rate:.1%} | {heuristic_rate:.1%} | "
            f"{baseline['mean_vp'].get(ideology, 0.0):.2f} | {mixed['mean_vp'].get(ideology, 0.0):.2f} | "
            f"{mixed['games_per_second']:.2f} |"
        )
        print(rows[-1], flush=True)
    elapsed = time.perf_counter() - started
    machine = f"`{platform.machine()}`, {os.cpu_count()} CPUs, Python {platform.python_version()}"
    table = "\n".join(
        [
            f"## Heuristic bots against random bots ({args.scenario})",
            "",
            f"Machine: {machine}; date {datetime.date.today().isoformat()}. Command: "
            f"`.venv/bin/python benchmarks/bots_vs_random.py --scenario {args.scenario} "
            f"--games {args.games} --seed {args.seed} --jobs {args.jobs}` ({elapsed:.0f} s). "
            f"{args.games} seeded games per row; the same seeds for both columns. "
            "*Random*: every power a random bot. *Heuristic*: the ideology's powers heuristic bots, "
            "the others random.",
            "",
            "| ideology | wins, all random | wins, its powers heuristic | mean VP, random | "
            "mean VP, heuristic | games/s (heuristic run) |",
            "|---|---:|---:|---:|---:|---:|",
            *rows,
            "",
        ]
    )
    print(table)
    if args.append:
        results = Path(__file__).with_name("RESULTS.md")
        with results.open("a", encoding="utf-8") as handle:
            handle.write("\n" + table)


if __name__ == "__main__":
    main()
