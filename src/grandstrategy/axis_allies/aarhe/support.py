"""Declaring Defensive Air Support at the start of the enemy's combat phase (S3:L230).

Before the power on move resolves any combat, each power of the other side may send aircraft
from a place it or a friend holds into an adjacent place where a battle waits; they defend there
from the battle's second cycle (:func:`.combat.special.declare_support` records the mission,
the battle machine brings them in and sends them back). The declarations are a short special
"battle" (``d["battle"]``, ``"kind": "support"``) whose only step is a question per defending
power: declare one more mission, or ``done``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from grandstrategy.axis_allies.aarhe import declarations, interdiction
from grandstrategy.axis_allies.aarhe.combat.special import declare_support
from grandstrategy.axis_allies.aarhe.declarations import open_round
from grandstrategy.axis_allies.game.board import split

if TYPE_CHECKING:
    from grandstrategy.axis_allies.game.combat import Combat

KIND = "support"


def _declared(game: Combat) -> dict[tuple[str, str], int]:
    """Aircraft already sent, by ``(stack, origin)``; bombers on an air interdiction mission
    fight in no other combat this turn (S3:L230)."""
    sent = interdiction.busy(game)
    for missions in game.d.get("aarhe_support", {}).values():
        for stack, origin, n in missions:
            sent[stack, origin] = sent.get((stack, origin), 0) + n
    return sent


def offers(game: Combat, power: str) -> list[str]:
    """``support TARGET with N UNIT from ORIGIN`` for ``power``'s aircraft next to a battle of
    the power on move, in a place of their own side that is not itself being attacked (they
    fight in one place only)."""
    battles = set(game.d["battles"])
    sent = _declared(game)
    result = []
    for origin in sorted(game.d["units"]):
        if origin in battles or (not game.is_sea(origin) and not game.friendly(power, game.owner(origin))):
            continue
        free: dict[str, int] = {}
        for stack, n in game.stacks(origin):
            owner, unit, _, damage = split(stack)
            if owner == power and game.stats[unit].domain == "air" and not damage:
                free[unit] = free.get(unit, 0) + n - sent.get((stack, origin), 0)
        targets = sorted(battles & set(game.module.territories[origin].neighbours))
        for unit, n in sorted(free.items()):
            for target in targets:
                if n > 0 and (game.is_sea(target) or game.friendly(power, game.owner(target))):
                    result.append(f"support {target} with {n} {unit} from {origin}")
    return result


def open_declarations(game: Combat) -> None:
    """The combat phase begins: the other side's powers, in turn order, may declare missions."""
    open_round(game, KIND, offers)


def answer(game: Combat, option: str) -> None:
    """``done`` passes to the next defending power; a mission is recorded."""

    def record(power: str, stack: str, origin: str, target: str, take: int) -> None:
        declare_support(game, stack, origin, target, take)

    declarations.answer(game, option, offers, _declared(game), record, "support the defence of")
