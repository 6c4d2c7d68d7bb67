"""The driver: decisions, chance resolution, checked play, determinism, copies, undo hooks."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from grandstrategy.core import session
from grandstrategy.core.actions import Action
from grandstrategy.core.chance import ChanceEvent
from grandstrategy.core.errors import IllegalActionError, NotationError, UserInputError
from grandstrategy.core.game import RuleSet, find_ruleset, register_ruleset, ruleset_names, unregister_ruleset
from grandstrategy.core.ids import TERMINAL, Seat
from grandstrategy.core.log import ActionEntry
from grandstrategy.core.rng import Rng
from grandstrategy.core.session import Match

from .playout import playout, steps
from .toy_game import NORTH, PIG, SOUTH, Draw, Hold, PigRuleSet, Roll, Spend


def test_registry_resolves_name_and_aliases() -> None:
    assert find_ruleset("toy-pig") is PIG
    assert find_ruleset("  PIG-with-a-Cup ") is PIG
    assert "toy-pig" in ruleset_names()
    with pytest.raises(UserInputError, match=r"unknown rule set 'chess' \(known: .*toy-pig"):
        find_ruleset("chess")
    assert isinstance(PIG, RuleSet)


def test_registry_refuses_a_clashing_name_and_can_unregister() -> None:
    class Impostor(PigRuleSet):
        name = "impostor"
        aliases = ("pig",)

    with pytest.raises(ValueError, match="'pig' is already used by 'toy-pig'"):
        register_ruleset(Impostor())
    assert "impostor" not in ruleset_names()
    register_ruleset(PIG)  # the same object again: a no-op
    other = Impostor()
    object.__setattr__(other, "aliases", ("impostor-alias",))
    register_ruleset(other)
    assert find_ruleset("IMPOSTOR-ALIAS") is other
    unregister_ruleset("impostor-alias")
    assert "impostor" not in ruleset_names() and find_ruleset("pig") is PIG


def test_notation_round_trips_for_every_action() -> None:
    for action in [Roll(), Hold(), Draw(), Spend("gold"), Spend("copper")]:
        assert PIG.parse_action(str(action)) == action
    assert PIG.parse_action("  SPEND   Gold ") == Spend("gold")


@pytest.mark.parametrize("text", ["", "   ", "fly", "roll 3", "spend", "spend diamond", "hold\nroll"])
def test_bad_notation_quotes_the_input(text: str) -> None:
    with pytest.raises(NotationError) as info:
        PIG.parse_action(text)
    assert isinstance(info.value, ValueError)
    if text.strip() and "\n" not in text:
        assert repr(text) in str(info.value)


def test_start_resolves_who_goes_first_and_stops_at_a_decision(match: Match) -> None:
    first = match.log[0]
    assert isinstance(first, ChanceEvent) and first.label == "who goes first"
    point = match.decision()
    assert point is not None and point.seat == first.outcome
    assert point.notations() == ("roll", "hold", "draw")
    assert point.phase == "turn 1"


def test_roll_is_resolved_through_the_chance_service(match: Match) -> None:
    seat = match.to_act()
    match.play(seat, "roll")  # type: ignore[arg-type]
    assert match.log[1] == ActionEntry(seat, "roll")  # type: ignore[arg-type]
    rolled = match.log[2]
    assert isinstance(rolled, ChanceEvent) and rolled.kind == "die"
    assert match.chance.events[-1] == rolled
    if rolled.outcome == "1":
        assert match.to_act() != seat and match.state.to_json()["turn_total"] == 0
    else:
        assert match.to_act() == seat and match.state.to_json()["turn_total"] == int(rolled.outcome)


def test_same_seed_same_actions_same_log_and_hash_different_seed_differs() -> None:
    a, b, c = playout(42), playout(42), playout(43, policy_seed=42)
    assert a.log == b.log and a.state_hash() == b.state_hash()
    assert a.is_terminal()
    assert [e for e in c.log if isinstance(e, ChanceEvent)] != [
        e for e in a.log if isinstance(e, ChanceEvent)
    ]


def test_terminal_games_have_no_decision_and_zero_sum_returns() -> None:
    for seed in range(30):
        match = playout(seed, target=12)
        assert match.to_act() is TERMINAL and match.decision() is None
        assert match.state.legal_actions() == []
        returns = match.returns()
        assert sum(returns.values()) == 0 and set(returns.values()) <= {-1.0, 0.0, 1.0}
        with pytest.raises(IllegalActionError, match="the game is over"):
            match.play(NORTH, "hold")


def _other(seat: object) -> Seat:
    return SOUTH if seat == NORTH else NORTH


@pytest.mark.parametrize(
    ("who", "text", "error", "pattern"),
    [
        (
            "other",
            "roll",
            IllegalActionError,
            r"it is (north|south)'s turn, not (south|north)'s; cannot play 'roll'",
        ),
        ("nobody", "roll", IllegalActionError, r"unknown seat 'nobody' \(seats: north, south\)"),
        (
            "me",
            "spend gold",
            IllegalActionError,
            r"'spend gold' is not legal for \w+ in turn 1; legal: roll, hold",
        ),
        ("me", "teleport", NotationError, r"cannot parse 'teleport': unknown action"),
    ],
)
def test_rejected_plays_name_the_problem_and_change_nothing(
    match: Match, who: str, text: str, error: type[Exception], pattern: str
) -> None:
    seat = {"me": match.to_act(), "other": _other(match.to_act()), "nobody": "nobody"}[who]
    before = (match.state_hash(), match.log, match.chance.getstate())
    with pytest.raises(error, match=pattern):
        match.play(seat, text)  # type: ignore[arg-type]
    assert (match.state_hash(), match.log, match.chance.getstate()) == before


def test_a_failing_apply_rolls_back_state_chance_and_log(
    match: Match, monkeypatch: pytest.MonkeyPatch
) -> None:
    seat = match.to_act()
    before = (match.state_hash(), match.log, match.chance.getstate())

    def broken(self: object, outcome: str) -> None:
        raise RuntimeError("rule set bug")

    monkeypatch.setattr(type(match.state), "apply_chance", broken)
    with pytest.raises(RuntimeError, match="rule set bug"):
        match.play(seat, "roll")  # type: ignore[arg-type]
    assert (match.state_hash(), match.log, match.chance.getstate()) == before


def test_a_late_failure_is_undone_by_replaying_the_log(monkeypatch: pytest.MonkeyPatch) -> None:
    """Play changes the state in place; a failing play is undone by replaying the log from the
    match's last base copy (taken every ``BASE_SPAN`` entries), which gives the very same state."""
    monkeypatch.setattr(session, "BASE_SPAN", 5)  # Pig games are short
    match = Match(PIG, seed=4)
    for _ in steps(match, Rng(9), max_steps=1000):
        if match._base[1] > 0 and len(match.log) - match._base[1] >= 3:
            break
    assert match._base[1] > 0 and len(match.log) - match._base[1] >= 3  # a later base, entries to replay
    state = match.state
    seat = match.to_act()
    assert seat is not TERMINAL
    before = (match.state_hash(), match.log, match.chance.getstate())
    exported = state.to_json()
    original = type(state).apply
    calls = []

    def fails_once(self: object, action: Action) -> None:
        original(self, action)  # type: ignore[arg-type]
        if not calls:
            calls.append(action)
            raise RuntimeError("rule set bug")

    monkeypatch.setattr(type(state), "apply", fails_once)
    with pytest.raises(RuntimeError, match="rule set bug"):
        match.play(seat, match.decision().legal[0])  # type: ignore[union-attr]
    assert (match.state_hash(), match.log, match.chance.getstate()) == before
    assert match.state.to_json() == exported


