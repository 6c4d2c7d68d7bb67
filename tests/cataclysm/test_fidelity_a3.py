"""Rules fidelity, helper a3: allies on the attacker's side, surprise land targets, supply in
operations, attacks on countries and surprise attacks (LR 5.6.1, 5.7, 6.1.3, 6.1.4, 9.1, 9.2,
9.3.1, 9.6, 9.7, 9.7.2, 9.8, 10.2).

Each test sets up the situation, forces the dice and the choices through the engine, and checks
the outcome the rule gives.
"""

from __future__ import annotations

from tests.cataclysm.test_operations import (
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

# ---- LR 9.1 and 10.2 with 5.6.1: an ally on the attacker's side is at war with the defender ---------


def _axis_by_lorraine(wars: list[tuple[str, str]], italian: str) -> CataclysmGame:
    """Germany and Italy allied; a German army and an Italian ``italian`` unit in Ruhr, a French
    army in Lorraine; Germany at mobilization plays a one-action offensive."""
    game = setup(
        "europe-1939",
        [
            ("germany", "infantry-army", "ruhr"),
            ("italy", italian, "ruhr"),
            ("france", "infantry-army", "lorraine"),
        ],
        wars,
    )
    game.state.alliances = {"fascism": ["germany", "italy"]}
    game.state.powers["germany"].commitment = Commitment.MOBILIZATION
    offensive(game, "germany", 1)
    return game


def test_an_ally_cannot_join_a_surprise_attack_lr_l1780_l1949_l1282() -> None:
    """LR 9.8 (L1949) with 5.6.1 (L1282) and 9.1 (L1780): Germany, at war with the UK beside its
    ally Italy, surprises France in Lorraine. Italy is friendly (a belligerent ally) but not at war
    with France, and only the power performing the surprise attack starts a war by it; the Italian
    army is not offered for activation (Italy is drawn in, or not, by LR 6.1.3 at step 4)."""
    game = _axis_by_lorraine([("germany", "united-kingdom"), ("italy", "united-kingdom")], "infantry-army")
    choose(game, "germany", "surprise land operation against Lorraine")
    assert game.pending is not None and game.pending["power"] == "germany"
    assert not any("#2" in o for o in options(game))
    assert any(o.startswith("activate #1 infantry-army") for o in options(game))


def test_an_ally_not_at_war_with_the_defender_is_not_activated_lr_l1780_l1282() -> None:
    """LR 9.1 (L1780) with 5.6.1 (L1282): Italy is a belligerent ally of Germany (so friendly) but
    at war with the UK only; its army may not join Germany's land operation against French
    Lorraine, which would start a war without a declaration or a surprise attack."""
    game = _axis_by_lorraine([("germany", "france"), ("italy", "united-kingdom")], "infantry-army")
    choose(game, "germany", "land operation against Lorraine")
    assert not any("#2" in o for o in options(game))


def test_an_ally_at_war_with_the_defender_may_join_lr_l1780() -> None:
    """LR 9.1 (L1780): at war with France beside Germany, the same Italian army is offered."""
    game = _axis_by_lorraine([("germany", "france"), ("italy", "france")], "infantry-army")
    choose(game, "germany", "land operation against Lorraine")
    assert any(o.startswith("activate #2 infantry-army") for o in options(game))


def test_an_ally_not_at_war_with_the_defender_never_supports_the_attack_lr_l2002_l1282() -> None:
    """LR 10.2 (L2002) with 5.6.1 (L1282), the attacker's side of the a2 defender test: the Italian
    air force in Ruhr is friendly to Germany (both belligerent allies) but Italy is at war with the
    UK only; supporting the attack on French Lorraine would start a war without a declaration or
    a surprise attack, so Germany is not offered its support and the dice come at once."""
    game = _axis_by_lorraine([("germany", "france"), ("italy", "united-kingdom")], "tactical-air")
    choose(game, "germany", "land operation against Lorraine")
    choose_starting(game, "germany", "activate #1 infantry-army")
    settle(game)
    assert game.pending is not None and game.pending["type"] == "chance"
    assert [u.area for u in game.state.units if u.power == "italy"] == ["ruhr"]


def test_an_ally_at_war_with_the_defender_supports_the_attack_lr_l2002() -> None:
    """LR 10.2 (L2002): at war with France too, the Italian air force is offered, and joins with
    Italy's permission."""
    game = _axis_by_lorraine(
        [("germany", "france"), ("italy", "france"), ("italy", "united-kingdom")], "tactical-air"
    )
    choose(game, "germany", "land operation against Lorraine")
    choose_starting(game, "germany", "activate #1 infantry-army")
    settle(game)
    choose_starting(game, "germany", "support with #2 italy tactical-air")
    choose(game, "italy", "allow")
    assert [u.area for u in game.state.units if u.power == "italy"] == ["lorraine"]


# ---- LR 9.3.1 with 9.8: a surprise land operation needs an area the surprised power controls -----


def test_a_surprise_land_target_is_controlled_by_the_surprised_power_lr_l1825_l1949() -> None:
    """LR 9.3.1 (L1825) and 9.8 (L1949): a British army in uncontrolled Benelux does not make it a
    target of a surprise land operation against the UK (a garrisoned country may be attacked only
    when an enemy controls it, LR 9.7 L1917), while French Lorraine, held by France, is one."""
    game = setup(
        "europe-1939",
        [
            ("germany", "infantry-army", "ruhr"),
            ("united-kingdom", "infantry-army", "benelux"),
            ("france", "infantry-army", "lorraine"),
        ],
        [],
    )
    game.state.alliances = {}
    game.state.powers["germany"].commitment = Commitment.MOBILIZATION
    offensive(game, "germany", 1)
    assert "surprise land operation against Benelux" not in options(game)
    assert "land operation against Benelux" not in options(game)
    assert "surprise land operation against Lorraine" in options(game)


def test_enemy_held_area_is_no_surprise_land_target_for_a_third_power_lr_l1825_l1949() -> None:
    """LR 9.3.1 (L1825) and 9.8 (L1949): Germany at war with France alone; a British army stands in
    French Lorraine. Lorraine is a land target (France is an enemy) but not a surprise land target
    against the UK, which does not control it."""
    game = setup(
        "europe-1939",
        [("germany", "infantry-army", "ruhr"), ("united-kingdom", "infantry-army", "lorraine")],
        [("germany", "france")],
    )
    game.state.alliances = {}
    game.state.powers["germany"].commitment = Commitment.MOBILIZATION
    offensive(game, "germany", 1)
    assert "land operation against Lorraine" in options(game)
    assert "surprise land operation against Lorraine" not in options(game)


# ---- LR 9.8 with 9.2 step 4: a surprise attack makes war on every defending power -----------------


def test_a_surprise_land_attack_makes_war_on_the_areas_controller_too_lr_l1812_l1953() -> None:
    """LR 9.2 step 4 (L1812) and 9.8 (L1953): the attacking and defending powers go to war. France
    and the UK, belligerent allies at war with the USSR, hold French Lorraine with a British army
    only, so the UK is the primary defender; France, whose area is attacked, is at war with Germany
    at once (not left to choose under LR 6.1.3, which could leave Lorraine conquered in peace)."""
    from grandstrategy.cataclysm.rules.control import at_war

    game = setup(
        "europe-1939",
        [("germany", "infantry-army", "ruhr"), ("united-kingdom", "infantry-army", "lorraine")],
        [("france", "soviet-union"), ("united-kingdom", "soviet-union")],
    )
    game.state.powers["germany"].commitment = Commitment.MOBILIZATION
    offensive(game, "germany", 1)
    choose(game, "germany", "surprise land operation against Lorraine")
    choose_starting(game, "germany", "activate #1 infantry-army")
    state = game.state
    assert at_war(state, "germany", "united-kingdom") and at_war(state, "germany", "france")
    settle(game)
    assert game.pending is not None
    assert "join or break" not in str(game.pending.get("prompt"))  # France is a target, not an ally


# ---- LR 9.7.2: only a land operation attacks the country itself -----------------------------------


def test_an_air_strike_in_an_uncontrolled_country_opens_no_opportunity_lr_l1943() -> None:
    """LR 9.7.2 (L1943): the failed attack is one that could have taken control of the country.
    Italy's air operation against the British air force at the special base in uncontrolled Spain
    fails, but it attacked British units, not Spain: no diplomatic opportunity follows."""
    game = setup(
        "europe-1939",
        [("italy", "tactical-air", "provence"), ("united-kingdom", "tactical-air", "spain")],
        [("italy", "united-kingdom")],
    )
    game.state.alliances = {}
    game.state.cubes["provence"] = {"italy": 1}
    offensive(game, "italy", 1)
    choose(game, "italy", "air operation against Spain")
    choose_starting(game, "italy", "activate #1 tactical-air")
    settle(game)
    roll(game, 2, 1)  # Italy: 2
    roll(game, 6, 5)  # the UK: 6 - 1 for limited supply = 5; Italy's air force is destroyed
    assert not any("diplomatic opportunity" in line for line in game.state.log)
    assert game.pending is None


def test_a_failed_attack_on_a_chinese_country_opens_no_opportunity_lr_l1945() -> None:
    """LR 9.7.2 (L1945) and 5.7 (L1333): Japan's land operation against uncontrolled Chahar, which
    has no Chinese army, fails; Chinese countries are the exception, so nobody gets a diplomatic
    opportunity and Chahar stays uncontrolled."""
    from grandstrategy.cataclysm.rules.control import controller

    game = setup("campaign-1933", [("japan", "infantry-army", "manchuria")], [])
    offensive(game, "japan", 1)
    choose(game, "japan", "land operation against Chahar")
    choose_starting(game, "japan", "activate #1 infantry-army")
    settle(game)
    roll(game, 1, 1)  # Japan: 1
    roll(game, 6)  # Chahar's intrinsic defence: 6; the Japanese army is destroyed
    assert game.pending is None
    assert controller(game.module, game.state, "chahar") is None
    assert not any("diplomatic opportunity" in line for line in game.state.log)


# ---- LR 9.8: who may surprise, and how -------------------------------------------------------------


def _menu(scenario: str, power: str, commitment: Commitment, units: list[tuple[str, str, str]]) -> list[str]:
    game = setup(scenario, units, [])
    game.state.alliances = {}
    game.state.powers[power].commitment = commitment
    offensive(game, power, 2)
    return options(game)


def test_only_a_fascist_power_at_mobilization_or_total_war_surprises_lr_l1949() -> None:
    """LR 9.8 (L1949) and 5.6.1 (L1284): Germany at rearmament may not surprise France in Lorraine;
    at mobilization or total war it may; the USSR at mobilization never may (a Communist power
    starts a war only by declaration)."""
    german = [("germany", "infantry-army", "ruhr"), ("france", "infantry-army", "lorraine")]
    for commitment, offered in (
        (Commitment.REARMAMENT, False),
        (Commitment.MOBILIZATION, True),
        (Commitment.TOTAL_WAR, True),
    ):
        menu = _menu("europe-1939", "germany", commitment, german)
        assert ("surprise land operation against Lorraine" in menu) is offered, commitment
    soviet = [("soviet-union", "infantry-army", "leningrad"), ("germany", "infantry-army", "east-prussia")]
    menu = _menu("europe-1939", "soviet-union", Commitment.MOBILIZATION, soviet)
    assert not any(o.startswith("surprise") for o in menu)


def test_no_surprise_invasion_lr_l1839_l1949() -> None:
    """LR 9.3.2 (L1839) and 9.8 (L1949): Germany at mobilization, at peace with the UK, has an army
    in Ruhr and a fleet in the North Sea; it is offered no surprise invasion of London (at war it
    would be offered the invasion)."""
    units = [
        ("germany", "infantry-army", "ruhr"),
        ("germany", "surface-fleet", "north-sea"),
        ("united-kingdom", "infantry-army", "london"),
    ]
    menu = _menu("europe-1939", "germany", Commitment.MOBILIZATION, units)
    assert not any(o.startswith("surprise invasion") for o in menu)
    game = setup("europe-1939", units, [("germany", "united-kingdom")])
    game.state.alliances = {}
    offensive(game, "germany", 2)
    assert "invasion of London" in options(game)


def _answer_all(game: CataclysmGame, answers: dict[str, str]) -> dict[str, list[str]]:
    """Place every flag in the cup and answer each ally's join-or-break question from ``answers``;
    return the options each ally was given."""
    offered: dict[str, list[str]] = {}
    while game.pending is not None and game.pending["type"] == "decide":
        power, prompt = game.pending["power"], game.pending["prompt"]
        if "place the flag" in prompt:
            choose(game, power, "cup")
        elif "join or break" in prompt:
            offered[power] = options(game)
            choose(game, power, answers[power])
        else:
            break
    return offered


def test_allies_of_a_surprise_attack_join_or_break_lr_l1953_l1389() -> None:
    """LR 9.8 (L1953) with 6.1.3 (L1387, L1389, L1394): Germany at mobilization surprises France.
    Italy, Germany's ally at rearmament, joining a war its ally started must meet the requirements
    of a declaration of war, so it may only break the alliance; the UK, France's ally at rearmament,
    joins because its ally was attacked and needs meet none."""
    from grandstrategy.cataclysm.rules.control import at_war

    game = setup(
        "europe-1939",
        [("germany", "infantry-army", "ruhr"), ("france", "infantry-army", "lorraine")],
        [],
    )
    state = game.state
    state.alliances = {"democracy": ["france", "united-kingdom"], "fascism": ["germany", "italy"]}
    state.powers["germany"].commitment = Commitment.MOBILIZATION
    assert state.powers["italy"].commitment is Commitment.REARMAMENT
    assert state.powers["united-kingdom"].commitment is Commitment.REARMAMENT
    offensive(game, "germany", 1)
    choose(game, "germany", "surprise land operation against Lorraine")
    choose_starting(game, "germany", "activate #1 infantry-army")
    offered = _answer_all(game, {"italy": "break the alliance", "united-kingdom": "join the war"})
    assert offered["italy"] == ["break the alliance"]
    assert "join the war" in offered["united-kingdom"]
    assert at_war(state, "germany", "france") and at_war(state, "germany", "united-kingdom")
    assert not at_war(state, "italy", "france")
    assert "italy" not in state.alliances.get("fascism", [])


def test_the_no_surprise_ideology_still_gives_the_extra_flag_without_the_penalty_lr_l1959() -> None:
    """LR 9.8 (L1951, L1959): with the Democracies' No Surprise marker in play, Germany's surprise
    attack on France still starts the war and gives France the additional flag, but France's army
    suffers no surprise penalty in the combat."""
    from grandstrategy.cataclysm.rules.control import at_war

    game = setup(
        "europe-1939",
        [("germany", "infantry-army", "ruhr"), ("france", "infantry-army", "lorraine")],
        [],
    )
    state = game.state
    state.alliances = {}
    state.no_surprise.append("democracy")
    state.powers["germany"].commitment = Commitment.MOBILIZATION
    flags = state.powers["france"].available_flags
    offensive(game, "germany", 1)
    choose(game, "germany", "surprise land operation against Lorraine")
    choose_starting(game, "germany", "activate #1 infantry-army")
    assert at_war(state, "germany", "france")
    settle(game)
    assert state.powers["france"].available_flags == flags - 2  # provoked, and the additional flag
    roll(game, 4, 3)  # Germany: 4
    roll(game, 4, 2)  # France: 4, no -1
    assert not any("surprised" in line for line in state.log)
    assert "defender rolls 4 2 = 4" in [line for line in state.log if "land combat:" in line][-1]


# ---- LR 9.7: who may attack a country, and the Democracy's check -----------------------------------


def test_a_communist_power_attacks_an_uncontrolled_country_without_war_or_check_lr_l1919() -> None:
    """LR 9.7 (L1919): the USSR at rearmament, at war with nobody, attacks uncontrolled, ungarrisoned
    Baltic States: no declaration, no check, no war; the dice come at once."""
    game = setup("europe-1939", [("soviet-union", "infantry-army", "leningrad")], [])
    offensive(game, "soviet-union", 1)
    choose(game, "soviet-union", "land operation against Baltic States")
    choose_starting(game, "soviet-union", "activate #1 infantry-army")
    settle(game)
    assert game.pending is not None and game.pending["type"] == "chance"
    assert "combat" in game.pending["label"]
    assert game.state.wars == []


def test_a_democracy_at_peace_may_not_attack_an_ungarrisoned_country_lr_l1921() -> None:
    """LR 9.7 (L1921): France at mobilization but at war with nobody is not offered uncontrolled,
    ungarrisoned Spain; belligerent, it is (its check is pinned in test_operations)."""
    units = [("france", "infantry-army", "provence"), ("germany", "infantry-army", "berlin")]
    game = setup("europe-1939", units, [])
    offensive(game, "france", 1)
    assert "land operation against Spain" not in options(game)
    game = setup("europe-1939", units, [("france", "germany")])
    offensive(game, "france", 1)
    assert "land operation against Spain" in options(game)


def test_a_democracy_needs_no_check_against_an_enemy_held_country_lr_l1921_l1810() -> None:
    """LR 9.7 (L1921) and 9.2 step 2 (L1810): France at war with Germany attacks ungarrisoned
    Benelux, which Germany controls: no effectiveness check, the combat follows at once."""
    game = setup(
        "europe-1939",
        [("france", "infantry-army", "lorraine"), ("germany", "infantry-army", "berlin")],
        [("france", "germany")],
    )
    game.state.cubes["benelux"] = {"germany": 1}
    offensive(game, "france", 1)
    choose(game, "france", "land operation against Benelux")
    choose_starting(game, "france", "activate #1 infantry-army")
    settle(game)
    assert game.pending is not None and game.pending["type"] == "chance"
    assert "attack on Benelux" not in game.pending["label"] and "combat" in game.pending["label"]


def test_a_democracy_checks_against_a_country_held_by_a_non_enemy_lr_l1921() -> None:
    """LR 9.7 (L1921): France at war with Germany attacks ungarrisoned Baltic States held by the
    USSR, which is not its enemy: France must pass an effectiveness check first."""
    game = setup(
        "europe-1939",
        [("france", "infantry-army", "poland"), ("germany", "infantry-army", "berlin")],
        [("france", "germany")],
    )
    game.state.cubes["baltic-states"] = {"soviet-union": 1}
    offensive(game, "france", 1)
    choose(game, "france", "land operation against Baltic States")
    choose_starting(game, "france", "activate #1 infantry-army")
    assert game.pending is not None and "attack on Baltic States" in game.pending["label"]


# ---- LR 9.6: defenders trace supply too; minor armies and logistics never need it ------------------


def test_a_cut_off_defender_fights_in_limited_supply_lr_l1901_l1909() -> None:
    """LR 9.6 (L1901, L1903, L1909): at war with Germany, France cannot trace an LOC to Poland, so
    its army there defends in limited supply (-1); its logistics unit and the Polish minor army
    need no supply and get no marker."""
    game = setup(
        "europe-1939",
        [
            ("germany", "tank-army", "silesia"),
            ("france", "infantry-army", "poland"),
            ("france", "logistics", "poland"),
        ],
        [("germany", "france")],
    )
    game.state.alliances = {}
    game.state.powers["france"].force_pool.pop("logistics", None)  # the counter is the one on the map
    offensive(game, "germany", 1)
    choose(game, "germany", "land operation against Poland")
    choose_starting(game, "germany", "activate #1 tank-army")
    settle(game)
    notes = [line for line in game.state.log if "is in limited supply" in line]
    assert notes == ["1939 action: france's infantry-army in Poland is in limited supply (LR 9.6)"]
    roll(game, 3, 2)  # Germany: 3
    roll(game, 6)  # France: one die (German armour), 6 - 1 = 5
    assert "defender -1: limited supply" in " ".join(game.state.log)


def test_a_supporting_unit_checks_supply_when_committed_lr_l1901_l1990() -> None:
    """LR 9.6 (L1901) and 10.2 (L1990): France's air force in cut-off Czechoslovakia supports the
    defence of Poland; it traces its LOC when committed, cannot, and is marked limited supply."""
    game = setup(
        "europe-1939",
        [
            ("germany", "tank-army", "silesia"),
            ("france", "infantry-army", "poland"),
            ("france", "tactical-air", "czechoslovakia"),
        ],
        [("germany", "france")],
    )
    game.state.cubes["czechoslovakia"] = {"france": 1}
    game.state.alliances = {}
    offensive(game, "germany", 1)
    choose(game, "germany", "land operation against Poland")
    choose_starting(game, "germany", "activate #1 tank-army")
    settle(game)
    assert not any("supporting" in line for line in game.state.log)
    choose_starting(game, "france", "support with #3 france tactical-air")
    assert "1939 action: france's supporting tactical-air is in limited supply (LR 10.2)" in game.state.log


# ---- LR 9.7 and 9.2 step 2: a failed check forfeits that one action -------------------------------


def test_a_failed_democracy_check_forfeits_only_its_action_lr_l1921_l1810() -> None:
    """LR 9.7 (L1921) and 9.2 step 2 (L1810): France, belligerent, spends one of two actions on an
    operation against neutral Spain and fails its check: the operation is cancelled, that action
    is lost, and the offensive's other action is still France's to use."""
    game = setup(
        "europe-1939",
        [("france", "infantry-army", "provence"), ("germany", "infantry-army", "berlin")],
        [("france", "germany")],
    )
    offensive(game, "france", 2)
    choose(game, "france", "land operation against Spain")
    choose_starting(game, "france", "activate #1 infantry-army")
    roll(game, 3)  # effectiveness 1: fails
    assert game.pending is not None and game.pending["prompt"].startswith("military action (1 left")
    assert {u.id: u.area for u in game.state.units}[1] == "provence"


# ---- LR 9.7.2 with 5.7: an attacker with no enemy; the opportunity comes at once -------------------


def test_a_failed_attack_without_enemies_goes_to_the_opposing_powers_at_once_lr_l1943_l1333() -> None:
    """LR 9.7.2 (L1943) with 5.7 (L1333, L1338): Germany, at war with nobody, fails to conquer
    uncontrolled Denmark with the first of two actions. With no enemy, the non-enemy opposing powers
    are eligible, in decreasing effectiveness order (never Italy, of Germany's ideology), and the
    opportunity is resolved immediately, before Germany's second action."""
    from grandstrategy.cataclysm.engine.common import power_order

    game = setup("europe-1939", [("germany", "infantry-army", "ruhr")], [])
    game.state.alliances = {}
    offensive(game, "germany", 2)
    choose(game, "germany", "land operation against Denmark")
    choose_starting(game, "germany", "activate #1 infantry-army")
    choose(game, "germany", "augment 0")
    settle(game)
    roll(game, 1, 1)  # Germany: 1
    roll(game, 6)  # Denmark: 6; the German army is destroyed
    expected = [p for p in power_order(game, decreasing=True) if p not in ("germany", "italy")]
    asked: list[str] = []
    while (
        game.pending is not None
        and game.pending["type"] == "decide"
        and game.pending["prompt"].startswith("diplomatic opportunity in Denmark")
    ):
        power = game.pending["power"]
        asked.append(power)
        choose(game, power, "attempt")  # the check is the power's choice (LR 5.7)
        assert game.pending is not None and game.pending["type"] == "chance", game.pending
        while game.pending is not None and game.pending["type"] == "chance":
            label = game.pending["label"]
            assert label.endswith("diplomatic opportunity in denmark"), label
            assert label.split()[0] == power, label
            roll(game, 1)  # each die fails
    assert asked == expected
    assert game.pending is not None and game.pending["prompt"].startswith("military action (1 left")


# ---- LR 9.2 steps 4 and 6 with 6.1.4: an attacker displaced by a broken alliance drops out ----------


def test_an_attacker_displaced_by_a_broken_alliance_drops_out_lr_l1812_l1814_l1404() -> None:
    """LR 9.2 step 4 (L1812) with 6.1.3-6.1.4 (L1394, L1404), then step 6 (L1814): Germany at
    mobilization surprises France in Provence with its army standing in Italian Lombardy. Italy, at
    rearmament, cannot join the war and breaks the alliance, so the German army may not stay in
    Lombardy and retreats to Austria. It no longer stands in the area of origin and does not attack
    from there; with no German unit left the operation ends without a combat."""
    game = setup(
        "europe-1939",
        [("germany", "infantry-army", "lombardy"), ("france", "infantry-army", "provence")],
        [("germany", "soviet-union"), ("italy", "soviet-union")],
    )
    state = game.state
    state.alliances = {"fascism": ["germany", "italy"]}
    state.powers["germany"].commitment = Commitment.MOBILIZATION
    offensive(game, "germany", 1)
    choose(game, "germany", "surprise land operation against Provence")
    choose_starting(game, "germany", "activate #1 infantry-army")
    choose(game, "italy", "break the alliance")
    choose(game, "germany", "Austria")
    settle(game)
    assert game.pending is None
    assert [(u.power, u.area) for u in state.units] == [("germany", "austria"), ("france", "provence")]
    assert not any("combat" in line for line in state.log)
