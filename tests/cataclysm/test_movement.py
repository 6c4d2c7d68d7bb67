"""Movement, range, support, invasion, retreat and regroup (LR 7.2, 7.3, 8.4, 9.3.2, 10.2, 10.10, 10.11)."""

from __future__ import annotations

import pytest

from grandstrategy.cataclysm.module import load_module
from grandstrategy.cataclysm.rules.movement import (
    arrival_coast,
    deployment_destinations,
    friendly_airfields,
    friendly_port_areas,
    in_op_range,
    invasion_paths,
    is_friendly_area,
    may_withdraw,
    regroup_destinations,
    retreat_destinations,
    step_moves,
    support_possible,
)
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


def unit_of(state: CataclysmState, power: str, unit_type: str, area: str) -> Unit:
    return next(u for u in state.units if (u.power, u.type, u.area) == (power, unit_type, area))


# -- friendliness, ports and airfields ------------------------------------------------------------


def test_friendly_areas_ports_and_airfields(europe: CataclysmState) -> None:
    assert is_friendly_area(MODULE, europe, UK, "egypt")
    assert not is_friendly_area(MODULE, europe, UK, "paris")  # allied, not yet belligerent
    assert not is_friendly_area(MODULE, europe, UK, "north-sea")
    war(europe, [UK, FR], [DE])
    assert is_friendly_area(MODULE, europe, UK, "paris")
    ports = friendly_port_areas(MODULE, europe, UK)
    assert {"spain", "central-mediterranean", "eastern-mediterranean", "arabian-sea", "paris"} <= ports
    assert "lorraine" not in ports and "aegean-sea" not in ports
    fields = friendly_airfields(MODULE, europe, UK)
    assert {"lorraine", "spain", "central-mediterranean"} <= fields and "aegean-sea" not in fields


# -- single steps (LR 7.2.1–7.2.3) ----------------------------------------------------------------


def test_egypt_leads_to_two_seas_and_is_crossed_only_when_friendly_lr_l278(europe: CataclysmState) -> None:
    fleet = add(europe, UK, "surface-fleet", "egypt")
    assert step_moves(MODULE, europe, fleet, "naval") == {"eastern-mediterranean", "arabian-sea"}
    other = add(europe, UK, "surface-fleet", "eastern-mediterranean")
    assert "arabian-sea" in deployment_destinations(MODULE, europe, other)
    europe.cubes["egypt"] = {IT: 1}
    assert "egypt" not in step_moves(MODULE, europe, other, "naval")
    assert "arabian-sea" not in deployment_destinations(MODULE, europe, other)


def test_air_units_fly_java_to_siam_across_the_blue_arrow_lr_l459(campaign: CataclysmState) -> None:
    air = add(campaign, UK, "tactical-air", "java")
    assert "siam" not in step_moves(MODULE, campaign, air, "air")  # an uncontrolled country
    assert "siam" in step_moves(MODULE, campaign, air, "air", op_target="siam")
    campaign.cubes["siam"] = {UK: 1}
    assert "siam" in step_moves(MODULE, campaign, air, "air")
    assert "siam" in deployment_destinations(MODULE, campaign, air)
    fleet = add(campaign, UK, "surface-fleet", "java")
    assert "siam" not in step_moves(MODULE, campaign, fleet, "naval")
    army = add(campaign, UK, "infantry-army", "siam")
    assert "bay-of-bengal" not in step_moves(MODULE, campaign, army, "naval")


def test_naval_movement_hokkaido_maritime_but_not_denmark_ruhr_lr_l1612(
    campaign: CataclysmState, europe: CataclysmState
) -> None:
    fleet = add(campaign, JP, "surface-fleet", "hokkaido")
    assert "maritime-territory" not in step_moves(MODULE, campaign, fleet, "naval")  # not friendly
    assert "maritime-territory" in step_moves(
        MODULE, campaign, fleet, "naval", op_target="maritime-territory"
    )
    europe.cubes["denmark"] = {DE: 1}
    german = add(europe, DE, "surface-fleet", "denmark")
    assert "ruhr" not in step_moves(MODULE, europe, german, "naval")
    assert "sweden" not in step_moves(MODULE, europe, german, "naval")  # not friendly
    army = add(europe, DE, "infantry-army", "denmark")
    assert "ruhr" in step_moves(MODULE, europe, army, "land")


def test_modes_follow_the_unit_class_lr_7_2(europe: CataclysmState) -> None:
    fleet = unit_of(europe, UK, "surface-fleet", "scotland")
    assert step_moves(MODULE, europe, fleet, "land") == set()
    assert step_moves(MODULE, europe, fleet, "air") == set()
    army = unit_of(europe, UK, "infantry-army", "london")
    assert step_moves(MODULE, europe, army, "air") == set()
    assert "north-sea" in step_moves(MODULE, europe, army, "naval")


