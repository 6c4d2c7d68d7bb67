"""The chance of each option of the pending decision whose outcome hangs on dice, before the dice.

:func:`option_chances` answers, for the decision a Cataclysm game is waiting for, every option
whose result depends on a roll:

- **Checks.** A political action (LR 6), a diplomatic opportunity's ``attempt`` (LR 5.7), a
  coup's target (LR 5.7) and every other option that leads straight to an effectiveness check
  (LR 5.3): the option is applied to a copy of the game, the engine runs to the check and the
  dice and modifier it is about to roll give the exact chance (:func:`~.rules.dice.success_chance`).
  So every modifier the engine applies (failed-action cubes, postures, the home front, diplomacy,
  Il Duce's die, Za Rodinu's die...) is in the figure without being written twice. An alliance is
  shown as it would be if the partners agree to it (they are asked before the check, LR 6.1).
- **Operations.** A military-action menu entry (``land operation against Poland``), each unit
  of the activation decision, each augmentation and each offer of support: the operation as it
  would stand is described to the exact combat solver (:mod:`grandstrategy.cataclysm.odds`) with
  the engine's own pieces: the attackers and defenders it would bring together
  (:func:`~.engine.combat.combatants`), each side's dice modifiers
  (:func:`~.engine.combat.combat_side`, :func:`~.engine.combat.land_facts`: supply, extended
  range, surprise, purges, SNLF, civil-war aid, terrain, a strait, an invasion, a fortress), the
  units that could still support either side (:func:`~.engine.operations.support_candidates`),
  and a Democracy's check before attacking a neutral (LR 9.7). The result is the attacker's chance
  to win, to triumph (LR 10.12), of disaster, and each side's expected losses (LR 10.7, 10.8).

How an operation's figure is built (docs/play.md; decisions in docs/decisions.md):

- the menu entry assumes the power activates its own units only, in range before extended range,
  those in the area holding most of them first, upgraded units (tank armies, carrier fleets,
  strategic air forces) first within an area, as many as the actions left and the target's
  occupation limits allow (LR 9.1, 9.2 step 6), and no augmentation;
- the headline figure counts every unit that could still support either side as committed
  (LR 10.2), each side being free to commit them; ``no_defender_support`` is the figure if the
  defender commits none, so the player sees what the defender's possible support is worth;
- an invasion takes its shortest path (at extended range only when every path is two areas long,
  LR 9.3.2); the first primary defender the engine lists defends (LR 9.1.1);
- expected losses are the combat's losses (LR 10.7) capped at the steps each side has in it,
  before any voluntary retreat; the air-superiority combat's losses are not counted.

The module sits above the engine and the odds solver (neither imports it).
"""

from __future__ import annotations

import copy
import json
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from typing import Any

from grandstrategy.cataclysm.engine import combat as combat_engine
from grandstrategy.cataclysm.engine import operations
from grandstrategy.cataclysm.engine.civil_war import aid_would_be_spent
from grandstrategy.cataclysm.engine.common import set_area, unit_from_option
from grandstrategy.cataclysm.engine.game import CataclysmGame, Choose
from grandstrategy.cataclysm.engine.war_start import make_war
from grandstrategy.cataclysm.odds import SituationOdds, parse_situation, situation_odds
from grandstrategy.cataclysm.rules.combat import (
    AIR_UNITS,
    LAND_UNITS,
    NAVAL_UNITS,
    UPGRADED,
    Side,
    eligible_steps,
)
from grandstrategy.cataclysm.rules.dice import success_chance
from grandstrategy.cataclysm.rules.movement import invasion_paths
from grandstrategy.cataclysm.rules.politics import check_dice
from grandstrategy.cataclysm.state import Unit
from grandstrategy.core.canonical import JSONObject
from grandstrategy.core.errors import UserInputError

CHECK_RESULTS = frozenset({"political-result", "alliance-result", "opportunity-result", "coup-result"})
"""Steps that receive the result of a check an option asks for (LR 5.3, 5.7, 6, 6.1)."""

