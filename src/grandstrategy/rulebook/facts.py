"""The fact base and the players' vocabulary shipped beside the digest (data only, checked on load).

``facts.yaml`` gives, for every numbered Living Rules section, a paraphrase in players' words and atomic
facts (one testable statement each, in the project's words); ``vocabulary.yaml`` maps what players type
(nicknames, slang) to the game's own words for query expansion.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from importlib import resources
from typing import Any

from grandstrategy.core.errors import DataError
from grandstrategy.rulebook.text import words

FACTS_RESOURCE = "facts.yaml"
VOCABULARY_RESOURCE = "vocabulary.yaml"
CONCORDANCE_RESOURCE = "concordance.yaml"
BRIEF_TERMS_RESOURCE = "brief_terms.yaml"


@dataclass(frozen=True)
class Fact:
    """One statement about one rule section."""

    section: str
    text: str


@dataclass(frozen=True)
class FactBase:
    """Paraphrases and facts by section number."""

    paraphrases: dict[str, str]
    facts: tuple[Fact, ...]

    def of(self, number: str) -> list[Fact]:
        """The facts of one section, in file order."""
        return [fact for fact in self.facts if fact.section == number]


@dataclass(frozen=True)
class Vocabulary:
    """Query expansion: single words, multi-word phrases and word prefixes -> game words; place names."""

    words: dict[str, str]
    phrases: dict[str, str]
    prefixes: dict[str, str]
    places: frozenset[str] = frozenset()
    names: dict[str, str] = field(default_factory=dict)
    out_of_scope: tuple[str, ...] = ()
    units: frozenset[str] = frozenset()


def data_bytes(name: str) -> bytes:
    """A data file shipped with the package."""
    return (resources.files("grandstrategy.rulebook") / "data" / name).read_bytes()


def _load_yaml(raw: bytes, name: str) -> dict[str, Any]:
    import yaml

    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    try:
        data = yaml.load(raw, Loader=loader)
    except yaml.YAMLError as error:
        raise DataError(f"rules {name} is not valid YAML: {error}") from error
    if not isinstance(data, dict):
        raise DataError(f"rules {name}: expected a mapping")
    return data


def parse_facts(raw: bytes, numbers: set[str]) -> FactBase:
    """Parse and check the fact base against the digest's section numbers; raise DataError if malformed."""
    data = _load_yaml(raw, FACTS_RESOURCE)
    sections = data.get("sections")
    if not isinstance(sections, dict):
        raise DataError("rules facts: expected a 'sections' mapping")
    paraphrases: dict[str, str] = {}
    facts: list[Fact] = []
    for number, entry in sections.items():
        number = str(number)
        if number not in numbers:
            raise DataError(f"rules facts: unknown section {number}")
        if not isinstance(entry, dict):
            raise DataError(f"rules facts: section {number} must be a mapping")
        paraphrase, texts = entry.get("paraphrase"), entry.get("facts")
        if not isinstance(paraphrase, str) or not paraphrase.strip():
            raise DataError(f"rules facts: section {number} needs a paraphrase")
        if not isinstance(texts, list) or not texts or not all(isinstance(t, str) and t for t in texts):
            raise DataError(f"rules facts: section {number} needs a non-empty list of facts")
        paraphrases[number] = " ".join(paraphrase.split())
        facts += [Fact(number, " ".join(text.split())) for text in texts]
    return FactBase(paraphrases, tuple(facts))


def _mapping(data: dict[str, Any], field: str) -> dict[str, str]:
    value = data.get(field) or {}
    if not isinstance(value, dict):
        raise DataError(f"rules vocabulary: {field} must be a mapping")
    return {" ".join(str(k).lower().split()): " ".join(str(v).lower().split()) for k, v in value.items()}


def _phrases(data: dict[str, Any], field: str) -> tuple[str, ...]:
    value = data.get(field) or []
    if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
        raw = f"rules vocabulary: {field} must be a list of phrases"
        raise DataError(raw)
    return tuple(" ".join(words(item)) for item in value if words(item))


def parse_vocabulary(raw: bytes) -> Vocabulary:
    """Parse the players' vocabulary; raise DataError if malformed."""
    data = _load_yaml(raw, VOCABULARY_RESOURCE)
    places = data.get("places") or []
    if not isinstance(places, list) or not all(isinstance(place, str) for place in places):
        raise DataError("rules vocabulary: places must be a list of words")
    return Vocabulary(
        _mapping(data, "words"),
        _mapping(data, "phrases"),
        _mapping(data, "prefixes"),
        frozenset(place.lower() for place in places),
        names=_mapping(data, "names"),
        out_of_scope=_phrases(data, "out_of_scope"),
        units=frozenset(word.lower() for word in _phrases(data, "units")),
    )


@dataclass(frozen=True)
class Concordance:
    """The LR index as data: (term, context, sections); context '' is where the term is defined."""

    entries: tuple[tuple[str, str, tuple[str, ...]], ...]


def parse_concordance(raw: bytes, numbers: set[str]) -> Concordance:
    """Parse the concordance (``concordance.yaml``: section -> 'term' or 'term | context' headings) and
    check its numbers; raise DataError if malformed."""
    data = _load_yaml(raw, CONCORDANCE_RESOURCE)
    sections = data.get("sections")
    if not isinstance(sections, dict):
        raise DataError("rules concordance: expected a 'sections' mapping")
    found: dict[tuple[str, str], list[str]] = {}
    for number, headings in sections.items():
        if str(number) not in numbers:
            raise DataError(f"rules concordance: unknown section {number}")
        if not isinstance(headings, list) or not all(isinstance(h, str) and h.strip() for h in headings):
            raise DataError(f"rules concordance: section {number} must list headings")
        for heading in headings:
            term, _, context = heading.partition("|")
            found.setdefault((term.strip(), context.strip()), []).append(str(number))
    return Concordance(tuple((term, context, tuple(listed)) for (term, context), listed in found.items()))


def parse_brief_terms(raw: bytes, numbers: set[str]) -> dict[str, str]:
    """Section -> the rules brief's words about it (``brief_terms.yaml``); raise DataError if malformed."""
    data = _load_yaml(raw, BRIEF_TERMS_RESOURCE)
    sections = data.get("sections")
    if not isinstance(sections, dict):
        raise DataError("rules brief terms: expected a 'sections' mapping")
    found: dict[str, str] = {}
    for number, text in sections.items():
        if str(number) not in numbers or not isinstance(text, str):
            raise DataError(f"rules brief terms: bad entry for section {number}")
        found[str(number)] = text
    return found
