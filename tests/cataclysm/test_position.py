"""The position views (cataclysm/position.py): a power's facts, an area, the cup, and their secrets."""

from __future__ import annotations

import json

import pytest

from grandstrategy.cataclysm.engine import CataclysmGame
from grandstrategy.cataclysm.engine.atomic import AVAILABLE, READY
from grandstrategy.cataclysm.markers import MARKERS, describe_marker, describe_posture
from grandstrategy.cataclysm.module import load_module
from grandstrategy.cataclysm.module.schema import ResourceKind
from grandstrategy.cataclysm.position import area_view, cup_view, power_position, resolve_power, score_view
from grandstrategy.cataclysm.rules.control import victory_points
from grandstrategy.cataclysm.rules.special import LEND_LEASE_IN_PLAY, TSR_IN_PLAY
from grandstrategy.cataclysm.state import new_state
from grandstrategy.core.errors import UserInputError

MODULE = load_module()


def game(scenario: str = "campaign-1933") -> CataclysmGame:
    return CataclysmGame(MODULE, new_state(MODULE, scenario))


def succeed(g: CataclysmGame, power: str, action: str) -> None:
    """Resolve a political action as if its check succeeded (as tests/cataclysm/test_special_rules.py)."""
    g.push("political-result", power=power, action=action, target="", success=True, dice=[6])
    g.run()


def test_germanys_areas_and_resources_are_the_scenarios() -> None:
    g = game()
    view = power_position(g, "germany", viewer_seats={"germany"})
    scenario = MODULE.scenarios["campaign-1933"]
    expected = {a for a in MODULE.in_play(scenario) if MODULE.controller(scenario, a) == "germany"}
    assert {held.id for held in view.areas} == expected
    assert expected == {"berlin", "ruhr", "bavaria", "silesia", "east-prussia"}
    printed = sum(
        1
        for a in expected
        for r in MODULE.area(a).resources
        if not r.limited and r.kind is not ResourceKind.SOVIET_SPECIAL
    )
    assert sum(len(held.resources) for held in view.areas) == printed == 2
    by_id = {held.id: held for held in view.areas}
    assert by_id["berlin"].capital and by_id["berlin"].status == "home"
    assert by_id["ruhr"].denied  # the Rhineland marker denies the Ruhr (LR 12.1.1)
    assert view.production.collectable == 1 and view.production.collect_from == ["Berlin"]
    assert view.vp == victory_points(MODULE, g.state, "germany")
    assert view.yours and view.commitment == "civilian" and view.effectiveness == 3


def test_force_pool_and_flags_are_the_status_card() -> None:
    g = game()
    line = g.state.powers["germany"]
    view = power_position(g, "germany")
    assert view.force_pool.counters == {k: n for k, n in line.force_pool.items() if n > 0}
    assert view.force_pool.counters == {"air": 1, "army": 1, "fleet": 1, "submarine": 1}
    assert view.force_pool.limit == MODULE.powers["germany"].status_card[line.commitment].force_pool == 6
    assert view.force_pool.in_play == 2  # the two armies on the map
    assert view.force_pool.room == 0
    assert {b.item for b in view.production.may_buy} == {
        "tactical-air",
        "infantry-army",
        "surface-fleet",
        "submarine-pack",
    }
    fleet = next(b for b in view.production.may_buy if b.item == "surface-fleet")
    assert fleet.cost == 2 and fleet.next_turn  # LR 4.6
    assert view.flags.available == line.available_flags
    assert view.flags.in_reserve == 1 and view.production.reserve == "Germany flag"
    assert view.flags.in_cup == g.state.cup.count("flag:germany") == 1


def test_markers_are_named_in_words_with_their_rule() -> None:
    g = game()
    japan = power_position(g, "japan")
    wnt = next(m for m in japan.markers if m.id == "wnt")
    assert wnt.name == "Washington Naval Treaty in force" and wnt.rule == "LR 12.1.3"
    assert "force pools take no new fleets" in wnt.meaning
    assert "wnt" in {m.id for m in power_position(g, "united-kingdom").markers}
    assert "wnt" not in {m.id for m in power_position(g, "germany").markers}
    soviet = power_position(g, "soviet-union")
    assert soviet.posture is not None and soviet.posture.name == "Posture: Military Reforms"
    assert describe_posture("collective-security").rule == "LR 12.3"
    assert power_position(g, "united-kingdom").force_pool.fleets_barred  # WNT (LR 12.1.3)


def test_every_marker_the_state_can_hold_has_a_meaning() -> None:
    """Scenario markers, every power's special markers and the ones the engine adds."""
    ids = {m for s in MODULE.scenarios.values() for m in s.markers}
    ids |= {m.id for p in MODULE.powers.values() for m in p.special_markers}
    ids |= {TSR_IN_PLAY, LEND_LEASE_IN_PLAY, AVAILABLE, READY}
    missing = sorted(i for i in ids if i not in MARKERS)
    assert not missing
    for marker in ids:
        assert describe_marker(marker).rule.startswith("LR 12")
    losses = describe_marker("a-bomb-losses:japan:2")
    assert losses.powers == ("japan",) and "2 loss" in losses.meaning


