"""The variant's sequence of play: team turns, its eight phases, research and diplomacy (S3:L206-208).

A round is the Axis team's turn, then the Allies' (the first round is the Soviet Union's alone,
S3:L206). Within a team each nation plays at its own pace, except that no combat is fought
until every member has finished its combat move. The engine plays that as two halves per
member: every member in turn order buys, collects income and makes its combat moves; then every
member in turn order fights, moves, mobilizes, develops weapons and does diplomacy. While one
member plays, the others' turn records (purchases, waiting battles, raids) wait in
``d["aarhe"]["waiting"]``.

The phases of a nation's turn, in the variant's order (S3:L208): purchase, income (no decision),
combat move, combat, non-combat move, mobilize, research, diplomacy.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from grandstrategy.axis_allies.aarhe import (
    atomic,
    builds,
    convoys,
    deployment,
    economy,
    goals,
    lendlease,
    neutrals,
    optional,
)
from grandstrategy.axis_allies.aarhe.combat.repair import repair
from grandstrategy.axis_allies.aarhe.tables import Tables
from grandstrategy.axis_allies.game.board import key, split

if TYPE_CHECKING:
    from grandstrategy.axis_allies.game.engine import AAGame

PHASES = (
    "purchase",
    "income",
    "combat-move",
    "combat",
    "noncombat-move",
    "mobilize",
    "research",
    "diplomacy",
)
"""A nation's turn (S3:L208); ``income`` and the end of the turn run without a decision."""

FIRST_HALF = ("purchase", "income", "combat-move")
TURN_KEYS = (
    "purchased",
    "placed",
    "battles",
    "raids",
    "conquered",
    "bombed",
    "bombard",
    "amphibious",
    "sea_fought",
    "rockets_fired",
    "start_factories",
    "research",
    "new_techs",
    "aarhe_turn",
)
"""A nation's records that live from its purchase to its diplomacy (set aside while a team-mate plays)."""


def team_queue(tables: Tables, round_number: int, alliance: str) -> list[list[str]]:
    """``[power, half]`` steps of one team turn: every member's first half, then every second half."""
    if round_number == 1:
        members = list(tables.map.first_round.powers)
    else:
        members = next(list(t.powers) for t in tables.map.teams if t.alliance == alliance)
    return [[p, "first"] for p in members] + [[p, "second"] for p in members]


def team_order(tables: Tables, round_number: int) -> list[str]:
    """The teams that play in a round: the Soviet Union's team alone in round 1 (S3:L206)."""
    if round_number == 1:
        first = tables.map.first_round.powers[0]
        return [next(t.alliance for t in tables.map.teams if first in t.powers)]
    return [t.alliance for t in tables.map.teams]


def state(game: AAGame) -> dict[str, Any]:
    """The variant's own state (``d["aarhe"]``)."""
    data: dict[str, Any] = game.d["aarhe"]
    return data


def turn(game: AAGame) -> dict[str, Any]:
    """The records of the nation on move for this turn (``d["aarhe_turn"]``)."""
    data: dict[str, Any] = game.d["aarhe_turn"]
    return data


def set_aside(game: AAGame) -> None:
    """Put the power on move's turn records away while a team-mate plays."""
    state(game)["waiting"][game.power] = {k: game.d[k] for k in TURN_KEYS}


def take_back(game: AAGame, power: str) -> None:
    """Make ``power`` the power on move again, with the turn records it set aside."""
    game.d["turn"] = game.order.index(power)
    game.d.update(state(game)["waiting"].pop(power))
    drop_settled(game)


