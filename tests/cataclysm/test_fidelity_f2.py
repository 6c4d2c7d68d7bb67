"""Fidelity of the sequence of play (LR 3) and political actions (LR 6.2-6.8), through the engine."""

from __future__ import annotations

from typing import Any

from tests.cataclysm.test_operations import bare_game, choose, options, roll, settle, setup

from grandstrategy.cataclysm.engine import CataclysmGame
from grandstrategy.cataclysm.engine.common import return_to_card
from grandstrategy.cataclysm.module.schema import Commitment


def _operation(node: Any) -> dict[str, Any] | None:
    """The operation record carried somewhere in a pending decision or chance."""
    if isinstance(node, dict):
        if "defender" in node and "attackers" in node:
            return node
        values: list[Any] = list(node.values())
    elif isinstance(node, list):
        values = node
    else:
        return None
    for value in values:
        found = _operation(value)
        if found is not None:
            return found
    return None


def _lorraine_dow(peace_with: str) -> CataclysmGame:
    """Germany (mobilization) at war with France and the UK, but at peace by armistice with
    ``peace_with``; a French and a British army share Lorraine; Germany plays a flag."""
    game = setup(
        "europe-1939",
        [
            ("germany", "infantry-army", "ruhr"),
            ("france", "infantry-army", "lorraine"),
            ("united-kingdom", "infantry-army", "lorraine"),
        ],
        [("germany", "france"), ("germany", "united-kingdom")],
    )
    state = game.state
    state.peace.append(sorted(["germany", peace_with]))
    state.powers["germany"].commitment = Commitment.MOBILIZATION
    state.powers["germany"].available_flags -= 1
    game.push("play-counter", counter="flag:germany", source="cup")
    game.run()
    return game


def test_dow_operation_primary_defender_is_the_target_lr_6_2() -> None:
    """LR 6.2 (L1437): the operation after a DOW has one of the DOW's targets as primary defender.
    With a French and a British army in Lorraine, Germany declaring war on France may not then
    pick the UK (an enemy already) as primary defender (LR 9.1.1 choice is narrowed to France)."""
    game = _lorraine_dow("france")
    choose(game, "germany", "declare-war france")
    roll(game, 6, 6, 6)
    settle(game)
    choose(game, "germany", "land operation against Lorraine")
    choose(game, "germany", "activate #1 infantry-army in Ruhr")
    assert game.pending is not None and game.pending["type"] == "chance", game.pending
    op = _operation(game.pending)
    assert op is not None and op["defender"] == "france"


def test_dow_operation_counts_a_target_that_is_not_first_in_the_area_lr_6_2() -> None:
    """LR 6.2, 9.1.1: the UK may be chosen primary defender in Lorraine beside a French army, so a
    DOW on the UK followed by that attack is legal, and the UK is the primary defender."""
    game = _lorraine_dow("united-kingdom")
    assert "declare-war united-kingdom" in options(game)
    choose(game, "germany", "declare-war united-kingdom")
    roll(game, 6, 6, 6)
    settle(game)
    assert options(game) == ["land operation against Lorraine"]
    choose(game, "germany", "land operation against Lorraine")
    choose(game, "germany", "activate #1 infantry-army in Ruhr")
    op = _operation(game.pending)
    assert op is not None and op["defender"] == "united-kingdom"


def _flag_menu(game: CataclysmGame, power: str) -> list[str]:
    """The political actions offered when ``power`` plays a flag drawn from the cup."""
    game.state.powers[power].available_flags -= 1
    game.push("play-counter", counter=f"flag:{power}", source="cup")
    game.run()
    return options(game)


