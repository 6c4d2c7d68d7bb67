"""Tests that assert the outcome of combat rules (LR 10) through the engine, with forced dice."""

from __future__ import annotations

from tests.cataclysm.test_operations import (
    MODULE,
    choose,
    choose_starting,
    offensive,
    options,
    roll,
    settle,
    setup,
)

from grandstrategy.cataclysm.engine import CataclysmGame
from grandstrategy.cataclysm.rules.control import controller


def log_index(game: CataclysmGame, text: str) -> int:
    """Where the first log line containing ``text`` is."""
    return next(i for i, line in enumerate(game.state.log) if text in line)


def areas(game: CataclysmGame) -> dict[int, str]:
    return {u.id: u.area for u in game.state.units}


def drain(game: CataclysmGame, *, face: int = 6) -> None:
    """Answer what is left: flags to the cup, regroups done, the first place offered, dice ``face``."""
    while game.pending is not None:
        if game.pending["type"] == "chance":
            game.apply_chance(str(face))
            continue
        opts = options(game)
        pick = "cup" if "cup" in opts else ("done" if "done" in opts else opts[0])
        choose(game, game.pending["power"], pick)


# ---- 10.1 Combat sequence and 10.2 Support ----------------------------------------------------------


def test_the_attacker_commits_support_before_the_defender_lr_10_1() -> None:
    """LR 10.1 step 1 and 10.2 (L1992): the attacker commits all its supporting units first, then the
    defender; the air combat for superiority comes after both."""
    game = setup(
        "europe-1939",
        [
            ("germany", "tank-army", "ruhr"),
            ("germany", "tactical-air", "ruhr"),
            ("france", "infantry-army", "benelux"),
            ("france", "tactical-air", "paris"),
        ],
        [("germany", "france")],
    )
    game.state.cubes["benelux"] = {"france": 1}
    offensive(game, "germany", 1)
    choose(game, "germany", "land operation against Benelux")
    choose_starting(game, "germany", "activate #1 tank-army")
    settle(game)
    assert game.pending is not None and game.pending["power"] == "germany"
    assert "commit support (attacker" in game.pending["prompt"]
    choose_starting(game, "germany", "support with #2 germany tactical-air")
    assert game.pending is not None and game.pending["power"] == "france"
    assert "commit support (defender" in game.pending["prompt"]
    choose_starting(game, "france", "support with #4 france tactical-air")
    assert areas(game)[4] == "benelux"  # a supporting unit moves into the target
    assert game.pending is not None and game.pending["type"] == "chance"
    assert game.pending["label"] == "germany air combat"  # then the air superiority combat


def test_units_already_in_the_target_defend_without_being_committed_lr_10_2() -> None:
    """LR 10.2 (L1990): eligible units in the target area must support; a British air force in
    French Paris defends it and gives the defender air superiority without any choice."""
    game = setup(
        "europe-1939",
        [
            ("germany", "tank-army", "benelux"),
            ("france", "infantry-army", "paris"),
            ("united-kingdom", "tactical-air", "paris"),
        ],
        [("germany", "france"), ("germany", "united-kingdom")],
    )
    game.state.cubes["benelux"] = {"germany": 1}
    offensive(game, "germany", 1)
    choose(game, "germany", "land operation against Paris")
    choose_starting(game, "germany", "activate #1 tank-army")
    settle(game)
    assert game.pending is not None and game.pending["type"] == "chance"  # nobody was asked
    assert any(
        "the defender has air superiority" in line or "defender +1 die: air superiority" in line
        for line in game.state.log
    )


# ---- 10.7 Combat result --------------------------------------------------------------------------------


def _benelux(*extra: tuple[str, str, str]) -> CataclysmGame:
    game = setup(
        "europe-1939",
        [("germany", "tank-army", "ruhr"), ("france", "infantry-army", "benelux"), *extra],
        [("germany", "france")],
    )
    game.state.cubes["benelux"] = {"france": 1}
    return game


def test_a_tie_costs_each_side_one_loss_the_defender_first_and_allows_no_retreat_lr_10_7() -> None:
    """LR 10.7 (L2095, L2107-2108): tied scores, one loss each, the defender's first, and neither side
    is asked whether to retreat."""
    game = _benelux()
    offensive(game, "germany", 1)
    choose(game, "germany", "land operation against Benelux")
    choose_starting(game, "germany", "activate #1 tank-army")
    settle(game)
    roll(game, 4, 1)  # Germany 4
    roll(game, 4)  # France: one die (German armour), 4 -> a tie
    assert "the combat is a tie: one loss each (LR 10.7)" in "\n".join(game.state.log)
    french = log_index(game, "france's infantry-army in Benelux is destroyed")
    german = log_index(game, "germany's tank-army in Benelux is flipped to infantry-army")
    assert french < german
    assert game.pending is None or "retreat" not in options(game)


