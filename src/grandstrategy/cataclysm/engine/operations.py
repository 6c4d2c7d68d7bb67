"""Operations (LR 9): activating units and the operation sequence up to combat.

Choosing a target (the menu, valid targets, declaring, activation costs, the primary defender) is in
:mod:`targets`, whose names are re-exported here.

An operation travels through the steps as one JSON record, ``op``: who attacks what, with which
units, the augmentation, supply, the invasion path and the support. Combat itself (LR 10) is in
``combat.py``. The menu offers one option per kind of operation and target, e.g.
``land operation against Poland`` or ``surprise naval operation against Hawaii``; the units are
then activated one at a time.
"""

from __future__ import annotations

from typing import Any

from grandstrategy.cataclysm.engine.civil_war import offer_revocation
from grandstrategy.cataclysm.engine.common import (
    effectiveness_check,
    flag_step,
    power_order,
    set_area,
    unit_from_option,
)
from grandstrategy.cataclysm.engine.game import CataclysmGame
from grandstrategy.cataclysm.engine.machine import Step, step
from grandstrategy.cataclysm.engine.targets import AIR as AIR
from grandstrategy.cataclysm.engine.targets import ARMIES as ARMIES
from grandstrategy.cataclysm.engine.targets import FLEETS as FLEETS
from grandstrategy.cataclysm.engine.targets import KINDS as KINDS
from grandstrategy.cataclysm.engine.targets import _new_op as _new_op
from grandstrategy.cataclysm.engine.targets import activatable as activatable
from grandstrategy.cataclysm.engine.targets import activation_cost as activation_cost
from grandstrategy.cataclysm.engine.targets import bases_in as bases_in
from grandstrategy.cataclysm.engine.targets import declare as declare
from grandstrategy.cataclysm.engine.targets import fits_target as fits_target
from grandstrategy.cataclysm.engine.targets import hostile_units as hostile_units
from grandstrategy.cataclysm.engine.targets import ideology_of as ideology_of
from grandstrategy.cataclysm.engine.targets import may_surprise as may_surprise
from grandstrategy.cataclysm.engine.targets import operation_options as operation_options
from grandstrategy.cataclysm.engine.targets import opposing as opposing
from grandstrategy.cataclysm.engine.targets import parse_option as parse_option
from grandstrategy.cataclysm.engine.targets import primary_defender_candidates as primary_defender_candidates
from grandstrategy.cataclysm.engine.targets import target_power as target_power
from grandstrategy.cataclysm.engine.targets import unit_class as unit_class
from grandstrategy.cataclysm.engine.targets import valid_target as valid_target
from grandstrategy.cataclysm.engine.war_start import start_war
from grandstrategy.cataclysm.module.schema import Ideology
from grandstrategy.cataclysm.rules.control import (
    allied,
    at_war,
    controller,
    friendly_powers,
    interests,
    is_country,
)
from grandstrategy.cataclysm.rules.movement import (
    invasion_paths,
    op_arrival_coasts,
    support_possible,
)
from grandstrategy.cataclysm.rules.occupation import may_stop
from grandstrategy.cataclysm.rules.supply import loc_reach
from grandstrategy.cataclysm.state import Unit


@step("op-activate")
def _op_activate(game: CataclysmGame, current: Step) -> None:
    """Activate units one at a time (LR 9.2 step 1b)."""
    op = current["op"]
    options: list[str] = []
    for unit in game.state.units:
        why = activatable(game, op, unit)
        if why is None or activation_cost(op, unit) > op["left"] or not fits_target(game, op, unit):
            continue
        suffix = " (extended range)" if why == "extended range" else ""
        options.append(f"activate #{unit.id} {unit.type} in {game.module.area(unit.area).name}{suffix}")
    if _ready(game, op):
        options.insert(0, "done")
    if not options:  # nothing can join any more and the operation is not viable: it is called off
        game.note(f"{op['power']} cannot carry out the operation; it is called off")
        _resume_offensive(game, op)
        return
    if options == ["done"]:
        game.push("op-declared", op=op)
        return
    game.ask(
        op["power"],
        "activate units for the operation, or done (LR 9.1)",
        options,
        "op-activate-answer",
        op=op,
    )


