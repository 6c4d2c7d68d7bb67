"""Rules fidelity, helper d3: occupation, movement and range (LR 7) and military actions (LR 8),
read as a rules lawyer would, through the engine."""

from __future__ import annotations

from tests.cataclysm.test_operations import choose, deploy_alone, offensive, options, setup

from grandstrategy.cataclysm.engine import CataclysmGame
from grandstrategy.cataclysm.engine.collapse import _leave_alliances


def _units(game: CataclysmGame) -> dict[int, tuple[str, str, str | None]]:
    return {u.id: (u.power, u.area, u.coast) for u in game.state.units}


# ---- LR 6.1.4 / 7.1: the guest leaves, not the host ---------------------------------------------


def test_a_former_allys_army_leaves_and_the_hosts_army_stays_lr_6_1_4() -> None:
    """LR 6.1.4 (L1400-1412) and 7.1 (L1531): once an alliance is broken, the units in a former
    ally's area must leave; the controller's own army, listed first, stays in its own area."""
    game = setup(
        "europe-1939",
        [("france", "infantry-army", "lorraine"), ("united-kingdom", "infantry-army", "lorraine")],
        [("france", "germany"), ("united-kingdom", "germany")],
    )
    game.state.alliances["democracy"] = ["france", "united-kingdom"]
    _leave_alliances(game, "united-kingdom")
    game.run()
    assert game.pending is None
    assert _units(game) == {1: ("france", "lorraine", None)}
    assert "unit:united-kingdom:infantry-army" in game.state.cup


# ---- LR 8.3 / 12.1.2 / 12.2.1: the Dreadnought Refit in build actions --------------------------


def test_a_build_action_may_use_the_dreadnought_refit_lr_8_3_12_2_1() -> None:
    """LR 8.3 (L1712-1718) builds with military actions; LR 12.2.1 (L2506) lets France give up its
    Dreadnought Refit marker whenever it constructs a fleet, for one build less. With one action
    left France may build a surface fleet that way (to the turn track, LR 8.3); without the
    marker the fleet needs two actions from the same offensive."""
    game = setup("europe-1939", [], [("france", "germany")])
    state = game.state
    pool = state.powers["france"].force_pool
    counter = game.module.unit_types["surface-fleet"].counter
    pool[counter] = max(pool.get(counter, 0), 1)
    before = pool[counter]
    offensive(game, "france", 1)
    assert "build surface-fleet" not in options(game)  # two builds: one action is not enough
    choose(game, "france", "build surface-fleet with dreadnought refit")
    assert game.pending is None  # the one action is spent
    assert "dreadnought-refit-france" not in state.markers
    assert pool[counter] == before - 1
    assert "unit:france:surface-fleet" in state.turn_track[state.turn + 2]
    assert "unit:france:surface-fleet" not in state.cup


def test_the_refit_is_a_choice_and_two_actions_keep_the_marker_lr_12_2_1() -> None:
    """LR 12.2.1 (L2506) says France *may* use the marker: with two actions it may pay both and
    keep the marker for a later fleet (LR 8.3, L1718)."""
    game = setup("europe-1939", [], [("france", "germany")])
    state = game.state
    counter = game.module.unit_types["surface-fleet"].counter
    state.powers["france"].force_pool[counter] = 2
    offensive(game, "france", 2)
    assert {"build surface-fleet", "build surface-fleet with dreadnought refit"} <= set(options(game))
    choose(game, "france", "build surface-fleet")
    assert game.pending is None
    assert "dreadnought-refit-france" in state.markers


# ---- LR 2.2.1 / 8.4: naval units stand on the coast they reach ---------------------------------


