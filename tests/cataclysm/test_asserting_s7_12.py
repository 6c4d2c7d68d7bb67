"""Tests that assert the outcome of rules in sections 8 and 9 of the Living Rules, through the engine.

Each test sets up a situation, forces the dice and choices, and checks what the rule says happens.
"""

from __future__ import annotations

from typing import Any

from tests.cataclysm.test_operations import (
    MODULE,
    bare_game,
    choose,
    choose_starting,
    offensive,
    options,
    roll,
    settle,
    setup,
)

from grandstrategy.cataclysm.engine import CataclysmGame
from grandstrategy.cataclysm.module.schema import Commitment


def pending_op(game: CataclysmGame) -> dict[str, Any]:
    """The running operation's record: carried by the open decision, or by the step under it."""
    assert game.pending is not None
    frames: list[dict[str, Any]] = []
    then = game.pending["then"]
    while isinstance(then, dict):  # a die roll nests the step it returns to
        frames.append(then)
        then = then.get("then")
    frames += reversed(game.stack)
    op = next(f["op"] for f in frames if isinstance(f.get("op"), dict))
    assert isinstance(op, dict)
    return op


def log_since(game: CataclysmGame, start: int) -> list[str]:
    return game.state.log[start:]


# ---- 8.2 Augmentation ------------------------------------------------------------------------------


def _benelux_air_battle() -> CataclysmGame:
    """German tank army and air force next to a French-held Benelux with a French army and air force."""
    game = setup(
        "europe-1939",
        [
            ("germany", "tank-army", "ruhr"),
            ("germany", "tactical-air", "ruhr"),
            ("france", "infantry-army", "benelux"),
            ("france", "tactical-air", "benelux"),
        ],
        [("germany", "france")],
    )
    game.state.cubes["benelux"] = {"france": 1}
    return game


def test_augmentation_adds_one_per_action_to_every_combat_of_the_operation_lr_8_2() -> None:
    """LR 8.2 (L1702-1706): each augment action is +1 in every combat of the operation, here both
    the air superiority combat and the land combat; the actions come from the same offensive."""
    game = _benelux_air_battle()
    offensive(game, "germany", 3)
    choose(game, "germany", "land operation against Benelux")
    choose_starting(game, "germany", "activate #1 tank-army")
    # only what is left of this offensive may be spent: one action went on the operation
    assert options(game) == ["augment 0", "augment 1", "augment 2"]
    choose(game, "germany", "augment 2")
    start = len(game.state.log)
    settle(game)
    choose_starting(game, "germany", "support with #2 germany tactical-air")
    settle(game)
    roll(game, 1, 1)  # air superiority combat: Germany 1 + 2 = 3
    roll(game, 4, 2)  # France 4: the attacker loses the air combat
    air = log_since(game, start)
    assert "attacker +2: 2 augmentation (LR 8.2)" in "\n".join(air)
    assert "air combat: attacker rolls 1 1 = 3, defender rolls 4 2 = 4" in "\n".join(air)
    start = len(game.state.log)
    choose(game, "germany", "stand")
    roll(game, 1, 1)  # land combat: Germany's two dice, 1 + 2 = 3
    roll(game, 1, 1)  # France: two dice (+1 air superiority, -1 German armour), 1
    land = log_since(game, start)
    assert "attacker +2: 2 augmentation (LR 8.2)" in "\n".join(land)
    assert "land combat: attacker rolls 1 1 = 3, defender rolls 1 1 = 1" in "\n".join(land)


def test_no_augmentation_without_actions_left_in_the_offensive_lr_8_2() -> None:
    """LR 8.2: with a one-action offensive there is nothing left to augment with; the question is skipped."""
    game = _benelux_air_battle()
    offensive(game, "germany", 1)
    choose(game, "germany", "land operation against Benelux")
    choose_starting(game, "germany", "activate #1 tank-army")
    assert game.pending is not None
    assert not any(o.startswith("augment") for o in game.pending["options"])
    assert pending_op(game)["augment"] == 0


