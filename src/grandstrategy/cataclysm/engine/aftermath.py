"""The end of a combat: aftermath (LR 10.9), conquest and captured bases, bombing damage, triumph,
regroup (LR 10.11) and the end of the operation.

The steps after :mod:`combat` has rolled and taken its losses; they reuse its view of the fight
(who is in it, the tokens' classes, retreats) and never reach back into it by import.
"""

from grandstrategy.cataclysm.engine.combat import (
    Op,
    combatants,
    destroy_token,
    move_unit,
    retreat_steps_of,
    retreating_tokens,
    token_class,
)
from grandstrategy.cataclysm.engine.common import (
    flag_step,
    power_order,
    stability_step,
    unit_from_option,
)
from grandstrategy.cataclysm.engine.control import change_control
from grandstrategy.cataclysm.engine.displacement import sweep
from grandstrategy.cataclysm.engine.game import CataclysmGame
from grandstrategy.cataclysm.engine.machine import Step, step
from grandstrategy.cataclysm.engine.operations import (
    ideology_of,
    resume_offensive,
    side_of,
    unit_class,
)
from grandstrategy.cataclysm.module.schema import AreaStatus
from grandstrategy.cataclysm.rules.control import at_war, controller, friendly_powers, production_sites
from grandstrategy.cataclysm.rules.economy import limited_in_play, undamaged_printed
from grandstrategy.cataclysm.rules.movement import regroup_destinations, retreat_destinations
from grandstrategy.cataclysm.rules.occupation import may_stop, violations
from grandstrategy.cataclysm.rules.special import denied_areas
from grandstrategy.cataclysm.state import Unit

# ---- aftermath (LR 10.9) ---------------------------------------------------------------------------


def _land_left(game: CataclysmGame, op: Op, side: str) -> bool:
    return any(not t.isdigit() or token_class(game, t) == "land" for t in combatants(game, op, side))


def _naval_left(game: CataclysmGame, op: Op, side: str) -> bool:
    return any(t.isdigit() and token_class(game, t) == "naval" for t in combatants(game, op, side))


@step("aftermath")
def _aftermath(game: CataclysmGame, current: Step) -> None:
    op = current["op"]
    kind = op["kind"]
    steps: list[Step] = []
    conquered = False
    if kind == "land":
        if not _land_left(game, op, "attacker") or _land_left(game, op, "defender"):
            steps += retreat_steps_of(game, op, retreating_tokens(game, op, "attacker", "land"), "land")
            steps.append(_regroup_step(op, "defender", ["land", "air"]))
        else:
            conquered = True
            steps += _conquest(game, op)
    elif kind == "naval":
        # LR 10.9.2: which naval units are left decides, not who won; a tie that leaves only the
        # attacker's naval units lets it stay (and take the base, LR 9.4.2)
        if _naval_left(game, op, "attacker") and not _naval_left(game, op, "defender"):
            steps += retreat_steps_of(game, op, retreating_tokens(game, op, "defender", "naval"), "naval")
            if op["variant"] == "base-capture":
                steps.append({"do": "capture-base", "op": op})
            steps.append(_regroup_step(op, "attacker", ["naval", "air"]))
        else:
            steps += retreat_steps_of(game, op, retreating_tokens(game, op, "attacker", "naval"), "naval")
            steps.append(_regroup_step(op, "defender", ["naval", "air"]))
    else:
        winner = op.get("winner") or "defender"
        loser = "attacker" if winner == "defender" else "defender"
        if op.get("retreated") != loser:
            steps += retreat_steps_of(game, op, retreating_tokens(game, op, loser, "air"), "air")
        steps.append(_regroup_step(op, winner, ["air"]))
        if (
            op["variant"] == "strategic-bombing"
            and op.get("fight", {}).get("excess")
            and op.get("winner") != "defender"
        ):
            # more losses than the defender's air units can take, a tie included (LR 9.5.2)
            steps.append({"do": "bombing-damage", "op": op})
    steps.append({"do": "triumph", "op": op})
    steps.append({"do": "op-end", "op": op, "conquered": conquered})
    game.then(*steps)


