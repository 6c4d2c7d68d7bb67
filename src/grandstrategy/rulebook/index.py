"""The search index over the rules digest: BM25 (bm25s) with vocabulary expansion and typo correction.

Each section becomes one document built from its title (weighted x3), key terms, players' vocabulary and
glossary terms (x2) and summary (x1). A question is cut to its content words; players' abbreviations are
expanded (DOW -> declaration of war), unknown words are corrected to the nearest index word with rapidfuzz,
and the stems plus neighbour pairs are scored with BM25. A question whose content words exactly name a
glossary term, a section title, a key term or a vocabulary phrase ranks that section first.

The built index is pickled into the user's cache directory keyed by the digest's content hash, so a cold
``grandstrategy rules ask`` only unpickles it.
"""

from __future__ import annotations

import os
import pickle
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from grandstrategy.rulebook.digest import Digest, Section, digest_bytes, fingerprint, parse_digest
from grandstrategy.rulebook.text import content_words, key, rule_numbers, stem, with_bigrams

INDEX_FORMAT = 3
TITLE_WEIGHT = 3
TERM_WEIGHT = 2
SUMMARY_WEIGHT = 1
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
    ]
)
MATCH_NAMES = {PRIORITY_GLOSSARY: "glossary", PRIORITY_TITLE: "title", PRIORITY_TERM: "term", 0: "search"}


@dataclass(frozen=True)
class Hit:
    """One ranked section for a question."""

    number: str
    bm25: float
    priority: int
    coverage: float = 0.0

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

    @property
    def known_fraction(self) -> float:
        """Share of content words the index recognises (after correction)."""
        total = len(self.words) + len(self.unknown)
        return 1.0 if total == 0 else len(self.words) / total


def _phrase_tokens(phrase: str) -> list[str]:
    return with_bigrams([stem(word) for word in content_words(phrase)])


def _section_document(section: Section, glossary_terms: list[str]) -> list[str]:
    tokens: list[str] = []
    for _ in range(TITLE_WEIGHT):
        tokens += _phrase_tokens(section.title)
    for phrase in (*section.terms, *section.vocab, *glossary_terms):
        for _ in range(TERM_WEIGHT):
            tokens += _phrase_tokens(phrase)
    for _ in range(SUMMARY_WEIGHT):
        tokens += _phrase_tokens(section.summary)
    return tokens or ["__empty__"]


