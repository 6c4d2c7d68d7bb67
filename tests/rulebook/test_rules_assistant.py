"""Answering questions: rule numbers, glossary terms, players' words, typos, refusals, the official text."""

from __future__ import annotations

import json
import pickle
from pathlib import Path

import pytest
from click.testing import CliRunner

from grandstrategy.cli import main
from grandstrategy.core.errors import UserInputError
from grandstrategy.rulebook import answer
from grandstrategy.rulebook.assistant import RulesAssistant
from grandstrategy.rulebook.cli import app
from grandstrategy.rulebook.digest import load_digest
from grandstrategy.rulebook.index import RulesIndex, load_index
from grandstrategy.rulebook.official import load_official, parse_official

OFF_TOPIC = [
    "how do I bake a cake",
    "who won the world cup in 1998",
    "what is the best pizza",
    "how do paratroopers work",
    "is chess better than go",
    "what is the meaning of life",
    "what time is it",
    "how tall is mount everest",
    "recommend a good movie",
    "how do I install python on windows",
    "what is the population of brazil",
    "write me a poem about cats",
    "what is the weather tomorrow",
    "how do I fix my car engine",
    "who is the president of france",
    "how many calories in an apple",
    "what is the speed of light",
]


def top(assistant: RulesAssistant, question: str) -> str | None:
    answers = assistant.ask(question).answers
    return answers[0].section if answers else None


@pytest.mark.parametrize(
    ("question", "section"),
    [
        ("what does 5.5.2 say", "5.5.2"),
        ("rule 10.7", "10.7"),
        ("explain section 2.3.10 please", "2.3.10"),
        ("12.3.1", "12.3.1"),
    ],
)
def test_a_named_rule_number_returns_that_section(
    assistant: RulesAssistant, question: str, section: str
) -> None:
    reply = assistant.ask(question)
    assert reply.answers[0].section == section
    assert reply.answers[0].match == "number"


def test_an_unknown_rule_number_says_so(assistant: RulesAssistant) -> None:
    reply = assistant.ask("what does 13.2 say")
    assert reply.answers == []
    assert reply.note is not None and "13.2" in reply.note


@pytest.mark.parametrize(
    ("question", "section"),
    [
        ("what is a flag", "5.2"),
        ("what is the cup", "2.9"),
        ("what are chits", "2.4"),
        ("what is a DOW", "6.2"),
        ("what is an EC", "5.3"),
        ("what does HF mean", "3.7.6"),
        ("what is a LOC", "4.3"),
        ("what is the stresa front", "12.1"),
        ("what is armor superiority", "10.4"),
        ("what is sudden death", "3.7.5"),
        ("what happens when a power folds", "5.5.2"),
        ("how many units can I stack in an area", "7.1"),
        ("can I attack a neutral country without declaring war", "9.7"),
        ("what happens when the US drops the atomic bomb", "12.2.2"),
    ],
)
def test_glossary_terms_and_players_words(assistant: RulesAssistant, question: str, section: str) -> None:
    assert top(assistant, question) == section


@pytest.mark.parametrize(
    ("question", "section", "typo"),
    [
        ("what is a flagg", "5.2", "flagg"),
        ("how does diplomcy work", "6.3", "diplomcy"),
        ("sudden deth", "3.7.5", "deth"),
        ("what is the acton cup", "2.9", "acton"),
        ("escalaton", "6.4", "escalaton"),
        ("how do idealogies work", "1.1", "idealogies"),
    ],
)
def test_typos_are_tolerated(assistant: RulesAssistant, question: str, section: str, typo: str) -> None:
    reply = assistant.ask(question)
    assert reply.answers[0].section == section
    assert typo in reply.corrections


@pytest.mark.parametrize("question", OFF_TOPIC)
def test_off_topic_questions_are_refused(assistant: RulesAssistant, question: str) -> None:
    reply = assistant.ask(question)
    assert reply.answers == [], [a.section for a in reply.answers]
    assert reply.note and "do not seem to cover" in reply.note


