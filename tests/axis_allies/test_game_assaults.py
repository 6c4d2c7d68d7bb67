"""The heuristic bot's amphibious assaults (``axis_allies/game/assaults.py``): it loads transports,
sails and lands where the exact odds (with bombardment) are good, in positions built by hand; and
in seeded bot games it now lands from the sea, the same way every time."""

from __future__ import annotations

from tests.axis_allies.game_helpers import at, choose, fresh, options, put

from grandstrategy.axis_allies.game import AA_REVISED, AAGame
from grandstrategy.axis_allies.game.advice import attacker_chances, battle_at
from grandstrategy.axis_allies.game.assaults import landings
from grandstrategy.axis_allies.game.board import key
from grandstrategy.axis_allies.game.policy import ENOUGH, WORTH
from grandstrategy.axis_allies.game.policy import choose as policy
from grandstrategy.core import Match
from grandstrategy.core.chance import ChanceEvent
from grandstrategy.core.game import RuleSet
from grandstrategy.core.log import ActionEntry
from grandstrategy.play.bots import HeuristicBot, RandomBot, bot_seed
from grandstrategy.play.simulate import seats_for


def _british_combat_move(*hostile: str) -> AAGame:
    """An empty board in Britain's combat move where only ``hostile`` is German land."""
    game = fresh()
    game.d["units"] = {}
    for where, owner in game.d["owner"].items():
        if owner is not None:
            game.d["owner"][where] = "germans" if where in hostile else "british"
    at(game, "british", "combat-move")
    return game


def _play_out(game: AAGame, power: str, limit: int = 40) -> list[str]:
    """The policy's choices until it ends the combat move."""
    chosen: list[str] = []
    for _ in range(limit):
        option = policy(game, power, options(game))
        chosen.append(option)
        choose(game, power, option)
        if option == "done":
            return chosen
    raise AssertionError(f"the combat move did not end: {chosen}")


def _value(game: AAGame, where: str) -> float:
    from grandstrategy.axis_allies.game.policy import _value as value

    return value(game, where)


def test_bot_loads_a_transport_sails_and_lands_where_the_odds_are_good() -> None:
    game = _british_combat_move("western-europe", "algeria")
    put(game, "united-kingdom", ("british", "infantry", 2), ("british", "armour", 1))
    put(game, "sz-8", ("british", "transport", 1))
    put(game, "western-europe", ("germans", "infantry", 1))
    put(game, "algeria", ("germans", "infantry", 3))  # within reach too, but far too strong
    odds = attacker_chances(battle_at(game, "western-europe", {"armour": 1, "infantry": 1}))[0]  # type: ignore[arg-type]
    assert odds >= WORTH
    chosen = _play_out(game, "british")
    assert chosen[:3] == [
        "move 1 armour united-kingdom -> sz-8",  # the strongest attacker boards first
        "move 1 infantry united-kingdom -> sz-8",  # then what still fits (5 = 3 + 2)
        "move 1 transport sz-8 -> sz-7",
    ]
    assert sorted(chosen[3:]) == [
        "done",
        "move 1 armour sz-7 -> western-europe",
        "move 1 infantry sz-7 -> western-europe",
    ]
    assert game.d["amphibious"]["western-europe"] == {"armour": 1, "infantry": 1}
    assert game.d["battles"] == ["western-europe"]
    assert "algeria" not in game.d["battles"]


def test_no_landing_when_the_odds_are_poor() -> None:
    game = _british_combat_move("western-europe")
    put(game, "united-kingdom", ("british", "infantry", 2), ("british", "armour", 1))
    put(game, "sz-8", ("british", "transport", 1))
    put(game, "western-europe", ("germans", "infantry", 3))
    assert "move 1 armour united-kingdom -> sz-8" in options(game)
    assert landings(game, options(game), _value, worth=WORTH, enough=ENOUGH) == []
    assert policy(game, "british", options(game)) == "done"


def test_bombardment_from_the_landing_zone_counts_in_the_odds() -> None:
    def position(battleship: bool) -> AAGame:
        game = _british_combat_move("western-europe")
        put(game, "united-kingdom", ("british", "infantry", 2), ("british", "armour", 1))
        ships = [("british", "transport", 1), *([("british", "battleship", 1)] if battleship else [])]
        put(game, "sz-7", *ships)
        put(game, "western-europe", ("germans", "infantry", 2))
        return game

    without, with_ship = position(False), position(True)
    assert landings(without, options(without), _value, worth=WORTH, enough=ENOUGH) == []
    [best, *_] = landings(with_ship, options(with_ship), _value, worth=WORTH, enough=ENOUGH)
    assert (best.target, best.path, best.load) == (
        "western-europe",
        (),
        (("united-kingdom", "armour", 1), ("united-kingdom", "infantry", 1)),
    )
    chosen = _play_out(with_ship, "british")
    assert chosen[:2] == ["move 1 armour united-kingdom -> sz-7", "move 1 infantry united-kingdom -> sz-7"]
    assert "move 1 armour sz-7 -> western-europe" in chosen
    assert with_ship.d["bombard"]["western-europe"] == ["sz-7"]


