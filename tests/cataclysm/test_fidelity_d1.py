"""Rules fidelity through the engine: naval aftermath, disaster, extended regroup, special bases.

Each test sets up a situation, forces the dice and choices, and asserts what the Living Rules give
(LR 10.9.2, 10.12, 7.3.3, 9.4.2 with 2.3.3).
"""

from __future__ import annotations

from tests.cataclysm.test_operations import (
    MODULE,
    bare_game,
    choose,
    choose_starting,
    offensive,
    options,
    roll,
    settle,
    setup,
)

from grandstrategy.cataclysm.engine import CataclysmGame
from grandstrategy.cataclysm.rules.control import controller


def _units(game: CataclysmGame) -> dict[int, tuple[str, str]]:
    return {u.id: (u.type, u.area) for u in game.state.units}


def _stability_tests(game: CataclysmGame) -> list[str]:
    """The powers whose stability test is waiting, in order, answering flag placements on the way."""
    tested = []
    while game.pending is not None:
        settle(game)
        if game.pending is None:
            break
        if game.pending["type"] == "chance" and "stability test" in game.pending["label"]:
            if not game.pending["then"]["dice"]:  # the first die of a test
                tested.append(game.pending["label"].split()[0])
            roll(game, 6)  # a steady test (any face keeps the game going)
            continue
        if game.pending["type"] == "chance":
            roll(game, 6)
            continue
        choose(game, game.pending["power"], "done" if "done" in options(game) else options(game)[0])
    return tested


# ---- LR 10.9.2: the naval aftermath follows the naval units left, ties included -----------------


def test_a_naval_tie_that_leaves_only_the_attackers_fleet_lets_it_stay_lr_10_9_2() -> None:
    """LR 10.9.2 (L2143-2145): after a 4-4 tie each side loses a fleet; only Japan's fleet is left
    in the South China Sea, so the attacker stays and regroups instead of retreating."""
    game = setup(
        "campaign-1933",
        [
            ("japan", "surface-fleet", "formosa"),
            ("japan", "surface-fleet", "formosa"),
            ("united-kingdom", "surface-fleet", "south-china-sea"),
        ],
        [("japan", "united-kingdom")],
    )
    offensive(game, "japan", 1)
    choose(game, "japan", "naval operation against South China Sea")
    choose_starting(game, "japan", "activate #1 surface-fleet")
    choose_starting(game, "japan", "activate #2 surface-fleet")
    settle(game)
    roll(game, 4, 1)  # Japan: 4
    roll(game, 4, 2)  # the UK: 4, a tie: one loss each, the defender first
    assert 3 not in _units(game)
    choose(game, "japan", "#1 japan surface-fleet")
    # no retreat: Japan's side regroups, and the surviving fleet may simply stay
    assert game.pending is not None and game.pending["power"] == "japan"
    assert "regroup a unit, or done (LR 10.11)" in game.pending["prompt"]
    choose(game, "japan", "done")
    assert _units(game)[2] == ("surface-fleet", "south-china-sea")


def test_a_base_capture_tie_that_leaves_only_the_attackers_fleet_takes_the_base_lr_9_4_2() -> None:
    """LR 10.9.2 / 9.4.2 (L1869-1875): a tie sinks the US fleet at Hawaii and flips the Japanese
    carrier; Japan's fleet alone is left, so Japan is eligible to regroup and takes the base."""
    game = setup(
        "campaign-1933",
        [("japan", "carrier-fleet", "marshalls"), ("united-states", "surface-fleet", "hawaii")],
        [("japan", "united-states")],
    )
    offensive(game, "japan", 1)
    choose(game, "japan", "base capture at Hawaii")
    choose_starting(game, "japan", "activate #1 carrier-fleet")
    settle(game)
    roll(game, 4, 1)  # Japan: 4
    roll(game, 4)  # the US, one die (carrier superiority): 4, a tie
    assert _units(game) == {1: ("surface-fleet", "hawaii")}
    assert game.state.base_owners["hawaii#0"] == "japan"
    assert game.pending is not None and "regroup" in game.pending["prompt"]


