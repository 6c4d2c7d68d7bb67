"""A battle, independent of any game state: who fights, under which rules, and how hits land.

The model both solvers share (exact and Monte Carlo):

* **Tokens.** Each side's units become a list of *tokens* in order of loss; one token is one hit
  the side can absorb. A two-hit unit (battleship, heavy tank) has a *hull* token, placed before
  every other token, and a *kill* token at the unit's place in the order.
* **Classes.** Every token belongs to a *target class*: the units some kind of hit may or may
  not strike (submarines, each aircraft type, land or surface units...). A side's state is the
  tuple "tokens lost so far in each class"; within a class losses always follow the order of loss,
  so this tuple is all the solver needs to know. Most battles have one or two classes per side.
* **Hit kinds.** Dice produce hits of a *kind*; a kind lists groups of classes in priority order
  (e.g. a submarine's hit may strike anything but aircraft). A hit goes to the first remaining
  token, in order of loss, of the first group that still has one. Restricted kinds are applied
  before general ones, so the owner keeps its preferred order as far as the rules allow.
* **Phases.** A round is a list of phases (opening fire, main fire...); in a phase both sides roll
  at once from the state at its start and casualties are removed at its end. The rule set says,
  per phase and side, which dice are rolled: a list of ``(kind, number of dice, hit chance)``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache

from grandstrategy.axis_allies.units import BattleSetupError, RuleSet, UnitType, find_rules, resolve_unit

Counts = dict[str, int]
SideState = tuple[int, ...]
Dice = tuple[str, int, float]  # (hit kind, number of dice, probability each die hits)
Phase = Callable[[int, Counts, Counts], list[Dice]]  # (side 0=attacker 1=defender, own, enemy)

GENERAL = "general"

DEFAULT_ORDER_LAND = ("inf", "art", "hart", "arm", "harm", "ftr", "nav", "div", "bmr", "hbmr")
DEFAULT_ORDER_SEA = ("trn", "sub", "dd", "bmr", "hbmr", "bb", "cv", "ftr")


@dataclass(frozen=True)
class Battle:
    """One battle: rule set, both forces, and the options that change how it is fought.

    ``order`` overrides the order of loss for both sides (units it does not name follow in the
    default order). ``bombard`` lists ships bombarding a land battle in its first round.
    ``retreat_after`` makes the attacker leave after that many rounds if both sides still stand.
    """

    rules: str
    attacker: tuple[tuple[str, int], ...]
    defender: tuple[tuple[str, int], ...]
    sea: bool = False
    order: tuple[str, ...] = ()
    bombard: tuple[tuple[str, int], ...] = ()
    retreat_after: int | None = None
    terrain: str = "normal"

    @staticmethod
    def make(
        rules: str,
        attacker: dict[str, int],
        defender: dict[str, int],
        *,
        sea: bool = False,
        order: Sequence[str] = (),
        bombard: dict[str, int] | None = None,
        retreat_after: int | None = None,
        terrain: str = "normal",
    ) -> Battle:
        """Build a battle from count dictionaries (keys as returned by ``parse_force``)."""
        return Battle(
            find_rules(rules).name,
            tuple((k, n) for k, n in attacker.items() if n),
            tuple((k, n) for k, n in defender.items() if n),
            sea,
            tuple(order),
            tuple((k, n) for k, n in (bombard or {}).items() if n),
            retreat_after,
            terrain,
        )


@dataclass(frozen=True)
class Token:
    unit: str
    kill: bool  # False for the hull token of a two-hit unit
    cls: int


class SideModel:
    """One side's tokens, classes and the per-state queries the solvers need (all cached)."""

    def __init__(
        self,
        units: dict[str, int],
        ruleset: RuleSet,
        order: Sequence[str],
        class_of: Callable[[UnitType], str],
    ):
        self.ruleset = ruleset
        self.initial = dict(units)
        self.fixed = {k: n for k, n in units.items() if ruleset.unit(k).fixed}
        fighting = [k for k in order if units.get(k, 0) and not ruleset.unit(k).fixed]
        self.class_names: list[str] = []
        raw: list[tuple[str, bool, str]] = []
        for key in fighting:
            unit = ruleset.unit(key)
            name = class_of(unit)
            if name not in self.class_names:
                self.class_names.append(name)
            for _ in range(units[key]):
                if unit.hits > 1:
                    raw.insert(0, (key, False, name))  # hull tokens go before any loss
            raw.extend((key, True, name) for _ in range(units[key]))
        self.tokens = [Token(u, kill, self.class_names.index(c)) for u, kill, c in raw]
        self.class_tokens: list[list[int]] = [[] for _ in self.class_names]
        for pos, tok in enumerate(self.tokens):
            self.class_tokens[tok.cls].append(pos)
        self.start: SideState = tuple(0 for _ in self.class_names)
        self.units = [k for k in fighting]
        self.counts = cache(self._counts)
        self.alloc = cache(self._alloc)
        self.remaining = cache(self._remaining)

    def _counts(self, state: SideState) -> Counts:
        alive = dict.fromkeys(self.units, 0)
        for cls, lost in enumerate(state):
            for pos in self.class_tokens[cls][lost:]:
                tok = self.tokens[pos]
                if tok.kill:
                    alive[tok.unit] += 1
        alive.update(self.fixed)
        return alive

    def _remaining(self, state: SideState) -> int:
        return sum(len(self.class_tokens[c]) - lost for c, lost in enumerate(state))

    def _alloc(self, state: SideState, groups: tuple[frozenset[str], ...], hits: int) -> SideState:
        lost = list(state)
        for _ in range(hits):
            best = -1
            for group in groups:
                for c, name in enumerate(self.class_names):
                    if name in group and lost[c] < len(self.class_tokens[c]):
                        pos = self.class_tokens[c][lost[c]]
                        if best < 0 or pos < self.class_tokens[best][lost[best]]:
                            best = c
                if best >= 0:
                    break
            if best < 0:
                break
            lost[best] += 1
        return tuple(lost)


