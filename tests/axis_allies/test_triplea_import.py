"""``grandstrategy aa import-triplea`` and ``aa check``: reproducible import, safe parsing, named faults."""

from __future__ import annotations

import copy
import json
import shutil
from pathlib import Path
from typing import Any

import pytest
import yaml

from grandstrategy.axis_allies.module import DEFAULT_MODULE_DIR, check_module
from grandstrategy.axis_allies.module.loader import FILES
from grandstrategy.axis_allies.module.safexml import MAX_BYTES
from grandstrategy.axis_allies.module.triplea import dump_yaml, import_triplea, slug
from grandstrategy.cli import main

FAST_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
FAST_DUMPER = getattr(yaml, "CSafeDumper", yaml.SafeDumper)
REFERENCE = Path(__file__).resolve().parents[3] / "shared" / "reference" / "triplea-revised"
needs_reference = pytest.mark.skipif(
    not (REFERENCE / "ww2v2.xml").is_file(), reason="../shared/reference/triplea-revised is not present"
)

# A tiny game of the Revised family: two powers, two land territories, a sea zone, a canal.
TINY = """<?xml version="1.0"?>
<!DOCTYPE game SYSTEM "game.dtd">
<game>
  <info name="Tiny Game" version="0.1"/>
  <map>
    <territory name="Alpha"/>
    <territory name="Beta"/>
    <territory name="Gamma"/>
    <territory name="1 Sea Zone" water="true"/>
    <territory name="2 Sea Zone" water="true"/>
    <connection t1="Alpha" t2="Beta"/>
    <connection t1="Alpha" t2="1 Sea Zone"/>
    <connection t1="Beta" t2="1 Sea Zone"/>
    <connection t1="Alpha" t2="2 Sea Zone"/>
    <connection t1="1 Sea Zone" t2="2 Sea Zone"/>
    <connection t1="Gamma" t2="2 Sea Zone"/>
  </map>
  <playerList>
    <player name="Reds" optional="false"/>
    <player name="Blues" optional="false"/>
    <alliance player="Reds" alliance="East"/>
    <alliance player="Blues" alliance="West"/>
  </playerList>
  <unitList><unit name="infantry"/><unit name="transport"/></unitList>
  <gamePlay><sequence>
    <step name="bluesPurchase" delegate="purchase" player="Blues"/>
    <step name="bluesEndTurn" delegate="endTurn" player="Blues"/>
    <step name="redsPurchase" delegate="purchase" player="Reds"/>
    <step name="redsEndTurn" delegate="endTurn" player="Reds"/>
  </sequence></gamePlay>
  <production>
    <productionRule name="buyInfantry">
      <cost resource="PUs" quantity="3"/><result resourceOrUnit="infantry" quantity="1"/>
    </productionRule>
    <productionFrontier name="production"><frontierRules name="buyInfantry"/></productionFrontier>
    <playerProduction player="Reds" frontier="production"/>
    <playerProduction player="Blues" frontier="production"/>
  </production>
  <attachmentList>
    <attachment name="unitAttachment" attachTo="infantry" type="unitType">
      <option name="movement" value="1"/><option name="attack" value="1"/><option name="defense" value="2"/>
    </attachment>
    <attachment name="unitAttachment" attachTo="transport" type="unitType">
      <option name="movement" value="2"/><option name="isSea" value="true"/>
    </attachment>
    <attachment name="territoryAttachment" attachTo="Alpha" type="territory">
      <option name="production" value="5"/><option name="capital" value="Reds"/>
      <option name="victoryCity" value="1"/>
    </attachment>
    <attachment name="territoryAttachment" attachTo="Beta" type="territory">
      <option name="production" value="4"/><option name="capital" value="Blues"/>
    </attachment>
    <attachment name="territoryAttachment" attachTo="Gamma" type="territory">
      <option name="production" value="1"/>
    </attachment>
    <attachment name="canalAttachment" attachTo="1 Sea Zone" type="territory">
      <option name="canalName" value="Alpha Canal"/><option name="landTerritories" value="Alpha"/>
    </attachment>
    <attachment name="canalAttachment" attachTo="2 Sea Zone" type="territory">
      <option name="canalName" value="Alpha Canal"/><option name="landTerritories" value="Alpha"/>
    </attachment>
  </attachmentList>
  <initialize>
    <ownerInitialize>
      <territoryOwner territory="Alpha" owner="Reds"/>
      <territoryOwner territory="Beta" owner="Blues"/>
      <territoryOwner territory="Gamma" owner="Reds"/>
    </ownerInitialize>
    <unitInitialize>
      <unitPlacement unitType="infantry" territory="Alpha" quantity="2" owner="Reds"/>
      <unitPlacement unitType="transport" territory="1 Sea Zone" quantity="1" owner="Blues"/>
    </unitInitialize>
    <resourceInitialize>
      <resourceGiven player="Reds" resource="PUs" quantity="6"/>
      <resourceGiven player="Blues" resource="PUs" quantity="4"/>
    </resourceInitialize>
  </initialize>
  <propertyList>
    <property name="Low Luck" value="false" editable="true"><boolean/></property>
  </propertyList>
</game>
"""


