"""Political arithmetic on the Living Rules' examples (LR 5.2–5.5, 6.1, 6.3, 6.4)."""

from __future__ import annotations

import pytest

from grandstrategy.cataclysm.module import load_module
from grandstrategy.cataclysm.module.schema import Commitment, Stability, WarStatus
from grandstrategy.cataclysm.rules.dice import check_succeeds
from grandstrategy.cataclysm.rules.politics import (
    check_dice,
    diplomacy_modifier,
    effectiveness,
    failed_action_bonus,
    lower_stability,
    may_escalate,
    provoked,
    record_result,
    surrender_threshold,
    surrenders,
)
from grandstrategy.cataclysm.state import CataclysmState, new_state

MODULE = load_module()


@pytest.fixture
def state() -> CataclysmState:
    return new_state(MODULE, "campaign-1933")


def test_uk_effectiveness_two_then_three_at_mobilization_lr_l1143(state: CataclysmState) -> None:
    assert effectiveness(MODULE, state, "united-kingdom") == 2
    state.powers["united-kingdom"].commitment = Commitment.MOBILIZATION
    assert effectiveness(MODULE, state, "united-kingdom") == 3


def test_temporary_reduction_lr_5_3(state: CataclysmState) -> None:
    state.powers["germany"].effectiveness_reduced = True  # Nazi Infighting: 3 -> 2
    assert check_dice(MODULE, state, "germany") == (2, 0)
    state.powers["france"].effectiveness_reduced = True  # at 1: keep the die, -1 on the result
    assert check_dice(MODULE, state, "france") == (1, -1)
    assert check_dice(MODULE, state, "italy", extra_dice=1) == (2, 0)  # Il Duce


def test_failed_action_cubes_example_lr_l1165(state: CataclysmState) -> None:
    dice = [2]
    assert not check_succeeds(dice, failed_action_bonus(state, "france", "escalation"))
    record_result(state, "france", "escalation", success=False)
    assert failed_action_bonus(state, "france", "escalation") == 1
    assert not check_succeeds([3], failed_action_bonus(state, "france", "escalation"))  # 3 + 1 = 4
    record_result(state, "france", "escalation", success=False)
    assert state.powers["france"].failed_actions == {"escalation": 2}
    assert not check_succeeds([4], diplomacy_modifier(MODULE, state, "france", "hungary"))
    record_result(state, "france", "diplomacy", success=False)
    assert state.powers["france"].failed_actions == {}  # cleared, and no diplomacy cube


def test_success_clears_every_box(state: CataclysmState) -> None:
    record_result(state, "italy", "pressure", success=False)
    record_result(state, "italy", "pressure", success=True)
    assert state.powers["italy"].failed_actions == {}


def test_italian_diplomacy_on_yugoslavia_lr_l1451(state: CataclysmState) -> None:
    assert diplomacy_modifier(MODULE, state, "italy", "yugoslavia") == -1
    assert not check_succeeds([5], diplomacy_modifier(MODULE, state, "italy", "yugoslavia"))
    state.cubes["yugoslavia"] = {"neutral": 2}
    assert diplomacy_modifier(MODULE, state, "italy", "yugoslavia") == -2  # one per neutral cube, LR 2.3.7


def test_uk_escalation_provokes_germany_and_italy_lr_l1107(state: CataclysmState) -> None:
    assert provoked(MODULE, state, ["united-kingdom"], kind="escalation") == ["germany", "italy"]
    state.wars.append((["united-kingdom"], ["italy"]))
    assert provoked(MODULE, state, ["united-kingdom"], kind="escalation") == [
        "germany"
    ]  # enemies are not provoked


def test_uk_us_alliance_provokes_each_fascist_once_lr_l1109(state: CataclysmState) -> None:
    assert sorted(provoked(MODULE, state, ["united-kingdom", "united-states"], kind="alliance")) == [
        "germany",
        "italy",
        "japan",
    ]
    assert provoked(MODULE, state, ["france", "united-kingdom"], kind="alliance") == [
        "germany",
        "italy",
    ]  # L1365


def test_escalation_limits_lr_6_4(state: CataclysmState) -> None:
    assert may_escalate(MODULE, state, "germany") is None
    assert may_escalate(MODULE, state, "france") is None  # civilian to rearmament is allowed
    state.powers["france"].commitment = Commitment.REARMAMENT
    assert "Status Quo" in (may_escalate(MODULE, state, "france") or "")
    state.powers["germany"].commitment = Commitment.MOBILIZATION
    assert "total war" in (may_escalate(MODULE, state, "germany") or "")
    state.war_status = WarStatus.GLOBAL
    assert may_escalate(MODULE, state, "germany") is None
    state.powers["germany"].escalated_this_turn = True
    assert "already" in (may_escalate(MODULE, state, "germany") or "")


def test_french_surrender_threshold_example_lr_l1252_1258(state: CataclysmState) -> None:
    for area in ("poland", "czechoslovakia", "rumania", "yugoslavia"):
        del state.cubes[area]
    state.cubes["paris"] = {"germany": 2}
    state.cubes["lorraine"] = {"germany": 1}
    state.wars.append((["france", "united-kingdom"], ["germany"]))
    assert surrender_threshold(MODULE, state, "france") == 4  # 2 + 1 cubes, +1 for zero or fewer VP
    assert surrenders(3, 4) and not surrenders(5, 4)


def test_same_ideology_cube_does_not_raise_the_threshold(state: CataclysmState) -> None:
    state.cubes["brittany"] = {"united-kingdom": 1}
    assert surrender_threshold(MODULE, state, "france") == 0  # France still has 4 VP - 1 = 3


def test_colony_without_resource_does_not_count(state: CataclysmState) -> None:
    state.cubes["burma"] = {"japan": 1}  # LR 5.5.2: only colonies with a resource count
    state.cubes["india"] = {"japan": 1}
    # India's cube counts (1), Burma's does not; the two Japanese cubes also bring UK VP to 0 (+1)
    assert surrender_threshold(MODULE, state, "united-kingdom") == 2
    del state.cubes["burma"]
    assert surrender_threshold(MODULE, state, "united-kingdom") == 1


def test_stability_steps_to_collapse(state: CataclysmState) -> None:
    assert not lower_stability(state, "france")
    assert state.powers["france"].stability is Stability.WAVERING
    assert not lower_stability(state, "france")
    assert lower_stability(state, "france")  # from unstable: collapse
