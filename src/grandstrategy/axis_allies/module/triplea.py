"""Import a TripleA game file of the Revised family into an A&A map module (docs/aa-module.md).

The importer reads the facts the game file states (territories, sea zones, connections, IPC
values, owners, capitals, victory cities, impassable neutrals, canals, players and alliances,
turn order, unit stats and costs, starting units and IPCs, game options) and writes them as YAML
with the file's lines as provenance. It adds one derived fact, ``island`` (a land territory
lying in one sea zone with no land neighbour, the rulebook's reading), and says so in the
provenance. It never copies the XML itself.

The result is checked like any module before a byte is written, so a game file that does not
describe a consistent map gives a list of problems and no output.
"""

from __future__ import annotations

import hashlib
import re
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from grandstrategy.axis_allies.module.loader import FILES, check_data
from grandstrategy.axis_allies.module.safexml import MAX_BYTES, Element, XmlFileError, parse_xml, read_bounded
from grandstrategy.core.errors import DataError, UserInputError
from grandstrategy.core.files import atomic_write

GENERATED_BY = "grandstrategy aa import-triplea"
_SEA_ZONE = re.compile(r"^(\d+) Sea Zone$")
_BID_DELEGATES = frozenset({"bid", "placeBid", "initDelegate", "endRound"})


def slug(name: str) -> str:
    """A stable id for a TripleA name: '5 Sea Zone' -> 'sz-5', 'Karelia S.S.R.' -> 'karelia-ssr'."""
    match = _SEA_ZONE.match(name.strip())
    if match:
        return f"sz-{int(match.group(1))}"
    text = name.replace(".", "").replace("'", "")
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


def _sort_key(name: str) -> tuple[int, int, str]:
    """Land territories by name, then sea zones by number."""
    match = _SEA_ZONE.match(name)
    return (1, int(match.group(1)), "") if match else (0, 0, name.casefold())


def _lines(numbers: Iterable[int]) -> str:
    """'L3, L7-9' from line numbers: sorted, duplicates dropped, runs joined."""
    ordered = sorted(set(numbers))
    parts: list[str] = []
    start = prev = ordered[0]
    for number in [*ordered[1:], -1]:
        if number == prev + 1:
            prev = number
            continue
        parts.append(f"L{start}" if start == prev else f"L{start}-{prev}")
        start = prev = number
    return ", ".join(parts)


class _FlowList(list[Any]):
    """A list written on one line in the YAML output (neighbours, canal zones)."""


class _Dumper(yaml.SafeDumper):
    pass


_Dumper.add_representer(
    _FlowList, lambda dumper, data: dumper.represent_sequence("tag:yaml.org,2002:seq", data, flow_style=True)
)


def dump_yaml(data: Any) -> str:
    """Deterministic YAML: keys in the order given, flow lists where marked, wide lines."""
    return yaml.dump(data, Dumper=_Dumper, sort_keys=False, allow_unicode=True, width=110)


def _value(text: str) -> bool | int | str:
    """A TripleA option value as its type: 'true' -> True, '3' -> 3, else the text."""
    if text in ("true", "false"):
        return text == "true"
    if re.fullmatch(r"-?\d{1,9}", text):
        return int(text)
    return text


@dataclass
class _Source:
    """The game file being imported, and how its lines are cited."""

    label: str
    root: Element
    problems: list[str]

    def cite(self, lines: Iterable[int], note: str = "") -> str:
        text = f"{self.label} {_lines(lines)}"
        return f"{text} ({note})" if note else text

    def name(self, node: Element, attr: str) -> str:
        value = node.attrs.get(attr, "").strip()
        if not value:
            self.problems.append(f"line {node.line}: <{node.tag}> has no '{attr}' attribute")
        return value


