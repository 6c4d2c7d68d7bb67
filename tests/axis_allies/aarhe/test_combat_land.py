"""The variant's land cycle through the engine, with forced dice (S3:L218-224, L244-246).

Each test arranges a board by hand, fights one battle with the Historical Edition's machine and
asserts the dice asked for (their labels say what rolls and what it needs) and where hits went.
"""

from __future__ import annotations

from tests.axis_allies.aarhe.combat_helpers import fresh
from tests.axis_allies.game_helpers import at, choose, options, put, roll

from grandstrategy.axis_allies.game.engine import AAGame, key


def attack(game: AAGame, power: str, origin: str, target: str, *moves: tuple[int, str]) -> None:
    for n, unit in moves:
        choose(game, power, f"move {n} {unit} {origin} -> {target}")
    choose(game, power, "done")
    choose(game, power, f"fight {target}")


def setup(
    attackers: list[tuple[str, str, int]], defenders: list[tuple[str, str, int]], where: str = "caucasus"
) -> AAGame:
    game = fresh()
    at(game, "germans", "combat-move")
    put(game, "ukraine-ssr", *attackers)
    put(game, where, *defenders)
    return game


def test_id_searches_on_1_then_a_2_forces_the_aircraft_out() -> None:
    # S3:L244: each ID aims, searches (1), then strikes: 1 destroys, 2 forces a retreat.
    game = setup(
        [("germans", "fighter", 1), ("germans", "infantry", 1)],
        [("russians", "infantry", 1), ("russians", "aagun", 1)],
    )
    attack(game, "germans", "ukraine-ssr", "caucasus", (1, "fighter"), (1, "infantry"))
    labels = roll(game, 1, 2)
    assert labels == [
        "caucasus: ID searches for a germans fighter, detects on 1 or less",
        "caucasus: ID fires at a germans fighter: 1 hits, 2 forces a retreat",
    ]
    # The fighter still fires in this opening fire (casualties come after it), at infantry alone.
    assert roll(game, 6) == ["caucasus: germans fighter attacks a russians infantry, hits on 3 or less"]
    battle = game.d["battle"]
    assert battle["submerged"] == {key("germans", "fighter", 3): 1}  # out of the battle, not lost
    assert key("germans", "fighter", 3) not in game.units("caucasus")
    roll(game, 6, 6)  # main round: both infantry miss
    assert options(game) == ["press attack", "retreat to ukraine-ssr"]


def test_id_fires_in_every_cycle_and_factories_bring_three() -> None:
    # S3:L244-246: an industrial complex holds 3 built-in IDs; ID fire opens every cycle.
    game = setup(
        [("germans", "fighter", 1), ("germans", "infantry", 1)],
        [("russians", "infantry", 1), ("russians", "factory", 1)],
    )
    attack(game, "germans", "ukraine-ssr", "caucasus", (1, "fighter"), (1, "infantry"))
    assert roll(game, 6, 6, 6) == ["caucasus: ID searches for a germans fighter, detects on 1 or less"] * 3
    roll(game, 6, 6, 6)  # fighter, then both infantry miss
    choose(game, "germans", "press attack")
    choose(game, "russians", "hold")  # the defence may retreat after every cycle (S3:L222)
    assert game.chance_node().label == "caucasus: ID searches for a germans fighter, detects on 1 or less"


def test_dogfight_values_and_hits_on_aircraft_first() -> None:
    # S3:L218-220, L244: with aircraft on both sides, fighters dogfight at 2 (attack) / 3 (defence),
    # bombers at 0 (no die) and hits strike aircraft first.
    game = setup(
        [("germans", "fighter", 1), ("germans", "bomber", 1), ("germans", "infantry", 1)],
        [("russians", "fighter", 1), ("russians", "infantry", 2)],
    )
    attack(game, "germans", "ukraine-ssr", "caucasus", (1, "fighter"), (1, "bomber"), (1, "infantry"))
    labels = roll(game, 2, 3)
    assert labels == [
        "caucasus: germans fighter dogfights, hits on 2 or less",
        "caucasus: defence fighter dogfights, hits on 3 or less",
    ]
    # The Russian fighter falls; Germany picks which of its two aircraft takes the Russian hit.
    assert game.to_act() == "germans"
    assert options(game) == ["lose germans bomber", "lose germans fighter"]
    choose(game, "germans", "lose germans bomber")
    assert key("russians", "fighter", 4) not in game.units("caucasus")
    assert game.units("caucasus")[key("russians", "infantry", 1)] == 2


