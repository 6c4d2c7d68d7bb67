"""The Living Rules' own statements about the map, checked through the command line.

Each test cites the rule line that states the fact (brief §3–4 lists them).
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

from grandstrategy.cataclysm.module import load_module

from .conftest import Result

Cli = Callable[..., Result]


def neighbors(cli: Cli, name: str, kind: str | None = None) -> set[str]:
    result = cli("cataclysm", "area", name, "--json")
    assert result.code == 0, result.err
    return {n["name"] for n in result.json()["neighbors"] if kind is None or n["kind"] == kind}


def reach(cli: Cli, name: str, steps: int, *friendly: str) -> list[str]:
    args = ["cataclysm", "reach", name, "--naval", str(steps), "--json"]
    for area in friendly:
        args += ["--friendly", area]
    result = cli(*args)
    assert result.code == 0, result.err
    return list(result.json()["areas"])


def test_turkey_neighbours_are_exactly_the_nine_of_lr_l270(cli: Cli) -> None:
    assert neighbors(cli, "Turkey") == {
        "Aegean Sea",
        "Black Sea",
        "Bulgaria",
        "Caucasus",
        "Eastern Mediterranean",
        "Greece",
        "Iraq",
        "Persia",
        "Syria",
    }
    assert cli("cataclysm", "area", "turkey", "--json").json()["type"] == "mixed"


def test_central_mediterranean_naval_range_two_is_the_sixteen_of_lr_7_3_1(cli: Cli) -> None:
    areas = reach(cli, "Central Mediterranean", 2)
    assert sorted(areas) == [
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
    ]
    assert "Central Mediterranean" not in areas  # LR L1664: bases are not spaces


def test_denmark_borders_ruhr_without_naval_passage_lr_l1612(cli: Cli) -> None:
    facts = cli("cataclysm", "area", "Denmark", "--json").json()
    ruhr = [n for n in facts["neighbors"] if n["name"] == "Ruhr"]
    assert len(ruhr) == 1 and ruhr[0]["kind"] == "border"
    assert ruhr[0]["land"] is True and ruhr[0]["naval"] is False


def test_hokkaido_and_maritime_territory_allow_naval_movement_lr_l1612(cli: Cli) -> None:
    facts = cli("cataclysm", "area", "Hokkaido", "--json").json()
    link = next(n for n in facts["neighbors"] if n["name"] == "Maritime Territory")
    assert link["kind"] == "strait" and link["naval"] is True


def test_siam_has_one_coast_and_an_impassable_border_with_the_bay_of_bengal_lr_l285(cli: Cli) -> None:
    facts = cli("cataclysm", "area", "Siam", "--json").json()
    assert facts["sea_neighbors"] == ["Gulf of Siam"]
    assert facts["impassable"] == ["Bay of Bengal"]
    assert "Siam" not in neighbors(cli, "Bay of Bengal")


def test_java_reaches_siam_by_air_only_lr_l459(cli: Cli) -> None:
    facts = cli("cataclysm", "area", "Java", "--json").json()
    link = next(n for n in facts["neighbors"] if n["name"] == "Siam")
    assert link["kind"] == "air" and link["land"] is False and link["naval"] is False


def test_egypt_touches_two_seas_and_is_crossed_only_when_friendly_lr_l274_278(cli: Cli) -> None:
    facts = cli("cataclysm", "area", "Egypt", "--json").json()
    assert sorted(facts["sea_neighbors"]) == ["Arabian Sea", "Eastern Mediterranean"]
    assert facts["facts"]["special_coastal"] is True
    assert "Arabian Sea" not in reach(cli, "Eastern Mediterranean", 2)
    assert "Arabian Sea" in reach(cli, "Eastern Mediterranean", 2, "Egypt")


def test_ruhr_and_south_africa_are_the_other_special_coastal_areas_lr_l274() -> None:
    module = load_module()
    assert {a.name for a in module.areas.values() if a.special_coastal} == {"Egypt", "Ruhr", "South Africa"}


@pytest.mark.parametrize(
    ("flag", "names", "line"),
    [
        ("type", {"Denmark", "Hokkaido", "Java", "New Guinea", "Philippines", "Turkey"}, "LR L254"),
        ("remote", {"California", "Canada", "South Africa", "Urals", "Washington DC"}, "LR L354-362"),
        ("off_map", {"Barents Sea", "South Africa", "Arabian Sea"}, "LR L340-346"),
        ("delay_box", {"California", "South Africa", "Urals"}, "LR L461-467"),
    ],
)
def test_rule_lists_of_special_areas(flag: str, names: set[str], line: str) -> None:
    module = load_module()
    if flag == "type":
        found = {a.name for a in module.areas.values() if a.type.value == "mixed"}
    else:
        found = {a.name for a in module.areas.values() if getattr(a, flag)}
    assert found == names, line


def test_two_coast_areas_lr_l281_283(cli: Cli) -> None:
    coasts = {
        name: sorted(
            sorted(seas)
            for seas in cli("cataclysm", "area", name, "--json").json()["facts"]["coasts"].values()
        )
        for name in ("Finland", "Lombardy", "Spain")
    }
    assert coasts["Finland"] == [["barents-sea"], ["gulf-of-bothnia"]]
    assert coasts["Lombardy"] == [["adriatic-sea"], ["tyrrhenian-sea"]]
    assert coasts["Spain"] == [["mid-atlantic-ocean", "western-mediterranean"], ["western-approaches"]]


@pytest.mark.parametrize(
    ("letter", "a", "b", "naval"),
    [
        ("A", "Washington DC", "California", False),
        ("B", "Urals", "Siberia", False),
        ("C", "Persia", "India", False),
        ("D", "Arabian Sea", "Indian Ocean", True),
    ],
)
def test_map_connectors_lr_l477_486(cli: Cli, letter: str, a: str, b: str, naval: bool) -> None:
    link = next(n for n in cli("cataclysm", "area", a, "--json").json()["neighbors"] if n["name"] == b)
    assert link["kind"] == "connector" and link["label"] == letter
    assert link["naval"] is naval
    a_map = cli("cataclysm", "area", a, "--json").json()["map"]
    b_map = cli("cataclysm", "area", b, "--json").json()["map"]
    assert {a_map, b_map} == {"europe", "pacific"}


def test_sea_areas_of_the_uk_interest_example_lr_l1069(cli: Cli) -> None:
    assert {"Benelux", "Denmark", "Paris", "Brittany", "Norway", "London"} <= neighbors(cli, "North Sea")
    assert {"Ireland", "Portugal", "Spain", "London"} <= neighbors(cli, "Western Approaches")
    assert {"Guangdong", "Jiangsu", "Philippines"} <= neighbors(cli, "South China Sea")


def test_scotland_is_a_port_on_the_norwegian_sea_lr_l1558(cli: Cli) -> None:
    assert "Norwegian Sea" in neighbors(cli, "Scotland")


def test_submarine_distances_of_lr_l1562(cli: Cli) -> None:
    from_ruhr = cli("cataclysm", "reach", "Ruhr", "--naval", "2", "--json").json()["by_distance"]
    assert "Western Approaches" in from_ruhr["2"] and "Western Approaches" not in from_ruhr["1"]
    assert "North Atlantic Ocean" not in from_ruhr["2"]
    from_brittany = cli("cataclysm", "reach", "Brittany", "--naval", "2", "--json").json()["by_distance"]
    assert "Western Approaches" in from_brittany["1"]
    assert {"North Atlantic Ocean", "Mid-Atlantic Ocean"} <= set(from_brittany["2"])


def test_london_is_air_adjacent_to_paris_and_benelux_lr_l2004_l1666() -> None:
    module = load_module()
    assert {"paris", "benelux"} <= set(module.adjacent("london", "air"))
    assert not {"paris", "benelux"} & set(module.adjacent("london", "land"))
    # LR L1666: a strategic air force (range 2) reaches the Ruhr; a tactical one (range 1) does not
    assert module.range_by("london", 2, "air").get("ruhr") == 2
    assert "ruhr" not in module.range_by("london", 1, "air")


def test_moscow_is_surrounded_by_restricted_land_areas_lr_l957() -> None:
    module = load_module()
    around = [module.area(a) for a in module.adjacent("moscow", "land")]
    assert around and all(area.restricted for area in around)


@pytest.mark.parametrize(
    ("a", "b", "line"),
    [
        ("Bavaria", "Ruhr", "LR L2089"),
        ("Benelux", "Ruhr", "LR L1782"),
        ("Benelux", "Paris", "LR L1782"),
        ("Lorraine", "Paris", "LR L1252"),
        ("Smolensk", "Moscow", "LR L1905"),
        ("Poland", "Ukraine", "LR L1752"),
        ("Poland", "Silesia", "LR L2223"),
        ("Poland", "Czechoslovakia", "LR L2237"),
        ("Poland", "East Prussia", "LR L2229"),
        ("East Prussia", "Baltic Sea", "LR L2229"),
        ("Berlin", "Baltic Sea", "LR L2229"),
        ("Leningrad", "Baltic Sea", "LR L1905"),
        ("Egypt", "Eastern Mediterranean", "LR L1560"),
        ("Spain", "Western Mediterranean", "LR L1630"),
        ("Western Mediterranean", "Tyrrhenian Sea", "LR L1630"),
        ("Tyrrhenian Sea", "Central Mediterranean", "LR L1630"),
        ("Central Mediterranean", "Aegean Sea", "LR L1630"),
        ("Philippines", "South China Sea", "LR L1069"),
    ],
)
def test_adjacencies_named_in_rules_examples(cli: Cli, a: str, b: str, line: str) -> None:
    assert b in neighbors(cli, a), line


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("Palaus", "Marianas"),
        ("Marianas", "Marshalls"),
        ("Marshalls", "Ellice Islands"),
        ("Ellice Islands", "Samoa"),
        ("Ellice Islands", "Phoenix Islands"),
    ],
)
def test_pacific_seas_of_the_older_rulebook_base_capture_example_v45_l48(cli: Cli, a: str, b: str) -> None:
    assert b in neighbors(cli, a)


def test_bases_of_the_older_rulebook_examples() -> None:
    module = load_module()
    owners = {
        area: [(b.kind.value, b.owner) for b in module.area(area).bases]
        for area in ("ellice-islands", "bismarcks", "indian-ocean")
    }
    assert owners == {
        "ellice-islands": [("naval", "united-states")],  # V45 L40
        "bismarcks": [("naval", "united-kingdom")],  # V45 L52
        "indian-ocean": [("naval", "united-kingdom")],
    }  # V45 L50


def test_berlin_reaches_east_prussia_only_by_sea_lr_l2229() -> None:
    module = load_module()
    assert "east-prussia" not in module.adjacent("berlin", "land")


@pytest.mark.parametrize(
    ("name", "field", "value", "line"),
    [
        ("Paris", "capital", True, "LR L1127"),
        ("London", "capital", True, "LR L300"),
        ("Canada", "status", "home", "LR L300"),
        ("India", "status", "colony", "LR L300"),
        ("Egypt", "status", "colony", "LR L304"),
        ("French North Africa", "adverse", True, "LR L538"),
        ("French North Africa", "restricted", True, "LR L538"),
        ("Yugoslavia", "resistance", 1, "LR L1451"),
        ("Manchuria", "status", "country", "LR L336"),
        ("Guangdong", "chinese", True, "LR L334-338"),
    ],
)
def test_area_facts_stated_by_the_rules(cli: Cli, name: str, field: str, value: object, line: str) -> None:
    assert cli("cataclysm", "area", name, "--json").json()["facts"].get(field) == value, line


def test_manchuria_is_not_chinese_lr_l336() -> None:
    assert not load_module().area("manchuria").chinese


def test_bases_resources_and_minor_armies_named_by_the_rules() -> None:
    module = load_module()
    owner = {
        area: [(b.kind.value, b.owner) for b in module.area(area).bases]
        for area in ("central-mediterranean", "eastern-mediterranean", "carolines", "hawaii")
    }
    assert owner["central-mediterranean"] == [("naval", "united-kingdom")]  # LR L1630, L1650, L432
    assert owner["eastern-mediterranean"] == [("naval", "united-kingdom")]  # LR L1560
    assert owner["carolines"] == [("naval", "japan")]  # LR L1582
    assert owner["hawaii"] == [("naval", "united-states")]  # LR L1961
    assert {a.id for a in module.areas.values() if a.special_base} == {
        "spain",
        "guangdong",
        "java",
    }  # LR L438
    assert (
        module.area("spain").special_base is not None and module.area("spain").special_base.coast == "south"
    )
    benelux = module.area("benelux").resources
    assert [(r.kind.value, r.limited) for r in benelux] == [("industrial", True)]  # LR L1040
    assert [(r.kind.value, r.limited) for r in module.area("sweden").resources] == [("natural", True)]
    assert {r.kind.value for r in module.area("berlin").resources} == {"industrial"}  # LR L1038
    assert {r.kind.value for r in module.area("lombardy").resources} == {"industrial"}  # LR L522
    assert module.area("burma").resources == []  # LR L1129
    assert module.area("india").resources  # LR L1129
    assert [r.appears_at.value for r in module.area("volga").resources if r.appears_at] == ["mobilization"]
    assert [r.appears_at.value for r in module.area("urals").resources if r.appears_at] == ["total-war"]
    assert module.area("poland").minor_army is not None and module.area("rumania").minor_army is not None


def test_wnt_line_lr_l2474() -> None:
    module = load_module()
    for area in ("philippines", "java", "new-guinea", "papua", "australia"):
        assert module.area(area).wnt_zone, area
    for area in ("tokyo", "hokkaido", "hawaii", "manchuria", "jiangsu"):
        assert not module.area(area).wnt_zone, area


def test_cube_supply_lr_l218_226() -> None:
    module = load_module()
    cubes = {power: module.powers[power].counters.cubes for power in module.powers}
    assert cubes == {
        "france": 17,
        "germany": 32,
        "italy": 12,
        "japan": 22,
        "soviet-union": 22,
        "united-kingdom": 17,
        "united-states": 22,
    }
    assert module.neutral_cubes == 16
    assert sum(cubes.values()) + module.neutral_cubes == 160


def test_powers_and_ideologies_lr_1_1() -> None:
    module = load_module()
    by_ideology: dict[str, set[str]] = {}
    for power in module.powers.values():
        by_ideology.setdefault(power.ideology.value, set()).add(power.name)
    assert by_ideology == {
        "democracy": {"France", "United Kingdom", "United States"},
        "fascism": {"Germany", "Italy", "Japan"},
        "communism": {"Soviet Union"},
    }


def test_status_card_fragments() -> None:
    module = load_module()
    uk = module.powers["united-kingdom"].status_card
    assert (uk["civilian"].effectiveness, uk["mobilization"].effectiveness) == (2, 3)  # LR L1143
    assert module.powers["germany"].status_card["rearmament"].effectiveness == 3  # LR L2219
    assert module.powers["france"].status_card["civilian"].effectiveness == 1  # LR L1361
    assert module.powers["italy"].status_card["civilian"].effectiveness == 1  # LR L761
    germany = module.powers["germany"].status_card
    assert (germany["mobilization"].force_pool, germany["total-war"].force_pool) == (16, 20)  # V45 L24
    for power in module.powers.values():  # LR 4.1: the same conversion and rights on every card
        card = power.status_card
        assert [card[level].conversion for level in card] == ["2:1", "1:1", "1:2", "1:3", "1:2"]
        assert [card[level].dow_allowed for level in card] == [False, False, True, True, False]
        assert card["civilian"].upgrades_allowed is False and card["civilian"].home_front is None
