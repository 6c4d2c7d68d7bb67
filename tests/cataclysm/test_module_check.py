"""``cataclysm check`` on the shipped module and on copies broken in many different ways.

Every broken copy must give exit status 1, no traceback, and a message that names the file,
the record and what is wrong.
"""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import yaml

from grandstrategy.cataclysm.module import DEFAULT_MODULE_DIR, check_module, load_module
from grandstrategy.core.errors import DataError

from .conftest import Result

Cli = Callable[..., Result]
Mutation = Callable[[Path], None]


class _NoAliases(yaml.SafeDumper):
    """Writes shared objects out in full: a module may not use aliases."""

    def ignore_aliases(self, data: Any) -> bool:
        return True


def edit(path: Path, change: Callable[[Any], None]) -> None:
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    change(data)
    path.write_text(yaml.dump(data, Dumper=_NoAliases, sort_keys=False, allow_unicode=True), encoding="utf-8")


def area(data: dict[str, Any], area_id: str) -> dict[str, Any]:
    return next(a for a in data["areas"] if a["id"] == area_id)


def unknown_area_in_connection(root: Path) -> None:
    edit(root / "europe.yaml", lambda d: d["connections"][0]["pairs"].append(["turkey", "atlantis"]))


def coastal_without_sea(root: Path) -> None:
    edit(root / "europe.yaml", lambda d: area(d, "austria").update(coastal=True))


def capital_missing(root: Path) -> None:
    edit(root / "europe.yaml", lambda d: area(d, "paris").pop("capital"))


def fleet_inland(root: Path) -> None:
    def change(d: dict[str, Any]) -> None:
        d["units"].append(
            {"power": "france", "type": "surface-fleet", "area": "lorraine", "provenance": "reconstructed"}
        )

    edit(root / "scenarios" / "campaign-1933.yaml", change)


def army_in_foreign_country(root: Path) -> None:
    def change(d: dict[str, Any]) -> None:
        d["units"].append(
            {"power": "germany", "type": "infantry-army", "area": "paris", "provenance": "reconstructed"}
        )

    edit(root / "scenarios" / "campaign-1933.yaml", change)


def more_pieces_than_counters(root: Path) -> None:
    def change(d: dict[str, Any]) -> None:
        next(p for p in d["powers"] if p["id"] == "france")["counters"]["units"]["army"] = 1

    edit(root / "powers.yaml", change)


def unknown_owner(root: Path) -> None:
    edit(root / "pacific.yaml", lambda d: area(d, "india").update(owner="british-raj"))


def not_yaml(root: Path) -> None:
    (root / "crisis.yaml").write_text("peacetime: [unclosed\n", encoding="utf-8")


def required_field_missing(root: Path) -> None:
    edit(root / "europe.yaml", lambda d: area(d, "greece").pop("type"))


def resistance_out_of_range(root: Path) -> None:
    edit(root / "europe.yaml", lambda d: area(d, "greece").update(resistance=5))


def duplicate_area(root: Path) -> None:
    edit(root / "pacific.yaml", lambda d: d["areas"].append(dict(area(d, "siam"), id="poland")))


def crisis_entry_missing(root: Path) -> None:
    edit(root / "crisis.yaml", lambda d: d["wartime"].pop("4-3"))


def unknown_event(root: Path) -> None:
    edit(root / "crisis.yaml", lambda d: d["peacetime"]["6-6"].update(event="alien-invasion"))


def vp_mismatch(root: Path) -> None:
    edit(root / "scenarios" / "europe-1939.yaml", lambda d: d["powers"]["germany"].update(vp=9))


def connected_across_red_border(root: Path) -> None:
    edit(root / "pacific.yaml", lambda d: d["connections"][-1]["pairs"].append(["siam", "bay-of-bengal"]))


def file_missing(root: Path) -> None:
    (root / "connectors.yaml").unlink()


def cube_at_sea(root: Path) -> None:
    edit(
        root / "scenarios" / "campaign-1933.yaml", lambda d: d["cubes"].update({"north-sea": {"germany": 1}})
    )


def too_many_cubes(root: Path) -> None:
    def change(d: dict[str, Any]) -> None:
        d["cubes"]["poland"] = {"france": 40}

    edit(root / "scenarios" / "campaign-1933.yaml", change)


def occupation_exceeded(root: Path) -> None:
    def change(d: dict[str, Any]) -> None:
        d["units"].append(
            {
                "power": "germany",
                "type": "infantry-army",
                "area": "berlin",
                "count": 2,
                "provenance": "reconstructed",
            }
        )

    edit(root / "scenarios" / "campaign-1933.yaml", change)


def bad_provenance(root: Path) -> None:
    edit(root / "europe.yaml", lambda d: area(d, "greece").update(provenance="my uncle said so"))


def naval_unit_without_base(root: Path) -> None:
    def change(d: dict[str, Any]) -> None:
        d["units"].append(
            {"power": "italy", "type": "surface-fleet", "area": "black-sea", "provenance": "reconstructed"}
        )

    edit(root / "scenarios" / "campaign-1933.yaml", change)


def posture_missing(root: Path) -> None:
    edit(root / "scenarios" / "europe-1939.yaml", lambda d: d.pop("postures"))