def loss_order(units: dict[str, int], sea: bool, override: Sequence[str]) -> list[str]:
    """Order of loss for ``units``: the override first, then the default order, then the rest."""
    default = DEFAULT_ORDER_SEA if sea else DEFAULT_ORDER_LAND
    order: list[str] = []
    for key in [*override, *default, *units]:
        if key in units and key not in order:
            order.append(key)
    return order


def resolve_order(text: str, ruleset: RuleSet) -> tuple[str, ...]:
    """Parse ``--order "inf,arm,ftr"`` into unit keys.

    :raises UnknownUnitError: on an unknown name.
    """
    return tuple(resolve_unit(part, ruleset) for part in text.split(",") if part.strip())


def check_battle(battle: Battle) -> None:
    """Reject battles the rules do not allow, with one clear message.

    :raises BattleSetupError: sea units in a land battle (or the reverse), a fixed unit attacking,
        an empty side, bombardment outside a land battle, a bad ``retreat_after``.
    """
    ruleset = find_rules(battle.rules)
    att, dfn = dict(battle.attacker), dict(battle.defender)
    for side_name, units in (("attacker", att), ("defender", dfn)):
        for key in units:
            unit = ruleset.unit(key)
            if battle.sea and unit.domain == "land":
                raise BattleSetupError(f"{side_name}: {unit.name} cannot fight in a sea battle")
            if not battle.sea and unit.domain == "sea":
                raise BattleSetupError(
                    f"{side_name}: {unit.name} is a sea unit; a land battle takes sea units only as --bombard"
                )
    for key in att:
        if ruleset.unit(key).fixed:
            raise BattleSetupError(f"attacker: {ruleset.unit(key).name} only defends and cannot attack")
    if not any(not ruleset.unit(k).fixed for k in att):
        raise BattleSetupError("the attacker has no units")
    if battle.bombard:
        if battle.sea:
            raise BattleSetupError("--bombard applies only to land battles")
        for key, _ in battle.bombard:
            if not ruleset.unit(key).bombard:
                raise BattleSetupError(f"{ruleset.unit(key).name} cannot bombard under {ruleset.name}")
    if battle.retreat_after is not None and battle.retreat_after < 1:
        raise BattleSetupError("--retreat-after must be at least 1 round")
    if battle.terrain not in ("normal", "mountain", "snow"):
        raise BattleSetupError(f"unknown terrain {battle.terrain!r}; choose normal, mountain or snow")
    if battle.terrain != "normal" and ruleset.name != "aarhe":
        raise BattleSetupError("--terrain applies only to the aarhe rule set")