def test_pressure_needs_a_belligerent_and_a_non_enemy_lr_6_6() -> None:
    """LR 6.6: the designated power is a non-enemy; one of the two is belligerent. Germany at war
    with the UK may press Italy, France, the USSR (not its enemy, the UK); the USSR at peace may
    press Germany (belligerent) but not France (not belligerent either)."""
    game = setup("europe-1939", [], [("germany", "united-kingdom")])
    game.state.alliances.pop("democracy", None)
    menu = _flag_menu(game, "germany")
    assert {"pressure italy", "pressure france", "pressure soviet-union"} <= set(menu)
    assert "pressure united-kingdom" not in menu
    game = setup("europe-1939", [], [("germany", "united-kingdom")])
    game.state.alliances.pop("democracy", None)
    menu = _flag_menu(game, "soviet-union")
    assert "pressure germany" in menu and "pressure united-kingdom" in menu
    assert "pressure france" not in menu and "pressure italy" not in menu


def test_no_pressure_on_a_power_without_an_available_flag_lr_3_3_6_6() -> None:
    """LR 3.3 (L745), 5.2.2, 6.6: success would give Italy a flag it does not have (forfeit), so
    no change to the game: pressure on Italy is not an action Germany may attempt."""
    game = setup("europe-1939", [], [("germany", "united-kingdom")])
    game.state.powers["italy"].available_flags = 0
    menu = _flag_menu(game, "germany")
    assert "pressure italy" not in menu
    assert "pressure soviet-union" in menu


def test_dow_may_target_any_two_allied_powers_lr_6_2() -> None:
    """LR 6.2 (L1420): several targets are allowed when allied with each other, so two members
    of a three-power alliance may be targeted without the third (which then joins or leaves as an
    ally of a target, LR 6.1.3). Only declarations an operation can follow are offered."""
    game = setup(
        "europe-1939",
        [("germany", "infantry-army", "ruhr"), ("france", "infantry-army", "lorraine")],
        [],
    )
    state = game.state
    state.alliances["democracy"] = ["france", "united-kingdom", "united-states"]
    state.powers["germany"].commitment = Commitment.MOBILIZATION
    declarations = [o for o in _flag_menu(game, "germany") if o.startswith("declare-war")]
    assert declarations == [
        "declare-war france",
        "declare-war france+united-kingdom",
        "declare-war france+united-states",
        "declare-war france+united-kingdom+united-states",
    ]


def test_no_maneuvers_when_no_military_action_is_possible_lr_3_3_6_5() -> None:
    """LR 3.3 (L745), 6.5: maneuvers whose success could only be forfeited changes nothing, so it
    is not offered: the US of 1939, with nothing to deploy, build or attack, has no maneuvers; a
    power with a unit to deploy has."""
    game = setup("europe-1939", [("france", "infantry-army", "paris")], [])
    assert "maneuvers" not in _flag_menu(game, "united-states")
    game = setup("europe-1939", [("france", "infantry-army", "paris")], [])
    assert "maneuvers" in _flag_menu(game, "france")


def test_a_flag_reserved_when_japan_ends_the_treaty_may_interrupt_lr_3_4_3_5() -> None:
    """LR 3.4 (L753), 3.5 (L757), 12.1.3: Japan ends the Washington Naval Treaty before a draw; the
    UK puts the flag it gains in reserve, and may interrupt with it before that same draw."""
    game = bare_game("campaign-1933")
    state = game.state
    for line in state.powers.values():
        if line.reserve is not None:
            return_to_card(game, line.reserve)
            line.reserve = None
    state.last_ideology = None
    game.push("action-window")
    game.run()
    choose(game, "japan", "end")
    place = {"united-kingdom": "reserve", "united-states": "cup"}
    while game.pending is not None and "place the flag" in game.pending["prompt"]:
        choose(game, game.pending["power"], place[game.pending["power"]])
    assert state.powers["united-kingdom"].reserve == "flag:united-kingdom"
    assert game.pending is not None and game.pending["power"] == "united-kingdom"
    assert options(game) == ["pass", "interrupt"]