def test_air_supremacy_fighter_picks_its_target_and_lifts_a_tank() -> None:
    # S3:L220: alone in the air, fighters attack at normal values at targets chosen before any
    # roll; the bomber's hit goes into the pool; each fighter gives one tank +1.
    game = setup(
        [("germans", "fighter", 1), ("germans", "bomber", 1), ("germans", "armour", 1)],
        [("russians", "infantry", 2), ("russians", "armour", 1)],
    )
    attack(game, "germans", "ukraine-ssr", "caucasus", (1, "fighter"), (1, "bomber"), (1, "armour"))
    assert game.to_act() == "germans"
    assert options(game) == ["aim fighter at russians armour", "aim fighter at russians infantry"]
    choose(game, "germans", "aim fighter at russians armour")
    labels = roll(game, 3, 6)
    assert labels == [
        "caucasus: germans fighter attacks a russians armour, hits on 3 or less",
        "caucasus: germans bomber bombs, hits on 4 or less",
    ]
    # The chosen armour is gone without the defence being asked.
    assert key("russians", "armour", 2) not in game.units("caucasus")
    assert game.chance_node().label == "caucasus: germans armour hits on 4 or less"


def test_tank_hits_strike_tanks_and_artillery_first() -> None:
    # S3:L220: an armour hit must go on armour or artillery while there is any.
    game = setup([("germans", "armour", 1)], [("russians", "infantry", 1), ("russians", "artillery", 1)])
    attack(game, "germans", "ukraine-ssr", "caucasus", (1, "armour"))
    roll(game, 1, 6, 6)
    assert game.units("caucasus") == {key("germans", "armour", 0): 1, key("russians", "infantry", 1): 1}


def test_mountain_terrain_takes_one_from_land_units_never_below_one() -> None:
    # S3:L224, L246: Persia is mountainous.
    game = fresh()
    at(game, "germans", "combat-move")
    put(game, "caucasus", ("germans", "infantry", 1), ("germans", "armour", 1))
    put(game, "persia", ("british", "infantry", 1))
    attack(game, "germans", "caucasus", "persia", (1, "infantry"), (1, "armour"))
    labels = roll(game, 6, 6, 6)
    assert sorted(labels) == [
        "persia: defence infantry hits on 1 or less",
        "persia: germans armour hits on 2 or less",
        "persia: germans infantry hits on 1 or less",
    ]


def test_defender_retreats_and_excess_tanks_capture_infantry() -> None:
    # S3:L222: the defence may retreat to adjacent friendly land; each attacking tank beyond the
    # defence's tanks rolls a capture die (1), the defence gives infantry or artillery.
    game = setup(
        [("germans", "armour", 2), ("germans", "infantry", 1)],
        [("russians", "infantry", 2), ("russians", "armour", 1)],
    )
    put(game, "kazakh-ssr")
    attack(game, "germans", "ukraine-ssr", "caucasus", (2, "armour"), (1, "infantry"))
    roll(game, 6, 6, 6, 6, 6, 6)
    choose(game, "germans", "press attack")
    assert game.to_act() == "russians"
    assert "hold" in options(game) and "retreat to kazakh-ssr" in options(game)
    choose(game, "russians", "retreat to kazakh-ssr")
    assert roll(game, 1) == ["caucasus: germans armour chases the retreating army, captures on 1 or less"]
    assert game.units("kazakh-ssr") == {key("russians", "infantry", 0): 1, key("russians", "armour", 0): 1}
    assert game.owner("caucasus") == "germans"
    assert game.d["battle"] is None


def test_attacker_with_only_aircraft_left_must_leave() -> None:
    # S3:L220: at the end of a cycle a side with no land units must retreat.
    game = setup([("germans", "fighter", 1)], [("russians", "infantry", 1)])
    attack(game, "germans", "ukraine-ssr", "caucasus", (1, "fighter"))
    roll(game, 6, 6)
    assert game.d["battle"] is None
    assert game.owner("caucasus") == "russians"


def test_defending_aircraft_must_retreat_when_their_land_units_are_gone() -> None:
    # S3:L220-222: aircraft retreat to friendly land within 2; the attacker takes the territory.
    game = setup([("germans", "infantry", 2)], [("russians", "infantry", 1), ("russians", "fighter", 1)])
    put(game, "kazakh-ssr")
    attack(game, "germans", "ukraine-ssr", "caucasus", (2, "infantry"))
    roll(game, 6, 1, 6, 6)  # the defending fighter misses (supremacy); one German infantry hits
    assert game.to_act() == "russians"
    assert "retreat aircraft to kazakh-ssr" in options(game)
    choose(game, "russians", "retreat aircraft to kazakh-ssr")
    assert game.units("kazakh-ssr") == {key("russians", "fighter", 0): 1}
    assert game.owner("caucasus") == "germans"


