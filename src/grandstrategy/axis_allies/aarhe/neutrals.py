"""Attacks on neutrals (S3:L242, the neutral table at S3:L246).

A team that attacks a neutral drives it to the other team: its place on the track goes to that
team's end (+5 for the Allies, -5 for the Axis), its army (the table's, ``data/diplomacy.yaml``)
enters the game at once and defends, and the territory and its income belong from then on to
the power of that team whose held capital is closest (:func:`defender`). A territory that
belongs to a neutral (``part_of`` in the table: Rio de Oro belongs to Spain) goes with it: an
attack on either is an attack on both, and the army stands in the neutral's own territory.

The attack is declared in combat move (``attack neutral PLACE``) by a power with a land unit
that could enter the neutral now (next to it, or aboard a transport off its coast); the moves
into it that follow are ordinary combat moves into enemy land (land, amphibious, and aircraft
flying to the battle). A neutral that has joined a team is no neutral any more: an owned
neutral is ordinary land for movement, control and income (:func:`territory_income`).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from grandstrategy.axis_allies.aarhe.tables import Neutral, Tables
from grandstrategy.axis_allies.game.board import key, split
from grandstrategy.core.graph import bfs_distances

if TYPE_CHECKING:
    from grandstrategy.axis_allies.game.board import Board
    from grandstrategy.axis_allies.game.engine import AAGame

OPTION = "attack neutral"
"""The combat-move option's words before the neutral's name."""


def record(tables: Tables, territory: str) -> Neutral | None:
    """The table's row of a neutral territory, or None."""
    return next((n for n in tables.diplomacy.neutrals if n.territory == territory), None)


def group(tables: Tables, territory: str) -> tuple[str, list[str]]:
    """``(home, every territory of that neutral)``: the neutral a territory belongs to, itself
    first, then the territories that belong to it (S3:L246: Rio de Oro is Spain's)."""
    row = record(tables, territory)
    home = row.part_of if row is not None and row.part_of else territory
    return home, [home, *(n.territory for n in tables.diplomacy.neutrals if n.part_of == home)]


def sign(game: Board, alliance: str) -> int:
    """+1 for the Allies' end of the track, -1 for the Axis'."""
    return 1 if alliance == "allies" else -1


def committed(tables: Tables) -> int:
    """The track's last step: a neutral fully committed to a team (S3:L242)."""
    return next(t.at for t in tables.diplomacy.thresholds if t.id == "committed")


def attackable(game: AAGame, tables: Tables, territory: str) -> bool:
    """Whether the power on move may attack ``territory`` as a neutral now: a neutral of the
    table, not extreme terrain, not yet joined to a team (no owner), not committed to the
    power's team, with no unit of that team inside (entered at 4 steps), and with a land unit of
    the power able to enter it in this combat move."""
    row = record(tables, territory)
    if row is None or row.extreme or game.owner(territory) is not None:
        return False
    power = game.power
    _, members = group(tables, territory)
    toward = game.d["aarhe"]["neutrals"][territory] * sign(game, game.alliance(power))
    if toward >= committed(tables):
        return False
    if any(game.friendly(power, split(s)[0]) for m in members for s in game.units(m)):
        return False
    return any(_can_enter(game, territory, where) for where in game.module.territories[territory].neighbours)


def _can_enter(game: AAGame, territory: str, where: str) -> bool:
    """A land unit of the power at ``where`` (land next door, or aboard in a sea zone off the
    coast) that could make a combat move into ``territory``."""
    if where in game.d["battles"]:
        return False  # units in a place where a battle waits stay there (Revised)
    for stack, _ in game.stacks(where):
        owner, unit, moves, damage = split(stack)
        stats = game.stats[unit]
        if owner != game.power or stats.domain != "land" or not stats.combat or moves <= 0 or damage:
            continue
        if game.profile.may_enter(game, unit, where, territory, combat=True):
            return True
    return False


def attack_options(game: AAGame, tables: Tables) -> list[str]:
    """``attack neutral PLACE`` for every neutral the power on move may attack now."""
    rows = tables.diplomacy.neutrals
    return [f"{OPTION} {n.territory}" for n in rows if attackable(game, tables, n.territory)]


def defender(game: Board, tables: Tables, territory: str, alliance: str) -> str | None:
    """The power of ``alliance`` that takes in an attacked neutral: the one whose capital is
    fewest steps from the neutral on the map's graph (every adjacency, land and sea, whatever
    stands or is impassable on the way) among those still holding their own capital; ties go
    to the earlier power in turn order. When no power of the team holds its capital, the
    closest capital of the team counts (reconstructed)."""
    home, _ = group(tables, territory)
    steps = bfs_distances([home], lambda t: game.module.territories[t].neighbours)
    members = [p for p in game.order if game.alliance(p) == alliance]
    ranked: list[tuple[bool, int, int, str]] = []
    for index, power in enumerate(members):
        capital = game.module.capital_of(power)
        if capital is None or capital.id not in steps:
            continue
        lost = game.owner(capital.id) != power
        ranked.append((lost, steps[capital.id], index, power))
    return min(ranked)[3] if ranked else None