def test_losses_are_the_winners_score_divided_by_the_losers_dropping_fractions_lr_10_7() -> None:
    """LR 10.7 (L2097, L2105): 7 against 2 is three losses; two one-step armies would still all be
    lost after a retreat, so no retreat is offered and both are destroyed (a disaster)."""
    game = _benelux(("france", "infantry-army", "benelux"))
    offensive(game, "germany", 1)
    choose(game, "germany", "land operation against Benelux")
    choose_starting(game, "germany", "activate #1 tank-army")
    settle(game)
    roll(game, 6, 6)  # Germany 7
    roll(game, 2)  # France: one die, 2 -> 7 / 2 = three losses
    assert "the attacker wins; the defender takes 3 loss(es) (LR 10.7)" in "\n".join(game.state.log)
    assert game.pending is not None and game.pending["prompt"].startswith("take a loss (3 to go")
    choose(game, "france", "#2 france infantry-army")
    assert not any(u.power == "france" for u in game.state.units)


def test_the_loser_may_retreat_to_take_one_loss_fewer_lr_10_7() -> None:
    """LR 10.7 and 10.10 (L2155): 5 against 2 is two losses; with two armies the loser may retreat
    and lose only one; the survivor leaves the target."""
    game = _benelux(("france", "infantry-army", "benelux"))
    offensive(game, "germany", 1)
    choose(game, "germany", "land operation against Benelux")
    choose_starting(game, "germany", "activate #1 tank-army")
    settle(game)
    roll(game, 5, 1)  # Germany 5
    roll(game, 2)  # France 2 -> two losses
    assert options(game) == ["retreat", "stand"]
    choose(game, "france", "retreat")
    assert "the defender retreats to take 1 loss(es) (LR 10.10)" in "\n".join(game.state.log)
    choose(game, "france", "#2 france infantry-army")  # the one loss
    choose(game, "france", "Paris")  # the other army leaves the target
    assert 2 not in areas(game) and areas(game)[3] == "paris"


# ---- 10.8 Losses ---------------------------------------------------------------------------------------


def test_the_first_loss_flips_an_upgraded_unit_and_only_land_units_suffer_lr_10_8() -> None:
    """LR 10.8 (L2115-2122): only units of the combat's type take losses (the French air force in a
    land combat takes none); the first loss must flip the upgraded tank army; the same unit may then
    take a second loss."""
    game = setup(
        "europe-1939",
        [
            ("germany", "tank-army", "benelux"),
            ("germany", "infantry-army", "benelux"),
            ("france", "tank-army", "paris"),
            ("france", "infantry-army", "paris"),
            ("france", "tactical-air", "paris"),
        ],
        [("germany", "france")],
    )
    game.state.cubes["benelux"] = {"germany": 1}
    offensive(game, "germany", 1)
    choose(game, "germany", "land operation against Paris")
    choose_starting(game, "germany", "activate #1 tank-army")
    choose_starting(game, "germany", "activate #2 infantry-army")
    settle(game)
    roll(game, 6, 6)  # Germany 7
    roll(game, 2, 1, 1)  # France: two dice and one for air superiority, 2 -> three losses
    choose(game, "france", "stand")
    flip = log_index(game, "france's tank-army in Paris is flipped to infantry-army")
    assert not any("france's infantry-army in Paris is destroyed" in line for line in game.state.log[:flip])
    # the second loss: France chooses, and may put it on the flipped unit
    assert options(game) == ["#3 france infantry-army", "#4 france infantry-army"]
    choose(game, "france", "#3 france infantry-army")
    assert 3 not in areas(game)
    assert 4 not in areas(game)  # the third loss on the last army
    assert 5 in areas(game)  # the air force takes no loss in a land combat


# ---- 10.9.1 Land combat aftermath ---------------------------------------------------------------------