def test_two_coast_areas_keep_their_coasts_apart_lr_2_2_1(europe: CataclysmState) -> None:
    east = add(europe, IT, "surface-fleet", "lombardy", "east")
    west = add(europe, IT, "surface-fleet", "lombardy", "west")
    assert step_moves(MODULE, europe, east, "naval") == {"adriatic-sea"}
    assert step_moves(MODULE, europe, west, "naval") == {"tyrrhenian-sea"}
    assert arrival_coast(MODULE, "spain", "western-approaches") == "north"
    assert arrival_coast(MODULE, "spain", "western-mediterranean") == "south"
    assert arrival_coast(MODULE, "rome", "tyrrhenian-sea") is None


def test_enemy_fleets_block_naval_movement_but_sub_packs_pass(europe: CataclysmState) -> None:
    war(europe, [DE], [UK, FR])
    add(europe, UK, "surface-fleet", "north-sea")
    sub = unit_of(europe, DE, "submarine-pack", "ruhr")
    fleet = add(europe, DE, "surface-fleet", "ruhr")
    assert "north-sea" in step_moves(MODULE, europe, sub, "naval")
    assert "north-sea" not in step_moves(MODULE, europe, fleet, "naval")
    assert "north-sea" in step_moves(MODULE, europe, fleet, "naval", op_target="north-sea")
    assert "north-sea" not in deployment_destinations(MODULE, europe, sub)  # may pass, not stay


def test_enemy_air_units_block_air_movement_unless_target_lr_7_2_3(europe: CataclysmState) -> None:
    war(europe, [DE], [UK, FR])
    add(europe, DE, "tactical-air", "north-sea")
    air = unit_of(europe, UK, "tactical-air", "london")
    assert "north-sea" not in step_moves(MODULE, europe, air, "air")
    assert "north-sea" in step_moves(MODULE, europe, air, "air", op_target="north-sea")
    europe.cubes["benelux"] = {DE: 1}
    assert "benelux" not in step_moves(MODULE, europe, air, "air")
    assert "benelux" in step_moves(MODULE, europe, air, "air", op_target="ruhr")  # transit in an op


# -- deployment (LR 8.4) --------------------------------------------------------------------------


def test_uk_air_force_deploys_from_spain_to_egypt_lr_l1630(europe: CataclysmState) -> None:
    air = add(europe, UK, "tactical-air", "spain")
    assert {"egypt", "central-mediterranean"} <= set(deployment_destinations(MODULE, europe, air))
    # with the Tyrrhenian closed to naval movement, two seas in a row cannot be flown
    war(europe, [UK], [IT])
    add(europe, IT, "surface-fleet", "tyrrhenian-sea")
    found = deployment_destinations(MODULE, europe, air)
    assert "egypt" not in found and "central-mediterranean" not in found
    assert "western-mediterranean" not in found  # no base; not next to a British port


def test_a_friendly_air_base_ends_a_row_of_sea_areas(campaign: CataclysmState) -> None:
    campaign.markers.remove("wnt")
    war(campaign, [US], [JP])
    add(campaign, JP, "surface-fleet", "eastern-pacific")  # naval movement is blocked
    air = add(campaign, US, "tactical-air", "california")
    found = deployment_destinations(MODULE, campaign, air)
    assert {"hawaii", "central-pacific", "marianas"} <= set(found)


def test_naval_units_do_not_pass_through_coastal_land_but_armies_reembark(europe: CataclysmState) -> None:
    war(europe, [UK], [IT])  # the British fleet in the Central Mediterranean blocks it
    fleet = unit_of(europe, IT, "surface-fleet", "sicily")
    found = deployment_destinations(MODULE, europe, fleet)
    assert "rome" in found and "lombardy" in found
    assert "albania" not in found  # only through Rome or Lombardy to the Adriatic
    army = unit_of(europe, IT, "infantry-army", "rome")
    assert "albania" in deployment_destinations(MODULE, europe, army)


def test_naval_units_stay_within_range_of_a_friendly_port_lr_7_2_2(campaign: CataclysmState) -> None:
    fleet = unit_of(campaign, US, "surface-fleet", "hawaii")
    assert deployment_destinations(MODULE, campaign, fleet) == ["california", "dutch-harbor"]
    campaign.markers.remove("wnt")
    found = deployment_destinations(MODULE, campaign, fleet)
    assert {"central-pacific", "marianas", "ellice-islands", "philippines"} <= set(found)