def import_triplea(path: Path, label: str | None = None, module_id: str | None = None) -> dict[str, Any]:
    """Read a TripleA game file and return the module's files as plain data, keyed by file name.

    :raises XmlFileError: the file is missing, too large, unsafe or not well-formed.
    :raises DataError: the XML is not a TripleA game of the Revised family, or the map it
        describes fails the module checks; the message lists every problem.
    """
    data = read_bounded(path)
    root = parse_xml(data, str(path))
    if root.tag != "game":
        raise DataError(f"{path}: the root element is <{root.tag}>, not a TripleA <game>")
    source = _Source(label or f"{path.resolve().parent.name}/{path.name}", root, [])
    info = root.child("info")
    game_map = root.child("map")
    if info is None or game_map is None:
        raise DataError(f"{path}: a TripleA game file needs <info> and <map> elements")
    game_name = info.attrs.get("name", "").strip() or path.stem
    files: dict[str, Any] = {
        "module.yaml": {
            "id": module_id or slug(game_name),
            "title": game_name,
            "game": game_name,
            "game_version": info.attrs.get("version", "")[:20],
            "source": {"file": source.label, "sha256": hashlib.sha256(data).hexdigest()},
            "generated_by": GENERATED_BY,
            "description": (
                f"The map, powers, units and starting setup of TripleA's '{game_name}', imported by "
                f"'{GENERATED_BY}'. Every record cites the lines of the game file it comes from."
            ),
            "provenance": source.cite([info.line]),
        }
    }
    ids = _territory_ids(source, game_map)
    powers = _powers(source, ids)
    files["map.yaml"] = _map(source, game_map, ids)
    files["powers.yaml"] = {"powers": powers}
    files["units.yaml"] = _units(source)
    files["setup.yaml"] = _setup(source, ids)
    files["rules.yaml"] = _rules(source, [power["name"] for power in powers])
    if source.problems:
        listed = "\n  ".join(source.problems)
        raise DataError(f"{path}: cannot be imported ({len(source.problems)} problem(s)):\n  {listed}")
    report = check_data(files, str(path))
    if report.problems:
        listed = "\n  ".join(str(problem) for problem in report.problems)
        raise DataError(
            f"{path}: the imported module fails its checks ({len(report.problems)} problem(s)):\n  {listed}"
        )
    return files


def write_module(files: dict[str, Any], out: Path) -> list[Path]:
    """Write the module's files into ``out`` (created if needed), each atomically."""
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise UserInputError(f"cannot create {out}: {error.strerror or error}") from None
    if not out.is_dir():
        raise UserInputError(f"{out} is not a directory")
    written = []
    for name in FILES:
        target = out / name
        try:
            atomic_write(target, dump_yaml(files[name]).encode("utf-8"))
        except OSError as error:
            raise UserInputError(f"cannot write {target}: {error.strerror or error}") from None
        written.append(target)
    return written


def _territory_ids(source: _Source, game_map: Element) -> dict[str, str]:
    ids: dict[str, str] = {}
    for node in game_map.iter("territory"):
        name = source.name(node, "name")
        if name:
            ids[name] = slug(name)
    return ids


def _ref(source: _Source, ids: dict[str, str], node: Element, attr: str) -> str | None:
    name = source.name(node, attr)
    if name and name not in ids:
        source.problems.append(f"line {node.line}: <{node.tag}> names unknown territory {name!r}")
        return None
    return ids.get(name)


def _options(node: Element) -> list[tuple[str, str, int]]:
    return [
        (option.attrs.get("name", ""), option.attrs.get("value", ""), option.line)
        for option in node.children
        if option.tag == "option"
    ]


def _attachments(source: _Source, kind: str) -> list[Element]:
    found = []
    for node in source.root.iter("attachment"):
        if node.attrs.get("name") == kind:
            found.append(node)
    return found


def _map(source: _Source, game_map: Element, ids: dict[str, str]) -> dict[str, Any]:
    decl: dict[str, Element] = {}
    for node in game_map.iter("territory"):
        name = node.attrs.get("name", "").strip()
        if name in decl:
            source.problems.append(f"line {node.line}: territory {name!r} is declared twice")
        decl[name] = node
    neighbours: dict[str, set[str]] = defaultdict(set)
    lines: dict[str, list[int]] = defaultdict(list)
    for node in game_map.iter("connection"):
        a, b = _ref(source, ids, node, "t1"), _ref(source, ids, node, "t2")
        if a is None or b is None:
            continue
        neighbours[a].add(b)
        neighbours[b].add(a)
        lines[a].append(node.line)
        lines[b].append(node.line)
    facts: dict[str, dict[str, Any]] = defaultdict(dict)
    for node in _attachments(source, "territoryAttachment"):
        target = _ref(source, ids, node, "attachTo")
        if target is None:
            continue
        for option, value, line in _options(node):
            lines[target].append(line)
            if option == "production":
                facts[target]["ipc"] = _value(value)
            elif option == "capital":
                facts[target]["capital"] = slug(value)
            elif option == "victoryCity":
                facts[target]["victory_city"] = value not in ("0", "false", "")
            elif option == "isImpassable":
                facts[target]["impassable"] = value == "true"
            else:
                source.problems.append(f"line {line}: territory option {option!r} is not understood")
    init = source.root.child("initialize")
    owners = init.iter("territoryOwner") if init is not None else []
    for node in owners:
        target = _ref(source, ids, node, "territory")
        if target is not None:
            facts[target]["original_owner"] = slug(source.name(node, "owner"))
            lines[target].append(node.line)
    is_sea = {ids[name]: node.attrs.get("water") == "true" for name, node in decl.items() if name}
    territories = []
    for name in sorted(decl, key=_sort_key):
        node = decl[name]
        tid = ids[name]
        sea = is_sea[tid]
        record: dict[str, Any] = {"id": tid, "name": name, "type": "sea" if sea else "land"}
        known = facts[tid]
        if not sea:
            record["ipc"] = known.get("ipc")
            record["original_owner"] = known.get("original_owner")
        else:
            record.update({key: known[key] for key in ("ipc", "original_owner") if key in known})
        for key in ("capital", "victory_city", "impassable"):
            if known.get(key):
                record[key] = known[key]
        note = ""
        if not sea and len(neighbours[tid]) == 1 and is_sea.get(next(iter(neighbours[tid])), False):
            record["island"] = True
            note = "island as derived from the connections, lying in one sea zone alone"
        record["neighbours"] = _FlowList(
            sorted(neighbours[tid], key=lambda other: _sort_key(_name(ids, other)))
        )
        record["provenance"] = source.cite([node.line, *lines[tid]], note)
        territories.append(record)
    return {"territories": territories, "canals": _canals(source, ids)}


