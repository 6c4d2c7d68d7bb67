"""Combat movement ends where a battle will be fought, and aircraft that fought land within
the moves they have left (Revised with LHTR 1.3), on forced positions."""

from __future__ import annotations

from tests.axis_allies.game_helpers import at, choose, fresh, options, put, roll

from grandstrategy.axis_allies.game.engine import AAGame, key


def moves_from(game: AAGame, where: str) -> list[str]:
    """The options that move or send units out of ``where``."""
    return [o for o in options(game) if f" {where} -> " in o]


def test_a_bomber_that_flew_into_a_battle_cannot_fly_on_or_raid() -> None:
    # The defect a bot showed: germany -> caucasus -> kazakh-ssr -> caucasus in one combat move.
    game = fresh()
    at(game, "germans", "combat-move")
    put(game, "caucasus", ("russians", "infantry", 1))
    put(game, "kazakh-ssr", ("russians", "infantry", 1))
    put(game, "germany", ("germans", "bomber", 1))
    assert "move 1 bomber germany -> kazakh-ssr" in options(game)
    choose(game, "germans", "move 1 bomber germany -> caucasus")
    assert game.units("caucasus")[key("germans", "bomber", 3)] == 1  # moves left for landing
    assert moves_from(game, "caucasus") == []  # no move on, no raid from the battle
    choose(game, "germans", "done")
    assert game.d["phase"] == "combat" and "fight caucasus" in options(game)
    assert "fight kazakh-ssr" not in options(game)


def test_a_fighter_that_flew_into_a_sea_battle_stops_there() -> None:
    game = fresh()
    at(game, "germans", "combat-move")
    put(game, "sz-6", ("british", "destroyer", 1))
    put(game, "sz-7", ("british", "transport", 1))
    put(game, "western-europe", ("germans", "fighter", 1))
    choose(game, "germans", "move 1 fighter western-europe -> sz-6")
    assert moves_from(game, "sz-6") == []


def test_land_units_and_blocked_ships_stop_where_they_meet_the_enemy() -> None:
    game = fresh()
    at(game, "germans", "combat-move")
    put(game, "karelia-ssr", ("russians", "infantry", 1))
    put(game, "belorussia", ("germans", "armour", 1))
    put(game, "sz-5", ("germans", "destroyer", 1))
    put(game, "sz-6", ("british", "destroyer", 1))
    choose(game, "germans", "move 1 armour belorussia -> karelia-ssr")
    assert game.units("karelia-ssr")[key("germans", "armour", 0)] == 1
    assert moves_from(game, "karelia-ssr") == []
    choose(game, "germans", "move 1 destroyer sz-5 -> sz-6")
    assert moves_from(game, "sz-6") == []


def test_aircraft_alone_may_not_attack_land_without_defending_combat_units() -> None:
    # An AA gun and a factory do not fight; aircraft cannot take a territory (Revised), so
    # there is nothing for them to attack there, nor in an empty enemy territory.
    game = fresh()
    at(game, "germans", "combat-move")
    put(game, "karelia-ssr", ("russians", "aagun", 1))
    put(game, "archangel")
    put(game, "eastern-europe", ("germans", "fighter", 1))
    targets = moves_from(game, "eastern-europe")
    assert "move 1 fighter eastern-europe -> karelia-ssr" not in targets
    assert "move 1 fighter eastern-europe -> archangel" not in targets
    game.add("karelia-ssr", key("russians", "infantry", 1))
    assert "move 1 fighter eastern-europe -> karelia-ssr" in options(game)


def win_karelia(game: AAGame) -> None:
    """Germany takes karelia-ssr with an infantry, a fighter and a bomber (dice forced)."""
    at(game, "germans", "combat-move")
    put(game, "karelia-ssr", ("russians", "infantry", 1))
    put(game, "belorussia", ("germans", "infantry", 1))
    put(game, "germany", ("germans", "fighter", 1), ("germans", "bomber", 1))
    put(game, "sz-5", ("germans", "carrier", 1))
    choose(game, "germans", "move 1 infantry belorussia -> karelia-ssr")
    choose(game, "germans", "move 1 fighter germany -> karelia-ssr")  # 2 of its 4 moves
    choose(game, "germans", "move 1 bomber germany -> karelia-ssr")  # 2 of its 6 moves
    choose(game, "germans", "done")
    choose(game, "germans", "fight karelia-ssr")
    roll(game, 1, 1, 1, 6)  # bomber, fighter, infantry hit; the defence misses
    assert game.owner("karelia-ssr") == "germans" and game.d["phase"] == "noncombat-move"


def test_a_fighter_that_attacked_lands_within_its_moves_left_on_land_held_or_a_carrier() -> None:
    game = fresh()
    win_karelia(game)
    targets = {o.split()[-1] for o in moves_from(game, "karelia-ssr") if " fighter " in o}
    assert {"belorussia", "germany", "west-russia", "sz-5"} <= targets  # 1 or 2 moves away
    assert "karelia-ssr" not in targets  # taken this turn: no landing there (Revised)
    assert "southern-europe" not in targets  # three moves away
    assert "archangel" not in targets  # enemy land