def drop_settled(game: AAGame) -> None:
    """Battles and raids a team-mate settled first: a territory it took, or a sea zone it
    cleared, is no longer the power's to fight or bomb; its units simply stand there (and
    raiders return over it)."""
    power = game.power
    for where in list(game.d["battles"]):
        taken = game.is_sea(where) or game.friendly(power, game.owner(where))
        if taken and not game.enemy_units(power, where):
            game.d["battles"].remove(where)
            game.d["origins"].pop(where, None)
            game.d["amphibious"].pop(where, None)
            game.log(f"{where} is already won by the team")
    for where in list(game.d["raids"]):
        if game.friendly(power, game.owner(where)):
            for stack, n in sorted(game.d["raids"].pop(where).items()):
                game.add(where, stack, n)
            game.log(f"the raid on {where} is called off: it is in friendly hands")


def waiting_battles(game: AAGame) -> Iterable[str]:
    for records in state(game)["waiting"].values():
        yield from records["battles"]
        yield from records["raids"]


def aside_units(game: AAGame) -> Iterable[tuple[str, str, int]]:
    """Team-mates' purchases and raiders set aside, and warships still being built."""
    for power, records in state(game)["waiting"].items():
        for unit, n in records["purchased"].items():
            yield power, unit, n
        for raiders in records["raids"].values():
            for stack, n in raiders.items():
                owner, unit, _, _ = split(stack)
                yield owner, unit, n
    for power, building in state(game)["building"].items():
        for unit, n in building.items():
            yield power, unit, n
    for power, records in state(game)["waiting"].items():
        for unit, n in builds.waiting_units(records["aarhe_turn"]):  # National Builds to place (S3:L248)
            yield power, unit, n
    for unit, n in builds.waiting_units(game.d.get("aarhe_turn", {})):
        yield game.power, unit, n


def problems(game: AAGame, tables: Tables) -> list[str]:
    """What must hold of the variant's state: neutrals on the track, boxes within their count,
    set-aside records only of the team on move, nothing negative."""
    found: list[str] = []
    aarhe = state(game)
    found.extend(f"{n} at {p} on the track" for n, p in aarhe["neutrals"].items() if not -5 <= p <= 5)
    boxes = {t.id: t.boxes for t in tables.research.techs}
    for power, progress in aarhe["progress"].items():
        found.extend(
            f"{power} has {n} boxes of {tech}" for tech, n in progress.items() if not 0 <= n <= boxes[tech]
        )
    for power in aarhe["waiting"]:
        if power == game.power or not game.friendly(power, game.power):
            found.append(f"{power}'s turn records are set aside while {game.power} plays")
    giver = tables.economy.lend_lease.giver
    for zone in sorted({s["zone"] for s in lendlease.shipments(game)}):
        if lendlease.laden(game, zone) > lendlease.transports(game, giver, zone) and game.d["battle"] is None:
            found.append(f"lend-lease in {zone} without a transport")
    records = game.d.get("aarhe_turn") or {}
    found.extend(f"{n} infantry booked at {vc}" for vc, n in records.get("recruits", {}).items() if n < 0)
    if game.d["phase"] == "income" and game.d["battle"] is None and game.d["result"] is None:
        found.append("the game rests in the income phase")
    return found


def begin_turn(game: AAGame, power: str) -> None:
    """``power``'s turn begins: fresh records, warships bought last turn ready to mobilize."""
    game.d["turn"] = game.order.index(power)
    game.start_turn()
    game.d["phase"] = "purchase"
    game.d["purchased"], game.d["battles"], game.d["raids"] = {}, [], {}
    # S3:L244, L248: two-hit units near a friendly IC or VC stand upright again at the start of
    # their owner's turn; heavy tanks at the start of an enemy's turn too
    fixed = repair(game, power)
    for other in game.order:
        if not game.friendly(power, other):
            fixed += repair(game, other, ships=False)
    if fixed:
        game.log("damaged units repaired at " + ", ".join(sorted(set(fixed))))
    capital = game.module.capital_of(power)
    game.d["aarhe_turn"] = {
        "recruits": {},
        "sites": {},
        "scorch": [],
        "spent": {},
        "research_bought": 0,
        "diplomacy_rolls": 0,
        "exile": capital is not None and not game.friendly(power, game.owner(capital.id)),
    }
    ready = state(game)["building"].pop(power, {})
    for unit, n in ready.items():
        game.d["purchased"][unit] = game.d["purchased"].get(unit, 0) + n
    for tech in state(game)["transfers"].pop(power, []):  # S3:L240: from the receiver's next turn
        full = {unit: game.movement(power, unit) for unit in game.stats}
        game.d["techs"][power] = sorted({*game.techs(power), tech})
        game.log(f"receives {tech} from its ally")
        lift_full_moves(game, power, full)