def test_the_view_follows_a_move() -> None:
    """Germany remilitarizes the Rhineland (LR 12.1.1): the Ruhr is no longer denied and its limited
    resource appears; the marker leaves Germany's list; France, provoked, is deciding."""
    g = game()
    succeed(g, "germany", "rhineland")
    view = power_position(g, "germany")
    ruhr = next(held for held in view.areas if held.id == "ruhr")
    assert not ruhr.denied and ruhr.resources == ["industrial", "limited: Ruhr"]
    assert "rhineland" not in {m.id for m in view.markers}
    assert view.production.collectable == 3  # Berlin, and the Ruhr's printed and limited resources
    assert power_position(g, "france").deciding is not None
    fresh = game()
    assert power_position(fresh, "italy").cubes_on_map == {}
    succeed(fresh, "italy", "abyssinian-adventure")
    italy = power_position(fresh, "italy")
    assert italy.cubes_on_map == {"Rome": 1}
    assert "abyssinian-adventure" not in {m.id for m in italy.markers}


def test_another_powers_view_shows_what_its_owner_sees_and_the_cup_only_as_counts() -> None:
    """LR 1.4: all is open but the cup. Another viewer differs only in ``yours``; a cup in another
    order, or with other unit types of the same counts, changes nothing."""
    g = game("europe-1939")
    own = power_position(g, "france", viewer_seats={"france"}).to_json()
    other = power_position(g, "france", viewer_seats={"germany"}).to_json()
    assert own.pop("yours") is True and other.pop("yours") is False
    assert own == other
    g.state.powers["germany"].force_pool["army"] -= 1  # Germany built an army: it is in the cup
    g.state.cup = sorted([*g.state.cup, "unit:germany:infantry-army"])
    shuffled = g.clone()
    shuffled.state.cup.reverse()
    at = shuffled.state.cup.index("unit:germany:infantry-army")
    shuffled.state.cup[at] = "unit:germany:tank-army"  # the same counter, the other side
    for p in g.state.powers:
        assert power_position(g, p).to_json() == power_position(shuffled, p).to_json()
    assert cup_view(g).to_json() == cup_view(shuffled).to_json()
    germany = power_position(g, "germany")
    assert germany.cup["unit"] == 1
    assert germany.force_pool.in_play == power_position(game("europe-1939"), "germany").force_pool.in_play + 1
    text = json.dumps([cup_view(g).to_json(), germany.cup])
    assert "infantry-army" not in text and "tank" not in text


def test_cup_view_counts_by_power_and_kind() -> None:
    g = game()
    view = cup_view(g)
    assert view.total == len(g.state.cup) == 20
    assert view.neutral == {"crisis": 4, "civil war resolution": 1}
    assert view.by_power["Japan"] == {"flag": 1, "home front": 1, "offensive": 1}
    assert sum(n for held in view.by_power.values() for n in held.values()) + 5 == view.total
    assert view.reserves == {"Germany": "Germany flag"}
    json.dumps(view.to_json())


def test_score_view_applies_the_winner_test_lr_1_7_2() -> None:
    """1933: the Democracies' 6 VP beat Fascism and Communism together (1 + 1), with 3 VP to spare;
    1939: Communism scores 0, so the sum rule is off and the 3-3 tie goes to Fascism."""
    start = score_view(game()).to_json()
    assert start["winner"] == "democracy" and start["sum_rule"] is True
    by_ideology = {s["ideology"]: s for s in start["standings"]}
    assert by_ideology["democracy"]["powers"] == {"France": 4, "United Kingdom": 2, "United States": 0}
    assert (by_ideology["democracy"]["vp"], by_ideology["democracy"]["margin"]) == (6, 4)
    assert by_ideology["fascism"]["margin"] == -3  # 4 more: at 5 + 1 the Democracies' 6 is not more
    assert by_ideology["communism"]["margin"] == -3
    europe = score_view(game("europe-1939"))
    assert europe.winner == "fascism" and europe.sum_rule is False
    assert [(s.ideology, s.vp, s.wins_now, s.margin) for s in europe.standings] == [
        ("democracy", 3, False, 0),  # one more VP breaks the tie
        ("fascism", 3, True, 1),
        ("communism", 0, False, -2),  # at 3 the tie with Fascism is Communism's
    ]


def test_area_view_and_name_lookup() -> None:
    g = game()
    view = area_view(g, "  MANCHURIA ")
    assert view.controller == "Japan" and view.cubes == {"Japan": 1}
    assert view.units[0][0] == "Japan" and view.units[0][1][0].name == "infantry army"
    assert "Korea" in {n.name for n in view.neighbors}
    ruhr = area_view(g, "ruhr")
    assert ruhr.owner == "Germany" and ruhr.resources == ["industrial"]
    json.dumps(view.to_json())
    with pytest.raises(UserInputError, match="did you mean Manchuria"):
        area_view(g, "manchuira")
    assert resolve_power(g, "Soviet Union") == resolve_power(g, "soviet-union") == "soviet-union"
    with pytest.raises(UserInputError, match="did you mean France"):
        resolve_power(g, "frnace")
