"""Rules fidelity of the civil wars (LR 11.0-11.4.6, 9.7.1), third pass.

Each test sets a situation up, forces the dice and the choices through the engine, and checks the
outcome the rules give.
"""

from __future__ import annotations

from tests.cataclysm.test_civil_war import (
    asking,
    china,
    choose,
    give_aid,
    give_chinese_aid,
    keep_aid,
    resolve,
    roll,
    run,
)
from tests.cataclysm.test_operations import MODULE, bare_game, options

from grandstrategy.cataclysm.engine import CataclysmGame
from grandstrategy.cataclysm.rules.control import controller


def _pending_label(game: CataclysmGame) -> str:
    assert game.pending is not None and game.pending["type"] == "chance", game.pending
    return str(game.pending["label"])


# ---- LR 11.4.6 (L2399-2405): who must and who may expand --------------------------------------------


def test_after_the_war_the_winner_may_decline_to_expand_lr_11_4_6() -> None:
    """LR 11.4.6 L2403: once the war is over the winning faction only may try; the US, deciding for
    the GMD, declines: no die is rolled and Japan keeps Guangxi."""
    game = bare_game("campaign-1933")
    state = game.state
    china(game, hunan="gmd")
    state.ccw_winner = "gmd"
    state.cubes["guangxi"] = {"japan": 1}
    game.push("cw-resolution")
    run(game)
    power, offered = asking(game)
    assert power == "united-states" and "guangxi" in offered and offered[-1] == "none"
    choose(game, "united-states", "none")
    assert game.pending is None
    assert state.chinese_armies == {"hunan": "gmd"} and state.cubes["guangxi"] == {"japan": 1}


def test_during_the_war_each_faction_must_attempt_its_expansion_lr_11_4_6() -> None:
    """LR 11.4.6 L2399: while the war is Inactive each faction attempts to expand: no way to decline;
    a faction with a single target makes its attempt without being asked."""
    game = bare_game("campaign-1933")
    state = game.state
    china(game, hunan="gmd", guangdong="gmd", shaanxi="chicom", gansu="chicom")
    state.cubes["hebei"] = {"japan": 1}
    next(u for u in state.units if u.power == "japan" and u.area == "korea").area = "hebei"
    game.push("cw-resolution")
    run(game)
    assert "none" not in options(game)  # the GMD, tied, first at effectiveness 1
    choose(game, "united-states", "guangxi")
    roll(game, 2)  # fails
    assert "none" not in options(game)  # then the ChiComs


# ---- LR 11.3 (L2296-2318): dice, outcomes and markers ------------------------------------------------


def test_the_extra_die_goes_by_aid_markers_not_patrons_lr_11_3() -> None:
    """LR 11.3 L2296: two German markers on the left against Italian and Soviet ones on the right is
    a tie in aid: two dice each. The right loses marginally with aid: it loses it, the war goes on."""
    game = bare_game("europe-1939")
    state = game.state
    give_aid(game, "spain", "left", "germany", "germany")
    give_aid(game, "spain", "right", "italy", "soviet-union")
    game.push("cw-resolution")
    run(game)
    keep_aid(game)
    roll(game, 4, 1)
    assert _pending_label(game).endswith("the right")  # two dice were enough for the left
    roll(game, 3, 2)  # 4 against 3: marginal
    assert state.civil_wars["spain"] == {"left": ["germany", "germany"], "right": []}


def test_a_marginal_win_of_an_unaided_faction_over_an_unaided_one_just_ends_the_war_lr_11_3() -> None:
    """LR 11.3 L2308-2310: the loser had no aid, so the war ends; the winner has no patron, so the
    marker is simply removed: no Influence, the country stays uncontrolled."""
    game = bare_game("europe-1939")
    state = game.state
    state.civil_wars["spain"] = {"left": [], "right": []}
    resolve(game, (2, 1), (3, 3))  # 2 against 3: marginal for the right
    assert state.civil_wars == {} and state.influence == {}
    assert controller(MODULE, state, "spain") is None


