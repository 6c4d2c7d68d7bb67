"""The search index: BM25 (bm25s) and semantic vectors over the digest, the paraphrases and the fact base.

Each section becomes one lexical document built from its title (weighted x3), key terms, players' vocabulary
and glossary terms (x2), summary, paraphrase and facts (x1). A question is cut to its content words; players'
abbreviations and nicknames are expanded (DOW -> declaration of war, reds -> soviet union, "uncle joe" ->
soviet union), unknown words are corrected to the nearest index word with rapidfuzz, and the stems plus
neighbour pairs are scored with BM25. A question whose content words exactly name a glossary term, a section
title, a key term or a vocabulary phrase ranks that section first.

For the semantic ranker every section also has vectors (title plus summary, paraphrase, each fact) from the
static embedding model in ``semantic.py``; a section's semantic score is its best cosine. The vectors are
computed when the index is built; only the question is embedded at run time.

The built index is pickled into the user's cache directory keyed by the data files' content hash, so a cold
``grandstrategy rules ask`` only unpickles it.
"""

from __future__ import annotations

import importlib.util
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from grandstrategy.rulebook.bm25 import Bm25Scores
from grandstrategy.rulebook.cache import cache_dir, read_pickle, write_pickle
from grandstrategy.rulebook.digest import Digest, Section, digest_bytes, fingerprint, parse_digest
from grandstrategy.rulebook.facts import (
    BRIEF_TERMS_RESOURCE,
    CONCORDANCE_RESOURCE,
    FACTS_RESOURCE,
    VOCABULARY_RESOURCE,
    Concordance,
    FactBase,
    Vocabulary,
    data_bytes,
    parse_brief_terms,
    parse_concordance,
    parse_facts,
    parse_vocabulary,
)
from grandstrategy.rulebook.semantic import EmbeddingModel, Vectors, shared_model
from grandstrategy.rulebook.text import (
    STOP_WORDS,
    content_words,
    key,
    rule_numbers,
    stem,
    with_bigrams,
    words,
)

INDEX_FORMAT = 5
TITLE_WEIGHT = 3
TERM_WEIGHT = 2
SUMMARY_WEIGHT = 1
PARAPHRASE_WEIGHT = 1
FACT_WEIGHT = 1
BRIEF_WEIGHT = 1  # the rules brief's words about the section (brief_terms.yaml), single words only
SEMANTIC_TOP = 2
# Power names and nicknames count for BM25 at this fraction: they matter for the power's own rules
# (12.x) but should not pull every question that names a power to LR 1.1.
NAME_WEIGHT = 0.5
FUZZY_CUTOFF = 85.0
FUZZY_MIN_LENGTH = 4

# How a keyed (exact phrase) match ranks: higher first; plain BM25 hits are 0.
PRIORITY_GLOSSARY = 4
PRIORITY_TITLE = 3
PRIORITY_TERM = 2
PRIORITY_VOCAB = 2
# Words too general to show that a question is about the rules ("how much does the game cost").
GENERIC_STEMS = frozenset(
    stem(word)
    for word in [
        "game",
        "games",
        "play",
        "playing",
        "player",
        "players",
        "time",
        "times",
        "many",
        "much",
        "good",
        "best",
        "happen",
        "happens",
        "happened",
        "need",
        "new",
        "thing",
        "things",
        "way",
        "like",
        "use",
        "using",
        "used",
        "not",
        "no",
        "yes",
        "get",
        "still",
        "just",
        "one",
    ]
)
MATCH_NAMES = {PRIORITY_GLOSSARY: "glossary", PRIORITY_TITLE: "title", PRIORITY_TERM: "term", 0: "search"}


@dataclass(frozen=True)
class Hit:
    """One ranked section for a question: its lexical and semantic evidence."""

    number: str
    bm25: float
    priority: int
    coverage: float = 0.0
    cosine: float = 0.0

    @property
    def match(self) -> str:
        """How the section was found: glossary, title, term or search."""
        return MATCH_NAMES.get(self.priority, "term")


