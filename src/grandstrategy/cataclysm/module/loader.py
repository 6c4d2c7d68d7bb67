"""Read a module directory, validate every file and every cross-reference, build a :class:`Module`.

Problems are collected, never raised one at a time: a module author sees all of them at once,
each with its file, record and field (the spirit of python-chess's ``Board.status()``).
"""

from __future__ import annotations

import hashlib
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

from pydantic import BaseModel

from grandstrategy.cataclysm.module.schema import (
    ConnectorFile,
    CrisisFile,
    MapFile,
    ModuleInfo,
    PowersFile,
    Scenario,
    provenance_kind,
)
from grandstrategy.cataclysm.module.world import Edge, Module, freeze
from grandstrategy.core.datafiles import UNREADABLE, Problem, read_yaml, validate
from grandstrategy.core.errors import DataError
from grandstrategy.core.files import MAX_DATA_FILE_BYTES, BadFile, read_bytes

DEFAULT_MODULE_DIR = Path(__file__).resolve().parent.parent / "data" / "reconstructed"

M = TypeVar("M", bound=BaseModel)


@dataclass
class CheckReport:
    """The outcome of checking a module: its problems, and a summary when it loaded."""

    directory: Path
    problems: list[Problem] = field(default_factory=list)
    module: Module | None = None

    @property
    def ok(self) -> bool:
        return not self.problems and self.module is not None

    def summary(self) -> dict[str, Any]:
        """Counts of what the module holds and where its records come from."""
        module = self.module
        if module is None:
            return {}
        kinds: Counter[str] = Counter()
        for record in _records(module):
            kinds[provenance_kind(record)] += 1
        return {
            "module": module.id,
            "version": module.info.version,
            "content_hash": module.content_hash,
            "areas": len(module.areas),
            "areas_by_type": dict(Counter(area.type.value for area in module.areas.values())),
            "areas_by_map": dict(Counter(area.map.value for area in module.areas.values())),
            "connections": sum(len(edges) for edges in module.edges.values()) // 2,
            "powers": len(module.powers),
            "scenarios": len(module.scenarios),
            "crisis_entries": len(module.crisis.peacetime) + len(module.crisis.wartime),
            "records": {
                "from_rules": kinds["rules"],
                "from_public_accounts": kinds["public"],
                "reconstructed": kinds["reconstructed"],
            },
        }


def _records(module: Module) -> Iterable[str]:
    """The provenance of every record in the module."""
    for map_file in module.maps.values():
        for area in map_file.areas:
            yield area.provenance
            yield from (resource.provenance for resource in area.resources)
            yield from (base.provenance for base in area.bases)
        yield from (group.provenance for group in map_file.connections)
        yield from (group.provenance for group in map_file.impassable)
    for power in module.powers.values():
        yield power.provenance
        yield from (column.provenance for column in power.status_card.values())
        yield power.counters.provenance
    for table in (module.crisis.peacetime, module.crisis.wartime):
        yield from (entry.provenance for entry in table.values())
    yield from (scenario.provenance for scenario in module.scenarios.values())


def _parse(path: Path, model: type[M], problems: list[Problem], root: Path) -> M | None:
    name = str(path.relative_to(root)) if path.is_relative_to(root) else str(path)
    data = read_yaml(path, name, problems, limit=MAX_DATA_FILE_BYTES)
    return None if data is UNREADABLE else validate(name, data, model, problems)


def _hash_directory(root: Path, problems: list[Problem]) -> str:
    """The content hash of every ``*.yaml`` file under ``root``; anything by that name that is not
    a readable regular file (a directory, a dangling link, a device) is a problem."""
    digest = hashlib.sha256()
    for path in sorted(root.rglob("*.yaml")):
        name = str(path.relative_to(root))
        try:
            data = read_bytes(path, limit=MAX_DATA_FILE_BYTES, source=name)
        except BadFile as error:
            problems.append(Problem(name, "", "", error.reason))
            continue
        digest.update(name.encode())
        digest.update(b"\0")
        digest.update(data)
        digest.update(b"\0")
    return f"sha256:{digest.hexdigest()}"


