"""Civil wars as steps (LR 11, 8.5, 9.7.1): outbreaks, aid, resolution; the Chinese Civil War's
resolution steps (LR 11.4.4-11.4.6) are in :mod:`chinese_civil_war`.

Entry points for other parts of the engine:

- :func:`start_outbreak`: a Civil War or Revolt crisis event rolls on its sub-table (LR 11.1);
- :func:`intervention_options` and the step ``{"do": "intervene", "power": p, "choice": option}``:
  the intervention military action (LR 8.5); the step takes the aid marker itself;
- ``{"do": "cw-resolution"}``: the Civil War Resolution marker was drawn (LR 11.3, 11.4.4);
- :func:`offer_revocation`: patrons may take their aid back, e.g. before an attack (LR 11.2);
- :func:`spend_aid_for_attack`: an attack on a civil-war country or an aided Chinese army
  (LR 9.7.1);
- :func:`control_changed`, :func:`remove_chinese_army`, :func:`move_chinese_army`: what a change
  of control, a destroyed or a retreating Chinese army does to civil wars (LR 2.2.4, 11.0, 11.4.1).

Markers: aid and Influence are offensive markers taken from and returned to the patron's
available box (``PowerState.available_offensives``).
"""

from __future__ import annotations

from typing import Any

from grandstrategy.cataclysm.engine import collapse  # noqa: F401  (registers the "opportunity" step)
from grandstrategy.cataclysm.engine.aid import area_name, control_changed, give_back, is_active
from grandstrategy.cataclysm.engine.common import flag_step, garrisoned, power_order, stability_step
from grandstrategy.cataclysm.engine.control import (
    change_control,
    check_status_quo,
    cube_removal_flags,
    surrender_if_homeless,
)
from grandstrategy.cataclysm.engine.displacement import retreat_steps
from grandstrategy.cataclysm.engine.game import CataclysmGame
from grandstrategy.cataclysm.engine.machine import Step, step
from grandstrategy.cataclysm.module.schema import AreaStatus
from grandstrategy.cataclysm.rules.civil_war import (
    CHINA,
    LEFT,
    RIGHT,
    SIDES,
    ccw_in_progress,
    civil_war_eligible,
    expansion_plan,
    faction_dice,
    has_interest,
    intervention_targets,
    lowest_patron,
    other_side,
    outcome,
    patrons,
    pick_row,
    subroll_key,
)
from grandstrategy.cataclysm.rules.control import at_war, controller, is_country
from grandstrategy.cataclysm.rules.dice import roll_result

FACTION_NAMES = {"gmd": "GMD", "chicom": "ChiCom", LEFT: "left", RIGHT: "right"}


def remove_chinese_army(game: CataclysmGame, area_id: str) -> None:
    """Take a destroyed Chinese army off the map; its aid goes back (LR 11.4.1), and the Chinese
    Civil War ends if one faction is left (LR 11.4.5)."""
    state = game.state
    faction = state.chinese_armies.pop(area_id, None)
    give_back(game, state.chinese_aid.pop(area_id, []))
    if faction is not None:
        game.note(f"the {FACTION_NAMES[faction]} army in {area_name(game, area_id)} is removed")
    check_ccw_end(game)


def move_chinese_army(game: CataclysmGame, source: str, target: str) -> None:
    """A Chinese army retreats from ``source`` to ``target``; its aid goes with it (LR 11.4.1)."""
    state = game.state
    state.chinese_armies[target] = state.chinese_armies.pop(source)
    state.chinese_armies = dict(sorted(state.chinese_armies.items()))
    aid = state.chinese_aid.pop(source, [])
    if aid:
        state.chinese_aid[target] = aid


def check_ccw_end(game: CataclysmGame) -> None:
    """End the Chinese Civil War once armies of a single faction remain (LR 11.4.5).

    Each power that is a patron of a Chinese army keeps one of its aid markers as Influence over
    China; its other aid goes back.
    """
    state = game.state
    if state.ccw_winner is not None or not state.chinese_armies:
        return
    factions = set(state.chinese_armies.values())
    if len(factions) != 1:
        return
    winner = factions.pop()
    state.ccw_winner = winner
    aid = [power for area in sorted(state.chinese_aid) for power in state.chinese_aid[area]]
    state.chinese_aid.clear()
    keep = [power for power in patrons(aid) if is_active(game, power)]
    spare = list(aid)
    for power in keep:
        spare.remove(power)
    give_back(game, spare)
    if keep:
        state.influence[CHINA] = keep
    game.note(
        f"the Chinese Civil War ends: the {FACTION_NAMES[winner]} win"
        + (f"; Influence for {', '.join(keep)}" if keep else "")
        + " (LR 11.4.5)"
    )


