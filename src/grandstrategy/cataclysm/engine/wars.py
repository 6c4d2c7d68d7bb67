"""What follows whenever the set of wars changes (LR 5.6.4, 5.6.5, 12.1, 12.1.1, 12.1.3, 12.2, 12.2.2)."""

from __future__ import annotations

from grandstrategy.cataclysm.engine.control import check_status_quo
from grandstrategy.cataclysm.engine.displacement import sweep
from grandstrategy.cataclysm.engine.game import CataclysmGame
from grandstrategy.cataclysm.module.schema import Ideology, WarStatus
from grandstrategy.cataclysm.rules.control import at_war, belligerent
from grandstrategy.cataclysm.rules.war import global_war_last_turn, global_war_now


def after_war_change(game: CataclysmGame) -> None:
    """Update the war status and the special rules that end when powers go to war."""
    state, module = game.state, game.module
    sweep(game)  # units may have lost the right to stay (LR 5.6.2, 7.1.2)
    if state.wars and state.war_status is WarStatus.NONE:
        state.war_status = WarStatus.LIMITED  # Lend Lease becomes available (LR 5.6.4)
        game.note("Limited War: the first war of the game has begun")
    if global_war_now(module, state) and state.war_status is not WarStatus.GLOBAL:
        state.war_status = WarStatus.GLOBAL
        state.global_war_turn = global_war_last_turn(state.turn)
        game.note(f"Global War: every ideology is at war; the game ends after {state.global_war_turn}")
    democracies = [p for p in state.powers if module.powers[p].ideology is Ideology.DEMOCRACY]
    if "status-quo" in state.markers and any(belligerent(state, p) for p in democracies):
        check_status_quo(game, force_reason="a Democracy is at war")
    if "stresa-front" in state.markers:  # LR 12.1
        fascist_pact = {"germany", "italy"} <= set(state.alliances.get(Ideology.FASCISM.value, []))
        entente = {"france", "united-kingdom"} <= set(state.alliances.get(Ideology.DEMOCRACY.value, []))
        at_war_now = belligerent(state, "germany") or belligerent(state, "italy")
        if fascist_pact or entente or at_war_now:
            state.markers.remove("stresa-front")
            game.note("the Stresa Front is removed from the game (LR 12.1)")
    if "rhineland" in state.markers and belligerent(state, "germany"):  # flips, without provocation
        state.markers.remove("rhineland")
        game.note("Germany at war: the Rhineland marker flips to the Ruhr limited resource")
    if "us-japan-trade" in state.markers and any(at_war(state, "japan", p) for p in democracies):
        state.markers.remove("us-japan-trade")
        game.note("Japan at war with a Democracy: US-Japan Trade ends")
    if (
        "isolationism" in state.markers
        and "united-states" in state.powers
        and belligerent(state, "united-states")
    ):
        state.markers.remove("isolationism")  # LR 12.2.2: it binds only until the US is belligerent
        game.note("the US is at war: Isolationism ends")
    if "wnt" in state.markers and (
        belligerent(state, "united-kingdom") or belligerent(state, "united-states")
    ):
        state.markers.remove("wnt")
        game.note("the UK or the US is at war: the Washington Naval Treaty ends")