# ---- 8.3 Builds -----------------------------------------------------------------------------------


def test_only_a_belligerent_power_may_build_lr_8_3() -> None:
    """LR 8.3 (L1712): builds are for belligerent powers only."""
    game = bare_game()
    offensive(game, "germany", 2)
    assert not any(o.startswith("build") for o in options(game))
    game = setup("europe-1939", [], [("germany", "france")])
    offensive(game, "germany", 2)
    assert "build infantry-army" in options(game)


def test_built_army_goes_to_the_cup_and_a_fleet_needs_two_actions_together_lr_8_3() -> None:
    """LR 8.3 (L1714-1718): one action per build; a built army goes to the cup, never the reserve;
    a fleet costs two actions of the same offensive and goes to the turn track."""
    game = setup("europe-1939", [], [("germany", "france")])
    state = game.state
    reserve = state.powers["germany"].reserve
    offensive(game, "germany", 3)
    assert "build surface-fleet" in options(game)
    choose(game, "germany", "build infantry-army")
    assert "unit:germany:infantry-army" in state.cup
    assert state.powers["germany"].reserve == reserve
    assert state.powers["germany"].force_pool["army"] == 0
    assert "military action (2 left" in game.pending["prompt"]  # type: ignore[index]
    choose(game, "germany", "build surface-fleet")
    assert "unit:germany:surface-fleet" not in state.cup
    assert any("unit:germany:surface-fleet" in items for items in state.turn_track.values())
    assert game.pending is None  # the fleet took the last two actions


def test_a_fleet_is_not_offered_with_one_action_left_lr_8_3() -> None:
    """LR 8.3: a fleet takes two actions spent together; a single action cannot build it."""
    game = setup("europe-1939", [], [("germany", "france")])
    offensive(game, "germany", 1)
    assert "build surface-fleet" not in options(game)
    assert "build infantry-army" in options(game)


# ---- 8.4 Deployment --------------------------------------------------------------------------------


def test_deployment_moves_only_the_powers_own_units_lr_8_4() -> None:
    """LR 8.4 (L1722): an ally's units may not be moved by deployment."""
    game = setup(
        "europe-1939",
        [("france", "infantry-army", "brittany"), ("united-kingdom", "infantry-army", "london")],
        [("united-kingdom", "germany"), ("france", "germany")],
    )
    offensive(game, "united-kingdom", 1)
    choose(game, "united-kingdom", "deploy")
    moves = [o for o in options(game) if o.startswith("move")]
    assert moves == ["move #2 infantry-army in London"]


def test_occupation_limits_apply_where_a_deploying_unit_stops_lr_8_4() -> None:
    """LR 8.4 (L1730): a unit may not end its move in an area already holding two land units of its
    ideology, though it may pass through it."""
    game = setup(
        "europe-1939",
        [
            ("france", "infantry-army", "paris"),
            ("france", "infantry-army", "paris"),
            ("france", "infantry-army", "lorraine"),
        ],
        [("france", "germany")],
    )
    offensive(game, "france", 1)
    choose(game, "france", "deploy")
    choose_starting(game, "france", "move #3 infantry-army")
    where = options(game)
    assert "Paris" not in where
    assert "Brittany" in where  # reached through the full Paris


# ---- 9.1 Operation definitions ---------------------------------------------------------------------


