"""The variant's optional rules (S3:L248-250) in aa-aarhe: the new units bought, placed and moved,
heavy artillery's fire from next door declared in combat move, and the National Builds."""

from __future__ import annotations

import pytest
from tests.axis_allies.aarhe.helpers import at, fresh, profile
from tests.axis_allies.game_helpers import choose, options, put, roll

from grandstrategy.axis_allies.aarhe.combat.tables import tables
from grandstrategy.axis_allies.aarhe.optional import optional_tables
from grandstrategy.axis_allies.aarhe_battle import EXTRA_UNITS
from grandstrategy.axis_allies.game.engine import AAGame, key
from grandstrategy.axis_allies.game.invariants import conservation_problems, problems, unit_counts
from grandstrategy.core.errors import UserInputError

NEW_UNITS = ("heavy-artillery", "heavy-armour", "naval-fighter", "dive-bomber", "cruiser")


def buys(game: AAGame) -> set[str]:
    return {o.split()[1] for o in options(game) if o.startswith("buy ") and len(o.split()) == 2}


def test_the_optional_rules_are_off_unless_a_game_option_turns_them_on() -> None:
    # AH-O1: off by default (a game without them keeps its state); each option is a boolean
    game = fresh()
    assert "optional" not in game.d["aarhe"]
    assert not buys(game) & set(NEW_UNITS)
    assert not [o for o in options(game) if " as " in o]
    assert fresh(optional_units=True, national_attacks=True).d["aarhe"]["optional"] == [
        "optional_units",
        "national_attacks",
    ]
    with pytest.raises(UserInputError, match="optional_units must be true or false"):
        fresh(optional_units="yes")


def test_new_units_are_sold_at_their_table_price_and_the_heavy_ones_need_their_technology() -> None:
    # S3:L248 (cost, move, two hits for the heavy tank); S3:L238: H.ART and H.ARM need research
    game = fresh(optional_units=True)
    on_sale = buys(game)
    assert {"naval-fighter", "dive-bomber", "cruiser"} <= on_sale
    assert not {"heavy-artillery", "heavy-armour"} & on_sale
    stats = game.stats
    assert [(stats[u].cost, stats[u].movement) for u in NEW_UNITS] == [
        (5, 1),
        (8, 2),
        (8, 2),
        (8, 4),
        (15, 3),
    ]
    assert stats["heavy-armour"].hit_points == 2
    assert stats["naval-fighter"].carrier_cost == 1 and stats["dive-bomber"].carrier_cost == 0
    game.d["techs"]["russians"] = ["heavy-artillery"]
    assert "heavy-artillery" in buys(game) and "heavy-armour" not in buys(game)
    bank = game.d["bank"]["russians"]
    choose(game, "russians", "buy heavy-artillery")
    assert game.d["bank"]["russians"] == bank - 5 and game.d["purchased"] == {"heavy-artillery": 1}


def test_the_cruiser_takes_two_turns_and_new_units_are_placed_at_an_ic() -> None:
    # S3:L236: BB, CV and CA are mobilized the turn after their purchase
    game = fresh(optional_units=True)
    choose(game, "russians", "buy cruiser")
    choose(game, "russians", "buy naval-fighter")
    assert game.d["aarhe"]["building"] == {"russians": {"cruiser": 1}}
    assert game.d["purchased"] == {"naval-fighter": 1}
    at(game, "russians", "mobilize")
    game.d["purchased"] = {"naval-fighter": 1, "cruiser": 1}
    assert "place naval-fighter russia" in options(game)
    assert "place cruiser caucasus sz-16" in options(game)


def test_a_naval_fighter_rides_its_carrier_without_spending_moves() -> None:
    # S3:L248: a NAV need not take off before its carrier moves; it keeps its own moves
    game = fresh(optional_units=True)
    at(game, "americans", "combat-move")
    put(game, "sz-10", ("americans", "carrier", 1), ("americans", "naval-fighter", 2))
    put(game, "sz-11")
    choose(game, "americans", "move 1 carrier sz-10 -> sz-11")
    assert game.units("sz-11") == {
        key("americans", "carrier", 1): 1,
        key("americans", "naval-fighter", 2): 2,  # not launched: its own moves are whole
    }
    assert profile(game).naval_fighters(game)  # only they stay on carriers in sea battles
    assert not profile(fresh()).naval_fighters(fresh())


