"""Questions as players ask them: the fact base, nicknames and slang, the semantic model, game context.

The player questions here are the project's own (not from the dev or held-out sets in data/eval).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from grandstrategy.core.errors import DataError
from grandstrategy.rulebook.assistant import OfficialRanker, RulesAssistant
from grandstrategy.rulebook.cli import app
from grandstrategy.rulebook.digest import load_digest
from grandstrategy.rulebook.facts import (
    FACTS_RESOURCE,
    data_bytes,
    parse_facts,
    parse_vocabulary,
)
from grandstrategy.rulebook.index import RulesIndex
from grandstrategy.rulebook.official import load_official

DECISION = "military action (2 left; LR 8.0)"


def numbers() -> set[str]:
    return {section.number for section in load_digest().sections}


def test_every_section_has_a_paraphrase_and_facts_and_every_fact_a_real_section() -> None:
    known = numbers()
    base = parse_facts(data_bytes(FACTS_RESOURCE), known)
    assert set(base.paraphrases) == known
    assert {fact.section for fact in base.facts} == known
    assert all(fact.section in known and fact.text for fact in base.facts)
    # The big sections are broken into several facts, not one.
    for big in ("4.1", "5.5.2", "6.2", "7.1.1", "10.4", "10.7"):
        assert len(base.of(big)) >= 3, big


def test_fact_base_errors_are_data_errors() -> None:
    known = numbers()
    with pytest.raises(DataError, match=r"unknown section 13\.1"):
        parse_facts(b'sections:\n  "13.1": {paraphrase: x, facts: [y]}\n', known)
    with pytest.raises(DataError, match="non-empty list of facts"):
        parse_facts(b'sections:\n  "5.2": {paraphrase: x, facts: []}\n', known)
    with pytest.raises(DataError, match="needs a paraphrase"):
        parse_facts(b'sections:\n  "5.2": {facts: [y]}\n', known)
    with pytest.raises(DataError, match="places"):
        parse_vocabulary(b"places: moscow\n")


@pytest.mark.parametrize(
    ("question", "section", "fact_words"),
    [
        # LR 1.4 and LR 2.9 both say the cup is hidden (2.9: no inspecting it but for Sudden Death).
        ("can i peek at what's left in the bag", "1.4|2.9", ["cup"]),
        ("brits want to make a deal with me, do i have to keep my word", "1.5", ["negotiate"]),
        ("how far can my bombers fly from base", "7.3.2", ["strategic", "two"]),
        # LR 6.2 states the bar; the US-Japan Trade rule itself (12.2.2 in the digest and the LR index) too.
        ("can the yanks declare war on japan while they still trade", "6.2|12.2.2", ["us-japan trade"]),
        ("what do i need to roll to pass a check", "5.3", ["5 or more"]),
        ("when does the game end", "1.6", ["game ends"]),
        ("what happens when the fourth crisis comes out", "3.7.5", ["sudden death"]),
        ("can japan sneak attack the americans", "9.8", ["surprise attack"]),
        ("how much does a battleship cost to build", "4.6", ["surface fleets cost 2"]),
        ("does a tie let me retreat", "10.7", ["tie"]),
        ("can i keep a chit for later", "3.4", ["reserve"]),
    ],
)
def test_player_questions_get_the_section_first_and_the_fact(
    assistant: RulesAssistant, question: str, section: str, fact_words: list[str]
) -> None:
    reply = assistant.ask(question)
    assert reply.answers, reply.note
    assert reply.answers[0].section in section.split("|"), [a.section for a in reply.answers]
    assert reply.fact is not None and reply.fact == reply.answers[0].fact
    assert any(word in reply.fact.lower() for word in fact_words), reply.fact
    # The fact belongs to the section it is shown with.
    assert reply.fact in [fact.text for fact in assistant.index.facts.of(reply.answers[0].section)]


@pytest.mark.parametrize(
    ("question", "section", "answer_words"),
    [
        # Issue 16's own examples of table talk (not in any eval set): a situation, slang, no rule term.
        ("how many armies can I cram into Leningrad?", "7.1.1", ("2 land units",)),
        ("we both rolled a 4 in the fight for Hawaii, who keeps the base?", "10.7", ("same", "one loss")),
        ("what is the most fleets I can park in the North Sea?", "7.1.2", ("1 naval unit", "logistics")),
        ("can the commies attack poland before the pact", "9.7", ()),
        ("my dice suck, can i reroll a diplomacy fail", "5.4", ()),
        # Running out of stability is a collapse (5.5.2); what then happens to the power is 5.5.3.
        ("what happens when adolf runs out of stability", "5.5.2|5.5.3", ()),
    ],
)
def test_table_talk_gets_the_rule_first(
    assistant: RulesAssistant, question: str, section: str, answer_words: tuple[str, ...]
) -> None:
    """A question full of the situation (places, dice, nicknames, slang) is answered, not refused, and
    with the rule it is about first: a tie is a combat result, cram/park are occupation limits, no pact
    is needed to attack a country, nothing is rerolled, stability running out is a collapse."""
    reply = assistant.ask(question)
    assert reply.answers, reply.note
    assert reply.answers[0].section in section.split("|"), [a.section for a in reply.answers]
    # The reply leads with a fact that responds to what was asked (the limit, who keeps the area).
    assert reply.fact is not None
    assert all(words in reply.fact for words in answer_words), reply.fact


def test_a_game_situation_is_not_refused_but_history_still_is(assistant: RulesAssistant) -> None:
    """Dice results, places and nicknames mark a question as being about a game in progress; the same
    names in a real-history question do not save it from refusal."""
    assert assistant.ask("my score was 5 vs his 3 in the fight for kiev, is that 1 loss or 2").answers
    assert assistant.ask("did hitler really plan to invade england").answers == []
    assert assistant.ask("how many tanks did the germans have at kursk").answers == []
    query = assistant.index.parse("both got a 6 in 1941 at smolensk")
    assert not query.unknown  # a year and a dice result are not unknown words
    assert all(not group <= {"6", "1941"} for group in query.specific_groups())


def test_nicknames_and_slang_expand_to_game_words(assistant: RulesAssistant) -> None:
    query = assistant.index.parse("can the reds attack the nazis")
    assert {"soviet", "union", "germany"} <= set(query.expansions)
    assert not query.unknown
    assert "soviet" in assistant.index.parse("what does uncle joe get").expansions  # a two-word nickname
    assert "united" in assistant.index.parse("the yanks").expansions
    cram = assistant.index.parse("how many tanks can i cram here")
    assert {"occupation", "limit"} <= set(cram.words)
    # Map names are understood (not unknown words that look off-topic) without being searched for.
    moscow = assistant.index.parse("can i attack moscow from smolensk")
    assert moscow.places == ["moscow", "smolensk"] and not moscow.unknown


@pytest.mark.parametrize(
    "question",
    [
        "in chess can a pawn move backwards",
        "what was the weather like during the winter of 1941 in real life",
        "how do I install the python package on my laptop",
        "what is a good recipe for apple pie",
        "how do i shuffle cards",  # one game word among others, not covered: refused
        "what time does the shop close",
    ],
)
def test_off_topic_questions_are_refused(assistant: RulesAssistant, question: str) -> None:
    reply = assistant.ask(question)
    assert reply.answers == [] and reply.fact is None
    assert reply.note and "not" in reply.note


def test_game_context_answers_a_question_about_the_situation(assistant: RulesAssistant) -> None:
    here = assistant.ask("what can I do here", context=DECISION)
    assert [(a.section, a.match) for a in here.answers] == [("8.0", "context")]
    assert here.fact
    assert assistant.ask("what can I do here").answers == []  # no context: nothing to point at
    # The context does not answer an off-topic question or displace an exact term match.
    assert assistant.ask("how do I bake a cake", context=DECISION).answers == []
    assert assistant.ask("what is augmentation", context=DECISION).answers[0].section == "8.2"


def test_game_context_ranks_its_rule_first_when_relevant(assistant: RulesAssistant) -> None:
    question = "what can I spend military actions on"
    without = [a.section for a in assistant.ask(question, top=5).answers]
    assert "8.0" in without
    with_context = assistant.ask(question, top=5, context=DECISION).answers
    assert with_context[0].section == "8.0" and with_context[0].match == "context"
    # A context rule that has nothing to do with the question is ignored.
    unrelated = assistant.ask("how far can my bombers fly from base", context="LR 11.4.6")
    assert unrelated.answers[0].section == "7.3.2"


def test_json_and_text_lead_with_the_fact() -> None:
    runner = CliRunner()
    result = runner.invoke(app, ["ask", "how far can my bombers fly from base", "--json", "--top", "1"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["fact"] == data["answers"][0]["fact"]
    assert "strategic air forces two" in data["fact"]
    result = runner.invoke(app, ["ask", "how far can my bombers fly from base", "--top", "1"])
    lines = result.output.splitlines()
    assert "strategic air forces two" in lines[0]
    assert lines[1].strip().startswith("LR 7.3.2 Air Range")
    context = runner.invoke(app, ["ask", "what now", "--context", DECISION, "--top", "1", "--json"])
    assert json.loads(context.output)["answers"][0]["section"] == "8.0"


def test_an_overlong_question_is_one_clear_error() -> None:
    result = CliRunner().invoke(app, ["ask", "flag " * 500])
    assert result.exit_code != 0
    assert "too long" in str(result.exception)


def test_the_semantic_model_loads_offline(tmp_path: Path) -> None:
    """The model ships in the wordllama wheel: it loads with no network and an empty home directory."""
    script = (
        "from grandstrategy.rulebook.semantic import EmbeddingModel\n"
        "m = EmbeddingModel.load()\n"
        "v = m.embed(['naval fleet at sea', 'ships in the ocean', 'bake a chocolate cake'])\n"
        "print(v.shape[0], v.shape[1], float(v[0] @ v[1]) > float(v[0] @ v[2]))\n"
    )
    env = {
        key: value
        for key, value in os.environ.items()
        if not key.startswith(("HF_", "HUGGINGFACE", "XDG_", "HTTP", "HOME"))
    }
    env.update(
        HF_HUB_OFFLINE="1",
        TRANSFORMERS_OFFLINE="1",
        HOME=str(tmp_path),
        XDG_CACHE_HOME=str(tmp_path / "cache"),
        HTTPS_PROXY="http://127.0.0.1:9",  # any attempt to reach the network fails at once
        HTTP_PROXY="http://127.0.0.1:9",
    )
    result = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, env=env, check=False
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["3", "256", "True"]
    assert not any(tmp_path.rglob("*.safetensors"))  # nothing was downloaded into the empty home


def test_the_index_carries_vectors_for_every_section(assistant: RulesAssistant) -> None:
    index = assistant.index
    assert index.vectors is not None
    assert set(index.vector_owner) == {section.number for section in index.digest.sections}
    assert index.vectors.shape[0] == len(index.vector_owner)


def test_without_the_model_the_assistant_falls_back_to_bm25(assistant: RulesAssistant) -> None:
    lexical = RulesIndex(assistant.index.digest, assistant.index.facts, assistant.index.vocabulary_map)
    assert lexical.vectors is None
    fallback = RulesAssistant(lexical)
    assert fallback.model is None
    reply = fallback.ask("how far can my bombers fly from base")
    assert reply.answers[0].section == "7.3.2" and reply.fact
    assert fallback.ask("how do I bake a cake").answers == []


def test_the_users_rulebook_joins_the_ranking(assistant: RulesAssistant, living_rules: Path) -> None:
    official = load_official(living_rules, assistant.index.digest)
    ranker = OfficialRanker(official)
    scores = ranker.scores(assistant.index.parse("how far can strategic air forces reach"))
    assert max(scores, key=lambda number: scores[number]).startswith("7.3")
    with_text = RulesAssistant(assistant.index, official)
    first = with_text.ask("how far can my bombers fly from base").answers[0]
    assert first.section == "7.3.2" and first.fact and first.passage


def test_a_sub_section_close_behind_its_parent_answers_first(assistant: RulesAssistant) -> None:
    query = assistant.index.parse("how do victory points get counted")
    fused = [item.hit.number for item in assistant.rank(query)[:3]]
    assert fused[:2] == ["1.7", "1.7.1"]  # the parent ranks first on its own...
    assert (
        assistant.ask("how do victory points get counted").answers[0].section == "1.7.1"
    )  # ...not shown first