def test_a_fleet_deploys_to_the_coast_of_lombardy_it_reaches_lr_2_2_1() -> None:
    """LR 2.2.1 (L280): a naval unit in Lombardy stands on one coast, and naval movement never
    goes straight from one coast to the other. An Italian fleet deploying from Rome may end on
    either coast (it may sail round by the Ionian Sea), picks the west coast, and stays there: its
    next move leaves by the Tyrrhenian Sea. From the west coast it may deploy round to the east
    coast of the same area (LR 8.4: any number of areas)."""
    game = setup("europe-1939", [("italy", "surface-fleet", "rome")], [])
    deploy_alone(game, "italy")
    choose(game, "italy", "move #1 surface-fleet in Rome")
    assert {"Lombardy (east coast)", "Lombardy (west coast)"} <= set(options(game))
    assert "Lombardy" not in options(game)
    choose(game, "italy", "Lombardy (west coast)")
    assert _units(game)[1] == ("italy", "lombardy", "west")
    choose(game, "italy", "move #1 surface-fleet in Lombardy")
    assert "Lombardy (east coast)" in options(game)
    assert "Lombardy (west coast)" not in options(game)  # where it stands
    choose(game, "italy", "Lombardy (east coast)")
    assert _units(game)[1] == ("italy", "lombardy", "east")


def test_gibraltar_takes_fleets_on_the_south_coast_of_spain_only_lr_2_3_3() -> None:
    """LR 2.3.3 (L440): Gibraltar is on the south coast of Spain, and only the special base lets
    a British fleet into uncontrolled Spain; so a fleet deploying there stands on the south coast
    (before, every unit entering Spain stood on the north coast, facing the Western Approaches)."""
    game = setup("europe-1939", [("united-kingdom", "surface-fleet", "central-mediterranean")], [])
    deploy_alone(game, "united-kingdom")
    choose(game, "united-kingdom", "move #1 surface-fleet in Central Mediterranean")
    assert "Spain (south coast)" in options(game)
    assert "Spain (north coast)" not in options(game)
    choose(game, "united-kingdom", "Spain (south coast)")
    assert _units(game)[1] == ("united-kingdom", "spain", "south")


def test_an_attacking_fleet_arrives_on_the_coast_its_owner_picks_lr_2_2_1() -> None:
    """LR 2.2.1 (L280), 9.2 step 6 (L1813): a British fleet at Malta's base attacking an Italian
    fleet in Lombardy may sail by the Tyrrhenian or by the Adriatic Sea (each one area away, within
    its range of two), so its owner says which coast it reaches; it stands there (the engine used to
    put every arrival on the east coast)."""
    game = setup(
        "europe-1939",
        [
            ("united-kingdom", "surface-fleet", "central-mediterranean"),
            ("italy", "surface-fleet", "lombardy"),
        ],
        [("united-kingdom", "italy")],
    )
    game.state.units[1].coast = "west"
    offensive(game, "united-kingdom", 1)
    choose(game, "united-kingdom", "naval operation against Lombardy")
    choose(game, "united-kingdom", "activate #1 surface-fleet in Central Mediterranean")
    while game.pending is not None and "flag" in game.pending.get("prompt", ""):
        choose(game, game.pending["power"], "cup")
    assert options(game) == ["east coast", "west coast"]
    choose(game, "united-kingdom", "west coast")
    assert _units(game)[1] == ("united-kingdom", "lombardy", "west")


def test_a_fleet_one_coast_away_arrives_on_it_without_a_question_lr_2_2_1() -> None:
    """LR 2.2.1 (L280), 7.3.1, 7.3.3: from Gibraltar on Spain's south coast, Lombardy is three
    areas away (extended range) by the Western Mediterranean and the Tyrrhenian Sea; the Adriatic
    is three areas away too, so it cannot lead in. The fleet arrives on the west coast with no
    question asked."""
    game = setup(
        "europe-1939",
        [("united-kingdom", "surface-fleet", "spain"), ("italy", "surface-fleet", "lombardy")],
        [("united-kingdom", "italy")],
    )
    game.state.units[0].coast = "south"
    game.state.units[1].coast = "west"
    offensive(game, "united-kingdom", 1)
    choose(game, "united-kingdom", "naval operation against Lombardy")
    choose(game, "united-kingdom", "activate #1 surface-fleet in Spain (extended range)")
    while game.pending is not None and "flag" in game.pending.get("prompt", ""):
        choose(game, game.pending["power"], "cup")
    assert _units(game)[1] == ("united-kingdom", "lombardy", "west")


