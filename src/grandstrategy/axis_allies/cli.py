"""``grandstrategy aa``: Axis & Allies battle odds (exact, or seeded Monte Carlo above a size guard)."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

if TYPE_CHECKING:
    from grandstrategy.axis_allies.odds import BattleOdds

HELP_FORCE = 'Units as "COUNT UNIT, ...", e.g. "3 inf, 1 art, 2 arm, 1 ftr" (abbreviations or full names).'


@click.group(name="aa")
def app() -> None:
    """Axis & Allies family (Revised, LHTR 1.3, Historical Edition variant): battle odds and the map."""


@app.command()
@click.option("--rules", "rules_name", default="revised", show_default=True, help="revised, lhtr or aarhe.")
@click.option("--attacker", "-a", required=True, help=HELP_FORCE)
@click.option("--defender", "-d", required=True, help=HELP_FORCE)
@click.option("--sea", is_flag=True, help="A naval battle (default: a land battle).")
@click.option(
    "--order", default="", help="Order of loss for both sides, e.g. inf,art,arm,ftr (others follow)."
)
@click.option(
    "--retreat-after",
    type=click.IntRange(max=1000),  # below 1: the battle's own one-line error
    default=None,
    help="Attacker retreats after this many rounds (at most 1000).",
)
@click.option("--bombard", default="", help='Ships bombarding a land battle in round 1, e.g. "1 bb".')
@click.option(
    "--amphibious",
    is_flag=True,
    help="aarhe only: the attacking land units land from the sea (implied by --bombard under aarhe).",
)
@click.option(
    "--overland",
    default="",
    help='aarhe landings: attacking land units that came by land instead, e.g. "1 arm".',
)
@click.option("--terrain", default="normal", show_default=True, help="aarhe only: normal, mountain or snow.")
@click.option(
    "--method",
    type=click.Choice(["auto", "exact", "monte-carlo"]),
    default="auto",
    show_default=True,
    help="auto: exact unless above the size guard.",
)
@click.option(
    "--trials",
    type=click.IntRange(1, 1_000_000),
    default=None,
    help="Monte Carlo trials (default 100000; 2000 for aarhe sea battles and amphibious assaults).",
)
@click.option(
    "--seed", type=click.IntRange(0, 2**63 - 1), default=1, show_default=True, help="Monte Carlo seed."
)
@click.option("--json", "as_json", is_flag=True, help="Print JSON instead of a table.")
def odds(
    rules_name: str,
    attacker: str,
    defender: str,
    sea: bool,
    order: str,
    retreat_after: int | None,
    bombard: str,
    amphibious: bool,
    overland: str,
    terrain: str,
    method: str,
    trials: int | None,
    seed: int,
    as_json: bool,
) -> None:
    """Win, loss and draw chances, expected survivors and TUV swing of one battle."""
    from grandstrategy.axis_allies.battle import Battle, resolve_order
    from grandstrategy.axis_allies.odds import battle_odds
    from grandstrategy.axis_allies.units import BattleSetupError, find_rules, parse_force

    ruleset = find_rules(rules_name)
    if ruleset.name == "aarhe" and (sea or amphibious or bombard.strip() or overland.strip()):
        variant = _aarhe_machine_odds(
            attacker, defender, sea, order, retreat_after, bombard, overland, terrain, method, trials, seed
        )
        if as_json:
            click.echo(json.dumps(variant.to_json(), indent=2))
        else:
            click.echo(_render(variant, ruleset.title), nl=False)
        return
    if amphibious or overland.strip():
        flag = "--amphibious" if amphibious else "--overland"
        raise BattleSetupError(f"{flag} applies only to the aarhe rule set (use --bombard for a landing)")
    battle = Battle.make(
        ruleset.name,
        parse_force(attacker, ruleset),
        parse_force(defender, ruleset),
        sea=sea,
        order=resolve_order(order, ruleset),
        bombard=parse_force(bombard, ruleset),
        retreat_after=retreat_after,
        terrain=terrain.strip().lower(),
    )
    result = battle_odds(battle, method=method, trials=100_000 if trials is None else trials, seed=seed)
    if as_json:
        click.echo(json.dumps(result.to_json(), indent=2))
        return
    click.echo(_render(result, ruleset.title), nl=False)


def _aarhe_machine_odds(
    attacker: str,
    defender: str,
    sea: bool,
    order: str,
    retreat_after: int | None,
    bombard: str,
    overland: str,
    terrain: str,
    method: str,
    trials: int | None,
    seed: int,
) -> BattleOdds:
    """A Historical Edition sea battle or amphibious assault, fought by the variant's machine."""
    from grandstrategy.axis_allies.aarhe_battle import aarhe_odds
    from grandstrategy.axis_allies.battle import resolve_order
    from grandstrategy.axis_allies.units import BattleSetupError, find_rules, parse_force

    ruleset = find_rules("aarhe")
    kind = "sea battles" if sea else "amphibious assaults"
    if retreat_after is not None:
        raise BattleSetupError(
            f"--retreat-after is not supported for aarhe {kind}: the default policy fights on"
        )
    return aarhe_odds(
        parse_force(attacker, ruleset),
        parse_force(defender, ruleset),
        sea=sea,
        bombard=parse_force(bombard, ruleset),
        terrain=terrain.strip().lower(),
        overland=parse_force(overland, ruleset),
        order=resolve_order(order, ruleset),
        method=method,
        trials=trials,
        seed=seed,
    )


