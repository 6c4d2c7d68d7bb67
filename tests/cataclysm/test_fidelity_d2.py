"""Rules fidelity, helper d2: strategic bombing ties, support for uncontrolled countries, occupation
limits of an operation's target, surprise attacks on ungarrisoned countries, zero dice (LR 2.8,
7.1.3, 9.2, 9.5.2, 9.7, 9.8, 10.2)."""

from __future__ import annotations

from fractions import Fraction
from itertools import product

from grandstrategy.cataclysm.engine import CataclysmGame
from grandstrategy.cataclysm.odds import parse_situation, situation_odds
from tests.cataclysm.test_operations import (
    choose,
    choose_starting,
    offensive,
    options,
    settle,
    setup,
)


def _finish_bombing(game: CataclysmGame) -> None:
    """Answer what follows a bombing's dice: back to London, damage the printed resource."""
    while game.pending is not None and game.pending["type"] == "decide":
        wanted = ("London", "damage the printed resource", "done")
        choose(
            game,
            game.pending["power"],
            next((o for o in options(game) if o in wanted), options(game)[0]),
        )


def _bombing_of_ruhr() -> CataclysmGame:
    """A British strategic air force in London bombs Ruhr, which holds no German air unit."""
    game = setup(
        "europe-1939",
        [("united-kingdom", "strategic-air", "london"), ("germany", "infantry-army", "ruhr")],
        [("united-kingdom", "germany")],
    )
    offensive(game, "united-kingdom", 1)
    choose(game, "united-kingdom", "strategic bombing of Ruhr")
    choose_starting(game, "united-kingdom", "activate #1 strategic-air")
    settle(game)
    assert game.pending is not None and game.pending["type"] == "chance"
    return game


def test_bombing_tie_against_intrinsic_defence_damages_the_resource_lr_9_5_2() -> None:
    """LR 9.5.2 (L1893-1895) with 10.7: a tie gives the defender one loss; with no air unit to take
    it, the loss cannot be resolved and Ruhr's resource is damaged."""
    game = _bombing_of_ruhr()
    for face in (3, 1, 3):  # the UK 3, Germany's intrinsic die 3: a tie
        game.apply_chance(str(face))
    _finish_bombing(game)
    assert "ruhr" in game.state.damaged
    types = {u.id: u.type for u in game.state.units}
    assert types[1] == "tactical-air"  # the attacker took its own loss of the tie


def test_bombing_damage_odds_match_the_engine_exactly_lr_9_5_2() -> None:
    """LR 9.5.2 (L1893-1895): over all 216 dice of a strategic air force against the intrinsic die,
    the engine damages the resource exactly as often as the odds tool says (wins and ties)."""
    start = _bombing_of_ruhr()
    damaged = 0
    for faces in product(range(1, 7), repeat=3):
        game = start.clone()
        for face in faces:
            game.apply_chance(str(face))
        _finish_bombing(game)
        damaged += "ruhr" in game.state.damaged
    odds = situation_odds(
        parse_situation(
            {
                "combat": "air",
                "strategic_bombing": True,
                "attacker": {"units": ["strategic-air"]},
                "defender": {},
            }
        )
    )
    assert Fraction(damaged, 216) == odds.resource_damaged == Fraction(161, 216)
