"""The fast exact solvers against the plain ones they replace, and the caches kept across calls.

The dense general solver (numpy over whole levels of pairs) must give the distribution of the
pure-Python propagation it replaced; the batched linear DP that of the row-by-row DP; a battle
solved with warm caches (side profiles shared with other battles) the same as from nothing.
"""

from __future__ import annotations

import numpy as np
import pytest

from grandstrategy.axis_allies.battle import Battle
from grandstrategy.axis_allies.odds import (
    Context,
    _linear_dp,
    _linear_dp_rows,
    _propagate,
    _propagate_dense,
    _triangular_inverse,
    battle_odds,
    clear_caches,
)
from grandstrategy.axis_allies.rules import procedure_for

SEA_BATTLES = [
    ("revised", {"sub": 2, "ftr": 2, "bb": 1, "bmr": 1}, {"bb": 2, "ftr": 3}),
    ("revised", {"sub": 4, "ftr": 3, "bb": 2, "bmr": 1}, {"bb": 3, "ftr": 4}),
    ("revised", {"sub": 4, "ftr": 2, "bb": 2}, {"sub": 3, "bb": 2, "ftr": 2}),
    ("revised", {"sub": 3, "dd": 2, "ftr": 2}, {"sub": 2, "dd": 1, "bb": 1}),
    ("revised", {"sub": 3, "trn": 2, "dd": 1}, {"sub": 2, "ftr": 1, "cv": 1}),
    ("revised", {"sub": 2, "ftr": 2}, {"sub": 1, "dd": 1, "trn": 1}),
    ("revised", {"ftr": 2}, {"sub": 2}),  # nobody can hurt anybody: a stall
    ("lhtr", {"sub": 2, "ftr": 2, "bb": 1, "hbmr": 1}, {"bb": 2, "ftr": 3}),
]


def _close(a: dict, b: dict, tol: float = 1e-13) -> bool:  # type: ignore[type-arg]
    return all(abs(a.get(k, 0.0) - b.get(k, 0.0)) < tol for k in set(a) | set(b))


@pytest.mark.parametrize(("rules", "attacker", "defender"), SEA_BATTLES)
def test_dense_general_solver_matches_the_plain_propagation(rules, attacker, defender) -> None:  # type: ignore[no-untyped-def]
    ctx = Context(Battle.make(rules, attacker, defender, sea=True))
    dense = _propagate_dense(ctx, {ctx.start: 1.0})
    plain = _propagate(ctx, {ctx.start: 1.0})
    assert dense is not None
    assert {k for k, v in plain.items() if v > 1e-15} <= set(dense)
    assert _close(dense, dict(plain))
    assert sum(dense.values()) == pytest.approx(1.0, abs=1e-12)


def test_dense_general_solver_on_the_variant_land_cycle() -> None:
    battle = Battle.make("aarhe", {"inf": 4, "art": 2, "harm": 1, "ftr": 2}, {"inf": 5, "hart": 1, "nav": 1})
    ctx = Context(battle)
    dense = _propagate_dense(ctx, {ctx.start: 1.0})
    assert dense is not None
    assert _close(dense, dict(_propagate(ctx, {ctx.start: 1.0})))


def test_dense_general_solver_hands_big_battles_over() -> None:
    ctx = Context(
        Battle.make(
            "revised", {"sub": 12, "ftr": 8, "bmr": 6, "bb": 6}, {"sub": 10, "ftr": 10, "bb": 8}, sea=True
        )
    )
    assert _propagate_dense(ctx, {ctx.start: 1.0}) is None


def _chain_tables(ctx: Context) -> tuple[np.ndarray, np.ndarray]:  # type: ignore[type-arg]
    from grandstrategy.axis_allies.odds import _Chains

    chains = (_Chains(ctx, 0), _Chains(ctx, 1))
    ca, _ = chains[0].locate(ctx.start[0])
    cd, _ = chains[1].locate(ctx.start[1])
    la, ld = len(chains[0].chains[ca]) - 1, len(chains[1].chains[cd]) - 1
    enemy = (ctx.sides[1].counts(ctx.start[1]), ctx.sides[0].counts(ctx.start[0]))
    return chains[0].tails(ca, enemy[0], ld), chains[1].tails(cd, enemy[1], la)