@dataclass
class Query:
    """A question after normalisation: what was searched and how much of it the index knew."""

    text: str
    words: list[str]
    literal: list[str] = field(default_factory=list)
    corrections: dict[str, str] = field(default_factory=dict)
    unknown: list[str] = field(default_factory=list)
    stems: list[str] = field(default_factory=list)
    numbers: list[str] = field(default_factory=list)
    # One entry per understood word as typed: the stems that stand for it (itself plus its expansion).
    groups: list[frozenset[str]] = field(default_factory=list)
    expansions: list[str] = field(default_factory=list)
    places: list[str] = field(default_factory=list)
    names: list[str] = field(default_factory=list)
    vector: Vectors | None = None  # the semantic text's embedding, computed once per question
    similarities: Vectors | None = None  # cosine of the question with every vector row of the index
    name_words: int = 0  # typed words whose meaning went into ``names`` (each may stand for several)
    game_terms: int = 0  # how many of the specific words are game words (titles, terms, slang, powers)
    out_of_scope: list[str] = field(default_factory=list)

    @property
    def known_fraction(self) -> float:
        """Share of content words the index recognises (after correction)."""
        total = len(self.groups) + len(self.unknown)
        return 1.0 if total == 0 else len(self.groups) / total

    @property
    def semantic_text(self) -> str:
        """What the semantic ranker embeds: the question plus the game words its slang stands for."""
        typed = [self.corrections.get(word, word) for word in words(self.text)]  # typos fixed
        return _semantic_text(" ".join([*typed, *self.expansions]))

    def specific_groups(self) -> list[frozenset[str]]:
        """Groups that say what the question is about: not generic words like 'game' or 'time', and not
        bare numbers (dice results and counts describe the situation, not the rule asked about)."""
        return [
            group
            for group in self.groups
            if not group <= GENERIC_STEMS and not all(token.isdigit() for token in group)
        ]


def _rows_by_section(numbers: list[str], owners: list[str]) -> Any:
    """An int matrix: for each section (in ``numbers`` order) the rows it owns, padded with -1."""
    import numpy as np

    rows: dict[str, list[int]] = {number: [] for number in numbers}
    for row, owner in enumerate(owners):
        rows[owner].append(row)
    width = max((len(found) for found in rows.values()), default=1)
    matrix = np.full((len(numbers), max(width, 1)), -1, dtype=np.int64)
    for position, number in enumerate(numbers):
        matrix[position, : len(rows[number])] = rows[number]
    return matrix


def _semantic_text(text: str) -> str:
    """Content words only: question scaffolding ("what", "can I") would dilute a mean of word vectors."""
    return " ".join(content_words(text)) or text


def _phrase_tokens(phrase: str) -> list[str]:
    return with_bigrams([stem(word) for word in content_words(phrase)])


def _brief_tokens(text: str) -> list[str]:
    """The rules brief's words about a section (single stems, BRIEF_WEIGHT times)."""
    return [stem(word) for word in content_words(text)] * BRIEF_WEIGHT


def _section_document(
    section: Section, glossary_terms: list[str], paraphrase: str, facts: list[str]
) -> list[str]:
    tokens: list[str] = []
    for _ in range(TITLE_WEIGHT):
        tokens += _phrase_tokens(section.title)
    for phrase in (*section.terms, *section.vocab, *glossary_terms):
        for _ in range(TERM_WEIGHT):
            tokens += _phrase_tokens(phrase)
    for _ in range(SUMMARY_WEIGHT):
        tokens += _phrase_tokens(section.summary)
    for _ in range(PARAPHRASE_WEIGHT):
        tokens += _phrase_tokens(paraphrase)
    for text in facts:
        for _ in range(FACT_WEIGHT):
            tokens += _phrase_tokens(text)
    return tokens or ["__empty__"]


