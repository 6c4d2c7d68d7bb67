"""Draw a Cataclysm module's maps, and optionally a scenario's set-up, as one standalone SVG.

:func:`render_map` is a pure function: pure-Python text generation, no randomness, areas and
connections visited in module order, so the same input always gives the same bytes. Each map is
a framed panel; areas sit at their ``pos`` scaled to a common panel width. Land areas are
rounded boxes coloured by controller, seas pale-blue ellipses, mixed areas half of each.
"""

from __future__ import annotations

from collections.abc import Sequence
from xml.sax.saxutils import escape

from grandstrategy.cataclysm.module.schema import Area, AreaStatus, AreaType, ResourceKind, Scenario
from grandstrategy.cataclysm.module.world import Module
from grandstrategy.core.svg import attr, ink, mix, num, text

PANEL_W = 2200.0  # width the map coordinates are scaled to
PAD = 60.0  # room inside a panel frame around the map coordinates
MARGIN = 20.0
TITLE_H = 44.0
BOX_H = 40.0
NAME_PT, MARK_PT = 14.0, 11.0  # font sizes of area names and of marks, chips and badges
SEA_FILL, SEA_LINE, SEA_INK = "#d4e9f7", "#6fa8d6", "#1f4e79"
COUNTRY_FILL, CHINESE_FILL = "#e4e4e4", "#f7cf9a"
BORDER = 'stroke="#b5b5b5" stroke-width="1.5"'
AIR = 'stroke="#1e64c8" stroke-width="2.5" stroke-dasharray="2 5"'
STRAIT = 'stroke="#111111" stroke-width="4" marker-mid="url(#strait)"'
OFFMAP = 'stroke="#8a8a8a" stroke-width="2.5" stroke-dasharray="9 6" marker-mid="url(#offmap)"'
FONT = "DejaVu Sans, Verdana, Arial, sans-serif"
FOOTER = "Reconstructed module — not GMT's map"
UNIT_CODES = {
    "infantry-army": "Inf", "tank-army": "Tank", "fortress": "Fort", "surface-fleet": "Fleet",
    "carrier-fleet": "Carrier", "submarine-pack": "Sub", "tactical-air": "TacAir",
    "strategic-air": "StratAir", "logistics": "Log",
}  # fmt: skip
_MARK_COLOURS = {
    "I": "#8e1b1b", "N": "#1b5e20", "L": "#6a1b9a", "S": "#c62828", "★": "#b8860b", "r": "#333333",
    "R": "#c62828", "▲": "#795548", "rem": "#455a64", "delay": "#455a64", "off-map": "#455a64",
    "W": "#00695c",
}  # fmt: skip
Shape = tuple[float, float, float, float]  # centre x, centre y, half width, half height


def _text_w(text: str, size: float, bold: bool = False) -> float:
    """Rough width of ``text`` in a DejaVu-like sans font."""
    return len(text) * size * (0.68 if bold else 0.61)


def _line(a: tuple[float, float], b: tuple[float, float], style: str) -> str:
    return f'<line x1="{num(a[0])}" y1="{num(a[1])}" x2="{num(b[0])}" y2="{num(b[1])}" {style}/>'


def _circle(x: float, y: float, letter: str, fill: str) -> str:
    """A circled letter: a map connector."""
    circle = f'<circle cx="{num(x)}" cy="{num(y)}" r="12" fill="{fill}" stroke="#111111" stroke-width="2"/>'
    return circle + text(x, y + 5, letter, 14, font_weight="bold")


def _frame(top: float, height: float, title: str, fill: str) -> str:
    """A framed block across the page, with its title at the top left."""
    width = num(PANEL_W + 2 * PAD)
    rect = f'<rect x="{num(MARGIN)}" y="{num(top)}" width="{width}" height="{num(height)}" rx="8"'
    rect += f' fill="{fill}" stroke="#555555" stroke-width="2"/>'
    return rect + text(MARGIN + 16, top + 32, title, 24, font_weight="bold", text_anchor="start")


