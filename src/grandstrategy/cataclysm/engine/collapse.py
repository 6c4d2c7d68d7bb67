"""Collapse and surrender (LR 5.5.2–5.5.4).

Collapse follows LR 5.5.3 and surrender LR 5.5.4, step by step, with the diplomatic opportunity
of LR 5.7 for former home areas; an ally brought to collapse by either waits until the procedure
under way is complete.
"""

from __future__ import annotations

from collections import Counter
from fractions import Fraction

from grandstrategy.cataclysm.engine.common import (
    counters_in_play,
    effectiveness_check,
    flag_step,
    parse_counter,
    power_order,
    return_to_card,
    stability_step,
)
from grandstrategy.cataclysm.engine.control import change_control
from grandstrategy.cataclysm.engine.displacement import sweep
from grandstrategy.cataclysm.engine.game import CataclysmGame
from grandstrategy.cataclysm.engine.machine import Step, die_outcomes, step
from grandstrategy.cataclysm.module.schema import AreaStatus, Commitment, Stability, WarStatus
from grandstrategy.cataclysm.rules.control import allied, at_war, controller, friendly_powers
from grandstrategy.cataclysm.rules.politics import clear_failed_actions, surrender_threshold, surrenders
from grandstrategy.cataclysm.rules.special import a_bomb_losses
from grandstrategy.cataclysm.rules.war import enemy_pairs, group_wars


@step("collapse")
def _collapse(game: CataclysmGame, current: Step) -> None:
    power = current["power"]
    state, module = game.state, game.module
    if not state.powers[power].active:
        return  # it surrendered meanwhile
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


def _allies_test(game: CataclysmGame, power: str, reason: str) -> list[Step]:
    """The allies' stability tests of LR 5.5.3 step 6 and 5.5.4 step 2, then a queue step: an ally
    brought to collapse waits there until this procedure is complete (see ``deferred_collapse``)."""
    tests = [{**stability_step(ally, reason), "defer": True} for ally in _allies(game, power)]
    return [*tests, {"do": "collapse-queue", "powers": []}]


@step("collapse-queue")
def _collapse_queue(game: CataclysmGame, current: Step) -> None:
    """Allies that collapsed meanwhile, in increasing effectiveness order (LR 5.5.3 step 6)."""
    waiting = [p for p in current["powers"] if game.state.powers[p].active]
    game.then(*({"do": "collapse", "power": p} for p in power_order(game, decreasing=False, powers=waiting)))


def _collapse_procedure(game: CataclysmGame, power: str) -> None:
    """LR 5.5.3 in order: steps 2-5 at once, then the enemies' flags (1), the allies' tests (6), and
    the armistice (7) or exhaustion (8); allies that collapse are resolved after all that."""
    state = game.state
    line = state.line_to_change(power)
    steps = [flag_step(enemy, f"{power} collapses") for enemy in _enemies(game, power)]
    game.stack = [s for s in game.stack if not (s["do"] == "stability-test" and s.get("power") == power)]
    line.stability = Stability.WAVERING
    if line.reserve is not None:
        return_to_card(game, line.reserve)
        line.reserve = None
    clear_failed_actions(state, power)
    line.effectiveness_reduced = True
    tests = _allies_test(game, power, f"{power} collapses")
    game.then(*steps, *tests[:-1], {"do": "collapse-commitment", "power": power}, tests[-1])
    if power == "italy" and "il-duce" in state.markers:  # LR 12.1.2
        state.markers.remove("il-duce")
    if power == "germany" and "night-of-the-long-knives" in state.markers:  # LR 12.1.1
        state.markers.remove("night-of-the-long-knives")


@step("collapse-commitment")
def _collapse_commitment(game: CataclysmGame, current: Step) -> None:
    """LR 5.5.3 steps 7 and 8: at exhaustion, alliances break and an armistice is offered to every
    enemy; at mobilization or total war, the power falls to exhaustion."""
    state = game.state
    power = current["power"]
    line = state.powers[power]
    if not line.active:
        return
    if line.commitment is Commitment.EXHAUSTION:
        _leave_alliances(game, power)
        enemies = [e for e in power_order(game, decreasing=False) if at_war(state, power, e)]
        game.push("armistice-offer", power=power, enemies=enemies, accepted=[])
    elif line.commitment in (Commitment.MOBILIZATION, Commitment.TOTAL_WAR):
        state.line_to_change(power).commitment = Commitment.EXHAUSTION
        game.note(f"{power} falls to exhaustion")
        game.push("force-pool-cut", power=power)


