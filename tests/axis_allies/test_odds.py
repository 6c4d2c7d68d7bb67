"""Battle odds: hand-checked cases, solver agreement, and exact answers against a seeded simulation."""

from __future__ import annotations

import math
from fractions import Fraction

import pytest

from grandstrategy.axis_allies.battle import Battle
from grandstrategy.axis_allies.odds import (
    Context,
    _propagate,
    _step,
    battle_odds,
    exact_distribution,
    hit_pmf,
)

TOL = 1e-12


def fight(attacker: dict[str, int], defender: dict[str, int], rules: str = "revised", **kw: object):  # type: ignore[no-untyped-def]
    return battle_odds(Battle.make(rules, attacker, defender, **kw))  # type: ignore[arg-type]


def check(result, win: Fraction, loss: Fraction, draw: Fraction) -> None:  # type: ignore[no-untyped-def]
    assert result.method == "exact"
    assert abs(result.attacker_win - float(win)) < TOL
    assert abs(result.defender_win - float(loss)) < TOL
    assert abs(result.draw - float(draw)) < TOL


def test_one_infantry_each() -> None:
    # attacker hits 1/6, defender 2/6: win (1/6)(4/6)/(1-(5/6)(4/6)) = 1/4, loss 5/8, both die 1/8
    check(fight({"inf": 1}, {"inf": 1}), Fraction(1, 4), Fraction(5, 8), Fraction(1, 8))


def test_tank_against_infantry() -> None:
    # 1/2 against 1/3: (1/3)/(2/3), (1/6)/(2/3), (1/6)/(2/3)
    check(fight({"arm": 1}, {"inf": 1}), Fraction(1, 2), Fraction(1, 4), Fraction(1, 4))


def test_two_infantry_against_one() -> None:
    # from (2,1): no hit either side 25/54; attacker scores (11/36) and defender misses -> 22/58,
    # both score -> 11/58, only defender scores -> (1,1) with 25/58, which is the 1 v 1 case
    win = Fraction(22, 58) + Fraction(11, 58) + Fraction(25, 58) * Fraction(1, 4)
    loss = Fraction(25, 58) * Fraction(5, 8)
    draw = Fraction(25, 58) * Fraction(1, 8)
    assert win + loss + draw == 1
    check(fight({"inf": 2}, {"inf": 1}), win, loss, draw)


def test_artillery_supports_one_infantry() -> None:
    # both attackers hit on 2; defender's hit takes the infantry first, leaving 1 art v 1 inf
    win = Fraction(15, 19) + Fraction(4, 19) * Fraction(2, 5)
    check(
        fight({"inf": 1, "art": 1}, {"inf": 1}),
        win,
        Fraction(4, 19) * Fraction(2, 5),
        Fraction(4, 19) * Fraction(1, 5),
    )


def test_aa_gun_fires_once_before_combat() -> None:
    # 1/6 the fighter is shot down; otherwise fighter (3) against infantry (2) as the tank case
    result = fight({"ftr": 1}, {"inf": 1, "aa": 1})
    check(
        result,
        Fraction(5, 6) * Fraction(1, 2),
        Fraction(1, 6) + Fraction(5, 6) * Fraction(1, 4),
        Fraction(5, 24),
    )
    assert "aa" not in result.defender_survivors  # never a casualty, not counted in TUV


def test_aa_gun_alone_still_fires() -> None:
    result = fight({"inf": 1, "ftr": 1}, {"aa": 1})
    assert result.attacker_win == pytest.approx(1.0)
    assert result.attacker_survivors["ftr"] == pytest.approx(5 / 6)


def test_submarine_surprise_strike() -> None:
    # sub fires first (1/3) and its victim never fires back; else the transport (1/6)
    win = Fraction(1, 3) / (1 - Fraction(2, 3) * Fraction(5, 6))
    check(fight({"sub": 1}, {"trn": 1}, sea=True), win, 1 - win, Fraction(0))


def test_destroyer_cancels_surprise_strike() -> None:
    # with a destroyer present both fire together: 1/3 against 1/2
    r = fight({"sub": 1}, {"dd": 1}, sea=True)
    check(
        r, Fraction(1, 6) / Fraction(2, 3), Fraction(2, 6) / Fraction(2, 3), Fraction(1, 6) / Fraction(2, 3)
    )


def test_subs_cannot_hit_aircraft_and_planes_need_a_destroyer() -> None:
    r = fight({"sub": 2}, {"ftr": 2}, sea=True)
    assert r.undecided == pytest.approx(1.0)  # nobody can hurt anybody: a stalemate, not a draw
    r = fight({"sub": 1}, {"ftr": 1, "dd": 1}, sea=True)
    assert r.attacker_survivors["sub"] < 1.0


