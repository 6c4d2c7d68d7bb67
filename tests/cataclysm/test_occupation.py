"""Occupation limits (LR 7.1) on the rules' own examples and the rows of brief §2.6."""

from __future__ import annotations

import pytest

from grandstrategy.cataclysm.module import load_module
from grandstrategy.cataclysm.rules.occupation import UNLIMITED, limits, may_stop, violations
from grandstrategy.cataclysm.state import CataclysmState, Unit, new_state

MODULE = load_module()
UK, FR, DE, IT, JP, SU, US = (
    "united-kingdom",
    "france",
    "germany",
    "italy",
    "japan",
    "soviet-union",
    "united-states",
)


@pytest.fixture
def europe() -> CataclysmState:
    return new_state(MODULE, "europe-1939")


@pytest.fixture
def campaign() -> CataclysmState:
    return new_state(MODULE, "campaign-1933")


def add(state: CataclysmState, power: str, unit_type: str, area: str, coast: str | None = None) -> Unit:
    unit = Unit(state.next_unit_id, power, unit_type, area, coast)
    state.units.append(unit)
    state.next_unit_id += 1
    return unit


def war(state: CataclysmState, side_a: list[str], side_b: list[str]) -> None:
    state.wars.append((side_a, side_b))


# -- sea areas (LR 7.1.2) ------------------------------------------------------------------------


def test_norwegian_sea_holds_one_fleet_and_one_strategic_air_while_belligerent_lr_l1558(
    europe: CataclysmState,
) -> None:
    assert not may_stop(MODULE, europe, (UK, "surface-fleet"), "norwegian-sea")  # not belligerent
    war(europe, [UK, FR], [DE])
    cap = limits(MODULE, europe, UK, "norwegian-sea")
    assert (cap["naval"], cap["fleet"], cap["air"], cap["tactical-air"]) == (1, 1, 1, 0)
    assert may_stop(MODULE, europe, (UK, "surface-fleet"), "norwegian-sea")
    assert may_stop(MODULE, europe, (UK, "strategic-air"), "norwegian-sea")
    assert not may_stop(MODULE, europe, (UK, "tactical-air"), "norwegian-sea")
    add(europe, UK, "surface-fleet", "norwegian-sea")
    assert not may_stop(MODULE, europe, (UK, "carrier-fleet"), "norwegian-sea")
    assert may_stop(MODULE, europe, (UK, "strategic-air"), "norwegian-sea")


def test_eastern_mediterranean_base_allows_one_naval_and_one_air_only_lr_l1560(
    europe: CataclysmState,
) -> None:
    war(europe, [UK, FR], [DE])  # belligerent: the Egypt port adds nothing (not cumulative)
    cap = limits(MODULE, europe, UK, "eastern-mediterranean")
    assert (cap["naval"], cap["air"], cap["logistics"]) == (1, 1, 1)
    assert may_stop(MODULE, europe, (UK, "tactical-air"), "eastern-mediterranean")
    add(europe, UK, "surface-fleet", "eastern-mediterranean")
    add(europe, UK, "tactical-air", "eastern-mediterranean")
    assert not may_stop(MODULE, europe, (UK, "surface-fleet"), "eastern-mediterranean")
    assert not may_stop(MODULE, europe, (UK, "strategic-air"), "eastern-mediterranean")
    assert violations(MODULE, europe) == []


def test_german_sub_pack_in_the_western_approaches_and_brittany_lr_l1562(europe: CataclysmState) -> None:
    sub = next(u for u in europe.units if u.type == "submarine-pack")
    assert sub.area == "ruhr" and sub.power == DE
    assert not may_stop(MODULE, europe, sub, "western-approaches")  # Germany not yet belligerent
    war(europe, [DE], [FR, UK])
    assert may_stop(MODULE, europe, sub, "western-approaches")  # two seas from the Ruhr
    assert not may_stop(MODULE, europe, (DE, "surface-fleet"), "western-approaches")
    assert not may_stop(MODULE, europe, (DE, "strategic-air"), "western-approaches")
    assert not may_stop(MODULE, europe, sub, "north-atlantic-ocean")
    assert not may_stop(MODULE, europe, sub, "mid-atlantic-ocean")
    europe.cubes["brittany"] = {DE: 1}
    assert may_stop(MODULE, europe, (DE, "surface-fleet"), "western-approaches")
    assert may_stop(MODULE, europe, (DE, "strategic-air"), "western-approaches")
    assert may_stop(MODULE, europe, sub, "north-atlantic-ocean")
    assert may_stop(MODULE, europe, sub, "mid-atlantic-ocean")


