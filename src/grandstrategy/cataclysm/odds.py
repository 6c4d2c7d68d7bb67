"""Exact odds of a described Cataclysm combat (LR 10.1-10.12), and a seeded simulator to check them.

A :class:`Situation` says who fights whom: the kind of combat, each side's units, the air units
of the air-superiority combat, and the flags that change a roll. :func:`situation_odds`
enumerates every die result with :class:`~fractions.Fraction` probabilities, nothing sampled:

1. In a land or naval combat where both sides have air units, the air combat that decides air
   superiority (LR 10.3, 10.6). Its loser keeps as many air units as it can: each loss flips an
   upgraded air unit while there is one, then destroys one, and it never retreats (a retreat
   would take all its air units out and hand superiority to the other side). A tie costs each
   side one loss. Superiority goes to the side with more air units left.
2. The main combat, with the dice and modifiers of :func:`~.rules.combat.combat_terms` for each
   superiority outcome, its losses (LR 10.7) and triumphs and disasters (LR 10.12).

:func:`simulate_situation` plays the same situation die by die with the seeded
:class:`~grandstrategy.core.rng.Rng`; the tests hold the exact answers against it. The text
format is described in ``docs/cataclysm-odds.md``.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Annotated, Any, Literal

import numpy as np
from numpy.typing import NDArray
from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    StrictBool,
    StrictInt,
    StrictStr,
    ValidationError,
    model_validator,
)

from grandstrategy.cataclysm.rules.combat import (
    AIR_UNITS,
    ARMIES,
    FLEETS,
    LAND_UNITS,
    NAVAL_UNITS,
    CombatKind,
    Side,
    Superiority,
    Terms,
    air_superiority,
    combat_terms,
    disaster_tests_stability,
    eligible_steps,
    excess,
    losses,
    may_retreat_voluntarily,
    surviving_units,
    triumph_possible,
)
from grandstrategy.cataclysm.rules.dice import result_distribution
from grandstrategy.core.errors import UserInputError, quoted
from grandstrategy.core.files import parse_json
from grandstrategy.core.rng import Rng

METHOD = "exact enumeration"
MAX_UNITS = 12
"""Longest unit list a situation accepts (far above any occupation limit, LR 7.1)."""

UnitTypeId = Literal[
    "infantry-army",
    "tank-army",
    "fortress",
    "minor-army",
    "surface-fleet",
    "carrier-fleet",
    "submarine-pack",
    "tactical-air",
    "strategic-air",
    "logistics",
]
AirTypeId = Literal["tactical-air", "strategic-air"]

POLICIES = (
    "superiority air combat: the loser keeps as many air units as it can (each loss flips an "
    "upgraded air unit while there is one, then destroys one) and does not retreat (LR 10.3, 10.8)",
    "excess losses (LR 10.12) do not depend on a voluntary retreat: one is allowed only when the "
    "losses would fit anyway (LR 10.7)",
    "losses are those the combat inflicts (LR 10.7), before any voluntary retreat",
)


class SideSituation(BaseModel):
    """One side of a :class:`Situation`."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    name: Annotated[StrictStr, Field(max_length=40)] = ""
    units: Annotated[tuple[UnitTypeId, ...], Field(max_length=MAX_UNITS)] = ()
    air: Annotated[tuple[AirTypeId, ...], Field(max_length=MAX_UNITS)] = ()
    augmentation: Annotated[StrictInt, Field(ge=0, le=10)] = 0
    limited_supply: StrictBool = False
    air_limited_supply: StrictBool = False
    extended_range: StrictBool = False
    air_extended_range: StrictBool = False
    surprised: StrictBool = False
    purges: StrictBool = False
    snlf: StrictBool = False
    civil_war_aid: StrictBool = False

    def label(self, role: str) -> str:
        """The side's name, or its role when it has none."""
        return self.name or role


