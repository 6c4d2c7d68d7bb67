"""National Attacks (optional, S3:L250) in the variant's battles, with forced dice: each test fights
the same battle with the option off and on and asserts the changed dice (their labels name the
value each die needs) and where the hits went."""

from __future__ import annotations

import pytest
from tests.axis_allies.aarhe.combat_helpers import fresh
from tests.axis_allies.game_helpers import at, choose, options, put, roll

from grandstrategy.axis_allies.game.engine import AAGame, key


def game_with(attacks: bool) -> AAGame:
    game = fresh()
    game.d["aarhe"] = {"optional": ["national_attacks"]} if attacks else {}
    return game


def roll_misses(game: AAGame) -> list[str]:
    """Roll 6 (a miss) for every die until someone must decide or the battle ends."""
    labels: list[str] = []
    while game.d["battle"] is not None and not isinstance(game.to_act(), str):
        labels += roll(game, 6)
    return labels


@pytest.mark.parametrize(("attacks", "fighter", "tank"), [(False, 3, 4), (True, 4, 5)])
def test_blitzkrieg_lifts_german_fighters_and_the_tanks_they_support(
    attacks: bool, fighter: int, tank: int
) -> None:
    # S3:L250: with no enemy fighter present German fighters attack +1 and each gives one tank +1
    # (on top of air supremacy's +1, S3:L220; AH-O4)
    game = game_with(attacks)
    at(game, "germans", "combat-move")
    put(game, "ukraine-ssr", ("germans", "fighter", 1), ("germans", "armour", 1))
    put(game, "caucasus", ("russians", "infantry", 1))
    for unit in ("fighter", "armour"):
        choose(game, "germans", f"move 1 {unit} ukraine-ssr -> caucasus")
    choose(game, "germans", "done")
    choose(game, "germans", "fight caucasus")
    labels = roll_misses(game)
    assert f"caucasus: germans fighter attacks a russians infantry, hits on {fighter} or less" in labels
    assert f"caucasus: germans armour hits on {tank} or less" in labels


def test_blitzkrieg_needs_the_enemy_without_fighters() -> None:
    game = game_with(True)
    at(game, "germans", "combat-move")
    put(game, "ukraine-ssr", ("germans", "fighter", 1), ("germans", "armour", 1))
    put(game, "caucasus", ("russians", "infantry", 1), ("russians", "fighter", 1))
    for unit in ("fighter", "armour"):
        choose(game, "germans", f"move 1 {unit} ukraine-ssr -> caucasus")
    choose(game, "germans", "done")
    choose(game, "germans", "fight caucasus")
    labels = roll_misses(game)
    assert "caucasus: germans fighter dogfights, hits on 2 or less" in labels  # no +1
    assert "caucasus: germans armour hits on 3 or less" in labels


@pytest.mark.parametrize("attacks", [False, True])
def test_lance_torpedo_fighters_plus_one_at_sea_and_destroyers_in_the_opening_fire(attacks: bool) -> None:
    # S3:L250: Japanese fighters +1 in naval combat; destroyers fire in the opening fire of the
    # first naval cycle instead of its main round, and their hit is removed before the main round
    game = game_with(attacks)
    at(game, "japanese", "combat-move")
    put(game, "western-europe", ("japanese", "fighter", 1))
    put(game, "sz-5", ("japanese", "destroyer", 1))
    put(game, "sz-6", ("americans", "transport", 1), ("americans", "destroyer", 1))
    put(game, "united-kingdom")
    choose(game, "japanese", "move 1 fighter western-europe -> sz-6")
    choose(game, "japanese", "move 1 destroyer sz-5 -> sz-6")
    choose(game, "japanese", "done")
    choose(game, "japanese", "fight sz-6")
    choose(game, "americans", "no screen")
    roll(game, 6, 6)  # the American destroyer's anti-air dice
    choose(game, "japanese", "aim fighter at americans destroyer")
    if not attacks:
        assert roll(game, 6, 6, 6, 6) == [
            "sz-6: japanese fighter attacks a americans destroyer, hits on 3 or less",
            "sz-6: japanese destroyer hits on 2 or less",
            "sz-6: defence destroyer hits on 2 or less",
            "sz-6: defence transport hits on 1 or less",
        ]
        return
    assert roll(game, 6, 2) == [
        "sz-6: japanese fighter attacks a americans destroyer, hits on 4 or less",
        "sz-6: japanese destroyer fires in the opening fire, hits on 2 or less",
    ]
    # the opening-fire hit sinks the destroyer before it fires; the Japanese destroyer is silent
    assert key("americans", "destroyer", 3) not in game.units("sz-6")
    assert roll(game, 6) == ["sz-6: defence transport hits on 1 or less"]


