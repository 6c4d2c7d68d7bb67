"""Forming and joining alliances (LR 6.1, 6.1.1, 6.1.3, 12.2.2 Lend Lease).

A power proposes an alliance to powers of its ideology that hold a flag in reserve; each partner
agrees (spending that flag) or refuses, which ends the attempt (see docs/decisions.md). One check
uses the lowest effectiveness among them. A belligerent bringing others in draws them into its
wars, so every power must then be able to declare war (mobilization or more, LR 6.2).
"""

from __future__ import annotations

from itertools import combinations

from grandstrategy.cataclysm.engine.common import (
    effectiveness_check,
    flag_step,
    parse_counter,
)
from grandstrategy.cataclysm.engine.game import CataclysmGame
from grandstrategy.cataclysm.engine.machine import Step, step
from grandstrategy.cataclysm.engine.posture import posture_penalty
from grandstrategy.cataclysm.engine.wars import after_war_change
from grandstrategy.cataclysm.module.schema import Commitment
from grandstrategy.cataclysm.rules.control import allied, at_war
from grandstrategy.cataclysm.rules.politics import check_dice, provoked, record_result
from grandstrategy.cataclysm.rules.special import LEND_LEASE_IN_PLAY
from grandstrategy.cataclysm.rules.war import enemy_pairs, group_wars


def _may_ally(game: CataclysmGame, power: str) -> bool:
    line = game.state.powers[power]
    if not line.active:
        return False
    return power != "united-states" or LEND_LEASE_IN_PLAY in game.state.markers  # LR 12.2.2


def _war_ready(game: CataclysmGame, powers: list[str]) -> bool:
    """A belligerent's new allies join its wars, so each must be able to go to war (LR 6.1.3, 6.2).

    Every power of the new alliance not yet at war with an enemy of another must meet the
    requirements of a declaration of war on it: mobilization or total war, and no war on Japan
    for the US and its allies under US-Japan Trade (LR 6.1.3, 12.2.2).
    """
    state = game.state
    enemies = sorted(
        {e for p in powers for e, line in state.powers.items() if line.active and at_war(state, p, e)}
    )
    ready = (Commitment.MOBILIZATION, Commitment.TOTAL_WAR)
    us_side = "united-states" in powers or any(allied(game.module, state, p, "united-states") for p in powers)
    for power in powers:
        for enemy in enemies:
            if enemy in powers or at_war(state, power, enemy):
                continue
            if state.powers[power].commitment not in ready:
                return False
            if enemy == "japan" and us_side and "us-japan-trade" in state.markers:
                return False
    return True


def alliance_options(game: CataclysmGame, power: str) -> list[str]:
    """``alliance <partner>[+<partner>]`` to form one, or ``join-alliance`` to join the existing one."""
    state = game.state
    ideology = game.module.powers[power].ideology.value
    members = state.alliances.get(ideology, [])
    if not _may_ally(game, power) or power in members:
        return []
    if len(members) >= 2:
        return ["join-alliance"] if _war_ready(game, [power, *members]) else []
    partners = [
        p
        for p, line in state.powers.items()
        if p != power
        and game.module.powers[p].ideology.value == ideology
        and _may_ally(game, p)
        and line.reserve is not None
        and parse_counter(line.reserve)[0] == "flag"
    ]
    options = []
    for size in (1, 2):
        for group in combinations(sorted(partners), size):
            if _war_ready(game, [power, *group]):
                options.append("alliance " + "+".join(group))
    return options


@step("alliance-consent")
def _consent(game: CataclysmGame, current: Step) -> None:
    waiting = current["waiting"]
    if not waiting:
        game.push(
            "alliance-check",
            power=current["power"],
            partners=current["partners"],
            extra_dice=current.get("extra_dice", 0),
        )
        return
    partner = waiting[0]
    game.ask(
        partner,
        f"{current['power']} proposes an alliance: spend your reserved flag to join? (LR 6.1)",
        ["agree", "refuse"],
        "alliance-consent-answer",
        **{k: v for k, v in current.items() if k != "do"},
    )