def _via(a: tuple[float, float], b: tuple[float, float], style: str) -> str:
    """A line from ``a`` to ``b`` through its midpoint, so that a ``marker-mid`` sits half-way."""
    mid = (a[0] + b[0]) / 2, (a[1] + b[1]) / 2
    points = " L".join(f"{num(x)},{num(y)}" for x, y in (a, mid, b))
    return f'<path d="M{points}" fill="none" {style}/>'


def _map_ids(module: Module, scenario: Scenario | None, maps: Sequence[str] | None) -> list[str]:
    """The maps to draw, in module order: ``maps``, else the scenario's, else all of them."""
    wanted = (
        set(maps) if maps is not None else {m.value for m in scenario.maps} if scenario else set(module.maps)
    )
    unknown = wanted - set(module.maps)
    if unknown:
        raise ValueError(f"unknown map(s): {', '.join(sorted(unknown))}")
    return [map_id for map_id in module.maps if map_id in wanted]


def _badges(area: Area) -> list[str]:
    """Small marks printed under a land area's name (resources, then flags); see the legend."""
    marks: list[str] = []
    for res in area.resources:
        if res.limited:
            marks.append(f"L:{res.marker}")
        else:
            marks.append({ResourceKind.INDUSTRIAL: "I", ResourceKind.NATURAL: "N"}.get(res.kind, "S"))
    flags = [
        (area.minor_army is not None, "★"), (area.resistance > 0, f"r{area.resistance}"),
        (area.restricted, "R"), (area.adverse, "▲"), (area.remote, "rem"), (area.delay_box, "delay"),
        (area.off_map, "off-map"), (area.wnt_zone, "W"),
    ]  # fmt: skip
    return marks + [mark for on, mark in flags if on]


def _marks_text(marks: Sequence[str]) -> str:
    """The coloured ``<tspan>`` run of some marks, for inside a ``<text>``."""
    return " ".join(
        f'<tspan fill="{_MARK_COLOURS.get(m) or _MARK_COLOURS[m[0]]}">{escape(m)}</tspan>' for m in marks
    )


def _chip(x: float, y: float, label: str, colour: str, bold: bool = False) -> str:
    """A small rounded label centred on (x, y), filled with ``colour``: a unit or a base."""
    half = _text_w(label, MARK_PT, bold) / 2 + 5
    weight = "bold" if bold else "normal"
    return (
        f'<rect x="{num(x - half)}" y="{num(y - 8)}" width="{num(2 * half)}" height="16" rx="4"'
        f' fill="{colour}" stroke="#222222" stroke-width="1"/>'
        + text(x, y + 4, label, MARK_PT, fill=ink(colour), font_weight=weight)
    )


def _tooltip(module: Module, area: Area, controller: str | None) -> str:
    """A plain-text description of the area for the SVG ``<title>``."""
    owner = f" of {module.powers[area.owner].name}" if area.owner else ""
    facts = [f"{area.name} ({area.type.value}" + (f", {area.status.value}{owner})" if area.status else ")")]
    facts += [f"controlled by {module.powers[controller].name}"] if controller else []
    facts += [f"minor army: {area.minor_army.name}"] if area.minor_army else []
    facts += [f"special base: {area.special_base.name}"] if area.special_base else []
    facts += [f"{base.kind.value} base {base.name or ''}".rstrip() for base in area.bases]
    return "; ".join(facts)


