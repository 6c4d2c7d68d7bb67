"""The variant's combat wired into the variant's game: a ``fight`` in aa-aarhe runs the
Historical Edition's cycle (S3:L218-224), its two-hit units repair at the start of a turn
(S3:L244, L248), retreats settle when the combat phase ends (S3:L222, L226), and the heuristic
bot's policy reads the variant's battle options."""

from __future__ import annotations

from tests.axis_allies.aarhe.helpers import at, fresh
from tests.axis_allies.game_helpers import choose, options, put, roll

from grandstrategy.axis_allies.aarhe import turns
from grandstrategy.axis_allies.aarhe.overflight import intercepting_place
from grandstrategy.axis_allies.game.board import split
from grandstrategy.axis_allies.game.engine import AAGame, key
from grandstrategy.axis_allies.game.invariants import problems
from grandstrategy.axis_allies.game.policy import choose as policy_choose


def _attack_caucasus(support: str = "done") -> AAGame:
    """Germany's second half of the turn: a fighter and 2 infantry against a fighter, an
    infantry and an ID (plus the victory city's built-in ID) in the Caucasus; Moscow's fighter
    next door may support its defence (``support``: the Soviet answer)."""
    game = fresh()
    at(game, "germans", "combat-move")
    game.d["aarhe"]["queue"] = [["germans", "second"]]
    put(game, "ukraine-ssr", ("germans", "fighter", 1), ("germans", "infantry", 2))
    put(game, "caucasus", ("russians", "fighter", 1), ("russians", "infantry", 1), ("russians", "aagun", 1))
    choose(game, "germans", "move 1 fighter ukraine-ssr -> caucasus")
    choose(game, "germans", "move 2 infantry ukraine-ssr -> caucasus")
    choose(game, "germans", "done")
    # S3:L230: before any combat the defence may declare Defensive Air Support
    assert options(game) == ["support caucasus with 1 fighter from russia", "done"]
    choose(game, "russians", support)
    assert (game.power, game.d["phase"], options(game)) == ("germans", "combat", ["fight caucasus"])
    return game


def test_a_fight_in_the_variant_runs_its_land_cycle_and_counts_the_cycle() -> None:
    # S3:L244-246: the IDs search first; S3:L218-220: with aircraft on both sides they dogfight;
    # then the main fire at the variant's values; S3:L216: the cycle counts for interruption
    game = _attack_caucasus()
    choose(game, "germans", "fight caucasus")
    assert game.d["battle"]["machine"] == "aarhe"
    assert roll(game, 6, 6, 1, 6) == [
        *["caucasus: ID searches for a germans fighter, detects on 1 or less"] * 2,
        "caucasus: germans fighter dogfights, hits on 2 or less",
        "caucasus: defence fighter dogfights, hits on 3 or less",
    ]
    assert key("russians", "fighter", 4) not in game.units("caucasus")  # the dogfight hit
    assert roll(game, 1, 6, 6) == [
        *["caucasus: germans infantry hits on 1 or less"] * 2,
        "caucasus: defence infantry hits on 2 or less",
    ]
    assert game.d["battle"] is None and game.owner("caucasus") == "germans"
    assert game.d["aarhe"]["cycles"] == {"caucasus": 1}
    assert game.d["phase"] == "noncombat-move" and not problems(game)


def test_the_heuristic_policy_answers_the_variants_battle_questions() -> None:
    # the bot fights the variant's battle to its end on its own options (no base-battle stage)
    game = _attack_caucasus()
    choose(game, "germans", "fight caucasus")
    faces = iter([6, 6, 6, 6, 1, 1, 6] + [6] * 200)
    while game.d["battle"] is not None:
        who = game.to_act()
        if isinstance(who, str):
            choose(game, who, policy_choose(game, who, options(game)))
        else:
            roll(game, next(faces))
    assert game.owner("caucasus") == "germans" and not problems(game)