def test_battleship_takes_two_hits() -> None:
    # 1 bb (4) against 1 trn (1). A stage ends when anybody scores. Stage 1 (bb whole): the
    # transport alone scores with (1/6)(1/3)/(13/18) = 1/13. Stage 2 (bb damaged): the transport
    # sinks it whenever it scores, alone or together with the battleship: (1/6)/(13/18) = 3/13.
    r = fight({"bb": 1}, {"trn": 1}, sea=True)
    assert r.attacker_survivors["bb"] == pytest.approx(float(1 - Fraction(1, 13) * Fraction(3, 13)), abs=TOL)
    assert r.draw == pytest.approx(
        float(Fraction(1, 13) * Fraction(4, 6) / Fraction(13, 18) * Fraction(1, 6)), abs=TOL
    )


def test_bombardment_in_first_round_only() -> None:
    base = fight({"inf": 1}, {"inf": 1})
    bomb = fight({"inf": 1}, {"inf": 1}, bombard={"bb": 1})
    assert bomb.attacker_win > base.attacker_win
    assert "bb" not in bomb.attacker_survivors


def test_heavy_bombers_revised_two_dice_lhtr_best_of_two() -> None:
    rev = fight({"hbmr": 1}, {"inf": 2})
    lhtr = fight({"hbmr": 1}, {"inf": 2}, rules="lhtr")
    assert rev.attacker_win > lhtr.attacker_win  # two counting dice beat the better of two
    # LHTR against one infantry: hit chance 8/9 against 1/3
    one = fight({"hbmr": 1}, {"inf": 1}, rules="lhtr")
    p, q = Fraction(8, 9), Fraction(1, 3)
    check(
        one,
        p * (1 - q) / (1 - (1 - p) * (1 - q)),
        q * (1 - p) / (1 - (1 - p) * (1 - q)),
        p * q / (1 - (1 - p) * (1 - q)),
    )


def test_retreat_after_rounds_is_undecided() -> None:
    r = fight({"inf": 1}, {"inf": 1}, retreat_after=1)
    check(
        r, Fraction(1, 6) * Fraction(4, 6), Fraction(5, 6) * Fraction(2, 6), Fraction(1, 6) * Fraction(2, 6)
    )
    assert r.undecided == pytest.approx(float(Fraction(5, 6) * Fraction(4, 6)))


def test_order_of_loss_override() -> None:
    cheap_first = fight({"inf": 2, "arm": 1}, {"inf": 3})
    tank_first = fight({"inf": 2, "arm": 1}, {"inf": 3}, order=("arm", "inf"))
    assert tank_first.attacker_win < cheap_first.attacker_win


def test_empty_defender_is_a_walkover() -> None:
    r = fight({"inf": 1}, {})
    assert r.attacker_win == 1.0 and r.attacker_tuv_lost == 0.0


def test_probabilities_sum_to_one_and_tuv() -> None:
    r = fight({"inf": 8, "art": 4, "arm": 5, "ftr": 2, "bmr": 1}, {"inf": 12, "arm": 4, "ftr": 4})
    assert r.attacker_win + r.defender_win + r.draw + r.undecided == pytest.approx(1.0, abs=1e-12)
    assert sum(p for _, p in r.attacker_remaining) == pytest.approx(1.0, abs=1e-12)
    assert 0 < r.attacker_tuv_lost <= 8 * 3 + 4 * 4 + 5 * 5 + 20 + 15
    assert r.tuv_swing == pytest.approx(r.defender_tuv_lost - r.attacker_tuv_lost)


def test_hit_pmf_folds_the_tail() -> None:
    pmf = hit_pmf([(3, 0.5)], 2)
    assert pmf == pytest.approx([0.125, 0.375, 0.5])


@pytest.mark.parametrize(
    ("attacker", "defender", "kw"),
    [
        ({"inf": 8, "art": 4, "arm": 5, "ftr": 2, "bmr": 1}, {"inf": 12, "arm": 4, "ftr": 4}, {}),
        ({"inf": 3, "art": 1, "arm": 2, "ftr": 2, "bmr": 1}, {"inf": 4, "ftr": 1, "aa": 1}, {}),
        ({"inf": 3, "arm": 2}, {"inf": 3, "art": 1}, {"bombard": {"bb": 2}}),
        ({"bb": 1, "dd": 2, "ftr": 2}, {"cv": 1, "ftr": 2, "trn": 1, "dd": 1}, {"sea": True}),
    ],
)
def test_linear_solver_matches_general_solver(attacker, defender, kw) -> None:  # type: ignore[no-untyped-def]
    ctx = Context(Battle.make("revised", attacker, defender, **kw))
    fast = exact_distribution(ctx)
    terminal: dict = {}  # type: ignore[type-arg]
    slow = _propagate(ctx, _step(ctx, {ctx.start: 1.0}, True, terminal))
    for pair, p in terminal.items():
        slow[pair] += p
    for pair in set(fast) | set(slow):
        assert fast.get(pair, 0.0) == pytest.approx(slow.get(pair, 0.0), abs=1e-12)


