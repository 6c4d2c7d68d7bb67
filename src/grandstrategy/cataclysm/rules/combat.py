"""Combat arithmetic (LR 10.3-10.8, 10.10, 10.12): dice, modifiers, losses, retreat, excess.

Pure functions of unit type ids and flags, shared by the game engine (which gathers the facts
from the board) and by :mod:`grandstrategy.cataclysm.odds` (which enumerates every roll). Every
die and modifier :func:`combat_terms` grants is explained by one line of :attr:`Terms.reasons`
that cites its rule.

>>> germany = Side(units=("tank-army", "infantry-army", "tactical-air"), name="Germany")
>>> poland = Side(units=("minor-army",), name="Poland")
>>> terms = combat_terms("land", germany, poland)
>>> terms.attacker_dice, terms.attacker_modifier, terms.defender_dice, terms.defender_modifier
(3, 0, 1, 0)
>>> losses(7, 3), excess(2, eligible_steps("land", poland.units))
(2, True)

Unit type ids are those of the module's ``powers.yaml`` (``infantry-army``, ``tank-army``,
``fortress``, ``surface-fleet``, ``carrier-fleet``, ``submarine-pack``, ``tactical-air``,
``strategic-air``, ``logistics``) plus ``minor-army`` for a minor or Chinese army (LR 2.4.4).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from grandstrategy.cataclysm.rules.dice import combat_losses, dice_pool

CombatKind = Literal["land", "naval", "air"]
"""The three kinds of combat (LR 10.4, 10.5, 10.6)."""

Superiority = Literal["attacker", "defender"]
"""Which side holds air superiority (LR 10.3); ``None`` where a function returns it means neither."""

COMBAT_KINDS: tuple[CombatKind, ...] = ("land", "naval", "air")

LAND_UNITS = frozenset({"infantry-army", "tank-army", "fortress", "minor-army"})
"""Land units (LR 2.4.2): armies, fortresses and minor armies (Chinese armies are minor armies)."""
NAVAL_UNITS = frozenset({"surface-fleet", "carrier-fleet", "submarine-pack"})
"""Naval units (LR 2.4.2)."""
AIR_UNITS = frozenset({"tactical-air", "strategic-air"})
"""Air units (LR 2.4.2). Carrier fleets are naval units, not air units (LR 10.6)."""
FLEETS = frozenset({"surface-fleet", "carrier-fleet"})
"""Fleets in the sense of LR 10.12.2: surface and carrier fleets; a submarine pack is not a fleet."""
ARMIES = frozenset({"infantry-army", "tank-army"})
"""Armies, the land units an operation can activate (LR 9.3.1)."""
UPGRADED = frozenset({"tank-army", "carrier-fleet", "strategic-air"})
"""Upgraded units, which flip to their other side on their first loss (LR 2.4.2, 10.8)."""
DOWNGRADE = {"tank-army": "infantry-army", "carrier-fleet": "surface-fleet", "strategic-air": "tactical-air"}
"""The side an upgraded unit flips to when it takes a loss (LR 10.8)."""
UNIT_TYPES = LAND_UNITS | NAVAL_UNITS | AIR_UNITS | {"logistics"}
"""Every unit type id this module knows."""

_CLASS_OF_KIND: dict[CombatKind, frozenset[str]] = {
    "land": LAND_UNITS,
    "naval": NAVAL_UNITS,
    "air": AIR_UNITS,
}
_RULE_OF_KIND: dict[CombatKind, str] = {"land": "LR 10.4", "naval": "LR 10.5", "air": "LR 10.6"}
_PLURAL = {"land": "land units", "naval": "naval units", "air": "air units"}


def _check_type(unit_type: str) -> None:
    if unit_type not in UNIT_TYPES:
        raise ValueError(f"unknown unit type {unit_type!r}; known: {', '.join(sorted(UNIT_TYPES))}")


def _check_kind(kind: str) -> None:
    if kind not in COMBAT_KINDS:
        raise ValueError(f"unknown combat kind {kind!r}; one of land, naval, air")


@dataclass(frozen=True)
class Side:
    """One side of a combat: the units taking part and the flags that change its roll.

    ``units`` lists every unit of the side in the combat, supporting air units included (for a
    land or naval combat they decide air superiority, LR 10.3, unless ``air_after_superiority``
    gives the number left after the superiority air combat). ``augmentation``, ``extended_range``
    and ``snlf`` belong to the attacker, ``surprised`` and ``civil_war_aid`` to the defender.
    ``limited_supply`` and ``extended_range`` describe this side's units *of the combat's type*
    (its land units in a land combat, and so on; LR 9.6, 7.3.3). ``name`` is used in reasons.

    :raises ValueError: an unknown unit type, a negative augmentation or air count.
    """

    units: tuple[str, ...] = ()
    air_after_superiority: int | None = None
    augmentation: int = 0
    limited_supply: bool = False
    extended_range: bool = False
    surprised: bool = False
    purges: bool = False
    snlf: bool = False
    civil_war_aid: bool = False
    name: str = ""

    def __post_init__(self) -> None:
        object.__setattr__(self, "units", tuple(self.units))
        for unit in self.units:
            _check_type(unit)
        if self.augmentation < 0:
            raise ValueError(f"augmentation cannot be negative ({self.augmentation})")
        if self.air_after_superiority is not None and self.air_after_superiority < 0:
            raise ValueError(f"air units left cannot be negative ({self.air_after_superiority})")

    def count(self, unit_types: frozenset[str]) -> int:
        """How many of this side's units are of one of ``unit_types``."""
        return sum(1 for unit in self.units if unit in unit_types)

    def air_count(self) -> int:
        """Air units that count for air superiority: those left after the air combat, if given."""
        if self.air_after_superiority is not None:
            return self.air_after_superiority
        return self.count(AIR_UNITS)


