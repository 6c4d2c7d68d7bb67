"""Production (LR 4.4–4.9) and wars (LR 5.6) on the rules' examples."""

from __future__ import annotations

from grandstrategy.cataclysm.module import load_module
from grandstrategy.cataclysm.module.schema import Commitment
from grandstrategy.cataclysm.rules.arithmetic import builds
from grandstrategy.cataclysm.rules.economy import build_cost, collect, collectable, war_offensives
from grandstrategy.cataclysm.rules.war import global_war_last_turn, global_war_now, group_wars
from grandstrategy.cataclysm.state import new_state

MODULE = load_module()


def test_administration_phase_example_lr_4_9() -> None:
    state = new_state(MODULE, "europe-1939")
    state.turn = 1941
    germany = state.powers["germany"]
    germany.commitment = Commitment.MOBILIZATION
    state.wars = [(["france", "united-kingdom"], ["germany"])]
    state.cubes.update({"benelux": {"germany": 1}, "sweden": {"germany": 1}})
    state.used_limited.append("Ruhr")  # counted at mobilization (LR L1487); only Benelux and Sweden are left
    found = collectable(MODULE, state, "germany")
    assert sorted((c.area, c.industrial) for c in found) == [
        ("benelux", True),
        ("berlin", True),
        ("ruhr", True),
        ("sweden", False),
    ]
    before = germany.available_offensives
    resources, industrial = collect(MODULE, state, "germany")
    assert (resources, industrial) == (4, 3)
    assert germany.available_offensives == before - 4
    assert {"Benelux", "Sweden"} <= set(state.used_limited)  # the limited markers leave play
    # two resources become offensives, two become builds at 1:2
    conversion = MODULE.powers["germany"].status_card[Commitment.MOBILIZATION].conversion
    assert builds(2, conversion) == 4
    spent = sum(
        build_cost(MODULE, "germany", item)[0] for item in ("infantry-army", "tactical-air", "upgrade:army")
    )
    assert spent == 4
    assert war_offensives(state, "germany", industrial) == 3
    # the limited markers are gone: a second collection finds only the printed resources
    assert sorted(c.area for c in collectable(MODULE, state, "germany")) == ["berlin", "ruhr"]


def test_status_quo_limits_democracies_to_home_areas_lr_12_2() -> None:
    state = new_state(MODULE, "campaign-1933")
    uk = {c.area for c in collectable(MODULE, state, "united-kingdom")}
    assert "india" not in uk and "london" in uk  # colonies are out while Status Quo holds
    state.markers.remove("status-quo")
    assert "india" in {c.area for c in collectable(MODULE, state, "united-kingdom")}  # by sea, via Suez


def test_damaged_resources_are_not_collected_lr_4_4_2() -> None:
    state = new_state(MODULE, "campaign-1933")
    state.damaged.append("berlin")
    assert "berlin" not in {c.area for c in collectable(MODULE, state, "germany")}


def test_build_costs_and_placement_lr_4_6() -> None:
    assert build_cost(MODULE, "italy", "surface-fleet") == (2, True)
    assert build_cost(MODULE, "italy", "surface-fleet", dreadnought_refit=True) == (1, True)
    assert build_cost(MODULE, "france", "fortress") == (1, True)
    assert build_cost(MODULE, "france", "infantry-army") == (1, False)
    assert build_cost(MODULE, "france", "upgrade:fleet") == (2, False)


def test_not_belligerent_no_war_offensives_lr_4_7() -> None:
    state = new_state(MODULE, "europe-1939")
    assert war_offensives(state, "germany", 3) == 0


def test_war_merging_example_lr_l1272_1278() -> None:
    wars = [
        ("germany", "soviet-union"),
        ("italy", "soviet-union"),
        ("united-states", "japan"),
        ("united-kingdom", "germany"),
        ("united-kingdom", "italy"),
        ("france", "germany"),
        ("france", "italy"),
    ]
    assert len(group_wars(MODULE, wars)) == 3
    allied = [*wars, ("united-states", "germany"), ("united-states", "italy")]  # the US joins the UK's wars
    grouped = group_wars(MODULE, allied)
    assert (["france", "united-kingdom", "united-states"], ["germany", "italy", "japan"]) in grouped
    assert len(grouped) == 2
    japan_on_uk = [*wars, ("japan", "united-kingdom")]
    assert (["france", "united-kingdom", "united-states"], ["germany", "italy", "japan"]) in group_wars(
        MODULE, japan_on_uk
    )


def test_global_war_lr_5_6_5_and_l1326() -> None:
    state = new_state(MODULE, "europe-1939")
    state.wars = [(["united-kingdom"], ["germany"])]
    assert not global_war_now(MODULE, state)
    state.wars.append((["germany"], ["soviet-union"]))
    assert global_war_now(MODULE, state)
    assert global_war_last_turn(1943) == 1947
    assert global_war_last_turn(1939) == 1945