def test_a_decisive_win_over_an_aided_faction_returns_both_sides_aid_lr_11_3() -> None:
    """LR 11.3 L2312-2316, 11.2 L2286: the beaten right loses its Soviet aid; the war ends, so the
    winner's second Italian marker goes back too, and Italy, the single patron, takes Spain."""
    game = bare_game("europe-1939")
    state = game.state
    italy = state.powers["italy"].available_offensives
    soviet = state.powers["soviet-union"].available_offensives
    give_aid(game, "spain", "left", "italy", "italy")
    give_aid(game, "spain", "right", "soviet-union")
    resolve(game, (6, 1, 1), (3, 2))  # 6 is double 3
    assert state.cubes["spain"] == {"italy": 1} and "spain" not in state.civil_wars
    assert state.influence == {}
    assert state.powers["italy"].available_offensives == italy
    assert state.powers["soviet-union"].available_offensives == soviet


# ---- LR 11.4.4 (L2346-2387): deciding powers and the modified results --------------------------------


def test_influence_over_china_makes_its_power_decide_for_the_winner_lr_11_4_4_b() -> None:
    """LR 11.4.4 B L2358-2364, 11.4.5 L2391: after the war Germany's Influence on the GMD outranks the
    US (priority 3): Germany picks the expansion."""
    game = bare_game("campaign-1933")
    state = game.state
    china(game, hunan="gmd")
    state.ccw_winner = "gmd"
    state.powers["germany"].available_offensives -= 1
    state.influence["china"] = ["germany"]
    game.push("cw-resolution")
    run(game)
    keep_aid(game)
    assert asking(game)[0] == "germany"


def test_an_unaided_attacker_beaten_marginally_retreats_and_the_winner_takes_its_country_lr_11_4_4() -> None:
    """LR 11.4.4 C L2378-2381, 11.4.1: tied 2-2, the GMD must attack; Sichuan loses 2 to 3 with no aid:
    it retreats to the one uncontrolled country without an army and a ChiCom army stands in Sichuan."""
    game = bare_game("campaign-1933")
    state = game.state
    china(game, hunan="gmd", sichuan="gmd", shaanxi="chicom", gansu="chicom")
    game.push("cw-resolution")
    run(game)
    choose(game, "united-states", "sichuan attacks shaanxi")
    roll(game, 2, 1)
    roll(game, 3, 3)
    # Yunnan is Sichuan's one adjacent uncontrolled Chinese country without an army
    assert game.pending is None
    assert state.chinese_armies["sichuan"] == "chicom" and state.chinese_armies["yunnan"] == "gmd"
    assert state.chinese_armies["shaanxi"] == "chicom"  # the attacker never moved in


# ---- LR 11.2 (L2280-2282) with 9.7.1 (L1935-1939): an attack spends aid, even the attacker's own -------


def test_a_patron_attacking_its_own_client_still_spends_the_aid_lr_11_2() -> None:
    """LR 11.2 L2282, 9.7.1 L1939: Japan aids the GMD army in Hebei and attacks it anyway; Japan keeps
    its aid when offered to revoke it, the marker is spent (back to Japan's box) and the army rolls
    one more die (three)."""
    from tests.cataclysm.test_operations import offensive, settle

    game = bare_game("campaign-1933")
    state = game.state
    for area in ("shandong", "jiangsu"):
        del state.chinese_armies[area]
    give_chinese_aid(game, "hebei", "japan")
    japan = state.powers["japan"].available_offensives
    offensive(game, "japan", 1)
    choose(game, "japan", "land operation against Hebei")
    choose(game, "japan", next(o for o in options(game) if o.startswith("activate #20")))
    settle(game)
    keep_aid(game)
    while game.pending is not None and game.pending["type"] == "decide":
        choose(game, game.pending["power"], "done")  # no support on either side
    assert "hebei" not in state.chinese_aid
    assert state.powers["japan"].available_offensives == japan + 1  # the spent marker is back
    roll(game, 5, 3)  # Japan
    assert game.pending is not None and game.pending["type"] == "chance"
    roll(game, 1, 1, 6)  # the GMD army: three dice, 6
    assert any("defender rolls 1 1 6 = 6" in line for line in state.log)
    assert state.chinese_armies["hebei"] == "gmd"