@dataclass(frozen=True)
class Terms:
    """What each side rolls in one combat: dice and modifier, and why (one cited line each).

    A side never rolls fewer than one die; a die it would lose below one becomes -1 (LR 10.4,
    10.5 reminders; LR 2.8), already folded into the modifier here. ``air_superiority`` records
    which side got the extra die of LR 10.3, if any.
    """

    attacker_dice: int
    attacker_modifier: int
    defender_dice: int
    defender_modifier: int
    reasons: tuple[str, ...]
    air_superiority: Superiority | None = None

    def to_json(self) -> dict[str, object]:
        """Plain data for JSON output."""
        return {
            "attacker_dice": self.attacker_dice,
            "attacker_modifier": self.attacker_modifier,
            "defender_dice": self.defender_dice,
            "defender_modifier": self.defender_modifier,
            "air_superiority": self.air_superiority,
            "reasons": list(self.reasons),
        }


def air_superiority(attacker_air: int, defender_air: int) -> Superiority | None:
    """The side with more air units after the air combat has air superiority (LR 10.3).

    A side alone with air units has it without a combat; equal numbers, zero included, give it
    to neither side.

    >>> air_superiority(1, 0), air_superiority(1, 1), air_superiority(0, 2)
    ('attacker', None, 'defender')
    """
    if attacker_air < 0 or defender_air < 0:
        raise ValueError(f"air unit counts cannot be negative ({attacker_air}, {defender_air})")
    if attacker_air > defender_air:
        return "attacker"
    if defender_air > attacker_air:
        return "defender"
    return None


def _check_roles(kind: CombatKind, attacker: Side, defender: Side) -> None:
    if defender.augmentation:
        raise ValueError("only the attacker augments an operation (LR 8.2)")
    if defender.extended_range:
        raise ValueError("only the attacker's units can be at extended range (LR 7.3.3)")
    if defender.snlf:
        raise ValueError("SNLF helps only the attacking Japanese armies of an invasion (LR 12.1.3)")
    if attacker.surprised:
        raise ValueError("only the defender can be surprised (LR 9.8)")
    if attacker.civil_war_aid or (defender.civil_war_aid and kind != "land"):
        raise ValueError("civil war aid adds a die only to a defending country in land combat (LR 9.7.1)")