def test_each_area_of_origin_costs_one_action_lr_9_1() -> None:
    """LR 9.1 (L1774): units from a second area of origin cost a second action; more units from an
    area already paid for are free."""
    game = setup(
        "europe-1939",
        [
            ("germany", "tank-army", "benelux"),
            ("germany", "infantry-army", "lorraine"),
            ("france", "infantry-army", "paris"),
        ],
        [("germany", "france")],
    )
    game.state.cubes["lorraine"] = {"germany": 1}
    game.state.cubes["benelux"] = {"germany": 1}
    offensive(game, "germany", 1)
    choose(game, "germany", "land operation against Paris")
    choose_starting(game, "germany", "activate #1 tank-army")
    # the only action is spent: the army in Lorraine would need another
    assert not any(o.startswith("activate #2") for o in options(game))
    game = setup(
        "europe-1939",
        [
            ("germany", "tank-army", "benelux"),
            ("germany", "infantry-army", "lorraine"),
            ("france", "infantry-army", "paris"),
        ],
        [("germany", "france")],
    )
    game.state.cubes["lorraine"] = {"germany": 1}
    game.state.cubes["benelux"] = {"germany": 1}
    offensive(game, "germany", 3)
    choose(game, "germany", "land operation against Paris")
    choose_starting(game, "germany", "activate #1 tank-army")
    choose_starting(game, "germany", "activate #2 infantry-army")
    assert pending_op(game)["left"] == 1  # two areas of origin, two actions
    assert options(game) == ["augment 0", "augment 1"]


def test_more_units_from_a_paid_area_of_origin_cost_nothing_lr_9_1() -> None:
    """LR 9.1: one action activates every unit taken from the same area of origin."""
    game = setup(
        "europe-1939",
        [
            ("germany", "tank-army", "benelux"),
            ("germany", "infantry-army", "benelux"),
            ("france", "infantry-army", "paris"),
        ],
        [("germany", "france")],
    )
    game.state.cubes["benelux"] = {"germany": 1}
    offensive(game, "germany", 2)
    choose(game, "germany", "land operation against Paris")
    choose_starting(game, "germany", "activate #1 tank-army")
    choose_starting(game, "germany", "activate #2 infantry-army")
    assert pending_op(game)["left"] == 1
    assert options(game) == ["augment 0", "augment 1"]


def test_an_operation_needs_one_of_the_acting_powers_own_units_lr_9_1() -> None:
    """LR 9.1 (L1776): an ally's unit may join with its owner's permission, but the acting power
    must activate at least one unit of its own before it may finish activating."""
    game = setup(
        "europe-1939",
        [
            ("united-states", "strategic-air", "london"),
            ("united-kingdom", "strategic-air", "london"),
            ("germany", "tactical-air", "ruhr"),
        ],
        [("united-states", "germany"), ("united-kingdom", "germany")],
    )
    game.state.alliances["democracy"] = ["united-kingdom", "united-states"]
    offensive(game, "united-states", 1)
    choose(game, "united-states", "air operation against Ruhr")
    choose_starting(game, "united-states", "activate #2 strategic-air")
    choose(game, "united-kingdom", "allow")
    assert "done" not in options(game)
    assert any(o.startswith("activate #1 strategic-air") for o in options(game))
    choose_starting(game, "united-states", "activate #1 strategic-air")
    assert pending_op(game)["attackers"] == [2, 1]


def test_a_refused_ally_unit_does_not_join_lr_9_1() -> None:
    """LR 9.1: without the owner's permission the ally's unit is not activated."""
    game = setup(
        "europe-1939",
        [
            ("united-states", "strategic-air", "london"),
            ("united-kingdom", "strategic-air", "london"),
            ("germany", "tactical-air", "ruhr"),
        ],
        [("united-states", "germany"), ("united-kingdom", "germany")],
    )
    game.state.alliances["democracy"] = ["united-kingdom", "united-states"]
    offensive(game, "united-states", 1)
    choose(game, "united-states", "air operation against Ruhr")
    choose_starting(game, "united-states", "activate #2 strategic-air")
    choose(game, "united-kingdom", "refuse")
    assert not any(o.startswith("activate #2") for o in options(game))
    assert 2 not in pending_op(game)["attackers"]


