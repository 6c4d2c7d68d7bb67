"""National goals as far as the document gives them (S3:L250-254)."""

from __future__ import annotations

from tests.axis_allies.aarhe.helpers import at, choose, fresh, options, profile
from tests.axis_allies.game_helpers import put

from grandstrategy.axis_allies.aarhe import goals, turns
from grandstrategy.axis_allies.aarhe.ruleset import AA_AARHE


def met(game) -> dict[str, list[str]]:  # type: ignore[no-untyped-def]
    return goals.goals_met(game, profile(game).tables)


def test_the_goals_held_at_the_start() -> None:
    # Lebensraum counts Switzerland and Spain only if not neutral; Japan's income (30) is below
    # Germany's (40); nothing has been lost yet
    game = fresh()
    goals.record_owners(game, profile(game).tables)
    assert met(game) == {
        "germans": ["lebensraum", "defend-the-fatherland"],
        "russians": ["protect-heavy-industry"],
        "british": ["battle-for-britain"],  # the colonial empire needs the Solomons and Borneo
        "americans": ["protect-the-americas"],  # 42 IPCs is not over 45; the UK's 30 not over 35
    }


def test_holding_and_losing() -> None:
    game = fresh()
    tables = profile(game).tables
    game.d["owner"]["russia"] = "germans"
    game.d["owner"]["united-kingdom"] = "germans"
    put(game, "russia")
    put(game, "united-kingdom")
    goals.record_owners(game, tables)
    game.d["owner"]["united-kingdom"] = "british"
    goals.record_owners(game, tables)
    now = met(game)
    assert {"barbarossa", "sea-lion"} <= set(now["germans"])  # Sea Lion: captured once is enough
    assert "battle-for-britain" not in now.get("british", [])  # invaded successfully once
    assert "protect-heavy-industry" not in now.get("russians", [])


def test_race_to_berlin_goes_to_the_first_captor() -> None:
    game = fresh()
    tables = profile(game).tables
    put(game, "germany")
    game.d["owner"]["germany"] = "russians"
    goals.record_owners(game, tables)
    game.d["owner"]["germany"] = "british"
    goals.record_owners(game, tables)
    now = met(game)
    assert "race-to-berlin" in now["russians"] and "race-to-berlin" not in now.get("british", [])


def test_income_goals() -> None:
    game = fresh()
    goals.record_income(game, "germans", 52)
    goals.record_income(game, "germans", 38)
    goals.record_income(game, "russians", 14)
    now = met(game)
    assert "thousand-year-reich" in now["germans"]  # 50+ once is enough
    assert "protect-heavy-industry" not in now.get("russians", [])  # income fell below 15


def test_either_part_of_east_asia_influence() -> None:
    game = fresh()
    for t in ("manchuria", "kwantung", "french-indochina"):
        game.d["owner"][t] = "russians"
        put(game, t)
    assert "east-asia-influence" in met(game)["russians"]  # Japan holds no mainland Asia


def test_national_victory_names_the_nations_with_three_goals() -> None:
    game = AA_AARHE.new_state({"max_rounds": 1, "national_victory": True})
    picks = {"germans": ["lebensraum", "defend-the-fatherland", "thousand-year-reich"]}
    while game.d["battle"] is not None:  # S3:L250: picked before play (the others: the first offered)
        nation = game.d["battle"]["ask"]["who"]
        wanted = picks.get(nation)
        choose(game, nation, f"pick {wanted.pop(0)}" if wanted else options(game)[0])
    at(game, "americans", "diplomacy")
    game.d["aarhe"]["queue"], game.d["aarhe"]["team"] = [], 0
    goals.record_income(game, "germans", 50)
    turns.next_step(game, profile(game).tables)
    result = game.d["result"]
    assert result["national_goals"]["germans"] == [
        "lebensraum",
        "defend-the-fatherland",
        "thousand-year-reich",
    ]
    assert result["national_winners"] == ["germans"]


def test_the_american_goals_and_the_british_income_goal() -> None:
    # S3:L254: the US goals, and the UK's fifth (over 35 IPCs); income goals read the end
    game = fresh()
    tables = profile(game).tables
    for place in ("western-europe", "southern-europe", "norway", "japan"):
        game.d["owner"][place] = "americans"
    for place in ("china", "sinkiang", "manchuria"):
        game.d["owner"][place] = "british"
    put(game, "germany")
    game.d["owner"]["germany"] = "americans"
    goals.record_owners(game, tables)
    now = met(game)["americans"]
    assert now == [
        "contain-communism-in-europe",
        "contain-communism-in-asia",  # 3 of the 5 Asian places held by the UK: a majority
        "protect-the-americas",
        "maintain-public-support",  # the captures lift US income over 45
        "race-to-berlin",
        "operation-olympic",
    ]
    assert "preserve-military-might" in met(game)["british"]  # 30 and three Asian places: over 35
    assert "preserve-military-might" not in met(fresh()).get("british", [])  # 30 alone is not
    game.d["owner"]["kwantung"] = "russians"
    game.d["owner"]["french-indochina"] = "russians"
    game.d["owner"]["china"] = "russians"
    assert "contain-communism-in-asia" not in met(game)["americans"]  # 2 of 5 no longer a majority


def test_axis_units_next_to_the_americas_break_the_goal() -> None:
    # S3:L254 "Protect the Americas": no Axis control of, or forces in or next to, the Americas
    game = fresh()
    assert "protect-the-americas" in met(game)["americans"]
    put(game, "mexico", ("japanese", "infantry", 1))
    assert "protect-the-americas" not in met(game).get("americans", [])