def test_amphibious_first_cycle() -> None:
    # S3:L222-224: bombardment (capped at one defender per 4 infantry), IDs at the ships, the
    # defence's artillery at the infantry, infantry alone (+1 per ship) land; tanks come ashore
    # only when infantry survive.
    game = fresh()
    at(game, "british", "combat-move")
    put(game, "united-kingdom", ("british", "infantry", 1), ("british", "armour", 1))
    put(game, "sz-6", ("british", "transport", 1), ("british", "battleship", 1))
    put(game, "sz-7")
    put(game, "western-europe", ("germans", "infantry", 1), ("germans", "artillery", 1))
    choose(game, "british", "move 1 armour united-kingdom -> sz-6")
    choose(game, "british", "move 1 infantry united-kingdom -> sz-6")
    choose(game, "british", "move 1 armour sz-6 -> western-europe")
    choose(game, "british", "move 1 infantry sz-6 -> western-europe")
    choose(game, "british", "done")
    choose(game, "british", "fight western-europe")
    assert roll(game, 1) == ["western-europe: british battleship bombards the coast, hits on 4 or less"]
    # Western Europe is a victory city: one built-in ID, which aims at a ship of the assault.
    assert game.to_act() == "germans"
    choose(game, "germans", "aim id at british battleship")
    roll(game, 1, 1)  # search finds it, strike hits
    choose(game, "germans", "lose germans infantry")  # the bombardment's one casualty
    assert game.units("sz-6")[key("british", "battleship", 2, 1)] == 1  # damaged, not sunk
    assert roll(game, 6) == ["western-europe: defence artillery fires at the landing, hits on 2 or less"]
    assert roll(game, 2) == ["western-europe: british infantry hits on 2 or less"]  # +1 from the ship
    assert game.d["battle"] is None
    assert game.owner("western-europe") == "british"
    assert game.units("western-europe") == {key("british", "infantry", 0): 1, key("british", "armour", 0): 1}


def test_heavy_tank_takes_two_hits_and_hits_tanks_first() -> None:
    # S3:L248: a heavy tank takes 2 hits (attack 4); its hits, like a tank's, strike tanks and
    # artillery first (S3:L220).
    game = setup(
        [("germans", "heavy-armour", 1)], [("russians", "heavy-armour", 1), ("russians", "infantry", 1)]
    )
    attack(game, "germans", "ukraine-ssr", "caucasus", (1, "heavy-armour"))
    labels = roll(game, 4, 6, 6)
    assert labels[0] == "caucasus: germans heavy-armour hits on 4 or less"
    # The hit must go on the heavy tank (armour class), which is damaged, not destroyed.
    assert game.units("caucasus")[key("russians", "heavy-armour", 2, 1)] == 1


def test_heavy_artillery_fires_from_next_door_at_minus_one_and_is_never_hit() -> None:
    # S3:L248: heavy artillery may fire into an adjacent territory at -1 and is not a casualty.
    game = setup([("germans", "infantry", 1)], [("russians", "infantry", 1)])
    put(game, "west-russia", ("germans", "heavy-artillery", 1))
    game.d["aarhe_heavy_artillery"] = {"caucasus": [[key("germans", "heavy-artillery", 1), 1]]}
    attack(game, "germans", "ukraine-ssr", "caucasus", (1, "infantry"))
    labels = roll(game, 6, 6, 1)
    assert labels == [
        "caucasus: germans infantry hits on 1 or less",
        "caucasus: germans heavy-artillery fires from next door, hits on 2 or less",  # 3 - 1
        "caucasus: defence infantry hits on 2 or less",
    ]
    assert game.units("west-russia") == {key("germans", "heavy-artillery", 1): 1}


def test_jets_may_skip_the_dogfight_and_cannot_be_intercepted() -> None:
    # S3:L220, L236: jets (fighter 4 attack, dogfight 4) may strike land units instead of
    # dogfighting; the other side's aircraft cannot hit them.
    game = setup(
        [("germans", "fighter", 1), ("germans", "infantry", 1)],
        [("russians", "fighter", 1), ("russians", "infantry", 1)],
    )
    game.d["techs"]["germans"] = ["jet-plane"]
    attack(game, "germans", "ukraine-ssr", "caucasus", (1, "fighter"), (1, "infantry"))
    assert options(game) == ["jets dogfight", "jets strike the ground"]
    choose(game, "germans", "jets strike the ground")
    labels = roll(game, 6, 1)
    assert labels == [
        "caucasus: germans jet fighter attacks a russians infantry, hits on 4 or less",
        "caucasus: defence fighter dogfights, hits on 3 or less",
    ]
    # The Russian hit cannot touch the jet: it falls on the German infantry.
    assert key("germans", "fighter", 3) in game.units("caucasus")
    assert key("germans", "infantry", 0) not in game.units("caucasus")