def test_an_area_held_by_the_same_ideology_is_never_a_target_lr_9_1() -> None:
    """LR 9.1 (L1778): a target controlled by a power of the attacker's ideology is never valid, even
    when it holds enemy units."""
    from grandstrategy.cataclysm.engine.operations import valid_target

    game = setup(
        "europe-1939",
        [("germany", "tank-army", "bavaria"), ("france", "infantry-army", "austria")],
        [("germany", "france")],
    )
    game.state.cubes["austria"] = {"italy": 1}
    assert not valid_target(game, "germany", "land", None, "austria", surprise=False)
    game.state.cubes["austria"] = {"france": 1}
    assert valid_target(game, "germany", "land", None, "austria", surprise=False)


# ---- 9.1.1 Primary attacker and primary defender --------------------------------------------------


def test_an_ungarrisoned_country_is_itself_the_primary_defender_lr_9_1_1() -> None:
    """LR 9.1.1 priority 1 (L1788): in a land operation against an ungarrisoned country, the country
    defends, even when its controller has an air unit there."""
    game = setup(
        "europe-1939",
        [("germany", "tank-army", "silesia"), ("france", "tactical-air", "poland")],
        [],
    )
    game.state.cubes["poland"] = {"france": 1}
    offensive(game, "germany", 1)
    choose(game, "germany", "land operation against Poland")
    choose_starting(game, "germany", "activate #1 tank-army")
    assert pending_op(game)["defender"] is None
    assert pending_op(game)["country"] is True


def test_the_attacker_chooses_among_several_powers_with_matching_units_lr_9_1_1() -> None:
    """LR 9.1.1 priority 2 (L1789): French and British armies both defend Paris; the primary attacker
    chooses which is the primary defender."""
    game = setup(
        "europe-1939",
        [
            ("germany", "tank-army", "benelux"),
            ("france", "infantry-army", "paris"),
            ("united-kingdom", "infantry-army", "paris"),
        ],
        [("germany", "france"), ("germany", "united-kingdom")],
    )
    game.state.cubes["benelux"] = {"germany": 1}
    offensive(game, "germany", 1)
    choose(game, "germany", "land operation against Paris")
    choose_starting(game, "germany", "activate #1 tank-army")
    assert game.pending is not None and "primary defender" in game.pending["prompt"]
    assert options(game) == ["france", "united-kingdom"]
    choose(game, "germany", "united-kingdom")
    assert pending_op(game)["defender"] == "united-kingdom"


def test_a_unit_matching_the_operation_beats_the_controller_lr_9_1_1() -> None:
    """LR 9.1.1 priority 2 before 3: a British army in French Paris makes the UK the primary defender of
    a land operation, while a British air force there does not (the controller, France, defends)."""
    from grandstrategy.cataclysm.engine.operations import _new_op, primary_defender_candidates

    game = setup(
        "europe-1939",
        [("germany", "tank-army", "benelux"), ("united-kingdom", "infantry-army", "paris")],
        [("germany", "france"), ("germany", "united-kingdom")],
    )
    op = _new_op("germany", "land", None, "paris", False, 1, [])
    assert primary_defender_candidates(game, op) == ["united-kingdom"]
    game = setup(
        "europe-1939",
        [("germany", "tank-army", "benelux"), ("united-kingdom", "tactical-air", "paris")],
        [("germany", "france"), ("germany", "united-kingdom")],
    )
    assert primary_defender_candidates(game, op) == ["france"]


def test_the_base_owner_defends_a_sea_area_without_matching_units_lr_9_1_1() -> None:
    """LR 9.1.1 priority 3 (L1790): a naval operation against a sea area holding only an enemy strategic
    air force: the owner of the base there is the primary defender."""
    from grandstrategy.cataclysm.engine.operations import _new_op, primary_defender_candidates

    game = setup(
        "europe-1939",
        [("italy", "surface-fleet", "sicily"), ("united-kingdom", "strategic-air", "central-mediterranean")],
        [("united-kingdom", "italy")],
    )
    op = _new_op("italy", "naval", None, "central-mediterranean", False, 1, [])
    assert primary_defender_candidates(game, op) == ["united-kingdom"]
    assert game.state.base_owners["central-mediterranean#0"] == "united-kingdom"


# ---- 9.3.1 Land operation procedure -----------------------------------------------------------------


