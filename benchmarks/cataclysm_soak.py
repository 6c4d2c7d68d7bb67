"""Play many seeded random games and run the invariant check after every action.

Slower than the test suite's fifty campaigns; run it after changing the engine:
``.venv/bin/python benchmarks/cataclysm_soak.py --games 1000 --scenario campaign-1933 --jobs 2``.
Prints any broken invariant or engine error with its seed and step, a summary of how the games
ended, and how often each kind of military action was chosen.
"""

from __future__ import annotations

import argparse
import time
import traceback
from collections import Counter
from concurrent.futures import ProcessPoolExecutor

from grandstrategy.cataclysm.engine import CATACLYSM, CataclysmGame
from grandstrategy.cataclysm.engine.invariants import problems
from grandstrategy.core.log import ActionEntry
from grandstrategy.core.rng import Rng
from grandstrategy.core.session import Match

WATCHED = (
    "deploy",
    "land operation",
    "invasion",
    "naval operation",
    "base capture",
    "air operation",
    "strategic bombing",
    "surprise",
    "declare-war",
    "intervene",
    "build",
)


def one_game(job: tuple[str, int]) -> tuple[str | None, str | None, dict[str, int]]:
    """(outcome, failure, counts of watched actions) for one seeded game."""
    scenario, seed = job
    match = Match(CATACLYSM, seed=seed, options={"scenario": scenario})
    chooser = Rng(seed + 1000)
    step = 0
    try:
        while (decision := match.decision()) is not None:
            match.play(decision.seat, decision.legal[chooser.below(len(decision.legal))])
            step += 1
            broken = problems(match.state)  # type: ignore[arg-type]
            if broken:
                return None, f"{scenario} seed {seed} step {step}: {broken}", {}
    except Exception:
        return None, f"{scenario} seed {seed} step {step}: {traceback.format_exc(limit=3)}", {}
    counts: Counter[str] = Counter()
    for entry in match.log:
        if isinstance(entry, ActionEntry):
            option = entry.action.split(": ", 1)[1]
            counts.update(kind for kind in WATCHED if option.startswith(kind))
    game = match.state
    assert isinstance(game, CataclysmGame)
    result = game.state.result
    outcome = f"{result['winner']} ({result['how']})" if result is not None else None
    return outcome, None, dict(counts)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=100, help="games per scenario")
    parser.add_argument("--scenario", action="append", help="scenario id (default: both)")
    parser.add_argument("--jobs", type=int, default=1, help="worker processes")
    args = parser.parse_args()
    for scenario in args.scenario or ["campaign-1933", "europe-1939"]:
        started = time.perf_counter()
        jobs = [(scenario, seed) for seed in range(args.games)]
        with ProcessPoolExecutor(max_workers=args.jobs) as pool:
            results = list(pool.map(one_game, jobs, chunksize=4))
        seconds = time.perf_counter() - started
        failures = [failure for _, failure, _ in results if failure is not None]
        winners = Counter(outcome for outcome, _, _ in results if outcome is not None)
        kinds: Counter[str] = Counter()
        for _, _, counts in results:
            kinds.update(counts)
        print(
            f"{scenario}: {args.games} games in {seconds:.0f} s on {args.jobs} process(es), "
            f"{len(failures)} with a broken invariant or an error"
        )
        for line in failures[:10]:
            print(f"  {line}")
        for outcome, count in winners.most_common():
            print(f"  {count:4d}  {outcome}")
        print("  military actions chosen: " + ", ".join(f"{k} {kinds[k]}" for k in WATCHED))


if __name__ == "__main__":
    main()
