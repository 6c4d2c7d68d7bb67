"""Unit tables of the three Axis & Allies rule sets the battle calculator knows, and force parsing.

Numbers come from the TripleA Revised and LHTR game files (``ww2v2.xml``, ``lhtr.xml``: attack,
defence, cost, hit points, which units bombard) and, for the Historical Edition variant, from its
unit appendix (S3:L244) and optional-unit table (S3:L248). Where a value is a choice rather than a
fact, docs/decisions.md says so.

>>> parse_force("3 inf, 1 art, 2 tanks", find_rules("revised"))
{'inf': 3, 'art': 1, 'arm': 2}
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Literal

from grandstrategy.core.errors import NotationError, UserInputError, quoted

Domain = Literal["land", "sea", "air"]


class UnknownUnitError(NotationError):
    """A force names a unit that no rule set knows, or that the chosen rule set lacks."""


class BattleSetupError(UserInputError):
    """A battle that cannot be fought as given (wrong domain, empty side, bad option)."""


@dataclass(frozen=True)
class UnitType:
    """One kind of piece: its dice values, cost and the special abilities battles look at.

    ``attack_dice`` > 1 with ``best_of`` False rolls that many dice, each able to hit (Revised
    heavy bombers); with ``best_of`` True the unit hits if any of them hits, so it scores at most
    one hit (LHTR heavy bombers).
    """

    key: str
    name: str
    cost: int
    attack: int
    defence: int
    domain: Domain
    aliases: tuple[str, ...] = ()
    hits: int = 1
    attack_dice: int = 1
    best_of: bool = False
    sub: bool = False
    destroyer: bool = False
    artillery: bool = False
    supportable: bool = False
    fixed: bool = False  # never a casualty and rolls no combat dice (AA gun, ID)
    bombard: bool = False
    tank: bool = False
    dogfight: tuple[int, int] | None = None


@dataclass(frozen=True)
class RuleSet:
    """A rule set's name, title and unit table (keyed by short key)."""

    name: str
    title: str
    units: dict[str, UnitType] = field(default_factory=dict)

    def unit(self, key: str) -> UnitType:
        return self.units[key]


def _u(
    key: str, name: str, cost: int, att: int, dfn: int, domain: Domain, *aliases: str, **kw: object
) -> UnitType:
    return UnitType(key, name, cost, att, dfn, domain, aliases, **kw)  # type: ignore[arg-type]


# Revised (2004) as TripleA encodes it in ww2v2.xml; LHTR 1.3 uses the same table (lhtr.xml).
_REVISED_UNITS = [
    _u("inf", "infantry", 3, 1, 2, "land", "i", "infantry", "inf", supportable=True),
    _u("art", "artillery", 4, 2, 2, "land", "a", "artillery", "arty", "art", artillery=True),
    _u("arm", "armour", 5, 3, 3, "land", "t", "tank", "armor", "armour", "arm", tank=True),
    _u("aa", "AA gun", 5, 0, 0, "land", "aa", "aa gun", "aagun", "antiaircraft gun", "aaa", fixed=True),
    _u("ftr", "fighter", 10, 3, 4, "air", "f", "fighter", "fig", "ftr"),
    _u("bmr", "bomber", 15, 4, 1, "air", "b", "bomber", "bom", "bmr"),
    _u("hbmr", "heavy bomber", 15, 4, 1, "air", "hb", "heavy bomber", "hbmr", "hbom", attack_dice=2),
    _u("trn", "transport", 8, 0, 1, "sea", "tr", "transport", "trn", "tran", "ap"),
    _u("sub", "submarine", 8, 2, 2, "sea", "s", "submarine", "sub", "ss", sub=True),
    _u("dd", "destroyer", 12, 3, 3, "sea", "d", "destroyer", "dd", "des", destroyer=True),
    _u("cv", "carrier", 16, 1, 3, "sea", "c", "carrier", "aircraft carrier", "cv", "ac"),
    _u("bb", "battleship", 24, 4, 4, "sea", "bs", "battleship", "bb", hits=2, bombard=True),
]

# LHTR 1.3: same numbers; its heavy-bomber technology rolls two dice and keeps the better one
# (TripleA property "LHTR Heavy Bombers", lhtr.notes.html).
_LHTR_UNITS = [
    (
        _u(
            "hbmr",
            "heavy bomber",
            15,
            4,
            1,
            "air",
            "hb",
            "heavy bomber",
            "hbmr",
            "hbom",
            attack_dice=2,
            best_of=True,
        )
    )
    if u.key == "hbmr"
    else u
    for u in _REVISED_UNITS
]