def test_heavy_artillery_is_declared_in_combat_move_and_fires_into_the_battle() -> None:
    # S3:L248: H.ART next to an attacked territory fires into it at -1 (3 - 1) and is never hit;
    # it spends its moves; the declaration ends with the combat phase (AH-C12)
    game = fresh(optional_units=True)
    at(game, "germans", "combat-move")
    game.d["aarhe"]["queue"] = [["germans", "second"]]
    put(game, "ukraine-ssr", ("germans", "infantry", 1), ("germans", "heavy-artillery", 1))
    put(game, "caucasus", ("russians", "infantry", 1))
    assert not [o for o in options(game) if o.startswith("shell")]  # no battle next door yet
    choose(game, "germans", "move 1 infantry ukraine-ssr -> caucasus")
    assert "shell caucasus from ukraine-ssr" in options(game)
    choose(game, "germans", "shell caucasus from ukraine-ssr")
    assert game.units("ukraine-ssr") == {key("germans", "heavy-artillery", 0): 1}
    assert not [o for o in options(game) if o.startswith("shell")]
    choose(game, "germans", "done")
    while game.to_act() == "russians":  # defensive air support: none offered or declined
        choose(game, "russians", "done")
    choose(game, "germans", "fight caucasus")
    labels = roll(game, 6, 6, 1)
    assert labels[-3:] == [
        "caucasus: germans infantry hits on 1 or less",
        "caucasus: germans heavy-artillery fires from next door, hits on 2 or less",
        "caucasus: defence infantry hits on 2 or less",
    ]
    assert game.units("ukraine-ssr") == {key("germans", "heavy-artillery", 0): 1}  # never hit
    assert game.d["phase"] == "noncombat-move"  # the attack died: the combat phase is over
    assert "aarhe_heavy_artillery" not in game.d


@pytest.mark.parametrize(
    ("power", "option", "place", "unit", "count"),
    [
        ("japanese", "buy 3 infantry at japan as patriotism", "japan", "infantry", 3),
        ("russians", "buy 2 armour at russia as t-34", "russia", "armour", 2),
        ("british", "buy 1 fighter at united-kingdom as spitfire", "united-kingdom", "fighter", 1),
    ],
)
def test_a_national_build_at_home_is_bought_once_a_turn_and_placed_there(
    power: str, option: str, place: str, unit: str, count: int
) -> None:
    # S3:L250: Japan 3 INF for 5, USSR 2 ARM for 8, UK 1 FTR for 8, once per turn, placed at home
    game = fresh(national_builds=True)
    at(game, power)
    game.d["bank"][power] = 30
    assert option in options(game)
    price = {"japanese": 5, "russians": 8, "british": 8}[power]
    before = unit_counts(game)
    choose(game, power, option)
    assert conservation_problems(before, unit_counts(game), f"{power}: {option}") == []
    assert game.d["bank"][power] == 30 - price
    assert not [o for o in options(game) if " as " in o]  # once per turn
    there = game.units(place).get(key(power, unit, game.stats[unit].movement), 0)
    game.d["phase"] = "mobilize"
    for _ in range(count):
        assert f"place national {unit} {place}" in options(game)
        choose(game, power, f"place national {unit} {place}")
    assert not [o for o in options(game) if "national" in o]
    assert game.units(place)[key(power, unit, game.stats[unit].movement)] == there + count
    assert not problems(game)


def test_type_vii_submarines_once_per_ic_and_no_surface_warships_there() -> None:
    # S3:L248: 1 SS per IC per turn for 6 IPCs, placed there, if no surface ships are bought there
    game = fresh(national_builds=True)
    at(game, "germans")
    game.d["bank"]["germans"] = 40
    subs = [o for o in options(game) if o.endswith("as type-vii")]
    assert subs == [
        "buy 1 submarine at germany as type-vii",
        "buy 1 submarine at southern-europe as type-vii",
    ]
    choose(game, "germans", "buy 1 submarine at germany as type-vii")
    choose(game, "germans", "buy destroyer")
    assert [o for o in options(game) if o.endswith("as type-vii")] == [
        "buy 1 submarine at southern-europe as type-vii"
    ]
    game.d["phase"] = "mobilize"
    placing = options(game)
    assert "place national submarine germany sz-5" in placing
    assert not [o for o in placing if o.startswith("place destroyer germany")]  # barred there
    assert [o for o in placing if o.startswith("place destroyer southern-europe")]


