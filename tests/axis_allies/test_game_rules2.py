"""The second slice of A&A Revised (LHTR 1.3) rules, through the engine with forced dice: carrier
cargo, partial retreats, submarines submerging and passing through, heavy bombers on defence, and
sea zones left shared by an undecided battle."""

from __future__ import annotations

from tests.axis_allies.game_helpers import at, choose, fresh, options, put, roll

from grandstrategy.axis_allies.game.engine import key
from grandstrategy.core.ids import CHANCE


def test_allied_fighters_ride_a_moving_carrier_as_cargo() -> None:
    game = fresh()
    at(game, "british", "noncombat-move")
    put(game, "sz-7", ("british", "carrier", 1), ("americans", "fighter", 2))
    put(game, "sz-6")
    choose(game, "british", "move 1 carrier sz-7 -> sz-6")
    # The American fighters cannot fly in Britain's turn; they go along with the carrier, moves untouched.
    assert game.units("sz-6") == {key("british", "carrier", 1): 1, key("americans", "fighter", 4): 2}
    assert game.units("sz-7") == {}


def test_a_departing_carrier_takes_only_the_fighters_the_staying_carrier_cannot_hold() -> None:
    game = fresh()
    at(game, "british", "noncombat-move")
    put(game, "sz-7", ("british", "carrier", 2), ("americans", "fighter", 2), ("british", "fighter", 2))
    put(game, "sz-6")
    choose(game, "british", "move 1 carrier sz-7 -> sz-6")
    assert game.units("sz-6") == {key("british", "carrier", 1): 1, key("americans", "fighter", 4): 2}
    assert game.units("sz-7") == {key("british", "carrier", 2): 1, key("british", "fighter", 4): 2}


def test_own_fighters_aboard_go_with_their_carrier_without_spending_moves() -> None:
    game = fresh()
    at(game, "british", "noncombat-move")
    put(game, "sz-7", ("british", "carrier", 1))
    game.add("sz-7", key("british", "fighter", 0))  # it has flown its whole move this turn
    put(game, "sz-6")
    choose(game, "british", "move 1 carrier sz-7 -> sz-6")
    assert game.units("sz-6") == {key("british", "carrier", 1): 1, key("british", "fighter", 0): 1}
    choose(game, "british", "done")
    assert game.units("sz-6")[key("british", "fighter", 4)] == 1  # landed: not lost at the end of the move


def test_amphibious_land_units_cannot_retreat_but_the_aircraft_can_withdraw() -> None:
    game = fresh()
    at(game, "british", "combat-move")
    put(game, "sz-6", ("british", "transport", 1), ("british", "infantry", 2))
    put(game, "united-kingdom", ("british", "fighter", 1))
    put(game, "western-europe", ("germans", "infantry", 3))
    choose(game, "british", "move 2 infantry sz-6 -> western-europe")
    choose(game, "british", "move 1 fighter united-kingdom -> western-europe")
    choose(game, "british", "done")
    choose(game, "british", "fight western-europe")
    roll(game, 6, 6, 6, 6, 6, 6)  # fighter, two infantry, three defending infantry: all miss
    assert options(game) == ["press attack", "retreat aircraft"]  # no retreat for the landed infantry
    choose(game, "british", "retreat aircraft")
    labels = roll(game, 6, 6, 6, 6, 6)  # round 2 without the fighter: 2 infantry against 3
    assert not any("fighter" in label for label in labels)
    assert game.to_act() == CHANCE  # nothing left that may retreat: round 3 follows without asking
    roll(game, 6, 6, 1, 1, 6)  # the defence kills both infantry
    assert game.d["battle"] is None and game.owner("western-europe") == "germans"
    assert game.units("western-europe")[key("british", "fighter", 2)] == 1  # back, to land in non-combat
    assert game.d["phase"] == "noncombat-move"


def test_overland_units_retreat_while_the_units_landed_from_the_sea_fight_on() -> None:
    game = fresh()
    at(game, "germans", "combat-move")
    put(game, "eastern-europe", ("germans", "infantry", 1))
    put(game, "sz-5", ("germans", "transport", 1), ("germans", "infantry", 1))
    put(game, "karelia-ssr", ("russians", "infantry", 2))
    choose(game, "germans", "move 1 infantry eastern-europe -> karelia-ssr")
    choose(game, "germans", "move 1 infantry sz-5 -> karelia-ssr")
    choose(game, "germans", "done")
    choose(game, "germans", "fight karelia-ssr")
    roll(game, 6, 6, 6, 6)
    assert options(game) == ["press attack", "retreat to eastern-europe"]
    choose(game, "germans", "retreat to eastern-europe")
    assert game.units("eastern-europe") == {key("germans", "infantry", 0): 1}
    assert game.units("karelia-ssr")[key("germans", "infantry", 0)] == 1
    labels = roll(game, 6, 6, 6)  # the landed infantry fights on against two
    assert len(labels) == 3 and game.to_act() == CHANCE


