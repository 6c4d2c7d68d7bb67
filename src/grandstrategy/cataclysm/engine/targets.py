"""What an operation may attack and how it starts (LR 9.1, 9.3-9.5, 9.7, 9.8, 12): valid targets,
the operations menu, declaring an operation, which units may be activated and at what cost, and
who may be the primary defender.

One job: the questions an operation asks before its steps run; the steps themselves (activation,
augmentation, supply, movement, support) are in :mod:`operations`, combat in :mod:`combat`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from grandstrategy.cataclysm.engine.common import (
    garrisoned,
)
from grandstrategy.cataclysm.engine.game import CataclysmGame
from grandstrategy.cataclysm.module.schema import AreaType, Commitment, Ideology
from grandstrategy.cataclysm.module.world import Module
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
    RANGE,
    friendly_airfields,
    friendly_port_areas,
    in_op_range,
    invasion_paths,
)
from grandstrategy.cataclysm.rules.occupation import graph_of, limits, tally
from grandstrategy.cataclysm.rules.special import STRESA_FRONT
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


def opposing(game: CataclysmGame, a: str, b: str) -> bool:
    return ideology_of(game, a) is not ideology_of(game, b)


# ---- what may be attacked (LR 9.1, 9.3–9.5, 9.7, 9.8, 12) ------------------------------------


def bases_in(game: CataclysmGame, area_id: str) -> list[tuple[str, str | None]]:
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


def hostile_units(game: CataclysmGame, power: str, area_id: str, *, surprise: bool) -> list[Unit]:
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
    return [u for u in here if target_power(game, power, u.power, surprise=surprise)]


def target_power(game: CataclysmGame, power: str, other: str | None, *, surprise: bool) -> bool:
    if other is None or other == power or other not in game.state.powers:
        return False
    if not game.state.powers[other].active:
        return False
    if surprise:
        return opposing(game, power, other) and not at_war(game.state, power, other)
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
    return _valid_for(game, power, kind, variant, target, surprise, facts)


def _valid_for(
    game: CataclysmGame,
    power: str,
    kind: str,
    variant: str | None,
    target: str,
    surprise: bool,
    facts: _TargetFacts | None,
) -> bool:
    """:func:`valid_target` once the target's facts (:func:`_target_facts`) are known."""
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
            for _, owner in bases_in(game, target):
                if owner is None and not surprise:
                    if ideology_of(game, power) is not Ideology.DEMOCRACY or belligerent(state, power):
                        return True
                elif target_power(game, power, owner, surprise=surprise):
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
        if holder is None or holder not in module.powers or opposing(game, power, holder):
            # never an area a same-ideology power controls (LR 9.1)
            hostile_holder = target_power(game, power, holder, surprise=surprise)
            units = hostile_units(game, power, target, surprise=surprise)
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
    if target not in _plain_reach(module, unit):
        return None  # beyond even extended range on the bare map: no search needed
    if in_op_range(module, state, unit, target):
        return "in range"
    if in_op_range(module, state, unit, target, extended=True):
        return "extended range"
    return None


_PLAIN_REACH: dict[tuple[int, str, str, str | None], frozenset[str]] = {}
""":func:`_plain_reach` by module (its id; modules are kept alive by ``graph_of``), unit type,
area and coast."""