def _reserve_from_cup(game: CataclysmGame, power: str, counter: str) -> None:
    """Move one of ``power``'s counters from the cup to its reserve (its old reserve back to the card)."""
    game.state.cup.remove(counter)
    line = game.state.powers[power]
    if line.reserve is not None:
        return_to_card(game, line.reserve)
    line.reserve = counter


def _interrupt_askers(game: CataclysmGame) -> list[str]:
    """Pass every interrupt offer until the draw; the powers asked, in order."""
    asked = []
    while game.pending is not None and game.pending["type"] == "decide":
        assert "interrupt" in game.pending["prompt"], game.pending
        asked.append(game.pending["power"])
        choose(game, game.pending["power"], "pass")
    assert game.pending is not None and game.pending["kind"] == "draw", game.pending
    return asked


def test_home_front_marker_bars_its_ideology_from_interrupting_next_lr_3_5() -> None:
    """LR 3.5 (L759): a Home Front marker drawn counts as its ideology's counter, so after
    Germany's Home Front, Italy may not interrupt before the next draw; the UK still may."""
    game = bare_game()
    _reserve_from_cup(game, "italy", "flag:italy")
    game.push("action-window")
    game.run()
    assert _interrupt_askers(game) == ["united-kingdom", "italy"]  # decreasing effectiveness
    game.apply_chance("home-front:germany")
    roll(game, 6, 6, 6)  # the home front stability test passes
    while game.pending is not None and "deployment" in game.pending["prompt"]:
        choose(game, "germany", "done")
    assert _interrupt_askers(game) == ["united-kingdom"]


def test_any_ideology_may_interrupt_after_a_crisis_draw_lr_3_5() -> None:
    """LR 3.5 (L759): the bar is on the ideology whose counter was drawn or played last; a Crisis
    marker drawn after an Italian play belongs to nobody, so Italy may interrupt again."""
    game = bare_game()
    _reserve_from_cup(game, "italy", "flag:italy")
    game.state.last_ideology = "fascism"
    game.push("action-window")
    game.run()
    assert _interrupt_askers(game) == ["united-kingdom"]
    game.apply_chance("crisis")
    roll(game, 6, 6, 6, 6)  # peacetime 6-6, which changes nothing, rerolled once: no effect
    assert game.state.last_ideology is None
    assert _interrupt_askers(game) == ["united-kingdom", "italy"]


def test_a_reserved_counter_replaced_is_rejected_and_a_rejected_one_goes_back_lr_3_4_3_6() -> None:
    """LR 3.4 (L753): the UK puts a drawn flag in reserve, so its reserved offensive is rejected
    back to its available markers; LR 3.6 (L765): a German flag rejected returns to available."""
    game = bare_game()
    uk, germany = game.state.powers["united-kingdom"], game.state.powers["germany"]
    offensives, flags = uk.available_offensives, germany.available_flags
    game.push("action-window")
    game.run()
    _interrupt_askers(game)
    game.apply_chance("flag:united-kingdom")
    assert options(game) == ["play", "reserve", "reject"]
    choose(game, "united-kingdom", "reserve")
    assert uk.reserve == "flag:united-kingdom" and uk.available_offensives == offensives + 1
    _interrupt_askers(game)
    game.apply_chance("flag:germany")
    choose(game, "germany", "reject")
    assert germany.available_flags == flags + 1 and germany.reserve is None


def test_an_upgrade_with_no_unit_to_improve_waits_or_goes_lr_3_7_3() -> None:
    """LR 3.7.3 (L793): with no unit the upgrade could flip, Germany must reject it, reserve it
    or put it on the turn track for next turn; it cannot be played."""
    game = setup("europe-1939", [("germany", "tactical-air", "berlin")], [])
    state = game.state
    state.cup.append("upgrade:germany:army")
    game.push("draw")
    game.run()
    game.apply_chance("upgrade:germany:army")
    assert options(game) == ["reserve", "reject", "next turn"]
    choose(game, "germany", "next turn")
    assert "upgrade:germany:army" in state.turn_track[state.turn + 2]