def test_attacking_submarines_may_submerge_before_the_first_round() -> None:
    game = fresh()
    at(game, "germans", "combat-move")
    put(game, "sz-5", ("germans", "submarine", 1), ("germans", "battleship", 1))
    put(game, "sz-6", ("british", "battleship", 1))
    choose(game, "germans", "move 1 submarine sz-5 -> sz-6")
    choose(game, "germans", "move 1 battleship sz-5 -> sz-6")
    choose(game, "germans", "done")
    choose(game, "germans", "fight sz-6")
    assert game.to_act() == "germans"
    assert options(game) == ["keep submarines in the battle", "submerge submarines"]
    choose(game, "germans", "submerge submarines")
    labels = roll(game, 4, 6)  # only the battleships fire
    assert ["battleship" in label for label in labels] == [True, True]
    choose(game, "british", "damage british battleship")
    choose(game, "germans", "retreat to sz-5")
    assert game.units("sz-5") == {key("germans", "battleship", 0): 1}
    assert game.units("sz-6")[key("germans", "submarine", 0)] == 1  # surfaced where it dived


def test_attacking_submarines_cannot_submerge_facing_a_destroyer() -> None:
    game = fresh()
    at(game, "germans", "combat-move")
    put(game, "sz-5", ("germans", "submarine", 1))
    put(game, "sz-6", ("british", "destroyer", 1))
    choose(game, "germans", "move 1 submarine sz-5 -> sz-6")
    choose(game, "germans", "done")
    choose(game, "germans", "fight sz-6")
    assert game.to_act() == CHANCE
    assert len(roll(game, 6, 6)) == 2


def test_submarines_pass_through_a_hostile_zone_without_a_destroyer() -> None:
    game = fresh()
    at(game, "germans", "combat-move")
    put(game, "sz-5", ("germans", "submarine", 1))
    put(game, "sz-6", ("british", "transport", 1), ("british", "battleship", 1))
    put(game, "sz-7", ("british", "transport", 1))
    choose(game, "germans", "move 1 submarine sz-5 -> sz-6")
    assert game.units("sz-6")[key("germans", "submarine", 1)] == 1  # not stopped
    assert "sz-6" in game.d["battles"]
    choose(game, "germans", "move 1 submarine sz-6 -> sz-7")
    assert game.d["battles"] == ["sz-7"]  # the zone passed through holds no battle
    choose(game, "germans", "done")
    assert options(game) == ["fight sz-7"]


def test_an_enemy_destroyer_stops_a_submarine() -> None:
    game = fresh()
    at(game, "germans", "combat-move")
    put(game, "sz-5", ("germans", "submarine", 1))
    put(game, "sz-6", ("british", "destroyer", 1))
    choose(game, "germans", "move 1 submarine sz-5 -> sz-6")
    assert game.units("sz-6")[key("germans", "submarine", 0)] == 1
    assert not any(o.startswith("move 1 submarine sz-6") for o in options(game))


def test_heavy_bombers_roll_one_die_on_defence_lhtr() -> None:
    game = fresh()
    game.d["techs"] = {"british": ["heavy-bombers"]}
    at(game, "germans", "combat-move")
    put(game, "western-europe", ("germans", "fighter", 1))
    put(game, "united-kingdom", ("british", "bomber", 1))
    choose(game, "germans", "move 1 fighter western-europe -> united-kingdom")
    choose(game, "germans", "done")
    choose(game, "germans", "fight united-kingdom")
    labels = roll(game, 6, 6)
    assert labels[1] == "united-kingdom: defence bomber hits on 1 or less"
    assert game.to_act() == "germans" and game.d["battle"]["stage"] == "retreat"  # no second die


def test_a_sea_zone_shared_after_an_undecided_battle_does_not_stop_the_game() -> None:
    game = fresh()
    at(game, "germans", "combat-move")
    # Left by an earlier battle whose submarine submerged: both sides in one zone, no battle open.
    put(game, "sz-6", ("germans", "submarine", 1), ("british", "transport", 1))
    put(game, "sz-5")
    choose(game, "germans", "done")  # nothing forces a battle there
    assert game.d["phase"] == "noncombat-move"
    at(game, "germans", "combat-move")
    choose(game, "germans", "move 1 submarine sz-6 -> sz-5")
    choose(game, "germans", "move 1 submarine sz-5 -> sz-6")  # the way to start a battle there
    choose(game, "germans", "done")
    choose(game, "germans", "fight sz-6")
    choose(game, "germans", "keep submarines in the battle")
    roll(game, 2)  # the submarine sinks the transport
    assert game.units("sz-6") == {key("germans", "submarine", 0): 1}
    put(game, "sz-7", ("germans", "submarine", 1), ("british", "transport", 1))  # another such zone
    at(game, "british", "mobilize")
    game.d["purchased"] = {"destroyer": 1}
    placements = game.place_options()
    assert "place destroyer united-kingdom sz-2" in placements  # mobilizing goes on elsewhere
    assert not any(o.endswith(("sz-6", "sz-7")) for o in placements)  # enemy submarines: no ships placed
