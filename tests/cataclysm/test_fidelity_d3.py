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


# ---- LR 8.3 / 12.1.2 / 12.2.1: the Dreadnought Refit in build actions --------------------------


def test_a_build_action_may_use_the_dreadnought_refit_lr_8_3_12_2_1() -> None:
    """LR 8.3 (L1712-1718) builds with military actions; LR 12.2.1 (L2506) lets France give up its
    Dreadnought Refit marker whenever it constructs a fleet, for one build less. With one action
    left France may build a surface fleet that way (to the turn track, LR 8.3); without the
    marker the fleet needs two actions from the same offensive."""
    game = setup("europe-1939", [], [("france", "germany")])
    state = game.state
    pool = state.powers["france"].force_pool
    counter = game.module.unit_types["surface-fleet"].counter
    pool[counter] = max(pool.get(counter, 0), 1)
    before = pool[counter]
    offensive(game, "france", 1)
    assert "build surface-fleet" not in options(game)  # two builds: one action is not enough
    choose(game, "france", "build surface-fleet with the Dreadnought Refit")
    assert game.pending is None  # the one action is spent
    assert "dreadnought-refit-france" not in state.markers
    assert pool[counter] == before - 1
    assert "unit:france:surface-fleet" in state.turn_track[state.turn + 2]
    assert "unit:france:surface-fleet" not in state.cup


def test_the_refit_is_a_choice_and_two_actions_keep_the_marker_lr_12_2_1() -> None:
    """LR 12.2.1 (L2506) says France *may* use the marker: with two actions it may pay both and
    keep the marker for a later fleet (LR 8.3, L1718)."""
    game = setup("europe-1939", [], [("france", "germany")])
    state = game.state
    counter = game.module.unit_types["surface-fleet"].counter
    state.powers["france"].force_pool[counter] = 2
    offensive(game, "france", 2)
    assert {"build surface-fleet", "build surface-fleet with the Dreadnought Refit"} <= set(options(game))
    choose(game, "france", "build surface-fleet")
    assert game.pending is None
    assert "dreadnought-refit-france" in state.markers
