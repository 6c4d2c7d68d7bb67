"""``grandstrategy aa odds --rules aarhe`` for sea battles and amphibious assaults: the numbers are
the variant machine's own odds (:mod:`grandstrategy.axis_allies.aarhe.combat.odds`) for the same
battle, land battles keep the older model, and what remains unsupported gets one clear line."""

from __future__ import annotations

import json
from typing import Any

import pytest

from grandstrategy.axis_allies import aarhe_battle
from grandstrategy.axis_allies.aarhe.combat import odds as machine_odds
from grandstrategy.axis_allies.aarhe.combat.tables import tables
from grandstrategy.axis_allies.aarhe_battle import arena, order_policy
from grandstrategy.axis_allies.battle import Battle
from grandstrategy.axis_allies.odds import battle_odds
from grandstrategy.axis_allies.units import find_rules
from grandstrategy.cli import main


def run(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    with pytest.raises(SystemExit) as info:
        main(["aa", "odds", "--rules", "aarhe", *args])
    out, err = capsys.readouterr()
    code = info.value.code
    return (code if isinstance(code, int) else 1), out, err


def odds_json(args: list[str], capsys: pytest.CaptureFixture[str]) -> dict[str, Any]:
    code, out, err = run([*args, "--json"], capsys)
    assert code == 0, err
    data: dict[str, Any] = json.loads(out)
    return data


def assert_same(data: dict[str, Any], odds: machine_odds.Odds) -> None:
    """The CLI's buckets are the machine odds' three outcomes (draw split into draw and undecided)."""
    assert abs(data["attacker_win"] - odds.attacker) < 1e-9
    assert abs(data["defender_win"] - odds.defender) < 1e-9
    assert abs(data["draw"] + data["undecided"] - odds.draw) < 1e-9


def assert_consistent(data: dict[str, Any], attacker: dict[str, int], defender: dict[str, int]) -> None:
    """Survivors, remaining forces and TUV agree with each other and with the variant's costs."""
    rules = find_rules("aarhe")
    for side, start in (("attacker", attacker), ("defender", defender)):
        assert abs(sum(row["p"] for row in data[f"{side}_remaining"]) - 1) < 1e-9
        lost = sum(rules.unit(u).cost * (n - data[f"{side}_survivors"][u]) for u, n in start.items())
        assert abs(data[f"{side}_tuv_lost"] - lost) < 1e-9
        for unit, n in start.items():
            assert 0 <= data[f"{side}_survivors"][unit] <= n + 1e-9
    assert abs(data["tuv_swing"] - (data["defender_tuv_lost"] - data["attacker_tuv_lost"])) < 1e-12


def test_sea_battle_is_the_machine_odds(capsys: pytest.CaptureFixture[str]) -> None:
    data = odds_json(["--sea", "-a", "2 sub, 1 dd", "-d", "1 dd, 1 trn"], capsys)
    game, where = arena({"sub": 2, "dd": 1}, {"dd": 1, "trn": 1}, sea=True)
    assert data["method"] == "exact"
    assert_same(data, machine_odds.battle_odds(game, where))
    assert_consistent(data, {"sub": 2, "dd": 1}, {"dd": 1, "trn": 1})
    assert data["attacker_win"] > 0.9  # the submarines sink the screen, then the transport


def test_sea_battle_with_aircraft_and_a_battleship(capsys: pytest.CaptureFixture[str]) -> None:
    data = odds_json(["--sea", "-a", "1 bb, 1 ftr", "-d", "1 dd, 1 cv"], capsys)
    game, where = arena({"bb": 1, "ftr": 1}, {"dd": 1, "cv": 1}, sea=True)
    assert_same(data, machine_odds.battle_odds(game, where))
    assert_consistent(data, {"bb": 1, "ftr": 1}, {"dd": 1, "cv": 1})


def test_bombardment_makes_an_amphibious_assault(capsys: pytest.CaptureFixture[str]) -> None:
    data = odds_json(["-a", "1 inf, 1 arm", "-d", "2 inf", "--bombard", "1 bb"], capsys)
    game, where = arena({"inf": 1, "arm": 1}, {"inf": 2}, bombard={"bb": 1})
    assert game.d["amphibious"] == {where: {"infantry": 1, "armour": 1}}
    assert_same(data, machine_odds.battle_odds(game, where))
    assert_consistent(data, {"inf": 1, "arm": 1, "bb": 1}, {"inf": 2})
    # the landing fails without infantry ashore, so the shore can be left empty on both sides
    assert data["draw"] > 0


def test_amphibious_flag_without_bombardment(capsys: pytest.CaptureFixture[str]) -> None:
    data = odds_json(["-a", "2 inf, 1 ftr", "-d", "2 inf", "--amphibious"], capsys)
    game, where = arena({"inf": 2, "ftr": 1}, {"inf": 2})
    assert_same(data, machine_odds.battle_odds(game, where))
    assert_consistent(data, {"inf": 2, "ftr": 1}, {"inf": 2})
    bombarded = odds_json(["-a", "2 inf, 1 ftr", "-d", "2 inf", "--bombard", "1 bb"], capsys)
    assert bombarded["attacker_win"] > data["attacker_win"]  # the battleship's shot helps


def test_monte_carlo_draws_the_machine_odds_dice(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["--sea", "-a", "1 dd", "-d", "1 sub", "--method", "monte-carlo", "--trials", "300", "--seed", "7"]
    data = odds_json(args, capsys)
    game, where = arena({"dd": 1}, {"sub": 1}, sea=True)
    simulated = machine_odds.simulate_odds(game, where, trials=300, seed=7)
    assert data["method"] == "monte-carlo" and data["trials"] == 300 and data["seed"] == 7
    assert_same(data, simulated)
    assert data["standard_errors"]["attacker_win"] > 0
    assert odds_json(args, capsys)["attacker_win"] == data["attacker_win"]  # same seed, same answer


def test_text_output_has_the_usual_tables(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["--sea", "-a", "1 dd", "-d", "1 trn"], capsys)
    assert code == 0
    assert "attacker wins" in out and "Expected survivors" in out and "TUV swing" in out
    assert "method: exact" in out


def test_land_battles_keep_the_older_model(capsys: pytest.CaptureFixture[str]) -> None:
    data = odds_json(["-a", "2 inf, 1 arm", "-d", "2 inf"], capsys)
    old = battle_odds(Battle.make("aarhe", {"inf": 2, "arm": 1}, {"inf": 2}))
    assert data["attacker_win"] == old.attacker_win and data["defender_win"] == old.defender_win


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (["--sea", "-a", "1 dd", "-d", "1 dd", "--order", "dd,blimp"], "unknown unit 'blimp'"),
        (["--sea", "-a", "1 dd", "-d", "1 dd", "--retreat-after", "2"], "--retreat-after is not supported"),
        (["--sea", "-a", "1 dd", "-d", "1 dd", "--terrain", "snow"], "--terrain applies only to land"),
        (["--sea", "-a", "1 inf", "-d", "1 dd"], "cannot fight in a sea battle"),
        (["-a", "1 inf", "-d", "1 inf", "--bombard", "1 dd"], "cannot bombard under aarhe"),
        (["-a", "1 ftr", "-d", "1 inf", "--amphibious"], "needs attacking land units"),
        (["-a", "1 inf", "-d", "1 inf", "--bombard", "1 zeppelin"], "unknown unit 'zeppelin'"),
        (["--sea", "-a", "40 dd", "-d", "30 dd"], "70 units in one aarhe sea battle"),
        (["-a", "1 inf", "-d", "1 inf", "--overland", "2 inf"], "--overland: 2 infantry is not among"),
        (["-a", "1 inf, 1 arm", "-d", "1 inf", "--overland", "1 inf, 1 arm"], "needs attacking land units"),
        (
            ["--sea", "-a", "1 dd", "-d", "1 dd", "--overland", "1 inf"],
            "--overland applies only to amphibious",
        ),
        (["--sea", "-a", "1 dd", "-d", "1 dd", "--trials", "50000"], "--trials above 20,000"),
    ],
)
def test_bad_requests_get_one_line_and_exit_2(
    args: list[str], needle: str, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run(args, capsys)
    assert code == 2 and not out
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and needle in lines[0], err
    assert "Traceback" not in err


@pytest.mark.parametrize("flag", [["--amphibious"], ["--overland", "1 inf"]])
def test_landing_flags_are_refused_outside_aarhe(flag: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as info:
        main(["aa", "odds", "-a", "1 inf", "-d", "1 inf", *flag])
    _, err = capsys.readouterr()
    assert info.value.code == 2 and err.startswith(f"error: {flag[0]} applies only to the aarhe")


@pytest.mark.parametrize(
    ("attacker", "defender"),
    [
        ({"inf": 2, "ftr": 1}, {"inf": 2, "id": 1}),
        ({"inf": 1, "ftr": 1}, {"inf": 1, "ftr": 1}),
        ({"arm": 2}, {"inf": 1, "art": 1}),
        ({"harm": 1, "inf": 1}, {"inf": 2}),
    ],
)
def test_older_land_model_agrees_with_the_machine(attacker: dict[str, int], defender: dict[str, int]) -> None:
    # Why land battles may stay on the older model: overland (no landing), the variant's machine
    # with its default policy gives the same chances on ID fire, dogfights, tank-first hits and
    # two-hit heavy tanks.
    game, where = arena(attacker, defender)
    game.d["amphibious"] = {}
    machine = machine_odds.exact_odds(game, where)
    old = battle_odds(Battle.make("aarhe", attacker, defender))
    assert abs(machine.attacker - old.attacker_win) < 1e-9
    assert abs(machine.defender - old.defender_win) < 1e-9
    assert abs(machine.draw - old.draw - old.undecided) < 1e-9


def test_size_guard_switches_to_seeded_battles_or_refuses_exact(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(aarhe_battle, "EXACT_STATES", 5)
    args = ["--sea", "-a", "1 dd", "-d", "1 trn", "--trials", "50", "--seed", "2"]
    data = odds_json(args, capsys)
    assert data["method"] == "monte-carlo" and "size guard" in data["note"]
    game, where = arena({"dd": 1}, {"trn": 1}, sea=True)
    assert_same(data, machine_odds.simulate_odds(game, where, trials=50, seed=2))
    code, _, err = run([*args, "--method", "exact"], capsys)
    assert code == 2 and err.startswith("error: this battle is too large to solve exactly")


def test_a_landing_in_the_mountains_is_fought_where_terrain_counts(
    capsys: pytest.CaptureFixture[str],
) -> None:
    data = odds_json(["-a", "2 inf", "-d", "1 inf", "--amphibious", "--terrain", "mountain"], capsys)
    game, where = arena({"inf": 2}, {"inf": 1}, terrain="mountain")
    assert where in tables().terrain_minus_one
    assert arena({"inf": 2}, {"inf": 1})[1] not in tables().terrain_minus_one
    assert_same(data, machine_odds.battle_odds(game, where))


def test_order_of_loss_is_a_casualty_policy(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["-a", "2 inf, 1 arm, 1 ftr", "-d", "2 inf, 1 art", "--amphibious"]
    tanks_first = odds_json([*args, "--order", "arm"], capsys)
    game, where = arena({"inf": 2, "arm": 1, "ftr": 1}, {"inf": 2, "art": 1})
    assert_same(tanks_first, machine_odds.battle_odds(game, where, policy=order_policy(("arm",))))
    default = odds_json(args, capsys)
    # losing the tank before the infantry keeps more infantry and fewer tanks than the default
    assert tanks_first["attacker_survivors"]["arm"] < default["attacker_survivors"]["arm"]
    assert tanks_first["attacker_survivors"]["inf"] > default["attacker_survivors"]["inf"]
    assert odds_json([*args, "--order", "inf"], capsys)["attacker_win"] == default["attacker_win"]


def test_overland_units_join_a_landing_without_coming_ashore(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["-a", "2 inf, 1 arm", "-d", "2 inf", "--bombard", "1 bb"]
    mixed = odds_json([*args, "--overland", "1 arm"], capsys)
    game, where = arena({"inf": 2, "arm": 1}, {"inf": 2}, bombard={"bb": 1}, overland={"arm": 1})
    assert game.d["amphibious"] == {where: {"infantry": 2}}
    assert_same(mixed, machine_odds.battle_odds(game, where))
    # a tank that came by land fires in the first cycle instead of waiting to come ashore
    assert mixed["attacker_win"] > odds_json(args, capsys)["attacker_win"]
