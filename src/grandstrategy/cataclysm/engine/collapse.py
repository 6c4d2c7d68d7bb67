"""Collapse and surrender (LR 5.5.2–5.5.4).

Collapse follows LR 5.5.3 except the armistice offers of a power at Exhaustion (wars end by
armistice later, with the declaration of war). Surrender follows LR 5.5.4, with the diplomatic
opportunity of LR 5.7 for former home areas; allies take over land areas only (bases later).
"""

from __future__ import annotations

from collections import Counter
from fractions import Fraction

from grandstrategy.cataclysm.engine.common import (
    counters_in_play,
    effectiveness_check,
    flag_step,
    power_order,
    return_to_card,
    stability_step,
)
from grandstrategy.cataclysm.engine.control import change_control, check_status_quo
from grandstrategy.cataclysm.engine.displacement import sweep
from grandstrategy.cataclysm.engine.game import CataclysmGame
from grandstrategy.cataclysm.engine.machine import Step, die_outcomes, step
from grandstrategy.cataclysm.module.schema import AreaStatus, Commitment, Stability
from grandstrategy.cataclysm.rules.control import allied, at_war, controller, friendly_powers
from grandstrategy.cataclysm.rules.politics import surrender_threshold, surrenders
from grandstrategy.cataclysm.rules.special import a_bomb_losses
from grandstrategy.cataclysm.rules.war import enemy_pairs, group_wars


@step("chained-procedures")
def _chained_procedures(game: CataclysmGame, current: Step) -> None:
    """Allies that collapsed during a collapse or surrender procedure resolve theirs now, one at a
    time in increasing effectiveness order (LR 5.5.3 step 6, 5.5.4 step 2)."""
    waiting = [p for p in current["powers"] if game.state.powers[p].active]
    game.then(*({"do": "collapse", "power": p} for p in power_order(game, decreasing=False, powers=waiting)))


@step("collapse")
def _collapse(game: CataclysmGame, current: Step) -> None:
    power = current["power"]
    state, module = game.state, game.module
    if not state.powers[power].active:
        return
    homes = [a.id for a in module.areas.values() if a.owner == power and a.status is AreaStatus.HOME]
    if not any(controller(module, state, area) == power for area in homes):
        game.note(f"{power} collapses holding none of its home areas: it surrenders (LR 5.5.4)")
        game.push("surrender", power=power)
        return
    threshold = surrender_threshold(module, state, power)
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
    game.stack = [s for s in game.stack if not (s["do"] == "stability-test" and s.get("power") == power)]
    line.stability = Stability.WAVERING
    if line.reserve is not None:
        return_to_card(game, line.reserve)
        line.reserve = None
    line.failed_actions.clear()
    line.effectiveness_reduced = True
    allies = _allies(game, power)
    steps += [stability_step(ally, f"{power} collapses", chained=True) for ally in allies]
    if allies:  # an ally's collapse is resolved after this procedure (LR 5.5.3 step 6)
        game.push("chained-procedures", powers=[])
    if line.commitment is Commitment.EXHAUSTION:  # step 7: alliances break, armistice offered
        _leave_alliances(game, power)
        enemies = [e for e in power_order(game, decreasing=False) if at_war(state, power, e)]
        steps.append({"do": "armistice-offer", "power": power, "enemies": enemies, "accepted": []})
    game.then(*steps)
    if line.commitment in (Commitment.MOBILIZATION, Commitment.TOTAL_WAR):
        line.commitment = Commitment.EXHAUSTION
        game.note(f"{power} falls to exhaustion")
        game.push("force-pool-cut", power=power)
    if power == "italy" and "il-duce" in state.markers:  # LR 12.1.2
        state.markers.remove("il-duce")
    if power == "germany" and "night-of-the-long-knives" in state.markers:  # LR 12.1.1
        state.markers.remove("night-of-the-long-knives")


@step("surrender")
def _surrender(game: CataclysmGame, current: Step) -> None:
    """LR 5.5.4, in order: flags to enemies, allies test, allies take areas, then the power leaves."""
    power = current["power"]
    steps = [flag_step(enemy, f"{power} surrenders") for enemy in _enemies(game, power)]
    allies = _allies(game, power)
    steps += [stability_step(ally, f"{power} surrenders", chained=True) for ally in allies]
    if allies:  # an ally's collapse is resolved after this procedure, game-end check included (LR 5.5.4)
        game.push("chained-procedures", powers=[])
    steps.append({"do": "surrender-takeover", "power": power, "offers": _takeover_offers(game, power)})
    steps.append({"do": "surrender-remove", "power": power})
    game.then(*steps)


