"""Political arithmetic over a state: effectiveness, failed-action cubes, provocation, collapse.

Effectiveness LR 5.3; failed political actions LR 5.4; provocation LR 5.2.3; surrender threshold
LR 5.5.2; escalation limits LR 6.4 and 12.2 (Status Quo); diplomacy modifiers LR 6.3, 2.3.7.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from grandstrategy.cataclysm.module import Module
from grandstrategy.cataclysm.module.schema import AreaStatus, Commitment, Ideology, Stability, WarStatus
from grandstrategy.cataclysm.rules.aid import diplomacy_modifier as influence_modifier
from grandstrategy.cataclysm.rules.control import at_war, belligerent, controller, ideology, victory_points
from grandstrategy.cataclysm.rules.special import a_bomb_losses
from grandstrategy.cataclysm.state import CataclysmState

ACTION_BOXES = ("alliance", "declare-war", "escalation", "maneuvers", "pressure", "propaganda", "special")
"""Failed political action boxes, named as the actions are: one per type but diplomacy (LR 5.4)."""

STABILITY_TRACK = (Stability.STEADY, Stability.WAVERING, Stability.UNSTABLE)


def effectiveness(module: Module, state: CataclysmState, power: str) -> int:
    """Current effectiveness (LR 5.3): the status card at its commitment, less a temporary reduction."""
    line = state.powers[power]
    base = module.powers[power].status_card[line.commitment].effectiveness
    return max(1, base - 1) if line.effectiveness_reduced else base


def check_dice(module: Module, state: CataclysmState, power: str, *, extra_dice: int = 0) -> tuple[int, int]:
    """Dice and modifier of the power's effectiveness check (LR 5.3, 2.8).

    A reduction at effectiveness 1 cannot remove the last die, so it becomes -1 on the result.
    ``extra_dice`` is for Il Duce (+1, LR 12.1) and Za Rodinu (+1 on stability, LR 12.3).
    """
    line = state.powers[power]
    base = module.powers[power].status_card[line.commitment].effectiveness
    if line.effectiveness_reduced and base == 1:
        return 1 + extra_dice, -1
    return effectiveness(module, state, power) + extra_dice, 0


def failed_action_bonus(state: CataclysmState, power: str, action: str, *, special: str | None = None) -> int:
    """+1 per own cube in the box of the action now attempted (LR 5.4).

    Cubes in the special box count only for the special action ``special`` that placed them
    (LR 5.4 L1161, the reminder marker); cubes from a save that did not name it count for any.
    """
    line = state.powers[power]
    if action == "special" and line.failed_special not in (None, special):
        return 0
    return line.failed_actions.get(action, 0)


def record_result(
    state: CataclysmState,
    power: str,
    action: str,
    *,
    success: bool,
    place_cube: bool = True,
    special: str | None = None,
    partners: Sequence[str] = (),
) -> None:
    """Update failed-action cubes after a political action (LR 5.4).

    Success clears every box; a failure clears the other boxes and, except for diplomacy, may add
    a cube to this action's box. Each special action (``special``) is its own type. A power that
    attempts anything but an alliance also takes away the alliance cubes of the powers whose failed
    alliance attempt it shared (LR 5.4 L1159); ``partners`` names them on such a failure (none for
    a power joining an existing alliance, whose cubes are its own, LR 6.1.1).
    """
    line = state.line_to_change(power)  # copy on write (CataclysmState.clone)
    boxes = line.failed_actions
    if action != "alliance":
        for partner in line.alliance_partners:
            if partner in state.powers:
                state.line_to_change(partner).failed_actions.pop("alliance", None)
                _forget_alliance_cubes(state, partner)
    same_type = action != "special" or line.failed_special in (None, special)
    kept = 0
    if not success:
        kept = boxes.get(action, 0) if same_type else 0
        kept += 1 if place_cube and action in ACTION_BOXES else 0
    boxes.clear()
    if kept:
        boxes[action] = kept
    line.failed_special = special if kept and action == "special" else None
    if kept and action == "alliance":
        line.alliance_partners = sorted(set(line.alliance_partners) | (set(partners) - {power}))
    else:
        _forget_alliance_cubes(state, power)


def clear_failed_actions(state: CataclysmState, power: str) -> None:
    """Remove all the power's cubes from the failed political action boxes (LR 5.5.3 step 4)."""
    line = state.line_to_change(power)
    line.failed_actions.clear()
    line.failed_special = None
    _forget_alliance_cubes(state, power)