def _ready(game: CataclysmGame, op: dict[str, Any]) -> bool:
    units = [u for u in game.state.units if u.id in op["attackers"]]
    if not any(u.power == op["power"] for u in units):
        return False  # at least one of the acting power's own units (LR 9.1)
    if op["variant"] == "base-capture" and not any(u.type in FLEETS for u in units):
        return False
    return op["variant"] != "strategic-bombing" or any(u.type == "strategic-air" for u in units)


@step("op-activate-answer")
def _op_activate_answer(game: CataclysmGame, current: Step) -> None:
    op = current["op"]
    if current["choice"] == "done":
        game.push("op-declared", op=op)
        return
    unit = unit_from_option(game, current["choice"])
    extended = current["choice"].endswith("(extended range)")
    if unit.power != op["power"]:
        game.ask(
            unit.power,
            f"{op['power']} asks to activate your {unit.type} in {game.module.area(unit.area).name} (LR 9.1)",
            ["allow", "refuse"],
            "op-activate-consent",
            op=op,
            unit=unit.id,
            extended=extended,
        )
        return
    _activate(game, op, unit, extended)


@step("op-activate-consent")
def _op_activate_consent(game: CataclysmGame, current: Step) -> None:
    op = current["op"]
    unit = next(u for u in game.state.units if u.id == current["unit"])
    if current["choice"] == "refuse":
        op.setdefault("refused", []).append(unit.id)
        game.note(f"{unit.power} refuses to lend its {unit.type}")
        game.push("op-activate", op=op)
        return
    _activate(game, op, unit, current["extended"])


def _activate(game: CataclysmGame, op: dict[str, Any], unit: Unit, extended: bool) -> None:
    add_attacker(op, unit, extended)
    game.push("op-activate", op=op)


def add_attacker(op: dict[str, Any], unit: Unit, extended: bool) -> None:
    """Record one more activated unit in the operation: its actions, area of origin, and whether it
    operates at extended range (LR 9.1, 7.3.3)."""
    op["left"] -= activation_cost(op, unit)
    if unit.area not in op["origins"]:
        op["origins"].append(unit.area)
    op["attackers"].append(unit.id)
    if extended:
        op["extended"] = True
        op.setdefault("extended_units", []).append(unit.id)


@step("op-declared")
def _op_declared(game: CataclysmGame, current: Step) -> None:
    """The primary defender (LR 9.1.1); a Democracy's check before attacking a neutral (LR 9.2 step 2)."""
    op = current["op"]
    candidates = primary_defender_candidates(game, op)
    if op.get("only"):  # after a DOW the primary defender is one of its targets (LR 6.2, L1437)
        candidates = [c for c in candidates if c in op["only"]] or candidates
    if len(candidates) > 1 and "defender_choice" not in current:
        game.ask(
            op["power"],
            "choose the primary defender (LR 9.1.1)",
            [str(c) for c in candidates],
            "op-declared",
            op=op,
            defender_choice=True,
        )
        return
    chosen = current.get("choice")
    op["defender"] = chosen if chosen is not None else candidates[0]
    op["country"] = op["defender"] is None and op["kind"] == "land"
    power, target = op["power"], op["target"]
    module, state = game.module, game.state
    holder = controller(module, state, target)
    # LR 9.7.2: only a land operation attacks the country itself (it alone may take control); an
    # air or naval strike on units in an uncontrolled country opens no diplomatic opportunity
    op["uncontrolled_country"] = op["kind"] == "land" and is_country(module, state, target) and holder is None
    if democracy_check_needed(game, op):
        effectiveness_check(
            game, power, f"attack on {module.area(target).name} (LR 9.7)", "op-democracy", op=op
        )
        return
    game.push("op-augment", op=op)


