"""Starting a war by declaration or surprise attack; allies join or break (LR 5.6.1, 6.1.3, 6.2).

When a power goes to war, each ally of the declarer and of the targets decides, in increasing
effectiveness order, whether to join the war or leave the alliance. An ally joining a declarer must
meet the requirements of a declaration of war; one joining because its ally was attacked need not.
Allies of the targets that join gain a provocation flag.
"""

from __future__ import annotations

from grandstrategy.cataclysm.engine.collapse import _leave_alliances
from grandstrategy.cataclysm.engine.common import flag_step, power_order
from grandstrategy.cataclysm.engine.game import CataclysmGame
from grandstrategy.cataclysm.engine.machine import Step, step
from grandstrategy.cataclysm.engine.wars import after_war_change
from grandstrategy.cataclysm.module.schema import Commitment
from grandstrategy.cataclysm.rules.control import at_war
from grandstrategy.cataclysm.rules.war import enemy_pairs, group_wars


def may_declare_war(game: CataclysmGame, power: str, target: str | None = None) -> str | None:
    """Why the power may not declare war (on ``target``) now, or None (LR 6.2, 12.2)."""
    line = game.state.powers[power]
    if line.commitment not in (Commitment.MOBILIZATION, Commitment.TOTAL_WAR):
        return "a declaration of war needs mobilization or total war (LR 6.2)"
    if target == "japan" and "us-japan-trade" in game.state.markers:
        us_side = {"united-states", *_allies(game, "united-states")}
        if power in us_side:
            return "the US and its allies may not declare war on Japan under US-Japan Trade (LR 12.2)"
    return None


def _allies(game: CataclysmGame, power: str) -> list[str]:
    for members in game.state.alliances.values():
        if power in members:
            return [m for m in members if m != power and game.state.powers[m].active]
    return []


def make_war(game: CataclysmGame, pairs: list[tuple[str, str]]) -> None:
    """Put each pair at war (lifting any armistice between them) and update the war status."""
    state = game.state
    for a, b in pairs:
        if sorted((a, b)) in state.peace:
            state.peace.remove(sorted((a, b)))
    state.wars = group_wars(game.module, [*enemy_pairs(state), *pairs])
    after_war_change(game)


def start_war(game: CataclysmGame, declarers: list[str], targets: list[str], *, reason: str) -> None:
    """The declarers go to war with the targets now; their allies then choose (LR 6.1.3)."""
    pairs = [(d, t) for d in declarers for t in targets if not at_war(game.state, d, t)]
    if not pairs:
        return
    make_war(game, pairs)
    game.note(f"war: {', '.join(declarers)} against {', '.join(targets)} ({reason})")
    asked: list[Step] = []
    order = power_order(game, decreasing=False)
    for side, enemies, attacked in ((declarers, targets, False), (targets, declarers, True)):
        allies = sorted({a for p in side for a in _allies(game, p)} - set(side) - set(enemies))
        for ally in [p for p in order if p in allies]:
            asked.append(
                {
                    "do": "ally-war",
                    "power": ally,
                    "enemies": list(enemies),
                    "attacked": attacked,
                    "reason": reason,
                }
            )
    game.then(*asked)


@step("ally-war")
def _ally_war(game: CataclysmGame, current: Step) -> None:
    """An ally joins the war or leaves the alliance (LR 6.1.3, 6.1.4)."""
    power = current["power"]
    state = game.state
    if not state.powers[power].active:
        return
    enemies = [e for e in current["enemies"] if state.powers[e].active and not at_war(state, power, e)]
    if not enemies:
        return
    blocked = (
        None
        if current["attacked"]
        else next((why for e in enemies if (why := may_declare_war(game, power, e)) is not None), None)
    )
    options = ["break the alliance"] if blocked else ["join the war", "break the alliance"]
    game.ask(
        power,
        f"your ally is at war with {', '.join(enemies)}: join or break the alliance? (LR 6.1.3)"
        + (f" — you cannot join: {blocked}" if blocked else ""),
        options,
        "ally-war-answer",
        power=power,
        enemies=enemies,
        attacked=current["attacked"],
    )


@step("ally-war-answer")
def _ally_war_answer(game: CataclysmGame, current: Step) -> None:
    power = current["power"]
    if current["choice"] == "break the alliance":
        _leave_alliances(game, power)
        return
    make_war(game, [(power, e) for e in current["enemies"]])
    game.note(f"{power} joins the war against {', '.join(current['enemies'])}")
    if current["attacked"]:
        game.then(flag_step(power, "provoked: its ally was attacked"))