def _plain_reach(module: Module, unit: Unit) -> frozenset[str]:
    """Areas within the naval or air unit's extended range (LR 7.3.3) by the steps its operation
    movement may take on the bare map, whoever holds or blocks them: a superset of what
    :func:`in_op_range` admits in either range, so a target outside it needs no search. It reads
    only the map, so it is kept for the life of the module."""
    key = (id(module), unit.type, unit.area, unit.coast)
    found = _PLAIN_REACH.get(key)
    if found is None:
        graph = graph_of(module)
        naval = graph.unit_class[unit.type] == "naval"
        reached = {unit.area}
        frontier = [unit.area]
        for _ in range(RANGE.get(unit.type, 0) + 1):
            following = []
            for here in frontier:
                onward = (
                    graph.naval_from(here, unit.coast if here == unit.area else None)
                    if naval
                    else graph.air[here]
                )
                for there in onward:
                    if there not in reached:
                        reached.add(there)
                        following.append(there)
            frontier = following
        found = _PLAIN_REACH[key] = frozenset(reached)
    return found


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
    found.update(u.power for u in hostile_units(game, op["power"], op["target"], surprise=op["surprise"]))
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
    candidates = _candidate_targets(game, mine, left)
    surprise_modes = [False, True] if may_surprise(game, power) else [False]
    opposing_units = {u.area for u in state.units if opposing(game, power, u.power)}
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
        return holder is not None and holder in module.powers and opposing(game, power, holder)

    memo: dict[tuple[object, ...], Any] = {}
    joiners: dict[str, list[Unit]] = {}
    defended = _defender_sieve(game, against) if against is not None else None

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
        kind and variant, for both surprise modes. Only the units of the kind's
        :func:`_possible_joiners` are asked: :func:`activatable` refuses every other."""
        key = ("any", op["target"], op["kind"], op["variant"], types)
        found = memo.get(key)
        if found is None:
            kind = op["kind"]
            if kind not in joiners:
                joiners[kind] = _possible_joiners(game, kind, mine)
            found = memo[key] = any(joins(op, u) for u in joiners[kind] if types is None or u.type in types)
        return bool(found)

    kinds = [
        (label, kind, variant)
        for label, (kind, variant) in KINDS.items()
        if any(u.type in JOINING_TYPES[kind] for u in mine) and not (variant == "invasion" and left < 2)
    ]
    if not kinds:
        return []
    options: list[str] = []
    for target in sorted(candidates):
        if defended is not None and not defended(target):
            continue  # no power of ``against`` could be the primary defender (LR 6.2)
        if not worth_a_look(target):
            continue
        facts = [_target_facts(game, power, target, surprise, memo) for surprise in surprise_modes]
        if not any(facts):
            continue
        for label, kind, variant in kinds:
            for surprise in surprise_modes:
                if surprise and variant == "invasion":
                    continue  # LR 9.3.2: an invasion is never a surprise attack
                if not _valid_for(game, power, kind, variant, target, surprise, facts[surprise]):
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


JOINING_TYPES: dict[str, tuple[str, ...]] = {"land": ARMIES, "naval": (*FLEETS, "strategic-air"), "air": AIR}
"""The unit types :func:`activatable` lets join each kind of operation (LR 9.3-9.5)."""


def _possible_joiners(game: CataclysmGame, kind: str, mine: list[Unit]) -> list[Unit]:
    """The power's own units that :func:`activatable` could let join this kind of operation, by
    what they are and where they stand alone (LR 9.3-9.5): armies for land operations, fleets in
    friendly ports and strategic air forces at friendly airfields for naval ones, air forces at
    friendly airfields for air ones; range and target are asked later, unit by unit."""
    module, state = game.module, game.state
    if kind == "land":
        return [u for u in mine if u.type in ARMIES]
    ports: set[str] | None = None
    airfields: set[str] | None = None
    found = []
    for unit in mine:  # all of one power
        if unit.type in FLEETS and kind == "naval":
            if ports is None:
                ports = friendly_port_areas(module, state, unit.power)
            if unit.area in ports:
                found.append(unit)
        elif unit.type in JOINING_TYPES[kind]:
            if airfields is None:
                airfields = friendly_airfields(module, state, unit.power)
            if unit.area in airfields:
                found.append(unit)
    return found


def _defender_sieve(game: CataclysmGame, powers: list[str]) -> Callable[[str], bool]:
    """Whether one of ``powers`` could be the primary defender in an area
    (:func:`primary_defender_candidates`): it has units there, controls the area, or owns a base
    there (a printed one or a special British base). A cheap first sieve for the menu of the one
    operation a declaration of war gives (LR 6.2)."""
    module, state = game.module, game.state
    wanted = set(powers)
    present = {u.area for u in state.units if u.power in wanted}
    present.update(key.partition("#")[0] for key, owner in state.base_owners.items() if owner in wanted)

    def may_defend(area_id: str) -> bool:
        if area_id in present or controller(module, state, area_id) in wanted:
            return True
        special = module.area(area_id).special_base
        return special is not None and special.owner in wanted

    return may_defend


def _candidate_targets(game: CataclysmGame, mine: list[Unit], left: int) -> set[str]:
    """Every area one of ``mine`` (a power's units) could join an operation against with ``left``
    military actions, or more: its own and neighbouring areas, where a naval or air unit could
    reach on the bare map (:func:`activatable` asks no other unit of these), and with two actions
    the areas an invasion could reach."""
    module = game.module
    candidates: set[str] = set()
    for unit in mine:
        candidates.update(e.target for e in module.neighbors(unit.area))
        candidates.add(unit.area)
        if unit.type in JOINING_TYPES["naval"] or unit.type in AIR:
            candidates.update(_plain_reach(module, unit))
    if left >= 2:
        candidates.update(_invasion_reach(game, [u for u in mine if u.type in ARMIES]))
    return candidates


def could_meet(game: CataclysmGame, power: str, against: list[str]) -> bool:
    """False when no operation of one military action by ``power`` could have a power of
    ``against`` as its primary defender, whatever the wars: no area its units could join an
    operation against (:func:`_candidate_targets`) is one where such a power has units, control
    or a base (:func:`_defender_sieve`). Neither reads the wars, so a declaration of war's trial
    (LR 6.2) may be skipped when this is False; True promises nothing."""
    mine = [u for u in game.state.units if u.power == power]
    may_defend = _defender_sieve(game, against)
    return any(may_defend(area) for area in _candidate_targets(game, mine, 1))


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
            for u in hostile_units(game, op["power"], target, surprise=op["surprise"])
            if unit_class(game, u.type) == wanted
        }
    )
    if present:
        return list(present)
    holder = controller(module, state, target)
    if holder is not None and holder in module.powers:
        return [holder]
    for _, owner in bases_in(game, target):
        if owner is not None:
            return [owner]
    return [None]