def democracy_check_needed(game: CataclysmGame, op: dict[str, Any]) -> bool:
    """Whether a Democracy must pass a check before this attack, its primary defender chosen: on a
    neutral country, or a base capture where a base has no owner (LR 9.2 step 2, 9.7)."""
    power, target = op["power"], op["target"]
    if ideology_of(game, power) is not Ideology.DEMOCRACY:
        return False
    holder = controller(game.module, game.state, target)
    neutral_country = op["country"] and not (holder is not None and at_war(game.state, power, holder))
    unowned_base = op["variant"] == "base-capture" and any(o is None for _, o in bases_in(game, target))
    return bool(neutral_country or unowned_base)


@step("op-democracy")
def _op_democracy(game: CataclysmGame, current: Step) -> None:
    op = current["op"]
    if current["success"]:
        game.push("op-augment", op=op)
        return
    game.note(f"{op['power']} fails its check: the operation is cancelled and its action lost (LR 9.2)")
    _resume_offensive(game, op)


@step("op-augment")
def _op_augment(game: CataclysmGame, current: Step) -> None:
    """Spend more actions of the same offensive for +1 each in every combat (LR 8.2)."""
    op = current["op"]
    if op["left"] <= 0 or op.get("only") is not None:
        game.push("op-provoke", op=op)
        return
    options = [f"augment {n}" for n in range(op["left"] + 1)]
    game.ask(
        op["power"], "augment the operation? (+1 per action; LR 8.2)", options, "op-augment-answer", op=op
    )


@step("op-augment-answer")
def _op_augment_answer(game: CataclysmGame, current: Step) -> None:
    op = current["op"]
    count = int(current["choice"].split()[1])
    op["augment"] = count
    op["left"] -= count
    if count:
        game.note(f"{op['power']} augments the operation by {count}")
    game.push("op-provoke", op=op)


@step("op-provoke")
def _op_provoke(game: CataclysmGame, current: Step) -> None:
    """Provocation flags, and war by surprise attack (LR 9.2 step 4, 5.2.3, 9.7, 9.8)."""
    op = current["op"]
    module, state = game.module, game.state
    power, target = op["power"], op["target"]
    provoked = [
        other
        for other in power_order(game, decreasing=True)
        if other != power
        and state.powers[other].active
        and opposing(game, power, other)
        and not at_war(state, power, other)
        and (
            target in interests(module, state, other)
            # LR 5.2.3: a surprise attack provokes its victim wherever it strikes (once, LR 9.8 example)
            or (op["surprise"] and other == op["defender"])
        )
    ]
    steps: list[Step] = [
        flag_step(p, f"provoked: {power} attacks {module.area(target).name}") for p in provoked
    ]
    game.push("op-supply", op=op)
    if op["surprise"] and op["defender"] is not None:
        defender = op["defender"]
        steps.append(flag_step(defender, f"surprise attack by {power}"))
        op["surprised"] = surprise_works(game, defender)
        if op["surprised"]:
            game.note(f"{power} surprises {defender}: the defenders suffer -1 this operation (LR 9.8)")
        game.then(*steps)
        start_war(game, [power], surprised_powers(game, op), reason="surprise attack")
        return
    game.then(*steps)


def surprise_works(game: CataclysmGame, defender: str) -> bool:
    """Whether a surprise attack on ``defender`` catches it unready (-1 to its rolls): not once its
    ideology has been surprised before (No Surprise, LR 9.8)."""
    return ideology_of(game, defender).value not in game.state.no_surprise


