"""The deployment menu's short search (LR 8.4): ``deployment_movers`` names exactly the units for which
``deployment_destinations`` lists an area outside those denied, in states met in seeded games."""

from __future__ import annotations

import pytest

from grandstrategy.cataclysm.engine import CATACLYSM
from grandstrategy.cataclysm.engine.game import CataclysmGame
from grandstrategy.cataclysm.module import load_module
from grandstrategy.cataclysm.rules.frozen import frozen
from grandstrategy.cataclysm.rules.movement import deployment_destinations, deployment_map, deployment_movers
from grandstrategy.cataclysm.rules.snapshot import snapshot
from grandstrategy.cataclysm.state import CataclysmState, Unit, new_state
from grandstrategy.core.rng import Rng
from grandstrategy.core.session import Match

MODULE = load_module()


def _expected(state: CataclysmState, power: str, *, played: bool, denied: set[str]) -> list[int]:
    units = [u for u in state.units if u.power == power]
    return [u.id for u in units if set(deployment_destinations(MODULE, state, u, played=played)) - denied]


def _check_every_power(state: CataclysmState) -> int:
    """Compare both answers for every power, frozen (as the engine asks) and not; the movers found."""
    found = 0
    for power in MODULE.powers:
        units = [u for u in state.units if u.power == power]
        for played in (False, True):
            expected = _expected(state, power, played=played, denied=set())
            assert deployment_movers(MODULE, state, units, played=played) == expected
            with frozen(state):
                assert deployment_movers(MODULE, state, units, played=played) == expected
            found += len(expected)
    return found


@pytest.mark.parametrize("scenario", ["campaign-1933", "europe-1939"])
def test_movers_are_the_units_with_a_destination_at_the_start(scenario: str) -> None:
    assert _check_every_power(new_state(MODULE, scenario)) > 0


def test_movers_match_the_destinations_through_a_random_game() -> None:
    """States of a seeded random game (units moved, wars declared, areas changing hands)."""
    match = Match(CATACLYSM, seed=3, options={"scenario": "europe-1939"})
    chooser = Rng(1003)
    checked = 0
    for ply in range(900):
        decision = match.decision()
        if decision is None:
            break
        match.play(decision.seat, decision.legal[chooser.below(len(decision.legal))])
        if ply % 45 == 0:
            game = match.state
            assert isinstance(game, CataclysmGame)
            checked += _check_every_power(game.state) > 0
    assert checked >= 10


def test_denied_areas_take_a_unit_off_the_menu_only_when_they_are_all_it_has() -> None:
    state = new_state(MODULE, "europe-1939")
    unit = next(u for u in state.units if len(deployment_destinations(MODULE, state, u)) >= 2)
    places = deployment_destinations(MODULE, state, unit)
    assert deployment_movers(MODULE, state, [unit], denied={unit.power: places}) == []
    assert deployment_movers(MODULE, state, [unit], denied={unit.power: places[1:]}) == [unit.id]
    assert deployment_movers(MODULE, state, [unit], denied={"no-such-power": places}) == [unit.id]


def test_first_only_stops_at_the_first_unit_that_can_move() -> None:
    state = new_state(MODULE, "europe-1939")
    power = "germany"
    units = [u for u in state.units if u.power == power]
    every = deployment_movers(MODULE, state, units)
    assert len(every) >= 2
    assert deployment_movers(MODULE, state, units, first_only=True) == every[:1]


def test_any_unit_that_could_deploy_outside_its_denied_areas_makes_a_deployment_possible(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """LR 8.4, 12.1.1: a deployment is possible when any unit may end one outside the areas denied
    to it, not only the first unit found. Here every area the Berlin army could reach is denied,
    the East Prussian army may still go to Berlin."""
    from tests.cataclysm.test_operations import setup

    from grandstrategy.cataclysm.engine import military

    game = setup(
        "campaign-1933",
        [("germany", "infantry-army", "berlin"), ("germany", "infantry-army", "east-prussia")],
        [],
    )
    first = deployment_map(game.module, game.state, game.state.units[:1])[1]
    assert "berlin" not in first
    monkeypatch.setattr(military, "denied_areas", lambda state, power: set(first))
    assert military._deployable(game, "germany", None)
    assert not military._deployable(game, "germany", [1])  # the Berlin army alone cannot


def _forget_reaches(state: CataclysmState) -> None:
    """Drop the whole reaches the position remembers, so that the next question searches again."""
    shared = snapshot(MODULE, state).shared_sets()
    for key in [k for k in shared if k[0] == "deployment"]:
        del shared[key]


def test_movers_asked_first_match_the_destinations_through_a_random_game() -> None:
    """The menu's search stops at the first place a unit may end and remembers it for the next
    states of the position; asked before the full lists (as the engine asks), through a seeded
    random game, it still names exactly the units with a destination."""
    match = Match(CATACLYSM, seed=5, options={"scenario": "campaign-1933"})
    chooser = Rng(1005)
    checked = 0
    for ply in range(700):
        decision = match.decision()
        if decision is None:
            break
        match.play(decision.seat, decision.legal[chooser.below(len(decision.legal))])
        if ply % 20 == 0:
            game = match.state
            assert isinstance(game, CataclysmGame)
            state = game.state
            _forget_reaches(state)
            by_power = {p: [u for u in state.units if u.power == p] for p in MODULE.powers}
            with frozen(state):
                asked = {p: deployment_movers(MODULE, state, units) for p, units in by_power.items()}
            for power in MODULE.powers:
                assert asked[power] == _expected(state, power, played=False, denied=set())
                checked += 1
    assert checked >= 100


def test_a_remembered_stop_is_asked_again_in_the_next_state() -> None:
    """LR 7.1, 8.4: the place where the last search stopped is tried first in a state of the same
    position, but only if the unit may still end there: here an unfriendly unit has come into it,
    and with every other place denied the army cannot move."""
    from tests.cataclysm.test_operations import setup

    game = setup("campaign-1933", [("germany", "infantry-army", "berlin")], [])
    state = game.state
    army = state.units[0]
    places = deployment_destinations(MODULE, state, army)
    assert len(places) >= 2
    _forget_reaches(state)
    assert deployment_movers(MODULE, state, [army]) == [army.id]
    stops = [
        k
        for k in snapshot(MODULE, state).shared_sets()
        if k[:4] == ("deployment-stop", "germany", "land", "berlin")
    ]
    assert len(stops) == 1
    (where,) = snapshot(MODULE, state).shared_sets()[stops[0]]
    assert where in places
    others = {"germany": set(places) - {where}}
    blocked = state.clone()
    blocked.units.append(Unit(2, "soviet-union", "infantry-army", where))
    assert deployment_movers(MODULE, blocked, [army], denied=others) == []
    assert deployment_movers(MODULE, state, [army], denied=others) == [army.id]