def _name(ids: dict[str, str], tid: str) -> str:
    return next(name for name, other in ids.items() if other == tid)


def _canals(source: _Source, ids: dict[str, str]) -> list[dict[str, Any]]:
    canals: dict[str, dict[str, Any]] = {}
    for node in _attachments(source, "canalAttachment"):
        zone = _ref(source, ids, node, "attachTo")
        options = {option: (value, line) for option, value, line in _options(node)}
        if zone is None or "canalName" not in options or "landTerritories" not in options:
            source.problems.append(f"line {node.line}: canal attachment needs canalName and landTerritories")
            continue
        name = options["canalName"][0]
        lands = [ids.get(part.strip(), "") for part in options["landTerritories"][0].split(":")]
        if "" in lands:
            source.problems.append(f"line {node.line}: canal {name!r} names an unknown territory")
            continue
        canal = canals.setdefault(
            name, {"id": slug(name), "name": name, "sea_zones": [], "controlled_by": lands, "lines": []}
        )
        if canal["controlled_by"] != lands:
            source.problems.append(f"line {node.line}: canal {name!r} names different land territories")
        canal["sea_zones"].append(zone)
        canal["lines"] += [node.line, *(line for _, line in options.values())]
    result = []
    for canal in sorted(canals.values(), key=lambda item: item["id"]):
        lines = canal.pop("lines")
        canal["sea_zones"] = _FlowList(sorted(canal["sea_zones"], key=lambda z: _sort_key(_name(ids, z))))
        canal["controlled_by"] = _FlowList(canal["controlled_by"])
        canal["provenance"] = source.cite(lines)
        result.append(canal)
    return result


def _powers(source: _Source, ids: dict[str, str]) -> list[dict[str, Any]]:
    player_list = source.root.child("playerList")
    if player_list is None:
        source.problems.append("the file has no <playerList>")
        return []
    players: dict[str, dict[str, Any]] = {}
    lines: dict[str, list[int]] = defaultdict(list)
    for node in player_list.iter("player"):
        name = source.name(node, "name")
        players[name] = {"id": slug(name), "name": name}
        lines[name].append(node.line)
    for node in player_list.iter("alliance"):
        name = source.name(node, "player")
        if name in players:
            players[name]["alliance"] = slug(source.name(node, "alliance"))
            lines[name].append(node.line)
        else:
            source.problems.append(f"line {node.line}: alliance names unknown player {name!r}")
    order: list[str] = []
    steps = source.root.iter("step")
    for node in steps:
        player = node.attrs.get("player")
        if player and node.attrs.get("delegate") not in _BID_DELEGATES and player not in order:
            order.append(player)
            lines.setdefault(player, []).append(node.line)
    for node in source.root.iter("resourceGiven"):
        name = source.name(node, "player")
        if name in players and node.attrs.get("resource") == "PUs":
            players[name]["starting_ipcs"] = _value(node.attrs.get("quantity", ""))
            lines[name].append(node.line)
    for node in source.root.iter("playerProduction"):
        name = source.name(node, "player")
        if name in players:
            players[name]["production_frontier"] = node.attrs.get("frontier", "")
            lines[name].append(node.line)
    result = []
    for name, facts in players.items():
        if name not in order:
            source.problems.append(f"player {name!r} has no turn in the game sequence")
            continue
        missing = [key for key in ("alliance", "starting_ipcs", "production_frontier") if key not in facts]
        if missing:
            source.problems.append(f"player {name!r} has no {', '.join(missing)} in the file")
            continue
        result.append(
            {
                "id": facts["id"],
                "name": name,
                "alliance": facts["alliance"],
                "turn": order.index(name) + 1,
                "starting_ipcs": facts["starting_ipcs"],
                "production_frontier": facts["production_frontier"],
                "provenance": source.cite(lines[name]),
            }
        )
    return sorted(result, key=lambda power: power["turn"])