def surprised_powers(game: CataclysmGame, op: dict[str, Any]) -> list[str]:
    """The powers a surprise attack puts at war with its attacker (LR 9.2 step 4, 9.8): the primary
    defender first, then each other non-enemy opposing power defending in the target (its units
    are there) and, in a land operation, the power controlling the area (see docs/decisions.md)."""
    power, target = op["power"], op["target"]
    others = {u.power for u in hostile_units(game, power, target, surprise=True)}
    holder = controller(game.module, game.state, target)
    if op["kind"] == "land" and holder is not None and target_power(game, power, holder, surprise=True):
        others.add(holder)
    return [op["defender"], *sorted(others - {op["defender"]})]


def side_of(game: CataclysmGame, op: dict[str, Any], unit: Unit) -> str | None:
    """``attacker``, ``defender`` or None for a unit in relation to the operation."""
    if unit.id in op["attackers"] or unit.id in op["support"]["attacker"]:
        return "attacker"
    if unit.id in op["support"]["defender"]:
        return "defender"
    if unit.area == op["target"] and at_war(game.state, op["power"], unit.power):
        return "defender"
    return None


def defending_units(game: CataclysmGame, op: dict[str, Any]) -> list[Unit]:
    return [u for u in game.state.units if side_of(game, op, u) == "defender"]


def _displaced_attackers_drop_out(game: CataclysmGame, op: dict[str, Any]) -> bool:
    """Attackers that had to leave their area of origin at step 4 drop out; True if the operation is over.

    A war started by the attack can break an alliance, and a unit standing in the former ally's
    area then retreats or goes to the cup (LR 6.1.3, 6.1.4) before the attackers move (LR 9.2
    step 6): it no longer takes part. With none of the acting power's units left, nobody moves in
    and the operation ends, its action spent (LR 9.1: at least one of its units attacks).
    """
    where = {u.id: u.area for u in game.state.units}
    gone = [i for i in op["attackers"] if where.get(i) not in op["origins"]]
    if not gone:
        return False
    op["attackers"] = [i for i in op["attackers"] if i not in gone]
    game.note(f"{len(gone)} activated unit(s) left their area of origin and drop out of the operation")
    if any(u.power == op["power"] for u in game.state.units if u.id in op["attackers"]):
        return False
    game.note(f"{op['power']} has no unit left to attack with; the operation ends (LR 9.1)")
    game.push("op-end", op=op)
    return True


@step("op-supply")
def _op_supply(game: CataclysmGame, current: Step) -> None:
    """Activated and defending units trace an LOC, or are in limited supply for the operation (LR 9.6)."""
    op = current["op"]
    module, state = game.module, game.state
    if _displaced_attackers_drop_out(game, op):
        return
    fighting = [
        unit
        for unit in state.units
        if unit.id in op["attackers"] or (unit.area == op["target"] and side_of(game, op, unit) == "defender")
    ]
    limited: list[int] = []
    for unit in limited_supply(game, fighting):
        limited.append(unit.id)
        where = module.area(unit.area).name
        game.note(f"{unit.power}'s {unit.type} in {where} is in limited supply (LR 9.6)")
    op["limited"] = limited
    game.push("op-move", op=op)


def limited_supply(game: CataclysmGame, units: list[Unit]) -> list[Unit]:
    """The units, in the order given, that cannot trace a line of communication from where they
    stand and so fight in limited supply (LR 9.6); logistics units take no part (LR 7.1.4)."""
    reach: dict[str, set[str]] = {}
    found = []
    for unit in units:
        if unit.type == "logistics":
            continue
        if unit.power not in reach:
            reach[unit.power] = loc_reach(game.module, game.state, unit.power)
        if unit.area not in reach[unit.power]:
            found.append(unit)
    return found


