"""Ships passing through enemy-held sea zones (Revised submarines; LHTR: enemy transports and
submarines do not block), in combat and non-combat move, with the board arranged by hand."""

from __future__ import annotations

from tests.axis_allies.game_helpers import at, choose, fresh, options, put

from grandstrategy.axis_allies.game import AAGame
from grandstrategy.axis_allies.game.engine import key


def _board(power: str, phase: str) -> AAGame:
    game = fresh()
    game.d["units"] = {}
    at(game, power, phase)
    return game


def test_enemy_transports_do_not_stop_a_destroyer_in_combat_move() -> None:
    game = _board("british", "combat-move")
    put(game, "sz-6", ("british", "destroyer", 1))
    put(game, "sz-7", ("germans", "transport", 1))
    choose(game, "british", "move 1 destroyer sz-6 -> sz-7")
    assert game.units("sz-7")[key("british", "destroyer", 1)] == 1  # a move left
    assert "sz-7" in game.d["battles"]
    assert "move 1 destroyer sz-7 -> sz-8" in options(game)
    choose(game, "british", "move 1 destroyer sz-7 -> sz-8")
    assert "sz-7" not in game.d["battles"]  # it passed by: no battle with the transport


def test_an_enemy_warship_stops_a_destroyer_in_combat_move() -> None:
    game = _board("british", "combat-move")
    put(game, "sz-6", ("british", "destroyer", 1))
    put(game, "sz-7", ("germans", "transport", 1), ("germans", "destroyer", 1))
    choose(game, "british", "move 1 destroyer sz-6 -> sz-7")
    assert game.units("sz-7")[key("british", "destroyer", 0)] == 1
    assert not any(o.startswith("move 1 destroyer sz-7") for o in options(game))


def test_non_combat_move_passes_enemy_submarines_but_not_their_warships() -> None:
    game = _board("british", "noncombat-move")
    put(game, "sz-6", ("british", "destroyer", 1))
    put(game, "sz-7", ("germans", "submarine", 2))
    menu = options(game)
    assert "move 1 destroyer sz-6 -> sz-7" not in menu  # no ending a move among enemies
    assert "move 1 destroyer sz-6 -> sz-8" in menu and "move 1 destroyer sz-6 -> sz-12" in menu
    choose(game, "british", "move 1 destroyer sz-6 -> sz-8")
    assert game.units("sz-8") == {key("british", "destroyer", 0): 1}  # both moves spent
    blocked = _board("british", "noncombat-move")
    put(blocked, "sz-6", ("british", "destroyer", 1))
    put(blocked, "sz-7", ("germans", "battleship", 1))
    assert not any(
        o.startswith("move 1 destroyer sz-6 -> sz-") and o[-4:] in ("sz-8", "-12") for o in options(blocked)
    )


def test_a_submarine_passes_warships_without_a_destroyer_in_non_combat_move() -> None:
    game = _board("british", "noncombat-move")
    put(game, "sz-6", ("british", "submarine", 1))
    put(game, "sz-7", ("germans", "battleship", 1))
    assert "move 1 submarine sz-6 -> sz-12" in options(game)
    put(game, "sz-7", ("germans", "battleship", 1), ("germans", "destroyer", 1))
    assert "move 1 submarine sz-6 -> sz-12" not in options(game)


def _far_out() -> AAGame:
    """A British fighter in the United Kingdom, a German destroyer three moves out in sz-11, and
    no friendly land within its last move (every other territory German)."""
    game = _board("british", "combat-move")
    for territory in game.d["owner"]:
        game.d["owner"][territory] = "british" if territory == "united-kingdom" else "germans"
    put(game, "united-kingdom", ("british", "fighter", 1))
    put(game, "sz-11", ("germans", "destroyer", 1))
    return game


def test_a_fighter_may_count_on_a_carrier_that_can_still_move_under_it() -> None:
    alone = _far_out()
    assert "move 1 fighter united-kingdom -> sz-11" not in options(alone)
    game = _far_out()
    put(game, "sz-22", ("british", "carrier", 1))  # two zones from sz-11, two moves left
    assert "move 1 fighter united-kingdom -> sz-11" in options(game)
    spent = _far_out()
    spent.add("sz-22", key("british", "carrier", 0))  # the carrier has moved already
    assert "move 1 fighter united-kingdom -> sz-11" not in options(spent)


def test_the_mover_chooses_how_many_of_its_fighters_ride_a_departing_carrier() -> None:
    game = _board("british", "noncombat-move")
    put(game, "sz-7", ("british", "carrier", 2), ("british", "fighter", 2))
    menu = [o for o in options(game) if o.startswith("move 1 carrier sz-7 -> sz-6")]
    assert menu == [f"move 1 carrier sz-7 -> sz-6 with {n} fighter" for n in (0, 1, 2)]
    choose(game, "british", "move 1 carrier sz-7 -> sz-6 with 1 fighter")
    assert game.units("sz-6") == {key("british", "carrier", 1): 1, key("british", "fighter", 4): 1}
    assert game.units("sz-7") == {key("british", "carrier", 2): 1, key("british", "fighter", 4): 1}
    # a carrier whose fighters have nowhere else to stay takes them along: no choice to offer
    alone = _board("british", "noncombat-move")
    put(alone, "sz-7", ("british", "carrier", 1), ("british", "fighter", 1))
    assert "move 1 carrier sz-7 -> sz-6" in options(alone)
