"""Side-by-side CPU-time benchmark of our exact A&A calculator against aacalc2 (issue 13, point 5).

aacalc2 (TypeScript, MIT) is the fastest exact calculator we know. Its source is kept for
reference in ``/work/wt/shared/reference/aacalc2`` (or ``--aacalc2-src``); this script copies it
OUTSIDE the repository (``--build-dir``, default ``/tmp/aacalc2-build``), builds it with npm, and
writes a small node harness to ``/tmp`` that reads one battle per line on stdin and answers with
the CPU time of its runs measured inside node (``process.cpuUsage``), so node's start-up never
counts. Our side is timed with ``time.process_time`` in this process. The two are interleaved:
each repetition times every battle on both sides in turn, and the medians are reported.

Both must give the same attacker and defender win chances (to 1e-9). aacalc2 follows the 1942
edition; its land units and its submarines, fighters, bombers and battleships match Revised, but
destroyers, carriers and defending submarines (1942: defence 1, Revised: 2) do not, so battles
with those are timed only (marked "n/c").

Ours keeps per-side tables across calls (side profiles, see ``odds.py``), so the timed calls
after the warm-up find them ready, as a bot or a player asking about the same forces again
would; the last column is the first call after :func:`~grandstrategy.axis_allies.odds.clear_caches`
(everything built from nothing), one call per repetition, for comparison. Like the
``grandstrategy`` command, the script runs numpy with one BLAS thread (``OPENBLAS_NUM_THREADS=1``
unless set): the solvers' matrices are small, and OpenBLAS's helper threads would only spin.

Run: ``.venv/bin/python benchmarks/aa_vs_aacalc2.py [--reps N] [--runs N]``. Without node/npm
the script says so and exits 0.
"""

from __future__ import annotations

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # before numpy is imported

import argparse
import json
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

from grandstrategy.axis_allies.battle import Battle
from grandstrategy.axis_allies.odds import battle_odds, clear_caches

REFERENCE = Path("/work/wt/shared/reference/aacalc2")
HARNESS = Path("/tmp/aacalc2-harness.mjs")
KEYS = {"inf": "inf", "art": "art", "arm": "arm", "ftr": "fig", "bmr": "bom", "sub": "sub"}
KEYS |= {"dd": "des", "cv": "acc", "bb": "bat", "trn": "tra"}
OOL_LAND = ["inf", "art", "arm", "fig", "bom"]
OOL_SEA = ["tra", "sub", "des", "bom", "bat", "acc", "fig"]
COMPARABLE = {"inf", "art", "arm", "ftr", "bmr", "sub", "bb"}

BASE_A = {"inf": 8, "art": 4, "arm": 5, "ftr": 2, "bmr": 1}
BASE_D = {"inf": 12, "arm": 4, "ftr": 4}
HALF_A = {"inf": 4, "art": 2, "arm": 2, "ftr": 1, "bmr": 1}
HALF_D = {"inf": 6, "arm": 2, "ftr": 2}


def scaled(force: dict[str, int], k: int) -> dict[str, int]:
    return {u: n * k for u, n in force.items()}


#: (name, attacker, defender, sea)
BATTLES: list[tuple[str, dict[str, int], dict[str, int], bool]] = [
    ("land 10 v 10", HALF_A, HALF_D, False),
    ("land 20 v 20", BASE_A, BASE_D, False),
    ("land 40 v 40", scaled(BASE_A, 2), scaled(BASE_D, 2), False),
    ("land 60 v 60", scaled(BASE_A, 3), scaled(BASE_D, 3), False),
    ("sea 2sub 2ftr 1bb 1bmr v 2bb 3ftr", {"sub": 2, "ftr": 2, "bb": 1, "bmr": 1}, {"bb": 2, "ftr": 3}, True),
    ("sea 4sub 3ftr 2bb 1bmr v 3bb 4ftr", {"sub": 4, "ftr": 3, "bb": 2, "bmr": 1}, {"bb": 3, "ftr": 4}, True),
    ("sea 6sub 2bmr 2ftr v 3bb 2ftr", {"sub": 6, "bmr": 2, "ftr": 2}, {"bb": 3, "ftr": 2}, True),
    (
        "sea 4sub 2ftr 2bb v 3sub 2bb 2ftr (n/c)",
        {"sub": 4, "ftr": 2, "bb": 2},
        {"sub": 3, "bb": 2, "ftr": 2},
        True,
    ),
    ("sea-air 4ftr 3bmr v 2bb 2ftr", {"ftr": 4, "bmr": 3}, {"bb": 2, "ftr": 2}, True),
    (
        "sea 3sub 2dd 2ftr v 2sub 1dd 1bb (n/c)",
        {"sub": 3, "dd": 2, "ftr": 2},
        {"sub": 2, "dd": 1, "bb": 1},
        True,
    ),
    (
        "sea 2dd 1cv 2ftr 1bb v 1cv 2ftr 2dd (n/c)",
        {"dd": 2, "cv": 1, "ftr": 2, "bb": 1},
        {"cv": 1, "ftr": 2, "dd": 2},
        True,
    ),
]

