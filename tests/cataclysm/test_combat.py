"""Combat arithmetic (LR 10.3-10.12) against the rules' worked examples, with their exact dice."""

from __future__ import annotations

import pytest

from grandstrategy.cataclysm.rules.combat import (
    COMBAT_KINDS,
    Side,
    Terms,
    air_superiority,
    combat_terms,
    disaster_tests_stability,
    eligible,
    eligible_steps,
    excess,
    losses,
    may_retreat_voluntarily,
    steps,
    surviving_units,
    triumph_possible,
)
from grandstrategy.cataclysm.rules.dice import roll_result


def dice(terms: Terms) -> tuple[int, int, int, int]:
    return (terms.attacker_dice, terms.attacker_modifier, terms.defender_dice, terms.defender_modifier)


# --- LR 10.7 loss arithmetic, L2097-2103 -------------------------------------------------------


def test_loss_arithmetic_lr_l2099_2103() -> None:
    assert roll_result([6, 6]) == 7 and roll_result([1, 2]) == 2
    assert losses(7, 2) == 3
    assert losses(5, 2) == 2
    assert losses(5, 3) == 1
    assert losses(7, 1) == 7
    assert losses(4, 4) == 1  # a tie: one loss each
    assert not may_retreat_voluntarily(1, 5, tie=True)  # no retreat on a tie
    assert may_retreat_voluntarily(1, 1, tie=False)  # 5 v 3: the one loss "taken as a retreat"
    with pytest.raises(ValueError):
        losses(2, 3)
    with pytest.raises(ValueError):
        losses(3, 0)


# --- LR L2217-2241: the Polish land operation ----------------------------------------------------


def test_poland_land_operation_lr_l2217_2241() -> None:
    germany = Side(units=("tank-army", "infantry-army", "tactical-air"), name="Germany")
    poland = Side(units=("minor-army",), name="Poland")
    terms = combat_terms("land", germany, poland)
    assert dice(terms) == (3, 0, 1, 0)
    assert terms.air_superiority == "attacker"
    assert terms.reasons == (
        "Germany 2 dice: has land units (LR 10.4)",
        "Poland 2 dice: has land units (LR 10.4)",
        "Germany +1 die: air superiority (LR 10.3)",
        "Poland -1 die: Germany has armour superiority, tank armies 1 to 0 (LR 10.4)",
    )
    german, polish = (
        roll_result([6, 6, 4], terms.attacker_modifier),
        roll_result([3], terms.defender_modifier),
    )
    assert (german, polish) == (7, 3)
    n = losses(german, polish)
    assert n == 2
    polish_steps = eligible_steps("land", poland.units)
    assert polish_steps == 1
    assert not may_retreat_voluntarily(n, polish_steps, tie=False)
    assert excess(n, polish_steps)
    assert triumph_possible("land", germany.units, poland.units)  # Germany triumphs
    assert not disaster_tests_stability("land", poland.units)  # a lone minor army: no test


# --- LR L2065-2069: naval operation against Sicily -----------------------------------------------


def test_sicily_naval_operation_lr_l2065_2069() -> None:
    uk_air, italy_air = ("strategic-air",), ("tactical-air",)
    air = combat_terms("air", Side(units=uk_air, name="UK"), Side(units=italy_air, name="Italy"))
    assert dice(air) == (2, 0, 2, 0)
    # the air combat is a tie: one loss each
    uk_left, italy_left = surviving_units(uk_air, losses(4, 4)), surviving_units(italy_air, 1)
    assert uk_left == ("tactical-air",) and italy_left == ()
    assert air_superiority(len(uk_left), len(italy_left)) == "attacker"
    naval = combat_terms(
        "naval",
        Side(units=uk_air, air_after_superiority=len(uk_left), name="UK"),
        Side(units=("surface-fleet", "tactical-air"), air_after_superiority=0, name="Italy"),
    )
    assert dice(naval) == (2, 0, 2, 0)
    assert "UK 1 die: no naval units (LR 10.5)" in naval.reasons
    assert "UK +1 die: air superiority (LR 10.3)" in naval.reasons
    assert not eligible("naval", "strategic-air") and eligible_steps("naval", uk_air) == 0


