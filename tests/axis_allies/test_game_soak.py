"""A handful of short seeded random games of aa-revised with every invariant checked after every
decision, unit conservation included (benchmarks/aa_soak.py plays two hundred full ones)."""

from __future__ import annotations

import pytest

from grandstrategy.axis_allies.game import AA_REVISED, AAGame
from grandstrategy.axis_allies.game.invariants import conservation_problems, problems, unit_counts
from grandstrategy.core.rng import Rng
from grandstrategy.core.session import Match


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_short_random_games_keep_every_invariant(seed: int) -> None:
    match = Match(AA_REVISED, seed=seed, options={"max_rounds": 2})
    chooser = Rng(seed + 1000)
    game = match.state
    assert isinstance(game, AAGame)
    counts = unit_counts(game)
    decisions = 0
    while (decision := match.decision()) is not None:
        action = decision.legal[chooser.below(len(decision.legal))]
        match.play(decision.seat, action)
        decisions += 1
        game = match.state
        assert isinstance(game, AAGame)
        now = unit_counts(game)
        broken = problems(game) + conservation_problems(counts, now, action.notation())
        assert not broken, (seed, decisions, action.notation(), broken)
        counts = now
    assert game.d["result"] is not None and game.d["result"]["round"] <= 2
    assert decisions > 100


def test_conservation_catches_a_unit_from_nowhere() -> None:
    game = AA_REVISED.new_state({})
    assert isinstance(game, AAGame)
    before = unit_counts(game)
    game.add("germany", "germans:armour:2:0")
    assert conservation_problems(before, unit_counts(game), "germans: done") == [
        "1 axis armour appeared after 'germans: done'"
    ]
    assert conservation_problems(before, unit_counts(game), "germans: buy armour") == []
