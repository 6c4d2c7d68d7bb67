"""``grandstrategy rules``: ask the rules assistant, or evaluate it on labelled questions."""

from __future__ import annotations

import json
from pathlib import Path

import click

from grandstrategy.core.errors import UserInputError

SET_NAMES = (
    "players-dev",
    "players-heldout",
    "offtopic-dev",
    "offtopic-heldout",
    "players-hard-dev",
    "offtopic-hard-dev",
    "dev",
    "heldout",
)
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
@click.option(
    "--set",
    "set_names",
    multiple=True,
    type=click.Choice(SET_NAMES),
    help="Bundled set to run (repeatable); default: all six.",
)
def eval_command(
    files: tuple[Path, ...], top: int, as_json: bool, max_misses: int, set_names: tuple[str, ...]
) -> None:
    """Score the assistant on FILES (JSON lines) or on the bundled sets (default: all six).

    Players' questions (dev, held-out): top-1/top-k accuracy and false refusals; off-topic questions:
    the refusal rate; the Q&A-pattern sets (dev, heldout) as before. Latency is reported, never judged.
    """
    from grandstrategy.rulebook.assistant import RulesAssistant
    from grandstrategy.rulebook.evaluate import ALL_SETS, Item, builtin_set, evaluate, read_items

    sets: list[tuple[str, list[Item]]] = []
    for path in files:
        items = read_items(path)
        on_topic = [item for item in items if not item.off_topic]
        off_topic = [item for item in items if item.off_topic]
        if on_topic or not off_topic:
            sets.append((path.name, on_topic))
        if off_topic:
            sets.append((f"{path.name} (off-topic)" if on_topic else path.name, off_topic))
    names = set_names or (() if files else ALL_SETS)
    sets.extend((name, builtin_set(name)) for name in names)
    assistant = RulesAssistant.load()
    assistant.ask("warm up")
    reports = [evaluate(assistant, items, name, top) for name, items in sets]
    if as_json:
        click.echo(json.dumps([report.to_json() for report in reports], indent=2))
        return
    for report in reports:
        click.echo(report.summary_line())
        for miss in report.misses[:max_misses]:
            got = ", ".join(miss.got) or "no answer"
            expected = ", ".join(miss.expected) or "a refusal"
            click.echo(f"  miss: {miss.question!r}: expected {expected}, got {got}")
        if len(report.misses) > max_misses:
            click.echo(f"  ... {len(report.misses) - max_misses} more misses")
