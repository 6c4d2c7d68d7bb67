"""Exact odds of described combats (LR 10): worked examples, a seeded simulation, the command line."""

from __future__ import annotations

import io
import json
import math
import sys
from collections.abc import Callable
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from grandstrategy.cataclysm.odds import (
    Situation,
    SituationOdds,
    load_situation,
    parse_situation,
    roll_dice,
    simulate_situation,
    situation_odds,
)
from grandstrategy.cataclysm.rules.dice import combat_odds, result_distribution
from grandstrategy.core.errors import UserInputError
from grandstrategy.core.rng import Rng

from .conftest import Result

Cli = Callable[..., Result]

POLAND: dict[str, Any] = {
    "combat": "land",
    "attacker": {"name": "Germany", "units": ["tank-army", "infantry-army"], "air": ["tactical-air"]},
    "defender": {"name": "Poland", "units": ["minor-army"]},
}
SICILY: dict[str, Any] = {
    "combat": "naval",
    "attacker": {"name": "UK", "air": ["strategic-air"]},
    "defender": {"name": "Italy", "units": ["surface-fleet"], "air": ["tactical-air"]},
}


def odds(data: dict[str, Any]) -> SituationOdds:
    return situation_odds(parse_situation(data))


def tail(table: dict[int, Fraction], at_least: int) -> Fraction:
    return sum((p for n, p in table.items() if n >= at_least), Fraction(0))


def assert_sums_to_one(result: SituationOdds) -> None:
    assert result.attacker_wins + result.defender_wins + result.tie == 1
    assert sum(result.attacker_losses.values()) == 1 and sum(result.defender_losses.values()) == 1
    if result.air_superiority:
        assert sum(result.air_superiority.values()) == 1
    assert sum(case.probability for case in result.cases) == 1


# --- Worked examples --------------------------------------------------------------------------------


def test_poland_situation_lr_l2217_2241() -> None:
    result = odds(POLAND)
    assert_sums_to_one(result)
    assert result.air_superiority == {"attacker": 1, "none": 0, "defender": 0}
    assert result.air_combat is None  # unopposed: no air combat
    (case,) = result.cases
    terms = case.terms
    assert (terms.attacker_dice, terms.attacker_modifier, terms.defender_dice, terms.defender_modifier) == (
        3,
        0,
        1,
        0,
    )
    plain = combat_odds(3, 0, 1, 0)
    assert result.attacker_wins == plain.attacker_wins and result.tie == plain.tie
    # the minor army takes one loss: two or more is a triumph (the example's 7 v 3)
    assert result.triumph == tail(plain.defender_losses, 2)
    assert result.defender_stability_test == 0  # lone minor army
    # Germany's tank (2 steps) and infantry (1 step) fall to four or more losses
    assert result.disaster == tail(plain.attacker_losses, 4) == result.attacker_stability_test
    assert result.method == "exact enumeration"