def _answer_all(game: CataclysmGame, answers: dict[str, str] | None = None) -> None:
    """Answer every decision with the first option whose prompt holds no key of ``answers``
    (otherwise the option given), until chance speaks or nothing is pending."""
    answers = answers or {}
    while game.pending is not None and game.pending["type"] == "decide":
        prompt = game.pending["prompt"]
        pick = next((v for k, v in answers.items() if k in prompt), options(game)[0])
        choose(game, game.pending["power"], pick)


def test_escalation_offensives_example_with_the_ruhr_lr_6_4_2() -> None:
    """LR 6.4.2 (L1485-1487): Germany mobilizes; one offensive per industrial resource it traces an
    LOC to (Berlin, Ruhr), plus one for the Ruhr limited resource it chooses to count, which
    leaves play. The offensives go to the cup, one may be reserved."""
    game = bare_game()
    state = game.state
    germany = state.powers["germany"]
    offensives, cup = germany.available_offensives, state.cup.count("offensive:germany")
    assert "escalation" in _flag_menu(game, "germany")
    choose(game, "germany", "escalation")
    roll(game, 6, 6, 6)
    _answer_all(game, {"limited resource": "count", "one may go to reserve": "reserve"})
    assert germany.commitment is Commitment.MOBILIZATION and germany.escalated_this_turn
    assert "Ruhr" in state.used_limited
    assert germany.available_offensives == offensives - 3
    assert state.cup.count("offensive:germany") == cup + 2 and germany.reserve == "offensive:germany"


def test_escalation_while_belligerent_is_automatic_once_a_turn_lr_6_4() -> None:
    """LR 6.4 (L1465-1471): a belligerent escalates without a check, may reach total war (which
    starts Global War, the last turn two turns on or 1945-46, LR 6.4.1), and only once a turn."""
    game = setup("europe-1939", [], [("germany", "france")])
    state = game.state
    germany = state.powers["germany"]
    germany.commitment = Commitment.MOBILIZATION
    assert "escalation" in _flag_menu(game, "germany")
    choose(game, "germany", "escalation")
    assert any("automatic while belligerent" in line for line in state.log)  # no dice rolled
    _answer_all(game)
    assert germany.commitment is Commitment.TOTAL_WAR
    assert state.global_war_turn == 1945 and state.war_status.value == "global"
    germany.commitment = Commitment.MOBILIZATION  # even with room left, a second one is barred
    assert "escalation" not in _flag_menu(game, "germany")


def test_total_war_needs_a_belligerent_or_global_war_lr_6_4() -> None:
    """LR 6.4 (L1463): at mobilization and at peace, with no Global War, Italy may not escalate."""
    game = setup("europe-1939", [], [])
    game.state.powers["italy"].commitment = Commitment.MOBILIZATION
    assert "escalation" not in _flag_menu(game, "italy")


def test_declaration_of_war_needs_mobilization_or_total_war_lr_6_2() -> None:
    """LR 6.2 (L1424): Germany at rearmament may not declare war even with an attack to make."""
    units = [("germany", "infantry-army", "ruhr"), ("france", "infantry-army", "lorraine")]
    game = setup("europe-1939", units, [])
    assert not [o for o in _flag_menu(game, "germany") if o.startswith("declare-war")]
    game = setup("europe-1939", units, [])
    game.state.powers["germany"].commitment = Commitment.TOTAL_WAR
    assert "declare-war france" in _flag_menu(game, "germany")


