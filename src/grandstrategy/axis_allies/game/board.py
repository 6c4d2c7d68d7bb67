"""The board of an A&A game: the state data and the facts every rule asks of it.

:class:`Board` holds the profile (rules and module) and the plain JSON state ``d``; its methods
answer who owns what, which units stand where and whose they are, where aircraft may land and how
much a transport still holds. Units are counted in stacks keyed ``power:type:moves:damage``.
"""

from __future__ import annotations

from typing import Any

from grandstrategy.axis_allies.game.profile import Profile
from grandstrategy.core.graph import bfs_distances


def key(power: str, unit: str, moves: int, damage: int = 0) -> str:
    """The stack key of units of one power and type with ``moves`` left and ``damage`` taken."""
    return f"{power}:{unit}:{moves}:{damage}"


def split(stack: str) -> tuple[str, str, int, int]:
    """``(power, type, moves, damage)`` of a stack key."""
    power, unit, moves, damage = stack.split(":")
    return power, unit, int(moves), int(damage)


def copy_json(value: Any) -> Any:
    """A deep copy of JSON-like data (dicts, lists, scalars), faster than :func:`copy.deepcopy`."""
    if isinstance(value, dict):
        return {k: copy_json(v) for k, v in value.items()}
    if isinstance(value, list):
        return [copy_json(v) for v in value]
    return value


