"""The variant's optional rules (S3:L248-250) as data, and the game options that turn them on.

``data/optional.yaml`` holds the new units (heavy artillery, heavy tank, naval fighter, dive
bomber, cruiser), the National Builds and the National Attacks. A game plays them only when its
options say so (``optional_units``, ``national_builds``, ``national_attacks``; all off by default,
AH-O1): the options are recorded in ``d["aarhe"]["optional"]`` only when one is on, so a game
without them keeps the state it always had. The National Builds' purchase and placement are
:mod:`.builds`; the National Attacks' modifiers are the combat machine's
(:mod:`.combat.national`); heavy artillery's fire from next door is declared here.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from functools import cache
from types import MappingProxyType
from typing import TYPE_CHECKING, Annotated, Any, Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field

from grandstrategy.axis_allies.aarhe.tables import DATA_DIR, Row, Slug
from grandstrategy.axis_allies.game.board import key, split
from grandstrategy.axis_allies.game.profile import UnitStats

if TYPE_CHECKING:
    from grandstrategy.axis_allies.game.board import Board
    from grandstrategy.axis_allies.game.engine import AAGame

OPTIONS = ("optional_units", "national_builds", "national_attacks")
"""The game options of the optional rules (each true or false, default false)."""

Small = Annotated[int, Field(ge=0, le=30)]


class OptionalUnit(Row):
    """A new unit (S3:L248): its price and move; the rest copied from a Revised unit."""

    id: Slug
    template: Slug
    cost: Small
    movement: Small
    attack: Small
    defence: Small
    needs: Slug | None = None
    carrier: bool = True
    two_turns: bool = False


class NationalBuild(Row):
    """Once per turn, ``count`` units of ``unit`` for ``price`` IPCs in all (S3:L248-250)."""

    nation: Slug
    name: Slug
    unit: Slug
    count: Annotated[int, Field(ge=1, le=10)]
    price: Small
    place: Literal["capital", "factory"]
    no_surface: bool = False


class NationalAttack(Row):
    """A modifier to one unit role of one nation in the battles where ``when`` holds (S3:L250)."""

    nation: Slug
    name: Slug
    role: Annotated[str, Field(pattern=r"^[A-Z]{2,4}$")]
    modifier: Annotated[int, Field(ge=0, le=3)]
    side: Literal["attack", "defence"]
    when: list[Literal["no-enemy-fighters", "sea", "land", "first-cycle", "amphibious", "in-territories"]]
    territories: tuple[Slug, ...] = ()
    per_fighter: bool = False
    opening_fire: bool = False
    per_turn: Annotated[int, Field(ge=1, le=30)] | None = None


class OptionalFile(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")
    units: list[OptionalUnit]
    builds: list[NationalBuild]
    attacks: list[NationalAttack]


@cache
def optional_tables() -> OptionalFile:
    """``data/optional.yaml``, validated (package data: a broken file raises at first use)."""
    raw = yaml.safe_load((DATA_DIR / "optional.yaml").read_text(encoding="utf-8"))
    return OptionalFile.model_validate(raw)


def unit_ids() -> frozenset[str]:
    return frozenset(u.id for u in optional_tables().units)


def with_optional_units(stats: Mapping[str, UnitStats]) -> MappingProxyType[str, UnitStats]:
    """The profile's unit stats plus the new units, each a copy of its Revised template with the
    variant's price, move and values (S3:L248). Only the profile's table grows: the map module,
    its content hash and the saves that name it stay as they were."""
    extra = {
        u.id: replace(
            stats[u.template],
            id=u.id,
            cost=u.cost,
            movement=u.movement,
            attack=u.attack,
            defence=u.defence,
            carrier_cost=stats[u.template].carrier_cost if u.carrier else 0,
            artillery=False,  # heavy artillery is not said to support infantry (AH-O2)
        )
        for u in optional_tables().units
    }
    return MappingProxyType({**stats, **extra})


def on(game: Board, option: str) -> bool:
    """Whether the game plays the optional rule ``option`` (one of :data:`OPTIONS`)."""
    chosen: list[str] = game.d.get("aarhe", {}).get("optional", [])
    return option in chosen


def record(game: AAGame, options: Mapping[str, Any]) -> None:
    """Note the optional rules a new game plays (nothing when it plays none)."""
    chosen = [name for name in OPTIONS if options.get(name, False)]
    if chosen:
        game.d["aarhe"]["optional"] = chosen


def on_sale(game: Board, power: str, unit: str) -> bool:
    """A new unit is for sale with ``optional_units`` on, and the heavy ones only to a power with
    their technology (S3:L238, L248)."""
    found = next((u for u in optional_tables().units if u.id == unit), None)
    if found is None:
        return True
    return on(game, "optional_units") and (found.needs is None or found.needs in game.techs(power))


def two_turns(unit: str) -> bool:
    """The cruiser takes two turns to build, as battleships and carriers (S3:L236)."""
    return any(u.id == unit and u.two_turns for u in optional_tables().units)


# ---- heavy artillery fires from next door (S3:L248) ------------------------------------------

HEAVY_ARTILLERY = "heavy-artillery"
SHELL = "shell"


def shell_options(game: AAGame) -> list[str]:
    """``shell TARGET from PLACE``: one heavy artillery with moves left, next to a land battle the
    power has declared and not in one itself, fires into that battle at -1 (S3:L248, AH-C12)."""
    if not on(game, "optional_units"):
        return []
    power, battles = game.power, set(game.d["battles"])
    result = []
    for where in sorted(game.d["units"]):
        if game.is_sea(where) or where in battles:
            continue
        ready = any(
            split(s)[0] == power and split(s)[1] == HEAVY_ARTILLERY and split(s)[2] > 0
            for s in game.units(where)
        )
        if not ready:
            continue
        for target in sorted(game.module.territories[where].neighbours):
            if target in battles and not game.is_sea(target):
                result.append(f"{SHELL} {target} from {where}")
    return result


def shell(game: AAGame, target: str, origin: str) -> None:
    """Declare one heavy artillery's fire into ``target``: it spends its moves (it stays and fires)
    and the battle machine reads ``d["aarhe_heavy_artillery"][target]``."""
    power = game.power
    stack = next(
        s
        for s in sorted(game.units(origin))
        if split(s)[0] == power and split(s)[1] == HEAVY_ARTILLERY and split(s)[2] > 0
    )
    damage = split(stack)[3]
    spent = key(power, HEAVY_ARTILLERY, 0, damage)
    game.add(origin, stack, -1)
    game.add(origin, spent)
    support = game.d.setdefault("aarhe_heavy_artillery", {}).setdefault(target, [])
    for entry in support:
        if entry[0] == spent:
            entry[1] += 1
            break
    else:
        support.append([spent, 1])
    game.log(f"heavy artillery at {origin} will fire into {target}")


def end_combat(game: AAGame) -> None:
    """The power's combat phase is over: its heavy artillery declarations end."""
    declared = game.d.get("aarhe_heavy_artillery")
    if declared is None:
        return
    for target in list(declared):
        declared[target] = [e for e in declared[target] if split(e[0])[0] != game.power]
        if not declared[target]:
            del declared[target]
    if not declared:
        del game.d["aarhe_heavy_artillery"]