def test_ally_of_a_target_that_leaves_the_alliance_gains_no_flag_lr_6_2() -> None:
    """LR 6.2 (L1431): the ally of a target joins the war (with a provocation flag, without DOW
    requirements) or breaks the alliance; breaking gives it no flag."""
    units = [("germany", "infantry-army", "ruhr"), ("france", "infantry-army", "lorraine")]
    for answer, flag in (("join the war", 1), ("break the alliance", 0)):
        game = setup("europe-1939", units, [])
        state = game.state
        state.powers["germany"].commitment = Commitment.MOBILIZATION
        uk_flags = state.powers["united-kingdom"].available_flags
        _flag_menu(game, "germany")
        choose(game, "germany", "declare-war france")
        roll(game, 6, 6, 6)
        assert options(game) == ["join the war", "break the alliance"]  # the UK at rearmament
        choose(game, "united-kingdom", answer)
        settle(game)
        assert state.powers["united-kingdom"].available_flags == uk_flags - flag


def test_propaganda_bears_the_home_front_penalty_lr_6_7() -> None:
    """LR 6.7 (L1507): France at mobilization (-1) and wavering: a 5 on its die becomes 4, a
    failure; at rearmament the same 5 succeeds and France is steady again."""
    from grandstrategy.cataclysm.module.schema import Stability

    for commitment, after in (
        (Commitment.MOBILIZATION, Stability.WAVERING),
        (Commitment.REARMAMENT, Stability.STEADY),
    ):
        game = setup("europe-1939", [], [])
        france = game.state.powers["france"]
        france.commitment, france.stability = commitment, Stability.WAVERING
        assert "propaganda" in _flag_menu(game, "france")
        choose(game, "france", "propaganda")
        roll(game, 5)  # France: effectiveness 1, one die
        assert france.stability is after


def test_end_phase_resolves_leftover_home_fronts_in_increasing_order_lr_3_8() -> None:
    """LR 3.8 (L853-859): leftover Home Front markers are resolved in increasing effectiveness
    order (Italy 1 before Germany 3); leftover flags and the reserve go to the holding box."""
    game = bare_game()
    state = game.state
    keep = ["flag:germany", "flag:germany", "home-front:germany", "home-front:italy"]
    for counter in state.cup:
        if counter in keep:
            continue
        if counter.split(":")[0] in ("crisis", "cw-resolution", "home-front"):
            state.turn_track.setdefault(state.turn + 2, []).append(counter)
        else:
            return_to_card(game, counter)
    state.cup = keep
    _reserve_from_cup(game, "germany", "flag:germany")
    game.push("end-phase")
    game.run()
    tests = []
    while game.pending is not None and state.phase == "end":
        if game.pending["type"] == "chance":
            tests.append(game.pending["label"].split()[0])
            roll(game, 6)
        else:
            choose(game, game.pending["power"], "done" if "done" in options(game) else options(game)[0])
    assert tests[0] == "italy" and "germany" in tests[1:]
    # the cup's flag and the reserve, plus the flag of the next administration phase (LR 3.2.2)
    assert state.powers["germany"].reserve is None
    assert state.powers["germany"].holding_box.count("flag:germany") == 3


def test_an_upgrade_flips_a_unit_and_goes_back_to_the_force_pool_lr_3_7_3() -> None:
    """LR 3.7.3 (L791): Germany's army upgrade, drawn and played, flips its infantry army in
    Berlin (LOC from its production sites) to a tank army; the marker returns to the force pool."""
    game = setup("europe-1939", [("germany", "infantry-army", "berlin")], [])
    state = game.state
    state.cup.append("upgrade:germany:army")
    game.push("draw")
    game.run()
    game.apply_chance("upgrade:germany:army")
    assert options(game) == ["play", "reserve", "reject"]
    choose(game, "germany", "play")
    choose(game, "germany", "berlin #1")
    assert state.units[0].type == "tank-army"
    assert state.powers["germany"].force_pool.get("upgrade:army") == 1


