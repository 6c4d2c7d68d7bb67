"""Operations and combat through the engine (LR 8–10), with the rules' examples and their exact dice."""

from __future__ import annotations

from grandstrategy.cataclysm.engine import CataclysmGame
from grandstrategy.cataclysm.engine.invariants import problems
from grandstrategy.cataclysm.module import load_module
from grandstrategy.cataclysm.module.schema import Commitment
from grandstrategy.cataclysm.rules.control import controller, victory_points
from grandstrategy.cataclysm.state import new_state

MODULE = load_module()


def bare_game(scenario: str = "europe-1939") -> CataclysmGame:
    return CataclysmGame(MODULE, new_state(MODULE, scenario))


def options(game: CataclysmGame) -> list[str]:
    assert game.pending is not None and game.pending["type"] == "decide", game.pending
    return list(game.pending["options"])


def choose(game: CataclysmGame, power: str, option: str) -> None:
    assert game.pending is not None and game.pending["type"] == "decide", game.pending
    assert game.pending["power"] == power, game.pending
    assert option in game.pending["options"], game.pending["options"]
    game.apply(game.legal_actions()[game.pending["options"].index(option)])
    assert not problems(game), problems(game)


def choose_starting(game: CataclysmGame, power: str, prefix: str) -> None:
    match = [o for o in options(game) if o.startswith(prefix)]
    assert len(match) == 1, (prefix, options(game))
    choose(game, power, match[0])


def roll(game: CataclysmGame, *faces: int) -> None:
    for face in faces:
        assert game.pending is not None and game.pending["type"] == "chance", game.pending
        game.apply_chance(str(face))


def place_flags(game: CataclysmGame, where: dict[str, str]) -> None:
    """Each named power gains one flag, in whatever order, and puts it where the example says."""
    left = dict(where)
    while left:
        assert game.pending is not None and "place the flag" in game.pending["prompt"], game.pending
        power = game.pending["power"]
        choose(game, power, left.pop(power))


def test_poland_land_operation_example_lr_l2217_l2241() -> None:
    """Fall Weiss: maneuvers, a land operation on French Poland, triumph and conquest, with the text's dice."""
    game = bare_game()
    state = game.state
    germany_vp = victory_points(MODULE, state, "germany")
    france_vp = victory_points(MODULE, state, "france")
    state.cup.remove("flag:germany")  # the German flag is drawn
    game.push("play-counter", counter="flag:germany", source="cup")
    game.run()
    choose(game, "germany", "maneuvers")
    roll(game, 6, 4, 3)  # effectiveness 3 at rearmament: success
    choose(game, "germany", "land operation against Poland")
    choose_starting(game, "germany", "activate #2 tank-army")
    choose_starting(game, "germany", "activate #1 infantry-army")  # Poland's land limit is now full
    # provocation: France (controller), the UK (its ally) and the USSR (adjacent) each gain a flag
    place_flags(game, {"france": "reserve", "united-kingdom": "cup", "soviet-union": "reserve"})
    assert state.powers["united-kingdom"].reserve == "offensive:united-kingdom"
    choose_starting(game, "germany", "support with #3 germany tactical-air")  # the only supporter
    # German air superiority without an air combat; Poland loses a die to German armour
    roll(game, 6, 6, 4)  # Germany: three dice, 7
    roll(game, 3)  # Poland: one die, 3 -> two losses; the minor army takes one: triumph
    assert "poland" not in state.minor_armies
    # conquest: France, the UK and the USSR gain flags
    place_flags(game, {"france": "cup", "united-kingdom": "cup", "soviet-union": "cup"})
    assert controller(MODULE, state, "poland") == "germany"
    assert victory_points(MODULE, state, "germany") == germany_vp + 1
    assert victory_points(MODULE, state, "france") == france_vp - 1
    # regroup: the infantry to Czechoslovakia, the air force back to Silesia
    choose_starting(game, "germany", "regroup #1 infantry-army")
    choose(game, "germany", "Czechoslovakia")
    choose_starting(game, "germany", "regroup #3 tactical-air")
    choose(game, "germany", "Silesia")
    choose(game, "germany", "done")
    choose(game, "germany", "reserve")  # the triumph flag
    units = {u.id: u.area for u in state.units}
    assert units[1] == "czechoslovakia" and units[2] == "poland" and units[3] == "silesia"
    assert state.powers["germany"].reserve == "flag:germany"
    assert game.pending is None
    assert state.powers["germany"].commitment is Commitment.REARMAMENT