def sync(game: CataclysmGame) -> None:
    """Bring the civil-war markers in line with the rest of the state.

    Markers of surrendered powers left the game with them (LR 5.5.4); a civil war whose area a
    power controls has ended (LR 11.0) and Influence in a controlled area is gone (LR 2.2.4), for
    control changes made by code that did not call :func:`control_changed`; aid on a Chinese army
    that is gone goes back (LR 11.4.1).
    """
    state, module = game.state, game.module
    for sides in state.civil_wars.values():
        for side in SIDES:
            sides[side] = [p for p in sides[side] if is_active(game, p)]
    for table in (state.chinese_aid, state.influence):
        for key in list(table):
            table[key] = [p for p in table[key] if is_active(game, p)]
            if not table[key]:
                del table[key]
    for area_id in sorted(state.civil_wars):
        if controller(module, state, area_id) is not None:
            control_changed(game, area_id)
    for area_id in sorted(state.influence):
        if area_id != CHINA and controller(module, state, area_id) is not None:
            give_back(game, state.influence.pop(area_id))
    for area_id in sorted(state.chinese_aid):
        if area_id not in state.chinese_armies:
            give_back(game, state.chinese_aid.pop(area_id))
    check_ccw_end(game)


def remove_area_cubes(game: CataclysmGame, area_id: str) -> None:
    """Remove every cube from the area; the area's control changes (LR 2.2.4)."""
    cubes = game.state.cubes.pop(area_id, None)
    if cubes:
        game.note(f"the cubes in {area_name(game, area_id)} are removed ({', '.join(sorted(cubes))})")
        check_status_quo(game)


# ---- outbreak (LR 11.1) -----------------------------------------------------------------------


def _subtable(game: CataclysmGame, row: object) -> dict[str, Any] | None:
    """The sub-table a row such as ``{"table": "wartime", "result": "4-4"}`` sends to."""
    if not isinstance(row, dict):
        return None
    tables = {"peacetime": game.module.crisis.peacetime, "wartime": game.module.crisis.wartime}
    entry = tables.get(str(row.get("table")), {}).get(str(row.get("result")))
    table = entry.params.get("table") if entry is not None else None
    return table if isinstance(table, dict) else None


def outbreak_possible(game: CataclysmGame, table: dict[str, Any], _seen: int = 0) -> bool:
    """Whether some row of a civil-war sub-table (or a table it sends to) names an eligible area
    (LR 11.1); when none does, the event cannot change anything and is rerolled (LR 3.7.4)."""
    for row in table.values():
        if isinstance(row, str) and civil_war_eligible(game.module, game.state, row):
            return True
        nested = _subtable(game, row)
        if nested is not None and _seen < 3 and outbreak_possible(game, nested, _seen + 1):
            return True
    return False


def start_outbreak(game: CataclysmGame, table: dict[str, Any], label: str) -> None:
    """Roll two dice for a Civil War or Revolt event's sub-table (LR 11.1)."""
    game.roll(2, f"{label} sub-table", "cw-subroll", table=table, label=label)


@step("cw-subroll")
def _subroll(game: CataclysmGame, current: Step) -> None:
    key = subroll_key(current["dice"])
    row = pick_row(current["table"], key, lambda area: civil_war_eligible(game.module, game.state, area))
    if row is None:
        game.note(
            f"{current['label']}: {key} and every row below are already in civil war: no effect (LR 11.1)"
        )
        return
    nested = _subtable(game, row)
    if nested is not None:
        assert isinstance(row, dict)
        game.note(f"{current['label']}: {key} sends to the {row['table']} {row['result']} table")
        start_outbreak(game, nested, f"{row['table']} {row['result']}")
        return
    if not isinstance(row, str):
        game.note(f"{current['label']}: the row cannot be read: no effect")
        return
    game.push("cw-outbreak", area=row)