# ---- LR 8.3 / 8.2 / 8.4.2: pinned readings of build actions, augmentation, deployment ----------


def test_build_actions_pay_per_counter_and_go_to_the_cup_or_turn_track_lr_8_3() -> None:
    """LR 8.3 (L1712-1718): only a belligerent power builds; each build action constructs one
    counter from the force pool at once; an upgrade marker or a surface fleet takes two actions of
    the same offensive; built units and markers go to the cup (never the reserve), fortresses and
    fleets to the turn track for next turn (LR 4.6)."""
    peace = setup("europe-1939", [], [])
    offensive(peace, "germany", 2)
    assert not any(o.startswith("build ") for o in options(peace))  # not belligerent

    game = setup("europe-1939", [], [("germany", "france")])
    state = game.state
    line = state.powers["germany"]
    line.force_pool.update({"army": 1, "fortress": 1, "upgrade:army": 1})
    offensive(game, "germany", 3)
    choose(game, "germany", "build infantry-army")  # one action
    assert "unit:germany:infantry-army" in state.cup
    assert "build upgrade:army" in options(game)  # two actions are left
    choose(game, "germany", "build fortress")  # one action
    assert "unit:germany:fortress" in state.turn_track[state.turn + 2]
    assert "build upgrade:army" not in options(game)  # one action left: not enough
    choose(game, "germany", "forfeit")
    assert game.pending is None
    assert state.powers["germany"].reserve != "unit:germany:infantry-army"


def test_augmentation_comes_only_from_the_same_offensive_lr_8_2() -> None:
    """LR 8.2 (L1702-1708): at the start of the operation the attacker may spend the offensive's
    remaining actions, each +1 to every combat; none is left to come back afterwards."""
    game = setup(
        "europe-1939",
        [("germany", "tactical-air", "ruhr"), ("france", "tactical-air", "lorraine")],
        [("germany", "france")],
    )
    offensive(game, "germany", 3)
    choose(game, "germany", "air operation against Lorraine")
    choose(game, "germany", "activate #1 tactical-air in Ruhr")
    assert options(game) == ["augment 0", "augment 1", "augment 2"]
    choose(game, "germany", "augment 2")
    while game.pending is not None and "flag" in game.pending.get("prompt", ""):
        choose(game, game.pending["power"], "cup")
    assert any("augments the operation by 2" in line for line in game.state.log)


# ---- LR 9.3.2 / 7.2: an invasion carried by an ally's fleet -------------------------------------


def test_an_invasion_may_cross_on_an_allys_fleet_alone_lr_9_3_2() -> None:
    """LR 9.3.2 (L1831-1845): each area of the invasion path must hold a *friendly* fleet, so a
    power with no fleet or air unit of its own may invade on its belligerent ally's fleets. The
    UK, with only an army in Scotland, invades Norway across the North Sea held by a French fleet
    (the menu used to list invasions only for powers with fleets or air units of their own)."""
    game = setup(
        "europe-1939",
        [("united-kingdom", "infantry-army", "scotland"), ("france", "surface-fleet", "north-sea")],
        [("united-kingdom", "germany"), ("france", "germany")],
    )
    game.state.alliances["democracy"] = ["france", "united-kingdom"]
    offensive(game, "united-kingdom", 2)
    assert "invasion of Norway" in options(game)
    choose(game, "united-kingdom", "invasion of Norway")
    choose(game, "united-kingdom", "activate #1 infantry-army in Scotland")
    for face in (6, 6):  # a Democracy's check before attacking a neutral country (LR 9.7)
        game.apply_chance(str(face))
    while game.pending is not None and game.pending["type"] == "decide":
        choose(game, game.pending["power"], "cup")  # provocation flags
    assert _units(game)[1] == ("united-kingdom", "norway", None)  # the army has landed


