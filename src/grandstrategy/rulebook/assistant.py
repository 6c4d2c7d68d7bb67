"""Answer a player's rules question with the fact that answers it and the numbered Living Rules section.

One library call serves every place a player asks: ``grandstrategy rules ask``, the terminal game's
``rules <question>`` (which may pass the open decision as ``context``) and, later, the web app:

    >>> from grandstrategy.rulebook import ask
    >>> reply = ask("what is a flag")
    >>> reply.answers[0].section
    '5.2'

How a question is answered (docs/rules-assistant.md has the measurements):

1. A rule number in the question ("what does 5.5.2 say") returns that section.
2. Otherwise two rankers order the sections: BM25 over the digest, paraphrases and facts (with players'
   slang and nicknames expanded, typos corrected) and cosine similarity of static word embeddings
   (``semantic.py``); with ``--rulebook`` a third, BM25 over the user's own copy of the rules. The rankings
   are fused by reciprocal rank fusion; an exact glossary, title or term match still ranks first.
3. The reply is refused ("the rules do not seem to cover that") unless the best section shares enough of
   the question's specific words or is semantically close enough (thresholds calibrated on the dev sets).
4. Each answer carries its best-matching atomic fact from the fact base, so the reply can lead with it.
"""

from __future__ import annotations

import textwrap
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

from grandstrategy.rulebook.bm25 import Bm25Scores
from grandstrategy.rulebook.index import GENERIC_STEMS, Hit, Query, RulesIndex, load_index
from grandstrategy.rulebook.official import OfficialText, load_official
from grandstrategy.rulebook.rerank import CANDIDATES, features, new_order, shipped_reranker
from grandstrategy.rulebook.semantic import EmbeddingModel, shared_model
from grandstrategy.rulebook.text import content_words, rule_numbers, stem

DEFAULT_TOP = 3
MAX_QUESTION = 2000  # characters; the command line refuses longer questions
# Reciprocal rank fusion: a section's fused score is the sum over rankers of weight / (RRF_K + rank).
RRF_K = 10.0
LEXICAL_WEIGHT = 1.0
SEMANTIC_WEIGHT = 0.4
OFFICIAL_WEIGHT = 0.3
# Refusal. Answer when an exact phrase matched, or the best section has a BM25 score of at least MIN_BM25
# and holds at least MIN_COVERAGE of the question's specific (non-generic) words, or BM25 >= MIN_BM25_FULL
# and all of them, or its cosine is at least MIN_COSINE with MIN_COSINE_COVERAGE of the words.
# Calibrated on the players' dev set and the off-topic dev set; see docs/rules-assistant.md.
MIN_BM25 = 3.0
MIN_COVERAGE = 0.4
MIN_BM25_FULL = 2.0
MIN_COSINE = 0.4
MIN_COSINE_COVERAGE = 0.2
# A question that describes a game situation (names a place or power, or gives dice results or counts)
# and uses at least SITUATION_TERMS game words is answered with less of its wording covered: players tell
# the story around the rule they ask about ("both rolled a 4 in the fight for Hawaii, who keeps the base").
SITUATION_TERMS = 2
SITUATION_COVERAGE = 0.2
# A sub-section within the best CHILD_WINDOW - 1 behind its parent, with at least CHILD_RATIO of the parent's
# fused score, goes first.
CHILD_WINDOW = 3
CHILD_RATIO = 0.8
# With a game context (the open decision's rule), that rule moves to first if it ranks this high anyway.
CONTEXT_WINDOW = 5
# Words that only point at the situation ("what can I do here"): such a question gets the context's rule.
SITUATION_STEMS = frozenset(
    stem(word)
    for word in [
        "here",
        "now",
        "next",
        "choice",
        "choices",
        "option",
        "options",
        "decision",
        "decide",
        "prompt",
        "step",
        "allowed",
        "legal",
        "current",
        "going",
        "on",
        "choose",
        "pick",
    ]
)
OUT_OF_SCOPE = (
    "That does not look like a question about the Cataclysm rules (another game, real history, this "
    "program or everyday life), so the rules do not seem to cover it."
)
NOT_COVERED = "The rules do not seem to cover that question; try naming a rule number or a game term."


