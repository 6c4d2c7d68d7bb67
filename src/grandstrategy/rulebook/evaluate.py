"""Evaluate the rules assistant on labelled questions (JSON lines).

Three kinds of bundled sets live in ``rulebook/data/eval``:

* players' questions (``players-dev``, ``players-heldout``): written in players' own voices, each labelled
  with the Living Rules sections that answer it (``{"question", "sections": [...], "answer", "kind",
  "tags"}``), best section first;
* off-topic and near-miss questions (``offtopic-dev``, ``offtopic-heldout``): ``"sections": []``, the
  assistant should refuse them;
* the Q&A-pattern sets (``dev``, ``heldout``): short patterns of the chatbot intents file, one
  ``"section"`` each.

Scoring rule: an answer counts for a label when its section IS the label or lies inside it (its number
starts with the label's number and a dot: 9.3.1 counts for a 9.3 label; 9.3 does NOT count for a 9.3.1
label, and a chapter label such as 10.0 only accepts 10.0 itself). ``exact`` counts only identical
numbers. Latency is measured for reporting only; nothing here asserts on time.
"""

from __future__ import annotations

import hashlib
import re
import time
from collections.abc import Iterable
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path

from grandstrategy.core.errors import UserInputError
from grandstrategy.core.files import MAX_DATA_FILE_BYTES, BadFile, parse_json, read_text
from grandstrategy.rulebook.assistant import RulesAssistant

QA_SETS = ("dev", "heldout")
PLAYERS_SETS = ("players-dev", "players-heldout")
OFFTOPIC_SETS = ("offtopic-dev", "offtopic-heldout")
# Hard development sets (issue 16, round 2): whole table situations, slang and typos in players' voices,
# and near-miss off-topic questions. Dev only (no held-out half, so not split by split_of).
HARD_SETS = ("players-hard-dev", "offtopic-hard-dev")
BUILTIN_SETS = QA_SETS  # the Q&A-pattern sets, as before (benchmarks/rules_latency.py reads them)
ALL_SETS = PLAYERS_SETS + OFFTOPIC_SETS + HARD_SETS + QA_SETS
OFFTOPIC = "offtopic"
MAX_EVAL_LINES = 100_000


def normalise_question(question: str) -> str:
    """The form a question is hashed and compared in: case-folded, runs of white space made one space."""
    return re.sub(r"\s+", " ", question.casefold()).strip()


def split_of(question: str) -> str:
    """'dev' or 'heldout' for a players' or off-topic question: a fixed function of its text alone.

    The first byte of the SHA-256 of the normalised question decides (even: dev, odd: held-out), so
    a question never changes sides when others are added; every section gets a dev question because
    the set's authors wrote further questions for a section until one landed in dev.
    """
    digest = hashlib.sha256(normalise_question(question).encode("utf-8")).digest()
    return "dev" if digest[0] % 2 == 0 else "heldout"


def label_accepts(label: str, answered: str) -> bool:
    """True when an answer of section ``answered`` counts for ``label`` (the label or a sub-section of it)."""
    return answered == label or answered.startswith(label + ".")


@dataclass(frozen=True)
class Item:
    """One labelled question: the sections that answer it (best first; none for off-topic)."""

    question: str
    sections: tuple[str, ...]
    intent: str = ""
    answer: str = ""
    kind: str = ""
    tags: tuple[str, ...] = ()

    @property
    def section(self) -> str:
        """The best label ("" for an off-topic question)."""
        return self.sections[0] if self.sections else ""

    @property
    def off_topic(self) -> bool:
        """Whether the assistant should refuse this question."""
        return self.kind == OFFTOPIC or not self.sections


@dataclass(frozen=True)
class Miss:
    """A question whose labels were not matched by the top answer (or an off-topic question answered)."""

    question: str
    expected: tuple[str, ...]
    got: tuple[str, ...]


def _percentile(values: list[float], p: float) -> float:
    """Nearest-rank percentile (0.0 for no values)."""
    if not values:
        return 0.0
    ordered = sorted(values)
    rank = max(0, min(len(ordered) - 1, round(p / 100 * len(ordered) + 0.5) - 1))
    return ordered[rank]


