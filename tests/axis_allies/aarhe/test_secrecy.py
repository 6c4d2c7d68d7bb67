"""The variant's two secrets: convoy routes (S3:L214) and National Victory goals (S3:L250)."""

from __future__ import annotations

import io
from itertools import pairwise
from pathlib import Path
from typing import Any

import numpy as np
from rich.console import Console
from tests.axis_allies.aarhe.helpers import at, choose, fresh, options, profile, roll
from tests.axis_allies.game_helpers import put

from grandstrategy.axis_allies.aarhe import convoys, goals, turns
from grandstrategy.axis_allies.aarhe.ruleset import AA_AARHE
from grandstrategy.axis_allies.game.engine import AAGame
from grandstrategy.core.canonical import canonical_json
from grandstrategy.core.ids import Seat
from grandstrategy.core.log import ActionEntry, entry_from_json
from grandstrategy.core.session import Match
from grandstrategy.core.view import HIDDEN, view
from grandstrategy.play.games import summary
from grandstrategy.play.narrate import Narrator, log_lines
from grandstrategy.play.session import PlaySession
from grandstrategy.play.terminal import render_screen
from grandstrategy.research.encoding import research_spec


def empty_seas(game: AAGame) -> None:
    for zone in game.module.territories:
        if game.is_sea(zone):
            game.d["units"].pop(zone, None)


def british_income(game: AAGame) -> None:
    at(game, "british", "income")
    game.settle()


def routing(game: AAGame) -> bool:
    battle = game.d["battle"]
    return battle is not None and battle.get("kind") == convoys.KIND


def route_all(game: AAGame, last: bool = True) -> list[list[str]]:
    """Answer every route question with the last zone offered; return the routes written down."""
    while routing(game):
        offered = options(game)
        choose(game, "british", offered[-1] if last else offered[0])
    return [route for route, _ in game.d["aarhe"]["convoys"]["british"]["routes"]]


def test_the_route_is_offered_zone_by_zone_among_the_allowed_routes_only() -> None:
    game = fresh()
    empty_seas(game)
    british_income(game)
    assert routing(game) and game.private_decision()
    first = options(game)
    assert first[0] == convoys.SAFEST and all(o.startswith("convoy via sz-") for o in first[1:])
    plans = [dict(p) for p in game.d["battle"]["pending"]]
    written = route_all(game)
    assert len(written) == len(plans)
    module = game.module
    for route, plan in zip(written, plans, strict=True):
        assert route[0] in plan["starts"] and route[-1] in plan["ends"]
        assert all(b in module.sea_neighbours(a) for a, b in pairwise(route))
        assert len(set(route)) == len(route) and len(route) <= plan["limit"]
        assert not set(route[:-1]) & set(plan["ends"])  # it lands at the first home coast reached
    australia = next(p for p in plans if set(p["starts"]) <= set(module.sea_neighbours("australia")))
    assert australia["limit"] == 9  # S3:L214: Australia to the United Kingdom, 8 or 9 zones
    assert game.d["phase"] == "combat-move"  # the income is stored once every route is written


def test_a_zone_not_on_an_allowed_route_is_refused() -> None:
    game = fresh()
    empty_seas(game)
    british_income(game)
    choose(game, "british", options(game)[-1])
    offered = {o.split()[2] for o in options(game)}
    far = next(z for z in sorted(game.module.territories) if game.is_sea(z) and z not in offered)
    assert f"convoy via {far}" not in options(game)


def test_the_attack_comes_at_the_next_income_on_the_chosen_route_only() -> None:
    # S3:L214: revealed at the next Collect Income; each enemy warship on the route rolls
    game = fresh()
    empty_seas(game)
    british_income(game)
    written = route_all(game)  # never the safest: the last zone offered each time
    counts: dict[str, int] = {}
    for route in written:
        for zone in route:
            counts[zone] = counts.get(zone, 0) + 1
    on_route = next(z for z in sorted(counts) if counts[z] == 1)
    off_route = next(z for z in sorted(game.module.territories) if game.is_sea(z) and z not in counts)
    put(game, on_route, ("japanese", "submarine", 1))
    put(game, off_route, ("japanese", "destroyer", 1))
    calm = game.clone()
    calm.d["units"].pop(on_route)
    for g in (game, calm):
        at(g, "british", "income")
    bank = game.d["bank"]["british"]
    game.settle()
    assert len(game.d["battle"]["dice"]) == 1
    assert f"{on_route} attacks british's convoy" in roll(game, 3)[0]
    assert any(on_route in line and "convoy of" in line for line in game.d["log"][-3:])  # revealed
    route_all(game)
    calm.settle()
    route_all(calm)
    assert calm.d["bank"]["british"] - game.d["bank"]["british"] == 1 and game.d["bank"]["british"] > bank


