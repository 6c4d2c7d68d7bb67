"""Rules fidelity through the engine: Gibraltar's coast, the coast of a new fleet, combat modifiers.

Each test sets up a situation, forces the dice and choices, and asserts what the Living Rules give
(LR 2.2.1 with 2.3.3, 3.7.2, 10.3-10.6).
"""

from __future__ import annotations

from tests.cataclysm.test_operations import (
    choose,
    choose_starting,
    options,
    setup,
)

from grandstrategy.cataclysm.engine import CataclysmGame
from grandstrategy.cataclysm.rules.movement import step_moves


def _units(game: CataclysmGame) -> dict[int, tuple[str, str, str | None]]:
    return {u.id: (u.type, u.area, u.coast) for u in game.state.units}


def _deploy(game: CataclysmGame, power: str) -> None:
    game.push("deploy", power=power, units=None, moved=[], offensive=False)
    game.run()


def _gibraltar(extra: list[tuple[str, str, str]] | None = None) -> CataclysmGame:
    """The UK at war with Germany, a British fleet at Gibraltar (Spain's south coast) and London in
    German hands, so Gibraltar is the UK's only port next to the Western Approaches."""
    game = setup("europe-1939", [("united-kingdom", "surface-fleet", "spain"), *(extra or [])], [])
    game.state.units[0].coast = "south"
    from grandstrategy.cataclysm.engine.war_start import make_war

    make_war(game, [("germany", "united-kingdom")])
    game.stack.clear()
    game.state.cubes["london"] = {"germany": 2}
    return game


# ---- LR 2.2.1 with 2.3.3: Gibraltar stands on Spain's south coast ----------------------------------


def test_gibraltar_gives_no_allowance_in_the_western_approaches_lr_2_3_3() -> None:
    """LR 7.1.2 (naval base allowance) with 2.2.1 (L280) and 2.3.3 (L438-441): Gibraltar is on
    Spain's south coast, so its allowance covers the Mid-Atlantic and the Western Mediterranean but
    not the Western Approaches, which touches only the north coast. With London lost the British
    fleet may not end a deployment in the Western Approaches."""
    game = _gibraltar()
    _deploy(game, "united-kingdom")
    choose_starting(game, "united-kingdom", "move #1 surface-fleet")
    assert "Mid-Atlantic Ocean" in options(game) and "Western Mediterranean" in options(game)
    assert "Western Approaches" not in options(game)


def test_a_fleet_coming_to_gibraltar_from_the_atlantic_stands_on_the_south_coast_lr_2_2_1() -> None:
    """LR 2.2.1 (L280) with 2.3.3 (L438-441): a British fleet in the North Atlantic deploys to
    Spain, where it may stand only at Gibraltar; it ends on the south coast, never the north
    coast it would reach first through the Western Approaches."""
    game = _gibraltar([("united-kingdom", "surface-fleet", "north-atlantic-ocean")])
    game.state.units = game.state.units[1:]
    _deploy(game, "united-kingdom")
    choose_starting(game, "united-kingdom", "move #2 surface-fleet")
    choose(game, "united-kingdom", "Spain")
    assert _units(game)[2] == ("surface-fleet", "spain", "south")


def test_gibraltar_is_entered_from_the_western_approaches_only_around_the_coast_lr_2_2_1() -> None:
    """LR 2.2.1 (L280): naval movement may not pass between Spain's two coasts; a British fleet in
    the Western Approaches reaches Gibraltar in one move only through another sea, so a move of one
    area into Spain (the north coast) is not Gibraltar. In a deployment it goes round by the
    Mid-Atlantic and stands on the south coast."""
    game = _gibraltar([("united-kingdom", "surface-fleet", "western-approaches")])
    game.state.cubes.pop("london")
    game.state.units = game.state.units[1:]
    fleet = game.state.units[0]
    assert "spain" not in step_moves(game.module, game.state, fleet, "naval")
    assert "mid-atlantic-ocean" in step_moves(game.module, game.state, fleet, "naval")
    _deploy(game, "united-kingdom")
    choose_starting(game, "united-kingdom", "move #2 surface-fleet")
    choose(game, "united-kingdom", "Spain")
    assert _units(game)[2] == ("surface-fleet", "spain", "south")


# ---- LR 3.7.2 with 2.2.1: the owner chooses the coast of a new fleet -------------------------------


def test_a_new_fleet_in_lombardy_goes_on_the_coast_its_owner_chooses_lr_2_2_1() -> None:
    """LR 3.7.2 (L783) with 2.2.1 (L280): Italy places a new surface fleet in Lombardy, which has an
    Adriatic and a Tyrrhenian coast; Italy chooses the coast (here the east, Adriatic one), and the
    fleet's own deployment then leaves only from that coast."""
    game = setup("europe-1939", [], [])
    game.push("place-unit", power="italy", unit_type="surface-fleet", choice="lombardy")
    game.run()
    assert game.pending is not None and "coast of Lombardy" in game.pending["prompt"]
    assert options(game) == ["east", "west"]
    choose(game, "italy", "east")
    assert _units(game)[1] == ("surface-fleet", "lombardy", "east")
    assert any(o.startswith("move #1 surface-fleet") for o in options(game))  # its deployment
    fleet = game.state.units[0]
    assert step_moves(game.module, game.state, fleet, "naval") == {"adriatic-sea"}


def test_a_new_fleet_in_a_one_coast_area_is_placed_without_a_question_lr_3_7_2() -> None:
    """LR 3.7.2 (L783): a fleet placed in Rome (one coast) needs no coast: the deployment of the new
    unit is offered at once, as before."""
    game = setup("europe-1939", [], [])
    game.push("place-unit", power="italy", unit_type="surface-fleet", choice="rome")
    game.run()
    assert _units(game)[1] == ("surface-fleet", "rome", None)
    assert any(o.startswith("move #1 surface-fleet") for o in options(game))
