"""Rules fidelity through the engine: Gibraltar's coast, the coast of a new fleet, combat modifiers.

Each test sets up a situation, forces the dice and choices, and asserts what the Living Rules give
(LR 2.2.1 with 2.3.3, 3.7.2, 10.3-10.6).
"""

from __future__ import annotations

from pathlib import Path

from tests.cataclysm.test_operations import (
    choose,
    choose_starting,
    deploy_alone,
    last_log,
    offensive,
    options,
    roll,
    settle,
    setup,
)

from grandstrategy.cataclysm.engine import CataclysmGame
from grandstrategy.cataclysm.rules.movement import step_moves


def _units(game: CataclysmGame) -> dict[int, tuple[str, str, str | None]]:
    return {u.id: (u.type, u.area, u.coast) for u in game.state.units}


def _gibraltar(extra: list[tuple[str, str, str]] | None = None) -> CataclysmGame:
    """The UK at war with Germany, a British fleet at Gibraltar (Spain's south coast) and London in
    German hands, so Gibraltar is the UK's only port next to the Western Approaches."""
    game = setup("europe-1939", [("united-kingdom", "surface-fleet", "spain"), *(extra or [])], [])
    game.state.units[0].coast = "south"
    from grandstrategy.cataclysm.engine.war_start import make_war

    make_war(game, [("germany", "united-kingdom")])
    game.stack.clear()
    game.state.cubes["london"] = {"germany": 2}
    return game


# ---- LR 2.2.1 with 2.3.3: Gibraltar stands on Spain's south coast ----------------------------------


def test_gibraltar_gives_no_allowance_in_the_western_approaches_lr_2_3_3() -> None:
    """LR 7.1.2 (naval base allowance) with 2.2.1 (L280) and 2.3.3 (L438-441): Gibraltar is on
    Spain's south coast, so its allowance covers the Mid-Atlantic and the Western Mediterranean but
    not the Western Approaches, which touches only the north coast. With London lost the British
    fleet may not end a deployment in the Western Approaches."""
    game = _gibraltar()
    deploy_alone(game, "united-kingdom")
    choose_starting(game, "united-kingdom", "move #1 surface-fleet")
    assert "Mid-Atlantic Ocean" in options(game) and "Western Mediterranean" in options(game)
    assert "Western Approaches" not in options(game)


def test_a_fleet_coming_to_gibraltar_from_the_atlantic_stands_on_the_south_coast_lr_2_2_1() -> None:
    """LR 2.2.1 (L280) with 2.3.3 (L438-441): a British fleet in the North Atlantic deploys to
    Spain, where it may stand only at Gibraltar; it ends on the south coast, never the north
    coast it would reach first through the Western Approaches."""
    game = _gibraltar([("united-kingdom", "surface-fleet", "north-atlantic-ocean")])
    game.state.units = game.state.units[1:]
    deploy_alone(game, "united-kingdom")
    choose_starting(game, "united-kingdom", "move #2 surface-fleet")
    assert "Spain (north coast)" not in options(game)  # the base is on the south coast only
    choose(game, "united-kingdom", "Spain (south coast)")
    assert _units(game)[2] == ("surface-fleet", "spain", "south")


def test_gibraltar_is_entered_from_the_western_approaches_only_around_the_coast_lr_2_2_1() -> None:
    """LR 2.2.1 (L280): naval movement may not pass between Spain's two coasts; a British fleet in
    the Western Approaches reaches Gibraltar in one move only through another sea, so a move of one
    area into Spain (the north coast) is not Gibraltar. In a deployment it goes round by the
    Mid-Atlantic and stands on the south coast."""
    game = _gibraltar([("united-kingdom", "surface-fleet", "western-approaches")])
    game.state.cubes.pop("london")
    game.state.units = game.state.units[1:]
    fleet = game.state.units[0]
    assert "spain" not in step_moves(game.module, game.state, fleet, "naval")
    assert "mid-atlantic-ocean" in step_moves(game.module, game.state, fleet, "naval")
    deploy_alone(game, "united-kingdom")
    choose_starting(game, "united-kingdom", "move #2 surface-fleet")
    assert "Spain (north coast)" not in options(game)  # the base is on the south coast only
    choose(game, "united-kingdom", "Spain (south coast)")
    assert _units(game)[2] == ("surface-fleet", "spain", "south")