class RulesIndex:
    """BM25 over the digest sections plus the exact-phrase keys and the word list for typo correction."""

    def __init__(self, digest: Digest) -> None:
        import bm25s

        self.digest = digest
        self.numbers = [section.number for section in digest.sections]
        by_section: dict[str, list[str]] = {number: [] for number in self.numbers}
        for term, number in digest.glossary.items():
            by_section[number].append(term)
        corpus = [_section_document(s, by_section[s.number]) for s in digest.sections]
        self.retriever: Any = bm25s.BM25(k1=1.2, b=0.75)
        self.retriever.index(corpus, show_progress=False)
        self.vocabulary: set[str] = {token for document in corpus for token in document}
        self.documents: list[frozenset[str]] = [frozenset(document) for document in corpus]
        # Typos are corrected towards game vocabulary only (titles, terms, players' words), never towards the
        # ordinary English of the summaries, so "apple" does not become "applied".
        surface: set[str] = set()
        for section in digest.sections:
            for text in (section.title, *section.terms, *section.vocab):
                surface.update(content_words(text))
        self.summary_words: set[str] = {w for s in digest.sections for w in content_words(s.summary)}
        surface.update(word for term in digest.glossary for word in content_words(term))
        for short, long in digest.abbreviations.items():
            surface.add(short)
            surface.update(content_words(long))
        self.surface_words = sorted(surface)
        self.keys: dict[frozenset[str], dict[str, int]] = {}
        for section in digest.sections:
            self._add_key(section.title, section.number, PRIORITY_TITLE)
            for term in section.terms:
                self._add_key(term, section.number, PRIORITY_TERM)
            for phrase in section.vocab:
                self._add_key(phrase, section.number, PRIORITY_VOCAB)
        for term, number in digest.glossary.items():
            self._add_key(term, number, PRIORITY_GLOSSARY)

    def _add_key(self, phrase: str, number: str, priority: int) -> None:
        phrase_key = key(phrase)
        if not phrase_key:
            return
        entry = self.keys.setdefault(phrase_key, {})
        entry[number] = max(priority, entry.get(number, 0))

    def parse(self, question: str) -> Query:
        """Normalise a question: expand abbreviations, correct typos, stem."""
        from rapidfuzz import fuzz, process

        numbers = rule_numbers(question)
        text = question
        for number in numbers:
            text = text.replace(number, " ")
        query = Query(text=question, words=[], numbers=numbers)
        known = set(self.surface_words) | self.summary_words
        for word in content_words(text):
            expansion = self.digest.abbreviations.get(word)
            if expansion is not None:
                query.words += content_words(expansion)
                query.literal.append(word)
                continue
            if word in known or stem(word) in self.vocabulary:
                query.words.append(word)
                query.literal.append(word)
                continue
            if len(word) >= FUZZY_MIN_LENGTH and not word.isdigit():
                best = process.extractOne(
                    word, self.surface_words, scorer=fuzz.ratio, score_cutoff=FUZZY_CUTOFF
                )
                if best is not None:
                    corrected = str(best[0])
                    query.corrections[word] = corrected
                    query.words.append(corrected)
                    query.literal.append(corrected)
                    continue
            query.unknown.append(word)
        query.stems = with_bigrams([stem(word) for word in query.words])
        query.stems += [stem(word) for word in query.literal if word in self.digest.abbreviations]
        return query

    def search(self, query: Query, limit: int) -> list[Hit]:
        """Sections ranked for the query: exact-phrase matches first, then BM25 score."""
        tokens = [token for token in query.stems if token in self.vocabulary]
        scores: list[float] = [0.0] * len(self.numbers)
        if tokens:
            scores = [float(value) for value in self.retriever.get_scores(tokens)]
        stems = {stem(word) for word in query.words}
        # An exact phrase match only counts when every word of the question was understood; it may match
        # the words as typed ("armor superiority") or with abbreviations spelled out ("dow").
        keyed: dict[str, int] = {}
        if not query.unknown:
            literal = frozenset(stem(word) for word in query.literal)
            phrases = {frozenset(stems), literal, frozenset(stems - GENERIC_STEMS), literal - GENERIC_STEMS}
            for phrase in phrases:
                for number, priority in self.keys.get(phrase, {}).items():
                    keyed[number] = max(priority, keyed.get(number, 0))
        specific = {token for token in stems if token not in GENERIC_STEMS}
        asked = len(specific) + len(set(query.unknown))
        hits = [
            Hit(number, score, keyed.get(number, 0), len(specific & document) / asked if asked else 0.0)
            for number, score, document in zip(self.numbers, scores, self.documents, strict=True)
            if score > 0 or number in keyed
        ]
        hits.sort(key=lambda hit: (-hit.priority, -hit.bm25))
        return hits[:limit]


def cache_dir() -> Path:
    """Where the built index is kept: $GRANDSTRATEGY_CACHE_DIR, else the platform's user cache directory."""
    override = os.environ.get("GRANDSTRATEGY_CACHE_DIR")
    if override:
        return Path(override)
    if sys.platform == "win32":
        base = Path(os.environ.get("LOCALAPPDATA", Path.home() / "AppData" / "Local"))
    elif sys.platform == "darwin":
        base = Path.home() / "Library" / "Caches"
    else:
        base = Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache"))
    return base / "grandstrategy"


def _cache_path(raw: bytes) -> Path:
    import bm25s

    version = str(getattr(bm25s, "__version__", "0"))
    code = Path(__file__).read_bytes()  # a changed index class must not meet an old pickle
    tag = fingerprint(raw + code + f"|{INDEX_FORMAT}|{version}|{sys.version_info[:2]}".encode())
    return cache_dir() / f"rules-index-{tag}.pickle"


def load_index(use_cache: bool = True) -> RulesIndex:
    """The index for the shipped digest: from the cache when fresh, otherwise built (and cached)."""
    raw = digest_bytes()
    path = _cache_path(raw) if use_cache else None
    if path is not None and path.is_file():
        try:
            with path.open("rb") as handle:
                cached = pickle.load(handle)  # our own cache file, keyed by content hash
            if isinstance(cached, RulesIndex):
                return cached
        except (OSError, pickle.UnpicklingError, EOFError, AttributeError, ImportError):
            pass
    index = RulesIndex(parse_digest(raw))
    if path is not None:
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            with tempfile.NamedTemporaryFile(dir=path.parent, delete=False, suffix=".tmp") as temporary:
                pickle.dump(index, temporary, protocol=pickle.HIGHEST_PROTOCOL)
            os.replace(temporary.name, path)
        except OSError:
            pass  # a read-only home is fine: the index is rebuilt next time
    return index