def test_conquering_a_capital_places_two_cubes_and_destroys_logistics_lr_10_9_1() -> None:
    """LR 10.9.1 (L2130-2136): the attacker alone in Paris conquers it: two cubes in a capital, and
    the defending logistics unit is destroyed (back to the force pool)."""
    game = setup(
        "europe-1939",
        [
            ("germany", "tank-army", "benelux"),
            ("france", "infantry-army", "paris"),
            ("france", "logistics", "paris"),
        ],
        [("germany", "france")],
    )
    game.state.cubes["benelux"] = {"germany": 1}
    game.state.powers["france"].force_pool["logistics"] = 0  # the one logistics counter is on the map
    offensive(game, "germany", 1)
    choose(game, "germany", "land operation against Paris")
    choose_starting(game, "germany", "activate #1 tank-army")
    settle(game)
    roll(game, 6, 6)
    roll(game, 1)  # three losses: the army is gone
    assert controller(MODULE, game.state, "paris") == "germany"
    assert game.state.cubes["paris"] == {"germany": 2}
    assert 3 not in areas(game)
    assert game.state.powers["france"].force_pool["logistics"] == 1
    drain(game)


def test_a_defending_air_force_retreats_after_the_conquest_lr_10_9_1() -> None:
    """LR 10.9.1 (L2137): remaining defending units must retreat from the conquered area."""
    game = setup(
        "europe-1939",
        [
            ("germany", "tank-army", "ruhr"),
            ("germany", "tactical-air", "ruhr"),
            ("france", "infantry-army", "benelux"),
            ("france", "tactical-air", "benelux"),
        ],
        [("germany", "france")],
    )
    game.state.cubes["benelux"] = {"france": 1}
    offensive(game, "germany", 1)
    choose(game, "germany", "land operation against Benelux")
    choose_starting(game, "germany", "activate #1 tank-army")
    settle(game)
    choose(game, "germany", "done")  # no support: France alone has air, so air superiority
    roll(game, 6, 6)  # Germany 7
    roll(game, 1, 1)  # France: 2 + 1 - 1 (armour) dice, 1 -> seven losses
    assert controller(MODULE, game.state, "benelux") == "germany"
    drain(game)
    assert 4 in areas(game) and areas(game)[4] != "benelux"


def test_a_same_ideology_home_area_returns_to_its_owner_lr_10_9_1() -> None:
    """LR 10.9.1 (L2133): Germany conquers French-held Lombardy, an Italian home area: no German cube,
    control goes back to Italy."""
    game = setup(
        "europe-1939",
        [("germany", "tank-army", "austria"), ("france", "infantry-army", "lombardy")],
        [("germany", "france")],
    )
    game.state.cubes["austria"] = {"germany": 1}
    game.state.cubes["lombardy"] = {"france": 1}
    assert controller(MODULE, game.state, "lombardy") == "france"
    offensive(game, "germany", 1)
    choose(game, "germany", "land operation against Lombardy")
    choose_starting(game, "germany", "activate #1 tank-army")
    settle(game)
    roll(game, 6, 6)
    roll(game, 1)
    assert controller(MODULE, game.state, "lombardy") == "italy"
    assert "germany" not in game.state.cubes.get("lombardy", {})
    assert "france" not in game.state.cubes.get("lombardy", {})
    drain(game)


def test_a_beaten_attacker_retreats_and_the_defender_may_regroup_lr_10_9_1() -> None:
    """LR 10.9.1 (L2130): a defending land unit remains, so the attackers retreat and the primary
    defender's side may regroup."""
    game = _benelux(("france", "infantry-army", "benelux"))
    offensive(game, "germany", 1)
    choose(game, "germany", "land operation against Benelux")
    choose_starting(game, "germany", "activate #1 tank-army")
    settle(game)
    roll(game, 4, 1)  # Germany 4
    roll(game, 5)  # France 5: one loss to Germany
    choose(game, "germany", "stand")  # the tank army flips, and must still leave
    assert areas(game)[1] == "ruhr"
    assert game.pending is not None and game.pending["power"] == "france"
    assert "regroup" in game.pending["prompt"]


# ---- 10.9.3 Air combat aftermath -----------------------------------------------------------------------


