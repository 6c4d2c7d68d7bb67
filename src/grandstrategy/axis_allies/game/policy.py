"""The heuristic bot's policy for an A&A game: one greedy choice per decision, using exact odds.

The play layer's look-ahead bot copies the state for every option and follows the game on;
an A&A turn has fifty decisions of a hundred options each, so that costs seconds a decision.
This policy scores the options of the open decision directly instead (milliseconds), and every
battle choice rests on the exact odds of :mod:`.advice`:

- **combat move**: for each enemy place within reach, the chance of winning with everything
  that could attack it; a place worth having (IPCs, victory city, capital) is attacked when that
  chance is good, land units first, aircraft only while the chance is still short of
  :data:`ENOUGH`; undefended enemy land is taken with the cheapest land unit; ships attack
  enemy fleets on the same terms;
- **battles**: casualties that leave the chooser the best chance (then the cheapest unit);
  press an attack while its chance is at least :data:`PRESS`, else retreat;
- **purchase**: land units in a fixed mix, no more than the factories can place;
- **non-combat move**: aircraft that cannot stay land nearest the front; land units step
  towards the nearest enemy land; **mobilize**: at the factory nearest the front.

It is a pure function of the position and the options (no dice), so a game replays the same.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from grandstrategy.axis_allies.game.advice import attacker_chances, battle_at, option_odds
from grandstrategy.axis_allies.game.assaults import best_step
from grandstrategy.axis_allies.game.board import parse_move, split
from grandstrategy.core.graph import bfs_distances

if TYPE_CHECKING:
    from grandstrategy.axis_allies.game.engine import AAGame

WORTH = 0.65
"""Attack a defended place only if everything that could attack it wins at least this often."""
ENOUGH = 0.9
"""Stop adding units to an attack once it wins this often."""
PRESS = 0.35
"""Press an attack on while it still wins at least this often."""
MIX = (("infantry", 3), ("artillery", 1), ("armour", 1))
"""The purchase mix by count."""
FLEET = 3
"""Transports an island power keeps at most (for its amphibious assaults, :mod:`.assaults`)."""


def choose(game: AAGame, seat: str, options: list[str]) -> str:
    """The option the policy takes at the open decision (one of ``options``)."""
    if len(options) == 1:
        return options[0]
    battle = game.d["battle"]
    if battle is not None and "machine" in battle:  # a variant's own battle steps
        custom = game.profile.battle_policy(game, seat, options)
        if custom is not None:
            return custom
    if battle is not None:
        return _battle_choice(game, seat, options)
    variant = game.profile.bot_choice(game, seat, options)  # the variant's own decisions
    if variant is not None:
        return variant
    phase = game.d["phase"]
    if phase == "purchase":
        return _purchase(game, options)
    if phase == "combat-move":
        return _combat_move(game, options)
    if phase == "noncombat-move":
        return _noncombat_move(game, options)
    if phase == "mobilize":
        return _mobilize(game, options)
    if phase == "combat":
        return options[0]
    if phase == "bid":
        return _bid(game, options)
    return "done" if "done" in options else options[0]


def _battle_choice(game: AAGame, seat: str, options: list[str]) -> str:
    first = options[0].split()[0]
    if first in ("lose", "damage"):

        def casualty(option: str) -> tuple[float, int, int]:
            words = option.split()
            p = option_odds(game, seat, option)
            cost = game.stats[words[2]].cost if words[2] in game.stats else 0
            return (-(p if p is not None else 0.0), 0 if words[0] == "damage" else 1, cost)

        return min(options, key=casualty)
    if "press attack" in options:
        p = option_odds(game, seat, "press attack")
        if p is None or p >= PRESS:
            return "press attack"
        return next(o for o in options if o != "press attack")
    if "keep submarines in the battle" in options:
        return "keep submarines in the battle"
    return options[0]


def _front(game: AAGame) -> dict[str, int]:
    """Land distance from every territory to the nearest land held by the other alliance."""
    power = game.power
    module = game.module

    def neighbours(t: str) -> list[str]:
        return [
            n
            for n in module.territories[t].neighbours
            if module.territories[n].type.value == "land" and not module.territories[n].impassable
        ]

    hostile = [t for t in game.d["owner"] if game.hostile_land(power, t)]
    return bfs_distances(hostile, neighbours) if hostile else {}


def _value(game: AAGame, where: str) -> float:
    """What a place is worth taking: its IPCs, much more for a victory city or a capital."""
    t = game.module.territories[where]
    return (t.ipc or 0) + 1.0 + (12.0 if t.victory_city else 0.0) + (20.0 if t.capital else 0.0)


def _purchase(game: AAGame, options: list[str]) -> str:
    power = game.power
    room = sum(
        game.profile.production_limit(game.module.territories[f].ipc or 0)
        for f in game.d["start_factories"]
        if game.owner(f) == power
    )
    bought = dict(game.d["purchased"])
    if sum(bought.values()) >= room:
        return "done"
    ferry = _transport_wanted(game)
    if ferry is not None and f"buy {ferry}" in options:
        return f"buy {ferry}"
    total = sum(bought.get(u, 0) for u, _ in MIX)
    weight = sum(w for _, w in MIX)
    wanted = sorted(MIX, key=lambda uw: (bought.get(uw[0], 0) - total * uw[1] / weight, -uw[1]))
    for unit, _ in wanted:
        if f"buy {unit}" in options:
            return f"buy {unit}"
        placed = [o for o in options if o.startswith(f"buy {unit} at ")]
        if placed:  # a variant selling the unit by place (AARHE: infantry at a victory city)
            return placed[0]
    return "done"


def _transport_wanted(game: AAGame) -> str | None:
    """The transport an island power buys this turn: one whose capital has no land route to the
    enemy, holding more land units than its transports carry (two each), with fewer than
    :data:`FLEET` transports and none bought yet this turn; else ``None``."""
    power = game.power
    capital = game.module.capital_of(power)
    if capital is None or game.owner(capital.id) != power or capital.id in _front(game):
        return None
    transport = next((u for u, s in sorted(game.stats.items()) if s.transport_capacity), None)
    if transport is None or game.d["purchased"].get(transport):
        return None
    have = sum(
        n
        for here in game.d["units"].values()
        for stack, n in here.items()
        if split(stack)[0] == power and split(stack)[1] == transport
    )
    waiting = sum(
        n
        for stack, n in game.units(capital.id).items()
        if split(stack)[0] == power and game.stats[split(stack)[1]].transport_cost
    )
    return transport if have < min(FLEET, waiting // 2) else None


def _combat_move(game: AAGame, options: list[str]) -> str:
    power = game.power
    offered: dict[str, list[tuple[int, str, str, str]]] = {}
    for option in options:
        move = parse_move(option)
        if move is None:
            continue
        count, unit, origin, target = move
        stats = game.stats[unit]
        if origin in game.d["battles"] or not stats.combat or stats.transport_capacity:
            continue  # units already committed stay; transports do not attack
        if stats.domain == "land" and game.is_sea(target):
            continue  # boarding a transport: the amphibious assaults' (:mod:`.assaults`)
        hostile = game.enemy_units(power, target, combat_only=True) or game.hostile_land(power, target)
        if hostile:
            offered.setdefault(target, []).append((count, unit, origin, option))
    best: tuple[float, str] | None = None
    for target, moves in sorted(offered.items()):
        land = [m for m in moves if game.stats[m[1]].domain == "land"]
        defended = game.enemy_units(power, target, combat_only=True) > 0
        if not defended:
            if game.is_sea(target) or not land:
                continue
            if any(
                split(s)[0] == power and game.stats[split(s)[1]].domain == "land" for s in game.units(target)
            ):
                continue  # already taken or being taken
            cheapest = min(land, key=lambda m: (m[0], game.stats[m[1]].cost, m[3]))
            score = _value(game, target)
            if best is None or score > best[0]:
                best = (score, cheapest[3])
            continue
        potential: dict[str, int] = {}
        most: dict[tuple[str, str], int] = {}
        for count, unit, origin, _ in moves:
            most[unit, origin] = max(most.get((unit, origin), 0), count)
        for (unit, _), n in most.items():
            potential[unit] = potential.get(unit, 0) + n
        full = battle_at(game, target, potential)
        if full is None:
            continue
        p_full = attacker_chances(full)[0]
        if p_full < WORTH or (not game.is_sea(target) and not land and not _has_land_attacker(game, target)):
            continue
        now = battle_at(game, target)
        p_now = attacker_chances(now)[0] if now is not None else 0.0
        if p_now >= ENOUGH:
            continue
        # land (or ships) first, the largest group; aircraft only when the rest falls short
        surface = [m for m in moves if game.stats[m[1]].domain != "air"]
        if surface:
            pick = max(surface, key=lambda m: (m[0], -game.stats[m[1]].cost, m[3]))
        else:
            pick = max(moves, key=lambda m: (m[0], m[3]))
        score = _value(game, target) * p_full + (5.0 if game.is_sea(target) else 0.0)
        if best is None or score > best[0]:
            best = (score, pick[3])
    landing = best_step(game, options, _value, worth=WORTH, enough=ENOUGH)
    if landing is not None and (best is None or landing[0] > best[0]):
        best = landing  # an amphibious assault's next step: load, sail or land
    if best is not None:
        return best[1]
    return "done" if "done" in options else options[0]


def _has_land_attacker(game: AAGame, where: str) -> bool:
    return any(
        split(s)[0] == game.power and game.stats[split(s)[1]].domain == "land" for s in game.units(where)
    )


def _noncombat_move(game: AAGame, options: list[str]) -> str:
    power = game.power
    front = _front(game)
    far = len(game.module.territories)
    best: tuple[tuple[int, int], str] | None = None
    for option in options:
        move = parse_move(option)
        if move is None:
            continue
        count, unit, origin, target = move
        stats = game.stats[unit]
        if stats.domain == "air":
            stranded = not game.landing_ok(origin) or (game.is_sea(origin) and game.carrier_room(origin) < 0)
            if not stranded:
                continue
            rank = (0, front.get(target, far) if not game.is_sea(target) else far)
        elif stats.domain == "land" and not game.is_sea(origin) and not game.is_sea(target):
            if front.get(target, far) >= front.get(origin, far):
                continue
            if game.module.territories[origin].capital == power and front.get(origin, far) <= 2:
                continue  # the capital keeps its garrison when the enemy is near
            rank = (1, -count)
        else:
            continue
        if best is None or rank < best[0]:
            best = (rank, option)
    if best is not None:
        return best[1]
    return "done" if "done" in options else options[0]


def _mobilize(game: AAGame, options: list[str]) -> str:
    front = _front(game)
    far = len(game.module.territories)

    def rank(option: str) -> tuple[int, int, int]:
        words = option.split()
        unit, factory = words[1], words[2]
        stats = game.stats.get(unit)
        return (
            1 if stats is not None and stats.factory else 0,
            front.get(factory, far),
            -(stats.cost if stats else 0),
        )

    return min(options, key=rank)


def _bid(game: AAGame, options: list[str]) -> str:
    """Bid infantry where the front is nearest (the cheapest defence), then whatever is left."""
    front = _front(game)
    far = len(game.module.territories)
    bids = [o for o in options if o.startswith("bid ")]
    if not bids:
        return "done"
    return min(bids, key=lambda o: (o.split()[1] != "infantry", front.get(o.split()[2], far), o))
