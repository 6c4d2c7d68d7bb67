"""Operations (LR 9): choosing a target, activating units, and the operation sequence up to combat.

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
    garrisoned,
    power_order,
    set_area,
    unit_from_option,
)
from grandstrategy.cataclysm.engine.game import CataclysmGame
from grandstrategy.cataclysm.engine.machine import Step, step
from grandstrategy.cataclysm.engine.war_start import start_war
from grandstrategy.cataclysm.module.schema import AreaType, Commitment, Ideology
from grandstrategy.cataclysm.rules.control import (
    allied,
    at_war,
    belligerent,
    controller,
    friendly_powers,
    interests,
    is_country,
)
from grandstrategy.cataclysm.rules.frozen import frozen, memo_of
from grandstrategy.cataclysm.rules.movement import (
    friendly_airfields,
    friendly_port_areas,
    in_op_range,
    invasion_paths,
    op_arrival_coasts,
    support_possible,
)
from grandstrategy.cataclysm.rules.occupation import graph_of, limits, may_stop, tally
from grandstrategy.cataclysm.rules.special import STRESA_FRONT
from grandstrategy.cataclysm.rules.supply import loc_reach
from grandstrategy.cataclysm.state import Unit

ARMIES = ("infantry-army", "tank-army")
FLEETS = ("surface-fleet", "carrier-fleet")
AIR = ("tactical-air", "strategic-air")

# option label -> (combat kind, variant)
KINDS: dict[str, tuple[str, str | None]] = {
    "land operation against": ("land", None),
    "invasion of": ("land", "invasion"),
    "naval operation against": ("naval", None),
    "base capture at": ("naval", "base-capture"),
    "air operation against": ("air", None),
    "strategic bombing of": ("air", "strategic-bombing"),
}


def unit_class(game: CataclysmGame, unit_type: str) -> str:
    """``land``, ``naval``, ``air`` or ``logistics``."""
    return game.module.unit_types[unit_type].unit_class


def ideology_of(game: CataclysmGame, power: str) -> Ideology:
    return game.module.powers[power].ideology


def _opposing(game: CataclysmGame, a: str, b: str) -> bool:
    return ideology_of(game, a) is not ideology_of(game, b)


# ---- what may be attacked (LR 9.1, 9.3–9.5, 9.7, 9.8, 12) ------------------------------------


def _bases(game: CataclysmGame, area_id: str) -> list[tuple[str, str | None]]:
    """(key, owner) of each base printed in the area, with its current owner, and of a special
    British base standing there (LR 2.3.3), which a base capture may target too (LR 9.4.2)."""
    area = game.module.area(area_id)
    found = [
        (f"{area_id}#{i}", game.state.base_owners.get(f"{area_id}#{i}"))
        for i in range(len(area.bases))
        if f"{area_id}#{i}" in game.state.base_owners
    ]
    special = area.special_base
    if (
        special is not None
        and area_id in game.state.special_bases
        and controller(game.module, game.state, area_id) is None
    ):
        found.append((f"{area_id}#special", special.owner))
    return found


def _hostile_units(game: CataclysmGame, power: str, area_id: str, *, surprise: bool) -> list[Unit]:
    """Units in the area that the power may attack: enemies' (or, by surprise, non-enemy opposing powers').

    While the state is frozen (a menu), the units are sorted by area once.
    """
    memo = memo_of(game.state)
    if memo is None:
        here: list[Unit] = [u for u in game.state.units if u.area == area_id]
    else:
        by_area = memo.get("units-by-area")
        if by_area is None:
            by_area = memo["units-by-area"] = {}
            for unit in game.state.units:
                by_area.setdefault(unit.area, []).append(unit)
        here = by_area.get(area_id, [])
    return [u for u in here if _target_power(game, power, u.power, surprise=surprise)]


def _target_power(game: CataclysmGame, power: str, other: str | None, *, surprise: bool) -> bool:
    if other is None or other == power or other not in game.state.powers:
        return False
    if not game.state.powers[other].active:
        return False
    if surprise:
        return _opposing(game, power, other) and not at_war(game.state, power, other)
    return at_war(game.state, power, other)


def may_surprise(game: CataclysmGame, power: str) -> bool:
    """A Fascist power at mobilization or total war may attack by surprise (LR 9.8)."""
    line = game.state.powers[power]
    return ideology_of(game, power) is Ideology.FASCISM and line.commitment in (
        Commitment.MOBILIZATION,
        Commitment.TOTAL_WAR,
    )


def valid_target(
    game: CataclysmGame,
    power: str,
    kind: str,
    variant: str | None,
    target: str,
    *,
    surprise: bool,
    memo: dict[tuple[object, ...], Any] | None = None,
) -> bool:
    """Whether ``target`` may be the target of this kind of operation by ``power`` (LR 9.1–9.5, 9.7, 9.8).

    ``memo`` (one dict per menu, the state unchanged meanwhile) keeps the facts about the target
    that every kind of operation reads, so a menu works them out once per target and mode.
    """
    facts = _target_facts(game, power, target, surprise, memo if memo is not None else {})
    if facts is None:
        return False
    area, hostile_holder, units, classes = facts
    module, state = game.module, game.state
    if kind == "land":
        if area.type is AreaType.SEA:
            return False
        if surprise and not hostile_holder:
            # LR 9.3.1 with 9.8: the surprised power must control the area; its units alone do not
            # make an area it does not control a land target (see docs/decisions.md)
            return False
        if surprise:
            if is_country(module, state, target) and not garrisoned(game, target):
                return False  # LR 9.7, 9.8: the country itself defends and no war starts
            return hostile_holder or bool(units)
        if hostile_holder:
            # LR 9.3.1 narrows LR 9.1 for land operations: enemy land units in an area that no
            # enemy controls do not make it a target (see docs/decisions.md)
            return True
        if is_country(module, state, target) and not garrisoned(game, target):
            # LR 9.7: Democracies need to be at war to attack an ungarrisoned country
            return ideology_of(game, power) is not Ideology.DEMOCRACY or belligerent(state, power)
        return False
    if kind == "naval":
        if variant == "base-capture":
            for _, owner in _bases(game, target):
                if owner is None and not surprise:
                    if ideology_of(game, power) is not Ideology.DEMOCRACY or belligerent(state, power):
                        return True
                elif _target_power(game, power, owner, surprise=surprise):
                    return True
            return False
        return any(u.type in (*FLEETS, "submarine-pack", "strategic-air") for u in units)
    if variant == "strategic-bombing":
        return area.type is not AreaType.SEA and hostile_holder and bool(area.resources)
    return "air" in classes


_TargetFacts = tuple[Any, bool, list[Unit], set[str]]
"""The target area, whether its holder may be attacked, the units there that may be, their classes."""


def _target_facts(
    game: CataclysmGame, power: str, target: str, surprise: bool, memo: dict[tuple[object, ...], Any]
) -> _TargetFacts | None:
    """What :func:`valid_target` reads of the target whatever the kind of operation; None when no
    operation may target it (off the maps, under the Washington Naval Treaty, or held by a
    same-ideology power, LR 9.1, 12)."""
    key = ("target", power, target, surprise)
    if key in memo:
        found: _TargetFacts | None = memo[key]
        return found
    module, state = game.module, game.state
    area = module.area(target)
    found = None
    if area.map.value not in state.maps:
        pass
    elif "wnt" in state.markers and area.wnt_zone:
        pass  # LR 12: nobody attacks Pacific-Ocean areas under the Washington Naval Treaty
    else:
        holder = controller(module, state, target)
        if holder is None or holder not in module.powers or _opposing(game, power, holder):
            # never an area a same-ideology power controls (LR 9.1)
            hostile_holder = _target_power(game, power, holder, surprise=surprise)
            units = _hostile_units(game, power, target, surprise=surprise)
            found = (area, hostile_holder, units, {unit_class(game, u.type) for u in units})
    memo[key] = found
    return found


def activatable(game: CataclysmGame, op: dict[str, Any], unit: Unit) -> str | None:
    """How this unit may join the operation (``in range``, ``extended range``), or None (LR 9.1–9.5)."""
    module, state = game.module, game.state
    power, target, kind, variant = op["power"], op["target"], op["kind"], op["variant"]
    if unit.id in op["attackers"] or unit.id in op.get("deployed", []) or unit.id in op.get("refused", []):
        return None
    if unit.power != power and not (
        allied(module, state, power, unit.power) and friendly_powers(module, state, power, unit.power)
    ):
        return None  # a belligerent ally's units may join, with its permission (LR 9.1)
    if unit.power != power and not all(at_war(state, unit.power, p) for p in _powers_to_fight(game, op)):
        return None  # an ally attacks only powers it is already at war with (LR 9.1, 5.6.1, 9.8)
    if unit.area == target:
        return None
    if kind == "land":
        if unit.type not in ARMIES:
            return None
        if variant == "invasion":
            if op["origins"] and unit.area != op["origins"][0]:
                return None
            return "in range" if invasion_paths(module, state, power, unit.area, target) else None
        return "in range" if in_op_range(module, state, unit, target) else None
    if kind == "naval":
        if unit.type in FLEETS:
            if unit.area not in friendly_port_areas(module, state, unit.power):
                return None  # fleets on patrol in a sea area without a naval base (LR 9.4.1)
        elif unit.type == "strategic-air":
            if unit.area not in friendly_airfields(module, state, unit.power):
                return None
        else:
            return None
    else:
        if unit.type not in AIR or unit.area not in friendly_airfields(module, state, unit.power):
            return None
    if in_op_range(module, state, unit, target):
        return "in range"
    if in_op_range(module, state, unit, target, extended=True):
        return "extended range"
    return None


def _powers_to_fight(game: CataclysmGame, op: dict[str, Any]) -> set[str]:
    """The powers whose units the operation's attackers would fight, as known at activation.

    An operation makes war only for its primary attacker and defender (LR 9.2 step 4, 9.8; an
    ally is drawn in by LR 6.1.3), so an ally's unit joins the attack only if its owner is at war
    with each of them (LR 5.6.1), as on the defender's side (LR 10.2).
    """
    if op["defender"] is not None:
        found = {op["defender"]}
    else:
        found = {p for p in primary_defender_candidates(game, op) if p is not None}
    found.update(u.power for u in _hostile_units(game, op["power"], op["target"], surprise=op["surprise"]))
    return found


def operation_options(
    game: CataclysmGame,
    power: str,
    left: int,
    *,
    deployed: list[int],
    against: list[str] | None = None,
    first: bool = False,
) -> list[str]:
    """The operations the power could declare now, as menu options (LR 9.1).

    ``first``: stop at the first option found (for callers that only ask whether there is one).
    The state is frozen meanwhile (see :mod:`~grandstrategy.cataclysm.rules.frozen`).
    """
    with frozen(game.state):
        return _operation_options(game, power, left, deployed=deployed, against=against, first=first)


def _operation_options(
    game: CataclysmGame, power: str, left: int, *, deployed: list[int], against: list[str] | None, first: bool
) -> list[str]:
    module, state = game.module, game.state
    mine = [u for u in state.units if u.power == power and u.id not in deployed]
    if not mine:
        return []
    candidates: set[str] = set()
    for unit in mine:
        candidates.update(e.target for e in module.neighbors(unit.area))
        candidates.add(unit.area)
    if any(u.type in (*FLEETS, *AIR) for u in mine):
        candidates.update(a for a in module.in_play_ids(state.maps))
    elif left >= 2:
        candidates.update(_invasion_reach(game, [u for u in mine if u.type in ARMIES]))
    surprise_modes = [False, True] if may_surprise(game, power) else [False]
    opposing_units = {u.area for u in state.units if _opposing(game, power, u.power)}
    partner = {"germany": "italy", "italy": "germany"}.get(power)
    stresa = (
        interests(module, state, partner)
        if partner is not None and STRESA_FRONT in state.markers and state.powers[partner].active
        else set()
    )

    def worth_a_look(target: str) -> bool:
        """A cheap first sieve: an opposing unit, controller or base, or a country (LR 9.1); never
        an area in the Stresa partner's interests while the Front stands (LR 12.1)."""
        if target in stresa:
            return False
        if target in opposing_units or module.area(target).bases or is_country(module, state, target):
            return True
        holder = controller(module, state, target)
        return holder is not None and holder in module.powers and _opposing(game, power, holder)

    memo: dict[tuple[object, ...], Any] = {}

    def joins(op: dict[str, Any], unit: Unit) -> bool:
        """:func:`activatable` for one of the power's own units not yet deployed: for those it reads
        only the unit, the target, the kind and (for a land operation) the variant, never the
        surprise mode, so each answer is worked out once per menu."""
        key = ("joins", unit.id, op["target"], op["kind"], op["variant"] if op["kind"] == "land" else None)
        found = memo.get(key)
        if found is None:
            found = memo[key] = activatable(game, op, unit) is not None
        return bool(found)

    def any_joins(op: dict[str, Any], types: tuple[str, ...] | None) -> bool:
        """Whether one of the power's units (of ``types``, if given) could join: once per target,
        kind and variant, for both surprise modes."""
        key = ("any", op["target"], op["kind"], op["variant"], types)
        found = memo.get(key)
        if found is None:
            found = memo[key] = any(joins(op, u) for u in mine if types is None or u.type in types)
        return bool(found)

    options: list[str] = []
    for target in sorted(candidates):
        if not worth_a_look(target):
            continue
        for label, (kind, variant) in KINDS.items():
            if variant == "invasion" and left < 2:
                continue
            for surprise in surprise_modes:
                if surprise and variant == "invasion":
                    continue  # LR 9.3.2: an invasion is never a surprise attack
                if not valid_target(game, power, kind, variant, target, surprise=surprise, memo=memo):
                    continue
                op = _new_op(power, kind, variant, target, surprise, left, deployed)
                if against is not None and not any(  # LR 6.2: a DOW target may be the primary defender
                    c in against for c in primary_defender_candidates(game, op)
                ):
                    continue
                if not any_joins(op, None):
                    continue
                if variant == "base-capture" and not any_joins(op, FLEETS):
                    continue
                if variant == "strategic-bombing" and not any_joins(op, ("strategic-air",)):
                    continue
                prefix = "surprise " if surprise else ""
                options.append(f"{prefix}{label} {module.area(target).name}")
                if first:
                    return options
    return options


