"""The shipped rules digest: every numbered Living Rules section with a summary in the project's own words."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from importlib import resources
from typing import Any

from grandstrategy.core.errors import DataError

DIGEST_RESOURCE = "digest.yaml"


def section_order(number: str) -> tuple[int, ...]:
    """A rule number's place in the rulebook: numeric, so 2.3.10 comes after 2.3.9."""
    return tuple(int(part) for part in number.split("."))


@dataclass(frozen=True)
class Section:
    """One numbered section of the Living Rules, as the digest describes it."""

    number: str
    title: str
    summary: str
    terms: tuple[str, ...]
    vocab: tuple[str, ...]
    related: tuple[str, ...]

    @property
    def sort_key(self) -> tuple[int, ...]:
        """Numeric order: 2.3.10 after 2.3.9."""
        return section_order(self.number)


@dataclass(frozen=True)
class Digest:
    """All sections, the glossary (term -> defining section) and the players' abbreviations."""

    sections: tuple[Section, ...]
    glossary: dict[str, str]
    abbreviations: dict[str, str]
    fingerprint: str

    def section(self, number: str) -> Section | None:
        """The section with this number, or None."""
        for section in self.sections:
            if section.number == number:
                return section
        return None


def digest_bytes() -> bytes:
    """The raw digest file shipped with the package."""
    return (resources.files("grandstrategy.rulebook") / "data" / DIGEST_RESOURCE).read_bytes()


def fingerprint(raw: bytes) -> str:
    """A short content hash, used to key the cached index."""
    return hashlib.sha256(raw).hexdigest()[:16]


def _strings(value: Any, where: str) -> tuple[str, ...]:
    if value is None:
        return ()
    if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
        raise DataError(f"rules digest: {where} must be a list of strings")
    return tuple(value)


def parse_digest(raw: bytes) -> Digest:
    """Parse and check the digest YAML; raise DataError on anything malformed."""
    import yaml

    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    try:
        data = yaml.load(raw, Loader=loader)
    except yaml.YAMLError as error:
        raise DataError(f"rules digest is not valid YAML: {error}") from error
    if not isinstance(data, dict) or not isinstance(data.get("sections"), list):
        raise DataError("rules digest: expected a mapping with a 'sections' list")
    sections: list[Section] = []
    for entry in data["sections"]:
        if not isinstance(entry, dict):
            raise DataError("rules digest: every section must be a mapping")
        number, title, summary = entry.get("n"), entry.get("title"), entry.get("summary")
        if not (isinstance(number, str) and isinstance(title, str) and isinstance(summary, str)):
            raise DataError(f"rules digest: section {number!r} needs string n, title and summary")
        sections.append(
            Section(
                number=number,
                title=title,
                summary=" ".join(summary.split()),
                terms=_strings(entry.get("terms"), f"{number} terms"),
                vocab=_strings(entry.get("vocab"), f"{number} vocab"),
                related=_strings(entry.get("related"), f"{number} related"),
            )
        )
    numbers = {section.number for section in sections}
    if len(numbers) != len(sections):
        raise DataError("rules digest: duplicate section numbers")
    glossary = {str(term).lower(): str(number) for term, number in (data.get("glossary") or {}).items()}
    for term, number in glossary.items():
        if number not in numbers:
            raise DataError(f"rules digest: glossary term {term!r} points to unknown section {number}")
    for section in sections:
        for number in section.related:
            if number not in numbers:
                raise DataError(f"rules digest: {section.number} relates to unknown section {number}")
    abbreviations = {str(k).lower(): str(v).lower() for k, v in (data.get("abbreviations") or {}).items()}
    ordered = tuple(sorted(sections, key=lambda section: section.sort_key))
    return Digest(ordered, glossary, abbreviations, fingerprint(raw))


def load_digest() -> Digest:
    """The digest shipped with the package."""
    return parse_digest(digest_bytes())
