"""The shipped Revised map module: it loads, passes its checks, and holds the facts the documents state.

Facts come from the TripleA game files and from the variants brief (../shared/briefs/aa-variants.md,
"brief §n" below), which checked several of them against the same graph independently.
"""

from __future__ import annotations

import pytest

from grandstrategy.axis_allies.module import MapModule, check_module, load_module
from grandstrategy.axis_allies.units import find_rules


@pytest.fixture(scope="module")
def revised() -> MapModule:
    return load_module()


def land(module: MapModule, zone: str) -> set[str]:
    return {other for other in module.territories[zone].neighbours if not module.is_sea(other)}


def test_shipped_module_passes_check_with_every_record_sourced() -> None:
    report = check_module()
    assert report.ok, [str(problem) for problem in report.problems]
    summary = report.summary()
    # brief §4.1: 79 land territories, 64 sea zones, 348 connections, 12 victory cities.
    assert (summary["land_territories"], summary["sea_zones"], summary["connections"]) == (79, 64, 348)
    assert summary["victory_cities"] == 12
    assert summary["records"]["reconstructed"] == 0
    assert summary["records"]["from_source"] > 300


def test_starting_ipcs_per_power_and_they_equal_the_income_of_the_territories_owned(
    revised: MapModule,
) -> None:
    expected = {"germans": 40, "russians": 24, "japanese": 30, "british": 30, "americans": 42}
    assert {power.id: power.starting_ipcs for power in revised.powers.values()} == expected
    assert {power: revised.income(power) for power in expected} == expected


def test_turn_order_and_alliances(revised: MapModule) -> None:
    assert [power.id for power in revised.turn_order()] == [
        "russians",
        "germans",
        "british",
        "japanese",
        "americans",
    ]
    axis = {power.id for power in revised.powers.values() if power.alliance == "axis"}
    assert axis == {"germans", "japanese"}


def test_victory_cities_and_capitals(revised: MapModule) -> None:
    cities = {t.id for t in revised.territories.values() if t.victory_city}
    assert cities == {
        "germany",
        "southern-europe",
        "western-europe",
        "united-kingdom",
        "india",
        "russia",
        "karelia-ssr",
        "japan",
        "kwantung",
        "philipine-islands",
        "eastern-united-states",
        "western-united-states",
    }
    capitals = {power: revised.capital_of(power) for power in revised.powers}
    assert {power: t.id for power, t in capitals.items() if t} == {
        "germans": "germany",
        "russians": "russia",
        "british": "united-kingdom",
        "japanese": "japan",
        "americans": "eastern-united-states",
    }
    assert all(t is not None and t.original_owner == power for power, t in capitals.items())


def test_sea_zones_the_brief_names(revised: MapModule) -> None:
    """brief §3.1: SZ 4, SZ 34 and SZ 16 and their coasts in the Revised graph."""
    assert land(revised, "sz-4") == {"archangel", "karelia-ssr"}
    assert land(revised, "sz-34") == {
        "persia",
        "anglo-egypt",
        "trans-jordan",
        "saudi-arabia",
        "italian-east-africa",
    }
    assert land(revised, "sz-16") == {"balkans", "ukraine-ssr", "caucasus", "turkey"}


def test_adjacencies_the_historical_edition_changes_are_as_in_revised(revised: MapModule) -> None:
    """brief §1.3 and §4.1: AARHE adds Balkans-Turkey; later drafts drop SZ 5-Western Europe."""
    assert "turkey" not in revised.territories["balkans"].neighbours
    assert "sz-5" in revised.territories["western-europe"].neighbours
    assert "sz-5" in revised.territories["germany"].neighbours


def test_strait_zones_of_the_interdiction_table_touch(revised: MapModule) -> None:
    """brief §2.1 strait table: each pair of zones is adjacent and its territory borders one of them."""
    for territory, zones in {
        "gibraltar": ("sz-12", "sz-13"),
        "germany": ("sz-5", "sz-6"),
        "united-kingdom": ("sz-6", "sz-7"),
        "western-europe": ("sz-6", "sz-7"),
    }.items():
        assert zones[1] in revised.territories[zones[0]].neighbours
        assert set(zones) & set(revised.territories[territory].neighbours)


def test_convoy_from_australia_to_the_uk_crosses_eight_sea_zones(revised: MapModule) -> None:
    """brief §1.3: the shortest Australia -> UK sea path uses 8 sea zones (so convoys use 8 or 9)."""
    assert revised.min_sea_zones_between("australia", "united-kingdom") == 8


def test_impassable_neutrals_are_the_briefs_list(revised: MapModule) -> None:
    """brief §3.1 neutrals; all impassable and unowned in Revised."""
    impassable = {t.id for t in revised.territories.values() if t.impassable}
    assert impassable == {
        "afghanistan",
        "angola",
        "argentina",
        "eire",
        "himalaya",
        "mongolia",
        "mozambique",
        "peru",
        "rio-de-oro",
        "sahara",
        "saudi-arabia",
        "spain",
        "sweden",
        "switzerland",
        "turkey",
        "venezuela",
    }
    assert all(revised.territories[t].original_owner is None for t in impassable)


