"""The search bot (information-set MCTS): legal, reproducible, finds the clearly better option."""

from __future__ import annotations

import pytest

from core.toy_game import NORTH, PIG, Hold
from grandstrategy.cataclysm.engine import CataclysmGame
from grandstrategy.cataclysm.module import load_module
from grandstrategy.cataclysm.state import Unit, new_state
from grandstrategy.core.rng import Rng
from grandstrategy.core.session import DecisionPoint, Match
from grandstrategy.play.bots import HeuristicBot, RandomBot, make_bot
from grandstrategy.play.games import attack_odds, invariant_problems, load_ruleset
from grandstrategy.play.search import SearchBot, determinize, matters
from grandstrategy.play.seats import parse_kind
from grandstrategy.play.simulate import seats_for
from grandstrategy.play.tournament import bot_kinds

from .conftest import SCENARIO


def _play(match: Match, bot: SearchBot, moves: int) -> list[str]:
    """Let the search bot play every seat for ``moves`` decisions; return its choices."""
    chosen = []
    for _ in range(moves):
        decision = match.decision()
        if decision is None:
            break
        action = bot.choose(match.state, decision, ply=len(match.log))
        assert action in decision.legal
        chosen.append(str(action))
        match.play(decision.seat, action)
    return chosen


def test_search_bot_is_registered_as_a_kind_of_seat_and_bot() -> None:
    assert isinstance(make_bot("bot:search", 3), SearchBot)
    assert parse_kind("search") == "bot:search" == parse_kind("bot:search")
    assert bot_kinds("search,heuristic") == ("bot:search", "bot:heuristic")
    options = {"scenario": SCENARIO}
    assert set(seats_for("cataclysm", options, "search").values()) == {"bot:search"}
    mixed = seats_for("cataclysm", options, "fascism=search")
    assert mixed["germany"] == "bot:search" and mixed["france"] == "bot:random"


def test_search_bot_plays_legal_moves_and_is_deterministic_for_a_seed() -> None:
    def run(seed: int) -> tuple[list[str], int]:
        match = Match(load_ruleset("cataclysm"), seed=5, options={"scenario": SCENARIO})
        bot = SearchBot(seed, simulations=4, rollout=4)
        return _play(match, bot, 40), bot.searched

    first, searched = run(11)
    assert len(first) == 40
    assert searched >= 3  # political actions were searched, not only answered by the heuristic
    assert run(11) == (first, searched)


def test_only_political_and_military_actions_are_searched_in_cataclysm() -> None:
    """Elsewhere the search bot answers as the heuristic bot with its seed would."""
    match = Match(load_ruleset("cataclysm"), seed=5, options={"scenario": SCENARIO})
    searcher, heuristic = SearchBot(11, simulations=2, rollout=2), HeuristicBot(11)
    for _ in range(60):
        decision = match.decision()
        assert decision is not None
        ply = len(match.log)
        before = searcher.searched
        action = searcher.choose(match.state, decision, ply=ply)
        options = [str(a).partition(": ")[2] for a in decision.legal]
        assert (searcher.searched > before) == (len(options) > 1 and matters(match.state, options))
        if searcher.searched == before:
            assert action == heuristic.choose(match.state, decision, ply=ply)
        match.play(decision.seat, action)
    assert 0 < searcher.searched < 60


def test_a_time_budget_still_gives_a_legal_choice() -> None:
    """The non-reproducible budget: only legality can be asserted (no timings in tests)."""
    match = Match(load_ruleset("cataclysm"), seed=5, options={"scenario": SCENARIO})
    decision = match.decision()
    assert decision is not None
    assert SearchBot(1, seconds=0.05).choose(match.state, decision, ply=0) in decision.legal


def test_bad_settings_are_refused() -> None:
    with pytest.raises(ValueError, match="simulations"):
        SearchBot(1, simulations=0)
    with pytest.raises(ValueError, match="time budget"):
        SearchBot(1, seconds=-1.0)
    with pytest.raises(ValueError, match="policy"):
        SearchBot(1, policy="oracle")


def test_determinizing_a_cataclysm_position_changes_nothing_that_a_seat_can_see() -> None:
    """The cup is a sorted multiset drawn by its counts (LR 1.4 hides only its contents): the
    copy equals the position; the unknown future is the chance the simulations sample."""
    match = Match(load_ruleset("cataclysm"), seed=5, options={"scenario": SCENARIO})
    copy = determinize(match.state, Rng(3))
    assert copy is not match.state
    assert copy.state_hash() == match.state.state_hash()


def test_pig_search_banks_a_sure_win_rather_than_rolling() -> None:
    """Holding now wins the game; rolling risks a 1 (the priors know neither option). The heuristic
    bot seeded 2 sees a tie and rolls; the search overrules its base policy once enough simulations
    have met a 1 (with fewer, it keeps the heuristic's choice, which it trusts on a tie)."""
    state = PIG.new_state({"cup": {}})
    state.d.update(current=NORTH, turn=3, pending=None, turn_total=6)
    state.d["scores"][NORTH] = 15
    decision = DecisionPoint(NORTH, tuple(state.legal_actions()))
    assert HeuristicBot(2).choose(state, decision, ply=7) != Hold()
    for seed in range(3):
        assert SearchBot(seed, simulations=64).choose(state, decision, ply=7) == Hold()


def _attack_position() -> CataclysmGame:
    """Germany's military action (LR 8.0) with two tank armies, an army and an air force in
    Silesia and Poland's minor army gone: the operation against Poland is the good option."""
    module = load_module()
    game = CataclysmGame(module, new_state(module, SCENARIO))
    units = [("tank-army", 1), ("tank-army", 2), ("infantry-army", 3), ("tactical-air", 4)]
    game.state.units = [Unit(number, "germany", kind, "silesia") for kind, number in units]
    game.state.next_unit_id = len(units) + 1
    game.state.minor_armies.remove("poland")
    game.push("military-action", power="germany", left=1, deployed=[], only=None)
    game.run()
    return game


def test_search_attacks_when_the_operation_is_likely_to_win_even_without_priors() -> None:
    """No progressive bias: the simulations alone prefer the operation to forfeiting or deploying."""
    game = _attack_position()
    assert game.pending is not None
    options = list(game.pending["options"])
    assert options == ["forfeit", "deploy", "land operation against Poland"]
    assert (attack_odds(game, "germany", options[2]) or 0.0) > 0.8
    decision = DecisionPoint(game.to_act(), tuple(game.legal_actions()))  # type: ignore[arg-type]
    for seed in range(2):
        chosen = SearchBot(seed, simulations=8, bias=0.0).choose(game, decision, ply=0)
        assert str(chosen).endswith("land operation against Poland")


def test_a_seeded_game_with_the_search_bot_on_one_seat_ends_with_the_invariants_holding() -> None:
    match = Match(load_ruleset("cataclysm"), seed=8, options={"scenario": SCENARIO})
    searcher = SearchBot(8, simulations=3, rollout=3)
    others = RandomBot(8)
    for _ in range(5000):
        decision = match.decision()
        if decision is None:
            break
        bot = searcher if decision.seat == "italy" else others
        action = bot.choose(match.state, decision, ply=len(match.log))
        assert action in decision.legal
        match.play(decision.seat, action)
        if bot is searcher:
            assert invariant_problems(match.state) == []
    assert match.is_terminal()
    assert invariant_problems(match.state) == []
    assert searcher.sims > 0
