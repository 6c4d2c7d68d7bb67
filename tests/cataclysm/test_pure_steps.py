"""Steps the machine counts as pure change nothing but the stack and the request (issue 15, speed).

After a step in ``engine.machine.PURE_STEPS`` the watchers (LR 12.2's Status Quo test, LR 12.2.2's
US-Japan Trade) are skipped when they have just run on the same state and found nothing to do;
that is exact only if those steps never change ``game.state``. These tests run every handler in
seeded random games and compare the state before and after each pure step.
"""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

import pytest

from grandstrategy.cataclysm.engine import CataclysmGame
from grandstrategy.cataclysm.engine.machine import HANDLERS, PURE_STEPS, Step
from grandstrategy.core.rng import Rng
from grandstrategy.core.session import Match
from grandstrategy.play.games import load_ruleset


def snapshot(game: CataclysmGame) -> str:
    """The whole state as canonical text."""
    return json.dumps(game.state.to_json(), sort_keys=True, default=str)


def test_a_pure_step_never_changes_the_state(monkeypatch: pytest.MonkeyPatch) -> None:
    ran: Counter[str] = Counter()
    changed: list[str] = []

    def checked(name: str, handler: Any) -> Any:
        def run(game: CataclysmGame, current: Step) -> None:
            before = snapshot(game)
            handler(game, current)
            ran[name] += 1
            if snapshot(game) != before:
                changed.append(name)

        return run

    for name in PURE_STEPS:
        monkeypatch.setitem(HANDLERS, name, checked(name, HANDLERS[name]))
    for scenario, seed in (("campaign-1933", 1), ("campaign-1933", 2), ("europe-1939", 1)):
        match = Match(load_ruleset("cataclysm"), seed=seed, options={"scenario": scenario})
        chooser = Rng(seed)
        for _ in range(400):
            decision = match.decision()
            if decision is None:
                break
            match.play(decision.seat, decision.legal[chooser.below(len(decision.legal))])
    assert not changed, changed[:5]
    assert all(
        ran[name] > 0 for name in ("roll-die", "roll-die-face", "action-window", "interrupt-window", "draw")
    )