def test_after_a_tied_air_operation_the_attacker_retreats_and_the_defender_regroups_lr_10_9_3() -> None:
    """LR 10.9.3 (L2149-2151): a tie in an air operation: one loss each, then the attacker retreats
    and the defender's side may regroup."""
    game = setup(
        "europe-1939",
        [
            ("united-kingdom", "strategic-air", "london"),
            ("germany", "tactical-air", "ruhr"),
            ("germany", "tactical-air", "ruhr"),
        ],
        [("united-kingdom", "germany")],
    )
    offensive(game, "united-kingdom", 1)
    choose(game, "united-kingdom", "air operation against Ruhr")
    choose_starting(game, "united-kingdom", "activate #1 strategic-air")
    settle(game)
    roll(game, 4, 2)
    roll(game, 4, 3)  # a tie: the defender takes its loss first
    assert game.pending is not None and game.pending["power"] == "germany"
    choose(game, "germany", "#2 germany tactical-air")
    units = {u.id: u for u in game.state.units}
    assert units[1].type == "tactical-air"  # the British strategic air force flips
    assert len([u for u in game.state.units if u.power == "germany"]) == 1
    while game.pending is not None and game.pending["power"] == "united-kingdom":
        choose(game, "united-kingdom", "London" if "London" in options(game) else options(game)[0])
    assert areas(game)[1] != "ruhr"
    assert game.pending is not None and game.pending["power"] == "germany"
    assert "regroup" in game.pending["prompt"]


# ---- 10.10 Retreat -------------------------------------------------------------------------------------


def test_retreats_go_in_decreasing_effectiveness_order_lr_10_10() -> None:
    """LR 10.10 (L2163): units of several powers retreat in decreasing effectiveness order: the UK
    before France in 1939."""
    game = setup(
        "europe-1939",
        [
            ("germany", "tank-army", "benelux"),
            ("france", "infantry-army", "paris"),
            ("united-kingdom", "infantry-army", "paris"),
        ],
        [("germany", "france"), ("germany", "united-kingdom")],
    )
    game.state.cubes["benelux"] = {"germany": 1}
    offensive(game, "germany", 1)
    choose(game, "germany", "land operation against Paris")
    choose_starting(game, "germany", "activate #1 tank-army")
    choose(game, "germany", "france")
    settle(game)
    roll(game, 3, 1)  # Germany 3
    roll(game, 2)  # France and the UK: one die (German armour), 2 -> one loss
    choose(game, "france", "retreat")  # no loss instead, and both armies leave Paris
    assert game.pending is not None and game.pending["power"] == "united-kingdom"
    assert "retreat your infantry-army" in game.pending["prompt"]
    choose(game, "united-kingdom", "Brittany")
    assert game.pending is not None and game.pending["power"] == "france"
    assert "retreat your infantry-army" in game.pending["prompt"]


def test_a_unit_with_nowhere_to_retreat_is_destroyed_lr_10_10_1() -> None:
    """LR 10.10.1 (L2171): a retreating land unit with no adjacent friendly area it may occupy is
    destroyed and goes back to the force pool."""
    game = _benelux(
        ("france", "infantry-army", "benelux"),
        ("france", "infantry-army", "paris"),
        ("france", "infantry-army", "paris"),
        ("france", "infantry-army", "lorraine"),
        ("france", "infantry-army", "lorraine"),
    )
    pool = game.state.powers["france"].force_pool["army"]
    offensive(game, "germany", 1)
    choose(game, "germany", "land operation against Benelux")
    choose_starting(game, "germany", "activate #1 tank-army")
    settle(game)
    roll(game, 5, 1)
    roll(game, 2)  # two losses
    choose(game, "france", "retreat")  # one loss, and the other army must leave ...
    choose(game, "france", "#2 france infantry-army")
    assert 2 not in areas(game) and 3 not in areas(game)  # ... but cannot: both are gone
    assert game.state.powers["france"].force_pool["army"] == pool + 2
    assert any("cannot retreat" in line for line in game.state.log)


# ---- 10.11 Regroup --------------------------------------------------------------------------------------


def test_units_outside_the_combat_may_regroup_but_fortresses_may_not_lr_10_11() -> None:
    """LR 10.11 (L2181-2189): after a conquest, the winner's units that took no part (an army and an
    air force in Ruhr) may regroup into the target; a fortress may not regroup."""
    game = _benelux(
        ("germany", "infantry-army", "ruhr"),
        ("germany", "fortress", "ruhr"),
        ("germany", "tactical-air", "bavaria"),
    )
    offensive(game, "germany", 1)
    choose(game, "germany", "land operation against Benelux")
    choose_starting(game, "germany", "activate #1 tank-army")
    choose(game, "germany", "done")  # the infantry army in Ruhr stays out of the operation
    settle(game)
    roll(game, 6, 6)  # Germany 7
    roll(game, 1)  # France 1 (one die against German armour): the French army is destroyed
    settle(game)
    menu = options(game)
    assert "regroup #3 infantry-army in Ruhr" in menu
    assert not any(o.startswith("regroup #4") for o in menu)
    choose(game, "germany", "regroup #3 infantry-army in Ruhr")
    assert "Benelux" in options(game)
