"""Combat (LR 10): air superiority, main combat, losses and retreat; what follows (aftermath,
triumph, regroup, the end of the operation) is in :mod:`aftermath`.

Combatants are named by a token: a unit's id as text (``"12"``), ``minor:<area>`` for a printed
minor army, ``chinese:<area>`` for a Chinese army. The dice come from the chance service one die at
a time, so a test can replay the rules' examples with their exact dice.
"""

from __future__ import annotations

from dataclasses import replace
from math import ceil
from typing import Any

from grandstrategy.cataclysm.engine.civil_war import (
    move_chinese_army,
    remove_chinese_army,
    spend_aid_for_attack,
)
from grandstrategy.cataclysm.engine.common import (
    power_order,
    set_area,
)
from grandstrategy.cataclysm.engine.game import CataclysmGame
from grandstrategy.cataclysm.engine.machine import Step, step
from grandstrategy.cataclysm.engine.operations import (
    AIR,
    FLEETS,
    ideology_of,
    side_of,
    unit_class,
)
from grandstrategy.cataclysm.module.schema import Ideology
from grandstrategy.cataclysm.rules import combat as arithmetic
from grandstrategy.cataclysm.rules.civil_war import deciding_power, retreat_areas
from grandstrategy.cataclysm.rules.control import controller
from grandstrategy.cataclysm.rules.dice import roll_result
from grandstrategy.cataclysm.rules.movement import retreat_destinations
from grandstrategy.cataclysm.rules.occupation import may_stop
from grandstrategy.cataclysm.state import Unit

Op = dict[str, Any]


# ---- who is in the fight -------------------------------------------------------------------------


def _unit(game: CataclysmGame, token: str) -> Unit | None:
    if not token.isdigit():
        return None
    return next((u for u in game.state.units if u.id == int(token)), None)


def _token_type(game: CataclysmGame, token: str) -> str:
    unit = _unit(game, token)
    return unit.type if unit is not None else "minor-army"


def token_class(game: CataclysmGame, token: str) -> str:
    """The unit class of a combatant; minor and Chinese armies are land units (LR 2.4.4)."""
    unit = _unit(game, token)
    return unit_class(game, unit.type) if unit is not None else "land"


def _token_power(game: CataclysmGame, op: Op, token: str) -> str | None:
    unit = _unit(game, token)
    if unit is not None:
        return unit.power
    return controller(game.module, game.state, token.split(":", 1)[1])


def combatants(game: CataclysmGame, op: Op, side: str) -> list[str]:
    """The tokens of every unit of a side in the target area (LR 9.1.1, 10.2)."""
    target = op["target"]
    found = [str(u.id) for u in game.state.units if u.area == target and side_of(game, op, u) == side]
    if side == "defender" and op["kind"] == "land":
        if target in game.state.minor_armies:
            found.append(f"minor:{target}")
        if target in game.state.chinese_armies:
            found.append(f"chinese:{target}")
    return found


def _eligible(game: CataclysmGame, kind: str, tokens: list[str]) -> list[str]:
    return [t for t in tokens if arithmetic.eligible(kind, _token_type(game, t))]  # type: ignore[arg-type]


def _steps(game: CataclysmGame, tokens: list[str]) -> int:
    return sum(arithmetic.steps(_token_type(game, t)) for t in tokens)


def _decider(game: CataclysmGame, op: Op, side: str) -> str | None:
    """The power that chooses for a side: the primary attacker, or the primary defender (LR 10.8)."""
    if side == "attacker":
        return str(op["power"])
    if op["defender"] is not None:
        return str(op["defender"])
    faction = game.state.chinese_armies.get(op["target"])
    if faction is not None and op["kind"] == "land":
        return deciding_power(game.module, game.state, faction)  # LR 11.4.4 B
    return None  # a neutral country's army has nobody to choose for it


# ---- starting the combat -------------------------------------------------------------------------