def _takeover_offers(game: CataclysmGame, power: str) -> list[list[str]]:
    """[ally, area] pairs: allies with land units in areas the power controls (LR 5.5.4 step 3)."""
    state, module = game.state, game.module
    offers = []
    for ally in _allies(game, power):
        for area_id in sorted({u.area for u in state.units if u.power == ally}):
            land = any(
                u.area == area_id and module.unit_types[u.type].unit_class == "land"
                for u in state.units
                if u.power == ally
            )
            if land and controller(module, state, area_id) == power:
                offers.append([ally, area_id])
    return offers


@step("surrender-takeover")
def _takeover(game: CataclysmGame, current: Step) -> None:
    offers = current["offers"]
    if not offers:
        return
    ally, area_id = offers[0]
    game.ask(
        ally,
        f"{current['power']} surrenders: take control of {area_id}? (LR 5.5.4)",
        ["take", "leave"],
        "surrender-takeover-answer",
        power=current["power"],
        offers=offers,
    )


@step("surrender-takeover-answer")
def _takeover_answer(game: CataclysmGame, current: Step) -> None:
    ally, area_id = current["offers"][0]
    if current["choice"] == "take":
        area = game.module.area(area_id)
        game.state.cubes[area_id] = {ally: 2 if area.capital else 1}
        game.note(f"{ally} takes control of {area.name}")
        check_status_quo(game)  # victory points changed with the cubes (LR 1.7.1, 12.2)
    game.push("surrender-takeover", power=current["power"], offers=current["offers"][1:])


@step("surrender-remove")
def _surrender_remove(game: CataclysmGame, current: Step) -> None:
    """Steps 4-8 of LR 5.5.4: alliances break, pieces go, neutral cubes and diplomatic opportunities;
    the Surrender marker (step 9) and the game-end check (step 10) follow the opportunities."""
    sweep(game)  # units relying on its bases or areas may have to leave (LR 7.1.2)
    state, module = game.state, game.module
    power = current["power"]
    line = state.powers[power]
    for members in state.alliances.values():
        if power in members:
            members.remove(power)
    state.units = [unit for unit in state.units if unit.power != power]
    state.cup = [c for c in state.cup if c.split(":")[1:2] != [power]]
    line.reserve = None
    line.holding_box.clear()
    for turn, items in state.turn_track.items():
        state.turn_track[turn] = [c for c in items if c.split(":")[1:2] != [power]]
    cleared = sorted(area_id for area_id, held in state.cubes.items() if held.get(power))
    freed = _liberation_flags(game, power, cleared)
    for area_id in list(state.cubes):
        state.cubes[area_id].pop(power, None)
        if not state.cubes[area_id]:
            del state.cubes[area_id]
    for key, owner in state.base_owners.items():
        if owner == power:  # its base marker goes: a printed roundel of an active power shows again,
            state.base_owners[key] = _printed_owner(game, key)  # anything else is unowned (LR 5.5.4)
    line.active = False
    neutral_homes = _neutral_cubes(game, [a.id for a in module.areas.values() if a.owner == power])
    # step 7: areas of powers that surrendered earlier, emptied of this power's cubes, go neutral too
    earlier = [
        area_id
        for area_id in cleared
        if (owner := module.area(area_id).owner) is not None
        and owner != power
        and owner in state.powers
        and not state.powers[owner].active
    ]
    later_homes = _neutral_cubes(game, earlier)
    state.wars = [
        (list(a), list(b))
        for a, b in (
            ([p for p in side_a if p != power], [p for p in side_b if p != power])
            for side_a, side_b in state.wars
        )
        if a and b
    ]
    steps: list[Step] = [
        {"do": "opportunity", "area": area_id, "powers": eligible}
        for area_id in [*sorted(neutral_homes), *later_homes]
        if not module.area(area_id).remote  # no other power ever controls a remote area (LR 2.2.8)
        and (eligible := _home_holders(game, module.area(area_id).owner or power))
    ]
    game.then(*freed, *steps, {"do": "surrender-marker", "power": power}, {"do": "check-game-end"})
    check_status_quo(game)  # victory points changed with the cubes (LR 1.7.1, 12.2)


def _liberation_flags(game: CataclysmGame, power: str, cleared: list[str]) -> list[Step]:
    """Flags for active owners whose home areas (or colonies with a resource) lose the surrendered
    power's non-friendly cubes at step 5: one each, two for a capital (LR 5.2.4)."""
    state, module = game.state, game.module
    flags: list[Step] = []
    for area_id in cleared:
        area = module.area(area_id)
        owner = area.owner
        if owner is None or owner == power or owner not in state.powers or not state.powers[owner].active:
            continue
        if not (area.status is AreaStatus.HOME or (area.status is AreaStatus.COLONY and area.resources)):
            continue
        if friendly_powers(module, state, owner, power):
            continue
        reason = f"{power}'s cubes leave {area.name}"
        flags += [flag_step(owner, reason)] * (2 if area.capital else 1)
    return flags


