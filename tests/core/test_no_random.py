"""No module of the project draws randomness behind the kernel's back (STYLE.md §4, Chance)."""

from __future__ import annotations

import ast
from pathlib import Path

import grandstrategy

FORBIDDEN = {"random", "secrets", "numpy.random"}
ALLOWED = {("web/service.py", "secrets")}
"""The web server draws its dice secret, seat tokens and game ids from the OS (issue 17): the dice
secret is the seed of committed chance (core/committed.py), never a draw of its own."""


def test_no_module_imports_random() -> None:
    root = Path(grandstrategy.__file__).parent
    offenders = []
    for path in sorted(root.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module] + [f"{node.module}.{a.name}" for a in node.names]
            else:
                continue
            offenders += [
                f"{path.relative_to(root)}:{node.lineno} imports {n}"
                for n in names
                if n in FORBIDDEN and (path.relative_to(root).as_posix(), n) not in ALLOWED
            ]
    assert offenders == [], "use grandstrategy.core.chance / rng instead:\n" + "\n".join(offenders)