# ---- LR 3.7.2 with 2.2.1: the owner chooses the coast of a new fleet -------------------------------


def test_a_new_fleet_in_a_one_coast_area_is_placed_without_a_question_lr_3_7_2() -> None:
    """LR 3.7.2 (L783): a fleet placed in Rome (one coast) needs no coast: the deployment of the new
    unit is offered at once, as before."""
    game = setup("europe-1939", [], [])
    game.push("place-unit", power="italy", unit_type="surface-fleet", choice="rome")
    game.run()
    assert _units(game)[1] == ("surface-fleet", "rome", None)
    assert any(o.startswith("move #1 surface-fleet") for o in options(game))


# ---- LR 10.3-10.6: every score modifier through the engine, with forced dice ----------------------


def _terms(game: CataclysmGame) -> list[int]:
    """The pending combat's [attacker dice, attacker modifier, defender dice, defender modifier]."""
    assert game.pending is not None and game.pending["type"] == "chance", game.pending
    then = game.pending["then"]
    assert then["dice"] == [], "ask at the first die of a combat"
    return list(then["then"]["terms"])


def _score_line(game: CataclysmGame, kind: str) -> str:
    return [line for line in game.state.log if f"{kind} combat: attacker rolls" in line][-1]


def _land_attack(game: CataclysmGame, power: str, target: str, *activate: str, actions: int = 1) -> None:
    offensive(game, power, actions)
    choose(game, power, f"land operation against {target}")
    for prefix in activate:
        choose_starting(game, power, prefix)
    settle(game)


def test_adverse_terrain_and_a_strait_give_one_bonus_and_cancel_armour_lr_10_4() -> None:
    """LR 10.4 steps 1b, 2d, 2e (L2024-2037): a German tank army attacks French North Africa (adverse
    terrain) from Spain across a strait, against an infantry army and a fortress. Adverse terrain
    cancels armour superiority (France keeps two dice); terrain and strait give +1 once, the
    fortress +1 more. 6 against 3+2 = 5: one French loss."""
    game = setup(
        "europe-1939",
        [
            ("germany", "tank-army", "spain"),
            ("france", "infantry-army", "french-north-africa"),
            ("france", "fortress", "french-north-africa"),
        ],
        [("germany", "france")],
    )
    game.state.cubes["spain"] = {"germany": 2}
    _land_attack(game, "germany", "French North Africa", "activate #1 tank-army")
    assert _terms(game) == [2, 0, 2, 2]
    roll(game, 6, 5)
    roll(game, 3, 1)
    assert "attacker rolls 6 5 = 6, defender rolls 3 1 = 5" in _score_line(game, "land")
    assert last_log(game, "the attacker wins").endswith("takes 1 loss(es) (LR 10.7)")


def test_a_strait_gives_plus_one_but_keeps_armour_superiority_lr_10_4() -> None:
    """LR 10.4 steps 1b, 2c and 2d (L2024, L2035-2036) with 2.3.4 (L453): a Japanese tank army
    crosses the strait from Hokkaido into the Maritime Territory. The Soviet infantry rolls one die
    for Japan's armour superiority (a strait, unlike adverse terrain, keeps it), +1 for the strait
    and -1 for its limited supply: 5 against 4 is one Soviet loss."""
    game = setup(
        "campaign-1933",
        [("japan", "tank-army", "hokkaido"), ("soviet-union", "infantry-army", "maritime-territory")],
        [("japan", "soviet-union")],
    )
    _land_attack(game, "japan", "Maritime Territory", "activate #1 tank-army")
    assert "defender -1: limited supply (LR 9.6, LR 10.4)" in game.state.log[-2]
    assert "defender +1: adverse terrain, strait or invasion" in game.state.log[-1]
    assert _terms(game) == [2, 0, 1, 0]
    roll(game, 5, 2)
    roll(game, 4)
    assert "attacker rolls 5 2 = 5, defender rolls 4 = 4" in _score_line(game, "land")
    assert last_log(game, "the attacker wins").endswith("takes 1 loss(es) (LR 10.7)")