class RulesIndex:
    """BM25 and semantic vectors over the sections, exact-phrase keys, and the words for typo correction."""

    def __init__(
        self,
        digest: Digest,
        facts: FactBase,
        vocabulary: Vocabulary,
        model: EmbeddingModel | None = None,
        concordance: Concordance | None = None,
        brief_terms: dict[str, str] | None = None,
    ) -> None:
        self.digest = digest
        self.facts = facts
        self.vocabulary_map = vocabulary
        self.numbers = [section.number for section in digest.sections]
        by_section: dict[str, list[str]] = {number: [] for number in self.numbers}
        for term, number in digest.glossary.items():
            by_section[number].append(term)
        corpus = [
            _section_document(
                s,
                by_section[s.number],
                facts.paraphrases.get(s.number, ""),
                [fact.text for fact in facts.of(s.number)],
            )
            for s in digest.sections
        ]
        self.retriever = Bm25Scores.build(corpus, k1=1.2, b=0.75)
        # The same documents plus the rules brief's words about each section, for the re-ranker only: the
        # first ranking and the refusal stay on the curated digest and fact base.
        brief = [_brief_tokens((brief_terms or {}).get(s.number, "")) for s in digest.sections]
        self.briefed = Bm25Scores.build([d + b for d, b in zip(corpus, brief, strict=True)], k1=1.2, b=0.75)
        self.vocabulary: set[str] = {token for document in corpus for token in document}
        self.documents: list[frozenset[str]] = [frozenset(document) for document in corpus]
        # What the re-ranker (rerank.py) compares a question with, per section in index order: the title's
        # stems, the stems of its terms, players' words and glossary terms, and the document's length.
        self.position: dict[str, int] = {number: i for i, number in enumerate(self.numbers)}
        self.title_stems: list[frozenset[str]] = [
            frozenset(stem(word) for word in content_words(s.title)) for s in digest.sections
        ]
        self.term_stems: list[frozenset[str]] = [
            frozenset(
                stem(word)
                for phrase in (*s.terms, *s.vocab, *by_section[s.number])
                for word in content_words(phrase)
            )
            for s in digest.sections
        ]
        self.document_lengths: list[int] = [len(document) for document in corpus]
        self.unit_stems: frozenset[str] = frozenset(stem(word) for word in vocabulary.units)
        self.fact_rows: dict[str, list[int]] = {}
        for row, fact in enumerate(facts.facts):
            self.fact_rows.setdefault(fact.section, []).append(row)
        self.fact_stems: list[frozenset[str]] = [
            frozenset(stem(word) for word in content_words(fact.text)) for fact in facts.facts
        ]
        # Typos are corrected towards game vocabulary only (titles, terms, players' words), never towards the
        # ordinary English of the summaries, so "apple" does not become "applied".
        surface: set[str] = set()
        for section in digest.sections:
            for text in (section.title, *section.terms, *section.vocab):
                surface.update(content_words(text))
        self.summary_words: set[str] = {w for s in digest.sections for w in content_words(s.summary)}
        self.summary_words.update(w for text in facts.paraphrases.values() for w in content_words(text))
        self.summary_words.update(w for fact in facts.facts for w in content_words(fact.text))
        surface.update(word for term in digest.glossary for word in content_words(term))
        for short, long in digest.abbreviations.items():
            surface.add(short)
            surface.update(content_words(long))
        surface.update(w for w in (*vocabulary.words, *vocabulary.names) if len(w) >= FUZZY_MIN_LENGTH)
        self.surface_words = sorted(surface)
        self.game_stems: frozenset[str] = frozenset(stem(word) for word in self.surface_words)
        self.surface_stems: dict[str, str] = {}
        for word in self.surface_words:
            self.surface_stems.setdefault(stem(word), word)
        self.keys: dict[frozenset[str], dict[str, int]] = {}
        for section in digest.sections:
            self._add_key(section.title, section.number, PRIORITY_TITLE)
            for term in section.terms:
                self._add_key(term, section.number, PRIORITY_TERM)
            for phrase in section.vocab:
                self._add_key(phrase, section.number, PRIORITY_VOCAB)
        for term, number in digest.glossary.items():
            self._add_key(term, number, PRIORITY_GLOSSARY)
        # Semantic vectors: row owner[i] is the section of row i of `vectors`; fact rows come last, in the
        # fact base's order, starting at `fact_offset`.
        self.vector_owner: list[str] = []
        self.vectors: Vectors | None = None
        self.section_rows: Any = None
        self.fact_offset = 0
        if model is not None:
            texts: list[str] = []
            for section in digest.sections:
                texts.append(f"{section.title}. {section.summary}")
                self.vector_owner.append(section.number)
                paraphrase = facts.paraphrases.get(section.number)
                if paraphrase:
                    texts.append(f"{section.title}: {paraphrase}")
                    self.vector_owner.append(section.number)
            self.fact_offset = len(texts)
            for fact in facts.facts:
                texts.append(fact.text)
                self.vector_owner.append(fact.section)
            self.vectors = model.embed([_semantic_text(text) for text in texts])
            self.section_rows = _rows_by_section(self.numbers, self.vector_owner)
        import numpy as np

        # Passages for the re-ranker: each section's title with its terms, its summary, its paraphrase and
        # each fact is one BM25 document, so a question that one fact answers is seen as such.
        passages: list[list[str]] = []
        owners: list[int] = []
        for position, s in enumerate(digest.sections):
            texts = [" ".join([s.title, *s.terms, *s.vocab, *by_section[s.number]]), s.summary]
            texts += [facts.paraphrases.get(s.number, "")] + [fact.text for fact in facts.of(s.number)]
            texts.append((brief_terms or {}).get(s.number, ""))
            for text in texts:
                tokens = _phrase_tokens(text)
                if tokens:
                    passages.append(tokens)
                    owners.append(position)
        self.passages = Bm25Scores.build(passages, k1=1.2, b=0.75)
        self.passage_owner: Any = np.array(owners, dtype=np.int64)
        # Every section has a title passage and passages come in section order: where each one's start.
        self.passage_starts: Any = np.searchsorted(self.passage_owner, np.arange(len(self.numbers)))
        # The LR index's (term, context) -> sections map, as stems, with the entries each stem's term holds.
        self.concordance_terms: list[frozenset[str]] = []
        self.concordance_contexts: list[frozenset[str]] = []
        self.concordance_owners: list[tuple[int, ...]] = []
        self.concordance_by_stem: dict[str, list[int]] = {}
        for term, context, listed in concordance.entries if concordance is not None else ():
            term_stems = frozenset(stem(word) for word in content_words(term))
            if not term_stems:
                continue
            for token in term_stems:
                self.concordance_by_stem.setdefault(token, []).append(len(self.concordance_terms))
            self.concordance_terms.append(term_stems)
            self.concordance_contexts.append(frozenset(stem(word) for word in content_words(context)))
            self.concordance_owners.append(tuple(self.position[n] for n in listed))

    def _add_key(self, phrase: str, number: str, priority: int) -> None:
        phrase_key = key(phrase)
        if not phrase_key:
            return
        entry = self.keys.setdefault(phrase_key, {})
        entry[number] = max(priority, entry.get(number, 0))

    def _expand(self, text: str) -> tuple[dict[int, list[str]], dict[str, str], set[str]]:
        """Expansions of players' words: per word position, multi-word phrases found, the phrases' words."""
        typed = words(text)
        per_word: dict[int, list[str]] = {}
        phrases: dict[str, str] = {}
        phrase_words: set[str] = set()
        joined = f" {' '.join(typed)} "
        for phrase, meaning in self.vocabulary_map.phrases.items():
            if f" {phrase} " in joined:
                phrases[phrase] = meaning
                phrase_words.update(phrase.split())
        for position, word in enumerate(typed):
            expansion = self.vocabulary_map.words.get(word)
            if expansion is None:
                expansion = next(
                    (v for prefix, v in self.vocabulary_map.prefixes.items() if word.startswith(prefix)), None
                )
            if expansion is not None:
                per_word[position] = content_words(expansion)
        return per_word, phrases, phrase_words

    def parse(self, question: str) -> Query:
        """Normalise a question: expand abbreviations and nicknames, correct typos, stem."""
        numbers = rule_numbers(question)
        text = question
        for number in numbers:
            text = text.replace(number, " ")
        query = Query(text=question, words=[], numbers=numbers)
        known = set(self.surface_words) | self.summary_words
        per_word, phrase_expansions, phrase_words = self._expand(text)
        typed = words(text)
        for position, word in enumerate(typed):
            extra = per_word.get(position)
            name = self.vocabulary_map.names.get(word)
            if name is not None:
                query.names += content_words(name)
                query.name_words += 1
                query.literal += content_words(name)
                query.expansions += content_words(name)
                query.groups.append(frozenset({stem(word)} | {stem(w) for w in content_words(name)}))
                continue
            if word in STOP_WORDS and extra is None:
                continue
            expansion = self.digest.abbreviations.get(word)
            if expansion is not None:
                query.words += content_words(expansion)
                query.literal.append(word)
                query.groups.append(frozenset({stem(word)} | {stem(w) for w in content_words(expansion)}))
                continue
            if extra is not None:
                is_known = stem(word) in self.vocabulary  # a word the sections themselves use
                if is_known:
                    query.words.append(word)
                    query.names += extra  # the typed word is a game word: its expansion only helps
                    query.name_words += 1
                else:
                    query.words += extra
                query.literal += extra
                query.expansions += extra
                query.groups.append(frozenset({stem(word)} | {stem(w) for w in extra}))
                continue
            if word in known or stem(word) in self.vocabulary:
                query.words.append(word)
                query.literal.append(word)
                query.groups.append(frozenset({stem(word)}))
                continue
            if word in self.vocabulary_map.places or word in phrase_words:
                query.places.append(word)
                continue
            if len(word) >= FUZZY_MIN_LENGTH and not word.isdigit():
                from rapidfuzz import fuzz, process  # only for a word the index does not know

                best = process.extractOne(
                    word, self.surface_words, scorer=fuzz.ratio, score_cutoff=FUZZY_CUTOFF
                )
                corrected = str(best[0]) if best is not None else None
                if corrected is None:  # "interupting": compare stems, so the ending does not count twice
                    found = process.extractOne(
                        stem(word), list(self.surface_stems), scorer=fuzz.ratio, score_cutoff=FUZZY_CUTOFF
                    )
                    corrected = self.surface_stems[str(found[0])] if found is not None else None
                if corrected is not None:
                    query.corrections[word] = corrected
                    meaning = self.vocabulary_map.words.get(corrected) or self.vocabulary_map.names.get(
                        corrected
                    )
                    replacement = content_words(meaning) if meaning else [corrected]
                    query.words += replacement
                    query.literal += replacement
                    if meaning:
                        query.expansions += replacement
                    query.groups.append(frozenset(stem(w) for w in [corrected, *replacement]))
                    continue
            if stem(word) not in GENERIC_STEMS and not word.isdigit():  # "things", "1936": no topic
                query.unknown.append(word)
        joined = f" {' '.join(typed)} "
        query.out_of_scope = [p for p in self.vocabulary_map.out_of_scope if f" {p} " in joined]
        # A phrase ("uncle joe", "lose the game") stands for one thing: one group replaces its words' groups.
        phrase_stems = {stem(word) for phrase in phrase_expansions for word in content_words(phrase)}
        if phrase_stems:
            query.groups = [group for group in query.groups if not group & phrase_stems]
        for phrase, expansion in phrase_expansions.items():
            query.words += content_words(expansion)
            query.expansions += content_words(expansion)
            query.groups.append(frozenset(stem(w) for w in content_words(f"{phrase} {expansion}")))
        query.game_terms = sum(1 for group in query.specific_groups() if group & self.game_stems)
        query.stems = with_bigrams([stem(word) for word in query.words])
        query.stems += [stem(word) for word in query.literal if word in self.digest.abbreviations]
        return query

    @staticmethod
    def query_vector(query: Query, model: EmbeddingModel) -> Vectors:
        """The question's embedding, computed on first use and kept on the query."""
        if query.vector is None:
            query.vector = model.embed([query.semantic_text])[0]
        return query.vector

    def semantic_scores(self, query: Query, model: EmbeddingModel | None) -> list[float]:
        """Best cosine per section (index order), or zeros without the model."""
        if model is None or self.vectors is None or not query.text.strip():
            return [0.0] * len(self.numbers)
        import numpy as np

        similarities = self.vectors @ self.query_vector(query, model)
        query.similarities = similarities
        # Per section (rows of `section_rows`, padded with -1): the mean of its two best vectors, so one
        # lucky word match counts less than two good ones.
        padded = np.where(self.section_rows >= 0, similarities[self.section_rows], -np.inf)
        best = -np.sort(-padded, axis=1)[:, :SEMANTIC_TOP]
        counts = np.minimum((self.section_rows >= 0).sum(axis=1), SEMANTIC_TOP)
        means = np.where(np.isfinite(best), best, 0.0).sum(axis=1) / np.maximum(counts, 1)
        return [float(value) for value in means]

    def search(self, query: Query, limit: int, model: EmbeddingModel | None = None) -> list[Hit]:
        """All sections with any evidence, exact-phrase matches first, then BM25 (``limit`` of them)."""
        hits = self.evidence(query, model)
        hits = [hit for hit in hits if hit.bm25 > 0 or hit.priority > 0]
        hits.sort(key=lambda hit: (-hit.priority, -hit.bm25))
        return hits[:limit]

    def evidence(self, query: Query, model: EmbeddingModel | None = None) -> list[Hit]:
        """Every section with its BM25 score, exact-phrase priority, coverage and cosine (index order)."""
        tokens = [token for token in query.stems if token in self.vocabulary]
        scores: list[float] = [0.0] * len(self.numbers)
        if tokens:
            scores = [float(value) for value in self.retriever.get_scores(tokens)]
        names = [token for token in [stem(w) for w in query.names] if token in self.vocabulary]
        if names:
            extra = self.retriever.get_scores(names)
            # A nickname is one typed word: its expansion ("commies" -> soviet union communism) weighs as
            # much as one word, however many words it expands to.
            weight = NAME_WEIGHT * min(1.0, query.name_words / len(names))
            scores = [score + weight * float(value) for score, value in zip(scores, extra, strict=True)]
        stems = {stem(word) for word in query.words}
        # An exact phrase match only counts when every word of the question was understood; it may match
        # the words as typed ("armor superiority") or with abbreviations spelled out ("dow").
        keyed: dict[str, int] = {}
        if not query.unknown:
            literal = frozenset(stem(word) for word in query.literal)
            typed = frozenset(stem(w) for w in content_words(query.text))
            phrases = {
                frozenset(stems),
                literal,
                frozenset(stems - GENERIC_STEMS),
                literal - GENERIC_STEMS,
                typed,
                typed - GENERIC_STEMS,
            }
            for phrase in phrases:
                for number, priority in self.keys.get(phrase, {}).items():
                    keyed[number] = max(priority, keyed.get(number, 0))
        specific = query.specific_groups()
        asked = len(specific) + len(set(query.unknown))
        cosines = self.semantic_scores(query, model)
        return [
            Hit(
                number,
                score,
                keyed.get(number, 0),
                sum(1 for group in specific if group & document) / asked if asked else 0.0,
                cosine,
            )
            for number, score, document, cosine in zip(
                self.numbers, scores, self.documents, cosines, strict=True
            )
        ]

    def best_fact(self, number: str, query: Query, model: EmbeddingModel | None = None) -> str | None:
        """The fact of a section that best answers the query: shared words first, then cosine."""
        rows = self.fact_rows.get(number, [])
        if not rows:
            return None
        groups = query.specific_groups()
        if not groups:  # "what does 5.5.2 say": the section's first fact states its core
            return self.facts.facts[rows[0]].text
        cosines = [0.0] * len(rows)
        if model is not None and self.vectors is not None and query.text.strip():
            vector = self.query_vector(query, model)
            cosines = [float(value) for value in self.vectors[[self.fact_offset + i for i in rows]] @ vector]
        scored = [
            (sum(1 for group in groups if group & self.fact_stems[i]) + cosine, -position, i)
            for position, (i, cosine) in enumerate(zip(rows, cosines, strict=True))
        ]
        return self.facts.facts[max(scored)[2]].text