def test_soviet_lands_german_held_at_start(revised: MapModule) -> None:
    """brief §4.1: West Russia, Belorussia and Ukraine start German."""
    owners = {t: revised.territories[t].original_owner for t in ("west-russia", "belorussia", "ukraine-ssr")}
    assert set(owners.values()) == {"germans"}


def test_canals_and_their_controlling_territories(revised: MapModule) -> None:
    suez = revised.canals["suez-canal"]
    panama = revised.canals["panama-canal"]
    assert (suez.sea_zones, sorted(suez.controlled_by)) == (
        ["sz-15", "sz-34"],
        ["anglo-egypt", "trans-jordan"],
    )
    assert (panama.sea_zones, panama.controlled_by) == (["sz-19", "sz-20"], ["panama"])


def test_islands_lie_in_one_sea_zone(revised: MapModule) -> None:
    """Decision: an island lies in one sea zone alone, so Japan and the UK are not islands."""
    islands = {t.id for t in revised.territories.values() if t.island}
    assert {"hawaiian-islands", "wake-island", "midway", "okinawa", "philipine-islands"} <= islands
    assert not islands & {"japan", "united-kingdom", "australia", "french-madagascar"}
    assert len(islands) == 13


def test_starting_stack_in_germany(revised: MapModule) -> None:
    stack = {p.type: p.count for p in revised.setup if p.territory == "germany"}
    assert stack == {"factory": 1, "aagun": 1, "infantry": 3, "armour": 2, "bomber": 1, "fighter": 1}
    assert {p.power for p in revised.setup if p.territory == "germany"} == {"germans"}


def test_sea_starting_units_are_at_sea_and_land_units_on_their_sides_land(revised: MapModule) -> None:
    for placement in revised.setup:
        unit = revised.unit_types[placement.type]
        at_sea = revised.is_sea(placement.territory)
        assert at_sea == (unit.domain.value == "sea") or unit.domain.value == "air"


def test_unit_stats_agree_with_the_battle_calculators_revised_table(revised: MapModule) -> None:
    rules = find_rules("revised")
    by_alias = {
        alias.casefold(): unit for unit in rules.units.values() for alias in (unit.name, *unit.aliases)
    }
    compared = 0
    for unit_type in revised.unit_types.values():
        calc = by_alias.get(unit_type.name.casefold())
        if calc is None or calc.fixed:
            continue
        assert unit_type.cost == calc.cost, unit_type.id
        assert unit_type.stats.get("attack", 0) == calc.attack, unit_type.id
        assert unit_type.stats.get("defense", 0) == calc.defence, unit_type.id
        assert unit_type.stats.get("hitPoints", 1) == calc.hits, unit_type.id
        compared += 1
    assert compared == 10


def test_look_up_by_name_id_or_sea_zone_number(revised: MapModule) -> None:
    assert revised.find_territory("Karelia S.S.R.") is revised.territories["karelia-ssr"]
    assert revised.find_territory("SZ 34") is revised.territories["sz-34"]
    assert revised.find_territory("34 sea zone") is revised.territories["sz-34"]
    assert revised.find_territory("Atlantis") is None


# brief §2.1: the Historical Edition's victory cities (VCP) by territory, Italy not playing. Rome
# stands on the Revised map's Southern Europe (the Italy map that splits it off is not public).
AARHE_VCP = {
    "germany": 6,
    "southern-europe": 5,
    "western-europe": 2,
    "eastern-europe": 2,
    "balkans": 2,
    "ukraine-ssr": 1,
    "japan": 6,
    "manchuria": 2,
    "french-indochina": 2,
    "borneo": 2,
    "kwantung": 1,
    "east-indies": 1,
    "philipine-islands": 1,
    "russia": 6,
    "caucasus": 4,
    "karelia-ssr": 3,
    "novosibirsk": 2,
    "archangel": 1,
    "kazakh-ssr": 1,
    "buryatia-ssr": 1,
    "united-kingdom": 5,
    "eastern-canada": 2,
    "anglo-egypt": 1,
    "india": 1,
    "australia": 1,
    "persia": 1,
    "union-of-south-africa": 1,
    "eastern-united-states": 5,
    "western-united-states": 4,
    "central-united-states": 2,
    "china": 1,
    "sinkiang": 1,
    "brazil": 1,
    "turkey": 2,
    "spain": 2,
}


def test_historical_edition_victory_points_split_by_revised_owners(revised: MapModule) -> None:
    """brief §6: with the Revised starting owners the Axis hold 33 VCP, the Allies 44, neutrals 4."""
    held: dict[str, int] = {}
    for territory_id, points in AARHE_VCP.items():
        owner = revised.territories[territory_id].original_owner
        side = revised.alliance_of(owner) if owner else "neutral"
        held[side] = held.get(side, 0) + points
    assert held == {"axis": 33, "allies": 44, "neutral": 4}