@step("surrender")
def _surrender(game: CataclysmGame, current: Step) -> None:
    """LR 5.5.4, in order: flags to enemies, allies test, allies take areas, then the power leaves.

    A power surrenders once: a second cause met while its surrender is under way changes nothing.
    """
    power = current["power"]
    line = game.state.powers[power]
    if not line.active or any(s["do"] == "surrender-remove" and s.get("power") == power for s in game.stack):
        return
    steps = [flag_step(enemy, f"{power} surrenders") for enemy in _enemies(game, power)]
    tests = _allies_test(game, power, f"{power} surrenders")
    steps += tests[:-1]
    steps.append({"do": "surrender-special-bases", "power": power})
    steps.append({"do": "surrender-takeover", "power": power, "offers": _takeover_offers(game, power)})
    steps.append({"do": "surrender-remove", "power": power})
    game.then(*steps, tests[-1])


def _takeover_offers(game: CataclysmGame, power: str) -> list[list[str]]:
    """What allies may take (LR 5.5.4 step 3): [ally, area] for an area the power controls where the
    ally has a land unit, then [ally, area, base] for a base of the power in an area where the ally
    has an air or naval unit."""
    state, module = game.state, game.module
    offers = []
    allies = _allies(game, power)
    for ally in allies:
        for area_id in sorted({u.area for u in state.units if u.power == ally}):
            land = any(
                u.area == area_id and module.unit_types[u.type].unit_class == "land"
                for u in state.units
                if u.power == ally
            )
            if land and controller(module, state, area_id) == power:
                offers.append([ally, area_id])
    for ally in allies:
        present = {
            u.area
            for u in state.units
            if u.power == ally and module.unit_types[u.type].unit_class in ("air", "naval")
        }
        for key, owner in sorted(state.base_owners.items()):
            if owner == power and key.split("#")[0] in present:
                offers.append([ally, key.split("#")[0], key])
    return offers


@step("surrender-special-bases")
def _surrender_special_bases(game: CataclysmGame, current: Step) -> None:
    """The surrendering power's special bases leave the game before allies take over; nobody
    gains them (LR 5.5.4 step 3, 2.3.3)."""
    state, module = game.state, game.module
    for area_id in list(state.special_bases):
        special = module.area(area_id).special_base
        if special is not None and special.owner == current["power"]:
            state.special_bases.remove(area_id)
            game.note(f"the special base {special.name} is removed from the game")


@step("surrender-takeover")
def _takeover(game: CataclysmGame, current: Step) -> None:
    offers = current["offers"]
    if not offers:
        return
    ally, area_id = offers[0][:2]
    what = f"its base in {area_id}" if len(offers[0]) > 2 else f"control of {area_id}"
    game.ask(
        ally,
        f"{current['power']} surrenders: take {what}? (LR 5.5.4)",
        ["take", "leave"],
        "surrender-takeover-answer",
        power=current["power"],
        offers=offers,
    )


@step("surrender-takeover-answer")
def _takeover_answer(game: CataclysmGame, current: Step) -> None:
    ally, area_id = current["offers"][0][:2]
    if current["choice"] == "take" and len(current["offers"][0]) > 2:
        game.state.base_owners[current["offers"][0][2]] = ally
        game.note(f"{ally} takes the base in {game.module.area(area_id).name}")
    elif current["choice"] == "take":
        area = game.module.area(area_id)
        game.state.cubes[area_id] = {ally: 2 if area.capital else 1}
        game.note(f"{ally} takes control of {area.name}")
    rest = current["offers"][1:]
    if current["choice"] == "take":  # what one ally took is no longer offered to the others
        taken = current["offers"][0][1:]
        rest = [offer for offer in rest if offer[1:] != taken]
    game.push("surrender-takeover", power=current["power"], offers=rest)


