"""The page's list of territories for a rule set without a drawn map (the Axis & Allies family).

Each row is one land territory (its owner, IPC value and units) or one sea zone with units in it,
read only from the seat's own view of the state (``Match.view``), so whatever that view takes
out for this seat (an AARHE convoy route, a National Victory goal pick) stays out of the page too.
Names and IPC values come from the rule set's map module, which is public.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from grandstrategy.core.canonical import JSONValue
from grandstrategy.core.ids import Seat
from grandstrategy.core.session import Match

MAX_ROWS = 400
"""Most rows listed (the Revised map has about 140 places; a bound against a runaway module)."""


def seen_state(match: Match, seat: str | None) -> dict[str, Any] | None:
    """The state data of ``seat``'s own view (``None``: a spectator), or None for a rule set whose
    view has no owner and unit tables (e.g. Cataclysm, which draws its map)."""
    view = match.view(None if seat is None else Seat(seat))
    data = view.get("state") if isinstance(view, dict) else None
    if not isinstance(data, dict):
        return None
    if not isinstance(data.get("owner"), dict) or not isinstance(data.get("units"), dict):
        return None
    return data


def unit_counts(stacks: object) -> dict[str, Counter[str]]:
    """Units by power and type from one place's ``{"power:type:moves:damage": count}``, whatever
    their moves left or damage, powers in the order first met."""
    counted: dict[str, Counter[str]] = {}
    if not isinstance(stacks, dict):
        return counted
    for stack, count in stacks.items():
        parts = str(stack).split(":")
        if len(parts) < 2 or not isinstance(count, int) or isinstance(count, bool) or count <= 0:
            continue
        counted.setdefault(parts[0], Counter())[parts[1]] += count
    return counted


def territory_rows(
    match: Match, seat: str | None, seen: dict[str, Any] | None = None
) -> list[JSONValue] | None:
    """The rows for ``seat`` (``None``: a spectator), land first then seas, each in map order:
    ``{"id", "name", "kind", "ipc", "owner", "units": [{"power", "units": "3 infantry, ..."}]}``;
    ``None`` when the view has no owner and unit tables (e.g. Cataclysm, which draws its map).
    ``seen``: the seat's view's state when the caller has it already (:func:`seen_state`)."""
    data = seen if seen is not None else seen_state(match, seat)
    if data is None:
        return None
    owners, units = data["owner"], data["units"]
    module: Any = getattr(match.state, "module", None)
    places: dict[str, Any] = dict(getattr(module, "territories", None) or {})
    order = [*places, *sorted((set(owners) | set(units)) - set(places))]
    land: list[JSONValue] = []
    sea: list[JSONValue] = []
    for where in order:
        place = places.get(where)
        kind = str(getattr(getattr(place, "type", None), "value", "land" if where in owners else "sea"))
        held = _units(units.get(where))
        if kind != "land" and not held:
            continue  # an empty sea zone says nothing
        row: JSONValue = {
            "id": where,
            "name": str(getattr(place, "name", None) or where),
            "kind": kind,
            "ipc": getattr(place, "ipc", None),
            "owner": owners.get(where),
            "units": held,
        }
        (land if kind == "land" else sea).append(row)
    return [*land, *sea][:MAX_ROWS]


def _units(stacks: object) -> list[JSONValue]:
    """One entry per power in ``stacks``, its unit types counted together whatever their moves
    left or damage, e.g. ``"3 infantry, 1 armour"``."""
    return [
        {"power": power, "units": ", ".join(f"{n} {unit}" for unit, n in counted.items())}
        for power, counted in unit_counts(stacks).items()
    ]
