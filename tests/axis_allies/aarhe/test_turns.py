"""The variant's sequence of play: team turns, the phases in order, purchase, income (S3:L206-216)."""

from __future__ import annotations

from tests.axis_allies.aarhe.helpers import (
    at,
    choose,
    decline_interdiction,
    fresh,
    options,
    profile,
    roll,
    write_convoys,
)
from tests.axis_allies.game_helpers import put

from grandstrategy.axis_allies.aarhe import economy, turns
from grandstrategy.axis_allies.game.engine import key
from grandstrategy.axis_allies.game.invariants import problems


def finish_first_half(game, power: str) -> None:  # type: ignore[no-untyped-def]
    """Buy nothing, collect income, make no combat move."""
    choose(game, power, "done")
    decline_interdiction(game)  # the enemy's bombers stay home (S3:L230)
    assert game.d["phase"] == "combat-move" and game.power == power
    choose(game, power, "done")


def test_round_one_is_the_soviet_unions_alone_then_the_axis_team() -> None:
    # S3:L206: 1st round only the Soviet Union; then Germany, Japan; then USSR, UK, US
    game = fresh()
    assert game.phase() == "round 1 russians purchase"
    finish_first_half(game, "russians")
    assert game.power == "russians" and game.d["phase"] == "noncombat-move"  # no battles to fight
    choose(game, "russians", "done")  # non-combat move; nothing to mobilize
    choose(game, "russians", "done")  # research
    choose(game, "russians", "done")  # diplomacy
    assert (game.d["round"], game.power, game.d["phase"]) == (2, "germans", "purchase")


def test_no_combat_until_every_team_member_has_finished_combat_move() -> None:
    # S3:L206-208: the team barrier; Japan moves before Germany fights
    game = fresh()
    at(game, "germans", "combat-move")
    game.d["aarhe"]["queue"] = [["japanese", "first"], ["germans", "second"], ["japanese", "second"]]
    put(game, "karelia-ssr", ("russians", "infantry", 1))
    put(game, "norway", ("germans", "infantry", 1))
    choose(game, "germans", "move 1 infantry norway -> karelia-ssr")
    choose(game, "germans", "done")
    assert (game.power, game.d["phase"]) == ("japanese", "purchase")
    assert game.d["aarhe"]["waiting"]["germans"]["battles"] == ["karelia-ssr"]
    assert not problems(game)  # both sides in Karelia while Germany's battle waits
    finish_first_half(game, "japanese")
    assert (game.power, game.d["phase"]) == ("germans", "combat")
    assert options(game) == ["fight karelia-ssr"]


def test_purchase_comes_before_income_and_is_paid_from_the_bank() -> None:
    # S3:L208: 1 purchase, 2 collect income
    game = fresh()
    bank = game.d["bank"]["russians"]
    choose(game, "russians", "buy infantry at russia")
    assert game.d["bank"]["russians"] == bank - 2
    choose(game, "russians", "done")
    assert game.d["phase"] == "combat-move"
    assert game.d["bank"]["russians"] == bank - 2 + 24  # the Soviet territories' 24 IPCs


def test_infantry_per_vc_is_capped_by_its_points_and_placed_there() -> None:
    # S3:L236: infantry mobilize at the VC, at most its VCP a turn
    game = fresh()
    game.d["bank"]["russians"] = 50
    choose(game, "russians", "buy infantry at archangel")
    assert "buy infantry at archangel" not in options(game)  # Archangel is worth 1 VCP
    for _ in range(6):
        choose(game, "russians", "buy infantry at russia")
    assert "buy infantry at russia" not in options(game)
    assert game.d["bank"]["russians"] == 50 - 3 - 6 * 2  # Archangel is connected to Moscow: 3


def test_battleships_and_carriers_take_two_turns() -> None:
    # S3:L236: mobilized on the turn after the purchase
    game = fresh()
    choose(game, "russians", "buy battleship")
    assert game.d["purchased"] == {} and game.d["aarhe"]["building"] == {"russians": {"battleship": 1}}
    at(game, "russians")
    assert game.d["purchased"] == {"battleship": 1} and game.d["aarhe"]["building"] == {}


