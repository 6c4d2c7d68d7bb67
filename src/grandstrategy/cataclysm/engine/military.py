"""Military actions (LR 8): the menu of an offensive's actions, builds and deployment.

An offensive's actions are spent one at a time (LR 8.1); the step ``military-action`` carries how
many are left and which units deployed earlier in the same offensive (they may not be activated
later in it, LR 8.4.2). Operations are declared here and resolved in ``operations.py``.
"""

from __future__ import annotations

from typing import Any

from grandstrategy.cataclysm.engine import atomic, operations
from grandstrategy.cataclysm.engine.civil_war import intervention_options
from grandstrategy.cataclysm.engine.common import (
    REFIT,
    build_options,
    construct,
    refit_marker,
    set_area,
    unit_from_option,
)
from grandstrategy.cataclysm.engine.game import CataclysmGame
from grandstrategy.cataclysm.engine.machine import Step, step
from grandstrategy.cataclysm.engine.special import (
    END_WNT,
    end_washington_naval_treaty,
    flip_rhineland,
    wnt_option,
)
from grandstrategy.cataclysm.rules.control import belligerent
from grandstrategy.cataclysm.rules.frozen import frozen
from grandstrategy.cataclysm.rules.movement import (
    deployment_coasts,
    deployment_destinations,
    deployment_map,
    deployment_movers,
    may_withdraw,
)
from grandstrategy.cataclysm.rules.occupation import violations
from grandstrategy.cataclysm.rules.special import denied_areas
from grandstrategy.cataclysm.state import CataclysmState, Unit


def military_action(
    game: CataclysmGame, power: str, left: int, *, only_operation: list[str] | None = None
) -> None:
    """Offer ``left`` military actions to ``power`` next (LR 8.0).

    ``only_operation`` limits the menu to operations against these powers (the one operation a
    declaration of war gives, LR 6.2).
    """
    game.push("military-action", power=power, left=left, deployed=[], only=only_operation)


def _intervention_options(game: CataclysmGame, power: str) -> list[str]:
    return list(intervention_options(game, power))


@step("military-action")
def _military_action(game: CataclysmGame, current: Step) -> None:
    """Spend an offensive's military actions one at a time (LR 8.1)."""
    power, left = current["power"], current["left"]
    if left <= 0 or not game.state.powers[power].active or game.state.result is not None:
        return
    only = current.get("only")
    targets = operations.operation_options(game, power, left, deployed=current["deployed"], against=only)
    if only is not None:
        options = targets or ["cancel"]
    else:
        # ending the Washington Naval Treaty is free, not a military action (LR 12.1.3)
        options = ["forfeit", *wnt_option(game, power), *military_menu(game, power, left, targets)]
    game.ask(
        power,
        f"military action ({left} left; LR 8.0)",
        options,
        "military-action-answer",
        **{k: v for k, v in current.items() if k != "do"},
    )


def military_menu(game: CataclysmGame, power: str, left: int, targets: list[str] | None = None) -> list[str]:
    """The military actions ``power`` could perform now with ``left`` actions (LR 8.0), besides
    forfeiting; ``targets`` are its operation options when already known."""
    with frozen(game.state):
        return _military_menu(game, power, left, targets)


def _military_menu(game: CataclysmGame, power: str, left: int, targets: list[str] | None) -> list[str]:
    if targets is None:
        targets = operations.operation_options(game, power, left, deployed=[])
    options: list[str] = []
    if power == "germany" and "rhineland" in game.state.markers:
        options.append("remilitarize rhineland")  # LR 12.1.1: by a military action too
    if belligerent(game.state, power):
        refit = refit_marker(game, power) is not None  # a refit fleet here too (LR 8.3, 12.1.2)
        options += build_options(game, power, left, dreadnought_refit=refit)
        options += atomic.build_option(game, power)
    options += atomic.targets(game, power)
    if _deployable(game, power, None):
        options.append("deploy")
    options += _intervention_options(game, power)
    return options + targets


def any_military_action(game: CataclysmGame, power: str) -> bool:
    """Whether one military action could do anything now, the cheap checks first (LR 8.0)."""
    if _deployable(game, power, None) or (power == "germany" and "rhineland" in game.state.markers):
        return True
    if military_menu(game, power, 1, []):  # everything but the operations
        return True
    return bool(operations.operation_options(game, power, 1, deployed=[], first=True))


