"""``grandstrategy rules``: ask the rules assistant, or evaluate it on labelled questions."""

from __future__ import annotations

import json
from pathlib import Path

import click

from grandstrategy.core.errors import UserInputError

RULEBOOK_HELP = "Your own copy of the Living Rules (.txt, .md or .pdf): show the matching official passage."


@click.group(name="rules")
def app() -> None:
    """Rules assistant for Cataclysm: the numbered Living Rules section and a short answer."""


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
    from grandstrategy.rulebook.assistant import MAX_QUESTION, RulesAssistant

    text = " ".join(question).strip()
    if not text:
        raise UserInputError('ask needs a question, e.g. grandstrategy rules ask "what is a flag"')
    if len(text) > MAX_QUESTION:
        raise UserInputError(f"the question is too long ({len(text)} characters; at most {MAX_QUESTION})")
    reply = RulesAssistant.load(rulebook).ask(text, top, context=context)
    if as_json:
        click.echo(json.dumps(reply.to_json(), ensure_ascii=False, indent=2))
        return
    click.echo(reply.to_text())


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
