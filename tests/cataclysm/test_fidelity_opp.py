"""Rules fidelity, helper opp: a diplomatic opportunity is each eligible power's choice (LR 5.7).

LR 5.7 (L1337) says each eligible power, in decreasing effectiveness order, *may* make the
effectiveness check. The engine asks it (``attempt`` or ``decline``); a power that declines lets
the chance pass to the next eligible power, gains nothing and provokes nobody. The bots answer the
question legally, and the heuristic one takes a chance that can only bring it the country.
"""

from __future__ import annotations

from tests.cataclysm.test_operations import (
    MODULE,
    bare_game,
    choose,
    choose_starting,
    offensive,
    options,
    roll,
    settle,
    setup,
)

from grandstrategy.cataclysm.engine import CataclysmGame
from grandstrategy.cataclysm.engine.common import power_order
from grandstrategy.cataclysm.engine.invariants import problems
from grandstrategy.cataclysm.rules.control import controller
from grandstrategy.core.session import DecisionPoint
from grandstrategy.play.bots import HeuristicBot, RandomBot


def _opportunity_asked(game: CataclysmGame, area_name: str) -> str:
    """The power the engine asks about the diplomatic opportunity in ``area_name`` (LR 5.7)."""
    assert game.pending is not None and game.pending["type"] == "decide", game.pending
    assert game.pending["prompt"].startswith(f"diplomatic opportunity in {area_name}:"), game.pending
    assert options(game) == ["attempt", "decline"]
    return str(game.pending["power"])


def _failed_attack_on_denmark() -> CataclysmGame:
    """Germany, at war with nobody, fails to conquer uncontrolled Denmark with the first of two
    actions; the opportunity then goes to the non-enemy opposing powers (LR 9.7.2, L1943)."""
    game = setup("europe-1939", [("germany", "infantry-army", "ruhr")], [])
    game.state.alliances = {}
    offensive(game, "germany", 2)
    choose(game, "germany", "land operation against Denmark")
    choose_starting(game, "germany", "activate #1 infantry-army")
    choose(game, "germany", "augment 0")
    settle(game)
    roll(game, 1, 1)  # Germany: 1
    roll(game, 6)  # Denmark: 6; the attack fails and the German army is destroyed
    return game


def test_a_power_that_declines_lets_the_next_eligible_power_check_lr_5_7_l1337() -> None:
    """LR 5.7 (L1337) with 9.7.2 (L1943): after Germany's failed attack on Denmark, the first
    eligible power lets the opportunity pass without rolling; the second is asked next, makes the
    check with forced sixes and gains control of Denmark, the first does not."""
    game = _failed_attack_on_denmark()
    eligible = [p for p in power_order(game, decreasing=True) if p not in ("germany", "italy")]
    first, second = eligible[0], eligible[1]
    assert _opportunity_asked(game, "Denmark") == first
    choose(game, first, "decline")  # no dice are rolled for the first power
    assert _opportunity_asked(game, "Denmark") == second
    choose(game, second, "attempt")
    assert game.pending is not None and game.pending["type"] == "chance"
    assert game.pending["label"].startswith(f"{second} diplomatic opportunity in denmark")
    while game.pending is not None and game.pending["type"] == "chance":
        roll(game, 6)
    assert controller(MODULE, game.state, "denmark") == second
    assert game.state.cubes["denmark"] == {second: 1}
    assert any(f"{first} lets the diplomatic opportunity in denmark pass" in line for line in game.state.log)
    assert not problems(game), problems(game)


def test_a_declined_opportunity_gains_nothing_and_provokes_nobody_lr_5_7_l1337() -> None:
    """LR 5.7 (L1337) with 2.2.4 and 5.2.3: Germany alone is eligible for uncontrolled Sweden, where
    taking it would provoke the Soviet Union (checked first with forced sixes). Declining instead
    leaves Sweden uncontrolled, rolls no dice, gives nobody a flag and ends the opportunity."""
    taken = bare_game("europe-1939")
    taken.push("opportunity", area="sweden", powers=["germany"])
    taken.run()
    choose(taken, "germany", "attempt")
    while taken.pending is not None and taken.pending["type"] == "chance":
        roll(taken, 6)
    assert controller(MODULE, taken.state, "sweden") == "germany"
    assert any("provoked: germany gains Sweden" in line for line in taken.state.log)

    game = bare_game("europe-1939")
    state = game.state
    flags = {p: (line.available_flags, line.reserve) for p, line in state.powers.items()}
    cup = sorted(state.cup)
    log_length = len(state.log)
    game.push("opportunity", area="sweden", powers=["germany"])
    game.run()
    assert _opportunity_asked(game, "Sweden") == "germany"
    choose(game, "germany", "decline")
    assert game.pending is None
    assert controller(MODULE, state, "sweden") is None and "sweden" not in state.cubes
    assert {p: (line.available_flags, line.reserve) for p, line in state.powers.items()} == flags
    assert sorted(state.cup) == cup
    new_lines = state.log[log_length:]
    assert not any("provoked" in line or "gains a flag" in line for line in new_lines), new_lines
    assert any("germany lets the diplomatic opportunity in sweden pass" in line for line in new_lines)


def test_the_bots_answer_the_opportunity_legally_lr_5_7() -> None:
    """LR 5.7 (L1337): asked about an opportunity, the random bot picks one of the two answers (both
    over a range of plies) and the heuristic bot, whose look-ahead values the country it may gain
    above letting it pass, attempts the check whichever order the answers come in."""
    for area in ("hungary", "sweden"):  # one that provokes nobody, one that provokes the Soviets
        game = bare_game("europe-1939")
        game.push("opportunity", area=area, powers=["germany"])
        game.run()
        legal = tuple(game.legal_actions())
        assert [str(a) for a in legal] == ["germany: attempt", "germany: decline"]
        decision = DecisionPoint("germany", legal)
        picks = {str(RandomBot(3).choose(game, decision, ply=p)) for p in range(40)}
        assert picks == {"germany: attempt", "germany: decline"}
        for order in (legal, tuple(reversed(legal))):
            action = HeuristicBot(1).choose(game, DecisionPoint("germany", order))
            assert action in legal and str(action) == "germany: attempt"
        assert not problems(game), problems(game)
        for action in legal:  # either answer leaves the game sound
            child = game.clone()
            child.apply(action)
            assert not problems(child), problems(child)
