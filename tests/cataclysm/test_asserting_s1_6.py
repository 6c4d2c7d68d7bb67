"""Tests that assert the outcome of rules in sections 1 to 6 of the Living Rules through the engine.

Each test sets up a situation, forces the dice and the choices, and checks what the rule says
happens; the docstrings name the rule and the line of the Living Rules ("L1234").
"""

from __future__ import annotations

from tests.cataclysm.test_operations import MODULE, bare_game, choose, options, roll

from grandstrategy.cataclysm.engine import CataclysmGame
from grandstrategy.cataclysm.engine.common import counters_in_play
from grandstrategy.cataclysm.engine.politics import political_options
from grandstrategy.cataclysm.module.schema import Commitment, Stability, WarStatus
from grandstrategy.cataclysm.rules.control import at_war, controller
from grandstrategy.cataclysm.state import Unit


def _flag_play(game: CataclysmGame, power: str, counter: str | None = None) -> None:
    """Play a flag of ``power`` drawn from the cup: the political-action menu opens."""
    game.push("play-counter", counter=counter or f"flag:{power}", source="cup")
    game.run()
    assert game.pending is not None and game.pending["prompt"].startswith("political action")


def _draw(game: CataclysmGame, counter: str) -> None:
    """Draw this counter from the cup (the chance outcome forced)."""
    assert counter in game.state.cup, counter
    game.stack = [{"do": "drawn", "outcome": counter}]
    game.pending = None
    game.run()


def pick(game: CataclysmGame, power: str, option: str) -> None:
    """Choose without the invariant check (for set-ups that leave the counter mix aside)."""
    assert game.pending is not None and game.pending["type"] == "decide", game.pending
    assert game.pending["power"] == power, game.pending
    assert option in game.pending["options"], game.pending["options"]
    game.apply(game.legal_actions()[game.pending["options"].index(option)])


def _answer_all(game: CataclysmGame, option: str = "cup") -> list[str]:
    """Answer every flag placement with ``option``; return the powers asked, in order."""
    asked: list[str] = []
    while (
        game.pending is not None
        and game.pending["type"] == "decide"
        and "place the flag" in game.pending["prompt"]
    ):
        asked.append(game.pending["power"])
        choose(game, game.pending["power"], option)
    return asked


# ---- LR 1.6: ending the game ------------------------------------------------------------------


def test_the_last_turn_ends_the_game_unless_global_war_runs_later_lr_1_6() -> None:
    """LR 1.6 (L181): the game ends after the scenario's final turn or the Global War marker's turn,
    whichever is later; the Global War marker on the current turn ends the game at its end (L701)."""
    game = bare_game()
    state = game.state
    state.turn = state.last_turn
    state.global_war_turn = state.last_turn + 2  # Global War runs one turn past the scenario
    game.push("end-phase-finish")
    game.run()
    assert state.result is None and state.turn == state.last_turn + 2  # the game goes on
    game.stack.clear()
    game.pending = None
    game.push("end-phase-finish")  # the end of the Global War marker's turn
    game.run()
    assert state.result is not None and state.phase == "over"
    assert state.result["how"] == "the last turn is over"


def test_the_final_turn_ends_the_game_when_global_war_is_earlier_lr_1_6() -> None:
    """LR 1.6 (L181): with the Global War marker on an earlier turn, the scenario's last turn ends it."""
    game = bare_game()
    state = game.state
    state.turn = state.last_turn - 2
    state.global_war_turn = state.last_turn - 2
    game.push("end-phase-finish")
    game.run()
    assert state.result is None and state.turn == state.last_turn
    game.stack.clear()
    game.pending = None
    game.push("end-phase-finish")
    game.run()
    assert state.result is not None


def test_two_surrender_markers_end_the_game_at_once_lr_1_6() -> None:
    """LR 1.6 (L174-176): an ideology that caused two surrenders ends the game; a shared marker
    counts for both ideologies; one marker is not enough."""
    game = bare_game("campaign-1933")
    state = game.state
    state.surrenders = ["fascism"]
    game.push("check-game-end")
    game.run()
    assert state.result is None
    state.surrenders = ["fascism", "communism+fascism"]
    game.push("check-game-end")
    game.run()
    assert state.result is not None and state.result["how"] == "fascism holds two Surrender markers"


def test_an_ideology_all_surrendered_ends_the_game_after_the_surrender_procedure_lr_1_6() -> None:
    """LR 1.6 (L174-175): when every power of an ideology has surrendered the game ends, and the
    surrender procedure is completed first (its Surrender marker is placed, LR 5.5.4 step 9)."""
    game = bare_game()
    state = game.state
    state.cubes["moscow"] = {"germany": 2}
    state.cubes["leningrad"] = {"germany": 1}
    state.wars = [(["germany"], ["soviet-union"])]
    state.powers["soviet-union"].commitment = Commitment.MOBILIZATION
    game.push("collapse", power="soviet-union")
    game.run()
    roll(game, 1)  # at or below the threshold: the Soviet Union surrenders
    while state.result is None and game.pending is not None:
        if game.pending["type"] == "chance":
            game.apply_chance("1")  # diplomatic opportunities fail
        else:
            choose(game, game.pending["power"], game.pending["options"][0])
    assert not state.powers["soviet-union"].active
    assert state.surrenders == ["fascism"]  # the procedure ran to its end first
    assert state.result is not None and state.result["how"] == "every communism power has surrendered"


# ---- LR 3.2.1, 3.3, 3.4, 3.6, 3.7.3, 3.8: the sequence of play ----------------------------------


def test_turn_track_counters_go_to_the_cup_or_the_holding_box_lr_3_2_1() -> None:
    """LR 3.2.1 (L695-699): the Crisis, Home Front and Civil War Resolution markers on this turn's
    box go into the cup, power counters into their power's holding box; the Global War marker
    stays on the track."""
    game = bare_game()
    state = game.state
    state.turn = 1941
    state.cup = []
    state.global_war_turn = 1945
    state.turn_track = {
        1941: ["crisis", "crisis", "home-front:germany", "cw-resolution", "unit:germany:fortress"],
        1943: ["unit:france:fortress"],
    }
    game.push("administration")
    game.run()
    assert sorted(c for c in state.cup if c in ("crisis", "home-front:germany", "cw-resolution")) == [
        "crisis",
        "crisis",
        "cw-resolution",
        "home-front:germany",
    ]
    assert "unit:germany:fortress" in state.powers["germany"].holding_box + state.cup + [
        state.powers["germany"].reserve
    ]
    assert "unit:germany:fortress" not in state.cup  # not into the cup before the final disposition
    assert state.turn_track == {1943: ["unit:france:fortress"]}  # only this turn's box is emptied
    assert state.global_war_turn == 1945


