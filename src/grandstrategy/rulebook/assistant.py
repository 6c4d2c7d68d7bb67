"""Answer a player's rules question with the numbered Living Rules section and a short summary.

Library entry point for the command line and, later, the terminal game (``rules <question>`` at a prompt):

    >>> from grandstrategy.rulebook import answer
    >>> answer("what is a flag")[0].section
    '5.2'
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

from grandstrategy.rulebook.index import Hit, Query, RulesIndex, load_index
from grandstrategy.rulebook.official import OfficialText, load_official

DEFAULT_TOP = 3
# Refuse (say the rules do not cover it) unless an exact phrase matched, or the best section has a BM25
# score of at least MIN_BM25 and holds at least MIN_COVERAGE of the question's specific (non-generic)
# words. Chosen on the development set and the off-topic questions in tests/rulebook; see
# docs/rules-assistant.md.
MIN_BM25 = 3.0
MIN_COVERAGE = 0.5
MIN_BM25_FULL_COVERAGE = 2.0  # ...or every specific word of the question is in the section
SCORE_SCALE = 10.0
KEYED_BONUS = 10.0


@dataclass(frozen=True)
class Answer:
    """One matching section: rule number, title, the project's summary, a 0-1 score and related sections."""

    section: str
    title: str
    summary: str
    score: float
    related: tuple[str, ...] = ()
    match: str = "search"
    passage: str | None = None

    def to_json(self) -> dict[str, object]:
        """The ``--json`` shape: section, title, summary, score (plus related, match and passage)."""
        data: dict[str, object] = {
            "section": self.section,
            "title": self.title,
            "summary": self.summary,
            "score": self.score,
            "related": list(self.related),
            "match": self.match,
        }
        if self.passage is not None:
            data["passage"] = self.passage
        return data


@dataclass
class Reply:
    """Everything about one question: the answers, best first, and why there may be none."""

    question: str
    answers: list[Answer] = field(default_factory=list)
    note: str | None = None
    corrections: dict[str, str] = field(default_factory=dict)

    def to_json(self) -> dict[str, object]:
        """``{"question": ..., "answers": [...]}`` (plus a note when there is no answer)."""
        data: dict[str, object] = {"question": self.question, "answers": [a.to_json() for a in self.answers]}
        if self.note:
            data["note"] = self.note
        if self.corrections:
            data["corrections"] = self.corrections
        return data


def _score(value: float) -> float:
    return round(1.0 - math.exp(-value / SCORE_SCALE), 3)


class RulesAssistant:
    """Looks questions up in the digest index, optionally quoting the user's own copy of the rules."""

    def __init__(self, index: RulesIndex, official: OfficialText | None = None) -> None:
        self.index = index
        self.official = official

    @classmethod
    def load(cls, rulebook: Path | None = None, use_cache: bool = True) -> RulesAssistant:
        """Load the cached index, and the user's rulebook text when a path is given."""
        index = load_index(use_cache=use_cache)
        official = load_official(rulebook, index.digest) if rulebook is not None else None
        return cls(index, official)

    def _answer(self, number: str, raw: float, match: str, question: str) -> Answer:
        section = self.index.digest.section(number)
        assert section is not None
        passage = self.official.passage(number, question) if self.official is not None else None
        return Answer(
            section=section.number,
            title=section.title,
            summary=section.summary,
            score=_score(raw),
            related=section.related,
            match=match,
            passage=passage,
        )

    def ask(self, question: str, top: int = DEFAULT_TOP) -> Reply:
        """Answer a question: a named rule number first, else the best matching sections, else a plain no."""
        top = max(1, top)
        reply = Reply(question=question)
        query: Query = self.index.parse(question)
        reply.corrections = dict(query.corrections)
        named = [number for number in query.numbers if self.index.digest.section(number) is not None]
        for number in dict.fromkeys(named):
            reply.answers.append(self._answer(number, 2 * KEYED_BONUS, "number", question))
        if query.numbers and not named:
            reply.note = f"The Living Rules have no section {', '.join(query.numbers)}."
            return reply
        if len(reply.answers) >= top:
            reply.answers = reply.answers[:top]
            return reply
        hits: list[Hit] = self.index.search(query, top + len(reply.answers))
        confident = bool(hits) and (
            hits[0].priority > 0
            or (hits[0].bm25 >= MIN_BM25 and hits[0].coverage >= MIN_COVERAGE)
            or (hits[0].bm25 >= MIN_BM25_FULL_COVERAGE and hits[0].coverage >= 1.0)
        )
        if not confident and not reply.answers:
            reply.note = (
                "The rules do not seem to cover that question; try naming a rule number or a game term."
            )
            return reply
        if confident:
            seen = {answer.section for answer in reply.answers}
            for hit in hits:
                if hit.number in seen:
                    continue
                raw = hit.bm25 + (KEYED_BONUS if hit.priority else 0.0)
                reply.answers.append(self._answer(hit.number, raw, hit.match, question))
                if len(reply.answers) >= top:
                    break
        return reply


@lru_cache(maxsize=1)
def default_assistant() -> RulesAssistant:
    """One shared assistant for library callers, loaded on first use."""
    return RulesAssistant.load()


def answer(question: str, top: int = DEFAULT_TOP) -> list[Answer]:
    """The best matching Living Rules sections for a question, best first; empty if not covered."""
    return default_assistant().ask(question, top).answers
