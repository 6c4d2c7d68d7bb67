"""Collapse and surrender (LR 5.5.2–5.5.4).

Collapse follows LR 5.5.3 except the armistice offers of a power at Exhaustion (wars end by
armistice later, with the declaration of war). Surrender follows LR 5.5.4 except the allies'
take-over of areas and the diplomatic opportunity for former home areas (both later).
"""

from __future__ import annotations

from collections import Counter

from grandstrategy.cataclysm.engine.common import flag_step, return_to_card, stability_step
from grandstrategy.cataclysm.engine.game import CataclysmGame
from grandstrategy.cataclysm.engine.machine import Step, die_outcomes, step
from grandstrategy.cataclysm.module.schema import AreaStatus, Commitment, Stability
from grandstrategy.cataclysm.rules.control import allied, at_war, controller
from grandstrategy.cataclysm.rules.politics import surrender_threshold, surrenders


@step("collapse")
def _collapse(game: CataclysmGame, current: Step) -> None:
    power = current["power"]
    threshold = surrender_threshold(game.module, game.state, power)
    game.note(f"{power} collapses; surrender threshold {threshold}")
    game.chance(
        "die",
        f"{power} surrender roll (threshold {threshold})",
        die_outcomes(),
        "collapse-roll",
        power=power,
        threshold=threshold,
    )


@step("collapse-roll")
def _collapse_roll(game: CataclysmGame, current: Step) -> None:
    power, roll, threshold = current["power"], int(current["outcome"]), current["threshold"]
    if surrenders(roll, threshold):
        game.note(f"{power} rolls {roll} against {threshold}: it surrenders")
        game.push("surrender", power=power)
    else:
        game.note(f"{power} rolls {roll} against {threshold}: its government falls, but it fights on")
        _collapse_procedure(game, power)


def _enemies(game: CataclysmGame, power: str) -> list[str]:
    return [p for p, line in game.state.powers.items() if line.active and at_war(game.state, power, p)]


def _allies(game: CataclysmGame, power: str) -> list[str]:
    return [
        p
        for p, line in game.state.powers.items()
        if line.active and allied(game.module, game.state, power, p)
    ]


def _collapse_procedure(game: CataclysmGame, power: str) -> None:
    """LR 5.5.3 in order."""
    state = game.state
    line = state.powers[power]
    steps = [flag_step(enemy, f"{power} collapses") for enemy in _enemies(game, power)]
    line.stability = Stability.WAVERING
    if line.reserve is not None:
        return_to_card(game, line.reserve)
        line.reserve = None
    line.failed_actions.clear()
    line.effectiveness_reduced = True
    steps += [stability_step(ally, f"{power} collapses") for ally in _allies(game, power)]
    game.then(*steps)
    if line.commitment in (Commitment.MOBILIZATION, Commitment.TOTAL_WAR):
        line.commitment = Commitment.EXHAUSTION
        game.note(f"{power} falls to exhaustion")
    if power == "italy" and "il-duce" in state.markers:  # LR 12.1.2
        state.markers.remove("il-duce")
    if power == "germany" and "night-of-the-long-knives" in state.markers:  # LR 12.1.1
        state.markers.remove("night-of-the-long-knives")


@step("surrender")
def _surrender(game: CataclysmGame, current: Step) -> None:
    """LR 5.5.4: flags to enemies, allies test, alliances break, pieces go, neutral cubes arrive."""
    state, module = game.state, game.module
    power = current["power"]
    line = state.powers[power]
    steps = [flag_step(enemy, f"{power} surrenders") for enemy in _enemies(game, power)]
    steps += [stability_step(ally, f"{power} surrenders") for ally in _allies(game, power)]
    for members in state.alliances.values():
        if power in members:
            members.remove(power)
    state.units = [unit for unit in state.units if unit.power != power]
    state.cup = [c for c in state.cup if c.split(":")[1:2] != [power]]
    line.reserve = None
    line.holding_box.clear()
    for turn, items in state.turn_track.items():
        state.turn_track[turn] = [c for c in items if c.split(":")[1:2] != [power]]
    for area_id in list(state.cubes):
        state.cubes[area_id].pop(power, None)
        if not state.cubes[area_id]:
            del state.cubes[area_id]
    for key, owner in state.base_owners.items():
        if owner == power:
            state.base_owners[key] = None
    line.active = False
    for area in module.areas.values():
        if area.owner != power or area.map.value not in state.maps:
            continue
        if controller(module, state, area.id) is None and not state.cubes.get(area.id):
            state.cubes[area.id] = {"neutral": 2 if area.capital else 1}
    state.wars = [
        (list(a), list(b))
        for a, b in (
            ([p for p in side_a if p != power], [p for p in side_b if p != power])
            for side_a, side_b in state.wars
        )
        if a and b
    ]
    ideology = module.powers[power].ideology
    cubes: Counter[str] = Counter()
    for area in module.areas.values():
        if area.owner == power and area.status is AreaStatus.HOME:
            for holder, count in state.cubes.get(area.id, {}).items():
                if holder in module.powers and module.powers[holder].ideology is not ideology:
                    cubes[module.powers[holder].ideology.value] += count
    if cubes:
        best = max(cubes.values())
        takers = sorted(i for i, n in cubes.items() if n == best)
        state.surrenders = [*state.surrenders, "+".join(takers)]
        game.note(f"{power} surrenders; the Surrender marker goes to {' and '.join(takers)}")
    else:
        game.note(f"{power} surrenders; nobody holds its home areas, so its Surrender marker is removed")
    game.then(*steps, {"do": "check-game-end"})
