"""Checks that span records: every reference known, adjacency symmetric, facts consistent.

Each check names the file, the record and the field at fault (docs/aa-module.md lists them).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from grandstrategy.axis_allies.module.schema import Domain, TerritoryType
from grandstrategy.axis_allies.module.world import MapModule
from grandstrategy.core.datafiles import Problem

MAP = "map.yaml"


def cross_check(module: MapModule) -> list[Problem]:
    """Every problem between the records of a module whose files each passed their schema."""
    found: list[Problem] = []
    found += _duplicates(module)
    found += _territories(module)
    found += _canals(module)
    found += _powers(module)
    found += _setup(module)
    return found


def _dups(file: str, what: str, keys: Iterable[str]) -> list[Problem]:
    counts = Counter(keys)
    return [
        Problem(file, f"{what} {key!r}", "", f"appears {n} times; {what}s must be unique")
        for key, n in counts.items()
        if n > 1
    ]


def _duplicates(module: MapModule) -> list[Problem]:
    found = _dups(MAP, "territory id", (t.id for t in module.map_file.territories))
    found += _dups(MAP, "territory name", (t.name.casefold() for t in module.map_file.territories))
    found += _dups(MAP, "canal id", (c.id for c in module.map_file.canals))
    found += _dups("powers.yaml", "power id", (p.id for p in module.powers_file.powers))
    found += _dups("powers.yaml", "turn", (str(p.turn) for p in module.powers_file.powers))
    found += _dups("units.yaml", "unit type id", (u.id for u in module.units_file.unit_types))
    found += _dups("rules.yaml", "property", (p.name for p in module.rules.properties))
    found += _dups(
        "setup.yaml",
        "placement",
        (f"{p.power} {p.type} in {p.territory}" for p in module.setup_file.units),
    )
    return found


def _territories(module: MapModule) -> list[Problem]:
    found: list[Problem] = []
    known = module.territories
    capitals: Counter[str] = Counter()
    for index, territory in enumerate(module.map_file.territories):
        record = f"territories[{index}] ({territory.id})"

        def fault(fieldname: str, message: str, record: str = record) -> None:
            found.append(Problem(MAP, record, fieldname, message))

        seen: set[str] = set()
        for other in territory.neighbours:
            if other in seen:
                fault("neighbours", f"lists {other!r} twice")
            seen.add(other)
            if other == territory.id:
                fault("neighbours", "lists itself")
            elif other not in known:
                fault("neighbours", f"names unknown territory {other!r}")
            elif territory.id not in known[other].neighbours:
                fault("neighbours", f"lists {other!r}, but {other!r} does not list it back (asymmetric)")
        if not territory.neighbours:
            fault("neighbours", "has no neighbours")
        if territory.type is TerritoryType.SEA:
            for name, value in (
                ("ipc", territory.ipc),
                ("original_owner", territory.original_owner),
                ("capital", territory.capital),
                ("victory_city", territory.victory_city or None),
                ("impassable", territory.impassable or None),
                ("island", territory.island or None),
            ):
                if value is not None:
                    fault(name, f"a sea zone has no {name.replace('_', ' ')}")
            continue
        if territory.ipc is None:
            fault("ipc", "a land territory needs an IPC value (0 if it produces nothing)")
        owner = territory.original_owner
        if owner is not None and owner not in module.powers:
            fault("original_owner", f"names unknown power {owner!r}")
        if territory.impassable and owner is not None:
            fault("original_owner", "an impassable neutral has no owner")
        if territory.capital is not None:
            capitals[territory.capital] += 1
            if territory.capital not in module.powers:
                fault("capital", f"names unknown power {territory.capital!r}")
            elif owner != territory.capital:
                fault("capital", f"is the capital of {territory.capital!r} but starts owned by {owner!r}")
        if territory.island and not _lies_in_one_sea_zone(module, territory.neighbours):
            fault("island", "an island lies in exactly one sea zone and borders no land territory")
    for power in module.powers:
        if capitals[power] != 1:
            found.append(
                Problem(
                    "powers.yaml", f"power {power!r}", "", f"has {capitals[power]} capitals; it needs one"
                )
            )
    return found


def _lies_in_one_sea_zone(module: MapModule, neighbours: list[str]) -> bool:
    """The Revised reading of an island: its only neighbour is one sea zone."""
    return len(neighbours) == 1 and neighbours[0] in module.territories and module.is_sea(neighbours[0])


def _canals(module: MapModule) -> list[Problem]:
    found: list[Problem] = []
    known = module.territories
    for index, canal in enumerate(module.map_file.canals):
        record = f"canals[{index}] ({canal.id})"
        zones = [zone for zone in canal.sea_zones if zone in known]
        for zone in canal.sea_zones:
            if zone not in known:
                found.append(Problem(MAP, record, "sea_zones", f"names unknown territory {zone!r}"))
            elif not module.is_sea(zone):
                found.append(Problem(MAP, record, "sea_zones", f"{zone!r} is not a sea zone"))
        for i, zone in enumerate(zones):
            for other in zones[i + 1 :]:
                if other not in known[zone].neighbours:
                    found.append(
                        Problem(MAP, record, "sea_zones", f"{zone!r} and {other!r} are not adjacent")
                    )
        for land in canal.controlled_by:
            if land not in known:
                found.append(Problem(MAP, record, "controlled_by", f"names unknown territory {land!r}"))
            elif module.is_sea(land):
                found.append(Problem(MAP, record, "controlled_by", f"{land!r} is a sea zone"))
            else:
                away = [zone for zone in zones if zone not in known[land].neighbours]
                if away:
                    found.append(
                        Problem(MAP, record, "controlled_by", f"{land!r} does not border {', '.join(away)}")
                    )
    return found


def _powers(module: MapModule) -> list[Problem]:
    turns = sorted(power.turn for power in module.powers.values())
    if turns != list(range(1, len(turns) + 1)):
        return [Problem("powers.yaml", "powers", "turn", f"turns must run 1..{len(turns)}; got {turns}")]
    return []


def _setup(module: MapModule) -> list[Problem]:
    found: list[Problem] = []
    for index, placement in enumerate(module.setup_file.units):
        record = f"units[{index}] ({placement.power} {placement.type} in {placement.territory})"

        def fault(fieldname: str, message: str, record: str = record) -> None:
            found.append(Problem("setup.yaml", record, fieldname, message))

        power = module.powers.get(placement.power)
        unit = module.unit_types.get(placement.type)
        where = module.territories.get(placement.territory)
        if power is None:
            fault("power", f"names unknown power {placement.power!r}")
        if unit is None:
            fault("type", f"names unknown unit type {placement.type!r}")
        if where is None:
            fault("territory", f"names unknown territory {placement.territory!r}")
        if power is None or unit is None or where is None:
            continue
        at_sea = where.type is TerritoryType.SEA
        if unit.domain is Domain.SEA and not at_sea:
            fault("territory", "a sea unit must start in a sea zone")
        elif unit.domain in (Domain.LAND, Domain.STRUCTURE) and at_sea:
            fault("territory", f"a {unit.domain.value} unit cannot start in a sea zone")
        if at_sea:
            continue
        if where.impassable:
            fault("territory", "units cannot start in an impassable territory")
        owner = module.powers.get(where.original_owner or "")
        if owner is None or owner.alliance != power.alliance:
            fault("territory", f"starts in a territory owned by {where.original_owner!r}, not its side")
    return found
