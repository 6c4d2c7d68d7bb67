"""The Revised map with the Historical Edition variant's changes (S3:L218, L234).

Balkans and Turkey become neighbours, and sea zone 16 (the Black Sea) is gated by Turkey: ships
enter or leave it only while their team holds Turkey. The gate is recorded as canals of the
module, so the base engine's canal rule enforces it without variant code. The map module itself
never changes; this builds a new one from its records plus ``data/map.yaml``.
"""

from __future__ import annotations

import hashlib

from grandstrategy.axis_allies.aarhe.tables import Tables, load_tables
from grandstrategy.axis_allies.module.schema import Canal
from grandstrategy.axis_allies.module.world import MapModule

_BUILT: dict[str, MapModule] = {}


def variant_module(base: MapModule, tables: Tables | None = None) -> MapModule:
    """``base`` with the variant's adjacencies added and its sea gates as canals."""
    cached = _BUILT.get(base.content_hash)
    if cached is not None and tables is None:
        return cached
    changes = (tables or load_tables(base)).map
    extra: dict[str, set[str]] = {}
    for link in changes.adjacencies:
        a, b = link.between
        extra.setdefault(a, set()).add(b)
        extra.setdefault(b, set()).add(a)
    territories = [
        t.model_copy(update={"neighbours": sorted({*t.neighbours, *extra[t.id]})}) if t.id in extra else t
        for t in base.map_file.territories
    ]
    canals = [
        *base.map_file.canals,
        *(
            Canal(
                provenance="reconstructed: AARHE gate, S3:L218",
                id=gate.id,
                name=f"Gate {gate.id}",
                sea_zones=list(gate.sea_zones),
                controlled_by=list(gate.controlled_by),
            )
            for gate in changes.gates
        ),
    ]
    map_file = base.map_file.model_copy(update={"territories": territories, "canals": canals})
    digest = hashlib.sha256(f"{base.content_hash}+aarhe:{changes.model_dump_json()}".encode()).hexdigest()
    module = MapModule.build(
        base.info, map_file, base.powers_file, base.units_file, base.setup_file, base.rules, digest
    )
    if tables is None:
        _BUILT[base.content_hash] = module
    return module
