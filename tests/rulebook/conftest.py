"""Fixtures for the rules-assistant tests: a private index cache and one shared assistant."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from grandstrategy.rulebook.assistant import RulesAssistant

SHARED = Path(__file__).resolve().parents[2].parent / "shared"
RULES_DIR = SHARED / "rules"
LIVING_RULES = RULES_DIR / "001_6dc3236115617cc2.txt"


@pytest.fixture(scope="session", autouse=True)
def private_cache(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """Keep the built index out of the user's real cache directory."""
    path = tmp_path_factory.mktemp("rules-cache")
    old = os.environ.get("GRANDSTRATEGY_CACHE_DIR")
    os.environ["GRANDSTRATEGY_CACHE_DIR"] = str(path)
    yield path
    if old is None:
        os.environ.pop("GRANDSTRATEGY_CACHE_DIR", None)
    else:
        os.environ["GRANDSTRATEGY_CACHE_DIR"] = old


@pytest.fixture(scope="session")
def assistant(private_cache: Path) -> RulesAssistant:
    """The assistant over the shipped digest, without an official rulebook."""
    return RulesAssistant.load()


@pytest.fixture(scope="session")
def living_rules() -> Path:
    """The Living Rules text from ../shared/rules, or skip when the shared directory is absent."""
    if not LIVING_RULES.is_file():
        pytest.skip("../shared/rules is not beside the repository")
    return LIVING_RULES