def _forget_alliance_cubes(state: CataclysmState, power: str) -> None:
    """The power has no alliance cubes left: it is nobody's partner in a failed attempt any more."""
    if state.powers[power].alliance_partners:
        state.line_to_change(power).alliance_partners = []
    for other in list(state.powers):
        if power in state.powers[other].alliance_partners:
            line = state.line_to_change(other)
            line.alliance_partners = [p for p in line.alliance_partners if p != power]


def provoked(module: Module, state: CataclysmState, actors: Iterable[str], *, kind: str) -> list[str]:
    """Powers that gain one provocation flag when ``actors`` form an alliance or one escalates (LR 5.2.3).

    Each opposing power listed on an actor's card for ``kind`` ("alliance" or "escalation") is
    provoked once, however many actors list it (LR L1363), and only while not already at war with
    an actor: provocation applies to opposing, non-enemy powers.
    """
    acting = list(actors)
    found: list[str] = []
    for actor in acting:
        listed = getattr(module.powers[actor].provocation, kind)
        for target in listed:
            if target in found or target not in state.powers or not state.powers[target].active:
                continue
            if ideology(module, target) is ideology(module, actor):
                continue
            if any(at_war(state, target, other) for other in acting):
                continue
            found.append(target)
    return found


def may_escalate(module: Module, state: CataclysmState, power: str) -> str | None:
    """Why the power may not attempt escalation now, or None when it may (LR 6.4, 12.2)."""
    line = state.powers[power]
    levels = list(Commitment)
    if line.escalated_this_turn:
        return "it has already escalated this turn"
    if line.commitment in (Commitment.TOTAL_WAR, Commitment.EXHAUSTION):
        return "no voluntary escalation goes beyond total war"
    following = levels[levels.index(line.commitment) + 1]
    if following is Commitment.TOTAL_WAR and not (
        belligerent(state, power) or state.war_status is WarStatus.GLOBAL
    ):
        return "total war needs a belligerent power or Global War"
    democracy = ideology(module, power) is Ideology.DEMOCRACY
    if following is Commitment.MOBILIZATION and democracy and "status-quo" in state.markers:
        return "Status Quo keeps the Democracies from mobilizing"
    return None


def surrender_threshold(module: Module, state: CataclysmState, power: str) -> int:
    """The number a collapsing power must roll above to avoid surrender (LR 5.5.2).

    +1 per neutral, opposing or enemy cube in its home areas and resource colonies, +1 at zero or
    fewer victory points, +1 at Exhaustion, +1 per loss when an A-Bomb attack caused the collapse.
    """
    own = ideology(module, power)
    threshold = 0
    for area_id, cubes in state.cubes.items():
        area = module.area(area_id)
        if area.owner != power:
            continue
        if area.status is AreaStatus.COLONY and not area.resources:
            continue
        for holder, count in cubes.items():
            hostile = (
                holder == "neutral" or ideology(module, holder) is not own or at_war(state, power, holder)
            )
            if holder != power and hostile:
                threshold += count
    if victory_points(module, state, power) <= 0:
        threshold += 1
    if state.powers[power].commitment is Commitment.EXHAUSTION:
        threshold += 1
    return threshold + a_bomb_losses(state, power)  # +1 per loss of the A-Bomb attack (LR 12.2.2)


def surrenders(roll: int, threshold: int) -> bool:
    """A collapse roll at or below the threshold means surrender (LR 5.5.2)."""
    return roll <= threshold


def lower_stability(state: CataclysmState, power: str) -> bool:
    """Move the power one step toward Collapse; return True when it collapses (LR 5.5.1, 5.5.2)."""
    line = state.powers[power]
    index = STABILITY_TRACK.index(line.stability)
    if index + 1 == len(STABILITY_TRACK):
        return True
    state.line_to_change(power).stability = STABILITY_TRACK[index + 1]
    return False


def diplomacy_modifier(module: Module, state: CataclysmState, power: str, area_id: str) -> int:
    """The modifier to a diplomacy check against a country (LR 6.3, 2.3.7), before posture.

    Minus the country's resistance (one per neutral cube where there are any), -1 if an enemy
    controls it; +1 with the power's Influence, -1 against a Chinese army (LR 11).
    """
    area = module.area(area_id)
    neutral = state.cubes.get(area_id, {}).get("neutral", 0)
    modifier = -(neutral if neutral else area.resistance)
    holder = controller(module, state, area_id)
    if holder is not None and at_war(state, power, holder):
        modifier -= 1
    return modifier + influence_modifier(state, power, area_id)  # LR 11.3, 11.4.3
