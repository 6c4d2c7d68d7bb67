"""Benchmark of the Cataclysm combat odds (LR 10): bare numbers and described situations.

Times, in-process after a warm-up, (a) the bare-number odds (``combat_odds``, what
``grandstrategy cataclysm odds --attacker-dice ...`` computes) and (b) ``situation_odds`` for a
few situations, from parsing the JSON to the finished answer; caches of roll distributions are
cleared before every run so each one starts cold. Also times the whole bare-number command
in-process (``grandstrategy.cli.main``, output to /dev/null). Prints a markdown table of median
and p99. Run: ``.venv/bin/python benchmarks/cataclysm_odds.py [--runs N]``.
"""

from __future__ import annotations

import argparse
import contextlib
import datetime
import io
import json
import os
import platform
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from typing import Any

from grandstrategy.cataclysm.odds import parse_situation, situation_odds
from grandstrategy.cataclysm.rules.dice import combat_odds, result_distribution
from grandstrategy.cli import main

SITUATIONS: dict[str, dict[str, Any]] = {
    "Poland (unopposed air, armour)": {
        "combat": "land",
        "attacker": {"name": "Germany", "units": ["tank-army", "infantry-army"], "air": ["tactical-air"]},
        "defender": {"name": "Poland", "units": ["minor-army"]},
    },
    "land, contested air 2 v 2, fortress": {
        "combat": "land",
        "attacker": {"units": ["tank-army", "infantry-army"], "air": ["strategic-air", "tactical-air"]},
        "defender": {"units": ["infantry-army", "fortress"], "air": ["tactical-air", "tactical-air"]},
    },
    "naval, carriers, contested air": {
        "combat": "naval",
        "attacker": {
            "units": ["carrier-fleet", "carrier-fleet"],
            "air": ["strategic-air"],
            "augmentation": 2,
        },
        "defender": {"units": ["carrier-fleet", "submarine-pack"], "air": ["tactical-air"]},
    },
    "strategic bombing, intrinsic defence": {
        "combat": "air",
        "strategic_bombing": True,
        "attacker": {"units": ["strategic-air"]},
        "defender": {},
    },
}


def _clear() -> None:
    result_distribution.cache_clear()


def measure(fn: Callable[[], object], runs: int) -> tuple[float, float]:
    """Median and p99 in milliseconds of ``runs`` calls, each after clearing the caches."""
    for _ in range(5):
        _clear()
        fn()
    times = []
    for _ in range(runs):
        _clear()
        start = time.perf_counter()
        fn()
        times.append((time.perf_counter() - start) * 1000)
    times.sort()
    return statistics.median(times), times[min(len(times) - 1, int(0.99 * len(times)))]


def run_cli(args: list[str]) -> None:
    with contextlib.redirect_stdout(io.StringIO()), contextlib.suppress(SystemExit):
        main(args)


def main_benchmark() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=1000)
    runs = parser.parse_args().runs
    rows: list[tuple[str, float, float]] = []
    rows.append(("bare numbers 3 v 2 dice (`combat_odds`)", *measure(lambda: combat_odds(3, 1, 2, -1), runs)))
    args = [
        "cataclysm",
        "odds",
        "--attacker-dice",
        "3",
        "--attacker-mod",
        "1",
        "--defender-dice",
        "2",
        "--json",
    ]
    rows.append(
        ("bare numbers, whole command in-process", *measure(lambda: run_cli(args), max(runs // 5, 20)))
    )
    cold = []
    for _ in range(5):
        start = time.perf_counter()
        subprocess.run([sys.executable, "-m", "grandstrategy", *args], check=True, stdout=subprocess.DEVNULL)
        cold.append((time.perf_counter() - start) * 1000)
    cold.sort()
    rows.append(("bare numbers, cold process (5 runs, interpreter start-up included)", cold[2], cold[-1]))
    for label, data in SITUATIONS.items():
        text = json.dumps(data)
        rows.append(
            (
                f"situation: {label}",
                *measure(lambda t=text: situation_odds(parse_situation(json.loads(t))), runs),
            )
        )
    print(
        f"Machine: `{' '.join(x for x in platform.uname() if x)}`, {os.cpu_count()} CPUs (nproc), Python "
        f"{platform.python_version()}; date {datetime.date.today().isoformat()}; {runs} runs each.\n"
    )
    print("| measure | median | p99 | target |")
    print("|---|---:|---:|---:|")
    for label, median, p99 in rows:
        target = "–"
        if label.startswith("bare numbers") and "cold" not in label:
            target = "< 50 ms: met" if p99 < 50 else "< 50 ms: MISSED"
        print(f"| {label} | {median:.3f} ms | {p99:.3f} ms | {target} |")


if __name__ == "__main__":
    main_benchmark()
