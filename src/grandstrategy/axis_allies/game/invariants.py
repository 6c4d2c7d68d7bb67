"""What must hold in every position of an A&A game; the simulator checks it after every action."""

from __future__ import annotations

from grandstrategy.axis_allies.game.engine import AAGame, iter_units


def problems(game: AAGame) -> list[str]:
    """Every broken invariant of the position, as one line each (empty when all hold)."""
    found: list[str] = []
    module, stats, d = game.module, game.stats, game.d
    for power, bank in d["bank"].items():
        if not isinstance(bank, int) or bank < 0:
            found.append(f"{power} has a bank of {bank!r} IPCs")
    for where, owner in d["owner"].items():
        t = module.territories.get(where)
        if t is None or t.type.value != "land":
            found.append(f"ownership recorded for {where!r}, which is not a land territory")
        elif owner is not None and owner not in module.powers:
            found.append(f"{where} is owned by unknown power {owner!r}")
        elif owner is not None and not game.profile.ownable(game, where):
            found.append(f"impassable {where} has an owner")
    factories: dict[str, int] = {}
    land_sides: dict[str, set[str]] = {}
    for where, power, unit, moves, damage, n in iter_units(game):
        if where not in module.territories or power not in module.powers or unit not in stats:
            found.append(f"unknown place, power or unit in stack {power}:{unit} at {where}")
            continue
        s = stats[unit]
        if n <= 0:
            found.append(f"{where}: {n} {power} {unit}")
        if not 0 <= moves <= game.movement(power, unit):
            found.append(
                f"{where}: {power} {unit} with {moves} moves left (movement {game.movement(power, unit)})"
            )
        if not 0 <= damage < s.hit_points:
            found.append(f"{where}: {power} {unit} with {damage} damage")
        sea = game.is_sea(where)
        if sea and (s.domain == "structure" or (s.domain == "land" and not s.transport_cost)):
            found.append(f"{power} {unit} at sea in {where}")
        if not sea and s.domain == "sea":
            found.append(f"{power} {unit} on land in {where}")
        if s.factory:
            factories[where] = factories.get(where, 0) + n
            if d["owner"].get(where) != power:
                found.append(f"{power} factory in {where}, owned by {d['owner'].get(where)}")
        if not sea and s.combat and s.domain != "air":  # aircraft may be over enemy land until they land
            land_sides.setdefault(where, set()).add(game.alliance(power))
    found.extend(f"{where} has {n} factories" for where, n in factories.items() if n > 1)
    for where in d["units"]:
        if game.is_sea(where):
            for power in module.powers:
                if game.cargo_room(power, where) < 0:
                    found.append(f"{power} has more cargo in {where} than its transports hold")
    open_battles = set(d["battles"]) | ({d["battle"]["where"]} if d["battle"] else set())
    open_battles |= set(game.profile.waiting_battles(game))
    for where, sides in land_sides.items():
        if len(sides) > 1 and where not in open_battles:
            found.append(f"{where} holds units of both alliances outside a battle")
    if d["phase"] not in ("combat-move", "combat") and (d["battles"] or d["raids"]):
        found.append(f"battles {d['battles']} or raids {sorted(d['raids'])} waiting in phase {d['phase']}")
    if d["battle"] is not None and d["phase"] not in game.profile.dice_phases:
        found.append(f"a battle is open in phase {d['phase']}")
    if d["purchased"] and d["phase"] not in game.profile.holding_phases:
        found.append(f"units bought but not placed in phase {d['phase']}")
    if d["phase"] not in game.profile.phases:
        found.append(f"unknown phase {d['phase']!r}")
    found.extend(game.profile.problems(game))
    return found


def unit_counts(game: AAGame) -> dict[tuple[str, str], int]:
    """Every unit in the game by ``(alliance, type)``: on the board, out of the open battle
    (submerged submarines, withdrawn aircraft), away on a raid, or bought and not yet placed.
    Factories and AA guns change sides when taken, so they count under the alliance ``*``."""
    counts: dict[tuple[str, str], int] = {}

    def count(power: str, unit: str, n: int) -> None:
        side = game.alliance(power) if game.stats[unit].combat else "*"
        counts[side, unit] = counts.get((side, unit), 0) + n

    for _, power, unit, _, _, n in iter_units(game):
        count(power, unit, n)
    aside = dict(game.d["battle"].get("submerged", {})) if game.d["battle"] else {}
    for raiders in game.d["raids"].values():
        for stack, n in raiders.items():
            aside[stack] = aside.get(stack, 0) + n
    for stack, n in aside.items():
        power, unit, _, _ = stack.split(":")
        count(power, unit, n)
    for unit, n in game.d["purchased"].items():
        count(game.power, unit, n)
    for power, unit, n in game.profile.aside_units(game):
        count(power, unit, n)
    return counts


def conservation_problems(
    before: dict[tuple[str, str], int], after: dict[tuple[str, str], int], action: str
) -> list[str]:
    """Units are conserved: between two positions an alliance's units of a type may only grow by a
    purchase (``buy TYPE``, one unit; ``buy N TYPE ...``, a variant's batch of N) and otherwise
    only shrink (casualties, aircraft that cannot land, cargo lost with its ship, purchases that
    cannot be placed)."""
    bought = action.split(": ", 1)[-1].split()
    batch = bought[:1] == ["buy"] and len(bought) > 2 and bought[1].isdigit()
    if batch:
        bought = ["buy", bought[2]]
    found = []
    for side_unit in sorted(set(before) | set(after)):
        grew = after.get(side_unit, 0) - before.get(side_unit, 0)
        allowed = 1 if bought[:1] == ["buy"] and bought[1:2] == [side_unit[1]] else 0
        if batch and allowed:
            allowed = int(action.split(": ", 1)[-1].split()[1])
        if grew > allowed:
            found.append(f"{grew} {side_unit[0]} {side_unit[1]} appeared after {action!r}")
    return found
