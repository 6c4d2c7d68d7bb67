"""Read an XML file safely and keep the line of every element, for provenance.

Game files from elsewhere are untrusted input: the reader refuses files above a size bound,
refuses any document type definition with an internal subset and any entity declaration (so
no "billion laughs" expansion and no external entity is ever fetched), and bounds the depth and
the number of elements. A plain ``<!DOCTYPE game SYSTEM "game.dtd">`` line, as TripleA writes
it, is accepted and ignored: the named DTD is never read. Every failure is one
:class:`XmlFileError` naming the file and what is wrong.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from xml.parsers import expat

from grandstrategy.core.errors import DataError

MAX_BYTES = 4 * 1024 * 1024
"""Largest file accepted; TripleA's Revised game files are about 90 KB."""

MAX_ELEMENTS = 200_000
MAX_DEPTH = 64


class XmlFileError(DataError):
    """An XML file is missing, too large, unsafe or malformed."""


@dataclass(slots=True)
class Element:
    """One XML element: its tag, attributes, the line it starts on and its child elements."""

    tag: str
    attrs: dict[str, str]
    line: int
    children: list[Element] = field(default_factory=list)

    def iter(self, tag: str) -> list[Element]:
        """Every descendant element (this one included) with this tag, in document order."""
        found: list[Element] = []
        stack = [self]
        while stack:
            node = stack.pop()
            if node.tag == tag:
                found.append(node)
            stack.extend(reversed(node.children))
        return found

    def child(self, tag: str) -> Element | None:
        """The first direct child with this tag, if any."""
        return next((node for node in self.children if node.tag == tag), None)


class _Refused(Exception):
    """Raised inside expat's callbacks to stop parsing; carries the reason."""


def read_xml(path: Path, max_bytes: int = MAX_BYTES) -> Element:
    """Parse ``path`` into an :class:`Element` tree, or raise one :class:`XmlFileError`."""
    return parse_xml(read_bounded(path, max_bytes), str(path))


def read_bounded(path: Path, max_bytes: int = MAX_BYTES) -> bytes:
    """The bytes of ``path``, refusing a file above ``max_bytes`` without reading all of it."""
    try:
        with path.open("rb") as handle:
            data = handle.read(max_bytes + 1)
    except FileNotFoundError:
        raise XmlFileError(f"{path}: no such file") from None
    except IsADirectoryError:
        raise XmlFileError(f"{path}: is a directory, not an XML file") from None
    except OSError as error:
        raise XmlFileError(f"{path}: cannot be read ({error.strerror or error})") from None
    if len(data) > max_bytes:
        raise XmlFileError(f"{path}: is larger than {max_bytes} bytes; not a game file this reader accepts")
    return data


def parse_xml(data: bytes, name: str) -> Element:
    """Parse XML bytes (already bounded by the caller) into an :class:`Element` tree."""
    parser = expat.ParserCreate()
    root: list[Element] = []
    stack: list[Element] = []
    count = 0

    def start(tag: str, attrs: dict[str, str]) -> None:
        nonlocal count
        count += 1
        if count > MAX_ELEMENTS:
            raise _Refused(f"has more than {MAX_ELEMENTS} elements")
        if len(stack) >= MAX_DEPTH:
            raise _Refused(f"nests elements deeper than {MAX_DEPTH}")
        node = Element(tag, dict(attrs), parser.CurrentLineNumber)
        if stack:
            stack[-1].children.append(node)
        else:
            root.append(node)
        stack.append(node)

    def end(tag: str) -> None:
        stack.pop()

    def doctype(name: str, system_id: str | None, public_id: str | None, internal: int) -> None:
        if internal:
            raise _Refused("declares a DTD internal subset, which this reader refuses (entities are unsafe)")

    def entity(*_args: object) -> None:
        raise _Refused("declares an entity, which this reader refuses")

    def external(*_args: object) -> int:
        raise _Refused("refers to an external entity, which this reader refuses")

    def skipped(name: str, is_parameter: int) -> None:
        raise _Refused(f"refers to entity {name!r}, which this reader does not expand")

    parser.StartElementHandler = start
    parser.EndElementHandler = end
    parser.StartDoctypeDeclHandler = doctype
    parser.EntityDeclHandler = entity
    parser.UnparsedEntityDeclHandler = entity
    parser.ExternalEntityRefHandler = external
    parser.SkippedEntityHandler = skipped
    parser.SetParamEntityParsing(expat.XML_PARAM_ENTITY_PARSING_NEVER)
    try:
        parser.Parse(data, True)
    except _Refused as error:
        raise XmlFileError(f"{name}: {error}") from None
    except expat.ExpatError as error:
        reason = expat.ErrorString(error.code) if error.code else str(error)
        raise XmlFileError(
            f"{name}: is not well-formed XML at line {error.lineno}, column {error.offset + 1}: {reason}"
        ) from None
    if not root:
        raise XmlFileError(f"{name}: holds no XML element")
    return root[0]
