"""The official Living Rules text, when the user owns a copy: split by numbered section, passages on demand.

Accepts plain text, Markdown or PDF. Headings are recognised as a known rule number followed by a title
close to the digest's title for that number (table-of-contents lines, with page numbers, do not qualify).
"""

from __future__ import annotations

import io
import re
from dataclasses import dataclass
from pathlib import Path

from grandstrategy.core.errors import UserInputError
from grandstrategy.core.files import BadFile, read_bytes
from grandstrategy.rulebook.digest import Digest
from grandstrategy.rulebook.text import content_words, stem

HEADING = re.compile(r"^\s*(?:#+\s*)?(?:\*\*)?(\d{1,2}\.\d{1,2}(?:\.\d{1,2})?)\.?\s+(.+?)\s*(?:\*\*)?\s*$")
END_OF_RULES = re.compile(r"^\s*(?:#+\s*)?(?:index|credits)\s*$", re.IGNORECASE)
TITLE_SIMILARITY = 85.0
PASSAGE_CHARS = 700
MAX_RULEBOOK_BYTES = 64 * 1024 * 1024
"""The largest rulebook file read (a PDF of the Living Rules is a few MiB)."""


@dataclass(frozen=True)
class OfficialText:
    """The user's rulebook, cut into sections by rule number."""

    path: Path
    sections: dict[str, str]

    def passage(self, number: str, question: str = "", limit: int = PASSAGE_CHARS) -> str | None:
        """The section paragraph that best matches the question (else the first), cut to ``limit`` chars."""
        body = self.sections.get(number)
        if body is None:
            return None
        paragraphs = [" ".join(part.split()) for part in re.split(r"\n\s*\n|\n(?=- )", body) if part.strip()]
        if not paragraphs:
            return None
        wanted = {stem(word) for word in content_words(question) if not word.isdigit()}
        best = paragraphs[0]
        if wanted:
            scored = [
                (len(wanted & {stem(word) for word in content_words(paragraph)}), -position, paragraph)
                for position, paragraph in enumerate(paragraphs)
            ]
            top = max(scored)
            if top[0] > 0:
                best = top[2]
        return best if len(best) <= limit else best[: limit - 1].rsplit(" ", 1)[0] + "…"


def _read_text(path: Path) -> str:
    """The rulebook's text: a regular file of at most 64 MiB, read as PDF or as UTF-8 text.

    :raises UserInputError: the file is missing, not a regular file, too big or not a PDF.
    """
    try:
        raw = read_bytes(path, limit=MAX_RULEBOOK_BYTES)
    except BadFile as error:
        if error.missing:
            raise UserInputError(f"rulebook file not found: {path}") from None
        raise UserInputError(f"rulebook {error}") from None
    if path.suffix.lower() == ".pdf":
        try:
            from pypdf import PdfReader
            from pypdf.errors import PyPdfError
        except ImportError as error:  # pragma: no cover - pypdf is a dependency
            raise UserInputError("reading a PDF rulebook needs the pypdf package") from error
        try:
            reader = PdfReader(io.BytesIO(raw))
            return "\n".join(page.extract_text() or "" for page in reader.pages)
        except (PyPdfError, OSError, ValueError) as error:
            raise UserInputError(f"cannot read PDF rulebook {path}: {error}") from error
    return raw.decode("utf-8", errors="replace")


def parse_official(text: str, digest: Digest, path: Path | None = None) -> OfficialText:
    """Split rulebook text into {rule number: section text} using the digest's numbers and titles."""
    from rapidfuzz import fuzz

    titles = {section.number: section.title.lower() for section in digest.sections}
    sections: dict[str, list[str]] = {}
    current: str | None = None
    for line in text.splitlines():
        if END_OF_RULES.match(line) and len(sections) > 10:
            current = None
            continue
        match = HEADING.match(line)
        if match:
            number, title = match.group(1), match.group(2).strip().lower()
            expected = titles.get(number)
            if expected is not None and fuzz.ratio(title, expected) >= TITLE_SIMILARITY:
                current = number
                sections.setdefault(number, [])
                continue
        if current is not None:
            sections[current].append(line)
    found = {number: "\n".join(lines).strip() for number, lines in sections.items()}
    if not found:
        raise UserInputError(
            f"no numbered Living Rules sections found in {path or 'the rulebook'}; "
            "expected headings like '5.5.2 Collapse'"
        )
    return OfficialText(path=path or Path("-"), sections=found)


def load_official(path: Path, digest: Digest) -> OfficialText:
    """Read and split the user's rulebook file (.txt, .md or .pdf)."""
    return parse_official(_read_text(path), digest, path)
