"""The atomic bomb in the variant's turn (S3:L238), around its combat (:func:`.combat.special.open_atomic`).

A power that has researched Atomic Weaponry may buy one bomb per turn in its purchase phase; it
takes two turns to build, so it is ready from the power's next turn (its cost is not given:
``data/combat.yaml`` ``atomic_bomb``, reconstructed, AH-G3). With Heavy Bomber technology a ready
bomb is loaded onto one of the power's bombers in non-combat move; the bomber stays where it is
for the rest of that phase (AH-G4). In a later combat move the loaded bomber makes the nuclear
attack on a hostile territory within its combat range: it takes no fire, the territory loses a
die of income for good, the defence splits its units into groups and the attacker strikes one
(the combat's special battle). The bomber then stays at its origin with no moves left, so it takes
part in no combat that turn.

State: ``d["aarhe"]["atomic"][power]`` = ``{"building": [round bought, ...], "loaded": {territory:
n}}``; the permanent income losses are ``d["aarhe_atomic_loss"]`` (read by Collect Income).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from grandstrategy.axis_allies.aarhe.combat.special import open_atomic
from grandstrategy.axis_allies.aarhe.combat.tables import tables
from grandstrategy.axis_allies.game.board import key, split
from grandstrategy.core.graph import bfs_distances

if TYPE_CHECKING:
    from grandstrategy.axis_allies.game.engine import AAGame

TECH = "atomic-weaponry"
CARRIER_TECH = "heavy-bomber"


def record(game: AAGame, power: str) -> dict[str, Any]:
    """The power's bombs: those building (by the round bought) and those loaded (by territory)."""
    books: dict[str, Any] = game.d["aarhe"].setdefault("atomic", {})
    entry: dict[str, Any] = books.setdefault(power, {"building": [], "loaded": {}})
    return entry


def cost() -> int:
    """The price of one bomb (reconstructed, AH-G3)."""
    return tables().need("atomic_bomb", "cost")


def ready(game: AAGame, power: str) -> int:
    """Bombs built (bought in an earlier round) and not yet loaded."""
    return sum(1 for bought in record(game, power)["building"] if int(bought) < int(game.d["round"]))


def buy_options(game: AAGame) -> list[str]:
    """``buy atomic-bomb`` once per turn, with the technology and the IPCs for it."""
    power = game.power
    if TECH not in game.techs(power) or game.d["bank"][power] < cost():
        return []
    if int(game.d["round"]) in record(game, power)["building"]:
        return []  # one per turn (S3:L238)
    return ["buy atomic-bomb"]


def buy(game: AAGame) -> None:
    power = game.power
    game.d["bank"][power] -= cost()
    record(game, power)["building"].append(int(game.d["round"]))
    game.log(f"begins building an atomic bomb ({cost()} IPCs)")


def _bombers(game: AAGame, power: str, where: str) -> int:
    return sum(
        n
        for stack, n in game.stacks(where)
        if split(stack)[0] == power and game.stats[split(stack)[1]].strategic_bomber
    )


def load_options(game: AAGame) -> list[str]:
    """``load atomic-bomb at WHERE``: a ready bomb onto a bomber of the power not yet carrying
    one, with Heavy Bomber technology (S3:L238)."""
    power = game.power
    if CARRIER_TECH not in game.techs(power) or not ready(game, power):
        return []
    loaded = record(game, power)["loaded"]
    return [
        f"load atomic-bomb at {where}"
        for where in sorted(game.d["units"])
        if not game.is_sea(where) and _bombers(game, power, where) > int(loaded.get(where, 0))
    ]


def load(game: AAGame, where: str) -> None:
    """Load a ready bomb; one bomber there stops for the rest of the phase (AH-G4)."""
    power = game.power
    books = record(game, power)
    books["building"].remove(min(b for b in books["building"] if int(b) < int(game.d["round"])))
    books["loaded"][where] = int(books["loaded"].get(where, 0)) + 1
    for stack, _ in game.stacks(where):
        owner, unit, moves, damage = split(stack)
        if owner == power and game.stats[unit].strategic_bomber and moves:
            game.add(where, stack, -1)
            game.add(where, key(owner, unit, 0, damage), 1)
            break
    game.log(f"loads an atomic bomb onto a bomber at {where}")


def strike_options(game: AAGame) -> list[str]:
    """``atomic strike TARGET from ORIGIN`` for a loaded bomber with moves left, at a hostile
    territory within half its movement (it flies out and back, as a raid)."""
    power = game.power
    result = []
    for origin, n in sorted(record(game, power)["loaded"].items()):
        if not n:
            continue
        moves = max(
            (
                split(stack)[2]
                for stack, _ in game.stacks(origin)
                if split(stack)[0] == power and game.stats[split(stack)[1]].strategic_bomber
            ),
            default=0,
        )

        def neighbours(t: str) -> list[str]:
            return [x for x in game.module.territories[t].neighbours if game.profile.air_passable(game, x)]

        reach = bfs_distances([origin], neighbours, moves // 2)
        for target, distance in sorted(reach.items()):
            owner = None if game.is_sea(target) else game.owner(target)
            if distance > 0 and owner is not None and not game.friendly(power, owner):
                result.append(f"atomic strike {target} from {origin}")
    return result


def strike(game: AAGame, target: str, origin: str) -> None:
    """The nuclear attack: the bomb is spent, the bomber stays home without moves (no combat
    this turn, S3:L238), and the special battle opens."""
    power = game.power
    loaded = record(game, power)["loaded"]
    loaded[origin] = int(loaded[origin]) - 1
    if not loaded[origin]:
        del loaded[origin]
    best = max(
        (
            s
            for s, _ in game.stacks(origin)
            if split(s)[0] == power and game.stats[split(s)[1]].strategic_bomber
        ),
        key=lambda s: split(s)[2],
    )
    owner, unit, _, damage = split(best)
    game.add(origin, best, -1)
    game.add(origin, key(owner, unit, 0, damage), 1)
    game.log(f"a bomber from {origin} drops an atomic bomb on {target}")
    open_atomic(game, target)


def drop_lost(game: AAGame) -> None:
    """Bombs loaded on bombers that are gone are lost with them."""
    for power in game.order:
        loaded = game.d["aarhe"].get("atomic", {}).get(power, {}).get("loaded", {})
        for where in list(loaded):
            have = _bombers(game, power, where)
            if have < int(loaded[where]):
                loaded[where] = have
            if not loaded[where]:
                del loaded[where]


def income_loss(game: AAGame, territory: str) -> int:
    """The territory's permanent income loss from nuclear attacks."""
    return int(game.d.get("aarhe_atomic_loss", {}).get(territory, 0))