def _units(source: _Source) -> dict[str, Any]:
    unit_list = source.root.child("unitList")
    if unit_list is None:
        source.problems.append("the file has no <unitList>")
        return {"unit_types": []}
    rule_costs: dict[str, tuple[str, int, list[int]]] = {}
    for rule in source.root.iter("productionRule"):
        paid = rule.child("cost")
        made = rule.child("result")
        if paid is None or made is None or paid.attrs.get("resource") != "PUs":
            continue
        quantity = _value(paid.attrs.get("quantity", ""))
        if not isinstance(quantity, int) or isinstance(quantity, bool):
            source.problems.append(f"line {paid.line}: a cost needs a whole-number quantity")
            continue
        rule_costs[rule.attrs.get("name", "")] = (
            made.attrs.get("resourceOrUnit", ""),
            quantity,
            [rule.line, paid.line, made.line],
        )
    used = {node.attrs.get("frontier", "") for node in source.root.iter("playerProduction")}
    costs: dict[str, dict[str, int]] = defaultdict(dict)
    cost_lines: dict[str, list[int]] = defaultdict(list)
    for frontier in source.root.iter("productionFrontier"):
        frontier_name = frontier.attrs.get("name", "")
        for item in frontier.iter("frontierRules"):
            if item.attrs.get("name") in rule_costs:
                unit, cost, lines = rule_costs[item.attrs["name"]]
                costs[unit][frontier_name] = cost
                if frontier_name in used:
                    cost_lines[unit] += [*lines, item.line]
    stats: dict[str, dict[str, Any]] = defaultdict(dict)
    stat_lines: dict[str, list[int]] = defaultdict(list)
    for node in _attachments(source, "unitAttachment"):
        unit = node.attrs.get("attachTo", "")
        for option, value, line in _options(node):
            stats[unit][option] = _value(value)
            stat_lines[unit].append(line)
    result = []
    for node in unit_list.iter("unit"):
        name = source.name(node, "name")
        unit_stats = stats.get(name, {})
        if unit_stats.get("isSea"):
            domain = "sea"
        elif unit_stats.get("isAir"):
            domain = "air"
        elif unit_stats.get("isFactory") or not unit_stats.get("movement"):
            domain = "structure"
        else:
            domain = "land"
        frontier_costs = costs.get(name, {})
        used_costs = {frontier_costs[name] for name in used if name in frontier_costs}
        record: dict[str, Any] = {"id": slug(name), "name": name, "domain": domain}
        if len(used_costs) == 1:
            record["cost"] = used_costs.pop()
        record["frontier_costs"] = dict(sorted(frontier_costs.items()))
        record["stats"] = unit_stats
        record["provenance"] = source.cite([node.line, *stat_lines[name], *cost_lines[name]])
        result.append(record)
    return {"unit_types": result}


def _setup(source: _Source, ids: dict[str, str]) -> dict[str, Any]:
    placements = []
    for node in source.root.iter("unitPlacement"):
        where = _ref(source, ids, node, "territory")
        count = _value(node.attrs.get("quantity", ""))
        if where is None or not isinstance(count, int):
            continue
        placements.append(
            {
                "power": slug(source.name(node, "owner")),
                "type": slug(source.name(node, "unitType")),
                "territory": where,
                "count": count,
                "provenance": source.cite([node.line]),
            }
        )
    return {"units": placements}


def _rules(source: _Source, turn_players: list[str]) -> dict[str, Any]:
    phases = []
    if turn_players:
        first = turn_players[0]
        for node in source.root.iter("step"):
            if node.attrs.get("player") != first or node.attrs.get("delegate") in _BID_DELEGATES:
                continue
            title = node.attrs.get("display") or _words(re.sub(r"^[a-z]+", "", node.attrs.get("name", "")))
            phases.append(
                {
                    "delegate": node.attrs.get("delegate", ""),
                    "name": title or node.attrs.get("delegate", ""),
                    "provenance": source.cite([node.line], f"the turn of {first}"),
                }
            )
    properties = []
    for node in source.root.iter("property"):
        if "value" not in node.attrs:
            continue  # long texts such as the game notes are not options
        value: bool | int | str = node.attrs["value"]
        if node.child("boolean") is not None or node.child("number") is not None:
            value = _value(str(value))
        properties.append(
            {
                "name": node.attrs.get("name", ""),
                "value": value,
                "editable": node.attrs.get("editable") == "true",
                "provenance": source.cite([node.line]),
            }
        )
    return {"phases": phases, "properties": properties}


def _words(camel: str) -> str:
    return re.sub(r"(?<=[a-z])(?=[A-Z])", " ", camel).strip()


__all__ = ["MAX_BYTES", "XmlFileError", "dump_yaml", "import_triplea", "slug", "write_module"]
