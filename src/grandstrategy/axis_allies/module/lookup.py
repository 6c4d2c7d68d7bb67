"""Answers about the A&A map for people and scripts: one territory's facts, as JSON-ready data."""

from __future__ import annotations

import difflib
from typing import Any

from grandstrategy.axis_allies.module.world import MapModule
from grandstrategy.core.errors import UserInputError

MAX_NAME = 100


def resolve_territory(module: MapModule, text: str) -> str:
    """The id of the territory or sea zone a person named, or a UserInputError suggesting names."""
    if len(text) > MAX_NAME:
        raise UserInputError(f"a territory name is at most {MAX_NAME} characters")
    found = module.find_territory(text)
    if found is not None:
        return found.id
    folded = {t.name.casefold(): t.name for t in module.territories.values()}
    close = difflib.get_close_matches(text.strip().casefold(), list(folded), n=3, cutoff=0.6)
    hint = f"; did you mean {' or '.join(folded[name] for name in close)}?" if close else ""
    raise UserInputError(f"unknown territory {text!r}{hint}")


def territory_facts(module: MapModule, territory_id: str) -> dict[str, Any]:
    """Everything the module records about one territory or sea zone."""
    territory = module.territories[territory_id]
    facts: dict[str, Any] = {"id": territory.id, "name": territory.name, "type": territory.type.value}
    if territory.type.value == "land":
        facts.update(
            ipc=territory.ipc,
            original_owner=territory.original_owner,
            capital_of=territory.capital,
            victory_city=territory.victory_city,
            impassable=territory.impassable,
            island=territory.island,
        )
    facts["neighbours"] = [
        {"id": other, "name": module.territories[other].name, "type": module.territories[other].type.value}
        for other in territory.neighbours
    ]
    facts["canals"] = [
        {
            "name": canal.name,
            "role": "sea zone" if territory.id in canal.sea_zones else "controls",
            "sea_zones": list(canal.sea_zones),
            "controlled_by": list(canal.controlled_by),
        }
        for canal in module.canals.values()
        if territory.id in canal.sea_zones or territory.id in canal.controlled_by
    ]
    facts["starting_units"] = [
        {"power": p.power, "type": p.type, "count": p.count}
        for p in module.setup
        if p.territory == territory.id
    ]
    facts["provenance"] = territory.provenance
    return facts