def lift_full_moves(game: AAGame, power: str, before: dict[str, int]) -> None:
    """Units of ``power`` with the full moves of ``before`` get their full moves under its techs
    now: a technology received at the start of the turn (Long Range Aircraft) counts from it,
    and they have not moved (S3:L238, L240)."""
    for where in list(game.d["units"]):
        for stack, n in list(game.units(where).items()):
            owner, unit, moves, damage = split(stack)
            now = game.movement(power, unit)
            if owner == power and moves == before[unit] and now != moves:
                game.add(where, stack, -n)
                game.add(where, key(owner, unit, now, damage), n)


def next_step(game: AAGame, tables: Tables) -> None:
    """Go on to the next half-turn of the team, the next team, or the next round."""
    aarhe = state(game)
    while True:
        if aarhe["queue"]:
            power, half = aarhe["queue"].pop(0)
            if half == "first":
                begin_turn(game, power)
            else:
                take_back(game, power)
                game.d["phase"] = "combat"
            return
        teams = team_order(tables, game.d["round"])
        aarhe["team"] += 1
        if aarhe["team"] >= len(teams):
            end_round(game, tables)
            if game.d["result"] is not None:
                add_national_goals(game, tables)
                return
            game.d["round"] += 1
            aarhe["team"] = 0
            teams = team_order(tables, game.d["round"])
        aarhe["queue"] = team_queue(tables, game.d["round"], teams[aarhe["team"]])


def end_nation_turn(game: AAGame, tables: Tables) -> None:
    """After diplomacy: full moves again, damaged ships repaired as Revised, then the next step."""
    game.reset_units(game.power)
    next_step(game, tables)


def end_round(game: AAGame, tables: Tables) -> None:
    """The victory check after both teams have played (S3:L208)."""
    mode = state(game)["victory"]
    limit = game.d["max_rounds"]
    alliances = sorted({game.alliance(p) for p in game.order})
    if mode == "city":
        for target in tables.victory.city_targets:
            held = game.vcs(target.alliance)
            if held >= target.points:
                game.d["result"] = {"winner": target.alliance, "how": f"{held} VCP", "round": game.d["round"]}
                return
    if mode == "total":
        for alliance in alliances:
            if all(
                game.alliance(game.owner(t.id) or "") == alliance  # a neutral counts once it has an owner
                for t in game.module.territories.values()
                if t.type.value == "land" and game.owner(t.id) is not None
            ):
                game.d["result"] = {"winner": alliance, "how": "every territory", "round": game.d["round"]}
                return
    if limit and game.d["round"] >= limit:
        if mode == "economic":
            ipcs = {a: territory_ipcs(game, tables, a) for a in alliances}
            best = max(ipcs.values())
            leaders = [a for a, v in ipcs.items() if v == best]
            winner = leaders[0] if len(leaders) == 1 else None
            how = "majority of territory IPCs " + ", ".join(f"{a} {v}" for a, v in ipcs.items())
            game.d["result"] = {"winner": winner, "how": how, "round": game.d["round"]}
            return
        game.d["result"] = {"winner": None, "how": f"round limit {limit}", "round": game.d["round"]}


def add_national_goals(game: AAGame, tables: Tables) -> None:
    """At the end: each nation's goals met (S3:L250-252) and, with the option, the goals each
    nation picked before play, revealed, and the nations that met all of them (National Victory)."""
    result = game.d["result"]
    met = goals.goals_met(game, tables)
    result["national_goals"] = met
    if state(game).get("national_victory"):
        result["national_picks"] = {n: list(ids) for n, ids in state(game).get("goal_picks", {}).items()}
        result["national_winners"] = goals.national_winners(game, tables, met)