CHECK_DECISIONS = frozenset(
    {"political-action", "opportunity-answer", "coup-target", "alliance-consent-answer"}
)
"""Decisions (by the step that takes the answer) whose options may lead straight to a check: the
political action (LR 6), a diplomatic opportunity (LR 5.7), a coup's target (LR 5.7) and a
partner's consent to an alliance (LR 6.1)."""

_NO_DICE = ("forfeit", "posture ")
"""Options that never roll (LR 3.7, 6.8): not applied to a copy."""

_CLASS = {"land": LAND_UNITS, "naval": NAVAL_UNITS, "air": AIR_UNITS}
_SUPPORT_LIMIT = 24
"""Supporting units committed at most per side while building a figure (a guard, far above any
occupation limit, LR 7.1)."""


@dataclass(frozen=True)
class Chance:
    """The exact chance of one option, with a short text for the terminal.

    ``kind`` is ``check`` (``success``: the check succeeds) or ``combat`` (``success``: the
    attacker wins; ``triumph``: it wins with a triumph, ``disaster``: it suffers one, LR 10.12;
    ``loss``/``inflicted``: the attacker's and the defender's expected losses; ``no_defender_support``:
    the win chance if the defender commits no further support; ``check``: a check the attack needs
    first, LR 9.7, already folded into every other figure). ``condition`` says what the figure
    assumes (``if partners agree``).
    """

    kind: str
    success: Fraction
    text: str
    triumph: Fraction | None = None
    disaster: Fraction | None = None
    loss: Fraction | None = None
    inflicted: Fraction | None = None
    no_defender_support: Fraction | None = None
    check: Fraction | None = None
    condition: str | None = None

    def to_json(self) -> JSONObject:
        """Plain data: probabilities as floats, with the exact success chance as a fraction."""
        out: JSONObject = {"kind": self.kind, "success": float(self.success), "exact": str(self.success)}
        for name in ("triumph", "disaster", "loss", "inflicted", "no_defender_support", "check"):
            value = getattr(self, name)
            if value is not None:
                out[name] = float(value)
        if self.condition is not None:
            out["condition"] = self.condition
        out["text"] = self.text
        return out


def percent(p: Fraction) -> str:
    """A probability as a whole percentage that never rounds a possibility away (``<1%``, ``>99%``)."""
    if p <= 0:
        return "0%"
    if p >= 1:
        return "100%"
    value = round(float(p) * 100)
    if value < 1:
        return "<1%"
    if value > 99:
        return ">99%"
    return f"{value}%"


# ---- reading the engine's pending check -------------------------------------------------------------


@dataclass(frozen=True)
class PendingCheck:
    """An effectiveness check the engine is rolling: dice so far, dice left, modifier, who and why."""

    dice: tuple[int, ...]
    left: int
    modifier: int
    checker: str
    result_step: str


def pending_check(game: CataclysmGame) -> PendingCheck | None:
    """The effectiveness check whose die is about to be rolled, or None for any other chance node.

    Reads the step machine's pending roll: a ``roll-die-face`` step that feeds a ``check-result``
    (``engine.common.effectiveness_check``).
    """
    pending = game.pending
    if pending is None or pending.get("type") != "chance":
        return None
    then: Any = pending.get("then")
    if not isinstance(then, dict) or then.get("do") != "roll-die-face":
        return None
    after = then.get("then")
    if not isinstance(after, dict) or after.get("do") != "check-result":
        return None
    dice, left, modifier = then.get("dice"), then.get("left"), after.get("modifier")
    if not isinstance(dice, list) or not isinstance(left, int) or not isinstance(modifier, int):
        return None
    following = after.get("next")
    result_step = str(following.get("do")) if isinstance(following, dict) else ""
    return PendingCheck(tuple(int(d) for d in dice), left, modifier, str(after.get("checker")), result_step)


