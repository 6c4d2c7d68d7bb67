"""The variant's special combats with forced dice (S3:L216-218, L230-232, L238, L244)."""

from __future__ import annotations

from tests.axis_allies.aarhe.combat_helpers import fresh
from tests.axis_allies.game_helpers import at, choose, options, put, roll

from grandstrategy.axis_allies.aarhe.combat.repair import repair
from grandstrategy.axis_allies.aarhe.combat.special import (
    declare_support,
    open_atomic,
    open_interdiction_attack,
    open_interdiction_rolls,
    open_overflight,
    open_strait_fire,
    open_transit_search,
    settle_retreats,
)
from grandstrategy.axis_allies.game.engine import AAGame, key


def answer(game: AAGame, power: str, option: str) -> None:
    """A choice during a move phase (the base invariants expect battles only in combat)."""
    assert game.to_act() == power and option in options(game), (game.to_act(), options(game))
    game.apply(game.legal_actions()[options(game).index(option)])


def test_strait_batteries_fire_two_dice_at_passing_ships_never_at_submarines() -> None:
    # S3:L232: Germany holds the strait between sea zones 5 and 6.
    game = fresh()
    at(game, "british", "combat-move")
    ships = [key("british", "destroyer", 0), key("british", "transport", 0), key("british", "submarine", 0)]
    put(game, "sz-5", ("british", "destroyer", 1), ("british", "transport", 1), ("british", "submarine", 1))
    game.d["units"]["sz-5"] = {s: 1 for s in ships}
    open_strait_fire(game, "germany", "sz-5", ships)
    assert options(game) == ["aim battery at british destroyer", "aim battery at british transport"]
    answer(game, "germans", "aim battery at british destroyer")
    answer(game, "germans", "aim battery at british transport")
    labels = roll(game, 3, 4)
    assert labels == [
        "sz-5: strait battery fires at a british destroyer, hits on 3 or less",
        "sz-5: strait battery fires at a british transport, hits on 3 or less",
    ]
    assert game.d["battle"] is None
    assert game.units("sz-5") == {key("british", "transport", 0): 1, key("british", "submarine", 0): 1}


def test_transit_search_at_minus_one_detects_on_2() -> None:
    # S3:L218: each destroyer may search once for a passing submarine, at -1.
    game = fresh()
    at(game, "british", "combat-move")
    put(game, "sz-5", ("germans", "destroyer", 2))
    open_transit_search(game, "sz-5", 1)
    assert options(game) == ["search for a passing submarine", "let it pass"]
    answer(game, "germans", "search for a passing submarine")
    answer(game, "germans", "let it pass")
    assert roll(game, 2) == ["sz-5: hunter seeks a passing submarine, detects on 2 or less"]
    assert game.d["aarhe_transit"] == {"zone": "sz-5", "detected": 1}
    assert game.d["battle"] is None


def test_overflight_fighters_intercept_like_ids() -> None:
    # S3:L216: fighters (not bombers) in a territory act as IDs against aircraft flying over.
    game = fresh()
    at(game, "germans", "combat-move")
    put(game, "ukraine-ssr", ("germans", "fighter", 2))
    put(game, "caucasus", ("russians", "fighter", 2), ("russians", "bomber", 1), ("russians", "infantry", 1))
    flyers = {key("germans", "fighter", 4): 2}
    open_overflight(game, "caucasus", "ukraine-ssr", flyers)
    labels = roll(game, 1, 1, 1, 2)  # two searches (the bomber does not intercept), then strikes
    assert labels[:2] == ["caucasus: ID searches for a germans fighter, detects on 1 or less"] * 2
    assert game.d["battle"] is None
    assert game.d["aarhe_overflight"] == {
        "survivors": {},
        "turned_back": {key("germans", "fighter", 4): 1},
    }
    assert game.units("ukraine-ssr") == {key("germans", "fighter", 4): 1}  # one shot down


def test_interdiction_dice_destroy_on_1_and_stop_on_2() -> None:
    # S3:L230: each moving unit rolls a die per interdicting bomber.
    game = fresh()
    at(game, "germans", "combat-move")
    put(game, "ukraine-ssr", ("germans", "infantry", 3))
    open_interdiction_rolls(game, "ukraine-ssr", {key("germans", "infantry", 1): 3}, 1)
    roll(game, 1, 2, 5)
    assert game.d["aarhe_interdiction"] == {
        "destroyed": {key("germans", "infantry", 1): 1},
        "stopped": {key("germans", "infantry", 1): 1},
    }
    assert game.units("ukraine-ssr") == {key("germans", "infantry", 1): 2}


def test_atomic_bomb_groups_by_ipc_over_3_and_kills_on_5() -> None:
    # S3:L238: Russia (8 IPC) splits into 2 groups; the attacker picks one; 5 or less destroys.
    game = fresh()
    at(game, "germans", "combat")
    put(game, "russia", ("russians", "infantry", 2), ("russians", "armour", 1))
    open_atomic(game, "russia")
    assert roll(game, 4) == ["russia: atomic bomb: the territory loses the die in income for good"]
    assert game.d["aarhe_atomic_loss"] == {"russia": 4}
    assert options(game) == ["put russians armour in group 1", "put russians armour in group 2"]
    answer(game, "russians", "put russians armour in group 1")
    answer(game, "russians", "put russians infantry in group 2")
    answer(game, "russians", "put russians infantry in group 2")
    answer(game, "germans", "strike group 2")
    assert roll(game, 5, 6) == ["russia: atomic blast at a russians infantry, destroys on 5 or less"] * 2
    assert game.units("russia") == {key("russians", "armour", 2): 1, key("russians", "infantry", 1): 1}


