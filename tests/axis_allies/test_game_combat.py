"""Movement and combat of A&A Revised through the engine, with forced dice."""

from __future__ import annotations

from tests.axis_allies.game_helpers import at, choose, fresh, options, put, roll

from grandstrategy.axis_allies.game.engine import key


def test_land_battle_with_artillery_support_and_casualty_choice() -> None:
    game = fresh()
    at(game, "russians", "combat-move")
    put(game, "caucasus", ("russians", "infantry", 2), ("russians", "artillery", 1))
    put(game, "ukraine-ssr", ("germans", "infantry", 2))
    choose(game, "russians", "move 2 infantry caucasus -> ukraine-ssr")
    choose(game, "russians", "move 1 artillery caucasus -> ukraine-ssr")
    choose(game, "russians", "done")
    assert options(game) == ["fight ukraine-ssr"]
    choose(game, "russians", "fight ukraine-ssr")
    # Attack: artillery on 2, one infantry supported on 2, the other on 1; defence: infantry on 2.
    labels = roll(game, 2, 2, 2, 1, 6)
    assert [label.split(" hits on ")[1][0] for label in labels] == ["2", "2", "1", "2", "2"]
    assert "artillery" in labels[0] and "infantry" in labels[1] and "infantry" in labels[3]
    # 2 hits on 2 defending infantry: both lost without a choice; 1 hit on the attacker: Russia picks.
    assert game.to_act() == "russians"
    assert options(game) == ["lose russians artillery", "lose russians infantry"]
    choose(game, "russians", "lose russians infantry")
    assert game.owner("ukraine-ssr") == "russians"
    assert game.units("ukraine-ssr") == {
        key("russians", "infantry", 0): 1,
        key("russians", "artillery", 0): 1,
    }
    assert "ukraine-ssr" in game.d["conquered"]
    assert game.d["phase"] == "noncombat-move"


def test_unsupported_infantry_attacks_on_one() -> None:
    game = fresh()
    at(game, "russians", "combat-move")
    put(game, "caucasus", ("russians", "infantry", 1))
    put(game, "ukraine-ssr", ("germans", "infantry", 1))
    choose(game, "russians", "move 1 infantry caucasus -> ukraine-ssr")
    choose(game, "russians", "done")
    choose(game, "russians", "fight ukraine-ssr")
    assert game.chance_node().label.endswith("hits on 1 or less")
    roll(game, 2, 6)  # the attacker misses with a 2, the defender misses
    assert game.d["battle"]["stage"] == "retreat"
    assert options(game) == ["press attack", "retreat to caucasus"]
    choose(game, "russians", "retreat to caucasus")
    assert game.owner("ukraine-ssr") == "germans"
    assert game.units("caucasus") == {key("russians", "infantry", 0): 1}


def test_defender_chooses_its_own_casualties() -> None:
    game = fresh()
    at(game, "russians", "combat-move")
    put(game, "caucasus", ("russians", "armour", 1))
    put(game, "ukraine-ssr", ("germans", "infantry", 1), ("germans", "armour", 1))
    choose(game, "russians", "move 1 armour caucasus -> ukraine-ssr")
    choose(game, "russians", "done")
    choose(game, "russians", "fight ukraine-ssr")
    roll(game, 3, 6, 6)  # the armour hits on 3; both defenders miss
    assert game.to_act() == "germans"
    assert options(game) == ["lose germans armour", "lose germans infantry"]
    choose(game, "germans", "lose germans infantry")
    assert game.units("ukraine-ssr")[key("germans", "armour", 2)] == 1


def test_aa_gun_fires_at_each_attacking_aircraft_first() -> None:
    game = fresh()
    at(game, "germans", "combat-move")
    put(game, "ukraine-ssr", ("germans", "fighter", 2))
    put(game, "caucasus", ("russians", "infantry", 1), ("russians", "aagun", 1), ("russians", "factory", 1))
    choose(game, "germans", "move 2 fighter ukraine-ssr -> caucasus")
    choose(game, "germans", "done")
    choose(game, "germans", "fight caucasus")
    labels = roll(game, 1, 4)  # AA: one fighter down on a 1, the other survives
    assert all("hits on 1 or less" in label for label in labels)
    # One fighter (attack 3) against one infantry (defence 2).
    roll(game, 3, 5)
    assert game.owner("caucasus") == "russians"  # aircraft alone cannot take a territory
    assert game.units("caucasus").get(key("germans", "fighter", 3)) == 1
    assert key("russians", "infantry", 1) not in game.units("caucasus")


