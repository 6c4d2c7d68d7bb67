"""Helpers for the A&A game tests: a fresh game, a board arranged by hand, choices and forced dice."""

from __future__ import annotations

from grandstrategy.axis_allies.game import AA_REVISED, AAGame
from grandstrategy.axis_allies.game.engine import key
from grandstrategy.axis_allies.game.invariants import problems


def fresh(max_rounds: int = 0) -> AAGame:
    return AA_REVISED.new_state({"max_rounds": max_rounds})


def at(game: AAGame, power: str, phase: str) -> None:
    """Make it ``power``'s turn, in ``phase`` (its turn-start bookkeeping done)."""
    game.d["turn"] = game.order.index(power)
    game.start_turn()
    game.d["phase"] = phase


def put(game: AAGame, where: str, *units: tuple[str, str, int]) -> None:
    """Empty ``where`` and put ``(power, type, count)`` stacks there with full moves."""
    game.d["units"].pop(where, None)
    for power, unit, count in units:
        game.add(where, key(power, unit, game.stats[unit].movement), count)


def options(game: AAGame) -> list[str]:
    return [a.option for a in game.legal_actions()]  # type: ignore[attr-defined]


def choose(game: AAGame, power: str, option: str) -> None:
    assert game.to_act() == power, (game.to_act(), game.phase())
    legal = options(game)
    assert option in legal, (option, legal)
    game.apply(game.legal_actions()[legal.index(option)])
    assert not problems(game), problems(game)


def roll(game: AAGame, *faces: int) -> list[str]:
    """Answer the next dice with ``faces``; return their labels."""
    labels = []
    for face in faces:
        labels.append(game.chance_node().label)
        game.apply_chance(str(face))
    return labels