def test_a_drawn_counter_is_played_reserved_or_rejected_and_markers_wait_for_next_turn_lr_3_3() -> None:
    """LR 3.3 (L739-742): a drawn flag is played, reserved or rejected by its power; a drawn Crisis
    marker is resolved at once (no choice) and placed on next turn's box."""
    game = bare_game()
    state = game.state
    _draw(game, "flag:italy")
    assert game.pending is not None and game.pending["power"] == "italy"
    assert options(game) == ["play", "reserve", "reject"]
    choose(game, "italy", "reject")
    crises = state.cup.count("crisis")
    _draw(game, "crisis")
    assert game.pending is not None and game.pending["type"] == "chance"  # the crisis dice, no choice
    assert game.pending["label"] == "crisis"
    assert state.turn_track[state.turn + 2] == ["crisis"]
    assert state.cup.count("crisis") == crises - 1


def test_no_political_action_that_could_not_change_the_game_lr_3_3() -> None:
    """LR 3.3 (L745): propaganda at Steady and a declaration of war with no legal target are not
    offered; at Wavering propaganda is."""
    game = bare_game("campaign-1933")
    state = game.state
    state.powers["france"].stability = Stability.STEADY
    listed = political_options(game, "france")
    assert "propaganda" not in listed
    assert not any(o.startswith("declare-war") for o in listed)  # France at civilian cannot declare war
    state.powers["france"].stability = Stability.WAVERING
    assert "propaganda" in political_options(game, "france")


def test_a_new_reserve_rejects_the_counter_it_replaces_lr_3_4() -> None:
    """LR 3.4 (L749-751): one counter in reserve; reserving another rejects the old one (LR 3.6),
    which goes back to the power's card."""
    game = bare_game()
    state = game.state
    line = state.powers["germany"]
    line.reserve = "offensive:germany"
    line.available_offensives -= 1
    offensives, flags = line.available_offensives, line.available_flags
    _draw(game, "flag:germany")
    choose(game, "germany", "reserve")
    assert line.reserve == "flag:germany"
    assert line.available_offensives == offensives + 1  # the replaced offensive is rejected
    assert line.available_flags == flags


def test_a_rejected_counter_returns_to_the_power_card_lr_3_6() -> None:
    """LR 3.6 (L765): a rejected flag goes to the available markers box, a rejected unit to the
    available force pool; Crisis markers are never offered for rejection (L767)."""
    game = bare_game()
    state = game.state
    line = state.powers["united-kingdom"]
    line.force_pool["army"] -= 1  # an army counter in the cup, as built last turn
    state.cup.append("unit:united-kingdom:infantry-army")
    flags = line.available_flags
    in_cup = state.cup.count("flag:united-kingdom")
    _draw(game, "flag:united-kingdom")
    choose(game, "united-kingdom", "reject")
    assert line.available_flags == flags + 1 and state.cup.count("flag:united-kingdom") == in_cup - 1
    pool = dict(line.force_pool)
    _draw(game, "unit:united-kingdom:infantry-army")
    choose(game, "united-kingdom", "reject")
    assert line.force_pool["army"] == pool.get("army", 0) + 1


def test_an_upgrade_flips_a_unit_and_returns_to_the_force_pool_lr_3_7_3() -> None:
    """LR 3.7.3 (L791): the upgrade flips one of the power's units of the right type that it can
    trace an LOC to, and the marker goes back to the force pool."""
    game = bare_game()
    state = game.state
    state.units = [Unit(1, "germany", "infantry-army", "bavaria"), Unit(2, "germany", "tactical-air", "ruhr")]
    state.next_unit_id = 3
    line = state.powers["germany"]
    before = line.force_pool.get("upgrade:army", 0)
    game.push("play-counter", counter="upgrade:germany:army", source="cup")
    game.run()
    assert options(game) == ["bavaria #1"]  # only the army; the air force needs another marker
    pick(game, "germany", "bavaria #1")
    assert [u.type for u in state.units] == ["tank-army", "tactical-air"]
    assert line.force_pool["upgrade:army"] == before + 1


def test_an_upgrade_with_no_eligible_unit_is_rejected_reserved_or_kept_for_next_turn_lr_3_7_3() -> None:
    """LR 3.7.3 (L793): with no unit to improve, the upgrade cannot be played; its power rejects
    it, reserves it or puts it on next turn's box."""
    game = bare_game()
    state = game.state
    state.units = [u for u in state.units if not (u.power == "germany" and u.type == "infantry-army")]
    game.push("drawn-choice", counter="upgrade:germany:army")
    game.run()
    assert options(game) == ["reserve", "reject", "next turn"]
    choose(game, "germany", "next turn")
    assert state.turn_track[state.turn + 2] == ["upgrade:germany:army"]


def test_the_end_phase_sequence_lr_3_8() -> None:
    """LR 3.8 (L839-848): leftover cup counters: Civil War Resolution first, Home Front markers in
    increasing effectiveness order, power counters to their holding boxes; reserves to the holding
    boxes; reduced effectiveness flips back; the turn advances and Sudden Death ends."""
    game = bare_game()
    state = game.state
    state.cup = ["home-front:germany", "home-front:france", "flag:italy", "offensive:germany", "crisis"]
    state.powers["france"].commitment = Commitment.REARMAMENT  # France (1) before Germany (3)
    state.powers["germany"].effectiveness_reduced = True
    state.powers["germany"].escalated_this_turn = True  # the Commitment marker flipped (LR 6.4)
    state.powers["soviet-union"].posture_changed = True  # the Soviet Posture marker flipped (LR 12.3)
    state.powers["italy"].reserve = "offensive:italy"
    state.sudden_death = True
    start = state.turn
    game.push("end-phase")
    game.run()
    # France's home front test comes first (increasing effectiveness order), and the power counters
    # wait in the cup until the Home Fronts are resolved (step 3 follows step 2)
    assert game.pending is not None and game.pending["label"].startswith("france stability test (home front)")
    assert "flag:italy" in state.cup and "offensive:germany" in state.cup
    while game.pending is not None and state.phase == "end":
        if game.pending["type"] == "chance":
            game.apply_chance("6")
        else:
            pick(game, game.pending["power"], "done" if "done" in options(game) else options(game)[0])
    tests = [line for line in state.log if "stability test (home front)" in line]
    assert [line.split()[2] for line in tests] == ["france", "germany"]
    assert state.turn == start + 2 and not state.sudden_death
    assert "flag:italy" in state.powers["italy"].holding_box + state.cup
    assert "offensive:germany" in state.powers["germany"].holding_box + state.cup
    assert "crisis" in state.cup  # the leftover Crisis marker waited for this turn (LR 3.7.4)
    assert state.powers["germany"].effectiveness_reduced is False
    assert not state.powers["germany"].escalated_this_turn
    assert not state.powers["soviet-union"].posture_changed
    italy = state.powers["italy"]
    assert italy.reserve is None and "offensive:italy" in italy.holding_box + state.cup


