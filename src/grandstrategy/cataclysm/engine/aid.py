"""Aid and Influence markers going home (LR 11.2): the civil-war bookkeeping that control changes need.

A bottom module of the engine: :mod:`control` calls :func:`control_changed` whenever an area changes
hands, and :mod:`civil_war` (the civil-war steps, above it) uses the same helpers.
"""

from __future__ import annotations

from grandstrategy.cataclysm.engine.game import CataclysmGame
from grandstrategy.cataclysm.rules.civil_war import CHINA, LEFT, RIGHT


def is_active(game: CataclysmGame, power: str) -> bool:
    """Whether the power is in play (not surrendered, not yet out of the game)."""
    line = game.state.powers.get(power)
    return line is not None and line.active


def give_back(game: CataclysmGame, aid: list[str]) -> None:
    """Return aid or Influence markers to their powers' available boxes (LR 11.2)."""
    for power in aid:
        if is_active(game, power):
            game.state.line_to_change(power).available_offensives += 1


def area_name(game: CataclysmGame, area_id: str) -> str:
    """The area's name for the log; the Chinese Civil War's marker stands for all of China."""
    return "China" if area_id == CHINA else game.module.area(area_id).name


def control_changed(game: CataclysmGame, area_id: str) -> None:
    """A power gained (or an area lost) control: its civil war ends and aid and Influence there go
    back (LR 2.2.4, 11.0, 11.2). The Chinese Civil War goes on, but aid on the army there goes back.

    ``engine.control.change_control`` calls this where it removes the cubes.
    """
    state = game.state
    sides = state.civil_wars.pop(area_id, None)
    if sides is not None:
        give_back(game, [*sides[LEFT], *sides[RIGHT]])
        game.note(f"the civil war in {area_name(game, area_id)} ends: control of the area changed (LR 11.0)")
    give_back(game, state.influence.pop(area_id, []))
    give_back(game, state.chinese_aid.pop(area_id, []))