def test_the_essex_carrier_is_built_in_two_turns() -> None:
    # S3:L250: 1 CV per IC per turn for 14 IPCs; like every carrier it takes two turns (S3:L236)
    game = fresh(national_builds=True)
    at(game, "americans")
    game.d["bank"]["americans"] = 30
    choose(game, "americans", "buy 1 carrier at eastern-united-states as essex")
    assert game.d["bank"]["americans"] == 16
    assert game.d["aarhe"]["building"] == {"americans": {"carrier": 1}}
    assert "buy 1 carrier at western-united-states as essex" in options(game)  # once per IC


def test_a_national_build_that_cannot_be_placed_is_lost_at_the_end_of_mobilize() -> None:
    # AH-O3: placed only while the nation holds the place; else lost with the other purchases
    game = fresh(national_builds=True)
    at(game, "japanese")
    choose(game, "japanese", "buy 3 infantry at japan as patriotism")
    put(game, "japan")
    game.d["owner"]["japan"] = "americans"
    game.d["phase"] = "mobilize"
    game.settle()
    assert game.d["phase"] == "research"
    assert "national" not in game.d["aarhe_turn"] and not problems(game)


# ---- ID deployment (S3:L236) -----------------------------------------------------------------


def test_a_mobilized_id_lies_on_its_side_moves_in_noncombat_and_is_deployed_there() -> None:
    # S3:L236: on its side when mobilized; may move in non-combat move; once upright never moves
    game = fresh()
    at(game, "russians", "mobilize")
    game.d["purchased"] = {"aagun": 1}
    choose(game, "russians", "place aagun russia")
    assert game.d["aarhe"]["undeployed"] == {"russia": 1}
    at(game, "russians", "noncombat-move")
    put(game, "russia", ("russians", "aagun", 2))  # one upright, one on its side
    moving = [o for o in options(game) if o.startswith("move") and " aagun " in o]
    assert moving and all(o.startswith("move 1 aagun russia -> ") for o in moving)
    choose(game, "russians", "move 1 aagun russia -> caucasus")
    assert game.d["aarhe"]["undeployed"] == {"caucasus": 1}
    assert not [o for o in options(game) if o.startswith("move") and " aagun russia " in o]  # upright
    assert "deploy aagun at caucasus" in options(game)
    choose(game, "russians", "deploy aagun at caucasus")
    assert "undeployed" not in game.d["aarhe"]
    assert not [o for o in options(game) if " aagun " in o]


@pytest.mark.parametrize("deployed", [True, False])
def test_an_id_on_its_side_does_not_fire(deployed: bool) -> None:
    # S3:L236: before deployment an ID may not fire (S3:L244: a deployed one searches first)
    game = fresh()
    at(game, "germans", "combat-move")
    game.d["aarhe"]["queue"] = [["germans", "second"]]
    put(game, "ukraine-ssr", ("germans", "fighter", 1))
    put(game, "west-russia", ("russians", "infantry", 1), ("russians", "aagun", 1))
    if not deployed:
        game.d["aarhe"]["undeployed"] = {"west-russia": 1}
    choose(game, "germans", "move 1 fighter ukraine-ssr -> west-russia")
    choose(game, "germans", "done")
    while game.to_act() == "russians":
        choose(game, "russians", "done")
    choose(game, "germans", "fight west-russia")
    first = roll(game, 6)[0]
    if deployed:
        assert first == "west-russia: ID searches for a germans fighter, detects on 1 or less"
    else:
        assert first == "west-russia: germans fighter attacks a russians infantry, hits on 3 or less"


def test_the_new_unit_ids_agree_with_the_combat_table_and_the_odds_calculator() -> None:
    # one set of ids: the optional data, the variant's combat table, the odds calculator's copies;
    # none is a Revised unit, and each copies a Revised unit
    game = fresh()
    data = {u.id: u.template for u in optional_tables().units}
    combat = {u.module for u in tables().units.values() if u.role in ("HART", "HARM", "NAV", "DB", "CA")}
    assert set(data) == combat == set(EXTRA_UNITS)
    assert data == EXTRA_UNITS
    assert not set(data) & set(game.module.unit_types)
    assert set(data.values()) <= set(game.module.unit_types)
    for unit in data:  # the table's numbers agree with the battle machine's
        assert (game.stats[unit].attack, game.stats[unit].defence) == (
            tables().units[unit].attack,
            tables().units[unit].defence,
        )


def test_advanced_production_takes_two_off_the_cruiser() -> None:
    # S3:L238: DD, CA and BMR cost 2 less with Advanced Production (the cruiser is an optional unit)
    game = fresh(optional_units=True)
    game.d["techs"]["russians"] = ["advanced-production"]
    bank = game.d["bank"]["russians"]
    choose(game, "russians", "buy cruiser")
    assert game.d["bank"]["russians"] == bank - 13
    choose(game, "russians", "buy destroyer")
    assert game.d["bank"]["russians"] == bank - 13 - (game.stats["destroyer"].cost - 2)