def attack(game: AAGame, tables: Tables, territory: str) -> None:
    """The power on move attacks ``territory``: the neutral (with what belongs to it) joins the
    other team at that team's end of the track, its army enters the game for the power of
    :func:`defender` and the territories become that power's (S3:L242, L246). Land units and
    aircraft stand in the neutral's own territory; its ships in the first sea zone off its coast
    (by name) free of the attacking team's units, and none is raised when every zone holds them."""
    home, members = group(tables, territory)
    attacker = game.power
    other = next(game.alliance(p) for p in game.order if not game.friendly(attacker, p))
    taker = defender(game, tables, territory, other)
    if taker is None:
        return
    positions = game.d["aarhe"]["neutrals"]
    for member in members:
        positions[member] = sign(game, other) * committed(tables)
        game.d["owner"][member] = taker
        game.d["aarhe"]["neutral_income"].pop(member, None)  # from now on the owner's income
    row = record(tables, home)
    raised: list[str] = []
    zones = [
        z
        for z in sorted(game.module.sea_neighbours(home))
        if not any(game.friendly(attacker, split(s)[0]) for s in game.units(z))
    ]
    for unit, n in sorted((row.army if row is not None else {}).items()):
        sea = game.stats[unit].domain == "sea"
        if not n or (sea and not zones):
            continue
        where = zones[0] if sea else home
        game.add(where, key(taker, unit, game.movement(taker, unit)), n)
        raised.append(f"{n} {unit}")
    army = ", ".join(raised) if raised else "no army"
    game.log(f"attacks neutral {territory}: {home} joins {other} under {taker} with {army}")


def territory_income(game: Board, tables: Tables, where: str) -> int:
    """A territory's IPC value: the map's, or for a neutral the table's (S3:L246), which counts
    for whoever holds it once it has joined a team."""
    value = game.module.territories[where].ipc or 0
    row = record(tables, where)
    return row.income if row is not None and game.owner(where) is not None else value


def owned_neutral(game: Board, territory: str) -> bool:
    """An impassable territory with an owner is a neutral that joined a team: ordinary land."""
    return game.owner(territory) is not None


def reserve(game: AAGame, tables: Tables) -> Iterable[tuple[str, str, int]]:
    """The armies of the neutrals not yet attacked, counted once for each team (either may
    receive one), so that an army entering the game conserves units (:mod:`..game.invariants`)."""
    firsts: dict[str, str] = {}
    for power in game.order:
        firsts.setdefault(game.alliance(power), power)
    for row in tables.diplomacy.neutrals:
        if row.part_of or row.extreme or game.owner(row.territory) is not None:
            continue
        for unit, n in row.army.items():
            for power in firsts.values():
                yield power, unit, n


def problems(game: AAGame, tables: Tables) -> list[str]:
    """An owned neutral stands at an end of the track (the team it joined; whoever captures it
    later holds it like any land); what belongs to a neutral has an owner with it."""
    found: list[str] = []
    positions: dict[str, Any] = game.d["aarhe"]["neutrals"]
    for row in tables.diplomacy.neutrals:
        owner = game.owner(row.territory)
        if owner is None:
            continue
        if abs(positions[row.territory]) != committed(tables):
            found.append(f"{row.territory} is held by {owner} at {positions[row.territory]} on the track")
        if row.part_of and game.owner(row.part_of) is None:
            found.append(f"{row.territory} has an owner but {row.part_of} has none")
    return found


def attack_odds(game: AAGame, tables: Tables, territory: str) -> float:
    """The base calculator's chance that everything of the power on move able to attack the
    neutral wins once its army has entered (the heuristic bot's test, on a copy of the game)."""
    from grandstrategy.axis_allies.game.advice import attacker_chances, battle_at

    trial = game.clone()
    attack(trial, tables, territory)
    most: dict[tuple[str, str], int] = {}
    for option in trial.move_options(combat=True):
        words = option.split()
        if words[5] != territory or not trial.stats[words[2]].combat:
            continue
        most[words[2], words[3]] = max(most.get((words[2], words[3]), 0), int(words[1]))
    potential: dict[str, int] = {}
    for (unit, _), n in most.items():
        potential[unit] = potential.get(unit, 0) + n
    if not any(trial.stats[u].domain == "land" for u in potential):
        return 0.0
    setup = battle_at(trial, territory, potential)
    return 1.0 if setup is None else attacker_chances(setup)[0]