def check(game: CataclysmGame, best: int, label: str | None = None) -> int:
    """Roll a whole effectiveness check: ``best`` on the first die, ones on the rest; return the
    number of dice rolled (the power's effectiveness, LR 5.3)."""
    assert game.pending is not None and game.pending["type"] == "chance", game.pending
    if label is not None:
        assert game.pending["label"].startswith(label), game.pending["label"]
    count = int(game.pending["then"]["left"])
    roll(game, best, *([1] * (count - 1)))
    return count


# ---- LR 4: economics ---------------------------------------------------------------------------


def test_escalation_tops_up_the_force_pool_to_the_new_limit_lr_4_1_1() -> None:
    """LR 4.1.1 (L935-937): on escalation the power adds counters of its choice to its available
    force pool until the new commitment's force-pool limit is reached."""
    game = bare_game()
    state = game.state
    italy = state.powers["italy"]
    italy.reserve = None
    game.push("political-result", power="italy", action="escalation", target="", success=True, dice=[6])
    game.run()
    assert italy.commitment is Commitment.MOBILIZATION
    limit = MODULE.powers["italy"].status_card[Commitment.MOBILIZATION].force_pool
    added = []
    while game.pending is not None and game.pending["prompt"].startswith("force pool"):
        choice = options(game)[-1]  # the player's discretion: the last kind offered each time
        added.append(choice)
        choose(game, "italy", choice)
    assert len(added) >= 1
    assert sum(counters_in_play(game, "italy").values()) + sum(italy.force_pool.values()) == limit


def test_repair_removes_every_damage_marker_after_collection_lr_4_8() -> None:
    """LR 4.8 (L1042) with LR 4.4.2: a damaged resource is not collected this production, and the
    Damage markers are all removed in the same administration phase."""
    game = bare_game()
    state = game.state
    state.damaged = ["ruhr", "london"]
    game.push("administration")
    game.run()
    while game.pending is not None and state.phase == "administration":
        if game.pending["type"] == "chance":
            game.apply_chance("6")
        else:
            pick(game, game.pending["power"], options(game)[0])
    assert state.damaged == []
    collected = {line.split()[2]: line for line in state.log if " collects " in line}
    # Berlin and the Ruhr's limited marker; the Ruhr's printed resource carries the Damage marker
    # (LR 9.5.2: one marker stops one resource)
    assert "germany collects 2 resource(s), 2 industrial" in collected["germany"]


def test_resources_beyond_the_available_markers_are_lost_lr_4_4_2() -> None:
    """LR 4.4.2 (L985): without enough resource markers on its card, a power loses the excess."""
    game = bare_game()
    state = game.state
    germany = state.powers["germany"]
    germany.available_offensives = 1
    game.push("produce", power="germany")
    game.run()
    assert "germany collects 1 resource(s)" in state.log[-1]
    assert options(game) == ["offensives 0", "offensives 1", "leave 1 unconverted"]
    assert germany.available_offensives == 0


# ---- LR 5 and 6: politics ------------------------------------------------------------------------


def _cup_flag(game: CataclysmGame, power: str) -> None:
    """Draw the power's flag from the cup and play it: the political-action menu opens."""
    game.state.cup.remove(f"flag:{power}")
    _flag_play(game, power)


def test_a_flag_gained_with_none_available_is_forfeit_lr_5_2_1() -> None:
    """LR 5.2.1-5.2.2 (L1090, L1096): a power with no flag in its available box forfeits any flag
    it would gain; with one available it takes it."""
    game = bare_game()
    state = game.state
    italy = state.powers["italy"]
    held = italy.available_flags
    italy.available_flags = 0
    state.cup.extend(["flag:italy"] * held)  # the flags are all in play already
    game.push("gain-flag", power="italy", reason="pressure by germany")
    game.run()
    assert game.pending is None and italy.available_flags == 0
    assert state.cup.count("flag:italy") == held + 1  # the one from the start: nothing added
    assert "italy would gain a flag (pressure by germany) but has none available" in state.log[-1]


def test_pressure_needs_a_belligerent_and_gives_the_designated_power_a_flag_lr_6_6() -> None:
    """LR 6.6 (L1505): pressure designates a non-enemy power, needs the actor or the designated
    power to be belligerent, and on success the designated power gains a flag."""
    game = bare_game()
    state = game.state
    assert not any(o.startswith("pressure") for o in political_options(game, "italy"))  # nobody at war
    state.wars = [(["france", "united-kingdom"], ["germany"])]
    listed = [o for o in political_options(game, "germany") if o.startswith("pressure")]
    assert listed == ["pressure united-states", "pressure italy", "pressure soviet-union"]  # no enemy
    italy_listed = [o for o in political_options(game, "italy") if o.startswith("pressure")]
    assert italy_listed == ["pressure france", "pressure united-kingdom", "pressure germany"]
    flags = state.powers["italy"].available_flags
    _cup_flag(game, "germany")
    choose(game, "germany", "pressure italy")
    assert check(game, 5, "germany pressure italy") == 3  # Germany's effectiveness
    assert game.pending is not None and game.pending["power"] == "italy"  # Italy places its new flag
    choose(game, "italy", "reserve")
    italy = state.powers["italy"]
    assert italy.reserve == "flag:italy" and italy.available_flags == flags - 1


def test_failed_pressure_gives_no_flag_and_leaves_a_cube_lr_6_6() -> None:
    """LR 6.6 with LR 5.4: a failed pressure gives nothing and may leave a cube in its box."""
    game = bare_game()
    state = game.state
    state.wars = [(["france", "united-kingdom"], ["germany"])]
    flags = state.powers["italy"].available_flags
    _cup_flag(game, "germany")
    choose(game, "germany", "pressure italy")
    check(game, 4)
    assert game.pending is None and state.powers["italy"].available_flags == flags
    assert state.powers["germany"].failed_actions == {"pressure": 1}