def test_a_unit_played_goes_to_a_production_site_then_may_deploy_lr_3_7_2() -> None:
    """LR 3.7.2 (L783-785): a German infantry army drawn and played is placed at a production
    site on its regular side; Germany may then deploy that unit alone."""
    game = setup("europe-1939", [("germany", "infantry-army", "berlin")], [])
    state = game.state
    state.powers["germany"].force_pool["army"] -= 1
    state.cup.append("unit:germany:infantry-army")
    game.push("draw")
    game.run()
    game.apply_chance("unit:germany:infantry-army")
    choose(game, "germany", "play")
    assert "berlin" in options(game) and "silesia" not in options(game)
    choose(game, "germany", "berlin")
    placed = state.units[-1]
    assert placed.type == "infantry-army" and placed.area == "berlin"
    menu = options(game)
    assert menu[0] == "done" and all(f"#{placed.id}" in o for o in menu[1:])  # that unit alone


def test_home_front_at_civilian_has_no_stability_test_lr_3_7_6() -> None:
    """LR 3.7.6 (L837): the US at civilian draws its Home Front: no test, the marker goes to the
    next turn."""
    game = bare_game()
    state = game.state
    game.push("draw")
    game.run()
    game.apply_chance("home-front:united-states")
    assert "home-front:united-states" in state.turn_track[state.turn + 2]
    assert not any("stability test" in line for line in state.log)
    # no die rolled; the UK, a Democracy like the US, may not interrupt: the next draw comes
    assert game.pending is not None and game.pending["kind"] == "draw"


def test_pressure_success_gives_the_designated_power_a_flag_lr_6_6() -> None:
    """LR 6.6 (L1499): Germany, at war with the UK, presses Italy; on success Italy gains a flag,
    which it places in the cup or reserve (LR 5.2.2)."""
    game = setup("europe-1939", [], [("germany", "united-kingdom")])
    italy = game.state.powers["italy"]
    flags = italy.available_flags
    _flag_menu(game, "germany")
    choose(game, "germany", "pressure italy")
    roll(game, 6, 6, 6)
    assert game.pending is not None and game.pending["power"] == "italy"
    choose(game, "italy", "reserve")
    assert italy.reserve == "flag:italy" and italy.available_flags == flags - 1


def test_posture_change_by_flag_needs_no_check_lr_6_8() -> None:
    """LR 6.8 (L1518): a Communist power changes posture with its flag, no die rolled."""
    game = setup("europe-1939", [], [])
    soviet = game.state.powers["soviet-union"]
    if soviet.posture is None:
        soviet.posture = "political-purges"
    menu = _flag_menu(game, "soviet-union")
    other = next(o for o in menu if o.startswith("posture "))
    choose(game, "soviet-union", other)
    assert game.pending is None or game.pending["type"] == "decide"
    assert soviet.posture == other.removeprefix("posture ") and soviet.posture_changed


def test_leftover_counters_stay_in_the_cup_until_home_fronts_are_resolved_lr_3_8() -> None:
    """LR 3.8 (L855-859): steps 1-2 (Civil War Resolution, Home Front markers) come before step 3
    (flags and other counters to the holding box), so a German flag left in the cup is still
    there while Germany's leftover Home Front is resolved, and in its holding box after."""
    game = bare_game()
    state = game.state
    keep = ["flag:germany", "home-front:germany"]
    for counter in list(state.cup):
        if counter in keep:
            continue
        if counter.split(":")[0] in ("crisis", "cw-resolution", "home-front"):
            state.turn_track.setdefault(state.turn + 2, []).append(counter)
        else:
            return_to_card(game, counter)
    state.cup = list(keep)
    state.powers["germany"].available_flags += 1
    game.push("end-phase")
    game.run()
    assert game.pending is not None and "germany stability test" in game.pending["label"]
    assert state.cup == ["flag:germany"]
    roll(game, 6, 6, 6)
    while game.pending is not None and state.phase == "end":
        choose(game, game.pending["power"], "done" if "done" in options(game) else options(game)[0])
    assert "flag:germany" in state.powers["germany"].holding_box
