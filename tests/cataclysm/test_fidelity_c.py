"""Rules fidelity of the crisis table and the civil wars (LR 3.7.4, crisis tables, LR 11).

Each test sets a situation up, forces the dice and the choices through the engine, and checks the
outcome the rules give.
"""

from __future__ import annotations

from tests.cataclysm.test_operations import MODULE, bare_game, choose, options, roll

from grandstrategy.cataclysm.engine import CataclysmGame
from grandstrategy.cataclysm.module.schema import Commitment, Stability, WarStatus


def _crisis(game: CataclysmGame, high: int, low: int) -> None:
    """A Crisis marker rolls ``high``-``low`` on the table (LR 3.7.4)."""
    game.push("crisis-roll", reroll=True)
    game.run()
    roll(game, high, low)


def _rerolled(game: CataclysmGame) -> bool:
    """Whether the crisis just read is rolled again: the next request is the crisis roll."""
    return (
        "roll again" in game.state.log[-1]
        and game.pending is not None
        and game.pending["type"] == "chance"
        and game.pending["label"] == "crisis"
    )


# ---- LR 3.7.4 (L807): an event that cannot change anything is rolled again ------------------------


def test_public_opposition_with_every_democracy_at_civilian_is_rerolled_lr_3_7_4() -> None:
    """LR 3.7.4 L807, crisis 2-2 L2977: no Democracy at rearmament or higher, no test: roll again."""
    game = bare_game("campaign-1933")  # every Democracy starts at Civilian
    _crisis(game, 2, 2)
    assert _rerolled(game)
    game = bare_game("campaign-1933")
    game.state.powers["france"].commitment = Commitment.REARMAMENT
    _crisis(game, 2, 2)
    assert "roll again" not in " ".join(game.state.log)
    assert game.pending is not None and "france stability test" in game.pending["label"]


def test_public_support_without_a_flag_to_gain_is_rerolled_lr_3_7_4() -> None:
    """LR 3.7.4 L807, crisis 5-5 L2959: no Democracy has a flag left to gain: roll again."""
    game = bare_game("campaign-1933")
    for power in ("france", "united-kingdom", "united-states"):
        game.state.powers[power].available_flags = 0
        game.state.cup.extend(["flag:" + power] * (MODULE.powers[power].counters.flags))
    _crisis(game, 5, 5)
    assert _rerolled(game)


def test_international_incident_without_a_flag_to_gain_is_rerolled_lr_3_7_4() -> None:
    """LR 3.7.4 L807, crisis 2-1 L2982: none of the powers of the sub-table could gain a flag."""
    game = bare_game("campaign-1933")
    for power, line in game.state.powers.items():
        game.state.cup.extend(["flag:" + power] * line.available_flags)
        line.available_flags = 0
    _crisis(game, 2, 1)
    assert _rerolled(game)


def test_economic_setback_already_waiting_is_rerolled_lr_3_7_4() -> None:
    """LR 3.7.4 L807, crisis 3-3 L2967: a second Setback before the next draw changes nothing."""
    game = bare_game("campaign-1933")
    game.state.economic_setback = True
    _crisis(game, 3, 3)
    assert _rerolled(game)


def test_war_weariness_with_only_steady_powers_is_rerolled_lr_3_7_4() -> None:
    """LR 3.7.4 L807 on the reconstructed Wartime 3-2: no belligerent Democracy below Steady."""
    game = bare_game("europe-1939")
    game.state.war_status = WarStatus.LIMITED
    for line in game.state.powers.values():
        line.stability = Stability.STEADY
    _crisis(game, 3, 2)
    assert _rerolled(game)


def test_a_further_cataclysm_in_the_same_crisis_is_rolled_again_crisis_1_1() -> None:
    """Crisis 1-1 L2986: two more rolls, and any further 1-1 in that Crisis is rolled again."""
    game = bare_game("campaign-1933")
    game.state.powers["germany"].effectiveness_reduced = True  # 5-2 could not change anything
    _crisis(game, 1, 1)
    roll(game, 1, 1)  # a further 1-1: rolled again, not a third and fourth roll
    assert "rolled again" in game.state.log[-1]
    roll(game, 4, 2)  # Isolationism
    assert game.state.powers["united-states"].effectiveness_reduced
    roll(game, 4, 1)  # Enemies of the State
    assert game.state.powers["soviet-union"].effectiveness_reduced
    assert game.pending is None