def test_maneuvers_success_gives_one_military_action_lr_6_5() -> None:
    """LR 6.5 (L1499-1501): on a successful check the power performs exactly one military action,
    chosen after the check; a failed check gives none."""
    game = bare_game()
    _cup_flag(game, "germany")
    choose(game, "germany", "maneuvers")
    check(game, 5)
    assert game.pending is not None and game.pending["prompt"] == "military action (1 left; LR 8.0)"
    failed = bare_game()
    _cup_flag(failed, "germany")
    choose(failed, "germany", "maneuvers")
    check(failed, 4)
    assert failed.pending is None and failed.state.powers["germany"].failed_actions == {"maneuvers": 1}


def test_propaganda_applies_the_home_front_penalty_and_raises_stability_one_level_lr_6_7() -> None:
    """LR 6.7 (L1509-1513): propaganda is open only below Steady, takes the commitment's home-front
    penalty (-1 at mobilization), and on success raises stability one level."""
    game = bare_game()
    state = game.state
    france = state.powers["france"]  # mobilization in 1939
    france.stability = Stability.UNSTABLE
    assert "propaganda" in political_options(game, "france")
    state.cup.append("flag:france")
    france.available_flags -= 1
    _cup_flag(game, "france")
    choose(game, "france", "propaganda")
    check(game, 5)  # 5 - 1 = 4: failure
    assert france.stability is Stability.UNSTABLE and france.failed_actions == {"propaganda": 1}
    assert "rolls 5-1, failure" in state.log[-1]
    state.cup.append("flag:france")
    france.available_flags -= 1
    _cup_flag(game, "france")
    choose(game, "france", "propaganda")
    check(game, 5)  # 5 - 1 + 1 (the failed-action cube) = 5: success
    assert state.powers["france"].stability is Stability.WAVERING  # one level, not two
    assert france.failed_actions == {}


def test_diplomacy_success_takes_control_and_provokes_interested_powers_lr_6_3() -> None:
    """LR 6.3 (L1441-1457): diplomacy targets an ungarrisoned country in the power's interests; on
    success the power controls it (a cube), and opposing powers with interests there gain a flag
    (LR 5.2.3)."""
    game = bare_game()
    state = game.state
    listed = political_options(game, "germany")
    assert "diplomacy poland" in listed  # French-controlled, held only by its minor army
    assert "diplomacy spain" not in listed  # not in Germany's interests
    _cup_flag(game, "germany")
    choose(game, "germany", "diplomacy sweden")
    check(game, 6)  # 6 - 1 (Sweden's resistance) = 5
    assert controller(MODULE, state, "sweden") == "germany"
    provoked = _answer_all(game)
    assert "soviet-union" in provoked and "germany" not in provoked and "italy" not in provoked


def test_diplomacy_is_not_offered_against_garrisoned_or_own_countries_lr_6_3() -> None:
    """LR 6.3 (L1441): only an ungarrisoned country; one the power already controls would change
    nothing (LR 3.3)."""
    game = bare_game()
    state = game.state
    assert "diplomacy sweden" in political_options(game, "germany")
    state.units.append(Unit(state.next_unit_id, "soviet-union", "infantry-army", "sweden"))
    state.next_unit_id += 1
    assert "diplomacy sweden" not in political_options(game, "germany")  # garrisoned
    state.units.pop()
    state.cubes["sweden"] = {"germany": 1}
    assert "diplomacy sweden" not in political_options(game, "germany")  # already Germany's


def test_diplomacy_against_an_enemy_controlled_country_is_at_minus_one_lr_6_3() -> None:
    """LR 6.3 (L1449): -1 when an enemy controls the target; a same-ideology or neutral controller
    gives no penalty (the target may be held by a power of the same ideology)."""
    game = bare_game()
    state = game.state
    state.cubes["sweden"] = {"soviet-union": 1}
    _cup_flag(game, "germany")
    choose(game, "germany", "diplomacy sweden")
    check(game, 6)  # 6 - 1 resistance = 5
    assert controller(MODULE, state, "sweden") == "germany"  # not at war: no penalty
    _answer_all(game)
    war = bare_game()
    war.state.cubes["sweden"] = {"soviet-union": 1}
    war.state.wars = [(["germany"], ["soviet-union"])]
    _cup_flag(war, "germany")
    choose(war, "germany", "diplomacy sweden")
    check(war, 6)  # 6 - 1 resistance - 1 enemy = 4
    assert controller(MODULE, war.state, "sweden") == "soviet-union"
    assert "rolls 6 1 1-2, failure" in war.state.log[-1]
    same = bare_game()
    same.state.cubes["sweden"] = {"italy": 1}
    assert "diplomacy sweden" in political_options(same, "germany")  # an Italian country is a target


def test_escalation_to_total_war_while_belligerent_lr_6_4_and_6_4_1() -> None:
    """LR 6.4 (L1467-1473) and 6.4.1 (L1477-1481): a belligerent escalates without a check; total
    war brings Global War with its marker two turns ahead (1943 -> 1947, beyond 1945-46), the force
    pool grows to the new limit, opposing non-enemy powers on the card are provoked, and no second
    escalation is offered that turn."""
    game = bare_game()
    state = game.state
    state.turn = 1943
    germany = state.powers["germany"]
    germany.commitment = Commitment.MOBILIZATION
    state.wars = [(["france", "united-kingdom"], ["germany"])]
    state.war_status = WarStatus.LIMITED
    _cup_flag(game, "germany")
    choose(game, "germany", "escalation")
    assert game.pending is not None and game.pending["type"] == "decide"  # no dice: automatic
    assert "escalates: automatic while belligerent" in " ".join(state.log)
    assert germany.commitment is Commitment.TOTAL_WAR
    assert state.war_status is WarStatus.GLOBAL and state.global_war_turn == 1947
    provoked: list[str] = []
    while game.pending is not None:
        if game.pending["prompt"].startswith("force pool"):
            choose(game, "germany", options(game)[0])
        elif "place the flag" in game.pending["prompt"]:
            provoked.append(game.pending["power"])
            choose(game, game.pending["power"], "cup")
        else:
            choose(game, game.pending["power"], options(game)[0])
    limit = MODULE.powers["germany"].status_card[Commitment.TOTAL_WAR].force_pool
    assert sum(counters_in_play(game, "germany").values()) + sum(germany.force_pool.values()) == limit
    assert provoked == ["soviet-union"]  # France and the UK are enemies: no provocation
    assert germany.failed_actions == {} and germany.escalated_this_turn
    assert "escalation" not in political_options(game, "germany")


def test_the_global_war_marker_goes_no_earlier_than_1945_lr_6_4_1() -> None:
    """LR 6.4.1 (L1481): escalation to total war in 1939 puts the Global War marker on 1945-46."""
    game = bare_game()
    state = game.state
    state.powers["germany"].commitment = Commitment.MOBILIZATION
    state.wars = [(["france", "united-kingdom"], ["germany"])]
    state.war_status = WarStatus.LIMITED
    game.push("political-result", power="germany", action="escalation", target="", success=True, dice=[])
    game.run()
    assert state.war_status is WarStatus.GLOBAL and state.global_war_turn == 1945


