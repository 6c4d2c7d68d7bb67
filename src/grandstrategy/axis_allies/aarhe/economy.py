"""The variant's economy: prices by location, passable paths, convoys and the income of a turn.

Pure look-ups over a game position (no state is changed here):

- factories (ICs) cost by the kind of place they are built in, infantry by where it is raised and
  by who raises it (S3:L212-214);
- IPCs travel only along a passable path: land the power's units may cross, and sea zones (S3:L214);
  a path that needs the sea is a convoy, whose route has the fewest sea zones or one more;
- income counts the power's territories that reach a capital it controls and that it held at its
  last Collect Income (territories changing hands give nothing, S3:L208).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from grandstrategy.axis_allies.aarhe.neutrals import territory_income
from grandstrategy.axis_allies.aarhe.tables import Tables
from grandstrategy.axis_allies.game.board import split
from grandstrategy.axis_allies.module.world import MapModule
from grandstrategy.core.graph import bfs_distances

if TYPE_CHECKING:
    from grandstrategy.axis_allies.game.engine import AAGame


def city_points(tables: Tables) -> dict[str, int]:
    """Victory city points by territory (S3:L208-212)."""
    return {c.territory: c.points for c in tables.victory.cities}


def ic_cost(tables: Tables, territory: str) -> int:
    """An IC's price: 5 at a VC worth more than 1 point, 10 at a minor VC, 15 elsewhere (S3:L212)."""
    points = city_points(tables).get(territory, 0)
    kind = (
        "other"
        if not points
        else "minor-vc"
        if points <= tables.economy.minor_vc_points.value
        else "major-vc"
    )
    return next(c.cost for c in tables.economy.ic_costs if c.location == kind)


def friendly_land(game: AAGame, power: str, where: str) -> bool:
    """Land the power's units may pass through: held by its team (an impassable neutral only
    once it has joined the team, S3:L242)."""
    t = game.module.territories[where]
    return t.type.value == "land" and game.friendly(power, game.owner(where))


def land_component(game: AAGame, power: str, start: str) -> set[str]:
    """Territories reachable from ``start`` over the team's land alone."""

    def neighbours(t: str) -> list[str]:
        return [n for n in game.module.territories[t].neighbours if friendly_land(game, power, n)]

    return set(bfs_distances([start], neighbours))


def connected_to_capital(game: AAGame, power: str, territory: str) -> bool:
    """A VC 'connected to the capital': a land path over the team's land to the held capital."""
    capital = game.module.capital_of(power)
    if capital is None or game.owner(capital.id) != power:
        return False
    return territory in land_component(game, power, capital.id)


def infantry_cost(game: AAGame, tables: Tables, power: str, territory: str, nth: int) -> int:
    """The price of the ``nth`` infantry raised at a VC this turn (S3:L214).

    Authoritarian powers pay 2 at the capital, 3 at a VC connected to it, 4 elsewhere; the
    democracies pay 2 for the first at a VC worth more than 1 point, 3 at a minor VC, then 3 for
    the second and 4 for any further (docs/decisions.md: the garbled 'Other VC, 2nd' cell).
    """
    economy = tables.economy
    if power in economy.authoritarian:
        capital = game.module.capital_of(power)
        if capital is not None and capital.id == territory:
            kind = "capital"
        elif connected_to_capital(game, power, territory):
            kind = "connected"
        else:
            kind = "other"
        return next(c.cost for c in economy.authoritarian_infantry if c.location == kind)
    minor = city_points(tables).get(territory, 0) <= economy.minor_vc_points.value
    rows = sorted(economy.democratic_infantry, key=lambda r: r.nth)
    row = next((r for r in rows if r.nth >= nth), rows[-1])  # the last row: every further unit
    return row.minor if minor else row.major


def hostile_warships(game: AAGame, power: str, zone: str) -> int:
    """Enemy naval units in a sea zone that may attack a convoy: all but transports (S3:L214)."""
    total = 0
    for stack, n in game.units(zone).items():
        owner, unit, _, _ = split(stack)
        stats = game.stats[unit]
        if not game.friendly(power, owner) and stats.domain == "sea" and not stats.transport_capacity:
            total += n
    return total


def sea_entries(game: AAGame, power: str, places: Iterable[str]) -> set[str]:
    """Sea zones next to any of ``places``."""
    return {z for p in places for z in game.module.sea_neighbours(p)}


