"""Strict, safe YAML for data modules: no repeated keys, no aliases.

Every data module (Cataclysm's world, the Axis & Allies maps) reads its YAML through
:func:`load_yaml`. YAML itself keeps the last of two equal keys, silently dropping data, and its
aliases let a small file expand into a huge structure once validated; a module needs neither,
so both are errors that name the line.
"""

from __future__ import annotations

from typing import Any

import yaml

_BASE_LOADER: Any = getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # libyaml when there; same results


class AliasRefused(yaml.YAMLError):
    """A data file used an alias; ``problem`` and ``problem_mark`` read like the parser's errors."""

    def __init__(self, mark: Any) -> None:
        super().__init__("aliases (*name) are not allowed in a data module")
        self.problem = "aliases (*name) are not allowed in a data module"
        self.problem_mark = mark


class StrictLoader(_BASE_LOADER):  # type: ignore[misc]
    """The safe YAML loader, refusing a key given twice in one mapping (aliases: see :func:`load_yaml`)."""

    def construct_mapping(self, node: yaml.MappingNode, deep: bool = False) -> dict[Any, Any]:
        """Build a mapping, refusing a key that appears twice."""
        seen: set[tuple[str, str]] = set()
        for key_node, _ in node.value:
            if isinstance(key_node, yaml.ScalarNode) and key_node.value != "<<":
                key = (key_node.tag, key_node.value)
                if key in seen:
                    raise yaml.constructor.ConstructorError(
                        "while reading a mapping",
                        node.start_mark,
                        f"the key {key_node.value[:80]!r} appears twice",
                        key_node.start_mark,
                    )
                seen.add(key)
        result: dict[Any, Any] = super().construct_mapping(node, deep)
        return result


def load_yaml(text: str) -> Any:
    """The data in ``text``.

    :raises yaml.YAMLError: not YAML, a repeated key or an alias (with the line in its mark).
    """
    for event in yaml.parse(text, Loader=_BASE_LOADER):  # before building anything
        if isinstance(event, yaml.AliasEvent):
            raise AliasRefused(event.start_mark)
    return yaml.load(text, Loader=StrictLoader)
