"""The heuristic bot's amphibious assaults: load transports, sail, land, on the exact odds.

An assault takes several decisions of the combat move (Revised and LHTR: land units board their
power's transports in an adjacent sea zone, the transports sail, the units unload into a hostile
coastal territory and fight there, with the battleships of the landing zone bombarding). The
policy (:mod:`.policy`) is a pure function of the position, so this module keeps no plan between
decisions: at every combat-move decision it finds the best landing from the position as it
stands and answers its next step. Units already aboard count as loaded, transports already at sea
as sailed, so the same landing is found again at the next decision and carried on.

A landing is a group of the power's transports in one sea zone (with the land units aboard, plus
those next to the zone that may board now), a sea zone within the transports' moves reached
through zones free of enemy units, and a hostile territory next to that zone. Its chance is the
base calculator's (:func:`.advice.battle_at`): the seaborne units, the land units and aircraft
that could join from the menu, and the landing zone's bombarding ships. The best landing by the
target's value times that chance is made when the chance is at least the policy's ``WORTH``
(undefended land: one unit is enough). Greedy and bounded: only the :data:`MAX_PLANS` most valuable
targets are priced at each decision.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from grandstrategy.axis_allies.game.advice import attacker_chances, battle_at
from grandstrategy.axis_allies.game.board import parse_move, split

if TYPE_CHECKING:
    from grandstrategy.axis_allies.game.engine import AAGame

MAX_PLANS = 12
"""Landings priced (exact odds) per decision, the most valuable targets first."""


@dataclass(frozen=True, slots=True)
class Landing:
    """One amphibious assault the bot could make: transports in ``zone`` load ``load`` (``(origin,
    type, count)``), sail along ``path`` (empty: they land from where they are) and land in
    ``target``; ``score`` is the target's value times the chance of winning there."""

    zone: str
    path: tuple[str, ...]
    target: str
    load: tuple[tuple[str, str, int], ...]
    score: float

    @property
    def landing_zone(self) -> str:
        """The sea zone the units unload from."""
        return self.path[-1] if self.path else self.zone


def _sail(game: AAGame, zone: str) -> int:
    """The moves the power's transports in ``zone`` have left together (0: one cannot sail)."""
    moves = [
        split(s)[2]
        for s, _ in game.stacks(zone)
        if split(s)[0] == game.power and game.stats[split(s)[1]].transport_capacity and not split(s)[3]
    ]
    return min(moves) if moves else 0


def _routes(game: AAGame, zone: str, moves: int) -> dict[str, tuple[str, ...]]:
    """Sea zones within ``moves`` of ``zone`` through zones free of enemy units and of the power's
    own waiting battles, each with its path (``zone`` itself: the empty path)."""
    power = game.power
    routes: dict[str, tuple[str, ...]] = {zone: ()}
    frontier = [zone]
    for _ in range(moves):
        step: list[str] = []
        for here in frontier:
            for other in sorted(game.module.sea_neighbours(here)):
                if other in routes or not game.canal_open(here, other):
                    continue
                if game.enemy_units(power, other) or other in game.d["battles"]:
                    continue
                routes[other] = (*routes[here], other)
                step.append(other)
        frontier = step
    return routes


def _cargo(game: AAGame, zone: str) -> dict[str, int]:
    """The power's land units aboard its transports in ``zone``, by type."""
    result: dict[str, int] = {}
    for stack, n in game.stacks(zone):
        owner, unit, _, _ = split(stack)
        if owner == game.power and game.stats[unit].domain == "land":
            result[unit] = result.get(unit, 0) + n
    return result


