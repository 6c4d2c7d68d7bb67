"""The optional bid before the first round (LHTR tournament play): extra IPCs for some powers,
spent on units placed at once on the board.

A bid balances the sides: the powers named in the ``bid`` option (``{"russians": 8}``) each get
that many IPCs before round 1 and, in turn order, buy units one at a time and set each down where
the power has units at the start: land units and aircraft in a territory it holds with its land
units there, ships in a sea zone holding its ships (docs/aa-game.md gives the reading). ``done``
ends a power's bid; IPCs it leaves unspent go to its bank.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from grandstrategy.axis_allies.game.board import Board, key, split
from grandstrategy.core.errors import UserInputError

BID_PHASE = "bid"
MAX_BID = 1000


def check_bid(value: Any, powers: list[str]) -> dict[str, int]:
    """The ``bid`` option as ``{power: IPCs}`` (empty when absent).

    :raises UserInputError: not a mapping of known powers to whole numbers 1..:data:`MAX_BID`.
    """
    if value is None:
        return {}
    if isinstance(value, str):
        value = parse_bid(value)
    if not isinstance(value, Mapping):
        raise UserInputError(f"option bid must map powers to IPCs, e.g. russians=8, not {value!r}")
    bid: dict[str, int] = {}
    for power, ipcs in value.items():
        if power not in powers:
            raise UserInputError(f"option bid names {power!r}, not a power (powers: {', '.join(powers)})")
        if isinstance(ipcs, bool) or not isinstance(ipcs, int) or not 0 < ipcs <= MAX_BID:
            raise UserInputError(f"option bid for {power} must be a whole number 1..{MAX_BID}, not {ipcs!r}")
        bid[power] = ipcs
    return bid


def parse_bid(text: str) -> dict[str, Any]:
    """``russians=8,british=4`` -> ``{"russians": 8, "british": 4}`` (values checked by :func:`check_bid`).

    :raises UserInputError: a part that is not ``POWER=N``.
    """
    if len(text) > 200:
        raise UserInputError("a bid is at most 200 characters, e.g. russians=8")
    result: dict[str, Any] = {}
    for part in filter(None, (p.strip() for p in text.split(","))):
        power, equals, amount = part.partition("=")
        if not equals or not amount.strip().isdigit() or not amount.strip().isascii():
            raise UserInputError(f"cannot read bid {part!r}: write POWER=IPCS, e.g. russians=8")
        result[power.strip().lower()] = int(amount.strip())
    return result


class Bids(Board):
    """The bid phase: its options and their effects."""

    def bid_options(self) -> list[str]:
        """``bid TYPE WHERE`` for each unit the power's bid still pays for, where it may stand; ``done``."""
        power = self.power
        left = self.d["bid"].get(power, 0)
        result: list[str] = []
        for unit in self.profile.purchasable():
            stats = self.stats[unit]
            if stats.factory or self.profile.unit_cost(unit) > left:
                continue
            for where in self.bid_places(power, sea=stats.domain == "sea"):
                result.append(f"bid {unit} {where}")
        return [*result, "done"]

    def bid_places(self, power: str, *, sea: bool) -> list[str]:
        """Where the power's bid units may go: sea zones with its ships, or territories it holds
        with its land units in them."""
        places = []
        for where, here in sorted(self.d["units"].items()):
            if self.is_sea(where) != sea or (not sea and self.owner(where) != power):
                continue
            domain = "sea" if sea else "land"
            if any(split(s)[0] == power and self.stats[split(s)[1]].domain == domain for s in here):
                places.append(where)
        return places

    def place_bid(self, unit: str, where: str) -> None:
        power = self.power
        self.d["bid"][power] -= self.profile.unit_cost(unit)
        self.add(where, key(power, unit, self.movement(power, unit)))
        self.log(f"bid: places {unit} in {where}")

    def end_bid(self) -> None:
        """The power's bid is over (unspent IPCs to its bank); the next bidder, or round 1."""
        power = self.power
        left = self.d["bid"].pop(power, 0)
        self.d["bank"][power] += left
        for index, other in enumerate(self.order):
            if other in self.d["bid"]:
                self.d["turn"] = index
                return
        self.d["turn"] = 0
        self.d["phase"] = "research"
        self.start_bid_done()

    def start_bid_done(self) -> None:
        """Hook: the engine starts the first turn (overridden by the game)."""
