"""The heuristic bot in A&A games: its choices rest on exact battle odds, and seeded games against
the random bot end in a victory-city win that saves, replays and simulates the same every time."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from tests.axis_allies.game_helpers import at, choose, fresh, options, put, roll

from grandstrategy.axis_allies.game import AA_REVISED
from grandstrategy.axis_allies.game.advice import attacker_chances, battle_at, option_odds
from grandstrategy.axis_allies.game.policy import choose as policy
from grandstrategy.cli import main
from grandstrategy.core import Match, loads_save, replay, save_game
from grandstrategy.play.bots import HeuristicBot, RandomBot, bot_seed
from grandstrategy.play.games import attack_odds
from grandstrategy.play.simulate import seats_for, simulate


def _empty_board_turn(power: str, phase: str):  # type: ignore[no-untyped-def]
    game = fresh()
    game.d["units"] = {}
    at(game, power, phase)
    return game


def test_bot_attacks_only_where_the_exact_odds_are_good() -> None:
    game = _empty_board_turn("germans", "combat-move")
    put(game, "ukraine-ssr", ("russians", "infantry", 2))
    put(game, "karelia-ssr", ("russians", "infantry", 12))  # far too strong to attack
    game.d["owner"]["belorussia"] = "germans"
    put(game, "eastern-europe", ("germans", "armour", 6))
    put(game, "balkans", ("germans", "infantry", 1))
    move = "move 6 armour eastern-europe -> ukraine-ssr"
    p = option_odds(game, "germans", move)
    assert p is not None and p > 0.95
    assert option_odds(game, "germans", "move 1 infantry balkans -> ukraine-ssr") == pytest.approx(
        attacker_chances(battle_at(game, "ukraine-ssr", {"infantry": 1}))[0]  # type: ignore[arg-type]
    )
    assert attack_odds(game, "germans", move) == p  # the play layer asks the same figure
    assert policy(game, "germans", options(game)) == move
    # One infantry alone against two would lose nearly always: the bot does not attack.
    weak = _empty_board_turn("germans", "combat-move")
    put(weak, "ukraine-ssr", ("russians", "infantry", 2))
    put(weak, "balkans", ("germans", "infantry", 1))
    assert "move 1 infantry balkans -> ukraine-ssr" in options(weak)
    assert policy(weak, "germans", options(weak)) == "done"


def test_bot_takes_the_casualty_that_keeps_the_best_odds_not_the_first_or_cheapest() -> None:
    game = _empty_board_turn("british", "combat-move")
    put(game, "sz-6", ("british", "destroyer", 2))
    put(game, "sz-5", ("germans", "transport", 1), ("germans", "submarine", 1))
    choose(game, "british", "move 2 destroyer sz-6 -> sz-5")
    choose(game, "british", "done")
    choose(game, "british", "fight sz-5")
    roll(game, 1, 6, 6, 6)  # one destroyer hits; the submarine and the transport miss
    assert game.to_act() == "germans"
    menu = options(game)
    assert menu == ["lose germans submarine", "lose germans transport"]  # the same price, 8 IPCs
    keep_sub = option_odds(game, "germans", "lose germans transport")
    keep_transport = option_odds(game, "germans", "lose germans submarine")
    assert keep_sub is not None and keep_transport is not None and keep_sub > keep_transport
    assert policy(game, "germans", menu) == "lose germans transport"


def test_bot_retreats_from_a_battle_it_is_losing() -> None:
    game = _empty_board_turn("russians", "combat-move")
    put(game, "caucasus", ("russians", "infantry", 3))
    put(game, "ukraine-ssr", ("germans", "infantry", 3))
    choose(game, "russians", "move 3 infantry caucasus -> ukraine-ssr")
    choose(game, "russians", "done")
    choose(game, "russians", "fight ukraine-ssr")
    roll(game, 6, 6, 6, 1, 1, 6)  # the attack misses; two defenders hit (taken without a choice)
    assert options(game) == ["press attack", "retreat to caucasus"]
    p = option_odds(game, "russians", "press attack")
    assert p is not None and p < 0.1
    assert policy(game, "russians", options(game)) == "retreat to caucasus"


def _heuristic_allies(seed: int) -> Match:
    """A whole game: heuristic allies against random axis, as ``simulate`` seats them."""
    match = Match(AA_REVISED, seed=seed, options={})
    seats = seats_for("aa-revised", {}, "allies=heuristic")
    bots = {
        seat: HeuristicBot(bot_seed(seed, seat))
        if seats.get(seat) == "bot:heuristic"
        else RandomBot(bot_seed(seed, seat))
        for seat in match.state.seats()
    }
    while (decision := match.decision()) is not None:
        match.play(decision.seat, bots[decision.seat].choose(match.state, decision, ply=len(match.log)))
    return match


def test_heuristic_allies_win_by_victory_cities_and_the_save_replays(tmp_path: Path) -> None:
    match = _heuristic_allies(7)
    result = match.state.d["result"]  # type: ignore[attr-defined]
    assert result["winner"] == "allies" and result["how"].endswith(" victory cities")
    assert int(result["how"].split()[0]) >= 9
    assert result["round"] < AA_REVISED.profile.default_max_rounds
    text = save_game(match, snapshot=True).dumps()
    again = replay(loads_save(text))
    assert again.state_hash() == match.state_hash() and again.state.is_terminal()
    save = tmp_path / "won.json"
    save.write_text(text, encoding="utf-8")
    with pytest.raises(SystemExit) as exit_info:
        main(["replay", str(save), "--verify"])
    assert exit_info.value.code in (0, None)


def test_simulate_with_a_seed_gives_the_same_victory_twice() -> None:
    seats = seats_for("aa-revised", {}, "allies=heuristic")
    first = simulate("aa-revised", options={}, games=1, seed=3, seats=seats, check=False)
    second = simulate("aa-revised", options={}, games=1, seed=3, seats=seats, check=False)
    one, two = first.games[0], second.games[0]
    assert one.winner == "allies" and one.end is not None and one.end.endswith(" victory cities")
    timeless = [{k: v for k, v in game.to_json().items() if k != "seconds"} for game in (one, two)]
    assert json.dumps(timeless[0], sort_keys=True) == json.dumps(timeless[1], sort_keys=True)
    assert one.log_hash == two.log_hash  # the whole log, every decision and die
