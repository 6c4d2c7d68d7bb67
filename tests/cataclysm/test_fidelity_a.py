"""Rules fidelity through the engine: alliances, failed political actions, interests, flags.

LR 5.1 interests, LR 5.2 and 3.7.1 flags, LR 5.3 effectiveness, LR 5.4 failed political actions,
LR 6.1 alliances. Each test sets up the situation, forces the dice and the choices, and checks
the outcome the rule gives.
"""

from __future__ import annotations

from tests.cataclysm.test_operations import (
    bare_game,
    choose,
    choose_starting,
    options,
    place_flags,
    roll,
)

from grandstrategy.cataclysm.engine import CataclysmGame
from grandstrategy.cataclysm.module.schema import Commitment, WarStatus
from grandstrategy.cataclysm.rules.control import controller
from grandstrategy.cataclysm.rules.special import LEND_LEASE_IN_PLAY
from grandstrategy.cataclysm.state import CataclysmState


def play_flag(game: CataclysmGame, power: str) -> None:
    """The power plays one of its flags: from the cup if one is there, else from its available box."""
    counter = f"flag:{power}"
    if counter in game.state.cup:
        game.state.cup.remove(counter)
    else:
        game.state.powers[power].available_flags -= 1
    game.push("play-counter", counter=counter, source="cup")
    game.run()


def democracies_without_alliance() -> CataclysmGame:
    """The 1933 campaign with France and the UK not yet allied and a UK flag in reserve."""
    game = bare_game("campaign-1933")
    game.state.alliances = {}
    game.state.powers["united-kingdom"].available_flags -= 1
    game.state.powers["united-kingdom"].reserve = "flag:united-kingdom"
    return game


# ---- LR 6.1 with 5.3: the least effective power checks -------------------------------------------


def test_alliance_checks_with_a_reduction_at_effectiveness_one_lr_l1353_l1145() -> None:
    """LR 6.1 L1353 with 5.3 L1145: both at one die, France's reduction (-1) makes it the weakest."""
    game = democracies_without_alliance()
    state = game.state
    state.powers["france"].effectiveness_reduced = True  # effectiveness 1: stays, -1 on the result
    state.powers["united-kingdom"].effectiveness_reduced = True  # effectiveness 2 -> 1, no penalty
    play_flag(game, "france")
    choose(game, "france", "alliance united-kingdom")
    choose(game, "united-kingdom", "agree")
    assert game.pending is not None and game.pending["label"].startswith("france alliance")
    roll(game, 5)  # 5 - 1 = 4: the attempt fails (the UK's check would have passed)
    assert "alliance of france and united-kingdom: rolls 5-1, failure" in game.state.log[-1]
    assert "democracy" not in state.alliances
    assert state.powers["france"].failed_actions == {"alliance": 1}


def test_a_partner_playing_il_duce_adds_its_die_lr_l1357() -> None:
    """LR 6.1 L1357 design note, 12.1.2: Italy's reserved Il Duce flag, played as Germany's partner,
    gives Italy (the least effective) one more die for the check."""
    game = bare_game("campaign-1933")
    state = game.state
    state.alliances = {}
    state.powers["italy"].available_flags -= 1
    state.powers["italy"].reserve = "flag:italy:il-duce"
    play_flag(game, "germany")
    choose(game, "germany", "alliance italy")
    choose(game, "italy", "agree")
    assert game.pending is not None and game.pending["label"].startswith("italy alliance")
    roll(game, 1, 5)  # two dice: the 5 succeeds
    assert state.alliances["fascism"] == ["germany", "italy"]


# ---- LR 5.4: failed political action cubes --------------------------------------------------------


def test_a_partner_attempting_another_action_removes_all_alliance_cubes_lr_l1159() -> None:
    """LR 5.4 L1159: after a failed France-UK alliance, the UK's escalation attempt takes France's
    alliance cubes away as well as its own."""
    game = democracies_without_alliance()
    state = game.state
    play_flag(game, "france")
    choose(game, "france", "alliance united-kingdom")
    choose(game, "united-kingdom", "agree")
    roll(game, 2)
    assert state.powers["france"].failed_actions == {"alliance": 1}
    assert state.powers["united-kingdom"].failed_actions == {"alliance": 1}
    play_flag(game, "united-kingdom")
    choose(game, "united-kingdom", "escalation")
    roll(game, 1, 1)
    assert state.powers["united-kingdom"].failed_actions == {"escalation": 1}
    assert state.powers["france"].failed_actions == {}