def territory_ipcs(game: AAGame, tables: Tables, alliance: str) -> int:
    """The IPC value of the territories an alliance holds (economic victory, S3:L208), a
    neutral that joined a team by the table's income (S3:L246)."""
    return sum(
        neutrals.territory_income(game, tables, t.id)
        for t in game.module.territories.values()
        if game.owner(t.id) is not None and game.alliance(game.owner(t.id) or "") == alliance
    )


# ---- research (phase 7, S3:L236-240) ---------------------------------------------------------


def research_options(game: AAGame, tables: Tables) -> list[str]:
    """Pick one technology to research, buy dice up to the nation's limit, roll (free dice too);
    or hand a finished minor technology to the ally it may go to; or skip."""
    power = game.power
    research = game.d["research"]
    capacity = next((c for c in tables.research.capacity if c.power == power), None)
    if capacity is None:
        return ["done"]
    progress = state(game)["progress"].get(power, {})
    cost = tables.research.die_cost.value
    if research is None:
        open_techs = [t.id for t in tables.research.techs if progress.get(t.id, 0) < t.boxes]
        return [*(f"research {t}" for t in open_techs), *transfer_options(game, tables), "done"]
    bought = turn(game)["research_bought"]
    options = ["buy research die"] if bought < capacity.purchasable and game.d["bank"][power] >= cost else []
    if capacity.free + bought:
        options.append("roll research dice")
    return options


def transfer_options(game: AAGame, tables: Tables) -> list[str]:
    """A finished minor (3-box) technology may go to the ally once each way (S3:L240)."""
    power = game.power
    minor = tables.research.minor_boxes.value
    result = []
    for pair in tables.research.transfer_pairs:
        if power not in pair.powers:
            continue
        partner = next(p for p in pair.powers if p != power)
        if f"{power}>{partner}" in state(game)["transferred"]:
            continue
        for tech in tables.research.techs:
            mine = tech.id in game.techs(power)
            theirs = tech.id in game.techs(partner) or tech.id in state(game)["transfers"].get(partner, [])
            if tech.boxes == minor and mine and not theirs:
                result.append(f"transfer {tech.id} to {partner}")
    return result


def start_research_roll(game: AAGame, tables: Tables) -> None:
    """Roll the free and bought dice for the chosen technology; each 1 ticks a box (S3:L240)."""
    power = game.power
    capacity = next(c for c in tables.research.capacity if c.power == power)
    dice = capacity.free + turn(game)["research_bought"]
    tech = game.d["research"]["tech"]
    game.d["battle"] = {
        "where": game.capital_name(),
        "attacker": power,
        "progress": tech,
        "stage": "research",
        "dice": [["progress", tech, tables.research.box_hit.value]] * dice,
        "hits": {},
        "aa_hits": {},
    }
    game.d["research"] = None


def after_research(game: AAGame, tables: Tables, battle: dict[str, Any]) -> None:
    """Tick the boxes; a technology whose boxes are all ticked works at once (S3:L240)."""
    game.d["battle"] = None
    power, tech = battle["attacker"], battle["progress"]
    record = next(t for t in tables.research.techs if t.id == tech)
    progress = state(game)["progress"].setdefault(power, {})
    ticked = min(record.boxes, progress.get(tech, 0) + battle["hits"].get("progress", 0))
    progress[tech] = ticked
    if ticked >= record.boxes and tech not in game.techs(power):
        game.d["techs"][power] = sorted({*game.techs(power), tech})
        game.log(f"develops {tech}")
    else:
        game.log(f"research into {tech}: {ticked} of {record.boxes} boxes")
    game.d["phase"] = "diplomacy"


# ---- diplomacy (phase 8, S3:L242) ------------------------------------------------------------


