"""Special power rules that change the general ones (LR 12). These rules name their powers and areas.

The rules here read only the markers and the map, so that control, occupation and supply may use
them; the special rules that ask who controls an area or whose interests it is in live one layer up,
in :mod:`special_control`."""

from __future__ import annotations

from grandstrategy.cataclysm.module import Module
from grandstrategy.cataclysm.module.schema import MapId
from grandstrategy.cataclysm.rules.recall import Recall, sharing_cubes
from grandstrategy.cataclysm.state import CataclysmState

TSR_IN_PLAY = "trans-siberian-railroad-in-play"
LEND_LEASE_IN_PLAY = "lend-lease-in-play"


STRESA_FRONT = "stresa-front"

STATUS_QUO = "status-quo"
STATUS_QUO_MOBILIZERS = ("germany", "italy", "soviet-union")
"""The powers whose escalation to mobilization ends Status Quo (LR 12.2); Japan's does not."""

US_JAPAN_TRADE = "us-japan-trade"


def status_quo_outscored(module: Module, state: CataclysmState) -> bool:
    """Whether Germany and Italy together have more victory points than France and the United
    Kingdom together, which ends Status Quo (LR 12.2).

    The same count as ``rules.control.victory_points`` (LR 1.7.1) in one pass over the cubes, as it
    is checked after every step; a power not in the game scores nothing.
    """
    answers = _STATUS_QUO.answers(module, state)
    found = answers.get("outscored")
    if found is None:
        found = answers["outscored"] = _outscored(module, state)
    return bool(found)


def _outscored(module: Module, state: CataclysmState) -> bool:
    sides = {"germany": 1, "italy": 1, "france": -1, "united-kingdom": -1}
    playing = {power: sign for power, sign in sides.items() if power in state.powers}
    balance = 0
    for area_id, held in state.cubes.items():
        area = module.areas.get(area_id)
        owner = area.owner if area is not None else None
        owner_sign = playing.get(owner, 0) if owner is not None else 0
        for holder, count in held.items():
            balance += playing.get(holder, 0) * count
            if owner_sign and holder != owner:
                balance -= owner_sign * count
    return balance > 0


_STATUS_QUO = Recall(lambda state: (state.cubes, list(state.powers)), copy=sharing_cubes(0))
"""The Status Quo test by the cubes and the powers in the game (a sum: the order does not matter)."""


def a_bomb_losses(state: CataclysmState, power: str) -> int:
    """Losses of the A-Bomb attack whose stability test is under way against ``power`` (LR 12.2.2);
    they raise its surrender threshold and give the Democracies its Surrender marker."""
    prefix = f"a-bomb-losses:{power}:"
    return sum(int(m.removeprefix(prefix)) for m in state.markers if m.startswith(prefix))


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
