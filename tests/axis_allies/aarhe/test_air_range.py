"""Air ranges and transport in the variant (S3:L216, S3:L232): half the movement into battle and
back, the ferry range split in two halves, raids as combat flights, cargo only within a turn and
bombers carrying infantry."""

from __future__ import annotations

from tests.axis_allies.aarhe.helpers import at, choose, fresh, options
from tests.axis_allies.game_helpers import put

from grandstrategy.axis_allies.aarhe import carriage
from grandstrategy.axis_allies.game.engine import AAGame, key
from grandstrategy.axis_allies.game.invariants import problems


def germans_alone(game: AAGame, *friendly: str) -> None:
    """Every held land territory Soviet but ``germany`` and ``friendly``; the board empty."""
    for territory, owner in game.d["owner"].items():
        if owner is not None:
            game.d["owner"][territory] = "russians"
    for territory in ("germany", *friendly):
        game.d["owner"][territory] = "germans"
    game.d["units"] = {}


def flights(game: AAGame, unit: str, origin: str) -> list[str]:
    head = f"move 1 {unit} {origin} -> "
    return [o.removeprefix(head) for o in options(game) if o.startswith(head)]


def test_an_aircraft_back_from_a_battle_has_half_its_movement_to_land() -> None:
    # S3:L216: a fighter (4) that flew 1 to attack keeps 2 to land, not 3; no ferry range after
    game = fresh()
    at(game, "germans", "combat-move")
    germans_alone(game, "caucasus", "persia")
    put(game, "germany", ("germans", "fighter", 1))
    put(game, "eastern-europe", ("russians", "infantry", 1))
    choose(game, "germans", "move 1 fighter germany -> eastern-europe")
    assert game.units("eastern-europe")[key("germans", "fighter", 2)] == 1
    # the battle won: Germany holds the place and the fighter flies home in non-combat move
    put(game, "eastern-europe", ("germans", "infantry", 1))
    game.d["units"]["eastern-europe"][key("germans", "fighter", 2)] = 1
    game.d["battles"], game.d["phase"] = [], "noncombat-move"
    assert game.air_distance("eastern-europe", "caucasus") == 2
    assert game.air_distance("eastern-europe", "persia") == 3
    landings = flights(game, "fighter", "eastern-europe")
    assert "caucasus" in landings and "germany" in landings and "persia" not in landings


def test_a_fighter_that_flew_two_of_four_lands_within_two() -> None:
    # S3:L216: 2 of 4 to the target, then 2 to land (the ferry range does not add to it)
    game = fresh()
    at(game, "germans", "noncombat-move")
    germans_alone(game, "caucasus", "persia", "karelia-ssr")
    put(game, "karelia-ssr", ("germans", "infantry", 1))
    game.add("karelia-ssr", key("germans", "fighter", 2))
    assert game.air_distance("karelia-ssr", "persia") == 3
    assert game.air_distance("karelia-ssr", "caucasus") == 2
    landings = flights(game, "fighter", "karelia-ssr")
    assert "persia" not in landings and "caucasus" in landings


def test_a_flight_into_battle_needs_a_landing_place_within_half_its_movement() -> None:
    # S3:L216: Revised lets a fighter attack 1 away with a landing place 3 beyond; here only 2
    game = fresh()
    at(game, "germans", "combat-move")
    germans_alone(game, "persia")
    game.d["conquered"] = ["germany"]  # taken this turn: no landing there
    put(game, "germany", ("germans", "fighter", 1))
    put(game, "eastern-europe", ("russians", "infantry", 1))
    assert "eastern-europe" not in flights(game, "fighter", "germany")
    game.d["owner"]["caucasus"] = "germans"  # 2 from Eastern Europe
    assert "eastern-europe" in flights(game, "fighter", "germany")


def test_a_fighter_ferries_six_as_three_and_three_not_four_and_two() -> None:
    # S3:L232: ferry range 4 + 2 = 6, at most 3 to a friendly territory and 3 from there
    game = fresh()
    at(game, "germans", "noncombat-move")
    germans_alone(game, "china", "kazakh-ssr")
    put(game, "germany", ("germans", "fighter", 1))
    assert game.air_distance("germany", "china") == 6
    assert (game.air_distance("germany", "kazakh-ssr"), game.air_distance("kazakh-ssr", "china")) == (4, 2)
    assert flights(game, "fighter", "germany") == []  # 4 + 2 is no ferry flight; 4 alone neither
    game.d["owner"]["caucasus"] = "germans"
    assert (game.air_distance("germany", "caucasus"), game.air_distance("caucasus", "china")) == (3, 3)
    assert sorted(flights(game, "fighter", "germany")) == ["caucasus", "china", "kazakh-ssr"]
    choose(game, "germans", "move 1 fighter germany -> china")
    assert game.units("china") == {key("germans", "fighter", 0): 1}  # one ferry flight a turn