@pytest.mark.parametrize(
    ("attacker", "defender"),
    [
        ({"inf": 4, "art": 2, "arm": 2, "ftr": 1, "bmr": 1}, {"inf": 6, "arm": 2, "ftr": 2}),
        ({"inf": 8, "art": 4, "arm": 5, "ftr": 2, "bmr": 1}, {"inf": 12, "arm": 4, "ftr": 4}),
        ({"inf": 1}, {"inf": 9, "arm": 1}),
    ],
)
def test_batched_linear_dp_matches_the_row_by_row_dp(attacker, defender) -> None:  # type: ignore[no-untyped-def]
    ctx = Context(Battle.make("revised", attacker, defender))
    pat, pdt = _chain_tables(ctx)
    mass = np.zeros((pat.shape[0] + 1, pdt.shape[0] + 1))
    mass[0, 0] = 1.0
    fast, stalled = _linear_dp(pat, pdt, mass)
    slow, stalled_slow = _linear_dp_rows(pat, pdt, mass)
    la, ld = pat.shape[0], pdt.shape[0]
    # only the terminal row and column are meaningful
    assert np.allclose(fast[la], slow[la], atol=1e-14, rtol=0)
    assert np.allclose(fast[:la, ld], slow[:la, ld], atol=1e-14, rtol=0)
    assert not stalled.any() and not stalled_slow.any()
    assert fast[la].sum() + fast[:la, ld].sum() == pytest.approx(1.0, abs=1e-12)


def test_triangular_inverse_is_the_inverse() -> None:
    rng = np.random.default_rng(5)
    loop = np.triu(rng.uniform(0.0, 0.15, size=(4, 9, 9)))
    inverse = _triangular_inverse(loop)
    for i in range(4):
        assert np.allclose(inverse[i] @ (np.eye(9) - loop[i]), np.eye(9), atol=1e-13, rtol=0)


def test_warm_caches_give_the_cold_answers() -> None:
    # battles sharing side profiles (the same attacker against defenders with and without
    # destroyers or submarines, a mirror battle with one profile on both sides, land and sea)
    battles = [
        Battle.make("revised", {"sub": 2, "ftr": 2, "bb": 1}, {"bb": 1, "ftr": 2}, sea=True),
        Battle.make("revised", {"sub": 2, "ftr": 2, "bb": 1}, {"dd": 1, "ftr": 2}, sea=True),
        Battle.make("revised", {"sub": 2, "ftr": 2, "bb": 1}, {"sub": 1, "dd": 1}, sea=True),
        Battle.make("revised", {"sub": 2, "ftr": 2, "bb": 1}, {"sub": 2, "ftr": 2, "bb": 1}, sea=True),
        Battle.make("revised", {"inf": 3, "art": 1}, {"inf": 3, "art": 1}),
        Battle.make("revised", {"inf": 3, "art": 1}, {"inf": 2, "aa": 1}),
        Battle.make("revised", {"inf": 3, "art": 1}, {"inf": 2}, retreat_after=1),
        Battle.make("aarhe", {"inf": 3, "art": 1, "ftr": 1}, {"inf": 2, "id": 1}),
    ]
    cold = []
    for battle in battles:
        clear_caches()
        cold.append(battle_odds(battle, method="exact"))
    warm = [battle_odds(battle, method="exact") for battle in battles]
    warm += [battle_odds(battle, method="exact") for battle in reversed(battles)][::-1]
    for i, result in enumerate(warm):
        first = cold[i % len(battles)]
        assert result.attacker_win == pytest.approx(first.attacker_win, abs=1e-15)
        assert result.defender_win == pytest.approx(first.defender_win, abs=1e-15)
        assert result.attacker_tuv_lost == pytest.approx(first.attacker_tuv_lost, abs=1e-12)
        assert result.defender_survivors == pytest.approx(first.defender_survivors, abs=1e-15)


def test_hit_kinds_are_applied_in_their_declared_order() -> None:
    # kind_order used to be a dataclass field, reset to ("general",) by the base __init__, so
    # submarine and aircraft hits landing in one phase were applied in set (hash) order: the
    # answer below changed with PYTHONHASHSEED (0.4579 or 0.5947)
    battle = Battle.make("revised", {"sub": 2, "ftr": 2}, {"sub": 1, "dd": 1, "trn": 1}, sea=True)
    assert procedure_for(battle).kind_order == ("sub", "air", "general")
    ctx = Context(battle)
    assert ctx.kind_rank("sub") < ctx.kind_rank("air") < ctx.kind_rank("general")
    assert battle_odds(battle, method="exact").attacker_win == pytest.approx(0.45786864716210796, abs=1e-12)
    variant = Battle.make("aarhe", {"inf": 3, "arm": 2, "ftr": 2}, {"inf": 3, "ftr": 1, "id": 1})
    assert procedure_for(variant).kind_order[:2] == ("aironly", "dogfight")
    assert battle_odds(variant, method="exact").attacker_win == pytest.approx(0.9661428053394936, abs=1e-12)
