"""Exact odds for an operation the military-action menu offers, for bots and the terminal game.

An option such as ``land operation against Poland`` is turned into a described combat situation
(``grandstrategy.cataclysm.odds``): the units the power could activate (as many as the target
holds), its air units that could support, and what defends the target. The estimate assumes no
augmentation, full supply and no support from the defender's neighbours; it is a guide for a
choice, not the combat itself.
"""

from __future__ import annotations

from grandstrategy.cataclysm.engine import operations
from grandstrategy.cataclysm.engine.game import CataclysmGame
from grandstrategy.cataclysm.odds import parse_situation, situation_odds
from grandstrategy.cataclysm.rules.movement import support_possible


def option_odds(game: CataclysmGame, power: str, option: str) -> float | None:
    """The chance that the operation named by ``option`` wins its combat, or None for other options."""
    op = operations.parse_option(game, power, option, left=2, deployed=[])
    if op is None:
        return None
    module, state = game.module, game.state
    kind, target = op["kind"], op["target"]
    attackers: list[str] = []
    chosen: list[int] = []
    for unit in state.units:
        if unit.power != power or operations.activatable(game, op, unit) is None:
            continue
        if operations._fits(game, {**op, "attackers": chosen}, unit):  # LR 7.1, 9.2 step 6
            chosen.append(unit.id)
            attackers.append(unit.type)
    defenders = [
        u
        for u in state.units
        if u.area == target and operations._target_power(game, power, u.power, surprise=op["surprise"])
    ]
    support = [
        u.type
        for u in state.units
        if u.power == power
        and u.type in operations.AIR
        and u.area != target
        and support_possible(module, state, u, target, kind)
    ][:2]

    def of_class(types: list[str], cls: str) -> list[str]:
        return [t for t in types if t in module.unit_types and module.unit_types[t].unit_class == cls]

    if kind == "naval" and op["variant"] == "base-capture" and not defenders:
        return 1.0
    defending = [u.type for u in defenders]
    if kind == "land" and target in state.minor_armies:
        defending.append("minor-army")
    if kind == "air":
        a_units, a_air = of_class(attackers, "air") + support, []
        d_units, d_air = of_class(defending, "air"), []
        if not a_units or (not d_units and op["variant"] != "strategic-bombing"):
            return None
    else:
        cls = "land" if kind == "land" else "naval"
        a_units = [t for t in of_class(attackers, cls) if t != "submarine-pack" or kind != "naval"]
        d_units = [t for t in of_class(defending, cls) if t != "fortress"] + [
            t for t in defending if t == "minor-army"
        ]
        a_air = of_class(attackers, "air") + support
        d_air = of_class(defending, "air")
        if not a_units and not a_air:
            return None
    area = module.area(target)
    situation = {
        "combat": kind,
        "strategic_bombing": op["variant"] == "strategic-bombing",
        "attacker": {"units": a_units, "air": a_air[:2]} if kind != "air" else {"units": a_units[:2]},
        "defender": {"units": d_units, "air": d_air} if kind != "air" else {"units": d_units},
        "adverse_terrain": kind == "land" and area.adverse,
        "invasion": op["variant"] == "invasion",
        "fortress": kind == "land" and "fortress" in defending,
    }
    if op["surprise"]:
        situation["defender"]["surprised"] = True
    try:
        return float(situation_odds(parse_situation(situation)).attacker_wins)
    except Exception:
        return None
