"""Rules fidelity, helper d2: strategic bombing ties, support for uncontrolled countries, occupation
limits of an operation's target, surprise attacks on ungarrisoned countries, zero dice (LR 2.8,
7.1.3, 9.2, 9.5.2, 9.7, 9.8, 10.2)."""

from __future__ import annotations

from fractions import Fraction
from itertools import product

from tests.cataclysm.test_operations import (
    choose,
    choose_starting,
    offensive,
    options,
    settle,
    setup,
)

from grandstrategy.cataclysm.chances import option_odds
from grandstrategy.cataclysm.engine import CataclysmGame
from grandstrategy.cataclysm.engine.invariants import problems
from grandstrategy.cataclysm.module.schema import Commitment
from grandstrategy.cataclysm.odds import parse_situation, situation_odds
from grandstrategy.cataclysm.rules.dice import combat_odds


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


def _activations(game: CataclysmGame) -> list[str]:
    return [o for o in options(game) if o.startswith("activate")]


def test_a_restricted_target_takes_one_attacking_army_lr_7_1_3() -> None:
    """LR 7.1.3 (L1568) with 9.2 step 6 (L1814): limits apply once the attackers have moved in, so
    only one of two German armies may attack restricted Byelorussia."""
    game = setup(
        "europe-1939",
        [
            ("germany", "infantry-army", "poland"),
            ("germany", "tank-army", "poland"),
            ("soviet-union", "infantry-army", "byelorussia"),
        ],
        [("germany", "soviet-union")],
    )
    offensive(game, "germany", 1)
    one_army = situation_odds(
        parse_situation(
            {
                "combat": "land",
                # the armies in neutral Poland trace no line of communication (LR 9.6)
                "attacker": {"units": ["tank-army"], "limited_supply": True},
                "defender": {
                    "units": ["infantry-army"],
                    "purges": game.state.powers["soviet-union"].posture == "political-purges",  # LR 12.3
                },
                "adverse_terrain": game.module.area("byelorussia").adverse,
            }
        )
    )
    # the bots' estimate activates as many armies as the target takes: one, the tank army first
    found = option_odds(game, "germany", "land operation against Byelorussia")
    assert found == float(one_army.attacker_wins)
    choose(game, "germany", "land operation against Byelorussia")
    assert len(_activations(game)) == 2
    choose_starting(game, "germany", "activate #2 tank-army")
    settle(game)  # the second army no longer fits, so the operation goes ahead at once
    areas = {u.id: u.area for u in game.state.units}
    assert areas[2] == "byelorussia" and areas[1] == "poland"


def test_a_restricted_mixed_target_takes_one_attacking_fleet_lr_7_1_3() -> None:
    """LR 7.1.3 (L1568) with 9.2 step 6 (L1814): in restricted, mixed Philippines a naval operation
    moves in one fleet, not two."""
    game = setup(
        "campaign-1933",
        [
            ("japan", "surface-fleet", "formosa"),
            ("japan", "surface-fleet", "formosa"),
            ("united-states", "surface-fleet", "philippines"),
        ],
        [("japan", "united-states")],
    )
    offensive(game, "japan", 1)
    choose(game, "japan", "naval operation against Philippines")
    assert len(_activations(game)) == 2
    choose_starting(game, "japan", "activate #1 surface-fleet")
    settle(game)
    areas = {u.id: u.area for u in game.state.units}
    assert areas[1] == "philippines" and areas[2] == "formosa"


def test_no_surprise_attack_on_an_ungarrisoned_country_lr_9_7_9_8() -> None:
    """LR 9.7 (L1919) and 9.8 (L1949): a Fascist power attacks an ungarrisoned country without any
    surprise attack, so the menu offers only the plain land operation against French Poland; once
    a French army garrisons it, the surprise attack (which starts a war with France) is offered."""
    game = setup("europe-1939", [("germany", "tank-army", "silesia")], [])
    game.state.powers["germany"].commitment = Commitment.MOBILIZATION
    offensive(game, "germany", 1)
    assert "land operation against Poland" in options(game)
    assert "surprise land operation against Poland" not in options(game)

    game = setup(
        "europe-1939",
        [("germany", "tank-army", "silesia"), ("france", "infantry-army", "poland")],
        [],
    )
    game.state.powers["germany"].commitment = Commitment.MOBILIZATION
    offensive(game, "germany", 1)
    assert "surprise land operation against Poland" in options(game)