def test_naval_movement_needs_a_friendly_port_within_two_areas_lr_7_2_2(europe: CataclysmState) -> None:
    europe.cubes["greece"] = {DE: 1}
    fleet = add(europe, DE, "surface-fleet", "ruhr")
    assert "greece" not in deployment_destinations(MODULE, europe, fleet)  # the Atlantic is out of range
    europe.cubes["portugal"] = {DE: 1}
    assert "greece" in deployment_destinations(MODULE, europe, fleet)


def test_a_delay_box_ends_the_move_lr_2_3_5(campaign: CataclysmState) -> None:
    army = unit_of(campaign, SU, "infantry-army", "moscow")
    found = deployment_destinations(MODULE, campaign, army)
    assert "urals" in found and "siberia" not in found
    campaign.markers.append("trans-siberian-railroad-in-play")
    assert "siberia" in deployment_destinations(MODULE, campaign, army)


def test_us_isolationism_limits_land_and_logistics_deployment_lr_12_2_2(campaign: CataclysmState) -> None:
    assert deployment_destinations(
        MODULE, campaign, unit_of(campaign, US, "infantry-army", "washington-dc")
    ) == ["california"]
    army = add(campaign, US, "infantry-army", "california")
    assert deployment_destinations(MODULE, campaign, army) == ["washington-dc"]
    logistics = add(campaign, US, "logistics", "california")
    assert deployment_destinations(MODULE, campaign, logistics) == []  # only when just played
    assert deployment_destinations(MODULE, campaign, logistics, played=True) == [
        "dutch-harbor",
        "hawaii",
        "washington-dc",
    ]
    fleet = unit_of(campaign, US, "surface-fleet", "california")
    assert deployment_destinations(MODULE, campaign, fleet) == ["dutch-harbor"]  # fleets are free
    campaign.markers.remove("wnt")
    war(campaign, [US], [JP])  # belligerent: isolationism no longer binds
    assert "philippines" in deployment_destinations(MODULE, campaign, army)


def test_washington_naval_treaty_closes_the_pacific_to_deployment_lr_12_1_3(campaign: CataclysmState) -> None:
    fleet = unit_of(campaign, JP, "surface-fleet", "tokyo")
    found = set(deployment_destinations(MODULE, campaign, fleet))
    assert found and not found & {a.id for a in MODULE.areas.values() if a.wnt_zone}
    # a unit already inside may leave, passing through the zone
    assert "tokyo" in deployment_destinations(
        MODULE, campaign, unit_of(campaign, JP, "surface-fleet", "carolines")
    )
    campaign.markers.remove("wnt")
    assert {"palaus", "marshalls"} <= set(deployment_destinations(MODULE, campaign, fleet))


def test_chinese_army_countries_cannot_be_entered_lr_11_4_2(campaign: CataclysmState) -> None:
    campaign.cubes["shandong"] = {JP: 1}
    army = add(campaign, JP, "infantry-army", "korea")
    assert "shandong" in campaign.chinese_armies
    assert "shandong" not in deployment_destinations(MODULE, campaign, army)
    del campaign.chinese_armies["shandong"]
    assert "shandong" in deployment_destinations(MODULE, campaign, army)


def test_fortresses_and_logistics_are_withdrawn_with_an_loc_lr_8_4_1(europe: CataclysmState) -> None:
    fortress = unit_of(europe, FR, "fortress", "lorraine")
    assert deployment_destinations(MODULE, europe, fortress) == []
    assert may_withdraw(MODULE, europe, fortress)
    assert not may_withdraw(MODULE, europe, unit_of(europe, FR, "infantry-army", "paris"))
    cut_off = add(europe, FR, "logistics", "syria")  # no LOC: Turkey, Iraq and Jordan are not friendly
    assert not may_withdraw(MODULE, europe, cut_off)


# -- range (LR 7.3) -------------------------------------------------------------------------------


def test_central_mediterranean_naval_range_is_the_sixteen_targets_lr_l1650(europe: CataclysmState) -> None:
    fleet = unit_of(europe, UK, "surface-fleet", "central-mediterranean")
    targets = {a for a in MODULE.areas if in_op_range(MODULE, europe, fleet, a)}
    names = {MODULE.area(a).name for a in targets}
    assert names == {
        "Adriatic Sea",
        "Aegean Sea",
        "Albania",
        "Eastern Mediterranean",
        "Egypt",
        "French North Africa",
        "Greece",
        "Libya",
        "Lombardy",
        "Provence",
        "Rome",
        "Sicily",
        "Turkey",
        "Tyrrhenian Sea",
        "Western Mediterranean",
        "Yugoslavia",
    }
    assert targets == set(MODULE.naval_reach("central-mediterranean", 2))
    extended = {a for a in MODULE.areas if in_op_range(MODULE, europe, fleet, a, extended=True)}
    assert extended - targets == {"arabian-sea", "mid-atlantic-ocean", "spain"}  # via friendly Egypt


