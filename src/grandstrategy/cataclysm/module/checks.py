"""Checks that span records: every name resolves, the map is coherent, tables are complete.

Each check adds :class:`Problem` entries; none stops at the first problem.
"""

from __future__ import annotations

from collections import defaultdict
from itertools import pairwise

from grandstrategy.cataclysm.module.events import EVENT_KINDS, SUBTABLE_KEYS
from grandstrategy.cataclysm.module.schema import (
    CRISIS_KEYS,
    Area,
    AreaType,
    Commitment,
    ConnectionGroup,
    ConnectorFile,
    CrisisEntry,
    CrisisFile,
    Ideology,
    MapFile,
    ModuleInfo,
    PowersFile,
    Scenario,
)
from grandstrategy.core.datafiles import Problem


def cross_check(
    info: ModuleInfo,
    maps: dict[str, MapFile],
    connectors_name: str,
    connectors: ConnectorFile,
    powers_name: str,
    powers: PowersFile,
    crisis_name: str,
    crisis: CrisisFile,
    scenarios: dict[str, Scenario],
) -> list[Problem]:
    """Every problem that involves more than one record."""
    problems: list[Problem] = []
    power_ids = {power.id for power in powers.powers}
    areas: dict[str, tuple[str, Area]] = {}
    for name, map_file in maps.items():
        for index, area in enumerate(map_file.areas):
            record = f"areas[{index}] ({area.id})"
            if area.id in areas:
                problems.append(
                    Problem(name, record, "id", f"duplicates an area id already used in {areas[area.id][0]}")
                )
            areas[area.id] = (name, area)
            if area.map is not map_file.map:
                problems.append(
                    Problem(
                        name, record, "map", f"is '{area.map.value}' in the {map_file.map.value} map file"
                    )
                )
            width, height = map_file.size
            if not (0 <= area.pos[0] <= width and 0 <= area.pos[1] <= height):
                problems.append(
                    Problem(name, record, "pos", f"{area.pos} lies outside the map's {width}x{height}")
                )
            if area.owner is not None and area.owner not in power_ids:
                problems.append(Problem(name, record, "owner", f"names unknown power '{area.owner}'"))
            for base_index, base in enumerate(area.bases):
                if base.owner is not None and base.owner not in power_ids:
                    problems.append(
                        Problem(
                            name,
                            f"{record}.bases[{base_index}]",
                            "owner",
                            f"names unknown power '{base.owner}'",
                        )
                    )
            if area.special_base is not None and area.special_base.owner not in power_ids:
                problems.append(
                    Problem(
                        name, record, "special_base.owner", f"names unknown power '{area.special_base.owner}'"
                    )
                )
    problems += _duplicate_names(maps)
    adjacency: dict[str, dict[str, str]] = defaultdict(dict)
    groups: list[tuple[str, int, ConnectionGroup]] = [
        (name, index, group)
        for name, map_file in maps.items()
        for index, group in enumerate(map_file.connections)
    ]
    groups += [(connectors_name, index, group) for index, group in enumerate(connectors.connections)]
    for name, index, group in groups:
        for pair_index, (a, b) in enumerate(group.pairs):
            record = f"connections[{index}].pairs[{pair_index}] ({a} - {b})"
            unknown = [area_id for area_id in (a, b) if area_id not in areas]
            for area_id in unknown:
                problems.append(Problem(name, record, "", f"unknown area '{area_id}'"))
            if unknown:
                continue
            if a == b:
                problems.append(Problem(name, record, "", "connects an area to itself"))
                continue
            if b in adjacency[a]:
                problems.append(
                    Problem(name, record, "", f"repeats a connection already given as {adjacency[a][b]}")
                )
                continue
            adjacency[a][b] = adjacency[b][a] = group.kind
            map_a, map_b = areas[a][1].map, areas[b][1].map
            if group.kind == "connector" and map_a is map_b:
                problems.append(
                    Problem(name, record, "kind", "a map connector must join areas on different maps")
                )
            if group.kind != "connector" and map_a is not map_b:
                problems.append(
                    Problem(name, record, "kind", "areas on different maps connect only by a map connector")
                )
            if group.kind == "offmap" and not (areas[a][1].off_map or areas[b][1].off_map):
                problems.append(Problem(name, record, "kind", "a white arrow must lead to an off-map area"))
    for name, map_file in maps.items():
        for index, group_imp in enumerate(map_file.impassable):
            for pair_index, (a, b) in enumerate(group_imp.pairs):
                record = f"impassable[{index}].pairs[{pair_index}] ({a} - {b})"
                for area_id in (a, b):
                    if area_id not in areas:
                        problems.append(Problem(name, record, "", f"unknown area '{area_id}'"))
                if b in adjacency.get(a, {}):
                    problems.append(
                        Problem(
                            name, record, "", "is also listed as a connection; a red border is impassable"
                        )
                    )
    problems += _coast_checks(maps, areas, adjacency)
    problems += _power_checks(powers_name, powers, maps, areas)
    problems += _crisis_checks(crisis_name, crisis, areas, power_ids)
    scenario_ids: dict[str, str] = {}
    for name, scenario in scenarios.items():
        if scenario.id in scenario_ids:
            problems.append(
                Problem(
                    name, "", "id", f"duplicates scenario id {scenario.id!r} of {scenario_ids[scenario.id]}"
                )
            )
        scenario_ids.setdefault(scenario.id, name)
        problems += _scenario_reference_checks(name, scenario, areas, power_ids, powers)
    if not info.scenarios:
        problems.append(Problem("module.yaml", "", "scenarios", "lists no scenario"))
    return problems


