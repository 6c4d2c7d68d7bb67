"""The Axis & Allies board as a schematic SVG for the game page (``aa-revised``, ``aa-aarhe``).

Each place is drawn at its centre point (``centres.yaml``, TripleA's public Revised picture) with
the map's adjacencies as faint lines: land territories as rounded boxes filled with their owner's
colour (neutral land grey, impassable land darker), sea zones as pale-blue ellipses; every place
shows its units as one compact count label per power (``3i 1r 2a``), a land territory its IPC
value, capitals a star and victory cities a ring. In the Historical Edition it adds the variant's
terrain classes, each neutral's place on the diplomacy track, and the viewer's own written convoy
routes. Everything is read from the viewing seat's own view of the state (``Match.view``): what
that view takes out for a seat (another power's convoy routes, its National Victory goal picks)
is never drawn. Every text is escaped; the sizes are bounded by the map (at most
:data:`MAX_PLACES` places and :data:`MAX_CHIPS` unit labels a place).

Clicking a shape on the page shows the place's facts (:func:`territory_facts`) in the side panel,
the same mechanism as Cataclysm's map (``data-area`` on each shape).
"""

from __future__ import annotations

from collections import Counter
from typing import Any
from xml.sax.saxutils import escape

from grandstrategy.axis_allies.module.centres import shipped_centres
from grandstrategy.core.canonical import JSONObject, JSONValue
from grandstrategy.core.session import Match
from grandstrategy.core.svg import attr, ink, mix, num, text
from grandstrategy.core.view import HIDDEN
from grandstrategy.web.territories import seen_state, unit_counts

MAX_PLACES = 400
"""Most places drawn (the Revised map has 143)."""
MAX_CHIPS = 6
"""Most unit labels under one place (one per power; Revised has five powers)."""
MAX_LABEL = 60
"""Longest unit label kept (longer ones end in an ellipsis; the panel lists them in full)."""

FONT = "DejaVu Sans, Verdana, Arial, sans-serif"
NAME_PT, MARK_PT = 18.0, 16.0
LAND_H = 52.0
SEA_RX, SEA_RY = 30.0, 20.0
SEA_FILL, SEA_LINE, SEA_INK = "#d4e9f7", "#6fa8d6", "#1f4e79"
NEUTRAL_FILL, IMPASSABLE_FILL = "#fbfaf6", "#a59d8f"
PAD = 50
"""Room around the picture, so that the labels of places at its edges stay inside."""
LEGEND_H = 230.0

POWER_COLOURS = {
    "russians": "#a0502d",
    "germans": "#6b6b6b",
    "british": "#c9a45c",
    "japanese": "#e8a33a",
    "americans": "#4f7f3a",
}
"""Display colours of the Revised powers (the board game's customary ones); any other power
takes a colour from :data:`SPARE_COLOURS` by its turn order."""
SPARE_COLOURS = ("#6a4c93", "#1982c4", "#8ac926", "#ff595e", "#2a9d8f", "#9c6644")

UNIT_CODES = {
    "infantry": "i",
    "artillery": "r",
    "armour": "a",
    "fighter": "f",
    "bomber": "b",
    "aagun": "aa",
    "factory": "IC",
    "transport": "t",
    "submarine": "s",
    "destroyer": "d",
    "carrier": "c",
    "battleship": "B",
}
"""The compact label of each unit type (the legend lists them); an unknown type keeps its name."""

TERRAIN_CODES = {"desert": "D", "snowy": "S", "mountain": "M", "extreme": "X", "miniature": "m"}
"""The Historical Edition's terrain classes, marked by a letter (the legend lists them)."""


def _text_w(text: str, size: float) -> float:
    """Rough width of ``text`` in a DejaVu-like sans font."""
    return len(text) * size * 0.62


def _lines(name: str) -> list[str]:
    """A place's name on one line, or two split at the space nearest the middle when long."""
    if len(name) <= 12 or " " not in name:
        return [name]
    spaces = [i for i, ch in enumerate(name) if ch == " "]
    cut = min(spaces, key=lambda i: abs(i - len(name) / 2))
    return [name[:cut], name[cut + 1 :]]


def _marks(place: Any, ipc: int | None, terrain: str | None, track: int | None) -> str:
    """The marks printed in a land's box: ★ capital, ◎ victory city, its IPC value, and in the
    Historical Edition its terrain letter and a neutral's place on the diplomacy track."""
    marks = ["★"] if place.capital else []
    marks += ["◎"] if place.victory_city else []
    marks += [f"{ipc} IPC"] if ipc else []
    marks += [TERRAIN_CODES.get(terrain, terrain[:3])] if terrain else []
    marks += [f"⚖{track:+d}"] if track is not None else []
    return " ".join(marks)


