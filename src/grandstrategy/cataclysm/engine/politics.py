"""Political actions played with a flag (LR 6): propaganda, escalation, pressure, maneuvers, diplomacy.

Alliance, declaration of war and the power-specific actions come later (docs/rules-coverage.md).
"""

from __future__ import annotations

from itertools import combinations

from grandstrategy.cataclysm.engine import alliance, special
from grandstrategy.cataclysm.engine.atomic import start_timer
from grandstrategy.cataclysm.engine.common import (
    counters_in_play,
    effectiveness_check,
    flag_step,
    gain_flag,
    garrisoned,
    home_front_modifier,
)
from grandstrategy.cataclysm.engine.control import change_control, check_status_quo
from grandstrategy.cataclysm.engine.game import CataclysmGame
from grandstrategy.cataclysm.engine.machine import Step, step
from grandstrategy.cataclysm.engine.military import any_military_action
from grandstrategy.cataclysm.engine.operations import operation_options
from grandstrategy.cataclysm.engine.posture import change_posture, posture_options, posture_penalty
from grandstrategy.cataclysm.engine.targets import could_meet
from grandstrategy.cataclysm.engine.war_start import make_war, may_declare_war, start_war
from grandstrategy.cataclysm.module.schema import (
    AreaType,
    Commitment,
    Stability,
    WarStatus,
)
from grandstrategy.cataclysm.rules.control import at_war, belligerent, controller, interests, is_country
from grandstrategy.cataclysm.rules.economy import collectable
from grandstrategy.cataclysm.rules.frozen import frozen
from grandstrategy.cataclysm.rules.politics import (
    STABILITY_TRACK,
    diplomacy_modifier,
    failed_action_bonus,
    may_escalate,
    provoked,
    record_result,
)
from grandstrategy.cataclysm.rules.special import STATUS_QUO_MOBILIZERS
from grandstrategy.cataclysm.rules.special_control import stresa_barred
from grandstrategy.cataclysm.rules.war import global_war_last_turn


def political_options(game: CataclysmGame, power: str) -> list[str]:
    """The political actions the power may attempt now, each one that could change the game (LR 3.3, 6)."""
    with frozen(game.state):
        return _political_options(game, power)


def _political_options(game: CataclysmGame, power: str) -> list[str]:
    state, module = game.state, game.module
    line = state.powers[power]
    options: list[str] = []
    if line.stability is not Stability.STEADY:
        options.append("propaganda")
    if may_escalate(module, state, power) is None:
        options.append("escalation")
    for other, other_line in state.powers.items():
        if other == power or not other_line.active or at_war(state, power, other):
            continue
        if other_line.available_flags == 0:
            continue  # its flag would be forfeit: no change to the game (LR 3.3, 5.2.2)
        if belligerent(state, power) or belligerent(state, other):
            options.append(f"pressure {other}")
    if _military_action_possible(game, power):
        options.append("maneuvers")  # only when it could lead to a military action (LR 3.3, 6.5)
    options += war_declarations(game, power)
    options += special.special_options(game, power)
    options += posture_options(game, power)
    options += alliance.alliance_options(game, power)
    for area_id in sorted(interests(module, state, power)):
        area = module.area(area_id)
        if area.type is AreaType.SEA or area.remote or not is_country(module, state, area_id):
            continue
        if controller(module, state, area_id) == power or garrisoned(game, area_id):
            continue
        if area_id in state.civil_wars:
            continue  # no diplomacy against a country in civil war (LR 11.0)
        if stresa_barred(module, state, power, area_id):
            continue  # the Stresa Front (LR 12.1)
        options.append(f"diplomacy {area_id}")
    return options


def _military_action_possible(game: CataclysmGame, power: str) -> bool:
    """Whether one military action could do anything now (maneuvers, LR 6.5 with LR 3.3)."""
    return any_military_action(game, power)


def war_declarations(game: CataclysmGame, power: str) -> list[str]:
    """``declare-war X`` (or ``X+Y`` for allies) for each declaration an operation could follow (LR 6.2)."""
    state, module = game.state, game.module
    if may_declare_war(game, power) is not None:
        return []
    groups: list[list[str]] = []
    for other, line in state.powers.items():
        if not line.active or module.powers[other].ideology is module.powers[power].ideology:
            continue
        if at_war(state, power, other) or may_declare_war(game, power, other) is not None:
            continue
        groups.append([other])
    for members in state.alliances.values():  # any two or more powers allied with each other
        targets = sorted(m for m in members if [m] in groups)
        for size in range(2, len(targets) + 1):
            groups += [list(c) for c in combinations(targets, size)]
    options = []
    for targets in groups:
        if not could_meet(game, power, targets):
            continue  # no operation could follow, at war or not: no need to try it
        trial = game.clone()
        trial.state.log = []
        make_war(trial, [(power, t) for t in targets])
        if operation_options(trial, power, 1, deployed=[], against=targets, first=True):
            options.append(f"declare-war {'+'.join(targets)}")
    return options


