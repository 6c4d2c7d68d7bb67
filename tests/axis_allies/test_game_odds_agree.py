"""The exact odds calculator (axis_allies/odds.py) and the aa-revised game engine's combat checked
against each other: for varied battles, the calculator's attacker-win probability must match a
seeded simulation of the same battle fought through the engine, within 4 standard errors.

The simulated battles are fought with the calculator's assumptions: both sides take casualties
in its default order of loss (a battleship's first hit damages it before anything is lost), the
attacker always presses on and no submarine submerges."""

from __future__ import annotations

import math

import pytest
from tests.axis_allies.game_helpers import fresh

from grandstrategy.axis_allies.battle import DEFAULT_ORDER_LAND, DEFAULT_ORDER_SEA, Battle
from grandstrategy.axis_allies.game import AAGame
from grandstrategy.axis_allies.game.board import copy_json
from grandstrategy.axis_allies.game.engine import key
from grandstrategy.axis_allies.odds import battle_odds
from grandstrategy.core.ids import CHANCE
from grandstrategy.core.rng import Rng

TRIALS = 1500

#: Calculator unit keys -> the Revised module's unit types.
TYPES = {
    "inf": "infantry",
    "art": "artillery",
    "arm": "armour",
    "aa": "aagun",
    "ftr": "fighter",
    "bmr": "bomber",
    "trn": "transport",
    "sub": "submarine",
    "dd": "destroyer",
    "cv": "carrier",
    "bb": "battleship",
}

# (name, sea, attacker, defender, bombarding ships): land battles in ukraine-ssr (Germany attacks
# Russia; bombardment from sz-16 in an amphibious assault), sea battles in sz-6 (Britain attacks).
BATTLES: list[tuple[str, bool, dict[str, int], dict[str, int], dict[str, int]]] = [
    ("infantry and artillery", False, {"inf": 3, "art": 1, "arm": 1}, {"inf": 4}, {}),
    ("armour against a mixed defence", False, {"arm": 3, "inf": 1}, {"inf": 2, "art": 1, "arm": 1}, {}),
    ("aircraft against an AA gun", False, {"inf": 2, "arm": 2, "ftr": 1}, {"inf": 3, "aa": 1}, {}),
    (
        "bomber, fighters and AA",
        False,
        {"bmr": 1, "ftr": 2, "arm": 2},
        {"inf": 2, "arm": 1, "ftr": 1, "aa": 1},
        {},
    ),
    ("amphibious with bombardment", False, {"inf": 2, "arm": 1}, {"inf": 3}, {"bb": 1}),
    ("submarines against a destroyer", True, {"sub": 2}, {"dd": 1, "trn": 1}, {}),
    ("battleship and destroyer against submarines", True, {"bb": 1, "dd": 1}, {"sub": 2, "dd": 1}, {}),
    ("aircraft cannot hit submarines", True, {"ftr": 2, "sub": 1}, {"sub": 1, "trn": 1}, {}),
    ("battleship duel", True, {"bb": 1}, {"bb": 1}, {}),
    (
        "carrier group against submarines and a bomber",
        True,
        {"sub": 2, "dd": 1, "bmr": 1},
        {"cv": 1, "ftr": 2},
        {},
    ),
    ("submarines against a battle group", True, {"sub": 3}, {"bb": 1, "cv": 1, "ftr": 1}, {}),
]


def arrange(sea: bool, attacker: dict[str, int], defender: dict[str, int], bombard: dict[str, int]) -> AAGame:
    """A game at the start of the battle: the forces in place, the battle waiting to be fought."""
    game = fresh()
    powers, where, zone = (
        (("british", "germans"), "sz-6", "") if sea else (("germans", "russians"), "ukraine-ssr", "sz-16")
    )
    game.d["units"] = {}
    game.d["turn"] = game.order.index(powers[0])
    game.start_turn()
    game.d["phase"] = "combat"
    for side, force in ((powers[0], attacker), (powers[1], defender)):
        for unit, n in force.items():
            game.add(where, key(side, TYPES[unit], 0), n)
    for unit, n in bombard.items():
        game.add(zone, key(powers[0], TYPES[unit], 0), n)
    game.d["battles"] = [where]
    if bombard:
        game.d["bombard"] = {where: [zone]}
    return game


def decide(options: list[str], order: tuple[str, ...]) -> str:
    """The calculator's policy: fight on, never submerge, damage battleships first, then lose
    units in the default order of loss."""
    for option in ("press attack", "keep submarines in the battle"):
        if option in options:
            return option
    damage = [o for o in options if o.startswith("damage")]
    if damage:
        return damage[0]
    rank = {TYPES[k]: i for i, k in enumerate(order) if k in TYPES}
    return min(options, key=lambda o: rank.get(o.split()[-1], len(rank)))


def attacker_wins(start: AAGame, where: str, sea: bool, trials: int, seed: int) -> float:
    """The share of ``trials`` engine battles that the attacker wins (defenders all gone, some
    attacker left), the dice drawn from one seeded generator."""
    rng = Rng(seed)
    order = DEFAULT_ORDER_SEA if sea else DEFAULT_ORDER_LAND
    wins = 0
    for _ in range(trials):
        game = AAGame(start.profile, copy_json(start.d))
        # What becomes of defending aircraft at sea with no carrier left, once the battle is over,
        # is the game's business, not the battle's: the calculator leaves them standing.
        game.sink_homeless_aircraft = lambda zone: None  # type: ignore[method-assign]
        game.choose(f"fight {where}")
        while game.d["battle"] is not None:
            if game.to_act() == CHANCE:
                game.apply_chance(str(rng.below(6) + 1))
            else:
                game.choose(decide(game.options(), order))
        wins += bool(game.side_units(where, True)) and not game.side_units(where, False)
    return wins / trials


@pytest.mark.parametrize(
    ("name", "sea", "attacker", "defender", "bombard"), BATTLES, ids=[b[0] for b in BATTLES]
)
def test_exact_odds_agree_with_the_engine(
    name: str, sea: bool, attacker: dict[str, int], defender: dict[str, int], bombard: dict[str, int]
) -> None:
    exact = battle_odds(Battle.make("lhtr", attacker, defender, sea=sea, bombard=bombard), method="exact")
    where = "sz-6" if sea else "ukraine-ssr"
    simulated = attacker_wins(arrange(sea, attacker, defender, bombard), where, sea, TRIALS, seed=len(name))
    p = exact.attacker_win
    error = math.sqrt(max(p * (1 - p), 1e-4) / TRIALS)
    assert abs(simulated - p) <= 4 * error, (name, p, simulated)
