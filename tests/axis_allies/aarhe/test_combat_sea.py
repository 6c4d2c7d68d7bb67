"""The variant's naval cycle through the engine, with forced dice (S3:L224-230, L244)."""

from __future__ import annotations

from tests.axis_allies.aarhe.combat_helpers import fresh
from tests.axis_allies.game_helpers import at, choose, options, put, roll

from grandstrategy.axis_allies.game.engine import AAGame, key


def sea_attack(attackers: list[tuple[str, str, int]], defenders: list[tuple[str, str, int]]) -> AAGame:
    """Germany attacks sea zone 6 from sea zone 5 with ``attackers``."""
    game = fresh()
    at(game, "germans", "combat-move")
    put(game, "sz-5", *attackers)
    put(game, "sz-6", *defenders)
    put(game, "sz-7")
    put(game, "sz-3")
    for _, unit, n in attackers:
        choose(game, "germans", f"move {n} {unit} sz-5 -> sz-6")
    choose(game, "germans", "done")
    choose(game, "germans", "fight sz-6")
    return game


def test_screening_destroyer_takes_the_submarine_hit_for_its_ship() -> None:
    # S3:L228: a destroyer screening a ship takes the submarine hits aimed at it first.
    game = sea_attack(
        [("germans", "submarine", 1)], [("british", "battleship", 1), ("british", "destroyer", 1)]
    )
    assert game.to_act() == "british"
    assert options(game) == ["screen british battleship with destroyer", "no screen"]
    choose(game, "british", "screen british battleship with destroyer")
    assert options(game) == ["aim submarine at british battleship", "aim submarine at british destroyer"]
    choose(game, "germans", "aim submarine at british battleship")
    labels = roll(game, 1, 6)
    assert labels == [
        "sz-6: germans submarine fires at a british battleship, hits on 2 or less",
        "sz-6: defence hunter seeks a germans submarine, detects on 3 or less",
    ]
    assert game.units("sz-6") == {key("british", "battleship", 2): 1, key("germans", "submarine", 0): 1}
    # The battleship fires in the opening fire; its hit finds no surface ship (the submarine is
    # not a target of surface fire, S3:L224).
    assert roll(game, 1) == ["sz-6: defence battleship hits on 4 or less"]
    assert game.units("sz-6")[key("germans", "submarine", 0)] == 1
    assert options(game) == ["keep submarines in the battle", "submerge submarines"]


def test_wolf_pack_adds_one_when_submarines_outnumber_escorts_by_more_than_one() -> None:
    # S3:L228: 3 submarines against 1 destroyer: +1.
    game = sea_attack(
        [("germans", "submarine", 3)], [("british", "destroyer", 1), ("british", "transport", 1)]
    )
    choose(game, "british", "no screen")
    for _ in range(3):
        choose(game, "germans", "aim submarine at british transport")
    assert (
        game.chance_node().label == "sz-6: germans submarine fires at a british transport, hits on 3 or less"
    )


def test_no_wolf_pack_when_the_margin_is_one() -> None:
    game = sea_attack(
        [("germans", "submarine", 2)], [("british", "destroyer", 1), ("british", "transport", 1)]
    )
    choose(game, "british", "no screen")
    for _ in range(2):
        choose(game, "germans", "aim submarine at british transport")
    assert (
        game.chance_node().label == "sz-6: germans submarine fires at a british transport, hits on 2 or less"
    )


def test_asw_search_on_3_then_attack_on_2_sinks_the_submarine() -> None:
    # S3:L228: each destroyer searches each enemy submarine (3 or less), then attacks a detected
    # one (2 or less); casualties at the end of the opening fire.
    game = fresh()
    at(game, "british", "combat-move")
    put(game, "sz-6", ("british", "destroyer", 1))
    put(game, "sz-5", ("germans", "submarine", 1))
    choose(game, "british", "move 1 destroyer sz-6 -> sz-5")
    choose(game, "british", "done")
    choose(game, "british", "fight sz-5")
    labels = roll(game, 6, 3, 2)
    assert labels == [
        "sz-5: defence submarine fires at a british destroyer, hits on 2 or less",
        "sz-5: british hunter seeks a germans submarine, detects on 3 or less",
        "sz-5: british destroyer attacks a germans submarine, hits on 2 or less",
    ]
    assert game.d["battle"] is None
    assert game.units("sz-5") == {key("british", "destroyer", 0): 1}


def test_undetected_submarine_cannot_be_attacked() -> None:
    game = fresh()
    at(game, "british", "combat-move")
    put(game, "sz-6", ("british", "destroyer", 1))
    put(game, "sz-5", ("germans", "submarine", 1))
    choose(game, "british", "move 1 destroyer sz-6 -> sz-5")
    choose(game, "british", "done")
    choose(game, "british", "fight sz-5")
    roll(game, 6, 4)  # the submarine misses; the search fails: no attack die
    assert game.chance_node().label == "sz-5: british destroyer hits on 2 or less"  # main round