def neutral_sign(game: AAGame, power: str) -> int:
    """+1 for the Allies' side of the track, -1 for the Axis'."""
    return 1 if game.alliance(power) == "allies" else -1


def diplomacy_options(game: AAGame, tables: Tables) -> list[str]:
    """Roll for a neutral between -2 and +2 while rolls are left; or stop."""
    power = game.power
    rolls = next((r.rolls for r in tables.diplomacy.rolls if r.power == power), 0)
    if turn(game)["diplomacy_rolls"] >= rolls:
        return []
    reach = tables.diplomacy.target_range.value
    positions = state(game)["neutrals"]
    targets = [
        n.territory
        for n in tables.diplomacy.neutrals
        if not n.extreme and n.part_of is None and abs(positions[n.territory]) <= reach
    ]
    return [*(f"court {t}" for t in targets), "done"]


def diplomacy_bonus(game: AAGame, tables: Tables, neutral: str) -> int:
    """The roll's modifiers (S3:L242): +1 per neighbour the team holds that it did not hold at the
    start, +2 per neighbour it took this turn (instead of the +1), +3 per enemy capital it holds."""
    power = game.power
    bonus = {m.id: m.bonus for m in tables.diplomacy.modifiers}
    total = 0
    for other in game.module.territories[neutral].neighbours:
        t = game.module.territories[other]
        if t.type.value != "land" or not game.friendly(power, game.owner(other)):
            continue
        if other in game.d["conquered"]:
            total += bonus["taken-neighbour"]
        elif t.original_owner is None or not game.friendly(power, t.original_owner):
            total += bonus["held-neighbour"]
    for t in game.module.territories.values():
        if t.capital and not game.friendly(power, t.capital) and game.friendly(power, game.owner(t.id)):
            total += bonus["enemy-capital"]
    return total


def start_diplomacy_roll(game: AAGame, tables: Tables, neutral: str) -> None:
    turn(game)["diplomacy_rolls"] += 1
    hit = min(6, tables.diplomacy.hit.value + diplomacy_bonus(game, tables, neutral))
    game.d["battle"] = {
        "where": neutral,
        "attacker": game.power,
        "diplomacy": neutral,
        "stage": "diplomacy",
        "dice": [["diplomacy", neutral, hit]],
        "hits": {},
        "aa_hits": {},
    }


def after_diplomacy(game: AAGame, tables: Tables, battle: dict[str, Any]) -> None:
    """A hit moves the neutral one step toward the team; at 3 its income goes to this power."""
    game.d["battle"] = None
    neutral, power = battle["diplomacy"], battle["attacker"]
    if not battle["hits"].get("diplomacy"):
        game.log(f"courts {neutral} in vain")
        return
    positions = state(game)["neutrals"]
    positions[neutral] += neutral_sign(game, power)
    for other in tables.diplomacy.neutrals:  # a territory that belongs to a neutral follows it
        if other.part_of == neutral:
            positions[other.territory] = positions[neutral]
    income_at = next(t.at for t in tables.diplomacy.thresholds if t.id == "income")
    if abs(positions[neutral]) >= income_at and neutral not in state(game)["neutral_income"]:
        state(game)["neutral_income"][neutral] = power
    game.log(f"{neutral} moves to {positions[neutral]:+d}")


def neutral_income(game: AAGame, tables: Tables, power: str) -> int:
    """Income from neutrals this power moved to +-3 (S3:L242)."""
    incomes = {n.territory: n.income for n in tables.diplomacy.neutrals}
    return sum(incomes[n] for n, p in state(game)["neutral_income"].items() if p == power)


# ---- purchase, income and mobilize (phases 1, 2, 6; S3:L212-216, L236) ----------------------


def price(game: AAGame, tables: Tables, unit: str) -> int:
    """A unit's price for the power on move (less Advanced Production's cut, S3:L238)."""
    return economy.unit_price(tables, game.stats[unit].cost, unit, game.techs(game.power))