class Situation(BaseModel):
    """A combat to give odds for: its kind, both sides, and the facts of the target area.

    ``units`` are the units of the combat's type (for an air combat, the air units); ``air`` the
    air units of each side in the air-superiority combat of a land or naval combat.
    ``limited_supply`` and ``extended_range`` describe a side's ``units``; ``air_limited_supply``
    and ``air_extended_range`` its ``air`` (LR 9.6, 7.3.3). Augmentation, surprise and purges
    apply to every combat of the operation, the superiority air combat included (LR 8.2, 9.8,
    12.3).
    """

    model_config = ConfigDict(extra="forbid", frozen=True)

    combat: Literal["land", "naval", "air"]
    strategic_bombing: StrictBool = False
    attacker: SideSituation
    defender: SideSituation
    adverse_terrain: StrictBool = False
    strait: StrictBool = False
    invasion: StrictBool = False
    fortress: StrictBool = False

    @model_validator(mode="after")
    def _consistent(self) -> Situation:
        problem = _problem(self)
        if problem is not None:
            raise ValueError(problem)
        return self


_UNIT_CLASS = {"land": LAND_UNITS, "naval": NAVAL_UNITS, "air": AIR_UNITS}


def _problem(s: Situation) -> str | None:
    """The first thing that makes a situation impossible under the rules, naming its field."""
    a, d = s.attacker, s.defender
    if s.strategic_bombing and s.combat != "air":
        return "strategic_bombing: strategic bombing is an air combat (LR 9.5.2); set combat to air"
    if s.combat != "land":
        for flag in ("adverse_terrain", "strait", "invasion", "fortress"):
            if getattr(s, flag):
                return f"{flag}: matters only in land combat (LR 10.4)"
    if d.augmentation:
        return "defender.augmentation: only the attacker augments an operation (LR 8.2)"
    for flag in ("extended_range", "air_extended_range"):
        if getattr(d, flag):
            return f"defender.{flag}: only the attacker's units operate at extended range (LR 7.3.3)"
    if d.snlf:
        return "defender.snlf: SNLF helps Japanese armies in their own invasions (LR 12.1.3)"
    if a.surprised:
        return "attacker.surprised: only the defender can be surprised (LR 9.8)"
    if a.civil_war_aid:
        return "attacker.civil_war_aid: aid helps a defending country or Chinese army (LR 9.7.1)"
    if a.snlf and not (s.combat == "land" and s.invasion):
        return "attacker.snlf: applies only in the land combat of an invasion (LR 12.1.3); set invasion"
    if d.civil_war_aid and s.combat != "land":
        return "defender.civil_war_aid: adds a die only in land combat (LR 9.7.1, 10.4)"
    if d.surprised and s.invasion:
        return "defender.surprised: an invasion is never a surprise attack (LR 9.3.2)"
    if s.combat == "land" and a.extended_range and not s.invasion:
        return "attacker.extended_range: in land combat only an invasion is at extended range (LR 9.3.2)"
    own = _UNIT_CLASS[s.combat]
    for role, side in (("attacker", a), ("defender", d)):
        for unit in side.units:
            if unit in own:
                continue
            if unit == "logistics":
                return f"{role}.units: logistics units take no part in combat (LR 7.1.4); leave them out"
            if unit in AIR_UNITS:
                return f"{role}.units: list air units ({unit}) under {role}.air in a {s.combat} combat"
            return f"{role}.units: {unit} takes no part in {s.combat} combat (LR 10.4-10.6)"
        if s.combat == "air":
            if side.air:
                return (
                    f"{role}.air: is for the air-superiority combat of a land or naval combat; "
                    f"in an air combat list the air units under {role}.units"
                )
            for flag in ("air_limited_supply", "air_extended_range"):
                if getattr(side, flag):
                    return f"{role}.{flag}: in an air combat use {flag.removeprefix('air_')}"
        elif not side.air:
            for flag in ("air_limited_supply", "air_extended_range"):
                if getattr(side, flag):
                    return f"{role}.{flag}: the {role} has no air units"
    if s.combat == "land":
        for unit in a.units:
            if unit in ("minor-army", "fortress"):
                return f"attacker.units: a {unit} never attacks (LR 2.4.4, 8.4.1, 9.3.1)"
        if not any(unit in ARMIES for unit in a.units):
            return "attacker.units: a land operation needs at least one army (LR 9.3.1)"
    elif s.combat == "naval":
        if "submarine-pack" in a.units:
            return "attacker.units: submarine packs never attack or support (LR 9.4.1, 10.2)"
        if not any(u in FLEETS for u in a.units) and "strategic-air" not in a.air:
            return "attacker: a naval operation activates a fleet or a strategic air force (LR 9.4.1)"
        if not d.units and not d.air:
            return "defender: has no naval or air units, so there is no combat (a base is captured, LR 9.4.2)"
    else:
        if not a.units:
            return "attacker.units: an air combat needs at least one attacking air unit (LR 9.5)"
        if s.strategic_bombing and "strategic-air" not in a.units:
            return "attacker.units: strategic bombing needs a strategic air force (LR 9.5.2)"
        if not s.strategic_bombing and not d.units:
            return (
                "defender.units: an air operation targets enemy air units (LR 9.5.1); "
                "set strategic_bombing to bomb a resource"
            )
    return None


