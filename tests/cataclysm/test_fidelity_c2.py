"""Rules fidelity of the crisis tables and of units sent to the action cup (crisis tables, LR 2.2.4,
5.6.2, 6.1.4).

Each test sets a situation up, forces the dice and the choices through the engine, and checks the
outcome the rules give.
"""

from __future__ import annotations

from tests.cataclysm.test_operations import MODULE, bare_game, choose, options, roll

from grandstrategy.cataclysm.engine import CataclysmGame
from grandstrategy.cataclysm.rules.control import controller


def _crisis(game: CataclysmGame, high: int, low: int) -> None:
    """A Crisis marker rolls ``high``-``low`` on the table (LR 3.7.4)."""
    game.push("crisis-roll", reroll=True)
    game.run()
    roll(game, high, low)


def _rerolled(game: CataclysmGame) -> bool:
    """Whether the crisis just read is rolled again: the next request is the crisis roll."""
    return (
        "roll again" in game.state.log[-1]
        and game.pending is not None
        and game.pending["type"] == "chance"
        and game.pending["label"] == "crisis"
    )


# ---- crisis 4-4 (L2963): any power's cube makes a country controlled (LR 2.2.5, L326-330) ------------


def test_failed_putsch_offers_countries_another_power_controls_crisis_4_4() -> None:
    """Crisis 4-4 L2963, LR 2.2.5 L328: in 1933 Germany holds no country, but French-held Poland and
    Czechoslovakia are controlled, ungarrisoned and in Germany's interest: no reroll, Germany picks."""
    game = bare_game("campaign-1933")
    state = game.state
    _crisis(game, 4, 4)
    assert game.pending is not None and game.pending["power"] == "germany"
    assert options(game) == ["czechoslovakia", "poland"]
    choose(game, "germany", "poland")
    assert "poland" not in state.cubes and controller(MODULE, state, "poland") is None
    assert state.cubes["czechoslovakia"] == {"france": 1}
    assert game.pending is None


def test_failed_putsch_without_a_controlled_country_is_rerolled_crisis_4_4() -> None:
    """Crisis 4-4 L2963 with LR 3.7.4 L807: no controlled ungarrisoned country in Germany's interest."""
    game = bare_game("campaign-1933")
    for area in ("poland", "czechoslovakia"):
        del game.state.cubes[area]
    _crisis(game, 4, 4)
    assert _rerolled(game)


def test_failed_putsch_keeps_to_the_least_resistance_whoever_holds_it_crisis_4_4() -> None:
    """Crisis 4-4 L2963: an Italian cube in Austria (no resistance) leaves Poland and Czechoslovakia
    (resistance 1) out; Austria is thrown out of Italy's hands."""
    game = bare_game("campaign-1933")
    state = game.state
    state.cubes["austria"] = {"italy": 1}
    _crisis(game, 4, 4)
    assert options(game) == ["austria"]
    choose(game, "germany", "austria")
    assert "austria" not in state.cubes and state.cubes["poland"] == {"france": 1}


def test_failed_putsch_counts_a_german_held_foreign_home_area_as_a_country_crisis_4_4() -> None:
    """Crisis 4-4 L2963, LR 2.2.3 L304: Germany's cube in ungarrisoned Lorraine makes it a country
    of no resistance, offered beside Austria; the cube goes and Lorraine is France's again, a change
    of control by crisis event (LR 2.2.4, docs/decisions.md); the German air force there retreats
    (the event's non-land units)."""
    game = bare_game("europe-1939")
    state = game.state
    for unit in [u for u in state.units if u.area == "lorraine"]:
        unit.area = "brittany"
    state.cubes["lorraine"] = {"germany": 1}
    air = next(u for u in state.units if u.power == "germany" and u.type == "tactical-air")
    air.area = "lorraine"
    flags = state.powers["france"].available_flags
    german_flags = state.powers["germany"].available_flags
    _crisis(game, 4, 4)
    assert options(game) == ["austria", "lorraine"]
    choose(game, "germany", "lorraine")
    assert "lorraine" not in state.cubes and controller(MODULE, state, "lorraine") == "france"
    choose(game, "germany", "Ruhr")
    assert air.area == "ruhr"
    # France gains Lorraine by crisis event: Germany, opposing and with interests there, is
    # provoked (LR 5.2.3); France gains its flag for the cube removed (LR 5.2.4)
    choose(game, "germany", "cup")
    choose(game, "france", "cup")
    assert state.powers["france"].available_flags == flags - 1
    assert state.powers["germany"].available_flags == german_flags - 1
    assert game.pending is None


def test_a_political_crisis_already_in_effect_is_rerolled_once_only_crisis_5_2() -> None:
    """Crisis 5-2 L2962 with LR 3.7.4 L807: "reroll if already in effect" is the crisis's one
    reroll; the same result on the reroll changes nothing and is not rolled a third time."""
    game = bare_game("campaign-1933")
    game.state.powers["germany"].effectiveness_reduced = True
    _crisis(game, 5, 2)
    assert _rerolled(game)
    roll(game, 5, 2)
    assert game.pending is None and game.state.powers["germany"].effectiveness_reduced


# ---- LR 5.6.2 design note (L1299), 6.1.4 (L1412), 2.2.4: units sent to the cup come back regular ---


def test_a_unit_that_goes_to_the_cup_goes_on_its_regular_side_lr_5_6_2() -> None:
    """LR 5.6.2 L1297-1299: at the armistice the German carrier fleet in the Baltic may no longer stay
    (LR 7.1.2); Germany puts it in the cup, where it is interned and comes back as a surface fleet.
    The upgrade marker went back to the force pool when it was played (LR 3.7.3): the pool is as it
    was and every invariant holds."""
    from tests.cataclysm.test_operations import setup

    game = setup("europe-1939", [("germany", "carrier-fleet", "baltic-sea")], [("france", "germany")])
    state = game.state
    pool = dict(state.powers["germany"].force_pool)
    game.push("armistice-settle", power="germany", accepted=["france"])
    game.run()
    choose(game, "germany", "to the cup")
    assert not state.units
    assert "unit:germany:surface-fleet" in state.cup and "unit:germany:carrier-fleet" not in state.cup
    assert state.powers["germany"].force_pool == pool
