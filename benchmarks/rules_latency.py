"""Rules assistant latency: warm per-question percentiles and cold ``grandstrategy rules ask`` start-up.

usage: .venv/bin/python benchmarks/rules_latency.py [--rounds N] [--cold-runs N] [--json]

Warm: every question of the bundled dev and held-out sets, asked ``rounds`` times in one process after the
index is loaded. Cold: a fresh ``python -m grandstrategy rules ask "what is a flag"`` process, timed end to
end, with the index cache present (the normal case) and with an empty cache (first run after install).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    rank = max(0, min(len(ordered) - 1, round(p / 100 * len(ordered) + 0.5) - 1))
    return ordered[rank]


def warm(rounds: int) -> dict[str, float]:
    from grandstrategy.rulebook.assistant import RulesAssistant
    from grandstrategy.rulebook.evaluate import BUILTIN_SETS, builtin_set

    assistant = RulesAssistant.load()
    questions = [item.question for name in BUILTIN_SETS for item in builtin_set(name)]
    assistant.ask(questions[0])
    timings: list[float] = []
    for _ in range(rounds):
        for question in questions:
            start = time.perf_counter()
            assistant.ask(question)
            timings.append((time.perf_counter() - start) * 1000)
    return {
        "questions": float(len(timings)),
        "p50_ms": percentile(timings, 50),
        "p95_ms": percentile(timings, 95),
        "p99_ms": percentile(timings, 99),
        "max_ms": max(timings),
    }


def cold(runs: int, cache_dir: str) -> list[float]:
    command = [sys.executable, "-m", "grandstrategy", "rules", "ask", "what is a flag"]
    env = dict(os.environ, GRANDSTRATEGY_CACHE_DIR=cache_dir)
    timings = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run(command, check=True, capture_output=True, env=env)
        timings.append(time.perf_counter() - start)
    return timings


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--cold-runs", type=int, default=5)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as empty, tempfile.TemporaryDirectory() as cached:
        first_run = cold(1, empty)[0]
        cold(1, cached)  # fill the cache
        cold_runs = cold(args.cold_runs, cached)
        os.environ["GRANDSTRATEGY_CACHE_DIR"] = cached
        warm_stats = warm(args.rounds)
    result = {
        "warm": warm_stats,
        "cold_start_s": {
            "median": statistics.median(cold_runs),
            "max": max(cold_runs),
            "runs": len(cold_runs),
            "empty_cache_first_run": first_run,
        },
    }
    if args.json:
        print(json.dumps(result, indent=2))
    else:
        w = result["warm"]
        c = result["cold_start_s"]
        print(
            f"warm ({int(w['questions'])} questions): p50 {w['p50_ms']:.3f} ms  p95 {w['p95_ms']:.3f} ms  "
            f"p99 {w['p99_ms']:.3f} ms  max {w['max_ms']:.3f} ms"
        )
        print(
            f"cold `rules ask`: median {c['median']:.3f} s  max {c['max']:.3f} s over {c['runs']} runs; "
            f"first run with an empty cache {c['empty_cache_first_run']:.3f} s"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
