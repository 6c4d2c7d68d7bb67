"""Where each place of the Revised map sits on a picture of the world (``data/revised/centres.yaml``).

The file holds one point per territory and sea zone, named as in ``map.yaml``, in the pixel
coordinates of TripleA's public Revised map (the file says which and pins it by SHA-256). A
schematic board is drawn from these points and the map's adjacencies (the web page's A&A map).
:func:`load_centres` checks the file against a module: every place has exactly one centre, no
name is unknown, every point lies inside the picture; any fault raises :class:`DataError` listing
all of them at once.
"""

from __future__ import annotations

from pathlib import Path
from types import MappingProxyType
from typing import Annotated

from pydantic import BaseModel, ConfigDict, Field

from grandstrategy.axis_allies.module.loader import DEFAULT_MODULE_DIR
from grandstrategy.axis_allies.module.schema import Name
from grandstrategy.axis_allies.module.world import MapModule
from grandstrategy.core.datafiles import UNREADABLE, Problem, read_yaml, validate
from grandstrategy.core.errors import DataError

CENTRES_FILE = "centres.yaml"
MAX_FILE_BYTES = 256 * 1024
MAX_SIDE = 20_000
"""Largest picture side accepted (the Revised picture is 3500 by 1900)."""

Coordinate = Annotated[int, Field(ge=0, le=MAX_SIDE)]


class _Strict(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class CentresSource(_Strict):
    """The public file the points were read from, by label, SHA-256 and a description."""

    file: Name
    sha256: Annotated[str, Field(pattern=r"^[0-9a-f]{64}$")]
    map: Annotated[str, Field(min_length=1, max_length=200)]


class Centre(_Strict):
    """One place's centre: its name as in ``map.yaml`` and its point ``[x, y]``."""

    name: Name
    at: tuple[Coordinate, Coordinate]


class CentresFile(_Strict):
    """``centres.yaml``: the source, the picture's size ``[width, height]`` and the points."""

    source: CentresSource
    size: tuple[Coordinate, Coordinate]
    centres: Annotated[list[Centre], Field(max_length=2000)]


class Centres:
    """The checked points, by territory id, and the picture's size."""

    def __init__(self, size: tuple[int, int], points: dict[str, tuple[int, int]], source: str) -> None:
        self.size = size
        self.points = MappingProxyType(points)
        self.source = source


def problems_of(data: CentresFile, module: MapModule) -> list[str]:
    """Every fault of ``data`` against ``module``: a place without a centre, a name that is no
    place of the map, a name given twice, a point outside the picture."""
    ids = {place.name: place.id for place in module.territories.values()}
    found: list[str] = []
    seen: set[str] = set()
    width, height = data.size
    for centre in data.centres:
        if centre.name not in ids:
            found.append(f"{centre.name!r} is no territory or sea zone of map.yaml")
        elif centre.name in seen:
            found.append(f"{centre.name!r} has more than one centre")
        if not (centre.at[0] <= width and centre.at[1] <= height):
            found.append(f"{centre.name!r} lies outside the {width}x{height} picture")
        seen.add(centre.name)
    missing = sorted(set(ids) - seen)
    if missing:
        found.append(f"no centre for {', '.join(repr(name) for name in missing)}")
    return found


def load_centres(module: MapModule, directory: Path | None = None) -> Centres:
    """The centres of ``module``'s places from ``centres.yaml`` in ``directory`` (the shipped
    Revised module's folder by default).

    :raises DataError: the file is missing or malformed, or does not match the module's places.
    """
    root = directory if directory is not None else DEFAULT_MODULE_DIR
    problems: list[Problem] = []
    raw = read_yaml(root / CENTRES_FILE, CENTRES_FILE, problems, limit=MAX_FILE_BYTES)
    data = None if raw is UNREADABLE else validate(CENTRES_FILE, raw, CentresFile, problems)
    faults = [str(problem) for problem in problems]
    if data is not None:
        faults += problems_of(data, module)
    if data is None or faults:
        listed = "\n  ".join(faults)
        raise DataError(f"{root / CENTRES_FILE} has {len(faults)} problem(s):\n  {listed}")
    ids = {place.name: place.id for place in module.territories.values()}
    points = {ids[centre.name]: (centre.at[0], centre.at[1]) for centre in data.centres}
    return Centres((data.size[0], data.size[1]), points, data.source.file)


_SHIPPED: dict[str, Centres] = {}


def shipped_centres(module: MapModule) -> Centres:
    """:func:`load_centres` of the shipped file, read once per module content."""
    key = module.content_hash or module.info.id
    if key not in _SHIPPED:
        _SHIPPED[key] = load_centres(module)
    return _SHIPPED[key]


__all__ = [
    "CENTRES_FILE",
    "Centre",
    "Centres",
    "CentresFile",
    "load_centres",
    "problems_of",
    "shipped_centres",
]
