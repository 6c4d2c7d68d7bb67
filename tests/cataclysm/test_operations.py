"""Operations and combat through the engine (LR 8–10), with the rules' examples and their exact dice."""

from __future__ import annotations

from grandstrategy.cataclysm.engine import CataclysmGame
from grandstrategy.cataclysm.engine.invariants import problems
from grandstrategy.cataclysm.module import load_module
from grandstrategy.cataclysm.module.schema import Commitment
from grandstrategy.cataclysm.rules.control import controller, victory_points
from grandstrategy.cataclysm.state import new_state

MODULE = load_module()


def bare_game(scenario: str = "europe-1939") -> CataclysmGame:
    return CataclysmGame(MODULE, new_state(MODULE, scenario))


def options(game: CataclysmGame) -> list[str]:
    assert game.pending is not None and game.pending["type"] == "decide", game.pending
    return list(game.pending["options"])


def choose(game: CataclysmGame, power: str, option: str) -> None:
    assert game.pending is not None and game.pending["type"] == "decide", game.pending
    assert game.pending["power"] == power, game.pending
    assert option in game.pending["options"], game.pending["options"]
    game.apply(game.legal_actions()[game.pending["options"].index(option)])
    assert not problems(game), problems(game)


def choose_starting(game: CataclysmGame, power: str, prefix: str) -> None:
    match = [o for o in options(game) if o.startswith(prefix)]
    assert len(match) == 1, (prefix, options(game))
    choose(game, power, match[0])


def roll(game: CataclysmGame, *faces: int) -> None:
    for face in faces:
        assert game.pending is not None and game.pending["type"] == "chance", game.pending
        game.apply_chance(str(face))


def place_flags(game: CataclysmGame, where: dict[str, str]) -> None:
    """Each named power gains one flag, in whatever order, and puts it where the example says."""
    left = dict(where)
    while left:
        assert game.pending is not None and "place the flag" in game.pending["prompt"], game.pending
        power = game.pending["power"]
        choose(game, power, left.pop(power))


def test_poland_land_operation_example_lr_l2217_l2241() -> None:
    """Fall Weiss: maneuvers, a land operation on French Poland, triumph and conquest, the text's dice."""
    game = bare_game()
    state = game.state
    germany_vp = victory_points(MODULE, state, "germany")
    france_vp = victory_points(MODULE, state, "france")
    state.cup.remove("flag:germany")  # the German flag is drawn
    game.push("play-counter", counter="flag:germany", source="cup")
    game.run()
    choose(game, "germany", "maneuvers")
    roll(game, 6, 4, 3)  # effectiveness 3 at rearmament: success
    choose(game, "germany", "land operation against Poland")
    choose_starting(game, "germany", "activate #2 tank-army")
    choose_starting(game, "germany", "activate #1 infantry-army")  # Poland's land limit is now full
    # provocation: France (controller), the UK (its ally) and the USSR (adjacent) each gain a flag
    place_flags(game, {"france": "reserve", "united-kingdom": "cup", "soviet-union": "reserve"})
    assert state.powers["united-kingdom"].reserve == "offensive:united-kingdom"
    choose_starting(game, "germany", "support with #3 germany tactical-air")  # the only supporter
    # German air superiority without an air combat; Poland loses a die to German armour
    roll(game, 6, 6, 4)  # Germany: three dice, 7
    roll(game, 3)  # Poland: one die, 3 -> two losses; the minor army takes one: triumph
    assert "poland" not in state.minor_armies
    # conquest: France, the UK and the USSR gain flags
    place_flags(game, {"france": "cup", "united-kingdom": "cup", "soviet-union": "cup"})
    assert controller(MODULE, state, "poland") == "germany"
    assert victory_points(MODULE, state, "germany") == germany_vp + 1
    assert victory_points(MODULE, state, "france") == france_vp - 1
    # regroup: the infantry to Czechoslovakia, the air force back to Silesia
    choose_starting(game, "germany", "regroup #1 infantry-army")
    choose(game, "germany", "Czechoslovakia")
    choose_starting(game, "germany", "regroup #3 tactical-air")
    choose(game, "germany", "Silesia")
    choose(game, "germany", "done")
    choose(game, "germany", "reserve")  # the triumph flag
    units = {u.id: u.area for u in state.units}
    assert units[1] == "czechoslovakia" and units[2] == "poland" and units[3] == "silesia"
    assert state.powers["germany"].reserve == "flag:germany"
    assert game.pending is None
    assert state.powers["germany"].commitment is Commitment.REARMAMENT


def setup(scenario: str, units: list[tuple[str, str, str]], wars: list[tuple[str, str]]) -> CataclysmGame:
    """A bare game holding only ``units`` (power, type, area), with these pairs at war."""
    from grandstrategy.cataclysm.engine.war_start import make_war
    from grandstrategy.cataclysm.state import Unit

    game = bare_game(scenario)
    game.state.units = [Unit(i + 1, p, t, a) for i, (p, t, a) in enumerate(units)]
    game.state.next_unit_id = len(units) + 1
    make_war(game, wars)
    game.stack.clear()  # the checks queued by the war change run on an empty board
    return game