class _Panel:
    """One map panel being drawn; collects SVG fragments in layers (lines under shapes under text)."""

    def __init__(self, module: Module, scenario: Scenario | None, map_id: str, top: float) -> None:
        self.module, self.scenario, self.map_id = module, scenario, map_id
        size = module.maps[map_id].size
        self.scale = PANEL_W / size[0]
        self.top = top
        self.height = TITLE_H + size[1] * self.scale + 2 * PAD
        self.areas = [a for a in module.areas.values() if a.map.value == map_id]
        self.shapes: dict[str, Shape] = {a.id: self._shape(a) for a in self.areas}
        self.below: dict[str, float] = {}  # where unit chips go under each area
        self.layers: dict[str, list[str]] = {k: [] for k in ("lines", "shapes", "names", "marks", "chips")}

    def point(self, area: Area) -> tuple[float, float]:
        return MARGIN + PAD + area.pos[0] * self.scale, self.top + TITLE_H + PAD + area.pos[1] * self.scale

    def _shape(self, area: Area) -> Shape:
        x, y = self.point(area)
        name_w = _text_w(self._label(area), NAME_PT, bold=area.capital or area.type is AreaType.SEA)
        if area.type is AreaType.SEA:
            chip_w = max((_text_w(f"⚓ {b.name or ''}", MARK_PT) for b in area.bases), default=0.0)
            return x, y, max(name_w / 2 + 18, chip_w / 2 + 22, 48), 19 + 10 * len(area.bases)
        badge_w = sum(_text_w(mark, MARK_PT, True) + 4 for mark in _badges(area))
        return x, y, max(name_w, badge_w, 56) / 2 + 9, BOX_H / 2

    @staticmethod
    def _label(area: Area) -> str:
        return area.name.upper() if area.capital else area.name

    def controller(self, area: Area) -> str | None:
        if self.scenario is not None:
            return self.module.controller(self.scenario, area.id)
        return area.owner if area.status in (AreaStatus.HOME, AreaStatus.COLONY) else None

    def render(self) -> str:
        self._connections()
        for area in self.areas:
            self._area(area)
        if self.scenario is not None:
            self._units(self.scenario)
        title = self.module.maps[self.map_id].title
        frame = f'<g id="map-{attr(self.map_id)}">' + _frame(self.top, self.height, title, "#fbfaf5")
        body = "\n".join(part for layer in self.layers.values() for part in layer)
        return f"{frame}\n{body}\n</g>"

    # -- connections ---------------------------------------------------------------------

    def _connections(self) -> None:
        lines = self.layers["lines"]
        seen: set[tuple[str, str, str]] = set()
        for area in self.areas:
            for edge in self.module.neighbors(area.id):
                if edge.kind == "connector":
                    self._connector(area, edge.target, edge.label or "?", edge.modes or frozenset())
                    continue
                key = (min(edge.source, edge.target), max(edge.source, edge.target), edge.kind)
                if key in seen or edge.target not in self.shapes:
                    continue
                seen.add(key)
                target = self.module.areas[edge.target]
                a, b = self.point(area), self.point(target)
                mid = ((a[0] + b[0]) / 2, (a[1] + b[1]) / 2)
                if edge.kind == "border":
                    lines.append(_line(a, b, BORDER))
                elif edge.kind == "strait":
                    lines.append(_via(a, b, STRAIT))
                elif edge.kind == "air":
                    lines.append(_line(a, b, AIR))
                    lines.append(text(mid[0], mid[1] + 7, "✈", 20, fill="#1e64c8"))
                else:  # offmap: white arrow towards the off-map area
                    if area.off_map and not target.off_map:
                        a, b = b, a
                    lines.append(_via(a, b, OFFMAP))
        for group in self.module.impassable:
            for first, second in group.pairs:
                if first in self.shapes and second in self.shapes:
                    self._impassable(self.module.areas[first], self.module.areas[second])

    def _impassable(self, first: Area, second: Area) -> None:
        (ax, ay), (bx, by) = self.point(first), self.point(second)
        mx, my = (ax + bx) / 2, (ay + by) / 2
        length = max(((bx - ax) ** 2 + (by - ay) ** 2) ** 0.5, 1.0)
        nx, ny = -(by - ay) / length * 16, (bx - ax) / length * 16
        self.layers["marks"].append(
            _line((mx - nx, my - ny), (mx + nx, my + ny), 'stroke="#d50000" stroke-width="5"')
            + text(mx, my + 7, "✕", 20, fill="#d50000", font_weight="bold")
        )

    def _connector(self, area: Area, target: str, label: str, modes: frozenset[str]) -> None:
        x, y, hw, hh = self.shapes[area.id]
        other = self.module.areas[target]
        fill = "#bfe3ff" if modes == {"naval"} else "#ffffff"
        cx, cy = x - hw + 2, y - hh - 6
        self.layers["chips"].append(
            f"<g><title>{escape(f'Map connector {label}: to {other.name} ({other.map.value} map)')}</title>"
            f"{_circle(cx, cy, label, fill)}</g>"
        )

    # -- areas ---------------------------------------------------------------------------

    def _area(self, area: Area) -> None:
        x, y, hw, hh = self.shapes[area.id]
        shape, name, mark = (self.layers[k].append for k in ("shapes", "names", "marks"))
        controller = self.controller(area)
        tip = f"<title>{escape(_tooltip(self.module, area, controller))}</title>"
        if area.type is AreaType.SEA:
            dash = ' stroke-dasharray="8 5"' if area.off_map else ""
            shape(
                f'<ellipse id="area-{area.id}" data-area="{attr(area.id)}"'
                f' cx="{num(x)}" cy="{num(y)}" rx="{num(hw)}" ry="{num(hh)}"'
                f' fill="{SEA_FILL}" stroke="{SEA_LINE}" stroke-width="2"{dash}>{tip}</ellipse>'
            )
            name_y = y + 5 - 9 * len(area.bases)
            name(text(x, name_y, area.name, NAME_PT, fill=SEA_INK, font_style="italic", font_weight="bold"))
            for index, base in enumerate(area.bases):
                self._base(x, name_y + 16 + 17 * index, base.kind.value, base.name or "", base.owner)
            if area.wnt_zone:
                mark(text(x + hw - 4, y - hh + 6, "W", MARK_PT, fill=_MARK_COLOURS["W"]))
            self.below[area.id] = y + hh + 10
            return
        if controller is not None:
            fill = mix(self.module.powers[controller].colour, 0.55)
        else:
            fill = CHINESE_FILL if area.chinese else COUNTRY_FILL
        if area.type is AreaType.MIXED:
            shape(
                f'<linearGradient id="mixed-{area.id}"><stop offset="0.6" stop-color="{fill}"/>'
                f'<stop offset="0.6" stop-color="{SEA_FILL}"/></linearGradient>'
            )
            fill = f"url(#mixed-{area.id})"
        if area.owner is not None:
            style = f'stroke="{mix(self.module.powers[area.owner].colour, 0.35, 0)}" stroke-width="2.5"'
            style += ' stroke-dasharray="7 4"' if area.status is AreaStatus.COLONY else ""
        else:
            style = 'stroke="#8a8a8a" stroke-width="1.2"'
        shape(
            f'<rect id="area-{area.id}" data-area="{attr(area.id)}"'
            f' x="{num(x - hw)}" y="{num(y - hh)}" width="{num(2 * hw)}"'
            f' height="{num(2 * hh)}" rx="8" fill="{fill}" {style}>{tip}</rect>'
        )
        marks = _badges(area)
        weight = "bold" if area.capital else "normal"
        label = self._label(area)
        name(text(x, y - 3 if marks else y + 5, label, NAME_PT, fill="#111111", font_weight=weight))
        if marks:
            mark(
                f'<text x="{num(x)}" y="{num(y + 13)}" font-size="{num(MARK_PT)}" font-weight="bold"'
                f' text-anchor="middle">{_marks_text(marks)}</text>'
            )
        self.below[area.id] = y + hh + 10
        if area.special_base is not None:
            special = area.special_base
            self._base(x, y + hh + 10, special.kind.value, special.name, special.owner)
            self.below[area.id] += 18
        if self.scenario is not None:
            self._cubes(area, x + hw, y - hh)

    def _base(self, x: float, y: float, kind: str, name: str, owner: str | None) -> None:
        colour = self.module.powers[owner].colour if owner else "#ffffff"
        self.layers["marks"].append(_chip(x, y, f"{'⚓' if kind == 'naval' else '✈'} {name}".strip(), colour))

    def _cubes(self, area: Area, right: float, top: float) -> None:
        assert self.scenario is not None
        cubes = [p for p, n in self.scenario.cubes.get(area.id, {}).items() for _ in range(n)]
        for index, power in enumerate(cubes):
            colour = self.module.powers[power].colour if power in self.module.powers else "#ffffff"
            self.layers["chips"].append(
                f'<rect x="{num(right - 14 - 12 * index)}" y="{num(top - 5)}" width="10" height="10"'
                f' fill="{colour}" stroke="#111111"><title>{escape(power)} cube</title></rect>'
            )

    def _units(self, scenario: Scenario) -> None:
        stacks: dict[str, dict[tuple[str, str], int]] = {}
        for unit in scenario.units:
            if unit.area in self.shapes:
                stack = stacks.setdefault(unit.area, {})
                stack[(unit.power, unit.type)] = stack.get((unit.power, unit.type), 0) + unit.count
        for area_id, stack in stacks.items():
            labels = [
                (power, kind, (f"{count} " if count > 1 else "") + UNIT_CODES.get(kind, kind))
                for (power, kind), count in stack.items()
            ]
            widths = [_text_w(label, MARK_PT, True) + 10 for _, _, label in labels]
            left = self.shapes[area_id][0] - (sum(widths) + 3 * (len(widths) - 1)) / 2
            for (power, kind, label), width in zip(labels, widths, strict=True):
                colour = self.module.powers[power].colour
                chip = _chip(left + width / 2, self.below[area_id], label, colour, True)
                data = f'data-area="{area_id}" data-power="{attr(power)}" data-type="{attr(kind)}"'
                self.layers["chips"].append(f'<g class="unit" {data}>{chip}</g>')
                left += width + 3


