"""Speed of play: whole games with bots, the cost of each engine call, a bot's thinking time, memory.

Measures on one core (no worker processes):

- complete random games per second (every power a random bot, through ``Match.play``);
- complete heuristic games per second (every power a heuristic bot) and the time of one heuristic
  decision (median, p99, worst);
- ``legal_actions()`` and ``apply()`` per call on the trusting door (median, p99);
- peak memory of one random and one heuristic game (tracemalloc).

Targets (issue 5): >= 5 random campaign games/s, >= 1 heuristic game/s, legal actions < 1 ms p99,
peak memory < 200 MB. Run: ``.venv/bin/python benchmarks/play_speed.py [--games 10]
[--heuristic-games 3] [--scenario campaign-1933] [--append]``; ``--append`` adds the table to
benchmarks/RESULTS.md.

Side by side with another commit (issue 15): ``--against REV [--rounds 3]`` copies ``src`` of
``REV`` out of git into a temporary folder and times the same random and heuristic games with it
and with the working tree in alternating child processes (CPU time of the process, so other jobs
on a shared machine disturb it less than wall time); the table gives each side's best round and
the ratio. The games are timed with the collector settings self-play uses
(:mod:`grandstrategy.core.collector`, where the commit has it); ``--default-gc`` keeps Python's.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path

from grandstrategy.core.ids import CHANCE
from grandstrategy.core.rng import Rng
from grandstrategy.core.session import Match
from grandstrategy.play.bots import Bot, HeuristicBot, RandomBot, bot_seed
from grandstrategy.play.games import load_ruleset
from grandstrategy.play.simulate import game_seed


def ply(match: Match) -> int:
    """The log's length, without copying the log where the commit measured can (``--against``)."""
    length = getattr(match, "log_length", None)
    return int(length()) if length is not None else len(match.log)


def play(scenario: str, seed: int, kind: str, thinking: list[float] | None = None) -> Match:
    """One whole game with every power a bot of ``kind`` (``random`` or ``heuristic``)."""
    match = Match(load_ruleset("cataclysm"), seed=seed, options={"scenario": scenario})
    bots: dict[str, Bot] = {
        seat: (HeuristicBot if kind == "heuristic" else RandomBot)(bot_seed(seed, seat))
        for seat in match.state.seats()
    }
    while (decision := match.decision()) is not None:
        started = time.perf_counter()
        action = bots[decision.seat].choose(match.state, decision, ply=ply(match))
        if thinking is not None and len(decision.legal) > 1:
            thinking.append(time.perf_counter() - started)
        match.play(decision.seat, action)
    return match


def tune_collector() -> None:
    """The collector settings self-play uses (``grandstrategy.core.collector``), where the code
    measured has them; older commits (``--against``) run with Python's defaults."""
    try:
        from grandstrategy.core.collector import tune_for_play
    except ImportError:
        return
    load_ruleset("cataclysm").new_state({"scenario": "campaign-1933"})  # load the rules first
    tune_for_play()


def games_per_second(
    scenario: str, games: int, kind: str, thinking: list[float] | None = None, *, clock: str = "wall"
) -> float:
    """Games per second of ``kind`` over ``games`` seeded games; ``clock`` ``cpu`` counts only this
    process's CPU time (steadier than wall time when other jobs share the cores)."""
    now = time.process_time if clock == "cpu" else time.perf_counter
    started = now()
    for index in range(games):
        play(scenario, game_seed(1, index), kind, thinking)
    return games / (now() - started)


def _rates(
    source: Path, scenario: str, games: int, heuristic_games: int, default_gc: bool
) -> dict[str, float]:
    """Random and heuristic games per second (CPU time) in a child process importing ``source``."""
    environment = {**os.environ, "PYTHONPATH": str(source)}
    command = [sys.executable, __file__, "--child", "--scenario", scenario, "--games", str(games)]
    command += ["--heuristic-games", str(heuristic_games)] + (["--default-gc"] if default_gc else [])
    done = subprocess.run(command, env=environment, capture_output=True, text=True, check=True)
    rates: dict[str, float] = json.loads(done.stdout.strip().splitlines()[-1])
    return rates


def compare(
    revision: str, scenario: str, games: int, heuristic_games: int, rounds: int, default_gc: bool
) -> str:
    """The same games with ``revision``'s ``src`` and with the working tree, alternating; a table."""
    root = Path(__file__).resolve().parent.parent
    with tempfile.TemporaryDirectory() as folder:
        archive = subprocess.run(
            ["git", "-C", str(root), "archive", revision, "src"], capture_output=True, check=True
        ).stdout
        subprocess.run(["tar", "-x", "-C", folder], input=archive, check=True)
        sides = {revision: Path(folder) / "src", "working tree": root / "src"}
        best: dict[str, dict[str, float]] = {name: {} for name in sides}
        for round_ in range(rounds):
            for name, source in sides.items():
                rates = _rates(source, scenario, games, heuristic_games, default_gc)
                print(f"round {round_ + 1}, {name}: {rates}", flush=True)
                for key, value in rates.items():
                    best[name][key] = max(best[name].get(key, 0.0), value)
    base, now = best[revision], best["working tree"]
    machine = f"`{platform.machine()}`, {os.cpu_count()} CPUs, Python {platform.python_version()}"
    return "\n".join(
        [
            f"Machine: {machine}; date {datetime.date.today().isoformat()}; {scenario}, {games} random and "
            f"{heuristic_games} heuristic games per round, best of {rounds} rounds, CPU time; collector: "
            f"{'Python defaults on both sides' if default_gc else 'as each side sets it'}.",
            "",
            f"| games per second | {revision} | working tree | ratio |",
            "|---|---:|---:|---:|",
            *(
                f"| {kind} | {base[kind]:.3f} | {now[kind]:.3f} | {now[kind] / base[kind]:.2f}x |"
                for kind in ("random", "heuristic")
            ),
        ]
    )


