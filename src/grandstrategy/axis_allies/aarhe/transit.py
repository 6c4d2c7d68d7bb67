"""Submarine transit in combat move (S3:L218): submarines may move through hostile sea zones.

A submarine entering a sea zone with enemy destroyers (or cruisers) keeps its remaining moves
(``AarheProfile.subs_pass_destroyers``); each of those hunters may search for one of the
arriving submarines at -1 (the combat's special battle,
:func:`.combat.special.open_transit_search`). A detected submarine must stop there and fight; an
undetected one may move on with its next move or stay and fight.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from grandstrategy.axis_allies.aarhe.combat.machine import ESCORT
from grandstrategy.axis_allies.aarhe.combat.special import open_transit_search
from grandstrategy.axis_allies.aarhe.combat.tables import tables
from grandstrategy.axis_allies.game.board import key, split

if TYPE_CHECKING:
    from grandstrategy.axis_allies.game.engine import AAGame


def hunters(game: AAGame, zone: str) -> int:
    """The enemy destroyers and cruisers in ``zone``."""
    table = tables()
    return sum(
        n
        for stack, n in game.stacks(zone)
        if not game.friendly(game.power, split(stack)[0]) and table.role(split(stack)[1]) in ESCORT
    )


def start(game: AAGame, unit: str, target: str, count: int) -> None:
    """After ``count`` submarines of the power on move entered ``target`` in combat move: the
    hunters there may search, if any submarine could still move on."""
    if not game.is_sea(target) or not game.stats[unit].sub or not hunters(game, target):
        return
    moving = sum(
        n
        for stack, n in game.stacks(target)
        if split(stack)[:2] == (game.power, unit) and split(stack)[2] > 0 and not split(stack)[3]
    )
    if moving:
        game.d["aarhe_turn"]["transit"] = unit
        open_transit_search(game, target, min(count, moving))


def finish(game: AAGame) -> bool:
    """After a search: the detected submarines stop (no moves left). False when none waited."""
    result = game.d.pop("aarhe_transit", None)
    unit = game.d["aarhe_turn"].pop("transit", None)
    if result is None or unit is None:
        return False
    zone, left = result["zone"], int(result["detected"])
    for stack, n in game.stacks(zone):
        owner, kind, moves, damage = split(stack)
        if left > 0 and (owner, kind) == (game.power, unit) and moves > 0 and not damage:
            take = min(n, left)
            game.add(zone, stack, -take)
            game.add(zone, key(owner, kind, 0, damage), take)
            left -= take
    return True