def test_an_invasion_needs_two_actions_lr_9_3_2() -> None:
    """LR 9.3.2 (L1837): an invasion takes two military actions spent together; with one left it
    is not offered."""
    game = setup(
        "europe-1939",
        [("united-kingdom", "infantry-army", "scotland"), ("france", "surface-fleet", "north-sea")],
        [("united-kingdom", "germany"), ("france", "germany")],
    )
    game.state.alliances["democracy"] = ["france", "united-kingdom"]
    offensive(game, "united-kingdom", 1)
    assert not any(o.startswith("invasion of") for o in options(game))


def test_a_new_fleet_is_placed_on_the_coast_its_owner_picks_lr_3_7_2() -> None:
    """LR 3.7.2 (L783) and 2.2.1 (L280): a naval unit played is placed in a coastal home area, and
    in Lombardy it must stand on one coast, its owner's choice; Italy picks the west coast (the
    engine used to put every new fleet there on the east coast)."""
    game = setup("europe-1939", [], [])
    game.push("play-counter", counter="unit:italy:surface-fleet", source="cup")
    game.run()
    assert {"lombardy (east coast)", "lombardy (west coast)"} <= set(options(game))
    choose(game, "italy", "lombardy (west coast)")
    fleet = game.state.units[-1]
    assert (fleet.area, fleet.coast) == ("lombardy", "west")


def test_a_deployment_that_ends_by_itself_still_bars_its_units_lr_8_4_2() -> None:
    """LR 8.4.2 (L1742-1746): a unit moved by a deployment is barred from the offensive's later
    operations. A German army that deployed away and back (its two moves, after which nothing
    can move and the deployment ends without a "done") may not attack Poland with the offensive's
    next action; before, the ban was recorded only when the player chose "done"."""
    game = setup("europe-1939", [("germany", "infantry-army", "silesia")], [("germany", "france")])
    offensive(game, "germany", 3)
    choose(game, "germany", "deploy")
    choose(game, "germany", "move #1 infantry-army in Silesia")
    choose(game, "germany", "Berlin")
    choose(game, "germany", "move #1 infantry-army in Berlin")
    choose(game, "germany", "Silesia")
    assert "deploy" in options(game)  # the offensive goes on with its second action
    assert "land operation against Poland" not in options(game)


def test_units_that_operated_may_deploy_later_in_the_offensive_lr_8_4_2() -> None:
    """LR 8.4.2 (L1744): the ban runs one way only; a unit activated for an operation may deploy
    later in the same offensive."""
    game = setup(
        "europe-1939", [("germany", "tactical-air", "ruhr"), ("france", "tactical-air", "lorraine")], []
    )
    from grandstrategy.cataclysm.engine.war_start import make_war

    make_war(game, [("germany", "france")])
    game.stack.clear()
    offensive(game, "germany", 2)
    choose(game, "germany", "air operation against Lorraine")
    choose(game, "germany", "activate #1 tactical-air in Ruhr")
    choose(game, "germany", "augment 0")
    while game.pending is not None and game.pending["type"] == "decide" and "flag" in game.pending["prompt"]:
        choose(game, game.pending["power"], "cup")
    for face in (6, 6, 1, 1):  # Germany wins the air combat 7 to 1
        game.apply_chance(str(face))
    while (
        game.pending is not None
        and game.pending["type"] == "decide"
        and "military action" not in (game.pending["prompt"])
    ):
        choose(game, game.pending["power"], "done" if "done" in options(game) else options(game)[0])
    assert "deploy" in options(game)
    choose(game, "germany", "deploy")
    assert any(o.startswith("move #1 tactical-air") for o in options(game))