def choose_action(game: CataclysmGame, power: str, *, extra_dice: int = 0) -> None:
    """Ask the power which political action its flag buys (``extra_dice``: the Il Duce flag)."""
    game.ask(
        power,
        "political action (LR 6)",
        [*political_options(game, power), "forfeit"],
        "political-action",
        power=power,
        extra_dice=extra_dice,
    )


@step("political-action")
def _political_action(game: CataclysmGame, current: Step) -> None:
    power, choice = current["power"], current["choice"]
    verb, _, target = choice.partition(" ")
    state = game.state
    if verb == "forfeit":
        game.note(f"{power} forfeits its flag")
        return
    if verb == "posture":  # no check needed (LR 6.8, 12.3): a success, clearing every box (LR 5.4)
        record_result(state, power, "special", success=True)
        change_posture(game, power, target)
        return
    if verb == "alliance":
        partners = target.split("+")
        game.push(
            "alliance-consent",
            power=power,
            partners=partners,
            waiting=partners,
            extra_dice=current.get("extra_dice", 0),
        )
        return
    if verb == "join-alliance":
        alliance.join(game, power, extra_dice=current.get("extra_dice", 0))
        return
    if verb == "escalation" and belligerent(state, power):
        game.note(f"{power} escalates: automatic while belligerent (LR 6.4)")
        game.push("political-result", power=power, action="escalation", target="", success=True, dice=[])
        return
    box, which = ("special", verb) if verb in special.SPECIAL_ACTIONS else (verb, None)
    modifier = failed_action_bonus(state, power, box, special=which) + posture_penalty(game, power, verb)
    if verb == "propaganda":
        modifier += home_front_modifier(game, power)
    if verb == "diplomacy":
        modifier += diplomacy_modifier(game.module, state, power, target)
    extra = current.get("extra_dice", 0)
    extra += 1 if verb == "propaganda" and power == "soviet-union" else 0  # Za Rodinu! (LR 12.3.1)
    effectiveness_check(
        game,
        power,
        choice,
        "political-result",
        modifier=modifier,
        extra_dice=extra,
        power=power,
        action=verb,
        target=target,
    )


@step("political-result")
def _political_result(game: CataclysmGame, current: Step) -> None:
    power, action, target, success = (
        current["power"],
        current["action"],
        current["target"],
        current["success"],
    )
    box, which = ("special", action) if action in special.SPECIAL_ACTIONS else (action, None)
    record_result(game.state, power, box, success=success, place_cube=action != "diplomacy", special=which)
    if not success:
        return
    state = game.state
    if action == "propaganda":
        line = state.line_to_change(power)
        line.stability = STABILITY_TRACK[max(0, STABILITY_TRACK.index(line.stability) - 1)]
        game.note(f"{power} stability rises to {line.stability.value}")
    elif action == "pressure":
        gain_flag(game, target, f"pressure by {power}")
    elif action == "maneuvers":
        game.push("military-action", power=power, left=1, deployed=[], only=None)
    elif action == "declare-war":
        targets = target.split("+")
        game.push(  # LR 6.2: then one operation; the snapshot undoes the declaration if none is possible
            "military-action", power=power, left=1, deployed=[], only=targets, undo=game.state.to_json()
        )
        game.then(*(flag_step(t, f"war declared by {power}") for t in targets))
        start_war(game, [power], targets, reason="declaration of war")
    elif action == "diplomacy":
        change_control(game, target, power)
    elif action == "escalation":
        escalate(game, power)
    elif action in special.SPECIAL_ACTIONS:
        special.resolve(game, power, action)


