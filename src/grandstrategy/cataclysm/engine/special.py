"""Power-specific political actions (LR 6.8, 12): each names its power, as its rule does."""

from __future__ import annotations

from grandstrategy.cataclysm.engine.common import flag_step
from grandstrategy.cataclysm.engine.control import check_status_quo
from grandstrategy.cataclysm.engine.game import CataclysmGame
from grandstrategy.cataclysm.engine.machine import watch
from grandstrategy.cataclysm.module.schema import WarStatus
from grandstrategy.cataclysm.rules.control import allied, at_war, belligerent
from grandstrategy.cataclysm.rules.special import (
    LEND_LEASE_IN_PLAY,
    STATUS_QUO,
    TSR_IN_PLAY,
    US_JAPAN_TRADE,
)
from grandstrategy.cataclysm.rules.special_control import tokyo_lost

SPECIAL_ACTIONS = (
    "rhineland",
    "abyssinian-adventure",
    "end-us-japan-trade",
    "lend-lease",
    "trans-siberian-railroad",
)


def special_options(game: CataclysmGame, power: str) -> list[str]:
    """The special political actions open to the power now."""
    state = game.state
    markers = state.markers
    options: list[str] = []
    if power == "germany" and "rhineland" in markers:  # LR 12.1.1
        options.append("rhineland")
    if power == "italy" and "abyssinian-adventure" in markers and not belligerent(state, power):  # LR 12.1.2
        options.append("abyssinian-adventure")
    if power == "united-states":  # LR 12.2.2
        if "us-japan-trade" in markers:
            options.append("end-us-japan-trade")
        if (
            "lend-lease" in markers
            and LEND_LEASE_IN_PLAY not in markers
            and state.war_status is not WarStatus.NONE
        ):
            options.append("lend-lease")
    if (
        power == "soviet-union" and "trans-siberian-railroad" in markers and TSR_IN_PLAY not in markers
    ):  # LR 12.3.1
        options.append("trans-siberian-railroad")
    return options


def _provoke(game: CataclysmGame, actor: str, targets: list[str], reason: str) -> None:
    steps = [
        flag_step(target, reason)
        for target in targets
        if target in game.state.powers
        and game.state.powers[target].active
        and not at_war(game.state, actor, target)
    ]
    game.then(*steps)


def flip_rhineland(game: CataclysmGame) -> None:
    """The Ruhr limited resource enters play; France and its allies are provoked (LR 12.1.1)."""
    state = game.state
    state.markers.remove("rhineland")
    game.note("Germany remilitarizes the Rhineland: the Ruhr limited resource enters play")
    french_side = ["france", *(p for p in state.powers if allied(game.module, state, "france", p))]
    _provoke(game, "germany", french_side, "Rhineland remilitarized")


def resolve(game: CataclysmGame, power: str, action: str) -> None:
    """Apply a successful special action."""
    state = game.state
    if action == "rhineland":
        flip_rhineland(game)
    elif action == "abyssinian-adventure":
        state.markers.remove("abyssinian-adventure")
        held = dict(state.cubes.get("rome", {}))  # a new dict: copies of the state share the old one
        held["italy"] = held.get("italy", 0) + 1
        state.cubes["rome"] = held
        game.note("Italy's Abyssinian Adventure: the Rome limited resource and an Italian cube go to Rome")
        _provoke(game, "italy", ["france", "united-kingdom"], "Abyssinian Adventure")
    elif action == "end-us-japan-trade":
        state.markers.remove("us-japan-trade")
        game.note("the US ends US-Japan Trade")
        _provoke(game, "united-states", ["japan"], "US-Japan Trade ended")
    elif action == "lend-lease":
        state.markers.append(LEND_LEASE_IN_PLAY)
        game.note("Lend Lease is in play in Washington DC")
    elif action == "trans-siberian-railroad":
        state.markers.append(TSR_IN_PLAY)
        game.note("the Trans-Siberian Railroad is in play")


WNT = "wnt"
END_WNT = "end the Washington Naval Treaty"


def end_washington_naval_treaty(game: CataclysmGame) -> None:
    """Japan ends the treaty: the marker leaves the game; the UK and the US are provoked (LR 12.1.3)."""
    game.state.markers.remove(WNT)
    game.note("Japan ends the Washington Naval Treaty")
    game.then(
        *(
            flag_step(p, "Japan ends the Washington Naval Treaty")
            for p in ("united-kingdom", "united-states")
            if p in game.state.powers and game.state.powers[p].active
        )
    )


def wnt_option(game: CataclysmGame, power: str) -> list[str]:
    """Japan may end the treaty at any time, even in the middle of one of its actions (LR 12.1.3):
    offered among Japan's military actions, at no cost."""
    return [END_WNT] if power == "japan" and WNT in game.state.markers else []


@watch
def standing_conditions(game: CataclysmGame) -> None:
    """Special markers that leave play the moment their condition holds, whatever brought it about.

    Checked after every step: Status Quo ends once Germany and Italy outscore France and the United
    Kingdom, however the victory points changed (LR 12.2: control, a cube lost to a crisis, the
    Abyssinian Adventure...); US-Japan Trade ends once Japan loses control of Tokyo (LR 12.2.2).
    """
    state = game.state
    if STATUS_QUO in state.markers:
        check_status_quo(game)
    if US_JAPAN_TRADE in state.markers and tokyo_lost(game.module, state):
        state.markers.remove(US_JAPAN_TRADE)
        game.note("Japan has lost control of Tokyo: US-Japan Trade ends")