def purchase_options(game: AAGame, tables: Tables) -> list[str]:
    """Units at their price (two-turn warships too), infantry at a VC, an IC at a place, or an
    IC nominated for scorched earth; or done."""
    power = game.power
    bank = game.d["bank"][power]
    records = turn(game)
    points = economy.city_points(tables)
    result: list[str] = []
    extra = [u.id for u in optional.optional_tables().units if optional.on_sale(game, power, u.id)]
    for unit in [*game.profile.purchasable(), *extra]:  # the optional units when on (S3:L248)
        stats = game.stats[unit]
        if stats.factory or unit == "infantry":
            continue
        if price(game, tables, unit) <= bank:
            result.append(f"buy {unit}")
    for vc in sorted(points):
        if game.owner(vc) != power or records["recruits"].get(vc, 0) >= points[vc]:
            continue
        if economy.infantry_cost(game, tables, power, vc, records["recruits"].get(vc, 0) + 1) <= bank:
            result.append(f"buy infantry at {vc}")
    factory = next((u for u, s in game.stats.items() if s.factory), None)
    if factory is not None:
        for t in game.module.territories.values():
            if (
                t.type.value == "land"
                and neutrals.territory_income(game, tables, t.id) > 0
                and game.owner(t.id) == power
                and not game.factories(t.id)
                and t.id not in records["sites"]
                and economy.ic_cost(tables, t.id) <= bank
            ):
                result.append(f"buy {factory} at {t.id}")
        for where in sorted(game.d["units"]):
            if game.owner(where) == power and game.factories(where) and where not in records["scorch"]:
                result.append(f"scorch {where}")
    return [*result, *builds.buy_options(game), "done"]


def buy(game: AAGame, tables: Tables, words: list[str]) -> None:
    """``buy UNIT`` or ``buy UNIT at PLACE``: pay from the bank (purchase precedes income)."""
    power, unit = game.power, words[1]
    records = turn(game)
    if len(words) == 4:
        place = words[3]
        if game.stats[unit].factory:
            cost = economy.ic_cost(tables, place)
            records["sites"][place] = 1
        else:
            nth = records["recruits"].get(place, 0) + 1
            cost = economy.infantry_cost(game, tables, power, place, nth)
            records["recruits"][place] = nth
        game.d["purchased"][unit] = game.d["purchased"].get(unit, 0) + 1
    else:
        cost = price(game, tables, unit)
        if unit in two_turn_units(tables):  # S3:L236
            building = state(game)["building"].setdefault(power, {})
            building[unit] = building.get(unit, 0) + 1
        else:
            game.d["purchased"][unit] = game.d["purchased"].get(unit, 0) + 1
    game.d["bank"][power] -= cost


def two_turn_units(tables: Tables) -> set[str]:
    """Warships mobilized the turn after their purchase (S3:L236): battleships and carriers, and
    the optional cruiser."""
    return {b.unit for b in tables.economy.two_turn_builds} | {
        u.id for u in optional.optional_tables().units if u.two_turns
    }