def _conquest(game: CataclysmGame, op: Op) -> list[Step]:
    """Conquest (LR 10.9.1): markers off, control, the logistics unit, retreats, regroup, flags."""
    module, state = game.module, game.state
    target, power = op["target"], op["power"]
    area = module.area(target)
    before = controller(module, state, target)
    steps: list[Step] = [{"do": "conquest-control", "op": op}]
    for unit in [
        u
        for u in state.units
        if u.area == target and u.type == "logistics" and side_of(game, op, u) == "defender"
    ]:
        destroy_token(game, str(unit.id))
    steps += retreat_steps_of(game, op, retreating_tokens(game, op, "defender", "land"), "land")
    steps.append(_regroup_step(op, "attacker", ["land", "air"]))
    if (
        before is not None
        and before in state.powers
        and state.powers[before].active
        and at_war(state, power, before)
    ):
        if area.owner == before and area.status is AreaStatus.HOME:
            steps.append(flag_step(power, f"conquest of {area.name}"))
            if area.capital:
                steps.append(flag_step(power, f"conquest of the capital {area.name}"))
        elif area.owner == before and area.status is AreaStatus.COLONY and area.resources:
            steps.append(flag_step(power, f"conquest of {area.name}"))
    return steps


@step("conquest-control")
def _conquest_control(game: CataclysmGame, current: Step) -> None:
    op = current["op"]
    game.note(f"{op['power']} conquers {game.module.area(op['target']).name} (LR 10.9.1)")
    change_control(game, op["target"], op["power"])
    sweep(game, aftermath=True)  # units that lose their place retreat, never to the cup (LR 2.2.4)


@step("capture-base")
def _capture_base(game: CataclysmGame, current: Step) -> None:
    """The attacker puts its own base in place of the one there; a special British base goes (LR 9.4.2)."""
    op = current["op"]
    state, module = game.state, game.module
    target = op["target"]
    for key, owner in list(state.base_owners.items()):
        if key.split("#")[0] != target:
            continue
        if owner is None or at_war(state, op["power"], owner):
            state.base_owners[key] = op["power"]
            game.note(f"{op['power']} captures the base in {module.area(target).name}")
    special = target in state.special_bases
    if special:
        state.special_bases.remove(target)
        game.note(f"the special British base in {module.area(target).name} is removed from the game")
    # units that relied on the old owner's base must leave (LR 7.1.2); from a special British
    # base removed in the aftermath they retreat and may not go to the cup (LR 2.3.3)
    sweep(game, aftermath=special)


@step("bombing-damage")
def _bombing_damage(game: CataclysmGame, current: Step) -> None:
    """More losses than the defender could take damage one resource there (LR 9.5.2).

    A limited resource is removed from play; a printed one gets a Damage marker, one marker per
    resource, so an area with several printed resources can be damaged again. Where both are
    present, the attacker chooses which.
    """
    op = current["op"]
    state, module = game.state, game.module
    area = module.area(op["target"])
    choices = []
    if undamaged_printed(module, state, op["target"]):
        choices.append("damage the printed resource")
    choices += [
        f"remove the limited resource {r.marker}"
        for r in area.resources
        if r.limited and r.marker and limited_in_play(state, r)
    ]
    if not choices:
        return
    if len(choices) == 1 or "choice" in current:
        choice = current.get("choice", choices[0])
        if choice.startswith("remove"):
            state.used_limited.append(choice.rsplit(" ", 1)[1])
            game.note(f"strategic bombing removes the limited resource in {area.name}")
        else:
            state.damaged.append(op["target"])
            game.note(f"strategic bombing damages the resource in {area.name}")
        return
    game.ask(
        op["power"], "strategic bombing: which resource is hit? (LR 9.5.2)", choices, "bombing-damage", op=op
    )


@step("triumph")
def _triumph(game: CataclysmGame, current: Step) -> None:
    """Triumph and disaster after a land or naval combat with excess losses (LR 10.12)."""
    op = current["op"]
    fight = op.get("fight")
    if not fight or op["kind"] == "air" or not fight.get("excess") or fight.get("winner") is None:
        return
    winner, loser = fight["winner"], fight["loser"]
    if op["kind"] == "land":
        if not fight["land_units"]["attacker"] or not fight["land_units"]["defender"]:
            return
    elif not fight["fleets"][loser]:
        return
    # every losing power with a land or naval unit in the combat, sub packs included (LR 10.12)
    losing = [*fight["land_units"][loser], *fight.get("naval_units", fight["fleets"])[loser]]
    steps: list[Step] = []
    champion = op["power"] if winner == "attacker" else op["defender"]
    if champion is not None:
        steps.append(flag_step(champion, f"{op['kind']} triumph"))
    lone_minor = all(not t.isdigit() for t in losing)
    if not lone_minor:
        losers = sorted({p for t in losing if t.isdigit() and (p := _owner_of_lost(game, op, t)) is not None})
        steps += [stability_step(p, f"{op['kind']} disaster") for p in losers]
    game.note(f"{op['kind']} triumph for the {winner}; disaster for the {loser} (LR 10.12)")
    game.then(*steps)


