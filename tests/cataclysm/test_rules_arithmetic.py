"""The Living Rules' worked examples for dice, checks, combat results and Sudden Death."""

from __future__ import annotations

from fractions import Fraction
from itertools import product

import pytest

from grandstrategy.cataclysm.module import load_module
from grandstrategy.cataclysm.module.schema import Commitment, Ideology
from grandstrategy.cataclysm.rules.arithmetic import (
    Standing,
    builds,
    effectiveness_order,
    military_actions,
    sudden_death_continues,
)
from grandstrategy.cataclysm.rules.dice import (
    check_succeeds,
    combat_losses,
    combat_odds,
    crisis_key,
    dice_pool,
    result_distribution,
    roll_result,
)


def test_three_dice_with_two_sixes_is_seven_lr_l657() -> None:
    assert roll_result([3, 6, 6]) == 7
    assert check_succeeds([3, 6, 6])


def test_one_die_losing_a_die_rolls_at_minus_one_lr_l659() -> None:
    assert dice_pool(1, 1) == (1, -1)
    assert dice_pool(2, 1) == (1, 0)
    assert roll_result([1], -1) == 1  # never below 1 (LR 2.8)


def test_effectiveness_check_needs_five() -> None:
    assert not check_succeeds([4, 4])
    assert check_succeeds([5])
    assert not check_succeeds([5], -1)  # e.g. resistance 1: Italy's diplomacy on Yugoslavia, LR L1451


def test_crisis_dice_are_read_high_low_lr_l803() -> None:
    assert crisis_key(2, 4) == "4-2"
    assert crisis_key(6, 6) == "6-6"


@pytest.mark.parametrize(
    ("winner", "loser", "losses"), [(7, 2, 3), (5, 2, 2), (5, 3, 1), (7, 1, 7), (4, 4, 1)]
)
def test_loss_arithmetic_lr_l2099_2103(winner: int, loser: int, losses: int) -> None:
    assert combat_losses(winner, loser) == losses


def test_land_operation_example_roll_lr_l2231() -> None:
    # Germany 3 dice (2 + air superiority) roll 6, 6, 4; Poland 1 die (armour superiority) rolls 3
    assert combat_losses(roll_result([6, 6, 4]), roll_result([3])) == 2


def test_result_distribution_matches_brute_force() -> None:
    for dice in range(1, 5):
        for modifier in (-2, 0, 3):
            counted: dict[int, Fraction] = {}
            for faces in product(range(1, 7), repeat=dice):
                value = roll_result(faces, modifier)
                counted[value] = counted.get(value, Fraction(0)) + Fraction(1, 6**dice)
            assert result_distribution(dice, modifier) == counted


def test_combat_odds_sum_to_one_and_agree_with_enumeration() -> None:
    odds = combat_odds(3, 0, 1, 0)
    assert odds.attacker_wins + odds.defender_wins + odds.tie == 1
    wins = sum(
        Fraction(1, 6**4)
        for faces in product(range(1, 7), repeat=4)
        if roll_result(faces[:3]) > roll_result(faces[3:])
    )
    assert odds.attacker_wins == wins
    assert sum(odds.loser_losses().values()) == 1


def test_sudden_death_example_lr_l831() -> None:
    commitment = {
        "france": Commitment.REARMAMENT,
        "uk": Commitment.MOBILIZATION,
        "germany": Commitment.MOBILIZATION,
    }
    assert sudden_death_continues({"france": 1, "uk": 2, "germany": 3}, commitment)
    assert not sudden_death_continues({"france": 1, "uk": 2, "germany": 2}, commitment)
    assert sudden_death_continues({"x": 4}, {"x": Commitment.TOTAL_WAR})
    assert not sudden_death_continues({"x": 3}, {"x": Commitment.TOTAL_WAR})


def test_civilian_builds_round_down_lr_l1006() -> None:
    card = load_module().powers["france"].status_card
    assert builds(3, card[Commitment.CIVILIAN].conversion) == 1
    assert (
        builds(2, card[Commitment.MOBILIZATION].conversion) == 4
    )  # LR L1042: Germany's 2 resources -> 4 builds


def test_military_actions_per_offensive_lr_l1700() -> None:
    card = load_module().powers["soviet-union"].status_card
    assert military_actions(1, card[Commitment.TOTAL_WAR].military_actions) == 3
    assert military_actions(1, card[Commitment.CIVILIAN].military_actions) == 0
    assert military_actions(2, card[Commitment.CIVILIAN].military_actions) == 1  # LR L884


def test_order_of_play_ties_lr_3_1() -> None:
    powers = [
        Standing("france", 1, Ideology.DEMOCRACY),
        Standing("italy", 1, Ideology.FASCISM),
        Standing("uk", 2, Ideology.DEMOCRACY),
        Standing("germany", 3, Ideology.FASCISM),
        Standing("ussr", 1, Ideology.COMMUNISM),
    ]
    assert effectiveness_order(powers, decreasing=False) == [
        ["france"],
        ["ussr"],
        ["italy"],
        ["uk"],
        ["germany"],
    ]
    assert effectiveness_order(powers, decreasing=True) == [
        ["germany"],
        ["uk"],
        ["italy"],
        ["ussr"],
        ["france"],
    ]
    same = [Standing("germany", 2, Ideology.FASCISM), Standing("japan", 2, Ideology.FASCISM)]
    assert effectiveness_order(same, decreasing=True) == [["germany", "japan"]]


def test_odds_command_bare_numbers(cli) -> None:  # type: ignore[no-untyped-def]
    data = cli(
        "cataclysm",
        "odds",
        "--attacker-dice",
        "3",
        "--attacker-mod",
        "1",
        "--defender-dice",
        "2",
        "--defender-mod",
        "-1",
        "--json",
    ).json()
    assert data["method"] == "exact"
    assert abs(data["attacker_wins"] + data["defender_wins"] + data["tie"] - 1) < 1e-12
    assert abs(sum(data["losses"].values()) - 1) < 1e-12
    exact = combat_odds(3, 1, 2, -1)
    assert Fraction(data["exact"]["attacker_wins"]) == exact.attacker_wins


def test_odds_command_rejects_negative_dice(cli) -> None:  # type: ignore[no-untyped-def]
    result = cli("cataclysm", "odds", "--attacker-dice", "-1", "--defender-dice", "1")
    assert result.code == 2 and "Traceback" not in result.err