def _path(loc: tuple[int | str, ...]) -> str:
    text = ""
    for part in loc:
        text += f"[{part}]" if isinstance(part, int) else (f".{part}" if text else str(part))
    return text


def parse_situation(data: Any, source: str = "situation") -> Situation:
    """Validate decoded JSON as a :class:`Situation`.

    :raises UserInputError: one line naming the first bad field (and how many more there are).
    """
    try:
        return Situation.model_validate(data)
    except ValidationError as error:
        problems = error.errors(include_url=False)
        first = problems[0]
        loc = tuple(first["loc"])
        path = _path(loc)
        kind = first["type"]
        if not isinstance(data, dict) and not loc:
            message = "must be a JSON object with combat, attacker and defender"
        elif kind == "extra_forbidden":
            model: type[BaseModel] = Situation if len(loc) == 1 else SideSituation
            message = f"{path}: unknown key; known keys: {', '.join(model.model_fields)}"
        elif kind == "missing":
            message = f"{path}: missing (required)"
        elif kind == "value_error" and not loc:
            message = str(first["msg"]).removeprefix("Value error, ")
        else:
            message = f"{path}: {first['msg']}, not {quoted(first.get('input'))}"
        more = len(problems) - 1
        if more:
            message += f" (and {more} more problem{'s' if more > 1 else ''})"
        raise UserInputError(f"{source}: {message}") from None


def load_situation(text: str, source: str = "situation") -> Situation:
    """Read a :class:`Situation` from JSON text.

    The JSON is read strictly (:func:`~grandstrategy.core.files.parse_json`: bounded nesting
    and numbers, no repeated keys).

    :raises UserInputError: the text is not such JSON, or not a valid situation (one line).
    """
    return parse_situation(parse_json(text, source), source)


@dataclass(frozen=True)
class AirCombat:
    """The air combat that decided air superiority (LR 10.3), when both sides had air units."""

    terms: Terms
    attacker_wins: Fraction
    defender_wins: Fraction
    tie: Fraction


@dataclass(frozen=True)
class Case:
    """One air-superiority outcome: its probability, the main combat's terms and results given it."""

    air_superiority: Superiority | None
    probability: Fraction
    terms: Terms
    attacker_wins: Fraction
    defender_wins: Fraction
    tie: Fraction


