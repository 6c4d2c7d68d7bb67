"""Tests that assert the outcome of the special power rules of section 12, through the engine."""

from __future__ import annotations

from tests.cataclysm.test_operations import bare_game, choose, offensive, options, setup

from grandstrategy.cataclysm.engine import CataclysmGame


def _construct(game: CataclysmGame, power: str, builds: int) -> None:
    game.push("construct", power=power, builds=builds, industrial=0)
    game.run()


def test_italy_builds_a_fleet_for_one_build_with_its_dreadnought_refit_lr_12_1_2() -> None:
    """LR 12.1.2 (L2457) and 4.6 (L1018): in production, Italy's Dreadnought Refit marker makes a
    surface fleet cost one build; the marker then leaves play, so the next fleet costs two."""
    game = bare_game()
    state = game.state
    state.powers["italy"].force_pool = {"fleet": 1}
    _construct(game, "italy", 1)
    assert "build surface-fleet with dreadnought refit" in options(game)
    choose(game, "italy", "build surface-fleet with dreadnought refit")
    assert "dreadnought-refit-italy" not in state.markers
    assert any("unit:italy:surface-fleet" in items for items in state.turn_track.values())
    state.powers["italy"].force_pool = {"fleet": 1}  # another fleet, for the comparison only
    _construct(game, "italy", 1)
    assert game.pending is None or "build surface-fleet" not in options(game)


def test_france_builds_a_fleet_for_one_build_with_its_dreadnought_refit_lr_12_2_1() -> None:
    """LR 12.2.1 (L2506): the same for France's own marker; Italy's marker stays where it is."""
    game = bare_game()
    state = game.state
    _construct(game, "france", 1)
    choose(game, "france", "build surface-fleet with dreadnought refit")
    assert "dreadnought-refit-france" not in state.markers
    assert "dreadnought-refit-italy" in state.markers
    assert any("unit:france:surface-fleet" in items for items in state.turn_track.values())


def test_without_a_refit_a_fleet_needs_two_builds_lr_12_1_2() -> None:
    """LR 4.6 and 12.1.2: a power without the marker (Germany) cannot build a fleet with one build."""
    game = bare_game()
    _construct(game, "germany", 1)
    assert game.pending is None or "build surface-fleet" not in options(game)


def test_the_refit_also_serves_a_build_military_action_lr_12_1_2() -> None:
    """LR 12.1.2 with 8.3: constructing a fleet by a build action also may use the refit, so a
    belligerent Italy builds a fleet with a single military action and the marker leaves play."""
    game = setup("europe-1939", [], [("italy", "france")])
    state = game.state
    state.powers["italy"].force_pool = {"fleet": 1}
    offensive(game, "italy", 1)
    assert "build surface-fleet with dreadnought refit" in options(game)
    choose(game, "italy", "build surface-fleet with dreadnought refit")
    assert "dreadnought-refit-italy" not in state.markers
    assert any("unit:italy:surface-fleet" in items for items in state.turn_track.values())
    assert game.pending is None


def test_the_abyssinian_adventure_is_for_a_non_belligerent_italy_only_lr_12_1_2() -> None:
    """LR 12.1.2 (L2449): Italy may try the Abyssinian Adventure only while non-belligerent."""
    from grandstrategy.cataclysm.engine.politics import political_options
    from grandstrategy.cataclysm.engine.war_start import make_war

    game = bare_game("campaign-1933")
    assert "abyssinian-adventure" in political_options(game, "italy")
    make_war(game, [("italy", "france")])
    game.stack.clear()
    assert "abyssinian-adventure" not in political_options(game, "italy")
