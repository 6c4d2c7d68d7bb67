"""The players' and off-topic evaluation sets are well formed, cover every section and keep their split.

Issue 16 point 1: the sets are the yardstick for retrieval work, so they must stay honest: real labels,
every numbered Living Rules section asked about (in dev too), no duplicates, dev and held-out disjoint and
reproducible from the question text alone, and nothing copied from the rule documents.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from grandstrategy.rulebook.assistant import Answer, Reply, RulesAssistant
from grandstrategy.rulebook.cli import SET_NAMES
from grandstrategy.rulebook.digest import digest_bytes, parse_digest
from grandstrategy.rulebook.evaluate import (
    ALL_SETS,
    HARD_SETS,
    OFFTOPIC_SETS,
    PLAYERS_SETS,
    Item,
    builtin_set,
    evaluate,
    label_accepts,
    normalise_question,
    split_of,
)

from .conftest import SHARED

EVAL_DIR = Path(__file__).resolve().parents[2] / "src" / "grandstrategy" / "rulebook" / "data" / "eval"
NEW_FILES = [f"{name}.jsonl" for name in PLAYERS_SETS + OFFTOPIC_SETS + HARD_SETS]
HARD_PLAYERS, HARD_OFFTOPIC = HARD_SETS
VERBATIM_CHECK = SHARED / "tools" / "verbatim_check.py"
SECTIONS = [section.number for section in parse_digest(digest_bytes()).sections]


def _records(name: str) -> list[dict[str, object]]:
    lines = (EVAL_DIR / f"{name}.jsonl").read_text(encoding="utf-8").splitlines()
    return [json.loads(line) for line in lines if line.strip()]


def _labels(name: str) -> list[str]:
    return [label for item in builtin_set(name) for label in item.sections]


def test_every_record_has_the_documented_fields() -> None:
    for name in PLAYERS_SETS + OFFTOPIC_SETS + HARD_SETS:
        for record in _records(name):
            assert set(record) == {"question", "sections", "answer", "kind", "tags"}, record
            assert isinstance(record["question"], str) and record["question"].strip()
            assert isinstance(record["answer"], str) and record["answer"].strip()
            assert isinstance(record["sections"], list) and isinstance(record["tags"], list)
            if name in OFFTOPIC_SETS or name == HARD_OFFTOPIC:
                assert record["kind"] == "offtopic" and record["sections"] == [], record
            else:
                assert record["kind"] == "players" and record["sections"], record


def test_every_label_names_a_real_section() -> None:
    known = set(SECTIONS)
    for name in (*PLAYERS_SETS, HARD_PLAYERS):
        unknown = [label for label in _labels(name) if label not in known]
        assert not unknown, f"{name}: {unknown}"


def test_every_numbered_section_is_asked_about_in_dev_and_overall() -> None:
    dev = set(_labels("players-dev"))
    overall = dev | set(_labels("players-heldout"))
    assert [number for number in SECTIONS if number not in dev] == []
    assert [number for number in SECTIONS if number not in overall] == []


def test_digest_sections_are_the_numbered_living_rules_sections(living_rules: Path) -> None:
    text = living_rules.read_text(encoding="utf-8", errors="replace")
    headings = {m.group(1) for m in re.finditer(r"(?m)^(\d+\.\d+(?:\.\d+)?) [A-Z]", text)}
    assert headings == set(SECTIONS)


def test_the_sets_are_big_enough() -> None:
    players = sum(len(builtin_set(name)) for name in PLAYERS_SETS)
    off_topic = sum(len(builtin_set(name)) for name in OFFTOPIC_SETS)
    assert players >= 400
    assert off_topic >= 100
    for name in PLAYERS_SETS + OFFTOPIC_SETS:
        assert len(builtin_set(name)) >= 0.3 * (players if name in PLAYERS_SETS else off_topic), name


def test_no_question_appears_twice_and_dev_and_held_out_are_disjoint() -> None:
    seen: dict[str, str] = {}
    for name in PLAYERS_SETS + OFFTOPIC_SETS + HARD_SETS:
        for item in builtin_set(name):
            key = normalise_question(item.question)
            assert key not in seen, f"{item.question!r} in {seen.get(key)} and {name}"
            seen[key] = name


def test_the_hard_dev_sets_are_big_and_cover_the_table_topics() -> None:
    """Issue 16 round 2: at least 150 hard players' questions and 40 hard off-topic ones, spread over the
    rules players hit most at the table (combat, losses, retreat, supply, range, stacking, movement, war,
    alliances, political actions, production, collapse, crises, the cup, special rules)."""
    players = builtin_set(HARD_PLAYERS)
    assert len(players) >= 150
    assert len(builtin_set(HARD_OFFTOPIC)) >= 40
    firsts = [item.sections[0] for item in players]
    table = ["10.7", "10.8", "10.10", "9.6", "7.3", "7.1", "2.2.1", "6.2", "6.1", "5.4", "6.3", "4.6"]
    table += ["5.5", "3.7.4", "3.4", "12"]
    for topic in table:
        assert any(first == topic or first.startswith(topic + ".") for first in firsts), topic
    assert len(set(firsts)) >= 80
    tags = {tag for item in _records(HARD_PLAYERS) for tag in item["tags"]}  # type: ignore[union-attr]
    assert {"situation", "slang", "typo", "long", "short"} <= tags


def test_the_split_function_reproduces_the_files() -> None:
    for name in PLAYERS_SETS + OFFTOPIC_SETS:
        side = name.split("-", 1)[1]
        wrong = [item.question for item in builtin_set(name) if split_of(item.question) != side]
        assert wrong == [], f"{name}: {wrong[:5]}"


def test_split_is_stable_and_ignores_case_and_spacing() -> None:
    assert split_of("How many flags  does Germany get") == split_of("how many flags does germany get")
    sides = {split_of(f"question number {n}") for n in range(40)}
    assert sides == {"dev", "heldout"}


@pytest.mark.skipif(not VERBATIM_CHECK.is_file(), reason="../shared/tools is not beside the repository")
def test_the_verbatim_checker_finds_nothing_in_the_eval_files(tmp_path: Path) -> None:
    for name in NEW_FILES:
        shutil.copy(EVAL_DIR / name, tmp_path / name)
    result = subprocess.run(
        [sys.executable, str(VERBATIM_CHECK), str(tmp_path)], capture_output=True, text=True, check=False
    )
    assert result.returncode == 0 and not result.stdout.strip(), result.stdout


def test_a_sub_section_answer_counts_for_its_parent_label_only() -> None:
    assert label_accepts("9.3", "9.3")
    assert label_accepts("9.3", "9.3.1")
    assert not label_accepts("9.3.1", "9.3")
    assert not label_accepts("1.1", "1.10")
    assert not label_accepts("10.0", "10.4")


class _Scripted(RulesAssistant):
    """An assistant that answers from a fixed table (no index), to pin the scoring rules."""

    def __init__(self, table: dict[str, tuple[str, ...]]) -> None:
        self.table = table

    def ask(self, question: str, top: int = 3) -> Reply:
        sections = self.table.get(question, ())[:top]
        answers = [Answer(section=number, title="", summary="", score=0.5) for number in sections]
        return Reply(question=question, answers=answers)


def test_scoring_of_on_topic_and_off_topic_sets() -> None:
    assistant = _Scripted(
        {
            "parent": ("9.3.1",),
            "second": ("2.2", "5.2"),
            "refused": (),
            "answered off-topic": ("1.1",),
        }
    )
    on_topic = [
        Item("parent", ("9.3",)),
        Item("second", ("5.2", "12.1")),
        Item("refused", ("6.3",)),
    ]
    report = evaluate(assistant, on_topic, "players", k=3)
    assert (report.total, report.top1, report.topk, report.top1_exact, report.refused) == (3, 1, 2, 0, 1)
    assert report.to_json()["false_refusal_rate"] == round(1 / 3, 4)
    off_topic = [Item("refused", (), kind="offtopic"), Item("answered off-topic", (), kind="offtopic")]
    report = evaluate(assistant, off_topic, "offtopic", k=3)
    assert report.kind == "offtopic" and report.refusal_rate == 0.5
    assert [miss.question for miss in report.misses] == ["answered off-topic"]


def test_the_command_line_names_every_bundled_set() -> None:
    assert SET_NAMES == ALL_SETS
