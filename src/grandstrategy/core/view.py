"""Per-seat views: the only form in which a state leaves the kernel for a client.

A view is JSON data built by the rule set's :meth:`GameState.view` for one seat (or for a
spectator, ``seat=None``), wrapped with the public facts every client needs. Hidden information
(the contents of a cup, another seat's chits, the generator state) is never part of it.
"""

from __future__ import annotations

from collections.abc import Iterable

from grandstrategy.core.canonical import JSONObject, canonical_json
from grandstrategy.core.chance import ChanceEvent
from grandstrategy.core.errors import UserInputError
from grandstrategy.core.ids import Seat, Turn
from grandstrategy.core.log import ActionEntry, LogEntry
from grandstrategy.core.state import GameState


def view(state: GameState, seat: Seat | None) -> JSONObject:
    """Return what ``seat`` may see of ``state``.

    The result is ``{"seat", "to_act", "terminal", "phase", "state"}`` where ``state`` is the rule
    set's own view. It is checked to be plain JSON data, so it can be sent as it is.

    :raises UserInputError: ``seat`` is not a seat of this game.
    :raises TypeError: the rule set's view is not JSON data (a bug in the rule set).
    """
    if seat is not None and seat not in state.seats():
        raise UserInputError(f"unknown seat {seat!r} (seats: {', '.join(state.seats())})")
    who = state.to_act()
    result: JSONObject = {
        "seat": seat,
        "to_act": who.value if isinstance(who, Turn) else who,
        "terminal": state.is_terminal(),
        "phase": state.phase(),
        "state": state.view(seat),
    }
    canonical_json(result)  # raises TypeError/ValueError if the rule set put in non-JSON data
    return result


HIDDEN = "?"
"""What a view shows in place of a chance outcome that the viewer may not see."""


def log_view(log: Iterable[LogEntry], seat: Seat | None) -> list[JSONObject]:
    """Return the log as ``seat`` may see it: private chance outcomes of other seats, and other
    seats' answers to secret decisions, become ``"?"``.

    ``seat=None`` (a spectator) sees no private outcome or secret answer at all.
    """
    entries: list[JSONObject] = []
    for entry in log:
        data = entry.to_json()
        if isinstance(entry, ChanceEvent) and entry.private_to is not None and entry.private_to != seat:
            data["outcome"] = HIDDEN
        elif isinstance(entry, ActionEntry) and entry.private and entry.seat != seat:
            data["action"] = HIDDEN
        entries.append(data)
    return entries