def check_chance(check: PendingCheck) -> Fraction:
    """The exact chance that a check with no die rolled yet succeeds (LR 5.3)."""
    return success_chance(check.left, check.modifier)


def _check_option(game: CataclysmGame, power: str, option: str) -> Chance | None:
    """Apply the option to a copy; if the engine then rolls a check for it, its exact chance."""
    if option.startswith(_NO_DICE):
        return None
    trial = game.clone()
    trial.apply(Choose(power, option))
    condition = None
    for _ in range(4):  # an alliance's partners consent first (LR 6.1)
        pending = trial.pending
        if pending is None or pending["type"] != "decide":
            break
        if pending["then"].get("do") != "alliance-consent-answer" or "agree" not in pending["options"]:
            return None
        trial.apply(Choose(pending["power"], "agree"))
        condition = "if partners agree"
    check = pending_check(trial)
    if check is None or check.dice or check.result_step not in CHECK_RESULTS:
        return None
    p = check_chance(check)
    text = f"success {percent(p)}" + (f" {condition}" if condition else "")
    return Chance(kind="check", success=p, text=text, condition=condition)


# ---- operations -------------------------------------------------------------------------------------


def _defenders(game: CataclysmGame, op: dict[str, Any]) -> list[Unit]:
    """Units in the target the attack would fight (a surprise attack's war already made)."""
    return [
        u
        for u in game.state.units
        if u.area == op["target"] and operations.side_of(game, op, u) == "defender"
    ]


def _prepare(game: CataclysmGame, op: dict[str, Any], stage: str) -> tuple[CataclysmGame, Fraction | None]:
    """A copy of the game with the operation carried to its support step, as the engine would.

    ``stage`` says how far the operation already is: ``activate`` (units still being chosen),
    ``augment`` (declared) or ``support`` (attackers in the target). Returns the copy and the
    chance of a Democracy's check still to pass (LR 9.7), if one is needed.
    """
    trial = game.clone()
    module, state = trial.module, trial.state
    check: Fraction | None = None
    if stage == "activate":  # LR 9.1.1 primary defender, LR 9.2 step 2 Democracy's check
        candidates = operations.primary_defender_candidates(trial, op)
        if op.get("only"):
            candidates = [c for c in candidates if c in op["only"]] or candidates
        op["defender"] = candidates[0]
        op["country"] = op["defender"] is None and op["kind"] == "land"
        if operations.democracy_check_needed(trial, op):
            check = success_chance(*check_dice(module, state, op["power"]))
    if stage in ("activate", "augment"):
        if op["surprise"] and op["defender"] is not None:  # LR 9.2 step 4, 9.8
            op["surprised"] = operations.surprise_works(trial, op["defender"])
            make_war(trial, [(op["power"], p) for p in operations.surprised_powers(trial, op)])
        attackers = [u for u in state.units if u.id in op["attackers"]]
        fighting = attackers + _defenders(trial, op)
        op["limited"] = [u.id for u in operations.limited_supply(trial, fighting)]  # LR 9.6
        if op["variant"] == "invasion" and not op["path"] and op["origins"]:
            paths = invasion_paths(module, state, op["power"], op["origins"][0], op["target"])
            if paths and min(len(p) for p in paths) == 2:  # LR 9.3.2
                op["extended_invasion"] = True
        for unit in attackers:
            set_area(trial, unit, op["target"])
    if op["kind"] == "land" and op.get("cw_aid") is None:
        op["cw_aid"] = aid_would_be_spent(trial, op["target"])  # LR 9.7.1
    return trial, check


def _commit_support(trial: CataclysmGame, op: dict[str, Any], side: str) -> None:
    """Commit every unit that may still support ``side``, one at a time as the engine checks them
    (LR 10.2; supply on commitment, LR 9.6)."""
    for _ in range(_SUPPORT_LIMIT):
        candidates = operations.support_candidates(trial, op, side)
        if not candidates:
            return
        unit = candidates[0]
        if operations.limited_supply(trial, [unit]):
            op["limited"].append(unit.id)
        set_area(trial, unit, op["target"])
        op["support"][side].append(unit.id)