def test_an_ic_may_spend_four_times_its_territorys_income() -> None:
    # S3:L236: Caucasus (4 IPCs) takes at most 16 IPCs of units a turn
    game = fresh()
    at(game, "russians", "mobilize")
    game.d["purchased"] = {"armour": 4}
    assert "place armour caucasus" in options(game)
    for _ in range(3):
        choose(game, "russians", "place armour caucasus")
    assert game.d["aarhe_turn"]["spent"]["caucasus"] == 15
    assert "place armour caucasus" not in options(game)  # 15 + 5 > 16
    assert "place armour russia" in options(game)


def test_scorched_ic_is_removed_at_mobilize_and_builds_nothing() -> None:
    # S3:L212, L236
    game = fresh()
    choose(game, "russians", "buy armour")
    choose(game, "russians", "scorch caucasus")
    game.d["phase"] = "noncombat-move"
    choose(game, "russians", "done")
    assert not game.factories("caucasus")
    assert options(game) == ["place armour russia"]


def test_territories_cut_off_from_the_capital_are_forfeited() -> None:
    # S3:L214: Belorussia, ringed by Soviet land, has no passable path to Berlin
    game = fresh()
    for t in ("eastern-europe", "ukraine-ssr", "west-russia"):
        game.d["owner"][t] = "russians"
    routes = economy.income_routes(game, profile(game).tables, "germans")
    assert routes["belorussia"] is None and routes["germany"] == ()
    assert routes["norway"] == ("sz-3", "sz-6")  # now only by sea: a convoy
    for zone in game.module.territories:
        if game.is_sea(zone):
            game.d["units"].pop(zone, None)
    at(game, "germans", "income")
    bank = game.d["bank"]["germans"]
    game.settle()
    write_convoys(game)
    decline_interdiction(game)  # Norway's convoy: the safest route, written down
    owned = sum(game.module.territories[t].ipc or 0 for t, o in game.d["owner"].items() if o == "germans")
    assert game.d["bank"]["germans"] == bank + owned - 2  # Belorussia's 2 lost


def test_territories_that_changed_hands_since_the_last_income_give_nothing() -> None:
    # S3:L208
    game = fresh()
    at(game, "germans", "income")
    game.settle()
    write_convoys(game)
    at(game, "germans", "income")
    game.d["owner"]["karelia-ssr"] = "germans"
    bank = game.d["bank"]["germans"]
    game.settle()
    write_convoys(game)
    assert game.d["bank"]["germans"] == bank + 40


def test_a_convoy_past_enemy_warships_loses_an_ipc_per_hit() -> None:
    # S3:L214: each enemy warship on the route rolls, 3 or less sinks 1 IPC
    game = fresh()
    for zone in game.module.territories:
        if game.is_sea(zone):
            game.d["units"].pop(zone, None)
    for zone in ("sz-38", "sz-39", "sz-40", "sz-46"):  # around Australia
        put(game, zone, ("japanese", "submarine", 1))
    at(game, "british", "income")
    game.settle()
    write_convoys(game)
    while game.d["battle"] is not None and game.d["battle"].get("kind") == "convoy-route":
        choose(game, "british", options(game)[0])  # the safest route, written down in secret
    assert game.d["phase"] == "combat-move"  # nothing sails yet: the attack waits for the next income
    at(game, "british", "income")
    bank = game.d["bank"]["british"]
    game.settle()
    write_convoys(game)
    assert len(game.d["battle"]["dice"]) == 1  # the safest route passes one submarine
    labels = roll(game, 3)
    while game.d["battle"] is not None and game.d["battle"].get("kind") == "convoy-route":
        choose(game, "british", options(game)[0])
    assert "sz-38 attacks british's convoy: hits on 3 or less" in labels[0]
    uk_safe = sum(
        game.module.territories[t].ipc or 0
        for t, route in economy.income_routes(game, profile(game).tables, "british").items()
        if route == ()
    )
    assert game.d["bank"]["british"] == bank + 30 - 1 and uk_safe < 30
    assert game.d["phase"] == "combat-move"