def combat_terms(
    kind: CombatKind,
    attacker: Side,
    defender: Side,
    *,
    defender_terrain: bool = False,
    adverse_terrain: bool = False,
    fortress: bool = False,
    strategic_bombing: bool = False,
) -> Terms:
    """Dice and modifiers of both sides in one land, naval or air combat (LR 10.3-10.6).

    Dice (LR 10.4 step 1, 10.5 step 1, 10.6): two each; in a land or naval combat one for a side
    with no land (naval) units; in strategic bombing one for a defender with no air units
    (intrinsic defence, LR 9.5.2). Then +1 die for air superiority (LR 10.3, land and naval), +1
    die for a defending civil-war country or Chinese army whose aid is spent (LR 9.7.1, 10.4), and
    -1 die when the other side has armour superiority (more tank armies, never in adverse
    terrain, LR 10.4) or carrier superiority (more carrier fleets, LR 10.5).

    Modifiers: attacker +1 per augmentation (LR 8.2); attacker -1 at extended range (land: an
    invasion at extended range, LR 9.3.2; naval and air: LR 7.3.3); -1 for a side in limited
    supply (LR 9.6); defender -1 if surprised (LR 9.8); -1 for a side under Political Purges
    (LR 12.3); in land combat only (the flag is ignored in the operation's other combats),
    attacker +1 for SNLF (LR 12.1.3); in land combat, defender +1 for adverse terrain,
    a strait or an invasion, once however many apply (``defender_terrain``), and +1 for a fortress
    in the target area (``fortress``, or a fortress among the defender's units).

    ``adverse_terrain`` implies ``defender_terrain`` and cancels armour superiority.

    :raises ValueError: an unknown kind; a flag on the wrong side or in the wrong kind of combat
        (e.g. terrain outside land combat, a surprised attacker, strategic bombing outside air
        combat); an air combat with a side that has no air units, other than the defender in
        strategic bombing.
    """
    _check_kind(kind)
    _check_roles(kind, attacker, defender)
    if kind != "land" and (defender_terrain or adverse_terrain or fortress):
        raise ValueError("terrain, straits, invasions and fortresses matter only in land combat (LR 10.4)")
    if strategic_bombing and kind != "air":
        raise ValueError("strategic bombing is an air combat (LR 9.5.2)")
    a_name = attacker.name or "attacker"
    d_name = defender.name or "defender"
    reasons: list[str] = []
    own = _CLASS_OF_KIND[kind]
    rule = _RULE_OF_KIND[kind]

    # Dice gained (base, air superiority, aid) and lost (armour or carrier superiority).
    gained: dict[str, int] = {}
    for role, side, name in (("attacker", attacker, a_name), ("defender", defender, d_name)):
        present = side.count(own)
        if kind == "air" and not present:
            if role == "defender" and strategic_bombing:
                gained[role] = 1
                reasons.append(f"{name} 1 die: intrinsic air defence, no air units (LR 9.5.2, {rule})")
                continue
            raise ValueError(
                f"the {role} has no air units in an air combat; only a defender against strategic "
                "bombing may (LR 9.5.2)"
            )
        if present:
            gained[role] = 2
            reasons.append(f"{name} 2 dice: has {_PLURAL[kind]} ({rule})")
        else:
            gained[role] = 1
            reasons.append(f"{name} 1 die: no {_PLURAL[kind]} ({rule})")

    superiority: Superiority | None = None
    if kind != "air":
        superiority = air_superiority(attacker.air_count(), defender.air_count())
        if superiority is not None:
            gained[superiority] += 1
            name = a_name if superiority == "attacker" else d_name
            reasons.append(f"{name} +1 die: air superiority (LR 10.3)")
    if defender.civil_war_aid:
        gained["defender"] += 1
        reasons.append(f"{d_name} +1 die: civil war aid spent (LR 9.7.1, 10.4)")

    lost = {"attacker": 0, "defender": 0}
    if kind in ("land", "naval"):
        big = "tank-army" if kind == "land" else "carrier-fleet"
        what, plural = ("armour", "tank armies") if kind == "land" else ("carrier", "carrier fleets")
        a_big, d_big = attacker.count(frozenset({big})), defender.count(frozenset({big}))
        if a_big != d_big:
            if kind == "land" and adverse_terrain:
                reasons.append("no armour superiority in adverse terrain (LR 2.3.1, 10.4)")
            else:
                holder, loser = ("attacker", "defender") if a_big > d_big else ("defender", "attacker")
                lost[loser] = 1
                holder_name = a_name if holder == "attacker" else d_name
                loser_name = a_name if loser == "attacker" else d_name
                reasons.append(
                    f"{loser_name} -1 die: {holder_name} has {what} superiority, "
                    f"{plural} {max(a_big, d_big)} to {min(a_big, d_big)} ({rule})"
                )

    pools: dict[str, tuple[int, int]] = {}
    for role, name in (("attacker", a_name), ("defender", d_name)):
        dice, short = dice_pool(gained[role], lost[role])
        pools[role] = (dice, short)
        if short:
            reasons.append(f"{name} {short}: rolls its last die instead of losing it (LR 2.8, {rule})")

    # Modifiers to the combat score.
    mods = {"attacker": 0, "defender": 0}

    def add(role: str, value: int, text: str) -> None:
        mods[role] += value
        name = a_name if role == "attacker" else d_name
        reasons.append(f"{name} {value:+d}: {text}")

    if attacker.augmentation:
        add("attacker", attacker.augmentation, f"{attacker.augmentation} augmentation (LR 8.2)")
    if attacker.extended_range:
        why = (
            "invasion at extended range (LR 9.3.2, 10.4)"
            if kind == "land"
            else f"extended range (LR 7.3.3, {rule})"
        )
        add("attacker", -1, why)
    for role, side in (("attacker", attacker), ("defender", defender)):
        if side.limited_supply:
            add(role, -1, f"limited supply (LR 9.6, {rule})")
    if kind == "land":
        if attacker.snlf:
            add("attacker", 1, "Special Naval Landing Forces (LR 12.1.3)")
        if defender_terrain or adverse_terrain:
            add("defender", 1, "adverse terrain, strait or invasion, counted once (LR 10.4)")
        if fortress or "fortress" in defender.units:
            add("defender", 1, "fortress in the target area (LR 10.4)")
    if defender.surprised:
        add("defender", -1, "surprised (LR 9.8)")
    for role, side in (("attacker", attacker), ("defender", defender)):
        if side.purges:
            add(role, -1, "Political Purges (LR 12.3)")

    return Terms(
        attacker_dice=pools["attacker"][0],
        attacker_modifier=pools["attacker"][1] + mods["attacker"],
        defender_dice=pools["defender"][0],
        defender_modifier=pools["defender"][1] + mods["defender"],
        reasons=tuple(reasons),
        air_superiority=superiority,
    )