# --- LR L2089-2091: air operation against the Ruhr -----------------------------------------------


def test_ruhr_air_operation_lr_l2089_2091() -> None:
    us = Side(units=("strategic-air", "strategic-air"), augmentation=2, name="US")
    germany = Side(units=("tactical-air", "tactical-air"), name="Germany")
    terms = combat_terms("air", us, germany)
    assert dice(terms) == (2, 2, 2, 0)
    assert "US +2: 2 augmentation (LR 8.2)" in terms.reasons
    us_score, german_score = roll_result([3, 1], terms.attacker_modifier), roll_result([4, 2])
    assert (us_score, german_score) == (5, 4)
    n = losses(us_score, german_score)
    assert n == 1
    assert may_retreat_voluntarily(n, eligible_steps("air", germany.units), tie=False)  # 1 - 1 = 0 losses


# --- LR L2159: carriers, no retreat, disaster ---------------------------------------------------


def test_carrier_disaster_lr_l2159() -> None:
    japan, uk = Side(units=("carrier-fleet",), name="Japan"), Side(units=("carrier-fleet",), name="UK")
    terms = combat_terms("naval", japan, uk)
    assert dice(terms) == (2, 0, 2, 0)  # one carrier each: no carrier superiority
    n = losses(roll_result([3, 1]), roll_result([1, 1]))
    assert n == 3
    carrier = eligible_steps("naval", japan.units)
    assert carrier == 2
    assert not may_retreat_voluntarily(n, carrier, tie=False)  # the 2 left would still sink it
    assert excess(n, carrier)
    assert triumph_possible("naval", uk.units, japan.units)
    assert disaster_tests_stability("naval", japan.units)


def test_soviet_tank_army_disaster_lr_l2207() -> None:
    assert excess(4, eligible_steps("land", ("tank-army",)))
    assert disaster_tests_stability("land", ("tank-army",))


# --- LR L2215: no fleet, no disaster -------------------------------------------------------------


def test_lone_strategic_air_force_in_naval_combat_lr_l2215() -> None:
    italy = Side(units=("surface-fleet", "surface-fleet", "tactical-air"), name="Italy")
    uk = Side(units=("strategic-air",), name="UK")
    terms = combat_terms("naval", italy, uk)
    assert dice(terms)[2] == 1  # no naval units: one die, and the single air units cancel out
    assert eligible_steps("naval", uk.units) == 0
    assert not triumph_possible("naval", italy.units, uk.units)


# --- Dice and modifiers, one by one ---------------------------------------------------------------


def test_air_superiority_lr_10_3() -> None:
    assert air_superiority(0, 0) is None
    assert air_superiority(2, 2) is None
    assert air_superiority(1, 0) == "attacker"
    assert air_superiority(1, 3) == "defender"
    with pytest.raises(ValueError):
        air_superiority(-1, 0)


def test_land_modifiers_lr_10_4() -> None:
    army = ("infantry-army",)
    terms = combat_terms(
        "land",
        Side(units=army, augmentation=2, limited_supply=True, extended_range=True, purges=True),
        Side(units=army, limited_supply=True, surprised=True, purges=True),
        defender_terrain=True,
        fortress=True,
    )
    # attacker +2 -1 -1 -1; defender -1 +1 +1 -1 -1
    assert dice(terms) == (2, -1, 2, -1)
    assert "attacker -1: invasion at extended range (LR 9.3.2, 10.4)" in terms.reasons
    assert "defender -1: surprised (LR 9.8)" in terms.reasons
    assert "defender -1: Political Purges (LR 12.3)" in terms.reasons
    snlf = combat_terms("land", Side(units=army, snlf=True), Side(units=army), defender_terrain=True)
    assert dice(snlf) == (2, 1, 2, 1)


def test_terrain_strait_and_invasion_count_once_lr_10_4() -> None:
    army = Side(units=("infantry-army",))
    once = combat_terms("land", army, army, defender_terrain=True, adverse_terrain=True)
    assert once.defender_modifier == 1


