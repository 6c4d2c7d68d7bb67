"""``grandstrategy cataclysm ...``: check, look at and query the Cataclysm world."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import click

from grandstrategy.cataclysm.lookup import (
    CONNECTION_NAMES,
    area_facts,
    naval_reach,
    resolve_area,
    resolve_scenario,
    scenario_list,
)
from grandstrategy.cataclysm.module import Module, check_module, load_module
from grandstrategy.core.errors import DataError, UserInputError
from grandstrategy.core.files import MAX_SMALL_FILE_BYTES, BadFile, atomic_write, read_stream, read_text

MODULE_OPTION = click.option(
    "--module",
    "module_dir",
    type=click.Path(path_type=Path),
    default=None,
    help="Module directory to use instead of the shipped reconstructed one.",
)
JSON_OPTION = click.option("--json", "as_json", is_flag=True, help="Print JSON instead of text.")


def _print_json(data: Any) -> None:
    click.echo(json.dumps(data, indent=2, ensure_ascii=False))


@click.group(name="cataclysm")
def app() -> None:
    """Cataclysm: A Second World War: the world the engine plays on."""


@app.command()
@click.argument("module_dir", required=False, type=click.Path(path_type=Path))
@JSON_OPTION
def check(module_dir: Path | None, as_json: bool) -> None:
    """Validate a module directory (default: the shipped one) and summarise it."""
    report = check_module(module_dir)
    if as_json:
        _print_json(
            {
                "ok": report.ok,
                "directory": str(report.directory),
                "summary": report.summary(),
                "problems": [str(problem) for problem in report.problems],
            }
        )
    elif report.ok:
        summary = report.summary()
        records = summary["records"]
        types = ", ".join(f"{count} {kind}" for kind, count in summary["areas_by_type"].items())
        maps = ", ".join(f"{count} {name}" for name, count in summary["areas_by_map"].items())
        click.echo(f"module {summary['module']} {summary['version']}: OK")
        click.echo(f"  areas        {summary['areas']} ({types}; {maps})")
        click.echo(f"  connections  {summary['connections']}")
        click.echo(f"  powers       {summary['powers']}")
        click.echo(f"  scenarios    {summary['scenarios']}")
        click.echo(f"  crisis table entries {summary['crisis_entries']}")
        click.echo(
            f"  records      {records['from_rules']} cite the rules, "
            f"{records['from_public_accounts']} public "
            f"accounts, {records['reconstructed']} reconstructed"
        )
        click.echo(f"  content hash {summary['content_hash'][:23]}")
    else:
        click.echo(f"module in {report.directory}: {len(report.problems)} problem(s)", err=True)
        for problem in report.problems:
            click.echo(f"  {problem}", err=True)
    if not report.ok:
        raise SystemExit(1)


def _load(module_dir: Path | None) -> Module:
    try:
        return load_module(module_dir)
    except DataError as error:
        raise DataError(f"{error}\n(run 'grandstrategy cataclysm check' for the full list)") from None


@app.command()
@click.argument("name")
@JSON_OPTION
@MODULE_OPTION
def area(name: str, as_json: bool, module_dir: Path | None) -> None:
    """Show an area's facts, its neighbours with the kind of each connection, and provenance."""
    module = _load(module_dir)
    facts = area_facts(module, resolve_area(module, name))
    if as_json:
        _print_json(facts)
        return
    click.echo(f"{facts['name']} ({facts['type']}, {facts['map']} map)")
    for key, value in facts["facts"].items():
        click.echo(f"  {key}: {_short(value)}")
    click.echo("  neighbours:")
    for neighbor in facts["neighbors"]:
        kind = CONNECTION_NAMES[neighbor["kind"]]
        if neighbor["kind"] == "connector":
            kind += f" {neighbor['label']} ({'/'.join(neighbor['modes'])})"
        click.echo(f"    {neighbor['name']:<24} {kind}")
    if facts["impassable"]:
        click.echo(f"  impassable border with: {', '.join(facts['impassable'])}")
    click.echo(f"  provenance: {facts['provenance']}")


def _short(value: Any) -> str:
    if isinstance(value, list):
        joiner = "; " if any(isinstance(item, dict | list) for item in value) else ", "
        return joiner.join(_short(item) for item in value)
    if isinstance(value, dict):
        return ", ".join(f"{k}={_short(v)}" for k, v in value.items() if k != "provenance")
    return str(value)


