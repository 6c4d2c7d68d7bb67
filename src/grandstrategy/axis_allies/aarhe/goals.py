"""National goals (S3:L250-252): which of its goals each nation has met when the game ends.

The end of the game reports every goal each nation met. With the optional National Victory
(``national_victory``) each nation first writes down three of its goals in secret, before play:
a step of the variant's machine in ``d["battle"]`` (``"kind": "goal-pick"``), nation after
nation, one ``pick GOAL`` at a time. It is a secret decision (:meth:`GameState.private_decision`):
the picks stay out of the other seats' views until the game is over (:func:`redact`), and a
nation wins its National Victory when every goal it picked is met (docs/decisions.md). Goals
about the whole game (never lost, captured, income reached) read a history the turn keeps in
``d["aarhe"]["history"]``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from grandstrategy.axis_allies.aarhe.neutrals import territory_income
from grandstrategy.axis_allies.aarhe.tables import Goal, Part, Tables
from grandstrategy.core.view import HIDDEN

if TYPE_CHECKING:
    from grandstrategy.axis_allies.game.board import Board
    from grandstrategy.axis_allies.game.engine import AAGame


def history(game: Board) -> dict[str, Any]:
    data: dict[str, Any] = game.d["aarhe"].setdefault(
        "history", {"lost": [], "captured": {}, "first": {}, "income_max": {}, "income_min": {}}
    )
    return data


def tracked(tables: Tables) -> list[str]:
    """The places whose changes of hands a goal needs to remember."""
    kinds = ("never-lost", "captured", "first-capture")
    return sorted({p for g in tables.goals.goals if g.kind in kinds for p in g.places})


def record_owners(game: Board, tables: Tables) -> None:
    """Remember who has held the tracked places (called as the game settles)."""
    past = history(game)
    for place in tracked(tables):
        owner = game.owner(place)
        original = game.module.territories[place].original_owner
        if owner is None or owner == original:
            continue
        if place not in past["lost"]:
            past["lost"].append(place)
        captors = past["captured"].setdefault(place, [])
        if owner not in captors:
            captors.append(owner)
        if original is not None and not game.friendly(owner, original) and place not in past["first"]:
            past["first"][place] = owner


def record_income(game: Board, power: str, income: int) -> None:
    past = history(game)
    past["income_max"][power] = max(past["income_max"].get(power, income), income)
    past["income_min"][power] = min(past["income_min"].get(power, income), income)


def income_now(game: AAGame, tables: Tables, power: str) -> int:
    """The IPC value of the power's territories (a neutral that joined a team by its table income)."""
    return sum(territory_income(game, tables, t) for t in game.module.territories if game.owner(t) == power)


def hostile(game: Board, nation: str, place: str) -> bool:
    """Whether an enemy of ``nation`` holds ``place`` or has units there."""
    owner = game.owner(place)
    if owner is not None and not game.friendly(nation, owner):
        return True
    return any(not game.friendly(nation, stack.split(":")[0]) for stack in game.d["units"].get(place, {}))


def met(game: AAGame, tables: Tables, goal: Goal) -> bool:
    if goal.kind == "any":
        return any(part_met(game, tables, goal.nation, part) for part in goal.parts)
    return part_met(game, tables, goal.nation, goal)