# ---- crisis 6-5 ... 6-1 (L2954-2958): a failed check also sends the non-land units away ----------


def test_a_failed_pact_check_removes_the_cube_and_the_air_unit_retreats_crisis_6_2() -> None:
    """Crisis 6-2 L2957: France fails for Czechoslovakia; its cube goes and its air unit retreats."""
    game = bare_game("campaign-1933")
    state = game.state
    air = next(u for u in state.units if u.power == "france" and u.type == "tactical-air")
    air.area = "czechoslovakia"
    state.cubes.pop("rumania", None)
    state.cubes.pop("yugoslavia", None)
    _crisis(game, 6, 2)
    roll(game, 1)  # France at Civilian: one die; 1 fails
    assert "czechoslovakia" not in state.cubes
    # the event says retreat: Poland, France's one airfield in range, with no choice of the cup
    assert air.area == "poland" and air in state.units
    assert game.pending is None


# ---- crisis 5-4 (L2960): only countries without a Chinese army --------------------------------------


def test_chinese_resistance_spares_countries_with_a_chinese_army_crisis_5_4() -> None:
    """Crisis 5-4 L2960: Japan's cube in Hebei, with a GMD army, is not checked; Chahar is."""
    game = bare_game("campaign-1933")
    state = game.state
    state.cubes["hebei"] = {"japan": 1}
    state.cubes["chahar"] = {"japan": 1}
    _crisis(game, 5, 4)
    assert game.pending is not None and game.pending["label"] == "japan hold chahar"
    roll(game, 1, 1)  # Japan at Rearmament: two dice; fails
    assert "chahar" not in state.cubes and state.cubes["hebei"] == {"japan": 1}
    assert game.pending is None


def test_chinese_resistance_with_only_chinese_army_countries_is_rerolled_crisis_5_4() -> None:
    """Crisis 5-4 L2960 with LR 3.7.4: the only Chinese country held has a Chinese army: roll again."""
    game = bare_game("campaign-1933")
    game.state.cubes["hebei"] = {"japan": 1}
    _crisis(game, 5, 4)
    assert _rerolled(game)


# ---- crisis 3-3 (L2967): the next counter drawn, and that one only ----------------------------------


def test_economic_setback_concerns_the_next_counter_drawn_only_crisis_3_3() -> None:
    """Crisis 3-3 L2967: a Crisis marker drawn next uses the Setback up; the flag drawn after it is
    offered to Italy as usual."""
    game = bare_game("campaign-1933")
    state = game.state
    state.economic_setback = True
    game.stack = [{"do": "drawn", "outcome": "crisis"}]
    game.run()
    assert not state.economic_setback
    roll(game, 5, 3)  # Military Agitation
    choose(game, "japan", "keep")  # the Washington Naval Treaty stands
    choose(game, "germany", "pass")  # no interrupt
    flags = state.powers["italy"].available_flags
    assert game.pending is not None and game.pending["label"] == "action cup"
    game.apply_chance("flag:italy")
    assert state.powers["italy"].available_flags == flags  # not returned: Italy may play it
    assert game.pending is not None and game.pending["power"] == "italy"
    assert "play" in options(game)


# ---- LR 11.4.1 (L2332, L2356): a beaten Chinese army may retreat, its faction's power decides --------


def _attack_hebei(game: CataclysmGame) -> None:
    """Japan attacks the GMD army in uncontrolled Hebei with its infantry from Manchuria."""
    from tests.cataclysm.test_operations import offensive, settle

    offensive(game, "japan", 1)
    choose(game, "japan", "land operation against Hebei")
    choose(game, "japan", next(o for o in options(game) if o.startswith("activate #20")))
    settle(game)
    while game.pending is not None and game.pending["type"] == "decide":
        choose(game, game.pending["power"], "done")  # no support on either side