def test_defensive_air_support_joins_from_the_second_cycle_and_goes_home() -> None:
    # S3:L230: declared before combat; fights from cycle 2; returns to its territory.
    game = fresh()
    at(game, "germans", "combat-move")
    put(game, "ukraine-ssr", ("germans", "infantry", 2))
    put(game, "caucasus", ("russians", "infantry", 2))
    put(game, "kazakh-ssr", ("russians", "fighter", 1))
    declare_support(game, key("russians", "fighter", 4), "kazakh-ssr", "caucasus", 1)
    choose(game, "germans", "move 2 infantry ukraine-ssr -> caucasus")
    choose(game, "germans", "done")
    choose(game, "germans", "fight caucasus")
    roll(game, 6, 6, 6, 6)  # cycle 1: no aircraft anywhere
    choose(game, "germans", "press attack")
    choose(game, "russians", "hold")
    assert (
        game.chance_node().label == "caucasus: defence fighter attacks a germans infantry, hits on 4 or less"
    )
    roll(game, 1, 6, 6, 1)  # the fighter hits, the last German misses, a Russian hits
    assert game.d["battle"] is None
    assert game.units("kazakh-ssr") == {key("russians", "fighter", 4): 1}


def test_battleship_repaired_next_to_a_friendly_factory_only() -> None:
    # S3:L244: a damaged battleship is repaired in a sea zone next to a friendly IC or VC.
    game = fresh()
    put(game, "sz-7", ("british", "battleship", 1))
    game.d["units"]["sz-7"] = {key("british", "battleship", 2, 1): 1}
    put(game, "sz-45", ("british", "battleship", 1))
    game.d["units"]["sz-45"] = {key("british", "battleship", 2, 1): 1}
    assert repair(game, "british") == ["sz-7"]
    assert game.units("sz-7") == {key("british", "battleship", 2): 1}
    assert game.units("sz-45") == {key("british", "battleship", 2, 1): 1}


def test_heavy_tank_repaired_in_a_friendly_territory_with_a_factory() -> None:
    # S3:L248: a damaged heavy tank is repaired at a friendly territory with an IC or VC.
    game = fresh()
    put(game, "germany", ("germans", "factory", 1))
    game.add("germany", key("germans", "heavy-armour", 2, 1))
    put(game, "ukraine-ssr")
    game.add("ukraine-ssr", key("germans", "heavy-armour", 2, 1))
    assert repair(game, "germans", ships=False) == ["germany"]
    assert game.units("germany")[key("germans", "heavy-armour", 2)] == 1
    assert game.units("ukraine-ssr") == {key("germans", "heavy-armour", 2, 1): 1}


def test_units_retreating_into_a_territory_lost_in_the_combat_phase_are_lost() -> None:
    # S3:L222: a retreat into a territory that changes hands by the end of the combat phase
    # loses the retreating units.
    game = fresh()
    at(game, "germans", "combat-move")
    put(game, "ukraine-ssr", ("germans", "armour", 1))
    put(game, "caucasus", ("russians", "infantry", 1))
    put(game, "kazakh-ssr")
    choose(game, "germans", "move 1 armour ukraine-ssr -> caucasus")
    choose(game, "germans", "done")
    choose(game, "germans", "fight caucasus")
    roll(game, 6, 6)
    choose(game, "germans", "press attack")
    choose(game, "russians", "retreat to kazakh-ssr")
    roll(game, 6)  # the one excess tank's capture die misses
    assert game.units("kazakh-ssr") == {key("russians", "infantry", 0): 1}
    assert settle_retreats(game) == []  # still Russian: they stay
    game.d["aarhe_retreats"] = [["kazakh-ssr", key("russians", "infantry", 0), 1]]
    game.d["owner"]["kazakh-ssr"] = "germans"
    assert settle_retreats(game) == ["kazakh-ssr"]
    assert "kazakh-ssr" not in game.d["units"]


def test_air_interdiction_bombers_attack_one_cycle_in_the_enemy_turn_and_return() -> None:
    # S3:L230: in Germany's turn a British bomber attacks Western Europe (no German aircraft there)
    # for one cycle; the victory city's ID fires at it once; it flies back.
    game = fresh()
    at(game, "germans", "combat-move")
    put(game, "united-kingdom", ("british", "bomber", 1))
    put(game, "western-europe", ("germans", "infantry", 2))
    bomber = key("british", "bomber", 6)
    open_interdiction_attack(game, "british", "united-kingdom", "western-europe", {bomber: 1})
    labels = roll(game, 6, 4)
    assert labels == [
        "western-europe: ID searches for a british bomber, detects on 1 or less",
        "western-europe: british bomber bombs, hits on 4 or less",
    ]
    assert game.d["battle"] is None
    assert game.units("western-europe") == {key("germans", "infantry", 1): 1}
    assert game.units("united-kingdom") == {bomber: 1}


def test_aircraft_on_defensive_air_support_do_not_intercept() -> None:
    # S3:L216: not while performing Defensive Air Support this turn.
    game = fresh()
    at(game, "germans", "combat-move")
    put(game, "ukraine-ssr", ("germans", "fighter", 1))
    put(game, "caucasus", ("russians", "fighter", 2))
    declare_support(game, key("russians", "fighter", 4), "caucasus", "russia", 1)
    open_overflight(game, "caucasus", "ukraine-ssr", {key("germans", "fighter", 4): 1})
    assert roll(game, 6) == ["caucasus: ID searches for a germans fighter, detects on 1 or less"]
    assert game.d["battle"] is None  # one search only: the other fighter is busy
