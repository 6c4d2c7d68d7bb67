"""Rules fidelity, helper a3: allies on the attacker's side, surprise land targets, supply in
operations, attacks on countries and surprise attacks (LR 5.6.1, 5.7, 9.1, 9.2, 9.3.1, 9.6, 9.7,
9.7.2, 9.8, 10.2).

Each test sets up the situation, forces the dice and the choices through the engine, and checks
the outcome the rule gives.
"""

from __future__ import annotations

from tests.cataclysm.test_operations import (
    choose,
    choose_starting,
    offensive,
    options,
    settle,
    setup,
)

from grandstrategy.cataclysm.engine import CataclysmGame
from grandstrategy.cataclysm.module.schema import Commitment

# ---- LR 9.1 and 10.2 with 5.6.1: an ally on the attacker's side is at war with the defender ---------


def _axis_by_lorraine(wars: list[tuple[str, str]], italian: str) -> CataclysmGame:
    """Germany and Italy allied; a German army and an Italian ``italian`` unit in Ruhr, a French
    army in Lorraine; Germany at mobilization plays a one-action offensive."""
    game = setup(
        "europe-1939",
        [
            ("germany", "infantry-army", "ruhr"),
            ("italy", italian, "ruhr"),
            ("france", "infantry-army", "lorraine"),
        ],
        wars,
    )
    game.state.alliances = {"fascism": ["germany", "italy"]}
    game.state.powers["germany"].commitment = Commitment.MOBILIZATION
    offensive(game, "germany", 1)
    return game


def test_an_ally_cannot_join_a_surprise_attack_lr_l1780_l1949_l1282() -> None:
    """LR 9.8 (L1949) with 5.6.1 (L1282) and 9.1 (L1780): Germany, at war with the UK beside its
    ally Italy, surprises France in Lorraine. Italy is friendly (a belligerent ally) but not at war
    with France, and only the power performing the surprise attack starts a war by it; the Italian
    army is not offered for activation (Italy is drawn in, or not, by LR 6.1.3 at step 4)."""
    game = _axis_by_lorraine([("germany", "united-kingdom"), ("italy", "united-kingdom")], "infantry-army")
    choose(game, "germany", "surprise land operation against Lorraine")
    assert game.pending is not None and game.pending["power"] == "germany"
    assert not any("#2" in o for o in options(game))
    assert any(o.startswith("activate #1 infantry-army") for o in options(game))


def test_an_ally_at_war_with_the_defender_may_join_lr_l1780() -> None:
    """LR 9.1 (L1780): at war with France beside Germany, the same Italian army is offered."""
    game = _axis_by_lorraine([("germany", "france"), ("italy", "france")], "infantry-army")
    choose(game, "germany", "land operation against Lorraine")
    assert any(o.startswith("activate #2 infantry-army") for o in options(game))


def test_an_ally_not_at_war_with_the_defender_never_supports_the_attack_lr_l2002_l1282() -> None:
    """LR 10.2 (L2002) with 5.6.1 (L1282), the attacker's side of the a2 defender test: the Italian
    air force in Ruhr is friendly to Germany (both belligerent allies) but Italy is at war with the
    UK only; supporting the attack on French Lorraine would start a war without a declaration or
    a surprise attack, so Germany is not offered its support and the dice come at once."""
    game = _axis_by_lorraine([("germany", "france"), ("italy", "united-kingdom")], "tactical-air")
    choose(game, "germany", "land operation against Lorraine")
    choose_starting(game, "germany", "activate #1 infantry-army")
    settle(game)
    assert game.pending is not None and game.pending["type"] == "chance"
    assert [u.area for u in game.state.units if u.power == "italy"] == ["ruhr"]


def test_an_ally_at_war_with_the_defender_supports_the_attack_lr_l2002() -> None:
    """LR 10.2 (L2002): at war with France too, the Italian air force is offered, and joins with
    Italy's permission."""
    game = _axis_by_lorraine(
        [("germany", "france"), ("italy", "france"), ("italy", "united-kingdom")], "tactical-air"
    )
    choose(game, "germany", "land operation against Lorraine")
    choose_starting(game, "germany", "activate #1 infantry-army")
    settle(game)
    choose_starting(game, "germany", "support with #2 italy tactical-air")
    choose(game, "italy", "allow")
    assert [u.area for u in game.state.units if u.power == "italy"] == ["lorraine"]


# ---- LR 9.3.1 with 9.8: a surprise land operation needs an area the surprised power controls -----


def test_a_surprise_land_target_is_controlled_by_the_surprised_power_lr_l1825_l1949() -> None:
    """LR 9.3.1 (L1825) and 9.8 (L1949): a British army in uncontrolled Benelux does not make it a
    target of a surprise land operation against the UK (a garrisoned country may be attacked only
    when an enemy controls it, LR 9.7 L1917), while French Lorraine, held by France, is one."""
    game = setup(
        "europe-1939",
        [
            ("germany", "infantry-army", "ruhr"),
            ("united-kingdom", "infantry-army", "benelux"),
            ("france", "infantry-army", "lorraine"),
        ],
        [],
    )
    game.state.alliances = {}
    game.state.powers["germany"].commitment = Commitment.MOBILIZATION
    offensive(game, "germany", 1)
    assert "surprise land operation against Benelux" not in options(game)
    assert "land operation against Benelux" not in options(game)
    assert "surprise land operation against Lorraine" in options(game)


def test_enemy_held_area_is_no_surprise_land_target_for_a_third_power_lr_l1825_l1949() -> None:
    """LR 9.3.1 (L1825) and 9.8 (L1949): Germany at war with France alone; a British army stands in
    French Lorraine. Lorraine is a land target (France is an enemy) but not a surprise land target
    against the UK, which does not control it."""
    game = setup(
        "europe-1939",
        [("germany", "infantry-army", "ruhr"), ("united-kingdom", "infantry-army", "lorraine")],
        [("germany", "france")],
    )
    game.state.alliances = {}
    game.state.powers["germany"].commitment = Commitment.MOBILIZATION
    offensive(game, "germany", 1)
    assert "land operation against Lorraine" in options(game)
    assert "surprise land operation against Lorraine" not in options(game)