# ---- LR 11.4.5 (L2391): the war ends at once when a power destroys a faction's last army -------------


def test_a_power_destroying_the_last_chicom_army_ends_the_war_at_once_lr_11_4_5() -> None:
    """LR 11.4.5 L2391, 11.4.1 L2332: the only ChiCom army, in Hebei, cannot retreat (Japan holds
    every neighbour) and falls to Japan: the war ends there and then, the GMD win, and the patrons
    of GMD armies (the US, Japan) each keep one marker as Influence over China."""
    from tests.cataclysm.test_operations import offensive, settle

    game = bare_game("campaign-1933")
    state = game.state
    china(game, hebei="chicom", hunan="gmd", sichuan="gmd")
    for area in ("chahar", "shandong", "shanxi"):
        state.cubes[area] = {"japan": 1}
    give_chinese_aid(game, "hunan", "united-states", "united-states")
    give_chinese_aid(game, "sichuan", "japan")
    us = state.powers["united-states"].available_offensives
    offensive(game, "japan", 1)
    choose(game, "japan", "land operation against Hebei")
    choose(game, "japan", next(o for o in options(game) if o.startswith("activate #20")))
    settle(game)
    while game.pending is not None and game.pending["type"] == "decide":
        choose(game, game.pending["power"], "done")
    roll(game, 6, 3)  # Japan
    roll(game, 1, 1)  # the ChiCom army
    assert "hebei" not in state.chinese_armies
    assert state.ccw_winner == "gmd" and state.chinese_aid == {}
    assert state.influence["china"] == ["united-states", "japan"]
    assert state.powers["united-states"].available_offensives == us + 1


def test_an_attack_spends_aid_from_each_faction_for_one_extra_die_and_a_conquest_ends_the_war_lr_9_7_1() -> (
    None
):
    """LR 9.7.1 L1935-1937, 11.2 L2282-2286, 11.0 L2251: Germany attacks Czechoslovakia in civil war;
    one marker goes from each faction (France's, the lowest patron of the right) and the empty
    country rolls one die plus a single aid die, not one per marker. Germany conquers it: the war
    ends and the Soviet marker left on the right goes back."""
    from tests.cataclysm.test_operations import offensive, settle

    game = bare_game("campaign-1933")
    state = game.state
    del state.cubes["czechoslovakia"]
    state.minor_armies.remove("czechoslovakia")
    give_aid(game, "czechoslovakia", "left", "soviet-union")
    give_aid(game, "czechoslovakia", "right", "soviet-union", "france")
    soviet = state.powers["soviet-union"].available_offensives
    france = state.powers["france"].available_offensives
    offensive(game, "germany", 1)
    choose(game, "germany", "land operation against Czechoslovakia")
    choose(game, "germany", "activate #16 infantry-army in Bavaria")
    settle(game)
    keep_aid(game)
    assert state.civil_wars["czechoslovakia"] == {"left": [], "right": ["soviet-union"]}
    assert state.powers["france"].available_offensives == france + 1
    roll(game, 5, 3)  # Germany: two dice
    roll(game, 2, 1)  # the country: one die without land units, one for the aid spent
    assert any("defender rolls 2 1 = 2" in line for line in state.log)
    assert "czechoslovakia" not in state.civil_wars
    assert state.cubes["czechoslovakia"] == {"germany": 1}
    assert state.powers["soviet-union"].available_offensives == soviet + 2


