"""The Cataclysm package's import layers (issue 15): no module imports one that imports it back.

A static reading of every file (``ast``): imports at module level and inside functions both count,
in the ``import a.b``, ``from a import b`` and ``from .a import b`` forms, because an import deferred
into a function still ties the two modules together (it only hides the circle from the interpreter).
Imports under ``if TYPE_CHECKING:`` do not run and are left out. ``from package import submodule``
counts as an edge to the submodule, not to the package's ``__init__``.
"""

from __future__ import annotations

import ast
from pathlib import Path

import grandstrategy.cataclysm

ROOT = Path(grandstrategy.cataclysm.__file__).parent
PREFIX = "grandstrategy.cataclysm"

RULES_CIRCLES: list[list[str]] = []
"""Circles left among the bottom layers: none (before issue 15 one circle held six rules modules:
civil_war, control, occupation, politics, special and supply)."""

ENGINE_CIRCLES: list[list[str]] = []
"""Circles left among the engine's modules: none (before issue 15 one circle held 20 of them, closed
by ``game`` importing ``turn`` and by shared helpers importing the steps inside functions)."""


def _modules() -> dict[str, tuple[Path, bool]]:
    """Every module of the package by dotted name, with its file and whether it is a package."""
    found: dict[str, tuple[Path, bool]] = {}
    for path in sorted(ROOT.rglob("*.py")):
        parts = [PREFIX, *path.relative_to(ROOT).with_suffix("").parts]
        is_package = parts[-1] == "__init__"
        if is_package:
            parts = parts[:-1]
        found[".".join(parts)] = (path, is_package)
    return found


def _runtime_nodes(tree: ast.AST) -> list[ast.AST]:
    """Every node of the tree except those under ``if TYPE_CHECKING:`` (never run)."""
    nodes: list[ast.AST] = []
    pending: list[ast.AST] = [tree]
    while pending:
        node = pending.pop()
        nodes.append(node)
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.If) and "TYPE_CHECKING" in ast.unparse(child.test):
                pending.extend(child.orelse)
                continue
            pending.append(child)
    return nodes


def import_graph() -> dict[str, set[str]]:
    """Module -> the package's modules it imports (anywhere in its code)."""
    modules = _modules()
    graph: dict[str, set[str]] = {name: set() for name in modules}
    for name, (path, is_package) in modules.items():
        package = name if is_package else name.rpartition(".")[0]
        for node in _runtime_nodes(ast.parse(path.read_text(encoding="utf-8"))):
            targets: list[str] = []
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                if node.level:
                    base = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                    source = ".".join([*base, *([node.module] if node.module else [])])
                else:
                    source = node.module or ""
                for alias in node.names:
                    submodule = f"{source}.{alias.name}"
                    targets.append(submodule if submodule in modules else source)
            graph[name].update(target for target in targets if target in modules and target != name)
    return graph


def components(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components with more than one module (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for other in sorted(graph[node]):
            if other not in index:
                visit(other)
                low[node] = min(low[node], low[other])
            elif other in on_stack:
                low[node] = min(low[node], index[other])
        if low[node] == index[node]:
            component: list[str] = []
            while True:
                other = stack.pop()
                on_stack.discard(other)
                component.append(other)
                if other == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def _short(names: list[str]) -> list[str]:
    return [name.removeprefix(PREFIX + ".") for name in names]


def test_the_graph_sees_deferred_and_relative_imports() -> None:
    """The reader finds an import inside a function (machine's only runtime edge is none at all)."""
    graph = import_graph()
    assert f"{PREFIX}.engine.game" in graph[f"{PREFIX}.engine.turn"]
    assert f"{PREFIX}.engine.game" not in graph[f"{PREFIX}.engine.machine"]  # TYPE_CHECKING only
    assert f"{PREFIX}.module.checks" in graph[f"{PREFIX}.module.loader"]  # inside a function


def test_rules_state_and_module_form_no_circle() -> None:
    """The bottom layers (rules arithmetic, state, the module loader) import nothing that imports them."""
    bottom = [c for c in components(import_graph()) if not all(n.startswith(f"{PREFIX}.engine.") for n in c)]
    assert [_short(c) for c in bottom] == RULES_CIRCLES


def test_the_engine_modules_form_no_circle() -> None:
    """The engine's modules import only downwards: shared helpers never import a step module."""
    engine = [c for c in components(import_graph()) if all(n.startswith(f"{PREFIX}.engine.") for n in c)]
    assert [_short(c) for c in engine] == ENGINE_CIRCLES


def test_nothing_below_the_rule_set_imports_it() -> None:
    """The rule set (which imports every step through ``turn``) sits on top of the engine."""
    graph = import_graph()
    top = {f"{PREFIX}.engine", f"{PREFIX}.engine.ruleset", f"{PREFIX}.engine.turn"}
    below = [name for name in graph if name.startswith(f"{PREFIX}.engine.") and name not in top]
    assert [name for name in below if graph[name] & top] == []
    assert f"{PREFIX}.engine.turn" not in graph[f"{PREFIX}.engine.game"]


def _deferred_imports(path: Path) -> list[str]:
    """Imports of the package made inside a function body (outside ``if TYPE_CHECKING:``)."""
    found: list[str] = []
    for function in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if not isinstance(function, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        for node in _runtime_nodes(function):
            if isinstance(node, ast.ImportFrom) and (node.level or (node.module or "").startswith(PREFIX)):
                found.append(f"{path.name}:{node.lineno}")
    return found


def test_engine_and_rules_defer_no_import() -> None:
    """No engine or rules module imports the package inside a function: with no circle left, a
    deferred import would only hide a new one from the interpreter (the graph above still sees it)."""
    deferred = [
        where
        for name, (path, _) in _modules().items()
        if name.startswith((f"{PREFIX}.engine", f"{PREFIX}.rules"))
        for where in _deferred_imports(path)
    ]
    assert deferred == []


def test_rules_import_no_engine_module() -> None:
    """Rules arithmetic sits below the steps: no ``rules`` module imports ``engine``."""
    graph = import_graph()
    upward = {
        name: sorted(target for target in targets if target.startswith(f"{PREFIX}.engine"))
        for name, targets in graph.items()
        if name.startswith(f"{PREFIX}.rules")
    }
    assert {name: targets for name, targets in upward.items() if targets} == {}