def escalate(game: CataclysmGame, power: str) -> None:
    """Move commitment one column right and apply its effects (LR 6.4.1, 6.4.2, 12.2)."""
    state, module = game.state, game.module
    line = state.line_to_change(power)
    levels = list(Commitment)
    line.commitment = levels[levels.index(line.commitment) + 1]
    line.escalated_this_turn = True
    game.note(f"{power} escalates to {line.commitment.value}")
    steps: list[Step] = [{"do": "top-up-force-pool", "power": power}]
    for target in provoked(module, state, [power], kind="escalation"):
        steps.append({"do": "gain-flag", "power": target, "reason": f"provoked by {power}'s escalation"})
    if line.commitment in (Commitment.MOBILIZATION, Commitment.TOTAL_WAR):
        # no resource of a damaged area counts, a limited one included (LR 6.4.2)
        industrial = [
            c for c in collectable(module, state, power) if c.industrial and c.area not in state.damaged
        ]
        printed = sum(1 for c in industrial if c.limited_marker is None)
        limited = [c.limited_marker for c in industrial if c.limited_marker is not None]
        steps.append({"do": "escalation-limited", "power": power, "count": printed, "markers": limited})
    if line.commitment is Commitment.TOTAL_WAR and power == "united-states":
        start_timer(game)  # LR 12.2.2
    if line.commitment is Commitment.TOTAL_WAR and state.war_status is not WarStatus.GLOBAL:
        state.war_status = WarStatus.GLOBAL
        state.global_war_turn = global_war_last_turn(state.turn)
        game.note(f"Global War: the game ends after {state.global_war_turn}")
    game.then(*steps)
    if line.commitment is Commitment.MOBILIZATION and power in STATUS_QUO_MOBILIZERS:
        # LR 12.2: Status Quo goes the moment the commitment marker moves, and each Democracy's
        # flag comes at once, before the rest of the escalation's effects
        check_status_quo(game, force_reason=f"{power} mobilizes")


@step("escalation-limited")
def _escalation_limited(game: CataclysmGame, current: Step) -> None:
    """Counting a limited industrial resource is optional, and uses it up (LR 6.4.2, L1487)."""
    power, markers = current["power"], current["markers"]
    if not markers:
        game.push("escalation-offensives", power=power, left=current["count"])
        return
    game.ask(
        power,
        f"escalation offensives: count the {markers[0]} limited resource (it leaves play)? (LR 6.4.2)",
        ["count", "keep"],
        "escalation-limited-answer",
        **{k: v for k, v in current.items() if k != "do"},
    )


@step("escalation-limited-answer")
def _escalation_limited_answer(game: CataclysmGame, current: Step) -> None:
    count = current["count"]
    if current["choice"] == "count":
        game.state.used_limited.append(current["markers"][0])
        count += 1
    game.push("escalation-limited", power=current["power"], count=count, markers=current["markers"][1:])


@step("escalation-offensives")
def _escalation_offensives(game: CataclysmGame, current: Step) -> None:
    """One offensive per industrial resource the power can trace to, into the cup (LR 6.4.2)."""
    power, left = current["power"], current["left"]
    line = game.state.line_to_change(power)
    granted = min(left, line.available_offensives)
    line.available_offensives -= granted
    game.note(f"{power} gains {granted} escalation offensive(s)")
    if granted == 0:
        return
    game.state.cup.extend([f"offensive:{power}"] * (granted - 1))
    game.state.cup.sort()
    game.ask(
        power,
        "escalation offensives: one may go to reserve (LR 6.4.2)",
        ["cup", "reserve"],
        "place-counter",
        power=power,
        counter=f"offensive:{power}",
    )


@step("top-up-force-pool")
def _top_up(game: CataclysmGame, current: Step) -> None:
    """Add counters of the player's choice up to the new force-pool limit (LR 4.1.1)."""
    power = current["power"]
    state, module = game.state, game.module
    line = state.powers[power]
    limit = module.powers[power].status_card[line.commitment].force_pool
    in_play = counters_in_play(game, power)
    used = sum(in_play.values()) + sum(line.force_pool.values())
    if used >= limit:
        return
    mix = module.powers[power].counters
    treaty = "wnt" in state.markers and power in ("japan", "united-kingdom", "united-states")  # LR 12.1.3
    options = [
        f"add {key}"
        for key, total in mix.units.items()
        if total - in_play[key] - line.force_pool.get(key, 0) > 0 and not (treaty and key == "fleet")
    ]
    if module.powers[power].status_card[line.commitment].upgrades_allowed:
        options += [
            f"add upgrade:{key}"
            for key, total in mix.upgrade_markers.items()
            if total - in_play[f"upgrade:{key}"] - line.force_pool.get(f"upgrade:{key}", 0) > 0
        ]
    if not options:
        return
    game.ask(
        power,
        f"force pool: add a counter ({limit - used} more allowed; LR 4.1.1)",
        options,
        "top-up-answer",
        power=power,
    )


@step("top-up-answer")
def _top_up_answer(game: CataclysmGame, current: Step) -> None:
    key = current["choice"].removeprefix("add ")
    line = game.state.line_to_change(current["power"])
    line.force_pool[key] = line.force_pool.get(key, 0) + 1
    game.push("top-up-force-pool", power=current["power"])


@step("status-quo-ends")
def _status_quo_ends(game: CataclysmGame, current: Step) -> None:
    """End Status Quo (LR 12.2); no longer queued, kept so a game saved mid-escalation still loads."""
    check_status_quo(game, force_reason=current["reason"])
