"""National Builds (optional, S3:L248-250): a nation's cheap units, once per turn, placed at home.

Each build (``data/optional.yaml`` ``builds``) is bought whole in the purchase phase with
``buy N UNIT at PLACE as NAME`` and waits in the turn's records (``d["aarhe_turn"]["national"]``,
``{place: {unit: n}}``) for the mobilize phase, where ``place national UNIT PLACE [ZONE]`` puts
each unit there. The place is the nation's home territory (``capital``) or any IC it held when
its turn began (``factory``, once per IC). Readings (AH-O3): the units are placed outside the IC's
production room (the rule sets their number and place itself); a build that cannot be placed is
lost with the turn's other unplaced purchases; a Type VII submarine's IC takes no surface warship
that turn; the Essex carrier, like every carrier, is mobilized a turn later (S3:L236), then at
any IC.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from grandstrategy.axis_allies.aarhe import optional
from grandstrategy.axis_allies.aarhe.optional import NationalBuild, optional_tables

if TYPE_CHECKING:
    from collections.abc import Iterable

    from grandstrategy.axis_allies.game.engine import AAGame


def _records(game: AAGame) -> dict[str, Any]:
    data: dict[str, Any] = game.d["aarhe_turn"]
    return data


def builds_of(power: str) -> list[NationalBuild]:
    return [b for b in optional_tables().builds if b.nation == power]


def places(game: AAGame, build: NationalBuild) -> list[str]:
    """Where the power may take this build now: its home territory, or each IC it held when the
    turn began and still holds (once per IC)."""
    power = game.power
    if build.place == "capital":
        capital = game.module.capital_of(power)
        spots = [capital.id] if capital is not None else []
    else:
        spots = sorted(f for f in game.d["start_factories"] if game.factories(f))
    bought = _records(game).get("national_bought", [])
    return [p for p in spots if game.owner(p) == power and f"{build.name}@{p}" not in bought]


def once(build: NationalBuild) -> bool:
    return build.place == "capital"


def buy_options(game: AAGame) -> list[str]:
    """``buy N UNIT at PLACE as NAME`` for each build the power may still take and afford."""
    if not optional.on(game, "national_builds"):
        return []
    bank = game.d["bank"][game.power]
    bought = _records(game).get("national_bought", [])
    result: list[str] = []
    for build in builds_of(game.power):
        if build.price > bank or (once(build) and any(b.startswith(f"{build.name}@") for b in bought)):
            continue
        result.extend(f"buy {build.count} {build.unit} at {p} as {build.name}" for p in places(game, build))
    return result


def buy(game: AAGame, words: list[str], two_turn_units: Iterable[str]) -> None:
    """Pay for a build; its units wait for mobilize at their place (a carrier waits a turn in the
    warships being built, ``two_turn_units``)."""
    count, unit, place, name = int(words[1]), words[2], words[4], words[6]
    build = next(b for b in builds_of(game.power) if b.name == name)
    records = _records(game)
    records.setdefault("national_bought", []).append(f"{name}@{place}")
    game.d["bank"][game.power] -= build.price
    if unit in set(two_turn_units):
        building = game.d["aarhe"]["building"].setdefault(game.power, {})
        building[unit] = building.get(unit, 0) + count
    else:
        waiting = records.setdefault("national", {}).setdefault(place, {})
        waiting[unit] = waiting.get(unit, 0) + count
    game.log(f"buys {count} {unit} at {place} ({name}, {build.price} IPCs)")


def surface_barred(game: AAGame) -> set[str]:
    """ICs whose Type VII build bars surface warships this turn (S3:L248)."""
    barred = {b.name for b in builds_of(game.power) if b.no_surface}
    return {p.split("@")[1] for p in _records(game).get("national_bought", []) if p.split("@")[0] in barred}


def place_options(game: AAGame) -> list[str]:
    """``place national UNIT PLACE`` (sea units: ``... PLACE ZONE``, a zone next to it free of
    enemy warships) for the builds waiting, while the power holds the place."""
    power = game.power
    result = []
    for where, units in sorted(_records(game).get("national", {}).items()):
        if game.owner(where) != power:
            continue
        for unit, n in sorted(units.items()):
            if not n:
                continue
            if game.stats[unit].domain == "sea":
                for zone in game.module.sea_neighbours(where):
                    if not game.enemy_units(power, zone, combat_only=True):
                        result.append(f"place national {unit} {where} {zone}")
            else:
                result.append(f"place national {unit} {where}")
    return result


def place(game: AAGame, words: list[str]) -> None:
    """Mobilize one unit of a build at its place (no IC room used, AH-O3)."""
    unit, where = words[2], words[3]
    zone = words[4] if len(words) > 4 else None
    waiting = _records(game)["national"][where]
    waiting[unit] -= 1
    if not waiting[unit]:
        del waiting[unit]
    if not waiting:
        del _records(game)["national"][where]
    game.d["purchased"][unit] = game.d["purchased"].get(unit, 0) + 1
    game.place(unit, where, zone)


def waiting_units(records: dict[str, Any]) -> Iterable[tuple[str, int]]:
    """The builds bought and not placed in one nation's turn records (for the unit count)."""
    for units in records.get("national", {}).values():
        yield from units.items()


def unplaced(game: AAGame) -> int:
    """Drop the builds left at the end of mobilize; how many units that was."""
    lost = sum(n for _, n in waiting_units(_records(game)))
    _records(game).pop("national", None)
    return lost