def test_after_the_war_a_country_with_a_land_unit_is_no_target_and_expansion_provokes_nobody_lr_11_4_6() -> (
    None
):
    """LR 11.4.6 L2403-2407: after the war the GMD in Hunan may not go into Japanese Guangxi, held by
    a Japanese army, but may into Japanese Guangdong, held by no land unit; taking it removes Japan's
    cube and gives no flag to Japan or to the Democracies with interests there."""
    game = bare_game("campaign-1933")
    state = game.state
    china(game, hunan="gmd")
    state.ccw_winner = "gmd"
    state.cubes["guangxi"] = {"japan": 1}
    state.cubes["guangdong"] = {"japan": 1}
    next(u for u in state.units if u.id == 21).area = "guangxi"
    flags = {power: line.available_flags for power, line in state.powers.items()}
    game.push("cw-resolution")
    run(game)
    power, offered = asking(game)
    assert power == "united-states" and "guangdong" in offered and "guangxi" not in offered
    choose(game, "united-states", "guangdong")
    roll(game, 6, 1)
    assert state.chinese_armies["guangdong"] == "gmd" and "guangdong" not in state.cubes
    assert game.pending is None
    assert {power: line.available_flags for power, line in state.powers.items()} == flags


# ---- LR 11.3 (L2312-2316) with 5.2.3 (L1105): who is provoked by a decisive victory ----------------------


def test_a_decisive_victory_provokes_interested_powers_but_not_the_beaten_patron_lr_11_3() -> None:
    """LR 11.3 L2314, 5.2.3 L1105: Italy, single patron of the left, wins Spain decisively. France and
    the UK, with interests there, are provoked; the USSR's only interest was its aid to the right,
    lost with the battle before Italy gains control, so it gains no flag (docs/decisions.md)."""
    game = bare_game("europe-1939")
    state = game.state
    give_aid(game, "spain", "left", "italy")
    give_aid(game, "spain", "right", "soviet-union")
    resolve(game, (6, 1), (3, 2))  # one marker each: two dice each; 6 is double 3
    assert state.cubes["spain"] == {"italy": 1}
    provoked = []
    while game.pending is not None and "place the flag" in str(game.pending.get("prompt")):
        provoked.append(game.pending["power"])
        choose(game, game.pending["power"], "cup")
    assert provoked == ["france", "united-kingdom"]
    assert game.pending is None


# ---- LR 11.0 (L2249-2251), 11.2 (L2286), 11.4.2-11.4.3 (L2334-2344): control of a Chinese country ---------


def test_diplomacy_takes_a_chinese_country_its_army_stays_its_aid_goes_and_the_war_goes_on_lr_11_4_3() -> (
    None
):
    """LR 11.0 L2249-2251 (the Chinese exception), 11.2 L2286, 11.4.2 L2336, 11.4.3 L2342: Japan may
    try diplomacy on Hebei despite the civil war, at -1 for the GMD army; it succeeds: the army stays
    in the Japanese-held country, the US aid on it goes back, and the Chinese Civil War goes on."""
    from grandstrategy.cataclysm.engine.politics import choose_action

    game = bare_game("campaign-1933")
    state = game.state
    give_chinese_aid(game, "hebei", "united-states")
    us = state.powers["united-states"].available_offensives
    choose_action(game, "japan")
    assert "diplomacy hebei" in options(game)
    choose(game, "japan", "diplomacy hebei")
    roll(game, 6, 6)
    assert state.cubes["hebei"] == {"japan": 1} and state.chinese_armies["hebei"] == "gmd"
    assert "hebei" not in state.chinese_aid
    assert state.powers["united-states"].available_offensives == us + 1
    assert state.ccw_winner is None


# ---- LR 11.1 (L2263-2268) with 5.2.4 (L1121): a revolt throws an occupier's cube out of a colony ---------