@dataclass(frozen=True)
class SituationOdds:
    """Exact odds of a situation's combat (LR 10.3-10.12).

    ``attacker_losses`` and ``defender_losses`` map the losses the combat inflicts on that side
    (0 when it wins, 1 each on a tie, before any voluntary retreat) to their probabilities.
    ``attacker_triumph`` is the chance the attacker wins a triumph, which is the defender's
    disaster; ``defender_triumph`` the reverse. ``*_stability_test`` is the chance that side's
    powers must test stability after a disaster (not for a lone minor army, LR 10.12.1).
    ``retreat_allowed`` is the chance that the loser may declare a voluntary retreat (LR 10.7).
    ``resource_damaged`` is set for strategic bombing only (LR 9.5.2).
    """

    situation: Situation
    attacker_wins: Fraction
    defender_wins: Fraction
    tie: Fraction
    attacker_losses: dict[int, Fraction]
    defender_losses: dict[int, Fraction]
    attacker_triumph: Fraction
    defender_triumph: Fraction
    attacker_stability_test: Fraction
    defender_stability_test: Fraction
    retreat_allowed: Fraction
    resource_damaged: Fraction | None
    air_superiority: dict[str, Fraction]
    air_combat: AirCombat | None
    cases: tuple[Case, ...]
    method: str = METHOD

    @property
    def triumph(self) -> Fraction:
        """The attacker's chance of a triumph (the defender's disaster)."""
        return self.attacker_triumph

    @property
    def disaster(self) -> Fraction:
        """The attacker's chance of a disaster (the defender's triumph)."""
        return self.defender_triumph

    def to_json(self) -> dict[str, Any]:
        """Plain data: floats for reading, exact fractions under ``exact``."""

        def dist(table: dict[int, Fraction]) -> dict[str, float]:
            return {str(k): float(v) for k, v in table.items()}

        s = self.situation
        out: dict[str, Any] = {
            "method": self.method,
            "note": "every die result enumerated with exact fractions, nothing sampled",
            "combat": s.combat,
            "strategic_bombing": s.strategic_bombing,
            "attacker": s.attacker.label("attacker"),
            "defender": s.defender.label("defender"),
            "attacker_wins": float(self.attacker_wins),
            "defender_wins": float(self.defender_wins),
            "tie": float(self.tie),
            "attacker_losses": dist(self.attacker_losses),
            "defender_losses": dist(self.defender_losses),
            "triumph": {"attacker": float(self.attacker_triumph), "defender": float(self.defender_triumph)},
            "disaster": {"attacker": float(self.defender_triumph), "defender": float(self.attacker_triumph)},
            "stability_test": {
                "attacker": float(self.attacker_stability_test),
                "defender": float(self.defender_stability_test),
            },
            "retreat_allowed": float(self.retreat_allowed),
        }
        if self.resource_damaged is not None:
            out["resource_damaged"] = float(self.resource_damaged)
        if s.combat != "air":
            out["air_superiority"] = {k: float(v) for k, v in self.air_superiority.items()}
        out["air_combat"] = (
            None
            if self.air_combat is None
            else {
                "attacker_wins": float(self.air_combat.attacker_wins),
                "defender_wins": float(self.air_combat.defender_wins),
                "tie": float(self.air_combat.tie),
                "terms": self.air_combat.terms.to_json(),
            }
        )
        out["cases"] = [
            {
                "air_superiority": case.air_superiority,
                "probability": float(case.probability),
                "attacker_wins": float(case.attacker_wins),
                "defender_wins": float(case.defender_wins),
                "tie": float(case.tie),
                "terms": case.terms.to_json(),
            }
            for case in self.cases
        ]
        out["policies"] = list(POLICIES)
        out["exact"] = {
            "attacker_wins": str(self.attacker_wins),
            "defender_wins": str(self.defender_wins),
            "tie": str(self.tie),
            "triumph": str(self.attacker_triumph),
            "disaster": str(self.defender_triumph),
        }
        return out