def _render(result: object, title: str) -> str:
    from rich.console import Console
    from rich.table import Table

    from grandstrategy.axis_allies.odds import BattleOdds

    assert isinstance(result, BattleOdds)
    out = io.StringIO()
    console = Console(file=out, width=100, color_system=None, highlight=False)
    se = result.standard_errors

    def pct(key: str) -> str:
        value = float(getattr(result, key))
        text = f"{100 * value:.2f}%"
        return f"{text} ± {100 * se[key]:.2f}" if key in se else text

    outcome = Table(title=f"Battle odds: {title}", show_header=True)
    outcome.add_column("outcome")
    outcome.add_column("probability", justify="right")
    outcome.add_row("attacker wins", pct("attacker_win"))
    outcome.add_row("defender wins", pct("defender_win"))
    outcome.add_row("both destroyed", pct("draw"))
    if result.undecided:
        outcome.add_row("undecided (retreat/stalemate)", pct("undecided"))
    console.print(outcome)

    units = Table(title="Expected survivors", show_header=True)
    units.add_column("side")
    units.add_column("units")
    units.add_column("TUV lost", justify="right")
    for side in ("attacker", "defender"):
        surv: dict[str, float] = getattr(result, f"{side}_survivors")
        units.add_row(
            side,
            ", ".join(f"{n:.2f} {u}" for u, n in surv.items()) or "-",
            f"{getattr(result, f'{side}_tuv_lost'):.2f}",
        )
    console.print(units)

    dist = Table(title="Most likely remaining forces", show_header=True)
    dist.add_column("attacker")
    dist.add_column("p", justify="right")
    dist.add_column("defender")
    dist.add_column("p", justify="right")
    rows = max(min(len(result.attacker_remaining), 6), min(len(result.defender_remaining), 6))
    for i in range(rows):
        cells: list[str] = []
        for rem in (result.attacker_remaining, result.defender_remaining):
            cells += [rem[i][0], f"{100 * rem[i][1]:.2f}%"] if i < len(rem) else ["", ""]
        dist.add_row(*cells)
    console.print(dist)
    method = (
        result.method
        if result.trials is None
        else f"{result.method} ({result.trials} trials, seed {result.seed})"
    )
    console.print(f"TUV swing (defender lost - attacker lost): {result.tuv_swing:+.2f}")
    console.print(f"method: {method}; compute: {result.compute_ms:.1f} ms")
    if result.note:
        console.print(f"note: {result.note}")
    return out.getvalue()


MODULE_OPTION = click.option(
    "--module",
    "module_dir",
    type=click.Path(path_type=Path),
    default=None,
    help="Map module directory to use instead of the shipped Revised one.",
)


def _print_json(data: Any) -> None:
    click.echo(json.dumps(data, indent=2, ensure_ascii=False))


