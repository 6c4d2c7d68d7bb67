"""The SVG map renderer: a well-formed, deterministic picture of the module and a scenario."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest

from grandstrategy.cataclysm.module import Module, load_module
from grandstrategy.cataclysm.render_svg import UNIT_CODES, render_map

SVG = "{http://www.w3.org/2000/svg}"


@pytest.fixture(scope="module")
def module() -> Module:
    return load_module()


def parse(svg: str) -> ET.Element:
    root = ET.fromstring(svg.encode("utf-8"))
    assert root.tag == f"{SVG}svg"
    return root


def lightened(colour: str) -> str:
    """The renderer's fill for a controlled area: the power's colour 55% of the way to white."""
    rgb = [int(colour[i : i + 2], 16) for i in (1, 3, 5)]
    return "#" + "".join(f"{round(c + (255 - c) * 0.55):02x}" for c in rgb)


def shape(root: ET.Element, area_id: str) -> ET.Element:
    found = [el for el in root.iter() if el.get("id") == f"area-{area_id}"]
    assert len(found) == 1, area_id
    return found[0]


def texts(root: ET.Element) -> str:
    return "\n".join("".join(el.itertext()) for el in root.iter(f"{SVG}text"))


def test_whole_module_parses_and_names_every_area(module: Module) -> None:
    svg = render_map(module)
    assert svg.startswith("<?xml") and svg.rstrip().endswith("</svg>")
    root = parse(svg)
    visible = texts(root).casefold()
    for area in module.areas.values():
        assert area.name.casefold() in visible, area.id
        assert shape(root, area.id).find(f"{SVG}title") is not None
    for map_file in module.maps.values():
        assert map_file.title.casefold() in visible
    assert "reconstructed module — not gmt's map" in visible
    assert "legend" in visible


def test_no_scenario_colours_home_areas_by_owner_and_draws_no_units(module: Module) -> None:
    root = parse(render_map(module))
    assert shape(root, "paris").get("fill") == lightened(module.powers["france"].colour)
    assert shape(root, "tokyo").get("fill") == lightened(module.powers["japan"].colour)
    assert not [el for el in root.iter(f"{SVG}g") if el.get("class") == "unit"]


def test_scenario_units_and_controllers(module: Module) -> None:
    scenario = module.scenarios["campaign-1933"]
    root = parse(render_map(module, scenario))
    chips = {
        (el.get("data-area"), el.get("data-power"), el.get("data-type"))
        for el in root.iter(f"{SVG}g")
        if el.get("class") == "unit"
    }
    assert chips == {(unit.area, unit.power, unit.type) for unit in scenario.units}
    visible = texts(root)
    for unit in scenario.units:
        assert UNIT_CODES[unit.type] in visible
    france = lightened(module.powers["france"].colour)
    assert shape(root, "paris").get("fill") == france
    assert shape(root, "poland").get("fill") == france  # a French cube in Poland (LR 2.2.4)
    assert shape(root, "manchuria").get("fill") == lightened(module.powers["japan"].colour)
    assert shape(root, "sweden").get("fill") != france


def test_render_is_deterministic(module: Module) -> None:
    scenario = module.scenarios["campaign-1933"]
    assert render_map(module, scenario) == render_map(module, scenario)
    assert render_map(module) == render_map(module)


def test_maps_option_draws_only_the_chosen_map(module: Module) -> None:
    root = parse(render_map(module, module.scenarios["campaign-1933"], maps=["europe"]))
    ids = {el.get("id") for el in root.iter()}
    assert "map-europe" in ids and "map-pacific" not in ids
    assert "area-paris" in ids and "area-tokyo" not in ids
    with pytest.raises(ValueError, match="unknown map"):
        render_map(module, maps=["mars"])


def test_europe_scenario_draws_only_its_map_by_default(module: Module) -> None:
    scenario = module.scenarios["europe-1939"]
    assert [m.value for m in scenario.maps] == ["europe"]
    root = parse(render_map(module, scenario))
    ids = {el.get("id") for el in root.iter()}
    assert "map-europe" in ids and "map-pacific" not in ids
    assert not any(
        el.get("data-area") in {a.id for a in module.areas.values() if a.map.value == "pacific"}
        for el in root.iter(f"{SVG}g")
    )
    both = parse(render_map(module, scenario, maps=["europe", "pacific"]))
    assert "map-pacific" in {el.get("id") for el in both.iter()}