def test_an_invasion_keeps_armour_superiority_and_gives_plus_one_lr_10_4() -> None:
    """LR 10.4 steps 1b and 2d (L2024, L2036): a British tank army invades Benelux from London over
    the North Sea: Germany's lone infantry rolls one die (armour superiority is not cancelled by an
    invasion) with +1 for defending against it."""
    game = setup(
        "europe-1939",
        [
            ("united-kingdom", "tank-army", "london"),
            ("united-kingdom", "surface-fleet", "north-sea"),
            ("germany", "infantry-army", "benelux"),
        ],
        [("united-kingdom", "germany")],
    )
    game.state.cubes["benelux"] = {"germany": 1}
    offensive(game, "united-kingdom", 2)
    choose(game, "united-kingdom", "invasion of Benelux")
    choose_starting(game, "united-kingdom", "activate #1 tank-army")
    settle(game)
    assert _terms(game) == [2, 0, 1, 1]
    roll(game, 4, 4)
    roll(game, 5)
    assert "attacker rolls 4 4 = 4, defender rolls 5 = 6" in _score_line(game, "land")


def test_air_superiority_is_fought_with_the_augmentation_counted_twice_lr_10_3() -> None:
    """LR 10.3 (L2006-2014) and 10.6 (L2075-2083): both sides have air units, so an air combat
    decides superiority first. The attacker's augmentation counts in that air combat (LR 10.6) and
    again in the land combat (LR 10.4 step 2a). Germany wins the air, 5 v 2, two losses: the French
    air force is destroyed, and Germany rolls a third die in the land combat."""
    game = setup(
        "europe-1939",
        [
            ("germany", "infantry-army", "lorraine"),
            ("germany", "tactical-air", "benelux"),
            ("france", "infantry-army", "paris"),
            ("france", "tactical-air", "paris"),
        ],
        [("germany", "france")],
    )
    game.state.cubes["lorraine"] = {"germany": 2}
    game.state.cubes["benelux"] = {"germany": 2}
    offensive(game, "germany", 2)
    choose(game, "germany", "land operation against Paris")
    choose_starting(game, "germany", "activate #1 infantry-army")
    choose(game, "germany", "augment 1")
    settle(game)
    choose_starting(game, "germany", "support with #2 germany tactical-air")
    settle(game)
    assert _terms(game) == [2, 1, 2, 0]  # the air combat: +1 augmentation
    roll(game, 4, 1)
    roll(game, 2, 2)
    assert "attacker rolls 4 1 = 5, defender rolls 2 2 = 2" in _score_line(game, "air")
    assert 4 not in {u.id for u in game.state.units}
    assert last_log(game, "has air superiority").endswith("the attacker has air superiority (LR 10.3)")
    assert _terms(game) == [3, 1, 2, 0]  # the land combat: +1 die for air superiority, +1 augmentation
    roll(game, 3, 2, 1)
    roll(game, 3, 3)
    assert "attacker rolls 3 2 1 = 4, defender rolls 3 3 = 3" in _score_line(game, "land")


def test_extended_range_and_supply_count_only_in_the_combat_of_their_units_lr_10_5_10_6() -> None:
    """LR 7.3.3 (L1660: -1 to combats involving extended-range units), 10.5 step 2b-2c and 10.6 (L2058-2059,
    L2080-2081): Japan's strategic air force flies from Hokkaido at extended range with a carrier
    from Formosa at normal range; the British tactical air force supporting from Hong Kong
    (Guangdong) has no LOC. The air combat for superiority costs each side -1; the British win it
    (4 v 1: four losses, the bomber is gone) and the naval combat counts neither penalty: no naval
    unit is at extended range or in limited supply. Japan's carrier superiority and British air
    superiority cancel out: two dice each."""
    game = setup(
        "campaign-1933",
        [
            ("japan", "carrier-fleet", "formosa"),
            ("japan", "strategic-air", "hokkaido"),
            ("united-kingdom", "surface-fleet", "south-china-sea"),
            ("united-kingdom", "tactical-air", "guangdong"),
        ],
        [("japan", "united-kingdom")],
    )
    offensive(game, "japan", 2)
    choose(game, "japan", "naval operation against South China Sea")
    choose(game, "japan", "activate #2 strategic-air in Hokkaido (extended range)")
    choose_starting(game, "japan", "activate #1 carrier-fleet")
    settle(game)
    choose_starting(game, "united-kingdom", "support with #4")
    settle(game)
    assert "tactical-air is in limited supply" in last_log(game, "limited supply (LR 10.2)")
    assert _terms(game) == [2, -1, 2, -1]  # the air combat
    roll(game, 2, 1)
    roll(game, 5, 3)
    assert "attacker rolls 2 1 = 1, defender rolls 5 3 = 4" in _score_line(game, "air")
    assert 2 not in {u.id for u in game.state.units}  # four losses: flipped, then destroyed
    assert last_log(game, "has air superiority").endswith("the defender has air superiority (LR 10.3)")
    assert _terms(game) == [2, 0, 2, 0]  # the naval combat
    roll(game, 3, 2)
    roll(game, 3, 1)
    assert "attacker rolls 3 2 = 3, defender rolls 3 1 = 3" in _score_line(game, "naval")