def test_a_revolt_removing_an_occupiers_cube_from_a_resource_colony_gives_its_owner_a_flag_lr_11_1() -> None:
    """LR 11.1 L2265-2267, 2.2.3 L304, 5.2.4 L1121: Japan holds French Indochina (a resource colony);
    a revolt breaks out there: Japan's cube goes, a neutral cube comes, Japan may place its one aid
    marker, and France gains a flag for the non-friendly cube removed from its colony."""
    game = bare_game("campaign-1933")
    state = game.state
    state.cubes["indochina"] = {"japan": 1}
    flags = state.powers["france"].available_flags
    game.push("cw-outbreak", area="indochina")
    run(game)
    assert state.cubes["indochina"] == {"neutral": 1} and "indochina" in state.civil_wars
    choose(game, "japan", "none")
    assert game.pending is not None and game.pending["power"] == "france"
    assert "place the flag" in game.pending["prompt"]
    choose(game, "france", "cup")
    assert state.powers["france"].available_flags == flags - 1
    assert game.pending is None


def test_a_revolt_in_a_colony_its_owner_holds_gives_no_flag_lr_11_1() -> None:
    """LR 11.1 L2265-2267, 5.2.4 L1121, 5.5.1: in French-held Indochina the revolt places a neutral
    cube; no non-friendly cube left, so no flag, but France takes the test for losing a resource
    colony."""
    game = bare_game("campaign-1933")
    state = game.state
    flags = state.powers["france"].available_flags
    game.push("cw-outbreak", area="indochina")
    run(game)
    choose(game, "france", "none")
    assert game.pending is not None and game.pending["label"] == "france stability test (loss of Indochina)"
    roll(game, 6)
    assert game.pending is None and state.powers["france"].available_flags == flags


def test_the_power_with_cubes_decides_a_beaten_armys_retreat_and_the_winner_clears_the_cubes_lr_11_4_4() -> (
    None
):
    """LR 11.4.4 B L2358-2360 and C L2378-2381: the ChiComs (two armies against one) must attack
    Japanese-held Hunan and win 4 to 3; the GMD army had no aid and retreats where Japan, with the
    most cubes in GMD countries, chooses; a ChiCom army takes Hunan and Japan's cube goes."""
    game = bare_game("campaign-1933")
    state = game.state
    china(game, hunan="gmd", shaanxi="chicom", gansu="chicom")
    state.cubes["hunan"] = {"japan": 1}
    game.push("cw-resolution")
    run(game)
    roll(game, 4, 1)  # the one pair, Shaanxi on Hunan: no choice
    roll(game, 3, 2)
    power, offered = asking(game)
    assert power == "japan" and "guangxi" in offered and "shaanxi" not in offered
    choose(game, "japan", "guangxi")
    assert state.chinese_armies == {
        "gansu": "chicom",
        "guangxi": "gmd",
        "hunan": "chicom",
        "shaanxi": "chicom",
    }
    assert "hunan" not in state.cubes


def test_a_patron_may_revoke_its_aid_right_before_its_own_attack_lr_11_2() -> None:
    """LR 11.2 L2284-2290 and its design note: Japan takes its aid off the GMD army in Hebei before
    attacking it: nothing is left to spend and the army rolls its usual two dice."""
    from tests.cataclysm.test_operations import offensive, settle

    game = bare_game("campaign-1933")
    state = game.state
    for area in ("shandong", "jiangsu"):
        del state.chinese_armies[area]
    give_chinese_aid(game, "hebei", "japan")
    japan = state.powers["japan"].available_offensives
    offensive(game, "japan", 1)
    choose(game, "japan", "land operation against Hebei")
    choose(game, "japan", next(o for o in options(game) if o.startswith("activate #20")))
    settle(game)
    choose(game, "japan", "revoke aid hebei gmd-army")
    while game.pending is not None and game.pending["type"] == "decide":
        choose(game, game.pending["power"], "done")
    assert "hebei" not in state.chinese_aid and state.powers["japan"].available_offensives == japan + 1
    roll(game, 2, 1)  # Japan
    roll(game, 5, 3)  # the GMD army: two dice
    assert any("defender rolls 5 3 = 5" in line for line in state.log)
    assert not any("civil war aid spent" in line for line in state.log)