@step("op-move")
def _op_move(game: CataclysmGame, current: Step) -> None:
    """Choose the invasion path, then move the attackers into the target (LR 9.2 step 6, 9.3.2)."""
    op = current["op"]
    module, state = game.module, game.state
    if op["variant"] == "invasion" and not op["path"]:
        paths = invasion_paths(module, state, op["power"], op["origins"][0], op["target"])
        if "choice" in current:
            op["path"] = current["choice"].split(" > ")
        elif len(paths) == 1:
            op["path"] = list(paths[0])
        else:
            game.ask(
                op["power"],
                "choose the invasion path (LR 9.3.2)",
                [" > ".join(p) for p in paths],
                "op-move",
                op=op,
            )
            return
        if len(op["path"]) == 2:
            op["extended"] = True
            op["extended_invasion"] = True
    coasts: dict[str, str] = op.get("coasts", {})
    if "coast_for" in current:
        coasts[str(current["coast_for"])] = current["choice"].removesuffix(" coast")
        op["coasts"] = coasts
    for unit in state.units:
        if unit.id in op["attackers"] and str(unit.id) not in coasts and module.area(op["target"]).coasts:
            extended = unit.id in op.get("extended_units", [])
            choices = op_arrival_coasts(module, state, unit, op["target"], extended=extended)
            if len(choices) > 1:  # LR 2.2.1: its owner says which coast it sails to
                game.ask(
                    unit.power,
                    f"your {unit.type} sails to which coast of {module.area(op['target']).name}? (LR 2.2.1)",
                    [f"{c} coast" for c in choices],
                    "op-move",
                    op=op,
                    coast_for=unit.id,
                )
                return
            if choices:
                coasts[str(unit.id)] = choices[0]
                op["coasts"] = coasts
    for unit in state.units:
        if unit.id in op["attackers"]:
            set_area(game, unit, op["target"], coast=coasts.get(str(unit.id)))
    game.note(f"{op['power']}'s attackers move into {module.area(op['target']).name}")
    game.push("op-support", op=op, side="attacker")
    if op["target"] in state.civil_wars or op["target"] in state.chinese_aid:
        offer_revocation(game, [op["target"]])  # patrons may take their aid back first (LR 11.2)


def support_candidates(game: CataclysmGame, op: dict[str, Any], side: str) -> list[Unit]:
    """Units that may still be committed in support for a side (LR 10.2)."""
    module, state = game.module, game.state
    power, target, kind = op["power"], op["target"], op["kind"]
    if side == "attacker":
        decider: str | None = power
    else:
        decider = op["defender"] if op["defender"] is not None else controller(module, state, target)
    uncontrolled = side == "defender" and decider is None and op.get("country")
    if not uncontrolled and (decider is None or decider not in state.powers):
        return []
    passed = op.get("support_passed", [])
    found = []
    for unit in state.units:
        if (
            unit.id in op["attackers"]
            or unit.id in op["support"]["attacker"]
            or unit.id in op["support"]["defender"]
        ):
            continue
        if unit.area == target:
            continue
        if side == "attacker":
            if not (
                unit.power == power
                or (
                    allied(module, state, power, unit.power)
                    and friendly_powers(module, state, power, unit.power)
                    and _at_war_with_defenders(game, op, unit.power)
                )
            ):
                continue
        elif uncontrolled:
            # LR 10.2: an uncontrolled country has no controller to be friendly to; any unit at war
            # with the attacker may support it, its owner choosing
            if not at_war(state, power, unit.power) or unit.power in passed:
                continue
        else:
            assert decider is not None
            if not friendly_powers(module, state, decider, unit.power) or not at_war(
                state, power, unit.power
            ):
                continue
        if unit.type not in AIR and not (kind == "naval" and unit.type in FLEETS):
            continue
        if not support_possible(module, state, unit, target, kind):
            continue
        if not may_stop(module, state, unit, target, during_op=True):
            continue
        found.append(unit)
    return found