def min_convoy_zones(module: MapModule, source: str, target: str) -> int | None:
    """The fewest sea zones a convoy passes from ``source`` to ``target`` (both coastal), ends
    counted: Australia to the United Kingdom is 8 on the Revised map (S3:L214)."""
    return module.min_sea_zones_between(source, target)


def convoy_route(
    game: AAGame, power: str, starts: set[str], ends: set[str], slack: int
) -> tuple[str, ...] | None:
    """A convoy's sea zones from a zone in ``starts`` to one in ``ends``: of the routes with the
    fewest zones or up to ``slack`` more (S3:L214), the one past the fewest enemy warships, ties
    broken by the zones' names (docs/decisions.md: the route is the safest, chosen for the player)."""
    if not starts or not ends:
        return None
    module = game.module
    shortest = bfs_distances(sorted(starts), module.sea_neighbours)
    reach = [shortest[z] for z in ends if z in shortest]
    if not reach:
        return None
    limit = min(reach) + 1 + slack  # zones on the route, ends counted
    # best[(zone, zones so far)] = (enemy warships met, route)
    best: dict[tuple[str, int], tuple[int, tuple[str, ...]]] = {}
    for zone in sorted(starts):
        best[zone, 1] = (hostile_warships(game, power, zone), (zone,))
    found: tuple[int, tuple[str, ...]] | None = None
    for length in range(1, limit + 1):
        layer = sorted((z, v) for (z, n), v in best.items() if n == length)
        for zone, (danger, route) in layer:
            if zone in ends and (found is None or (danger, route) < found):
                found = (danger, route)
            if length == limit:
                continue
            for nxt in module.sea_neighbours(zone):
                if nxt in route:
                    continue
                value = (danger + hostile_warships(game, power, nxt), (*route, nxt))
                if (nxt, length + 1) not in best or value < best[nxt, length + 1]:
                    best[nxt, length + 1] = value
    return found[1] if found else None


def income_routes(game: AAGame, tables: Tables, power: str) -> dict[str, tuple[str, ...] | None]:
    """For each territory giving the power income: ``()`` when its IPCs reach a capital the power
    holds over land, the convoy's sea zones when they need the sea, None when blockaded (no
    passable path: the IPCs are forfeited, S3:L214). A convoy sets out from any coast the IPCs
    reach over the team's land (docs/decisions.md: a path may be land, then sea)."""
    module = game.module
    capitals = [t.id for t in module.territories.values() if t.capital and game.owner(t.id) == power]
    home: set[str] = set()
    for capital in capitals:
        home |= land_component(game, power, capital)
    ends = sea_entries(game, power, home)
    slack = tables.economy.convoy_slack.value
    routes: dict[str, tuple[str, ...] | None] = {}
    by_component: dict[frozenset[str], tuple[str, ...] | None] = {}
    for t in module.territories.values():
        if t.type.value != "land" or game.owner(t.id) != power or not territory_income(game, tables, t.id):
            continue
        if t.id in home:
            routes[t.id] = ()
            continue
        # over the team's land to a coast, then by sea; one route serves a whole land component
        near = frozenset(land_component(game, power, t.id))
        if near not in by_component:
            by_component[near] = convoy_route(game, power, sea_entries(game, power, near), ends, slack)
        routes[t.id] = by_component[near]
    return routes


def spend_reachable(game: AAGame, power: str, place: str) -> bool:
    """Whether stored IPCs may be spent at ``place``: a passable path (the team's land and any sea
    zones) leads there from a capital the power holds (S3:L214)."""
    module = game.module
    capitals = [t.id for t in module.territories.values() if t.capital and game.owner(t.id) == power]

    def neighbours(where: str) -> list[str]:
        return [
            n
            for n in module.territories[where].neighbours
            if module.is_sea(n) or friendly_land(game, power, n)
        ]

    return place in bfs_distances(capitals, neighbours) if capitals else False


def interruption_loss(tables: Tables, income: int) -> int:
    """IPCs a territory of this original income loses to production interruption (S3:L216)."""
    return next((b.loss for b in tables.economy.interruption if b.low <= income <= b.high), 0)


def unit_price(tables: Tables, base_cost: int, unit: str, techs: Iterable[str]) -> int:
    """A unit's price, less Advanced Production's cut when the power has it (S3:L238)."""
    if "advanced-production" in techs:
        cut = next((c.by for c in tables.research.cheaper if c.unit == unit), 0)
        return max(1, base_cost - cut)
    return base_cost