def test_naval_range_does_not_pass_enemy_fleets(europe: CataclysmState) -> None:
    war(europe, [UK], [IT])
    fleet = unit_of(europe, UK, "surface-fleet", "central-mediterranean")
    add(europe, IT, "surface-fleet", "tyrrhenian-sea")
    assert in_op_range(MODULE, europe, fleet, "tyrrhenian-sea")  # the target itself
    assert not in_op_range(MODULE, europe, fleet, "provence")
    assert in_op_range(MODULE, europe, fleet, "lombardy")  # round by the Adriatic


def test_strategic_bombing_of_the_ruhr_from_london_lr_l1666(europe: CataclysmState) -> None:
    war(europe, [UK, FR], [DE])
    strategic, tactical = [u for u in europe.units if u.area == "london" and u.type == "tactical-air"]
    strategic.type = "strategic-air"
    assert in_op_range(MODULE, europe, strategic, "ruhr")  # over the North Sea
    assert not in_op_range(MODULE, europe, tactical, "ruhr")
    assert in_op_range(MODULE, europe, tactical, "ruhr", extended=True)
    assert not support_possible(MODULE, europe, strategic, "ruhr", "air")
    assert not support_possible(MODULE, europe, tactical, "ruhr", "air")
    add(europe, DE, "strategic-air", "north-sea")  # the sea is closed; neutral Benelux too
    assert not in_op_range(MODULE, europe, strategic, "ruhr")
    europe.cubes["benelux"] = {DE: 1}  # an enemy area may be flown over in an operation
    assert in_op_range(MODULE, europe, strategic, "ruhr")


def test_land_range_is_adjacency_and_sub_packs_never_operate(europe: CataclysmState) -> None:
    tank = unit_of(europe, DE, "tank-army", "silesia")
    assert in_op_range(MODULE, europe, tank, "poland")
    assert not in_op_range(MODULE, europe, tank, "ukraine")
    assert not in_op_range(MODULE, europe, unit_of(europe, DE, "submarine-pack", "ruhr"), "north-sea")
    assert not in_op_range(MODULE, europe, unit_of(europe, FR, "fortress", "lorraine"), "ruhr")


# -- support (LR 10.2) ----------------------------------------------------------------------------


def test_only_one_london_air_force_may_support_paris_lr_l2004(europe: CataclysmState) -> None:
    war(europe, [DE], [FR, UK])
    add(europe, DE, "tank-army", "paris")
    first, second = [u for u in europe.units if u.area == "london" and u.type == "tactical-air"]
    assert support_possible(MODULE, europe, first, "paris", "land")
    assert support_possible(MODULE, europe, second, "paris", "land")
    first.area = "paris"  # the first one moves in; the French air force is already there
    assert support_possible(MODULE, europe, first, "paris", "land")
    assert not support_possible(MODULE, europe, second, "paris", "land")


def test_fleets_support_only_naval_combat_and_subs_never(europe: CataclysmState) -> None:
    war(europe, [UK], [IT])
    fleet = unit_of(europe, UK, "surface-fleet", "central-mediterranean")
    assert support_possible(MODULE, europe, fleet, "sicily", "naval")
    assert not support_possible(MODULE, europe, fleet, "sicily", "land")
    assert not support_possible(MODULE, europe, fleet, "provence", "naval")  # not adjacent
    sub = add(europe, UK, "submarine-pack", "eastern-mediterranean")
    assert not support_possible(MODULE, europe, sub, "central-mediterranean", "naval")
    army = unit_of(europe, UK, "infantry-army", "egypt")
    assert not support_possible(MODULE, europe, army, "libya", "land")


# -- invasion (LR 9.3.2) --------------------------------------------------------------------------


def test_invasion_paths_need_friendly_fleets_not_subs(europe: CataclysmState) -> None:
    war(europe, [UK, FR], [DE])
    assert invasion_paths(MODULE, europe, UK, "london", "paris") == []
    add(europe, UK, "surface-fleet", "north-sea")
    add(europe, UK, "submarine-pack", "western-approaches")
    assert invasion_paths(MODULE, europe, UK, "london", "paris") == [("north-sea",)]
    add(europe, FR, "carrier-fleet", "western-approaches")  # a friendly power's fleet counts
    assert invasion_paths(MODULE, europe, UK, "london", "paris") == [
        ("north-sea",),
        ("western-approaches", "north-sea"),
    ]