def test_a_joiner_keeps_its_own_alliance_cubes_lr_l1159_l1379() -> None:
    """LR 5.4 L1159 exception, 6.1.1 L1379: a failed join places only the joiner's cube, and another
    power's later political action does not take it away."""
    game = democracies_without_alliance()
    state = game.state
    state.alliances = {"fascism": ["germany", "italy"]}
    play_flag(game, "japan")
    choose(game, "japan", "join-alliance")
    roll(game, 1, 1)
    assert state.powers["japan"].failed_actions == {"alliance": 1}
    assert state.powers["germany"].failed_actions == {}
    play_flag(game, "germany")
    choose(game, "germany", "escalation")
    roll(game, 1, 1, 1)
    assert state.powers["japan"].failed_actions == {"alliance": 1}


def test_each_special_action_has_its_own_failed_cubes_lr_l1161() -> None:
    """LR 5.4 L1161: the special box's cubes count only for the special action that failed; a
    failed *end US-Japan Trade* gives no bonus to *Lend Lease*, and trying it clears them."""
    game = bare_game("campaign-1933")
    state = game.state
    state.war_status = WarStatus.LIMITED  # Lend Lease may be attempted
    play_flag(game, "united-states")
    choose(game, "united-states", "end-us-japan-trade")
    roll(game, 1)
    assert state.powers["united-states"].failed_actions == {"special": 1}
    play_flag(game, "united-states")
    choose(game, "united-states", "lend-lease")
    roll(game, 4)  # no bonus: 4 fails
    assert "lend-lease: rolls 4, failure" in state.log[-1]
    assert LEND_LEASE_IN_PLAY not in state.markers
    assert state.powers["united-states"].failed_actions == {"special": 1}  # Lend Lease's own cube
    assert state.powers["united-states"].failed_special == "lend-lease"


def test_a_special_action_keeps_its_bonus_when_tried_again_lr_l1153() -> None:
    """LR 5.4 L1153: the same special action tried again has +1 per cube."""
    game = bare_game("campaign-1933")
    state = game.state
    play_flag(game, "united-states")
    choose(game, "united-states", "end-us-japan-trade")
    roll(game, 1)
    play_flag(game, "united-states")
    choose(game, "united-states", "end-us-japan-trade")
    roll(game, 4)  # 4 + 1 = 5
    assert "us-japan-trade" not in state.markers
    assert state.powers["united-states"].failed_actions == {}


def test_a_posture_change_by_flag_clears_failed_cubes_lr_l1157() -> None:
    """LR 5.4 L1157 with 6.8 L1519: a posture change by flag needs no check and succeeds, so every
    failed-action cube of the power goes."""
    game = bare_game("campaign-1933")
    state = game.state
    play_flag(game, "soviet-union")
    choose(game, "soviet-union", "escalation")
    roll(game, 1)
    assert state.powers["soviet-union"].failed_actions == {"escalation": 1}
    play_flag(game, "soviet-union")
    choose(game, "soviet-union", "posture collective-security")
    assert state.powers["soviet-union"].posture == "collective-security"
    assert state.powers["soviet-union"].failed_actions == {}


def test_old_saves_without_the_special_reminder_still_load() -> None:
    """A save written before the special box named its action loads, its cubes counting for any."""
    game = bare_game("campaign-1933")
    data = game.state.to_json()
    line = data["powers"]["united-states"]
    del line["failed_special"], line["alliance_partners"]
    line["failed_actions"] = {"special": 1}
    state = CataclysmState.from_json(data)
    assert state.powers["united-states"].failed_special is None
    from grandstrategy.cataclysm.rules.politics import failed_action_bonus

    assert failed_action_bonus(state, "united-states", "special", special="lend-lease") == 1


# ---- LR 5.1 with 2.3.4: interests ---------------------------------------------------------------


def test_a_blue_air_arrow_gives_no_interest_lr_l1063_l457() -> None:
    """LR 5.1 L1063 with 2.3.4 L457: Java and Siam are joined by a blue arrow only, so a power
    controlling Java has no interest in Siam and may not attempt diplomacy there."""
    game = bare_game("campaign-1933")
    game.state.cubes["java"] = {"italy": 1}
    assert controller(game.module, game.state, "java") == "italy"
    play_flag(game, "italy")
    assert "diplomacy siam" not in options(game)


def test_the_uk_interests_example_still_holds_without_air_arrows_lr_l1069() -> None:
    """LR 5.1 L1069: London's blue arrows give nothing, but the UK keeps every interest of the example
    across the North Sea and the Western Approaches."""
    from grandstrategy.cataclysm.rules.control import interests

    game = bare_game("campaign-1933")
    game.state.alliances = {}
    found = interests(game.module, game.state, "united-kingdom")
    example = ["benelux", "denmark", "paris", "brittany", "norway", "ireland", "portugal", "spain"]
    assert set(example) <= found