def test_odds_command_rolls_zero_dice_as_one_die_at_minus_one_lr_2_8(cli) -> None:  # type: ignore[no-untyped-def]
    """LR 2.8 (L653): a side reduced to zero dice rolls one die at -1, for either side, and a
    described situation where armour takes the defender's only die agrees."""
    data = cli("cataclysm", "odds", "--attacker-dice", "0", "--defender-dice", "1", "--json").json()
    assert Fraction(data["exact"]["attacker_wins"]) == combat_odds(1, -1, 1, 0).attacker_wins
    assert data["rolled"] == {"attacker_dice": 1, "attacker_mod": -1, "defender_dice": 1, "defender_mod": 0}
    args = ("cataclysm", "odds", "--attacker-dice", "2", "--defender-dice", "0", "--defender-mod", "1")
    data = cli(*args, "--json").json()
    expected = combat_odds(2, 0, 1, 0)  # 0 dice +1 is one die at +1 -1
    assert Fraction(data["exact"]["attacker_wins"]) == expected.attacker_wins
    text = cli(*args)
    assert text.code == 0 and "the defender has no dice left: it rolls 1 die +0 (LR 2.8)" in text.out
    # a tank army against a country with no land unit: one die, lost to armour, becomes -1
    situation = situation_odds(
        parse_situation({"combat": "land", "attacker": {"units": ["tank-army"]}, "defender": {}})
    )
    (case,) = situation.cases
    assert (case.terms.defender_dice, case.terms.defender_modifier) == (1, -1)


def test_powers_at_war_with_the_attacker_may_support_an_uncontrolled_country_lr_10_2() -> None:
    """LR 10.2 (L1996): Germany attacks uncontrolled, ungarrisoned Benelux; the British and French
    air forces next door are at war with Germany, so each owner is offered its unit's support."""
    game = setup(
        "europe-1939",
        [
            ("germany", "tank-army", "ruhr"),
            ("united-kingdom", "tactical-air", "london"),
            ("france", "tactical-air", "paris"),
        ],
        [("germany", "united-kingdom"), ("germany", "france")],
    )
    offensive(game, "germany", 1)
    choose(game, "germany", "land operation against Benelux")
    choose_starting(game, "germany", "activate #1 tank-army")
    settle(game)
    assert game.pending is not None
    first = game.pending["power"]
    assert first in ("united-kingdom", "france")
    second = "france" if first == "united-kingdom" else "united-kingdom"
    mine = 2 if first == "united-kingdom" else 3
    assert options(game) == ["done", next(o for o in options(game) if o.startswith(f"support with #{mine} "))]
    choose_starting(game, first, f"support with #{mine} ")  # its own unit: no consent asked
    assert game.pending is not None and game.pending["power"] == second
    choose(game, second, "done")
    areas = {u.id: u.area for u in game.state.units}
    assert areas[mine] == "benelux" and areas[5 - mine] != "benelux"
    assert game.pending is not None and game.pending["type"] == "chance"  # the combat begins
    while game.pending is not None and game.pending["type"] == "chance":
        game.apply_chance("1" if game.pending["label"].startswith("germany") else "6")
    while game.pending is not None and game.pending["type"] == "decide":
        choose(game, game.pending["power"], options(game)[-1])
    assert "supports the defender" in " ".join(game.state.log)
    assert not problems(game)
    assert {u.id: u.area for u in game.state.units}[mine] != "benelux"  # it may not stay there


def test_a_surprise_attack_outside_the_victims_interests_still_provokes_it_lr_9_8() -> None:
    """LR 9.8 (L1951, L1961) with 5.2.3 (L1104): the victim of a surprise attack is provoked by it
    even where it has no interest (a US submarine pack in the North Pacific), and gains the
    additional flag: two flags, as the US does in the rules' Hawaii example."""
    game = setup(
        "campaign-1933",
        [
            ("japan", "surface-fleet", "tokyo"),
            ("united-states", "submarine-pack", "north-pacific"),
            ("germany", "infantry-army", "berlin"),
        ],
        [("united-states", "germany")],  # the US is belligerent, so its pack may be there
    )
    game.state.powers["japan"].commitment = Commitment.MOBILIZATION
    offensive(game, "japan", 1)
    choose(game, "japan", "surprise naval operation against North Pacific")
    choose_starting(game, "japan", "activate #1 surface-fleet")
    gained = 0
    while game.pending is not None and game.pending["type"] == "decide":
        assert "place the flag" in game.pending["prompt"]
        gained += game.pending["power"] == "united-states"
        choose(game, game.pending["power"], "cup")
    assert gained == 2


def test_attackers_moving_into_a_remote_area_meet_its_printed_limits_lr_2_2_8() -> None:
    """LR 2.2.8 and 7.1.1 (L1541) with 9.2 step 6 (L1814): only the controller's units may stay in a
    remote area, so attackers moving into the Soviet Urals meet its printed limit of two armies."""
    game = setup(
        "europe-1939",
        [
            ("germany", "infantry-army", "volga"),
            ("germany", "tank-army", "archangel"),
            ("soviet-union", "infantry-army", "urals"),
        ],
        [("germany", "soviet-union")],
    )
    offensive(game, "germany", 2)
    choose(game, "germany", "land operation against Urals")
    choose_starting(game, "germany", "activate #1 infantry-army")
    choose_starting(game, "germany", "activate #2 tank-army")
    settle(game)
    assert {u.id: u.area for u in game.state.units} == {1: "urals", 2: "urals", 3: "urals"}
