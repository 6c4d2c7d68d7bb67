"""Accuracy and speed on the labelled questions (dev and held-out sets built from ../shared/rules/002)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from click.testing import CliRunner

from grandstrategy.rulebook.assistant import RulesAssistant
from grandstrategy.rulebook.cli import app
from grandstrategy.rulebook.evaluate import builtin_set, evaluate

# Done-when targets of issue 6: dev top-1 >= 90 %, top-3 >= 97 %; held-out within 5 points of those targets.
DEV_TOP1, DEV_TOP3 = 0.90, 0.97
HELD_OUT_MARGIN = 0.05


def test_development_set_accuracy(assistant: RulesAssistant) -> None:
    report = evaluate(assistant, builtin_set("dev"), "dev", k=3)
    assert report.total >= 250
    assert report.top1_accuracy >= DEV_TOP1, report.misses
    assert report.topk_accuracy >= DEV_TOP3, report.misses


def test_held_out_accuracy(assistant: RulesAssistant) -> None:
    report = evaluate(assistant, builtin_set("heldout"), "heldout", k=3)
    assert report.total >= 60
    assert report.top1_accuracy >= DEV_TOP1 - HELD_OUT_MARGIN, report.misses
    assert report.topk_accuracy >= DEV_TOP3 - HELD_OUT_MARGIN, report.misses


def test_sets_are_disjoint_by_intent() -> None:
    dev = {item.intent for item in builtin_set("dev")}
    held_out = {item.intent for item in builtin_set("heldout")}
    assert dev and held_out and not dev & held_out


def test_eval_command_on_a_file(tmp_path: Path) -> None:
    path = tmp_path / "mine.jsonl"
    lines = [
        {"question": "what is a flag", "section": "5.2"},
        {"question": "what is a flag", "section": "9.9"},
    ]
    path.write_text("\n".join(json.dumps(line) for line in lines) + "\n", encoding="utf-8")
    result = CliRunner().invoke(app, ["eval", str(path)])
    assert result.exit_code == 0, result.output
    assert "top-1 50.0%" in result.output and "p95" in result.output
    assert "expected 9.9" in result.output
    result = CliRunner().invoke(app, ["eval", str(path), "--json"])
    data = json.loads(result.output)
    assert data[0]["top1"] == 0.5 and "p95" in data[0]["latency_ms"]


def test_eval_command_rejects_bad_lines(tmp_path: Path) -> None:
    path = tmp_path / "bad.jsonl"
    path.write_text('{"question": "no label"}\n', encoding="utf-8")
    result = CliRunner().invoke(app, ["eval", str(path)])
    assert result.exit_code != 0


def test_rules_ask_in_a_fresh_process_answers_with_the_section() -> None:
    command = [sys.executable, "-m", "grandstrategy", "rules", "ask", "what is a flag"]
    env = dict(os.environ)
    subprocess.run(command, check=True, capture_output=True, env=env)  # builds the cache if needed
    result = subprocess.run(command, check=True, capture_output=True, text=True, env=env)
    assert result.stdout.splitlines()[1].strip().startswith("LR 5.2 Flags")  # after the answering fact


def test_eval_command_reports_players_off_topic_and_pattern_sets_as_json() -> None:
    args = ["eval", "--json", "--set", "players-dev", "--set", "offtopic-heldout", "--set", "heldout"]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert [report["name"] for report in data] == ["players-dev", "offtopic-heldout", "heldout"]
    players, off_topic, patterns = data
    assert {"top1", "top3", "top1_exact", "false_refusal_rate"} <= set(players)
    assert off_topic["kind"] == "offtopic" and "refusal_rate" in off_topic and "top1" not in off_topic
    assert patterns["questions"] == len(builtin_set("heldout")) and "p99" in patterns["latency_ms"]


def test_eval_command_splits_a_mixed_file_into_on_and_off_topic(tmp_path: Path) -> None:
    path = tmp_path / "mixed.jsonl"
    lines = [
        {"question": "what is a flag", "sections": ["5.2"]},
        {"question": "how do you win at risk", "sections": [], "kind": "offtopic"},
    ]
    path.write_text("\n".join(json.dumps(line) for line in lines) + "\n", encoding="utf-8")
    result = CliRunner().invoke(app, ["eval", str(path)])
    assert result.exit_code == 0, result.output
    assert "mixed.jsonl: 1 questions  top-1 100.0%" in result.output
    assert "mixed.jsonl (off-topic): 1 questions  refused 100.0%" in result.output


def test_eval_command_rejects_an_unknown_set() -> None:
    result = CliRunner().invoke(app, ["eval", "--set", "nope"])
    assert result.exit_code == 2 and "Invalid value" in result.output and "players-dev" in result.output
