"""The operation menu's sieves and the cheaper copies change no answer (issue 15, speed step 3).

``engine/targets.py`` skips targets, kinds and units it can tell in advance would give no option
(bare-map reach, units that could join, a declaration of war's possible defenders); these tests
compare its menus with a plain search over every area in play, on positions of a random game.
Cubes are copied on write (copies share each area's holders) and a look-ahead fork starts with an
empty log; the tests pin that neither lets a change in one state show in another.
"""

from __future__ import annotations

from typing import Any

from grandstrategy.cataclysm.engine.game import CataclysmGame
from grandstrategy.cataclysm.engine.special import resolve
from grandstrategy.cataclysm.engine.targets import (
    KINDS,
    _new_op,
    activatable,
    could_meet,
    may_surprise,
    operation_options,
    opposing,
    primary_defender_candidates,
    valid_target,
)
from grandstrategy.cataclysm.engine.war_start import make_war
from grandstrategy.cataclysm.module import load_module
from grandstrategy.cataclysm.rules.control import interests
from grandstrategy.cataclysm.rules.frozen import frozen
from grandstrategy.cataclysm.rules.special import STRESA_FRONT
from grandstrategy.cataclysm.state import new_state
from grandstrategy.core.rng import Rng
from grandstrategy.core.session import Match
from grandstrategy.play.games import load_ruleset

MODULE = load_module()


def plain_menu(game: CataclysmGame, power: str, left: int, against: list[str] | None) -> list[str]:
    """The operation menu by brute force: every area in play, every kind and mode, every own unit
    asked through :func:`activatable` (LR 9.1), in the menu's order."""
    module, state = game.module, game.state
    mine = [u for u in state.units if u.power == power]
    partner = {"germany": "italy", "italy": "germany"}.get(power)
    stresa = (
        interests(module, state, partner)
        if partner is not None and STRESA_FRONT in state.markers and state.powers[partner].active
        else set()
    )
    options: list[str] = []
    for target in sorted(module.in_play_ids(state.maps)):
        if target in stresa:
            continue
        for label, (kind, variant) in KINDS.items():
            if variant == "invasion" and left < 2:
                continue
            for surprise in [False, True] if may_surprise(game, power) else [False]:
                if surprise and variant == "invasion":
                    continue
                if not valid_target(game, power, kind, variant, target, surprise=surprise):
                    continue
                op: dict[str, Any] = _new_op(power, kind, variant, target, surprise, left, [])
                if against is not None and not any(
                    c in against for c in primary_defender_candidates(game, op)
                ):
                    continue
                joiners = [u for u in mine if activatable(game, op, u) is not None]
                if not joiners:
                    continue
                if variant == "base-capture" and not any(
                    u.type in ("surface-fleet", "carrier-fleet") for u in joiners
                ):
                    continue
                if variant == "strategic-bombing" and not any(u.type == "strategic-air" for u in joiners):
                    continue
                options.append(f"{'surprise ' if surprise else ''}{label} {module.area(target).name}")
    return options


def target_of(option: str) -> str:
    """The target area's id of a menu option (``surprise land operation against Poland``)."""
    text = option.removeprefix("surprise ")
    label = next(label for label in KINDS if text.startswith(label + " "))
    found = MODULE.find_area(text[len(label) + 1 :])
    assert found is not None
    return found


def test_the_sieved_operation_menu_is_the_plain_search_on_a_random_games_positions() -> None:
    """Every power's menu (two actions; one, against two powers) at positions of a random game,
    as they are and with every opposing pair at war (LR 6.2), some of whose options lie beyond
    every own unit's neighbours (so the bare-map reach sieve is used)."""
    compared = with_options = afar = 0
    match = Match(load_ruleset("cataclysm"), seed=11, options={"scenario": "campaign-1933"})
    chooser = Rng(12)
    for step in range(1200):
        decision = match.decision()
        if decision is None:
            break
        game = match.state
        assert isinstance(game, CataclysmGame)
        if step % 150 == 0:
            at_war = game.clone()
            active = [p for p, line in at_war.state.powers.items() if line.active]
            make_war(at_war, [(a, b) for a in active for b in active if a < b and opposing(at_war, a, b)])
            for position in (game, at_war):
                for power in active:
                    near = {
                        e.target
                        for u in position.state.units
                        if u.power == power
                        for e in MODULE.neighbors(u.area)
                    }
                    enemies = sorted(p for p in active if opposing(position, power, p))[:2]
                    for left, against in ((2, None), (1, enemies)):
                        with frozen(position.state):
                            plain = plain_menu(position, power, left, against)
                        menu = operation_options(position, power, left, deployed=[], against=against)
                        assert menu == plain, (step, power, left, against)
                        if against is not None and plain:
                            assert could_meet(position, power, against)  # never skips a real option
                        compared += 1
                        with_options += bool(plain)
                        afar += sum(target_of(o) not in near for o in plain)
        match.play(decision.seat, decision.legal[chooser.below(len(decision.legal))])
    assert compared > 50 and with_options > 10 and afar > 0  # the comparison met real menus


def test_a_copys_cubes_are_left_alone_when_the_original_gains_a_cube_lr_12_2() -> None:
    """The Abyssinian Adventure puts an Italian cube in Rome (LR 12.2): a copy made before keeps
    Rome's cubes as they were, and the original's new holders are a new dict."""
    game = CataclysmGame(MODULE, new_state(MODULE, "campaign-1933"))
    game.state.markers.append("abyssinian-adventure")
    before = dict(game.state.cubes.get("rome", {}))
    copy = game.clone()
    fork = game.fork()
    resolve(game, "italy", "abyssinian-adventure")
    assert game.state.cubes["rome"].get("italy", 0) == before.get("italy", 0) + 1
    assert copy.state.cubes.get("rome", {}) == before and fork.state.cubes.get("rome", {}) == before


def test_a_look_ahead_fork_starts_with_an_empty_log_and_never_writes_the_originals() -> None:
    game = CataclysmGame(MODULE, new_state(MODULE, "campaign-1933"))
    game.note("something happened")
    logged = list(game.state.log)
    fork = game.fork()
    assert fork.state.log == []
    fork.note("only in the look-ahead")
    assert game.state.log == logged
    assert len(fork.state.log) == 1 and fork.state.log[0].endswith("only in the look-ahead")
    assert game.clone().state.log == logged  # a plain copy keeps the history