def settle(game: CataclysmGame) -> None:
    """Answer every flag placement with 'cup' (provocations the examples do not mention)."""
    while (
        game.pending is not None
        and game.pending["type"] == "decide"
        and "place the flag" in game.pending["prompt"]
    ):
        choose(game, game.pending["power"], "cup")


def offensive(game: CataclysmGame, power: str, actions: int) -> None:
    game.push("military-action", power=power, left=actions, deployed=[], only=None)
    game.run()


def deploy_alone(game: CataclysmGame, power: str) -> None:
    """Open a deployment of all the power's units outside an offensive (LR 8.4) and run to its menu."""
    from grandstrategy.cataclysm.engine.military import deploy

    deploy(game, power, None)
    game.run()


def last_log(game: CataclysmGame, text: str) -> str:
    found = [line for line in game.state.log if text in line]
    assert found, text
    return found[-1]


def test_sicily_naval_operation_example_lr_l2065_l2069() -> None:
    """An air-only attacker: tie in the air, then one naval die plus one for air superiority."""
    game = setup(
        "europe-1939",
        [
            ("italy", "surface-fleet", "sicily"),
            ("italy", "tactical-air", "sicily"),
            ("united-kingdom", "strategic-air", "central-mediterranean"),
        ],
        [("united-kingdom", "italy")],
    )
    offensive(game, "united-kingdom", 1)
    choose(game, "united-kingdom", "naval operation against Sicily")
    choose_starting(game, "united-kingdom", "activate #3 strategic-air")
    settle(game)
    roll(game, 4, 2)  # the air combat for superiority: the UK scores 4 ...
    roll(game, 4, 1)  # ... and so does Italy: one loss each
    types = {u.id: u.type for u in game.state.units}
    assert 2 not in types  # the Italian tactical air force is destroyed
    assert types[3] == "tactical-air"  # the British strategic air force flips
    assert last_log(game, "has air superiority").endswith("the attacker has air superiority (LR 10.3)")
    roll(game, 5, 3)  # two naval dice for the UK: one (no fleets) + one (air superiority)
    roll(game, 2, 1)
    assert "attacker rolls 5 3 = 5, defender rolls 2 1 = 2" in last_log(game, "naval combat:")
    assert 1 not in {u.id for u in game.state.units}  # the Italian fleet takes the losses ...
    assert 3 in {u.id for u in game.state.units}  # ... never the British air force (LR 10.5)


def test_ruhr_air_operation_example_lr_l2089_l2091() -> None:
    """US and UK strategic air from London, two augments, 5 v 4; Germany retreats to Bavaria."""
    game = setup(
        "europe-1939",
        [
            ("united-states", "strategic-air", "london"),
            ("united-kingdom", "strategic-air", "london"),
            ("germany", "tactical-air", "ruhr"),
            ("germany", "tactical-air", "ruhr"),
            ("germany", "infantry-army", "ruhr"),
        ],
        [("united-states", "germany"), ("united-kingdom", "germany")],
    )
    game.state.alliances["democracy"] = ["united-kingdom", "united-states"]
    offensive(game, "united-states", 3)
    choose(game, "united-states", "air operation against Ruhr")
    choose_starting(game, "united-states", "activate #1 strategic-air")
    choose_starting(game, "united-states", "activate #2 strategic-air")
    choose(game, "united-kingdom", "allow")  # an ally's unit joins with its permission (LR 9.1)
    choose(game, "united-states", "augment 2")
    settle(game)
    roll(game, 3, 1)  # 3 + 2 = 5
    roll(game, 4, 2)  # 4: one German loss
    choose(game, "germany", "retreat")  # down to no loss
    choose(game, "germany", "Bavaria")
    choose(game, "germany", "Bavaria")
    areas = {u.id: u.area for u in game.state.units}
    assert areas[3] == areas[4] == "bavaria" and areas[5] == "ruhr"  # the army is unaffected
    assert {u.type for u in game.state.units if u.power == "germany"} == {"tactical-air", "infantry-army"}
    while game.pending is not None and game.pending["type"] == "decide":
        option = next((o for o in options(game) if o.startswith("regroup")), None)
        choose(game, game.pending["power"], option or ("London" if "London" in options(game) else "done"))
    areas = {u.id: u.area for u in game.state.units}
    assert areas[1] == areas[2] == "london"


