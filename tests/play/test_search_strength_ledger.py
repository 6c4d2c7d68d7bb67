"""The search-strength benchmark's ledger: a resumed run skips the games already played, and the
report's table comes from the ledger alone (benchmarks/search_strength.py)."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

_PATH = Path(__file__).resolve().parents[2] / "benchmarks" / "search_strength.py"


def _benchmark() -> ModuleType:
    spec = importlib.util.spec_from_file_location("search_strength", _PATH)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("search_strength", module)
    spec.loader.exec_module(module)
    return module


bench = _benchmark()


def _line(seed: int, searcher: str | None, winner: str, **extra: Any) -> dict[str, Any]:
    entry: dict[str, Any] = {
        "scenario": "europe-1939",
        "seed": seed,
        "searcher": searcher,
        "simulations": 32 if searcher else None,
        "seconds": None,
        "winner": winner,
        "search_decisions": 100 if searcher else 0,
        "search_seconds": 50.0 if searcher else 0.0,
        "searched": 25 if searcher else 0,
        "bots": "S" if searcher else "B",
        "engine": "E",
    }
    entry.update(extra)
    return entry


def test_the_report_pairs_seeds_and_computes_the_rates_the_tests_and_the_points() -> None:
    ledger = [_line(s, None, w) for s, w in enumerate(["democracy", "fascism", "fascism", "fascism"])]
    ledger += [
        _line(s, "democracy", w) for s, w in enumerate(["democracy", "democracy", "fascism", "democracy"])
    ]
    ledger += [
        _line(9, "democracy", "democracy"),  # no baseline game for seed 9: unpaired, left out
        _line(1, "democracy", "fascism", seconds=0.5),  # a time budget: not reproducible, left out
        _line(2, "democracy", "democracy", simulations=8),  # another budget
        _line(3, None, "democracy", scenario="campaign-1933"),  # another scenario
    ]
    result = bench.report(ledger, "europe-1939", 32)
    assert [r.ideology for r in result.rows] == ["democracy"]
    row = result.rows[0]
    assert (row.games, row.base_wins, row.wins) == (4, 1, 3)
    assert row.points == pytest.approx(50.0)
    # Fisher, one-sided: P(X >= 3) for 4 wins among 8 games, 4 drawn: (4*4 + 1) / C(8, 4) = 17/70.
    assert row.fisher_p == pytest.approx(17 / 70)
    # z: pooled rate 1/2, spread sqrt(1/4 * 1/2), z = 0.5 / 0.35355 = sqrt(2); p = 0.0786.
    assert row.z_p == pytest.approx(0.07865, abs=1e-4)
    assert row.seconds_per_decision == pytest.approx(0.5)
    assert row.seconds_per_searched == pytest.approx(2.0)
    assert row.lead_gained is None  # the hand-made lines carry no scores
    assert result.mean_points == pytest.approx(50.0)
    assert not result.passed  # one ideology only, and p far above 0.01


def test_the_report_uses_the_newest_identity_and_meets_the_bar_only_when_every_ideology_does() -> None:
    seeds = range(40)
    ledger = [_line(s, None, "fascism", bots="old") for s in seeds]  # an older bot: ignored
    ledger += [_line(s, None, "fascism") for s in seeds]
    for ideology in ("democracy", "communism"):
        ledger += [_line(s, ideology, ideology if s < 20 else "fascism") for s in seeds]
    ledger += [_line(s, "fascism", "fascism") for s in seeds]
    result = bench.report(ledger, "europe-1939", 32)
    points = {r.ideology: r.points for r in result.rows}
    assert points == {"democracy": 50.0, "fascism": 0.0, "communism": 50.0}
    assert result.mean_points == pytest.approx(100 / 3)
    assert not result.passed  # fascism gained nothing: not significant
    assert "not met" in bench.render(result)


def test_the_report_gives_the_mean_gain_in_vp_lead_over_the_best_other_ideology() -> None:
    ledger = [
        _line(1, None, "fascism", scores={"democracy": 4, "fascism": 7, "communism": 2}),  # lead -3
        _line(2, None, "democracy", scores={"democracy": 8, "fascism": 6, "communism": 7}),  # lead +1
        _line(1, "democracy", "fascism", scores={"democracy": 6, "fascism": 7, "communism": 2}),  # -1
        _line(2, "democracy", "democracy", scores={"democracy": 9, "fascism": 5, "communism": 2}),  # +4
    ]
    (row,) = bench.report(ledger, "europe-1939", 32).rows
    assert row.lead_gained == pytest.approx(((-1 - -3) + (4 - 1)) / 2)
    assert row.points == 0.0


def _fake_play(calls: list[Any]) -> Any:
    def play(spec: Any) -> Any:
        calls.append((spec.seed, spec.searcher))
        return bench.Result(spec.seed, spec.searcher, "fascism", 3, 0.3, 1, {"fascism": 9}, 50, "sha256:x")

    return play


def test_resume_plays_only_the_games_the_ledger_lacks(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    ledger = tmp_path / "games.jsonl"
    calls: list[Any] = []
    monkeypatch.setattr(bench, "play", _fake_play(calls))
    monkeypatch.setattr(bench, "engine_fingerprint", lambda scenario: "E1")
    base = ["--only", "democracy", "--jobs", "1", "--ledger", str(ledger), "--simulations", "4"]
    bench.main(["--games", "2", "--resume", *base])
    assert len(calls) == 4  # two seeds, baseline and democracy
    lines = [json.loads(line) for line in ledger.read_text(encoding="utf-8").splitlines()]
    assert [(e["seed"], e["searcher"]) for e in lines] == calls
    assert {e["engine"] for e in lines} == {"E1"} and all(e["bots"] for e in lines)
    calls.clear()
    bench.main(["--games", "3", "--resume", *base])
    assert len(calls) == 2  # only the third seed, both ways
    bench.main(["--games", "3", "--resume", *base])
    assert calls[2:] == []  # nothing left to play
    bench.main(["--games", "3", "--resume", *base[:-1], "8"])
    assert [searcher for _, searcher in calls[2:]] == ["democracy"] * 3  # a new budget; baselines kept
    monkeypatch.setattr(bench, "engine_fingerprint", lambda scenario: "E2")
    calls.clear()
    bench.main(["--games", "1", "--resume", *base])
    assert len(calls) == 2  # the engine plays differently now: its games start afresh
    assert len(ledger.read_text(encoding="utf-8").splitlines()) == 4 + 2 + 3 + 2


def test_a_broken_ledger_line_is_named(tmp_path: Path) -> None:
    ledger = tmp_path / "games.jsonl"
    ledger.write_text('{"seed": 1}\nnot json\n', encoding="utf-8")
    with pytest.raises(SystemExit, match=r"games\.jsonl:2: not a JSON line"):
        bench.read_ledger(ledger)