def test_shock_troops_three_infantry_fire_first_at_plus_one_in_the_first_cycle_only() -> None:
    # S3:L250: at most 3 Soviet infantry a turn attack +1 in the first cycle's opening fire
    game = game_with(True)
    at(game, "russians", "combat-move")
    put(game, "west-russia", ("russians", "infantry", 4))
    put(game, "ukraine-ssr", ("germans", "infantry", 2))
    choose(game, "russians", "move 4 infantry west-russia -> ukraine-ssr")
    choose(game, "russians", "done")
    choose(game, "russians", "fight ukraine-ssr")
    assert (
        roll(game, 2, 6, 6)
        == ["ukraine-ssr: russians infantry fires in the opening fire, hits on 2 or less"] * 3
    )
    assert game.units("ukraine-ssr")[key("germans", "infantry", 1)] == 1  # one of two left
    # the main round: the fourth infantry alone (at 1), then the one German left
    assert roll(game, 6, 6) == [
        "ukraine-ssr: russians infantry hits on 1 or less",
        "ukraine-ssr: defence infantry hits on 2 or less",
    ]
    choose(game, "russians", "press attack")
    while game.to_act() == "germans":
        choose(game, "germans", "hold")
    assert roll_misses(game)[:4] == ["ukraine-ssr: russians infantry hits on 1 or less"] * 4


def test_shock_troops_without_the_option_fire_in_the_main_round() -> None:
    game = game_with(False)
    at(game, "russians", "combat-move")
    put(game, "west-russia", ("russians", "infantry", 4))
    put(game, "ukraine-ssr", ("germans", "infantry", 2))
    choose(game, "russians", "move 4 infantry west-russia -> ukraine-ssr")
    choose(game, "russians", "done")
    choose(game, "russians", "fight ukraine-ssr")
    assert roll_misses(game)[:4] == ["ukraine-ssr: russians infantry hits on 1 or less"] * 4


@pytest.mark.parametrize(("attacks", "value"), [(False, 3), (True, 4)])
def test_radar_british_fighters_defend_plus_one_in_the_united_kingdom(attacks: bool, value: int) -> None:
    # S3:L250: British fighters +1 defending in the UK, Canada, India and Australia
    game = game_with(attacks)
    at(game, "germans", "combat-move")
    put(game, "western-europe", ("germans", "fighter", 1))
    put(game, "united-kingdom", ("british", "fighter", 1), ("british", "infantry", 1))
    choose(game, "germans", "move 1 fighter western-europe -> united-kingdom")
    choose(game, "germans", "done")
    choose(game, "germans", "fight united-kingdom")
    labels = roll_misses(game)
    assert "united-kingdom: germans fighter dogfights, hits on 2 or less" in labels
    assert f"united-kingdom: defence fighter dogfights, hits on {value} or less" in labels


def test_radar_is_not_elsewhere() -> None:
    game = game_with(True)
    at(game, "germans", "combat-move")
    put(game, "germany", ("germans", "fighter", 1))
    put(game, "western-europe", ("british", "fighter", 1), ("british", "infantry", 1))
    game.d["owner"]["western-europe"] = "british"
    choose(game, "germans", "move 1 fighter germany -> western-europe")
    choose(game, "germans", "done")
    choose(game, "germans", "fight western-europe")
    assert "western-europe: defence fighter dogfights, hits on 3 or less" in roll_misses(game)


@pytest.mark.parametrize(("attacks", "value"), [(False, 1), (True, 2)])
def test_marines_american_infantry_plus_one_in_the_first_amphibious_cycle(attacks: bool, value: int) -> None:
    # S3:L250: American infantry landed from the sea attack +1 in the assault's first cycle
    game = game_with(attacks)
    at(game, "americans", "combat-move")
    put(game, "united-kingdom", ("americans", "infantry", 1))
    put(game, "sz-6", ("americans", "transport", 1))
    put(game, "sz-7")
    put(game, "western-europe", ("germans", "infantry", 1))
    choose(game, "americans", "move 1 infantry united-kingdom -> sz-6")
    choose(game, "americans", "move 1 infantry sz-6 -> western-europe")
    choose(game, "americans", "done")
    choose(game, "americans", "fight western-europe")
    labels = roll_misses(game)
    assert f"western-europe: americans infantry hits on {value} or less" in labels
    assert "western-europe: defence infantry hits on 2 or less" in labels
    choose(game, "americans", "press attack")  # landed units cannot retreat (S3:L222)
    while game.to_act() == "germans":
        choose(game, "germans", options(game)[0])
    assert "western-europe: americans infantry hits on 1 or less" in roll_misses(game)  # cycle 2