def test_a_lone_air_force_in_naval_combat_nets_its_dice_lr_10_5() -> None:
    """LR 10.5 steps 1, 1a, 1b (L2045-2050): a British strategic air force alone defends the Central
    Mediterranean against an Italian carrier. With no naval units it rolls one die; it alone has
    air, so it has air superiority (+1 die, no air combat), and Italy's carrier superiority takes
    that die back: one die, no penalty. A 4-4 tie costs each side a loss, but only naval units
    take losses in naval combat: the carrier flips, the air force is untouched."""
    game = setup(
        "europe-1939",
        [("italy", "carrier-fleet", "sicily"), ("united-kingdom", "strategic-air", "central-mediterranean")],
        [("italy", "united-kingdom")],
    )
    offensive(game, "italy", 1)
    choose(game, "italy", "naval operation against Central Mediterranean")
    choose_starting(game, "italy", "activate #1 carrier-fleet")
    settle(game)
    assert _terms(game) == [2, 0, 1, 0]
    roll(game, 4, 4)
    roll(game, 4)
    assert "attacker rolls 4 4 = 4, defender rolls 4 = 4" in _score_line(game, "naval")
    # a tie: one loss each; the British side has no naval unit to take it (LR 10.5)
    assert {u.id: u.type for u in game.state.units} == {1: "surface-fleet", 2: "strategic-air"}


def test_a_side_with_one_die_that_must_lose_one_rolls_it_at_minus_one_lr_10_4() -> None:
    """LR 10.4 step 1 with its reminder (L2022-2026): only a French fleet stands in Brittany when a
    German tank army attacks from Paris. France has no land units (one die) and Germany has armour
    superiority: France keeps its one die at -1. 3 against 2-1 = 1: three losses France cannot
    take with land units; Brittany falls."""
    from grandstrategy.cataclysm.rules.control import controller

    game = setup(
        "europe-1939",
        [("germany", "tank-army", "paris"), ("france", "surface-fleet", "brittany")],
        [("germany", "france")],
    )
    game.state.cubes["paris"] = {"germany": 2}
    _land_attack(game, "germany", "Brittany", "activate #1 tank-army")
    assert _terms(game) == [2, 0, 1, -1]
    roll(game, 3, 1)
    roll(game, 2)
    assert "attacker rolls 3 1 = 3, defender rolls 2 = 1" in _score_line(game, "land")
    assert {u.id: u.type for u in game.state.units}[2] == "surface-fleet"  # no land unit to lose
    while game.pending is not None and game.pending["type"] == "decide":
        choose(game, game.pending["power"], options(game)[0])
    assert controller(game.module, game.state, "brittany") == "germany"


