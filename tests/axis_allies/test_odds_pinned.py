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

# Added with the second speed pass (dense general solver, batched linear DP, side profiles kept
# across calls): values from the code before that pass.
PINNED += [
    (
        "revised",
        {"sub": 4, "ftr": 3, "bb": 2, "bmr": 1},
        {"bb": 3, "ftr": 4},
        SEA,
        (
            0.5990283535567635,
            0.154252278844286,
            0.00816399208992092,
            0.23855537550903008,
            94.93884645825202,
            101.58909083813195,
        ),
    ),
    (
        "revised",
        {"sub": 6, "bmr": 2, "ftr": 2},
        {"bb": 3, "ftr": 2},
        SEA,
        (
            0.536082004249573,
            0.07240708914769071,
            0.000742635014822684,
            0.3907682715879143,
            62.72884959957817,
            82.30280455631505,
        ),
    ),
    (
        "revised",
        {"ftr": 4, "bmr": 3},
        {"bb": 2, "ftr": 2},
        SEA,
        (
            0.8304148512774162,
            0.1383374360662103,
            0.031247712656373217,
            0.0,
            57.4708236253836,
            64.93529102392404,
        ),
    ),
    (
        "revised",
        {"inf": 16, "art": 8, "arm": 10, "ftr": 4, "bmr": 2},
        {"inf": 24, "arm": 8, "ftr": 8},
        {},
        (
            0.22421132917504571,
            0.7676291687165352,
            0.008159502108420367,
            0.0,
            185.24698230330725,
            127.75632786933282,
        ),
    ),
    (
        "revised",
        {"inf": 5, "art": 3, "arm": 3},
        {"inf": 6, "arm": 2},
        {"retreat_after": 2},
        (
            0.392272225483847,
            0.0008706408407152477,
            3.1310938754685607e-06,
            0.6068540025815636,
            14.721974950079979,
            21.616968345215916,
        ),
    ),
    (
        "lhtr",
        {"inf": 4, "arm": 2, "hbmr": 2},
        {"inf": 5, "ftr": 1, "aa": 1},
        {},
        (
            0.9092795968610184,
            0.06820354500601108,
            0.022516858132971072,
            0.0,
            19.438045272586187,
            24.091215159572936,
        ),
    ),
    (
        "revised",
        {"sub": 3, "trn": 2, "dd": 1},
        {"sub": 2, "ftr": 1, "cv": 1},
        SEA,
        (
            0.5061993072679192,
            0.09961918473870636,
            0.0004813182702647088,
            0.39370018972311027,
            27.96443393636912,
            35.12094990842403,
        ),
    ),
    (
        "revised",
        {"sub": 2, "ftr": 1},
        {"sub": 1, "trn": 1},
        SEA,
        (
            0.7554484803558195,
            0.012987012987012993,
            0.0,
            0.231564506657168,
            8.062264496067316,
            13.991639790898507,
        ),
    ),
    (
        "revised",
        {"sub": 2, "ftr": 2, "bb": 1},
        {"bb": 1, "ftr": 2},
        {"sea": True, "retreat_after": 3},
        (
            0.7277504340138939,
            0.04271451941717003,
            0.003513577724073339,
            0.22602146884486282,
            32.99492920726762,
            39.9783130476419,
        ),
    ),
    (
        "aarhe",
        {"inf": 4, "art": 2, "harm": 1, "ftr": 2},
        {"inf": 5, "hart": 1, "nav": 1, "id": 1},
        {},
        (
            0.9630485661618563,
            0.03174911554331858,
            0.005202318294826247,
            0.0,
            14.299994174656044,
            26.461711937748312,
        ),
    ),
    (
        "revised",
        {"inf": 2},
        {"aa": 1, "inf": 1},
        {},
        (
            0.6767241379310347,
            0.26939655172413807,
            0.053879310344827604,
            0.0,
            2.8318965517241392,
            2.191810344827587,
        ),
    ),
    ("revised", {"ftr": 2}, {"sub": 2}, SEA, (0.0, 0.0, 0.0, 1.0000000000000002, 0.0, 0.0)),
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