def test_strait_keeps_armour_superiority_adverse_terrain_cancels_it() -> None:
    tanks, infantry = Side(units=("tank-army", "tank-army")), Side(units=("tank-army",))
    assert dice(combat_terms("land", tanks, infantry, defender_terrain=True)) == (2, 0, 1, 1)
    adverse = combat_terms("land", tanks, infantry, adverse_terrain=True)
    assert dice(adverse) == (2, 0, 2, 1)
    assert "no armour superiority in adverse terrain (LR 2.3.1, 10.4)" in adverse.reasons
    # defender armour superiority costs the attacker a die
    assert dice(combat_terms("land", infantry, tanks)) == (1, 0, 2, 0)


def test_fortress_bonus_from_flag_or_unit() -> None:
    army = Side(units=("infantry-army",))
    assert combat_terms("land", army, Side(units=("fortress",))).defender_modifier == 1
    assert combat_terms("land", army, Side(units=("minor-army",)), fortress=True).defender_modifier == 1
    assert combat_terms("land", army, Side(units=("fortress",)), fortress=True).defender_modifier == 1


def test_dice_are_netted_before_a_lost_die_becomes_minus_one() -> None:
    tank = Side(units=("tank-army",))
    # no land units, no air: 1 die, facing armour superiority -> 1 die at -1
    assert dice(combat_terms("land", tank, Side())) == (2, 0, 1, -1)
    bare = combat_terms("land", tank, Side(name="Nobody"))
    assert "Nobody -1: rolls its last die instead of losing it (LR 2.8, LR 10.4)" in bare.reasons
    # no land units but air superiority: 1 + 1 - 1 = one die, unmodified
    assert dice(combat_terms("land", tank, Side(units=("tactical-air",)))) == (2, 0, 1, 0)


def test_civil_war_aid_adds_a_defending_die_lr_9_7_1() -> None:
    terms = combat_terms(
        "land", Side(units=("infantry-army",)), Side(units=("minor-army",), civil_war_aid=True)
    )
    assert dice(terms) == (2, 0, 3, 0)
    assert "defender +1 die: civil war aid spent (LR 9.7.1, 10.4)" in terms.reasons


def test_carrier_superiority_lr_10_5() -> None:
    carriers = Side(units=("carrier-fleet", "carrier-fleet", "tactical-air"))
    one = Side(units=("carrier-fleet", "submarine-pack"))
    terms = combat_terms("naval", carriers, one, strategic_bombing=False)
    assert dice(terms) == (3, 0, 1, 0)
    assert (
        "defender -1 die: attacker has carrier superiority, carrier fleets 2 to 1 (LR 10.5)" in terms.reasons
    )
    ranged = combat_terms("naval", Side(units=("surface-fleet",), extended_range=True), one)
    assert (
        ranged.attacker_modifier == -1 and "attacker -1: extended range (LR 7.3.3, LR 10.5)" in ranged.reasons
    )


def test_strategic_bombing_intrinsic_defence_lr_9_5_2() -> None:
    bombers = Side(units=("strategic-air",))
    terms = combat_terms("air", bombers, Side(), strategic_bombing=True)
    assert dice(terms) == (2, 0, 1, 0)
    assert "defender 1 die: intrinsic air defence, no air units (LR 9.5.2, LR 10.6)" in terms.reasons
    assert not may_retreat_voluntarily(1, eligible_steps("air", ()), tie=False)
    defended = combat_terms("air", bombers, Side(units=("tactical-air",)), strategic_bombing=True)
    assert dice(defended) == (2, 0, 2, 0)


def test_air_combat_without_air_units_is_refused() -> None:
    with pytest.raises(ValueError, match="no air units"):
        combat_terms("air", Side(units=("strategic-air",)), Side())
    with pytest.raises(ValueError, match="no air units"):
        combat_terms("air", Side(), Side(units=("tactical-air",)))