def match_at_route_choice() -> Match:
    match = Match(AA_AARHE, seed=3, options={"max_rounds": 0})
    game = match.state
    assert isinstance(game, AAGame)
    empty_seas(game)
    british_income(game)
    return match


def play_routes(match: Match) -> list[list[str]]:
    game = match.state
    assert isinstance(game, AAGame)
    while routing(game):
        match.play("british", f"british: {options(game)[-1]}")
    return [route for route, _ in game.d["aarhe"]["convoys"]["british"]["routes"]]


def route_texts(written: list[list[str]]) -> list[str]:
    return [canonical_json(route)[1:-1] for route in written if len(route) > 1]


def test_no_other_seat_sees_the_route_in_view_log_narration_or_observation() -> None:
    match = match_at_route_choice()
    game = match.state
    assert isinstance(game, AAGame)
    before = game.clone()
    choice = f"british: {options(game)[-1]}"
    written = play_routes(match)
    # the kernel view (what the web's state JSON and the research observation are built from)
    enemy, own = view(game, Seat("germans")), view(game, Seat("british"))
    assert own["state"]["aarhe"]["convoys"]["british"]["routes"]
    assert enemy["state"]["aarhe"]["convoys"]["british"] == HIDDEN
    for text in route_texts(written):
        assert text in canonical_json(own) and text not in canonical_json(enemy)
    # the log: another seat reads "?" for each secret answer, the owner its choice
    secret = [e for e in match.log if isinstance(e, ActionEntry) and e.private]
    assert secret and all(e.seat == "british" for e in secret)
    assert entry_from_json(secret[0].to_json()) == secret[0]
    enemy_log, own_log = match.log_view(Seat("germans")), match.log_view(Seat("british"))
    assert not any("convoy via" in str(e.get("action")) for e in enemy_log)
    assert sum(e.get("action") == HIDDEN for e in enemy_log) == len(secret)
    assert sum("convoy via" in str(e.get("action")) for e in own_log) == len(secret)
    # the terminal: a bot's secret answer is told without its choice; the engine's log names no zone
    told = Narrator(lambda seat: seat == "germans").tell(before, game.clone(), "british", choice)
    assert "sz-" not in told.sentence and "secret" in told.sentence
    assert told.seen_by("british") is told and "sz-" not in told.seen_by("germans").sentence
    assert not any("sz-" in line for line in summary(game, events=50).events[-5:])
    # the research observation: another route, the same vector for the enemy, not for the owner
    spec = research_spec(AA_AARHE, {"max_rounds": 0})
    other = game.clone()
    first = other.d["aarhe"]["convoys"]["british"]["routes"][0][0]
    other.d["aarhe"]["convoys"]["british"]["routes"][0][0] = list(reversed(first))
    assert np.array_equal(spec.observe(game, Seat("germans")), spec.observe(other, Seat("germans")))
    assert not np.array_equal(spec.observe(game, Seat("british")), spec.observe(other, Seat("british")))


def test_the_enemy_view_hides_the_route_while_it_is_being_chosen() -> None:
    match = match_at_route_choice()
    game = match.state
    assert isinstance(game, AAGame)
    match.play("british", f"british: {options(game)[-1]}")
    assert routing(game) and game.d["battle"]["route"]
    enemy = view(game, Seat("japanese"))["state"]["battle"]
    assert enemy["route"] == HIDDEN and enemy["ask"]["options"] == []
    assert view(game, Seat("british"))["state"]["battle"]["route"] == game.d["battle"]["route"]


def test_the_same_seed_and_choices_give_the_same_game() -> None:
    def play() -> tuple[str, list[Any]]:
        match = match_at_route_choice()
        play_routes(match)
        game = match.state
        assert isinstance(game, AAGame)
        put(game, "sz-38", ("japanese", "submarine", 2))
        at(game, "british", "income")
        game.settle()
        while game.to_act() == "chance":
            game.apply_chance(str(match.chance.resolve(game.chance_node()).outcome))
        return match.state_hash(), [e.to_json() for e in match.log]

    assert play() == play()


# ---- National Victory (S3:L250) --------------------------------------------------------------


