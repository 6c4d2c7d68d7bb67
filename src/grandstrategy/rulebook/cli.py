"""``grandstrategy rules``: ask the rules assistant, or evaluate it on labelled questions."""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

import click

from grandstrategy.core.errors import UserInputError

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
def ask(question: tuple[str, ...], top: int, as_json: bool, rulebook: Path | None) -> None:
    """Answer QUESTION with the best matching rule sections ("what is a flag", "what does 5.5.2 say")."""
    from grandstrategy.rulebook.assistant import RulesAssistant

    text = " ".join(question).strip()
    if not text:
        raise UserInputError('ask needs a question, e.g. grandstrategy rules ask "what is a flag"')
    reply = RulesAssistant.load(rulebook).ask(text, top)
    if as_json:
        click.echo(json.dumps(reply.to_json(), ensure_ascii=False, indent=2))
        return
    if reply.corrections:
        fixed = ", ".join(f"{wrong} -> {right}" for wrong, right in reply.corrections.items())
        click.echo(f"(read as: {fixed})")
    if not reply.answers:
        click.echo(reply.note or "No answer.")
        return
    for position, answer in enumerate(reply.answers):
        if position:
            click.echo()
        click.echo(f"{answer.section} {answer.title}  [score {answer.score:.2f}, {answer.match}]")
        click.echo(_wrap(answer.summary))
        if answer.related:
            click.echo(f"  Related: {', '.join(answer.related)}")
        if answer.passage:
            click.echo("  Official text:")
            click.echo(_wrap(answer.passage, indent="    | "))


@app.command(name="eval")
@click.argument("files", nargs=-1, type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--top", "-k", "top", type=click.IntRange(1, 20), default=3, show_default=True, help="Top-k.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON instead of text.")
@click.option("--max-misses", type=click.IntRange(0), default=50, show_default=True, help="Misses to list.")
def eval_command(files: tuple[Path, ...], top: int, as_json: bool, max_misses: int) -> None:
    """Top-1 and top-k accuracy, misses and latency on FILES (JSON lines); default: dev and held-out."""
    from grandstrategy.rulebook.assistant import RulesAssistant
    from grandstrategy.rulebook.evaluate import BUILTIN_SETS, builtin_set, evaluate, read_items

    sets = [(path.name, read_items(path)) for path in files] or [(n, builtin_set(n)) for n in BUILTIN_SETS]
    assistant = RulesAssistant.load()  # after the files: a bad file is refused at once
    assistant.ask("warm up")
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