def test_carrier_disaster_example_lr_l2159() -> None:
    """One carrier each; Japan rolls 1, the UK 3: three losses, no retreat, disaster."""
    game = setup(
        "campaign-1933",
        [("japan", "carrier-fleet", "formosa"), ("united-kingdom", "carrier-fleet", "south-china-sea")],
        [("japan", "united-kingdom")],
    )
    offensive(game, "japan", 1)
    choose(game, "japan", "naval operation against South China Sea")
    choose_starting(game, "japan", "activate #1 carrier-fleet")
    settle(game)
    roll(game, 1, 1)  # Japan: 1
    roll(game, 3, 2)  # the UK: 3 -> three losses; the remaining two would still sink the carrier
    assert "japan" not in {u.power for u in game.state.units}
    flags = game.state.powers["united-kingdom"].available_flags
    choose(game, "united-kingdom", "done")  # the aftermath's regroup comes before the triumph (LR 10.7)
    choose(game, "united-kingdom", "cup")  # the triumph flag
    assert game.state.powers["united-kingdom"].available_flags == flags - 1
    assert "stability test" in game.pending["label"] and game.pending["label"].startswith("japan")


def test_moscow_limited_supply_example_lr_l1905() -> None:
    """The tank army in Smolensk is out of supply; the air force in Leningrad draws it by the Baltic."""
    game = setup(
        "europe-1939",
        [
            ("germany", "tank-army", "smolensk"),
            ("germany", "tactical-air", "leningrad"),
            ("soviet-union", "infantry-army", "moscow"),
        ],
        [("germany", "soviet-union")],
    )
    for area in ("poland", "baltic-states", "leningrad", "smolensk"):
        game.state.cubes[area] = {"germany": 1}
    offensive(game, "germany", 1)
    choose(game, "germany", "land operation against Moscow")
    choose_starting(game, "germany", "activate #1 tank-army")
    settle(game)
    assert "tank-army in Smolensk is in limited supply" in last_log(game, "limited supply")
    choose_starting(game, "germany", "support with #2 germany tactical-air")
    settle(game)
    assert not any("tactical-air is in limited supply" in line for line in game.state.log)
    roll(game, 5, 4, 1)  # Germany: two dice, +1 for air superiority; -1 for limited supply
    assert "attacker -1: limited supply" in last_log(game, "limited supply (LR 9.6")


def test_surprise_attack_example_lr_l1961_l1969() -> None:
    """Japan surprises the US fleet at Hawaii: war, two US flags, -1 to the US, then No Surprise."""
    game = setup(
        "campaign-1933",
        [("japan", "carrier-fleet", "marshalls"), ("united-states", "surface-fleet", "hawaii")],
        [],
    )
    game.state.powers["japan"].commitment = Commitment.MOBILIZATION
    game.state.markers.remove("wnt")  # Japan has ended the naval treaty
    offensive(game, "japan", 1)
    choose(game, "japan", "surprise naval operation against Hawaii")
    choose_starting(game, "japan", "activate #1 carrier-fleet")
    us_flags = game.state.powers["united-states"].available_flags
    settle(game)
    assert game.state.powers["united-states"].available_flags == us_flags - 2
    assert ["japan"] in [side for war in game.state.wars for side in war]
    roll(game, 6, 3)  # Japan: 6
    roll(game, 5)  # the US: one die (Japanese carrier superiority), 5 - 1 = 4
    assert "defender -1: surprised (LR 9.8)" in last_log(game, "surprised")
    assert "attacker rolls 6 3 = 6, defender rolls 5 = 4" in last_log(game, "naval combat:")
    while game.pending is not None and game.pending["type"] == "decide":
        choose(game, game.pending["power"], options(game)[0])
    assert "democracy" in game.state.no_surprise


def test_declaration_of_war_is_followed_by_one_operation_on_the_target_lr_6_2() -> None:
    """France (mobilization) declares war on Germany; the UK at rearmament cannot join and so
    leaves the alliance (LR 6.1.3); Germany gains a flag; France must then attack Germany."""
    game = bare_game()
    state = game.state
    state.powers["france"].available_flags -= 1  # the flag played
    game.push("play-counter", counter="flag:france", source="cup")
    game.run()
    assert "declare-war germany" in options(game)
    choose(game, "france", "declare-war germany")
    roll(game, 5)  # effectiveness 1: one die, a 5 succeeds
    assert options(game) == ["break the alliance"]
    choose(game, "united-kingdom", "break the alliance")
    assert "democracy" not in state.alliances
    choose(game, "germany", "reserve")  # the target's flag
    war = [w for w in state.wars if "france" in w[0] + w[1]]
    assert war and "germany" in war[0][0] + war[0][1]
    menu = options(game)
    assert menu and all("against" in o or "of " in o or " at " in o for o in menu), menu
    assert "forfeit" not in menu and not any(o.startswith("build") for o in menu)  # an operation only