def test_armour_blitzes_through_empty_enemy_territory() -> None:
    game = fresh()
    at(game, "germans", "combat-move")
    game.d["owner"]["west-russia"] = "russians"
    put(game, "west-russia")
    put(game, "belorussia", ("germans", "armour", 1))
    choose(game, "germans", "move 1 armour belorussia -> west-russia")
    assert game.owner("west-russia") == "germans"
    assert game.units("west-russia") == {key("germans", "armour", 1): 1}
    assert "west-russia" not in game.d["battles"]


def test_infantry_entering_empty_enemy_territory_takes_it_in_combat() -> None:
    game = fresh()
    at(game, "germans", "combat-move")
    game.d["owner"]["west-russia"] = "russians"
    put(game, "west-russia")
    put(game, "belorussia", ("germans", "infantry", 1))
    choose(game, "germans", "move 1 infantry belorussia -> west-russia")
    assert game.owner("west-russia") == "russians"
    choose(game, "germans", "done")
    choose(game, "germans", "fight west-russia")
    assert game.owner("west-russia") == "germans"


def test_capturing_a_capital_takes_the_bank_and_the_factory() -> None:
    game = fresh()
    at(game, "germans", "combat-move")
    put(game, "west-russia", ("germans", "armour", 2))
    put(game, "russia", ("russians", "infantry", 1), ("russians", "factory", 1), ("russians", "aagun", 1))
    banks = dict(game.d["bank"])
    choose(game, "germans", "move 2 armour west-russia -> russia")
    choose(game, "germans", "done")
    choose(game, "germans", "fight russia")
    roll(game, 3, 1, 6)  # armour hit on 3 and 1; the infantry misses
    assert game.owner("russia") == "germans"
    assert game.d["bank"]["russians"] == 0
    assert game.d["bank"]["germans"] == banks["germans"] + banks["russians"]
    assert game.units("russia") == {
        key("germans", "armour", 0): 2,
        key("germans", "factory", 0): 1,
        key("germans", "aagun", 0): 1,
    }
    assert "russia" not in game.d["start_factories"]  # a factory taken this turn does not mobilize


def test_liberated_territory_returns_to_its_original_owner() -> None:
    game = fresh()
    at(game, "british", "combat-move")
    game.d["owner"]["caucasus"] = "germans"
    put(game, "caucasus")
    put(game, "persia", ("british", "infantry", 1))
    choose(game, "british", "move 1 infantry persia -> caucasus")
    choose(game, "british", "done")
    choose(game, "british", "fight caucasus")
    assert game.owner("caucasus") == "russians"


def test_submarine_strikes_first_and_battleship_takes_two_hits() -> None:
    game = fresh()
    at(game, "british", "combat-move")
    put(game, "sz-6", ("british", "destroyer", 1), ("british", "submarine", 1))
    put(game, "sz-5", ("germans", "battleship", 1))
    choose(game, "british", "move 1 destroyer sz-6 -> sz-5")
    choose(game, "british", "move 1 submarine sz-6 -> sz-5")
    choose(game, "british", "done")
    choose(game, "british", "fight sz-5")
    # No German destroyer: the British submarine may submerge before the round (LHTR), or fire alone, first.
    assert options(game) == ["keep submarines in the battle", "submerge submarines"]
    choose(game, "british", "keep submarines in the battle")
    assert "british submarine hits on 2" in game.chance_node().label
    roll(game, 2)
    assert game.d["battle"]["stage"] == "defender-casualties"
    assert options(game) == ["damage germans battleship", "lose germans battleship"]
    choose(game, "germans", "damage germans battleship")
    labels = roll(game, 6, 6)  # then the destroyer and the (damaged) battleship fire
    assert "destroyer" in labels[0] and "battleship" in labels[1]
    assert game.units("sz-5") == {
        key("germans", "battleship", 2, 1): 1,
        key("british", "destroyer", 0): 1,
        key("british", "submarine", 0): 1,
    }
    assert options(game) == ["press attack", "retreat to sz-6"]
    choose(game, "british", "press attack")
    choose(game, "british", "submerge submarines")  # the destroyer fights on alone
    roll(game, 6, 6)
    choose(game, "british", "retreat to sz-6")
    assert game.units("sz-6") == {key("british", "destroyer", 0): 1}
    assert game.units("sz-5")[key("british", "submarine", 0)] == 1  # submerged, still there