@step("alliance-consent-answer")
def _consent_answer(game: CataclysmGame, current: Step) -> None:
    partner = current["waiting"][0]
    if current["choice"] == "refuse":
        game.note(f"{partner} refuses the alliance; {current['power']}'s flag is spent")
        return
    game.push(
        "alliance-consent",
        power=current["power"],
        partners=current["partners"],
        waiting=current["waiting"][1:],
        extra_dice=current.get("extra_dice", 0),
    )


@step("alliance-check")
def _alliance_check(game: CataclysmGame, current: Step) -> None:
    power, partners = current["power"], current["partners"]
    state = game.state
    il_duce = {power: current.get("extra_dice", 0)}  # an Il Duce flag adds one (LR 6.1 design note)
    played: list[Step] = []
    for partner in partners:  # the partners' reserved flags are played with the attempt
        line = state.line_to_change(partner)
        assert line.reserve is not None
        _, _, detail = parse_counter(line.reserve)
        il_duce[partner] = 1 if detail == "il-duce" and "il-duce" in state.markers else 0  # LR 12.1.2
        played.append({"do": "return-counter", "counter": line.reserve})  # once resolved (LR 3.7.1)
        line.reserve = None
    game.then(*played)
    everyone = [power, *partners]
    dice = {p: check_dice(game.module, state, p, extra_dice=il_duce[p]) for p in everyone}
    # the least effective power: fewest dice, then a reduction at effectiveness 1 (-1, LR 5.3)
    weakest = min(everyone, key=lambda p: dice[p])
    bonus = min(state.powers[p].failed_actions.get("alliance", 0) for p in everyone)
    bonus += posture_penalty(game, weakest, "alliance")
    effectiveness_check(
        game,
        weakest,
        f"alliance of {' and '.join(everyone)}",
        "alliance-result",
        modifier=bonus,
        extra_dice=il_duce[weakest],
        members=everyone,
        joining=False,
    )


@step("alliance-result")
def _alliance_result(game: CataclysmGame, current: Step) -> None:
    state, module = game.state, game.module
    members, joining = current["members"], current["joining"]
    deciders = members[-1:] if joining else members
    for power in deciders:  # a joiner's cubes are its own (LR 6.1.1); partners share theirs (LR 5.4)
        record_result(state, power, "alliance", success=current["success"], partners=deciders)
    if not current["success"]:
        return
    ideology = module.powers[members[0]].ideology.value
    alliance = sorted(set(state.alliances.get(ideology, [])) | set(members))
    state.alliances[ideology] = alliance
    game.note(f"alliance: {', '.join(alliance)}")
    after_war_change(game)  # the Stresa Front ends with some alliances (LR 12.1)
    # new allies join each other's wars (LR 6.1.3)
    pairs = enemy_pairs(state)
    for power in alliance:
        for enemy in {b if a in alliance else a for a, b in pairs if a in alliance or b in alliance}:
            if module.powers[enemy].ideology is not module.powers[power].ideology:
                pairs.append((power, enemy))
    state.wars = group_wars(module, pairs)
    after_war_change(game)
    game.then(
        *(
            flag_step(target, "provoked by an alliance")
            for target in provoked(module, state, alliance, kind="alliance")
        )
    )


def join(game: CataclysmGame, power: str, *, extra_dice: int = 0) -> None:
    """Attempt to join the ideology's alliance: the joiner alone checks (LR 6.1.1)."""
    ideology = game.module.powers[power].ideology.value
    members = [*game.state.alliances.get(ideology, []), power]
    bonus = game.state.powers[power].failed_actions.get("alliance", 0) + posture_penalty(
        game, power, "alliance"
    )
    effectiveness_check(
        game,
        power,
        "join the alliance",
        "alliance-result",
        modifier=bonus,
        extra_dice=extra_dice,
        members=members,
        joining=True,
    )