def test_a_surviving_attacker_fleet_holds_the_sea_against_air_alone_lr_10_9_2() -> None:
    """LR 10.9.2 (L2143-2145): the British strategic air force wins the naval combat 3 to 2, but
    the Italian carrier only flips; the only naval unit left is the attacker's, so the defending
    air force retreats and Italy regroups (decision: the naval units left decide, not the winner)."""
    game = setup(
        "europe-1939",
        [("italy", "carrier-fleet", "sicily"), ("united-kingdom", "strategic-air", "central-mediterranean")],
        [("italy", "united-kingdom")],
    )
    offensive(game, "italy", 1)
    choose(game, "italy", "naval operation against Central Mediterranean")
    choose_starting(game, "italy", "activate #1 carrier-fleet")
    settle(game)
    roll(game, 2, 1)  # Italy: 2
    roll(game, 3)  # the UK: 3 -> one loss to Italy
    choose(game, "italy", "stand")
    assert _units(game)[1] == ("surface-fleet", "central-mediterranean")
    while game.pending is not None and game.pending["power"] == "united-kingdom":
        choose(game, "united-kingdom", options(game)[0])  # the British air force retreats
    assert _units(game)[2][1] != "central-mediterranean"
    assert game.pending is not None and game.pending["power"] == "italy"
    assert "regroup a unit, or done (LR 10.11)" in game.pending["prompt"]


# ---- LR 10.12: disaster for every losing power with a land or naval unit in the combat ------------


def test_a_naval_disaster_tests_the_power_of_a_lone_sub_pack_too_lr_10_12() -> None:
    """LR 10.12 (L2195-2199): Japan sinks the British fleet and the American sub pack in the South
    China Sea with losses to spare; both the UK and the US had a naval unit there and both test."""
    game = setup(
        "campaign-1933",
        [
            ("japan", "surface-fleet", "formosa"),
            ("united-kingdom", "surface-fleet", "south-china-sea"),
            ("united-states", "submarine-pack", "south-china-sea"),
        ],
        [("japan", "united-kingdom"), ("japan", "united-states")],
    )
    offensive(game, "japan", 1)
    choose(game, "japan", "naval operation against South China Sea")
    choose_starting(game, "japan", "activate #1 surface-fleet")
    if game.pending is not None and game.pending["prompt"].startswith("choose the primary defender"):
        choose(game, "japan", "united-kingdom")
    settle(game)
    roll(game, 6, 6)  # Japan: 7
    roll(game, 1, 1)  # the defenders: 1 -> seven losses, more than the two units can take
    while game.pending is not None and game.pending["prompt"].startswith("take a loss"):
        choose(game, "united-kingdom", options(game)[0])
    assert _units(game) == {1: ("surface-fleet", "south-china-sea")}
    assert sorted(_stability_tests(game)) == ["united-kingdom", "united-states"]


def test_a_land_disaster_tests_the_power_of_a_fleet_in_the_target_lr_10_12() -> None:
    """LR 10.12 (L2195-2199): German armies crush the French army in Paris, where a British fleet
    lies; the UK had a naval unit in the combat, so it tests its stability as France does."""
    game = setup(
        "europe-1939",
        [
            ("germany", "tank-army", "benelux"),
            ("france", "infantry-army", "paris"),
            ("united-kingdom", "surface-fleet", "paris"),
        ],
        [("germany", "france"), ("germany", "united-kingdom")],
    )
    game.state.cubes["benelux"] = {"germany": 1}
    game.state.alliances["democracy"] = ["france", "united-kingdom"]
    offensive(game, "germany", 1)
    choose(game, "germany", "land operation against Paris")
    choose_starting(game, "germany", "activate #1 tank-army")
    settle(game)
    roll(game, 6, 6)  # Germany: 7 (armor superiority takes a French die)
    roll(game, 1)  # France: 1 -> seven losses
    assert 2 not in _units(game)
    tested = _stability_tests(game)
    assert "france" in tested and "united-kingdom" in tested


# ---- LR 7.3.3: only units activated at extended range regroup within it ---------------------------