def _main_side(side: SideSituation, role: str, air_left: int | None) -> Side:
    return Side(
        units=tuple(side.units) + tuple(side.air),
        air_after_superiority=air_left,
        augmentation=side.augmentation,
        limited_supply=side.limited_supply,
        extended_range=side.extended_range,
        surprised=side.surprised,
        purges=side.purges,
        snlf=side.snlf,
        civil_war_aid=side.civil_war_aid,
        name=side.label(role),
    )


def _air_side(side: SideSituation, role: str) -> Side:
    """The side in the air-superiority combat: its air units, their supply and range (LR 10.6)."""
    return Side(
        units=tuple(side.air),
        augmentation=side.augmentation,
        limited_supply=side.air_limited_supply,
        extended_range=side.air_extended_range,
        surprised=side.surprised,
        purges=side.purges,
        name=side.label(role),
    )


def main_terms(situation: Situation, attacker_air: int | None, defender_air: int | None) -> Terms:
    """Terms of the situation's main combat, given the air units left after the superiority combat."""
    s = situation
    return combat_terms(
        s.combat,
        _main_side(s.attacker, "attacker", attacker_air),
        _main_side(s.defender, "defender", defender_air),
        defender_terrain=s.adverse_terrain or s.strait or s.invasion,
        adverse_terrain=s.adverse_terrain,
        fortress=s.fortress,
        strategic_bombing=s.strategic_bombing,
    )


def air_terms(situation: Situation) -> Terms | None:
    """Terms of the air-superiority combat, or ``None`` when at most one side has air units."""
    s = situation
    if s.combat == "air" or not s.attacker.air or not s.defender.air:
        return None
    return combat_terms("air", _air_side(s.attacker, "attacker"), _air_side(s.defender, "defender"))


def _air_left(units: tuple[str, ...], lost: int) -> int:
    """Air units left when each loss flips an upgraded unit while there is one, then kills one."""
    upgraded = sum(1 for unit in units if unit == "strategic-air")
    return max(0, len(units) - max(0, lost - upgraded))


def _superiority(
    s: Situation,
) -> tuple[dict[Superiority | None, tuple[Fraction, int, int]], AirCombat | None]:
    """Probability of each superiority outcome, with one pair of air counts that produces it."""
    a_air, d_air = tuple(s.attacker.air), tuple(s.defender.air)
    terms = air_terms(s)
    if terms is None:
        return {air_superiority(len(a_air), len(d_air)): (Fraction(1), len(a_air), len(d_air))}, None
    outcomes: dict[Superiority | None, tuple[Fraction, int, int]] = {}
    wins = defeats = ties = Fraction(0)
    attack = result_distribution(terms.attacker_dice, terms.attacker_modifier)
    defend = result_distribution(terms.defender_dice, terms.defender_modifier)
    for a, pa in attack.items():
        for d, pd in defend.items():
            p = pa * pd
            if a > d:
                wins += p
                left = (len(a_air), _air_left(d_air, losses(a, d)))
            elif d > a:
                defeats += p
                left = (_air_left(a_air, losses(d, a)), len(d_air))
            else:
                ties += p
                left = (_air_left(a_air, 1), _air_left(d_air, 1))
            key = air_superiority(*left)
            before = outcomes.get(key)
            outcomes[key] = (p + before[0], before[1], before[2]) if before else (p, left[0], left[1])
    return outcomes, AirCombat(terms, wins, defeats, ties)


def _may_retreat_at_all(s: Situation) -> tuple[bool, bool]:
    """Whether each side has a unit that could retreat: minor armies never move (LR 2.4.4), and a
    bombed defender defending with its intrinsic die alone may not retreat (LR 9.5.2)."""
    a_mobile = any(u != "minor-army" for u in s.attacker.units)
    d_mobile = any(u != "minor-army" for u in s.defender.units)
    if s.strategic_bombing and not s.defender.units:
        d_mobile = False
    return a_mobile, d_mobile