@step("cw-outbreak")
def _outbreak(game: CataclysmGame, current: Step) -> None:
    """Place a civil war (LR 11.1), unless a power's land unit garrisons the country.

    Only a country can be garrisoned (LR 2.2.5): in a home or colony area still held by its owner
    the war breaks out whatever units stand there, and they retreat like any others.
    """
    state, module = game.state, game.module
    area_id = current["area"]
    area = module.area(area_id)
    sync(game)
    if is_country(module, state, area_id) and garrisoned(game, area_id):
        game.note(f"civil war in {area.name} is suppressed: the area is garrisoned (LR 11.1, 2.2.5)")
        return
    holder = controller(module, state, area_id)
    state.civil_wars[area_id] = {LEFT: [], RIGHT: []}
    game.note(f"civil war breaks out in {area.name} (LR 11.1)")
    if area_id in state.minor_armies:
        state.minor_armies.remove(area_id)
        game.note(f"the minor army of {area.name} is removed")
    steps: list[Step] = []
    owners = state.influence.get(area_id, [])
    for power in power_order(game, decreasing=False, powers=sorted(set(owners))):
        steps += [{"do": "cw-influence-to-aid", "area": area_id, "power": power}] * owners.count(power)
    if holder is not None:
        leaving = [unit for unit in state.units if unit.area == area_id]
        steps += retreat_steps(game, leaving, "LR 11.1")  # retreat, not the cup (docs/decisions.md)
        # an occupier's cube leaving the owner's home area or resource colony: the owner's flag(s) (LR 5.2.4)
        owner_flags = cube_removal_flags(game, area_id)
        state.cubes.pop(area_id, None)
        if area.owner is None:
            game.note(f"{holder} loses its cube in {area.name}")
        else:
            used = sum(held.get("neutral", 0) for held in state.cubes.values())
            if used < module.neutral_cubes:
                state.cubes[area_id] = {"neutral": 1}
                game.note(f"a neutral cube goes into {area.name} (LR 2.4.5)")
            else:
                game.note(f"no neutral cube is left for {area.name}")
        steps.append({"do": "cw-founding-aid", "area": area_id, "power": holder})
        lost_home = area.status is AreaStatus.HOME or (
            area.status is AreaStatus.COLONY and bool(area.resources)
        )
        if area.owner == holder and lost_home and controller(module, state, area_id) != holder:
            steps += [stability_step(holder, f"loss of {area.name}")] * (2 if area.capital else 1)
            if area.status is AreaStatus.HOME:  # no home area left: surrender (LR 5.5.4)
                steps = surrender_if_homeless(game, holder) + steps
        if owner_flags and area.owner is not None:
            steps += [flag_step(area.owner, f"a non-friendly cube leaves {area.name}")] * owner_flags
        check_status_quo(game)
    game.then(*steps)


@step("cw-influence-to-aid")
def _influence_to_aid(game: CataclysmGame, current: Step) -> None:
    area_id, power = current["area"], current["power"]
    if area_id not in game.state.civil_wars or power not in game.state.influence.get(area_id, []):
        return
    game.ask(
        power,
        f"your Influence in {area_name(game, area_id)} turns back into aid: for which faction? (LR 11.1)",
        [LEFT, RIGHT],
        "cw-influence-side",
        area=area_id,
        power=power,
    )


@step("cw-influence-side")
def _influence_side(game: CataclysmGame, current: Step) -> None:
    state = game.state
    area_id, power = current["area"], current["power"]
    held = state.influence[area_id]
    held.remove(power)
    if not held:
        del state.influence[area_id]
    state.civil_wars[area_id][current["choice"]].append(power)
    game.note(f"{power}'s Influence in {area_name(game, area_id)} becomes aid to the {current['choice']}")


@step("cw-founding-aid")
def _founding_aid(game: CataclysmGame, current: Step) -> None:
    """The former controller may place one aid marker, with no LOC and no provocation (LR 11.1)."""
    area_id, power = current["area"], current["power"]
    if area_id not in game.state.civil_wars or not is_active(game, power):
        return
    if game.state.powers[power].available_offensives < 1:
        return
    game.ask(
        power,
        f"civil war in {area_name(game, area_id)}: place one aid marker for a faction? (LR 11.1)",
        [LEFT, RIGHT, "none"],
        "cw-founding-aid-answer",
        area=area_id,
        power=power,
    )


