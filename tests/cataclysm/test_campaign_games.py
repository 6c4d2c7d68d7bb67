"""Fifty seeded 1933 campaigns with random legal choices: every state after every action passes the
invariant check, every game reaches its end, and between them the games use every kind of action.

The slower run of 1,000 games is ``benchmarks/cataclysm_soak.py`` (see benchmarks/RESULTS.md).
"""

from __future__ import annotations

from collections import Counter

import pytest

from grandstrategy.cataclysm.engine import CATACLYSM
from grandstrategy.cataclysm.engine.invariants import problems
from grandstrategy.core.log import ActionEntry
from grandstrategy.core.rng import Rng
from grandstrategy.core.session import Match

GAMES = 50

# what a chosen option starts with -> the kind of action it is. Six kinds are too rare under random
# choices to appear reliably in fifty games (in the 1,000-game soak: 15 invasions, 23 strategic
# bombings, 6 air operations) and have their own tests in test_operations.py: an invasion
# (test_invasion_across_one_sea_area_with_a_friendly_fleet_lr_9_3_2), strategic bombing
# (test_strategic_bombing_with_intrinsic_defence_damages_a_resource_lr_9_5_2), an air operation
# (test_ruhr_air_operation_example_lr_l2089_l2091), an ally
# joining or refusing a war (test_ally_at_mobilization_may_join_the_declarers_war_lr_6_1_3,
# test_declaration_of_war_is_followed_by_one_operation_on_the_target_lr_6_2) and joining an
# existing alliance (test_a_third_power_joins_an_existing_alliance_alone_lr_6_1_1).
KINDS = {
    "propaganda": "propaganda",
    "escalation": "escalation",
    "pressure": "pressure",
    "maneuvers": "maneuvers",
    "diplomacy": "diplomacy",
    "alliance": "alliance",
    "declare-war": "declaration of war",
    "build": "build",
    "deploy": "deployment",
    "intervene": "intervention",
    "land operation against": "land operation",
    "naval operation against": "naval operation",
    "base capture at": "base capture",
    "surprise": "surprise attack",
    "augment 1": "augmentation",
    "support with": "support",
    "retreat": "voluntary retreat",
    "regroup": "regroup",
    "armistice with": "armistice proposal",
    "interrupt": "interrupt",
    "reserve": "reserve",
    "reject": "reject",
}


def _play(seed: int) -> tuple[Counter[str], str]:
    match = Match(CATACLYSM, seed=seed, options={"scenario": "campaign-1933"})
    chooser = Rng(seed + 7000)
    used: Counter[str] = Counter()
    steps = 0
    while not match.is_terminal():
        decision = match.decision()
        assert decision is not None
        action = decision.legal[chooser.below(len(decision.legal))]
        match.play(decision.seat, action)
        steps += 1
        broken = problems(match.state)  # type: ignore[arg-type]
        assert not broken, f"seed {seed}, action {steps} ({action.notation()}): {broken}"
    for entry in match.log:
        if isinstance(entry, ActionEntry):
            option = entry.action.split(": ", 1)[1]
            for prefix, kind in KINDS.items():
                if option.startswith(prefix):
                    used[kind] += 1
    result = match.state.state.result  # type: ignore[attr-defined]
    assert result is not None
    return used, str(result.get("how", result))


@pytest.fixture(scope="module")
def campaigns() -> list[tuple[Counter[str], str]]:
    return [_play(seed) for seed in range(GAMES)]


def test_fifty_campaigns_end_with_every_invariant_holding(campaigns: list[tuple[Counter[str], str]]) -> None:
    assert len(campaigns) == GAMES


def test_the_campaigns_use_every_kind_of_action(campaigns: list[tuple[Counter[str], str]]) -> None:
    total: Counter[str] = Counter()
    for used, _ in campaigns:
        total.update(used)
    missing = sorted(set(KINDS.values()) - set(total))
    assert not missing, f"never chosen in {GAMES} games: {missing}; counts: {dict(total)}"
