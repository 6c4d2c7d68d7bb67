"""Lend-lease (S3:L234): the United States ships IPCs to Soviet and British territories.

Up to 12 IPCs a turn, at most 6 on a transport, loaded in a sea zone next to Eastern or Western
United States. A laden transport carries nothing else; it sails as the others do and unloads
from sea zone 4 or 34 onto a Soviet or British territory next to it, whose next Collect Income
gains the IPCs (whoever holds it then). Sinking the transport sinks the IPCs.

The state has no identity for a transport, so each shipment (``d["aarhe"]["lend_lease"]``: zone
and IPCs) stands for one of the giver's transports in its zone: a zone never holds more shipments
than the giver's transports (the excess is lost when transports are sunk), and a laden transport
is the last of a zone's transports to sail away (docs/decisions.md).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from grandstrategy.axis_allies.aarhe.tables import Tables
from grandstrategy.axis_allies.game.board import split

if TYPE_CHECKING:
    from grandstrategy.axis_allies.game.board import Board
    from grandstrategy.axis_allies.game.engine import AAGame


def shipments(game: Board) -> list[dict[str, Any]]:
    ships: list[dict[str, Any]] = game.d["aarhe"].setdefault("lend_lease", [])
    return ships


def transports(game: Board, power: str, zone: str) -> int:
    """The power's transports in a zone."""
    return sum(
        n
        for stack, n in game.units(zone).items()
        if split(stack)[0] == power and game.stats[split(stack)[1]].transport_capacity
    )


def laden(game: Board, zone: str) -> int:
    return sum(1 for s in shipments(game) if s["zone"] == zone)


def load_options(game: AAGame, tables: Tables) -> list[str]:
    """``lend-lease 6 at ZONE``: ship IPCs on an unladen transport next to Eastern/Western US."""
    rule = tables.economy.lend_lease
    power = game.power
    if power != rule.giver:
        return []
    room = rule.per_turn - game.d["aarhe_turn"].get("lent", 0)
    amount = min(rule.per_transport, room, game.d["bank"][power])
    if amount <= 0:
        return []
    zones = sorted({z for t in rule.load_from for z in game.module.sea_neighbours(t)})
    return [
        f"lend-lease {amount} at {zone}"
        for zone in zones
        if transports(game, power, zone) > laden(game, zone) and not cargo_aboard(game, power, zone)
    ]


def cargo_aboard(game: Board, power: str, zone: str) -> bool:
    """Whether land units ride the power's transports in the zone (a laden one carries none)."""
    return any(split(s)[0] == power and game.stats[split(s)[1]].domain == "land" for s in game.units(zone))


def load(game: AAGame, amount: int, zone: str) -> None:
    shipments(game).append({"zone": zone, "ipc": amount})
    game.d["bank"][game.power] -= amount
    game.d["aarhe_turn"]["lent"] = game.d["aarhe_turn"].get("lent", 0) + amount
    game.log(f"loads {amount} IPCs of lend-lease in {zone}")


def follow(game: AAGame, origin: str, target: str) -> None:
    """After the giver's transports sailed from ``origin``: shipments without a transport left
    there sail with them."""
    giver = game.power
    excess = laden(game, origin) - transports(game, giver, origin)
    for ship in shipments(game):
        if excess <= 0:
            break
        if ship["zone"] == origin:
            ship["zone"] = target
            excess -= 1


def deliver_options(game: AAGame, tables: Tables) -> list[str]:
    """``deliver lend-lease ZONE to TERRITORY`` from sea zone 4 or 34 to Soviet or British land."""
    rule = tables.economy.lend_lease
    if game.power != rule.giver:
        return []
    result = []
    for zone in sorted({s["zone"] for s in shipments(game)} & set(rule.unload_zones)):
        for land in game.module.territories[zone].neighbours:
            if not game.is_sea(land) and game.owner(land) in rule.receivers:
                result.append(f"deliver lend-lease {zone} to {land}")
    return result


def deliver(game: AAGame, zone: str, land: str) -> None:
    ship = next(s for s in shipments(game) if s["zone"] == zone)
    shipments(game).remove(ship)
    aid = game.d["aarhe"].setdefault("aid", {})
    aid[land] = aid.get(land, 0) + ship["ipc"]
    game.log(f"delivers {ship['ipc']} IPCs of lend-lease to {land}")


def sink_unescorted(game: Board, tables: Tables) -> bool:
    """Shipments beyond the giver's transports in their zone are lost with the transports."""
    giver = tables.economy.lend_lease.giver
    changed = False
    for zone in sorted({s["zone"] for s in shipments(game)}):
        excess = laden(game, zone) - transports(game, giver, zone)
        while excess > 0:
            ship = next(s for s in shipments(game) if s["zone"] == zone)
            shipments(game).remove(ship)
            excess -= 1
            changed = True
    return changed


def aid_for(game: AAGame, land: str) -> int:
    """Lend-lease IPCs waiting at ``land`` for its holder's next Collect Income (taken)."""
    aid: dict[str, int] = game.d["aarhe"].setdefault("aid", {})
    return aid.pop(land, 0)


def room_for_cargo(game: Board, tables: Tables, unit: str, zone: str) -> bool:
    """A land unit may board only transports that carry no lend-lease."""
    power = game.power
    stats = game.stats[unit]
    if power != tables.economy.lend_lease.giver:
        return True
    capacity = max((s.transport_capacity for s in game.stats.values()), default=0)
    free = game.cargo_room(power, zone) - laden(game, zone) * capacity
    return stats.domain != "land" or not game.is_sea(zone) or free >= stats.transport_cost