def test_joining_an_alliance_takes_the_joiners_flag_and_check_alone_lr_6_1_1() -> None:
    """LR 6.1.1 (L1371-1375): a third power joins the existing alliance with its own flag and its own
    check; every member's card counts for provocation, each opposing power at most one flag."""
    game = bare_game("campaign-1933")
    state = game.state
    state.alliances = {"fascism": ["germany", "italy"]}
    _cup_flag(game, "japan")
    assert [o for o in options(game) if "alliance" in o] == ["join-alliance"]  # never a second one
    choose(game, "japan", "join-alliance")
    assert check(game, 5, "japan join the alliance") == 2  # Japan's effectiveness, nobody else's
    assert state.alliances["fascism"] == ["germany", "italy", "japan"]
    provoked = _answer_all(game)
    assert sorted(provoked) == ["france", "soviet-union", "united-kingdom", "united-states"]


def test_a_failed_join_places_only_the_joiners_cube_lr_6_1_1() -> None:
    """LR 6.1.1 (L1375) with LR 5.4: when a power fails to join, only its own cube is placed."""
    game = bare_game("campaign-1933")
    state = game.state
    state.alliances = {"fascism": ["germany", "italy"]}
    _cup_flag(game, "japan")
    choose(game, "japan", "join-alliance")
    check(game, 4)
    assert state.alliances["fascism"] == ["germany", "italy"]
    assert state.powers["japan"].failed_actions == {"alliance": 1}
    assert state.powers["germany"].failed_actions == {} and state.powers["italy"].failed_actions == {}


def test_declaration_of_war_targets_and_the_attacked_allys_choice_lr_6_2() -> None:
    """LR 6.2 (L1409-1425): a declaration needs mobilization or total war; several targets only when
    allied with each other; an ally of the target may join (and gains a provocation flag) even
    below mobilization, and the target gains a flag."""
    game = bare_game()
    state = game.state
    germany = state.powers["germany"]
    assert not any(o.startswith("declare-war") for o in political_options(game, "germany"))  # rearmament
    germany.commitment = Commitment.MOBILIZATION
    listed = [o for o in political_options(game, "germany") if o.startswith("declare-war")]
    assert "declare-war france+united-kingdom" in listed  # France and the UK are allies
    assert not any("+" in o and "soviet-union" in o for o in listed)  # not allied with anyone
    uk_flags = state.powers["united-kingdom"].available_flags
    _cup_flag(game, "germany")
    choose(game, "germany", "declare-war france")
    check(game, 5)
    # the UK, at rearmament, may still join: its ally was the target
    assert options(game) == ["join the war", "break the alliance"]
    choose(game, "united-kingdom", "join the war")
    choose(game, "united-kingdom", "cup")  # its provocation flag
    choose(game, "france", "cup")  # the target's flag
    assert at_war(state, "germany", "france") and at_war(state, "germany", "united-kingdom")
    assert state.powers["united-kingdom"].available_flags == uk_flags - 1
    assert state.war_status is WarStatus.LIMITED
    assert game.pending is not None and game.pending["prompt"].startswith("military action")


def test_relationships_between_powers_lr_1_1() -> None:
    """LR 1.1 (L131-137): opposing = different ideologies; belligerent = at war with someone;
    enemies = at war with each other; a counter or area is friendly to its controller and to its
    belligerent allies only."""
    from grandstrategy.cataclysm.rules.control import belligerent, friendly_area, friendly_powers

    game = bare_game()
    state = game.state
    state.alliances = {"democracy": ["france", "united-kingdom"]}
    state.wars = []
    assert not belligerent(state, "france")
    assert not friendly_powers(MODULE, state, "united-kingdom", "france")  # allies, but at peace
    assert not friendly_area(MODULE, state, "united-kingdom", "paris")
    assert friendly_area(MODULE, state, "france", "paris")
    state.wars = [(["france", "united-kingdom"], ["germany"])]
    assert belligerent(state, "france") and at_war(state, "france", "germany")
    assert not at_war(state, "france", "italy")  # opposing, not enemies
    assert friendly_powers(MODULE, state, "united-kingdom", "france")
    assert friendly_area(MODULE, state, "united-kingdom", "paris")
    assert not friendly_area(MODULE, state, "germany", "paris")


# ---- more of sections 1 to 4 ---------------------------------------------------------------------


def test_deals_cannot_move_resources_only_the_us_transfers_lr_1_5() -> None:
    """LR 1.5 (L168) with LR 4.4.1 (L969): no game action trades or lends resources, units or
    areas between powers; the US alone may send resources (Lend Lease), and only to belligerents."""
    game = bare_game()
    state = game.state
    state.markers.append("lend-lease-in-play")
    state.wars = [(["france", "united-kingdom"], ["germany"])]
    game.push("produce", power="united-kingdom")
    game.run()
    # the UK can only convert (or keep one resource for its reserve, LR 3.2.4)
    assert all(o.startswith(("offensives ", "leave ")) for o in options(game))
    game.stack.clear()
    game.pending = None
    game.then({"do": "produce", "power": "united-states"}, {"do": "produce", "power": "france"})
    game.run()
    assert game.pending is not None and game.pending["power"] == "united-states"
    lent = [o for o in options(game) if o != "done"]
    assert lent and all(o.endswith(" to france") for o in lent)  # France waits to produce; the UK did
    verbs = {o.split()[0] for p in state.powers for o in political_options(game, p)}
    known = {"propaganda", "escalation", "pressure", "maneuvers", "declare-war", "diplomacy", "alliance"}
    known |= {"join-alliance", "posture", "rhineland", "abyssinian-adventure", "end-us-japan-trade"}
    known |= {"lend-lease", "trans-siberian-railroad"}
    assert verbs <= known, verbs - known


def test_ports_and_airfields_lr_2_2_2() -> None:
    """LR 2.2.2 (L288-290) with LR 2.3.2 (L428-432): controlled coastal areas and seas with a naval
    base are ports; land areas and seas with an air or naval base are airfields."""
    from grandstrategy.cataclysm.rules.movement import friendly_airfields, friendly_port_areas

    game = bare_game()
    state = game.state
    uk_ports = friendly_port_areas(MODULE, state, "united-kingdom")
    uk_fields = friendly_airfields(MODULE, state, "united-kingdom")
    assert "london" in uk_ports and "central-mediterranean" in uk_ports  # coastal; Malta's naval base
    assert "jordan" not in uk_ports and "jordan" in uk_fields  # inland: an airfield, not a port
    assert "central-mediterranean" in uk_fields  # every naval base is an air base too
    italy_fields = friendly_airfields(MODULE, state, "italy")
    assert "aegean-sea" in italy_fields  # the Dodecanese air base
    assert "aegean-sea" not in friendly_port_areas(MODULE, state, "italy")  # but no naval base
    assert "north-sea" not in uk_ports and "north-sea" not in uk_fields  # a sea without a base