def _invasion_reach(game: CataclysmGame, armies: list[Unit]) -> set[str]:
    """Areas an invasion from the armies' areas could reach across one or two sea or mixed areas
    (LR 9.3.2), before any check of fleets: the path may be made of a friendly power's fleets
    alone, so a power without fleets or air units of its own may still invade."""
    graph = graph_of(game.module)
    found: set[str] = set()
    for origin in {u.area for u in armies}:
        for first in graph.naval[origin]:
            if first in graph.land_type:
                continue
            found.update(graph.naval[first])
            for second in graph.naval[first]:
                if second not in graph.land_type:
                    found.update(graph.naval[second])
    return found


def _new_op(
    power: str, kind: str, variant: str | None, target: str, surprise: bool, left: int, deployed: list[int]
) -> dict[str, Any]:
    return {
        "power": power,
        "kind": kind,
        "variant": variant,
        "target": target,
        "surprise": surprise,
        "left": left,
        "deployed": list(deployed),
        "attackers": [],
        "origins": [],
        "extended": False,
        "augment": 0,
        "limited": [],
        "support": {"attacker": [], "defender": []},
        "path": [],
        "defender": None,
        "country": False,
        "surprised": False,
    }


def parse_option(
    game: CataclysmGame, power: str, choice: str, *, left: int, deployed: list[int]
) -> dict[str, Any] | None:
    """The operation record a menu option names (``surprise land operation against X``), or None."""
    surprise = choice.startswith("surprise ")
    text = choice.removeprefix("surprise ")
    for label, (kind, variant) in KINDS.items():
        if text.startswith(label + " "):
            target = game.module.find_area(text[len(label) + 1 :])
            if target is None:
                return None
            return _new_op(power, kind, variant, target, surprise, left, deployed)
    return None