def test_sicily_situation_lr_l2065_2069() -> None:
    result = odds(SICILY)
    assert_sums_to_one(result)
    two = result_distribution(2)
    tie = sum(p * p for p in two.values())
    uk_win = (1 - tie) / 2
    # Italy beats the strategic air force by one loss: it flips, one each, no superiority;
    # by two or more: it is destroyed and Italy has superiority
    one_loss = sum(pa * pd for a, pa in two.items() for d, pd in two.items() if d > a and d // a == 1)
    assert result.air_combat is not None and result.air_combat.tie == tie
    assert result.air_superiority["attacker"] == uk_win + tie  # the example's tie gives it to the UK
    assert result.air_superiority["none"] == one_loss
    assert result.air_superiority["defender"] == 1 - uk_win - tie - one_loss
    by_holder = {case.air_superiority: case.terms for case in result.cases}
    uk = by_holder["attacker"]
    assert (uk.attacker_dice, uk.defender_dice) == (2, 2)
    assert "UK 1 die: no naval units (LR 10.5)" in uk.reasons
    assert "UK +1 die: air superiority (LR 10.3)" in uk.reasons
    assert (by_holder[None].attacker_dice, by_holder[None].defender_dice) == (1, 2)
    assert (by_holder["defender"].attacker_dice, by_holder["defender"].defender_dice) == (1, 3)
    assert result.attacker_triumph > 0 and result.defender_triumph == 0  # the UK has no fleet


def test_ruhr_air_operation_situation_lr_l2089_2091() -> None:
    result = odds(
        {
            "combat": "air",
            "attacker": {"name": "US", "units": ["strategic-air", "strategic-air"], "augmentation": 2},
            "defender": {"name": "Germany", "units": ["tactical-air", "tactical-air"]},
        }
    )
    assert_sums_to_one(result)
    plain = combat_odds(2, 2, 2, 0)
    assert (result.attacker_wins, result.defender_wins, result.tie) == (
        plain.attacker_wins,
        plain.defender_wins,
        plain.tie,
    )
    assert result.triumph == result.disaster == 0  # never in air combat
    assert result.resource_damaged is None and result.air_superiority == {}


def test_carrier_disaster_situation_lr_l2159() -> None:
    result = odds(
        {
            "combat": "naval",
            "attacker": {"name": "Japan", "units": ["carrier-fleet"]},
            "defender": {"name": "UK", "units": ["carrier-fleet"]},
        }
    )
    plain = combat_odds(2, 0, 2, 0)
    assert result.disaster == tail(plain.attacker_losses, 3) == result.attacker_stability_test
    assert result.triumph == tail(plain.defender_losses, 3)
    data = result.to_json()
    assert data["disaster"]["attacker"] == data["triumph"]["defender"] == float(result.disaster)


def test_lone_strategic_air_force_situation_lr_l2215() -> None:
    result = odds(
        {
            "combat": "naval",
            "attacker": {
                "name": "Italy",
                "units": ["surface-fleet", "surface-fleet"],
                "air": ["tactical-air"],
            },
            "defender": {"name": "UK", "air": ["strategic-air"]},
        }
    )
    assert_sums_to_one(result)
    assert result.attacker_triumph == 0 and result.defender_stability_test == 0
    assert result.attacker_wins > 0


def test_superiority_air_combat_takes_operation_wide_modifiers() -> None:
    situation = parse_situation(
        {
            "combat": "land",
            "attacker": {
                "units": ["infantry-army"],
                "air": ["tactical-air"],
                "augmentation": 1,
                "purges": True,
                "air_limited_supply": True,
            },
            "defender": {"units": ["infantry-army"], "air": ["tactical-air"], "surprised": True},
        }
    )
    result = situation_odds(situation)
    assert result.air_combat is not None
    air = result.air_combat.terms
    assert (air.attacker_modifier, air.defender_modifier) == (1 - 1 - 1, -1)
    for case in result.cases:  # the land units are in supply
        assert (case.terms.attacker_modifier, case.terms.defender_modifier) == (1 - 1, -1)


def test_bombing_tie_without_defending_air_damages_the_resource() -> None:
    result = odds(
        {
            "combat": "air",
            "strategic_bombing": True,
            "attacker": {"units": ["strategic-air"]},
            "defender": {},
        }
    )
    plain = combat_odds(2, 0, 1, 0)
    assert result.resource_damaged == plain.attacker_wins + plain.tie
    assert result.to_json()["resource_damaged"] == float(result.resource_damaged)
    defended = odds(
        {
            "combat": "air",
            "strategic_bombing": True,
            "attacker": {"units": ["strategic-air"]},
            "defender": {"units": ["tactical-air"]},
        }
    )
    assert defended.resource_damaged == tail(combat_odds(2, 0, 2, 0).defender_losses, 2)


def test_superiority_policy_in_the_odds() -> None:
    # Defender: two strategic air forces (4 steps, 2 units) against one tactical. Losing the air
    # combat by up to two losses only flips them, so the defender keeps superiority.
    result = odds(
        {
            "combat": "land",
            "attacker": {"units": ["infantry-army"], "air": ["tactical-air"]},
            "defender": {"units": ["infantry-army"], "air": ["strategic-air", "strategic-air"]},
        }
    )
    assert result.air_combat is not None
    plain = combat_odds(2, 0, 2, 0)
    three_or_more = tail(plain.defender_losses, 3)
    assert result.air_superiority["attacker"] == tail(plain.defender_losses, 4)
    assert result.air_superiority["none"] == three_or_more - tail(plain.defender_losses, 4)
    assert result.air_superiority["defender"] == 1 - three_or_more


# --- Exact against a seeded simulation ----------------------------------------------------------------

SITUATIONS: dict[str, dict[str, Any]] = {
    "poland: unopposed superiority, tanks v none": POLAND,
    "sicily: superiority air combat": SICILY,
    "contested superiority, fortress": {
        "combat": "land",
        "attacker": {"units": ["tank-army", "infantry-army"], "air": ["strategic-air", "tactical-air"]},
        "defender": {"units": ["infantry-army", "fortress"], "air": ["tactical-air", "tactical-air"]},
    },
    "tanks v none across a strait, surprise": {
        "combat": "land",
        "strait": True,
        "attacker": {"units": ["tank-army", "tank-army"], "augmentation": 1},
        "defender": {"units": ["infantry-army"], "surprised": True},
    },
    "carriers, extended range, subs": {
        "combat": "naval",
        "attacker": {
            "units": ["carrier-fleet", "carrier-fleet"],
            "air": ["strategic-air"],
            "extended_range": True,
        },
        "defender": {"units": ["carrier-fleet", "submarine-pack"], "air": ["tactical-air"]},
    },
    "strategic bombing, intrinsic defence": {
        "combat": "air",
        "strategic_bombing": True,
        "attacker": {"units": ["strategic-air", "tactical-air"]},
        "defender": {},
    },
    "strategic bombing against fighters": {
        "combat": "air",
        "strategic_bombing": True,
        "attacker": {"units": ["strategic-air"], "limited_supply": True},
        "defender": {"units": ["tactical-air"], "purges": True},
    },
    "ruhr air operation": {
        "combat": "air",
        "attacker": {"units": ["strategic-air", "strategic-air"], "augmentation": 2},
        "defender": {"units": ["tactical-air", "tactical-air"]},
    },
    "japanese invasion, SNLF, extended range": {
        "combat": "land",
        "invasion": True,
        "attacker": {
            "units": ["infantry-army", "tank-army"],
            "air": ["tactical-air"],
            "snlf": True,
            "extended_range": True,
        },
        "defender": {"units": ["infantry-army"], "air": ["strategic-air"], "limited_supply": True},
    },
    "civil war aid, purges": {
        "combat": "land",
        "adverse_terrain": True,
        "attacker": {"units": ["tank-army"], "purges": True},
        "defender": {"units": ["minor-army"], "civil_war_aid": True},
    },
    "no defending land units, defending air": {
        "combat": "land",
        "attacker": {"units": ["tank-army"]},
        "defender": {"air": ["tactical-air"]},
    },
}


def _close(name: str, exact: Fraction, simulated: float, trials: int) -> None:
    p = float(exact)
    if p in (0.0, 1.0):
        assert simulated == p, (name, p, simulated)
        return
    se = math.sqrt(p * (1 - p) / trials)
    assert abs(simulated - p) <= 4 * se, (name, p, simulated, se)


@pytest.mark.parametrize("label", list(SITUATIONS))
def test_exact_odds_agree_with_a_seeded_simulation(label: str) -> None:
    situation = parse_situation(SITUATIONS[label])
    exact = situation_odds(situation)
    assert_sums_to_one(exact)
    trials = 100_000
    sim = simulate_situation(situation, trials=trials, seed=20240611)
    for key in (
        "attacker_wins",
        "defender_wins",
        "tie",
        "attacker_triumph",
        "defender_triumph",
        "attacker_stability_test",
        "defender_stability_test",
        "retreat_allowed",
    ):
        _close(f"{label}: {key}", getattr(exact, key), getattr(sim, key), trials)
    if exact.resource_damaged is not None:
        assert sim.resource_damaged is not None
        _close(f"{label}: resource", exact.resource_damaged, sim.resource_damaged, trials)
    for side in ("attacker_losses", "defender_losses"):
        table, seen = getattr(exact, side), getattr(sim, side)
        assert set(seen) <= set(table), (label, side)
        for n, p in table.items():
            _close(f"{label}: {side}[{n}]", p, seen.get(n, 0.0), trials)
    for holder, p in exact.air_superiority.items():
        _close(f"{label}: superiority {holder}", p, sim.air_superiority[holder], trials)


def test_simulation_is_seeded_and_dice_are_fair() -> None:
    situation = parse_situation(SICILY)
    assert simulate_situation(situation, trials=2000, seed=5) == simulate_situation(
        situation, trials=2000, seed=5
    )
    faces = roll_dice(Rng(9), 60_000)
    counts = [int((faces == face).sum()) for face in range(1, 7)]
    assert sum(counts) == 60_000 and all(abs(c - 10_000) < 4 * math.sqrt(60_000 * 5 / 36) for c in counts)


# --- Reading situations -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("data", "expected"),
    [
        (
            {**POLAND, "weather": "rain"},
            "situation: weather: unknown key; known keys: combat, strategic_bombing",
        ),
        (
            {**POLAND, "attacker": {"units": ["panzer"]}},
            "situation: attacker.units[0]: Input should be 'infantry-army'",
        ),
        (
            {**POLAND, "attacker": {"units": ["tank-army"], "tanks": 2}},
            "situation: attacker.tanks: unknown key",
        ),
        (
            {**POLAND, "combat": "sea"},
            "situation: combat: Input should be 'land', 'naval' or 'air', not 'sea'",
        ),
        ({"combat": "land", "attacker": {"units": ["tank-army"]}}, "situation: defender: missing (required)"),
        ({**POLAND, "fortress": "yes"}, "situation: fortress: Input should be a valid boolean, not 'yes'"),
        (
            {**POLAND, "defender": {"units": ["minor-army"], "augmentation": 1}},
            "situation: defender.augmentation: only the attacker augments an operation (LR 8.2)",
        ),
        (
            {**POLAND, "attacker": {"units": ["tank-army", "tactical-air"]}},
            "situation: attacker.units: list air units (tactical-air) under attacker.air in a land combat",
        ),
        ({**SICILY, "strait": True}, "situation: strait: matters only in land combat (LR 10.4)"),
        (
            {**POLAND, "attacker": {"units": ["tank-army"], "snlf": True}},
            "situation: attacker.snlf: applies only in the land combat of an invasion",
        ),
        (
            {"combat": "air", "attacker": {"units": ["tactical-air"]}, "defender": {}},
            "situation: defender.units: an air operation targets enemy air units (LR 9.5.1)",
        ),
        (
            {
                "combat": "air",
                "strategic_bombing": True,
                "attacker": {"units": ["tactical-air"]},
                "defender": {},
            },
            "situation: attacker.units: strategic bombing needs a strategic air force (LR 9.5.2)",
        ),
        ({**POLAND, "defender": {"units": ["logistics"]}}, "situation: defender.units: logistics units take"),
        ({**POLAND, "attacker": {"units": ["minor-army"]}}, "situation: attacker.units: a minor-army never"),
        ([1, 2], "situation: must be a JSON object with combat, attacker and defender"),
    ],
)
def test_bad_situations_name_the_field(data: Any, expected: str) -> None:
    with pytest.raises(UserInputError) as info:
        parse_situation(data)
    message = str(info.value)
    assert message.startswith(expected), message
    assert "\n" not in message


