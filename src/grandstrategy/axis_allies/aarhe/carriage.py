"""Sea and air transport in the variant's non-combat move (S3:L232).

Sea: land units go aboard and come ashore in one turn; the power's land units still at sea when
its non-combat move ends cannot be kept there and are lost (:func:`drop_cargo_at_sea`, AH
decision), so no transport ends a turn laden.

Air: a bomber that has not flown this turn carries one infantry (two with Heavy Bomber
technology) in non-combat move, as one decision ``airlift N infantry FROM -> TO`` that loads,
flies and unloads at once (so loading and unloading fall in the same turn). The bombers fly with
their combat range, half their movement (S3:L216), to friendly land where aircraft may land; the
bombers and the infantry end their move there.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from grandstrategy.axis_allies.game.board import key, split
from grandstrategy.core.graph import bfs_distances

if TYPE_CHECKING:
    from grandstrategy.axis_allies.game.engine import AAGame

CARGO = "infantry"
"""The one unit type bombers carry (S3:L232 names infantry)."""

HEAVY_TECH = "heavy-bomber"
"""With it a bomber carries two infantry (S3:L232)."""


def land_units_at_sea(game: AAGame, power: str) -> dict[str, int]:
    """``{sea zone: count}`` of ``power``'s land units aboard transports."""
    found: dict[str, int] = {}
    for where, here in game.d["units"].items():
        if not game.is_sea(where):
            continue
        for stack, n in here.items():
            owner, unit, _, _ = split(stack)
            if owner == power and game.stats[unit].domain == "land":
                found[where] = found.get(where, 0) + n
    return found


def drop_cargo_at_sea(game: AAGame) -> None:
    """End of the power's non-combat move: its land units still aboard are lost (S3:L232: no
    army stays on transports from one turn to the next)."""
    power = game.power
    for zone in sorted(land_units_at_sea(game, power)):
        for stack, n in game.stacks(zone):
            owner, unit, _, _ = split(stack)
            if owner == power and game.stats[unit].domain == "land":
                game.add(zone, stack, -n)
                game.log(f"{n} {unit} left aboard transports in {zone} are lost")


def problems(game: AAGame, clean_phases: tuple[str, ...]) -> list[str]:
    """Land units at sea only for a power in the middle of its turn: the power on move outside
    ``clean_phases`` (before its combat move, after its non-combat move) and team-mates whose
    turn waits for the team's combat."""
    mid_turn = {game.power, *game.d["aarhe"]["waiting"]}
    found: list[str] = []
    for power in game.order:
        if power in mid_turn and not (power == game.power and game.d["phase"] in clean_phases):
            continue
        found.extend(
            f"{n} {power} land units at sea in {zone}" for zone, n in land_units_at_sea(game, power).items()
        )
    return found


def per_bomber(game: AAGame) -> int:
    """Infantry one bomber of the power on move carries: one, two with Heavy Bomber (S3:L232)."""
    return 2 if HEAVY_TECH in game.techs(game.power) else 1


def _ready(game: AAGame, where: str, *, bombers: bool) -> list[tuple[str, int]]:
    """The power's bombers at ``where`` that have not flown this turn (``bombers``), or its
    infantry there that have not moved, as ``(stack, count)``."""
    power = game.power
    found: list[tuple[str, int]] = []
    for stack, n in game.stacks(where):
        owner, unit, moves, damage = split(stack)
        if owner != power or damage:
            continue
        if bombers and game.stats[unit].strategic_bomber and moves >= game.movement(power, unit):
            found.append((stack, n))
        if not bombers and unit == CARGO and moves > 0:
            found.append((stack, n))
    return found


def targets(game: AAGame, origin: str, bomber: str) -> list[str]:
    """Friendly land where aircraft may land within the bombers' combat range (half their
    movement, S3:L216, L232), open to the bombers and the infantry (the variant's limits)."""
    profile = game.profile

    def neighbours(t: str) -> list[str]:
        return [n for n in game.module.territories[t].neighbours if profile.air_passable(game, n)]

    reach = bfs_distances([origin], neighbours, game.movement(game.power, bomber) // 2)
    return [
        t
        for t in sorted(reach)
        if t != origin
        and not game.is_sea(t)
        and game.landing_ok(t)
        and profile.land_passable(game, t)
        and profile.may_enter(game, bomber, origin, t, combat=False)
        and profile.may_enter(game, CARGO, origin, t, combat=False)
    ]


def airlift_options(game: AAGame) -> list[str]:
    """``airlift N infantry FROM -> TO`` for one infantry and for as many as the bombers there
    carry."""
    result: list[str] = []
    for where in sorted(game.d["units"]):
        if game.is_sea(where):
            continue
        bombers = _ready(game, where, bombers=True)
        infantry = sum(n for _, n in _ready(game, where, bombers=False))
        if not bombers or not infantry:
            continue
        most = min(infantry, sum(n for _, n in bombers) * per_bomber(game))
        bomber = split(bombers[0][0])[1]
        for target in targets(game, where, bomber):
            room = game.profile.entry_room(game, target)  # S3:L246: bombers and infantry count
            fit = most
            if room is not None:
                fit = max((c for c in range(most + 1) if c + -(-c // per_bomber(game)) <= room), default=0)
            counts = sorted({1, fit}) if fit else []
            result.extend(f"airlift {c} {CARGO} {where} -> {target}" for c in counts)
    return result


def airlift(game: AAGame, count: int, origin: str, target: str) -> None:
    """Load ``count`` infantry onto the fewest bombers, fly them to ``target`` and unload there;
    bombers and infantry have no moves left."""
    _fly(game, _ready(game, origin, bombers=True), -(-count // per_bomber(game)), origin, target)
    _fly(game, _ready(game, origin, bombers=False), count, origin, target)
    game.log(f"bombers fly {count} {CARGO} from {origin} to {target}")


def _fly(game: AAGame, stacks: list[tuple[str, int]], count: int, origin: str, target: str) -> None:
    """Move ``count`` units from ``stacks`` (in order) at ``origin`` to ``target``, moves spent."""
    for stack, n in stacks:
        if count <= 0:
            return
        take = min(n, count)
        owner, unit, _, damage = split(stack)
        game.add(origin, stack, -take)
        game.add(target, key(owner, unit, 0, damage), take)
        count -= take