def test_stalinist_xenophobia_keeps_britain_out_of_soviet_land_until_moscow_falls() -> None:
    # S3:L218, L234
    game = fresh()
    p = profile(game)
    at(game, "british", "noncombat-move")
    assert not p.may_enter(game, "infantry", "persia", "caucasus", combat=False)
    assert not p.may_enter(game, "infantry", "karelia-ssr", "belorussia", combat=True)
    assert p.may_enter(game, "infantry", "persia", "trans-jordan", combat=False)
    game.d["owner"]["russia"] = "germans"
    p.note_captures(game)
    assert p.may_enter(game, "infantry", "persia", "caucasus", combat=False)


def test_japanese_units_may_not_join_german_ones() -> None:
    # S3:L218: before the Allies take Japan or Germany
    game = fresh()
    p = profile(game)
    put(game, "libya", ("germans", "armour", 1))
    at(game, "japanese", "noncombat-move")
    assert not p.may_enter(game, "fighter", "french-indochina", "libya", combat=False)
    game.d["owner"]["japan"] = "americans"
    p.note_captures(game)
    assert p.may_enter(game, "fighter", "french-indochina", "libya", combat=False)


def test_miniature_territories_hold_three_units_of_a_team() -> None:
    # S3:L246
    game = fresh()
    put(game, "gibraltar", ("british", "infantry", 3))
    at(game, "british", "noncombat-move")
    assert not profile(game).may_enter(game, "infantry", "sz-13", "gibraltar", combat=False)


def test_land_units_stop_on_entering_mountains() -> None:
    # S3:L218: Persia is mountainous
    game = fresh()
    game.d["aarhe"]["russia_fallen"] = True
    at(game, "british", "noncombat-move")
    put(game, "trans-jordan", ("british", "armour", 1))
    put(game, "persia")
    choose(game, "british", "move 1 armour trans-jordan -> persia")
    assert game.units("persia") == {key("british", "armour", 0): 1}


def test_balkans_touch_turkey_and_the_black_sea_needs_turkey() -> None:
    # S3:L218, L234
    game = fresh()
    assert "turkey" in game.module.territories["balkans"].neighbours
    assert "balkans" in game.module.territories["turkey"].neighbours
    at(game, "russians", "combat-move")
    assert not game.canal_open("sz-16", "sz-15") and not game.canal_open("sz-14", "sz-16")
    assert game.canal_open("sz-14", "sz-15")


def test_capital_in_enemy_hands_skips_research_and_diplomacy() -> None:
    # S3:L208
    game = fresh()
    game.d["owner"]["united-kingdom"] = "germans"
    put(game, "united-kingdom")
    at(game, "british", "research")
    assert options(game) == ["done"]
    choose(game, "british", "done")
    assert game.power != "british" and game.d["phase"] == "purchase"  # no diplomacy either


def test_turn_records_of_a_waiting_team_mate_are_counted() -> None:
    game = fresh()
    at(game, "germans")
    choose(game, "germans", "buy armour")
    game.d["aarhe"]["queue"] = [["japanese", "first"], ["germans", "second"]]
    choose(game, "germans", "done")
    decline_interdiction(game)
    choose(game, "germans", "done")
    assert game.power == "japanese"
    assert list(turns.aside_units(game)) == [("germans", "armour", 1)]


def no_ships(game) -> None:  # type: ignore[no-untyped-def]
    for zone in game.module.territories:
        if game.is_sea(zone):
            game.d["units"].pop(zone, None)


def test_desert_upkeep_is_paid_from_income() -> None:
    # S3:L216: 1 IPC a unit in the desert (Sahara)
    game = fresh()
    no_ships(game)
    put(game, "sahara", ("germans", "infantry", 2), ("germans", "armour", 1))
    at(game, "germans", "income")
    bank = game.d["bank"]["germans"]
    game.settle()
    write_convoys(game)
    assert game.d["bank"]["germans"] == bank + 40 - 3