def test_logistics_units_are_refused_in_situations() -> None:
    with pytest.raises(UserInputError, match="logistics"):
        parse_situation({**POLAND, "attacker": {"units": ["tank-army", "logistics"]}})


def test_several_problems_are_counted_in_one_line() -> None:
    with pytest.raises(UserInputError, match=r"\(and 1 more problem\)$"):
        parse_situation({**POLAND, "strait": 1, "invasion": "no"})


def test_not_json_is_one_clear_error() -> None:
    with pytest.raises(UserInputError, match=r"^war\.json: not valid JSON \(line 1, column"):
        load_situation("{combat: land", "war.json")


def test_a_situation_is_a_pydantic_model() -> None:
    situation = parse_situation(POLAND)
    assert isinstance(situation, Situation)
    assert parse_situation(json.loads(situation.model_dump_json())) == situation


# --- Command line -------------------------------------------------------------------------------------


def test_odds_situation_file_json(cli: Cli, tmp_path: Path) -> None:
    path = tmp_path / "poland.json"
    path.write_text(json.dumps(POLAND), encoding="utf-8")
    result = cli("cataclysm", "odds", "--situation", str(path), "--json")
    assert result.code == 0, result.err
    data = result.json()
    assert data["method"] == "exact enumeration"
    assert abs(data["attacker_wins"] + data["defender_wins"] + data["tie"] - 1) < 1e-12
    assert abs(sum(data["defender_losses"].values()) - 1) < 1e-12
    assert {"attacker_losses", "triumph", "disaster", "air_superiority", "cases", "policies"} <= set(data)
    (case,) = data["cases"]
    assert (case["terms"]["attacker_dice"], case["terms"]["defender_dice"]) == (3, 1)
    assert "Germany +1 die: air superiority (LR 10.3)" in case["terms"]["reasons"]
    assert Fraction(data["exact"]["attacker_wins"]) == combat_odds(3, 0, 1, 0).attacker_wins