@dataclass(frozen=True)
class Answer:
    """One matching section: number, title, summary, a 0-1 score, related sections and its best fact."""

    section: str
    title: str
    summary: str
    score: float
    related: tuple[str, ...] = ()
    match: str = "search"
    passage: str | None = None
    fact: str | None = None

    def to_json(self) -> dict[str, object]:
        """The ``--json`` shape: section, title, summary, score, related, match, fact (and passage)."""
        data: dict[str, object] = {
            "section": self.section,
            "title": self.title,
            "summary": self.summary,
            "score": self.score,
            "related": list(self.related),
            "match": self.match,
            "fact": self.fact,
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

    @property
    def fact(self) -> str | None:
        """The statement that answers the question: the best answer's fact."""
        return self.answers[0].fact if self.answers else None

    def to_text(self, width: int = 100) -> str:
        """The text shape: the answering fact first, then each section with its summary and related ones."""

        def wrap(text: str, indent: str = "  ") -> str:
            return textwrap.fill(text, width=width, initial_indent=indent, subsequent_indent=indent)

        lines: list[str] = []
        if self.corrections:
            fixed = ", ".join(f"{wrong} -> {right}" for wrong, right in self.corrections.items())
            lines.append(f"(read as: {fixed})")
        if not self.answers:
            lines.append(self.note or "No answer.")
            return "\n".join(lines)
        for position, answer in enumerate(self.answers):
            if position:
                lines.append("")
            if answer.fact:
                lines.append(wrap(answer.fact, indent="" if position == 0 else "  "))
            lines.append(f"  LR {answer.section} {answer.title}  [score {answer.score:.2f}, {answer.match}]")
            lines.append(wrap(answer.summary))
            if answer.related:
                lines.append(f"  Related: {', '.join(answer.related)}")
            if answer.passage:
                lines.append("  Your rulebook:")
                lines.append(wrap(answer.passage, indent="    | "))
        return "\n".join(lines)

    def to_json(self) -> dict[str, object]:
        """``{"question", "fact", "answers": [...]}`` (plus a note when there is no answer)."""
        data: dict[str, object] = {
            "question": self.question,
            "fact": self.fact,
            "answers": [a.to_json() for a in self.answers],
        }
        if self.note:
            data["note"] = self.note
        if self.corrections:
            data["corrections"] = self.corrections
        return data


@dataclass(frozen=True)
class Ranked:
    """A section's place after fusion, with the evidence behind it."""

    hit: Hit
    fused: float
    match: str


def _ranks(values: dict[str, float]) -> dict[str, int]:
    """1-based ranks of the sections with a positive value, best first."""
    ordered = sorted((n for n, v in values.items() if v > 0), key=lambda n: -values[n])
    return {number: position + 1 for position, number in enumerate(ordered)}


class OfficialRanker:
    """BM25 over the user's own copy of the rules, one document per section (built when it is loaded)."""

    def __init__(self, official: OfficialText) -> None:
        self.numbers = sorted(official.sections)
        corpus = [
            [stem(word) for word in content_words(official.sections[number])] or ["__empty__"]
            for number in self.numbers
        ]
        self.vocabulary = {token for document in corpus for token in document}
        self.retriever = Bm25Scores.build(corpus, k1=1.2, b=0.75)

    def scores(self, query: Query) -> dict[str, float]:
        """BM25 score per section number for the query's stems."""
        tokens = [token for token in (stem(w) for w in query.words) if token in self.vocabulary]
        if not tokens:
            return {}
        values = self.retriever.get_scores(tokens)
        return {number: float(value) for number, value in zip(self.numbers, values, strict=True)}


class RulesAssistant:
    """Looks questions up in the index, optionally quoting and searching the user's own copy of the rules."""

    def __init__(self, index: RulesIndex, official: OfficialText | None = None) -> None:
        self.index = index
        self.official = official
        self._official_ranker: OfficialRanker | None = None
        self._model: EmbeddingModel | None = None
        self._model_loaded = False

    @classmethod
    def load(cls, rulebook: Path | None = None, use_cache: bool = True) -> RulesAssistant:
        """Load the cached index, and the user's rulebook text when a path is given."""
        index = load_index(use_cache=use_cache)
        official = load_official(rulebook, index.digest) if rulebook is not None else None
        return cls(index, official)

    @property
    def model(self) -> EmbeddingModel | None:
        """The embedding model, loaded on the first question (None if it cannot be loaded)."""
        if not self._model_loaded:
            self._model = shared_model() if self.index.vectors is not None else None
            self._model_loaded = True
        return self._model

    def _answer(self, number: str, score: float, match: str, question: str, query: Query) -> Answer:
        section = self.index.digest.section(number)
        assert section is not None
        passage = self.official.passage(number, question) if self.official is not None else None
        return Answer(
            section=section.number,
            title=section.title,
            summary=section.summary,
            score=max(0.001, min(1.0, round(score, 3))),
            related=section.related,
            match=match,
            passage=passage,
            fact=self.index.best_fact(number, query, self.model),
        )

    def rank(self, query: Query) -> list[Ranked]:
        """Every section with evidence, best first: exact-phrase matches, then fused rank."""
        hits = {hit.number: hit for hit in self.index.evidence(query, self.model)}
        lists: list[tuple[float, dict[str, int]]] = [
            (LEXICAL_WEIGHT, _ranks({n: h.bm25 for n, h in hits.items()})),
        ]
        if self.model is not None:
            lists.append((SEMANTIC_WEIGHT, _ranks({n: h.cosine for n, h in hits.items()})))
        if self.official is not None:
            if self._official_ranker is None:
                self._official_ranker = OfficialRanker(self.official)
            official_scores = self._official_ranker.scores(query)
            lists.append((OFFICIAL_WEIGHT, _ranks({n: s for n, s in official_scores.items() if n in hits})))
        best = sum(weight for weight, _ in lists) / (RRF_K + 1)
        fused: dict[str, float] = {}
        for weight, ranks in lists:
            for number, rank in ranks.items():
                fused[number] = fused.get(number, 0.0) + weight / (RRF_K + rank)
        ranked = [
            Ranked(hit, fused.get(number, 0.0) / best, hit.match)
            for number, hit in hits.items()
            if fused.get(number, 0.0) > 0 or hit.priority > 0
        ]
        ranked.sort(key=lambda r: (-r.hit.priority, -r.fused))
        return ranked

    @staticmethod
    def confident(best: Hit, query: Query) -> bool:
        """Whether the best section is good enough to answer with (else the question is refused).

        A question must use a game word; one that uses a single game word among other words ("who
        invented the tank") must be covered in full by the section, unless it matched a phrase exactly.
        """
        if best.priority > 0:
            return True
        asked = len(query.specific_groups()) + len(query.unknown)
        if query.game_terms == 0 or (query.game_terms == 1 and asked > 1 and best.coverage < 1.0):
            return False
        situation = bool(query.places or query.names or any(ch.isdigit() for ch in query.text))
        if (
            situation
            and query.game_terms >= SITUATION_TERMS
            and best.bm25 >= MIN_BM25
            and best.coverage >= SITUATION_COVERAGE
        ):
            return True
        return (
            (best.bm25 >= MIN_BM25 and best.coverage >= MIN_COVERAGE)
            or (best.bm25 >= MIN_BM25_FULL and best.coverage >= 1.0)
            or (best.cosine >= MIN_COSINE and best.coverage >= MIN_COSINE_COVERAGE)
        )

    @staticmethod
    def _specific_first(ranked: list[Ranked]) -> list[Ranked]:
        """A sub-section close behind its parent goes first: players ask about the specific rule (1.7.1
        Scoring rather than 1.7 How to Win), and the sub-section still answers the parent's topic."""
        if not ranked or ranked[0].hit.priority:
            return ranked
        parent = ranked[0]
        for item in ranked[1:CHILD_WINDOW]:
            if (
                item.hit.number.startswith(parent.hit.number + ".")
                and item.fused >= CHILD_RATIO * parent.fused
            ):
                return [item, *(r for r in ranked if r is not item)]
        return ranked

    def reorder(self, query: Query, ranked: list[Ranked]) -> list[Ranked]:
        """The fused ranking's best CANDIDATES re-ordered by the shipped re-ranker (``rerank.py``), or, if
        it is missing, with a close sub-section moved ahead of its parent."""
        model = shipped_reranker()
        if model is None or len(ranked) < 2:
            return self._specific_first(ranked)
        head = ranked[:CANDIDATES]
        old_first = self._specific_first(ranked)[0]
        incumbent = next((i for i, item in enumerate(head) if item is old_first), 0)
        pairs = [(r.hit, r.fused) for r in head]
        matrix = features(self.index, query, [r.hit for r in ranked], pairs)
        order = new_order(model.scores(matrix), incumbent)
        return [head[i] for i in order] + ranked[CANDIDATES:]

    def _context_sections(self, context: str | None) -> list[str]:
        if not context:
            return []
        return [n for n in dict.fromkeys(rule_numbers(context)) if self.index.digest.section(n) is not None]

    @staticmethod
    def _about_the_situation(query: Query) -> bool:
        """True when the question names nothing but the situation ("what can I do here")."""
        stems = {stem(word) for word in content_words(query.text)}
        return not query.numbers and stems <= SITUATION_STEMS | GENERIC_STEMS

    def ask(self, question: str, top: int = DEFAULT_TOP, context: str | None = None) -> Reply:
        """Answer a question: a named rule number first, else the best matching sections, else a plain no.

        ``context`` is the game's situation, e.g. the open decision's prompt naming its rule ("LR 8.0"):
        that rule ranks first when it is among the best few anyway, and answers a question that only
        points at the situation ("what can I do here").
        """
        top = max(1, top)
        reply = Reply(question=question)
        query: Query = self.index.parse(question)
        reply.corrections = dict(query.corrections)
        named = [number for number in query.numbers if self.index.digest.section(number) is not None]
        for number in dict.fromkeys(named):
            reply.answers.append(self._answer(number, 1.0, "number", question, query))
        if query.numbers and not named:
            reply.note = f"The Living Rules have no section {', '.join(query.numbers)}."
            return reply
        if len(reply.answers) >= top:
            reply.answers = reply.answers[:top]
            return reply
        in_context = self._context_sections(context)
        if in_context and not reply.answers and self._about_the_situation(query):
            for number in in_context[:top]:
                reply.answers.append(self._answer(number, 1.0, "context", question, query))
            return reply
        if query.out_of_scope and not reply.answers:
            reply.note = OUT_OF_SCOPE
            return reply
        ranked = self.rank(query)
        if not ranked or not self.confident(ranked[0].hit, query):
            if not reply.answers:
                reply.note = NOT_COVERED
            return reply
        ranked = self.reorder(query, ranked)
        # The situation's rule goes first when it ranks among the best few anyway, but never ahead of an
        # exact glossary, title or term match for another section.
        if in_context and not ranked[0].hit.priority:
            window = [r.hit.number for r in ranked[:CONTEXT_WINDOW]]
            chosen = next((n for n in in_context if n in window), None)
            if chosen is not None:
                first = next(r for r in ranked if r.hit.number == chosen)
                ranked.remove(first)
                ranked.insert(
                    0, Ranked(first.hit, max(first.fused, ranked[0].fused if ranked else 0), "context")
                )
        seen = {answer.section for answer in reply.answers}
        previous = 1.0
        for item in ranked:
            if item.hit.number in seen:
                continue
            # Shown score: the fused rank, scaled by how much of the question the section covers.
            confidence = item.fused * (0.5 + 0.5 * item.hit.coverage)
            score = 1.0 if item.hit.priority else min(previous, confidence)
            previous = score
            reply.answers.append(self._answer(item.hit.number, score, item.match, question, query))
            if len(reply.answers) >= top:
                break
        return reply


@lru_cache(maxsize=1)
def default_assistant() -> RulesAssistant:
    """One shared assistant for library callers, loaded on first use."""
    return RulesAssistant.load()


def ask(question: str, top: int = DEFAULT_TOP, context: str | None = None) -> Reply:
    """The full reply to a question (fact, answers, note); ``context`` is the game's situation."""
    return default_assistant().ask(question, top, context)


def answer(question: str, top: int = DEFAULT_TOP, context: str | None = None) -> list[Answer]:
    """The best matching Living Rules sections for a question, best first; empty if not covered."""
    return ask(question, top, context).answers