def test_only_units_activated_at_extended_range_regroup_within_it_lr_7_3_3() -> None:
    """LR 7.3.3 (L1660) / 10.11: the UK attacks the Ruhr with a strategic air force in range and a
    tactical air force at extended range; after the win only the tactical one regroups within
    extended range, so Spain (Gibraltar, three areas away) is no place for the strategic one."""
    game = setup(
        "europe-1939",
        [
            ("united-kingdom", "strategic-air", "london"),
            ("united-kingdom", "tactical-air", "london"),
            ("germany", "tactical-air", "ruhr"),
        ],
        [("united-kingdom", "germany")],
    )
    offensive(game, "united-kingdom", 1)
    choose(game, "united-kingdom", "air operation against Ruhr")
    choose(game, "united-kingdom", "activate #1 strategic-air in London")
    choose(game, "united-kingdom", "activate #2 tactical-air in London (extended range)")
    settle(game)
    roll(game, 6, 5)  # the UK: 6 - 1 (extended range) = 5
    roll(game, 1, 1)  # Germany: 1 -> five losses; its air force is destroyed
    assert 3 not in _units(game)
    choose(game, "united-kingdom", "regroup #1 strategic-air in Ruhr")
    assert options(game) == ["London", "Scotland"]  # range two: Spain is out of reach
    choose(game, "united-kingdom", "London")
    choose(game, "united-kingdom", "regroup #2 tactical-air in Ruhr")
    assert options(game) == ["London", "Scotland"]  # range one, extended to two


# ---- LR 9.4.2 / 2.3.3: special British bases can be captured and go when control changes ----------


def test_an_enemy_base_capture_removes_gibraltar_from_the_game_lr_9_4_2() -> None:
    """LR 9.4.2 (L1869-1875) with 2.3.3 (L444): Italy, at war with the UK, may make a base capture
    against Gibraltar in Spain; winning it removes the special base from the game."""
    game = setup(
        "europe-1939",
        [("italy", "surface-fleet", "rome"), ("united-kingdom", "surface-fleet", "spain")],
        [("italy", "united-kingdom")],
    )
    offensive(game, "italy", 1)
    assert "base capture at Spain" in options(game)
    choose(game, "italy", "base capture at Spain")
    choose_starting(game, "italy", "activate #1 surface-fleet")
    settle(game)
    roll(game, 6, 5)  # Italy: 6
    roll(game, 2, 1)  # the UK: 2 -> three losses: the British fleet is sunk
    assert 2 not in _units(game)
    assert "spain" not in game.state.special_bases
    assert controller(MODULE, game.state, "spain") is None  # a special base never gave control


def test_gaining_control_of_spain_removes_gibraltar_even_for_the_uk_lr_2_3_3() -> None:
    """LR 2.3.3 (L444-447): the UK's own diplomacy wins Spain; the special British base is removed
    all the same, and it does not come back when Spain is uncontrolled again."""
    game = bare_game("europe-1939")
    state = game.state
    state.cup.remove("flag:united-kingdom")
    game.push("play-counter", counter="flag:united-kingdom", source="cup")
    game.run()
    choose(game, "united-kingdom", "diplomacy spain")
    roll(game, *[6] * _dice_left(game))
    settle(game)
    assert controller(MODULE, state, "spain") == "united-kingdom"
    assert "spain" not in state.special_bases
    del state.cubes["spain"]  # Spain uncontrolled again: no base to stand on
    assert "base capture at Spain" not in _base_capture_menu(game, "italy")


def _base_capture_menu(game: CataclysmGame, power: str) -> list[str]:
    from grandstrategy.cataclysm.engine.operations import operation_options

    return operation_options(game, power, 1, deployed=[])


def _dice_left(game: CataclysmGame) -> int:
    """How many dice the pending effectiveness check rolls."""
    assert game.pending is not None and game.pending["type"] == "chance", game.pending
    return int(game.pending["then"]["left"])


# ---- LR 2.2.4 / 2.3.3: a unit displaced in a combat's aftermath retreats, never to the cup -------


