"""Repair of the variant's two-hit units (S3:L244, L248).

A damaged battleship or carrier in a sea zone next to a friendly industrial complex or victory
city, and a damaged heavy tank in a friendly territory with one, return upright. The turn layer
calls :func:`repair` at the start of the owner's turn (heavy tanks: also at the start of an
enemy's turn); the variant's profile turns the base game's end-of-turn repair off.
"""

from __future__ import annotations

from grandstrategy.axis_allies.aarhe.combat.tables import tables
from grandstrategy.axis_allies.game.board import key, split
from grandstrategy.axis_allies.game.combat import Combat

SHIPS = frozenset({"BB", "CV"})
TANKS = frozenset({"HARM"})


def _port(game: Combat, power: str, territory: str) -> bool:
    """A friendly territory with an industrial complex or a victory city."""
    if game.is_sea(territory) or not game.friendly(power, game.owner(territory)):
        return False
    hook = getattr(game.profile, "victory_city", None)
    city = bool(hook(territory)) if callable(hook) else bool(game.module.territories[territory].victory_city)
    return city or game.factories(territory) > 0


def repair(game: Combat, power: str, *, ships: bool = True, tanks: bool = True) -> list[str]:
    """Repair ``power``'s damaged units where the variant allows; returns where it repaired."""
    table = tables()
    done = []
    for where in sorted(game.d["units"]):
        for stack, n in game.stacks(where):
            owner, unit, moves, damage = split(stack)
            role = table.role(unit)
            if owner != power or not damage:
                continue
            if ships and role in SHIPS and game.is_sea(where):
                ok = any(_port(game, power, t) for t in game.module.territories[where].neighbours)
            elif tanks and role in TANKS and not game.is_sea(where):
                ok = _port(game, power, where)
            else:
                continue
            if ok:
                game.add(where, stack, -n)
                game.add(where, key(owner, unit, moves, 0), n)
                done.append(where)
    return done
