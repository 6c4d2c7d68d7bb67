"""Answers about the world for people and scripts: an area's facts, naval reach, scenarios.

Each function returns plain data (JSON-ready dicts); the command line prints it as text or JSON.
"""

from __future__ import annotations

import difflib
from typing import Any

from grandstrategy.cataclysm.module import Module
from grandstrategy.cataclysm.module.schema import AreaType, Scenario
from grandstrategy.core.errors import UserInputError, quoted

CONNECTION_NAMES = {
    "border": "border",
    "strait": "strait (black arrow)",
    "air": "air only (blue arrow)",
    "offmap": "off-map (white arrow)",
    "connector": "map connector",
}


def resolve_area(module: Module, text: str) -> str:
    """The id of the area a person named, or a UserInputError suggesting close names."""
    found = module.find_area(text)
    if found is not None:
        return found
    names = module.area_names()
    folded = {name.casefold(): name for name in names}
    close = difflib.get_close_matches(text.strip().casefold(), list(folded), n=3, cutoff=0.6)
    hint = f"; did you mean {' or '.join(folded[name] for name in close)}?" if close else ""
    raise UserInputError(f"unknown area {quoted(text)}{hint}")


def resolve_scenario(module: Module, scenario_id: str) -> Scenario:
    """The scenario with this id, or a UserInputError listing the known ones."""
    scenario = module.scenarios.get(scenario_id)
    if scenario is None:
        raise UserInputError(f"unknown scenario {quoted(scenario_id)}; known: {', '.join(module.scenarios)}")
    return scenario


def area_facts(module: Module, area_id: str) -> dict[str, Any]:
    """Everything the module records about one area, with its neighbours and provenance."""
    area = module.area(area_id)
    neighbors = []
    for edge in module.neighbors(area_id):
        entry: dict[str, Any] = {
            "name": module.area(edge.target).name,
            "id": edge.target,
            "kind": edge.kind,
            "naval": module.allows(edge, "naval"),
            "land": module.allows(edge, "land"),
            "provenance": edge.provenance,
        }
        if edge.kind == "connector":
            entry["label"] = edge.label
            entry["modes"] = sorted(edge.modes or ())
        neighbors.append(entry)
    impassable = sorted(
        module.area(other).name
        for group in module.impassable
        for a, b in group.pairs
        for other in ((b,) if a == area_id else (a,) if b == area_id else ())
    )
    facts = area.model_dump(
        mode="json", exclude_defaults=True, exclude={"id", "name", "type", "map", "provenance"}
    )
    return {
        "name": area.name,
        "id": area.id,
        "type": area.type.value,
        "map": area.map.value,
        "facts": facts,
        "sea_neighbors": [module.area(sea).name for sea in module.sea_neighbors(area_id)],
        "neighbors": neighbors,
        "impassable": impassable,
        "provenance": area.provenance,
    }


def naval_reach(module: Module, area_id: str, steps: int, friendly: list[str]) -> dict[str, Any]:
    """Areas a naval unit based in ``area_id`` reaches within ``steps`` (LR 7.3.1)."""
    if steps < 0:
        raise UserInputError(f"--naval must be 0 or more, not {steps}")
    area = module.area(area_id)
    if area.type is AreaType.LAND and not area.coastal:
        raise UserInputError(
            f"{area.name} is not a port: it has no coast, so naval units cannot be based there"
        )
    distances = module.naval_reach(area_id, steps, friendly)
    ordered = sorted(distances, key=lambda target: (distances[target], module.area(target).name))
    return {
        "from": area.name,
        "naval": steps,
        "areas": [module.area(target).name for target in ordered],
        "by_distance": {
            str(step): [module.area(t).name for t in ordered if distances[t] == step]
            for step in range(1, steps + 1)
        },
        "friendly": [module.area(a).name for a in friendly],
        "rule": "LR 7.3.1: traced by naval movement; the base's own area is not counted",
    }


def scenario_list(module: Module) -> list[dict[str, Any]]:
    """The module's scenarios, for ``cataclysm scenarios``."""
    return [
        {
            "id": scenario.id,
            "title": scenario.title,
            "start": scenario.start,
            "end": scenario.end,
            "first_turn": f"{scenario.start}-{(scenario.start + 1) % 100:02d}",
            "last_turn": f"{scenario.end}-{(scenario.end + 1) % 100:02d}",
            "maps": [map_id.value for map_id in scenario.maps],
            "powers": list(scenario.powers),
        }
        for scenario in module.scenarios.values()
    ]