def test_ally_at_mobilization_may_join_the_declarers_war_lr_6_1_3() -> None:
    game = bare_game()
    state = game.state
    state.powers["united-kingdom"].commitment = Commitment.MOBILIZATION
    state.powers["france"].available_flags -= 1
    game.push("play-counter", counter="flag:france", source="cup")
    game.run()
    choose(game, "france", "declare-war germany")
    roll(game, 6)
    assert options(game) == ["join the war", "break the alliance"]
    choose(game, "united-kingdom", "join the war")
    assert state.alliances["democracy"] == ["france", "united-kingdom"]
    assert any("united-kingdom" in a and "germany" in b for a, b in state.wars)


def test_invasion_across_one_sea_area_with_a_friendly_fleet_lr_9_3_2() -> None:
    """Two actions together; the defender gets +1 against an invasion; the invader may stay."""
    game = setup(
        "europe-1939",
        [
            ("united-kingdom", "infantry-army", "london"),
            ("united-kingdom", "surface-fleet", "north-sea"),
            ("germany", "infantry-army", "benelux"),
        ],
        [("united-kingdom", "germany")],
    )
    game.state.cubes["benelux"] = {"germany": 1}
    offensive(game, "united-kingdom", 1)
    assert "invasion of Benelux" not in options(game)  # an invasion needs two actions at once
    game = setup(
        "europe-1939",
        [
            ("united-kingdom", "infantry-army", "london"),
            ("united-kingdom", "surface-fleet", "north-sea"),
            ("germany", "infantry-army", "benelux"),
        ],
        [("united-kingdom", "germany")],
    )
    game.state.cubes["benelux"] = {"germany": 1}
    offensive(game, "united-kingdom", 2)
    choose(game, "united-kingdom", "invasion of Benelux")
    choose_starting(game, "united-kingdom", "activate #1 infantry-army")
    settle(game)
    roll(game, 6, 6)  # the UK: 7
    roll(game, 2, 1)  # Germany: 2 + 1 for defending against an invasion = 3 -> two losses
    assert "defender +1: adverse terrain, strait or invasion" in last_log(game, "invasion, counted once")
    assert controller(MODULE, game.state, "benelux") == "united-kingdom"
    choose_starting(game, "united-kingdom", "regroup #1 infantry-army")
    assert "London" in options(game)  # the invasion's origin counts as adjacent for regroup (LR 9.3.2)


def test_strategic_bombing_with_intrinsic_defence_damages_a_resource_lr_9_5_2() -> None:
    game = setup(
        "europe-1939",
        [("united-kingdom", "strategic-air", "london"), ("germany", "infantry-army", "ruhr")],
        [("united-kingdom", "germany")],
    )
    offensive(game, "united-kingdom", 1)
    choose(game, "united-kingdom", "strategic bombing of Ruhr")
    choose_starting(game, "united-kingdom", "activate #1 strategic-air")
    settle(game)
    roll(game, 6, 4)  # the UK: 6
    roll(game, 2)  # Germany's one intrinsic die: 2 -> three losses, no air unit to take them
    while game.pending is not None and game.pending["type"] == "decide":
        choose(
            game,
            game.pending["power"],
            next(
                (o for o in options(game) if o in ("London", "damage the printed resource")), options(game)[0]
            ),
        )
    assert "ruhr" in game.state.damaged
    assert {u.id: u.area for u in game.state.units}[1] != "ruhr"  # it cannot stay in an enemy area


def test_base_capture_without_defenders_succeeds_at_once_lr_9_4_2() -> None:
    game = setup(
        "campaign-1933",
        [("japan", "surface-fleet", "marshalls")],
        [("japan", "united-states")],
    )
    assert "wnt" not in game.state.markers  # the treaty ended when the US went to war
    offensive(game, "japan", 1)
    choose(game, "japan", "base capture at Hawaii")
    choose_starting(game, "japan", "activate #1 surface-fleet")
    settle(game)
    while game.pending is not None and game.pending["type"] == "decide":
        choose(game, game.pending["power"], options(game)[0])
    assert game.state.base_owners["hawaii#0"] == "japan"


def test_deployed_units_may_not_attack_later_in_the_offensive_lr_l1752() -> None:
    """Deploy an army and an air force to Poland; then only the tank army may attack Ukraine,
    while the air force that deployed may still support it (LR 8.4.2)."""
    game = setup(
        "europe-1939",
        [
            ("germany", "tank-army", "poland"),
            ("germany", "infantry-army", "silesia"),
            ("germany", "tactical-air", "east-prussia"),
            ("soviet-union", "infantry-army", "ukraine"),
        ],
        [("germany", "soviet-union")],
    )
    game.state.cubes["poland"] = {"germany": 1}
    game.state.minor_armies.remove("poland")  # destroyed in the conquest
    offensive(game, "germany", 2)
    choose(game, "germany", "deploy")
    choose_starting(game, "germany", "move #2 infantry-army")
    choose(game, "germany", "Poland")
    choose_starting(game, "germany", "move #3 tactical-air")
    choose(game, "germany", "Poland")
    choose(game, "germany", "done")
    choose(game, "germany", "land operation against Ukraine")
    assert options(game) == ["activate #1 tank-army in Poland"]
    choose(game, "germany", "activate #1 tank-army in Poland")
    settle(game)
    assert any(o.startswith("support with #3 germany tactical-air") for o in options(game))