def _fill(game: AAGame, room: int, boarding: dict[tuple[str, str], int]) -> list[tuple[str, str, int]]:
    """What to load into ``room``: the strongest attackers first, then the cheapest to carry."""
    order = sorted(
        boarding.items(),
        key=lambda item: (-game.stats[item[0][1]].attack, game.stats[item[0][1]].transport_cost, item[0]),
    )
    load: list[tuple[str, str, int]] = []
    for (origin, unit), n in order:
        cost = game.stats[unit].transport_cost
        take = min(n, room // cost) if cost else 0
        if take > 0:
            load.append((origin, unit, take))
            room -= take * cost
    return load


Value = Callable[["AAGame", str], float]
"""What taking a territory is worth to the bot (the policy's own measure)."""


def landings(game: AAGame, options: list[str], value: Value, *, worth: float, enough: float) -> list[Landing]:
    """The landings worth making now, best first (see the module doc): ``worth`` is the least
    chance of winning to land at all, ``enough`` the chance beyond which a battle needs no more."""
    power = game.power
    boarding: dict[str, dict[tuple[str, str], int]] = {}  # zone -> (origin, type) -> most offered
    joining: dict[str, dict[str, int]] = {}  # target -> type -> most offered overland or by air
    most: dict[tuple[str, str, str], int] = {}
    for option in options:
        move = parse_move(option)
        if move is None:
            continue
        count, unit, origin, target = move
        stats = game.stats[unit]
        if stats.domain == "land" and game.is_sea(target) and not game.is_sea(origin):
            here = boarding.setdefault(target, {})
            here[origin, unit] = max(here.get((origin, unit), 0), count)
        elif (
            stats.combat
            and stats.domain in ("land", "air")
            and not game.is_sea(target)
            and (not game.is_sea(origin) or stats.domain == "air")
        ):  # overland or by air, into the same battle
            most[target, unit, origin] = max(most.get((target, unit, origin), 0), count)
    for (target, unit, _), n in most.items():
        joining.setdefault(target, {})[unit] = joining.setdefault(target, {}).get(unit, 0) + n
    candidates: list[tuple[float, str, str, tuple[str, ...], dict[str, int], list[tuple[str, str, int]]]] = []
    for zone in sorted(game.d["units"]):
        if not game.is_sea(zone) or zone in game.d["battles"] or game.enemy_units(power, zone):
            continue
        if not any(
            split(s)[0] == power and game.stats[split(s)[1]].transport_capacity for s in game.units(zone)
        ):
            continue
        aboard = _cargo(game, zone)
        sail = _sail(game, zone)
        # Units board only transports that have not unloaded or ended their move (a moored
        # transport does not ferry a second load in the same turn).
        load = _fill(game, max(0, game.cargo_room(power, zone)), boarding.get(zone, {})) if sail else []
        if not aboard and not load:
            continue
        for landing_zone, path in sorted(_routes(game, zone, sail).items()):
            for target in sorted(game.module.territories[landing_zone].neighbours):
                if game.is_sea(target) or not game.hostile_land(power, target):
                    continue
                if not game.profile.land_passable(game, target):
                    continue
                unit = next(iter(sorted(aboard)), load[0][1] if load else "infantry")
                if not game.profile.may_enter(game, unit, landing_zone, target, combat=True):
                    continue
                candidates.append((value(game, target), target, zone, path, aboard, load))
    candidates.sort(key=lambda c: (-c[0], len(c[3]), c[1], c[2]))
    result: list[Landing] = []
    for worth_taking, target, zone, path, aboard, load in candidates[:MAX_PLANS]:
        landing_zone = path[-1] if path else zone
        defended = game.enemy_units(power, target, combat_only=True) > 0
        mine_there = any(
            split(s)[0] == power and game.stats[split(s)[1]].domain == "land" for s in game.units(target)
        )
        if not defended:
            if mine_there or any(game.stats[u].domain == "land" for u in joining.get(target, {})):
                continue  # already being taken, or land units can walk in (the policy's own move)
            load_one = () if aboard else _cheapest(game, load)
            result.append(Landing(zone, path, target, load_one, worth_taking))
            continue
        now = battle_at(game, target)
        if now is not None and attacker_chances(now)[0] >= enough:
            continue  # enough is on its way already
        force = dict(joining.get(target, {}))
        for unit, n in aboard.items():
            force[unit] = force.get(unit, 0) + n
        for _, unit, n in load:
            force[unit] = force.get(unit, 0) + n
        setup = battle_at(game, target, force, bombard_from=(landing_zone,))
        p = attacker_chances(setup)[0] if setup is not None else 0.0
        if p >= worth:
            result.append(Landing(zone, path, target, tuple(load), worth_taking * p))
    result.sort(key=lambda landing: (-landing.score, len(landing.path), landing.target, landing.zone))
    return result


def _cheapest(game: AAGame, load: list[tuple[str, str, int]]) -> tuple[tuple[str, str, int], ...]:
    """One unit, the cheapest to lose, for a landing on undefended land."""
    if not load:
        return ()
    origin, unit, _ = min(load, key=lambda item: (game.stats[item[1]].cost, item[0], item[1]))
    return ((origin, unit, 1),)


def next_step(game: AAGame, options: list[str], landing: Landing) -> str | None:
    """The option that carries ``landing`` on: board the next units, sail one zone, or unload;
    ``None`` when the menu does not offer it."""
    if landing.load:
        origin, unit, wanted = landing.load[0]
        offered = [
            m[0]
            for o in options
            if (m := parse_move(o)) is not None and (m[1], m[2], m[3]) == (unit, origin, landing.zone)
        ]
        fits = [c for c in offered if c <= wanted]
        return f"move {max(fits)} {unit} {origin} -> {landing.zone}" if fits else None
    if landing.path:
        ahead = landing.path[0]
        sailing = [
            m
            for o in options
            if (m := parse_move(o)) is not None
            and (m[2], m[3]) == (landing.zone, ahead)
            and game.stats[m[1]].transport_capacity
        ]
        if not sailing:
            return None
        count, unit, _, _ = max(sailing)
        return f"move {count} {unit} {landing.zone} -> {ahead}"
    unloads = [
        m
        for o in options
        if (m := parse_move(o)) is not None
        and (m[2], m[3]) == (landing.zone, landing.target)
        and game.stats[m[1]].domain == "land"
    ]
    if not unloads:
        return None
    if game.enemy_units(game.power, landing.target, combat_only=True) == 0:
        pick = min(unloads, key=lambda m: (m[0], game.stats[m[1]].cost, m[1]))
    else:
        pick = max(unloads, key=lambda m: (m[0], game.stats[m[1]].attack, m[1]))
    return f"move {pick[0]} {pick[1]} {landing.zone} -> {landing.target}"


def best_step(
    game: AAGame, options: list[str], value: Value, *, worth: float, enough: float
) -> tuple[float, str] | None:
    """``(score, option)``: the next step of the best landing the menu lets the bot carry on."""
    for landing in landings(game, options, value, worth=worth, enough=enough):
        option = next_step(game, options, landing)
        if option is not None:
            return landing.score, option
    return None