@step("military-action-answer")
def _military_action_answer(game: CataclysmGame, current: Step) -> None:
    power, left, choice = current["power"], current["left"], current["choice"]
    deployed: list[int] = current["deployed"]
    rest: dict[str, Any] = {"power": power, "deployed": deployed, "only": current.get("only")}
    if choice == "forfeit":
        game.note(f"{power} forfeits {left} military action(s)")
        return
    if choice == "cancel":
        game.stack.append({"do": "dow-cancelled", "power": power, "undo": current.get("undo")})
        return
    if choice == END_WNT:
        game.push("military-action", left=left, **rest)
        end_washington_naval_treaty(game)
        return
    if choice == "remilitarize rhineland":
        game.push("military-action", left=left - 1, **rest)
        flip_rhineland(game)
        return
    if choice == "deploy":
        game.push("military-action", left=left - 1, **rest)
        game.push("deploy", power=power, units=None, moved=[], offensive=True)
        game.note(f"{power} deploys (LR 8.4)")
        return
    if choice == "build a-bomb":
        atomic.build(game)
        game.push("military-action", left=left - 1, **rest)
        return
    if choice.startswith("atomic bombing of "):
        game.push("military-action", left=left - 1, **rest)
        target = game.module.find_area(choice.removeprefix("atomic bombing of "))
        game.push("atomic-op", target=target)
        return
    if choice.startswith("intervene"):
        game.push("military-action", left=left - 1, **rest)
        game.push("intervene", power=power, choice=choice)
        return
    if choice.startswith("build "):
        item = choice.removeprefix("build ").removesuffix(REFIT)
        counter, cost, next_turn = construct(game, power, choice)
        if next_turn:
            game.state.turn_track.setdefault(game.state.turn + 2, []).append(counter)
        else:
            game.state.cup.append(counter)  # built counters go to the cup, never the reserve (LR 8.3)
            game.state.cup.sort()
        game.note(f"{power} builds {item}")
        game.push("military-action", left=left - cost, **rest)
        return
    operations.declare(game, power, choice, left=left, deployed=deployed, only=current.get("only"))


def _refit_marker(game: CataclysmGame, power: str) -> str | None:
    """The power's Dreadnought Refit marker, while available: it takes one build off a surface
    fleet however the fleet is constructed, by production or a build action (LR 4.6, 8.3)."""
    marker = f"dreadnought-refit-{power}"
    return marker if marker in game.state.markers else None


@step("dow-cancelled")
def _dow_cancelled(game: CataclysmGame, current: Step) -> None:
    """No operation can follow the declaration of war: it is cancelled with all its effects, and
    the flag played for it is lost (LR 6.2). The state goes back to the moment the check succeeded."""
    log = game.state.log
    if current.get("undo") is not None:
        game.state = CataclysmState.from_json(current["undo"])
        game.state.log = log
    game.note(
        f"{current['power']} can make no operation against its target: "
        "the declaration of war is cancelled (LR 6.2)"
    )


# ---- deployment (LR 8.4) -------------------------------------------------------------------------


def _movers(game: CataclysmGame, power: str, units: list[int] | None) -> list[Unit]:
    mine = [u for u in game.state.units if u.power == power and (units is None or u.id in units)]
    return mine


def _deployable(game: CataclysmGame, power: str, units: list[int] | None) -> bool:
    movers = _movers(game, power, units)
    if any(_may_withdraw(game, unit) for unit in movers):
        return True
    # any unit that could end a deployment outside the areas denied to it (LR 8.4, 12.1.1)
    denied = {power: denied_areas(game.state, power)}
    return bool(deployment_movers(game.module, game.state, movers, denied=denied, first_only=True))


def _destinations(
    game: CataclysmGame, units: list[Unit], *, played: bool = False, first_only: bool = False
) -> dict[int, list[str]]:
    """Where each unit may end a deployment (LR 8.4); a just-played fortress or logistics unit may
    move too (LR 3.7.2, 8.4.1); Germany never enters the demilitarized Ruhr (LR 12.1.1)."""
    module, state = game.module, game.state
    if played:
        found = {u.id: deployment_destinations(module, state, u, played=True) for u in units}
        found = {k: v for k, v in found.items() if v}
    else:
        found = deployment_map(module, state, units, first_only=first_only)
    for unit in units:
        denied = denied_areas(state, unit.power)
        if denied and unit.id in found:
            found[unit.id] = [a for a in found[unit.id] if a not in denied]
            if not found[unit.id]:
                del found[unit.id]
    return found


MOVES_PER_UNIT = 2  # see docs/decisions.md: a unit moves at most twice in one deployment


def _may_withdraw(game: CataclysmGame, unit: Unit) -> bool:
    """A fortress or logistics unit may go back to the cup (LR 8.4.1) unless that leaves its area
    over the occupation limits, as a logistics unit's departure can (see docs/decisions.md)."""
    if not may_withdraw(game.module, game.state, unit):
        return False
    if unit.type != "logistics":
        return True
    trial = game.state.clone()
    trial.units = [u for u in trial.units if u.id != unit.id]
    return not any(line.startswith(f"{unit.area}:") for line in violations(game.module, trial))