# Historical Edition variant (S3): appendix S3:L244, optional units S3:L248. Land battles use
# rules.AarheProcedure; sea battles and amphibious assaults the variant's machine (aarhe_battle.py).
_AARHE_UNITS = [
    _u("inf", "infantry", 3, 1, 2, "land", "i", "infantry", "inf", supportable=True),
    _u("art", "artillery", 4, 2, 2, "land", "a", "artillery", "arty", "art", artillery=True),
    _u("arm", "armour", 5, 3, 3, "land", "t", "tank", "armor", "armour", "arm", tank=True),
    _u("hart", "heavy artillery", 5, 3, 2, "land", "h art", "h.art", "heavy artillery", "hart"),
    _u(
        "harm",
        "heavy tank",
        8,
        4,
        3,
        "land",
        "h tk",
        "h.arm",
        "heavy tank",
        "heavy armour",
        "heavy armor",
        "harm",
        hits=2,
        tank=True,
    ),
    _u(
        "id",
        "infrastructure defence",
        0,
        0,
        0,
        "land",
        "id",
        "infrastructure defence",
        "infrastructure defense",
        "aa",
        "aa gun",
        fixed=True,
    ),
    _u("ftr", "fighter", 10, 3, 4, "air", "f", "fighter", "fig", "ftr", dogfight=(2, 3)),
    _u("bmr", "bomber", 15, 4, 1, "air", "b", "bomber", "bom", "bmr", dogfight=(0, 1)),
    _u("nav", "naval fighter", 8, 3, 2, "air", "nav", "naval fighter", dogfight=(2, 2)),
    _u("div", "dive bomber", 8, 3, 2, "air", "db", "div", "dive bomber", dogfight=(1, 2)),
    # Sea units (S3:L244; cruiser S3:L248): fought by the variant's own machine (aarhe_battle.py).
    _u("trn", "transport", 8, 0, 1, "sea", "tr", "transport", "trn", "tran", "ap"),
    _u("sub", "submarine", 8, 2, 2, "sea", "s", "submarine", "sub", "ss", sub=True),
    _u("dd", "destroyer", 10, 2, 2, "sea", "d", "destroyer", "dd", "des", destroyer=True),
    _u("ca", "cruiser", 15, 3, 3, "sea", "ca", "cruiser"),
    _u("cv", "carrier", 16, 1, 1, "sea", "c", "carrier", "aircraft carrier", "cv", "ac", hits=2),
    _u("bb", "battleship", 20, 4, 4, "sea", "bs", "battleship", "bb", hits=2, bombard=True),
]

RULESETS: dict[str, RuleSet] = {
    "revised": RuleSet("revised", "Axis & Allies Revised (2004)", {u.key: u for u in _REVISED_UNITS}),
    "lhtr": RuleSet("lhtr", "Revised with LHTR 1.3", {u.key: u for u in _LHTR_UNITS}),
    "aarhe": RuleSet(
        "aarhe", "Revised: Historical Edition variant (LHTR 1.3 base)", {u.key: u for u in _AARHE_UNITS}
    ),
}
_RULESET_ALIASES = {
    "revised": "revised",
    "aar": "revised",
    "lhtr": "lhtr",
    "lhtr1.3": "lhtr",
    "aarhe": "aarhe",
    "historical": "aarhe",
    "he": "aarhe",
}


def find_rules(name: str) -> RuleSet:
    """Return the rule set called ``name`` (or an alias of it).

    :raises BattleSetupError: when no rule set has that name.
    """
    key = _RULESET_ALIASES.get(name.strip().lower())
    if key is None:
        raise BattleSetupError(f"unknown rule set {quoted(name)}; choose one of: revised, lhtr, aarhe")
    return RULESETS[key]


def _norm(text: str) -> str:
    return re.sub(r"[\s_\-]+", " ", text.strip().lower())


def _lookup(name: str, rules: RuleSet) -> str | None:
    candidates = [name]
    if name.endswith("es"):
        candidates.append(name[:-2])
    if name.endswith("s"):
        candidates.append(name[:-1])
    for cand in candidates:
        for unit in rules.units.values():
            if cand == unit.key or cand in unit.aliases or cand == unit.name.lower():
                return unit.key
    return None


def resolve_unit(name: str, rules: RuleSet) -> str:
    """Map a unit name or abbreviation to its key in ``rules``.

    :raises UnknownUnitError: naming the unit and, when another rule set has it, saying so.
    """
    norm = _norm(name)
    key = _lookup(norm, rules)
    if key is not None:
        return key
    others = [rs.name for rs in RULESETS.values() if rs is not rules and _lookup(norm, rs) is not None]
    if others:
        raise UnknownUnitError(
            f"unit {name.strip()!r} is not part of rule set {rules.name!r} (it is in: {', '.join(others)})"
        )
    known = ", ".join(sorted(rules.units))
    raise UnknownUnitError(
        f"unknown unit {quoted(name.strip())} for rule set {rules.name!r}; known units: {known}"
    )


MAX_UNITS = 1000
"""The most units one force may hold: far beyond any board position, short of runaway work."""

_ITEM = re.compile(r"^\s*(?:([+-]?\d+)\s*[x×*]?\s*)?([A-Za-z][A-Za-z .\-_]*?)\s*$")


def parse_force(text: str, rules: RuleSet) -> dict[str, int]:
    """Parse ``"3 inf, 1 art, 2 arm"`` into unit counts (keys in the order first named).

    An item without a number counts one. Zero counts are allowed and dropped.

    :raises NotationError: on an item that is not ``[COUNT] UNIT``.
    :raises UserInputError: on a negative count, or more than :data:`MAX_UNITS` units in all.
    :raises UnknownUnitError: on an unknown unit.
    """
    counts: dict[str, int] = {}
    if not text.strip():
        return counts
    for item in text.split(","):
        if not item.strip():
            continue
        match = _ITEM.match(item)
        if match is None:
            raise NotationError(
                f"cannot read force item {quoted(item.strip())}; write it as COUNT UNIT, e.g. '3 inf'"
            )
        number, name = match.groups()
        if number is not None and len(number.lstrip("+-0")) > len(str(MAX_UNITS)):
            raise UserInputError(
                f"count too large in {quoted(item.strip())}: at most {MAX_UNITS} units a side"
            )
        count = int(number) if number is not None else 1
        if count < 0:
            raise UserInputError(f"negative count in {quoted(item.strip())}")
        key = resolve_unit(name, rules)
        if count:
            counts[key] = counts.get(key, 0) + count
    if sum(counts.values()) > MAX_UNITS:
        raise UserInputError(f"{sum(counts.values())} units in one force; the limit is {MAX_UNITS}")
    return counts


def format_force(counts: dict[str, int]) -> str:
    """Write counts back as ``"3 inf, 2 arm"`` (``"-"`` when empty)."""
    return ", ".join(f"{n} {k}" for k, n in counts.items() if n) or "-"
