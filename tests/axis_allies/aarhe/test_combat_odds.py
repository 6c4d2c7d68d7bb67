"""Odds of the variant's battles: the exact solver over the machine's states agrees with seeded
battles fought through the same machine (within 4 standard errors), and the size guard holds."""

from __future__ import annotations

import pytest
from tests.axis_allies.aarhe.combat_helpers import fresh

from grandstrategy.axis_allies.aarhe.combat.odds import (
    TooBig,
    battle_odds,
    default_policy,
    exact_odds,
    simulate_odds,
)
from grandstrategy.axis_allies.game.engine import AAGame, key

TRIALS = 400


def arena(sea: bool, attacker: dict[str, int], defender: dict[str, int]) -> tuple[AAGame, str]:
    """A board with only the battle's units, the battle waiting: Germany attacks the Caucasus, or
    Britain attacks sea zone 6."""
    game = fresh()
    game.d["units"] = {}
    powers, where = (("british", "germans"), "sz-6") if sea else (("germans", "russians"), "caucasus")
    game.d["turn"] = game.order.index(powers[0])
    game.start_turn()
    game.d["phase"] = "combat"
    for side, force in ((powers[0], attacker), (powers[1], defender)):
        for unit, n in force.items():
            game.add(where, key(side, unit, 0), n)
    game.d["battles"] = [where]
    return game, where


BATTLES = [
    ("dogfight", False, {"fighter": 1, "infantry": 1}, {"fighter": 1, "infantry": 1}),
    ("opening fire with an ID", False, {"infantry": 2, "fighter": 1}, {"infantry": 2, "aagun": 1}),
    ("screening and submarine targets", True, {"submarine": 2}, {"destroyer": 1, "transport": 1}),
]


@pytest.mark.parametrize(("name", "sea", "attacker", "defender"), BATTLES, ids=[b[0] for b in BATTLES])
def test_exact_odds_agree_with_seeded_battles(
    name: str, sea: bool, attacker: dict[str, int], defender: dict[str, int]
) -> None:
    game, where = arena(sea, attacker, defender)
    exact = exact_odds(game, where)
    assert abs(exact.attacker + exact.defender + exact.draw - 1) < 1e-9
    simulated = simulate_odds(game, where, trials=TRIALS, seed=len(name))
    assert abs(simulated.attacker - exact.attacker) <= 4 * simulated.standard_error, (name, exact, simulated)


def test_submarines_against_a_lone_destroyer_and_transport_exactly() -> None:
    # Two submarines (no wolf pack: 2 is not more than 1 + 1) against a destroyer screening its
    # transport: the submarines can only be hurt by ASW, the transport's hits only strike
    # transports, so the defence wins only by sinking both submarines.
    game, where = arena(True, {"submarine": 2}, {"destroyer": 1, "transport": 1})
    odds = exact_odds(game, where)
    assert odds.draw == 0.0
    assert 0.9 < odds.attacker < 0.95


def test_size_guard_falls_back_to_a_seeded_monte_carlo() -> None:
    game, where = arena(False, {"infantry": 3, "armour": 2}, {"infantry": 3, "artillery": 1})
    with pytest.raises(TooBig):
        exact_odds(game, where, max_states=50)
    odds = battle_odds(game, where, max_states=50, trials=50, seed=3)
    assert odds.method == "monte-carlo" and odds.trials == 50
    assert odds == battle_odds(game, where, max_states=50, trials=50, seed=3)  # same seed, same odds


def test_default_policy_fights_on_aims_high_and_loses_cheap() -> None:
    game, _ = arena(False, {"infantry": 1}, {"infantry": 1})
    assert default_policy(game, ["press attack", "retreat to ukraine-ssr"]) == "press attack"
    assert default_policy(game, ["aim fighter at russians armour", "aim fighter at russians infantry"]) == (
        "aim fighter at russians armour"
    )
    assert default_policy(game, ["lose germans armour", "lose germans infantry"]) == "lose germans infantry"
    assert (
        default_policy(game, ["damage germans battleship", "lose germans destroyer"])
        == "damage germans battleship"
    )


def test_amphibious_first_cycle_odds_agree_with_seeded_battles() -> None:
    # An infantry and a tank landing from sea zone 16 under a battleship's bombardment.
    game, where = arena(False, {"infantry": 1, "armour": 1}, {"infantry": 2})
    game.d["amphibious"] = {where: {"infantry": 1, "armour": 1}}
    game.d["bombard"] = {where: ["sz-16"]}
    game.add("sz-16", key("germans", "battleship", 0), 1)
    exact = exact_odds(game, where)
    simulated = simulate_odds(game, where, trials=TRIALS, seed=5)
    assert abs(simulated.attacker - exact.attacker) <= 4 * simulated.standard_error, (exact, simulated)
