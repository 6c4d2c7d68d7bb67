"""The exact odds of a game's battles, read from the board: for bots and for the terminal's menus.

The battle calculator (:mod:`grandstrategy.axis_allies.odds`) knows nothing of a game; this
module turns a position into its :class:`~grandstrategy.axis_allies.battle.Battle` (who stands in
a place, AA guns, bombarding ships) and answers, for one option of the open decision, the chance
that matters:

- ``move N TYPE FROM -> TO`` in combat move, into a battle: the attacker's chance of winning
  that battle once the units have moved;
- ``fight WHERE``: the attacker's chance of winning it; ``press attack``: of winning the open
  battle from where it stands;
- ``lose POWER TYPE`` / ``damage POWER battleship``: the chooser's chance of the battle ending
  its way after that casualty (the attacker wins it; for the defence, the attacker does not).

The calculator plays the battle to its end with its default order of loss and no retreat, and
does not model the developments (jet fighters, super submarines) other than heavy bombers; for
a bot's choice and a menu's hint that is the figure players use. Results are cached by battle.
"""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING, Any

from grandstrategy.axis_allies.battle import Battle
from grandstrategy.axis_allies.game.board import parse_move, split
from grandstrategy.axis_allies.units import BattleSetupError

if TYPE_CHECKING:
    from grandstrategy.axis_allies.game.engine import AAGame

RULES = "lhtr"
"""The calculator's rule set for the game's battles (Revised with LHTR 1.3)."""

CALCULATOR_KEYS = {
    "infantry": "inf",
    "artillery": "art",
    "armour": "arm",
    "aagun": "aa",
    "fighter": "ftr",
    "bomber": "bmr",
    "transport": "trn",
    "submarine": "sub",
    "destroyer": "dd",
    "carrier": "cv",
    "battleship": "bb",
}
"""The Revised module's unit types -> the calculator's unit keys."""


def _calc_key(game: AAGame, owner: str, unit: str, attacking: bool) -> str | None:
    """The calculator's key of a game unit (``None`` for what does not fight: factories)."""
    stats = game.stats[unit]
    if stats.factory:
        return None
    if stats.strategic_bomber and attacking and "heavy-bombers" in game.techs(owner):
        return "hbmr"
    return CALCULATOR_KEYS.get(unit)


def battle_at(
    game: AAGame,
    where: str,
    extra: dict[str, int] | None = None,
    *,
    opened: bool = False,
    bombard_from: tuple[str, ...] = (),
) -> Battle | None:
    """The battle in ``where`` between the power on move and the other alliance, as things stand
    (plus ``extra`` attacking units by game type); ``None`` when one side has nothing there.
    ``opened``: the battle is under way, so the AA guns have fired already. ``bombard_from``:
    sea zones of a planned amphibious assault whose ships would bombard too (a landing the bot
    has not made yet; zones already in ``d["bombard"]`` count anyway)."""
    power = game.power
    attacker: dict[str, int] = {}
    defender: dict[str, int] = {}
    sea = game.is_sea(where)
    for stack, n in game.stacks(where):
        owner, unit, _, _ = split(stack)
        mine = owner == power
        if not mine and game.friendly(power, owner):
            continue
        stats = game.stats[unit]
        if stats.aa_gun and (mine or sea or opened):
            continue  # an attacker's AA gun does not fire; none stands at sea
        if not stats.aa_gun and not game.fights(unit, where):
            continue
        name = _calc_key(game, owner, unit, mine)
        if name is None:
            continue
        side = attacker if mine else defender
        side[name] = side.get(name, 0) + n
    for unit, n in (extra or {}).items():
        name = _calc_key(game, power, unit, True)
        if name is not None and n > 0:
            attacker[name] = attacker.get(name, 0) + n
    if "aa" in defender:
        defender["aa"] = 1  # the engine fires once per aircraft however many guns stand there
    if not any(k != "aa" for k in defender) and not sea:
        defender = {}
    if not attacker or not defender:
        return None
    bombard: dict[str, int] = {}
    if not sea:
        zones = [*game.d["bombard"].get(where, [])]
        zones += [z for z in bombard_from if z not in zones]
        for zone in zones:
            if zone in game.d["sea_fought"]:
                continue
            for stack, n in game.stacks(zone):
                owner, unit, _, _ = split(stack)
                if owner == power and game.profile.bombards(unit, game.techs(owner)):
                    name = CALCULATOR_KEYS.get(unit)
                    if name:
                        bombard[name] = bombard.get(name, 0) + n
    return Battle.make(RULES, attacker, defender, sea=sea, bombard=bombard)


