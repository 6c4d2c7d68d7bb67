"""The world commands as a user types them: scenarios, map, area, reach, check."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from xml.etree import ElementTree

from .conftest import Result

Cli = Callable[..., Result]


def test_scenarios_json(cli: Cli) -> None:
    listed = cli("cataclysm", "scenarios", "--json").json()
    assert [s["id"] for s in listed] == ["campaign-1933", "europe-1939"]
    for item in listed:
        assert {"id", "title", "start", "end", "maps"} <= set(item)
    campaign = listed[0]
    assert (campaign["start"], campaign["end"], campaign["maps"]) == (1933, 1947, ["europe", "pacific"])
    assert campaign["first_turn"] == "1933-34" and campaign["last_turn"] == "1947-48"
    assert listed[1]["maps"] == ["europe"]
    text = cli("cataclysm", "scenarios")
    assert text.code == 0 and "campaign-1933" in text.out


def test_map_command_writes_an_svg(cli: Cli, tmp_path: Path) -> None:
    out = tmp_path / "map.svg"
    result = cli("cataclysm", "map", "--scenario", "europe-1939", "--out", str(out))
    assert result.code == 0 and out.exists()
    root = ElementTree.fromstring(out.read_text(encoding="utf-8"))
    assert root.tag.endswith("svg")
    assert "Poland" in out.read_text(encoding="utf-8")


def test_area_json_keys_and_case(cli: Cli) -> None:
    data = cli("cataclysm", "area", "EASTERN mediterranean", "--json").json()
    assert {"name", "type", "map", "neighbors", "provenance"} <= set(data)
    assert data["name"] == "Eastern Mediterranean" and data["type"] == "sea" and data["map"] == "europe"
    assert all({"name", "kind"} <= set(n) for n in data["neighbors"])


def test_typo_gets_a_suggestion_and_no_traceback(cli: Cli) -> None:
    result = cli("cataclysm", "area", "Turky")
    assert result.code == 2 and "did you mean Turkey" in result.err and "Traceback" not in result.err
    result = cli("cataclysm", "reach", "Atlantis", "--naval", "2")
    assert result.code == 2 and "unknown area" in result.err


def test_reach_json_key(cli: Cli) -> None:
    data = cli("cataclysm", "reach", "Carolines", "--naval", "1", "--json").json()
    assert "areas" in data and "Carolines" not in data["areas"] and "Palaus" in data["areas"]