def test_the_same_army_attacks_twice_in_one_offensive_lr_l1782() -> None:
    game = setup(
        "europe-1939",
        [("germany", "tank-army", "ruhr"), ("france", "infantry-army", "paris")],
        [("germany", "france")],
    )
    game.state.cubes["benelux"] = {"france": 1}
    offensive(game, "germany", 2)
    choose(game, "germany", "land operation against Benelux")
    choose_starting(game, "germany", "activate #1 tank-army")
    choose(game, "germany", "augment 0")  # keep the second action for Paris
    settle(game)
    roll(game, 6, 5)  # Germany 6 against the empty Benelux's one die
    roll(game, 2)
    while (
        game.pending is not None
        and game.pending["type"] == "decide"
        and "military action" not in game.pending["prompt"]
    ):
        choose(game, game.pending["power"], "cup" if "cup" in options(game) else "done")
    assert controller(MODULE, game.state, "benelux") == "germany"
    assert "land operation against Paris" in options(game)
    choose(game, "germany", "land operation against Paris")
    assert options(game) == ["activate #1 tank-army in Benelux"]


def test_armistice_by_consent_in_the_end_phase_lr_5_6_2() -> None:
    game = setup("europe-1939", [], [("france", "germany")])
    game.push("armistice-window", powers=None, asked=[])
    game.run()
    assert options(game) == ["no", "armistice with france"]  # Germany, the most effective, first
    choose(game, "germany", "no")
    choose(game, "france", "armistice with germany")
    choose(game, "germany", "accept")
    assert not any("france" in a + b for a, b in game.state.wars)
    assert game.pending is None


def test_a_declined_armistice_leaves_the_war_lr_5_6_2() -> None:
    game = setup("europe-1939", [], [("france", "germany")])
    game.push("armistice-window", powers=None, asked=[])
    game.run()
    choose(game, "germany", "armistice with france")
    choose(game, "france", "decline")
    assert game.pending is not None and game.pending["power"] == "france"  # Germany asked once
    assert options(game) == ["no", "armistice with germany"]
    assert any("france" in a + b for a, b in game.state.wars)


def test_units_that_lose_the_right_to_stay_retreat_or_go_to_the_cup_lr_6_1_4() -> None:
    """A German fleet at sea next to a German port may stay only while Germany is at war (LR 7.1.2)."""
    game = setup("europe-1939", [("germany", "surface-fleet", "baltic-sea")], [("france", "germany")])
    from grandstrategy.cataclysm.rules.occupation import may_stop

    fleet = game.state.units[0]
    assert may_stop(MODULE, game.state, fleet, "baltic-sea")
    game.push("armistice-settle", power="germany", accepted=["france"])
    game.run()
    assert "to the cup" in options(game)
    choose(game, "germany", "to the cup")
    assert not game.state.units and "unit:germany:surface-fleet" in game.state.cup


def test_an_operation_activates_no_more_units_than_the_target_holds_lr_7_1() -> None:
    game = setup(
        "europe-1939",
        [("germany", "infantry-army", "berlin")] * 3 + [("soviet-union", "infantry-army", "poland")],
        [("germany", "soviet-union")],
    )
    game.state.cubes["poland"] = {"soviet-union": 1}
    game.state.minor_armies.remove("poland")
    offensive(game, "germany", 1)
    choose(game, "germany", "land operation against Poland")
    choose_starting(game, "germany", "activate #1")
    choose_starting(game, "germany", "activate #2")
    assert game.pending is not None
    assert "activate units" not in game.pending.get("prompt", "")  # the third army cannot join
    assert {u.id: u.area for u in game.state.units}[3] == "berlin"


def test_a_belligerent_democracy_checks_before_attacking_a_neutral_country_lr_9_7() -> None:
    game = setup(
        "europe-1939",
        [("france", "infantry-army", "provence"), ("germany", "infantry-army", "berlin")],
        [("france", "germany")],
    )
    offensive(game, "france", 1)
    assert "land operation against Spain" in options(game)
    choose(game, "france", "land operation against Spain")
    choose_starting(game, "france", "activate #1 infantry-army")
    assert game.pending is not None and "attack on Spain" in game.pending["label"]
    roll(game, 3)  # effectiveness 1: a 3 fails, the operation is cancelled and the action lost
    assert game.pending is None
    assert {u.id: u.area for u in game.state.units}[1] == "provence"
    assert "the operation is cancelled" in last_log(game, "cancelled")


