"""Small pieces for writing SVG by hand, shared by the map drawings (Cataclysm's map in
:mod:`grandstrategy.cataclysm.render_svg`, the Axis & Allies board in :mod:`grandstrategy.web.aamap`).

Plain strings, no dependency: numbers written short, attribute values and text escaped, a centred
``<text>``, and two colour helpers (a shade between a colour and white or black, and the text
colour that reads on a fill).
"""

from __future__ import annotations

from xml.sax.saxutils import escape


def num(value: float) -> str:
    """A coordinate with at most one decimal, without a trailing ``.0``."""
    text = f"{value:.1f}"
    return text[:-2] if text.endswith(".0") else text


def attr(value: object) -> str:
    """``value`` as text safe inside a double-quoted attribute."""
    return escape(str(value), {'"': "&quot;"})


def text(x: float, y: float, content: str, size: float, **style: str) -> str:
    """A ``<text>`` element, centred unless ``text_anchor`` says otherwise; ``_`` in the style's keys
    become ``-`` (``font_weight`` -> ``font-weight``); the content is escaped."""
    style.setdefault("text_anchor", "middle")
    extra = "".join(f' {key.replace("_", "-")}="{attr(value)}"' for key, value in style.items())
    return f'<text x="{num(x)}" y="{num(y)}" font-size="{num(size)}"{extra}>{escape(content)}</text>'


def mix(colour: str, amount: float, towards: int = 255) -> str:
    """``#rrggbb`` moved ``amount`` (0..1) of the way to white (255) or black (0)."""
    rgb = [int(colour[i : i + 2], 16) for i in (1, 3, 5)]
    return "#" + "".join(f"{round(c + (towards - c) * amount):02x}" for c in rgb)


def ink(colour: str) -> str:
    """Black or white text, whichever reads better on the fill ``#rrggbb``."""
    r, g, b = (int(colour[i : i + 2], 16) for i in (1, 3, 5))
    return "#111111" if 0.299 * r + 0.587 * g + 0.114 * b > 150 else "#ffffff"


__all__ = ["attr", "ink", "mix", "num", "text"]
