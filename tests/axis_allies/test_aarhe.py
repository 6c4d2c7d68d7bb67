"""Historical Edition variant: each choice in docs/decisions.md pinned by a test (S3 lines cited)."""

from __future__ import annotations

from fractions import Fraction

import pytest

from grandstrategy.axis_allies.battle import Battle
from grandstrategy.axis_allies.odds import battle_odds
from grandstrategy.axis_allies.rules import AarheProcedure, procedure_for
from grandstrategy.axis_allies.units import BattleSetupError


def proc(**kw: object) -> AarheProcedure:
    p = procedure_for(Battle.make("aarhe", {"inf": 1}, {"inf": 1}, **kw))  # type: ignore[arg-type]
    assert isinstance(p, AarheProcedure)
    return p


def fight(attacker: dict[str, int], defender: dict[str, int], **kw: object):  # type: ignore[no-untyped-def]
    return battle_odds(Battle.make("aarhe", attacker, defender, **kw))  # type: ignore[arg-type]


def test_id_removes_an_aircraft_on_search_1_then_attack_1_or_2() -> None:
    # S3:L244: search hits on 1, then 1 destroys and 2 forces a retreat; both take it out (AA-3)
    dice = proc()._opening(1, {"id": 3, "inf": 1}, {"ftr": 2, "inf": 1})
    assert ("aironly", 3, 2 / 36) in dice


def test_id_fires_every_cycle() -> None:
    # S3:L244: every cycle, unlike the Revised AA gun's single volley (AA-2)
    p = proc()
    assert p.phases(False) == [p._opening, p._main] == p.phases(True)


def test_dogfight_values_and_hits_on_aircraft_first() -> None:
    # S3:L218-220 (AA-4)
    dice = proc()._opening(0, {"ftr": 1, "bmr": 1}, {"ftr": 1})
    assert ("dogfight", 1, 2 / 6) in dice and ("dogfight", 1, 0.0) in dice
    groups = proc().kind_groups("dogfight", ["inf", "armart", "air"])
    assert groups[0] == frozenset({"air"}) and groups[1] == frozenset({"inf", "armart"})


def test_air_supremacy_selects_tanks_first_and_lifts_one_tank_per_fighter() -> None:
    # S3:L220 (AA-5, AA-6)
    p = proc()
    assert ("selective", 1, 3 / 6) in p._opening(0, {"ftr": 1}, {"inf": 2})
    assert ("land", 1, 4 / 6) in p._opening(0, {"bmr": 1}, {"inf": 2})
    main = p._main(0, {"ftr": 1, "arm": 2}, {"inf": 2})
    assert sorted(main) == sorted([("selective", 1, 4 / 6), ("selective", 1, 3 / 6)])
    assert p.kind_groups("selective", ["inf", "armart"])[0] == frozenset({"armart"})


def test_land_hits_never_strike_aircraft() -> None:
    # S3:L220: a lone infantry cannot touch a defending fighter; the fighter (4, supremacy) may kill it.
    # The defender has no land units, so it leaves after the cycle (AA-7).
    r = fight({"inf": 1}, {"ftr": 1})
    assert r.attacker_win == pytest.approx(1 / 3) and r.draw == pytest.approx(2 / 3)
    assert r.defender_survivors["ftr"] == pytest.approx(1.0)


def test_attacker_with_only_aircraft_fights_one_cycle_then_leaves() -> None:
    # AA-7: fighter at 3 against one infantry; whatever happens the attacker cannot stay
    r = fight({"ftr": 1}, {"inf": 1})
    assert r.draw == pytest.approx(0.5) and r.defender_win == pytest.approx(0.5)


def test_mountain_terrain() -> None:
    # S3:L224: -1, never below 1 (AA-8): 1 art (2->1) against 1 inf (2->1) is 1/6 against 1/6
    r = fight({"art": 1}, {"inf": 1}, terrain="mountain")
    p = Fraction(1, 6)
    win = p * (1 - p) / (1 - (1 - p) ** 2)
    assert r.attacker_win == pytest.approx(float(win), abs=1e-12)


def test_heavy_tank_takes_two_hits() -> None:
    # S3:L248
    r = fight({"harm": 1}, {"inf": 1})
    assert r.attacker_survivors["harm"] > fight({"arm": 1}, {"inf": 1}).attacker_survivors["arm"]


def test_sea_and_amphibious_rejected() -> None:
    with pytest.raises(BattleSetupError, match="not modelled"):
        procedure_for(Battle.make("aarhe", {"ftr": 1}, {"ftr": 1}, sea=True))