def test_a_damaged_battleship_and_carrier_are_repaired_when_their_turn_begins() -> None:
    # S3:L244, L248: two-hit ships next to a friendly IC stand upright at the start of the turn;
    # the variant's profile gives carriers two hits, so a damaged carrier breaks no invariant
    game = fresh()
    assert game.stats["carrier"].hit_points == 2 and not game.profile.repairs_at_end_of_turn()
    put(game, "sz-5", ("germans", "battleship", 1))
    game.add("sz-5", key("germans", "carrier", 2, 1))
    game.add("sz-5", key("germans", "battleship", 2, 1))
    game.add("sz-5", key("germans", "battleship", 2, 0), -1)
    assert not problems(game)
    turns.begin_turn(game, "germans")
    assert game.units("sz-5") == {key("germans", "battleship", 2, 0): 1, key("germans", "carrier", 2, 0): 1}
    assert "damaged units repaired at sz-5" in game.d["log"][-1]


def test_a_retreat_into_a_place_lost_meanwhile_is_lost_when_combat_ends() -> None:
    # S3:L222, L226: units that retreated into a territory their side no longer holds are lost
    # once the combat phase is over
    game = fresh()
    at(game, "germans", "combat-move")
    game.d["aarhe"]["queue"] = [["germans", "second"]]
    put(game, "ukraine-ssr", ("russians", "infantry", 2))
    game.d["owner"]["ukraine-ssr"] = "germans"
    game.d["aarhe_retreats"] = [["ukraine-ssr", key("russians", "infantry", 1), 2]]
    choose(game, "germans", "done")  # no battles: the combat phase ends at once
    assert game.d["phase"] == "noncombat-move"
    assert game.units("ukraine-ssr") == {}
    assert "aarhe_retreats" not in game.d


def test_ships_passing_a_held_strait_draw_its_fire_once_per_move_phase() -> None:
    # S3:L232: Germany holds the strait between sea zones 5 and 6: 2 dice at passing ships, hit
    # on 3 or less, once per territory and move phase; submarines are never fired at
    game = fresh()
    at(game, "british", "combat-move")
    put(game, "sz-5")
    put(game, "sz-6", ("british", "destroyer", 2), ("british", "submarine", 1))
    choose(game, "british", "move 1 submarine sz-6 -> sz-5")
    assert game.d["battle"] is None  # a submarine passes unseen
    choose(game, "british", "move 1 destroyer sz-6 -> sz-5")
    assert game.d["battle"]["kind"] == "strait" and game.d["phase"] == "combat-move"
    labels = roll(game, 3, 4)
    assert labels == ["sz-5: strait battery fires at a british destroyer, hits on 3 or less"] * 2
    assert game.d["battle"] is None and not problems(game)
    assert not any(split(s)[1] == "destroyer" for s in game.units("sz-5"))  # the 3 sank it
    choose(game, "british", "move 1 destroyer sz-6 -> sz-5")
    assert game.d["battle"] is None  # Germany's 2 dice of this phase are spent
    assert game.units("sz-5")[key("british", "destroyer", 1)] == 1


def test_a_base_battle_open_in_a_move_phase_is_a_broken_invariant() -> None:
    # only the special combats (strait fire) may be open during movement
    game = fresh()
    at(game, "british", "combat-move")
    game.d["battle"] = {"machine": "aarhe", "where": "sz-5", "dice": [], "ask": None}
    assert "a battle is open in phase combat-move" in problems(game)


def test_declared_defensive_air_support_joins_from_the_second_cycle_and_flies_home() -> None:
    # S3:L230: declared before combat; fights from the 2nd cycle; returns to its origin
    game = _attack_caucasus("support caucasus with 1 fighter from russia")
    fighter = key("russians", "fighter", 4)
    assert game.units("russia")[fighter] == 1  # it stays home during the first cycle
    choose(game, "germans", "fight caucasus")
    first = roll(game, 6, 6, 6, 6, 6, 6, 6)
    assert first.count("caucasus: defence fighter dogfights, hits on 3 or less") == 1
    choose(game, "germans", "press attack")
    choose(game, "russians", "hold")
    assert game.units("caucasus")[fighter] == 2 and fighter not in game.units("russia")
    second = roll(game, 6, 6, 6, 6, 6, 6, 6, 6)
    assert second.count("caucasus: defence fighter dogfights, hits on 3 or less") == 2
    choose(game, "germans", "retreat to ukraine-ssr")
    assert game.d["battle"] is None and not problems(game)
    assert game.units("russia")[fighter] == 1 and game.units("caucasus")[fighter] == 1