def check_module(directory: Path | str | None = None) -> CheckReport:
    """Load and check the module in ``directory`` (the shipped one by default); never raises."""
    from grandstrategy.cataclysm.module.checks import cross_check

    root = Path(directory) if directory is not None else DEFAULT_MODULE_DIR
    report = CheckReport(directory=root)
    problems = report.problems
    if not root.is_dir():
        problems.append(Problem(str(root), "", "", "is not a directory holding a module"))
        return report
    info = _parse(root / "module.yaml", ModuleInfo, problems, root)
    if info is None:
        return report
    for listing in ("maps", "scenarios"):
        names = list(getattr(info, listing))
        for twice in sorted({name for name in names if names.count(name) > 1}):
            problems.append(Problem("module.yaml", "", listing, f"lists {twice!r} more than once"))
    maps = [_parse(root / name, MapFile, problems, root) for name in info.maps]
    connectors = _parse(root / info.connectors, ConnectorFile, problems, root)
    powers = _parse(root / info.powers, PowersFile, problems, root)
    crisis = _parse(root / info.crisis_tables, CrisisFile, problems, root)
    scenarios = [_parse(root / name, Scenario, problems, root) for name in info.scenarios]
    if problems or connectors is None or powers is None or crisis is None:
        return report
    map_files = {name: map_file for name, map_file in zip(info.maps, maps, strict=True) if map_file}
    scenario_files = {
        name: scenario for name, scenario in zip(info.scenarios, scenarios, strict=True) if scenario
    }
    problems.extend(
        cross_check(
            info,
            map_files,
            info.connectors,
            connectors,
            info.powers,
            powers,
            info.crisis_tables,
            crisis,
            scenario_files,
        )
    )
    content_hash = _hash_directory(root, problems)
    if problems:
        return report
    report.module = _build(
        info,
        content_hash,
        list(map_files.values()),
        connectors,
        powers,
        crisis,
        list(scenario_files.values()),
    )
    problems.extend(_scenario_checks(report.module, scenario_files))
    if problems:
        report.module = None
    return report


def _scenario_checks(module: Module, scenarios: dict[str, Scenario]) -> list[Problem]:
    from grandstrategy.cataclysm.module.scenario_checks import check_scenario

    found: list[Problem] = []
    for name, scenario in scenarios.items():
        found.extend(check_scenario(module, name, scenario))
    return found


def _build(
    info: ModuleInfo,
    content_hash: str,
    maps: list[MapFile],
    connectors: ConnectorFile,
    powers: PowersFile,
    crisis: CrisisFile,
    scenarios: list[Scenario],
) -> Module:
    areas = {area.id: area for map_file in maps for area in map_file.areas}
    edges: dict[str, list[Edge]] = {area_id: [] for area_id in areas}
    groups = [group for map_file in maps for group in map_file.connections] + list(connectors.connections)
    for group in groups:
        modes = frozenset(group.modes) if group.modes else None
        for a, b in group.pairs:
            edges[a].append(Edge(a, b, group.kind, group.label, modes, group.provenance))
            edges[b].append(Edge(b, a, group.kind, group.label, modes, group.provenance))
    return Module(
        info=info,
        content_hash=content_hash,
        maps=freeze({map_file.map.value: map_file for map_file in maps}),  # type: ignore[arg-type]
        areas=freeze(areas),  # type: ignore[arg-type]
        edges=freeze({key: tuple(value) for key, value in edges.items()}),  # type: ignore[arg-type]
        impassable=tuple(group for map_file in maps for group in map_file.impassable),
        unit_types=freeze({unit.id: unit for unit in powers.unit_types}),  # type: ignore[arg-type]
        neutral_cubes=powers.neutral_cubes,
        powers=freeze({power.id: power for power in powers.powers}),  # type: ignore[arg-type]
        crisis=crisis,
        scenarios=freeze({scenario.id: scenario for scenario in scenarios}),  # type: ignore[arg-type]
    )


_CACHE: dict[Path, Module] = {}


def load_module(directory: Path | str | None = None) -> Module:
    """Load a module, raising :class:`DataError` that lists every problem if it is broken."""
    root = (Path(directory) if directory is not None else DEFAULT_MODULE_DIR).resolve()
    cached = _CACHE.get(root)
    if cached is not None:
        return cached
    report = check_module(root)
    if report.module is None:
        listed = "\n  ".join(str(problem) for problem in report.problems)
        raise DataError(f"the module in {root} has {len(report.problems)} problem(s):\n  {listed}")
    _CACHE[root] = report.module
    return report.module
