"""Helpers for the AARHE tests: a fresh variant game and a position arranged by hand."""

from __future__ import annotations

from tests.axis_allies.game_helpers import choose, options, roll

from grandstrategy.axis_allies.aarhe import turns
from grandstrategy.axis_allies.aarhe.profile import AarheProfile
from grandstrategy.axis_allies.aarhe.ruleset import AA_AARHE
from grandstrategy.axis_allies.game.engine import AAGame

__all__ = ["at", "choose", "decline_interdiction", "fresh", "options", "profile", "roll", "write_convoys"]


def fresh(max_rounds: int = 0, **more: object) -> AAGame:
    return AA_AARHE.new_state({"max_rounds": max_rounds, **more})  # type: ignore[dict-item]


def profile(game: AAGame) -> AarheProfile:
    assert isinstance(game.profile, AarheProfile)
    return game.profile


def at(game: AAGame, power: str, phase: str = "purchase") -> None:
    """Begin ``power``'s turn (its records fresh) and go to ``phase``."""
    game.d["aarhe"]["queue"] = []
    game.d["aarhe"]["waiting"] = {}
    game.d["battle"] = None  # e.g. air interdiction declarations left open by an earlier step
    turns.begin_turn(game, power)
    game.d["phase"] = phase


def decline_interdiction(game: AAGame) -> None:
    """Between purchase and the first move: write down the safest route for each convoy
    (S3:L214), then answer ``done`` for every power asked to declare air interdiction (S3:L230)."""
    while game.d["battle"] is not None and game.d["battle"].get("kind") in ("convoy-route", "interdict"):
        answer = "convoy safest" if game.d["battle"]["kind"] == "convoy-route" else "done"
        choose(game, game.to_act(), answer if answer in options(game) else options(game)[0])


def write_convoys(game: AAGame) -> None:
    """Write down the safest route for each convoy of the income just collected (S3:L214)."""
    while game.d["battle"] is not None and game.d["battle"].get("kind") == "convoy-route":
        choose(game, game.to_act(), "convoy safest" if "convoy safest" in options(game) else options(game)[0])