def _at_war_with_defenders(game: CataclysmGame, op: dict[str, Any], ally: str) -> bool:
    """Whether an ally of the primary attacker is at war with the primary defender and every power
    defending in the target: only then may it support the attack (LR 10.2 with 5.6.1), as a
    defender's supporter must be at war with the attacker."""
    state = game.state
    powers = {u.power for u in state.units if u.area == op["target"] and side_of(game, op, u) == "defender"}
    if op["defender"] is not None:
        powers.add(op["defender"])
    return all(at_war(state, ally, p) for p in powers)


@step("op-support")
def _op_support(game: CataclysmGame, current: Step) -> None:
    """Commit supporting units, the attacker first (LR 10.2)."""
    op, side = current["op"], current["side"]
    module = game.module
    candidates = support_candidates(game, op, side)
    decider = (
        op["power"] if side == "attacker" else op["defender"] or controller(module, game.state, op["target"])
    )
    context: dict[str, Any] = {}
    if candidates and decider is None:
        # LR 10.2: an uncontrolled country; each power with eligible units offers its own in turn
        order = power_order(game, decreasing=True)
        decider = min(
            {u.power for u in candidates}, key=lambda p: (order.index(p) if p in order else len(order), p)
        )
        candidates = [u for u in candidates if u.power == decider]
        context["asker"] = decider
    if not candidates or decider is None:
        _after_support(game, op, side)
        return
    options = ["done"] + [
        f"support with #{u.id} {u.power} {u.type} in {module.area(u.area).name}" for u in candidates
    ]
    game.ask(
        decider,
        f"commit support ({side}; LR 10.2), or done",
        options,
        "op-support-answer",
        op=op,
        side=side,
        **context,
    )


@step("op-support-answer")
def _op_support_answer(game: CataclysmGame, current: Step) -> None:
    op, side = current["op"], current["side"]
    if current["choice"] == "done":
        if current.get("asker") is not None:  # this power is done; the next may support (LR 10.2)
            op.setdefault("support_passed", []).append(current["asker"])
            game.push("op-support", op=op, side=side)
            return
        _after_support(game, op, side)
        return
    module, state = game.module, game.state
    unit = unit_from_option(game, current.get("consent") or current["choice"])
    if side == "attacker":
        chooser = op["power"]
    else:
        chooser = current.get("asker") or op["defender"] or controller(module, state, op["target"])
    if unit.power != chooser and current.get("consent") is None:
        game.ask(
            unit.power,
            f"{chooser} asks your {unit.type} in {module.area(unit.area).name} to support (LR 10.2)",
            ["allow", "refuse"],
            "op-support-answer",
            op=op,
            side=side,
            consent=current["choice"],
        )
        return
    if current.get("consent") is not None and current["choice"] == "refuse":
        op.setdefault("refused", []).append(unit.id)
        game.note(f"{unit.power} refuses to support")
        game.push("op-support", op=op, side=side)
        return
    if unit.area not in loc_reach(
        module, state, unit.power
    ):  # supply is checked on commitment (LR 9.6, 10.2)
        op["limited"].append(unit.id)
        game.note(f"{unit.power}'s supporting {unit.type} is in limited supply (LR 10.2)")
    set_area(game, unit, op["target"])
    op["support"][side].append(unit.id)
    game.note(f"{unit.power}'s {unit.type} supports the {side}")
    game.push("op-support", op=op, side=side)


def _after_support(game: CataclysmGame, op: dict[str, Any], side: str) -> None:
    if side == "attacker":
        game.push("op-support", op=op, side="defender")
    else:
        game.push("combat-begin", op=op)


def _resume_offensive(game: CataclysmGame, op: dict[str, Any]) -> None:
    """Give back the offensive's remaining actions after an operation (LR 8.1)."""
    if op.get("only") is not None:
        return
    if op["left"] > 0:
        game.push("military-action", power=op["power"], left=op["left"], deployed=op["deployed"], only=None)


def resume_offensive(game: CataclysmGame, op: dict[str, Any]) -> None:
    """Public door for combat.py: continue the offensive once the operation is over."""
    _resume_offensive(game, op)