# ---- LR 7.1 / 9.2 step 7d / 10.11: a regroup may exceed the limits until it ends ----------------


def _conquer_poland() -> CataclysmGame:
    """Germany takes Poland with a tank and an infantry army from Silesia; East Prussia and Berlin,
    next to Poland, each hold a German tank and infantry army: all three areas are full when the
    regroup starts."""
    game = setup(
        "europe-1939",
        [
            ("germany", "tank-army", "silesia"),
            ("germany", "infantry-army", "silesia"),
            ("germany", "tank-army", "east-prussia"),
            ("germany", "infantry-army", "east-prussia"),
            ("germany", "tank-army", "berlin"),
            ("germany", "infantry-army", "berlin"),
        ],
        [("germany", "france")],
    )
    offensive(game, "germany", 1)
    choose(game, "germany", "land operation against Poland")
    choose(game, "germany", "activate #1 tank-army in Silesia")
    choose(game, "germany", "activate #2 infantry-army in Silesia")
    while game.pending is not None and not game.pending.get("prompt", "").startswith("regroup a unit"):
        if game.pending["type"] == "chance":  # Germany 6 6, Poland 1: a triumph
            game.apply_chance("6" if "germany" in str(game.pending) else "1")
        else:
            choose(game, game.pending["power"], "cup")
    return game


def test_a_regroup_may_swap_units_between_full_areas_lr_7_1() -> None:
    """LR 7.1 (L1527-1529): the limits may be exceeded during step 7d of an operation (regroup),
    and LR 10.11 (L2183) checks them when the regroup ends. So Germany may swap its infantry in
    full Poland with the tank in full East Prussia: the infantry steps into East Prussia (three
    land units for a moment), the tank into Poland. While East Prussia is over its limit the
    regroup cannot end; once the tank has left, it may. (Before, neither move was offered.)"""
    game = _conquer_poland()
    choose(game, "germany", "regroup #2 infantry-army in Poland")
    assert "East Prussia" in options(game)
    assert "Berlin" not in options(game)  # a production site is crowded only by a new unit (LR 7.1)
    choose(game, "germany", "East Prussia")
    assert "done" not in options(game)  # East Prussia holds three land units
    choose(game, "germany", "regroup #3 tank-army in East Prussia")
    choose(game, "germany", "Poland")
    assert "done" in options(game)
    choose(game, "germany", "done")
    areas = {uid: area for uid, (_, area, _) in _units(game).items()}
    assert areas == {1: "poland", 2: "east-prussia", 3: "poland", 4: "east-prussia", 5: "berlin", 6: "berlin"}


def test_a_unit_interned_in_the_cup_comes_back_on_its_regular_side_lr_5_6_2() -> None:
    """LR 5.6.2 (L1300-1302) and 6.1.4: a unit that may no longer stay where it is may go to the
    action cup, and an upgraded unit comes back on its regular side: a British strategic air force
    in French Lorraine, sent to the cup when the alliance breaks, goes in as a tactical air force
    (before, the cup held a strategic air force counter, which would be placed upgraded)."""
    game = setup(
        "europe-1939",
        [("united-kingdom", "strategic-air", "lorraine")],
        [("france", "germany"), ("united-kingdom", "germany")],
    )
    game.state.alliances["democracy"] = ["france", "united-kingdom"]
    _leave_alliances(game, "united-kingdom")
    game.run()
    assert game.pending is not None and "to the cup" in options(game)
    choose(game, "united-kingdom", "to the cup")
    assert "unit:united-kingdom:tactical-air" in game.state.cup
    assert "unit:united-kingdom:strategic-air" not in game.state.cup


