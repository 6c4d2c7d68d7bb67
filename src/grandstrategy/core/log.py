"""The action log: every seat's action (in notation) and every chance event, in order.

A log entry is either an :class:`ActionEntry` or a :class:`~grandstrategy.core.chance.ChanceEvent`.
In JSON they are ``{"type": "action", "seat": ..., "action": ...}`` and
``{"type": "chance", "seq": ..., "kind": ..., "label": ..., "outcome": ...}``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TypeAlias

from grandstrategy.core.canonical import JSONObject, JSONValue
from grandstrategy.core.chance import ChanceEvent
from grandstrategy.core.ids import Seat


@dataclass(frozen=True, slots=True)
class ActionEntry:
    """A seat's action, as notation text; ``private`` when it answered a secret decision (only
    its seat may see it, :meth:`GameState.private_decision`)."""

    seat: Seat
    action: str
    private: bool = False

    def to_json(self) -> JSONObject:
        """Return the entry as a JSON object (``private`` only when set, so older logs read the same)."""
        data: JSONObject = {"type": "action", "seat": self.seat, "action": self.action}
        if self.private:
            data["private"] = True
        return data


LogEntry: TypeAlias = ActionEntry | ChanceEvent


def describe(entry: LogEntry) -> str:
    """One line for people: ``"north: roll"`` or ``"chance die 'north rolls': 4"``."""
    if isinstance(entry, ActionEntry):
        return f"{entry.seat}: {entry.action}"
    private = f" (seen only by {entry.private_to})" if entry.private_to is not None else ""
    return f"chance {entry.kind} {entry.label!r}: {entry.outcome}{private}"


def _field(data: JSONObject, name: str, kind: type, what: str) -> JSONValue:
    if name not in data:
        raise ValueError(f"missing field {name!r}")
    value = data[name]
    if not isinstance(value, kind) or isinstance(value, bool):
        raise ValueError(f"field {name!r} must be {what}, not {value!r}")
    return value


def entry_from_json(data: JSONValue) -> LogEntry:
    """Read one log entry written by ``to_json``.

    :raises ValueError: the entry is not an object, has an unknown type, or a field is missing or
        of the wrong type (the message names the field).
    """
    if not isinstance(data, dict):
        raise ValueError(f"a log entry must be a JSON object, not {data!r}")
    kind = data.get("type")
    if kind == "action":
        allowed = {"type", "seat", "action", "private"}
        seat = _field(data, "seat", str, "text")
        action = _field(data, "action", str, "text")
        private = data.get("private", False)
        if not isinstance(private, bool):
            raise ValueError(f"field 'private' must be true or false, not {private!r}")
        entry: LogEntry = ActionEntry(Seat(seat), action, private)
    elif kind == "chance":
        allowed = {"type", "seq", "kind", "label", "outcome", "private_to"}
        private_to = _field(data, "private_to", str, "text") if "private_to" in data else None
        entry = ChanceEvent(
            seq=_field(data, "seq", int, "an integer"),
            kind=_field(data, "kind", str, "text"),
            label=_field(data, "label", str, "text"),
            outcome=_field(data, "outcome", str, "text"),
            private_to=None if private_to is None else Seat(private_to),
        )
    else:
        raise ValueError(f"field 'type' must be 'action' or 'chance', not {kind!r}")
    extra = sorted(set(data) - allowed)
    if extra:
        raise ValueError(f"unknown field(s) {', '.join(map(repr, extra))}")
    return entry