def test_raids_fly_half_the_bombers_movement_and_keep_half_to_return() -> None:
    # S3:L216 applied to strategic bombing (decision): a bomber (6) raids 3 away, not 4
    game = fresh()
    at(game, "british", "combat-move")
    put(game, "united-kingdom", ("british", "bomber", 1), ("british", "factory", 1))
    put(game, "balkans", ("germans", "factory", 1))
    assert game.air_distance("united-kingdom", "germany") == 3
    assert game.air_distance("united-kingdom", "balkans") == 4
    raids = [o for o in options(game) if o.startswith("raid ")]
    assert "raid 1 bomber united-kingdom -> germany" in raids
    assert "raid 1 bomber united-kingdom -> balkans" not in raids
    choose(game, "british", "raid 1 bomber united-kingdom -> germany")
    assert game.d["raids"]["germany"] == {key("british", "bomber", 3): 1}


def test_land_units_left_at_sea_when_non_combat_move_ends_are_lost() -> None:
    # S3:L232: loaded and unloaded in one turn; no transport ends a turn laden
    game = fresh()
    game.d["aarhe"]["russia_fallen"] = True
    at(game, "british", "noncombat-move")
    put(game, "united-kingdom", ("british", "infantry", 2), ("british", "factory", 1))
    put(game, "sz-7", ("british", "transport", 1))
    choose(game, "british", "move 1 infantry united-kingdom -> sz-7")
    choose(game, "british", "move 1 infantry united-kingdom -> sz-7")
    choose(game, "british", "move 1 infantry sz-7 -> united-kingdom")  # one comes ashore again
    choose(game, "british", "done")
    assert game.d["phase"] != "noncombat-move"
    assert game.units("sz-7") == {key("british", "transport", 0): 1}  # moored after unloading
    assert game.units("united-kingdom")[key("british", "infantry", 0)] == 1
    assert any("left aboard transports in sz-7 are lost" in line for line in game.d["log"])


def test_the_invariant_check_finds_cargo_kept_at_sea_after_the_move() -> None:
    game = fresh()
    at(game, "british", "mobilize")
    game.add("sz-7", key("british", "transport", 0))
    game.add("sz-7", key("british", "infantry", 1))
    assert "1 british land units at sea in sz-7" in problems(game)
    game.d["phase"] = "noncombat-move"
    assert not carriage.problems(game, ("mobilize",))


def test_a_bomber_carries_an_infantry_to_friendly_land_within_its_combat_range() -> None:
    # S3:L232: one infantry a bomber, loaded and unloaded at once, combat range (3 for a bomber)
    game = fresh()
    at(game, "americans", "noncombat-move")
    put(game, "eastern-united-states", ("americans", "bomber", 1), ("americans", "infantry", 2))
    lifts = [o for o in options(game) if o.startswith("airlift ")]
    assert "airlift 1 infantry eastern-united-states -> alaska" in lifts  # 3 away
    assert not any(o.endswith("-> greenland") for o in lifts)  # 4 away: beyond half of 6
    assert not any(o.startswith("airlift 2") for o in lifts)  # one bomber, one infantry
    choose(game, "americans", "airlift 1 infantry eastern-united-states -> alaska")
    assert game.units("alaska")[key("americans", "bomber", 0)] == 1
    assert game.units("alaska")[key("americans", "infantry", 0)] == 1
    assert game.units("eastern-united-states") == {key("americans", "infantry", 1): 1}
    assert not any(o.startswith("airlift ") for o in options(game))  # no fresh bomber is left


def test_a_heavy_bomber_carries_two_infantry_and_a_bomber_that_flew_none() -> None:
    game = fresh()
    at(game, "americans", "noncombat-move")
    put(game, "eastern-united-states", ("americans", "infantry", 3))
    game.add("eastern-united-states", key("americans", "bomber", 3))  # back from a battle
    assert not any(o.startswith("airlift ") for o in options(game))
    game.add("eastern-united-states", key("americans", "bomber", 6))
    game.d["techs"]["americans"] = ["heavy-bomber"]
    choose(game, "americans", "airlift 2 infantry eastern-united-states -> central-united-states")
    assert game.units("central-united-states")[key("americans", "infantry", 0)] == 2
    assert game.units("central-united-states")[key("americans", "bomber", 0)] == 1