def test_minor_armies_are_never_activated_and_stay_behind_lr_9_3_1() -> None:
    """LR 9.3.1 (L1829): a minor army in the area of origin is never activated; only armies are."""
    game = setup(
        "europe-1939",
        [
            ("germany", "tank-army", "poland"),
            ("germany", "tactical-air", "poland"),
            ("soviet-union", "infantry-army", "ukraine"),
        ],
        [("germany", "soviet-union")],
    )
    game.state.cubes["poland"] = {"germany": 1}
    assert "poland" in game.state.minor_armies
    offensive(game, "germany", 1)
    choose(game, "germany", "land operation against Ukraine")
    assert options(game) == ["activate #1 tank-army in Poland"]
    choose(game, "germany", "activate #1 tank-army in Poland")
    assert pending_op(game)["attackers"] == [1]
    assert "poland" in game.state.minor_armies


# ---- 9.3.2 Invasion ----------------------------------------------------------------------------------


def _invasion(fleets: list[str], origin_units: list[tuple[str, str, str]]) -> CataclysmGame:
    units = [*origin_units, *(("united-kingdom", "surface-fleet", sea) for sea in fleets)]
    units.append(("germany", "infantry-army", "benelux"))
    game = setup("europe-1939", units, [("united-kingdom", "germany")])
    game.state.cubes["benelux"] = {"germany": 1}
    return game


def test_a_beaten_invader_goes_back_to_its_area_of_origin_lr_9_3_2() -> None:
    """LR 9.3.2 (L1846): if the invasion force retreats it returns to its area of origin, not to an
    area next to the target."""
    game = _invasion(["north-sea"], [("united-kingdom", "infantry-army", "london")])
    game.state.cubes["paris"] = {}
    offensive(game, "united-kingdom", 2)
    choose(game, "united-kingdom", "invasion of Benelux")
    choose_starting(game, "united-kingdom", "activate #1 infantry-army")
    settle(game)
    roll(game, 3, 1)  # the UK: 3
    roll(game, 4, 1)  # Germany: 4 + 1 (invasion) = 5 -> one loss to the UK
    choose(game, "united-kingdom", "retreat")  # down to no loss
    areas = {u.id: u.area for u in game.state.units}
    assert areas[1] == "london"


def test_an_invasion_takes_one_area_of_origin_only_lr_9_3_2() -> None:
    """LR 9.3.2 (L1837): only armies from a single area of origin join an invasion."""
    game = _invasion(
        ["north-sea"],
        [("united-kingdom", "infantry-army", "london"), ("united-kingdom", "infantry-army", "scotland")],
    )
    offensive(game, "united-kingdom", 4)
    choose(game, "united-kingdom", "invasion of Benelux")
    first = options(game)
    assert any(o.startswith("activate #1") for o in first) and any(o.startswith("activate #2") for o in first)
    choose_starting(game, "united-kingdom", "activate #1 infantry-army")
    assert not any(o.startswith("activate #2") for o in options(game))
    assert pending_op(game)["left"] == 2  # the invasion's two actions, spent together


def _norway_invasion() -> CataclysmGame:
    game = setup(
        "europe-1939",
        [
            ("united-kingdom", "infantry-army", "scotland"),
            ("united-kingdom", "surface-fleet", "north-sea"),
            ("united-kingdom", "surface-fleet", "norwegian-sea"),
            ("germany", "infantry-army", "norway"),
        ],
        [("united-kingdom", "germany")],
    )
    game.state.cubes["norway"] = {"germany": 1}
    return game