@step("cw-founding-aid-answer")
def _founding_aid_answer(game: CataclysmGame, current: Step) -> None:
    if current["choice"] == "none":
        return
    power, area_id = current["power"], current["area"]
    game.state.line_to_change(power).available_offensives -= 1
    game.state.civil_wars[area_id][current["choice"]].append(power)
    game.note(f"{power} places aid for the {current['choice']} in {area_name(game, area_id)}")


# ---- intervention (LR 8.5) ---------------------------------------------------------------------


def _option(area_id: str, side: str) -> str:
    return f"intervene {area_id} {side}" if side in SIDES else f"intervene {area_id} {side}-army"


def intervention_options(game: CataclysmGame, power: str) -> list[str]:
    """The intervention military actions open to the power (LR 8.5).

    ``intervene <area> left|right`` for a civil war, ``intervene <area> gmd-army|chicom-army`` for a
    Chinese army while the Chinese Civil War goes on (LR 11.4.5). Each needs an available offensive
    marker and an LOC to the area (LR 4.3), for a Chinese army through countries of the same
    faction's armies and not of the other's.
    """
    line = game.state.powers.get(power)
    if line is None or not line.active or line.available_offensives < 1:
        return []
    return [_option(area, side) for area, side in intervention_targets(game.module, game.state, power)]


def _parse_target(choice: str) -> tuple[str, str]:
    parts = choice.split()
    return parts[-2], parts[-1].removesuffix("-army")


@step("intervene")
def _intervene(game: CataclysmGame, current: Step) -> None:
    """Place one aid marker (LR 8.5, 11.2); every opposing, non-enemy power with an interest in the
    client area gains a flag (LR 5.2.3). The military action itself is the caller's."""
    state, module = game.state, game.module
    power, choice = current["power"], current["choice"]
    sync(game)
    if choice not in intervention_options(game, power):
        game.note(f"{power} cannot {choice} now (LR 8.5): the action is lost")
        return
    area_id, side = _parse_target(choice)
    watching = [
        other
        for other in power_order(game, decreasing=True)
        if other != power
        and module.powers[other].ideology is not module.powers[power].ideology
        and not at_war(state, other, power)
        and has_interest(module, state, other, area_id)
    ]
    state.line_to_change(power).available_offensives -= 1
    if side in SIDES:
        state.civil_wars[area_id][side].append(power)
    else:
        state.chinese_aid.setdefault(area_id, []).append(power)
    game.note(f"{power} intervenes in {area_name(game, area_id)}: aid to the {FACTION_NAMES[side]} (LR 8.5)")
    game.then(
        *(
            flag_step(other, f"provoked: {power} intervenes in {area_name(game, area_id)}")
            for other in watching
        )
    )


# ---- revoking aid, returning Influence (LR 11.2, 11.3) -------------------------------------------


def revocation_options(game: CataclysmGame, power: str, areas: list[str] | None = None) -> list[str]:
    """``revoke aid <area> <faction>`` for the power's aid (in ``areas`` when given) and, when no
    areas are given, ``return influence <area>`` for its Influence."""
    state = game.state
    found: list[str] = []
    for area_id in sorted(state.civil_wars):
        if areas is None or area_id in areas:
            found += [
                f"revoke aid {area_id} {side}" for side in SIDES if power in state.civil_wars[area_id][side]
            ]
    for area_id in sorted(state.chinese_aid):
        if (areas is None or area_id in areas) and power in state.chinese_aid[area_id]:
            found.append(f"revoke aid {area_id} {state.chinese_armies[area_id]}-army")
    if areas is None:
        found += [
            f"return influence {area_id}"
            for area_id in sorted(state.influence)
            if power in state.influence[area_id]
        ]
    return found


def revocation_step(game: CataclysmGame, areas: list[str] | None = None) -> Step | None:
    """A step that offers each patron, in decreasing effectiveness order, to take its aid back
    (LR 11.2: at any time), or None when nobody has anything to revoke."""
    powers = [p for p in power_order(game, decreasing=True) if revocation_options(game, p, areas)]
    return {"do": "cw-revoke-offer", "powers": powers, "areas": areas} if powers else None


def offer_revocation(game: CataclysmGame, areas: list[str] | None = None) -> None:
    """Run the revocation offer next, e.g. before an attack on a civil-war area (LR 11.2)."""
    offer = revocation_step(game, areas)
    if offer is not None:
        game.stack.append(offer)


