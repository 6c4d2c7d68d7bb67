"""Each line of docs/decisions.md (Cataclysm section) that no other test pins."""

from __future__ import annotations

import pytest

from grandstrategy.cataclysm.module import load_module
from grandstrategy.cataclysm.module.schema import Area


def test_naval_movement_crosses_mixed_areas_but_not_coastal_land() -> None:
    module = load_module()
    assert module.naval_reach("aegean-sea", 2)["black-sea"] == 2  # through Turkey (mixed)
    # Finland is coastal land with two separate coasts: it does not join the Gulf of Bothnia
    # to the Barents Sea
    assert "finland" in module.naval_reach("gulf-of-bothnia", 2)
    assert "barents-sea" not in module.naval_reach("gulf-of-bothnia", 2)


def test_levant_has_no_mediterranean_coast() -> None:
    module = load_module()
    assert not module.area("syria").coastal and not module.area("jordan").coastal


def test_egypt_is_reached_from_the_aegean_through_the_eastern_mediterranean() -> None:
    module = load_module()
    assert "egypt" not in module.adjacent("aegean-sea", "air")
    assert module.range_by("central-mediterranean", 2, "air")["egypt"] == 2


def test_soviet_pacific_home_areas_are_restricted_before_the_railroad() -> None:
    module = load_module()
    assert module.area("siberia").restricted and module.area("irkutsk").restricted


def test_reconstructed_crisis_entries() -> None:
    crisis = load_module().crisis
    assert (crisis.peacetime["5-1"].event, crisis.peacetime["5-1"].params) == (
        "political-crisis",
        {"power": "italy"},
    )
    assert crisis.peacetime["1-1"].event == "double-crisis"
    assert crisis.peacetime["3-1"].event == "civil-war"
    for key in ("5-1", "3-1"):
        assert "reconstructed" in crisis.peacetime[key].provenance
    assert crisis.peacetime["1-1"].provenance == "LR L2986"  # the Living Rules do print the 1-1 entry
    assert crisis.peacetime["3-2"].params["table"]["3"] == {"table": "wartime", "result": "4-4"}
    assert (crisis.wartime["4-3"].event, crisis.wartime["4-3"].params) == (
        "labor-strikes",
        {"power": "france"},
    )
    assert crisis.wartime["4-4"].event == crisis.wartime["3-3"].event == "revolt"
    assert {crisis.wartime[k].params.get("ideology") for k in ("6-4", "6-3")} == {"communism", "fascism"}


def test_peacetime_entries_from_the_rules() -> None:
    peacetime = load_module().crisis.peacetime
    assert peacetime["6-4"].params == {"areas": ["denmark", "finland", "norway", "sweden"]}
    assert peacetime["5-2"].params == {"power": "germany"}
    assert peacetime["3-2"].params["table"]["6"] == "spain"
    assert peacetime["2-1"].params["table"]["1"] == ["germany", "soviet-union"]


def test_campaign_1933_cubes() -> None:
    module = load_module()
    scenario = module.scenarios["campaign-1933"]
    assert {a for a, c in scenario.cubes.items() if "france" in c} == {
        "poland",
        "czechoslovakia",
        "rumania",
        "yugoslavia",
    }
    assert {a for a, c in scenario.cubes.items() if "united-kingdom" in c} == {"iraq", "jordan"}
    assert module.area("iraq").status.value == "country"  # type: ignore[union-attr]
    assert scenario.powers["france"].vp == 4 and scenario.powers["japan"].commitment.value == "rearmament"


def test_europe_1939_is_the_land_operation_example() -> None:
    module = load_module()
    scenario = module.scenarios["europe-1939"]
    assert module.controller(scenario, "poland") == "france"
    assert module.controller(scenario, "czechoslovakia") == "germany"
    silesia = sorted(u.type for u in scenario.units if u.area == "silesia" and u.power == "germany")
    assert silesia == ["infantry-army", "tank-army"]
    assert scenario.powers["france"].commitment.value == "mobilization"
    assert scenario.reserve["united-kingdom"].kind == "offensive"
    assert scenario.alliances["democracy"] == ["france", "united-kingdom"]  # type: ignore[index]


def test_delay_box_requires_remote() -> None:
    with pytest.raises(ValueError, match="Delay box"):
        Area(
            id="x",
            name="X",
            type="land",
            map="europe",
            pos=(0, 0),
            status="country",  # type: ignore[arg-type]
            delay_box=True,
            provenance="reconstructed",
        )