def test_flags_on_the_wrong_side_are_refused() -> None:
    army = Side(units=("infantry-army",))
    fleet = Side(units=("surface-fleet",))
    for attacker, defender in (
        (army, Side(units=("infantry-army",), augmentation=1)),
        (army, Side(units=("infantry-army",), extended_range=True)),
        (army, Side(units=("infantry-army",), snlf=True)),
        (Side(units=("infantry-army",), surprised=True), army),
        (Side(units=("infantry-army",), civil_war_aid=True), army),
    ):
        with pytest.raises(ValueError):
            combat_terms("land", attacker, defender)
    with pytest.raises(ValueError):
        combat_terms("naval", fleet, Side(units=("surface-fleet",), civil_war_aid=True))
    # SNLF marks the whole invasion; only its land combat gets the +1
    assert combat_terms(
        "air", Side(units=("tactical-air",), snlf=True), Side(units=("tactical-air",))
    ).reasons == (
        "attacker 2 dice: has air units (LR 10.6)",
        "defender 2 dice: has air units (LR 10.6)",
    )
    with pytest.raises(ValueError):
        combat_terms("naval", fleet, fleet, fortress=True)
    with pytest.raises(ValueError):
        combat_terms("land", army, army, strategic_bombing=True)
    with pytest.raises(ValueError):
        combat_terms("sea", army, army)  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        Side(units=("panzer",))


# --- Steps, eligibility, retreat, excess ----------------------------------------------------------


def test_steps_and_eligibility_lr_10_8() -> None:
    assert {u: steps(u) for u in ("tank-army", "carrier-fleet", "strategic-air")} == dict.fromkeys(
        ("tank-army", "carrier-fleet", "strategic-air"), 2
    )
    for unit in (
        "infantry-army",
        "fortress",
        "minor-army",
        "surface-fleet",
        "submarine-pack",
        "tactical-air",
    ):
        assert steps(unit) == 1
    land = {"infantry-army", "tank-army", "fortress", "minor-army"}
    naval = {"surface-fleet", "carrier-fleet", "submarine-pack"}
    air = {"tactical-air", "strategic-air"}
    for kind, own in zip(COMBAT_KINDS, (land, naval, air), strict=True):
        for unit in land | naval | air:
            assert eligible(kind, unit) == (unit in own), (kind, unit)
    assert not eligible("air", "carrier-fleet")  # carriers are not air units (LR 10.6)
    with pytest.raises(ValueError):
        steps("battleship")


def test_logistics_units_take_no_part() -> None:
    assert steps("logistics") == 0
    assert not any(eligible(kind, "logistics") for kind in COMBAT_KINDS)
    terms = combat_terms("land", Side(units=("infantry-army",)), Side(units=("logistics",)))
    assert terms.defender_dice == 1  # a logistics unit is not a land unit


def test_excess_does_not_depend_on_retreat() -> None:
    for steps_left in range(0, 5):
        for n in range(1, 9):
            if may_retreat_voluntarily(n, steps_left, tie=False):
                assert not excess(n, steps_left) and not excess(n - 1, steps_left)
            else:
                assert excess(n, steps_left) == (n > steps_left)


def test_submarines_alone_are_not_a_fleet_for_disaster() -> None:
    assert not triumph_possible("naval", ("surface-fleet",), ("submarine-pack", "submarine-pack"))
    assert triumph_possible("naval", ("submarine-pack",), ("surface-fleet",))
    assert eligible_steps("naval", ("submarine-pack", "submarine-pack")) == 2


def test_lone_minor_army_disaster_has_no_stability_test() -> None:
    assert triumph_possible("land", ("infantry-army",), ("minor-army",))
    assert not disaster_tests_stability("land", ("minor-army",))
    assert disaster_tests_stability("land", ("minor-army", "infantry-army"))
    assert not triumph_possible("land", ("infantry-army",), ())  # both sides need a land unit
    assert not triumph_possible("air", ("tactical-air",), ("tactical-air",))


def test_superiority_policy_keeps_the_most_air_units() -> None:
    mixed = ("strategic-air", "tactical-air", "strategic-air")
    assert surviving_units(mixed, 0) == mixed
    assert surviving_units(mixed, 2) == ("tactical-air",) * 3  # two flips, nothing destroyed
    assert surviving_units(mixed, 3) == ("tactical-air",) * 2
    assert surviving_units(mixed, 9) == ()