def _duplicate_names(maps: dict[str, MapFile]) -> list[Problem]:
    """Two areas with one name (ignoring case) could not be told apart when a person names one."""
    problems: list[Problem] = []
    seen: dict[str, str] = {}
    for name, map_file in maps.items():
        for index, area in enumerate(map_file.areas):
            key = area.name.strip().casefold()
            if key in seen and seen[key] != area.id:
                problems.append(
                    Problem(
                        name,
                        f"areas[{index}] ({area.id})",
                        "name",
                        f"{area.name!r} is also the name of area '{seen[key]}'",
                    )
                )
            seen.setdefault(key, area.id)
    return problems


def _coast_checks(
    maps: dict[str, MapFile], areas: dict[str, tuple[str, Area]], adjacency: dict[str, dict[str, str]]
) -> list[Problem]:
    problems: list[Problem] = []
    for name, map_file in maps.items():
        for index, area in enumerate(map_file.areas):
            record = f"areas[{index}] ({area.id})"
            if area.type is AreaType.SEA:
                if area.id not in adjacency:
                    problems.append(Problem(name, record, "", "has no connection at all"))
                continue
            seas = sorted(
                other
                for other, kind in adjacency.get(area.id, {}).items()
                if kind != "air" and areas[other][1].type is AreaType.SEA
            )
            if area.coastal and not seas:
                problems.append(
                    Problem(name, record, "coastal", "is marked coastal but has no adjacent sea area")
                )
            if not area.coastal and seas:
                problems.append(
                    Problem(
                        name,
                        record,
                        "coastal",
                        f"touches sea area(s) {', '.join(seas)} but is not marked coastal",
                    )
                )
            if area.special_coastal and not area.coastal:
                problems.append(
                    Problem(name, record, "special_coastal", "only a coastal area can be special coastal")
                )
            if area.coasts is not None:
                listed = sorted(sea for coast in area.coasts.values() for sea in coast)
                if listed != seas:
                    problems.append(
                        Problem(
                            name,
                            record,
                            "coasts",
                            f"lists {', '.join(listed)} but the adjacent seas are {', '.join(seas)}",
                        )
                    )
            if area.id not in adjacency:
                problems.append(Problem(name, record, "", "has no connection at all"))
        capitals: dict[str, list[str]] = defaultdict(list)
        for area in map_file.areas:
            if area.capital and area.owner:
                capitals[area.owner].append(area.id)
        for owner, ids in capitals.items():
            if len(ids) > 1:
                problems.append(
                    Problem(name, "", "capital", f"power '{owner}' has several capitals: {', '.join(ids)}")
                )
    return problems