def test_three_combat_cycles_interrupt_production() -> None:
    # S3:L216: Karelia (2 IPCs) fought over for 3 cycles loses 1; Underground Factory is immune
    game = fresh()
    no_ships(game)
    battle = {"where": "karelia-ssr", "round": 2}
    assert not profile(game).after_dice(game, battle)  # a base battle goes on
    battle["round"] = 3
    profile(game).after_dice(game, battle)
    profile(game).after_dice(game, battle)  # the same cycle counts once
    assert game.d["aarhe"]["cycles"] == {"karelia-ssr": 3}
    at(game, "russians", "income")
    bank = game.d["bank"]["russians"]
    game.settle()
    write_convoys(game)
    assert game.d["bank"]["russians"] == bank + 24 - 1 and game.d["aarhe"]["cycles"] == {}
    game.d["aarhe"]["cycles"] = {"karelia-ssr": 3}
    game.d["techs"]["russians"] = ["underground-factory"]
    at(game, "russians", "income")
    bank = game.d["bank"]["russians"]
    game.settle()
    write_convoys(game)
    assert game.d["bank"]["russians"] == bank + 24


def test_stored_ipcs_are_spent_only_where_a_path_leads_from_the_capital() -> None:
    # S3:L214: China, landlocked, is reached from Washington over allied land and the sea until
    # Japan takes Sinkiang, its last allied neighbour
    game = fresh()
    assert economy.spend_reachable(game, "americans", "china")
    game.d["owner"]["sinkiang"] = "japanese"
    assert not economy.spend_reachable(game, "americans", "china")
    assert economy.spend_reachable(game, "americans", "western-united-states")


def test_allied_land_the_soviets_liberate_stays_soviet() -> None:
    # S3:L218, L234: green and tan territories liberated by the USSR come under its control
    game = fresh()
    game.d["owner"]["persia"] = "germans"
    put(game, "persia")
    at(game, "russians", "combat")
    game.capture("persia", "russians")
    assert game.owner("persia") == "russians"
    at(game, "americans", "combat")
    game.d["owner"]["persia"] = "germans"
    game.capture("persia", "americans")
    assert game.owner("persia") == "british"  # an ally other than the USSR liberates as Revised


def test_a_battle_a_team_mate_already_won_is_called_off() -> None:
    # the team barrier: the USSR takes Manchuria first; the US's waiting attack there ends
    game = fresh()
    put(game, "manchuria", ("russians", "infantry", 1), ("americans", "infantry", 1))
    game.d["owner"]["manchuria"] = "russians"
    at(game, "americans", "combat-move")
    game.d["battles"] = ["manchuria"]
    game.d["aarhe"]["queue"] = [["americans", "second"]]
    turns.set_aside(game)
    turns.next_step(game, profile(game).tables)
    assert (game.power, game.d["phase"], game.d["battles"]) == ("americans", "combat", [])
    assert game.owner("manchuria") == "russians" and not problems(game)


def test_economic_attacks_cut_the_next_income_and_a_capitals_excess_comes_off_the_bank() -> None:
    # S3:L230: the United Kingdom (8 IPCs) takes 11 damage: its next income 0, 3 stored IPCs lost
    game = fresh()
    no_ships(game)
    at(game, "germans", "combat")
    bank = game.d["bank"]["british"]
    game.d["battle"] = {"where": "united-kingdom", "attacker": "germans", "stage": "bomb", "damage": 11}
    game.after_raid_dice(game.d["battle"])
    assert game.d["battle"] is None and game.d["bank"]["british"] == bank - 3
    assert game.d["aarhe"]["damage"] == {"united-kingdom": 8}
    game.d["battle"] = {"where": "western-europe", "attacker": "british", "stage": "bomb", "damage": 9}
    game.after_raid_dice(game.d["battle"])
    assert game.d["aarhe"]["damage"]["western-europe"] == 6  # not below 0, no capital: no excess
    at(game, "british", "income")
    game.settle()
    write_convoys(game)
    assert (
        game.d["bank"]["british"] == bank - 3 + 30 - 8 and "united-kingdom" not in game.d["aarhe"]["damage"]
    )


