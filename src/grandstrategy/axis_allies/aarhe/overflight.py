"""Overflight interception in combat move (S3:L216): a flight over enemy fighters meets them.

Aircraft fly a whole path in one decision (``move N UNIT FROM -> TO``). The mover flies the
shortest path that passes no territory guarded by enemy aircraft other than bombers when there is
one; otherwise the one past the fewest of them, and the first guarded territory on it intercepts
(one interception per flight, AH-W5). The fire is the combat's special battle
(:func:`.combat.special.open_overflight`: each interceptor acts as an ID); when it is over the
survivors complete the move and aircraft turned back stay at their origin with no moves left.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from grandstrategy.axis_allies.aarhe.combat.special import open_overflight
from grandstrategy.axis_allies.game.board import key, split
from grandstrategy.core.graph import bfs_distances

if TYPE_CHECKING:
    from grandstrategy.axis_allies.game.engine import AAGame


def guards(game: AAGame, territory: str) -> int:
    """Enemy aircraft other than bombers on the land of ``territory`` (none where a battle waits:
    they fight there)."""
    if game.is_sea(territory) or territory in game.d["battles"]:
        return 0
    total = 0
    for stack, n in game.stacks(territory):
        owner, unit, _, _ = split(stack)
        stats = game.stats[unit]
        if not game.friendly(game.power, owner) and stats.domain == "air" and not stats.strategic_bomber:
            total += n
    return total


def intercepting_place(game: AAGame, origin: str, target: str) -> str | None:
    """The territory whose aircraft intercept a flight from ``origin`` to ``target``, or None."""

    def neighbours(t: str) -> list[str]:
        return [n for n in game.module.territories[t].neighbours if game.profile.air_passable(game, n)]

    there = bfs_distances([origin], neighbours)
    back = bfs_distances([target], neighbours)
    length = there.get(target)
    if length is None or length <= 1:
        return None

    def clear(t: str) -> list[str]:
        return [n for n in neighbours(t) if n == target or not guards(game, n)]

    if bfs_distances([origin], clear, length).get(target) == length:
        return None  # a shortest path past no interceptor
    on_path = [
        t
        for t, d in there.items()
        if 0 < d < length and back.get(t, length + 1) + d == length and guards(game, t)
    ]
    return min(on_path, key=lambda t: (guards(game, t), there[t], t)) if on_path else None


def start(game: AAGame, count: int, unit: str, origin: str, target: str) -> bool:
    """Open the interception of this combat-move flight if one happens; True when it did (the
    move waits for the battle's end, :func:`finish`)."""
    over = intercepting_place(game, origin, target)
    if over is None:
        return False
    distance = game.air_distance(origin, target)
    flyers: dict[str, int] = {}
    left = count
    for stack, n in game.stacks(origin):
        owner, kind, moves, damage = split(stack)
        if owner == game.power and kind == unit and moves >= distance and not damage and left > 0:
            take = min(n, left)
            flyers[stack] = take
            left -= take
    game.d["aarhe_turn"]["flight"] = [unit, origin, target]
    game.log(f"{count} {unit} flying from {origin} to {target} meet the enemy's fighters over {over}")
    open_overflight(game, over, origin, flyers)
    return True


def finish(game: AAGame) -> bool:
    """After an interception: the survivors fly on, the aircraft turned back stay grounded at
    their origin. False when no interception was waiting."""
    result = game.d.pop("aarhe_overflight", None)
    flight = game.d["aarhe_turn"].pop("flight", None)
    if result is None or flight is None:
        return False
    unit, origin, target = flight
    for stack, n in sorted(result["turned_back"].items()):
        here = min(n, game.units(origin).get(stack, 0))
        owner, kind, _, damage = split(stack)
        if here:
            game.add(origin, stack, -here)
            game.add(origin, key(owner, kind, 0, damage), here)
    survivors = sum(result["survivors"].values())
    if survivors:
        game.move(survivors, unit, origin, target, combat=True)
    return True
