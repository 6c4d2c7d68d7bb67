"""Special power rules that change the general ones (LR 12). These rules name their powers and areas."""

from __future__ import annotations

from grandstrategy.cataclysm.module import Module
from grandstrategy.cataclysm.module.schema import MapId
from grandstrategy.cataclysm.state import CataclysmState

TSR_IN_PLAY = "trans-siberian-railroad-in-play"
LEND_LEASE_IN_PLAY = "lend-lease-in-play"


STRESA_FRONT = "stresa-front"


def a_bomb_losses(state: CataclysmState, power: str) -> int:
    """Losses of the A-Bomb attack whose stability test is under way against ``power`` (LR 12.2.2);
    they raise its surrender threshold and give the Democracies its Surrender marker."""
    prefix = f"a-bomb-losses:{power}:"
    return sum(int(m.removeprefix(prefix)) for m in state.markers if m.startswith(prefix))


def stresa_barred(module: Module, state: CataclysmState, power: str, area_id: str) -> bool:
    """Whether the Stresa Front forbids ``power`` an operation or diplomacy against the area: while
    the marker is in play, Germany and Italy may not act against an area in the other's interests
    (LR 12.1)."""
    if STRESA_FRONT not in state.markers or power not in ("germany", "italy"):
        return False
    from grandstrategy.cataclysm.rules.control import interests  # control imports this module

    other = "italy" if power == "germany" else "germany"
    return other in state.powers and state.powers[other].active and area_id in interests(module, state, other)


def denied_areas(state: CataclysmState, power: str) -> set[str]:
    """Areas whose resources the power may not use: the demilitarized Ruhr for Germany (LR 12.1.1)."""
    if power == "germany" and "rhineland" in state.markers:
        return {"ruhr"}
    return set()


def ignores_restricted(module: Module, state: CataclysmState, power: str, area_id: str) -> bool:
    """General Winter and the Trans-Siberian Railroad (LR 12.3.1).

    The Soviet Union ignores restricted terrain in its European home areas, and in its Pacific
    home areas once the railroad is in play.
    """
    area = module.area(area_id)
    if power != "soviet-union" or area.owner != power:
        return False
    return area.map is MapId.EUROPE or TSR_IN_PLAY in state.markers


def delay_box_ignored(state: CataclysmState, area_id: str) -> bool:
    """The railroad marker covers the Urals Delay box (LR 12.3.1)."""
    return area_id == "urals" and TSR_IN_PLAY in state.markers
