"""Special power rules that hinge on control or interests (LR 12.1 Stresa Front, LR 12.2.2 US-Japan Trade).

Above :mod:`control` (they ask who controls an area, whose interests it is in); the marker-only
special rules, which control itself uses, stay in :mod:`special`.
"""

from __future__ import annotations

from grandstrategy.cataclysm.module import Module
from grandstrategy.cataclysm.rules.control import controller, interests
from grandstrategy.cataclysm.rules.special import STRESA_FRONT
from grandstrategy.cataclysm.state import CataclysmState


def tokyo_lost(module: Module, state: CataclysmState) -> bool:
    """Whether Japan no longer controls Tokyo, which ends US-Japan Trade (LR 12.2.2)."""
    return "japan" in state.powers and controller(module, state, "tokyo") != "japan"


def stresa_barred(module: Module, state: CataclysmState, power: str, area_id: str) -> bool:
    """Whether the Stresa Front forbids ``power`` an operation or diplomacy against the area: while
    the marker is in play, Germany and Italy may not act against an area in the other's interests
    (LR 12.1)."""
    if STRESA_FRONT not in state.markers or power not in ("germany", "italy"):
        return False
    other = "italy" if power == "germany" else "germany"
    return other in state.powers and state.powers[other].active and area_id in interests(module, state, other)
