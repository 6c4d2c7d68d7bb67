"""Air interdiction in the enemy's turn (S3:L230), wired into the variant's turn.

When the power on move begins its combat move (after its income, before its first move), each
power of the other side, in turn order, may send bombers from a territory it or a friend holds
into an adjacent sea zone or hostile territory with no enemy aircraft there (AH-G1). The
declarations are a short special "battle" (``d["battle"]``, ``"kind": "interdict"``) whose
only step is a question per power: one more mission, or ``done``. Each mission to a territory
is then the combat's one-cycle attack (:func:`.combat.special.open_interdiction_attack`: the
target's IDs fire once, the bombers fire once, they fly home); over a sea zone no ID fires and
bombers cannot hit ships, so nothing is rolled. For the rest of that power's turn every move of
its land or sea units into or out of an interdicted place rolls one die per interdicting bomber
(:func:`.combat.special.open_interdiction_rolls`): 1 destroys the unit, 2 sends it back where it
came from with no moves left (AH-G2). Bombers on a mission fly no Defensive Air Support.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from grandstrategy.axis_allies.aarhe import declarations
from grandstrategy.axis_allies.aarhe.combat.special import open_interdiction_attack, open_interdiction_rolls
from grandstrategy.axis_allies.aarhe.declarations import open_round
from grandstrategy.axis_allies.game.board import key, split

if TYPE_CHECKING:
    from grandstrategy.axis_allies.game.combat import Combat
    from grandstrategy.axis_allies.game.engine import AAGame

KIND = "interdict"


def missions(game: Combat) -> list[list[Any]]:
    """The missions declared this turn: ``[power, stack, origin, target, n]``."""
    turn: dict[str, Any] = game.d.get("aarhe_turn", {})
    return list(turn.get("interdiction", []))


def busy(game: Combat) -> dict[tuple[str, str], int]:
    """Bombers on an interdiction mission this turn, by ``(stack, origin)``."""
    sent: dict[tuple[str, str], int] = {}
    for _, stack, origin, _, n in missions(game):
        sent[stack, origin] = sent.get((stack, origin), 0) + int(n)
    return sent


def interdicted(game: Combat) -> dict[str, int]:
    """Bombers interdicting each place this turn."""
    result: dict[str, int] = {}
    for _, _, _, target, n in missions(game):
        result[target] = result.get(target, 0) + int(n)
    return result


def _enemy_air(game: Combat, power: str, where: str) -> bool:
    return any(
        game.stats[split(s)[1]].domain == "air" and not game.friendly(power, split(s)[0])
        for s, _ in game.stacks(where)
    )


def offers(game: Combat, power: str) -> list[str]:
    """``interdict TARGET with N UNIT from ORIGIN`` for ``power``'s undamaged bombers in a
    territory of its side, next to a sea zone or a hostile territory without enemy aircraft."""
    sent = busy(game)
    result = []
    for origin in sorted(game.d["units"]):
        if game.is_sea(origin) or not game.friendly(power, game.owner(origin)):
            continue
        free: dict[str, int] = {}
        for stack, n in game.stacks(origin):
            owner, unit, _, damage = split(stack)
            if owner == power and game.stats[unit].strategic_bomber and not damage:
                free[unit] = free.get(unit, 0) + n - sent.get((stack, origin), 0)
        for target in sorted(game.module.territories[origin].neighbours):
            holder = None if game.is_sea(target) else game.owner(target)
            hostile = game.is_sea(target) or (holder is not None and not game.friendly(power, holder))
            if not hostile or _enemy_air(game, power, target):
                continue
            for unit, n in sorted(free.items()):
                if n > 0:
                    result.append(f"interdict {target} with {n} {unit} from {origin}")
    return result


def open_declarations(game: AAGame) -> bool:
    """The power on move's combat move begins: the other side may declare missions. False when
    no power has a bomber to send (nothing opens)."""
    powers = [p for p in game.order if not game.friendly(game.power, p)]
    if not any(offers(game, p) for p in powers):
        return False
    open_round(game, KIND, offers)
    return True


def answer(game: Combat, option: str) -> None:
    """``done`` passes to the next power; a mission is recorded and its attack queued."""
    turn = game.d["aarhe_turn"]

    def record(power: str, stack: str, origin: str, target: str, take: int) -> None:
        turn.setdefault("interdiction", []).append([power, stack, origin, target, take])
        turn.setdefault("interdiction_queue", []).append([power, stack, origin, target, take])

    declarations.answer(game, option, offers, busy(game), record, "interdict")


def next_attack(game: AAGame) -> bool:
    """Open the next queued mission's one-cycle attack (territories only); True when one
    opened or was passed over (the caller settles again)."""
    queue = game.d["aarhe_turn"].get("interdiction_queue")
    if not queue:
        return False
    power, stack, origin, target, n = queue.pop(0)
    if not game.is_sea(target) and game.units(origin).get(stack, 0) >= n:
        open_interdiction_attack(game, power, origin, target, {stack: n})
    return True


def start_rolls(game: AAGame, unit: str, origin: str, target: str, before: dict[str, int]) -> None:
    """After a move of land or sea units from ``origin`` into ``target`` (``before``: the units
    at ``target`` before the move): the movers roll if either place is interdicted."""
    if game.stats[unit].domain == "air":
        return
    watch = interdicted(game)
    bombers = watch.get(origin, 0) + watch.get(target, 0)
    if not bombers:
        return
    movers = {
        stack: n - before.get(stack, 0)
        for stack, n in game.units(target).items()
        if split(stack)[:2] == (game.power, unit) and n > before.get(stack, 0)
    }
    if movers:
        game.d["aarhe_turn"]["interdiction_move"] = [origin, target]
        open_interdiction_rolls(game, target, movers, bombers)


def finish(game: AAGame) -> bool:
    """After the movers' dice: the stopped units go back to their origin with no moves left (a
    battle where none of the power's units remain is none). False when no dice were waiting."""
    result = game.d.pop("aarhe_interdiction", None)
    move = game.d["aarhe_turn"].pop("interdiction_move", None)
    if result is None or move is None:
        return False
    origin, target = move
    for stack, n in sorted(result["stopped"].items()):
        here = min(int(n), game.units(target).get(stack, 0))
        owner, kind, _, damage = split(stack)
        if here:
            game.add(target, stack, -here)
            game.add(origin, key(owner, kind, 0, damage), here)
    if game.is_sea(target):
        _settle_cargo(game, origin, target)
    lost = sum(result["destroyed"].values())
    back = sum(result["stopped"].values())
    game.log(f"interdiction: {lost} destroyed and {back} stopped moving into {target}")
    if target in game.d["battles"] and not any(split(s)[0] == game.power for s in game.units(target)):
        game.d["battles"].remove(target)
        game.d["origins"].pop(target, None)
    return True


def _settle_cargo(game: AAGame, origin: str, target: str) -> None:
    """Cargo beyond what the power's transports left in ``target`` can hold went with them: back
    to ``origin`` with a stopped transport while there is room there, else down with a sunk one
    (AH-G2)."""
    power = game.power
    for stack, n in sorted(
        game.units(target).items(), key=lambda item: -game.stats[split(item[0])[1]].transport_cost
    ):
        owner, unit, _, _ = split(stack)
        cost = game.stats[unit].transport_cost
        if owner != power or game.stats[unit].domain != "land" or not cost:
            continue
        for _ in range(n):
            if game.cargo_room(power, target) >= 0:
                return
            game.add(target, stack, -1)
            if game.is_sea(origin) and game.cargo_room(power, origin) >= cost:
                game.add(origin, stack, 1)
            else:
                game.log(f"a {unit} aboard a sunk transport is lost in {target}")