@app.command()
@click.argument("area_name", metavar="AREA")
@click.option(
    "--naval",
    "steps",
    type=click.IntRange(0, 20),
    required=True,
    help="Naval range in areas (2 normally, 3 extended; at most 20).",
)
@click.option(
    "--friendly",
    multiple=True,
    help="A land area friendly to the mover (lets naval movement cross a "
    "special coastal area such as Egypt). Repeatable.",
)
@JSON_OPTION
@MODULE_OPTION
def reach(
    area_name: str, steps: int, friendly: tuple[str, ...], as_json: bool, module_dir: Path | None
) -> None:
    """List the areas a naval unit based in AREA reaches within N areas (LR 7.3.1)."""
    module = _load(module_dir)
    result = naval_reach(
        module, resolve_area(module, area_name), steps, [resolve_area(module, name) for name in friendly]
    )
    if as_json:
        _print_json(result)
        return
    click.echo(
        f"Within naval range {steps} of {result['from']} ({len(result['areas'])} areas; {result['rule']}):"
    )
    for step, names in result["by_distance"].items():
        click.echo(f"  {step}: {', '.join(names) if names else '-'}")


@app.command()
@JSON_OPTION
@MODULE_OPTION
def scenarios(as_json: bool, module_dir: Path | None) -> None:
    """List the module's scenarios."""
    listed = scenario_list(_load(module_dir))
    if as_json:
        _print_json(listed)
        return
    for item in listed:
        click.echo(
            f"{item['id']:<16} {item['title']}: {item['first_turn']} to {item['last_turn']}, "
            f"maps: {', '.join(item['maps'])}"
        )


@app.command(name="map")
@click.option("--scenario", "scenario_id", default=None, help="Show this scenario's control and units.")
@click.option("--out", "out", type=click.Path(path_type=Path), required=True, help="Where to write the SVG.")
@MODULE_OPTION
def map_command(scenario_id: str | None, out: Path, module_dir: Path | None) -> None:
    """Draw both maps as SVG: areas, connections, resources, bases and a scenario's units."""
    from grandstrategy.cataclysm.render_svg import render_map

    module = _load(module_dir)
    scenario = resolve_scenario(module, scenario_id) if scenario_id else None
    svg = render_map(module, scenario)
    try:
        atomic_write(out, svg.encode("utf-8"))
    except OSError as error:
        raise UserInputError(f"cannot write {out}: {error.strerror or error}") from None
    click.echo(f"wrote {out} ({len(svg) // 1024} KiB)")


