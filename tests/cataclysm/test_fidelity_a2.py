"""Rules fidelity, helper a2: order of play with a reduction at one, the A-Bomb's tie, a played
offensive during its own actions, Il Duce at a reduced one, support by units not at war, land
operation targets (LR 3.1, 3.7.1, 5.3, 8.5, 9.1, 9.3.1, 9.5.2, 9.7, 10.2, 10.7, 12.1.2, 12.2.2).

Each test sets up the situation, forces the dice and the choices through the engine, and checks
the outcome the rule gives.
"""

from __future__ import annotations

from tests.cataclysm.test_operations import (
    bare_game,
    choose,
    choose_starting,
    offensive,
    options,
    roll,
    settle,
    setup,
)

from grandstrategy.cataclysm.engine import CataclysmGame
from grandstrategy.cataclysm.module.schema import Commitment, Stability

# ---- LR 12.2.2 with 9.5.2 and 10.7: the A-Bomb's tie --------------------------------------------


def _atomic_bombing_of_tokyo(units: list[tuple[str, str, str]]) -> CataclysmGame:
    """The US drops the A-Bomb on Tokyo; Japan is steady, so one failed test only collapses it."""
    game = setup("campaign-1933", units, [("united-states", "japan")])
    game.state.markers.append("a-bomb-ready")
    game.state.powers["japan"].stability = Stability.STEADY
    offensive(game, "united-states", 1)
    choose(game, "united-states", "atomic bombing of Tokyo")
    return game


def test_an_atomic_tie_against_intrinsic_defence_damages_the_resource_lr_l2543_l1895() -> None:
    """LR 12.2.2 (L2543) with 9.5.2 (L1895) and 10.7 (L2095): a tie gives each side one loss; the
    bomb takes none, Tokyo has no air unit to take Japan's, so its resource is damaged, and Japan,
    having suffered a loss, makes the one stability test."""
    game = _atomic_bombing_of_tokyo([])
    roll(game, 3, 1)  # the bomb: 3
    roll(game, 3)  # Tokyo's intrinsic air defence: 3, a tie
    assert "tokyo" in game.state.damaged
    assert "a-bomb-losses:japan:1" in game.state.markers
    assert game.pending is not None and game.pending["label"] == "japan stability test (A-Bomb)"


def test_an_atomic_tie_costs_a_defending_air_unit_its_loss_lr_l2543_l2095() -> None:
    """LR 12.2.2 (L2543) with 10.7 (L2095) and 10.8: on a tie Japan's air force in Tokyo takes the
    defender's one loss (the resource is spared) and Japan makes its stability test."""
    game = _atomic_bombing_of_tokyo([("japan", "tactical-air", "tokyo")])
    roll(game, 4, 2)  # the bomb: 4
    roll(game, 4, 1)  # two dice for the defending air unit: 4, a tie
    assert [u for u in game.state.units if u.power == "japan"] == []  # destroyed by the loss
    assert "tokyo" not in game.state.damaged
    assert game.pending is not None and game.pending["label"] == "japan stability test (A-Bomb)"


def test_an_atomic_bomb_beaten_by_the_defence_does_no_harm_lr_l2543() -> None:
    """LR 12.2.2 (L2543) with 10.7: the bomb cannot be lost, so a lower attack harms nobody and no
    stability test follows."""
    game = _atomic_bombing_of_tokyo([])
    roll(game, 2, 1)
    roll(game, 3)
    assert "tokyo" not in game.state.damaged
    assert game.pending is None  # no stability test: the one military action is over


# ---- LR 3.7.1 with 8.5: the offensive being played is not available --------------------------------


def _leave_available(game: CataclysmGame, power: str, count: int) -> None:
    """Put all but ``count`` of the power's available offensive markers in the cup."""
    line = game.state.powers[power]
    game.state.cup.extend([f"offensive:{power}"] * (line.available_offensives - count))
    game.state.cup.sort()
    line.available_offensives = count


