"""The examples in the kernel's docstrings run and are right."""

from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = ["rng", "chance", "actions", "game", "state", "session", "save", "replay", "view", "log"]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    module = importlib.import_module(f"grandstrategy.core.{name}")
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0