def test_a_bomber_that_attacked_lands_on_land_held_since_the_turn_began_never_on_a_carrier() -> None:
    game = fresh()
    win_karelia(game)
    targets = {o.split()[-1] for o in moves_from(game, "karelia-ssr") if " bomber " in o}
    assert {"germany", "southern-europe", "norway"} <= targets
    assert "sz-5" not in targets  # a carrier has room, but not for a bomber
    assert "karelia-ssr" not in targets


def test_aircraft_left_in_a_territory_taken_this_turn_are_lost() -> None:
    game = fresh()
    win_karelia(game)
    choose(game, "germans", "move 1 fighter karelia-ssr -> sz-5")
    choose(game, "germans", "done")  # the turn ends (nothing to place): moves are reset
    kinds = {stack.split(":")[1]: n for stack, n in game.units("karelia-ssr").items()}
    assert kinds == {"infantry": 1}  # the bomber could not land there and is lost
    assert game.units("sz-5")[key("germans", "fighter", 4)] == 1  # landed on the carrier


def test_fighters_aboard_a_full_carrier_stay_and_only_those_beyond_its_room_are_lost() -> None:
    # Japan's setup has two fighters on its carrier in sz-37: a full carrier is no reason to
    # lose them at the end of non-combat move (it was, before this test).
    game = fresh()
    at(game, "japanese", "noncombat-move")
    assert game.units("sz-37")[key("japanese", "fighter", 4)] == 2
    choose(game, "japanese", "done")
    assert game.units("sz-37")[key("japanese", "fighter", 4)] == 2
    game = fresh()
    at(game, "germans", "noncombat-move")
    put(game, "sz-5", ("germans", "carrier", 1), ("germans", "fighter", 3), ("germans", "bomber", 1))
    game.land_aircraft()
    assert game.units("sz-5") == {key("germans", "carrier", 2): 1, key("germans", "fighter", 4): 2}


def buy_carrier_and_fly_to(game: AAGame, zone: str) -> None:
    """Germany buys a carrier; its fighter in germany flies (non-combat) to ``zone`` to await it."""
    at(game, "germans", "purchase")
    put(game, "germany", ("germans", "factory", 1), ("germans", "fighter", 1))
    put(game, "sz-5")
    put(game, "sz-14")
    choose(game, "germans", "buy carrier")
    choose(game, "germans", "done")
    choose(game, "germans", "done")  # no combat move
    assert game.d["phase"] == "noncombat-move"
    choose(game, "germans", f"move 1 fighter germany -> {zone}")
    choose(game, "germans", "done")
    assert game.d["phase"] == "mobilize"
    assert game.units(zone) == {key("germans", "fighter", 3): 1}  # it waits for its carrier


def test_a_fighter_awaits_a_carrier_bought_this_turn_in_the_zone_where_it_is_placed_lhtr() -> None:
    game = fresh()
    at(game, "germans", "noncombat-move")
    put(game, "germany", ("germans", "factory", 1), ("germans", "fighter", 1))
    put(game, "sz-5")
    assert "move 1 fighter germany -> sz-5" not in options(game)  # no carrier bought: no landing
    game = fresh()
    buy_carrier_and_fly_to(game, "sz-5")
    choose(game, "germans", "place carrier germany sz-5")  # the carrier goes under the fighter
    assert game.units("sz-5") == {key("germans", "carrier", 2): 1, key("germans", "fighter", 4): 1}


def test_a_fighter_whose_new_carrier_is_placed_elsewhere_is_lost_after_mobilize_lhtr() -> None:
    game = fresh()
    buy_carrier_and_fly_to(game, "sz-5")
    choose(game, "germans", "place carrier southern-europe sz-14")
    assert "sz-5" not in game.d["units"]  # the fighter had no carrier under it at the end
    assert game.units("sz-14") == {key("germans", "carrier", 2): 1}


def test_a_fighter_may_attack_counting_on_landing_on_a_carrier_bought_this_turn_lhtr() -> None:
    def attack_possible(buy: bool) -> bool:
        game = fresh()
        at(game, "germans", "purchase")
        for land in ("norway", "western-europe"):  # no friendly land one move from sz-6
            game.d["owner"][land] = "british"
            put(game, land)
        put(game, "germany", ("germans", "factory", 1))
        game.add("germany", key("germans", "fighter", 3))  # three moves left
        put(game, "sz-5")
        put(game, "sz-6", ("british", "destroyer", 1))
        if buy:
            choose(game, "germans", "buy carrier")
        choose(game, "germans", "done")
        assert game.d["phase"] == "combat-move"
        return "move 1 fighter germany -> sz-6" in options(game)

    assert not attack_possible(buy=False)  # two moves there, one left: nowhere to land
    assert attack_possible(buy=True)  # the new carrier will be placed in sz-5, one move from sz-6
