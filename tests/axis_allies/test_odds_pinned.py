"""Exact odds pinned to the values the solvers gave before the speed work of issue 13 (point 5).

Every figure below was computed with the code as it stood before the solvers were optimised; a
faster solver must reproduce them (to 1e-12), land and sea, linear and general paths alike.
"""

from __future__ import annotations

import pytest

from grandstrategy.axis_allies.battle import Battle
from grandstrategy.axis_allies.odds import battle_odds

TOL = 1e-12
SEA = {"sea": True}

# (rules, attacker, defender, options, (win, loss, draw, undecided, attacker TUV lost, defender TUV lost))
PINNED = [
    (
        "revised",
        {"sub": 2, "ftr": 2, "bb": 1, "bmr": 1},
        {"bb": 2, "ftr": 3},
        SEA,
        (
            0.2542907906802295,
            0.5195174930355595,
            0.027794130213361024,
            0.19839758607085026,
            66.94662606589687,
            56.54742713806152,
        ),
    ),
    (
        "revised",
        {"sub": 4, "ftr": 2, "bb": 2},
        {"sub": 3, "bb": 2, "ftr": 2},
        SEA,
        (
            0.46938095907247174,
            0.3390455451950363,
            0.01336742304749958,
            0.17820607268499336,
            79.43682256181553,
            76.79584662134222,
        ),
    ),
    (
        "revised",
        {"sub": 3, "dd": 2, "ftr": 2},
        {"sub": 2, "dd": 1, "bb": 1},
        SEA,
        (
            0.9378740595602322,
            0.04551911374035829,
            0.013287143893061619,
            0.003319682806348376,
            28.320555592698398,
            50.615243611242775,
        ),
    ),
    (
        "revised",
        {"dd": 2, "cv": 1, "ftr": 2, "bb": 1},
        {"cv": 1, "ftr": 2, "dd": 2},
        SEA,
        (
            0.7640600613335184,
            0.1945184484886799,
            0.04142149017780207,
            0.0,
            53.47554761731171,
            56.12518369563816,
        ),
    ),
    (
        "revised",
        {"sub": 2, "dd": 2, "cv": 1, "ftr": 2, "bb": 1, "bmr": 1},
        {"sub": 2, "dd": 1, "cv": 1, "ftr": 2, "bb": 1, "trn": 2},
        SEA,
        (
            0.41407040404538514,
            0.5488634106421403,
            0.03432761928422352,
            0.0027385660282515222,
            97.33983956456272,
            81.62655419891001,
        ),
    ),
    (
        "revised",
        {"inf": 4, "art": 2, "arm": 2, "ftr": 1, "bmr": 1},
        {"inf": 6, "arm": 2, "ftr": 2},
        {},
        (
            0.3662422483280719,
            0.593095677567168,
            0.040662074104760436,
            0.0,
            44.55994192478198,
            32.86066765428493,
        ),
    ),
    (
        "revised",
        {"inf": 8, "art": 4, "arm": 5, "ftr": 2, "bmr": 1},
        {"inf": 12, "arm": 4, "ftr": 4},
        {},
        (
            0.28989322817053736,
            0.6919513638134345,
            0.01815540801602932,
            0.0,
            88.38626164289987,
            64.01365456231142,
        ),
    ),
    (
        "revised",
        {"inf": 8, "art": 4, "arm": 5, "ftr": 2, "bmr": 1},
        {"inf": 12, "arm": 4, "ftr": 4, "aa": 1},
        {},
        (
            0.22171720748935345,
            0.7632883501484401,
            0.014994442362208128,
            0.0,
            91.5900941444076,
            58.3373080416755,
        ),
    ),
    (
        "revised",
        {"inf": 3, "arm": 2},
        {"inf": 4},
        {"bombard": {"bb": 1}},
        (
            0.8814095302515174,
            0.09690253001728283,
            0.02168793973120036,
            0.0,
            7.7267314036858,
            11.495508437785826,
        ),
    ),
    (
        "lhtr",
        {"sub": 2, "ftr": 2, "bb": 1, "hbmr": 1},
        {"bb": 2, "ftr": 3},
        SEA,
        (
            0.2990426474736288,
            0.46551533520816524,
            0.030549600577163584,
            0.20489241674104264,
            65.63494891377181,
            59.598942648017626,
        ),
    ),
    (
        "aarhe",
        {"inf": 3, "arm": 2, "ftr": 1},
        {"inf": 4, "ftr": 1},
        {},
        (
            0.6519470910106386,
            0.3259196337405014,
            0.022133275248860707,
            0.0,
            18.351728535564046,
            14.860544747201558,
        ),
    ),
]


@pytest.mark.parametrize(("rules", "attacker", "defender", "options", "expected"), PINNED)
def test_exact_odds_are_pinned(rules, attacker, defender, options, expected) -> None:  # type: ignore[no-untyped-def]
    result = battle_odds(Battle.make(rules, attacker, defender, **options), method="exact")
    got = (
        result.attacker_win,
        result.defender_win,
        result.draw,
        result.undecided,
        result.attacker_tuv_lost,
        result.defender_tuv_lost,
    )
    assert result.method == "exact"
    for value, want in zip(got, expected, strict=True):
        assert abs(value - want) < TOL * max(1.0, abs(want))


def test_pinned_naval_battle_survivors() -> None:
    # the naval battle of issue 13: expected survivors per unit type, same values before and after
    result = battle_odds(
        Battle.make("revised", {"sub": 2, "ftr": 2, "bb": 1, "bmr": 1}, {"bb": 2, "ftr": 3}, sea=True),
        method="exact",
    )
    assert sum(p for _, p in result.attacker_remaining) == pytest.approx(1.0, abs=1e-12)
    assert result.attacker_survivors == pytest.approx(PINNED_SURVIVORS[0], abs=1e-12)
    assert result.defender_survivors == pytest.approx(PINNED_SURVIVORS[1], abs=1e-12)


PINNED_SURVIVORS = (
    {
        "sub": 0.4401282469858748,
        "bmr": 0.00610862683033235,
        "bb": 0.04057961853018246,
        "ftr": 0.346680771103677,
    },
    {"bb": 0.21576731146780326, "ftr": 1.6274157386711208},
)