def run(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    with pytest.raises(SystemExit) as info:
        main(["aa", *args])
    out, err = capsys.readouterr()
    code = info.value.code
    return (code if isinstance(code, int) else 1), out, err


def without_provenance(data: Any) -> Any:
    if isinstance(data, dict):
        return {key: without_provenance(value) for key, value in data.items() if key != "provenance"}
    if isinstance(data, list):
        return [without_provenance(item) for item in data]
    return data


@needs_reference
def test_reimporting_the_reference_file_reproduces_the_shipped_module_byte_for_byte() -> None:
    files = import_triplea(REFERENCE / "ww2v2.xml", module_id="revised")
    for name in FILES:
        assert dump_yaml(files[name]) == (DEFAULT_MODULE_DIR / name).read_text(encoding="utf-8"), name


@needs_reference
def test_lhtr_file_has_the_same_map_units_and_setup_and_its_own_turn() -> None:
    lhtr = import_triplea(REFERENCE / "lhtr.xml", module_id="revised")
    shipped = {
        name: yaml.safe_load((DEFAULT_MODULE_DIR / name).read_text(encoding="utf-8")) for name in FILES
    }
    for name in ("map.yaml", "powers.yaml", "units.yaml", "setup.yaml"):
        assert without_provenance(lhtr[name]) == without_provenance(shipped[name]), name
    assert lhtr["module.yaml"]["game"] == "World War II Revised LHTR"
    # LHTR hands out technology at the end of the turn (lhtr.notes.html): Tech Activation comes last but one.
    assert [phase["name"] for phase in lhtr["rules.yaml"]["phases"]][-2] == "Tech Activation"
    assert [phase["name"] for phase in shipped["rules.yaml"]["phases"]][1] == "Tech Activation"


def test_import_command_writes_a_module_that_checks(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = tmp_path / "tiny" / "tiny.xml"
    source.parent.mkdir()
    source.write_text(TINY, encoding="utf-8")
    out = tmp_path / "out"
    code, stdout, err = run(["import-triplea", str(source), "--out", str(out)], capsys)
    assert (code, err) == (0, "")
    assert "3 land territories, 2 sea zones, 2 powers, 2 unit stacks" in stdout
    report = check_module(out)
    assert report.ok, [str(p) for p in report.problems]
    module = report.module
    assert module is not None
    assert module.info.id == "tiny-game"
    assert [p.id for p in module.turn_order()] == ["blues", "reds"]  # the game sequence, not the player list
    assert module.canals["alpha-canal"].sea_zones == ["sz-1", "sz-2"]
    assert module.territories["gamma"].island and not module.territories["alpha"].island
    assert module.territories["alpha"].provenance == "tiny/tiny.xml L6, L11-12, L14, L47-48, L65"
    assert module.unit_types["transport"].domain.value == "sea"


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"<game><map>", "is not well-formed XML at line 1"),
        (
            b'<?xml version="1.0"?>\n<!DOCTYPE game [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;">]>\n'
            b"<game>&b;</game>",
            "declares a DTD internal subset",
        ),
        (b'<!DOCTYPE game SYSTEM "game.dtd">\n<game>&ext;</game>', "refers to entity 'ext'"),
        (b"<notagame/>", "not a TripleA <game>"),
        (b"", "is not well-formed XML"),
    ],
    ids=["malformed", "entity-bomb", "undefined-entity", "wrong-root", "empty"],
)
def test_bad_files_give_one_clean_error_and_write_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], content: bytes, message: str
) -> None:
    source = tmp_path / "bad.xml"
    source.write_bytes(content)
    code, stdout, err = run(["import-triplea", str(source), "--out", str(tmp_path / "out")], capsys)
    assert code == 1 and stdout == ""
    assert err.startswith("error: ") and message in err
    assert "Traceback" not in err and len(err.strip().splitlines()) == 1
    assert not (tmp_path / "out").exists()