def test_a_beaten_chinese_army_retreats_where_its_deciding_power_chooses_lr_11_4_1() -> None:
    """LR 11.4.1 L2332, 11.4.4 B L2356: the US decides for the GMD: retreat, and where to."""
    game = bare_game("campaign-1933")
    state = game.state
    for area in ("shandong", "jiangsu"):
        del state.chinese_armies[area]
    _attack_hebei(game)
    roll(game, 5, 3)  # Japan: 5
    roll(game, 4, 1)  # the GMD army: 4; one loss, which a retreat cancels
    assert game.pending is not None and game.pending["power"] == "united-states"
    choose(game, "united-states", "retreat")
    assert game.pending is not None and game.pending["power"] == "united-states"
    assert options(game) == ["Chahar", "Shandong", "Shanxi"]  # adjacent, uncontrolled, no army
    choose(game, "united-states", "Shandong")
    assert state.chinese_armies.get("shandong") == "gmd" and "hebei" not in state.chinese_armies


# ---- LR 11.1 (L2259-2267) and 11.4.6 (L2405): who suppresses a civil war, and who must leave how -----


def test_units_in_a_home_area_do_not_suppress_its_civil_war_and_retreat_lr_11_1() -> None:
    """LR 11.1 L2259-2267, 2.2.5: only a country is garrisoned; the Soviet army in Ukraine retreats
    where the USSR chooses, the cup being no choice."""
    game = bare_game("campaign-1933")
    state = game.state
    army = next(u for u in state.units if u.area == "ukraine")
    game.push("cw-outbreak", area="ukraine")
    game.run()
    assert "ukraine" in state.civil_wars and state.cubes["ukraine"] == {"neutral": 1}
    assert game.pending is not None and game.pending["power"] == "soviet-union"
    assert options(game) == ["Byelorussia", "Caucasus", "Volga"]
    choose(game, "soviet-union", "Volga")
    assert army.area == "volga"


def test_a_garrisoned_country_still_suppresses_the_civil_war_lr_11_1() -> None:
    """LR 11.1 L2261: a power's land unit in a country stops the civil war (no reroll)."""
    game = bare_game("campaign-1933")
    next(u for u in game.state.units if u.id == 2).area = "czechoslovakia"
    game.push("cw-outbreak", area="czechoslovakia")
    game.run()
    assert game.state.civil_wars == {} and "suppressed" in game.state.log[-1]


def test_units_in_a_country_a_chinese_army_expands_into_retreat_or_go_to_the_cup_lr_11_4_6() -> None:
    """LR 11.4.6 L2405: after the war the GMD take Japanese Guangxi; Japan's air unit retreats or
    goes to the cup, as Japan chooses."""
    game = bare_game("campaign-1933")
    state = game.state
    state.chinese_armies = {"hunan": "gmd"}
    state.ccw_winner = "gmd"
    state.cubes["guangxi"] = {"japan": 1}
    state.cubes["guangdong"] = {"japan": 1}
    air = next(u for u in state.units if u.power == "japan" and u.type == "tactical-air")
    air.area = "guangxi"
    game.push("cw-resolution")
    game.run()
    choose(game, "united-states", "guangxi")
    roll(game, 2, 5)  # effectiveness 2: success
    assert state.chinese_armies["guangxi"] == "gmd" and "guangxi" not in state.cubes
    assert game.pending is not None and game.pending["power"] == "japan"
    assert options(game) == ["Guangdong", "to the cup"]
    choose(game, "japan", "Guangdong")
    assert air.area == "guangdong" and game.pending is None


def test_a_decisive_victory_gives_the_patron_control_with_a_regroup_lr_11_3() -> None:
    """LR 11.3 L2312: the single patron gains control as by conquest, regroup included (10.9.1)."""
    game = bare_game()
    state = game.state
    del state.cubes["czechoslovakia"]
    state.minor_armies.remove("czechoslovakia")
    state.civil_wars["czechoslovakia"] = {"left": [], "right": ["germany"]}
    state.powers["germany"].available_offensives -= 1
    game.push("cw-resolve", area="czechoslovakia")
    game.run()
    roll(game, 1, 1)  # the left: 2
    roll(game, 6, 1, 1)  # the right, with the aid die: 6, a decisive victory
    assert state.cubes["czechoslovakia"] == {"germany": 1}
    assert game.pending is not None and game.pending["power"] == "germany"
    choose(game, "germany", "regroup #2 tank-army in Silesia")
    choose(game, "germany", "Czechoslovakia")
    choose(game, "germany", "done")
    assert next(u for u in state.units if u.id == 2).area == "czechoslovakia"