@step("combat-begin")
def _combat_begin(game: CataclysmGame, current: Step) -> None:
    """Air combat or air superiority first, then the main combat (LR 10.1, 10.3)."""
    op = current["op"]
    if op["kind"] == "land" and op.get("cw_aid") is None:
        op["cw_aid"] = _spend_aid(game, op)  # patrons could revoke aid before support (LR 11.2)
    if op["kind"] == "air":
        game.push("combat-roll", op=op, stage="main", kind="air")
        return
    air = {
        side: [t for t in combatants(game, op, side) if _token_type(game, t) in AIR]
        for side in ("attacker", "defender")
    }
    if op["variant"] == "base-capture":
        defenders = [t for t in combatants(game, op, "defender") if token_class(game, t) in ("naval", "air")]
        if not defenders:
            game.note("no defending air or naval units: the base capture succeeds at once (LR 9.4.2)")
            op["winner"] = "attacker"
            game.push("aftermath", op=op)
            return
    if air["attacker"] and air["defender"]:
        game.push("combat-roll", op=op, stage="superiority", kind="air")
        return
    op["superiority"] = "attacker" if air["attacker"] else ("defender" if air["defender"] else None)
    game.push("combat-roll", op=op, stage="main", kind=op["kind"])


def _spend_aid(game: CataclysmGame, op: Op) -> bool:
    return bool(spend_aid_for_attack(game, op["target"], op["power"]))


def _side(game: CataclysmGame, op: Op, side: str, kind: str) -> arithmetic.Side:
    """The combat inputs of one side (LR 10.4–10.6), from the units in the target area."""
    return combat_side(game, op, side, kind, combatants(game, op, side))


def combat_side(game: CataclysmGame, op: Op, side: str, kind: str, tokens: list[str]) -> arithmetic.Side:
    """The combat inputs of one side made of ``tokens`` (LR 10.4–10.6): its unit types, and the
    supply, range, surprise, purges, SNLF and aid flags the operation record gives them.

    The engine passes the units in the target area; :mod:`grandstrategy.cataclysm.chances` passes
    the units an operation would bring, to give its odds before the dice with the same modifiers.
    """
    types = tuple(_token_type(game, t) for t in tokens)
    powers = {p for t in tokens if (p := _token_power(game, op, t)) is not None}
    limited = any(
        t.isdigit() and int(t) in op["limited"] and arithmetic.eligible(kind, _token_type(game, t))  # type: ignore[arg-type]
        for t in tokens
    )
    purges = any(
        ideology_of(game, p) is Ideology.COMMUNISM and game.state.powers[p].posture == "political-purges"
        for p in powers
        if p in game.state.powers
    )
    if side == "attacker":
        extended_units = set(op.get("extended_units", []))
        if kind == "land":
            extended = bool(op.get("extended_invasion"))
        else:
            extended = any(
                t.isdigit() and int(t) in extended_units and arithmetic.eligible(kind, _token_type(game, t))  # type: ignore[arg-type]
                for t in tokens
            )
        snlf = (
            op["variant"] == "invasion"
            and op["power"] == "japan"
            and any(
                _token_power(game, op, t) == "japan"
                and _token_type(game, t) in ("infantry-army", "tank-army")
                for t in tokens
            )
        )
        return arithmetic.Side(
            units=types,
            augmentation=op["augment"],
            limited_supply=limited,
            extended_range=extended,
            purges=purges,
            snlf=snlf,
        )
    return arithmetic.Side(
        units=types,
        limited_supply=limited,
        surprised=bool(op.get("surprised")),
        purges=purges,
        civil_war_aid=bool(op.get("cw_aid")) and kind == "land",
    )


def _terms(game: CataclysmGame, op: Op, kind: str) -> arithmetic.Terms:
    attacker = _side(game, op, "attacker", kind)
    defender = _side(game, op, "defender", kind)
    if kind != "air" and op.get("superiority") is not None:
        winner = op["superiority"]
        air_a = 1 if winner == "attacker" else 0
        air_d = 1 if winner == "defender" else 0
        attacker = _with_air(attacker, air_a)
        defender = _with_air(defender, air_d)
    elif kind != "air":
        attacker = _with_air(attacker, 0)
        defender = _with_air(defender, 0)
    facts = land_facts(game, op)
    return arithmetic.combat_terms(
        kind,  # type: ignore[arg-type]
        attacker,
        defender,
        defender_terrain=kind == "land" and (facts["adverse"] or facts["strait"] or facts["invasion"]),
        adverse_terrain=kind == "land" and facts["adverse"],
        fortress=kind == "land" and facts["fortress"],
        strategic_bombing=op["variant"] == "strategic-bombing",
    )