@step("cw-revoke-offer")
def _revoke_offer(game: CataclysmGame, current: Step) -> None:
    powers, areas = current["powers"], current["areas"]
    while powers and not revocation_options(game, powers[0], areas):
        powers = powers[1:]
    if not powers:
        return
    game.ask(
        powers[0],
        "take back aid or Influence? (LR 11.2, 11.3: at any time)",
        ["keep", *revocation_options(game, powers[0], areas)],
        "cw-revoke-answer",
        powers=powers,
        areas=areas,
    )


@step("cw-revoke-answer")
def _revoke_answer(game: CataclysmGame, current: Step) -> None:
    state = game.state
    power, choice = current["powers"][0], current["choice"]
    if choice == "keep":
        game.push("cw-revoke-offer", powers=current["powers"][1:], areas=current["areas"])
        return
    words = choice.split()
    if words[0] == "return":
        area_id = words[-1]
        state.influence[area_id].remove(power)
        if not state.influence[area_id]:
            del state.influence[area_id]
        game.note(f"{power} returns its Influence in {area_name(game, area_id)}")
    else:
        area_id, side = _parse_target(choice)
        aid = state.civil_wars[area_id][side] if side in SIDES else state.chinese_aid[area_id]
        aid.remove(power)
        if side not in SIDES and not aid:
            del state.chinese_aid[area_id]
        game.note(f"{power} revokes its aid to the {FACTION_NAMES[side]} in {area_name(game, area_id)}")
    give_back(game, [power])
    game.push("cw-revoke-offer", powers=current["powers"], areas=current["areas"])


# ---- attacks on civil-war countries (LR 9.7.1) --------------------------------------------------


def _aid_pools(game: CataclysmGame, area_id: str) -> list[list[str]]:
    """The aid markers an attack on the area would spend from: each civil-war faction's, or an
    aided Chinese army's (LR 9.7.1)."""
    state = game.state
    if area_id in state.civil_wars:
        return [state.civil_wars[area_id][side] for side in SIDES]
    if state.chinese_aid.get(area_id):
        return [state.chinese_aid[area_id]]
    return []


def aid_would_be_spent(game: CataclysmGame, area_id: str) -> bool:
    """Whether an attack on the area now would spend aid, giving the defence one more die
    (LR 9.7.1); :func:`spend_aid_for_attack` spends it."""
    return any(_aid_pools(game, area_id))


def spend_aid_for_attack(game: CataclysmGame, area_id: str, attacker: str) -> bool:
    """Spend aid when ``attacker`` attacks the area; return whether the defence rolls one more die.

    A civil-war country spends one aid marker from each faction; an aided Chinese army spends one
    of its markers. The marker spent is the lowest-effectiveness patron's (LR 9.7.1); spent markers
    go back to their powers. Call :func:`offer_revocation` before, if patrons may still revoke.
    """
    state, module = game.state, game.module
    pools = _aid_pools(game, area_id)
    spent: list[str] = []
    for aid in pools:
        if aid:
            patron = lowest_patron(module, state, aid)
            aid.remove(patron)
            spent.append(patron)
    if area_id in state.chinese_aid and not state.chinese_aid[area_id]:
        del state.chinese_aid[area_id]
    give_back(game, spent)
    if spent:
        game.note(
            f"{attacker} attacks {area_name(game, area_id)}: aid of {', '.join(spent)} is spent, "
            "the defence rolls one more die (LR 9.7.1)"
        )
    return bool(spent)


# ---- resolution (LR 11.3) ----------------------------------------------------------------------


def _resolvable(game: CataclysmGame, key: str) -> bool:
    state = game.state
    if key == CHINA:
        return ccw_in_progress(state) or bool(expansion_plan(state) and state.ccw_winner is not None)
    return key in state.civil_wars


@step("cw-resolution")
def _resolution(game: CataclysmGame, current: Step) -> None:
    """The Civil War Resolution marker: every civil war, the Chinese one included, resolves one
    round, in the order the drawer picks (LR 11.3, 11.4)."""
    sync(game)
    queue = [key for key in [*sorted(game.state.civil_wars), CHINA] if _resolvable(game, key)]
    if not queue:
        game.note("Civil War Resolution: no civil war to resolve")
        return
    offer = revocation_step(game)
    game.then(*([offer] if offer else []), {"do": "cw-resolve-next", "queue": queue})