def test_an_invasion_across_two_sea_areas_is_at_extended_range_lr_9_3_2() -> None:
    """LR 9.3.2 (L1842): a two-area invasion path means -1 to the attacker in the land combat."""
    game = _norway_invasion()
    offensive(game, "united-kingdom", 2)
    choose(game, "united-kingdom", "invasion of Norway")
    choose_starting(game, "united-kingdom", "activate #1 infantry-army")
    settle(game)
    # the attacker designates the path, here two sea areas each holding a friendly fleet
    assert "north-sea > norwegian-sea" in options(game)
    start = len(game.state.log)
    choose(game, "united-kingdom", "north-sea > norwegian-sea")
    roll(game, 5, 1)
    roll(game, 1, 1)
    text = "\n".join(log_since(game, start))
    assert "attacker -1: invasion at extended range (LR 9.3.2, 10.4)" in text
    assert "attacker rolls 5 1 = 4" in text


def test_a_one_area_invasion_path_has_no_extended_range_penalty_lr_9_3_2() -> None:
    """LR 9.3.2: the same invasion over one sea area carries no -1."""
    game = _norway_invasion()
    offensive(game, "united-kingdom", 2)
    choose(game, "united-kingdom", "invasion of Norway")
    choose_starting(game, "united-kingdom", "activate #1 infantry-army")
    settle(game)
    start = len(game.state.log)
    choose(game, "united-kingdom", "north-sea")
    roll(game, 5, 1)
    roll(game, 1, 1)
    text = "\n".join(log_since(game, start))
    assert "extended range" not in text
    assert "attacker rolls 5 1 = 5" in text


def test_an_invasion_is_never_a_surprise_attack_lr_9_3_2() -> None:
    """LR 9.3.2 (L1838) and 9.8: a Fascist power at mobilization gets surprise operations against a
    non-enemy opposing power, but never a surprise invasion."""
    game = setup(
        "europe-1939",
        [
            ("germany", "infantry-army", "ruhr"),
            ("germany", "surface-fleet", "north-sea"),
            ("germany", "tank-army", "bavaria"),
            ("france", "infantry-army", "lorraine"),
            ("united-kingdom", "infantry-army", "london"),
        ],
        [],
    )
    game.state.powers["germany"].commitment = Commitment.MOBILIZATION
    offensive(game, "germany", 2)
    menu = options(game)
    assert any(o.startswith("surprise land operation") for o in menu), menu
    assert not any(o.startswith("surprise invasion") for o in menu)


# ---- 7.1.4 Logistics units and 8.4.1 ----------------------------------------------------------------


def test_a_logistics_unit_moves_only_in_the_deployment_of_its_play_lr_7_1_4() -> None:
    """LR 7.1.4 (L1582) and 8.4.1 (L1734): a logistics unit on the map is never moved by a deployment
    (it may only be withdrawn), while one just played from the cup may move."""
    game = setup(
        "europe-1939",
        [("france", "logistics", "paris"), ("france", "infantry-army", "brittany")],
        [("france", "germany")],
    )
    game.state.powers["france"].force_pool["logistics"] = 0  # the one logistics counter is on the map
    offensive(game, "france", 1)
    choose(game, "france", "deploy")
    assert not any(o.startswith("move #1 logistics") for o in options(game))
    assert "withdraw #1 logistics in Paris" in options(game)
    choose(game, "france", "withdraw #1 logistics in Paris")
    assert "unit:france:logistics" in game.state.cup
    game = setup("europe-1939", [], [("france", "germany")])
    game.state.powers["france"].force_pool["logistics"] = 0
    game.push("place-unit", power="france", unit_type="logistics", choice="paris")
    game.run()
    assert any(o.startswith("move #1 logistics") for o in options(game))


def test_a_logistics_unit_is_destroyed_when_its_base_is_captured_lr_7_1_4() -> None:
    """LR 7.1.4 (L1584): a logistics unit whose base stops being friendly is destroyed, back to its
    owner's force pool (never retreated or sent to the cup)."""
    game = setup(
        "europe-1939",
        [("italy", "surface-fleet", "sicily"), ("united-kingdom", "logistics", "central-mediterranean")],
        [("italy", "united-kingdom")],
    )
    game.state.powers["united-kingdom"].force_pool["logistics"] = 0
    offensive(game, "italy", 1)
    choose(game, "italy", "base capture at Central Mediterranean")
    choose_starting(game, "italy", "activate #1 surface-fleet")
    settle(game)
    while game.pending is not None and game.pending["type"] == "decide":
        choose(game, game.pending["power"], "done" if "done" in options(game) else options(game)[0])
    assert game.state.base_owners["central-mediterranean#0"] == "italy"
    assert not any(u.type == "logistics" for u in game.state.units)
    assert game.state.powers["united-kingdom"].force_pool["logistics"] == 1
    assert "unit:united-kingdom:logistics" not in game.state.cup