@step("surrender-remove")
def _surrender_remove(game: CataclysmGame, current: Step) -> None:
    """Steps 4-7 of LR 5.5.4: alliances break, pieces go (owners of home areas freed gain their LR
    5.2.4 flags; captured bases go back to an active printed owner), neutral cubes, diplomatic
    opportunities outside remote areas; then the Surrender marker (step 9) and the game end (step 10)."""
    sweep(game)  # units relying on its bases or areas may have to leave (LR 7.1.2)
    state, module = game.state, game.module
    power = current["power"]
    line = state.line_to_change(power)
    for ideology, members in list(state.alliances.items()):
        if power in members:
            members.remove(power)
            if len(members) < 2:  # a power left alone is in no alliance (LR 6.1.4)
                del state.alliances[ideology]
    state.units = [unit for unit in state.units if unit.power != power]
    state.cup = [c for c in state.cup if c.split(":")[1:2] != [power]]
    line.reserve = None
    line.holding_box.clear()
    for turn, items in state.turn_track.items():
        state.turn_track[turn] = [c for c in items if c.split(":")[1:2] != [power]]
    others = [  # areas of powers that surrendered before, held by this power (step 7)
        area_id
        for area_id, held in state.cubes.items()
        if power in held and _surrendered_owner(game, area_id) not in (None, power)
    ]
    freed = _liberation_flags(game, power, sorted(a for a, held in state.cubes.items() if held.get(power)))
    for area_id in list(state.cubes):
        held = state.cubes[area_id]  # never changed in place (shared with copies of the state)
        left = {p: n for p, n in held.items() if p != power} if power in held else held
        if not left:
            del state.cubes[area_id]
        elif left is not held:
            state.cubes[area_id] = left
    for key, owner in state.base_owners.items():
        if owner == power:  # its base marker goes: an active printed owner's roundel shows again (LR 2.3.2)
            state.base_owners[key] = _printed_owner(game, key, power)
    line.active = False
    neutral_homes: list[tuple[str, str]] = []  # (area, owner whose home area it was)
    mine = [a.id for a in module.areas.values() if a.owner == power and a.map.value in state.maps]
    for area_id in [*mine, *sorted(others)]:
        area = module.area(area_id)
        if controller(module, state, area_id) is None and not state.cubes.get(area_id):
            _neutral_cubes(game, area_id)
            if area.status is AreaStatus.HOME and area.owner is not None:
                neutral_homes.append((area_id, area.owner))
    state.wars = [
        (list(a), list(b))
        for a, b in (
            ([p for p in side_a if p != power], [p for p in side_b if p != power])
            for side_a, side_b in state.wars
        )
        if a and b
    ]
    steps: list[Step] = []
    for area_id, owner in sorted(neutral_homes):
        if module.area(area_id).remote:  # no other power ever controls a remote area (LR 2.2.8)
            continue
        eligible = [p for p in power_order(game, decreasing=True) if p in _home_holders(game, owner)]
        if eligible:
            steps.append({"do": "opportunity", "area": area_id, "powers": eligible})
    marker = {"do": "surrender-marker", "power": power, "a_bomb": bool(a_bomb_losses(state, power))}
    game.then(*freed, *steps, marker, {"do": "check-game-end"})


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
        flags += [flag_step(owner, f"{power}'s cubes leave {area.name}")] * (2 if area.capital else 1)
    return flags


def _printed_owner(game: CataclysmGame, key: str, surrendered: str) -> str | None:
    """Who owns a base once a surrendered power's marker leaves it (LR 2.3.2, 5.5.4 steps 5 and 7):
    the power printed there if still active, otherwise (the surrendered power's own printed bases
    included) nobody (an Unowned Base marker)."""
    area_id, _, index = key.partition("#")
    printed = game.module.area(area_id).bases[int(index)].owner
    line = game.state.powers.get(printed) if printed not in (None, surrendered) else None
    return printed if line is not None and line.active else None


def _surrendered_owner(game: CataclysmGame, area_id: str) -> str | None:
    """The area's owner if that power has surrendered (is no longer active), else None."""
    owner = game.module.area(area_id).owner
    line = game.state.powers.get(owner) if owner is not None else None
    return owner if line is not None and not line.active else None


def _neutral_cubes(game: CataclysmGame, area_id: str) -> None:
    """Neutral cubes into an area left uncontrolled by a surrender, two in a capital, as far as the
    neutral cube supply goes (LR 5.5.4 steps 6-7, 2.4.5)."""
    state = game.state
    used = sum(held.get("neutral", 0) for held in state.cubes.values())
    count = min(2 if game.module.area(area_id).capital else 1, game.module.neutral_cubes - used)
    if count > 0:
        state.cubes[area_id] = {"neutral": count}
    else:
        game.note(f"no neutral cube is left for {game.module.area(area_id).name}")