def test_sub_pack_allowance_is_for_sub_packs_only_and_not_cumulative(europe: CataclysmState) -> None:
    war(europe, [DE], [FR, UK])
    cap = limits(MODULE, europe, DE, "norwegian-sea")  # Ruhr, North Sea, Norwegian Sea
    assert (cap["naval"], cap["fleet"]) == (1, 0)
    europe.cubes["norway"] = {DE: 1}
    cap = limits(MODULE, europe, DE, "norwegian-sea")  # next to a German port: still one
    assert (cap["naval"], cap["fleet"]) == (1, 1)
    add(europe, DE, "surface-fleet", "norwegian-sea")
    assert not may_stop(MODULE, europe, (DE, "submarine-pack"), "norwegian-sea")


def test_japanese_logistics_in_the_carolines_allows_two_naval_and_two_air_lr_l1582(
    campaign: CataclysmState,
) -> None:
    assert any(u.power == JP and u.type == "surface-fleet" for u in campaign.units_in("carolines"))
    assert limits(MODULE, campaign, JP, "carolines")["naval"] == 1
    assert not may_stop(MODULE, campaign, (JP, "surface-fleet"), "carolines")
    assert may_stop(MODULE, campaign, (JP, "logistics"), "carolines")
    add(campaign, JP, "logistics", "carolines")
    cap = limits(MODULE, campaign, JP, "carolines")
    assert (cap["naval"], cap["air"], cap["logistics"]) == (2, 2, 1)
    assert may_stop(MODULE, campaign, (JP, "surface-fleet"), "carolines")
    add(campaign, JP, "tactical-air", "carolines")
    assert may_stop(MODULE, campaign, (JP, "strategic-air"), "carolines")
    assert not may_stop(MODULE, campaign, (JP, "logistics"), "carolines")  # one per area


def test_a_sea_without_a_base_holds_nothing_outside_an_operation(europe: CataclysmState) -> None:
    cap = limits(MODULE, europe, UK, "north-sea")
    assert cap["naval"] == cap["air"] == cap["logistics"] == cap["land"] == 0
    cap = limits(MODULE, europe, UK, "north-sea", during_op=True)
    assert (cap["naval"], cap["fleet"], cap["air"], cap["tactical-air"]) == (2, 2, 2, 2)
    assert may_stop(MODULE, europe, (UK, "surface-fleet"), "north-sea", during_op=True)
    assert not may_stop(MODULE, europe, (UK, "infantry-army"), "north-sea", during_op=True)


def test_an_opposing_base_keeps_units_out_except_as_the_target_lr_7_1(europe: CataclysmState) -> None:
    war(europe, [UK, FR], [DE])  # the Aegean is next to British ports, but holds an Italian base
    assert not may_stop(MODULE, europe, (UK, "surface-fleet"), "aegean-sea")
    assert not may_stop(MODULE, europe, (UK, "strategic-air"), "aegean-sea")
    war(europe, [UK, FR], [IT])
    assert not may_stop(MODULE, europe, (UK, "surface-fleet"), "aegean-sea")
    assert may_stop(MODULE, europe, (UK, "surface-fleet"), "aegean-sea", during_op=True)


def test_opposing_units_keep_others_out(europe: CataclysmState) -> None:
    war(europe, [UK, FR], [DE])
    add(europe, IT, "submarine-pack", "norwegian-sea")  # opposing, not an enemy
    assert not may_stop(MODULE, europe, (UK, "surface-fleet"), "norwegian-sea")


