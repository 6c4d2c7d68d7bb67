"""National Attacks (optional, S3:L250): each nation's modifiers in the variant's battles.

The records are ``data/optional.yaml`` ``attacks`` (nation, unit role, modifier, attack or
defence, the conditions ``when``); this module answers the battle machine's three questions:
a unit's plain modifier on a die (:func:`modifier`), the tanks a nation's fighters lift 1-to-1
(:func:`per_fighter`), and which units fire in the first cycle's opening fire instead of the main
round, how many and with what bonus (:func:`opening`). Nothing applies unless the game plays the
``national_attacks`` option. Readings (AH-O4): a bonus counts on every die the unit rolls in the
case it names (a fighter's dogfight die too); Blitzkrieg's tank bonus adds to the fighter support
of air supremacy (S3:L220); attacks other than Radar apply when the nation attacks; Shock Troops
fire in a land cycle's opening fire (not in an amphibious assault's first cycle, whose order is
its own); Marines are the infantry landed from the sea.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from grandstrategy.axis_allies.aarhe import optional
from grandstrategy.axis_allies.aarhe.optional import NationalAttack, optional_tables

if TYPE_CHECKING:
    from grandstrategy.axis_allies.aarhe.combat.cycle import CycleBase

FIGHTERS = ("FTR", "NAV")
"""Roles that count as fighters for "no enemy fighters" (S3:L250)."""


def playing(run: CycleBase) -> bool:
    return optional.on(run.g, "national_attacks")


def holds(run: CycleBase, record: NationalAttack, attacker: bool) -> bool:
    """Whether a record's side and conditions hold in this battle for one side."""
    if (record.side == "attack") != attacker:
        return False
    sea = run.g.is_sea(run.where)
    checks = {
        "no-enemy-fighters": lambda: run.count(not attacker, *FIGHTERS) == 0,
        "sea": lambda: sea,
        "land": lambda: not sea,
        "first-cycle": lambda: int(run.b["cycle"]) == 1,
        "amphibious": lambda: bool(run.b["amphibious"]) and int(run.b["cycle"]) == 1 and not sea,
        "in-territories": lambda: run.where in record.territories,
    }
    return all(checks[c]() for c in record.when)


def _records(run: CycleBase, owner: str, unit: str) -> list[NationalAttack]:
    role = run.role(unit)
    return [r for r in optional_tables().attacks if r.nation == owner and r.role == role]


def modifier(run: CycleBase, owner: str, unit: str, attacker: bool) -> int:
    """The plain National Attack bonus on one die of this unit (fighters' +1 of Blitzkrieg, Lance
    Torpedo and Radar); the special ones are :func:`per_fighter` and :func:`opening`."""
    if not playing(run):
        return 0
    return sum(
        r.modifier
        for r in _records(run, owner, unit)
        if not (r.per_fighter or r.opening_fire or "amphibious" in r.when) and holds(run, r, attacker)
    )


def per_fighter(run: CycleBase, attacker: bool) -> list[tuple[str, str, int, int]]:
    """``(nation, role, modifier, fighters)``: each of the nation's fighters in the battle lifts
    one unit of ``role`` by ``modifier`` (Blitzkrieg's tanks)."""
    if not playing(run):
        return []
    result = []
    for record in optional_tables().attacks:
        if record.per_fighter and holds(run, record, attacker):
            fighters = sum(
                n for _, o, u, _, n in run.side(attacker) if o == record.nation and run.role(u) == "FTR"
            )
            if fighters:
                result.append((record.nation, record.role, record.modifier, fighters))
    return result


def amphibious(run: CycleBase) -> list[tuple[str, str, int]]:
    """``(nation, role, modifier)`` for the attacker's units landed from the sea (Marines)."""
    if not playing(run):
        return []
    return [
        (r.nation, r.role, r.modifier)
        for r in optional_tables().attacks
        if "amphibious" in r.when and holds(run, r, True)
    ]


def opening(run: CycleBase, attacker: bool, owner: str, unit: str) -> tuple[int, int] | None:
    """``(modifier, at most how many)`` when units of this type fire in the opening fire of the
    first cycle instead of its main round (Lance Torpedo's destroyers, Shock Troops), else None.
    ``at most`` counts what the turn's limit leaves (no limit: every unit)."""
    if not playing(run):
        return None
    for record in _records(run, owner, unit):
        if record.opening_fire and holds(run, record, attacker):
            if record.per_turn is None:
                return record.modifier, 10_000
            used = int(used_this_turn(run).get(record.name, 0))
            return record.modifier, max(0, record.per_turn - used)
    return None


def used_this_turn(run: CycleBase) -> dict[str, int]:
    """How many units used each limited National Attack this turn: in the turn's records when the
    game keeps them (``d["aarhe_turn"]``), else in the battle."""
    records = run.g.d.get("aarhe_turn")
    holder = records if isinstance(records, dict) else run.b
    used: dict[str, int] = holder.setdefault("national_attacks", {})
    return used


def spend(run: CycleBase, owner: str, unit: str, n: int) -> None:
    """Count ``n`` units' use of a limited opening-fire attack."""
    for record in _records(run, owner, unit):
        if record.opening_fire and record.per_turn is not None:
            used = used_this_turn(run)
            used[record.name] = used.get(record.name, 0) + n
