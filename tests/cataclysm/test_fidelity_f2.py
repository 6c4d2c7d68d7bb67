"""Fidelity of the sequence of play (LR 3) and political actions (LR 6.2-6.8), through the engine."""

from __future__ import annotations

from typing import Any

from tests.cataclysm.test_operations import bare_game, choose, options, roll, settle, setup

from grandstrategy.cataclysm.engine import CataclysmGame
from grandstrategy.cataclysm.engine.common import return_to_card
from grandstrategy.cataclysm.module.schema import Commitment


def _operation(node: Any) -> dict[str, Any] | None:
    """The operation record carried somewhere in a pending decision or chance."""
    if isinstance(node, dict):
        if "defender" in node and "attackers" in node:
            return node
        values: list[Any] = list(node.values())
    elif isinstance(node, list):
        values = node
    else:
        return None
    for value in values:
        found = _operation(value)
        if found is not None:
            return found
    return None


def _lorraine_dow(peace_with: str) -> CataclysmGame:
    """Germany (mobilization) at war with France and the UK, but at peace by armistice with
    ``peace_with``; a French and a British army share Lorraine; Germany plays a flag."""
    game = setup(
        "europe-1939",
        [
            ("germany", "infantry-army", "ruhr"),
            ("france", "infantry-army", "lorraine"),
            ("united-kingdom", "infantry-army", "lorraine"),
        ],
        [("germany", "france"), ("germany", "united-kingdom")],
    )
    state = game.state
    state.peace.append(sorted(["germany", peace_with]))
    state.powers["germany"].commitment = Commitment.MOBILIZATION
    state.powers["germany"].available_flags -= 1
    game.push("play-counter", counter="flag:germany", source="cup")
    game.run()
    return game


def test_dow_operation_primary_defender_is_the_target_lr_6_2() -> None:
    """LR 6.2 (L1437): the operation after a DOW has one of the DOW's targets as primary defender.
    With a French and a British army in Lorraine, Germany declaring war on France may not then
    pick the UK (an enemy already) as primary defender (LR 9.1.1 choice is narrowed to France)."""
    game = _lorraine_dow("france")
    choose(game, "germany", "declare-war france")
    roll(game, 6, 6, 6)
    settle(game)
    choose(game, "germany", "land operation against Lorraine")
    choose(game, "germany", "activate #1 infantry-army in Ruhr")
    assert game.pending is not None and game.pending["type"] == "chance", game.pending
    op = _operation(game.pending)
    assert op is not None and op["defender"] == "france"


def test_dow_operation_counts_a_target_that_is_not_first_in_the_area_lr_6_2() -> None:
    """LR 6.2, 9.1.1: the UK may be chosen primary defender in Lorraine beside a French army, so a
    DOW on the UK followed by that attack is legal, and the UK is the primary defender."""
    game = _lorraine_dow("united-kingdom")
    assert "declare-war united-kingdom" in options(game)
    choose(game, "germany", "declare-war united-kingdom")
    roll(game, 6, 6, 6)
    settle(game)
    assert options(game) == ["land operation against Lorraine"]
    choose(game, "germany", "land operation against Lorraine")
    choose(game, "germany", "activate #1 infantry-army in Ruhr")
    op = _operation(game.pending)
    assert op is not None and op["defender"] == "united-kingdom"


def _flag_menu(game: CataclysmGame, power: str) -> list[str]:
    """The political actions offered when ``power`` plays a flag drawn from the cup."""
    game.state.powers[power].available_flags -= 1
    game.push("play-counter", counter=f"flag:{power}", source="cup")
    game.run()
    return options(game)


def test_pressure_needs_a_belligerent_and_a_non_enemy_lr_6_6() -> None:
    """LR 6.6: the designated power is a non-enemy; one of the two is belligerent. Germany at war
    with the UK may press Italy, France, the USSR (not its enemy, the UK); the USSR at peace may
    press Germany (belligerent) but not France (not belligerent either)."""
    game = setup("europe-1939", [], [("germany", "united-kingdom")])
    game.state.alliances.pop("democracy", None)
    menu = _flag_menu(game, "germany")
    assert {"pressure italy", "pressure france", "pressure soviet-union"} <= set(menu)
    assert "pressure united-kingdom" not in menu
    game = setup("europe-1939", [], [("germany", "united-kingdom")])
    game.state.alliances.pop("democracy", None)
    menu = _flag_menu(game, "soviet-union")
    assert "pressure germany" in menu and "pressure united-kingdom" in menu
    assert "pressure france" not in menu and "pressure italy" not in menu


def test_no_pressure_on_a_power_without_an_available_flag_lr_3_3_6_6() -> None:
    """LR 3.3 (L745), 5.2.2, 6.6: success would give Italy a flag it does not have (forfeit), so
    no change to the game: pressure on Italy is not an action Germany may attempt."""
    game = setup("europe-1939", [], [("germany", "united-kingdom")])
    game.state.powers["italy"].available_flags = 0
    menu = _flag_menu(game, "germany")
    assert "pressure italy" not in menu
    assert "pressure soviet-union" in menu


def test_dow_may_target_any_two_allied_powers_lr_6_2() -> None:
    """LR 6.2 (L1420): several targets are allowed when allied with each other, so two members
    of a three-power alliance may be targeted without the third (which then joins or leaves as an
    ally of a target, LR 6.1.3). Only declarations an operation can follow are offered."""
    game = setup(
        "europe-1939",
        [("germany", "infantry-army", "ruhr"), ("france", "infantry-army", "lorraine")],
        [],
    )
    state = game.state
    state.alliances["democracy"] = ["france", "united-kingdom", "united-states"]
    state.powers["germany"].commitment = Commitment.MOBILIZATION
    declarations = [o for o in _flag_menu(game, "germany") if o.startswith("declare-war")]
    assert declarations == [
        "declare-war france",
        "declare-war france+united-kingdom",
        "declare-war france+united-states",
        "declare-war france+united-kingdom+united-states",
    ]


def test_no_maneuvers_when_no_military_action_is_possible_lr_3_3_6_5() -> None:
    """LR 3.3 (L745), 6.5: maneuvers whose success could only be forfeited changes nothing, so it
    is not offered: the US of 1939, with nothing to deploy, build or attack, has no maneuvers; a
    power with a unit to deploy has."""
    game = setup("europe-1939", [("france", "infantry-army", "paris")], [])
    assert "maneuvers" not in _flag_menu(game, "united-states")
    game = setup("europe-1939", [("france", "infantry-army", "paris")], [])
    assert "maneuvers" in _flag_menu(game, "france")


def test_a_flag_reserved_when_japan_ends_the_treaty_may_interrupt_lr_3_4_3_5() -> None:
    """LR 3.4 (L753), 3.5 (L757), 12.1.3: Japan ends the Washington Naval Treaty before a draw; the
    UK puts the flag it gains in reserve, and may interrupt with it before that same draw."""
    game = bare_game("campaign-1933")
    state = game.state
    for line in state.powers.values():
        if line.reserve is not None:
            return_to_card(game, line.reserve)
            line.reserve = None
    state.last_ideology = None
    game.push("action-window")
    game.run()
    choose(game, "japan", "end")
    place = {"united-kingdom": "reserve", "united-states": "cup"}
    while game.pending is not None and "place the flag" in game.pending["prompt"]:
        choose(game, game.pending["power"], place[game.pending["power"]])
    assert state.powers["united-kingdom"].reserve == "flag:united-kingdom"
    assert game.pending is not None and game.pending["power"] == "united-kingdom"
    assert options(game) == ["pass", "interrupt"]