def land_facts(game: CataclysmGame, op: Op) -> dict[str, bool]:
    """The target's facts that change a land combat's roll (LR 10.4): adverse terrain, an attack
    across a strait from an area of origin (not an invasion), an invasion, a defending fortress."""
    module = game.module
    target = module.area(op["target"])
    strait = (
        any(
            e.kind == "strait" and e.target == op["target"]
            for origin in op["origins"]
            for e in module.neighbors(origin)
        )
        and op["variant"] != "invasion"
    )
    fortress = any(
        u.type == "fortress" and u.area == op["target"] and side_of(game, op, u) == "defender"
        for u in game.state.units
    )
    return {
        "adverse": bool(target.adverse),
        "strait": strait,
        "invasion": op["variant"] == "invasion",
        "fortress": fortress,
    }


def _with_air(side: arithmetic.Side, air: int) -> arithmetic.Side:
    return replace(side, air_after_superiority=air)


@step("combat-roll")
def _combat_roll(game: CataclysmGame, current: Step) -> None:
    op, stage, kind = current["op"], current["stage"], current["kind"]
    terms = _terms(game, op, kind)
    for reason in terms.reasons:
        game.note(reason)
    game.roll(
        terms.attacker_dice,
        f"{op['power']} {kind} combat",
        "combat-roll-defender",
        op=op,
        stage=stage,
        kind=kind,
        terms=[terms.attacker_dice, terms.attacker_modifier, terms.defender_dice, terms.defender_modifier],
    )


@step("combat-roll-defender")
def _combat_roll_defender(game: CataclysmGame, current: Step) -> None:
    terms = current["terms"]
    game.roll(
        terms[2],
        f"defender {current['kind']} combat",
        "combat-result",
        op=current["op"],
        stage=current["stage"],
        kind=current["kind"],
        terms=terms,
        attacker_dice=current["dice"],
    )


@step("combat-result")
def _combat_result(game: CataclysmGame, current: Step) -> None:
    """Scores, losses and the loser's voluntary retreat (LR 10.7)."""
    op, stage, kind, terms = current["op"], current["stage"], current["kind"], current["terms"]
    a_score = roll_result(current["attacker_dice"], terms[1])
    d_score = roll_result(current["dice"], terms[3])
    game.note(
        f"{kind} combat: attacker rolls {' '.join(map(str, current['attacker_dice']))} = {a_score}, "
        f"defender rolls {' '.join(map(str, current['dice']))} = {d_score}"
    )
    fight: dict[str, Any] = {"stage": stage, "kind": kind, "scores": [a_score, d_score]}
    fight["land_units"] = {
        side: [t for t in combatants(game, op, side) if token_class(game, t) == "land" or not t.isdigit()]
        for side in ("attacker", "defender")
    }
    fight["owners"] = {
        t: _token_power(game, op, t) for side in ("attacker", "defender") for t in combatants(game, op, side)
    }
    fight["fleets"] = {
        side: [t for t in combatants(game, op, side) if _token_type(game, t) in FLEETS]
        for side in ("attacker", "defender")
    }
    fight["naval_units"] = {
        side: [t for t in combatants(game, op, side) if t.isdigit() and token_class(game, t) == "naval"]
        for side in ("attacker", "defender")
    }
    if a_score == d_score:
        # a tie's one loss that a bombed defender without air units cannot take still damages a
        # resource (LR 9.5.2); there is no triumph on a tie (no winner, LR 10.7, 10.12)
        unabsorbed = op["variant"] == "strategic-bombing" and not _eligible(
            game, kind, combatants(game, op, "defender")
        )
        fight.update(winner=None, loser=None, losses=1, excess=unabsorbed)
        game.note("the combat is a tie: one loss each (LR 10.7)")
        game.push("combat-losses-applied", op=op, fight=fight)
        game.push("take-losses", op=op, fight=fight, side="attacker", left=1, total=1, primary=0)
        game.push("take-losses", op=op, fight=fight, side="defender", left=1, total=1, primary=0)
        return
    winner, loser = ("attacker", "defender") if a_score > d_score else ("defender", "attacker")
    losses = arithmetic.losses(max(a_score, d_score), min(a_score, d_score))
    fight.update(winner=winner, loser=loser, losses=losses)
    game.note(f"the {winner} wins; the {loser} takes {losses} loss(es) (LR 10.7)")
    eligible = _eligible(game, kind, combatants(game, op, loser))
    steps = _steps(game, eligible)
    decider = _decider(game, op, loser)
    intrinsic = op["variant"] == "strategic-bombing" and loser == "defender" and not eligible
    if (
        decider is not None
        and not intrinsic
        and eligible
        and arithmetic.may_retreat_voluntarily(losses, steps, False)
        and _can_move_away(game, op, loser, kind)
    ):
        game.ask(
            decider,
            f"you lost the {kind} combat with {losses} loss(es): retreat to take one fewer? (LR 10.7, 10.10)",
            ["retreat", "stand"],
            "combat-retreat-choice",
            op=op,
            fight=fight,
        )
        return
    _apply(game, op, fight, retreat=False)


