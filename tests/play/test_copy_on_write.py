"""Copies on write never let a change in one Cataclysm state show in another (issue 15, speed).

A bot's look-ahead copy (``CataclysmGame.fork``) shares the power lines and units of its original
until one of them changes (``CataclysmState.line_to_change``, ``unit_to_change``); every copy
shares each area's cube holders, which are never changed in place. The tests drive the real
engine steps that change those parts, in a fork and in its original, and check the other side;
and they play heuristic games in which every object shared at a copy is remembered with its
contents and must still hold them at the end (a change made in place, anywhere, fails them).
"""

from __future__ import annotations

from dataclasses import asdict
from typing import Any

import pytest

from grandstrategy.cataclysm.engine import CataclysmGame
from grandstrategy.cataclysm.engine.common import gain_flag, to_reserve
from grandstrategy.cataclysm.engine.control import change_control
from grandstrategy.cataclysm.engine.politics import escalate
from grandstrategy.cataclysm.module import load_module
from grandstrategy.cataclysm.rules.politics import record_result
from grandstrategy.cataclysm.state import CataclysmState, PowerState, new_state
from grandstrategy.core.session import Match
from grandstrategy.play.bots import HeuristicBot, bot_seed, fork
from grandstrategy.play.games import cataclysm_value, load_ruleset

MODULE = load_module()
IDEOLOGIES = ("democracy", "fascism", "communism")


def lines(game: CataclysmGame) -> dict[str, dict[str, Any]]:
    """Every power line's contents, as plain data."""
    return {power: asdict(line) for power, line in game.state.powers.items()}


def change_lines(game: CataclysmGame) -> None:
    """Engine steps that change power lines: an escalation (LR 6.4.1), a flag gained and put in
    reserve (LR 5.2.2, 3.4), a counter put in reserve directly, a failed political action's cube
    (LR 5.4)."""
    escalate(game, "germany")
    game.stack.clear()  # the escalation's later steps (force pool, provocations) are not needed here
    gain_flag(game, "france", "a test")
    game.run()
    assert game.pending is not None and "place the flag" in game.pending["prompt"]
    game.apply(game.legal_actions()[game.pending["options"].index("reserve")])
    to_reserve(game, "italy", "flag:italy")
    record_result(game.state, "soviet-union", "propaganda", success=False)


def test_a_forks_changes_to_power_lines_never_show_in_its_original() -> None:
    game = CataclysmGame(MODULE, new_state(MODULE, "campaign-1933"))
    before = lines(game)
    child = game.fork()
    change_lines(child)
    assert lines(game) == before
    changed = lines(child)
    assert changed["germany"]["commitment"] is not before["germany"]["commitment"]
    assert changed["soviet-union"]["failed_actions"] == {"propaganda": 1}
    assert changed["italy"]["reserve"] == "flag:italy" and before["italy"]["reserve"] != "flag:italy"


def test_an_originals_changes_to_power_lines_never_show_in_a_live_fork() -> None:
    game = CataclysmGame(MODULE, new_state(MODULE, "campaign-1933"))
    before = lines(game)
    child = game.fork()
    grandchild = child.fork()
    change_lines(game)
    assert lines(child) == before and lines(grandchild) == before
    assert game.state.powers["germany"].commitment is not before["germany"]["commitment"]
    assert game.state.powers["soviet-union"].failed_actions == {"propaganda": 1}


def test_each_side_of_a_fork_changes_a_line_once_and_then_in_place() -> None:
    """After a fork both sides copy a line on its first change only; a later change in the same
    state writes its own copy (no copy per change)."""
    game = CataclysmGame(MODULE, new_state(MODULE, "campaign-1933"))
    shared = game.state.powers["germany"]
    child = game.fork()
    first = child.state.line_to_change("germany")
    assert first is not shared and child.state.line_to_change("germany") is first
    mine = game.state.line_to_change("germany")
    assert mine is not shared and mine is not first and game.state.line_to_change("germany") is mine
    plain = game.clone()  # a plain copy owns its lines: no copy on change
    assert plain.state.line_to_change("germany") is plain.state.powers["germany"]


def test_cubes_changed_in_a_fork_stay_out_of_its_original_and_the_reverse() -> None:
    """Diplomacy's change of control puts new cubes in an area (LR 5.2.1): a fork's and the
    original's changes stay on their own side."""
    game = CataclysmGame(MODULE, new_state(MODULE, "campaign-1933"))
    area = next(a for a, held in sorted(game.state.cubes.items()) if "germany" not in held)
    before = {a: dict(held) for a, held in game.state.cubes.items()}
    child = game.fork()
    change_control(child, area, "germany")
    assert {a: dict(held) for a, held in game.state.cubes.items()} == before
    assert child.state.cubes[area] != before[area]
    other = next(a for a, held in sorted(before.items()) if "italy" not in held and a != area)
    change_control(game, other, "italy")
    assert child.state.cubes[other] == before[other] and game.state.cubes[other] != before[other]