def _power_checks(
    name: str, powers: PowersFile, maps: dict[str, MapFile], areas: dict[str, tuple[str, Area]]
) -> list[Problem]:
    problems: list[Problem] = []
    unit_ids = {unit.id for unit in powers.unit_types}
    counters = {unit.counter for unit in powers.unit_types}
    for index, unit in enumerate(powers.unit_types):
        record = f"unit_types[{index}] ({unit.id})"
        if unit.upgrades_to is not None and unit.upgrades_to not in unit_ids:
            problems.append(
                Problem(name, record, "upgrades_to", f"names unknown unit type '{unit.upgrades_to}'")
            )
    ideology_of = {power.id: power.ideology for power in powers.powers}
    homes: dict[str, int] = defaultdict(int)
    capitals: dict[str, int] = defaultdict(int)
    for _file, area in areas.values():
        if area.owner and area.status is not None and area.status.value == "home":
            homes[area.owner] += 1
            capitals[area.owner] += int(area.capital)
    seen: set[str] = set()
    for index, power in enumerate(powers.powers):
        record = f"powers[{index}] ({power.id})"
        if power.id in seen:
            problems.append(Problem(name, record, "id", "duplicates a power id"))
        seen.add(power.id)
        if homes[power.id] == 0:
            problems.append(Problem(name, record, "", "has no home area on any map"))
        if capitals[power.id] == 0:
            problems.append(
                Problem(name, record, "", "has no capital: one home area must be marked 'capital'")
            )
        for kind in ("alliance", "escalation"):
            for target in getattr(power.provocation, kind):
                if target not in ideology_of:
                    problems.append(
                        Problem(name, record, f"provocation.{kind}", f"names unknown power '{target}'")
                    )
                elif ideology_of[target] == power.ideology:
                    problems.append(
                        Problem(
                            name,
                            record,
                            f"provocation.{kind}",
                            f"'{target}' shares the ideology; only opposing powers are provoked",
                        )
                    )
        for counter in power.counters.units:
            if counter not in counters:
                problems.append(Problem(name, record, "counters.units", f"names unknown counter '{counter}'"))
        for marker in power.counters.upgrade_markers:
            if marker not in counters:
                problems.append(
                    Problem(name, record, "counters.upgrade_markers", f"names unknown counter '{marker}'")
                )
        for before, after in pairwise(list(Commitment)[:4]):
            if power.status_card[after].force_pool < power.status_card[before].force_pool:
                problems.append(
                    Problem(
                        name,
                        record,
                        f"status_card.{after.value}.force_pool",
                        "shrinks while commitment rises",
                    )
                )
    return problems


def _crisis_checks(
    name: str, crisis: CrisisFile, areas: dict[str, tuple[str, Area]], power_ids: set[str]
) -> list[Problem]:
    problems: list[Problem] = []
    for table_name, table in (("peacetime", crisis.peacetime), ("wartime", crisis.wartime)):
        missing = [key for key in CRISIS_KEYS if key not in table]
        if missing:
            problems.append(Problem(name, table_name, "", f"lacks the result(s) {', '.join(missing)}"))
        for key, entry in table.items():
            record = f"{table_name}.{key}"
            if key not in CRISIS_KEYS:
                problems.append(
                    Problem(name, record, "", "is not a reading of two dice (high-low, e.g. '6-3')")
                )
            problems += _event_checks(name, record, entry, areas, power_ids)
    return problems


def _event_checks(
    name: str, record: str, entry: CrisisEntry, areas: dict[str, tuple[str, Area]], power_ids: set[str]
) -> list[Problem]:
    spec = EVENT_KINDS.get(entry.event)
    if spec is None:
        return [
            Problem(
                name, record, "event", f"unknown event kind '{entry.event}' (known: {', '.join(EVENT_KINDS)})"
            )
        ]
    problems: list[Problem] = []
    for param in entry.params:
        if param not in spec:
            problems.append(
                Problem(name, record, f"params.{param}", f"is not a parameter of '{entry.event}'")
            )
    for param, kind in spec.items():
        if param not in entry.params:
            problems.append(Problem(name, record, f"params.{param}", "is required but missing"))
            continue
        problems += _param_checks(
            name, record, f"params.{param}", kind, entry.params[param], areas, power_ids
        )
    return problems


def _param_checks(
    name: str,
    record: str,
    field: str,
    kind: str,
    value: object,
    areas: dict[str, tuple[str, Area]],
    power_ids: set[str],
) -> list[Problem]:
    def bad(message: str) -> list[Problem]:
        return [Problem(name, record, field, message)]

    if kind == "area":
        return [] if value in areas else bad(f"names unknown area {value!r}")
    if kind == "power":
        return [] if value in power_ids else bad(f"names unknown power {value!r}")
    if kind in ("areas", "powers"):
        if not isinstance(value, list):
            return bad("must be a list")
        single = kind[:-1]
        found: list[Problem] = []
        for item in value:
            found += _param_checks(name, record, field, single, item, areas, power_ids)
        return found
    if kind == "ideology":
        return (
            [] if value in {ideology.value for ideology in Ideology} else bad(f"{value!r} is not an ideology")
        )
    if kind == "commitment":
        return (
            []
            if value in {level.value for level in Commitment}
            else bad(f"{value!r} is not a commitment level")
        )
    if kind == "int":
        return [] if isinstance(value, int) else bad("must be a whole number")
    if kind == "table":
        if not isinstance(value, dict) or sorted(map(str, value)) != list(SUBTABLE_KEYS):
            return bad("must map each die result '1' to '6' to an outcome")
        found = []
        for key, outcome in value.items():
            items = outcome if isinstance(outcome, list) else [outcome]
            for item in items:
                if isinstance(item, str) and item not in areas and item not in power_ids:
                    found += bad(f"result {key}: {item!r} is neither an area nor a power")
                elif isinstance(item, dict) and set(item) != {"table", "result"}:
                    found += bad(f"result {key}: a reference to another table needs 'table' and 'result'")
        return found
    return bad(f"unknown parameter kind {kind!r}")