def test_oversized_file_is_refused_before_parsing(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    source = tmp_path / "huge.xml"
    source.write_bytes(b"<game>" + b" " * MAX_BYTES + b"</game>")
    code, _, err = run(["import-triplea", str(source), "--out", str(tmp_path / "out")], capsys)
    assert code == 1 and f"is larger than {MAX_BYTES} bytes" in err


def test_missing_file_and_inconsistent_game(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(["import-triplea", str(tmp_path / "nope.xml"), "--out", str(tmp_path / "o")], capsys)
    assert code == 1 and "no such file" in err
    broken = tmp_path / "broken.xml"
    broken.write_text(
        TINY.replace('<connection t1="Alpha" t2="Beta"/>', '<connection t1="Alpha" t2="Zeta"/>')
    )
    code, _, err = run(["import-triplea", str(broken), "--out", str(tmp_path / "o")], capsys)
    assert code == 1 and "names unknown territory 'Zeta'" in err
    assert not (tmp_path / "o").exists()


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        ('resource="PUs" quantity="3"', 'resource="PUs" quantity="three"', "a cost needs a whole-number"),
        ('quantity="6"/>', 'quantity="lots"/>', "powers[1] (reds) field 'starting_ipcs'"),
        ('value="Reds"/>', 'value="Greens"/>', "field 'capital': names unknown power 'greens'"),
        ('<option name="production" value="1"/>', '<option name="isCursed" value="1"/>', "'isCursed'"),
    ],
    ids=["cost", "starting-ipcs", "capital", "unknown-option"],
)
def test_game_file_faults_are_listed_without_writing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], old: str, new: str, message: str
) -> None:
    assert old in TINY
    broken = tmp_path / "broken.xml"
    broken.write_text(TINY.replace(old, new))
    code, _, err = run(["import-triplea", str(broken), "--out", str(tmp_path / "o")], capsys)
    assert code == 1 and message in err and "Traceback" not in err
    assert not (tmp_path / "o").exists()


def copy_module(tmp_path: Path) -> Path:
    target = tmp_path / "module"
    shutil.copytree(DEFAULT_MODULE_DIR, target)
    return target


def edit(directory: Path, name: str, change: Any) -> None:
    path = directory / name
    data = yaml.load(path.read_text(encoding="utf-8"), Loader=FAST_LOADER)
    change(data)
    path.write_text(yaml.dump(data, Dumper=FAST_DUMPER, sort_keys=False), encoding="utf-8")


def territory(data: dict[str, Any], tid: str) -> dict[str, Any]:
    return next(t for t in data["territories"] if t["id"] == tid)


def _drop_germany_from_sz5(data: dict[str, Any]) -> None:
    territory(data, "sz-5")["neighbours"].remove("germany")


def _ipc_at_sea(data: dict[str, Any]) -> None:
    territory(data, "sz-1")["ipc"] = 2


def _capital_moved(data: dict[str, Any]) -> None:
    territory(data, "germany")["capital"] = "russians"


def _unknown_neighbour(data: dict[str, Any]) -> None:
    territory(data, "kenya")["neighbours"].append("atlantis")


def _canal_unknown(data: dict[str, Any]) -> None:
    data["canals"][1]["controlled_by"].append("sinai")


def _duplicate_id(data: dict[str, Any]) -> None:
    data["territories"].append(copy.deepcopy(territory(data, "midway")))


def _no_provenance(data: dict[str, Any]) -> None:
    del territory(data, "india")["provenance"]


def _placement_unknown(data: dict[str, Any]) -> None:
    data["units"][0]["territory"] = "atlantis"


