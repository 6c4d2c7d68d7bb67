"""The object the variant's profile returns from ``Profile.battle_machine()``.

It holds no state: every battle lives in the game's JSON data (``d["battle"]``), so saves,
clones and replays need nothing from it.
"""

from __future__ import annotations

from grandstrategy.axis_allies.aarhe.combat.special import SpecialRun
from grandstrategy.axis_allies.game.combat import Combat


class AarheBattles:
    """The Historical Edition's battle machine (see :mod:`.machine` and :mod:`.special`).

    The engine calls :meth:`open` for ``fight WHERE`` and, while ``d["battle"]`` carries
    ``"machine": "aarhe"``, asks it who acts and the options, and hands it choices and dice.
    """

    name = "aarhe"

    def open(self, game: Combat, where: str) -> None:
        SpecialRun(game).open(where)

    def to_act(self, game: Combat) -> str | None:
        """The power to decide, or None when a die is to be rolled."""
        battle = game.d["battle"]
        if battle["dice"]:
            return None
        return str(battle["ask"]["who"])

    def options(self, game: Combat) -> list[str]:
        battle = game.d["battle"]
        return [] if battle["dice"] else list(battle["ask"]["options"])

    def choose(self, game: Combat, option: str) -> None:
        SpecialRun(game).choose(option)

    def chance_label(self, game: Combat) -> str:
        label: str = game.d["battle"]["dice"][0][0]
        return label

    def apply_die(self, game: Combat, face: int) -> None:
        SpecialRun(game).die(face)


BATTLES = AarheBattles()
"""The one machine object."""