def _printed_owner(game: CataclysmGame, key: str) -> str | None:
    """Who owns a base once a surrendered power's marker leaves it (LR 2.3.2, 5.5.4 steps 5 and 7):
    the power printed there if still active, otherwise nobody (an Unowned Base marker)."""
    area_id, _, index = key.partition("#")
    printed = game.module.area(area_id).bases[int(index)].owner
    line = game.state.powers.get(printed) if printed is not None else None
    return printed if line is not None and line.active else None


def _neutral_cubes(game: CataclysmGame, area_ids: list[str]) -> list[str]:
    """Put a neutral cube (two in a capital) in each in-play area of a surrendered power that no
    power controls (LR 5.5.4 steps 6 and 7); the home areas among them, for diplomatic opportunity."""
    state, module = game.state, game.module
    homes = []
    for area_id in area_ids:
        area = module.area(area_id)
        if area.map.value not in state.maps:
            continue
        if controller(module, state, area.id) is None and not state.cubes.get(area.id):
            used = sum(held.get("neutral", 0) for held in state.cubes.values())
            count = min(2 if area.capital else 1, module.neutral_cubes - used)  # a hard limit (LR 2.4)
            if count > 0:
                state.cubes[area.id] = {"neutral": count}
            else:
                game.note(f"no neutral cube is left for {area.name}")
            if area.status is AreaStatus.HOME:
                homes.append(area.id)
    return homes


def _home_holders(game: CataclysmGame, owner: str) -> list[str]:
    """Powers with cubes in the home areas of the surrendered ``owner``, in decreasing effectiveness
    order: the powers eligible for the opportunity in its former home areas (LR 5.7)."""
    state, module = game.state, game.module
    holders = {
        holder
        for area in module.areas.values()
        if area.owner == owner and area.status is AreaStatus.HOME
        for holder in state.cubes.get(area.id, {})
        if holder in module.powers
    }
    return [p for p in power_order(game, decreasing=True) if p in holders]


@step("surrender-marker")
def _surrender_marker(game: CataclysmGame, current: Step) -> None:
    """Step 9 of LR 5.5.4, after the diplomatic opportunities of step 6: the opposing ideology with
    the most cubes in the surrendered power's home areas takes its Surrender marker; a tie shares it."""
    state, module = game.state, game.module
    power = current["power"]
    ideology = module.powers[power].ideology
    cubes: Counter[str] = Counter()
    for area in module.areas.values():
        if area.owner == power and area.status is AreaStatus.HOME:
            for holder, count in state.cubes.get(area.id, {}).items():
                if holder in module.powers and module.powers[holder].ideology is not ideology:
                    cubes[module.powers[holder].ideology.value] += count
    if a_bomb_losses(state, power):
        state.surrenders = [*state.surrenders, "democracy"]  # LR 12.2.2
        game.note(f"{power} surrenders to the A-Bomb; the Democracies take its Surrender marker")
    elif cubes:
        best = max(cubes.values())
        takers = sorted(i for i, n in cubes.items() if n == best)
        state.surrenders = [*state.surrenders, "+".join(takers)]
        game.note(f"{power} surrenders; the Surrender marker goes to {' and '.join(takers)}")
    else:
        game.note(f"{power} surrenders; nobody holds its home areas, so its Surrender marker is removed")


@step("opportunity")
def _opportunity(game: CataclysmGame, current: Step) -> None:
    """Diplomatic opportunity (LR 5.7): in order, each eligible power checks; the first success takes it.

    Resistance does not apply. The engine always makes the attempt: it can only help.
    """
    if not current["powers"]:
        return
    power = current["powers"][0]
    if not game.state.powers[power].active:
        game.push("opportunity", area=current["area"], powers=current["powers"][1:])
        return
    effectiveness_check(
        game,
        power,
        f"diplomatic opportunity in {current['area']}",
        "opportunity-result",
        area=current["area"],
        powers=current["powers"],
    )


@step("opportunity-result")
def _opportunity_result(game: CataclysmGame, current: Step) -> None:
    if current["success"]:
        change_control(game, current["area"], current["powers"][0])
    else:
        game.push("opportunity", area=current["area"], powers=current["powers"][1:])