def test_a_failed_attack_on_an_uncontrolled_country_opens_an_opportunity_lr_9_7_2() -> None:
    game = setup(
        "europe-1939",
        [("germany", "infantry-army", "berlin"), ("france", "infantry-army", "paris")],
        [("germany", "france")],
    )
    game.state.cubes.pop("poland", None)  # Poland uncontrolled, with its minor army
    offensive(game, "germany", 1)
    choose(game, "germany", "land operation against Poland")
    choose_starting(game, "germany", "activate #1 infantry-army")
    settle(game)
    roll(game, 2, 1)  # Germany: 2
    roll(game, 3, 1)  # Poland: 3 -> one loss; Germany retreats to take none
    choose(game, "germany", "retreat")
    while game.pending is not None and game.pending["type"] == "decide":
        choose(game, game.pending["power"], options(game)[0])
    assert controller(MODULE, game.state, "poland") is None
    assert "diplomatic opportunity" in last_log(game, "diplomatic opportunity")
    assert game.pending is not None and game.pending["label"].startswith("france")  # the enemy goes first


def test_at_least_half_the_losses_fall_on_the_primary_defender_lr_10_8() -> None:
    game = setup(
        "europe-1939",
        [
            ("germany", "tank-army", "ruhr"),
            ("germany", "tank-army", "ruhr"),
            ("france", "infantry-army", "lorraine"),
            ("united-kingdom", "infantry-army", "lorraine"),
        ],
        [("germany", "france"), ("germany", "united-kingdom")],
    )
    game.state.alliances["democracy"] = ["france", "united-kingdom"]
    game.state.cubes["lorraine"] = {"france": 1}
    offensive(game, "germany", 2)
    choose(game, "germany", "land operation against Lorraine")
    choose_starting(game, "germany", "activate #1 tank-army")
    choose_starting(game, "germany", "activate #2 tank-army")
    choose(game, "germany", "france")  # two powers have armies there: the attacker picks (LR 9.1.1)
    choose(game, "germany", "augment 0")
    settle(game)
    roll(game, 6, 5)  # Germany: 6
    roll(game, 3)  # the defenders (no armour): one die, 3 -> two losses
    assert "stand" in options(game) or "retreat" in options(game)
    choose(game, game.pending["power"], "stand")
    first = options(game)
    assert first == ["#3 france infantry-army", "#4 united-kingdom infantry-army"]
    choose(game, "france", "#4 united-kingdom infantry-army")
    # one loss of two has gone to the British army: the second must be French (LR 10.8)
    assert 3 not in {u.id for u in game.state.units}


def test_nobody_attacks_the_naval_treaty_zone_lr_12_1_3() -> None:
    game = setup(
        "campaign-1933",
        [("japan", "carrier-fleet", "carolines"), ("united-states", "surface-fleet", "philippines")],
        [],
    )
    game.state.powers["japan"].commitment = Commitment.MOBILIZATION
    assert "wnt" in game.state.markers
    offensive(game, "japan", 1)
    assert not any("Philippines" in o for o in options(game))
    choose(game, "japan", "forfeit")
    game.state.markers.remove("wnt")  # once Japan ends the treaty, the attack is open
    offensive(game, "japan", 1)
    assert "surprise naval operation against Philippines" in options(game)


def test_germany_keeps_out_of_the_demilitarized_ruhr_lr_12_1_1() -> None:
    game = setup("campaign-1933", [("germany", "infantry-army", "berlin")], [])
    assert "rhineland" in game.state.markers
    game.push("deploy", power="germany", units=None, moved=[], offensive=False)
    game.run()
    choose_starting(game, "germany", "move #1 infantry-army")
    assert "Ruhr" not in options(game) and "Bavaria" in options(game)


def test_a_fortress_just_played_may_deploy_lr_3_7_2() -> None:
    game = setup("europe-1939", [], [])
    game.push("place-unit", power="germany", unit_type="fortress", choice="berlin")
    game.run()
    assert any(o.startswith("move #1 fortress") for o in options(game))


def test_the_a_bomb_timer_starts_when_the_us_reaches_total_war_lr_12_2_2() -> None:
    from grandstrategy.cataclysm.engine.politics import escalate

    game = setup("campaign-1933", [], [("united-states", "japan")])
    game.state.powers["united-states"].commitment = Commitment.MOBILIZATION
    escalate(game, "united-states")
    assert "a-bomb-timer:united-states" in game.state.turn_track[game.state.turn + 4]


def test_the_a_bomb_built_and_drawn_goes_to_washington_lr_12_2_2() -> None:
    game = setup("campaign-1933", [], [("united-states", "japan")])
    game.state.markers.append("a-bomb-available")
    offensive(game, "united-states", 1)
    choose(game, "united-states", "build a-bomb")  # one build, straight to the cup
    assert "a-bomb:united-states" in game.state.cup and "a-bomb-available" not in game.state.markers
    game.stack.clear()
    game.push("drawn", outcome="a-bomb:united-states")
    game.run()
    assert "a-bomb-ready" in game.state.markers and "a-bomb:united-states" not in game.state.cup
    assert game.state.powers["united-states"].reserve != "a-bomb:united-states"


