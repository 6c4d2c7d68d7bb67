"""Checks of a scenario against the loaded world: every piece where the rules let it stand.

Occupation follows LR 7.1 (per ideology per area), control LR 2.2.4, the counter mix LR 2.4
(hard limits) and the force pool LR 4.1.1.
"""

from __future__ import annotations

from collections import Counter, defaultdict

from grandstrategy.cataclysm.module.schema import AreaType, BaseKind, Placement, Scenario
from grandstrategy.cataclysm.module.world import Module
from grandstrategy.core.datafiles import Problem


def check_scenario(module: Module, name: str, scenario: Scenario) -> list[Problem]:
    """Every problem with the scenario's starting position."""
    problems: list[Problem] = []
    in_play = set(module.in_play(scenario))
    for power_id in module.powers:
        homes = [a.id for a in module.areas.values() if a.owner == power_id and a.id in in_play]
        if homes and power_id not in scenario.powers:
            problems.append(
                Problem(name, "powers", power_id, "has home areas in play but no line on the record display")
            )
    for power_id, line in scenario.powers.items():
        card = module.powers[power_id].status_card[line.commitment]
        if line.effectiveness != card.effectiveness:
            problems.append(
                Problem(
                    name,
                    f"powers.{power_id}",
                    "effectiveness",
                    f"is {line.effectiveness} but the status card gives {card.effectiveness} "
                    f"at {line.commitment.value}",
                )
            )
        computed = module.victory_points(scenario, power_id)
        if line.vp != computed:
            problems.append(
                Problem(
                    name, f"powers.{power_id}", "vp", f"is {line.vp} but the cubes give {computed} (LR 1.7.1)"
                )
            )
    problems += _cube_checks(module, name, scenario, in_play)
    problems += _unit_checks(module, name, scenario, in_play)
    problems += _counter_checks(module, name, scenario)
    return problems


def _cube_checks(module: Module, name: str, scenario: Scenario, in_play: set[str]) -> list[Problem]:
    problems: list[Problem] = []
    totals: Counter[str] = Counter()
    for area_id, cubes in scenario.cubes.items():
        area = module.areas[area_id]
        if area_id not in in_play:
            problems.append(Problem(name, f"cubes.{area_id}", "", "is on a map the scenario does not use"))
        for power, count in cubes.items():
            totals[power] += count
            if power == area.owner:
                problems.append(
                    Problem(
                        name,
                        f"cubes.{area_id}",
                        power,
                        "a power places no cube in an area printed in its colour (LR 2.2.4)",
                    )
                )
        holders = [power for power in cubes if power != "neutral"]
        if len(holders) > 1 and area.owner is None:
            problems.append(
                Problem(
                    name,
                    f"cubes.{area_id}",
                    "",
                    f"a country is controlled by one power; found {', '.join(holders)}",
                )
            )
        if area.remote and holders:
            problems.append(
                Problem(name, f"cubes.{area_id}", "", "no other power can control a remote area (LR 2.2.8)")
            )
    for power, total in totals.items():
        limit = (
            module.neutral_cubes
            if power == "neutral"
            else module.powers[power].counters.cubes
            if power in module.powers
            else None
        )
        if limit is not None and total > limit:
            problems.append(
                Problem(name, "cubes", power, f"places {total} cubes but only {limit} exist (LR 2.4)")
            )
    return problems


def _friendly(module: Module, scenario: Scenario, power: str, other: str | None) -> bool:
    """Whether ``other``'s areas are friendly to ``power`` at the start (LR 1.1, 6.1.2)."""
    if other is None:
        return False
    if other == power:
        return True
    ideology = module.powers[power].ideology
    allied = power in scenario.alliances.get(ideology, []) and other in scenario.alliances.get(ideology, [])
    belligerent = {p for side_a, side_b in scenario.wars for p in side_a + side_b}
    return allied and power in belligerent and other in belligerent


def _may_stand(module: Module, scenario: Scenario, unit: Placement) -> str | None:
    """Why the unit may not stand in its area, or None when it may."""
    area = module.areas[unit.area]
    unit_class = module.unit_types[unit.type].unit_class
    controller = module.controller(scenario, unit.area)
    if area.type is AreaType.SEA:
        if unit_class == "land":
            return "a land unit cannot stand in a sea area"
        wanted = {BaseKind.NAVAL} if unit_class == "naval" else {BaseKind.NAVAL, BaseKind.AIR}
        bases = [
            b for b in area.bases if b.kind in wanted and _friendly(module, scenario, unit.power, b.owner)
        ]
        if not bases:
            needed = "naval" if unit_class == "naval" else "air or naval"
            return f"a {unit_class} unit needs a friendly {needed} base to stand in a sea area"
        return None
    if area.remote and controller != unit.power:
        return "only the controller's units may enter a remote area (LR 2.2.8)"
    if unit_class == "naval" and not area.coastal:
        return "a naval unit can stand only in a coastal land area"
    if unit.coast is not None and (area.coasts is None or unit.coast not in area.coasts):
        return f"the area has no coast named '{unit.coast}'"
    if unit_class == "naval" and area.coasts is not None and unit.coast is None:
        return "a naval unit in a two-coast area must name its coast (LR 2.2.1)"
    if _friendly(module, scenario, unit.power, controller):
        return None
    special = area.special_base
    if (
        special is not None
        and unit.area in scenario.special_bases
        and controller is None
        and (_friendly(module, scenario, unit.power, special.owner))
    ):
        if unit_class == "naval" and special.coast is not None and unit.coast not in (None, special.coast):
            return f"a naval unit at {special.name} stands on its coast, '{special.coast}' (LR 2.2.1, 2.3.3)"
        return None
    who = f"controlled by {controller}" if controller else "uncontrolled"
    return f"the area is {who}, not friendly to {unit.power}"


