"""Communist posture (LR 12.3): three postures, each with its penalties, changed once per turn."""

from __future__ import annotations

from grandstrategy.cataclysm.engine.game import CataclysmGame

POSTURES = ("military-reforms", "political-purges", "collective-security")


def posture_options(game: CataclysmGame, power: str) -> list[str]:
    """A Communist power may change posture once per turn (LR 12.3)."""
    line = game.state.powers[power]
    if line.posture is None or line.posture_changed:
        return []
    return [f"posture {name}" for name in POSTURES if name != line.posture]


def posture_penalty(game: CataclysmGame, power: str, action: str) -> int:
    """The posture's penalty to a political action's check (LR 12.3)."""
    posture = game.state.powers[power].posture
    if posture == "military-reforms":
        return -1
    if posture == "political-purges":
        return -1 if action == "diplomacy" else 0
    if posture == "collective-security":
        return 0 if action == "diplomacy" else -1
    return 0


def change_posture(game: CataclysmGame, power: str, posture: str) -> None:
    line = game.state.line_to_change(power)
    line.posture = posture
    line.posture_changed = True
    game.note(f"{power} changes posture to {posture}")
