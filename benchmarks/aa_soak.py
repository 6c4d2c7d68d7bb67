"""Play many seeded random games of Axis & Allies Revised (LHTR) and check every invariant after
every action.

Slower than the test suite's handful of games; run it after changing the aa-revised engine:
``.venv/bin/python benchmarks/aa_soak.py --games 200 --jobs 2`` (``--rules aa-aarhe`` for the
Historical Edition variant; ``--option optional_units=true`` and the like pass game options,
repeatable). Prints any broken invariant or
engine error with its seed and step, how the games ended (victory by side, round limit) and how
often some kinds of decision were chosen.
"""

from __future__ import annotations

import argparse
import json
import time
import traceback
from collections import Counter
from concurrent.futures import ProcessPoolExecutor

import grandstrategy.axis_allies.aarhe.ruleset  # noqa: F401  (registers aa-aarhe)
from grandstrategy.axis_allies.game import AAGame
from grandstrategy.axis_allies.game.invariants import conservation_problems, problems, unit_counts
from grandstrategy.core.game import find_ruleset
from grandstrategy.core.log import ActionEntry
from grandstrategy.core.rng import Rng
from grandstrategy.core.session import Match

WATCHED = (
    "buy",
    "move",
    "raid",
    "fight",
    "bomb",
    "rocket",
    "retreat",
    "submerge",
    "place",
    "research",
    "court",
    "lend-lease",
    "deliver",
    "support",
    "interdict",
    "load",
    "atomic",
    "attack neutral",
    "airlift",
    "shell",
)
MAX_STEPS = 100_000
"""Decisions after which a game is declared stuck (the engine or the random choices loop)."""


Job = tuple[int, int, str, tuple[tuple[str, object], ...]]
"""seed, round limit, rule set, the other game options."""


def one_game(job: Job) -> tuple[str | None, str | None, dict[str, int], int]:
    """(how it ended, failure, counts of watched decisions, decisions) for one seeded game."""
    seed, max_rounds, rules, more = job
    match = Match(find_ruleset(rules), seed=seed, options={"max_rounds": max_rounds, **dict(more)})
    chooser = Rng(seed + 1000)
    step = 0
    try:
        game = match.state
        assert isinstance(game, AAGame)
        broken = problems(game)
        counts = unit_counts(game)
        while not broken and (decision := match.decision()) is not None:
            action = decision.legal[chooser.below(len(decision.legal))]
            match.play(decision.seat, action)
            step += 1
            game = match.state
            assert isinstance(game, AAGame)
            now = unit_counts(game)
            broken = problems(game) + conservation_problems(counts, now, action.notation())
            counts = now
            if step >= MAX_STEPS:
                return None, f"seed {seed}: no end after {step} decisions ({match.state.phase()})", {}, step
        if broken:
            return None, f"seed {seed} step {step}: {broken}", {}, step
    except Exception:
        return None, f"seed {seed} step {step}: {traceback.format_exc(limit=4)}", {}, step
    chosen: Counter[str] = Counter()
    for entry in match.log:
        if isinstance(entry, ActionEntry):
            option = entry.action.split(": ", 1)[1]
            chosen.update(kind for kind in WATCHED if option.startswith(kind))
    result = game.d["result"]
    ended = f"{result['winner'] or 'nobody'} ({result['how']})" if result else None
    return ended, None, dict(chosen), step


def outcome_kind(ended: str) -> str:
    """``axis victory`` / ``allies victory`` / ``round limit`` from a game's end line."""
    return "round limit" if ended.startswith("nobody") else ended.split()[0] + " victory"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=200, help="number of games (seeds 0..N-1)")
    parser.add_argument("--rounds", type=int, default=12, help="round limit of each game (0: none)")
    parser.add_argument("--jobs", type=int, default=1, help="worker processes")
    parser.add_argument("--rules", default="aa-revised", help="rule set: aa-revised or aa-aarhe")
    parser.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="a game option, the value as JSON (e.g. optional_units=true); repeatable",
    )
    args = parser.parse_args()
    more: list[tuple[str, object]] = []
    for text in args.option:
        name, _, value = text.partition("=")
        try:
            more.append((name, json.loads(value)))
        except json.JSONDecodeError:
            parser.error(f'option {name}: {value!r} is not a JSON value (true, 3, "city")')
    started = time.perf_counter()
    jobs: list[Job] = [(seed, args.rounds, args.rules, tuple(more)) for seed in range(args.games)]
    with ProcessPoolExecutor(max_workers=args.jobs) as pool:
        results = list(pool.map(one_game, jobs, chunksize=2))
    seconds = time.perf_counter() - started
    failures = [failure for _, failure, _, _ in results if failure is not None]
    ends = Counter(outcome_kind(ended) for ended, _, _, _ in results if ended is not None)
    kinds: Counter[str] = Counter()
    for _, _, counts, _ in results:
        kinds.update(counts)
    decisions = sum(step for _, _, _, step in results)
    print(
        f"{' '.join([args.rules, *args.option])}: {args.games} games (round limit {args.rounds}) "
        f"in {seconds:.0f} s on {args.jobs} process(es), {decisions} decisions, "
        f"{len(failures)} with a broken invariant or an error"
    )
    for line in failures[:10]:
        print(f"  {line}")
    for ended, count in sorted(ends.items()):
        print(f"  {count:4d}  {ended}")
    print("  decisions chosen: " + ", ".join(f"{k} {kinds[k]}" for k in WATCHED))


if __name__ == "__main__":
    main()