def _scenario_reference_checks(
    name: str, scenario: Scenario, areas: dict[str, tuple[str, Area]], power_ids: set[str], powers: PowersFile
) -> list[Problem]:
    problems: list[Problem] = []
    for power in scenario.powers:
        if power not in power_ids:
            problems.append(Problem(name, f"powers.{power}", "", "is not a power of the module"))
    for area_id, cubes in scenario.cubes.items():
        if area_id not in areas:
            problems.append(Problem(name, f"cubes.{area_id}", "", f"unknown area '{area_id}'"))
            continue
        if areas[area_id][1].type is AreaType.SEA:
            problems.append(
                Problem(
                    name,
                    f"cubes.{area_id}",
                    "",
                    "cubes go in land or mixed areas; sea areas are never controlled",
                )
            )
        for power, count in cubes.items():
            if power != "neutral" and power not in power_ids:
                problems.append(Problem(name, f"cubes.{area_id}", power, "is not a power (or 'neutral')"))
            if count < 1:
                problems.append(Problem(name, f"cubes.{area_id}", power, f"count {count} must be at least 1"))
    unit_ids = {unit.id for unit in powers.unit_types}
    for index, unit in enumerate(scenario.units):
        record = f"units[{index}] ({unit.power} {unit.type} in {unit.area})"
        if unit.power not in power_ids:
            problems.append(Problem(name, record, "power", f"unknown power '{unit.power}'"))
        if unit.type not in unit_ids:
            problems.append(Problem(name, record, "type", f"unknown unit type '{unit.type}'"))
        if unit.area not in areas:
            problems.append(Problem(name, record, "area", f"unknown area '{unit.area}'"))
    for field in ("cup", "reserve"):
        for power in getattr(scenario, field):
            if power not in power_ids:
                problems.append(Problem(name, f"{field}.{power}", "", "is not a power of the module"))
    for area_id in scenario.special_bases:
        if area_id not in areas or areas[area_id][1].special_base is None:
            problems.append(Problem(name, "special_bases", "", f"'{area_id}' has no special base in the map"))
    markers = {marker.id for power in powers.powers for marker in power.special_markers}
    for marker in scenario.markers:
        if marker not in markers:
            problems.append(Problem(name, "markers", "", f"unknown special marker '{marker}'"))
    ideology_of = {power.id: power.ideology for power in powers.powers}
    for ideology, members in scenario.alliances.items():
        for member in members:
            if member not in ideology_of:
                problems.append(Problem(name, f"alliances.{ideology.value}", "", f"unknown power '{member}'"))
            elif ideology_of[member] is not ideology:
                problems.append(
                    Problem(name, f"alliances.{ideology.value}", "", f"'{member}' is not of that ideology")
                )
    for power in scenario.postures:
        if ideology_of.get(power) is not Ideology.COMMUNISM:
            problems.append(
                Problem(name, f"postures.{power}", "", "only a Communist power has a posture (LR 12.3)")
            )
    for power in scenario.powers:
        if ideology_of.get(power) is Ideology.COMMUNISM and power not in scenario.postures:
            problems.append(
                Problem(name, "postures", power, "a Communist power in play needs its posture (LR 12.3)")
            )
    for index, (side_a, side_b) in enumerate(scenario.wars):
        sides = [{ideology_of.get(power) for power in side} for side in (side_a, side_b)]
        if any(len(side) != 1 or None in side for side in sides) or sides[0] == sides[1]:
            problems.append(
                Problem(
                    name,
                    f"wars[{index}]",
                    "",
                    "each side must be known powers of one ideology, the sides opposed",
                )
            )
    return problems