def test_a_fleet_that_loses_its_port_in_a_conquest_must_retreat_lr_2_2_4() -> None:
    """LR 2.2.4 (L320-322) with 10.9.1: Germany conquers Brittany; the French fleet in the Western
    Approaches, held there by Brittany's port, may no longer stay. The loss comes in the aftermath
    of a combat, so it must retreat: the action cup is not offered."""
    game = setup(
        "europe-1939",
        [
            ("germany", "tank-army", "paris"),
            ("france", "infantry-army", "brittany"),
            ("france", "surface-fleet", "western-approaches"),
        ],
        [("germany", "france")],
    )
    game.state.cubes["paris"] = {"germany": 2}
    offensive(game, "germany", 1)
    choose(game, "germany", "land operation against Brittany")
    choose_starting(game, "germany", "activate #1 tank-army")
    settle(game)
    roll(game, 6, 5)  # Germany: 6
    roll(game, 1)  # France: 1 -> six losses; the French army is destroyed
    while game.pending is not None and "may not stay" not in game.pending.get("prompt", ""):
        if game.pending["type"] == "chance":
            roll(game, 6)  # stability tests
        else:
            choose(game, game.pending["power"], "done" if "done" in options(game) else options(game)[0])
    assert controller(MODULE, game.state, "brittany") == "germany"
    assert game.pending["power"] == "france" and "Western Approaches" in game.pending["prompt"]
    assert "to the cup" not in options(game)


# ---- LR 2.2.1: a fleet entering a two-coast area stands on the coast it reached ------------------


def test_a_fleet_reaching_spain_from_the_mediterranean_stands_on_its_south_coast_lr_2_2_1() -> None:
    """LR 2.2.1 (L280) with 10.10.2: the Italian fleet attacks Gibraltar from Rome by the Western
    Mediterranean, so it stands on Spain's south coast; once the base is gone it may not stay in
    neutral Spain and goes back to an Italian port by sea, rather than being stranded on the north
    coast with nowhere to go."""
    game = setup(
        "europe-1939",
        [("italy", "surface-fleet", "rome"), ("united-kingdom", "surface-fleet", "spain")],
        [("italy", "united-kingdom")],
    )
    offensive(game, "italy", 1)
    choose(game, "italy", "base capture at Spain")
    choose_starting(game, "italy", "activate #1 surface-fleet")
    settle(game)
    assert game.state.units[0].coast == "south"
    roll(game, 6, 5)  # Italy: 6
    roll(game, 2, 1)  # the UK: 2 -> three losses
    while game.pending is not None and "may not stay" not in game.pending.get("prompt", ""):
        if game.pending["type"] == "chance":
            roll(game, 6)
        else:
            choose(game, game.pending["power"], "done" if "done" in options(game) else options(game)[0])
    assert game.pending is not None and game.pending["power"] == "italy"
    assert options(game) == ["Lombardy", "Rome", "Sicily"]
    choose(game, "italy", "Rome")
    assert _units(game)[1] == ("surface-fleet", "rome")


# ---- LR 9.5.2 with 10.7: a tie's loss that intrinsic air defence cannot take damages a resource ----


def test_a_strategic_bombing_tie_against_intrinsic_defence_damages_the_resource_lr_9_5_2() -> None:
    """LR 9.5.2 (L1893-1895) with 10.7 (L2095): 4 against the Ruhr's one intrinsic die of 4 is a
    tie, one loss each; the British bomber flips, and the German loss cannot be taken by any air
    unit, so the resource is damaged. The attacker still retreats on the tie (LR 10.9.3)."""
    game = setup(
        "europe-1939",
        [("united-kingdom", "strategic-air", "london"), ("germany", "infantry-army", "ruhr")],
        [("united-kingdom", "germany")],
    )
    offensive(game, "united-kingdom", 1)
    choose(game, "united-kingdom", "strategic bombing of Ruhr")
    choose_starting(game, "united-kingdom", "activate #1 strategic-air")
    settle(game)
    roll(game, 4, 2)  # the UK: 4
    roll(game, 4)  # Germany's intrinsic die: 4, a tie
    assert _units(game)[1][0] == "tactical-air"  # the bomber took its loss
    while game.pending is not None and game.pending["type"] == "decide":
        choose(game, game.pending["power"], options(game)[0])
    assert "ruhr" in game.state.damaged
    assert _units(game)[1][1] != "ruhr"