def _owner_of_lost(game: CataclysmGame, op: Op, token: str) -> str | None:
    """Whose unit a combatant was, even once it is gone (recorded when the combat began)."""
    owner = op.get("fight", {}).get("owners", {}).get(token)
    return str(owner) if owner is not None else None


# ---- regroup (LR 10.11) ----------------------------------------------------------------------------


def _regroup_step(op: Op, side: str, classes: list[str]) -> Step:
    return {"do": "regroup", "op": op, "side": side, "classes": classes, "powers": None}


def _regrouping_powers(game: CataclysmGame, op: Op, side: str) -> list[str]:
    state, module = game.state, game.module
    if side == "attacker":
        anchor: str | None = op["power"]
    else:
        anchor = op["defender"] if op["defender"] is not None else controller(module, state, op["target"])
    if anchor is None or anchor not in state.powers:
        return []
    return [
        p
        for p in power_order(game, decreasing=True)
        if state.powers[p].active and (p == anchor or friendly_powers(module, state, anchor, p))
    ]


def _regroup_places(game: CataclysmGame, op: Op, unit: Unit, *, passing: bool = False) -> list[str]:
    """Regroup destinations (LR 10.11); an invasion's origin counts as adjacent (LR 9.3.2); Germany
    may not enter the demilitarized Ruhr (LR 12.1.1). Only a unit activated at extended range
    regroups within extended range (LR 7.3.3). ``passing``: during the regroup itself, when the
    limits may be exceeded until it ends (LR 7.1)."""
    origin = op["origins"][0] if op["variant"] == "invasion" and op["origins"] else None
    extended = unit.id in op.get("extended_units", [])
    places = regroup_destinations(
        game.module,
        game.state,
        unit,
        op["target"],
        extended=extended,
        invasion_origin=origin,
        passing=passing,
    )
    denied = set(denied_areas(game.state, unit.power))
    if passing:  # a production site may be crowded only by a unit played there (LR 7.1)
        sites = set(production_sites(game.module, game.state, unit.power)).intersection(places)
        if sites:
            strict = _regroup_places(game, op, unit)
            denied |= sites - set(strict)
    return [p for p in places if p not in denied]


def _regroup_moves(
    game: CataclysmGame, op: Op, power: str, classes: list[str]
) -> list[tuple[Unit, list[str]]]:
    state = game.state
    moves = []
    for unit in state.units:
        if unit.power != power or unit_class(game, unit.type) not in classes:
            continue
        if unit.type in ("fortress", "logistics"):
            continue
        places = [p for p in _regroup_places(game, op, unit, passing=True) if p != unit.area]
        if places:
            moves.append((unit, places))
    return moves


def regroup_excess(game: CataclysmGame, op: Op, power: str, entered: list[str]) -> list[str]:
    """The excesses over the occupation limits of the power's ideology in the areas its regroup has
    entered, the target aside (checked when the operation ends): a regroup may not end so (LR 7.1,
    10.11). A production site is entered only within its limits, so it is never over them here."""
    module, state = game.module, game.state
    areas = [a for a in dict.fromkeys(entered) if a != op["target"]]
    if not areas:
        return []
    exempt = set(module.areas) - set(areas)
    ideology = ideology_of(game, power).value
    return [line for line in violations(module, state, exempt=exempt) if f": {ideology} has " in line]


@step("regroup")
def _regroup(game: CataclysmGame, current: Step) -> None:
    """Each power of the regrouping side may move eligible units to or from the target (LR 10.11)."""
    op, side, classes = current["op"], current["side"], current["classes"]
    powers = current["powers"] if current["powers"] is not None else _regrouping_powers(game, op, side)
    if not powers:
        return
    power = powers[0]
    moves = _regroup_moves(game, op, power, classes)
    if not moves:
        game.push("regroup", op=op, side=side, classes=classes, powers=powers[1:])
        return
    entered: list[str] = current.get("entered", [])
    done = [] if regroup_excess(game, op, power, entered) else ["done"]  # limits hold at the end (LR 7.1)
    options = done + [f"regroup #{u.id} {u.type} in {game.module.area(u.area).name}" for u, _ in moves]
    game.ask(
        power,
        "regroup a unit, or done (LR 10.11)",
        options,
        "regroup-answer",
        op=op,
        side=side,
        classes=classes,
        powers=powers,
        **({"entered": entered} if entered else {}),
    )