def collect_income(game: AAGame, tables: Tables) -> None:
    """Phase 2 (S3:L208, L214-216): the IPCs of the power's territories that it also held at its
    last Collect Income and that reach a capital it holds are stored, less desert upkeep. First the
    convoy routes written down last time are revealed and the enemy warships on them roll (their
    hits come off this income); last the power writes down, in secret, the routes of this
    income's convoys (:mod:`.convoys`)."""
    power = game.power
    aarhe = state(game)
    seen = aarhe["held"].get(power)
    routes = economy.income_routes(game, tables, power)
    safe = neutral_income(game, tables, power)
    forfeited = 0
    convoyed: dict[str, int] = {}
    at_risk = 0
    cycles = aarhe["cycles"]
    sheltered = "underground-factory" in game.techs(power)
    for where, route in sorted(routes.items()):
        value = neutrals.territory_income(game, tables, where) - atomic.income_loss(game, where)  # S3:L238
        value = max(0, value)
        safe += lendlease.aid_for(game, where)  # lend-lease, whoever holds the territory (S3:L234)
        if seen is not None and where not in seen:
            continue  # control changed since the last Collect Income: no income (S3:L208)
        value = max(0, value - aarhe["damage"].pop(where, 0))  # economic attacks (S3:L230)
        if cycles.get(where, 0) >= tables.economy.interruption_cycles.value and not sheltered:
            loss = economy.interruption_loss(tables, neutrals.territory_income(game, tables, where))
            value = max(0, value - loss)  # S3:L216 (by the original income); Underground Factory: immune
            game.log(f"production in {where} interrupted: {loss} IPCs lost")
        if route is None:
            forfeited += value
        elif not route:
            safe += value
        else:
            at_risk += value
            convoyed[where] = value
    aarhe["held"][power] = sorted(routes)
    for where in routes:
        cycles.pop(where, None)
    if forfeited:
        game.log(f"{forfeited} IPCs blockaded and forfeited")
    upkeep = desert_upkeep(game, tables)
    sailed = convoys.reveal(game)  # S3:L214: last time's routes, revealed now
    dice = []
    for zone in sorted(sailed):
        ships = economy.hostile_warships(game, power, zone)
        dice.extend([[f"convoy {zone}", zone, tables.economy.convoy_hit.value]] * ships)
    turn(game)["income"] = {
        "safe": safe,
        "at_risk": at_risk,
        "upkeep": upkeep,
        "convoys": sailed,
        "convoyed": convoyed,
    }
    if dice:
        game.d["battle"] = {
            "where": game.capital_name(),
            "attacker": power,
            "convoy": True,
            "stage": "convoy",
            "dice": dice,
            "hits": {},
            "aa_hits": {},
        }
        return
    route_convoys(game, tables)


def route_convoys(game: AAGame, tables: Tables) -> None:
    """The power writes down this income's convoy routes (a secret step, :mod:`.convoys`), then
    the income is stored."""
    game.d["battle"] = None
    if not convoys.start(game, tables, turn(game)["income"]["convoyed"]):
        bank_income(game)


def bank_income(game: AAGame) -> None:
    """Store the income less the convoy losses and upkeep; go on to combat move."""
    game.d["battle"] = None
    income = turn(game)["income"]
    lost = sum(n for side, n in income.pop("losses", {}).items())
    total = max(0, income["safe"] + income["at_risk"] - lost - income["upkeep"])
    game.d["bank"][game.power] += total
    goals.record_income(game, game.power, total)
    game.log(f"collects {total} IPCs" + (f" ({lost} lost to convoy attacks)" if lost else ""))
    game.d["phase"] = "combat-move"
    turn(game)["interdiction_due"] = True  # S3:L230: the enemy may interdict before any move


def after_convoy(game: AAGame, tables: Tables, battle: dict[str, Any]) -> None:
    """Each hit sinks 1 IPC of the convoys in its zone (no more than passed there, S3:L214); then
    the new routes are written down."""
    income = turn(game)["income"]
    losses = {}
    for side, hits in battle["hits"].items():
        zone = side.split()[1]
        losses[zone] = min(hits, income["convoys"].get(zone, 0))
    income["losses"] = losses
    route_convoys(game, tables)


def count_cycles(game: AAGame, battle: dict[str, Any]) -> None:
    """Count a land battle's combat cycles against the territory fought over (production
    interruption, S3:L216): called after each volley; a cycle counts once."""
    where = battle.get("where")
    if where is None or game.is_sea(where) or "round" not in battle:
        return
    counted = battle.get("cycles_counted", 0)
    if battle["round"] > counted:
        cycles = state(game)["cycles"]
        cycles[where] = cycles.get(where, 0) + battle["round"] - counted
        battle["cycles_counted"] = battle["round"]


