"""Reading and validating the YAML files of a data module, with every fault named where it is.

Both rule sets' modules (Cataclysm's world, the Axis & Allies maps) are directories of YAML files
checked by pydantic models. This module holds what they share: the :class:`Problem` record (file,
record, field, message), reading one file strictly (:func:`read_yaml`: a bounded regular UTF-8
file, no repeated keys, no aliases), and turning a pydantic error into problems that name the
record by its id (:func:`validate`). Checks never raise: they collect problems, so a module's
author sees every fault at once.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final, TypeVar

import yaml
from pydantic import BaseModel, ValidationError

from grandstrategy.core.files import BadFile, read_text
from grandstrategy.core.yamlfile import load_yaml

M = TypeVar("M", bound=BaseModel)


@dataclass(frozen=True, slots=True)
class Problem:
    """One thing wrong with a module: where it is and what is wrong."""

    file: str
    record: str
    field: str
    message: str

    def __str__(self) -> str:
        where = " ".join(part for part in (self.record, self.field and f"field '{self.field}'") if part)
        return f"{self.file}: {where}: {self.message}" if where else f"{self.file}: {self.message}"


class _Unreadable:
    """The marker :func:`read_yaml` returns for a file it could not read (its problem is recorded)."""

    def __repr__(self) -> str:
        return "UNREADABLE"


UNREADABLE: Final = _Unreadable()


def read_yaml(path: Path, name: str, problems: list[Problem], *, limit: int) -> Any:
    """The data of the YAML file at ``path`` (called ``name`` in problems), or :data:`UNREADABLE`
    after recording why: missing, not a regular UTF-8 file within ``limit`` bytes, not YAML, a
    repeated key, an alias, or nested too deeply."""
    try:
        text = read_text(path, limit=limit, source=name)
    except BadFile as error:
        problems.append(Problem(name, "", "", "file is missing" if error.missing else error.reason))
        return UNREADABLE
    try:
        return load_yaml(text)
    except yaml.YAMLError as error:
        mark = getattr(error, "problem_mark", None)
        where = f" at line {mark.line + 1}, column {mark.column + 1}" if mark else ""
        problems.append(
            Problem(name, "", "", f"is not valid YAML{where}: {getattr(error, 'problem', error)}")
        )
    except RecursionError:
        problems.append(Problem(name, "", "", "nests lists or mappings too deeply"))
    return UNREADABLE


def describe_location(data: Any, loc: tuple[int | str, ...]) -> tuple[str, str]:
    """Turn a pydantic error location into (record, field), naming list records by their id."""
    record_parts: list[str] = []
    node = data
    consumed = 0
    for index, key in enumerate(loc):
        if isinstance(key, int) and isinstance(node, list) and key < len(node):
            node = node[key]
            label = f"[{key}]"
            if isinstance(node, dict) and isinstance(node.get("id"), str):
                label = f"[{key}] ({node['id']})"
            record_parts.append(label)
            consumed = index + 1
        elif isinstance(node, dict) and key in node:
            node = node[key]
            record_parts.append(f".{key}" if record_parts else str(key))
            if isinstance(node, dict | list):
                consumed = index + 1
        else:
            break
    record = "".join(record_parts[:consumed]) if consumed else ""
    return record, ".".join(str(part) for part in loc[consumed:])


def validate(name: str, data: Any, model: type[M], problems: list[Problem]) -> M | None:
    """``data`` checked against ``model``, or None after recording each fault with its record."""
    try:
        return model.model_validate(data)
    except ValidationError as error:
        for item in error.errors():
            record, fieldname = describe_location(data, tuple(item["loc"]))
            message = item["msg"].removeprefix("Value error, ")
            if item["type"] == "missing":
                message = "is required but missing"
            elif item["type"] == "extra_forbidden":
                message = "is not a known field"
            problems.append(Problem(name, record, fieldname, message))
        return None