# ---- 7.2.1 Land movement ------------------------------------------------------------------------------


def test_land_movement_crosses_straits_and_connectors_but_not_seas_lr_7_2_1() -> None:
    """LR 7.2.1 (L1604): land movement goes to adjacent land or mixed areas, across black crossing
    arrows (straits) and white connectors; never into a sea area, nor over an air-only arrow."""
    from grandstrategy.cataclysm.rules.movement import step_moves
    from grandstrategy.cataclysm.state import Unit

    game = bare_game("campaign-1933")
    state = game.state
    rome = Unit(900, "italy", "infantry-army", "rome")
    moves = step_moves(MODULE, state, rome, "land")
    assert "sicily" in moves and "lombardy" in moves
    assert "tyrrhenian-sea" not in moves
    london = Unit(901, "united-kingdom", "infantry-army", "london")
    assert "benelux" not in step_moves(MODULE, state, london, "land")  # an air-only arrow
    urals = Unit(902, "soviet-union", "infantry-army", "urals")
    assert "siberia" in step_moves(MODULE, state, urals, "land")  # a white map connector


# ---- 9.4.1 Naval operations and 9.5.1 Air operations ------------------------------------------------


def test_fleets_on_patrol_and_submarines_are_never_activated_lr_9_4_1() -> None:
    """LR 9.4.1 (L1853-1857): only fleets in a friendly port area are activated; a fleet in a sea area
    without a friendly naval base is on patrol, and a submarine pack never operates."""
    game = setup(
        "europe-1939",
        [
            ("united-kingdom", "surface-fleet", "scotland"),
            ("united-kingdom", "surface-fleet", "north-sea"),
            ("united-kingdom", "submarine-pack", "scotland"),
            ("germany", "surface-fleet", "norwegian-sea"),
        ],
        [("united-kingdom", "germany")],
    )
    offensive(game, "united-kingdom", 1)
    choose(game, "united-kingdom", "naval operation against Norwegian Sea")
    menu = options(game)
    assert any(o.startswith("activate #1 surface-fleet in Scotland") for o in menu)
    assert not any(o.startswith("activate #2") or o.startswith("activate #3") for o in menu)


def test_a_naval_operation_needs_an_enemy_naval_unit_or_strategic_air_force_lr_9_4_1() -> None:
    """LR 9.4.1 (L1859): the target must hold an enemy naval unit or strategic air force; an area with
    only an enemy tactical air force is no naval target (it is an air target)."""
    from grandstrategy.cataclysm.engine.operations import valid_target

    game = setup(
        "europe-1939",
        [("united-kingdom", "surface-fleet", "scotland"), ("germany", "tactical-air", "north-sea")],
        [("united-kingdom", "germany")],
    )
    assert not valid_target(game, "united-kingdom", "naval", None, "north-sea", surprise=False)
    assert valid_target(game, "united-kingdom", "air", None, "north-sea", surprise=False)
    game.state.units[1].type = "strategic-air"
    assert valid_target(game, "united-kingdom", "naval", None, "north-sea", surprise=False)


