"""The shipped digest: complete, well formed, and in the project's own words."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from grandstrategy.core.errors import DataError
from grandstrategy.rulebook.digest import load_digest, parse_digest

from .conftest import RULES_DIR

REPO = Path(__file__).resolve().parents[2]
SHINGLE = 12
WORD = re.compile(r"[a-z0-9']+")
HEADING = re.compile(r"^(\d+\.\d+(?:\.\d+)?)\.? +([A-Z\"(].*)$")
RULES_END_LINE = 2598  # the Living Rules proper end here; the index follows


def test_every_section_has_number_title_summary_terms() -> None:
    digest = load_digest()
    assert len(digest.sections) >= 190
    for section in digest.sections:
        assert re.fullmatch(r"\d+\.\d+(\.\d+)?", section.number)
        assert section.title and section.summary and section.terms
        sentences = [part for part in re.split(r"(?<=[.!?])\s+(?=[A-Z])", section.summary) if part]
        assert 1 <= len(sentences) <= 4, section.number
        assert len(section.summary) <= 700, section.number


def test_sections_are_in_rule_order() -> None:
    digest = load_digest()
    keys = [section.sort_key for section in digest.sections]
    assert keys == sorted(keys)
    assert digest.section("2.3.10") is not None
    assert digest.section("99.1") is None


def test_players_vocabulary_is_there() -> None:
    digest = load_digest()
    for short in ("dow", "ec", "hf", "chits", "folds", "loc", "vp"):
        assert short in digest.abbreviations
    vocab = {word for section in digest.sections for word in section.vocab}
    assert "the cup" in vocab


def test_covers_every_numbered_living_rules_section() -> None:
    path = RULES_DIR / "001_6dc3236115617cc2.txt"
    if not path.is_file():
        pytest.skip("../shared/rules is not beside the repository")
    lines = path.read_text(encoding="utf-8", errors="replace").splitlines()
    headings = {}
    for number, line in enumerate(lines, start=1):
        match = HEADING.match(line)
        if match and 80 < number <= RULES_END_LINE:
            headings[match.group(1)] = match.group(2).strip()
    digest = load_digest()
    assert {s.number for s in digest.sections} == set(headings)
    for section in digest.sections:
        assert section.title == headings[section.number]


def test_malformed_digest_is_a_data_error() -> None:
    with pytest.raises(DataError):
        parse_digest(b"sections: [{n: '1.0'}]")
    with pytest.raises(DataError):
        parse_digest(b"sections:\n  - {n: '1.0', title: A, summary: B, related: ['9.9']}\n")
    with pytest.raises(DataError):
        parse_digest(b": : :")


def _shingles(text: str) -> set[tuple[str, ...]]:
    words = WORD.findall(text.lower())
    return {tuple(words[i : i + SHINGLE]) for i in range(len(words) - SHINGLE + 1)}


def test_no_twelve_word_run_is_copied_from_the_rule_documents() -> None:
    sources = sorted(RULES_DIR.glob("*.txt")) if RULES_DIR.is_dir() else []
    if not sources:
        pytest.skip("../shared/rules is not beside the repository")
    source: set[tuple[str, ...]] = set()
    for document in sources:
        source |= _shingles(document.read_text(encoding="utf-8", errors="replace"))
    ours = [
        *sorted((REPO / "src" / "grandstrategy" / "rulebook").rglob("*.py")),
        *sorted((REPO / "src" / "grandstrategy" / "rulebook").rglob("*.yaml")),
        *[REPO / "docs" / name for name in ("rules-assistant.md", "decisions.md")],
    ]
    copied = {}
    for path in ours:
        if path.is_file():
            hits = _shingles(path.read_text(encoding="utf-8")) & source
            if hits:
                copied[str(path.relative_to(REPO))] = " ".join(next(iter(hits)))
    assert not copied, f"text copied from the rules: {copied}"