def test_a_deployment_moves_only_the_powers_own_units_lr_8_4() -> None:
    """LR 8.4 (L1722): allied units may not be moved by a deployment, unlike in an operation; the
    British deployment offers its own army only, not the belligerent French ally's."""
    game = setup(
        "europe-1939",
        [("united-kingdom", "infantry-army", "paris"), ("france", "infantry-army", "paris")],
        [("france", "germany"), ("united-kingdom", "germany")],
    )
    game.state.alliances["democracy"] = ["france", "united-kingdom"]
    deploy_alone(game, "united-kingdom")
    moves = [o for o in options(game) if o.startswith("move ")]
    assert moves == ["move #1 infantry-army in Paris"]


def test_gibraltar_is_reached_by_the_south_coast_only_lr_2_3_3() -> None:
    """LR 2.3.3 (L440), 7.3.1 and 10.11: Gibraltar is on Spain's south coast, so a British fleet
    regrouping from a battle in the North Sea reaches it by the Mid-Atlantic Ocean (three areas),
    not by the Western Approaches and the north coast (two): out of normal range, in extended
    range (before, the north coast counted and Gibraltar was two areas away)."""
    from grandstrategy.cataclysm.rules.movement import regroup_destinations
    from grandstrategy.cataclysm.state import Unit

    game = setup("europe-1939", [], [])
    module, state = game.module, game.state
    fleet = Unit(1, "united-kingdom", "surface-fleet", "north-sea")
    state.units = [fleet]
    assert "spain" not in regroup_destinations(module, state, fleet, "north-sea")
    assert "spain" in regroup_destinations(module, state, fleet, "north-sea", extended=True)


def test_production_may_keep_the_dreadnought_refit_lr_4_6_12_1_2() -> None:
    """LR 4.6 (L1018) and 12.1.2 (L2457): Italy *may* give up its Dreadnought Refit marker to
    construct a fleet for one build. With two builds it may instead pay both and keep the marker
    (before, production always spent it); with the marker it may pay one and keep a build."""
    game = setup("europe-1939", [], [])
    state = game.state
    counter = game.module.unit_types["surface-fleet"].counter
    state.powers["italy"].force_pool[counter] = 2
    game.push("construct", power="italy", builds=2, industrial=0)
    game.run()
    assert {"build surface-fleet", "build surface-fleet with dreadnought refit"} <= set(options(game))
    choose(game, "italy", "build surface-fleet")
    assert "dreadnought-refit-italy" in state.markers
    assert game.pending is None  # both builds are spent

    game.push("construct", power="italy", builds=2, industrial=0)
    game.run()
    choose(game, "italy", "build surface-fleet with dreadnought refit")
    assert "dreadnought-refit-italy" not in state.markers
    assert game.pending is not None and "1 build(s)" in game.pending["prompt"]


def test_a_fortress_in_a_former_allys_area_goes_to_the_cup_lr_6_1_4() -> None:
    """LR 6.1.4 (L1410) and 5.6.2 (L1300): units that can no longer occupy their area retreat or go
    to the action cup, at their owner's choice; a fortress cannot retreat (LR 10.10.1) but may go
    to the cup (before, it was destroyed). A logistics unit there is destroyed, as LR 7.1.4 says
    of one whose area is no longer friendly."""
    game = setup(
        "europe-1939",
        [("united-kingdom", "fortress", "lorraine"), ("united-kingdom", "logistics", "provence")],
        [("france", "germany"), ("united-kingdom", "germany")],
    )
    game.state.alliances["democracy"] = ["france", "united-kingdom"]
    pool = dict(game.state.powers["united-kingdom"].force_pool)
    _leave_alliances(game, "united-kingdom")
    game.run()
    assert game.pending is None  # the only choice for each is forced
    assert game.state.units == []
    assert "unit:united-kingdom:fortress" in game.state.cup
    assert "unit:united-kingdom:logistics" not in game.state.cup
    counter = game.module.unit_types["logistics"].counter
    assert game.state.powers["united-kingdom"].force_pool[counter] == pool.get(counter, 0) + 1
