"""Data modules read YAML strictly: a repeated key or an alias is an error naming its line."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
import yaml

from grandstrategy.axis_allies.module.loader import check_module as check_aa_module
from grandstrategy.cataclysm.module.loader import DEFAULT_MODULE_DIR, check_module
from grandstrategy.core.yamlfile import load_yaml


def test_plain_yaml_loads() -> None:
    assert load_yaml("a: 1\nb: [x, y]\n") == {"a": 1, "b": ["x", "y"]}


@pytest.mark.parametrize(
    ("text", "line", "words"),
    [("a: 1\nb: 2\na: 3\n", 3, "appears twice"), ("a: &x [1, 2]\nb: *x\n", 2, "aliases")],
)
def test_repeated_keys_and_aliases_are_refused_with_their_line(text: str, line: int, words: str) -> None:
    with pytest.raises(yaml.YAMLError) as caught:
        load_yaml(text)
    assert words in str(getattr(caught.value, "problem", ""))
    assert caught.value.problem_mark.line + 1 == line  # type: ignore[attr-defined]


def test_an_alias_bomb_in_a_cataclysm_module_is_named_by_check(tmp_path: Path) -> None:
    """Nine levels of nine aliases would be 387 million strings once expanded: refused unread."""
    module = tmp_path / "module"
    shutil.copytree(DEFAULT_MODULE_DIR, module)
    bomb = ['x0: &a0 ["lol"]'] + [f"x{i}: &a{i} [{', '.join([f'*a{i - 1}'] * 9)}]" for i in range(1, 10)]
    target = next(module.glob("*.yaml"))
    target.write_text(target.read_text(encoding="utf-8") + "\n" + "\n".join(bomb) + "\n", encoding="utf-8")
    report = check_module(module)
    assert any("aliases" in str(problem) and target.name in str(problem) for problem in report.problems)


def test_a_repeated_key_in_the_revised_map_is_named_by_check(tmp_path: Path) -> None:
    from grandstrategy.axis_allies.module.loader import DEFAULT_MODULE_DIR as AA_DIR

    module = tmp_path / "revised"
    shutil.copytree(AA_DIR, module)
    target = module / "module.yaml"
    text = target.read_text(encoding="utf-8")
    first = text.splitlines()[0]
    target.write_text(text + first + "\n", encoding="utf-8")
    report = check_aa_module(module)
    assert any("appears twice" in str(problem) for problem in report.problems)