def _home_holders(game: CataclysmGame, owner: str) -> set[str]:
    """Powers with cubes in the home areas of a surrendered power: those eligible for the diplomatic
    opportunities in its former home areas (LR 5.7)."""
    module, state = game.module, game.state
    return {
        holder
        for area in module.areas.values()
        if area.owner == owner and area.status is AreaStatus.HOME
        for holder in state.cubes.get(area.id, {})
        if holder in module.powers
    }


@step("surrender-marker")
def _surrender_marker(game: CataclysmGame, current: Step) -> None:
    """LR 5.5.4 step 9, after the diplomatic opportunities: the opposing ideology with the most cubes
    in the surrendered power's home areas takes its Surrender marker; a tie shares it; with none
    there, the marker leaves play. A surrender to the A-Bomb gives it to the Democracies (LR 12.2.2)."""
    state, module = game.state, game.module
    power = current["power"]
    ideology = module.powers[power].ideology
    cubes: Counter[str] = Counter()
    for area in module.areas.values():
        if area.owner == power and area.status is AreaStatus.HOME:
            for holder, count in state.cubes.get(area.id, {}).items():
                if holder in module.powers and module.powers[holder].ideology is not ideology:
                    cubes[module.powers[holder].ideology.value] += count
    if current["a_bomb"]:
        state.surrenders = [*state.surrenders, "democracy"]
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
    """Diplomatic opportunity (LR 5.7): in order, each eligible power may check; the first success
    takes the country. Resistance does not apply.

    The check is the power's choice: gaining the country can provoke others (LR 5.2.3), so a power
    may let the chance pass, and the next eligible power is asked.
    """
    if not current["powers"]:
        return
    power = current["powers"][0]
    if not game.state.powers[power].active:
        game.push("opportunity", area=current["area"], powers=current["powers"][1:])
        return
    name = game.module.area(current["area"]).name
    game.ask(
        power,
        f"diplomatic opportunity in {name}: make the effectiveness check for control? (LR 5.7)",
        ["attempt", "decline"],
        "opportunity-answer",
        area=current["area"],
        powers=current["powers"],
    )


@step("opportunity-answer")
def _opportunity_answer(game: CataclysmGame, current: Step) -> None:
    power = current["powers"][0]
    if current["choice"] == "decline":
        game.note(f"{power} lets the diplomatic opportunity in {current['area']} pass (LR 5.7)")
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

    Every counter whose place all players see is the player's choice: unbuilt ones (the reserve
    is back there, LR 5.5.3 step 3), units on the map, and units or upgrade markers in its
    production holding box or on the turn track (both count against the limit, LR 4.1.1).
    Counters hidden in the cup are taken only when nothing else is left, at random, so the cup
    stays secret (docs/decisions.md).
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
    options += [f"holding {c}" for c in sorted(set(line.holding_box)) if _force_pool_counter(c, power)]
    for turn in sorted(state.turn_track):
        mine = sorted({c for c in state.turn_track[turn] if _force_pool_counter(c, power)})
        options += [f"turn-track {turn} {c}" for c in mine]
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


def _force_pool_counter(counter: str, power: str) -> bool:
    """Whether ``counter`` is one of the power's units or upgrade markers (LR 4.1.1)."""
    kind, owner, detail = parse_counter(counter)
    return owner == power and detail is not None and kind in ("unit", "upgrade")


@step("force-pool-cut-answer")
def _force_pool_cut_answer(game: CataclysmGame, current: Step) -> None:
    power, choice = current["power"], current["choice"]
    line = game.state.line_to_change(power)
    if choice.startswith("unbuilt "):
        line.force_pool[choice.removeprefix("unbuilt ")] -= 1
    elif choice.startswith("holding "):
        line.holding_box.remove(choice.removeprefix("holding "))
    elif choice.startswith("turn-track "):
        _, turn, counter = choice.split(" ", 2)
        track = game.state.turn_track
        track[int(turn)].remove(counter)
        if not track[int(turn)]:
            del track[int(turn)]
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
    if state.war_status is WarStatus.GLOBAL and not state.wars:
        game.push("check-game-end")  # Global War with nobody at war ends the game at once (LR 1.6)