def _germany_draws_an_offensive(available: int) -> CataclysmGame:
    """Austria in civil war next to Germany (at rearmament), which plays an offensive from the cup
    with ``available`` other offensive markers on its card."""
    game = bare_game("campaign-1933")
    state = game.state
    state.civil_wars["austria"] = {"left": [], "right": []}
    line = state.powers["germany"]
    line.commitment = Commitment.REARMAMENT
    _leave_available(game, "germany", available + 1)
    line.available_offensives -= 1  # the one drawn
    game.push("play-counter", counter="offensive:germany", source="cup")
    game.run()
    return game


def test_a_last_offensive_cannot_become_its_own_aid_lr_l779_l1762() -> None:
    """LR 3.7.1 (L779): the played offensive returns only once resolved, so with no other marker
    available Germany cannot intervene (LR 8.5, L1762, places an offensive marker from its card);
    the marker is back once the offensive is over."""
    game = _germany_draws_an_offensive(0)
    assert not any(o.startswith("intervene") for o in options(game))
    assert game.state.powers["germany"].available_offensives == 0
    choose(game, "germany", "forfeit")
    assert game.pending is None
    assert game.state.powers["germany"].available_offensives == 1


def test_an_offensive_returns_after_an_intervention_with_another_marker_lr_l779_l1762() -> None:
    """LR 3.7.1 (L779), 8.5 (L1762): with one other marker available Germany intervenes; the aid
    is that marker, and the played offensive comes back when its actions are spent."""
    game = _germany_draws_an_offensive(1)
    choose(game, "germany", "intervene austria left")
    settle(game)
    assert game.state.civil_wars["austria"]["left"] == ["germany"]
    while game.pending is not None and game.pending["power"] == "germany":
        choose(game, "germany", "forfeit")
    assert game.state.powers["germany"].available_offensives == 1


def test_both_civilian_offensives_return_after_their_action_lr_l779_l921() -> None:
    """LR 3.7.1 (L779) with 4.1: at civilian the drawn offensive and the reserved one give one
    action together; neither is available during it, both are once it is resolved."""
    game = bare_game("campaign-1933")
    state = game.state
    state.civil_wars["austria"] = {"left": [], "right": []}
    line = state.powers["germany"]
    assert line.commitment is Commitment.CIVILIAN
    _leave_available(game, "germany", 2)
    line.available_offensives = 0  # one drawn, one in reserve
    if line.reserve is not None:
        state.cup.append(line.reserve)  # the flag it held in reserve goes back to the cup
    line.reserve = "offensive:germany"
    game.push("play-counter", counter="offensive:germany", source="cup")
    game.run()
    assert not any(o.startswith("intervene") for o in options(game))
    choose(game, "germany", "forfeit")
    assert line.available_offensives == 2 and line.reserve is None


# ---- LR 9.3.1 over 9.1: a land operation's target is enemy-controlled ------------------------------


def _british_army_in_lorraine(wars: list[tuple[str, str]]) -> CataclysmGame:
    """A German army in Ruhr next to French Lorraine, where a British army stands."""
    game = setup(
        "europe-1939",
        [("germany", "infantry-army", "ruhr"), ("united-kingdom", "infantry-army", "lorraine")],
        wars,
    )
    game.state.alliances = {}
    offensive(game, "germany", 1)
    return game


def test_enemy_units_do_not_make_a_non_enemy_area_a_land_target_lr_l1825_l1917() -> None:
    """LR 9.3.1 (L1825) and 9.7 (L1917) over 9.1 (L1778): Germany at war with the UK alone may not
    make a land operation against French Lorraine, although a British army stands there."""
    game = _british_army_in_lorraine([("germany", "united-kingdom")])
    assert "land operation against Lorraine" not in options(game)
    assert not any("Lorraine" in o for o in options(game) if not o.startswith("surprise"))


def test_an_enemy_controlled_area_is_a_land_target_lr_l1825() -> None:
    """LR 9.3.1 (L1825): at war with France too, Lorraine is enemy-controlled and a land target."""
    game = _british_army_in_lorraine([("germany", "united-kingdom"), ("germany", "france")])
    assert "land operation against Lorraine" in options(game)


# ---- LR 10.2: support only from units at war with the other side -----------------------------------