def deploy(game: CataclysmGame, power: str, units: list[int] | None, *, offensive: bool = False) -> None:
    """Run a deployment action next: of ``units`` (ids), or of all the power's units when None."""
    game.push("deploy", power=power, units=units, moved=[], offensive=offensive)


def unit_label(game: CataclysmGame, unit: Unit) -> str:
    """How a unit is named in options: ``#12 tank-army in Silesia``."""
    return f"#{unit.id} {unit.type} in {game.module.area(unit.area).name}"


@step("deploy")
def _deploy(game: CataclysmGame, current: Step) -> None:
    """Move the power's units one at a time, any number of times (LR 8.4)."""
    power = current["power"]
    if not game.state.powers[power].active:
        return
    options = ["done"]
    counts = current.get("counts", {})
    movers = [u for u in _movers(game, power, current["units"]) if counts.get(str(u.id), 0) < MOVES_PER_UNIT]
    with frozen(game.state):  # one snapshot for every unit's search
        denied = {power: denied_areas(game.state, power)}
        played = bool(current.get("played"))
        can_move = set(deployment_movers(game.module, game.state, movers, played=played, denied=denied))
        for unit in movers:
            if unit.id in can_move:
                options.append(f"move {unit_label(game, unit)}")
            if _may_withdraw(game, unit):
                options.append(f"withdraw {unit_label(game, unit)}")
    if len(options) == 1:  # nothing more can move: the deployment is over, as if "done"
        _note_deployed(game, current)
        return
    game.ask(
        power,
        "deployment: move a unit, or done (LR 8.4)",
        options,
        "deploy-answer",
        **{k: v for k, v in current.items() if k != "do"},
    )


def unit_by_label(game: CataclysmGame, text: str) -> Unit:
    """The unit an option names by its ``#id``."""
    return unit_from_option(game, text)


@step("deploy-answer")
def _deploy_answer(game: CataclysmGame, current: Step) -> None:
    choice = current["choice"]
    if choice == "done":
        _note_deployed(game, current)
        return
    rest = {k: v for k, v in current.items() if k not in ("do", "choice")}
    unit = unit_by_label(game, choice)
    if choice.startswith("withdraw"):  # LR 8.4.1: back to the cup, never the reserve
        game.state.units.remove(unit)
        game.state.cup.append(f"unit:{unit.power}:{unit.type}")
        game.state.cup.sort()
        game.note(
            f"{unit.power} withdraws its {unit.type} from {game.module.area(unit.area).name} to the cup"
        )
        game.push("deploy", **rest)
        return
    with frozen(game.state):  # one snapshot for the search and every destination's coasts
        destinations = _destinations(game, [unit], played=bool(current.get("played")))[unit.id]
        labels = [label for a in destinations for label in _destination_labels(game, unit, a)]
    game.ask(
        current["power"],
        f"deployment: where does {unit_label(game, unit)} go? (LR 7.2, 8.4)",
        labels,
        "deploy-move",
        unit=unit.id,
        **rest,
    )


COAST_SUFFIX = " coast)"


def _destination_labels(game: CataclysmGame, unit: Unit, area_id: str) -> list[str]:
    """The options naming one destination: the area's name, or for a naval unit going to an area
    with two coasts one option per coast it may end on, ``Lombardy (west coast)`` (LR 2.2.1)."""
    name = game.module.area(area_id).name
    coasts = deployment_coasts(game.module, game.state, unit, area_id)
    if not coasts:
        return [name]
    return [f"{name} ({coast}{COAST_SUFFIX}" for coast in coasts]


@step("deploy-move")
def _deploy_move(game: CataclysmGame, current: Step) -> None:
    unit = next(u for u in game.state.units if u.id == current["unit"])
    label: str = current["choice"]
    coast: str | None = None
    if label.endswith(COAST_SUFFIX):
        label, _, coast = label.removesuffix(COAST_SUFFIX).rpartition(" (")
    area_id = game.module.find_area(label)
    assert area_id is not None
    game.note(
        f"{unit.power} moves its {unit.type} from {game.module.area(unit.area).name} to {current['choice']}"
    )
    set_area(game, unit, area_id, coast=coast)
    moved = sorted({*current["moved"], unit.id})
    counts = dict(current.get("counts", {}))
    counts[str(unit.id)] = counts.get(str(unit.id), 0) + 1
    rest = {k: v for k, v in current.items() if k not in ("do", "choice", "unit", "moved", "counts")}
    game.push("deploy", moved=moved, counts=counts, **rest)


def _note_deployed(game: CataclysmGame, current: Step) -> None:
    """Units moved by an offensive's deployment may not be activated later in it (LR 8.4.2)."""
    if not current.get("offensive"):
        return
    for frame in reversed(game.stack):
        if frame.get("do") == "military-action" and frame.get("power") == current["power"]:
            frame["deployed"] = sorted({*frame["deployed"], *current["moved"]})
            return
