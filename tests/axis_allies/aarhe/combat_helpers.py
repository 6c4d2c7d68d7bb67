"""A game whose battles are fought by the Historical Edition's combat machine (forced dice)."""

from __future__ import annotations

from grandstrategy.axis_allies.aarhe.combat import BATTLES
from grandstrategy.axis_allies.game import AAGame, AARuleSet, Profile
from grandstrategy.axis_allies.game.profile import BattleMachine


class CombatProfile(Profile):
    """Revised with the variant's battles: the one hook the variant's own profile also overrides."""

    name = "aarhe-combat-test"

    def battle_machine(self) -> BattleMachine | None:
        return BATTLES


RULES = AARuleSet(profile=CombatProfile)


def fresh() -> AAGame:
    return RULES.new_state({"max_rounds": 0})


def labels_left(game: AAGame) -> str:
    return game.chance_node().label