def losses(winner_score: int, loser_score: int) -> int:
    """Losses of the loser: the winner's score over the loser's, fractions dropped (LR 10.7).

    On a tie (equal scores) this is 1, the loss each side takes.

    >>> losses(7, 2), losses(5, 2), losses(5, 3), losses(7, 1), losses(4, 4)
    (3, 2, 1, 7, 1)

    :raises ValueError: a score below 1, or the winner's below the loser's.
    """
    return combat_losses(winner_score, loser_score)


def steps(unit_type: str) -> int:
    """Losses one unit can absorb (LR 10.8): 2 for an upgraded unit (it flips, then dies), else 1.

    A logistics unit absorbs none: it takes no part in combat (LR 7.1.4).

    >>> steps("carrier-fleet"), steps("minor-army"), steps("logistics")
    (2, 1, 0)
    """
    _check_type(unit_type)
    if unit_type == "logistics":
        return 0
    return 2 if unit_type in UPGRADED else 1


def eligible(kind: CombatKind, unit_type: str) -> bool:
    """Whether a unit of this type can take losses in this kind of combat (LR 10.4-10.6, 10.8).

    Only land units in land combat, naval units in naval combat and air units in air combat;
    carrier fleets are naval units (LR 10.6); logistics units never (LR 7.1.4).

    >>> eligible("naval", "carrier-fleet"), eligible("air", "carrier-fleet"), eligible("land", "fortress")
    (True, False, True)
    """
    _check_kind(kind)
    _check_type(unit_type)
    return unit_type in _CLASS_OF_KIND[kind]