def _tank_at_sea(data: dict[str, Any]) -> None:
    data["units"][2]["territory"] = "sz-4"


@pytest.mark.parametrize(
    ("name", "change", "expected"),
    [
        (
            "map.yaml",
            _drop_germany_from_sz5,
            "map.yaml: territories[28] (germany) field 'neighbours': lists 'sz-5', but 'sz-5' does not "
            "list it back (asymmetric)",
        ),
        ("map.yaml", _ipc_at_sea, "map.yaml: territories[79] (sz-1) field 'ipc': a sea zone has no ipc"),
        (
            "map.yaml",
            _capital_moved,
            "map.yaml: territories[28] (germany) field 'capital': is the capital of 'russians' but starts "
            "owned by 'germans'",
        ),
        ("map.yaml", _unknown_neighbour, "(kenya) field 'neighbours': names unknown territory 'atlantis'"),
        ("map.yaml", _canal_unknown, "canals[1] (suez-canal) field 'controlled_by': names unknown territory"),
        ("map.yaml", _duplicate_id, "map.yaml: territory id 'midway': appears 2 times"),
        ("map.yaml", _no_provenance, "(india) field 'provenance': is required but missing"),
        ("setup.yaml", _placement_unknown, "field 'territory': names unknown territory 'atlantis'"),
        ("setup.yaml", _tank_at_sea, "(russians armour in sz-4) field 'territory': a land unit cannot start"),
    ],
    ids=[
        "asymmetric",
        "ipc-at-sea",
        "capital",
        "unknown-neighbour",
        "canal",
        "duplicate",
        "provenance",
        "placement",
        "tank-at-sea",
    ],
)
def test_check_names_a_planted_fault(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], name: str, change: Any, expected: str
) -> None:
    module = copy_module(tmp_path)
    edit(module, name, change)
    code, stdout, err = run(["check", str(module)], capsys)
    assert code == 1 and stdout == ""
    assert expected in err


def test_bad_provenance_is_named(tmp_path: Path) -> None:
    module = copy_module(tmp_path)
    edit(module, "powers.yaml", lambda data: data["powers"][0].update(provenance="from memory"))
    problems = [str(p) for p in check_module(module).problems]
    assert len(problems) == 1 and problems[0].startswith(
        "powers.yaml: powers[0] (russians) field 'provenance'"
    )


def test_check_json_and_text(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["check", "--json"], capsys)
    data = json.loads(out)
    assert code == 0 and data["ok"] and data["problems"] == []
    assert data["summary"]["canals"] == 2
    code, out, _ = run(["check"], capsys)
    assert code == 0 and "79 land (16 impassable, 13 islands), 64 sea zones" in out


def test_check_of_a_missing_directory_or_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(["check", str(tmp_path / "nowhere")], capsys)
    assert code == 1 and "is not a directory holding a module" in err
    module = copy_module(tmp_path)
    (module / "units.yaml").unlink()
    code, _, err = run(["check", str(module)], capsys)
    assert code == 1 and "units.yaml: file is missing" in err
    bomb = "a: &a [x, x, x, x]\nb: &b [*a, *a, *a, *a]\nc: [*b, *b, *b, *b]\n"
    (module / "units.yaml").write_text(bomb, encoding="utf-8")
    code, _, err = run(["check", str(module)], capsys)
    assert code == 1 and "units.yaml: is not valid YAML" in err and "aliases" in err


def test_territory_look_up(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["territory", "anglo egypt", "--json"], capsys)
    facts = json.loads(out)
    assert code == 0 and facts["ipc"] == 2 and facts["original_owner"] == "british"
    assert facts["canals"][0]["name"] == "Suez Canal" and facts["canals"][0]["role"] == "controls"
    code, out, _ = run(["territory", "sz 16"], capsys)
    assert code == 0 and out.startswith("16 Sea Zone (sea)") and "Turkey" in out
    code, _, err = run(["territory", "Anglo Egipt"], capsys)
    assert code == 2 and "did you mean Anglo Egypt?" in err


def test_slugs() -> None:
    assert slug("5 Sea Zone") == "sz-5"
    assert slug("Karelia S.S.R.") == "karelia-ssr"
    assert slug("Union of South Africa") == "union-of-south-africa"