def part_met(game: AAGame, tables: Tables, nation: str, part: Part) -> bool:
    """Whether one condition holds at the end of the game."""
    past = history(game)
    regions = {r.id: r.places for r in tables.goals.regions}
    places = [*part.places, *(p for r in part.regions for p in regions[r])]
    holders = {nation} if part.by is None else set(part.by) if isinstance(part.by, list) else set()

    def holds(place: str) -> bool:
        owner = game.owner(place)
        if owner is None:
            return part.unless_neutral and game.module.territories[place].impassable
        return owner in holders if holders else game.friendly(nation, owner)

    if part.kind == "hold":
        extra = [
            t.id
            for t in game.module.territories.values()
            if t.type.value == "land"
            and t.original_owner == nation
            and (part.original or (part.original_islands and t.island))
        ]
        return all(holds(p) for p in [*places, *extra])
    if part.kind == "majority":
        return 2 * sum(1 for p in places if game.owner(p) in (holders or {nation})) > len(places)
    if part.kind == "none-held":
        return not any(game.owner(p) == part.by_nation for p in places)
    if part.kind == "no-enemy-near":
        near = {n for p in places for n in game.module.territories[p].neighbours if not game.is_sea(n)}
        return not any(hostile(game, nation, p) for p in sorted({*places, *near}))
    if part.kind == "income-over":
        return income_now(game, tables, nation) > (part.amount or 0)
    if part.kind == "never-lost":
        floor = part.amount
        steady = floor is None or past["income_min"].get(nation, floor) >= floor
        return steady and not any(p in past["lost"] for p in places)
    if part.kind == "captured":
        return all(nation in past["captured"].get(p, []) for p in places)
    if part.kind == "first-capture":
        return all(past["first"].get(p) == nation for p in places)
    if part.kind == "income-reached":
        best: int = past["income_max"].get(nation, 0)
        return best >= (part.amount or 0)
    if part.kind == "income-above":
        return income_now(game, tables, nation) > income_now(game, tables, part.rival or nation)
    return False


def goals_met(game: AAGame, tables: Tables) -> dict[str, list[str]]:
    """Every nation's goals met now, by id, in the document's order."""
    result: dict[str, list[str]] = {}
    for goal in tables.goals.goals:
        if met(game, tables, goal):
            result.setdefault(goal.nation, []).append(goal.id)
    return result


# ---- the secret pick (National Victory, S3:L250) -----------------------------------------------

KIND = "goal-pick"


def open_picks(game: AAGame, tables: Tables) -> None:
    """Before play: ask each nation with goals, in turn order, to write down its picks."""
    nations = [p for p in game.order if any(g.nation == p for g in tables.goals.goals)]
    game.d["aarhe"]["goal_picks"] = {p: [] for p in nations}
    game.d["battle"] = {
        "machine": "aarhe",
        "kind": KIND,
        "where": game.capital_name(),
        "attacker": game.power,
        "powers": nations,
        "dice": [],
        "ask": None,
        "stage": KIND,
    }
    ask_pick(game, tables)


def ask_pick(game: AAGame, tables: Tables) -> None:
    """Ask the next nation still picking for one more goal (``picked`` each, or all it has)."""
    battle = game.d["battle"]
    picks: dict[str, list[str]] = game.d["aarhe"]["goal_picks"]
    while battle["powers"]:
        nation = battle["powers"][0]
        left = [g.id for g in tables.goals.goals if g.nation == nation and g.id not in picks[nation]]
        if left and len(picks[nation]) < tables.goals.picked.value:
            battle["ask"] = {"who": nation, "kind": KIND, "options": [f"pick {g}" for g in left]}
            return
        battle["powers"].pop(0)
    game.log("every nation has written down its national goals in secret")
    game.d["battle"] = None


def answer_pick(game: AAGame, tables: Tables, option: str) -> None:
    """``pick GOAL``: the nation asked writes the goal down."""
    battle = game.d["battle"]
    battle["ask"] = None
    game.d["aarhe"]["goal_picks"][battle["powers"][0]].append(option.split()[1])
    ask_pick(game, tables)


def national_winners(game: AAGame, tables: Tables, met: dict[str, list[str]]) -> list[str]:
    """The nations whose picked goals are all met (S3:L250)."""
    picks: dict[str, list[str]] = game.d["aarhe"].get("goal_picks", {})
    return sorted(n for n, ids in picks.items() if ids and set(ids) <= set(met.get(n, [])))


def redact(data: dict[str, Any], seat: str | None) -> None:
    """Before the end, another nation's picks (and the options it is offered) are hidden."""
    if data["result"] is not None:
        return
    picks = data["aarhe"].get("goal_picks", {})
    for nation in picks:
        if nation != seat:
            picks[nation] = HIDDEN
    battle = data.get("battle")
    ask = battle["ask"] if battle is not None and battle.get("kind") == KIND else None
    if ask is not None and ask["who"] != seat:
        ask["options"] = []