def test_a_neutral_cube_makes_an_uncontrolled_country_with_resistance_per_cube_lr_2_4_5() -> None:
    """LR 2.4.5 (L597): an area with neutral cubes is an uncontrolled country with resistance one
    per cube (the printed resistance aside)."""
    from grandstrategy.cataclysm.rules.control import is_country
    from grandstrategy.cataclysm.rules.politics import diplomacy_modifier

    game = bare_game()
    state = game.state
    state.cubes["paris"] = {"neutral": 2}
    assert controller(MODULE, state, "paris") is None and is_country(MODULE, state, "paris")
    assert diplomacy_modifier(MODULE, state, "germany", "paris") == -2
    state.cubes["brittany"] = {"neutral": 1}
    assert diplomacy_modifier(MODULE, state, "germany", "brittany") == -1


def test_the_draw_is_a_random_counter_weighted_by_the_cup_lr_2_9() -> None:
    """LR 2.9 (L663) and 3.3: one counter at a time, at random from the whole cup: each counter's
    chance is its share of the cup, and the drawn counter leaves it."""
    from fractions import Fraction

    game = bare_game()
    state = game.state
    for line in state.powers.values():
        line.reserve = None
    game.push("action-window")
    game.run()
    assert game.pending is not None and game.pending["type"] == "chance"
    chances = {name: Fraction(p) for name, p in game.pending["outcomes"]}
    total = len(state.cup)
    assert chances["crisis"] == Fraction(state.cup.count("crisis"), total)
    assert chances["flag:germany"] == Fraction(state.cup.count("flag:germany"), total)
    assert sum(chances.values()) == 1
    game.apply_chance("flag:germany")
    assert len(state.cup) == total - 1


def test_production_runs_in_increasing_effectiveness_order_lr_3_2_3() -> None:
    """LR 3.2.3 (L716) and 4.2 (L949): each power produces in increasing effectiveness order
    (ties: Democracies, then Communists, then Fascists, LR 3.1)."""
    from grandstrategy.cataclysm.rules.politics import effectiveness

    game = bare_game()
    state = game.state
    game.push("administration")
    game.run()
    order: list[str] = []
    while game.pending is not None and state.phase == "administration":
        if game.pending["type"] == "chance":
            game.apply_chance("6")
            continue
        power = game.pending["power"]
        if game.pending["prompt"].startswith("production: how many"):
            order.append(power)
        pick(game, power, options(game)[0])
    rank = {"democracy": 0, "communism": 1, "fascism": 2}
    expected = sorted(
        order,
        key=lambda p: (effectiveness(MODULE, state, p), rank[MODULE.powers[p].ideology.value]),
    )
    assert len(order) == len(state.powers)
    key = [(effectiveness(MODULE, state, p), rank[MODULE.powers[p].ideology.value]) for p in order]
    assert key == sorted(key) and [k for k, _ in key] == [effectiveness(MODULE, state, p) for p in expected]


def test_a_played_flag_or_offensive_returns_to_the_available_box_lr_3_7_1() -> None:
    """LR 3.7.1 (L775-779): a flag buys one political action, an offensive military actions, and
    each goes back to its power's available markers box."""
    game = bare_game()
    state = game.state
    germany = state.powers["germany"]
    flags, offensives = germany.available_flags, germany.available_offensives
    state.cup.remove("flag:germany")
    _flag_play(game, "germany")
    choose(game, "germany", "forfeit")  # the political action is over
    assert germany.available_flags == flags + 1
    state.cup.remove("offensive:germany")
    game.push("play-counter", counter="offensive:germany", source="cup")
    game.run()
    assert game.pending is not None and game.pending["prompt"] == "military action (1 left; LR 8.0)"
    choose(game, "germany", "forfeit")  # the military action is over
    assert germany.available_offensives == offensives + 1


def test_offensives_by_commitment_civilian_needs_two_lr_4_1() -> None:
    """LR 4.1 (L896, L906, L913): at civilian a drawn offensive plays only with the reserved one,
    the two giving one military action; at mobilization one offensive gives two."""
    game = bare_game("campaign-1933")
    state = game.state
    france = state.powers["france"]  # civilian
    france.available_offensives -= 2
    france.reserve = "offensive:france"
    state.cup.append("offensive:france")
    offensives = france.available_offensives
    _draw(game, "offensive:france")
    choose(game, "france", "play")
    assert france.reserve is None  # the reserved offensive is played with the drawn one
    assert game.pending is not None and game.pending["prompt"] == "military action (1 left; LR 8.0)"
    choose(game, "france", "forfeit")
    assert france.available_offensives == offensives + 2  # both back to the available box
    mobilized = bare_game()  # France is at mobilization in 1939
    mobilized.state.cup.remove("offensive:france")
    mobilized.push("play-counter", counter="offensive:france", source="cup")
    mobilized.run()
    assert mobilized.pending is not None
    assert mobilized.pending["prompt"] == "military action (2 left; LR 8.0)"


def test_unit_classes_and_upgrades_lr_2_4_2() -> None:
    """LR 2.4.2 (L554-566): four classes of unit; infantry armies, surface fleets and tactical air
    forces upgrade to tank armies, carrier fleets and strategic air forces on the same counter, so
    "army", "fleet" and "air force" name both sides."""
    classes: dict[str, set[str]] = {}
    for unit_type in MODULE.unit_types.values():
        classes.setdefault(unit_type.unit_class, set()).add(unit_type.id)
    assert classes == {
        "land": {"infantry-army", "tank-army", "fortress"},  # minor armies are not power units
        "naval": {"surface-fleet", "carrier-fleet", "submarine-pack"},
        "air": {"tactical-air", "strategic-air"},
        "logistics": {"logistics"},
    }
    upgrades = {t.id: t.upgrades_to for t in MODULE.unit_types.values() if t.upgrades_to}
    assert upgrades == {
        "infantry-army": "tank-army",
        "surface-fleet": "carrier-fleet",
        "tactical-air": "strategic-air",
    }
    for regular, upgraded in upgrades.items():
        assert MODULE.unit_types[regular].counter == MODULE.unit_types[upgraded].counter
        assert MODULE.unit_types[upgraded].upgraded and not MODULE.unit_types[regular].upgraded