def _situation(trial: CataclysmGame, op: dict[str, Any]) -> SituationOdds | None:
    """The exact odds of the combat between the units now in the target, or None if there is none."""
    kind = op["kind"]
    own = _CLASS[kind]
    data: dict[str, Any] = {"combat": kind, "strategic_bombing": op["variant"] == "strategic-bombing"}
    for role in ("attacker", "defender"):
        tokens = combat_engine.combatants(trial, op, role)
        main = combat_engine.combat_side(trial, op, role, kind, tokens)
        air = combat_engine.combat_side(trial, op, role, "air", tokens)
        data[role] = _side_data(main, air, own, kind)
    if kind == "land":
        facts = combat_engine.land_facts(trial, op)
        data.update(
            adverse_terrain=facts["adverse"],
            strait=facts["strait"],
            invasion=facts["invasion"],
            fortress=facts["fortress"],
        )
    return _solve(json.dumps(data, sort_keys=True))


@lru_cache(maxsize=2048)
def _solve(text: str) -> SituationOdds | None:
    """The exact odds of a situation given as canonical JSON (the same fights recur: solved once)."""
    try:
        return situation_odds(parse_situation(json.loads(text)))
    except UserInputError:
        return None


def _side_data(main: Side, air: Side, own: frozenset[str], kind: str) -> dict[str, Any]:
    """One side of a :class:`~grandstrategy.cataclysm.odds.Situation` from the engine's inputs."""
    units = [t for t in main.units if t in own]
    planes = [t for t in main.units if t in AIR_UNITS] if kind != "air" else []
    side: dict[str, Any] = {
        "units": units,
        "air": planes,
        "augmentation": main.augmentation,
        "limited_supply": main.limited_supply,
        "extended_range": main.extended_range,
        "surprised": main.surprised,
        "purges": main.purges,
        "snlf": main.snlf,
        "civil_war_aid": main.civil_war_aid,
    }
    if planes:
        side["air_limited_supply"] = air.limited_supply
        side["air_extended_range"] = air.extended_range
    return side


def _expected_loss(table: dict[int, Fraction], steps: int) -> Fraction:
    return sum((p * min(n, steps) for n, p in table.items()), Fraction(0))


def operation_chance(
    game: CataclysmGame,
    op: dict[str, Any],
    *,
    stage: str,
    support: tuple[str, ...] = ("attacker", "defender"),
) -> Chance | None:
    """The chance of the operation ``op`` (not changed) once the sides in ``support`` have
    committed every unit they still may; see the module docstring."""
    solved = _solve_operation(game, op, stage, support)
    if solved is None:
        return None
    odds, known, check = solved
    if odds is None or known is None:
        win = Fraction(1)  # LR 9.4.2: nothing defends the base
        return _combat_chance(win, None, None, None, None, win, check)
    s = odds.situation
    a_steps = eligible_steps(s.combat, s.attacker.units)
    d_steps = eligible_steps(s.combat, s.defender.units)
    return _combat_chance(
        odds.attacker_wins,
        odds.attacker_triumph,
        odds.defender_triumph,
        _expected_loss(odds.attacker_losses, a_steps),
        _expected_loss(odds.defender_losses, d_steps),
        known.attacker_wins,
        check,
    )


def operation_win(
    game: CataclysmGame,
    op: dict[str, Any],
    *,
    stage: str,
    support: tuple[str, ...] = ("attacker", "defender"),
) -> Fraction | None:
    """The win chance alone of :func:`operation_chance` (its ``success``), without the losses,
    triumph and text it also works out: the heuristic bot's prior asks for nothing more."""
    solved = _solve_operation(game, op, stage, support)
    if solved is None:
        return None
    odds, _, check = solved
    factor = check if check is not None else Fraction(1)
    return (Fraction(1) if odds is None else odds.attacker_wins) * factor