def test_same_ideology_units_share_only_when_friendly_lr_7_1(europe: CataclysmState) -> None:
    # allied but not belligerent: the British base is not friendly to France
    assert not may_stop(MODULE, europe, (FR, "surface-fleet"), "eastern-mediterranean")
    add(europe, UK, "tactical-air", "eastern-mediterranean")
    war(europe, [FR, UK], [DE])
    assert may_stop(MODULE, europe, (FR, "surface-fleet"), "eastern-mediterranean")
    assert not may_stop(MODULE, europe, (FR, "tactical-air"), "eastern-mediterranean")  # one democracy air


# -- land and mixed areas (LR 7.1.1, 7.1.3) -------------------------------------------------------


def test_two_land_units_at_most_one_fortress(europe: CataclysmState) -> None:
    cap = limits(MODULE, europe, FR, "brittany")
    assert (cap["land"], cap["fortress"], cap["naval"], cap["air"], cap["logistics"]) == (2, 1, 2, 2, 1)
    assert limits(MODULE, europe, FR, "lorraine")["naval"] == 0  # not coastal
    assert not may_stop(MODULE, europe, (FR, "surface-fleet"), "lorraine")
    assert not may_stop(MODULE, europe, (FR, "infantry-army"), "lorraine")  # army and fortress
    add(europe, FR, "fortress", "brittany")
    assert not may_stop(MODULE, europe, (FR, "fortress"), "brittany")
    assert may_stop(MODULE, europe, (FR, "infantry-army"), "brittany")


def test_a_minor_army_counts_for_the_controllers_ideology_lr_l591(europe: CataclysmState) -> None:
    assert "poland" in europe.minor_armies and europe.cubes["poland"] == {FR: 1}
    assert may_stop(MODULE, europe, (FR, "infantry-army"), "poland")
    add(europe, FR, "infantry-army", "poland")
    assert not may_stop(MODULE, europe, (FR, "infantry-army"), "poland")
    assert may_stop(MODULE, europe, (FR, "tactical-air"), "poland")
    # an uncontrolled country's minor army counts for nobody: only the target's caps matter
    assert may_stop(MODULE, europe, (DE, "tank-army"), "turkey", during_op=True)
    add(europe, DE, "infantry-army", "turkey")
    assert may_stop(MODULE, europe, (DE, "tank-army"), "turkey", during_op=True)


def test_a_unit_never_counts_itself(europe: CataclysmState) -> None:
    army = next(u for u in europe.units if u.area == "paris" and u.type == "infantry-army")
    other = add(europe, FR, "infantry-army", "paris")
    assert not may_stop(MODULE, europe, (FR, "tank-army"), "paris")
    assert may_stop(MODULE, europe, army, "paris")
    assert may_stop(MODULE, europe, (FR, "tank-army"), "paris", ignoring=other)


def test_restricted_terrain_and_logistics_lr_7_1_3(europe: CataclysmState) -> None:
    cap = limits(MODULE, europe, FR, "french-north-africa")
    assert (cap["land"], cap["naval"], cap["air"]) == (1, 1, 1)
    assert not may_stop(MODULE, europe, (FR, "infantry-army"), "french-north-africa")
    assert may_stop(MODULE, europe, (FR, "logistics"), "french-north-africa")  # brings its own negation
    add(europe, FR, "logistics", "french-north-africa")
    assert limits(MODULE, europe, FR, "french-north-africa")["land"] == 2
    assert may_stop(MODULE, europe, (FR, "infantry-army"), "french-north-africa")


def test_general_winter_and_the_railroad_lr_12_3_1(campaign: CataclysmState) -> None:
    assert limits(MODULE, campaign, SU, "byelorussia")["land"] == 2  # Europe home area
    assert limits(MODULE, campaign, SU, "siberia")["land"] == 1  # Pacific, before the railroad
    campaign.markers.append("trans-siberian-railroad-in-play")
    assert limits(MODULE, campaign, SU, "siberia")["land"] == 2
    campaign.cubes["byelorussia"] = {DE: 1}
    assert limits(MODULE, campaign, DE, "byelorussia")["land"] == 1  # not for Germany