@app.command()
@click.option(
    "--attacker-dice",
    type=click.IntRange(0, 12),
    default=None,
    help="Dice the attacker rolls (0: one die at -1, LR 2.8).",
)
@click.option(
    "--attacker-mod",
    type=click.IntRange(-20, 20),
    default=0,
    show_default=True,
    help="Modifier to the attacker's result (-20 to 20).",
)
@click.option(
    "--defender-dice",
    type=click.IntRange(0, 12),
    default=None,
    help="Dice the defender rolls (0: one die at -1, LR 2.8).",
)
@click.option(
    "--defender-mod",
    type=click.IntRange(-20, 20),
    default=0,
    show_default=True,
    help="Modifier to the defender's result (-20 to 20).",
)
@click.option(
    "--situation",
    "situation_file",
    default=None,
    metavar="FILE",
    help="A JSON file describing the combat (- for stdin); see docs/cataclysm-odds.md.",
)
@JSON_OPTION
def odds(
    attacker_dice: int | None,
    attacker_mod: int,
    defender_dice: int | None,
    defender_mod: int,
    situation_file: str | None,
    as_json: bool,
) -> None:
    """Exact combat odds (LR 10): from dice and modifiers, or from a described --situation."""
    if situation_file is not None:
        ctx = click.get_current_context()
        given = [
            f"--{name.replace('_', '-')}"
            for name in ("attacker_dice", "attacker_mod", "defender_dice", "defender_mod")
            if ctx.get_parameter_source(name) is click.core.ParameterSource.COMMANDLINE
        ]
        if given:
            raise click.UsageError(f"--situation describes the whole combat; leave out {', '.join(given)}")
        _situation_odds(situation_file, as_json)
        return
    if attacker_dice is None or defender_dice is None:
        raise click.UsageError("give --attacker-dice and --defender-dice, or --situation FILE")
    from grandstrategy.cataclysm.rules.dice import combat_odds, rolled

    # LR 2.8: a side reduced to zero dice rolls one die at -1
    a_dice, a_mod = rolled(attacker_dice, attacker_mod)
    d_dice, d_mod = rolled(defender_dice, defender_mod)
    result = combat_odds(a_dice, a_mod, d_dice, d_mod)
    loser = {str(k): float(v) for k, v in result.loser_losses().items()}
    data: dict[str, Any] = {
        "method": "exact",
        "note": "enumerated over every die result, not sampled",
        "attacker_wins": float(result.attacker_wins),
        "defender_wins": float(result.defender_wins),
        "tie": float(result.tie),
        "losses": loser,
        "defender_losses": {str(k): float(v) for k, v in result.defender_losses.items()},
        "attacker_losses": {str(k): float(v) for k, v in result.attacker_losses.items()},
        "exact": {
            "attacker_wins": str(result.attacker_wins),
            "defender_wins": str(result.defender_wins),
            "tie": str(result.tie),
        },
    }
    if 0 in (attacker_dice, defender_dice):  # what was rolled instead of zero dice (LR 2.8)
        data["rolled"] = {
            "attacker_dice": a_dice,
            "attacker_mod": a_mod,
            "defender_dice": d_dice,
            "defender_mod": d_mod,
        }
    if as_json:
        _print_json(data)
        return
    click.echo(
        f"Attacker {attacker_dice} dice {attacker_mod:+d} vs defender {defender_dice} dice {defender_mod:+d} "
        "(exact: every die result enumerated)"
    )
    for role, asked, count, mod in (
        ("attacker", attacker_dice, a_dice, a_mod),
        ("defender", defender_dice, d_dice, d_mod),
    ):
        if asked == 0:
            click.echo(f"  the {role} has no dice left: it rolls {count} die {mod:+d} (LR 2.8)")
    click.echo(
        f"  attacker wins {data['attacker_wins']:.2%}   defender wins {data['defender_wins']:.2%}   "
        f"tie {data['tie']:.2%} (1 loss each)"
    )
    click.echo("  loser's losses when not tied: " + ", ".join(f"{k}: {v:.2%}" for k, v in loser.items()))


def _situation_odds(situation_file: str, as_json: bool) -> None:
    """``odds --situation FILE``: read, enumerate, print JSON or a table."""
    import sys

    from grandstrategy.cataclysm.odds import load_situation, situation_odds

    if situation_file == "-":
        source = "stdin"
        text = read_stream(sys.stdin, limit=MAX_SMALL_FILE_BYTES, source=source)
    else:
        source = situation_file
        try:
            text = read_text(situation_file, limit=MAX_SMALL_FILE_BYTES)
        except BadFile as error:
            reason = error.reason.removeprefix("cannot read: ")
            raise UserInputError(f"cannot read situation file {situation_file}: {reason}") from None
    result = situation_odds(load_situation(text, source))
    if as_json:
        _print_json(result.to_json())
        return
    click.echo(_render_situation_odds(result.to_json()), nl=False)