def test_odds_situation_from_stdin(cli: Cli, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO(json.dumps(SICILY)))
    data = cli("cataclysm", "odds", "--situation", "-", "--json").json()
    assert data["combat"] == "naval" and data["air_combat"] is not None
    assert abs(sum(data["air_superiority"].values()) - 1) < 1e-12


def test_odds_situation_table(cli: Cli, tmp_path: Path) -> None:
    path = tmp_path / "sicily.json"
    path.write_text(json.dumps(SICILY), encoding="utf-8")
    result = cli("cataclysm", "odds", "--situation", str(path))
    assert result.code == 0, result.err
    assert "UK attacks Italy: naval combat (exact enumeration)" in result.out
    assert "Air superiority to UK" in result.out and "LR 10.3" in result.out


def test_bad_situation_is_exit_2_one_line(cli: Cli, tmp_path: Path) -> None:
    path = tmp_path / "bad.json"
    path.write_text(json.dumps({**POLAND, "attacker": {"units": ["panzer"]}}), encoding="utf-8")
    result = cli("cataclysm", "odds", "--situation", str(path))
    assert result.code == 2 and "Traceback" not in result.err
    assert result.err.count("\n") == 1 and "attacker.units[0]" in result.err
    missing = cli("cataclysm", "odds", "--situation", str(tmp_path / "nope.json"))
    assert missing.code == 2 and "cannot read situation file" in missing.err
    path.write_text("{", encoding="utf-8")
    broken = cli("cataclysm", "odds", "--situation", str(path), "--json")
    assert broken.code == 2 and "not valid JSON" in broken.err and "Traceback" not in broken.err