def _unit_checks(module: Module, name: str, scenario: Scenario, in_play: set[str]) -> list[Problem]:
    problems: list[Problem] = []
    load: dict[tuple[str, str], Counter[str]] = defaultdict(Counter)
    for index, unit in enumerate(scenario.units):
        record = f"units[{index}] ({unit.power} {unit.type} in {unit.area})"
        if unit.area not in in_play:
            problems.append(Problem(name, record, "area", "is on a map the scenario does not use"))
            continue
        reason = _may_stand(module, scenario, unit)
        if reason:
            problems.append(Problem(name, record, "area", f"may not be occupied: {reason}"))
        unit_type = module.unit_types[unit.type]
        key = (unit.area, module.powers[unit.power].ideology.value)
        load[key][unit_type.unit_class] += unit.count
        if unit_type.id == "fortress":
            load[key]["fortress"] += unit.count
    for area in module.areas.values():
        if area.minor_army is not None and area.id in in_play:
            controller = module.controller(scenario, area.id)
            if controller is not None:
                load[(area.id, module.powers[controller].ideology.value)]["land"] += area.minor_army.count
    for (area_id, ideology), counts in load.items():
        area = module.areas[area_id]
        if area.remote:
            continue
        limits = occupation_limits(module, area_id, counts["logistics"] > 0)
        for kind, limit in limits.items():
            if counts[kind] > limit:
                problems.append(
                    Problem(
                        name,
                        f"units in {area_id}",
                        "",
                        f"{ideology} has {counts[kind]} {kind} unit(s) where at most {limit} "
                        "may stand (LR 7.1)",
                    )
                )
    return problems


def occupation_limits(
    module: Module, area_id: str, logistics: bool, *, restricted: bool = True
) -> dict[str, int]:
    """Units of one ideology that may stand in an area, by class (LR 7.1.1-7.1.3, 7.1.4)."""
    area = module.areas[area_id]
    if area.type is AreaType.SEA:
        naval = any(b.kind is BaseKind.NAVAL for b in area.bases)
        air = bool(area.bases)
        extra = 2 if logistics else 1
        return {"land": 0, "naval": extra if naval else 0, "air": extra if air else 0, "logistics": 1}
    if restricted and area.restricted and not logistics:
        return {"land": 1, "naval": 1, "air": 1, "logistics": 1, "fortress": 1}
    return {"land": 2, "naval": 2 if area.coastal else 0, "air": 2, "logistics": 1, "fortress": 1}


def _counter_checks(module: Module, name: str, scenario: Scenario) -> list[Problem]:
    problems: list[Problem] = []
    for power_id, power in module.powers.items():
        used: Counter[str] = Counter()
        for unit in scenario.units:
            if unit.power == power_id:
                used[module.unit_types[unit.type].counter] += unit.count
        cup = scenario.cup.get(power_id)
        upgrades: Counter[str] = Counter()
        flags = offensives = 0
        if cup is not None:
            for unit_type, count in cup.units.items():
                if unit_type not in module.unit_types:
                    problems.append(
                        Problem(name, f"cup.{power_id}", "units", f"unknown unit type '{unit_type}'")
                    )
                    continue
                used[module.unit_types[unit_type].counter] += count
            upgrades.update(cup.upgrade_markers)
            flags, offensives = cup.flags, cup.offensives
        reserve = scenario.reserve.get(power_id)
        if reserve is not None:
            if reserve.kind == "flag":
                flags += 1
            elif reserve.kind in ("offensive", "resource"):
                offensives += 1
            elif reserve.kind == "unit" and reserve.type is not None and reserve.type in module.unit_types:
                used[module.unit_types[reserve.type].counter] += 1
            elif reserve.kind == "upgrade" and reserve.type:
                upgrades[reserve.type] += 1
            else:
                problems.append(
                    Problem(name, f"reserve.{power_id}", "type", "a reserved unit or upgrade names its type")
                )
        mix = power.counters
        for counter, count in used.items():
            if count > mix.units.get(counter, 0):
                problems.append(
                    Problem(
                        name,
                        f"pieces of {power_id}",
                        counter,
                        f"{count} in play but the counter mix has {mix.units.get(counter, 0)} (LR 2.4)",
                    )
                )
        for marker, count in upgrades.items():
            if count > mix.upgrade_markers.get(marker, 0):
                problems.append(
                    Problem(
                        name,
                        f"pieces of {power_id}",
                        f"upgrade {marker}",
                        f"{count} in play but the mix has {mix.upgrade_markers.get(marker, 0)}",
                    )
                )
        if flags > mix.flags:
            problems.append(
                Problem(
                    name, f"pieces of {power_id}", "flags", f"{flags} in play but the mix has {mix.flags}"
                )
            )
        if offensives > mix.offensives:
            problems.append(
                Problem(
                    name,
                    f"pieces of {power_id}",
                    "offensives",
                    f"{offensives} in play but the mix has {mix.offensives}",
                )
            )
        line = scenario.powers.get(power_id)
        if line is not None:
            limit = power.status_card[line.commitment].force_pool
            pool = sum(used.values()) + sum(upgrades.values())
            if pool > limit:
                problems.append(
                    Problem(
                        name,
                        f"pieces of {power_id}",
                        "force pool",
                        f"{pool} units and upgrade markers in play exceed the limit {limit} "
                        f"at {line.commitment.value} (LR 4.1.1)",
                    )
                )
    return problems