class Board:
    """The state data of one game and the facts read from it (no rule is applied here)."""

    def __init__(self, profile: Profile, data: dict[str, Any]) -> None:
        self.profile = profile
        self.module = profile.module
        self.stats = profile.stats
        self.d = data
        self.order = [p.id for p in self.module.turn_order()]

    @property
    def power(self) -> str:
        """The power whose turn it is."""
        turn: int = self.d["turn"]
        return self.order[turn]

    def alliance(self, power: str) -> str:
        return self.module.powers[power].alliance

    def friendly(self, power: str, other: str | None) -> bool:
        return other is not None and self.alliance(power) == self.alliance(other)

    def is_sea(self, where: str) -> bool:
        return self.module.is_sea(where)

    def units(self, where: str) -> dict[str, int]:
        """The stacks at ``where`` (read only: change them through :meth:`add`)."""
        here: dict[str, int] = self.d["units"].get(where, {})
        return here

    def add(self, where: str, stack: str, count: int = 1) -> None:
        """Add ``count`` units (negative: remove) to a stack; empty stacks and places vanish."""
        here = self.d["units"].setdefault(where, {})
        here[stack] = here.get(stack, 0) + count
        if here[stack] <= 0:
            del here[stack]
        if not here:
            del self.d["units"][where]

    def stacks(self, where: str) -> list[tuple[str, int]]:
        return sorted(self.d["units"].get(where, {}).items())

    def techs(self, power: str) -> list[str]:
        techs: list[str] = self.d["techs"].get(power, [])
        return techs

    def movement(self, power: str, unit: str) -> int:
        return self.profile.movement(unit, self.techs(power))

    def carrier_cost(self, unit: str) -> int:
        """The carrier room one ``unit`` takes in this game, 0 if it may not land on carriers."""
        return self.profile.carrier_cost(self, unit)

    def fights(self, unit: str, where: str) -> bool:
        """Whether a unit there rolls and can be hit: not a factory or AA gun, not cargo at sea."""
        stats = self.stats[unit]
        return stats.combat and not (stats.domain == "land" and self.is_sea(where))

    def enemy_units(self, power: str, where: str, *, combat_only: bool = False) -> int:
        total = 0
        for stack, n in self.d["units"].get(where, {}).items():
            owner, unit, _, _ = split(stack)
            if not self.friendly(power, owner) and (not combat_only or self.fights(unit, where)):
                total += n
        return total

    def cargo_room(self, power: str, zone: str) -> int:
        """Free transport capacity of ``power``'s transports in ``zone`` (Revised: a transport
        carries 5 units of transport cost; infantry cost 2, other land units 3)."""
        room = 0
        for stack, n in self.d["units"].get(zone, {}).items():
            owner, unit, _, _ = split(stack)
            if owner == power:
                stats = self.stats[unit]
                room += n * stats.transport_capacity if stats.domain == "sea" else 0
                room -= n * stats.transport_cost if stats.domain == "land" else 0
        return room

    def owner(self, where: str) -> str | None:
        owner: str | None = self.d["owner"].get(where)
        return owner

    def hostile_land(self, power: str, where: str) -> bool:
        owner = self.owner(where)
        return owner is not None and not self.friendly(power, owner)

    def vcs(self, alliance: str) -> int:
        return sum(
            self.profile.victory_points(t.id)
            for t in self.module.territories.values()
            if self.owner(t.id) is not None and self.alliance(self.owner(t.id) or "") == alliance
        )

    def capital_held(self, power: str) -> bool:
        capital = self.module.capital_of(power)
        return capital is None or self.friendly(power, self.owner(capital.id))

    def log(self, text: str) -> None:
        self.d["log"].append(f"R{self.d['round']} {self.power} {self.d['phase']}: {text}")
        del self.d["log"][:-40]

    def capital_name(self) -> str:
        capital = self.module.capital_of(self.power)
        return capital.id if capital is not None else self.power

    def landing_ok(self, target: str) -> bool:
        """Aircraft may end a turn on friendly land held since the turn began, or at sea where a
        friendly carrier has room (Revised: not in a territory captured this turn)."""
        power = self.power
        if self.is_sea(target):
            return self.carrier_room(target) > 0
        return self.friendly(power, self.owner(target)) and target not in self.d["conquered"]

    def carrier_room(self, zone: str) -> int:
        power = self.power
        room = 0
        for stack, n in self.d["units"].get(zone, {}).items():
            owner, unit, _, _ = split(stack)
            if self.friendly(power, owner):
                room += n * (self.stats[unit].carrier_capacity - self.carrier_cost(unit))
        return room

    def cargo(self, zone: str, power: str) -> list[str]:
        """The power's land units aboard transports in ``zone``, one stack key per unit, the
        costliest first (the order in which moving transports take them along)."""
        units = []
        for stack, n in self.stacks(zone):
            owner, unit, _, _ = split(stack)
            if owner == power and self.stats[unit].domain == "land":
                units.extend([stack] * n)
        return sorted(units, key=lambda s: (-self.stats[split(s)[1]].transport_cost, s))

    def factories(self, where: str) -> int:
        return sum(n for s, n in self.d["units"].get(where, {}).items() if self.stats[split(s)[1]].factory)

    def air_distance(self, origin: str, target: str) -> int:
        def neighbours(t: str) -> list[str]:
            return [n for n in self.module.territories[t].neighbours if self.profile.air_passable(self, n)]

        return bfs_distances([origin], neighbours)[target]

    def has_enemy_aa(self, where: str) -> bool:
        return any(
            self.stats[split(s)[1]].aa_gun and not self.friendly(self.power, split(s)[0])
            for s in self.d["units"].get(where, {})
        )

    def defence_chooser(self, where: str) -> str:
        """Who chooses the defence's casualties: the territory's owner, else the defender with most units."""
        owner = self.owner(where)
        if owner is not None and not self.friendly(self.power, owner):
            return owner
        counts: dict[str, int] = {}
        for stack, n in self.d["units"].get(where, {}).items():
            p = split(stack)[0]
            if not self.friendly(self.power, p):
                counts[p] = counts.get(p, 0) + n
        return max(sorted(counts), key=lambda p: counts[p]) if counts else self.power

    def side_units(self, where: str, attacker: bool) -> list[tuple[str, str, str, int, int]]:
        """``(stack, power, type, damage, count)`` of one side's combat units in the battle."""
        result = []
        for stack, n in self.stacks(where):
            owner, unit, _, damage = split(stack)
            mine = owner == self.power
            if self.fights(unit, where) and (mine if attacker else not self.friendly(self.power, owner)):
                result.append((stack, owner, unit, damage, n))
        return result

    def has_destroyer(self, where: str, attacker: bool) -> bool:
        return any(self.stats[u].destroyer for _, _, u, _, _ in self.side_units(where, attacker))


def parse_move(option: str) -> tuple[int, str, str, str] | None:
    """``(count, unit, origin, target)`` of a plain move option, ``move N UNIT ORIGIN -> TARGET`` (the
    notation of :mod:`.movement`); ``None`` for any other option, the carrier form that names its
    riders (``... with R fighter``) included. The one reader of that notation for the bots."""
    words = option.split()
    if len(words) == 6 and words[0] == "move" and words[4] == "->" and words[1].isdigit():
        return int(words[1]), words[2], words[3], words[5]
    return None