def _contents(part: object) -> Any:
    """A shared part's contents as plain data: a cube holders' dict, a power line or a unit."""
    if isinstance(part, dict):
        return dict(part)
    if isinstance(part, PowerState):
        return asdict(part)
    return dict(part.__dict__)


class _Sentinel:
    """Remembers, at every copy of a state, each object the copy shares with its original (cube
    holders always; power lines and units in a fork) with its contents then."""

    def __init__(self) -> None:
        self.seen: dict[int, tuple[object, Any]] = {}
        self.copies = 0

    def note(self, state: CataclysmState, *, shared_parts: bool) -> None:
        self.copies += 1
        parts: list[object] = list(state.cubes.values())
        if shared_parts:
            parts += [*state.powers.values(), *state.units]
        for part in parts:
            if id(part) not in self.seen:
                self.seen[id(part)] = (part, _contents(part))

    def changed(self) -> list[tuple[object, Any]]:
        """The shared objects whose contents differ from what they held when first shared."""
        return [(part, then) for part, then in self.seen.values() if _contents(part) != then]

    def lines(self) -> int:
        """How many distinct power lines were ever shared (more than the powers: lines were
        copied on write and their copies shared again)."""
        return sum(isinstance(part, PowerState) for part, _ in self.seen.values())


@pytest.mark.parametrize(("scenario", "decisions"), [("campaign-1933", 260), ("europe-1939", 200)])
def test_no_shared_part_changes_in_heuristic_play_and_choosing_leaves_the_game_alone(
    monkeypatch: pytest.MonkeyPatch, scenario: str, decisions: int
) -> None:
    sentinel = _Sentinel()
    original_clone = CataclysmState.clone

    def clone(self: CataclysmState, *, share_units: bool = False, keep_log: bool = True) -> CataclysmState:
        sentinel.note(self, shared_parts=share_units)
        return original_clone(self, share_units=share_units, keep_log=keep_log)

    monkeypatch.setattr(CataclysmState, "clone", clone)
    match = Match(load_ruleset("cataclysm"), seed=3, options={"scenario": scenario})
    bots = {seat: HeuristicBot(bot_seed(3, seat)) for seat in match.state.seats()}
    for _ in range(decisions):
        decision = match.decision()
        if decision is None:
            break
        before = match.state.state_hash()
        action = bots[decision.seat].choose(match.state, decision, ply=match.log_length())
        assert match.state.state_hash() == before  # the look-ahead never wrote the game
        match.play(decision.seat, action)
    changed = sentinel.changed()
    assert not changed, changed[:3]
    assert sentinel.copies > 1000 and sentinel.lines() > 100  # the look-ahead copied and shared


def test_fork_gives_an_independent_copy_through_the_bots_door() -> None:
    """``play.bots.fork`` (used by the look-ahead and the search bot) keeps its contract: whatever
    the copy goes through, the original's state hash is unchanged."""
    game = CataclysmGame(MODULE, new_state(MODULE, "campaign-1933"))
    game.push("end-phase-finish")
    before = game.state_hash()
    copy = fork(game)
    change_lines(copy)  # type: ignore[arg-type]
    copy.run()  # type: ignore[attr-defined]
    assert game.state_hash() == before and copy.state_hash() != before


def test_a_position_value_follows_each_sides_lines_after_a_fork() -> None:
    """The heuristic bot's position value (``play.games.cataclysm_value``) reads each side's own
    lines after a fork: the value on either side is the one of a plain copy of that side."""
    game = CataclysmGame(MODULE, new_state(MODULE, "campaign-1933"))
    child = game.fork()
    before = {ideology: cataclysm_value(game, ideology) for ideology in IDEOLOGIES}
    assert {ideology: cataclysm_value(child, ideology) for ideology in IDEOLOGIES} == before
    change_lines(child)
    cataclysm_value(child, "fascism")  # the child's own (changed) lines, then changed again in place
    child.state.line_to_change("germany").available_flags -= 1  # a flag in play (its value counts it)
    game.state.line_to_change("italy").available_flags -= 1
    for side in (game, child):
        fresh = side.clone()  # a plain copy holds its lines alone
        for ideology in IDEOLOGIES:
            assert cataclysm_value(side, ideology) == cataclysm_value(fresh, ideology)
    assert cataclysm_value(child, "fascism") != before["fascism"]
    assert cataclysm_value(game, "fascism") != before["fascism"]
