"""The Atomic Bomb (LR 12.2.2, 5.5.1).

The marker's life: the US escalates to total war and the marker goes two turns ahead on the turn
track (``a-bomb-timer:united-states``); at that turn's start it becomes available (the state marker
``a-bomb-available``); one build puts it in the cup (``a-bomb:united-states``), never the reserve;
drawn, it goes to Washington DC (``a-bomb-ready``). While it is there, one military action makes an
atomic strategic bombing operation against an enemy home area; the marker goes back to available
at the start. If the defender took any loss (a tie included, LR 10.7) it makes one stability
test; should it collapse, each loss adds one to its surrender threshold, and should it surrender,
the Democracies take the Surrender marker.

The sources do not say how the atomic attack is rolled; the engine resolves it as a strategic
bombing air combat in which the bomb attacks with the two dice of one air unit and cannot itself
be lost (see docs/decisions.md).
"""

from __future__ import annotations

from grandstrategy.cataclysm.engine.combat import destroy_token
from grandstrategy.cataclysm.engine.common import stability_step
from grandstrategy.cataclysm.engine.game import CataclysmGame
from grandstrategy.cataclysm.engine.machine import Step, step
from grandstrategy.cataclysm.module.schema import AreaStatus
from grandstrategy.cataclysm.rules import combat as arithmetic
from grandstrategy.cataclysm.rules.control import at_war, controller
from grandstrategy.cataclysm.rules.dice import roll_result
from grandstrategy.cataclysm.rules.economy import undamaged_printed

US = "united-states"
TIMER = f"a-bomb-timer:{US}"
BOMB = f"a-bomb:{US}"
AVAILABLE = "a-bomb-available"
READY = "a-bomb-ready"


def start_timer(game: CataclysmGame) -> None:
    """On the US escalating to total war: the marker goes two turns ahead (LR 12.2.2)."""
    state = game.state
    placed = any(TIMER in items or BOMB in items for items in state.turn_track.values())
    if placed or BOMB in state.cup or AVAILABLE in state.markers or READY in state.markers:
        return
    state.turn_track.setdefault(state.turn + 4, []).append(TIMER)
    game.note(f"the A-Bomb marker goes on the turn track for {state.turn + 4} (LR 12.2.2)")


def build_option(game: CataclysmGame, power: str) -> list[str]:
    """``build a-bomb`` for the US while the marker is available (one build, LR 12.2.2)."""
    return ["build a-bomb"] if power == US and AVAILABLE in game.state.markers else []


def build(game: CataclysmGame) -> None:
    game.state.markers.remove(AVAILABLE)
    game.state.cup.append(BOMB)  # never the reserve (LR 12.2.2)
    game.state.cup.sort()
    game.note("the United States builds the A-Bomb")


def targets(game: CataclysmGame, power: str) -> list[str]:
    """``atomic bombing of X`` for each enemy home area, while the bomb is in Washington DC."""
    state, module = game.state, game.module
    if power != US or READY not in state.markers:
        return []
    found = []
    for area_id in module.in_play_ids(state.maps):
        area = module.area(area_id)
        holder = controller(module, state, area_id)
        home = area.status is AreaStatus.HOME and holder is not None and area.owner == holder
        if home and holder in state.powers and at_war(state, US, str(holder)):
            found.append(f"atomic bombing of {area.name}")
    return sorted(found)


@step("atomic-op")
def _atomic_op(game: CataclysmGame, current: Step) -> None:
    """Start: the marker goes back to available; then the bombing air combat (LR 12.2.2, 9.5.2)."""
    state, module = game.state, game.module
    state.markers.remove(READY)
    state.markers.append(AVAILABLE)
    target = current["target"]
    defender = controller(module, state, target)
    assert defender is not None
    air = [
        u
        for u in state.units
        if u.area == target and u.power == defender and module.unit_types[u.type].unit_class == "air"
    ]
    dice = 2 if air else 1  # intrinsic defence (LR 9.5.2)
    game.note(f"the United States drops the A-Bomb on {module.area(target).name} (LR 12.2.2)")
    game.roll(2, "A-Bomb attack", "atomic-defence", target=target, defender=defender, defence=dice)


@step("atomic-defence")
def _atomic_defence(game: CataclysmGame, current: Step) -> None:
    game.roll(
        current["defence"],
        f"{current['defender']} air defence",
        "atomic-result",
        target=current["target"],
        defender=current["defender"],
        attack=current["dice"],
    )


@step("atomic-result")
def _atomic_result(game: CataclysmGame, current: Step) -> None:
    state, module = game.state, game.module
    target, defender = current["target"], current["defender"]
    attack, defence = roll_result(current["attack"]), roll_result(current["dice"])
    game.note(f"A-Bomb: attack {attack} against air defence {defence}")
    if attack < defence:
        game.note("the A-Bomb does no harm")
        return
    # a tie inflicts one loss on each side (LR 10.7); the bomb takes none, the defender's is absorbed
    # by an air unit or, with none, damages the resource as in strategic bombing (LR 9.5.2)
    losses = arithmetic.losses(attack, defence)
    air = sorted(
        (
            u
            for u in state.units
            if u.area == target and u.power == defender and module.unit_types[u.type].unit_class == "air"
        ),
        key=lambda u: (-arithmetic.steps(u.type), u.id),
    )
    left = losses
    for unit in air:  # the defender's air units absorb what they can, upgraded first
        for _ in range(arithmetic.steps(unit.type)):
            if left and any(u.id == unit.id for u in state.units):  # still on the map
                destroy_token(game, str(unit.id), flip=True)
                left -= 1
    if left and undamaged_printed(module, state, target):  # the excess hits a resource (LR 9.5.2)
        state.damaged.append(target)
        game.note(f"the A-Bomb damages the resource in {module.area(target).name}")
    game.note(f"{defender} suffers {losses} loss(es) from the A-Bomb")
    marker = f"a-bomb-losses:{defender}:{losses}"
    state.markers.append(marker)
    game.then(stability_step(defender, "A-Bomb"), {"do": "atomic-after", "marker": marker})


@step("atomic-after")
def _atomic_after(game: CataclysmGame, current: Step) -> None:
    """The losses count toward the surrender threshold only for the test the bomb caused."""
    if current["marker"] in game.state.markers:
        game.state.markers.remove(current["marker"])
