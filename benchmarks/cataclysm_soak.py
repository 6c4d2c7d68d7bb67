"""Play many seeded random games and run the invariant check after every action.

Slower than the test suite's handful of games; run it after changing the engine:
``.venv/bin/python benchmarks/cataclysm_soak.py --games 500``. Prints any broken invariant with
its seed and step, and a summary of how the games ended.
"""

from __future__ import annotations

import argparse
import time
from collections import Counter

from grandstrategy.cataclysm.engine import CATACLYSM, CataclysmGame
from grandstrategy.cataclysm.engine.invariants import problems
from grandstrategy.core.rng import Rng
from grandstrategy.core.session import Match


def soak(scenario: str, games: int) -> tuple[Counter[str], list[str]]:
    winners: Counter[str] = Counter()
    failures: list[str] = []
    for seed in range(games):
        match = Match(CATACLYSM, seed=seed, options={"scenario": scenario})
        chooser = Rng(seed + 1000)
        step = 0
        while (decision := match.decision()) is not None:
            match.play(decision.seat, decision.legal[chooser.below(len(decision.legal))])
            step += 1
            broken = problems(match.state)  # type: ignore[arg-type]
            if broken:
                failures.append(f"{scenario} seed {seed} step {step}: {broken}")
                break
        game = match.state
        assert isinstance(game, CataclysmGame)
        if game.state.result is not None:
            winners[f"{game.state.result['winner']} ({game.state.result['how']})"] += 1
    return winners, failures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=100, help="games per scenario")
    args = parser.parse_args()
    for scenario in ("campaign-1933", "europe-1939"):
        started = time.perf_counter()
        winners, failures = soak(scenario, args.games)
        seconds = time.perf_counter() - started
        print(f"{scenario}: {args.games} games in {seconds:.0f} s, {len(failures)} with a broken invariant")
        for line in failures[:10]:
            print(f"  {line}")
        for outcome, count in winners.most_common():
            print(f"  {count:4d}  {outcome}")


if __name__ == "__main__":
    main()