def test_ship_anti_air_then_fighter_hits_its_chosen_ship_and_battleship_takes_two() -> None:
    # S3:L228: a battleship rolls 3 anti-air dice (1 hits); S3:L220 the lone fighter picks its
    # ship; S3:L244 a battleship takes 2 hits; S3:L226 aircraft other than fighters, and fighters
    # beyond carrier room, leave at the end of the cycle.
    game = fresh()
    at(game, "germans", "combat-move")
    put(game, "western-europe", ("germans", "fighter", 1), ("germans", "bomber", 1))
    put(game, "sz-6", ("british", "battleship", 1))
    choose(game, "germans", "move 1 fighter western-europe -> sz-6")
    choose(game, "germans", "move 1 bomber western-europe -> sz-6")
    choose(game, "germans", "done")
    choose(game, "germans", "fight sz-6")
    labels = roll(game, 1, 6, 6, 3, 6)
    assert labels == [
        *["sz-6: defence battleship anti-air fire, hits on 1 or less"] * 3,
        "sz-6: germans fighter attacks a british battleship, hits on 3 or less",
        "sz-6: defence battleship hits on 4 or less",
    ]
    assert options(game) == ["lose germans bomber", "lose germans fighter"]
    choose(game, "germans", "lose germans bomber")
    assert game.d["battle"] is None  # the fighter had no carrier: it left the battle
    # ... and waits above the zone to land in non-combat move, as after a base break-off.
    assert game.units("sz-6") == {key("british", "battleship", 2, 1): 1, key("germans", "fighter", 3): 1}


def test_carrier_defends_one_higher_per_plane() -> None:
    # S3:L244: a carrier is 1/1 alone, +1 defence for each plane it carries.
    game = sea_attack([("germans", "destroyer", 1)], [("british", "carrier", 1), ("british", "fighter", 1)])
    choose(game, "germans", "no screen") if game.to_act() == "germans" else None
    labels = roll(game, 6, 6, 6, 6, 6)
    assert "sz-6: defence carrier hits on 2 or less" in labels


def test_break_off_table() -> None:
    # S3:L226: attacker presses on, defender breaks off: the attacker may still break off, and
    # then both fleets stay in the zone.
    game = sea_attack([("germans", "destroyer", 1)], [("british", "destroyer", 1)])
    roll(game, 6, 6)
    assert options(game)[:2] == ["press on", "break off"] and "retreat to sz-5" in options(game)
    choose(game, "germans", "press on")
    assert options(game)[:2] == ["remain", "break off"]
    choose(game, "british", "break off")
    assert options(game) == ["chase", "break off"]
    choose(game, "germans", "break off")
    assert game.d["battle"] is None
    assert game.units("sz-6") == {key("germans", "destroyer", 0): 1, key("british", "destroyer", 2): 1}


def test_attacker_break_off_against_a_remaining_defence_fights_on() -> None:
    game = sea_attack([("germans", "destroyer", 1)], [("british", "destroyer", 1)])
    roll(game, 6, 6)
    choose(game, "germans", "break off")
    choose(game, "british", "remain")
    assert game.chance_node().label.startswith("sz-6: germans destroyer hits on 2")


def test_destroyer_hits_go_on_destroyers_first_battleship_hits_on_capital_ships_first() -> None:
    # S3:L224: DD/CA hits strike DD/CA, then BB/CV, then AP; BB/CV hits strike BB/CV first.
    game = sea_attack(
        [("germans", "destroyer", 1), ("germans", "battleship", 1)],
        [("british", "destroyer", 1), ("british", "battleship", 1), ("british", "transport", 1)],
    )
    choose(game, "germans", "no screen")
    choose(game, "british", "no screen")
    labels = roll(game, 6, 6, 1, 6, 6)
    # opening fire: the battleships; main round: the destroyers and the defending transport
    assert labels[:2] == [
        "sz-6: germans battleship hits on 4 or less",
        "sz-6: defence battleship hits on 4 or less",
    ]
    assert labels[2:] == [
        "sz-6: germans destroyer hits on 2 or less",
        "sz-6: defence destroyer hits on 2 or less",
        "sz-6: defence transport hits on 1 or less",
    ]
    assert key("british", "destroyer", 2) not in game.units("sz-6")  # the escort took the hit
    assert game.units("sz-6")[key("british", "battleship", 2)] == 1


def test_carrier_takes_two_hits() -> None:
    # S3:L244: "CV now takes 2 hits".
    game = sea_attack(
        [("germans", "battleship", 1)], [("british", "carrier", 1), ("british", "transport", 1)]
    )
    roll(game, 1)
    assert game.units("sz-6")[key("british", "carrier", 2, 1)] == 1


def test_submarines_may_submerge_at_the_end_of_a_cycle() -> None:
    # S3:L228: whether or not the enemy has destroyers.
    game = sea_attack([("germans", "submarine", 1)], [("british", "destroyer", 1)])
    roll(game, 6, 6, 6)  # the submarine misses, the search fails, the destroyer misses
    choose(game, "germans", "submerge submarines")
    assert game.d["battle"] is None
    assert game.units("sz-6") == {key("germans", "submarine", 0): 1, key("british", "destroyer", 2): 1}