def test_a_destroyer_cancels_the_surprise_strike_and_subs_cannot_hit_aircraft() -> None:
    game = fresh()
    at(game, "germans", "combat-move")
    put(game, "sz-5", ("germans", "submarine", 2))
    put(game, "sz-6", ("british", "destroyer", 1), ("british", "fighter", 1))
    choose(game, "germans", "move 2 submarine sz-5 -> sz-6")
    choose(game, "germans", "done")
    choose(game, "germans", "fight sz-6")
    labels = roll(game, 1, 1, 6, 6)  # all fire together: both subs hit; destroyer and fighter miss
    assert "submarine" in labels[0] and "destroyer" in labels[2]
    # Two submarine hits but only one ship: the fighter cannot be taken, the second hit is lost.
    # Then submarines and a fighter cannot hurt each other: the battle ends, and the fighter,
    # with no carrier under it, is lost.
    assert game.d["battle"] is None
    assert game.units("sz-6") == {key("germans", "submarine", 0): 2}


def test_aircraft_that_cannot_land_are_lost() -> None:
    game = fresh()
    at(game, "germans", "noncombat-move")
    put(game, "sz-5", ("germans", "fighter", 1))
    choose(game, "germans", "done")
    assert "sz-5" not in game.d["units"]


def test_transport_carries_land_units_to_an_amphibious_assault() -> None:
    game = fresh()
    at(game, "british", "combat-move")
    put(
        game,
        "united-kingdom",
        ("british", "infantry", 1),
        ("british", "armour", 1),
        ("british", "infantry", 2),
    )
    put(game, "sz-7", ("british", "transport", 1))
    put(game, "sz-6")
    put(game, "western-europe", ("germans", "infantry", 1))
    choose(game, "british", "move 1 armour united-kingdom -> sz-7")
    # A transport holds 5: armour (3) and one infantry (2); a second infantry does not fit.
    assert "move 1 infantry united-kingdom -> sz-7" in options(game)
    assert "move 3 infantry united-kingdom -> sz-7" not in options(game)
    choose(game, "british", "move 1 infantry united-kingdom -> sz-7")
    assert not any(o.startswith("move 1 infantry united-kingdom -> sz-7") for o in options(game))
    choose(game, "british", "move 1 transport sz-7 -> sz-6")
    assert game.units("sz-6") == {
        key("british", "transport", 1): 1,
        key("british", "armour", 2): 1,
        key("british", "infantry", 1): 1,
    }
    choose(game, "british", "move 1 armour sz-6 -> western-europe")
    choose(game, "british", "move 1 infantry sz-6 -> western-europe")
    choose(game, "british", "done")
    choose(game, "british", "fight western-europe")
    roll(game, 3, 6, 6)  # armour hits; infantry misses; the German infantry misses
    assert game.owner("western-europe") == "british"
    assert game.units("western-europe") == {key("british", "armour", 0): 1, key("british", "infantry", 0): 1}


def test_cargo_sinks_with_its_transport() -> None:
    game = fresh()
    at(game, "germans", "combat-move")
    put(game, "sz-5", ("germans", "destroyer", 1))
    put(game, "sz-6", ("british", "transport", 1), ("british", "infantry", 2))
    choose(game, "germans", "move 1 destroyer sz-5 -> sz-6")
    choose(game, "germans", "done")
    choose(game, "germans", "fight sz-6")
    roll(game, 1, 6)  # the destroyer sinks the transport, which misses
    assert "sz-6" not in game.d["units"] or not any("british" in s for s in game.units("sz-6"))


def test_strategic_bombing_is_capped_at_the_territory_value_lhtr() -> None:
    game = fresh()
    at(game, "germans", "combat-move")
    put(game, "west-russia", ("germans", "bomber", 3))
    put(game, "russia", ("russians", "infantry", 1), ("russians", "factory", 1), ("russians", "aagun", 1))
    bank = game.d["bank"]["russians"]
    choose(game, "germans", "raid 3 bomber west-russia -> russia")
    choose(game, "germans", "done")
    assert options(game) == ["bomb russia"]
    choose(game, "germans", "bomb russia")
    labels = roll(game, 1, 5, 5)  # AA: one bomber down
    assert all("AA gun fires" in label for label in labels)
    roll(game, 6, 6)  # 12 damage rolled; Russia's IPC value (8) caps it
    assert game.d["bank"]["russians"] == bank - 8
    assert game.units("russia")[key("germans", "bomber", 5)] == 2
    assert game.d["phase"] == "noncombat-move"
    choose(game, "germans", "move 2 bomber russia -> west-russia")


