"""Checks that must hold after every action of every game (issue: rules engine part 1).

Every counter is in exactly one place and within the counter mix; cubes within their supply;
the force pool within its limit; the cup holds no resources and no holding box keeps one past
the administration phase (a reserved resource counts with the offensive markers); no power is
asked with no option.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from grandstrategy.cataclysm.engine.common import (
    aid_and_influence,
    counters_in_play,
    counters_off_map,
    parse_counter,
)
from grandstrategy.cataclysm.engine.displacement import sweep_pending
from grandstrategy.cataclysm.engine.game import CataclysmGame
from grandstrategy.cataclysm.rules.control import production_sites
from grandstrategy.cataclysm.rules.occupation import violations


def problems(game: CataclysmGame) -> list[str]:
    """Every broken invariant, as a sentence; empty when all hold."""
    state, module = game.state, game.module
    found: list[str] = []
    places = counters_off_map(game) + aid_and_influence(game)  # aid and Influence: LR 11.2, 11.3
    if any(parse_counter(c)[0] == "resource" for c in state.cup):
        found.append("a resource marker is in the cup (LR 3.2.4)")
    if state.phase == "action" and any(
        parse_counter(c)[0] == "resource" for line in state.powers.values() for c in line.holding_box
    ):  # outside production a resource is reserved or available (LR 3.2.4, 3.4)
        found.append("a resource marker is left in a holding box after the administration phase (LR 3.2.4)")
    markers = Counter(parse_counter(c)[0] for c in places)
    if markers["crisis"] != 4:
        found.append(f"{markers['crisis']} Crisis markers in the cup and on the turn track, not 4")
    cubes: Counter[str] = Counter()
    for held in state.cubes.values():
        for power, count in held.items():
            cubes[power] += count
    if cubes["neutral"] > module.neutral_cubes:
        found.append(f"{cubes['neutral']} neutral cubes on the map; only {module.neutral_cubes} exist")
    for power, line in state.powers.items():
        mix = module.powers[power].counters
        if cubes[power] > mix.cubes:
            found.append(f"{power} has {cubes[power]} cubes on the map; only {mix.cubes} exist")
        mine = [c for c in places if parse_counter(c)[1] == power]
        kinds = Counter(parse_counter(c)[0] for c in mine)
        if line.active and kinds["flag"] + line.available_flags != mix.flags:
            found.append(
                f"{power}: {kinds['flag']} flags in play + {line.available_flags} available != {mix.flags}"
            )
        offensives = kinds["offensive"] + kinds["resource"] + line.available_offensives
        if line.active and offensives != mix.offensives:
            found.append(f"{power}: offensive/resource markers add up to {offensives}, not {mix.offensives}")
        units = counters_in_play(game, power)
        for key, count in line.force_pool.items():
            if count < 0:
                found.append(f"{power}: force pool holds {count} {key}")
            units[key] += count
        for key, count in units.items():
            total = (
                mix.upgrade_markers.get(key[8:], 0) if key.startswith("upgrade:") else mix.units.get(key, 0)
            )
            if count > total:
                found.append(f"{power}: {count} {key} in play or in the force pool; the mix has {total}")
        limit = module.powers[power].status_card[line.commitment].force_pool
        cutting = any(s.get("do") == "force-pool-cut" and s.get("power") == power for s in game.stack) or (
            game.pending is not None and game.pending["then"].get("do", "").startswith("force-pool-cut")
        )
        if line.active and not cutting and sum(units.values()) > limit:
            found.append(f"{power}: force pool holds {sum(units.values())} counters, over its limit {limit}")
    found += _occupation(game)
    if game.pending is not None and game.pending["type"] == "decide" and not game.pending["options"]:
        found.append("a power is asked to decide with no options")
    return found


def _occupation(game: CataclysmGame) -> list[str]:
    """Occupation limits per ideology per area (LR 7.1).

    New units may crowd a production site; an operation's target may hold up to the operation's
    allowance until the operation ends; and nothing is checked while units that must leave are
    still leaving, or while a power is regrouping (it may not end its regroup over the limits).
    """
    state, module = game.state, game.module
    if sweep_pending(game):
        return []
    if game.pending is not None and game.pending["then"].get("do") in ("regroup-answer", "regroup-move"):
        return []  # a regroup may exceed the limits until it ends (LR 7.1, 9.2 step 7d)
    exempt = {site for power in state.powers for site in production_sites(module, state, power)}
    exempt |= operation_targets([*game.stack, *([game.pending] if game.pending is not None else [])])
    return violations(module, state, exempt=exempt)


def operation_targets(frames: list[dict[str, Any]]) -> set[str]:
    """Targets of operations under way, found in pending steps and the steps they resume."""
    found: set[str] = set()
    for frame in frames:
        while isinstance(frame, dict):
            op = frame.get("op")
            if isinstance(op, dict):
                found.add(op["target"])
            frame = frame.get("then") or frame.get("next")  # type: ignore[assignment]
    return found
