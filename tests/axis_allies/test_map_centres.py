"""The board's centre points (``data/revised/centres.yaml``): every place of ``map.yaml`` has one,
no other name is there, and a broken file fails loudly with every fault named."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from grandstrategy.axis_allies.module import DEFAULT_MODULE_DIR, load_module
from grandstrategy.axis_allies.module.centres import CENTRES_FILE, load_centres
from grandstrategy.core.errors import DataError


def test_every_place_of_the_map_has_exactly_one_centre_inside_the_picture() -> None:
    module = load_module()
    centres = load_centres(module)
    assert set(centres.points) == set(module.territories)  # 79 land territories and 64 sea zones
    assert len(centres.points) == 143
    width, height = centres.size
    assert all(0 <= x <= width and 0 <= y <= height for x, y in centres.points.values())
    # A few points as TripleA's Revised picture places them (its centers.txt).
    assert centres.points["germany"] == (1079, 601)
    assert centres.points["sz-54"] == (3451, 983)
    assert centres.source == "triplea-revised/centers.txt"


def test_the_file_names_its_public_source() -> None:
    text = (DEFAULT_MODULE_DIR / CENTRES_FILE).read_text(encoding="utf-8")
    assert "TripleA 'World War II Revised'" in text and "sha256: " in text


def _copy_with(tmp_path: Path, old: str, new: str) -> Path:
    """The shipped centres file with ``old`` replaced by ``new``, in a folder of its own."""
    text = (DEFAULT_MODULE_DIR / CENTRES_FILE).read_text(encoding="utf-8")
    assert old in text
    shutil.copytree(DEFAULT_MODULE_DIR, tmp_path / "revised")
    (tmp_path / "revised" / CENTRES_FILE).write_text(text.replace(old, new), encoding="utf-8")
    return tmp_path / "revised"


def test_a_misspelt_name_fails_naming_the_unknown_and_the_missing_place(tmp_path: Path) -> None:
    folder = _copy_with(tmp_path, "{name: Germany,", "{name: Germania,")
    with pytest.raises(DataError) as raised:
        load_centres(load_module(), folder)
    message = str(raised.value)
    assert "'Germania' is no territory or sea zone of map.yaml" in message
    assert "no centre for 'Germany'" in message


def test_a_point_outside_the_picture_or_a_bad_field_fails(tmp_path: Path) -> None:
    folder = _copy_with(tmp_path, "at: [1079, 601]", "at: [1079, 6010]")
    with pytest.raises(DataError, match="'Germany' lies outside the 3500x1900 picture"):
        load_centres(load_module(), folder)
    folder = _copy_with(tmp_path / "b", "at: [1079, 601]", "at: [1079]")
    with pytest.raises(DataError, match=r"centres\.yaml"):
        load_centres(load_module(), folder)