def test_battleship_bombards_the_shore_in_the_first_round_only() -> None:
    game = fresh()
    at(game, "british", "combat-move")
    put(game, "sz-7", ("british", "transport", 1), ("british", "infantry", 2), ("british", "battleship", 1))
    put(game, "western-europe", ("germans", "infantry", 2))
    choose(game, "british", "move 2 infantry sz-7 -> western-europe")
    choose(game, "british", "done")
    choose(game, "british", "fight western-europe")
    labels = roll(game, 6, 6, 6, 6, 4)  # infantry and defence miss; the battleship hits on 4
    assert "battleship hits on 4" in labels[4]
    assert game.units("western-europe")[key("germans", "infantry", 1)] == 1
    # Units landed from the sea cannot retreat: the second round follows without a decision.
    assert game.chance_node() is not None
    labels = roll(game, 6, 6, 6)  # second round: no bombardment
    assert not any("battleship" in label for label in labels)


def test_aircraft_alone_may_break_off() -> None:
    game = fresh()
    at(game, "germans", "combat-move")
    put(game, "eastern-europe", ("germans", "fighter", 1))
    put(game, "karelia-ssr", ("russians", "infantry", 1))
    choose(game, "germans", "move 1 fighter eastern-europe -> karelia-ssr")
    choose(game, "germans", "done")
    choose(game, "germans", "fight karelia-ssr")
    roll(game, 6, 6)
    assert options(game) == ["press attack", "break off"]
    choose(game, "germans", "break off")
    assert game.d["phase"] == "noncombat-move"
    choose(game, "germans", "move 1 fighter karelia-ssr -> eastern-europe")


def test_aa_guns_move_only_in_non_combat_move() -> None:
    game = fresh()
    at(game, "russians", "combat-move")
    put(game, "caucasus", ("russians", "aagun", 1))
    assert not any("aagun" in option for option in options(game))
    choose(game, "russians", "done")
    assert "move 1 aagun caucasus -> russia" in options(game)


def test_armour_blitzes_past_an_undefended_aa_gun_and_captures_it() -> None:
    game = fresh()
    at(game, "germans", "combat-move")
    game.d["owner"]["west-russia"] = "russians"
    put(game, "west-russia", ("russians", "aagun", 1))
    put(game, "belorussia", ("germans", "armour", 1))
    choose(game, "germans", "move 1 armour belorussia -> west-russia")
    assert game.owner("west-russia") == "germans"
    assert game.units("west-russia") == {key("germans", "armour", 1): 1, key("germans", "aagun", 0): 1}


def test_a_transport_that_unloaded_moves_no_further() -> None:
    game = fresh()
    at(game, "british", "noncombat-move")
    put(game, "sz-7", ("british", "transport", 1), ("british", "infantry", 1))
    choose(game, "british", "move 1 infantry sz-7 -> united-kingdom")
    assert game.units("sz-7") == {key("british", "transport", 0): 1}
    assert not any(o.startswith("move 1 transport sz-7") for o in options(game))


def test_defending_submarines_may_submerge_before_a_round() -> None:
    game = fresh()
    at(game, "british", "combat-move")
    put(game, "sz-6", ("british", "battleship", 1))
    put(game, "sz-5", ("germans", "submarine", 1), ("germans", "transport", 1))
    choose(game, "british", "move 1 battleship sz-6 -> sz-5")
    choose(game, "british", "done")
    choose(game, "british", "fight sz-5")
    assert game.to_act() == "germans"
    assert options(game) == ["keep submarines in the battle", "submerge submarines"]
    choose(game, "germans", "submerge submarines")
    roll(game, 4, 6)  # the battleship sinks the transport, which misses
    assert game.d["battle"] is None
    assert game.units("sz-5") == {key("british", "battleship", 0): 1, key("germans", "submarine", 2): 1}


def test_aircraft_fly_into_battle_only_with_moves_left_to_land() -> None:
    game = fresh()
    at(game, "germans", "combat-move")
    game.d["owner"]["west-russia"] = "russians"
    put(game, "west-russia", ("russians", "infantry", 1))
    put(game, "belorussia")
    game.add("belorussia", key("germans", "fighter", 1))
    assert "move 1 fighter belorussia -> west-russia" not in options(game)  # no way back
    game.add("belorussia", key("germans", "fighter", 1), -1)
    game.add("belorussia", key("germans", "fighter", 2))
    assert "move 1 fighter belorussia -> west-russia" in options(game)


def test_a_land_unit_that_moved_in_combat_move_stays_put_in_non_combat() -> None:
    game = fresh()
    at(game, "germans", "combat-move")
    put(game, "belorussia", ("germans", "armour", 1))
    put(game, "eastern-europe")
    choose(game, "germans", "move 1 armour belorussia -> eastern-europe")  # a step into friendly land
    choose(game, "germans", "done")
    assert game.d["phase"] == "noncombat-move"
    assert game.units("eastern-europe").get(key("germans", "armour", 0)) == 1
    assert not any(o.startswith("move 1 armour eastern-europe") for o in options(game))