def desert_upkeep(game: AAGame, tables: Tables) -> int:
    """1 IPC per unit of the power in a desert territory (S3:L216), paid from this income."""
    deserts = {t.territory for t in tables.map.terrain if t.kind == "desert"}
    return sum(
        n * tables.economy.desert_upkeep.value
        for where in deserts
        for stack, n in game.units(where).items()
        if split(stack)[0] == game.power and game.stats[split(stack)[1]].combat
    )


def scorch(game: AAGame) -> None:
    """At the start of mobilize the ICs nominated for scorched earth are removed (S3:L212, L236)."""
    for where in turn(game)["scorch"]:
        for stack, n in list(game.units(where).items()):
            if game.stats[split(stack)[1]].factory:
                game.add(where, stack, -n)
                game.log(f"scorches the IC in {where}")


def place_options(game: AAGame, tables: Tables) -> list[str]:
    """Units at an IC the power held at the start of the turn, not scorched, reachable from the
    capital, within 4 x its income in IPCs spent (S3:L236); infantry at the VCs that raised them;
    a new IC where it was bought."""
    power = game.power
    records = turn(game)
    purchased = game.d["purchased"]
    cap = tables.economy.production_cap_factor.value
    barred = builds.surface_barred(game)
    result: list[str] = []
    for factory in game.d["start_factories"]:
        if game.owner(factory) != power or factory in records["scorch"] or not game.factories(factory):
            continue
        if not economy.spend_reachable(game, power, factory):
            continue
        room = cap * neutrals.territory_income(game, tables, factory) - records["spent"].get(factory, 0)
        for unit in sorted(purchased):
            stats = game.stats[unit]
            if stats.factory or unit == "infantry" or price(game, tables, unit) > room:
                continue
            if stats.domain == "sea" and not stats.sub and factory in barred:
                continue  # a Type VII submarine was bought here (S3:L248)
            if stats.domain == "sea":
                for zone in game.module.sea_neighbours(factory):
                    if not game.enemy_units(power, zone, combat_only=True):
                        result.append(f"place {unit} {factory} {zone}")
            else:
                if game.carrier_cost(unit):
                    for zone in game.module.sea_neighbours(factory):
                        if game.carrier_room(zone) >= game.carrier_cost(unit):
                            result.append(f"place {unit} {factory} {zone}")
                result.append(f"place {unit} {factory}")
    if purchased.get("infantry"):
        for vc, n in sorted(records["recruits"].items()):
            if n and game.owner(vc) == power and economy.spend_reachable(game, power, vc):
                result.append(f"place infantry {vc}")
    for site in sorted(records["sites"]):
        for unit in sorted(purchased):
            if game.stats[unit].factory and game.owner(site) == power and not game.factories(site):
                result.append(f"place {unit} {site}")
    return result


def place(game: AAGame, tables: Tables, words: list[str]) -> None:
    """Mobilize one unit and book what it used: the VC's recruits or the IC's spending."""
    unit, where = words[1], words[2]
    zone = words[3] if len(words) > 3 else None
    records = turn(game)
    if unit == "infantry":
        records["recruits"][where] -= 1
    elif game.stats[unit].factory:
        records["sites"].pop(where, None)
    else:
        records["spent"][where] = records["spent"].get(where, 0) + price(game, tables, unit)
    game.place(unit, where, zone)
    deployment.placed(game, unit, where)  # an ID is mobilized on its side (S3:L236)


def stop_in_terrain(game: AAGame, tables: Tables, unit: str, target: str) -> None:
    """Land units stop on entering desert, snowy or mountain terrain (S3:L218, L234)."""
    stops = {t.territory for t in tables.map.terrain if t.kind in ("desert", "snowy", "mountain")}
    if target not in stops or game.stats[unit].domain != "land":
        return
    for stack, n in list(game.units(target).items()):
        owner, kind, moves, damage = split(stack)
        if owner == game.power and kind == unit and 0 < moves < game.movement(owner, kind):
            game.add(target, stack, -n)
            game.add(target, key(owner, kind, 0, damage), n)