def call_times(scenario: str, games: int) -> tuple[list[float], list[float]]:
    """Times of legal_actions() and apply() on the trusting door, over whole random games."""
    ruleset = load_ruleset("cataclysm")
    legal: list[float] = []
    apply: list[float] = []
    for seed in range(games):
        state = ruleset.new_state({"scenario": scenario})
        chooser, dice = Rng(seed), Rng(seed + 7)
        while not state.is_terminal():
            if state.to_act() is CHANCE:
                node = state.chance_node()
                state.apply_chance(node.outcomes[dice.below(len(node.outcomes))][0])
                continue
            t0 = time.perf_counter()
            actions = state.legal_actions()
            t1 = time.perf_counter()
            state.apply(actions[chooser.below(len(actions))])
            t2 = time.perf_counter()
            legal.append(t1 - t0)
            apply.append(t2 - t1)
    return legal, apply


def peak_memory(scenario: str, kind: str) -> float:
    """Peak traced memory of one whole game, in MiB."""
    tracemalloc.start()
    play(scenario, game_seed(1, 0), kind)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return peak / 2**20


def quantile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scenario", default="campaign-1933")
    parser.add_argument("--games", type=int, default=10, help="random games to time")
    parser.add_argument("--heuristic-games", type=int, default=3, help="heuristic games to time")
    parser.add_argument("--append", action="store_true", help="append the table to benchmarks/RESULTS.md")
    parser.add_argument("--against", metavar="REV", help="time side by side with this git revision's src")
    parser.add_argument("--rounds", type=int, default=3, help="alternating rounds with --against")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument(
        "--default-gc", action="store_true", help="keep Python's collector settings (the engine alone)"
    )
    args = parser.parse_args()
    if not args.default_gc and not args.against:
        tune_collector()
    if args.child:  # one side of --against: the two rates as JSON
        rates = {
            "random": games_per_second(args.scenario, args.games, "random", clock="cpu"),
            "heuristic": games_per_second(args.scenario, args.heuristic_games, "heuristic", clock="cpu"),
        }
        print(json.dumps(rates))
        return
    if args.against:
        print(
            compare(
                args.against, args.scenario, args.games, args.heuristic_games, args.rounds, args.default_gc
            )
        )
        return
    random_rate = games_per_second(args.scenario, args.games, "random")
    print(f"random games/s: {random_rate:.2f}", flush=True)
    thinking: list[float] = []
    heuristic_rate = games_per_second(args.scenario, args.heuristic_games, "heuristic", thinking)
    print(f"heuristic games/s: {heuristic_rate:.3f}", flush=True)
    legal, apply = call_times(args.scenario, max(1, args.games // 2))
    memory_random = peak_memory(args.scenario, "random")
    memory_heuristic = peak_memory(args.scenario, "heuristic")

    def ms(value: float) -> str:
        return f"{value * 1000:.2f} ms" if value >= 1e-3 else f"{value * 1e6:.1f} µs"

    def met(ok: bool) -> str:
        return "met" if ok else "**missed**"

    legal_p99 = quantile(legal, 0.99)
    rows = [
        f"| {args.scenario}, random games per second ({args.games} games) | {random_rate:.2f} | "
        f">= 5: {met(random_rate >= 5)} |",
        f"| {args.scenario}, heuristic games per second ({args.heuristic_games} games) | "
        f"{heuristic_rate:.3f} | >= 1: {met(heuristic_rate >= 1)} |",
        f"| one heuristic decision (more than one choice), median / p99 / worst | "
        f"{ms(statistics.median(thinking))} / {ms(quantile(thinking, 0.99))} / {ms(max(thinking))} | "
        f"well under 1 s: {met(max(thinking) < 1.0)} |",
        f"| `legal_actions()`, median / p99 | {ms(statistics.median(legal))} / {ms(legal_p99)} | "
        f"< 1 ms p99: {met(legal_p99 < 1e-3)} |",
        f"| `apply()` with the steps it runs, median / p99 | {ms(statistics.median(apply))} / "
        f"{ms(quantile(apply, 0.99))} | – |",
        f"| peak memory of one game, random / heuristic (tracemalloc) | {memory_random:.1f} MiB / "
        f"{memory_heuristic:.1f} MiB | < 200 MB: {met(max(memory_random, memory_heuristic) < 190)} |",
    ]
    machine = f"`{platform.machine()}`, {os.cpu_count()} CPUs, Python {platform.python_version()}"
    table = "\n".join(
        [
            f"## Play speed: bots, whole games ({args.scenario})",
            "",
            f"Machine: {machine}; date {datetime.date.today().isoformat()}. Command: "
            f"`.venv/bin/python benchmarks/play_speed.py --scenario {args.scenario} --games {args.games} "
            f"--heuristic-games {args.heuristic_games}`. One core; every action through `Match.play`.",
            "",
            "| measure | result | target (issue 5) |",
            "|---|---:|---:|",
            *rows,
            "",
        ]
    )
    print(table)
    if args.append:
        with Path(__file__).with_name("RESULTS.md").open("a", encoding="utf-8") as handle:
            handle.write("\n" + table)


if __name__ == "__main__":
    main()
