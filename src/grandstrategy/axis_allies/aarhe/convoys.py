"""Secret convoy routes (S3:L214): chosen by their owner, revealed and attacked a turn later.

At the end of its Collect Income a power writes down, unseen, the sea zones each of its convoys
sails through: any route with the fewest zones or one more (``convoy_slack``), from a zone next to
the land the IPCs come from to a zone next to the land of a capital it holds, ending at the first
such zone it reaches. The IPCs are stored at once. At the beginning of its next Collect Income
the routes are revealed in the log and every enemy warship (not a transport) then in one of their
zones rolls: each hit sinks 1 IPC of that income, no more in a zone than the convoys took through
it (docs/decisions.md).

The choice is a short step of the variant's machine in ``d["battle"]`` (``"kind":
"convoy-route"``), one zone at a time, or ``convoy safest`` (the route past the fewest enemy
warships now, ties by zone names: the bot's choice). It is a secret decision
(:meth:`GameState.private_decision`): the zones picked so far and the routes written down stay
out of every other seat's view (:func:`redact`) and its answers read ``?`` in their log.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from grandstrategy.axis_allies.aarhe import economy
from grandstrategy.axis_allies.aarhe.tables import Tables
from grandstrategy.core.graph import bfs_distances
from grandstrategy.core.view import HIDDEN

if TYPE_CHECKING:
    from grandstrategy.axis_allies.game.engine import AAGame

KIND = "convoy-route"
SAFEST = "convoy safest"


def plans(game: AAGame, tables: Tables, power: str, convoyed: dict[str, int]) -> list[dict[str, Any]]:
    """One convoy per land component of the convoyed territories (``convoyed``: IPCs by
    territory): its IPCs, start zones, end zones and the most zones it may pass."""
    module = game.module
    capitals = [t.id for t in module.territories.values() if t.capital and game.owner(t.id) == power]
    home: set[str] = set()
    for capital in capitals:
        home |= economy.land_component(game, power, capital)
    ends = economy.sea_entries(game, power, home)
    reach = bfs_distances(sorted(ends), module.sea_neighbours)
    found: dict[frozenset[str], dict[str, Any]] = {}
    for where in sorted(convoyed):
        near = frozenset(economy.land_component(game, power, where))
        if near not in found:
            starts = sorted(economy.sea_entries(game, power, near))
            fewest = min(reach[z] for z in starts if z in reach) + 1  # zones, ends counted
            limit = fewest + tables.economy.convoy_slack.value
            found[near] = {"ipcs": 0, "starts": starts, "ends": sorted(ends), "limit": limit}
        found[near]["ipcs"] += convoyed[where]
    return [found[k] for k in sorted(found, key=lambda k: found[k]["starts"])]


def routes(game: AAGame, plan: dict[str, Any]) -> list[tuple[str, ...]]:
    """Every allowed route of a convoy, sorted: simple paths of sea zones from a start zone,
    ending at the first end zone reached, with at most ``limit`` zones (S3:L214)."""
    module = game.module
    ends, limit = set(plan["ends"]), int(plan["limit"])
    left = bfs_distances(sorted(ends), module.sea_neighbours)  # moves still needed from a zone
    found: list[tuple[str, ...]] = []
    stack: list[tuple[str, ...]] = [(z,) for z in reversed(plan["starts"])]
    while stack:
        route = stack.pop()
        if route[-1] in ends:
            found.append(route)
            continue
        for nxt in sorted(module.sea_neighbours(route[-1]), reverse=True):
            if nxt not in route and nxt in left and len(route) + 1 + left[nxt] <= limit:
                stack.append((*route, nxt))
    return sorted(found)


def danger(game: AAGame, power: str, route: tuple[str, ...]) -> int:
    """Enemy warships on a route now (the attackers it would meet if they stayed)."""
    return sum(economy.hostile_warships(game, power, z) for z in route)


def start(game: AAGame, tables: Tables, convoyed: dict[str, int]) -> bool:
    """Open the route choice for the power on move's convoys; False when there is nothing to
    choose (no convoy, or each has one route only: those are written down at once)."""
    battle: dict[str, Any] = {
        "machine": "aarhe",
        "kind": KIND,
        "where": game.capital_name(),
        "attacker": game.power,
        "dice": [],
        "ask": None,
        "stage": KIND,
        "pending": plans(game, tables, game.power, convoyed),
        "route": [],
        "chosen": [],
    }
    game.d["battle"] = battle
    ask_next(game, battle)
    return game.d["battle"] is battle


def ask_next(game: AAGame, battle: dict[str, Any]) -> None:
    """Ask for the next zone of the convoy being routed (a zone with one way on is taken at
    once); when every convoy is routed, write the routes down and close the step."""
    while battle["pending"]:
        plan = battle["pending"][0]
        prefix = tuple(battle["route"])
        allowed = [r for r in routes(game, plan) if r[: len(prefix)] == prefix]
        if len(allowed) == 1:
            finish_route(battle, allowed[0])
            continue
        nexts = sorted({r[len(prefix)] for r in allowed})
        if len(nexts) == 1:
            battle["route"].append(nexts[0])
            continue
        options = [f"convoy via {z}" for z in nexts]
        if not prefix:
            options.insert(0, SAFEST)
        battle["ask"] = {"who": battle["attacker"], "kind": KIND, "options": options}
        return
    record(game, battle["chosen"])
    game.d["battle"] = None


def finish_route(battle: dict[str, Any], route: tuple[str, ...]) -> None:
    plan = battle["pending"].pop(0)
    battle["chosen"].append([list(route), plan["ipcs"]])
    battle["route"] = []


def answer(game: AAGame, option: str) -> None:
    """``convoy safest`` takes the route past the fewest enemy warships now; ``convoy via ZONE``
    adds one zone to the route being written down."""
    battle = game.d["battle"]
    battle["ask"] = None
    if option == SAFEST:
        plan = battle["pending"][0]
        best = min(routes(game, plan), key=lambda r: (danger(game, battle["attacker"], r), r))
        finish_route(battle, best)
    else:
        battle["route"].append(option.split()[2])
    ask_next(game, battle)


def record(game: AAGame, chosen: list[list[Any]]) -> None:
    """Write the routes down for the next Collect Income (IPCs by zone: a zone's loss is capped
    by what passed through it)."""
    if not chosen:
        return
    zones: dict[str, int] = {}
    for route, ipcs in chosen:
        for zone in route:
            zones[zone] = zones.get(zone, 0) + int(ipcs)
    game.d["aarhe"].setdefault("convoys", {})[game.power] = {"routes": chosen, "zones": zones}
    total = sum(int(ipcs) for _, ipcs in chosen)
    game.log(f"sends {total} IPCs by convoy on routes it keeps secret")


def reveal(game: AAGame) -> dict[str, int]:
    """At the power's Collect Income: its routes of last time, now public, logged; returns the
    IPCs that passed each zone (empty when it sent no convoy)."""
    written = game.d["aarhe"].get("convoys", {}).pop(game.power, None)
    if written is None:
        return {}
    for route, ipcs in written["routes"]:
        game.log(f"its convoy of {ipcs} IPCs sailed {' '.join(route)}")
    zones: dict[str, int] = written["zones"]
    return zones


def redact(data: dict[str, Any], seat: str | None) -> None:
    """Take the routes and the route being chosen out of another seat's view (``data``: a copy);
    once the game is over every route still written down is open."""
    if data["result"] is not None:
        return
    for power, written in data["aarhe"].get("convoys", {}).items():
        if power != seat and written != HIDDEN:
            data["aarhe"]["convoys"][power] = HIDDEN
    battle = data.get("battle")
    if battle is not None and battle.get("kind") == KIND and battle["attacker"] != seat:
        battle["route"] = HIDDEN
        battle["chosen"] = HIDDEN
        if battle["ask"] is not None:
            battle["ask"]["options"] = []