def test_price_cuts_marked_optional_name_units_of_the_optional_rules() -> None:
    # the module check skips them (the Revised module lacks them), so they are checked here
    from grandstrategy.axis_allies.aarhe.tables import shipped_tables

    marked = {c.unit for c in shipped_tables().research.cheaper if c.optional}
    assert marked == {"cruiser"} and marked <= {u.id for u in optional_tables().units}


def test_the_dive_bomber_is_bought_for_8_and_placed_with_4_moves() -> None:
    # S3:L248: DB cost 8, move 4 (its dice: test_combat_land.py's dive bomber test)
    game = fresh(optional_units=True)
    bank = game.d["bank"]["russians"]
    choose(game, "russians", "buy dive-bomber")
    assert game.d["bank"]["russians"] == bank - 8 and game.d["purchased"] == {"dive-bomber": 1}
    at(game, "russians", "mobilize")
    game.d["purchased"] = {"dive-bomber": 1}
    choose(game, "russians", "place dive-bomber russia")
    assert game.units("russia")[key("russians", "dive-bomber", 4)] == 1


@pytest.mark.parametrize("optional_units", [True, False])
def test_with_the_optional_units_only_naval_fighters_land_on_carriers(optional_units: bool) -> None:
    # S3:L218, AH-O2: when the NAV is in play only it lands on carriers; off, fighters do (Revised)
    game = fresh(optional_units=optional_units)
    at(game, "americans", "noncombat-move")
    put(game, "sz-10", ("americans", "carrier", 1))
    put(game, "eastern-united-states", ("americans", "fighter", 1))
    landing = "move 1 fighter eastern-united-states -> sz-10" in options(game)
    assert landing is not optional_units
    if optional_units:
        put(game, "eastern-united-states", ("americans", "fighter", 1), ("americans", "naval-fighter", 1))
        assert "move 1 naval-fighter eastern-united-states -> sz-10" in options(game)
    # a fighter at sea does not ride the carrier away and is lost at the end of the move
    put(game, "sz-10", ("americans", "carrier", 1), ("americans", "fighter", 1))
    choose(game, "americans", "move 1 carrier sz-10 -> sz-11")
    assert (key("americans", "fighter", 4) in game.units("sz-10")) is optional_units
    choose(game, "americans", "done")
    assert not any(key("americans", "fighter", m) in game.units("sz-10") for m in range(5))
    assert any(key("americans", "fighter", m) in game.units("sz-11") for m in range(5)) is not optional_units


def test_with_the_optional_units_new_fighters_are_not_placed_on_carriers() -> None:
    # S3:L218: a new naval fighter may go onto a carrier next to its IC; a new fighter may not
    game = fresh(optional_units=True)
    at(game, "americans", "mobilize")
    put(game, "sz-10", ("americans", "carrier", 1))
    game.d["purchased"] = {"fighter": 1, "naval-fighter": 1}
    placing = set(options(game))
    assert "place naval-fighter eastern-united-states sz-10" in placing
    assert "place fighter eastern-united-states" in placing
    assert "place fighter eastern-united-states sz-10" not in placing


def test_an_allied_naval_fighter_aboard_the_attackers_carrier_fights() -> None:
    # S3:L248: a NAV is never cargo, so one riding an ally's carrier into a sea battle fights
    game = fresh(optional_units=True)
    at(game, "americans", "combat-move")
    game.d["aarhe"]["queue"] = [["americans", "second"]]
    put(game, "sz-10", ("americans", "carrier", 1), ("british", "naval-fighter", 1))
    put(game, "sz-11", ("japanese", "destroyer", 1))
    choose(game, "americans", "move 1 carrier sz-10 -> sz-11")
    assert game.units("sz-11")[key("british", "naval-fighter", 2)] == 1  # it rode along
    choose(game, "americans", "done")
    choose(game, "americans", "fight sz-11")
    labels = roll(game, 6, 6, 3)  # the destroyer's anti-air misses twice, then the air strike
    assert "sz-11: americans naval-fighter attacks a japanese destroyer, hits on 3 or less" in labels
    assert key("japanese", "destroyer", 2) not in game.units("sz-11")
    assert game.units("sz-11")[key("british", "naval-fighter", 2)] == 1