def declare(
    game: CataclysmGame, power: str, choice: str, *, left: int, deployed: list[int], only: list[str] | None
) -> None:
    """Start the operation named by a menu option (LR 9.2 step 1)."""
    op = parse_option(game, power, choice, left=left, deployed=deployed)
    if op is None:
        raise RuntimeError(f"unknown military action {choice!r}")
    op["only"] = only
    game.note(f"{power} declares a {choice} (LR 9.2)")
    game.push("op-activate", op=op)


def activation_cost(op: dict[str, Any], unit: Unit) -> int:
    """Military actions one more activated unit costs (LR 9.1: one per area of origin; invasion two)."""
    if unit.area in op["origins"]:
        return 0
    return 2 if op["variant"] == "invasion" else 1


def fits_target(game: CataclysmGame, op: dict[str, Any], unit: Unit) -> bool:
    """Activated units must fit the target's occupation limits once they have moved (LR 9.2 step 6):
    the limits of an operation's target (LR 7.1.1, 7.1.2), restricted terrain's one unit of each
    class included (LR 7.1.3)."""
    module, state = game.module, game.state
    target = op["target"]
    if module.area(target).remote:
        # LR 2.2.8 admits only the controller's units, so an attacker meets the printed limits
        caps = graph_of(module).printed_caps(target, False, True)
    else:
        caps = limits(module, state, op["power"], target, during_op=True)
    types = [u.type for u in state.units if u.id in op["attackers"]] + [unit.type]
    return all(count <= caps.get(key, 0) for key, count in tally(module, types).items())


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


def primary_defender_candidates(game: CataclysmGame, op: dict[str, Any]) -> list[str | None]:
    """Who may be the primary defender, in the order of LR 9.1.1 (None: the country itself)."""
    module, state = game.module, game.state
    target, kind = op["target"], op["kind"]
    if kind == "land" and is_country(module, state, target) and not garrisoned(game, target):
        return [None]
    wanted = "land" if kind == "land" else ("naval" if kind == "naval" else "air")
    present = sorted(
        {
            u.power
            for u in _hostile_units(game, op["power"], target, surprise=op["surprise"])
            if unit_class(game, u.type) == wanted
        }
    )
    if present:
        return list(present)
    holder = controller(module, state, target)
    if holder is not None and holder in module.powers:
        return [holder]
    for _, owner in _bases(game, target):
        if owner is not None:
            return [owner]
    return [None]


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
    unowned_base = op["variant"] == "base-capture" and any(o is None for _, o in _bases(game, target))
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
        and _opposing(game, power, other)
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
    others = {u.power for u in _hostile_units(game, power, target, surprise=True)}
    holder = controller(game.module, game.state, target)
    if op["kind"] == "land" and holder is not None and _target_power(game, power, holder, surprise=True):
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