@dataclass
class EvalReport:
    """Scores over one set: accuracy and false refusals for on-topic questions, refusals for off-topic."""

    name: str
    total: int
    top1: int
    topk: int
    k: int
    kind: str = "on-topic"
    top1_exact: int = 0
    refused: int = 0
    misses: list[Miss] = field(default_factory=list)
    latencies_ms: list[float] = field(default_factory=list)

    @property
    def top1_accuracy(self) -> float:
        """Share of questions whose first answer matches a label."""
        return self.top1 / self.total if self.total else 0.0

    @property
    def topk_accuracy(self) -> float:
        """Share of questions with a matching section among the first k answers."""
        return self.topk / self.total if self.total else 0.0

    @property
    def refusal_rate(self) -> float:
        """Share of questions given no answer: wanted for off-topic sets, a false refusal otherwise."""
        return self.refused / self.total if self.total else 0.0

    def percentile(self, p: float) -> float:
        """Latency percentile in milliseconds (nearest rank)."""
        return _percentile(self.latencies_ms, p)

    def to_json(self) -> dict[str, object]:
        """Machine-readable summary."""
        data: dict[str, object] = {"name": self.name, "kind": self.kind, "questions": self.total}
        if self.kind == OFFTOPIC:
            data["refusal_rate"] = round(self.refusal_rate, 4)
        else:
            data["top1"] = round(self.top1_accuracy, 4)
            data[f"top{self.k}"] = round(self.topk_accuracy, 4)
            data["top1_exact"] = round(self.top1_exact / self.total, 4) if self.total else 0.0
            data["false_refusal_rate"] = round(self.refusal_rate, 4)
        data["latency_ms"] = {f"p{p}": round(self.percentile(p), 3) for p in (50, 95, 99)}
        data["misses"] = [
            {"question": m.question, "expected": list(m.expected), "got": list(m.got)} for m in self.misses
        ]
        return data

    def summary_line(self) -> str:
        """One line of text for the console."""
        latency = (
            f"latency p50 {self.percentile(50):.2f} ms  p95 {self.percentile(95):.2f} ms  "
            f"p99 {self.percentile(99):.2f} ms"
        )
        if self.kind == OFFTOPIC:
            return f"{self.name}: {self.total} questions  refused {self.refusal_rate:.1%}  {latency}"
        return (
            f"{self.name}: {self.total} questions  top-1 {self.top1_accuracy:.1%}  "
            f"top-{self.k} {self.topk_accuracy:.1%}  false refusals {self.refusal_rate:.1%}  {latency}"
        )


def _item(data: object) -> Item:
    if not isinstance(data, dict) or not isinstance(data.get("question"), str):
        raise TypeError("not a question object")
    if "sections" in data:
        sections = data["sections"]
        if not isinstance(sections, list) or not all(isinstance(s, str) for s in sections):
            raise TypeError("sections must be a list of strings")
        labels = tuple(sections)
    else:
        labels = (str(data["section"]),)
    tags = data.get("tags", [])
    kind = str(data.get("kind", "" if labels else OFFTOPIC))
    return Item(
        question=data["question"],
        sections=labels,
        intent=str(data.get("intent", "")),
        answer=str(data.get("answer", "")),
        kind=kind,
        tags=tuple(str(tag) for tag in tags) if isinstance(tags, list) else (),
    )


def read_items(path: Path) -> list[Item]:
    """Read a JSON-lines file of labelled questions ("section": one label, or "sections": a list).

    :raises UserInputError: the file cannot be read, is not a regular UTF-8 file or is too big; a
        line that is not a JSON object with ``question`` and ``section`` or ``sections`` (named).
    """
    lines = read_text(path, limit=MAX_DATA_FILE_BYTES).splitlines()
    if len(lines) > MAX_EVAL_LINES:
        raise UserInputError(f"{path}: more than {MAX_EVAL_LINES} lines")
    items: list[Item] = []
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            items.append(_item(parse_json(line, f"{path}:{number}")))
        except BadFile as error:
            raise UserInputError(
                f"{error}; expected a JSON object with 'question' and 'section' or 'sections'"
            ) from None
        except (KeyError, TypeError) as error:
            raise UserInputError(
                f"{path}:{number}: expected a JSON object with 'question' and 'section' or 'sections'"
            ) from error
    return items


def builtin_set(name: str) -> list[Item]:
    """A bundled evaluation set (see ALL_SETS)."""
    if name not in ALL_SETS:
        raise UserInputError(f"unknown evaluation set {name!r}; choose from {', '.join(ALL_SETS)}")
    resource = resources.files("grandstrategy.rulebook") / "data" / "eval" / f"{name}.jsonl"
    with resources.as_file(resource) as path:
        return read_items(Path(path))


def _kind_of(items: Iterable[Item]) -> str:
    """A set is off-topic when every item in it is."""
    listed = list(items)
    return OFFTOPIC if listed and all(item.off_topic for item in listed) else "on-topic"


def evaluate(assistant: RulesAssistant, items: list[Item], name: str = "eval", k: int = 3) -> EvalReport:
    """Ask every question once (warm index) and score the answers against the labels.

    On-topic: top-1/top-k by ``label_accepts``, exact top-1, and the share refused. Off-topic: the share
    refused (an answered off-topic question is listed as a miss).
    """
    kind = _kind_of(items)
    report = EvalReport(name=name, total=len(items), top1=0, topk=0, k=k, kind=kind)
    for item in items:
        start = time.perf_counter()
        answers = assistant.ask(item.question, k).answers
        report.latencies_ms.append((time.perf_counter() - start) * 1000)
        got = tuple(answer.section for answer in answers)
        if not got:
            report.refused += 1
        if item.off_topic:
            if got:
                report.misses.append(Miss(item.question, (), got))
            continue
        if got and any(label_accepts(label, got[0]) for label in item.sections):
            report.top1 += 1
        else:
            report.misses.append(Miss(item.question, item.sections, got))
        if got and got[0] in item.sections:
            report.top1_exact += 1
        if any(label_accepts(label, section) for label in item.sections for section in got[:k]):
            report.topk += 1
    return report