def test_remote_areas_take_any_number_of_the_controllers_units_only_lr_2_2_8(
    europe: CataclysmState,
) -> None:
    for _ in range(4):
        add(europe, UK, "infantry-army", "canada")
    assert limits(MODULE, europe, UK, "canada")["land"] == UNLIMITED
    assert may_stop(MODULE, europe, (UK, "tank-army"), "canada")
    assert violations(MODULE, europe) == []
    war(europe, [UK, FR], [DE])  # friendly, yet not the controller
    assert not may_stop(MODULE, europe, (FR, "infantry-army"), "canada")
    assert limits(MODULE, europe, US, "canada")["land"] == 0


def test_special_british_base_in_spain_works_as_a_sea_base_lr_7_1_1(europe: CataclysmState) -> None:
    assert "spain" in europe.special_bases
    cap = limits(MODULE, europe, UK, "spain")
    assert (cap["land"], cap["naval"], cap["air"], cap["logistics"]) == (0, 1, 1, 1)
    assert not may_stop(MODULE, europe, (UK, "infantry-army"), "spain")
    assert may_stop(MODULE, europe, (UK, "surface-fleet"), "spain")
    assert not may_stop(MODULE, europe, (FR, "surface-fleet"), "spain")  # not friendly yet
    add(europe, UK, "surface-fleet", "spain", "south")
    assert not may_stop(MODULE, europe, (UK, "carrier-fleet"), "spain")
    add(europe, UK, "logistics", "spain")
    assert may_stop(MODULE, europe, (UK, "carrier-fleet"), "spain")
    europe.cubes["spain"] = {IT: 1}  # control ends the base's effect (LR 2.3.3)
    assert not may_stop(MODULE, europe, (UK, "tactical-air"), "spain")


def test_chinese_army_countries_are_nobodys_to_enter_lr_11_4_2(campaign: CataclysmState) -> None:
    campaign.cubes["hebei"] = {JP: 1}
    campaign.chinese_armies.pop("hebei", None)
    assert may_stop(MODULE, campaign, (JP, "infantry-army"), "hebei")
    campaign.chinese_armies["hebei"] = "gmd"
    assert not may_stop(MODULE, campaign, (JP, "infantry-army"), "hebei")
    assert limits(MODULE, campaign, JP, "hebei")["chinese-army"] == 1
    # as a target, the Chinese army counts for its controller's ideology
    add(campaign, JP, "infantry-army", "hebei")
    assert not may_stop(MODULE, campaign, (JP, "tank-army"), "hebei", during_op=True)


def test_violations_name_the_area_ideology_and_class(europe: CataclysmState) -> None:
    assert violations(MODULE, europe) == []
    assert violations(MODULE, new_state(MODULE, "campaign-1933")) == []
    add(europe, UK, "infantry-army", "london")
    add(europe, UK, "infantry-army", "london")
    add(europe, DE, "surface-fleet", "north-sea")  # Germany is not belligerent
    found = violations(MODULE, europe)
    assert found == [
        "london: democracy has 3 land unit(s), at most 2 (LR 7.1)",
        "north-sea: fascism has 1 naval unit(s), at most 0 (LR 7.1)",
    ]
    europe.wars.append(([DE], [FR]))  # belligerent: one fleet may stay next to the Ruhr
    europe.units[-1].type = "carrier-fleet"
    assert violations(MODULE, europe)[1:] == []
    add(europe, DE, "tactical-air", "north-sea")
    assert violations(MODULE, europe)[1:] == [
        "north-sea: fascism has 1 tactical-air unit(s), at most 0 (LR 7.1)"
    ]
    assert violations(MODULE, europe, exempt=["london", "north-sea"]) == []
