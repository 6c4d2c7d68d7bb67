"""ID deployment (S3:L236): an ID is mobilized on its side; it may move 1 in non-combat move but
cannot fire; once turned upright (deployed) it fires and never moves again.

The IDs on their side are counted by place in ``d["aarhe"]["undeployed"]`` (``{place: n}``, kept
only while there are some); every other ID unit is deployed, among them those of the setup.
Readings (AH-O5): an ID may be deployed in non-combat move or in the mobilize phase in which it was
placed ("including the turn it is first mobilized"), one at a time with ``deploy UNIT at PLACE``;
an ID on its side that changes hands with its territory stays on its side.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from grandstrategy.axis_allies.aarhe.combat.tables import tables
from grandstrategy.axis_allies.game.board import split

if TYPE_CHECKING:
    from grandstrategy.axis_allies.game.board import Board
    from grandstrategy.axis_allies.game.engine import AAGame

DEPLOY = "deploy"


def is_id(unit: str) -> bool:
    return tables().role(unit) == "ID"


def _record(game: Board) -> dict[str, int]:
    found: dict[str, int] = game.d.get("aarhe", {}).get("undeployed", {})
    return found


def on_side(game: Board, where: str) -> int:
    """The IDs on their side at ``where`` (they do not fire, S3:L236)."""
    return int(_record(game).get(where, 0))


def _ids(game: Board, where: str, power: str | None = None) -> int:
    return sum(
        n
        for s, n in game.units(where).items()
        if is_id(split(s)[1]) and (power is None or split(s)[0] == power)
    )


def _change(game: AAGame, where: str, n: int) -> None:
    record = game.d["aarhe"].setdefault("undeployed", {})
    record[where] = record.get(where, 0) + n
    if record[where] <= 0:
        del record[where]
    if not record:
        del game.d["aarhe"]["undeployed"]


def placed(game: AAGame, unit: str, where: str) -> None:
    """A newly mobilized ID lies on its side."""
    if is_id(unit):
        _change(game, where, 1)


def deploy_options(game: AAGame) -> list[str]:
    """``deploy UNIT at PLACE`` for the power's IDs on their side."""
    result = []
    for where in sorted(_record(game)):
        for stack in sorted(game.units(where)):
            owner, unit, _, _ = split(stack)
            if owner == game.power and is_id(unit):
                result.append(f"{DEPLOY} {unit} at {where}")
                break
    return result


def deploy(game: AAGame, where: str) -> None:
    _change(game, where, -1)
    game.log(f"deploys the ID at {where}")


def movable(game: AAGame, option: str) -> bool:
    """A move of IDs is legal only for IDs on their side (deployed ones never move, S3:L236)."""
    words = option.split()
    if words[0] != "move" or not is_id(words[2]):
        return True
    return int(words[1]) <= min(on_side(game, words[3]), _ids(game, words[3], game.power))


def moved(game: AAGame, unit: str, origin: str, target: str, n: int) -> None:
    """IDs on their side that moved keep lying on their side where they arrive."""
    if is_id(unit):
        _change(game, origin, -n)
        _change(game, target, n)