def _can_move_away(game: CataclysmGame, op: Op, side: str, kind: str) -> bool:
    """Whether any unit that would retreat can (minor armies never, LR 2.4.4)."""
    return any(t.isdigit() or t.startswith("chinese:") for t in combatants(game, op, side))


@step("combat-retreat-choice")
def _combat_retreat_choice(game: CataclysmGame, current: Step) -> None:
    _apply(game, current["op"], current["fight"], retreat=current["choice"] == "retreat")


def _apply(game: CataclysmGame, op: Op, fight: dict[str, Any], *, retreat: bool) -> None:
    losses = fight["losses"] - (1 if retreat else 0)
    loser = fight["loser"]
    fight["voluntary_retreat"] = retreat
    if retreat:
        game.note(f"the {loser} retreats to take {losses} loss(es) (LR 10.10)")
    eligible = _eligible(game, fight["kind"], combatants(game, op, loser))
    fight["excess"] = losses > _steps(game, eligible)
    fight["applied"] = losses
    game.push("combat-losses-applied", op=op, fight=fight)
    if losses:
        game.push("take-losses", op=op, fight=fight, side=loser, left=losses, total=losses, primary=0)


@step("take-losses")
def _take_losses(game: CataclysmGame, current: Step) -> None:
    """One loss at a time, as the primary attacker or defender chooses within LR 10.8's limits."""
    op, fight, side, left = current["op"], current["fight"], current["side"], current["left"]
    if left <= 0:
        return
    eligible = _eligible(game, fight["kind"], combatants(game, op, side))
    if not eligible:
        return  # more losses than units: the excess is a triumph or disaster (LR 10.12)
    allowed = list(eligible)
    upgraded = [t for t in allowed if arithmetic.steps(_token_type(game, t)) == 2]
    if current["total"] == left and upgraded:
        allowed = upgraded  # at least one loss flips an upgraded unit (LR 10.8)
    primary_power = op["power"] if side == "attacker" else op["defender"]
    mine = [t for t in allowed if _token_power(game, op, t) == primary_power]
    need = ceil(current["total"] / 2) - current["primary"]
    if need >= left and mine and len(mine) < len(allowed):
        allowed = mine  # at least half on the primary attacker's or defender's units (LR 10.8)
    decider = _decider(game, op, side)
    rest = {k: v for k, v in current.items() if k not in ("do", "choice")}
    if len(allowed) == 1 or decider is None:
        _lose(game, op, rest, allowed[0])
        return
    labels = [_label(game, t) for t in allowed]
    game.ask(
        decider, f"take a loss ({left} to go; LR 10.8)", labels, "take-losses-answer", tokens=allowed, **rest
    )


