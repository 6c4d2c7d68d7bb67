"""Fixtures for the kernel tests: the toy rule set is registered once for the whole package."""

from __future__ import annotations

import pytest

from grandstrategy.core.game import register_ruleset
from grandstrategy.core.session import Match

from .toy_game import PIG

register_ruleset(PIG)


@pytest.fixture
def match() -> Match:
    """A fresh Pig match with seed 1 and default options."""
    return Match(PIG, seed=1)