def situation_odds(situation: Situation) -> SituationOdds:
    """Enumerate the situation's combat exactly (LR 10.3-10.12); see the module docstring."""
    s = situation
    kind: CombatKind = s.combat
    a_units, d_units = tuple(s.attacker.units), tuple(s.defender.units)
    a_steps, d_steps = eligible_steps(kind, a_units), eligible_steps(kind, d_units)
    a_can = triumph_possible(kind, a_units, d_units)  # the attacker can triumph
    d_can = triumph_possible(kind, d_units, a_units)
    a_tests = disaster_tests_stability(kind, a_units)
    d_tests = disaster_tests_stability(kind, d_units)
    bombing = s.strategic_bombing

    if kind == "air":
        split: dict[Superiority | None, tuple[Fraction, int | None, int | None]] = {
            None: (Fraction(1), None, None)
        }
        air_combat = None
    else:
        sup, air_combat = _superiority(s)
        split = {key: value for key, value in sup.items()}

    a_mobile, d_mobile = _may_retreat_at_all(s)
    zero = Fraction(0)
    wins = defeats = ties = a_triumph = d_triumph = a_test = d_test = retreat = damaged = zero
    a_loss: dict[int, Fraction] = {}
    d_loss: dict[int, Fraction] = {}
    cases: list[Case] = []
    order: tuple[Superiority | None, ...] = ("attacker", None, "defender")
    for key in sorted(split, key=order.index):
        weight, a_air, d_air = split[key]
        terms = main_terms(s, a_air, d_air)
        attack = result_distribution(terms.attacker_dice, terms.attacker_modifier)
        defend = result_distribution(terms.defender_dice, terms.defender_modifier)
        c_wins = c_defeats = c_ties = zero
        for a, pa in attack.items():
            for d, pd in defend.items():
                p = pa * pd
                w = weight * p
                if a > d:
                    c_wins += p
                    n = losses(a, d)
                    a_loss[0] = a_loss.get(0, zero) + w
                    d_loss[n] = d_loss.get(n, zero) + w
                    if excess(n, d_steps):
                        if a_can:
                            a_triumph += w
                            if d_tests:
                                d_test += w
                        if bombing:
                            damaged += w
                    if d_mobile and may_retreat_voluntarily(n, d_steps, tie=False):
                        retreat += w
                elif d > a:
                    c_defeats += p
                    n = losses(d, a)
                    d_loss[0] = d_loss.get(0, zero) + w
                    a_loss[n] = a_loss.get(n, zero) + w
                    if excess(n, a_steps) and d_can:
                        d_triumph += w
                        if a_tests:
                            a_test += w
                    if a_mobile and may_retreat_voluntarily(n, a_steps, tie=False):
                        retreat += w
                else:
                    c_ties += p
                    a_loss[1] = a_loss.get(1, zero) + w
                    d_loss[1] = d_loss.get(1, zero) + w
                    if bombing and excess(1, d_steps):
                        damaged += w
        wins += weight * c_wins
        defeats += weight * c_defeats
        ties += weight * c_ties
        cases.append(Case(key, weight, terms, c_wins, c_defeats, c_ties))

    superiority: dict[str, Fraction] = {}
    if kind != "air":
        superiority = {
            "attacker": split.get("attacker", (zero, 0, 0))[0],
            "none": split.get(None, (zero, 0, 0))[0],
            "defender": split.get("defender", (zero, 0, 0))[0],
        }
    return SituationOdds(
        situation=s,
        attacker_wins=wins,
        defender_wins=defeats,
        tie=ties,
        attacker_losses=dict(sorted(a_loss.items())),
        defender_losses=dict(sorted(d_loss.items())),
        attacker_triumph=a_triumph,
        defender_triumph=d_triumph,
        attacker_stability_test=a_test,
        defender_stability_test=d_test,
        retreat_allowed=retreat,
        resource_damaged=damaged if bombing else None,
        air_superiority=superiority,
        air_combat=air_combat,
        cases=tuple(cases),
    )