def test_a_scenario_plays_on_its_own_maps_lr_2_1_and_1_3() -> None:
    """LR 2.1 (L244) and 1.3 (L160): the campaign uses both maps, the 1939 scenario only Europe:
    its pieces are all there and nothing off its map counts (a Pacific resource is not collected)."""
    from grandstrategy.cataclysm.rules.economy import collectable

    campaign, europe = bare_game("campaign-1933"), bare_game("europe-1939")
    assert sorted(campaign.state.maps) == ["europe", "pacific"] and europe.state.maps == ["europe"]
    pacific = {a.id for a in MODULE.areas.values() if a.map.value == "pacific"}
    assert not any(u.area in pacific for u in europe.state.units)
    assert not any(area in pacific for area in europe.state.cubes)
    assert "japan" not in europe.state.powers
    assert not any(c.area in pacific for c in collectable(MODULE, europe.state, "united-kingdom"))
    assert any(c.area in pacific for c in collectable(MODULE, campaign.state, "japan"))


def test_each_power_gains_one_flag_into_its_holding_box_lr_3_2_2() -> None:
    """LR 3.2.2 (L705): in the administration phase each power takes one flag from its available
    markers into its production holding box (Italy may take Il Duce, LR 12.1.2)."""
    game = bare_game()
    state = game.state
    state.phase = "administration"
    before = {p: line.available_flags for p, line in state.powers.items()}
    for power in ("france", "united-kingdom", "united-states", "germany", "soviet-union"):
        game.push("gain-admin-flags", power=power)
        game.run()
        assert game.pending is None
        line = state.powers[power]
        assert line.holding_box == [f"flag:{power}"] and line.available_flags == before[power] - 1
    game.push("gain-admin-flags", power="italy")
    game.run()
    assert options(game) == ["flag", "il-duce flag"]
    choose(game, "italy", "flag")
    assert state.powers["italy"].holding_box == ["flag:italy"]


def test_a_declaration_may_target_any_allied_group_of_a_three_power_alliance_lr_6_2() -> None:
    """LR 6.2 (L1409): one or more opposing powers may be targeted, several only when allied with
    each other; so two members of a three-power alliance may be targeted without the third (which
    then joins as an attacked power's ally, or breaks the alliance)."""
    game = bare_game()
    state = game.state
    state.powers["germany"].commitment = Commitment.MOBILIZATION
    state.alliances = {"democracy": ["france", "united-kingdom", "united-states"]}
    listed = {o for o in political_options(game, "germany") if o.startswith("declare-war")}
    assert {
        "declare-war france",
        "declare-war france+united-kingdom",
        "declare-war france+united-kingdom+united-states",
    } <= listed
    assert not any("soviet-union" in o and "+" in o for o in listed)


def test_a_stability_test_is_an_effectiveness_check_that_drops_one_level_lr_5_5_1() -> None:
    """LR 5.5.1 (L1175): a stability test is an effectiveness check: a pass changes nothing, a
    failure lowers stability one level, and a failure at Unstable is a collapse (LR 5.5.2)."""
    game = bare_game()
    state = game.state
    uk = state.powers["united-kingdom"]  # effectiveness 2
    game.push("stability-test", power="united-kingdom", reason="crisis", modifier=0)
    game.run()
    assert check(game, 5, "united-kingdom stability test (crisis)") == 2
    assert uk.stability is Stability.STEADY
    game.push("stability-test", power="united-kingdom", reason="crisis", modifier=0)
    game.run()
    check(game, 4)
    assert state.powers["united-kingdom"].stability is Stability.WAVERING
    game.push("stability-test", power="united-kingdom", reason="crisis", modifier=-1)
    game.run()
    check(game, 5)  # 5 - 1: failure
    assert game.state.powers["united-kingdom"].stability is Stability.UNSTABLE
    game.push("stability-test", power="united-kingdom", reason="crisis", modifier=0)
    game.run()
    check(game, 1)
    assert game.pending is not None and "threshold" in game.pending["label"]  # the collapse roll


def test_an_upgrade_needs_an_loc_to_the_unit_lr_3_7_3() -> None:
    """LR 3.7.3 (L791) with LR 4.3: the power must trace an LOC to the unit it upgrades; an army
    in a German-held Moscow, ringed by restricted land, cannot be reached."""
    game = bare_game()
    state = game.state
    for area in ("poland", "byelorussia", "smolensk", "moscow", "volga", "archangel", "leningrad"):
        state.cubes[area] = {"germany": 2 if area == "moscow" else 1}
    state.cubes["baltic-states"] = {"germany": 1}
    state.units = [
        Unit(1, "germany", "infantry-army", "moscow"),
        Unit(2, "germany", "infantry-army", "bavaria"),
    ]
    state.next_unit_id = 3
    game.push("play-counter", counter="upgrade:germany:army", source="cup")
    game.run()
    assert options(game) == ["bavaria #2"]


def test_a_belligerent_gains_a_war_offensive_per_industrial_resource_lr_4_7() -> None:
    """LR 4.7 (L1034-1036): a belligerent gains one offensive for each industrial resource it
    collected this turn (limited ones included), whatever it converted them to; a power at peace
    gains none."""
    for at_war_now in (True, False):
        game = bare_game()
        state = game.state
        if at_war_now:
            state.wars = [(["france", "united-kingdom"], ["germany"])]
        germany = state.powers["germany"]
        game.push("produce", power="germany")
        game.run()
        collected = state.log[-1]
        resources = int(collected.split("collects ")[1].split()[0])
        industrial = int(collected.split(", ")[1].split()[0])
        assert industrial >= 2  # Berlin and the Ruhr at least
        pick(game, "germany", f"offensives {resources}")  # every resource becomes an offensive
        assert game.pending is None
        expected = resources + (industrial if at_war_now else 0)
        assert germany.holding_box.count("offensive:germany") == expected


def test_no_pressure_on_a_power_with_no_flag_to_gain_lr_3_3() -> None:
    """LR 3.3 (L745) with LR 6.6 and 5.2.2: pressure whose success would change nothing (the
    designated power has no flag available, so the gain is forfeit) may not be attempted."""
    game = bare_game()
    state = game.state
    state.wars = [(["france", "united-kingdom"], ["germany"])]
    assert "pressure italy" in political_options(game, "germany")
    italy = state.powers["italy"]
    state.cup.extend(["flag:italy"] * italy.available_flags)
    italy.available_flags = 0
    assert "pressure italy" not in political_options(game, "germany")
    assert "pressure soviet-union" in political_options(game, "germany")


