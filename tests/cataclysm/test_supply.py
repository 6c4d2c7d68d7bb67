"""Lines of communication (LR 4.3) on the rules' own examples."""

from __future__ import annotations

import pytest

from grandstrategy.cataclysm.module import load_module
from grandstrategy.cataclysm.rules.supply import trace_loc
from grandstrategy.cataclysm.state import CataclysmState, Unit, new_state

MODULE = load_module()


@pytest.fixture
def state() -> CataclysmState:
    return new_state(MODULE, "europe-1939")


def add_unit(state: CataclysmState, power: str, unit_type: str, area: str) -> None:
    state.units.append(Unit(state.next_unit_id, power, unit_type, area))
    state.next_unit_id += 1


def test_a_german_held_moscow_is_cut_off_by_restricted_land_lr_l957(state: CataclysmState) -> None:
    for area in (
        "poland",
        "byelorussia",
        "smolensk",
        "moscow",
        "volga",
        "archangel",
        "leningrad",
        "baltic-states",
    ):
        state.cubes[area] = {"germany": 2 if area == "moscow" else 1}
    assert not trace_loc(MODULE, state, "germany", "moscow")
    # LR 7.1.4: logistics units negate restricted terrain, one area at a time
    add_unit(state, "germany", "logistics", "smolensk")
    assert not trace_loc(MODULE, state, "germany", "moscow")  # Byelorussia still blocks
    add_unit(state, "germany", "logistics", "byelorussia")
    assert trace_loc(MODULE, state, "germany", "moscow")


def test_smolensk_in_limited_supply_but_leningrad_supplied_by_sea_lr_l1905(state: CataclysmState) -> None:
    state.wars.append((["germany"], ["soviet-union"]))
    for area in ("poland", "baltic-states", "byelorussia", "smolensk", "leningrad"):
        state.cubes[area] = {"germany": 1}
    assert not trace_loc(MODULE, state, "germany", "smolensk")
    assert trace_loc(MODULE, state, "germany", "leningrad")  # Berlin, Baltic Sea, Leningrad


def test_us_transfer_to_the_uk_blocked_by_german_units_only_in_war_lr_l973(state: CataclysmState) -> None:
    state.cubes["iceland"] = {"germany": 1}
    add_unit(state, "germany", "surface-fleet", "north-atlantic-ocean")
    kwargs = {"sources": ["washington-dc"], "also_friendly": ["united-states"]}
    assert trace_loc(MODULE, state, "united-kingdom", "london", **kwargs)  # not enemies: no block
    state.wars.append((["united-kingdom", "france"], ["germany"]))
    assert not trace_loc(MODULE, state, "united-kingdom", "london", **kwargs)
    state.units = [u for u in state.units if u.area != "north-atlantic-ocean"]
    assert trace_loc(MODULE, state, "united-kingdom", "london", **kwargs)


def test_delay_box_areas_are_not_crossed_lr_2_3_5(state: CataclysmState) -> None:
    campaign = new_state(MODULE, "campaign-1933")
    # California is the only way from Washington DC to the Pacific coast by land: into, not through
    assert trace_loc(MODULE, campaign, "united-states", "california")
    assert not trace_loc(MODULE, campaign, "united-states", "eastern-pacific", sources=["washington-dc"])


def test_belligerent_sea_lines_must_stay_near_friendly_ports(state: CataclysmState) -> None:
    # The Mid-Atlantic is three seas from Ruhr (North Sea, Western Approaches, Mid-Atlantic)
    assert trace_loc(MODULE, state, "germany", "mid-atlantic-ocean")  # not belligerent: any open sea
    state.wars.append((["germany"], ["united-kingdom"]))
    assert not trace_loc(MODULE, state, "germany", "mid-atlantic-ocean")
    state.cubes["portugal"] = {"germany": 1}  # a friendly port beside it
    assert trace_loc(MODULE, state, "germany", "mid-atlantic-ocean")