# -- retreat (LR 10.10) ---------------------------------------------------------------------------


def test_land_retreat_to_adjacent_friendly_areas_with_room_lr_10_10_1(europe: CataclysmState) -> None:
    war(europe, [DE], [FR, UK])
    europe.cubes["poland"] = {DE: 1}
    europe.minor_armies.remove("poland")
    army = add(europe, DE, "infantry-army", "poland")
    # Silesia is full; Czechoslovakia holds its minor army and a German cube
    assert retreat_destinations(MODULE, europe, army, "land") == ["berlin", "czechoslovakia", "east-prussia"]
    assert retreat_destinations(MODULE, europe, army, "land", invasion_origin="silesia") == []
    assert retreat_destinations(MODULE, europe, unit_of(europe, FR, "fortress", "lorraine"), "land") == []
    with pytest.raises(ValueError):
        retreat_destinations(MODULE, europe, army, "air")


def test_naval_retreat_to_a_port_within_three_lr_10_10_2(europe: CataclysmState) -> None:
    war(europe, [UK], [IT])
    fleet = unit_of(europe, UK, "surface-fleet", "central-mediterranean")
    assert retreat_destinations(MODULE, europe, fleet, "naval") == [
        "arabian-sea",
        "eastern-mediterranean",
        "egypt",
        "spain",
    ]
    add(europe, IT, "surface-fleet", "eastern-mediterranean")
    assert retreat_destinations(MODULE, europe, fleet, "naval") == ["spain"]


def test_air_retreat_range_and_enemy_land_lr_10_10_2(europe: CataclysmState) -> None:
    war(europe, [UK], [IT])
    air = unit_of(europe, IT, "tactical-air", "sicily")
    assert retreat_destinations(MODULE, europe, air, "air") == [
        "aegean-sea",
        "albania",
        "libya",
        "lombardy",
        "rome",
    ]
    # Jordan lies two areas from Libya only across Egypt: enemy land may be flown over in retreat
    europe.cubes["jordan"] = {IT: 1}
    libya = add(europe, IT, "tactical-air", "libya")
    assert "jordan" in retreat_destinations(MODULE, europe, libya, "air")
    europe.wars.clear()
    assert "jordan" not in retreat_destinations(MODULE, europe, libya, "air")  # Egypt is not enemy


# -- regroup (LR 10.11) ---------------------------------------------------------------------------


def test_regroup_after_fall_weiss_lr_l2239(europe: CataclysmState) -> None:
    war(europe, [DE], [FR, UK])
    europe.cubes["poland"] = {DE: 1}
    europe.minor_armies.remove("poland")
    infantry = unit_of(europe, DE, "infantry-army", "silesia")
    tank = unit_of(europe, DE, "tank-army", "silesia")
    air = unit_of(europe, DE, "tactical-air", "east-prussia")
    infantry.area = tank.area = air.area = "poland"
    assert "czechoslovakia" in regroup_destinations(MODULE, europe, infantry, "poland")
    assert "silesia" in regroup_destinations(MODULE, europe, air, "poland")
    berlin = unit_of(europe, DE, "infantry-army", "berlin")
    assert regroup_destinations(MODULE, europe, berlin, "poland") == []  # two armies: Poland is full
    infantry.area = "silesia"
    assert regroup_destinations(MODULE, europe, berlin, "poland") == ["poland"]
    assert regroup_destinations(MODULE, europe, unit_of(europe, DE, "infantry-army", "ruhr"), "poland") == []
    assert regroup_destinations(MODULE, europe, unit_of(europe, FR, "fortress", "lorraine"), "lorraine") == []


def test_naval_regroup_to_and_from_the_target_lr_10_11(europe: CataclysmState) -> None:
    war(europe, [UK], [IT])
    fleet = unit_of(europe, UK, "surface-fleet", "central-mediterranean")
    assert regroup_destinations(MODULE, europe, fleet, "central-mediterranean") == [
        "eastern-mediterranean",
        "egypt",
    ]
    assert regroup_destinations(MODULE, europe, fleet, "central-mediterranean", extended=True) == [
        "arabian-sea",
        "eastern-mediterranean",
        "egypt",
        "spain",
    ]
    other = add(europe, UK, "surface-fleet", "egypt")
    assert regroup_destinations(MODULE, europe, other, "central-mediterranean") == []  # base full
    fleet.area = "eastern-mediterranean"
    assert regroup_destinations(MODULE, europe, other, "central-mediterranean") == ["central-mediterranean"]