def test_situation_and_bare_numbers_do_not_mix(cli: Cli, tmp_path: Path) -> None:
    path = tmp_path / "poland.json"
    path.write_text(json.dumps(POLAND), encoding="utf-8")
    both = cli("cataclysm", "odds", "--situation", str(path), "--attacker-dice", "2")
    assert both.code == 2 and "--attacker-dice" in both.err
    neither = cli("cataclysm", "odds")
    assert neither.code == 2 and "--situation" in neither.err


def test_bare_numbers_unchanged(cli: Cli) -> None:
    args = ("cataclysm", "odds", "--attacker-dice", "3", "--attacker-mod", "1", "--defender-dice", "2")
    data = cli(*args, "--defender-mod", "-1", "--json").json()
    assert set(data) == {
        "method",
        "note",
        "attacker_wins",
        "defender_wins",
        "tie",
        "losses",
        "defender_losses",
        "attacker_losses",
        "exact",
    }
    assert data["method"] == "exact"
    text = cli(*args)
    assert text.code == 0 and "attacker wins" in text.out


def test_a_lone_minor_army_never_retreats_lr_2_4_4() -> None:
    """Poland's minor army cannot move, so only Germany's defeats can offer a voluntary retreat."""
    poland = odds(
        {
            "combat": "land",
            "attacker": {"units": ["tank-army", "infantry-army"], "air": ["tactical-air"]},
            "defender": {"units": ["minor-army"]},
        }
    )
    army = odds(
        {
            "combat": "land",
            "attacker": {"units": ["tank-army", "infantry-army"], "air": ["tactical-air"]},
            "defender": {"units": ["infantry-army"]},
        }
    )
    assert poland.retreat_allowed <= poland.defender_wins
    assert army.retreat_allowed > army.defender_wins