def test_advanced_asw_adds_one_to_ships_and_lets_aircraft_hunt_without_it() -> None:
    # S3:L238: Advanced ASW: +1 to ASW search and attack; aircraft perform ASW without the +1.
    game = fresh()
    at(game, "british", "combat-move")
    game.d["techs"]["british"] = ["advanced-asw"]
    put(game, "sz-6", ("british", "destroyer", 1))
    put(game, "united-kingdom", ("british", "fighter", 1))
    put(game, "sz-5", ("germans", "submarine", 1))
    choose(game, "british", "move 1 destroyer sz-6 -> sz-5")
    choose(game, "british", "move 1 fighter united-kingdom -> sz-5")
    choose(game, "british", "done")
    choose(game, "british", "fight sz-5")
    labels = roll(game, 6, 6, 3)
    assert labels == [
        "sz-5: defence submarine fires at a british destroyer, hits on 2 or less",
        "sz-5: british hunter seeks a germans submarine, detects on 4 or less",
        "sz-5: british hunter seeks a germans submarine, detects on 3 or less",
    ]
    # One submarine type detected: nothing to choose, each hunter attacks it.
    assert roll(game, 3, 6) == [
        "sz-5: british destroyer attacks a germans submarine, hits on 3 or less",
        "sz-5: british fighter attacks a germans submarine, hits on 2 or less",
    ]
    assert key("germans", "submarine", 0) not in game.units("sz-5")


def test_advanced_submarines_fire_one_higher_and_are_harder_to_find() -> None:
    # S3:L238: Advanced Submarine: +1 attack and defence; ASW search against them -1.
    game = fresh()
    at(game, "germans", "combat-move")
    game.d["techs"]["germans"] = ["advanced-submarine"]
    put(game, "sz-5", ("germans", "submarine", 1))
    put(game, "sz-6", ("british", "destroyer", 1))
    choose(game, "germans", "move 1 submarine sz-5 -> sz-6")
    choose(game, "germans", "done")
    choose(game, "germans", "fight sz-6")
    assert roll(game, 6, 6) == [
        "sz-6: germans submarine fires at a british destroyer, hits on 3 or less",
        "sz-6: defence hunter seeks a germans submarine, detects on 2 or less",
    ]


def test_cruiser_rolls_four_anti_air_dice_and_screens() -> None:
    # S3:L248: the cruiser's anti-air is 4; like a destroyer it screens (S3:L228).
    game = fresh()
    at(game, "germans", "combat-move")
    put(game, "western-europe", ("germans", "fighter", 1))
    put(game, "sz-6", ("british", "cruiser", 1), ("british", "transport", 1))
    choose(game, "germans", "move 1 fighter western-europe -> sz-6")
    choose(game, "germans", "done")
    choose(game, "germans", "fight sz-6")
    assert options(game) == ["screen british transport with cruiser", "no screen"]
    choose(game, "british", "screen british transport with cruiser")
    assert roll(game, 6, 6, 6, 6) == ["sz-6: defence cruiser anti-air fire, hits on 1 or less"] * 4
    choose(game, "germans", "aim fighter at british transport")
    assert roll(game, 3) == ["sz-6: germans fighter attacks a british transport, hits on 3 or less"]
    assert key("british", "cruiser", 3) not in game.units("sz-6")  # the screen took the hit
    assert game.units("sz-6")[key("british", "transport", 2)] == 1


def test_with_naval_fighters_only_they_stay_at_sea() -> None:
    # S3:L226: with the optional naval fighter, every other aircraft leaves after a naval cycle.
    from dataclasses import replace
    from types import MappingProxyType

    from tests.axis_allies.aarhe.combat_helpers import CombatProfile

    from grandstrategy.axis_allies.game import AARuleSet

    class NavalProfile(CombatProfile):
        def __init__(self, module):  # type: ignore[no-untyped-def]
            super().__init__(module)
            naval = replace(self.stats["fighter"], id="naval-fighter")
            self.stats = MappingProxyType({**self.stats, "naval-fighter": naval})

    game = AARuleSet(profile=NavalProfile).new_state({"max_rounds": 0})
    at(game, "germans", "combat-move")
    put(game, "sz-5", ("germans", "destroyer", 1))
    put(game, "sz-6", ("british", "carrier", 1), ("british", "fighter", 1), ("british", "naval-fighter", 1))
    put(game, "united-kingdom")
    choose(game, "germans", "move 1 destroyer sz-5 -> sz-6")
    choose(game, "germans", "done")
    choose(game, "germans", "fight sz-6")
    labels = roll(game, 6, 6, 6, 6, 6, 6)  # anti-air, both British aircraft, destroyer, carrier: all miss
    assert labels[-1] == "sz-6: defence carrier hits on 2 or less"  # only the naval fighter counts
    assert game.to_act() == "british"
    assert "retreat aircraft to united-kingdom" in options(game)
    choose(game, "british", "retreat aircraft to united-kingdom")
    assert game.units("united-kingdom") == {key("british", "fighter", 0): 1}
    assert game.units("sz-6")[key("british", "naval-fighter", 4)] == 1