@lru_cache(maxsize=4096)
def attacker_chances(battle: Battle) -> tuple[float, float]:
    """``(attacker wins, defender holds)`` of a battle fought to the end (exact when it fits the
    calculator's size guard, else its seeded Monte Carlo); ``(0, 1)`` for a battle it refuses."""
    from grandstrategy.axis_allies.odds import battle_odds

    try:
        odds = battle_odds(battle, trials=2000, seed=1)
    except BattleSetupError:
        return 0.0, 1.0
    return odds.attacker_win, 1.0 - odds.attacker_win


def _moved_units(game: AAGame, option: str) -> tuple[str, str, int] | None:
    """``(type, target, count)`` of a combat move into a battle; ``None`` for any other option."""
    move = parse_move(option)
    if move is None:
        return None
    count, unit, _, target = move
    stats = game.stats.get(unit)
    if stats is None or not stats.combat:
        return None
    if game.is_sea(target) and stats.domain == "land":
        return None  # boarding a transport
    hostile = game.enemy_units(game.power, target, combat_only=True) or game.hostile_land(game.power, target)
    return (unit, target, count) if hostile else None


def option_odds(game: AAGame, seat: str, option: str) -> float | None:
    """The chance, for ``seat``, that the battle the option leads into goes its way (see the
    module doc); ``None`` for an option that opens or shapes no battle."""
    battle: dict[str, Any] | None = game.d["battle"]
    words = option.split()
    if not words:
        return None
    if battle is not None and not battle.get("raid") and not battle.get("research"):
        where = battle["where"]
        if option == "press attack":
            setup = battle_at(game, where, opened=True)
            return None if setup is None else attacker_chances(setup)[0]
        if words[0] in ("lose", "damage") and len(words) == 3 and "machine" not in battle:
            return _casualty_odds(game, battle, seat, words)
        return None
    phase = game.d["phase"]
    if phase == "combat" and words[0] == "fight" and len(words) == 2:
        setup = battle_at(game, words[1])
        return None if setup is None else attacker_chances(setup)[0]
    if phase == "combat-move":
        moved = _moved_units(game, option)
        if moved is None:
            return None
        unit, target, count = moved
        setup = battle_at(game, target, {unit: count})
        if setup is None:
            return (
                1.0 if game.hostile_land(game.power, target) and game.stats[unit].domain == "land" else None
            )
        return attacker_chances(setup)[0]
    return None


def _casualty_odds(game: AAGame, battle: dict[str, Any], seat: str, words: list[str]) -> float | None:
    """The chooser's chance after taking this casualty: one unit of the type gone (a battleship
    only damaged keeps its place, so damaging it is never worse than losing a unit)."""
    verb, owner, unit = words
    where = battle["where"]
    attacking = battle["stage"] == "attacker-casualties"
    name = _calc_key(game, owner, unit, attacking)
    setup = battle_at(game, where, opened=True)
    if setup is None or name is None:
        return None
    if verb == "lose":
        side = dict(setup.attacker if attacking else setup.defender)
        if side.get(name, 0) <= 0:
            return None
        side[name] -= 1
        attacker = side if attacking else dict(setup.attacker)
        defender = dict(setup.defender) if attacking else side
        if not any(n for k, n in attacker.items()):
            return 0.0 if attacking else 1.0
        if not any(n for k, n in defender.items() if k != "aa"):
            return 1.0 if attacking else 0.0
        setup = Battle.make(RULES, attacker, defender, sea=setup.sea, bombard=dict(setup.bombard))
    win, hold = attacker_chances(setup)
    return win if attacking else hold


def menu_chances(game: AAGame) -> dict[str, tuple[float, str]]:
    """For the open decision, each option's chance (:func:`option_odds`, for the side deciding)
    with a short text for the terminal's menu: ``wins 87%`` for an attack, ``holds 60%`` for a
    defence's casualty. Options without a battle at stake are left out."""
    who = game.to_act()
    if not isinstance(who, str):
        return {}
    battle = game.d["battle"]
    defending = battle is not None and battle["stage"] in ("defender-casualties", "defender-submerge")
    result: dict[str, tuple[float, str]] = {}
    for option in game.options():
        p = option_odds(game, who, option)
        if p is not None:
            result[option] = (p, f"{'holds' if defending else 'wins'} {p:.0%}")
    return result
