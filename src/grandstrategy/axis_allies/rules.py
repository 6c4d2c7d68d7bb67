"""Battle procedures of Revised, LHTR 1.3 and the Historical Edition variant, as phases and hit kinds.

Each ``*Procedure`` turns a :class:`~grandstrategy.axis_allies.battle.Battle` into what the
solvers consume: the target class of each unit, the class groups each hit kind may strike, the
phases of the first and of later rounds, and the test for a side that has lost. Citations: S3 is
the Historical Edition document (``rules/003_...``), by line as in briefs/aa-variants.md.
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass
from functools import cache
from typing import ClassVar

from grandstrategy.axis_allies.battle import GENERAL, Battle, Counts, Dice, Phase, check_battle
from grandstrategy.axis_allies.units import BattleSetupError, RuleSet, UnitType, find_rules


def _p(value: int) -> float:
    return min(max(value, 0), 6) / 6.0


@dataclass
class Procedure:
    """Base: the parts every rule set shares."""

    battle: Battle
    ruleset: RuleSet

    def __post_init__(self) -> None:
        # per-battle memo of dice lists (the solvers ask for the same side situations many times)
        self.memo: dict[tuple[object, ...], list[Dice]] = {}
        self._flagged: dict[str, frozenset[str]] = {}
        self._kinds: dict[int, tuple[str, ...]] = {}

    # hit kind -> groups of target classes, in priority order; a class name not listed is skipped
    def kind_groups(self, kind: str, classes: list[str]) -> tuple[frozenset[str], ...]:
        raise NotImplementedError

    #: Hit kinds in the order their hits are allocated within one phase. A class variable, not a
    #: dataclass field: as a field, the base's ``__init__`` would reset every subclass's order to
    #: ``(GENERAL,)`` and kinds sharing a phase would be applied in hash (set) order.
    kind_order: ClassVar[tuple[str, ...]] = (GENERAL,)

    def class_of(self, unit: UnitType) -> str:
        raise NotImplementedError

    def phases(self, first: bool) -> list[Phase]:
        raise NotImplementedError

    def eliminated(self, counts: Counts) -> bool:
        """True when this side can no longer hold the field."""
        return not any(n for k, n in counts.items() if not self.ruleset.unit(k).fixed)

    def linear(self) -> bool:
        """True when, after the first round, every hit is general and dice depend only on the firer."""
        return False

    def enemy_key(self, enemy: Counts) -> Hashable:
        """All that a side's later-round dice depend on in the enemy's units.

        The solvers key their dice tables on it (with the side and the battle's options), so it
        must change whenever the dice could; the base returns the enemy's whole force.
        """
        return tuple(sorted((k, n) for k, n in enemy.items() if n))

    def first_round_special(self) -> bool:
        """True when the first round is fought differently from the later ones."""
        return True

    def opening_phases(self) -> int:
        """How many leading phases of round 1 are special, the rest of it being fought exactly
        like a later round (0: none, or the first round differs otherwise)."""
        return 0

    def hit_kinds(self, target: int) -> tuple[str, ...]:
        """The hit kinds that may ever strike side ``target`` (0 attacker, 1 defender) after the
        first round, in allocation order; a superset is safe, it only costs the solver time."""
        return self.kind_order

    def fights_first_round(self, att: Counts, dfn: Counts) -> bool:
        return not self.eliminated(att) and any(dfn.values())


@cache
def _flagged(rules: str, flag: str) -> frozenset[str]:
    """The units of rule set ``rules`` with ability ``flag`` (a UnitType field), worked out once."""
    return frozenset(k for k, u in find_rules(rules).units.items() if getattr(u, flag))


class RevisedProcedure(Procedure):
    """Revised (2004) combat, also LHTR 1.3 (identical in battle but for heavy bombers).

    * First round of a land battle: the AA gun rolls one die per attacking aircraft, each die
      aimed at one aircraft (hits on 1), before combat; bombarding battleships add their dice to
      the attacker's first-round fire.
    * Sea battles, every round: submarines whose enemy has no destroyer fire first and their
      casualties never fire back (defending submarines too); submarine hits cannot land on
      aircraft; aircraft cannot hit submarines unless their side has a destroyer.
    * Artillery raises one attacking infantry to 2 each.
    """

    kind_order: ClassVar[tuple[str, ...]] = ("sub", "air", GENERAL)

    def class_of(self, unit: UnitType) -> str:
        if unit.sub:
            return "sub"
        if unit.domain == "air":
            return unit.key  # AA dice are aimed per aircraft type
        return "other"

    def _is_air(self, cls: str) -> bool:
        return cls in self.ruleset.units and self.ruleset.unit(cls).domain == "air"

    def kind_groups(self, kind: str, classes: list[str]) -> tuple[frozenset[str], ...]:
        if kind == GENERAL:
            return (frozenset(classes),)
        if kind == "sub":
            return (frozenset(c for c in classes if not self._is_air(c)),)
        if kind == "air":
            return (frozenset(c for c in classes if c != "sub"),)
        if kind.startswith("aa:"):
            return (frozenset([kind[3:]]),)
        raise KeyError(kind)

    def _has(self, counts: Counts, flag: str) -> bool:
        keys = self._flagged.get(flag)
        if keys is None:
            keys = self._flagged[flag] = _flagged(self.ruleset.name, flag)
        return any(counts.get(key) for key in keys)

    def _air(self, counts: Counts) -> int:
        return sum(n for k, n in counts.items() if self.ruleset.unit(k).domain == "air")

    def _unit_dice(self, key: str, n: int, attacking: bool, kind: str) -> list[Dice]:
        unit = self.ruleset.unit(key)
        value = unit.attack if attacking else unit.defence
        if attacking and unit.attack_dice > 1:
            if unit.best_of:
                return [(kind, n, 1.0 - (1.0 - _p(value)) ** unit.attack_dice)]
            return [(kind, n * unit.attack_dice, _p(value))]
        return [(kind, n, _p(value))]

    def _aa_phase(self, side: int, own: Counts, enemy: Counts) -> list[Dice]:
        if side == 1 and self._has(own, "fixed"):
            return [
                (f"aa:{k}", n, 1 / 6) for k, n in enemy.items() if n and self.ruleset.unit(k).domain == "air"
            ]
        return []

    def _surprise(self, side: int, own: Counts, enemy: Counts) -> list[Dice]:
        if self._has(enemy, "destroyer"):
            return []
        key = ("surprise", side, *own.items())
        if key not in self.memo:
            self.memo[key] = self._surprise_dice(side, own)
        return list(self.memo[key])

    def _surprise_dice(self, side: int, own: Counts) -> list[Dice]:
        dice: list[Dice] = []
        for k, n in own.items():
            if n and self.ruleset.unit(k).sub:
                dice += self._unit_dice(k, n, side == 0, "sub")
        return dice

    def _main(self, side: int, own: Counts, enemy: Counts, first: bool) -> list[Dice]:
        # the dice depend on the enemy only through its destroyers and submarines
        flags = (self._has(enemy, "destroyer"), self._has(enemy, "sub"))
        key = ("main", side, first, flags, *own.items())
        if key not in self.memo:
            self.memo[key] = self._main_dice(side, own, flags, first)
        return list(self.memo[key])

    def _main_dice(self, side: int, own: Counts, flags: tuple[bool, bool], first: bool) -> list[Dice]:
        attacking = side == 0
        dice: list[Dice] = []
        enemy_has_dd, enemy_has_sub = flags
        own_has_dd = self._has(own, "destroyer")
        supported = 0
        if attacking:
            art = sum(n for k, n in own.items() if self.ruleset.unit(k).artillery)
            inf = sum(n for k, n in own.items() if self.ruleset.unit(k).supportable)
            supported = min(art, inf)
        for k, n in own.items():
            unit = self.ruleset.unit(k)
            if not n or unit.fixed:
                continue
            if unit.sub:
                if enemy_has_dd:  # no surprise strike: fires with everyone else
                    dice += self._unit_dice(k, n, attacking, "sub")
                continue
            if unit.domain == "air" and enemy_has_sub and not own_has_dd:
                dice += self._unit_dice(k, n, attacking, "air")
                continue
            if unit.supportable and supported:
                dice.append((GENERAL, supported, _p(unit.attack + 1)))
                n -= supported
                if not n:
                    continue
            dice += self._unit_dice(k, n, attacking, GENERAL)
        if attacking and first:
            for k, n in self.battle.bombard:
                dice += self._unit_dice(k, n, True, GENERAL)
        return dice

    def phases(self, first: bool) -> list[Phase]:
        def main(side: int, own: Counts, enemy: Counts) -> list[Dice]:
            return self._main(side, own, enemy, first)

        if self.battle.sea:
            return [self._surprise, main]
        if first:
            return [self._aa_phase, main]
        return [main]

    def linear(self) -> bool:
        units = [*dict(self.battle.attacker), *dict(self.battle.defender)]
        return not any(self.ruleset.unit(k).sub for k in units)

    def enemy_key(self, enemy: Counts) -> Hashable:
        # the enemy's destroyers (surprise strike, aircraft against subs) and submarines
        return (self._has(enemy, "destroyer"), self._has(enemy, "sub"))

    def hit_kinds(self, target: int) -> tuple[str, ...]:
        # submarine hits need enemy submarines; "air" hits, enemy aircraft facing our submarines
        found = self._kinds.get(target)
        if found is None:
            found = self._kinds[target] = self._hit_kinds(target)
        return found

    def _hit_kinds(self, target: int) -> tuple[str, ...]:
        own = dict(self.battle.defender if target else self.battle.attacker)
        enemy = dict(self.battle.attacker if target else self.battle.defender)
        kinds = []
        if self._has(enemy, "sub"):
            kinds.append("sub")
        if self._air(enemy) and self._has(own, "sub"):
            kinds.append("air")
        kinds.append(GENERAL)
        return tuple(kinds)

    def opening_phases(self) -> int:
        # a land battle's AA fire opens round 1; its main fire is a later round's unless ships bombard
        return 1 if not self.battle.sea and not self.battle.bombard else 0

    def first_round_special(self) -> bool:
        # AA fire and bombardment happen in the first round of a land battle only
        if self.battle.sea:
            return False
        return bool(self.battle.bombard) or any(self.ruleset.unit(k).fixed for k, _ in self.battle.defender)


class AarheProcedure(Procedure):
    """Land combat cycle of the Historical Edition variant (S3:L218-224, L244).

    Every cycle: *opening fire* (ID fire at attacking aircraft; then air fire: at dogfight values
    with hits on aircraft first when both sides fly, else at normal values with fighters choosing
    their targets and each fighter lifting one tank by 1), casualties removed; then *main fire*
    (land units only, their hits only on land units, tank hits on tanks and artillery first). A
    side with no land units left after a cycle must leave: the battle ends there.
    """

    kind_order: ClassVar[tuple[str, ...]] = ("aironly", "dogfight", "selective", "land", GENERAL)

    def class_of(self, unit: UnitType) -> str:
        if unit.domain == "air":
            return "air"
        if unit.tank or unit.artillery or unit.key == "hart":
            return "armart"
        return "inf"

    def kind_groups(self, kind: str, classes: list[str]) -> tuple[frozenset[str], ...]:
        land = frozenset(c for c in classes if c != "air")
        table = {
            "aironly": (frozenset({"air"}),),
            "dogfight": (frozenset({"air"}), land),
            "selective": (frozenset({"armart"}), frozenset({"inf"})),
            "land": (land,),
            GENERAL: (frozenset(classes),),
        }
        return table[kind]

    def _air(self, counts: Counts) -> int:
        return sum(n for k, n in counts.items() if self.ruleset.unit(k).domain == "air")

    def _mod(self, value: int) -> int:
        if self.battle.terrain in ("mountain", "snow"):
            return max(value - 1, 1)  # S3:L224: -1, never below 1
        return value

    def _opening(self, side: int, own: Counts, enemy: Counts) -> list[Dice]:
        dice: list[Dice] = []
        ids = sum(n for k, n in own.items() if self.ruleset.unit(k).fixed)
        if side == 1 and ids and self._air(enemy):
            # search on 1, then attack: 1 destroys, 2 forces a retreat; both remove the aircraft
            dice.append(("aironly", ids, 2 / 36))
        own_air, enemy_air = self._air(own), self._air(enemy)
        for k, n in own.items():
            unit = self.ruleset.unit(k)
            if not n or unit.domain != "air":
                continue
            if own_air and enemy_air:
                assert unit.dogfight is not None
                dice.append(("dogfight", n, _p(unit.dogfight[side])))
            else:
                value = unit.attack if side == 0 else unit.defence
                kind = "land" if k == "bmr" else "selective"
                dice.append((kind, n, _p(value)))
        return dice

    def _main(self, side: int, own: Counts, enemy: Counts) -> list[Dice]:
        attacking = side == 0
        dice: list[Dice] = []
        supremacy = self._air(own) > 0 and self._air(enemy) == 0
        boosts = own.get("ftr", 0) if supremacy else 0
        supported = min(own.get("art", 0), own.get("inf", 0)) if attacking else 0
        for k, n in own.items():
            unit = self.ruleset.unit(k)
            if not n or unit.domain == "air" or unit.fixed:
                continue
            value = unit.attack if attacking else unit.defence
            kind = "selective" if unit.tank else "land"
            groups: list[tuple[int, int]] = [(n, value)]
            if unit.supportable and supported:
                groups = [(supported, value + 1), (n - supported, value)]
            if unit.tank and boosts:
                lifted = min(boosts, n)
                boosts -= lifted
                groups = [(lifted, value + 1), (n - lifted, value)]
            dice += [(kind, m, _p(self._mod(v))) for m, v in groups if m]
        return dice

    def phases(self, first: bool) -> list[Phase]:
        return [self._opening, self._main]

    def enemy_key(self, enemy: Counts) -> Hashable:
        # dogfights and air supremacy look only at whether the enemy flies
        return (self._air(enemy) > 0,)

    def first_round_special(self) -> bool:
        return False  # every cycle is fought alike (S3:L218-224)

    def eliminated(self, counts: Counts) -> bool:
        return not any(
            n
            for k, n in counts.items()
            if self.ruleset.unit(k).domain == "land" and not self.ruleset.unit(k).fixed
        )

    def fights_first_round(self, att: Counts, dfn: Counts) -> bool:
        has_any = any(n for k, n in att.items())
        return has_any and any(dfn.values())


def procedure_for(battle: Battle) -> Procedure:
    """Check ``battle`` and return the procedure of its rule set.

    :raises BattleSetupError: when the battle is not allowed or not modelled here (Historical
        Edition sea battles and amphibious assaults: :mod:`grandstrategy.axis_allies.aarhe_battle`).
    """
    check_battle(battle)
    ruleset = find_rules(battle.rules)
    if ruleset.name == "aarhe":
        if battle.sea:
            raise BattleSetupError(
                "sea battles under aarhe are not modelled by this solver; the variant's own machine "
                "answers them: aarhe_battle.aarhe_odds (grandstrategy aa odds --rules aarhe --sea)"
            )
        if battle.bombard:
            raise BattleSetupError(
                "amphibious assaults under aarhe are not modelled by this solver; the variant's own machine "
                "answers them: aarhe_battle.aarhe_odds (grandstrategy aa odds --rules aarhe --bombard)"
            )
        return AarheProcedure(battle, ruleset)
    return RevisedProcedure(battle, ruleset)