def test_log_length_counts_the_log_without_copying_it(match: Match) -> None:
    for _ in steps(match, Rng(2), max_steps=6):
        assert match.log_length() == len(match.log) > 0


def test_clones_are_independent(match: Match) -> None:
    original = match.state
    copy = original.clone()
    assert copy.state_hash() == original.state_hash()
    copy.apply(Draw())
    copy.apply_chance("gold")
    assert copy.state_hash() != original.state_hash()
    assert original.to_json()["cup"]["gold"] == 1 and copy.to_json()["cup"]["gold"] == 0
    exported = original.to_json()
    exported["scores"]["north"] = 99
    assert original.to_json()["scores"]["north"] == 0


def test_checkpoint_and_rollback_restore_everything(match: Match) -> None:
    mark = match.checkpoint()
    before = (match.state_hash(), match.log, match.chance.getstate())
    for _ in steps(match, Rng(3), max_steps=15):
        pass
    assert match.state_hash() != before[0]
    match.rollback(mark)
    assert (match.state_hash(), match.log, match.chance.getstate()) == before


def test_options_are_checked(match: Match) -> None:
    with pytest.raises(UserInputError, match="unknown option"):
        Match(PIG, seed=1, options={"colour": "red"})
    with pytest.raises(UserInputError, match="plain JSON"):
        Match(PIG, seed=1, options={"target": object()})
    with pytest.raises(ValueError, match="seed"):
        Match(PIG, seed=-5)


_TEXTS = ["roll", "hold", "draw", "spend copper", "spend silver", "spend gold", "spend", "fly", "", "ROLL"]


@settings(max_examples=60, deadline=None)
@given(
    seed=st.integers(min_value=0, max_value=2**64 - 1),
    moves=st.lists(
        st.tuples(st.sampled_from(["north", "south", "east"]), st.sampled_from(_TEXTS)), max_size=60
    ),
)
def test_random_mixed_plays_never_corrupt_the_state(seed: int, moves: list[tuple[str, str]]) -> None:
    match = Match(PIG, seed=seed, options={"target": 15})
    shadow = PIG.new_state({"target": 15})  # rebuilt from the log with the trusting door
    for seat, text in moves:
        before = match.state_hash()
        try:
            match.play(seat, text)
        except UserInputError:
            assert match.state_hash() == before
        data = match.state.to_json()
        # Conservation: every chit is in the cup or in a hand.
        chits = sum(data["cup"].values()) + sum(len(h) for h in data["hands"].values())
        spent = sum(1 for e in match.log if isinstance(e, ActionEntry) and e.action.startswith("spend"))
        assert chits + spent == 6
        assert PIG.state_from_json(data).state_hash() == match.state_hash()
    for entry in match.log:
        if isinstance(entry, ChanceEvent):
            shadow.apply_chance(entry.outcome)
        else:
            action: Action = PIG.parse_action(entry.action)
            assert action in shadow.legal_actions()
            shadow.apply(action)
    assert shadow.state_hash() == match.state_hash()
