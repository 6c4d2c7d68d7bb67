"""Die-roll arithmetic (LR 2.8), checks (LR 5.3), combat results (LR 10.7), exactly.

A roll of several dice counts the highest die, plus one for each six beyond the first; modifiers
apply to that result, which is never below 1. Crisis rolls are read differently (LR 3.7.4).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from math import comb

SUCCESS = 5
"""An effectiveness check succeeds on a modified result of 5 or more (LR 5.3)."""


def dice_pool(dice: int, lost: int = 0) -> tuple[int, int]:
    """How many dice to roll and the modifier, after losing ``lost`` dice (LR 2.8).

    A roller never drops below one die: each die it would lose beyond that becomes -1.

    >>> dice_pool(2, 1)
    (1, 0)
    >>> dice_pool(1, 1)
    (1, -1)
    """
    if dice < 1:
        raise ValueError(f"a roll needs at least one die before losses, not {dice}")
    if lost < 0:
        raise ValueError(f"cannot lose a negative number of dice ({lost})")
    remaining = dice - lost
    return (remaining, 0) if remaining >= 1 else (1, remaining - 1)


def rolled(dice: int, modifier: int = 0) -> tuple[int, int]:
    """The dice actually rolled and the modifier for a count of dice that may be zero (LR 2.8).

    A roller reduced to zero dice rolls one die at -1.

    >>> rolled(0, 1), rolled(3, 1)
    ((1, 0), (3, 1))
    """
    if dice < 0:
        raise ValueError(f"cannot roll a negative number of dice ({dice})")
    count, penalty = dice_pool(1, 1) if dice == 0 else dice_pool(dice)
    return count, modifier + penalty


def roll_result(dice: Sequence[int], modifier: int = 0) -> int:
    """The modified result of a roll (LR 2.8): highest die, +1 per extra six, at least 1.

    >>> roll_result([3, 6, 6])
    7
    """
    if not dice:
        raise ValueError("a roll has at least one die")
    if any(not 1 <= die <= 6 for die in dice):
        raise ValueError(f"dice show 1 to 6, got {list(dice)}")
    sixes = sum(1 for die in dice if die == 6)
    natural = 6 + sixes - 1 if sixes else max(dice)
    return max(1, natural + modifier)


def check_succeeds(dice: Sequence[int], modifier: int = 0) -> bool:
    """Whether an effectiveness check with these dice succeeds (LR 5.3: modified result of 5+)."""
    return roll_result(dice, modifier) >= SUCCESS


def crisis_key(first: int, second: int) -> str:
    """The crisis table entry two dice point to: high die first (LR 3.7.4).

    >>> crisis_key(2, 4)
    '4-2'
    """
    for die in (first, second):
        if not 1 <= die <= 6:
            raise ValueError(f"dice show 1 to 6, got {die}")
    return f"{max(first, second)}-{min(first, second)}"


@cache
def result_distribution(dice: int, modifier: int = 0) -> dict[int, Fraction]:
    """Exact probabilities of each modified result of rolling ``dice`` dice (LR 2.8)."""
    if dice < 1:
        raise ValueError(f"a roll needs at least one die, not {dice}")
    total = 6**dice
    natural: dict[int, int] = {}
    for top in range(1, 6):  # no six: the highest die is ``top``
        natural[top] = top**dice - (top - 1) ** dice
    for sixes in range(1, dice + 1):
        natural[5 + sixes] = comb(dice, sixes) * 5 ** (dice - sixes)
    result: dict[int, Fraction] = {}
    for value, ways in natural.items():
        key = max(1, value + modifier)
        result[key] = result.get(key, Fraction(0)) + Fraction(ways, total)
    return dict(sorted(result.items()))


def success_chance(dice: int, modifier: int = 0) -> Fraction:
    """The exact chance that an effectiveness check with ``dice`` dice and ``modifier`` succeeds
    (LR 5.3: a modified result of 5 or more, LR 2.8 arithmetic).

    >>> success_chance(1), success_chance(2, 1)
    (Fraction(1, 3), Fraction(3, 4))
    """
    return sum(
        (p for value, p in result_distribution(dice, modifier).items() if value >= SUCCESS), Fraction(0)
    )


def combat_losses(winner: int, loser: int) -> int:
    """Losses the loser of a combat takes: winner's score over loser's, fractions dropped (LR 10.7).

    >>> combat_losses(7, 2), combat_losses(5, 3), combat_losses(7, 1)
    (3, 1, 7)
    """
    if loser < 1 or winner < loser:
        raise ValueError(
            f"the winner's score ({winner}) must be at least the loser's ({loser}), and both at least 1"
        )
    return winner // loser


@dataclass(frozen=True)
class CombatOdds:
    """The exact outcome distribution of one combat roll-off (LR 10.7).

    ``losses`` maps each number of losses to its probability, over all outcomes: on a win it is
    the loser's losses, on a tie both sides take 1.
    """

    attacker_wins: Fraction
    defender_wins: Fraction
    tie: Fraction
    defender_losses: dict[int, Fraction]
    attacker_losses: dict[int, Fraction]

    def loser_losses(self) -> dict[int, Fraction]:
        """Distribution of the losing side's losses, given that the combat was not a tie."""
        decided = self.attacker_wins + self.defender_wins
        merged: dict[int, Fraction] = {}
        for table in (self.defender_losses, self.attacker_losses):
            for losses, p in table.items():
                if losses:
                    merged[losses] = merged.get(losses, Fraction(0)) + p
        if not decided:
            return {}
        return {k: v / decided for k, v in sorted(merged.items())}


def combat_odds(attacker_dice: int, attacker_mod: int, defender_dice: int, defender_mod: int) -> CombatOdds:
    """Enumerate every pair of modified results and the losses each side takes (LR 10.7)."""
    attack = result_distribution(attacker_dice, attacker_mod)
    defend = result_distribution(defender_dice, defender_mod)
    wins = defeats = ties = Fraction(0)
    defender_losses: dict[int, Fraction] = {}
    attacker_losses: dict[int, Fraction] = {}
    for a, pa in attack.items():
        for d, pd in defend.items():
            p = pa * pd
            if a > d:
                wins += p
                losses = combat_losses(a, d)
                defender_losses[losses] = defender_losses.get(losses, Fraction(0)) + p
            elif d > a:
                defeats += p
                losses = combat_losses(d, a)
                attacker_losses[losses] = attacker_losses.get(losses, Fraction(0)) + p
            else:
                ties += p
    return CombatOdds(
        attacker_wins=wins,
        defender_wins=defeats,
        tie=ties,
        defender_losses=dict(sorted(defender_losses.items())),
        attacker_losses=dict(sorted(attacker_losses.items())),
    )