def test_lend_lease_sails_on_a_transport_and_adds_to_the_receivers_next_income() -> None:
    # S3:L234: at most 6 IPCs a transport, 12 a turn, loaded off Eastern/Western US, unloaded
    # from sea zone 4 or 34 onto Soviet or British land; the IPCs join its next income
    game = fresh()
    no_ships(game)
    put(game, "sz-10", ("americans", "transport", 3))
    at(game, "americans")
    bank = game.d["bank"]["americans"]
    choose(game, "americans", "lend-lease 6 at sz-10")
    choose(game, "americans", "lend-lease 6 at sz-10")
    assert not [o for o in options(game) if o.startswith("lend-lease")]  # 12 a turn
    assert game.d["bank"]["americans"] == bank - 12
    at(game, "americans", "noncombat-move")
    put(game, "eastern-united-states", ("americans", "infantry", 2))
    assert "move 1 infantry eastern-united-states -> sz-10" in options(game)  # the unladen one
    choose(game, "americans", "move 1 transport sz-10 -> sz-9")
    zones = [s["zone"] for s in game.d["aarhe"]["lend_lease"]]
    assert zones == ["sz-10", "sz-10"]  # the unladen transport sails first
    assert "move 1 infantry eastern-united-states -> sz-10" not in options(game)  # both laden
    choose(game, "americans", "move 1 transport sz-10 -> sz-9")
    assert sorted(s["zone"] for s in game.d["aarhe"]["lend_lease"]) == ["sz-10", "sz-9"]
    for ship in game.d["aarhe"]["lend_lease"]:
        ship["zone"] = "sz-4"
    put(game, "sz-9")
    put(game, "sz-4", ("americans", "transport", 1))
    choose(game, "americans", "done")  # a transport short: one shipment is lost with it
    assert game.d["aarhe"]["lend_lease"] == [{"zone": "sz-4", "ipc": 6}]
    at(game, "americans", "noncombat-move")
    choose(game, "americans", "deliver lend-lease sz-4 to archangel")
    assert game.d["aarhe"]["lend_lease"] == [] and game.d["aarhe"]["aid"] == {"archangel": 6}
    at(game, "russians", "income")
    bank = game.d["bank"]["russians"]
    game.settle()
    write_convoys(game)
    assert game.d["bank"]["russians"] == bank + 24 + 6


def test_xenophobia_also_closes_soviet_skies_to_british_aircraft() -> None:
    # S3:L218: "fly air units over"
    game = fresh()
    p = profile(game)
    at(game, "british", "noncombat-move")
    assert not p.air_passable(game, "russia") and p.air_passable(game, "persia")
    at(game, "russians", "noncombat-move")
    assert p.air_passable(game, "russia")


def test_aircraft_fly_at_most_half_their_movement_to_a_target() -> None:
    # S3:L216: a fighter (4) reaches targets 2 away in combat move, not 3
    game = fresh()
    at(game, "germans", "combat-move")
    put(game, "germany", ("germans", "fighter", 1))
    put(game, "karelia-ssr", ("russians", "infantry", 1))  # 2 from Germany by air
    put(game, "russia", ("russians", "infantry", 1))
    flights = [o.split()[-1] for o in options(game) if o.startswith("move 1 fighter germany")]
    assert game.air_distance("germany", "caucasus") == 3 == game.air_distance("germany", "archangel")
    assert "karelia-ssr" in flights and "caucasus" not in flights and "archangel" not in flights


def test_a_move_or_airlift_of_several_units_keeps_a_miniature_territory_within_three() -> None:
    # S3:L246: the limit counts the whole move; an airlift brings its bombers too
    game = fresh()
    game.d["owner"]["algeria"] = "british"
    at(game, "british", "noncombat-move")
    put(game, "gibraltar", ("british", "infantry", 1))
    put(game, "algeria", ("british", "fighter", 3), ("british", "bomber", 2), ("british", "infantry", 2))
    into = [o for o in options(game) if o.endswith("algeria -> gibraltar")]
    assert into == [
        "airlift 1 infantry algeria -> gibraltar",  # 1 bomber + 1 infantry: 3 in all
        "move 1 bomber algeria -> gibraltar",
        "move 2 bomber algeria -> gibraltar",
        "move 1 fighter algeria -> gibraltar",
        "move 2 fighter algeria -> gibraltar",  # not all 3
    ]
    choose(game, "british", "move 2 fighter algeria -> gibraltar")
    assert not [o for o in options(game) if o.endswith("-> gibraltar")]