def test_two_sixes_against_one_and_two_is_three_losses_lr_10_7_example() -> None:
    """LR 10.7 example (L2099-2101) through the engine: German air units attack French air units in
    Paris; Germany rolls two 6s (7), France a 1 and a 2 (2): three full multiples, three losses.
    France's two air forces can absorb only two, so no retreat is offered and both are destroyed."""
    game = setup(
        "europe-1939",
        [
            ("germany", "tactical-air", "lorraine"),
            ("germany", "tactical-air", "lorraine"),
            ("france", "tactical-air", "paris"),
            ("france", "tactical-air", "paris"),
        ],
        [("germany", "france")],
    )
    game.state.cubes["lorraine"] = {"germany": 2}
    offensive(game, "germany", 1)
    choose(game, "germany", "air operation against Paris")
    choose_starting(game, "germany", "activate #1 tactical-air")
    choose_starting(game, "germany", "activate #2 tactical-air")
    settle(game)
    assert _terms(game) == [2, 0, 2, 0]
    roll(game, 6, 6)
    roll(game, 1, 2)
    assert "attacker rolls 6 6 = 7, defender rolls 1 2 = 2" in _score_line(game, "air")
    assert last_log(game, "the attacker wins").endswith("takes 3 loss(es) (LR 10.7)")
    assert game.pending is not None and "take a loss (3 to go" in game.pending["prompt"]  # no retreat
    choose(game, "france", "#3 france tactical-air")
    assert {u.power for u in game.state.units} == {"germany"}  # the last one had no choice left


# ---- LR 4.3 with 2.3.3: Gibraltar is a friendly port for lines of communication --------------------


def test_gibraltar_is_a_port_for_the_uks_lines_of_communication_lr_4_3() -> None:
    """LR 4.3 (L949-953: a belligerent's LOC uses seas within two areas of a friendly port) with
    2.3.3 (L438-441: a special base is a naval base like any other): with the Central and Eastern
    Mediterranean bases in Italian hands, the Tyrrhenian Sea is within two areas of a British port
    only through Gibraltar (by the Western Mediterranean, on its coast). The British sub pack
    there, attacked by Italy, traces its LOC and is not in limited supply."""
    game = setup(
        "europe-1939",
        [("italy", "surface-fleet", "rome"), ("united-kingdom", "submarine-pack", "tyrrhenian-sea")],
        [("italy", "united-kingdom")],
    )
    game.state.base_owners["central-mediterranean#0"] = "italy"
    game.state.base_owners["eastern-mediterranean#0"] = "italy"
    offensive(game, "italy", 1)
    choose(game, "italy", "naval operation against Tyrrhenian Sea")
    choose_starting(game, "italy", "activate #1 surface-fleet")
    settle(game)
    assert not any("limited supply" in line for line in game.state.log)
    assert _terms(game) == [2, 0, 2, 0]


def test_one_army_across_a_strait_gives_the_defender_its_plus_one_lr_10_4() -> None:
    """LR 10.4 step 2d (L2036) and 2.3.4 (L453), our reading: Japanese armies attack the Maritime
    Territory from Hokkaido (across a strait) and from Manchuria (by land). The defender is
    defending across a strait as long as any attacking army crosses one: +1 (and -1 for its
    limited supply, as in the test above)."""
    game = setup(
        "campaign-1933",
        [
            ("japan", "infantry-army", "hokkaido"),
            ("japan", "infantry-army", "manchuria"),
            ("soviet-union", "infantry-army", "maritime-territory"),
        ],
        [("japan", "soviet-union")],
    )
    _land_attack(
        game,
        "japan",
        "Maritime Territory",
        "activate #1 infantry-army",
        "activate #2 infantry-army",
        actions=2,
    )
    assert "defender +1: adverse terrain, strait or invasion" in game.state.log[-1]
    assert _terms(game) == [2, 0, 2, 0]


def test_a_scenario_fleet_at_gibraltar_must_stand_on_its_coast_lr_2_3_3(tmp_path: Path) -> None:
    """LR 2.2.1 (L280) with 2.3.3 (L438-441): the module check refuses a scenario that puts a British
    fleet at Gibraltar on Spain's north coast, and accepts it on the south coast."""
    import shutil

    import yaml

    from grandstrategy.cataclysm.module import DEFAULT_MODULE_DIR, check_module

    for coast, refused in (("north", True), ("south", False)):
        root = tmp_path / coast
        shutil.copytree(DEFAULT_MODULE_DIR, root)
        path = root / "scenarios" / "europe-1939.yaml"
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        data["units"].append(
            {
                "power": "united-kingdom",
                "type": "surface-fleet",
                "area": "spain",
                "coast": coast,
                "provenance": "reconstructed",
            }
        )
        path.write_text(yaml.safe_dump(data, sort_keys=False, allow_unicode=True), encoding="utf-8")
        found = [str(p) for p in check_module(root).problems]
        assert any("Gibraltar stands on its coast, 'south'" in p for p in found) is refused, found