def test_an_atomic_attack_forces_one_stability_test_and_raises_the_threshold_lr_12_2_2() -> None:
    from grandstrategy.cataclysm.module.schema import Stability

    game = setup("campaign-1933", [], [("united-states", "japan")])
    game.state.markers.append("a-bomb-ready")
    game.state.powers["japan"].stability = Stability.UNSTABLE
    offensive(game, "united-states", 1)
    choose(game, "united-states", "atomic bombing of Tokyo")
    assert "a-bomb-available" in game.state.markers and "a-bomb-ready" not in game.state.markers
    roll(game, 6, 5)  # the bomb: 6
    roll(game, 2)  # Tokyo's intrinsic air defence: 2 -> three losses, none absorbed
    assert "tokyo" in game.state.damaged
    assert game.pending is not None and game.pending["label"] == "japan stability test (A-Bomb)"
    while (
        game.pending is not None and game.pending["type"] == "chance" and "stability" in game.pending["label"]
    ):
        game.apply_chance("1")  # the one test fails: Japan collapses
    assert game.pending is not None and "threshold" in game.pending["label"]
    base = game.pending["label"]
    assert "a-bomb-losses:japan:3" in game.state.markers
    from grandstrategy.cataclysm.rules.politics import surrender_threshold

    with_bomb = surrender_threshold(MODULE, game.state, "japan")
    game.state.markers.remove("a-bomb-losses:japan:3")
    assert with_bomb == surrender_threshold(MODULE, game.state, "japan") + 3, base


def test_a_unit_moves_at_most_twice_in_one_deployment_lr_8_4() -> None:
    game = setup("europe-1939", [("germany", "infantry-army", "berlin")], [])
    game.push("deploy", power="germany", units=None, moved=[], offensive=False)
    game.run()
    for area in ("Silesia", "Berlin"):
        choose_starting(game, "germany", "move #1 infantry-army")
        choose(game, "germany", area)
    assert game.pending is None  # no third move: the deployment is over


def test_bots_get_the_exact_odds_of_an_operation_option() -> None:
    from fractions import Fraction

    from grandstrategy.cataclysm.chances import option_odds
    from grandstrategy.cataclysm.odds import parse_situation, situation_odds

    game = bare_game()
    offensive(game, "germany", 1)
    poland = situation_odds(
        parse_situation(
            {
                "combat": "land",
                "attacker": {"units": ["tank-army", "infantry-army"], "air": ["tactical-air"]},
                "defender": {"units": ["minor-army"]},
            }
        )
    ).attacker_wins
    assert (
        poland == Fraction(poland)
        and abs((option_odds(game, "germany", "land operation against Poland") or 0.0) - float(poland))
        < 1e-12
    )
    assert option_odds(game, "germany", "forfeit") is None


def test_a_third_power_joins_an_existing_alliance_alone_lr_6_1_1() -> None:
    """Only the joiner plays a flag and checks; with Lend Lease in play the US may ally (LR 12.2.2)."""
    game = bare_game()  # France and the UK are allied in 1939
    state = game.state
    from grandstrategy.cataclysm.rules.special import LEND_LEASE_IN_PLAY

    state.markers.append(LEND_LEASE_IN_PLAY)
    state.powers["united-states"].available_flags -= 1
    game.push("play-counter", counter="flag:united-states", source="cup")
    game.run()
    assert "join-alliance" in options(game)
    choose(game, "united-states", "join-alliance")
    roll(game, 5)  # effectiveness 1: a 5 succeeds
    assert state.alliances["democracy"] == ["france", "united-kingdom", "united-states"]


def test_a_captured_base_sends_away_units_that_relied_on_it_lr_7_1_2() -> None:
    """A US fleet at sea next to the US base in the Ellice Islands must leave once Japan takes it."""
    from grandstrategy.cataclysm.rules.occupation import may_stop

    game = setup(
        "campaign-1933",
        [("japan", "carrier-fleet", "marshalls"), ("united-states", "surface-fleet", "samoa")],
        [("japan", "united-states")],
    )
    assert may_stop(MODULE, game.state, game.state.units[1], "samoa")
    offensive(game, "japan", 1)
    choose(game, "japan", "base capture at Ellice Islands")
    choose_starting(game, "japan", "activate #1 carrier-fleet")
    settle(game)
    while game.pending is not None and game.pending["power"] == "japan":
        choose(game, "japan", "done" if "done" in options(game) else options(game)[0])
    assert game.state.base_owners["ellice-islands#0"] == "japan"
    assert game.pending is not None and game.pending["power"] == "united-states"
    assert "to the cup" in options(game)  # retreat or go to the cup (LR 6.1.4, 7.1)
    choose(game, "united-states", "to the cup")
    assert "unit:united-states:surface-fleet" in game.state.cup