def pick_all(game: AAGame, wanted: dict[str, list[str]]) -> None:
    while game.d["battle"] is not None and game.d["battle"].get("kind") == "goal-pick":
        nation = game.d["battle"]["ask"]["who"]
        assert game.private_decision()
        choose(game, nation, f"pick {wanted[nation].pop(0)}")


PICKS = {
    "germans": ["lebensraum", "defend-the-fatherland", "thousand-year-reich"],
    "russians": ["east-europe-buffer", "race-to-berlin", "protect-heavy-industry"],
    "japanese": ["conquer-china", "post-war-superpower", "north-wind-rain"],
    "british": ["battle-for-britain", "race-to-berlin", "contain-communism"],
    "americans": ["contain-communism-in-europe", "race-to-berlin", "operation-olympic"],
}


def test_goal_picks_are_offered_before_play_only_with_the_option() -> None:
    assert fresh().d["battle"] is None  # off by default: play begins at once
    game = fresh(national_victory=True)
    ask = game.d["battle"]["ask"]
    assert game.d["battle"]["kind"] == "goal-pick" and ask["who"] == game.order[0]
    assert all(o.startswith("pick ") for o in options(game))
    tables = profile(game).tables
    assert {o.split()[1] for o in options(game)} == {
        g.id for g in tables.goals.goals if g.nation == ask["who"]
    }


def test_goal_picks_are_hidden_until_the_end_and_alone_decide_national_victory() -> None:
    game = fresh(max_rounds=1, national_victory=True)
    wanted = {n: list(ids) for n, ids in PICKS.items()}
    wanted["germans"] = ["lebensraum", "defend-the-fatherland", "barbarossa"]  # Russia is not German
    picked = {n: list(ids) for n, ids in wanted.items()}
    pick_all(game, wanted)
    assert game.d["battle"] is None and game.d["aarhe"]["goal_picks"] == picked
    seen = view(game, Seat("germans"))["state"]["aarhe"]["goal_picks"]
    assert seen["germans"] == picked["germans"] and seen["british"] == HIDDEN
    assert "battle-for-britain" not in canonical_json(view(game, Seat("germans")))
    at(game, "americans", "diplomacy")
    game.d["aarhe"]["queue"], game.d["aarhe"]["team"] = [], 0
    turns.next_step(game, profile(game).tables)
    result = game.d["result"]
    assert "lebensraum" in result["national_goals"]["germans"]  # met, but barbarossa is not
    assert "battle-for-britain" in result["national_goals"]["british"]
    assert result["national_winners"] == []  # nobody met all three picks
    assert result["national_picks"] == picked
    assert view(game, Seat("germans"))["state"]["aarhe"]["goal_picks"]["british"] == picked["british"]


def test_a_nation_whose_three_picks_are_met_wins_its_national_victory() -> None:
    game = fresh(max_rounds=1, national_victory=True)
    wanted = {n: list(ids) for n, ids in PICKS.items()}
    pick_all(game, wanted)
    at(game, "americans", "diplomacy")
    game.d["aarhe"]["queue"], game.d["aarhe"]["team"] = [], 0
    goals.record_income(game, "germans", 50)
    turns.next_step(game, profile(game).tables)
    assert game.d["result"]["national_winners"] == ["germans"]


def test_the_terminal_never_tells_a_bots_secret_route(tmp_path: Path) -> None:
    """A person plays Germany against bots: the British bot's route answers reach the screen and
    the log only as 'british makes a secret choice'."""
    session = PlaySession.create(
        tmp_path / "game.json",
        "aa-aarhe",
        options={"max_rounds": 3},
        seed=3,
        seats="germans=human,*=bot:random",
    )
    list(session.bot_moves())
    screens: list[str] = []
    game = session.match.state
    assert isinstance(game, AAGame)
    for _ in range(500):
        if "british" in game.d["aarhe"].get("convoys", {}) or session.decision() is None:
            break
        legal = [str(getattr(a, "option", a)) for a in session.decision().legal]  # type: ignore[union-attr]
        session.play("done" if "done" in legal else convoys.SAFEST if convoys.SAFEST in legal else legal[0])
        list(session.bot_moves())
        console = Console(width=100, record=True, color_system=None, file=io.StringIO())
        console.print(render_screen(session, width=100, height=60))
        screens.append(console.export_text())
        game = session.match.state
        assert isinstance(game, AAGame)
    assert "british" in game.d["aarhe"]["convoys"]
    lines = log_lines(session.history())
    assert any(line == "british makes a secret choice" for line in lines)
    assert not any(line.startswith("british") and "convoy" in line for line in lines)
    assert not any("british" in text and "convoy via" in text for text in screens)