def _label(game: CataclysmGame, token: str) -> str:
    unit = _unit(game, token)
    if unit is None:
        return f"{token.split(':')[0]} army in {game.module.area(token.split(':', 1)[1]).name}"
    return f"#{unit.id} {unit.power} {unit.type}"


@step("take-losses-answer")
def _take_losses_answer(game: CataclysmGame, current: Step) -> None:
    tokens = current["tokens"]
    labels = [_label(game, t) for t in tokens]
    rest = {k: v for k, v in current.items() if k not in ("do", "choice", "tokens")}
    _lose(game, current["op"], rest, tokens[labels.index(current["choice"])])


def _lose(game: CataclysmGame, op: Op, current: dict[str, Any], token: str) -> None:
    side = current["side"]
    primary_power = op["power"] if side == "attacker" else op["defender"]
    hit_primary = _token_power(game, op, token) == primary_power
    destroy_token(game, token, flip=True)
    game.push(
        "take-losses",
        **{
            **current,
            "left": current["left"] - 1,
            "primary": current["primary"] + (1 if hit_primary else 0),
        },
    )


def destroy_token(game: CataclysmGame, token: str, *, flip: bool = False) -> None:
    """One loss to a combatant (``flip``), or its destruction: upgraded units flip first (LR 10.8)."""
    state, module = game.state, game.module
    unit = _unit(game, token)
    if unit is None:
        kind, area_id = token.split(":", 1)
        if kind == "minor":
            state.minor_armies.remove(area_id)
            game.note(f"the minor army in {module.area(area_id).name} is removed from play")
        else:
            game.note(f"the Chinese army in {module.area(area_id).name} is destroyed")
            remove_chinese_army(game, area_id)
        return
    base = next((t.id for t in module.unit_types.values() if t.upgrades_to == unit.type), None)
    if flip and base is not None:
        game.note(f"{unit.power}'s {unit.type} in {module.area(unit.area).name} is flipped to {base}")
        state.unit_to_change(unit).type = base  # units are copied on write
        return
    state.units.remove(unit)
    key = module.unit_types[unit.type].counter
    line = state.line_to_change(unit.power)
    line.force_pool[key] = line.force_pool.get(key, 0) + 1
    game.note(f"{unit.power}'s {unit.type} in {module.area(unit.area).name} is destroyed")


@step("combat-losses-applied")
def _losses_applied(game: CataclysmGame, current: Step) -> None:
    """After the losses: voluntary retreats, then the aftermath or the main combat (LR 10.7, 10.9)."""
    op, fight = current["op"], current["fight"]
    if fight["stage"] == "superiority":
        tail: list[Step] = [{"do": "superiority", "op": op}]
        if fight.get("voluntary_retreat"):
            tokens = [t for t in combatants(game, op, fight["loser"]) if _token_type(game, t) in AIR]
            game.then(*retreat_steps_of(game, op, tokens, "air"), *tail)
        else:
            game.then(*tail)
        return
    op["winner"] = fight["winner"]
    op["fight"] = fight
    steps: list[Step] = []
    if fight.get("voluntary_retreat"):
        retreating = retreating_tokens(game, op, fight["loser"], fight["kind"])
        steps += retreat_steps_of(game, op, retreating, fight["kind"])
        op["retreated"] = fight["loser"]
    game.then(*steps, {"do": "aftermath", "op": op})


@step("superiority")
def _superiority(game: CataclysmGame, current: Step) -> None:
    op = current["op"]
    count = {
        side: sum(1 for t in combatants(game, op, side) if _token_type(game, t) in AIR)
        for side in ("attacker", "defender")
    }
    op["superiority"] = arithmetic.air_superiority(count["attacker"], count["defender"])
    if op["superiority"]:
        game.note(f"the {op['superiority']} has air superiority (LR 10.3)")
    game.push("combat-roll", op=op, stage="main", kind=op["kind"])