def test_taking_back_a_capital_from_an_enemy_gives_two_flags_lr_5_2_4() -> None:
    from grandstrategy.cataclysm.engine.control import change_control

    game = setup("europe-1939", [], [("france", "germany")])
    game.state.cubes["paris"] = {"germany": 2}
    change_control(game, "paris", "france")
    game.run()
    reasons = []
    while game.pending is not None and game.pending["type"] == "decide":
        reasons.append((game.pending["power"], game.pending["prompt"]))
        choose(game, game.pending["power"], "cup")
    assert [r for r in reasons if r[0] == "france" and "non-friendly cube leaves Paris" in r[1]] == [
        ("france", "place the flag gained (a non-friendly cube leaves Paris; LR 5.2.2)")
    ] * 2
    assert controller(MODULE, game.state, "paris") == "france" and "paris" not in game.state.cubes


def test_the_stresa_front_keeps_germany_and_italy_off_each_others_interests_lr_12_1() -> None:
    from grandstrategy.cataclysm.engine.politics import political_options
    from grandstrategy.cataclysm.rules.control import interests

    game = bare_game("campaign-1933")
    assert "stresa-front" in game.state.markers
    shared = interests(MODULE, game.state, "germany") & interests(MODULE, game.state, "italy")
    assert "austria" in shared
    assert "diplomacy austria" not in political_options(game, "italy")
    assert "diplomacy austria" not in political_options(game, "germany")
    game.state.markers.remove("stresa-front")
    assert "diplomacy austria" in political_options(game, "italy")


def test_the_stresa_front_ends_when_germany_goes_to_war_lr_12_1() -> None:
    from grandstrategy.cataclysm.engine.war_start import make_war

    game = bare_game("campaign-1933")
    make_war(game, [("germany", "france")])
    assert "stresa-front" not in game.state.markers


def test_a_logistics_unit_stays_while_it_holds_up_the_occupation_limit_lr_8_4_1() -> None:
    game = setup(
        "europe-1939",
        [
            ("france", "infantry-army", "french-north-africa"),
            ("france", "infantry-army", "french-north-africa"),
            ("france", "logistics", "french-north-africa"),
        ],
        [],
    )
    assert MODULE.area("french-north-africa").restricted
    game.state.powers["france"].force_pool["logistics"] = 0  # the one logistics counter is on the map
    game.push("deploy", power="france", units=None, moved=[], offensive=False)
    game.run()
    assert not any(o.startswith("withdraw #3 logistics") for o in options(game))
    choose_starting(game, "france", "move #1 infantry-army")
    choose(game, "france", options(game)[0])
    assert any(o.startswith("withdraw #3 logistics") for o in options(game))


def test_a_democracy_checks_before_capturing_an_unowned_base_lr_9_4_2() -> None:
    game = setup(
        "europe-1939",
        [("france", "surface-fleet", "provence"), ("germany", "infantry-army", "berlin")],
        [("france", "germany")],
    )
    game.state.base_owners["central-mediterranean#0"] = None  # an unowned base
    offensive(game, "france", 1)
    choose(game, "france", "base capture at Central Mediterranean")
    choose_starting(game, "france", "activate #1 surface-fleet")
    assert game.pending is not None and "attack on Central Mediterranean" in game.pending["label"]
    roll(game, 6)  # the check succeeds
    while game.pending is not None and game.pending["type"] == "decide":
        choose(game, game.pending["power"], options(game)[0])
    assert game.state.base_owners["central-mediterranean#0"] == "france"


def test_the_home_front_gives_a_deployment_of_all_units_lr_3_7_6() -> None:
    game = setup(
        "europe-1939", [("germany", "infantry-army", "berlin"), ("germany", "tank-army", "ruhr")], []
    )
    game.push("home-front", counter="home-front:germany")
    game.run()
    roll(game, 6, 1, 1)  # rearmament: a stability test, passed
    assert game.pending is not None and "deployment" in game.pending["prompt"]
    movable = [o for o in options(game) if o.startswith("move")]
    assert len(movable) == 2  # every unit of the power, not one


def test_a_declaration_with_no_possible_operation_is_undone_lr_6_2() -> None:
    """If the operation a declaration of war requires has become impossible (allies left and took
    their bases with them), the declaration and all its effects are undone (found by the soak)."""
    from grandstrategy.cataclysm.engine.war_start import make_war

    game = setup("europe-1939", [("united-kingdom", "infantry-army", "london")], [])
    before = game.state.to_json()
    make_war(game, [("united-kingdom", "soviet-union")])
    game.stack.clear()
    game.push(
        "military-action", power="united-kingdom", left=1, deployed=[], only=["soviet-union"], undo=before
    )
    game.run()
    assert options(game) == ["cancel"]
    choose(game, "united-kingdom", "cancel")
    assert game.state.wars == [] and "declaration of war is cancelled" in game.state.log[-1]
