"""The heuristic bot's choices at the variant's own decisions (the base policy plays the rest).

The base game's greedy policy (:mod:`grandstrategy.axis_allies.game.policy`) asks the profile
first (``Profile.bot_choice``); this module answers the decisions only the variant has, each by
a short fixed rule, as a pure function of the position (no dice, so a game replays the same):

- **lend-lease** (S3:L234): the giver ships every turn what it may, on the laden-free transport
  nearest an unload zone; laden transports sail (non-combat move) towards the nearest unload
  zone and deliver there (to the first receiver's territory offered);
- **diplomacy** (S3:L242): every roll, at the neutral with the best expected gain: the chance
  of a hit (with the roll's bonus) times the neutral's worth (income plus its army's IPCs / 10,
  plus 1), divided by the steps to the next threshold the roll would move it towards;
- **air interdiction** (S3:L230): idle bombers interdict the adjacent hostile territory holding
  the most enemy land units, at least :data:`INTERDICT_MIN`, where no ID can fire at them (no
  factory, no AA gun, not a victory city); never a sea zone (bombers cannot hit ships there);
- **atomic bomb** (S3:L238): bought when offered (Atomic Weaponry done, the IPCs in the bank)
  and the power has the Heavy Bomber technology to carry it; loaded when ready; dropped on the
  hostile territory in range worth most (income, then the IPCs of the units there);
- **IDs on their side** (S3:L236): deployed where they were mobilized, at the first non-combat
  move that offers it (the IC they stand at is where they protect most);
- **heavy artillery** (S3:L248, optional units): every heavy artillery next to one of the
  power's land battles fires into it (it is never a casualty there, so the shot costs nothing
  but its moves).

The bot buys no research (the base policy passes on research), so it reaches the bomb only by a
technology it starts with or is handed; the rules above still play it when it does.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from grandstrategy.axis_allies.aarhe import atomic, lendlease, turns
from grandstrategy.axis_allies.aarhe.deployment import DEPLOY
from grandstrategy.axis_allies.aarhe.optional import SHELL
from grandstrategy.axis_allies.game.board import split
from grandstrategy.core.graph import bfs_distances

if TYPE_CHECKING:
    from grandstrategy.axis_allies.aarhe.tables import Tables
    from grandstrategy.axis_allies.game.engine import AAGame

INTERDICT_MIN = 3
"""Enemy land units a territory must hold for idle bombers to interdict it."""


def choose(game: AAGame, tables: Tables, options: list[str]) -> str | None:
    """The bot's choice at a decision of the variant's own (``None``: the base policy's)."""
    phase = game.d["phase"]
    if phase == "purchase":
        if "buy atomic-bomb" in options and atomic.CARRIER_TECH in game.techs(game.power):
            return "buy atomic-bomb"
        lend = [o for o in options if o.startswith("lend-lease ")]
        return min(lend, key=lambda o: (_to_unload(game, tables).get(o.split()[-1], 99), o)) if lend else None
    if phase == "noncombat-move":
        deploy = [o for o in options if o.startswith(DEPLOY + " ")]
        if deploy:
            return deploy[0]
        deliver = [o for o in options if o.startswith("deliver lend-lease ")]
        if deliver:
            return deliver[0]
        sail = _lend_lease_sailing(game, tables, options)
        if sail is not None:
            return sail
        loads = [o for o in options if o.startswith("load atomic-bomb ")]
        return loads[0] if loads else None
    if phase == "combat-move":
        strikes = [o for o in options if o.startswith("atomic strike ")]
        if strikes:
            return max(strikes, key=lambda o: (_bomb_value(game, o.split()[2]), o))
        shells = [o for o in options if o.startswith(SHELL + " ")]
        return shells[0] if shells else None
    if phase == "diplomacy":
        return court(game, tables, options)
    return None


def _to_unload(game: AAGame, tables: Tables) -> dict[str, int]:
    """Sea distance from every zone to the nearest lend-lease unload zone, through zones free of
    enemy warships."""
    power = game.power

    def neighbours(zone: str) -> list[str]:
        free = game.module.sea_neighbours(zone)
        return [z for z in free if not game.enemy_units(power, z, combat_only=True)]

    return bfs_distances(list(tables.economy.lend_lease.unload_zones), neighbours)


def _lend_lease_sailing(game: AAGame, tables: Tables, options: list[str]) -> str | None:
    """The move that brings laden transports one zone nearer an unload zone: every transport of
    the zone sails (a laden transport is the last of its zone to leave, :mod:`.lendlease`)."""
    if game.power != tables.economy.lend_lease.giver:
        return None
    laden = {s["zone"] for s in lendlease.shipments(game)} - set(tables.economy.lend_lease.unload_zones)
    if not laden:
        return None
    distance = _to_unload(game, tables)
    far = len(game.module.territories)
    best: tuple[tuple[int, int, str], str] | None = None
    for option in options:
        words = option.split()
        if len(words) != 6 or words[0] != "move" or words[3] not in laden:
            continue
        count, unit, origin, target = int(words[1]), words[2], words[3], words[5]
        if not game.stats[unit].transport_capacity:
            continue
        if distance.get(target, far) >= distance.get(origin, far):
            continue
        if count < lendlease.transports(game, game.power, origin):
            continue  # only all of them take the shipments along
        rank = (distance.get(target, far), -count, option)
        if best is None or rank < best[0]:
            best = (rank, option)
    return best[1] if best is not None else None


def _bomb_value(game: AAGame, target: str) -> float:
    """What a nuclear attack on ``target`` is worth: its income (lost for good) and the units
    there (one group of them is struck)."""
    units = sum(
        n * game.stats[split(s)[1]].cost
        for s, n in game.stacks(target)
        if not game.friendly(game.power, split(s)[0]) and game.stats[split(s)[1]].combat
    )
    return float(game.module.territories[target].ipc or 0) + units / 10.0


def neutral_worth(game: AAGame, tables: Tables, neutral: str) -> float:
    """A neutral's worth to court: its income plus its army's IPCs / 10, plus 1."""
    record = next(n for n in tables.diplomacy.neutrals if n.territory == neutral)
    army = sum(n * game.stats[u].cost for u, n in record.army.items() if u in game.stats)
    return record.income + army / 10.0 + 1.0


def steps_to_threshold(game: AAGame, tables: Tables, neutral: str) -> int | None:
    """Hits that move ``neutral`` to the next threshold on the power's side of the track, or off
    one on the other side (``None``: at the end of the track already)."""
    sign = turns.neutral_sign(game, game.power)
    toward_us = int(turns.state(game)["neutrals"][neutral]) * sign
    marks = sorted({t.at for t in tables.diplomacy.thresholds})
    top = max(marks)
    if toward_us >= top:
        return None
    for step in range(1, top - toward_us + 1):
        after = toward_us + step
        if after in marks or -(after - 1) in marks:  # reached ours, or left one of theirs
            return step
    return top - toward_us


def court(game: AAGame, tables: Tables, options: list[str]) -> str | None:
    """``court NEUTRAL`` with the best expected gain (see the module doc); ``done`` when no
    neutral can move our way."""
    best: tuple[float, str] | None = None
    for option in options:
        words = option.split()
        if len(words) != 2 or words[0] != "court":
            continue
        steps = steps_to_threshold(game, tables, words[1])
        if steps is None:
            continue
        hit = min(6, tables.diplomacy.hit.value + turns.diplomacy_bonus(game, tables, words[1])) / 6.0
        gain = hit * neutral_worth(game, tables, words[1]) / steps
        if best is None or gain > best[0]:
            best = (gain, option)
    if best is not None:
        return best[1]
    return "done" if "done" in options else None


def interdiction(game: AAGame, options: list[str]) -> str:
    """One more interdiction mission, or ``done`` (see the module doc)."""
    ask = game.d["battle"]["ask"]
    power = ask["who"] if ask else game.power
    best: tuple[tuple[int, str], str] | None = None
    for option in options:
        words = option.split()
        if len(words) != 7 or words[0] != "interdict":
            continue
        target = words[1]
        if game.is_sea(target) or game.factories(target) or game.profile.victory_points(target):
            continue
        if game.module.territories[target].victory_city:
            continue
        here = [(split(s)[1], n) for s, n in game.stacks(target) if not game.friendly(power, split(s)[0])]
        if any(game.stats[u].aa_gun for u, _ in here):
            continue
        movers = sum(n for u, n in here if game.stats[u].domain == "land" and game.stats[u].combat)
        if movers < INTERDICT_MIN:
            continue
        rank = (movers, option)
        if best is None or rank > best[0]:
            best = (rank, option)
    return best[1] if best is not None else "done"
