"""Changing control of an area and what follows from it (LR 2.2.4, 5.2.3, 5.2.4, 5.5.1, 12.2)."""

from __future__ import annotations

from grandstrategy.cataclysm.engine.aid import control_changed
from grandstrategy.cataclysm.engine.common import flag_step, stability_step
from grandstrategy.cataclysm.engine.displacement import sweep
from grandstrategy.cataclysm.engine.game import CataclysmGame
from grandstrategy.cataclysm.engine.machine import Step
from grandstrategy.cataclysm.module.schema import AreaStatus, Ideology
from grandstrategy.cataclysm.rules.control import (
    at_war,
    controller,
    friendly_powers,
    interests,
)
from grandstrategy.cataclysm.rules.special import status_quo_outscored


def change_control(game: CataclysmGame, area_id: str, gainer: str) -> None:
    """Give ``gainer`` control of the area with every effect of LR 2.2.4.

    Cubes, aid and markers go; the gainer places one cube (two in a capital) unless the area is
    printed in its colour, and an active same-ideology owner gets its own area back instead.
    Opposing non-enemy powers with interests there are provoked; an owner losing a home area or a
    resource colony takes stability tests (two for its capital); an owner left without any home
    area surrenders first (LR 5.5.4). A special British base in the area is removed (LR 2.3.3).
    """
    state, module = game.state, game.module
    area = module.area(area_id)
    before = controller(module, state, area_id)
    watching = [
        power
        for power, line in state.powers.items()
        if line.active
        and power != gainer
        and module.powers[power].ideology is not module.powers[gainer].ideology
        and not at_war(state, power, gainer)
        and area_id in interests(module, state, power)
    ]
    owner_flags = cube_removal_flags(game, area_id)
    state.cubes.pop(area_id, None)
    control_changed(game, area_id)  # a civil war there ends; aid and Influence go back (LR 11.0)
    if area_id in state.special_bases:  # whoever gains the country, the UK included (LR 2.3.3)
        state.special_bases.remove(area_id)
        game.note(f"the special British base in {area.name} is removed")
    sweep(game)  # units that may not share the area with the new controller leave (LR 7.1)
    owner = area.owner
    if (
        owner is not None
        and owner != gainer
        and state.powers.get(owner) is not None
        and state.powers[owner].active
        and module.powers[owner].ideology is module.powers[gainer].ideology
    ):
        game.note(f"{area.name} returns to {owner}")
    elif owner != gainer:
        state.cubes[area_id] = {gainer: 2 if area.capital else 1}
    game.note(f"{gainer} gains control of {area.name}")
    steps = [flag_step(power, f"provoked: {gainer} gains {area.name}") for power in watching]
    steps += (
        [flag_step(area.owner, f"a non-friendly cube leaves {area.name}")] * owner_flags if area.owner else []
    )
    lost = before if before is not None and before != controller(module, state, area_id) else None
    if lost is not None and area.owner == lost and (area.status is AreaStatus.HOME or area.resources):
        steps += [stability_step(lost, f"loss of {area.name}")] * (2 if area.capital else 1)
    if lost is not None and area.owner == lost and area.status is AreaStatus.HOME:
        steps = surrender_if_homeless(game, lost) + steps
    game.then(*steps)
    check_status_quo(game)


def surrender_if_homeless(game: CataclysmGame, power: str) -> list[Step]:
    """The surrender of an active power that controls none of its home areas in play: it surrenders
    at once, whenever that happens, not only when it collapses (LR 5.5.4, L1230)."""
    state, module = game.state, game.module
    line = state.powers.get(power)
    if line is None or not line.active:
        return []
    homes = [
        a.id
        for a in module.areas.values()
        if a.owner == power and a.status is AreaStatus.HOME and a.map.value in state.maps
    ]
    if not homes or any(controller(module, state, home) == power for home in homes):
        return []
    game.note(f"{power} controls none of its home areas: it surrenders (LR 5.5.4)")
    return [{"do": "surrender", "power": power}]


def cube_removal_flags(game: CataclysmGame, area_id: str) -> int:
    """Flags the area's owner gains as non-friendly cubes leave its home area or resource colony:
    one, two for its capital (LR 5.2.4)."""
    state, module = game.state, game.module
    area = module.area(area_id)
    owner = area.owner
    if owner is None or owner not in state.powers or not state.powers[owner].active:
        return 0
    if not (area.status is AreaStatus.HOME or (area.status is AreaStatus.COLONY and area.resources)):
        return 0
    hostile = [
        holder
        for holder in state.cubes.get(area_id, {})
        if holder != owner and (holder == "neutral" or not friendly_powers(module, state, owner, holder))
    ]
    return (2 if area.capital else 1) if hostile else 0


def check_status_quo(game: CataclysmGame, *, force_reason: str | None = None) -> None:
    """End Status Quo when its conditions are met; each Democracy then gains a flag (LR 12.2)."""
    state, module = game.state, game.module
    if "status-quo" not in state.markers:
        return
    reason = force_reason
    if reason is None and status_quo_outscored(module, state):
        reason = "Germany and Italy outscore France and the UK"
    if reason is None:
        return
    state.markers.remove("status-quo")
    game.note(f"Status Quo ends: {reason}")
    game.then(
        *(
            flag_step(power, "Status Quo ends")
            for power, line in state.powers.items()
            if line.active and module.powers[power].ideology is Ideology.DEMOCRACY
        )
    )
