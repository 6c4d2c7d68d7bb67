"""``grandstrategy rules``: ask the rules assistant, or evaluate it on labelled questions."""

from __future__ import annotations

import json
import textwrap
from pathlib import Path
from typing import TYPE_CHECKING

import click

from grandstrategy.core.errors import UserInputError

if TYPE_CHECKING:
    from grandstrategy.rulebook.assistant import Reply

MAX_QUESTION = 2000
RULEBOOK_HELP = "Your own copy of the Living Rules (.txt, .md or .pdf): show the matching official passage."


@click.group(name="rules")
def app() -> None:
    """Rules assistant for Cataclysm: the numbered Living Rules section and a short answer."""


def _wrap(text: str, indent: str = "  ") -> str:
    return textwrap.fill(text, width=100, initial_indent=indent, subsequent_indent=indent)


@app.command()
@click.argument("question", nargs=-1, required=True)
@click.option("--top", "-k", "top", type=click.IntRange(1, 20), default=3, show_default=True, help="Answers.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON instead of text.")
@click.option("--rulebook", type=click.Path(dir_okay=False, path_type=Path), help=RULEBOOK_HELP)
@click.option("--context", help="The game's situation, e.g. the open decision's rule ('LR 8.0').")
def ask(
    question: tuple[str, ...], top: int, as_json: bool, rulebook: Path | None, context: str | None
) -> None:
    """Answer QUESTION: the fact that answers it, then the rule sections ("can the reds attack the nazis")."""
    from grandstrategy.rulebook.assistant import RulesAssistant

    text = " ".join(question).strip()
    if not text:
        raise UserInputError('ask needs a question, e.g. grandstrategy rules ask "what is a flag"')
    if len(text) > MAX_QUESTION:
        raise UserInputError(f"the question is too long ({len(text)} characters; at most {MAX_QUESTION})")
    reply = RulesAssistant.load(rulebook).ask(text, top, context=context)
    if as_json:
        click.echo(json.dumps(reply.to_json(), ensure_ascii=False, indent=2))
        return
    click.echo(format_reply(reply))


def format_reply(reply: Reply) -> str:
    """The text shape of a reply: the answering fact first, then each section with its summary."""
    lines: list[str] = []
    if reply.corrections:
        fixed = ", ".join(f"{wrong} -> {right}" for wrong, right in reply.corrections.items())
        lines.append(f"(read as: {fixed})")
    if not reply.answers:
        lines.append(reply.note or "No answer.")
        return "\n".join(lines)
    for position, answer in enumerate(reply.answers):
        if position:
            lines.append("")
        if answer.fact:
            lines.append(textwrap.fill(answer.fact, width=100) if position == 0 else _wrap(answer.fact))
        lines.append(f"  LR {answer.section} {answer.title}  [score {answer.score:.2f}, {answer.match}]")
        lines.append(_wrap(answer.summary))
        if answer.related:
            lines.append(f"  Related: {', '.join(answer.related)}")
        if answer.passage:
            lines.append("  Your rulebook:")
            lines.append(_wrap(answer.passage, indent="    | "))
    return "\n".join(lines)


@app.command(name="eval")
@click.argument("files", nargs=-1, type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--top", "-k", "top", type=click.IntRange(1, 20), default=3, show_default=True, help="Top-k.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON instead of text.")
@click.option("--max-misses", type=click.IntRange(0), default=50, show_default=True, help="Misses to list.")
def eval_command(files: tuple[Path, ...], top: int, as_json: bool, max_misses: int) -> None:
    """Top-1 and top-k accuracy, misses and latency on FILES (JSON lines); default: dev and held-out."""
    from grandstrategy.rulebook.assistant import RulesAssistant
    from grandstrategy.rulebook.evaluate import BUILTIN_SETS, builtin_set, evaluate, read_items

    assistant = RulesAssistant.load()
    assistant.ask("warm up")
    sets = [(path.name, read_items(path)) for path in files] or [(n, builtin_set(n)) for n in BUILTIN_SETS]
    reports = [evaluate(assistant, items, name, top) for name, items in sets]
    if as_json:
        click.echo(json.dumps([report.to_json() for report in reports], indent=2))
        return
    for report in reports:
        click.echo(
            f"{report.name}: {report.total} questions  top-1 {report.top1_accuracy:.1%}  "
            f"top-{report.k} {report.topk_accuracy:.1%}  latency p50 {report.percentile(50):.2f} ms  "
            f"p95 {report.percentile(95):.2f} ms  p99 {report.percentile(99):.2f} ms"
        )
        for miss in report.misses[:max_misses]:
            got = ", ".join(miss.got) or "no answer"
            click.echo(f"  miss: {miss.question!r}: expected {miss.expected}, got {got}")
        if len(report.misses) > max_misses:
            click.echo(f"  ... {len(report.misses) - max_misses} more misses")