CASES: list[tuple[Mutation, str, list[str]]] = [
    (posture_missing, "europe-1939.yaml", ["postures", "soviet-union", "needs its posture"]),
    (unknown_area_in_connection, "europe.yaml", ["connections[0]", "unknown area 'atlantis'"]),
    (coastal_without_sea, "europe.yaml", ["(austria)", "coastal", "no adjacent sea area"]),
    (capital_missing, "powers.yaml", ["(france)", "no capital"]),
    (
        fleet_inland,
        "campaign-1933.yaml",
        ["surface-fleet in lorraine", "naval unit can stand only in a coastal"],
    ),
    (
        army_in_foreign_country,
        "campaign-1933.yaml",
        ["germany infantry-army in paris", "not friendly to germany"],
    ),
    (more_pieces_than_counters, "campaign-1933.yaml", ["pieces of france", "army", "counter mix has 1"]),
    (unknown_owner, "pacific.yaml", ["(india)", "owner", "unknown power 'british-raj'"]),
    (not_yaml, "crisis.yaml", ["not valid YAML", "line"]),
    (required_field_missing, "europe.yaml", ["(greece)", "'type'", "required"]),
    (resistance_out_of_range, "europe.yaml", ["(greece)", "'resistance'", "less than or equal to 2"]),
    (duplicate_area, "pacific.yaml", ["(poland)", "duplicates an area id"]),
    (crisis_entry_missing, "crisis.yaml", ["wartime", "4-3"]),
    (unknown_event, "crisis.yaml", ["peacetime.6-6", "unknown event kind 'alien-invasion'"]),
    (vp_mismatch, "europe-1939.yaml", ["powers.germany", "'vp'", "cubes give 2"]),
    (connected_across_red_border, "pacific.yaml", ["siam - bay-of-bengal", "impassable"]),
    (file_missing, "connectors.yaml", ["file is missing"]),
    (cube_at_sea, "campaign-1933.yaml", ["cubes.north-sea", "never controlled"]),
    (too_many_cubes, "campaign-1933.yaml", ["france", "only 17 exist"]),
    (occupation_exceeded, "campaign-1933.yaml", ["units in berlin", "at most 2"]),
    (bad_provenance, "europe.yaml", ["(greece)", "provenance"]),
    (naval_unit_without_base, "campaign-1933.yaml", ["black-sea", "friendly naval base"]),
]


@pytest.fixture
def module_copy(tmp_path: Path) -> Path:
    target = tmp_path / "module"
    shutil.copytree(DEFAULT_MODULE_DIR, target)
    return target


def test_shipped_module_passes(cli: Cli) -> None:
    result = cli("cataclysm", "check")
    assert result.code == 0, result.err
    assert "OK" in result.out and "reconstructed" in result.out
    summary = cli("cataclysm", "check", "--json").json()["summary"]
    assert summary["areas"] > 100 and summary["powers"] == 7 and summary["scenarios"] == 2
    assert summary["records"]["from_rules"] > 0 and summary["records"]["reconstructed"] > 0


def test_unchanged_copy_passes(cli: Cli, module_copy: Path) -> None:
    assert cli("cataclysm", "check", str(module_copy)).code == 0


@pytest.mark.parametrize(("mutate", "file", "fragments"), CASES, ids=[case[0].__name__ for case in CASES])
def test_broken_copy_names_the_problem(
    cli: Cli, module_copy: Path, mutate: Mutation, file: str, fragments: list[str]
) -> None:
    mutate(module_copy)
    result = cli("cataclysm", "check", str(module_copy))
    assert result.code == 1
    assert "Traceback" not in result.err
    lines = [line for line in result.err.splitlines() if file in line]
    assert any(all(fragment in line for fragment in fragments) for line in lines), result.err


def test_every_problem_is_reported_at_once(module_copy: Path) -> None:
    # Stage 1: every file is validated on its own, and all their problems are listed together.
    resistance_out_of_range(module_copy)
    edit(module_copy / "crisis.yaml", lambda d: d["peacetime"]["6-6"].pop("name"))
    assert {problem.file for problem in check_module(module_copy).problems} == {"europe.yaml", "crisis.yaml"}


def test_cross_record_problems_in_several_files_are_listed_together(module_copy: Path) -> None:
    # Stage 2: once every file is valid, references across records and files are checked together.
    unknown_owner(module_copy)
    crisis_entry_missing(module_copy)
    unknown_area_in_connection(module_copy)
    files = {problem.file for problem in check_module(module_copy).problems}
    assert {"pacific.yaml", "crisis.yaml", "europe.yaml"} <= files


def test_broken_module_cannot_be_loaded_for_play(cli: Cli, module_copy: Path) -> None:
    unknown_area_in_connection(module_copy)
    with pytest.raises(DataError, match="atlantis"):
        load_module(module_copy)
    result = cli("cataclysm", "area", "Turkey", "--module", str(module_copy))
    assert result.code == 1 and "atlantis" in result.err and "Traceback" not in result.err


def test_not_a_directory(cli: Cli, tmp_path: Path) -> None:
    result = cli("cataclysm", "check", str(tmp_path / "nowhere"))
    assert result.code == 1 and "not a directory" in result.err


def test_loaded_module_is_immutable() -> None:
    module = load_module()
    with pytest.raises(TypeError):
        module.areas["turkey"] = module.areas["greece"]  # type: ignore[index]
    with pytest.raises(Exception, match="frozen"):
        module.area("turkey").resistance = 0  # type: ignore[misc]
