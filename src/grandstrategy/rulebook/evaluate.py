"""Evaluate the rules assistant on labelled questions (JSON lines: {"question": ..., "section": ...})."""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path

from grandstrategy.core.errors import UserInputError
from grandstrategy.core.files import MAX_DATA_FILE_BYTES, BadFile, parse_json, read_text
from grandstrategy.rulebook.assistant import RulesAssistant

BUILTIN_SETS = ("dev", "heldout")


@dataclass(frozen=True)
class Item:
    """One labelled question."""

    question: str
    section: str
    intent: str = ""


@dataclass(frozen=True)
class Miss:
    """A question whose label was not the top answer."""

    question: str
    expected: str
    got: tuple[str, ...]


@dataclass
class EvalReport:
    """Accuracy and latency over one set of questions."""

    name: str
    total: int
    top1: int
    topk: int
    k: int
    misses: list[Miss] = field(default_factory=list)
    latencies_ms: list[float] = field(default_factory=list)

    @property
    def top1_accuracy(self) -> float:
        """Share of questions whose first answer is the labelled section."""
        return self.top1 / self.total if self.total else 0.0

    @property
    def topk_accuracy(self) -> float:
        """Share of questions with the labelled section among the first k answers."""
        return self.topk / self.total if self.total else 0.0

    def percentile(self, p: float) -> float:
        """Latency percentile in milliseconds (nearest rank)."""
        if not self.latencies_ms:
            return 0.0
        ordered = sorted(self.latencies_ms)
        rank = max(0, min(len(ordered) - 1, round(p / 100 * len(ordered) + 0.5) - 1))
        return ordered[rank]

    def to_json(self) -> dict[str, object]:
        """Machine-readable summary."""
        return {
            "name": self.name,
            "questions": self.total,
            "top1": round(self.top1_accuracy, 4),
            f"top{self.k}": round(self.topk_accuracy, 4),
            "latency_ms": {f"p{p}": round(self.percentile(p), 3) for p in (50, 95, 99)},
            "misses": [
                {"question": m.question, "expected": m.expected, "got": list(m.got)} for m in self.misses
            ],
        }


def read_items(path: Path) -> list[Item]:
    """Read a JSON-lines file of labelled questions (a regular UTF-8 file, strict JSON per line).

    :raises UserInputError: the file cannot be read or is not UTF-8 text; a line that is not a
        JSON object with ``question`` and ``section`` text (its line number is named).
    """
    lines = read_text(path, limit=MAX_DATA_FILE_BYTES).splitlines()
    items: list[Item] = []
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            data = parse_json(line, f"{path}:{number}")
        except BadFile as error:
            raise UserInputError(f"{error}; expected a JSON object with 'question' and 'section'") from None
        fields = [data.get(key) if isinstance(data, dict) else None for key in ("question", "section")]
        if not all(isinstance(value, str | int | float) for value in fields):
            raise UserInputError(f"{path}:{number}: expected a JSON object with 'question' and 'section'")
        items.append(Item(str(fields[0]), str(fields[1]), str(data.get("intent", ""))))
    return items


def builtin_set(name: str) -> list[Item]:
    """A bundled evaluation set: 'dev' or 'heldout'."""
    if name not in BUILTIN_SETS:
        raise UserInputError(f"unknown evaluation set {name!r}; choose from {', '.join(BUILTIN_SETS)}")
    resource = resources.files("grandstrategy.rulebook") / "data" / "eval" / f"{name}.jsonl"
    with resources.as_file(resource) as path:
        return read_items(Path(path))


def evaluate(assistant: RulesAssistant, items: list[Item], name: str = "eval", k: int = 3) -> EvalReport:
    """Ask every question once (warm index) and score the answers against the labels."""
    report = EvalReport(name=name, total=len(items), top1=0, topk=0, k=k)
    for item in items:
        start = time.perf_counter()
        answers = assistant.ask(item.question, k).answers
        report.latencies_ms.append((time.perf_counter() - start) * 1000)
        got = tuple(answer.section for answer in answers)
        if got[:1] == (item.section,):
            report.top1 += 1
        else:
            report.misses.append(Miss(item.question, item.section, got))
        if item.section in got[:k]:
            report.topk += 1
    return report