def test_undefended_coast_is_taken_with_the_cheapest_unit() -> None:
    game = _british_combat_move("norway")  # German land without a unit in it
    put(game, "united-kingdom", ("british", "infantry", 1), ("british", "armour", 1))
    put(game, "sz-3", ("british", "transport", 1))
    chosen = _play_out(game, "british")
    assert chosen == [
        "move 1 infantry united-kingdom -> sz-3",
        "move 1 infantry sz-3 -> norway",
        "done",
    ]
    assert game.d["amphibious"]["norway"] == {"infantry": 1}


def test_a_transport_that_has_unloaded_takes_no_second_load() -> None:
    game = _british_combat_move("western-europe")
    put(game, "united-kingdom", ("british", "infantry", 2), ("british", "armour", 1))
    put(game, "western-europe", ("germans", "infantry", 1))
    game.add("sz-7", key("british", "transport", 0))  # moored: it unloaded this turn
    # (with moves left it would carry the armour and an infantry there: the first test's landing)
    assert "move 1 infantry united-kingdom -> sz-7" in options(game)  # the engine would let it
    assert landings(game, options(game), _value, worth=WORTH, enough=ENOUGH) == []
    assert _play_out(game, "british") == ["done"]


# ---- seeded games ---------------------------------------------------------------------------------


ROUNDS = {"max_rounds": 2}
"""Seeded games of two rounds: landings come early (the transports of the setup)."""


def heuristic_landings(ruleset: RuleSet, log: tuple[object, ...], seats: dict[str, str]) -> int:
    """Amphibious assaults by the heuristic seats, read from a game's log: each combat move of
    land units from a sea zone into hostile land, replayed on a fresh game."""
    state = ruleset.new_state(ROUNDS)
    count = 0
    for entry in log:
        if isinstance(entry, ChanceEvent):
            state.apply_chance(entry.outcome)
            continue
        assert isinstance(entry, ActionEntry)
        game = state
        assert isinstance(game, AAGame)
        words = entry.action.partition(":")[2].split()
        if (
            seats.get(entry.seat) == "bot:heuristic"
            and game.d["phase"] == "combat-move"
            and game.d["battle"] is None
            and words[0] == "move"
            and game.stats[words[2]].domain == "land"
            and game.is_sea(words[3])
            and game.hostile_land(game.power, words[5])
        ):
            count += 1
        state.apply(ruleset.parse_action(entry.action))
    return count


def _seeded_game(ruleset: RuleSet, seed: int, bots: str) -> tuple[Match, dict[str, str]]:
    match = Match(ruleset, seed=seed, options=ROUNDS)
    seats = seats_for(ruleset.name, ROUNDS, bots)
    players = {
        seat: HeuristicBot(bot_seed(seed, seat))
        if seats.get(seat) == "bot:heuristic"
        else RandomBot(bot_seed(seed, seat))
        for seat in match.state.seats()
    }
    while (decision := match.decision()) is not None:
        match.play(decision.seat, players[decision.seat].choose(match.state, decision, ply=len(match.log)))
    return match, seats


def test_a_seeded_revised_game_has_heuristic_landings_and_replays_the_same() -> None:
    match, seats = _seeded_game(AA_REVISED, 2, "axis=heuristic")
    assert heuristic_landings(AA_REVISED, match.log, seats) >= 1
    again, _ = _seeded_game(AA_REVISED, 2, "axis=heuristic")
    assert [e.to_json() for e in again.log] == [e.to_json() for e in match.log]  # type: ignore[attr-defined]
    assert again.state_hash() == match.state_hash()


def test_an_island_power_buys_transports_for_the_units_waiting_at_its_capital() -> None:
    game = fresh()
    at(game, "british", "purchase")
    game.d["bank"]["british"] = 40
    put(game, "united-kingdom", ("british", "infantry", 6), ("british", "factory", 1))
    for zone in game.module.sea_neighbours("united-kingdom"):
        game.d["units"].pop(zone, None)
    game.d["units"] = {w: h for w, h in game.d["units"].items() if not any("transport" in s for s in h)}
    assert policy(game, "british", options(game)) == "buy transport"
    choose(game, "british", "buy transport")
    assert policy(game, "british", options(game)) == "buy infantry"  # one transport a turn
    # Three transports at sea already: enough for the island's six units.
    put(game, "sz-2", ("british", "transport", 3))
    game.d["purchased"] = {}
    assert policy(game, "british", options(game)) == "buy infantry"
    # Germany's capital has a land route to the enemy: it buys none.
    at(game, "germans", "purchase")
    put(game, "germany", ("germans", "infantry", 8), ("germans", "factory", 1))
    assert "buy transport" in options(game)
    assert policy(game, "germans", options(game)) != "buy transport"