def test_top_k_and_related(assistant: RulesAssistant) -> None:
    answers = assistant.ask("how does naval combat work", top=5).answers
    assert len(answers) == 5
    assert answers[0].section == "10.5"
    assert answers[0].related
    assert [a.score for a in answers] == sorted((a.score for a in answers), reverse=True)
    assert all(0 < a.score <= 1 for a in answers)


def test_library_answer_for_the_terminal_game() -> None:
    answers = answer("what is a flag", top=1)
    assert [a.section for a in answers] == ["5.2"]
    assert answer("how do I bake a cake") == []


def test_json_shape() -> None:
    result = CliRunner().invoke(app, ["ask", "what is a flag", "--json", "--top", "2"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["question"] == "what is a flag"
    assert len(data["answers"]) == 2
    first = data["answers"][0]
    assert {"section", "title", "summary", "score"} <= set(first)
    assert first["section"] == "5.2" and first["title"] == "Flags"
    assert isinstance(first["score"], float)


def test_text_output_and_refusal() -> None:
    runner = CliRunner()
    result = runner.invoke(app, ["ask", "what", "is", "a", "flag", "--top", "1"])
    assert result.exit_code == 0
    first, second = result.output.splitlines()[:2]
    assert "flag" in first.lower()  # the reply leads with the answering fact...
    assert second.strip().startswith("LR 5.2 Flags")  # ...then the section
    result = runner.invoke(app, ["ask", "how do I bake a cake"])
    assert result.exit_code == 0
    assert "do not seem to cover" in result.output


def test_rulebook_passage_is_shown(assistant: RulesAssistant, living_rules: Path) -> None:
    official = load_official(living_rules, assistant.index.digest)
    assert len(official.sections) >= 190
    with_text = RulesAssistant(assistant.index, official)
    first = with_text.ask("what does 5.5.2 say").answers[0]
    assert first.section == "5.5.2"
    assert first.passage and "collapse" in first.passage.lower()
    numbered = with_text.ask("how many losses does the loser take in combat").answers[0]
    assert numbered.section == "10.7"
    assert numbered.passage and "loss" in numbered.passage.lower()


def test_rulebook_option_on_the_command_line(living_rules: Path) -> None:
    result = CliRunner().invoke(app, ["ask", "what is 2.3.7", "--rulebook", str(living_rules), "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["answers"][0]["section"] == "2.3.7"
    assert "fist" in data["answers"][0]["passage"]


def test_markdown_rulebook_headings() -> None:
    digest = load_digest()
    text = (
        "1.0 Table of Contents\n5.5.2 Collapse\t18\n\n"
        "## 5.5.2 Collapse\nBody of collapse.\n\n### 5.5.3 Collapse Procedure\nSteps.\n"
    )
    official = parse_official(text, digest)
    assert official.sections["5.5.2"] == "Body of collapse."
    assert official.passage("5.5.3") == "Steps."
    assert official.passage("1.1") is None


def test_rulebook_errors_are_user_errors(tmp_path: Path) -> None:
    digest = load_digest()
    with pytest.raises(UserInputError):
        load_official(tmp_path / "missing.txt", digest)
    empty = tmp_path / "notes.md"
    empty.write_text("no rules here\n", encoding="utf-8")
    with pytest.raises(UserInputError):
        load_official(empty, digest)
    broken = tmp_path / "rules.pdf"
    broken.write_bytes(b"not a pdf at all")
    with pytest.raises(UserInputError):
        load_official(broken, digest)


def test_main_cli_turns_errors_into_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["rules", "ask", "what is a flag", "--rulebook", str(tmp_path / "nope.txt")])
    assert exit_info.value.code == 2
    err = capsys.readouterr().err
    assert err.startswith("error: rulebook file not found") and err.count("\n") == 1


def test_index_is_cached_and_rebuilt_when_damaged(private_cache: Path) -> None:
    load_index()
    cached = sorted(private_cache.glob("rules-index-*.pickle"))
    assert cached
    with cached[0].open("rb") as handle:
        assert isinstance(pickle.load(handle), RulesIndex)
    cached[0].write_bytes(b"garbage")
    index = load_index()
    assert isinstance(index, RulesIndex)
    with cached[0].open("rb") as handle:
        assert isinstance(pickle.load(handle), RulesIndex)
