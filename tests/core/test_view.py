"""Per-seat views: no seat ever sees the cup's contents or another seat's chits."""

from __future__ import annotations

import json

import pytest

from grandstrategy.core.chance import ChanceEvent
from grandstrategy.core.errors import UserInputError
from grandstrategy.core.ids import Seat
from grandstrategy.core.rng import Rng
from grandstrategy.core.session import Match
from grandstrategy.core.view import HIDDEN, log_view, view

from .playout import steps
from .toy_game import CHIT_VALUES, NORTH, PIG, SEATS, SOUTH


def _hand_views_ok(match: Match, seat: Seat | None) -> None:
    seen = match.view(seat)
    text = json.dumps(seen)
    data = match.state.to_json()
    assert "cup" not in seen["state"] and seen["state"]["cup_size"] == sum(data["cup"].values())
    assert "rng" not in text and match.chance.getstate()["rng"] not in text
    for other in SEATS:
        shown = seen["state"]["hands"][other]
        if other == seat:
            assert shown == data["hands"][other]
        else:
            assert shown == len(data["hands"][other])
    if seat is None or all(not data["hands"][s] for s in SEATS if s != seat):
        mine = data["hands"][seat] if seat is not None else []
        # No chit name appears anywhere except for the viewer's own chits.
        assert all(chit not in text or chit in mine for chit in CHIT_VALUES)


def test_views_hide_the_cup_and_other_hands_in_random_playouts() -> None:
    checked = 0
    for seed in range(30):
        match = Match(PIG, seed=seed, options={"target": 25})
        for m in steps(match, Rng(seed + 7)):
            for seat in (NORTH, SOUTH, None):
                _hand_views_ok(m, seat)
                checked += 1
    assert checked > 1000


def test_log_views_hide_other_seats_private_draws() -> None:
    for seed in range(20):
        match = Match(PIG, seed=seed)
        for _ in steps(match, Rng(seed)):
            pass
        draws = [e for e in match.log if isinstance(e, ChanceEvent) and e.kind == "draw"]
        assert draws, "the playout should draw chits"
        for seat in (NORTH, SOUTH, None):
            shown = [e for e in log_view(match.log, seat) if e.get("kind") == "draw"]
            for event, data in zip(draws, shown, strict=True):
                assert data["outcome"] == (event.outcome if event.private_to == seat else HIDDEN)
        public = [e for e in match.log_view(None) if e.get("kind") == "die"]
        assert all(e["outcome"] != HIDDEN for e in public)


def test_view_envelope_and_unknown_seat() -> None:
    match = Match(PIG, seed=1)
    seen = view(match.state, NORTH)
    assert seen["seat"] == NORTH and seen["to_act"] == match.to_act() and seen["terminal"] is False
    assert seen["phase"] == "turn 1"
    with pytest.raises(UserInputError, match=r"unknown seat 'east' \(seats: north, south\)"):
        view(match.state, Seat("east"))