# --------------------------------------------------------------------------------------------
# Seeded simulation, die by die, to check the enumeration (used by the tests).

_DICE_PER_DRAW = 22
_DRAW = 6**_DICE_PER_DRAW  # < 2**57: one unbiased draw gives 22 independent dice


def roll_dice(rng: Rng, count: int) -> NDArray[np.int64]:
    """``count`` fair dice (1-6) from the seeded generator, 22 dice per unbiased draw."""
    draws = -(-count // _DICE_PER_DRAW)
    raw = np.array([rng.below(_DRAW) for _ in range(draws)], dtype=np.uint64)
    out = np.empty((draws, _DICE_PER_DRAW), dtype=np.int64)
    for column in range(_DICE_PER_DRAW):
        out[:, column] = (raw % np.uint64(6)).astype(np.int64)
        raw //= np.uint64(6)
    return out.reshape(-1)[:count] + 1


def roll_scores(rng: Rng, dice: NDArray[np.int64], modifiers: NDArray[np.int64]) -> NDArray[np.int64]:
    """One modified result per trial (LR 2.8): highest die, +1 per extra six, +modifier, at least 1."""
    trials = len(dice)
    most = int(dice.max())
    rolls = roll_dice(rng, trials * most).reshape(trials, most)
    rolls = np.where(np.arange(most)[None, :] < dice[:, None], rolls, 0)
    sixes = (rolls == 6).sum(axis=1)
    natural = np.where(sixes > 0, 5 + sixes, rolls.max(axis=1))
    scores: NDArray[np.int64] = np.maximum(1, natural + modifiers).astype(np.int64)
    return scores


@dataclass(frozen=True)
class SimulatedOdds:
    """Frequencies from :func:`simulate_situation`, named like :class:`SituationOdds`."""

    trials: int
    seed: int
    attacker_wins: float
    defender_wins: float
    tie: float
    attacker_losses: dict[int, float]
    defender_losses: dict[int, float]
    attacker_triumph: float
    defender_triumph: float
    attacker_stability_test: float
    defender_stability_test: float
    retreat_allowed: float
    resource_damaged: float | None
    air_superiority: dict[str, float]


def _steps_left_table(units: tuple[str, ...], most: int) -> NDArray[np.int64]:
    return np.array([len(surviving_units(units, n)) for n in range(most + 1)], dtype=np.int64)


def _outcome_losses(
    a: NDArray[np.int64], d: NDArray[np.int64]
) -> tuple[NDArray[np.int64], NDArray[np.int64]]:
    """Losses inflicted on (attacker, defender) in each trial: quotient to the loser, 1 each on a tie."""
    tie = a == d
    on_attacker = np.where(d > a, d // a, np.where(tie, 1, 0))
    on_defender = np.where(a > d, a // d, np.where(tie, 1, 0))
    return on_attacker.astype(np.int64), on_defender.astype(np.int64)


def simulate_situation(situation: Situation, *, trials: int = 100_000, seed: int = 1) -> SimulatedOdds:
    """Play the situation ``trials`` times with seeded dice; frequencies of the same outcomes.

    The air combat and the main combat are rolled die by die; the loser of the superiority air
    combat applies its losses one at a time with :func:`~.rules.combat.surviving_units` (the same
    policy the enumeration uses in closed form).
    """
    if trials < 1:
        raise ValueError(f"trials must be at least 1, not {trials}")
    s = situation
    rng = Rng(seed)
    kind: CombatKind = s.combat
    n = trials

    if kind == "air":
        a_left = np.zeros(n, dtype=np.int64)
        d_left = np.zeros(n, dtype=np.int64)
    else:
        a_air, d_air = tuple(s.attacker.air), tuple(s.defender.air)
        terms_air = air_terms(s)
        if terms_air is None:
            a_left = np.full(n, len(a_air), dtype=np.int64)
            d_left = np.full(n, len(d_air), dtype=np.int64)
        else:
            a = roll_scores(
                rng, np.full(n, terms_air.attacker_dice, np.int64), np.full(n, terms_air.attacker_modifier)
            )
            d = roll_scores(
                rng, np.full(n, terms_air.defender_dice, np.int64), np.full(n, terms_air.defender_modifier)
            )
            on_a, on_d = _outcome_losses(a, d)
            top = int(max(on_a.max(), on_d.max()))
            a_left = _steps_left_table(a_air, top)[on_a]
            d_left = _steps_left_table(d_air, top)[on_d]

    # The main combat's dice and modifiers, trial by trial, from the air units each side kept.
    pairs = {(int(x), int(y)) for x, y in zip(a_left.tolist(), d_left.tolist(), strict=True)}
    a_dice = np.empty(n, dtype=np.int64)
    a_mod = np.empty(n, dtype=np.int64)
    d_dice = np.empty(n, dtype=np.int64)
    d_mod = np.empty(n, dtype=np.int64)
    for x, y in pairs:
        terms = main_terms(s, None, None) if kind == "air" else main_terms(s, x, y)
        mask = (a_left == x) & (d_left == y)
        a_dice[mask], a_mod[mask] = terms.attacker_dice, terms.attacker_modifier
        d_dice[mask], d_mod[mask] = terms.defender_dice, terms.defender_modifier
    a = roll_scores(rng, a_dice, a_mod)
    d = roll_scores(rng, d_dice, d_mod)
    on_a, on_d = _outcome_losses(a, d)

    a_units, d_units = tuple(s.attacker.units), tuple(s.defender.units)
    a_steps, d_steps = eligible_steps(kind, a_units), eligible_steps(kind, d_units)
    a_win, d_win, tie = a > d, d > a, a == d
    a_tri = a_win & (on_d > d_steps) & triumph_possible(kind, a_units, d_units)
    d_tri = d_win & (on_a > a_steps) & triumph_possible(kind, d_units, a_units)
    a_mobile, d_mobile = _may_retreat_at_all(s)
    retreat = (a_win & (on_d - 1 < d_steps) & d_mobile) | (d_win & (on_a - 1 < a_steps) & a_mobile)

    def freq(mask: NDArray[np.bool_]) -> float:
        return float(np.count_nonzero(mask)) / n

    def table(values: NDArray[np.int64]) -> dict[int, float]:
        counts = np.bincount(values)
        return {i: float(c) / n for i, c in enumerate(counts.tolist()) if c}

    sup: dict[str, float] = {}
    if kind != "air":
        sup = {
            "attacker": freq(a_left > d_left),
            "none": freq(a_left == d_left),
            "defender": freq(d_left > a_left),
        }
    return SimulatedOdds(
        trials=n,
        seed=seed,
        attacker_wins=freq(a_win),
        defender_wins=freq(d_win),
        tie=freq(tie),
        attacker_losses=table(on_a),
        defender_losses=table(on_d),
        attacker_triumph=freq(a_tri),
        defender_triumph=freq(d_tri),
        attacker_stability_test=freq(d_tri) if disaster_tests_stability(kind, a_units) else 0.0,
        defender_stability_test=freq(a_tri) if disaster_tests_stability(kind, d_units) else 0.0,
        retreat_allowed=freq(retreat),
        resource_damaged=freq(on_d > d_steps) if s.strategic_bombing else None,
        air_superiority=sup,
    )


__all__ = [
    "METHOD",
    "POLICIES",
    "AirCombat",
    "Case",
    "SideSituation",
    "SimulatedOdds",
    "Situation",
    "SituationOdds",
    "air_terms",
    "load_situation",
    "main_terms",
    "parse_situation",
    "roll_dice",
    "roll_scores",
    "simulate_situation",
    "situation_odds",
]
