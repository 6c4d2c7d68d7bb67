"""Rules assistant start-up and warm latency, this checkout beside another (e.g. the previous commit).

usage: .venv/bin/python benchmarks/rules_start.py [--runs N] [--rounds N] [--old SRC] [--json]

Cold: CPU time (user + sys, ``resource.getrusage`` of the child) of fresh ``python -m grandstrategy
rules ask "what is a flag"`` and ``python -m grandstrategy --help`` processes, ``runs`` of each, with the
caches already built (the normal case; the first run after an install builds them). Warm: every question
of the players' held-out set asked ``rounds`` times in one process after a warm-up question; p50 and p95
wall time per question. With ``--old SRC`` (a ``src`` folder, e.g. from
``git archive main | tar -x -C /tmp/old``) the same figures are taken for that code in the same run,
each code with its own cache directory. Targets (issue 16): cold ``rules ask`` <= 0.5 s CPU, warm p95
<= 30 ms.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

QUESTION = "what is a flag"
WARM = """
import json, sys, time
from grandstrategy.rulebook.assistant import RulesAssistant
from grandstrategy.rulebook.evaluate import builtin_set

assistant = RulesAssistant.load()
questions = [item.question for item in builtin_set("players-heldout")]
assistant.ask("warm up")
timings = []
for _ in range(int(sys.argv[1])):
    for question in questions:
        start = time.perf_counter()
        assistant.ask(question)
        timings.append((time.perf_counter() - start) * 1000)
print(json.dumps(timings))
"""


def percentile(values: list[float], p: float) -> float:
    """Nearest-rank percentile."""
    ordered = sorted(values)
    rank = max(0, min(len(ordered) - 1, round(p / 100 * len(ordered) + 0.5) - 1))
    return ordered[rank]


def child_cpu(command: list[str], env: dict[str, str]) -> float:
    """CPU seconds (user + sys) one child process used."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(command, check=True, capture_output=True, env=env)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def spread(values: list[float]) -> dict[str, float]:
    return {"median": statistics.median(values), "min": min(values), "max": max(values), "runs": len(values)}


def measure(src: str | None, cache: str, runs: int, rounds: int) -> dict[str, Any]:
    """Cold CPU of ``rules ask`` and ``--help``, warm held-out latency, for one code tree."""
    env = dict(os.environ, GRANDSTRATEGY_CACHE_DIR=cache)
    if src is not None:
        env["PYTHONPATH"] = src
    ask = [sys.executable, "-m", "grandstrategy", "rules", "ask", QUESTION]
    usage = [sys.executable, "-m", "grandstrategy", "--help"]
    first = child_cpu(ask, env)  # builds the caches
    asks: list[float] = []
    helps: list[float] = []
    for _ in range(runs):  # interleaved, so a busy spell hits both alike
        asks.append(child_cpu(ask, env))
        helps.append(child_cpu(usage, env))
    result = subprocess.run(
        [sys.executable, "-c", WARM, str(rounds)], check=True, capture_output=True, text=True, env=env
    )
    timings: list[float] = json.loads(result.stdout)
    return {
        "cold_rules_ask_cpu_s": spread(asks),
        "cold_help_cpu_s": spread(helps),
        "first_run_cpu_s": first,
        "warm_heldout_ms": {
            "questions": len(timings),
            "p50": percentile(timings, 50),
            "p95": percentile(timings, 95),
            "max": max(timings),
        },
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--runs", type=int, default=7, help="cold processes of each command")
    parser.add_argument("--rounds", type=int, default=3, help="passes over the held-out questions")
    parser.add_argument("--old", help="a src folder to measure beside this checkout")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    here = str(Path(__file__).resolve().parents[1] / "src")
    results: dict[str, dict[str, Any]] = {}
    with tempfile.TemporaryDirectory() as new_cache, tempfile.TemporaryDirectory() as old_cache:
        if args.old:
            results["old"] = measure(args.old, old_cache, args.runs, args.rounds)
        results["new"] = measure(here, new_cache, args.runs, args.rounds)
    if args.json:
        print(json.dumps(results, indent=2))
        return 0
    print("| measure | " + " | ".join(results) + " | target |")
    print("|---|" + "---:|" * len(results) + "---:|")
    rows = [
        ("cold `rules ask` CPU, median (min-max)", "cold_rules_ask_cpu_s", "<= 0.5 s"),
        ("cold `--help` CPU, median (min-max)", "cold_help_cpu_s", ""),
    ]
    for label, key, target in rows:
        cells = []
        for data in results.values():
            figures = data[key]
            cells.append(f"{figures['median']:.3f} s ({figures['min']:.3f}-{figures['max']:.3f})")
        print(f"| {label} | " + " | ".join(cells) + f" | {target} |")
    first = [f"{data['first_run_cpu_s']:.2f} s" for data in results.values()]
    print("| first run, caches empty, CPU | " + " | ".join(first) + " | |")
    for label, key, target in (("warm held-out p50", "p50", ""), ("warm held-out p95", "p95", "<= 30 ms")):
        cells = [f"{data['warm_heldout_ms'][key]:.1f} ms" for data in results.values()]
        print(f"| {label} | " + " | ".join(cells) + f" | {target} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