@app.command(name="import-triplea")
@click.argument("xml_file", metavar="FILE.xml", type=click.Path(path_type=Path))
@click.option("--out", "out", type=click.Path(path_type=Path), required=True, help="Directory to write.")
@click.option("--id", "module_id", default=None, help="Module id (default: from the game's name).")
@click.option(
    "--label",
    default=None,
    help="How provenance names the file (default: PARENT-DIR/FILE.xml).",
)
def import_triplea_command(xml_file: Path, out: Path, module_id: str | None, label: str | None) -> None:
    """Read a TripleA game file of the Revised family and write it as a checked map module."""
    from grandstrategy.axis_allies.module.triplea import import_triplea, write_module

    files = import_triplea(xml_file, label=label, module_id=module_id)
    written = write_module(files, out)
    territories = files["map.yaml"]["territories"]
    sea = sum(1 for t in territories if t["type"] == "sea")
    click.echo(
        f"wrote {len(written)} files to {out}: {len(territories) - sea} land territories, {sea} sea zones, "
        f"{len(files['powers.yaml']['powers'])} powers, {len(files['setup.yaml']['units'])} unit stacks"
    )


@app.command()
@click.argument("module_dir", required=False, type=click.Path(path_type=Path))
@click.option("--json", "as_json", is_flag=True, help="Print JSON instead of text.")
def check(module_dir: Path | None, as_json: bool) -> None:
    """Validate a map module directory (default: the shipped Revised one) and summarise it."""
    from grandstrategy.axis_allies.module import check_module

    report = check_module(module_dir)
    if as_json:
        _print_json(
            {
                "ok": report.ok,
                "directory": report.directory,
                "summary": report.summary(),
                "problems": [str(problem) for problem in report.problems],
            }
        )
    elif report.ok:
        summary = report.summary()
        records = summary["records"]
        click.echo(f"module {summary['module']} ({summary['title']}): OK")
        click.echo(
            f"  territories  {summary['land_territories']} land ({summary['impassable']} impassable, "
            f"{summary['islands']} islands), {summary['sea_zones']} sea zones"
        )
        click.echo(f"  connections  {summary['connections']}; canals {summary['canals']}")
        click.echo(f"  victory cities {summary['victory_cities']}")
        click.echo(f"  powers       {', '.join(summary['powers'])} (turn order)")
        click.echo(f"  units        {summary['unit_types']} types, {summary['starting_units']} at start")
        click.echo(
            f"  records      {records['from_source']} cite the game file, "
            f"{records['reconstructed']} reconstructed"
        )
        click.echo(f"  content hash {summary['content_hash'][:23]}")
    else:
        click.echo(f"module in {report.directory}: {len(report.problems)} problem(s)", err=True)
        for problem in report.problems:
            click.echo(f"  {problem}", err=True)
    if not report.ok:
        raise SystemExit(1)


@app.command()
@click.argument("name")
@click.option("--json", "as_json", is_flag=True, help="Print JSON instead of text.")
@MODULE_OPTION
def territory(name: str, as_json: bool, module_dir: Path | None) -> None:
    """Show a territory's or sea zone's facts, neighbours, canals, starting units and provenance."""
    from grandstrategy.axis_allies.module import load_module
    from grandstrategy.axis_allies.module.lookup import resolve_territory, territory_facts

    module = load_module(module_dir)
    facts = territory_facts(module, resolve_territory(module, name))
    if as_json:
        _print_json(facts)
        return
    click.echo(f"{facts['name']} ({facts['type']})")
    for key in ("ipc", "original_owner", "capital_of", "victory_city", "impassable", "island"):
        if key in facts:
            click.echo(f"  {key.replace('_', ' ')}: {facts[key] if facts[key] is not None else '-'}")
    click.echo(f"  neighbours: {', '.join(item['name'] for item in facts['neighbours'])}")
    for canal in facts["canals"]:
        click.echo(
            f"  {canal['name']}: {canal['role']} (sea zones {', '.join(canal['sea_zones'])}; "
            f"controlled by {', '.join(canal['controlled_by'])})"
        )
    if facts["starting_units"]:
        units = ", ".join(f"{u['power']} {u['count']} {u['type']}" for u in facts["starting_units"])
        click.echo(f"  starting units: {units}")
    click.echo(f"  provenance: {facts['provenance']}")