@step("force-pool-cut")
def _force_pool_cut(game: CataclysmGame, current: Step) -> None:
    """Exhaustion lowers the force-pool limit: the player removes counters down to it (LR 4.1.2).

    Unbuilt counters and units on the map are the player's choice; counters hidden in the cup are
    taken only when nothing else is left, at random, so the cup stays secret (docs/decisions.md).
    """
    power = current["power"]
    state, module = game.state, game.module
    line = state.powers[power]
    limit = module.powers[power].status_card[line.commitment].force_pool
    in_play = counters_in_play(game, power)
    excess = sum(in_play.values()) + sum(line.force_pool.values()) - limit
    if excess <= 0:
        return
    options = [f"unbuilt {key}" for key in sorted(line.force_pool) if line.force_pool[key] > 0]
    options += [f"unit {unit.area} #{unit.id}" for unit in state.units if unit.power == power]
    if options:
        game.ask(
            power,
            f"exhaustion: remove {excess} counter(s) from your force pool (LR 4.1.2)",
            options,
            "force-pool-cut-answer",
            power=power,
        )
        return
    mine = sorted(
        c for c in state.cup if c.split(":")[1:2] == [power] and c.startswith(("unit:", "upgrade:"))
    )
    if not mine:
        return
    counts = Counter(mine)
    total = len(mine)
    game.chance(
        "draw",
        f"{power} counter removed from the cup",
        [(name, Fraction(n, total)) for name, n in sorted(counts.items())],
        "force-pool-cut-cup",
        power=power,
    )


@step("force-pool-cut-answer")
def _force_pool_cut_answer(game: CataclysmGame, current: Step) -> None:
    power, choice = current["power"], current["choice"]
    line = game.state.powers[power]
    if choice.startswith("unbuilt "):
        line.force_pool[choice.removeprefix("unbuilt ")] -= 1
    else:
        unit_id = int(choice.split("#")[1])
        game.state.units = [u for u in game.state.units if u.id != unit_id]
    game.note(f"{power} removes {choice} (exhaustion)")
    game.push("force-pool-cut", power=power)


@step("force-pool-cut-cup")
def _force_pool_cut_cup(game: CataclysmGame, current: Step) -> None:
    game.state.cup.remove(current["outcome"])
    game.note(f"{current['power']} loses a counter from the cup (exhaustion)")
    game.push("force-pool-cut", power=current["power"])


def _leave_alliances(game: CataclysmGame, power: str) -> None:
    """The power leaves its alliance; one left alone is no alliance (LR 6.1.4)."""
    for ideology, members in list(game.state.alliances.items()):
        if power in members:
            members.remove(power)
            game.note(f"{power} leaves its alliance")
            sweep(game)  # former allies' units may have to leave (LR 6.1.4)
            if len(members) < 2:
                del game.state.alliances[ideology]


@step("armistice-offer")
def _armistice_offer(game: CataclysmGame, current: Step) -> None:
    """Each enemy, in increasing effectiveness order, accepts or declines the armistice (LR 5.5.3, 5.6.2)."""
    enemies = current["enemies"]
    if not enemies:
        game.push("armistice-settle", power=current["power"], accepted=current["accepted"])
        return
    game.ask(
        enemies[0],
        f"{current['power']} offers an armistice: accept? (LR 5.6.2)",
        ["accept", "decline"],
        "armistice-answer",
        **{k: v for k, v in current.items() if k != "do"},
    )


@step("armistice-answer")
def _armistice_answer(game: CataclysmGame, current: Step) -> None:
    enemy = current["enemies"][0]
    accepted = [*current["accepted"], enemy] if current["choice"] == "accept" else current["accepted"]
    game.push("armistice-offer", power=current["power"], enemies=current["enemies"][1:], accepted=accepted)


@step("armistice-settle")
def _armistice_settle(game: CataclysmGame, current: Step) -> None:
    """End the accepted wars; an ally that made peace while its partners fight on leaves the alliance."""
    state, module = game.state, game.module
    power, accepted = current["power"], set(current["accepted"])
    if not accepted:
        return
    for enemy in sorted(accepted):
        state.peace.append(sorted((power, enemy)))
    state.wars = group_wars(module, enemy_pairs(state))
    sweep(game)  # units no longer allowed to stay leave (LR 5.6.2)
    game.note(f"armistice between {power} and {', '.join(sorted(accepted))}")
    for members in list(state.alliances.values()):
        peacemakers = [m for m in members if m in accepted]
        fighters = [m for m in members if m not in accepted and at_war(state, power, m)]
        if peacemakers and fighters:
            for member in peacemakers:
                _leave_alliances(game, member)
