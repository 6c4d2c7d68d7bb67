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


def territory_rows(match: Match, seat: str | None) -> list[JSONValue] | None:
    """The rows for ``seat`` (``None``: a spectator), land first then seas, each in map order:
    ``{"id", "name", "kind", "ipc", "owner", "units": [{"power", "units": "3 infantry, ..."}]}``;
    ``None`` when the view has no owner and unit tables (e.g. Cataclysm, which draws its map)."""
    view = match.view(None if seat is None else Seat(seat))
    data = view.get("state") if isinstance(view, dict) else None
    if not isinstance(data, dict):
        return None
    owners, units = data.get("owner"), data.get("units")
    if not isinstance(owners, dict) or not isinstance(units, dict):
        return None
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
    """One entry per power in ``stacks`` (``{"power:type:moves:damage": count}``), its unit types
    counted together whatever their moves left or damage, e.g. ``"3 infantry, 1 armour"``."""
    if not isinstance(stacks, dict):
        return []
    per_power: dict[str, Counter[str]] = {}
    for stack, count in stacks.items():
        parts = str(stack).split(":")
        if len(parts) < 2 or not isinstance(count, int) or count <= 0:
            continue
        per_power.setdefault(parts[0], Counter())[parts[1]] += count
    return [
        {"power": power, "units": ", ".join(f"{n} {unit}" for unit, n in counted.items())}
        for power, counted in per_power.items()
    ]