def eligible_steps(kind: CombatKind, units: Sequence[str]) -> int:
    """Total losses the units eligible in this kind of combat can absorb (LR 10.8)."""
    return sum(steps(unit) for unit in units if eligible(kind, unit))


def may_retreat_voluntarily(losses: int, eligible_steps: int, tie: bool) -> bool:
    """Whether the loser may declare a voluntary retreat to take one loss fewer (LR 10.7, 10.10).

    Never on a tie, and never when the losses left after the retreat would still destroy every
    eligible unit. A side with nothing eligible (e.g. intrinsic air defence, LR 9.5.2) can
    therefore never retreat.

    >>> may_retreat_voluntarily(1, 1, tie=False), may_retreat_voluntarily(3, 2, tie=False)
    (True, False)
    """
    if tie or losses < 1:
        return False
    return losses - 1 < eligible_steps


def excess(losses: int, eligible_steps: int) -> bool:
    """Whether the losses are more than the loser's eligible units can absorb (LR 10.12, 9.5.2).

    LR 10.7 checks this after any voluntary retreat; the answer is the same with or without
    one, since a retreat is allowed only when the losses left after it, and so also the losses
    before it, fit (losses - 1 < steps means losses <= steps).
    """
    return losses > eligible_steps


def triumph_possible(kind: CombatKind, winner_units: Sequence[str], loser_units: Sequence[str]) -> bool:
    """Whether this combat can end in a triumph and disaster at all (LR 10.12.1, 10.12.2).

    Land: both sides have a land unit. Naval: the loser has a fleet (a surface or carrier fleet;
    a submarine pack is not a fleet). Air combat never.
    """
    _check_kind(kind)
    if kind == "land":
        return any(u in LAND_UNITS for u in winner_units) and any(u in LAND_UNITS for u in loser_units)
    if kind == "naval":
        return any(u in FLEETS for u in loser_units)
    return False


def disaster_tests_stability(kind: CombatKind, loser_units: Sequence[str]) -> bool:
    """Whether a disaster makes a losing power test its stability (LR 10.12, 10.12.1).

    Only powers with a land or naval unit in the combat test; a lone minor army belongs to no
    power, so its disaster brings no test (the winner still gains its flag).
    """
    _check_kind(kind)
    if kind == "land":
        return any(u in LAND_UNITS and u != "minor-army" for u in loser_units)
    return kind == "naval" and any(u in NAVAL_UNITS for u in loser_units)


def surviving_units(units: Sequence[str], losses: int) -> tuple[str, ...]:
    """The units left after ``losses`` under the policy that keeps the most units (LR 10.8).

    Each loss flips an upgraded unit while there is one (which also meets the rule that one loss
    must flip an upgraded unit if possible), then destroys non-upgraded units from the end of
    the list. The caller passes only the units eligible for these losses.

    >>> surviving_units(("strategic-air", "tactical-air"), 2)
    ('tactical-air',)
    """
    if losses < 0:
        raise ValueError(f"losses cannot be negative ({losses})")
    left = list(units)
    for unit in left:
        _check_type(unit)
    for _ in range(losses):
        flip = next((i for i, unit in enumerate(left) if unit in UPGRADED), None)
        if flip is not None:
            left[flip] = DOWNGRADE[left[flip]]
        elif left:
            left.pop()
        else:
            break
    return tuple(left)


__all__ = [
    "AIR_UNITS",
    "ARMIES",
    "COMBAT_KINDS",
    "FLEETS",
    "LAND_UNITS",
    "NAVAL_UNITS",
    "UNIT_TYPES",
    "UPGRADED",
    "CombatKind",
    "Side",
    "Superiority",
    "Terms",
    "air_superiority",
    "combat_terms",
    "disaster_tests_stability",
    "eligible",
    "eligible_steps",
    "excess",
    "losses",
    "may_retreat_voluntarily",
    "steps",
    "surviving_units",
    "triumph_possible",
]