def test_an_air_operation_needs_enemy_air_and_air_units_at_a_friendly_airfield_lr_9_5_1() -> None:
    """LR 9.5.1 (L1881-1883): air units at a friendly airfield area are activated against a target
    holding an enemy air unit; an area with only an enemy army is no air target, and an air force
    on patrol in a sea area without a friendly air base is not activated."""
    game = setup(
        "europe-1939",
        [
            ("united-kingdom", "tactical-air", "london"),
            ("united-kingdom", "strategic-air", "north-sea"),
            ("germany", "infantry-army", "benelux"),
            ("germany", "tactical-air", "ruhr"),
        ],
        [("united-kingdom", "germany")],
    )
    game.state.cubes["benelux"] = {"germany": 1}
    offensive(game, "united-kingdom", 1)
    menu = options(game)
    assert "air operation against Benelux" not in menu
    assert "air operation against Ruhr" in menu
    choose(game, "united-kingdom", "air operation against Ruhr")
    assert not any(o.startswith("activate #2") for o in options(game))
    assert any(o.startswith("activate #1 tactical-air in London") for o in options(game))


# ---- 8.4.2 Subsequent activation ----------------------------------------------------------------------


def test_units_that_operated_may_deploy_later_in_the_offensive_lr_8_4_2() -> None:
    """LR 8.4.2 (L1744): activation does not bar a later deployment in the same offensive (only the
    reverse is barred)."""
    game = setup(
        "europe-1939",
        [("germany", "tank-army", "ruhr"), ("france", "infantry-army", "paris")],
        [("germany", "france")],
    )
    game.state.cubes["benelux"] = {"france": 1}
    offensive(game, "germany", 2)
    choose(game, "germany", "land operation against Benelux")
    choose_starting(game, "germany", "activate #1 tank-army")
    choose(game, "germany", "augment 0")
    settle(game)
    roll(game, 6, 5)
    roll(game, 2)  # the empty Benelux falls
    while game.pending is not None and "military action" not in game.pending["prompt"]:
        choose(game, game.pending["power"], "done" if "done" in options(game) else options(game)[0])
    assert "deploy" in options(game)
    choose(game, "germany", "deploy")
    assert any(o.startswith("move #1 tank-army") for o in options(game))


# ---- 9.2 Operation sequence -----------------------------------------------------------------------------


def _spain(actions: int) -> CataclysmGame:
    """France at war with Germany attacks an ungarrisoned Spain aligned with a neutral Italy."""
    game = setup(
        "europe-1939",
        [("france", "infantry-army", "provence"), ("germany", "infantry-army", "berlin")],
        [("france", "germany")],
    )
    game.state.cubes["spain"] = {"italy": 1}
    offensive(game, "france", actions)
    choose(game, "france", "land operation against Spain")
    choose_starting(game, "france", "activate #1 infantry-army")
    return game


def test_a_failed_democracy_check_forfeits_only_that_action_before_any_augmentation_lr_9_2() -> None:
    """LR 9.2 steps 2-3 (L1808-1809): the Democracy's check comes before augmentation; when it fails
    the operation is cancelled and its action lost, no augmentation is spent and no flag is gained,
    and the offensive's other actions remain."""
    game = _spain(2)
    flags = {p: line.available_flags for p, line in game.state.powers.items()}
    assert game.pending is not None and "attack on Spain" in game.pending["label"]
    roll(game, 3)  # a failed check
    assert game.pending is not None and "military action (1 left" in game.pending["prompt"]
    assert {p: line.available_flags for p, line in game.state.powers.items()} == flags


def test_after_a_passed_check_the_attacker_augments_before_the_provocation_flags_lr_9_2() -> None:
    """LR 9.2 steps 2-4: once the check passes, augmentation is declared, then provoked powers gain
    their flags, then supply and movement follow."""
    game = _spain(2)
    roll(game, 6)
    assert options(game) == ["augment 0", "augment 1"]
    assert {u.id: u.area for u in game.state.units}[1] == "provence"  # nobody has moved yet
    choose(game, "france", "augment 1")
    assert game.pending is not None and game.pending["power"] == "italy"
    assert "place the flag" in game.pending["prompt"]
    assert {u.id: u.area for u in game.state.units}[1] == "provence"
    settle(game)
    assert {u.id: u.area for u in game.state.units}[1] == "spain"