def _legend(module: Module, top: float) -> tuple[str, float]:
    """The legend block: power colours, area styles, connection kinds, marks and unit chips."""
    box = '<rect x="-26" y="-11" width="52" height="22" rx="6" '
    entries = [
        (box + f'fill="{mix(p.colour, 0.55)}" stroke="{p.colour}" stroke-width="2.5"/>', p.name)
        for p in module.powers.values()
    ]
    line = (-26.0, 0.0), (26.0, 0.0)
    entries += [
        (box + 'fill="#dddddd" stroke="#444" stroke-width="2.5"/>', "home area (solid outline)"),
        (box + 'fill="#dddddd" stroke="#444" stroke-width="2.5" stroke-dasharray="7 4"/>', "colony (dashed)"),
        (box + f'fill="{COUNTRY_FILL}" stroke="#8a8a8a"/>', "uncontrolled country"),
        (box + f'fill="{CHINESE_FILL}" stroke="#8a8a8a"/>', "uncontrolled Chinese area"),
        (f'<ellipse rx="28" ry="12" fill="{SEA_FILL}" stroke="{SEA_LINE}" stroke-width="2"/>', "sea area"),
        (box + 'fill="url(#legend-mixed)" stroke="#8a8a8a"/>', "mixed land/sea area"),
        (text(0, 5, "PARIS", 13, font_weight="bold"), "capital (name in CAPS)"),
        (_line(*line, BORDER), "border"),
        (_via(*line, STRAIT), "strait"),
        (_line(*line, AIR) + text(0, 7, "✈", 18, fill="#1e64c8"), "air-only connection"),
        (_via(*line, OFFMAP), "white arrow to off-map area"),
        (_circle(0, 0, "B", "#ffffff"), "map connector (blue: naval)"),
        (_line((0, -13), (0, 13), 'stroke="#d50000" stroke-width="5"') + text(0, 7, "✕", 18, fill="#d50000"),
         "impassable border"),
        ('<rect x="-5" y="-5" width="10" height="10" fill="#2f62c4" stroke="#111"/>', "control cube"),
    ]  # fmt: skip
    marks = [
        (("I", "N"), "industrial / natural resource"), (("L:x",), "limited resource (marker x)"),
        (("S",), "Soviet special resource"), (("★", "r1"), "minor army / resistance"),
        (("R", "▲"), "restricted / adverse"), (("rem", "delay"), "remote / Delay box"),
        (("off-map", "W"), "off-map (seas: dashed) / WNT zone"),
    ]  # fmt: skip
    for group, label in marks:
        spans = _marks_text(group)
        entries.append((f'<text x="-30" y="5" font-size="13" font-weight="bold">{spans}</text>', label))
    entries.append((_chip(0, 0, "⚓ Malta", "#b39b62"), "⚓ naval / ✈ air base (owner)"))
    entries += [
        (_chip(0, 0, code, "#555555", bold=True), kind.replace("-", " ")) for kind, code in UNIT_CODES.items()
    ]
    rows = 8
    height = 64 + 30 * rows
    parts = [_frame(top, height, "Legend", "#ffffff")]
    for index, (swatch, label) in enumerate(entries):
        x, y = MARGIN + 50 + 440 * (index // rows), top + 64 + 30 * (index % rows)
        parts.append(
            f'<g transform="translate({num(x)},{num(y)})">{swatch}'
            f'<text x="60" y="5" font-size="15">{escape(label)}</text></g>'
        )
    return "\n".join(parts), height


def render_map(module: Module, scenario: Scenario | None = None, *, maps: Sequence[str] | None = None) -> str:
    """A complete standalone SVG document of the module's maps, with ``scenario``'s set-up if given.

    ``maps`` picks the map ids to draw; by default the scenario's maps, or every map without one.
    """
    width = PANEL_W + 2 * PAD + 2 * MARGIN
    heading = module.info.title + (f" — {scenario.title}" if scenario else "")
    body = [text(MARGIN + 4, 40, heading, 28, font_weight="bold", text_anchor="start")]
    top = 64.0
    for map_id in _map_ids(module, scenario, maps):
        panel = _Panel(module, scenario, map_id, top)
        body.append(panel.render())
        top += panel.height + MARGIN
    legend, legend_h = _legend(module, top)
    body.append(legend)
    top += legend_h + 30
    footer = f"{FOOTER} · module {module.id} {module.info.version}"
    body.append(text(MARGIN + 4, top, footer, 15, fill="#555555", text_anchor="start", font_style="italic"))
    height = top + 20
    defs = (
        "<defs>"
        '<marker id="strait" viewBox="0 0 26 14" refX="13" refY="7" markerWidth="26" markerHeight="14"'
        ' markerUnits="userSpaceOnUse" orient="auto"><path d="M0,7 L10,0 L10,14 Z M26,7 L16,0 L16,14 Z"'
        ' fill="#111111"/></marker>'
        '<marker id="offmap" viewBox="0 0 16 14" refX="8" refY="7" markerWidth="16" markerHeight="14"'
        ' markerUnits="userSpaceOnUse" orient="auto"><path d="M0,0 L16,7 L0,14 Z" fill="#ffffff"'
        ' stroke="#555555" stroke-width="1.5"/></marker>'
        f'<linearGradient id="legend-mixed"><stop offset="0.55" stop-color="{COUNTRY_FILL}"/>'
        f'<stop offset="0.55" stop-color="{SEA_FILL}"/></linearGradient>'
        "</defs>"
    )
    return (
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{num(width)}" height="{num(height)}"'
        f' viewBox="0 0 {num(width)} {num(height)}" font-family="{attr(FONT)}">\n'
        f"<title>{escape(heading)}</title>\n{defs}\n"
        f'<rect width="{num(width)}" height="{num(height)}" fill="#ffffff"/>\n'
        + "\n".join(body)
        + "\n</svg>\n"
    )