def _german_attack_on_lorraine(wars: list[tuple[str, str]]) -> CataclysmGame:
    """Germany attacks French Lorraine from Ruhr; a British air force stands in allied Paris."""
    game = setup(
        "europe-1939",
        [("germany", "infantry-army", "ruhr"), ("united-kingdom", "tactical-air", "paris")],
        wars,
    )
    game.state.alliances = {"democracy": ["france", "united-kingdom"]}
    offensive(game, "germany", 1)
    choose(game, "germany", "land operation against Lorraine")
    choose_starting(game, "germany", "activate #1 infantry-army")
    settle(game)
    return game


def test_a_friendly_unit_not_at_war_with_the_attacker_never_supports_lr_l2002_l1282() -> None:
    """LR 10.2 (L2002) with 5.6.1 (L1282): the British air force is friendly to France (a belligerent
    ally, at war with Italy) but not at war with Germany; joining the combat would start a war
    without a declaration or a surprise attack, so France is never offered its support."""
    game = _german_attack_on_lorraine([("germany", "france"), ("united-kingdom", "italy")])
    assert game.pending is not None and game.pending["type"] == "chance"  # straight to the dice
    assert [u.area for u in game.state.units if u.power == "united-kingdom"] == ["paris"]


def test_a_friendly_unit_at_war_with_the_attacker_may_support_lr_l2002() -> None:
    """LR 10.2 (L2002): at war with Germany too, the same British air force is offered, and joins
    with its owner's permission."""
    game = _german_attack_on_lorraine([("germany", "france"), ("germany", "united-kingdom")])
    choose_starting(game, "france", "support with #2 united-kingdom tactical-air")
    choose(game, "united-kingdom", "allow")
    assert [u.area for u in game.state.units if u.power == "united-kingdom"] == ["lorraine"]


# ---- LR 3.1 with 5.3: a reduction at effectiveness one does not change the order of play ----------


def test_a_reduction_at_one_keeps_the_power_in_its_place_lr_l673_l1145() -> None:
    """LR 3.1 (L673) compares effectiveness; LR 5.3 (L1145) leaves a power reduced at 1 where it
    is on the track, the -1 going to its checks' results. Reduced Italy and France, both at 1, hold
    a flag in reserve: Italy is offered the interrupt first, the Fascist going first in a tie."""
    game = bare_game("europe-1939")
    state = game.state
    for power, line in state.powers.items():
        if line.reserve is not None:
            state.cup.append(line.reserve)
            line.reserve = None
        if power in ("italy", "france"):
            line.available_flags -= 1
            line.reserve = f"flag:{power}"
    state.cup.sort()
    state.powers["italy"].effectiveness_reduced = True
    game.push("action-window")
    game.run()
    assert game.pending is not None and game.pending["power"] == "italy"
    choose(game, "italy", "pass")
    assert game.pending is not None and game.pending["power"] == "france"
    choose(game, "france", "interrupt")
    assert game.pending is not None and game.pending["power"] == "italy"  # still ahead of France
    assert game.pending["prompt"].startswith("france will interrupt")


# ---- LR 5.3 with 12.1.2: Il Duce for Italy reduced at one -------------------------------------------


def test_il_duce_at_a_reduced_one_rolls_two_dice_at_minus_one_lr_l1145_l1147_l2445() -> None:
    """LR 5.3 (L1145, L1147) and 12.1.2 (L2445): Italy at effectiveness 1, reduced, plays Il Duce:
    the flag adds a die and the reduction keeps its -1, so two dice less one; 5 and 1 fail."""
    game = bare_game("europe-1939")
    state = game.state
    line = state.powers["italy"]
    assert "il-duce" in state.markers
    line.effectiveness_reduced = True
    line.available_flags -= 1  # the Il Duce flag, drawn from the cup
    game.push("play-counter", counter="flag:italy:il-duce", source="cup")
    game.run()
    choose(game, "italy", "escalation")
    assert game.pending is not None and game.pending["type"] == "chance"
    roll(game, 5, 1)  # two dice: 5, less one for the reduction
    assert game.pending is None or game.pending["type"] != "chance"
    assert "rolls 5 1-1, failure" in " ".join(state.log[-3:])
