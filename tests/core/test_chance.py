"""Chance nodes, exact sampling and the chance service's event log."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction

import pytest

from grandstrategy.core.chance import ChanceEvent, ChanceNode, ChanceService, sample_index
from grandstrategy.core.ids import CHANCE, Seat
from grandstrategy.core.rng import Rng
from grandstrategy.core.session import Match

from .playout import steps
from .toy_game import PIG


def test_die_node_is_exact() -> None:
    node = ChanceNode.die("attack")
    assert [o for o, _ in node.outcomes] == ["1", "2", "3", "4", "5", "6"]
    assert sum(p for _, p in node.outcomes) == 1
    assert node.probability("4") == Fraction(1, 6)
    assert node.probability("7") == 0


def test_cup_node_ignores_empty_counters_and_insertion_order() -> None:
    a = ChanceNode.from_counts("cup", {"b": 2, "a": 1, "z": 0})
    b = ChanceNode.from_counts("cup", {"z": 0, "a": 1, "b": 2})
    assert a == b
    assert a.outcomes == (("a", Fraction(1, 3)), ("b", Fraction(2, 3)))


@pytest.mark.parametrize(
    "outcomes",
    [
        (),
        (("a", Fraction(1, 2)), ("b", Fraction(1, 3))),
        (("a", Fraction(1, 2)), ("a", Fraction(1, 2))),
        (("a", Fraction(0)), ("b", Fraction(1))),
        (("a", 0.5), ("b", 0.5)),
        ((" a", Fraction(1)),),
    ],
)
def test_invalid_nodes_are_rejected(outcomes: tuple[tuple[str, Fraction], ...]) -> None:
    with pytest.raises(ValueError):
        ChanceNode("die", "bad", outcomes)


def test_unknown_kind_and_empty_cup_are_rejected() -> None:
    with pytest.raises(ValueError, match="kind"):
        ChanceNode("coin", "x", (("h", Fraction(1)),))
    with pytest.raises(ValueError, match="empty"):
        ChanceNode.from_counts("cup", {"a": 0})


def test_sample_index_frequencies_follow_uneven_probabilities() -> None:
    rng = Rng(11)
    probs = [Fraction(1, 10), Fraction(3, 10), Fraction(3, 5)]
    n = 30_000
    counts = Counter(sample_index(rng, probs) for _ in range(n))
    chi2 = sum((counts[i] - n * p) ** 2 / (n * p) for i, p in enumerate(probs))
    assert chi2 < 20  # 2 degrees of freedom


def test_service_records_every_draw_in_order() -> None:
    service = ChanceService(3)
    faces = service.roll(3, label="attack")
    chit = service.draw({"gold": 1, "lead": 4}, label="cup", private_to=Seat("north"))
    pick = service.choose(["east", "west"], label="first player")
    one = service.sample("table", "crisis", [("war", Fraction(1, 4)), ("peace", Fraction(3, 4))])
    assert all(1 <= f <= 6 for f in faces)
    assert [e.seq for e in service.events] == [0, 1, 2, 3]
    assert [e.kind for e in service.events] == ["dice", "draw", "choice", "table"]
    assert service.events[0].outcome == " ".join(map(str, faces))
    assert service.events[1] == ChanceEvent(1, "draw", "cup", chit, Seat("north"))
    assert (service.events[2].outcome, service.events[3].outcome) == (pick, one)


def test_same_seed_same_draws_and_rollback_rewinds() -> None:
    a, b = ChanceService(5), ChanceService(5)
    assert [a.roll(label="x") for _ in range(20)] == [b.roll(label="x") for _ in range(20)]
    mark = a.checkpoint()
    ahead = [a.roll(2, label="y") for _ in range(5)]
    a.rollback(mark)
    assert len(a.events) == 20
    assert [a.roll(2, label="y") for _ in range(5)] == ahead
    assert [ChanceService(6).roll(label="x") for _ in range(20)] != [
        ChanceService(5).roll(label="x") for _ in range(20)
    ]


def test_probabilities_sum_to_one_at_every_chance_node_of_random_playouts() -> None:
    nodes = 0
    for seed in range(40):
        match = Match(PIG, seed=seed, options={"target": 15})
        for _ in steps(match, Rng(seed + 1000)):
            pass
        # Re-walk the log on a bare state and check each chance node it passes.
        state = PIG.new_state({"target": 15})
        for entry in match.log:
            if isinstance(entry, ChanceEvent):
                assert state.to_act() is CHANCE
                node = state.chance_node()
                assert sum(p for _, p in node.outcomes) == 1
                assert node.probability(entry.outcome) > 0
                state.apply_chance(entry.outcome)
                nodes += 1
            else:
                state.apply(PIG.parse_action(entry.action))
        assert state.state_hash() == match.state_hash()
    assert nodes > 200