HARNESS_JS = """
import { multiwaveExternal } from '%s';
import { createInterface } from 'readline';
const rl = createInterface({ input: process.stdin });
for await (const line of rl) {
  const job = JSON.parse(line);
  const input = {
    wave_info: [{
      attack: { units: job.attack, ool: job.ool, takes: 0, aaLast: false },
      defense: { units: job.defense, ool: job.ool, takes: 0, aaLast: false },
      att_submerge: false, def_submerge: false, att_dest_last: false, def_dest_last: false,
      is_crash_fighters: false, rounds: 100, retreat_threshold: 0,
    }],
    debug: false, prune_threshold: 0, report_prune_threshold: 0, is_naval: job.naval,
    in_progress: false, num_runs: 1, verbose_level: 0, diceMode: 'standard',
    sortMode: 'unit_count', retreat_round_zero: true,
  };
  let res;
  for (let i = 0; i < job.warm; i++) res = multiwaveExternal(input);  // let the JIT settle
  const t0 = process.cpuUsage();
  for (let i = 0; i < job.runs; i++) res = multiwaveExternal(input);
  const t = process.cpuUsage(t0);
  console.log(JSON.stringify({ ms: (t.user + t.system) / 1000 / job.runs,
    att: res.attack.survives[0], def: res.defense.survives[0] }));
}
"""


def build(src: Path, dest: Path) -> Path | None:
    """Build aacalc2 in ``dest`` (outside the repo); the path of its entry module, or None."""
    if not (shutil.which("node") and shutil.which("npm")):
        print("node/npm not found: skipping the aacalc2 comparison")
        return None
    entry = dest / "dist" / "index.js"
    if entry.exists():
        return entry
    if not src.exists():
        print(f"aacalc2 source not found at {src}: skipping the comparison")
        return None
    shutil.copytree(src, dest, dirs_exist_ok=True)
    for cmd in (
        ["npm", "install", "--no-audit", "--no-fund", "typescript@5", "@types/node@22"],
        ["npx", "tsc", "-p", "."],
    ):
        done = subprocess.run(cmd, cwd=dest, capture_output=True, text=True, check=False)
        if done.returncode:
            print(f"building aacalc2 failed ({' '.join(cmd)}):\n{done.stderr[-2000:]}")
            return None
    return entry


def ours(battle: Battle, runs: int) -> tuple[float, float, float]:
    """CPU ms per call (in-process), and the chances that the attacker / defender has units left.

    aacalc2 reports survival ("has units left"), which for a stalled battle (submarines against
    aircraft only) is true of both sides; ours calls that outcome undecided, so it is added to both.
    """
    for _ in range(runs):  # warm up as node does
        result = battle_odds(battle, method="exact")
    t0 = time.process_time()
    for _ in range(runs):
        result = battle_odds(battle, method="exact")
    ms = (time.process_time() - t0) * 1000 / runs
    assert result.method == "exact"
    return ms, result.attacker_win + result.undecided, result.defender_win + result.undecided


def cold(battle: Battle) -> float:
    """CPU ms of one call with every cache across calls emptied first."""
    clear_caches()
    t0 = time.process_time()
    battle_odds(battle, method="exact")
    return (time.process_time() - t0) * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--reps", type=int, default=5, help="interleaved repetitions (median kept)")
    parser.add_argument("--runs", type=int, default=20, help="calls timed per repetition")
    parser.add_argument("--aacalc2-src", type=Path, default=REFERENCE)
    parser.add_argument("--build-dir", type=Path, default=Path("/tmp/aacalc2-build"))
    args = parser.parse_args()
    entry = build(args.aacalc2_src, args.build_dir)
    node = None
    if entry is not None:
        HARNESS.write_text(HARNESS_JS % entry.as_posix())
        node = subprocess.Popen(
            ["node", str(HARNESS)], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
        )
    times: dict[str, tuple[list[float], list[float]]] = {name: ([], []) for name, *_ in BATTLES}
    colds: dict[str, list[float]] = {name: [] for name, *_ in BATTLES}
    answers: dict[str, tuple[float, float, float, float]] = {}
    for _ in range(args.reps):
        for name, att, dfn, sea in BATTLES:
            battle = Battle.make("revised", att, dfn, sea=sea)
            runs = max(1, args.runs // 4) if "60" in name or "40" in name else args.runs
            colds[name].append(cold(battle))
            ms, win, loss = ours(battle, runs)
            times[name][0].append(ms)
            theirs = (float("nan"), float("nan"))
            if node is not None:
                assert node.stdin is not None and node.stdout is not None
                job = {
                    "attack": {KEYS[k]: n for k, n in att.items()},
                    "defense": {KEYS[k]: n for k, n in dfn.items()},
                    "ool": OOL_SEA if sea else OOL_LAND,
                    "naval": sea,
                    "runs": runs,
                    "warm": runs,
                }
                node.stdin.write(json.dumps(job) + "\n")
                node.stdin.flush()
                reply = json.loads(node.stdout.readline())
                times[name][1].append(reply["ms"])
                theirs = (reply["att"], reply["def"])
            answers[name] = (win, loss, *theirs)
    if node is not None and node.stdin is not None:
        node.stdin.close()
        node.wait()
    print(
        "| battle | ours CPU ms | aacalc2 CPU ms | ours / aacalc2 | attacker survives | same answer "
        "| ours, cold caches ms |"
    )
    print("|---|---:|---:|---:|---:|---|---:|")
    bad = 0
    for name, att, dfn, _ in BATTLES:
        mine = statistics.median(times[name][0])
        theirs_ms = statistics.median(times[name][1]) if times[name][1] else float("nan")
        win, loss, t_win, t_loss = answers[name]
        comparable = set(att) | set(dfn) <= COMPARABLE and "sub" not in dfn
        if node is None:
            same = "-"
        elif not comparable:
            same = "n/c (1942 values)"
        elif abs(win - t_win) < 1e-9 and abs(loss - t_loss) < 1e-9:
            same = "yes (1e-9)"
        else:
            same = f"NO: {t_win:.9f} / {t_loss:.9f}"
            bad += 1
        first = statistics.median(colds[name])
        print(
            f"| {name} | {mine:.3f} | {theirs_ms:.3f} | {mine / theirs_ms:.2f} | {win:.9f} | {same} "
            f"| {first:.3f} |"
        )
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
