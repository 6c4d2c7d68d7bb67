"""Run in every Ray worker of the Ray tests: registers the toy rule set, as the tests' process does."""

from __future__ import annotations

from core.toy_game import PIG
from grandstrategy.core.game import register_ruleset


def register_toy() -> None:
    """Make ``toy-pig`` loadable by name in this worker."""
    register_ruleset(PIG)