def _solve_operation(
    game: CataclysmGame, op: dict[str, Any], stage: str, support: tuple[str, ...]
) -> tuple[SituationOdds | None, SituationOdds | None, Fraction | None] | None:
    """The odds of the operation ``op`` (not changed) once the sides in ``support`` have committed
    every unit they still may, those without the defender's support, and the chance of the check
    that must come first: ``(None, None, check)`` when the attack wins at once (a base nobody
    defends), None when there is no fight to solve."""
    op = copy.deepcopy(op)
    if not any(u.power == op["power"] for u in game.state.units if u.id in op["attackers"]):
        return None  # LR 9.1: the acting power's own unit leads the attack
    trial, check = _prepare(game, op, stage)
    if op["variant"] == "base-capture" and not [
        u for u in _defenders(trial, op) if operations.unit_class(trial, u.type) in ("naval", "air")
    ]:
        return None, None, check  # LR 9.4.2: nothing defends the base
    if "attacker" in support:
        _commit_support(trial, op, "attacker")
    known = _situation(trial, op)
    committed = len(op["support"]["defender"])
    if "defender" in support:
        _commit_support(trial, op, "defender")
    odds = known if len(op["support"]["defender"]) == committed else _situation(trial, op)
    if odds is None or known is None:
        return None
    return odds, known, check


def _combat_chance(
    win: Fraction,
    triumph: Fraction | None,
    disaster: Fraction | None,
    loss: Fraction | None,
    inflicted: Fraction | None,
    no_defender_support: Fraction,
    check: Fraction | None,
) -> Chance:
    """A combat :class:`Chance`, every figure weighted by the check that must come first."""
    factor = check if check is not None else Fraction(1)

    def scaled(value: Fraction | None) -> Fraction | None:
        return None if value is None else value * factor

    win, no_defender_support = win * factor, no_defender_support * factor
    triumph, disaster, loss, inflicted = scaled(triumph), scaled(disaster), scaled(loss), scaled(inflicted)
    parts = [] if check is None else [f"check {percent(check)}"]
    parts.append(
        f"win {percent(win)}"
        + (f" ({percent(no_defender_support)} no def. support)" if no_defender_support != win else "")
    )
    if triumph:
        parts.append(f"triumph {percent(triumph)}")
    if disaster:
        parts.append(f"disaster {percent(disaster)}")
    if loss is not None and inflicted is not None:
        parts.append(f"exp. loss {float(loss):.1f} v {float(inflicted):.1f}")
    return Chance(
        kind="combat",
        success=win,
        text=" · ".join(parts),
        triumph=triumph,
        disaster=disaster,
        loss=loss,
        inflicted=inflicted,
        no_defender_support=no_defender_support,
        check=check,
    )


def _menu_force(game: CataclysmGame, op: dict[str, Any]) -> None:
    """Activate, in ``op``, the force the power could bring itself (module docstring, LR 9.1, 9.2)."""
    power = op["power"]
    mine = [(u, operations.activatable(game, op, u)) for u in game.state.units if u.power == power]
    ready = [(u, why) for u, why in mine if why is not None]
    crowd: dict[str, int] = {}
    for unit, _ in ready:
        crowd[unit.area] = crowd.get(unit.area, 0) + 1
    ready.sort(
        key=lambda item: (item[1] == "extended range", -crowd[item[0].area], item[0].type not in UPGRADED)
    )
    for unit, why in ready:
        if operations.activation_cost(op, unit) > op["left"] or not operations.fits_target(game, op, unit):
            continue
        operations.add_attacker(op, unit, why == "extended range")


def _menu_operation(game: CataclysmGame, option: str, context: dict[str, Any]) -> Chance | None:
    op = _menu_op(game, option, context)
    return None if op is None else operation_chance(game, op, stage="activate")


