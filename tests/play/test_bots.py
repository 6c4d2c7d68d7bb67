"""Bots: always legal, deterministic, and the heuristic one plays better."""

from __future__ import annotations

from grandstrategy.core.rng import Rng
from grandstrategy.core.session import DecisionPoint, Match
from grandstrategy.play.bots import HeuristicBot, RandomBot, derive_seed, option_prior
from grandstrategy.play.games import invariant_problems, load_ruleset
from grandstrategy.play.simulate import seats_for, simulate

from .conftest import SCENARIO


def test_derive_seed_is_stable() -> None:
    assert derive_seed(1, "a", 2) == derive_seed(1, "a", 2)
    assert derive_seed(1, "a", 2) != derive_seed(1, "a", 3)
    assert derive_seed(0) == 0x91D6039A01F57163  # pinned: the same number on every Python


def test_random_bot_is_uniform_and_repeatable() -> None:
    match = Match(load_ruleset("cataclysm"), seed=1, options={"scenario": SCENARIO})
    decision = match.decision()
    assert decision is not None
    bot = RandomBot(9)
    picks = [bot.choose(match.state, decision, ply=p) for p in range(600)]
    assert picks == [RandomBot(9).choose(match.state, decision, ply=p) for p in range(600)]
    counts = {a: picks.count(a) for a in decision.legal}
    assert len(counts) == len(decision.legal)
    assert min(counts.values()) > 600 / len(decision.legal) / 2


def test_heuristic_bot_plays_legal_moves_and_keeps_invariants() -> None:
    match = Match(load_ruleset("cataclysm"), seed=4, options={"scenario": SCENARIO})
    bot = HeuristicBot(4)
    for _ in range(150):
        decision = match.decision()
        if decision is None:
            break
        action = bot.choose(match.state, decision, ply=len(match.log))
        assert action in decision.legal
        match.play(decision.seat, action)
        assert invariant_problems(match.state) == []


def test_heuristic_bot_is_deterministic() -> None:
    def run() -> list[str]:
        match = Match(load_ruleset("cataclysm"), seed=2, options={"scenario": SCENARIO})
        bot, chosen = HeuristicBot(7), []
        for _ in range(60):
            decision = match.decision()
            if decision is None:
                break
            action = bot.choose(match.state, decision, ply=len(match.log))
            chosen.append(str(action))
            match.play(decision.seat, action)
        return chosen

    assert run() == run()


def test_unknown_options_are_neutral_and_known_ones_are_nudged() -> None:
    match = Match(load_ruleset("cataclysm"), seed=1, options={"scenario": SCENARIO})
    state = match.state
    assert option_prior(state, "germany", "teleport to the moon") == 0.0
    assert option_prior(state, "germany", "") == 0.0
    assert option_prior(state, "germany", "forfeit") < 0 < option_prior(state, "germany", "play")
    assert option_prior(state, "germany", "attack poland") == 0.0  # no odds helper: neutral


def test_heuristic_bot_handles_a_made_up_decision() -> None:
    """A decision whose options the bot has never seen: it still answers with one of them."""
    match = Match(load_ruleset("cataclysm"), seed=3, options={"scenario": SCENARIO})
    decision = match.decision()
    assert decision is not None
    single = DecisionPoint(decision.seat, decision.legal[:1], decision.phase)
    assert HeuristicBot(1).choose(match.state, single) == decision.legal[0]
    rng = Rng(5)
    shuffled = list(decision.legal)
    for i in range(len(shuffled) - 1, 0, -1):
        j = rng.below(i + 1)
        shuffled[i], shuffled[j] = shuffled[j], shuffled[i]
    assert (
        HeuristicBot(1).choose(match.state, DecisionPoint(decision.seat, tuple(shuffled))) in decision.legal
    )


def test_heuristic_fascists_score_more_than_random_ones() -> None:
    """Small and fast sanity check; the real comparison is benchmarks/bots_vs_random.py."""
    options = {"scenario": SCENARIO}
    random = simulate(
        "cataclysm", options=options, games=4, seed=21, seats=seats_for("cataclysm", options, "random")
    )
    smart = simulate(
        "cataclysm",
        options=options,
        games=4,
        seed=21,
        seats=seats_for("cataclysm", options, "fascism=heuristic"),
    )
    assert smart.totals()["mean_vp"]["fascism"] > random.totals()["mean_vp"]["fascism"]