def _sources() -> bytes:
    """Every input of the built index: the digest, fact base and vocabulary files."""
    data = [
        data_bytes(name)
        for name in (FACTS_RESOURCE, VOCABULARY_RESOURCE, CONCORDANCE_RESOURCE, BRIEF_TERMS_RESOURCE)
    ]
    return b"\0".join([digest_bytes(), *data])


def _model_tag() -> str:
    """Which embedding model the cached vectors came from (its files' sizes), or 'none'."""
    from grandstrategy.rulebook.semantic import ModelUnavailable, model_files

    try:
        return "|".join(str(path.stat().st_size) for path in model_files())
    except (ModelUnavailable, OSError):
        return "none"


def _package_tag(name: str) -> str:
    """Which copy of an installed package built the index: its ``__init__.py``'s size and time."""
    spec = importlib.util.find_spec(name)
    if spec is None or spec.origin is None:
        return "none"
    try:
        status = Path(spec.origin).stat()
    except OSError:
        return "none"
    return f"{status.st_size}:{status.st_mtime_ns}"


def _cache_path(raw: bytes) -> Path:
    version = _package_tag("bm25s")
    here = Path(__file__).parent
    sources = ("index.py", "bm25.py", "semantic.py", "tokenizer.py", "text.py")
    code = b"".join((here / name).read_bytes() for name in sources if (here / name).is_file())
    extra = f"|{INDEX_FORMAT}|{version}|{sys.version_info[:2]}|{_model_tag()}".encode()
    return cache_dir() / f"rules-index-{fingerprint(raw + code + extra)}.pickle"


def build_index() -> RulesIndex:
    """Build the index from the shipped data files, with vectors when the embedding model loads."""
    digest = parse_digest(digest_bytes())
    numbers = {section.number for section in digest.sections}
    facts = parse_facts(data_bytes(FACTS_RESOURCE), numbers)
    vocabulary = parse_vocabulary(data_bytes(VOCABULARY_RESOURCE))
    concordance = parse_concordance(data_bytes(CONCORDANCE_RESOURCE), numbers)
    brief_terms = parse_brief_terms(data_bytes(BRIEF_TERMS_RESOURCE), numbers)
    return RulesIndex(digest, facts, vocabulary, shared_model(), concordance, brief_terms)


def load_index(use_cache: bool = True) -> RulesIndex:
    """The index for the shipped data: from the cache when fresh, otherwise built (and cached)."""
    raw = _sources()
    path = _cache_path(raw) if use_cache else None
    if path is not None:
        cached = read_pickle(path)
        if isinstance(cached, RulesIndex):
            return cached
    index = build_index()
    if path is not None:
        write_pickle(path, index)  # a read-only home is fine: the index is rebuilt next time
    return index