def _render_situation_odds(data: dict[str, Any]) -> str:
    """The readable form of ``odds --situation``: outcomes, losses, then the dice and why."""
    import io

    from rich.console import Console
    from rich.table import Table

    out = io.StringIO()
    console = Console(file=out, width=110, color_system=None, highlight=False)
    attacker, defender = data["attacker"], data["defender"]
    kind = "strategic bombing" if data["strategic_bombing"] else f"{data['combat']} combat"
    outcome = Table(title=f"{attacker} attacks {defender}: {kind} ({data['method']})")
    outcome.add_column("outcome")
    outcome.add_column("probability", justify="right")
    outcome.add_row(f"{attacker} wins", f"{data['attacker_wins']:.2%}")
    outcome.add_row(f"{defender} wins", f"{data['defender_wins']:.2%}")
    outcome.add_row("tie (1 loss each)", f"{data['tie']:.2%}")
    if data["combat"] != "air":
        outcome.add_row(
            f"triumph for {attacker}, disaster for {defender}", f"{data['triumph']['attacker']:.2%}"
        )
        outcome.add_row(
            f"triumph for {defender}, disaster for {attacker}", f"{data['triumph']['defender']:.2%}"
        )
    if "resource_damaged" in data:
        outcome.add_row("resource damaged", f"{data['resource_damaged']:.2%}")
    outcome.add_row("loser may retreat voluntarily", f"{data['retreat_allowed']:.2%}")
    console.print(outcome)

    table = Table(title="Losses inflicted (before any voluntary retreat)")
    table.add_column("losses", justify="right")
    table.add_column(f"on {attacker}", justify="right")
    table.add_column(f"on {defender}", justify="right")
    keys = sorted({int(k) for k in data["attacker_losses"]} | {int(k) for k in data["defender_losses"]})
    for key in keys:
        a = data["attacker_losses"].get(str(key), 0.0)
        d = data["defender_losses"].get(str(key), 0.0)
        table.add_row(str(key), f"{a:.2%}", f"{d:.2%}")
    console.print(table)

    def dice(terms: dict[str, Any], role: str) -> str:
        n, mod = terms[f"{role}_dice"], terms[f"{role}_modifier"]
        return f"{n} {'die' if n == 1 else 'dice'} {mod:+d}"

    air = data.get("air_combat")
    if air:
        console.print(
            f"Air combat for superiority: {attacker} {dice(air['terms'], 'attacker')} vs {defender} "
            f"{dice(air['terms'], 'defender')}; {attacker} wins {air['attacker_wins']:.2%}, "
            f"{defender} wins {air['defender_wins']:.2%}, tie {air['tie']:.2%}"
        )
        for reason in air["terms"]["reasons"]:
            console.print(f"  - {reason}")
    for case in data["cases"]:
        holder = case["air_superiority"]
        if data["combat"] == "air":
            head = "Air combat"
        else:
            who = {"attacker": attacker, "defender": defender}.get(holder, "neither side")
            head = f"Air superiority to {who} ({case['probability']:.2%})"
        terms = case["terms"]
        console.print(
            f"{head}: {attacker} {dice(terms, 'attacker')} vs {defender} {dice(terms, 'defender')}; "
            f"{attacker} wins {case['attacker_wins']:.2%}"
        )
        for reason in terms["reasons"]:
            console.print(f"  - {reason}")
    for policy in data["policies"]:
        console.print(f"Assumed: {policy}")
    return out.getvalue()


@app.command()
@click.option(
    "--scenario", "scenario_id", default="campaign-1933", show_default=True, help="Scenario to play."
)
@click.option(
    "--seed",
    type=click.IntRange(0, 2**64 - 1),
    default=1,
    show_default=True,
    help="Seed for dice and choices.",
)
@click.option("--log", "show_log", is_flag=True, help="Print the whole game log.")
@JSON_OPTION
def selfplay(scenario_id: str, seed: int, show_log: bool, as_json: bool) -> None:
    """Play one whole game with every power choosing uniformly at random among its legal options.

    The rules engine covers the political and economic game so far (docs/rules-coverage.md).
    """
    import time

    from grandstrategy.cataclysm.engine import CATACLYSM, CataclysmGame
    from grandstrategy.core.rng import Rng
    from grandstrategy.core.session import Match

    started = time.perf_counter()
    match = Match(CATACLYSM, seed=seed, options={"scenario": scenario_id})
    chooser = Rng(seed ^ 0x5EED)
    decisions = 0
    while (decision := match.decision()) is not None:
        match.play(decision.seat, decision.legal[chooser.below(len(decision.legal))])
        decisions += 1
    game = match.state
    assert isinstance(game, CataclysmGame)
    result = game.state.result or {}
    data: dict[str, Any] = {
        "scenario": scenario_id,
        "seed": seed,
        "winner": result.get("winner"),
        "end": result.get("how"),
        "scores": result.get("scores"),
        "turns": (game.state.turn - game.module.scenarios[scenario_id].start) // 2 + 1,
        "decisions": decisions,
        "chance_events": len(match.log) - decisions,
        "state_hash": match.state_hash(),
        "seconds": round(time.perf_counter() - started, 3),
    }
    if as_json:
        if show_log:
            data["log"] = game.state.log
        _print_json(data)
        return
    if show_log:
        for line in game.state.log:
            click.echo(line)
    scores = ", ".join(f"{k} {v}" for k, v in (data["scores"] or {}).items())
    click.echo(f"{scenario_id} seed {seed}: {data['winner']} wins ({data['end']}); {scores}")
    click.echo(
        f"  {data['turns']} turns, {decisions} decisions, {data['chance_events']} chance events, "
        f"{data['seconds']} s"
    )
