"""A game whose battles are fought by the Historical Edition's combat machine (forced dice)."""

from __future__ import annotations

from dataclasses import replace
from types import MappingProxyType

from grandstrategy.axis_allies.aarhe.combat import BATTLES
from grandstrategy.axis_allies.aarhe.combat.tables import with_variant_hits
from grandstrategy.axis_allies.game import AAGame, AARuleSet, Profile
from grandstrategy.axis_allies.game.profile import BattleMachine
from grandstrategy.axis_allies.module.world import MapModule


class CombatProfile(Profile):
    """Revised with the variant's battles: the one hook the variant's own profile also overrides.

    The Revised module has no heavy tank, heavy artillery, cruiser or dive bomber; the tests add
    them, with the module ids the variant's combat table names, as copies of the tank, artillery,
    destroyer and fighter."""

    name = "aarhe-combat-test"

    def __init__(self, module: MapModule) -> None:
        super().__init__(module)
        extra = {
            "heavy-armour": replace(self.stats["armour"], id="heavy-armour", cost=0),
            "heavy-artillery": replace(self.stats["artillery"], id="heavy-artillery", cost=0),
            "cruiser": replace(self.stats["destroyer"], id="cruiser", cost=0),
            "dive-bomber": replace(self.stats["fighter"], id="dive-bomber", cost=0, movement=4),
        }
        self.stats = with_variant_hits(MappingProxyType({**self.stats, **extra}))

    def battle_machine(self) -> BattleMachine | None:
        return BATTLES


RULES = AARuleSet(profile=CombatProfile)


def fresh() -> AAGame:
    return RULES.new_state({"max_rounds": 0})