@step("regroup-answer")
def _regroup_answer(game: CataclysmGame, current: Step) -> None:
    op, side, classes, powers = current["op"], current["side"], current["classes"], current["powers"]
    if current["choice"] == "done":
        game.push("regroup", op=op, side=side, classes=classes, powers=powers[1:])
        return
    unit = unit_from_option(game, current["choice"])
    places = [p for p in _regroup_places(game, op, unit, passing=True) if p != unit.area]
    game.ask(
        unit.power,
        f"regroup your {unit.type} to (LR 10.11)",
        [game.module.area(a).name for a in places],
        "regroup-move",
        op=op,
        side=side,
        classes=classes,
        powers=powers,
        unit=unit.id,
        **({"entered": current["entered"]} if current.get("entered") else {}),
    )


@step("regroup-move")
def _regroup_move(game: CataclysmGame, current: Step) -> None:
    unit = next(u for u in game.state.units if u.id == current["unit"])
    area_id = game.module.find_area(current["choice"])
    assert area_id is not None
    move_unit(game, unit, area_id, "regroups")
    rest = {k: v for k, v in current.items() if k not in ("do", "choice", "unit")}
    if area_id != op_target(current):
        rest["entered"] = [*current.get("entered", []), area_id]  # checked when the regroup ends
    game.push("regroup", **rest)


def op_target(current: Step) -> str:
    """The target of the operation a regroup step belongs to."""
    return str(current["op"]["target"])


# ---- the end of the operation ---------------------------------------------------------------------


@step("op-end")
def _op_end(game: CataclysmGame, current: Step) -> None:
    """Units that may not stay leave; surprise immunity; a failed attack's opportunity (LR 9.7.2, 9.8)."""
    op = current["op"]
    module, state = game.module, game.state
    target = op["target"]
    stranded = [
        u for u in state.units if u.area == target and not may_stop(module, state, u, target, ignoring=u)
    ]
    if stranded:
        unit = stranded[0]
        places = [p for p in _regroup_places(game, op, unit) if p != target] or retreat_destinations(
            module, state, unit, "land"
        )
        if not places:
            game.note(
                f"{unit.power}'s {unit.type} may not stay in {module.area(target).name} and has nowhere to go"
            )
            destroy_token(game, str(unit.id))
            game.push("op-end", **{k: v for k, v in current.items() if k != "do"})
            return
        game.push("op-end", **{k: v for k, v in current.items() if k != "do"})
        if len(places) == 1:
            move_unit(game, unit, places[0], "leaves")
            return
        game.ask(
            unit.power,
            f"your {unit.type} may not stay in {module.area(target).name}: move it to (LR 7.1, 10.11)",
            [module.area(a).name for a in places],
            "op-leave",
            unit=unit.id,
        )
        return
    if op.get("surprised") and op["defender"] is not None:
        ideology = ideology_of(game, op["defender"]).value
        if ideology not in state.no_surprise:
            state.no_surprise.append(ideology)
            game.note(f"No Surprise: the {ideology} powers cannot be surprised again (LR 9.8)")
    tail: list[Step] = []
    if (
        op.get("uncontrolled_country")
        and controller(module, state, target) is None
        and not module.area(target).chinese
    ):
        enemies = [
            p
            for p in power_order(game, decreasing=True)
            if state.powers[p].active and at_war(state, op["power"], p)
        ]
        others = [
            p
            for p in power_order(game, decreasing=True)
            if state.powers[p].active
            and p not in enemies
            and ideology_of(game, p) is not ideology_of(game, op["power"])
        ]
        tail.append({"do": "opportunity", "area": target, "powers": [*enemies, *others]})
        game.note(f"the attack on {module.area(target).name} failed: diplomatic opportunity (LR 9.7.2)")
    resume_offensive(game, op)
    game.then(*tail)
    sweep(game)


@step("op-leave")
def _op_leave(game: CataclysmGame, current: Step) -> None:
    unit = next(u for u in game.state.units if u.id == current["unit"])
    area_id = game.module.find_area(current["choice"])
    assert area_id is not None
    move_unit(game, unit, area_id, "leaves")