def _menu_op(game: CataclysmGame, option: str, context: dict[str, Any]) -> dict[str, Any] | None:
    """The operation a military-action menu option declares, with the force the power could
    bring itself (None when the option declares none)."""
    power = game.pending["power"] if game.pending is not None else ""
    op = operations.parse_option(
        game, power, option, left=int(context.get("left", 1)), deployed=list(context.get("deployed", []))
    )
    if op is None:
        return None
    op["only"] = context.get("only")
    _menu_force(game, op)
    return op


def _activation(game: CataclysmGame, option: str, op: dict[str, Any]) -> Chance | None:
    op = copy.deepcopy(op)
    if option != "done":
        unit = unit_from_option(game, option)
        operations.add_attacker(op, unit, option.endswith("(extended range)"))
    return operation_chance(game, op, stage="activate")


def _augment(game: CataclysmGame, option: str, op: dict[str, Any]) -> Chance | None:
    op = copy.deepcopy(op)
    count = int(option.split()[1])
    op["augment"], op["left"] = count, op["left"] - count
    return operation_chance(game, op, stage="augment")


def _support(game: CataclysmGame, option: str, op: dict[str, Any], side: str) -> Chance | None:
    trial = game.clone()
    op = copy.deepcopy(op)
    if option != "done":
        unit = next(u for u in trial.state.units if u.id == unit_from_option(game, option).id)
        if operations.limited_supply(trial, [unit]):
            op["limited"].append(unit.id)
        set_area(trial, unit, op["target"])
        op["support"][side].append(unit.id)
    further: tuple[str, ...] = ("defender",) if side == "attacker" else ()
    if option != "done":
        further = (side, *further)
    return operation_chance(trial, op, stage="support", support=further)


def option_chance(game: CataclysmGame, option: str) -> Chance | None:
    """The chance of one option of the pending decision, or None when its outcome needs no dice."""
    pending = game.pending
    if pending is None or pending.get("type") != "decide" or option not in pending["options"]:
        return None
    context: dict[str, Any] = pending["then"]
    step = context.get("do")
    if step == "military-action-answer":
        if operations.parse_option(game, pending["power"], option, left=1, deployed=[]) is not None:
            return _menu_operation(game, option, context)
        return None
    if step == "op-activate-answer":
        return _activation(game, option, context["op"])
    if step == "op-augment-answer" and option.startswith("augment "):
        return _augment(game, option, context["op"])
    if step == "op-support-answer" and "consent" not in context:
        return _support(game, option, context["op"], context["side"])
    if step in CHECK_DECISIONS:
        return _check_option(game, pending["power"], option)
    return None


def option_chances(game: CataclysmGame) -> dict[str, Chance]:
    """Every option of the pending decision whose outcome depends on dice, with its exact chance."""
    pending = game.pending
    if pending is None or pending.get("type") != "decide" or game.state.result is not None:
        return {}
    found: dict[str, Chance] = {}
    for option in pending["options"]:
        chance = option_chance(game, option)
        if chance is not None:
            found[option] = chance
    return found


def option_odds(game: CataclysmGame, power: str, option: str) -> float | None:
    """The win chance of an operation named by a menu option of the pending decision, for the
    heuristic bot's prior; None for any other option or another power's decision."""
    pending = game.pending
    if pending is None or pending.get("type") != "decide" or pending.get("power") != power:
        return None
    context: dict[str, Any] = pending["then"]
    if context.get("do") != "military-action-answer" or option not in pending["options"]:
        return None
    if operations.parse_option(game, power, option, left=1, deployed=[]) is None:
        return None
    op = _menu_op(game, option, context)
    win = None if op is None else operation_win(game, op, stage="activate")
    return None if win is None else float(win)


__all__ = [
    "CHECK_DECISIONS",
    "CHECK_RESULTS",
    "Chance",
    "PendingCheck",
    "check_chance",
    "operation_chance",
    "operation_win",
    "option_chance",
    "option_chances",
    "option_odds",
    "pending_check",
    "percent",
]