@step("cw-resolve-next")
def _resolve_next(game: CataclysmGame, current: Step) -> None:
    queue = [key for key in current["queue"] if _resolvable(game, key)]
    if not queue:
        return
    if len(queue) == 1:
        game.push("cw-resolve", area=queue[0])
        return
    drawer = power_order(game, decreasing=True)[0]
    game.ask(
        drawer,
        "Civil War Resolution: which civil war resolves next? (LR 11.3)",
        queue,
        "cw-resolve-chosen",
        queue=queue,
    )


@step("cw-resolve-chosen")
def _resolve_chosen(game: CataclysmGame, current: Step) -> None:
    rest = [key for key in current["queue"] if key != current["choice"]]
    game.then({"do": "cw-resolve", "area": current["choice"]}, {"do": "cw-resolve-next", "queue": rest})


@step("cw-resolve")
def _resolve(game: CataclysmGame, current: Step) -> None:
    area_id = current["area"]
    sync(game)
    if area_id == CHINA:
        game.push("ccw-resolution")
        return
    sides = game.state.civil_wars.get(area_id)
    if sides is None:
        return
    left_dice, right_dice = faction_dice(len(sides[LEFT]), len(sides[RIGHT]))
    game.roll(
        left_dice,
        f"civil war in {area_name(game, area_id)}: the left",
        "cw-second-roll",
        area=area_id,
        right_dice=right_dice,
    )


@step("cw-second-roll")
def _second_roll(game: CataclysmGame, current: Step) -> None:
    game.roll(
        current["right_dice"],
        f"civil war in {area_name(game, current['area'])}: the right",
        "cw-result",
        area=current["area"],
        left=current["dice"],
    )


@step("cw-result")
def _result(game: CataclysmGame, current: Step) -> None:
    """Stalemate, marginal or decisive victory (LR 11.3)."""
    state = game.state
    area_id = current["area"]
    name = area_name(game, area_id)
    sides = state.civil_wars[area_id]
    scores = (roll_result(current["left"]), roll_result(current["dice"]))
    result, winner_index = outcome(*scores)
    shown = f"left {scores[0]}, right {scores[1]}"
    if winner_index is None:
        give_back(game, [*sides[LEFT], *sides[RIGHT]])
        sides[LEFT], sides[RIGHT] = [], []
        game.note(f"civil war in {name}: {shown}, stalemate; both factions lose their aid (LR 11.3)")
        return
    winner = SIDES[winner_index]
    loser = other_side(winner)
    beaten_aid = sides[loser]
    if result == "marginal" and beaten_aid:
        give_back(game, beaten_aid)
        sides[loser] = []
        game.note(
            f"civil war in {name}: {shown}, marginal victory of the {winner}; the {loser} loses its aid"
        )
        return
    backers = [p for p in patrons(sides[winner]) if is_active(game, p)]
    del state.civil_wars[area_id]
    if result == "marginal":
        spare = list(sides[winner])
        for power in backers:
            spare.remove(power)
        give_back(game, spare)
        if backers:
            state.influence[area_id] = backers
        game.note(
            f"civil war in {name}: {shown}, marginal victory of the {winner}; the war ends"
            + (f" with Influence for {', '.join(backers)}" if backers else "")
            + " (LR 11.3)"
        )
        return
    give_back(game, [*beaten_aid, *sides[winner]])
    game.note(f"civil war in {name}: {shown}, decisive victory of the {winner}; the war ends (LR 11.3)")
    if len(backers) == 1:
        change_control(game, area_id, backers[0])  # as a conquest (LR 10.9.1)
        # including its regroup: the patron's side may move land and air units in (LR 11.3, 10.11)
        op = {"power": backers[0], "target": area_id, "defender": None, "kind": "land"}
        op |= {"variant": None, "origins": [], "extended": False}
        game.push("regroup", op=op, side="attacker", classes=["land", "air"], powers=None)
    elif backers:
        order = [p for p in power_order(game, decreasing=True) if p in backers]
        game.note(f"the patrons {', '.join(order)} have a diplomatic opportunity in {name} (LR 5.7)")
        game.push("opportunity", area=area_id, powers=order)
