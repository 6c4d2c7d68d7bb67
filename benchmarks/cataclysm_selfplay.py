"""Speed of the Cataclysm rules engine: random whole games, and the cost of each call.

Measures on one core: complete random games per second for both scenarios; the time of
``legal_actions()`` and of ``apply()`` per call (median and 99th percentile); the peak memory
of one game (tracemalloc). Run: ``.venv/bin/python benchmarks/cataclysm_selfplay.py [--games N]``.
"""

from __future__ import annotations

import argparse
import platform
import statistics
import time
import tracemalloc

from grandstrategy.cataclysm.engine import CATACLYSM, CataclysmGame
from grandstrategy.core.ids import CHANCE
from grandstrategy.core.rng import Rng
from grandstrategy.core.session import Match


def play(seed: int, scenario: str) -> Match:
    match = Match(CATACLYSM, seed=seed, options={"scenario": scenario})
    chooser = Rng(seed)
    while (decision := match.decision()) is not None:
        match.play(decision.seat, decision.legal[chooser.below(len(decision.legal))])
    return match


def games_per_second(scenario: str, games: int) -> float:
    started = time.perf_counter()
    for seed in range(games):
        play(seed, scenario)
    return games / (time.perf_counter() - started)


def call_times(scenario: str, games: int) -> tuple[list[float], list[float]]:
    """Times of legal_actions() and apply() on the trusting door (no clone), over whole games."""
    legal: list[float] = []
    apply: list[float] = []
    for seed in range(games):
        game = CATACLYSM.new_state({"scenario": scenario})
        assert isinstance(game, CataclysmGame)
        chooser = Rng(seed)
        dice = Rng(seed + 7)
        while not game.is_terminal():
            if game.to_act() is CHANCE:
                node = game.chance_node()
                game.apply_chance(node.outcomes[dice.below(len(node.outcomes))][0])
                continue
            t0 = time.perf_counter()
            actions = game.legal_actions()
            t1 = time.perf_counter()
            game.apply(actions[chooser.below(len(actions))])
            t2 = time.perf_counter()
            legal.append(t1 - t0)
            apply.append(t2 - t1)
    return legal, apply


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=20)
    args = parser.parse_args()
    print(f"machine: {platform.machine()}, Python {platform.python_version()}")
    for scenario in ("campaign-1933", "europe-1939"):
        rate = games_per_second(scenario, args.games)
        print(f"{scenario}: {rate:.2f} random games per second (checked door, {args.games} games)")
    legal, apply = call_times("campaign-1933", max(2, args.games // 4))
    median, p99 = statistics.median(legal) * 1e6, percentile(legal, 0.99) * 1e6
    print(f"legal_actions: median {median:.1f} us, p99 {p99:.1f} us")
    print(
        f"apply (incl. the chance-free steps it runs): median {statistics.median(apply) * 1e6:.1f} us, "
        f"p99 {percentile(apply, 0.99) * 1e3:.2f} ms"
    )
    tracemalloc.start()
    play(1, "campaign-1933")
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    print(f"peak memory of one campaign game (tracemalloc): {peak / 2**20:.1f} MiB")


if __name__ == "__main__":
    main()