def test_a_flight_over_enemy_fighters_is_intercepted_and_the_survivors_fly_on() -> None:
    # S3:L216: in combat move, enemy fighters in a territory flown over act as IDs against the
    # flight (search, then 1 destroys, 2 turns back); the flight takes a path past them if any
    game = fresh()
    at(game, "germans", "combat-move")
    put(game, "belorussia", ("germans", "fighter", 2), ("germans", "infantry", 1))
    put(game, "west-russia", ("russians", "fighter", 1), ("russians", "infantry", 1))
    assert intercepting_place(game, "belorussia", "russia") == "west-russia"  # the only way
    assert intercepting_place(game, "belorussia", "caucasus") is None  # past Ukraine instead
    choose(game, "germans", "move 2 fighter belorussia -> russia")
    assert game.d["battle"]["kind"] == "overflight"
    assert roll(game, 1, 1) == [
        "west-russia: ID searches for a germans fighter, detects on 1 or less",
        "west-russia: ID fires at a germans fighter: 1 hits, 2 forces a retreat",
    ]
    assert game.d["battle"] is None and not problems(game)
    assert game.units("russia")[key("germans", "fighter", 2)] == 1  # the survivor arrived
    assert not any(split(s)[1] == "fighter" for s in game.units("belorussia"))
    assert game.d["battles"] == ["russia"]


def test_an_intercepted_fighter_turned_back_stays_at_its_origin_without_moves() -> None:
    game = fresh()
    at(game, "germans", "combat-move")
    put(game, "belorussia", ("germans", "fighter", 1), ("germans", "infantry", 1))
    put(game, "west-russia", ("russians", "fighter", 1), ("russians", "infantry", 1))
    choose(game, "germans", "move 1 fighter belorussia -> russia")
    roll(game, 1, 2)  # detected, then a 2: turned back
    assert game.d["battle"] is None and not problems(game)
    assert game.units("belorussia")[key("germans", "fighter", 0)] == 1
    assert "russia" not in game.d["battles"]


def _sub_into_a_destroyers_zone(face: int) -> AAGame:
    game = fresh()
    at(game, "germans", "combat-move")
    put(game, "sz-5", ("germans", "submarine", 1))
    put(game, "sz-6", ("british", "destroyer", 1))
    put(game, "sz-7")
    choose(game, "germans", "move 1 submarine sz-5 -> sz-6")
    assert game.d["battle"]["kind"] == "transit"
    choose(game, "british", "search for a passing submarine")
    assert roll(game, face) == ["sz-6: hunter seeks a passing submarine, detects on 2 or less"]
    assert game.d["battle"] is None and not problems(game)
    return game


def test_a_submarine_detected_in_transit_must_stop_and_fight() -> None:
    # S3:L218: each destroyer may search at -1 (3 - 1 = 2); a detected submarine stops there
    game = _sub_into_a_destroyers_zone(2)
    assert game.units("sz-6")[key("germans", "submarine", 0)] == 1
    assert not [o for o in options(game) if o.startswith("move 1 submarine sz-6")]
    assert game.d["battles"] == ["sz-6"]


def test_an_undetected_submarine_may_move_on_through_the_hostile_zone() -> None:
    # S3:L218: undetected, it may go on (or stay and fight)
    game = _sub_into_a_destroyers_zone(3)
    assert game.units("sz-6")[key("germans", "submarine", 1)] == 1
    choose(game, "germans", "move 1 submarine sz-6 -> sz-7")
    assert game.units("sz-7") == {key("germans", "submarine", 0): 1}
    assert game.d["battles"] == [] and not problems(game)
