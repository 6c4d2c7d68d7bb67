"""Read an A&A map module, validate every file and every cross-reference, build a :class:`MapModule`.

Problems are collected, never raised one at a time: whoever edits a module sees all of them at
once, each with its file, record and field. The same checks run on the importer's output before
it writes anything (:func:`check_data`).
"""

from __future__ import annotations

import hashlib
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

from pydantic import BaseModel

from grandstrategy.axis_allies.module.schema import (
    MapFile,
    ModuleInfo,
    PowersFile,
    RulesFile,
    SetupFile,
    UnitsFile,
    provenance_kind,
)
from grandstrategy.axis_allies.module.world import MapModule
from grandstrategy.core.datafiles import UNREADABLE, Problem, read_yaml, validate
from grandstrategy.core.errors import DataError

DEFAULT_MODULE_DIR = Path(__file__).resolve().parent.parent / "data" / "revised"

FILES: dict[str, type[BaseModel]] = {
    "module.yaml": ModuleInfo,
    "map.yaml": MapFile,
    "powers.yaml": PowersFile,
    "units.yaml": UnitsFile,
    "setup.yaml": SetupFile,
    "rules.yaml": RulesFile,
}
"""The files of a module, in the order they are checked, with the model each must satisfy."""

MAX_FILE_BYTES = 2 * 1024 * 1024

M = TypeVar("M", bound=BaseModel)


@dataclass
class CheckReport:
    """The outcome of checking a module: its problems, and the module when it loaded."""

    directory: str
    problems: list[Problem] = field(default_factory=list)
    module: MapModule | None = None

    @property
    def ok(self) -> bool:
        return not self.problems and self.module is not None

    def summary(self) -> dict[str, Any]:
        """Counts of what the module holds and where its records come from."""
        module = self.module
        if module is None:
            return {}
        kinds = Counter(provenance_kind(text) for text in module.provenances())
        land = [t for t in module.territories.values() if t.type.value == "land"]
        return {
            "module": module.info.id,
            "title": module.info.title,
            "content_hash": module.content_hash,
            "land_territories": len(land),
            "sea_zones": len(module.territories) - len(land),
            "connections": sum(len(t.neighbours) for t in module.territories.values()) // 2,
            "impassable": sum(1 for t in land if t.impassable),
            "islands": sum(1 for t in land if t.island),
            "victory_cities": sum(1 for t in land if t.victory_city),
            "canals": len(module.canals),
            "powers": [power.id for power in module.turn_order()],
            "unit_types": len(module.unit_types),
            "starting_units": sum(p.count for p in module.setup),
            "records": {"from_source": kinds["source"], "reconstructed": kinds["reconstructed"]},
        }


def _read(root: Path, name: str, problems: list[Problem]) -> Any:
    data = read_yaml(root / name, name, problems, limit=MAX_FILE_BYTES)
    return None if data is UNREADABLE else data


def check_data(files: dict[str, Any], where: str, content_hash: str = "") -> CheckReport:
    """Check a module given as parsed data, one entry per file name; never raises."""
    from grandstrategy.axis_allies.module.checks import cross_check

    report = CheckReport(directory=where)
    parsed: dict[str, BaseModel] = {}
    for name, model in FILES.items():
        if name not in files or files[name] is None:
            if not any(problem.file == name for problem in report.problems):
                report.problems.append(Problem(name, "", "", "file is missing or empty"))
            continue
        record = validate(name, files[name], model, report.problems)
        if record is not None:
            parsed[name] = record
    if report.problems:
        return report
    module = MapModule.build(
        info=parsed["module.yaml"],  # type: ignore[arg-type]
        map_file=parsed["map.yaml"],  # type: ignore[arg-type]
        powers=parsed["powers.yaml"],  # type: ignore[arg-type]
        units=parsed["units.yaml"],  # type: ignore[arg-type]
        setup=parsed["setup.yaml"],  # type: ignore[arg-type]
        rules=parsed["rules.yaml"],  # type: ignore[arg-type]
        content_hash=content_hash,
    )
    report.problems.extend(cross_check(module))
    if not report.problems:
        report.module = module
    return report


def _hash_directory(root: Path) -> str:
    digest = hashlib.sha256()
    for name in FILES:
        path = root / name
        digest.update(name.encode())
        digest.update(b"\0")
        digest.update(path.read_bytes())
        digest.update(b"\0")
    return f"sha256:{digest.hexdigest()}"


def check_module(directory: Path | str | None = None) -> CheckReport:
    """Load and check the module in ``directory`` (the shipped Revised one by default); never raises."""
    root = Path(directory) if directory is not None else DEFAULT_MODULE_DIR
    if not root.is_dir():
        report = CheckReport(directory=str(root))
        report.problems.append(Problem(str(root), "", "", "is not a directory holding a module"))
        return report
    problems: list[Problem] = []
    files = {name: _read(root, name, problems) for name in FILES}
    if problems:
        return CheckReport(directory=str(root), problems=problems)
    return check_data(files, str(root), _hash_directory(root))


_CACHE: dict[Path, MapModule] = {}


def load_module(directory: Path | str | None = None) -> MapModule:
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