# exact against a 200,000-trial seeded simulation, within four standard errors on every outcome
SIM_CASES = [
    ("revised", {"inf": 3, "art": 1, "arm": 2, "ftr": 1}, {"inf": 4, "ftr": 1, "aa": 1}, {}),
    ("revised", {"inf": 8, "art": 4, "arm": 5, "ftr": 2, "bmr": 1}, {"inf": 12, "arm": 4, "ftr": 4}, {}),
    ("revised", {"inf": 2, "arm": 2}, {"inf": 3}, {"bombard": {"bb": 1}}),
    ("revised", {"inf": 6, "arm": 3}, {"inf": 6, "arm": 1}, {"retreat_after": 2}),
    ("revised", {"sub": 3, "dd": 1, "ftr": 2}, {"sub": 2, "trn": 2, "cv": 1, "ftr": 2}, {"sea": True}),
    ("revised", {"sub": 2, "bb": 1}, {"dd": 1, "sub": 1, "bb": 1}, {"sea": True}),
    ("revised", {"bb": 2, "dd": 1, "ftr": 1, "bmr": 1}, {"cv": 2, "ftr": 3, "trn": 2}, {"sea": True}),
    ("lhtr", {"inf": 2, "hbmr": 2}, {"inf": 4, "aa": 1}, {}),
    ("lhtr", {"inf": 5, "art": 2, "arm": 1}, {"inf": 4, "art": 1, "arm": 1}, {"order": ("art", "inf")}),
    ("aarhe", {"inf": 4, "arm": 2, "ftr": 2}, {"inf": 5, "art": 1, "ftr": 1, "id": 2}, {}),
    ("aarhe", {"inf": 4, "harm": 1, "bmr": 1}, {"inf": 5, "arm": 2}, {"terrain": "mountain"}),
    ("aarhe", {"inf": 3, "art": 2, "ftr": 1, "div": 1}, {"inf": 4, "arm": 1, "id": 1}, {}),
]


@pytest.mark.parametrize(("rules", "attacker", "defender", "kw"), SIM_CASES)
def test_exact_agrees_with_simulation(rules, attacker, defender, kw) -> None:  # type: ignore[no-untyped-def]
    battle = Battle.make(rules, attacker, defender, **kw)
    exact = battle_odds(battle, method="exact")
    trials = 200_000
    sim = battle_odds(battle, method="monte-carlo", trials=trials, seed=20240607)
    assert sim.method == "monte-carlo"
    for key in ("attacker_win", "defender_win", "draw", "undecided"):
        p = getattr(exact, key)
        se = math.sqrt(p * (1 - p) / trials) + 1 / trials
        assert abs(getattr(sim, key) - p) <= 4 * se, key
    for key in ("attacker_tuv_lost", "defender_tuv_lost"):
        assert abs(getattr(sim, key) - getattr(exact, key)) <= 4 * sim.standard_errors[key] + 1e-9, key


def test_simulation_is_seeded_and_deterministic() -> None:
    battle = Battle.make("revised", {"inf": 3, "arm": 1}, {"inf": 3})
    a = battle_odds(battle, method="monte-carlo", trials=5000, seed=3)
    b = battle_odds(battle, method="monte-carlo", trials=5000, seed=3)
    assert a.attacker_win == b.attacker_win and a.attacker_survivors == b.attacker_survivors


def test_size_guard_switches_to_monte_carlo(monkeypatch: pytest.MonkeyPatch) -> None:
    import grandstrategy.axis_allies.odds as odds

    monkeypatch.setattr(odds, "LINEAR_LIMIT", 10)
    r = fight({"inf": 5}, {"inf": 5})
    assert r.method == "monte-carlo" and "size guard" in r.note and r.standard_errors


def test_odds_do_not_depend_on_the_hash_seed() -> None:
    """AA fire at fighters and at bombers are two hit kinds the procedure does not order; they are
    taken by name, never in a set's order, so every process gets the same floats (exact) and the
    same draws (Monte Carlo), which the bots' choices and so whole games depend on."""
    import os
    import subprocess
    import sys

    script = (
        "from grandstrategy.axis_allies.battle import Battle\n"
        "from grandstrategy.axis_allies.odds import battle_odds\n"
        "b = Battle.make('revised', {'inf': 2, 'arm': 1, 'ftr': 2, 'bmr': 1}, {'inf': 3, 'aa': 1})\n"
        "exact = battle_odds(b)\n"
        "sampled = battle_odds(b, trials=500, seed=3, method='monte-carlo')\n"
        "print(repr((exact.attacker_win, exact.draw, sampled.attacker_win, sampled.draw)))\n"
    )
    seen = set()
    for hash_seed in ("0", "1", "2", "3"):
        env = {**os.environ, "PYTHONHASHSEED": hash_seed}
        run = subprocess.run(
            [sys.executable, "-c", script], env=env, capture_output=True, text=True, check=True
        )
        seen.add(run.stdout.strip())
    assert len(seen) == 1, seen
