"""Rules fidelity, helper d3: occupation, movement and range (LR 7) and military actions (LR 8),
read as a rules lawyer would, through the engine."""

from __future__ import annotations

from tests.cataclysm.test_operations import choose, offensive, options, setup

from grandstrategy.cataclysm.engine import CataclysmGame
from grandstrategy.cataclysm.engine.collapse import _leave_alliances


def _units(game: CataclysmGame) -> dict[int, tuple[str, str, str | None]]:
    return {u.id: (u.power, u.area, u.coast) for u in game.state.units}


# ---- LR 6.1.4 / 7.1: the guest leaves, not the host ---------------------------------------------


def test_a_former_allys_army_leaves_and_the_hosts_army_stays_lr_6_1_4() -> None:
    """LR 6.1.4 (L1400-1412) and 7.1 (L1531): once an alliance is broken, the units in a former
    ally's area must leave; the controller's own army, listed first, stays in its own area."""
    game = setup(
        "europe-1939",
        [("france", "infantry-army", "lorraine"), ("united-kingdom", "infantry-army", "lorraine")],
        [("france", "germany"), ("united-kingdom", "germany")],
    )
    game.state.alliances["democracy"] = ["france", "united-kingdom"]
    _leave_alliances(game, "united-kingdom")
    game.run()
    assert game.pending is None
    assert _units(game) == {1: ("france", "lorraine", None)}
    assert "unit:united-kingdom:infantry-army" in game.state.cup