def test_escalation_offensives_skip_damaged_resources_and_limited_ones_kept_lr_6_4_2() -> None:
    """LR 6.4.2 (L1483-1487): one escalation offensive per industrial resource the power can trace
    to, even at peace; a damaged one does not count, and counting a limited one is optional."""
    game = bare_game()
    state = game.state
    germany = state.powers["germany"]
    germany.reserve = None
    state.damaged = ["berlin"]
    available = germany.available_offensives
    game.push("political-result", power="germany", action="escalation", target="", success=True, dice=[6])
    game.run()
    while game.pending is not None and not game.pending["prompt"].startswith("escalation offensives"):
        choose(game, game.pending["power"], options(game)[0])
    choose(game, "germany", "keep")  # the Ruhr limited resource stays on the map
    choose(game, "germany", "cup")
    assert "Ruhr" not in state.used_limited
    assert available - germany.available_offensives == 1  # the printed Ruhr resource only


def test_a_war_ends_by_capitulation_when_one_side_has_surrendered_lr_5_6_2() -> None:
    """LR 5.6.2 (L1290): a war ends when the only powers left in it are of one ideology: France,
    alone against Germany, surrenders and that war is over; Germany's war with the Soviet Union
    goes on."""
    game = bare_game()
    state = game.state
    state.alliances = {}
    state.wars = [(["france"], ["germany"]), (["germany", "italy"], ["soviet-union"])]
    state.cubes["paris"] = {"germany": 2}
    game.push("collapse", power="france")
    game.run()
    roll(game, 1)  # France surrenders
    while game.pending is not None and state.result is None:
        if game.pending["type"] == "chance":
            game.apply_chance("1")
        else:
            pick(game, game.pending["power"], options(game)[0])
    assert not state.powers["france"].active
    assert not any("france" in side_a + side_b for side_a, side_b in state.wars)
    assert not at_war(state, "germany", "france")
    assert state.wars == [(["germany", "italy"], ["soviet-union"])]  # the other war goes on


def test_construction_places_fleets_and_fortresses_on_next_turn_lr_4_6() -> None:
    """LR 4.6 (L1010-1030): resources kept for builds convert at the commitment's rate (France at
    mobilization: two builds each) and return to the available box; units come from the force
    pool, a surface fleet costs two builds and, like a fortress, goes to next turn's box; other
    units go to the holding box; unspent builds are lost."""
    game = bare_game()
    state = game.state
    france = state.powers["france"]
    state.markers.remove("dreadnought-refit-france")  # its one-build fleet is LR 12.2.1's matter
    available = france.available_offensives
    game.push("produce", power="france")
    game.run()
    resources = int(state.log[-1].split("collects ")[1].split()[0])
    assert resources >= 2
    choose(game, "france", "offensives 0")
    assert france.available_offensives == available  # the resource markers are back
    assert game.pending is not None and f"{2 * resources} build(s)" in game.pending["prompt"]
    assert "build carrier-fleet" not in options(game)  # never built on the upgraded side
    choose(game, "france", "build surface-fleet")
    assert f"{2 * resources - 2} build(s)" in game.pending["prompt"]
    choose(game, "france", "build fortress")
    assert "1 build(s)" in game.pending["prompt"]
    choose(game, "france", "done")  # the build left is lost
    assert sorted(state.turn_track[state.turn + 2]) == ["unit:france:fortress", "unit:france:surface-fleet"]
    assert france.holding_box == []  # an army would go here (LR 4.9's example)
    assert france.force_pool.get("fleet", 0) == 0 and france.force_pool.get("fortress", 0) == 0
    assert game.pending is None


def test_no_maneuvers_when_no_military_action_could_follow_lr_3_3() -> None:
    """LR 3.3 (L745) with LR 6.5: maneuvers whose one military action could only be forfeit would
    change nothing, so it is not offered; once the power has a unit to move it is."""
    game = bare_game()
    state = game.state
    # in 1939 the US holds one army in Washington DC, with nowhere to deploy it
    assert [u.area for u in state.units if u.power == "united-states"] == ["washington-dc"]
    assert "maneuvers" not in political_options(game, "united-states")
    assert "maneuvers" in political_options(game, "germany")
    state.units.append(Unit(state.next_unit_id, "united-states", "infantry-army", "london"))
    state.next_unit_id += 1
    state.wars = [(["united-kingdom", "united-states"], ["germany"])]
    state.alliances = {"democracy": ["united-kingdom", "united-states"]}
    assert "maneuvers" in political_options(game, "united-states")


def test_a_special_british_base_is_removed_when_anyone_gains_its_country_lr_2_3_3() -> None:
    """LR 2.3.3 (L440-444): a special British base goes when any power gains control of its
    country, the UK's own ally included; British units that may no longer stay there retreat or,
    outside a combat, go to the action cup as the UK chooses."""
    game = bare_game()
    state = game.state
    state.cup.append("flag:france")
    state.powers["france"].available_flags -= 1
    state.units.append(Unit(state.next_unit_id, "united-kingdom", "surface-fleet", "spain"))
    fleet = state.next_unit_id
    state.next_unit_id += 1
    state.powers["united-kingdom"].force_pool["fleet"] -= 1
    _cup_flag(game, "france")
    choose(game, "france", "diplomacy spain")
    check(game, 6)  # 6 - 1 resistance = 5
    assert controller(MODULE, state, "spain") == "france"
    assert "spain" not in state.special_bases
    while game.pending is not None and "place the flag" in game.pending["prompt"]:
        choose(game, game.pending["power"], "cup")
    assert game.pending is not None and game.pending["power"] == "united-kingdom"
    assert "cup" in " ".join(options(game))  # not in a combat: the cup is a choice
    choose(game, "united-kingdom", next(o for o in options(game) if "cup" in o))
    assert fleet not in {u.id for u in state.units}


def test_british_units_at_a_special_base_defend_only_against_an_enemy_lr_2_3_3() -> None:
    """LR 2.3.3 (L446): when the country of a special British base is attacked, British units
    there are ignored unless the UK is at war with the attacker."""
    from grandstrategy.cataclysm.engine.operations import side_of

    game = bare_game()
    state = game.state
    fleet = Unit(state.next_unit_id, "united-kingdom", "surface-fleet", "spain")
    state.units.append(fleet)
    op = {"power": "italy", "target": "spain", "attackers": [], "support": {"attacker": [], "defender": []}}
    assert side_of(game, op, fleet) is None
    state.wars = [(["united-kingdom"], ["italy"])]
    assert side_of(game, op, fleet) == "defender"