def _blocked(place: Any, neutral_income: dict[str, int]) -> bool:
    """Whether no unit may enter ``place``: the map's impassable neutrals, except where the rule
    set has a table of neutrals that may be attacked (the Historical Edition, S3:L242)."""
    return bool(place.impassable) and place.id not in neutral_income


def power_colours(match: Match) -> dict[str, str]:
    """Every power's display colour, in turn order."""
    order = [str(seat) for seat in match.state.seats()]
    spare = iter(SPARE_COLOURS * (1 + len(order) // len(SPARE_COLOURS)))
    return {power: POWER_COLOURS.get(power) or next(spare) for power in order}


def compact(units: Counter[str]) -> str:
    """A compact count label, e.g. ``3i 1r 2a 1f``, in the order of :data:`UNIT_CODES`."""
    known = [kind for kind in UNIT_CODES if units.get(kind)]
    other = sorted(kind for kind in units if kind not in UNIT_CODES)
    label = " ".join(f"{units[kind]}{UNIT_CODES.get(kind, kind)}" for kind in [*known, *other])
    return label if len(label) <= MAX_LABEL else label[: MAX_LABEL - 1] + "…"


def _aarhe_facts(match: Match, data: dict[str, Any]) -> tuple[dict[str, str], dict[str, int], dict[str, int]]:
    """The Historical Edition's public facts by place: terrain class, each neutral's place on
    the diplomacy track (from the view) and its income (the variant's table); empty elsewhere."""
    tables: Any = getattr(getattr(match.state, "profile", None), "tables", None)
    aarhe = data.get("aarhe")
    if tables is None or not isinstance(aarhe, dict):
        return {}, {}, {}
    terrain = {str(t.territory): str(t.kind) for t in tables.map.terrain}
    track = aarhe.get("neutrals")
    positions = {str(k): v for k, v in track.items() if isinstance(v, int)} if isinstance(track, dict) else {}
    income = {str(n.territory): int(n.income) for n in tables.diplomacy.neutrals}
    return terrain, positions, income


def _own_convoys(data: dict[str, Any], seat: str | None) -> list[tuple[str, list[str], int]]:
    """The convoy routes written down that this view shows (``(power, zones, IPCs)``): the
    seat's own before the end, every one after it; another seat's are ``?`` in the view."""
    aarhe = data.get("aarhe")
    convoys = aarhe.get("convoys") if isinstance(aarhe, dict) else None
    found: list[tuple[str, list[str], int]] = []
    if not isinstance(convoys, dict):
        return found
    for power, written in convoys.items():
        if written == HIDDEN or not isinstance(written, dict):
            continue
        for entry in written.get("routes", [])[:20]:
            if (
                isinstance(entry, list)
                and len(entry) == 2
                and isinstance(entry[0], list)
                and isinstance(entry[1], int)
            ):
                found.append((str(power), [str(zone) for zone in entry[0][:40]], int(entry[1])))
    return found


class _Facts:
    """What the board reads besides the map: owners and units from the seat's view, the power
    colours, and the Historical Edition's terrain, diplomacy track and neutral incomes."""

    def __init__(self, match: Match, data: dict[str, Any]) -> None:
        self.owners: dict[str, Any] = data["owner"]
        self.units: dict[str, Any] = data["units"]
        self.colours = power_colours(match)
        self.terrain, self.track, self.income = _aarhe_facts(match, data)

    def owner(self, place: str) -> str | None:
        found = self.owners.get(place)
        return found if isinstance(found, str) else None


def board_svg(match: Match, seat: str | None, seen: dict[str, Any] | None = None) -> str | None:
    """The board as ``seat`` (``None``: a spectator) sees it, as one ``<svg>`` element; None for
    a rule set without the A&A map (no module with places, or a view without owners and units).
    ``seen``: the seat's view's state when the caller has it already (``territories.seen_state``)."""
    module: Any = getattr(match.state, "module", None)
    places: dict[str, Any] = dict(getattr(module, "territories", None) or {})
    data = (seen if seen is not None else seen_state(match, seat)) if places else None
    if data is None:
        return None
    centres = shipped_centres(module)
    facts = _Facts(match, data)
    width, height = centres.size
    shown = [place for place in places.values() if place.id in centres.points][:MAX_PLACES]
    shapes: list[str] = []
    labels: list[str] = []
    for place in shown:
        x, y = centres.points[place.id]
        if place.type.value == "sea":
            shape, names, below = _sea(place, x, y)
        else:
            shape, names, below = _land(place, x, y, facts)
        shapes.append(shape)
        labels += names
        counted = unit_counts(facts.units.get(place.id))
        for index, (power, held) in enumerate(list(counted.items())[:MAX_CHIPS]):
            colour = facts.colours.get(power, "#ffffff")
            labels.append(_chip(x, below + index * 21, compact(held), colour, place.id, power))
    lines = _adjacency(shown, places, centres.points, width)
    passages = [_canal(canal, places, centres.points) for canal in getattr(module, "canals", {}).values()]
    convoys = _convoy_paths(_own_convoys(data, seat), centres.points)
    legend = _legend(match, facts.colours, bool(facts.terrain), height + PAD)
    title = "The board: territories and sea zones, owners, units and adjacencies"
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" class="aa-board"'
        f' viewBox="{-PAD} {-PAD} {width + 2 * PAD} {num(height + 2 * PAD + LEGEND_H)}"'
        f' font-family="{FONT}" role="img" aria-label="{attr(title)}">'
        f'<rect x="{-PAD}" y="{-PAD}" width="{width + 2 * PAD}" height="{height + 2 * PAD}" fill="#f3f7fb"/>'
        f'<g class="adjacency">{"".join(lines)}</g><g class="canals">{"".join(passages)}</g>'
        f'<g class="places">{"".join(shapes)}</g>'
        f'<g class="labels">{"".join(labels)}</g><g class="convoys">{"".join(convoys)}</g>{legend}</svg>'
    )


def _adjacency(shown: list[Any], places: dict[str, Any], points: Any, width: int) -> list[str]:
    """One faint line per adjacency (land to land grey, with a sea blue); a line that would
    cross the whole picture (the Pacific wraps around) is drawn as two stubs to its edges."""
    lines: list[str] = []
    drawn: set[tuple[str, str]] = set()
    for place in shown:
        a = points[place.id]
        for other in place.neighbours:
            key = (min(place.id, other), max(place.id, other))
            if key in drawn or other not in points:
                continue
            drawn.add(key)
            b = points[other]
            sea = place.type.value == "sea" or places[other].type.value == "sea"
            style = f'stroke="{SEA_LINE if sea else "#8a8070"}" stroke-width="2" stroke-opacity="0.35"'
            if abs(a[0] - b[0]) > width / 2:
                left, right = (a, b) if a[0] < b[0] else (b, a)
                mid_y = num((left[1] + right[1]) / 2)
                lines.append(f'<line x1="{left[0]}" y1="{left[1]}" x2="0" y2="{mid_y}" {style}/>')
                lines.append(f'<line x1="{right[0]}" y1="{right[1]}" x2="{width}" y2="{mid_y}" {style}/>')
            else:
                lines.append(f'<line x1="{a[0]}" y1="{a[1]}" x2="{b[0]}" y2="{b[1]}" {style}/>')
    return lines


def _sea(place: Any, x: int, y: int) -> tuple[str, list[str], float]:
    """A sea zone's ellipse, its number, and where its unit labels start."""
    shape = (
        f'<ellipse class="sea" data-area="{attr(place.id)}" cx="{x}" cy="{y}" rx="{num(SEA_RX)}"'
        f' ry="{num(SEA_RY)}" fill="{SEA_FILL}" stroke="{SEA_LINE}" stroke-width="2">'
        f"<title>{escape(f'{place.name} (sea zone)')}</title></ellipse>"
    )
    first = place.name.split()[0]
    number = first if first.isdigit() else place.name[:4]
    label = text(x, y + 6, number, NAME_PT, fill=SEA_INK, font_style="italic", font_weight="bold")
    return shape, [label], y + SEA_RY + 14


def _land(place: Any, x: int, y: int, facts: _Facts) -> tuple[str, list[str], float]:
    """A land territory's box in its owner's colour (its facts in the title), its name and
    marks, and where its unit labels start."""
    owner = facts.owner(place.id)
    neutral = owner is None and place.id in facts.income
    ipc = facts.income[place.id] if neutral else place.ipc
    track = facts.track.get(place.id) if owner is None else None
    terrain = facts.terrain.get(place.id)
    blocked = _blocked(place, facts.income)
    marks = _marks(place, ipc, terrain, track)
    name_lines = _lines(place.name)
    widest = max([*(_text_w(line, NAME_PT) for line in name_lines), _text_w(marks, MARK_PT) * 1.1])
    half_w = max(widest / 2 + 8, 34.0)
    half_h = LAND_H / 2 + (9 if len(name_lines) > 1 else 0)
    if owner is not None and owner in facts.colours:
        fill, edge = mix(facts.colours[owner], 0.5), mix(facts.colours[owner], 0.3, 0)
    else:
        fill, edge = (IMPASSABLE_FILL if blocked else NEUTRAL_FILL), "#777777"
    told = [place.name, f"owner {owner or 'neutral'}", f"{ipc or 0} IPC"]
    told += ["capital"] if place.capital else []
    told += ["victory city"] if place.victory_city else []
    told += ["impassable"] if blocked else []
    told += [f"terrain {terrain}"] if terrain else []
    told += [f"neutral, diplomacy track {track:+d}"] if track is not None else []
    shape = (
        f'<rect class="land" data-area="{attr(place.id)}" data-owner="{attr(owner or "")}"'
        f' x="{num(x - half_w)}" y="{num(y - half_h)}" width="{num(2 * half_w)}" height="{num(2 * half_h)}"'
        f' rx="9" fill="{fill}" stroke="{edge}" stroke-width="{4 if place.capital else 2}">'
        f"<title>{escape('; '.join(told))}</title></rect>"
    )
    top = y - half_h + NAME_PT + 2
    weight = "bold" if place.capital else "normal"
    labels = [
        text(x, top + index * (NAME_PT + 1), line, NAME_PT, fill="#111111", font_weight=weight)
        for index, line in enumerate(name_lines)
    ]
    if marks:
        labels.append(text(x, y + half_h - 7, marks, MARK_PT, fill="#333333", font_weight="bold"))
    return shape, labels, y + half_h + 14


def _convoy_paths(routes: list[tuple[str, list[str], int]], points: Any) -> list[str]:
    """The convoy routes this view shows, as dashed red paths through their zones' centres."""
    paths: list[str] = []
    for power, zones, ipcs in routes:
        at = [points[zone] for zone in zones if zone in points]
        if len(at) < 2:
            continue
        path = " L".join(f"{px},{py}" for px, py in at)
        tip = f"{power} convoy of {ipcs} IPC via {', '.join(zones)} (written down, secret until revealed)"
        paths.append(
            f'<path class="convoy" data-power="{attr(power)}" d="M{path}" fill="none"'
            f' stroke="#b8001f" stroke-width="5" stroke-dasharray="14 8"><title>{escape(tip)}</title></path>'
        )
    return paths


CANAL = 'fill="none" stroke="#00897b" stroke-width="6" stroke-dasharray="4 6" stroke-linecap="round"'


def _canal(canal: Any, places: dict[str, Any], points: Any) -> str:
    """A canal (or the Historical Edition's straits, kept as canals): a dotted line from one of
    its sea zones through the land that holds it to the other, titled with who must hold what."""
    route = [canal.sea_zones[0], *canal.controlled_by[:1], *canal.sea_zones[1:2]]
    if not all(where in points for where in route):
        return ""
    path = " L".join(f"{points[where][0]},{points[where][1]}" for where in route)
    zones = " and ".join(places[zone].name for zone in canal.sea_zones if zone in places)
    held = " and ".join(places[land].name for land in canal.controlled_by if land in places)
    tip = f"{canal.name}: ships pass between {zones} only if their side holds {held}"
    return f'<path class="canal" d="M{path}" {CANAL}><title>{escape(tip)}</title></path>'


def _chip(x: float, y: float, label: str, colour: str, area: str, power: str) -> str:
    """One power's unit count label under a place, in the power's colour (clicks open the place)."""
    half = _text_w(label, MARK_PT) / 2 + 6
    return (
        f'<g class="units" data-area="{attr(area)}" data-power="{attr(power)}">'
        f'<rect x="{num(x - half)}" y="{num(y - 9)}" width="{num(2 * half)}" height="19" rx="4"'
        f' fill="{colour}" stroke="#222222" stroke-width="1"/>'
        + text(x, y + 6, label, MARK_PT, fill=ink(colour), font_weight="bold")
        + "</g>"
    )


def _legend(match: Match, colours: dict[str, str], aarhe: bool, top: float) -> str:
    """The key under the board: power colours, place styles, marks, unit codes (and the
    Historical Edition's terrain letters and diplomacy track)."""
    module: Any = getattr(match.state, "module", None)
    powers: dict[str, Any] = dict(getattr(module, "powers", None) or {})
    box = '<rect x="-24" y="-13" width="48" height="26" rx="6" '
    entries = [
        (box + f'fill="{mix(colour, 0.5)}" stroke="{mix(colour, 0.3, 0)}" stroke-width="2"/>',
         str(getattr(powers.get(power), "name", power)))
        for power, colour in colours.items()
    ]  # fmt: skip
    entries += [
        (box + f'fill="{NEUTRAL_FILL}" stroke="#8a8a8a" stroke-width="2"/>', "neutral land"),
        (box + f'fill="{IMPASSABLE_FILL}" stroke="#8a8a8a" stroke-width="2"/>', "impassable neutral"),
        (f'<ellipse rx="26" ry="16" fill="{SEA_FILL}" stroke="{SEA_LINE}" stroke-width="2"/>', "sea zone"),
        (
            f'<line x1="-24" y1="0" x2="24" y2="0" stroke="{SEA_LINE}" stroke-width="2"'
            ' stroke-opacity="0.5"/>',
            "adjacent (faint line)",
        ),
        (text(0, 6, "★ ◎", MARK_PT, font_weight="bold"), "capital / victory city"),
        (text(0, 6, "3 IPC", MARK_PT, font_weight="bold"), "IPC value"),
        (_chip(0, 0, "3i 1a", "#777777", "", ""), "units of a power (count, type)"),
        ('<path d="M-24,0 L24,0" ' + CANAL + "/>", "canal or strait (held by a land)"),
    ]
    codes = ", ".join(f"{code} {kind}" for kind, code in UNIT_CODES.items())
    if aarhe:
        entries.append(
            (text(0, 6, "M ⚖+1", MARK_PT, font_weight="bold"), "terrain / neutral's diplomacy track")
        )
        entries.append(
            ('<line x1="-24" y1="0" x2="24" y2="0" stroke="#b8001f" stroke-width="5"'
             ' stroke-dasharray="14 8"/>', "your convoy route (written down)")
        )  # fmt: skip
    parts = [
        f'<g class="legend"><rect x="{-PAD}" y="{num(top)}" width="100%"'
        f' height="{num(LEGEND_H)}" fill="#ffffff"/>'
    ]
    rows = 4
    for index, (swatch, label) in enumerate(entries):
        x, y = 60 + 520 * (index // rows), top + 36 + 44 * (index % rows)
        parts.append(
            f'<g transform="translate({num(x)},{num(y)})">{swatch}'
            f'<text x="40" y="6" font-size="20">{escape(label)}</text></g>'
        )
    footer = "Units: " + codes
    if aarhe:
        footer += "; terrain: " + ", ".join(f"{code} {kind}" for kind, code in TERRAIN_CODES.items())
    parts.append(text(40, top + LEGEND_H - 18, footer, 20, text_anchor="start", fill="#333333"))
    return "".join(parts) + "</g>"


def territory_facts(match: Match, seat: str | None, name: str) -> JSONObject | None:
    """One place's facts for the side panel as ``seat`` (``None``: a spectator) sees them: its
    name, kind, owner, IPC value, capital and victory city, units by power, neighbours, and the
    Historical Edition's terrain and neutral track; None when no place has that id or name."""
    module: Any = getattr(match.state, "module", None)
    data = seen_state(match, seat) if module is not None else None
    if data is None:
        return None
    place = module.territories.get(name) or module.find_territory(name)
    if place is None:
        return None
    terrain, track, income = _aarhe_facts(match, data)
    owner = data["owner"].get(place.id)
    owner = owner if isinstance(owner, str) else None
    counted = unit_counts(data["units"].get(place.id))
    ipc = income.get(place.id, place.ipc) if owner is None and place.id in income else place.ipc
    neighbours: list[JSONValue] = [
        {"id": other, "name": module.territories[other].name}
        for other in place.neighbours
        if other in module.territories
    ]
    units: list[JSONValue] = [
        {"power": power, "units": ", ".join(f"{n} {kind}" for kind, n in held.items())}
        for power, held in counted.items()
    ]
    return {
        "id": place.id,
        "name": place.name,
        "kind": place.type.value,
        "owner": owner,
        "original_owner": place.original_owner,
        "ipc": ipc,
        "capital": place.capital,
        "victory_city": place.victory_city,
        "impassable": _blocked(place, income),
        "units": units,
        "neighbours": neighbours,
        "terrain": terrain.get(place.id),
        "diplomacy": track.get(place.id) if owner is None else None,
    }


__all__ = ["UNIT_CODES", "board_svg", "compact", "power_colours", "territory_facts", "unit_counts"]