def retreating_tokens(game: CataclysmGame, op: Op, side: str, kind: str) -> list[str]:
    """Who retreats from a combat of this kind: air units; naval and air; or everyone (LR 10.10)."""
    classes = {"air": {"air"}, "naval": {"air", "naval"}, "land": {"air", "naval", "land", "logistics"}}[kind]
    return [t for t in combatants(game, op, side) if not t.isdigit() or token_class(game, t) in classes]


def retreat_steps_of(game: CataclysmGame, op: Op, tokens: list[str], kind: str) -> list[Step]:
    order = power_order(game, decreasing=True)

    def rank(token: str) -> int:
        power = _token_power(game, op, token)
        return order.index(power) if power in order else len(order)

    return [{"do": "retreat", "op": op, "token": t, "kind": kind} for t in sorted(tokens, key=rank)]


@step("retreat")
def _retreat(game: CataclysmGame, current: Step) -> None:
    """Move a unit out of the target, or destroy it when it cannot retreat (LR 10.10)."""
    op, token, kind = current["op"], current["token"], current["kind"]
    module, state = game.module, game.state
    unit = _unit(game, token)
    if unit is None:
        if token.startswith("chinese:") and token.split(":", 1)[1] in state.chinese_armies:
            area_id = token.split(":", 1)[1]
            places = retreat_areas(module, state, area_id)  # LR 11.4.1
            decider = deciding_power(module, state, state.chinese_armies[area_id])
            if len(places) > 1 and decider is not None:
                game.ask(
                    decider,
                    f"for the Chinese army in {module.area(area_id).name}: retreat to (LR 11.4.1, 11.4.4 B)",
                    [module.area(a).name for a in places],
                    "chinese-retreat-answer",
                    area=area_id,
                )
                return
            if places:
                _move_chinese(game, area_id, places[0])
                return
        if (token.startswith("minor:") and token.split(":", 1)[1] in state.minor_armies) or token.startswith(
            "chinese:"
        ):
            if token.startswith("chinese:") and token.split(":", 1)[1] not in state.chinese_armies:
                return
            destroy_token(game, token)
        return
    if (
        op["variant"] == "invasion"
        and str(unit.id) in map(str, op["attackers"])
        and unit.area == op["target"]
    ):
        places = [op["origins"][0]] if may_stop(module, state, unit, op["origins"][0], ignoring=unit) else []
    else:
        places = retreat_destinations(module, state, unit, kind)
    if not places:
        game.note(f"{unit.power}'s {unit.type} cannot retreat")
        destroy_token(game, token)
        return
    if len(places) == 1:
        move_unit(game, unit, places[0], "retreats")
        return
    game.ask(
        unit.power,
        f"retreat your {unit.type} from {module.area(unit.area).name} to (LR 10.10)",
        [module.area(a).name for a in places],
        "retreat-answer",
        unit=unit.id,
    )


def _move_chinese(game: CataclysmGame, area_id: str, place: str) -> None:
    move_chinese_army(game, area_id, place)
    game.note(f"the Chinese army retreats to {game.module.area(place).name}")


@step("chinese-retreat-answer")
def _chinese_retreat_answer(game: CataclysmGame, current: Step) -> None:
    place = game.module.find_area(current["choice"])
    if place is not None and current["area"] in game.state.chinese_armies:
        _move_chinese(game, current["area"], place)


@step("retreat-answer")
def _retreat_answer(game: CataclysmGame, current: Step) -> None:
    unit = next(u for u in game.state.units if u.id == current["unit"])
    area_id = game.module.find_area(current["choice"])
    assert area_id is not None
    move_unit(game, unit, area_id, "retreats")


def move_unit(game: CataclysmGame, unit: Unit, area_id: str, verb: str) -> None:
    area = game.module.area(area_id)
    game.note(f"{unit.power}'s {unit.type} {verb} from {game.module.area(unit.area).name} to {area.name}")
    set_area(game, unit, area_id)