def test_jets_dogfight_at_four() -> None:
    game = setup(
        [("germans", "fighter", 1), ("germans", "infantry", 1)],
        [("russians", "fighter", 1), ("russians", "infantry", 1)],
    )
    game.d["techs"]["germans"] = ["jet-plane"]
    attack(game, "germans", "ukraine-ssr", "caucasus", (1, "fighter"), (1, "infantry"))
    choose(game, "germans", "jets dogfight")
    assert game.chance_node().label == "caucasus: germans fighter dogfights, hits on 4 or less"


def test_heavy_bomber_rolls_two_dice_and_radar_helps_ids_search() -> None:
    # S3:L238: Heavy Bomber: two dice in combat (each may hit, AH-C9); Advanced Radar: +1 to ID
    # search rolls.
    game = setup(
        [("germans", "bomber", 1), ("germans", "infantry", 1)],
        [("russians", "infantry", 2), ("russians", "aagun", 1)],
    )
    game.d["techs"]["germans"] = ["heavy-bomber"]
    game.d["techs"]["russians"] = ["advanced-radar"]
    attack(game, "germans", "ukraine-ssr", "caucasus", (1, "bomber"), (1, "infantry"))
    labels = roll(game, 6, 1, 1)
    assert labels == [
        "caucasus: ID searches for a germans bomber, detects on 2 or less",
        "caucasus: germans bomber bombs, hits on 4 or less",
        "caucasus: germans bomber bombs, hits on 4 or less",
    ]
    assert key("russians", "infantry", 1) not in game.units("caucasus")  # both hits landed


def test_attacker_may_retreat_some_units_and_fight_on_with_the_rest() -> None:
    # S3:L222: the attacker may retreat some or all of its units to where they came from.
    game = setup([("germans", "infantry", 1), ("germans", "armour", 1)], [("russians", "infantry", 2)])
    attack(game, "germans", "ukraine-ssr", "caucasus", (1, "infantry"), (1, "armour"))
    roll(game, 6, 6, 6, 6)
    assert "retreat infantry to ukraine-ssr" in options(game)
    choose(game, "germans", "retreat infantry to ukraine-ssr")
    assert options(game) == ["press attack", "retreat to ukraine-ssr"]
    choose(game, "germans", "press attack")
    assert game.units("ukraine-ssr") == {key("germans", "infantry", 0): 1}
    assert game.units("caucasus")[key("germans", "armour", 0)] == 1


def test_dive_bomber_dogfights_at_1_or_2_and_strikes_at_3_or_defends_at_2() -> None:
    # S3:L248: the optional dive bomber attacks at 3, defends at 2 and dogfights at 1 / 2
    game = setup(
        [("germans", "dive-bomber", 1), ("germans", "infantry", 1)],
        [("russians", "fighter", 1), ("russians", "infantry", 1)],
    )
    attack(game, "germans", "ukraine-ssr", "caucasus", (1, "dive-bomber"), (1, "infantry"))
    assert roll(game, 1, 6) == [
        "caucasus: germans dive-bomber dogfights, hits on 1 or less",
        "caucasus: defence fighter dogfights, hits on 3 or less",
    ]
    assert key("russians", "fighter", 4) not in game.units("caucasus")
    game = setup(
        [("germans", "fighter", 1), ("germans", "infantry", 1)],
        [("russians", "dive-bomber", 1), ("russians", "infantry", 1)],
    )
    attack(game, "germans", "ukraine-ssr", "caucasus", (1, "fighter"), (1, "infantry"))
    assert roll(game, 6, 6)[1] == "caucasus: defence dive-bomber dogfights, hits on 2 or less"
    game = setup([("germans", "dive-bomber", 1), ("germans", "infantry", 1)], [("russians", "infantry", 2)])
    attack(game, "germans", "ukraine-ssr", "caucasus", (1, "dive-bomber"), (1, "infantry"))
    assert (
        roll(game, 3, 6, 6)[0]
        == "caucasus: germans dive-bomber attacks a russians infantry, hits on 3 or less"
    )
    assert game.units("caucasus")[key("russians", "infantry", 1)] == 1
    game = setup([("germans", "infantry", 1)], [("russians", "dive-bomber", 1)])
    attack(game, "germans", "ukraine-ssr", "caucasus", (1, "infantry"))
    assert roll(game, 2)[0] == "caucasus: defence dive-bomber attacks a germans infantry, hits on 2 or less"
