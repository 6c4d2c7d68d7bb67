"""A round of declarations: the other side's powers, one at a time in turn order, each offered its
missions until it says ``done`` (defensive air support, S3:L230; air interdiction, S3:L230).

The round is an open dice-free step in ``d["battle"]`` of the variant's machine; each kind of
mission supplies only what it offers a power (``offers``) and what a chosen mission does.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from grandstrategy.axis_allies.game.board import split

if TYPE_CHECKING:
    from grandstrategy.axis_allies.game.combat import Combat

Offers = Callable[["Combat", str], list[str]]
"""The missions one power may declare now, as options (``done`` is added)."""


def open_round(game: Combat, kind: str, offers: Offers) -> None:
    """Open a round of ``kind`` declarations for the powers not on the mover's side and ask the
    first that has something to offer (the round closes at once when none has)."""
    powers = [p for p in game.order if not game.friendly(game.power, p)]
    battle: dict[str, Any] = {
        "machine": "aarhe",
        "kind": kind,
        "where": game.capital_name(),
        "attacker": game.power,
        "powers": powers,
        "dice": [],
        "ask": None,
        "stage": kind,
    }
    game.d["battle"] = battle
    ask_next(game, battle, offers)


def ask_next(game: Combat, battle: dict[str, Any], offers: Offers) -> None:
    """Ask the next power of the round that has a mission to offer; close the round when none has."""
    while battle["powers"]:
        power = battle["powers"][0]
        options = offers(game, power)
        if options:
            battle["ask"] = {"who": power, "kind": battle["kind"], "options": [*options, "done"]}
            return
        battle["powers"].pop(0)
    game.d["battle"] = None


Record = Callable[[str, str, str, str, int], None]
"""What a declared mission does with some units of one stack: (power, stack, origin, target, count)."""


def answer(
    game: Combat, option: str, offers: Offers, sent: dict[tuple[str, str], int], record: Record, purpose: str
) -> None:
    """The power asked answers: ``done`` passes to the next power; ``VERB TARGET with N UNIT from
    ORIGIN`` takes N undamaged units of that type at ORIGIN not already sent (``sent`` by stack and
    place), stack by stack, hands each part to ``record`` and logs the mission; then the next
    power with something to offer is asked."""
    battle = game.d["battle"]
    battle["ask"] = None
    if option == "done":
        battle["powers"].pop(0)
    else:
        words = option.split()
        target, n, unit, origin = words[1], int(words[3]), words[4], words[6]
        power = battle["powers"][0]
        left = n
        for stack, here in game.stacks(origin):
            owner, kind, _, damage = split(stack)
            if owner == power and kind == unit and not damage and left > 0:
                take = min(left, here - sent.get((stack, origin), 0))
                if take > 0:
                    record(power, stack, origin, target, take)
                    left -= take
        game.log(f"{power} sends {n} {unit} from {origin} to {purpose} {target}")
    ask_next(game, battle, offers)