# ---- LR 3.7.1 with 5.2.2: a played flag returns once its action is resolved ----------------------


def test_a_last_flag_played_cannot_be_regained_during_its_action_lr_l779() -> None:
    """LR 3.7.1 L779 with 5.2.2: Germany plays its last flag for maneuvers; the triumph flag it
    earns in the attack is forfeit, since that flag is back in its available box only afterwards."""
    game = bare_game()
    state = game.state
    germany = state.powers["germany"]
    state.cup.remove("flag:germany")  # the German flag is drawn
    state.cup += ["flag:germany"] * germany.available_flags  # every other German flag is in the cup
    state.cup.sort()
    germany.available_flags = 0
    game.push("play-counter", counter="flag:germany", source="cup")
    game.run()
    choose(game, "germany", "maneuvers")
    roll(game, 6, 4, 3)
    choose(game, "germany", "land operation against Poland")
    choose_starting(game, "germany", "activate #2 tank-army")
    choose_starting(game, "germany", "activate #1 infantry-army")
    place_flags(game, {"france": "reserve", "united-kingdom": "cup", "soviet-union": "reserve"})
    choose_starting(game, "germany", "support with #3 germany tactical-air")
    roll(game, 6, 6, 4)
    roll(game, 3)  # triumph: Germany would gain a flag, but none is available
    place_flags(game, {"france": "cup", "united-kingdom": "cup", "soviet-union": "cup"})
    assert controller(game.module, state, "poland") == "germany"
    choose_starting(game, "germany", "regroup #1 infantry-army")
    choose(game, "germany", "Czechoslovakia")
    choose_starting(game, "germany", "regroup #3 tactical-air")
    choose(game, "germany", "Silesia")
    choose(game, "germany", "done")
    assert game.pending is None  # no triumph flag to place
    assert any("germany would gain a flag" in line for line in state.log)
    assert germany.available_flags == 1  # the played flag, back once the action was over
    assert germany.reserve is None


def test_partners_flags_return_once_the_alliance_is_resolved_lr_l779() -> None:
    """LR 3.7.1 L779, 6.1: the partner's reserved flag is played with the attempt and comes back to
    its available box only when the attempt is over."""
    game = democracies_without_alliance()
    state = game.state
    uk = state.powers["united-kingdom"]
    before = uk.available_flags
    play_flag(game, "france")
    choose(game, "france", "alliance united-kingdom")
    choose(game, "united-kingdom", "agree")
    assert uk.reserve is None and uk.available_flags == before  # in play while the check is rolled
    roll(game, 6)
    while game.pending is not None and game.pending["type"] == "decide":
        choose(game, game.pending["power"], "cup")
    assert uk.available_flags == before + 1


# ---- LR 6.1.3: a belligerent's new allies must be able to join its wars -------------------------


def test_a_belligerent_partner_must_be_able_to_join_the_other_war_lr_l1388_l1390() -> None:
    """LR 6.1.3 L1388-1390: France at war with Italy and the UK at war with Germany would each join
    the other's war; France at civilian cannot, so no alliance may be attempted; at mobilization it may."""
    from grandstrategy.cataclysm.engine.war_start import make_war

    game = democracies_without_alliance()
    state = game.state
    state.powers["united-kingdom"].commitment = Commitment.MOBILIZATION
    make_war(game, [("france", "italy"), ("united-kingdom", "germany")])
    game.stack.clear()
    play_flag(game, "france")
    assert "alliance united-kingdom" not in options(game)
    ready = democracies_without_alliance()
    ready.state.powers["united-kingdom"].commitment = Commitment.MOBILIZATION
    ready.state.powers["france"].commitment = Commitment.MOBILIZATION
    make_war(ready, [("france", "italy"), ("united-kingdom", "germany")])
    ready.stack.clear()
    play_flag(ready, "france")
    assert "alliance united-kingdom" in options(ready)


def test_a_failed_declaration_of_war_places_a_cube_lr_l1153() -> None:
    """LR 5.4 L1153, 6.2: a failed declaration of war places a cube, worth +1 to the next one."""
    game = bare_game()
    state = game.state
    state.powers["italy"].commitment = Commitment.MOBILIZATION  # effectiveness 2
    play_flag(game, "italy")
    choose(game, "italy", "declare-war france")
    roll(game, 1, 1)
    assert state.powers["italy"].failed_actions == {"declare-war": 1}
    play_flag(game, "italy")
    choose(game, "italy", "declare-war france")
    roll(game, 4, 2)  # 4 + 1 = 5
    assert "italy declare-war france: rolls 4 2+1, success" in " ".join(state.log)
    assert state.powers["italy"].failed_actions == {}
