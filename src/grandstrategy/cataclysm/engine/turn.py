"""The turn: action phase (LR 3.3–3.7), end phase (LR 3.8), administration phase (LR 3.2), game end (LR 1.6).

A scenario starts with the action phase of its first turn: its cup and reserves are already set
(see docs/decisions.md).
"""

from __future__ import annotations

from collections import Counter

from grandstrategy.cataclysm.engine import (  # noqa: F401  (register steps)
    aftermath,
    chinese_civil_war,
    collapse,
    combat,
    counters,
    crisis,
    military,
    production,
)
from grandstrategy.cataclysm.engine.common import (
    counter_power,
    home_front_modifier,
    next_turn_box,
    parse_counter,
    power_order,
    return_to_card,
    stability_test,
)
from grandstrategy.cataclysm.engine.game import CataclysmGame
from grandstrategy.cataclysm.engine.machine import Step, step
from grandstrategy.cataclysm.engine.posture import change_posture, posture_options
from grandstrategy.cataclysm.engine.special import end_washington_naval_treaty
from grandstrategy.cataclysm.module.schema import Commitment, Ideology, WarStatus
from grandstrategy.cataclysm.rules.arithmetic import sudden_death_continues
from grandstrategy.cataclysm.rules.control import at_war, belligerent, ideology_scores, winner

PLAYABLE = ("flag", "offensive", "unit", "upgrade")


def start(game: CataclysmGame) -> None:
    """Begin the scenario at the action phase of its first turn."""
    game.state.phase = "action"
    game.push("action-window")


def _ideology_of(game: CataclysmGame, counter: str) -> str | None:
    power = counter_power(counter)
    return (
        game.module.powers[power].ideology.value
        if power is not None and power in game.module.powers
        else None
    )


@step("action-window")
def _action_window(game: CataclysmGame, current: Step) -> None:
    """Before each draw, powers may interrupt with their reserve, highest effectiveness first (LR 3.5)."""
    state = game.state
    if "wnt" in state.markers and state.powers.get("japan") is not None and state.powers["japan"].active:
        # Japan may end the treaty at any time (LR 12.1.3); the flags it gives may be reserved and
        # so used to interrupt before this draw: the candidates are found after the answer
        game.then({"do": "wnt-offer"}, {"do": "interrupt-window"})
        return
    _interrupt_window(game, current)


@step("interrupt-window")
def _interrupt_window(game: CataclysmGame, current: Step) -> None:
    """The powers that may interrupt now (LR 3.5), offered in decreasing effectiveness order."""
    state = game.state
    candidates = []
    for power in power_order(game, decreasing=True):
        reserve = state.powers[power].reserve
        if reserve is None or parse_counter(reserve)[0] not in PLAYABLE:
            continue
        if game.module.powers[power].ideology.value == state.last_ideology:
            continue  # an ideology never acts twice in a row by interrupt
        if not counters.playable(game, power, reserve, from_reserve=True):
            continue
        candidates.append(power)
    if candidates:
        game.push("interrupt-offer", candidates=candidates, index=0, passed=[])
    else:
        game.push("draw")


@step("wnt-offer")
def _wnt_offer(game: CataclysmGame, current: Step) -> None:
    game.ask("japan", "end the Washington Naval Treaty now? (LR 12.1.3)", ["keep", "end"], "wnt-answer")


@step("wnt-answer")
def _wnt_answer(game: CataclysmGame, current: Step) -> None:
    if current["choice"] == "end":
        end_washington_naval_treaty(game)


@step("interrupt-offer")
def _interrupt_offer(game: CataclysmGame, current: Step) -> None:
    power = current["candidates"][current["index"]]
    reserve = game.state.powers[power].reserve
    game.ask(
        power,
        f"interrupt with your reserved {reserve} before the next draw? (LR 3.5)",
        ["pass", "interrupt"],
        "interrupt-answer",
        **{k: v for k, v in current.items() if k != "do"},
    )


@step("interrupt-answer")
def _interrupt_answer(game: CataclysmGame, current: Step) -> None:
    power = current["candidates"][current["index"]]
    if current["choice"] == "interrupt":
        if current["passed"]:  # LR L761: a higher-priority power that passed may still go first
            game.push("interrupt-preempt", committed=power, waiting=current["passed"], index=0)
        else:
            game.push("play-reserve", power=power)
        return
    index = current["index"] + 1
    if index < len(current["candidates"]):
        game.push(
            "interrupt-offer",
            candidates=current["candidates"],
            index=index,
            passed=[*current["passed"], power],
        )
    else:
        game.push("draw")


@step("interrupt-preempt")
def _interrupt_preempt(game: CataclysmGame, current: Step) -> None:
    if current["index"] >= len(current["waiting"]):
        game.push("play-reserve", power=current["committed"])
        return
    power = current["waiting"][current["index"]]
    game.ask(
        power,
        f"{current['committed']} will interrupt; go first with your reserve? (LR 3.5)",
        ["pass", "interrupt"],
        "interrupt-preempt-answer",
        **{k: v for k, v in current.items() if k != "do"},
    )


@step("interrupt-preempt-answer")
def _interrupt_preempt_answer(game: CataclysmGame, current: Step) -> None:
    if current["choice"] == "interrupt":
        game.push("play-reserve", power=current["waiting"][current["index"]])
    else:
        game.push(
            "interrupt-preempt",
            committed=current["committed"],
            waiting=current["waiting"],
            index=current["index"] + 1,
        )


@step("play-reserve")
def _play_reserve(game: CataclysmGame, current: Step) -> None:
    line = game.state.line_to_change(current["power"])
    counter = line.reserve
    assert counter is not None
    line.reserve = None
    game.state.last_ideology = _ideology_of(game, counter)
    game.note(f"{current['power']} interrupts with its reserved {counter}")
    game.then({"do": "play-counter", "counter": counter, "source": "reserve"}, {"do": "action-window"})


@step("draw")
def _draw(game: CataclysmGame, current: Step) -> None:
    """Draw one counter from the cup at random (LR 2.9, 3.3)."""
    cup = game.state.cup
    if not cup:
        game.push("end-phase")
        return
    game.chance_weighted("draw", "action cup", sorted(Counter(cup).items()), "drawn")


@step("drawn")
def _drawn(game: CataclysmGame, current: Step) -> None:
    counter = current["outcome"]
    game.state.cup.remove(counter)
    kind = parse_counter(counter)[0]
    game.state.last_ideology = _ideology_of(game, counter)
    game.note(f"draws {counter}")
    setback = game.state.economic_setback
    game.state.economic_setback = False  # crisis 3-3 looks at the next counter drawn only (LR L2967)
    if kind == "crisis":
        game.push("crisis-drawn")
        return
    if kind == "home-front":
        game.then({"do": "home-front", "counter": counter}, {"do": "action-window"})
        return
    if kind == "a-bomb":  # it goes to Washington DC, never to the reserve (LR 12.2.2)
        game.state.markers.append("a-bomb-ready")
        game.note("the A-Bomb is ready in Washington DC")
        game.push("action-window")
        return
    if kind == "cw-resolution":  # LR 3.7.7, 11.3: resolve every civil war; the marker waits for next turn
        next_turn_box(game, counter)
        game.then({"do": "cw-resolution"}, {"do": "action-window"})
        return
    if setback and kind in ("flag", "offensive", "unit", "upgrade"):  # crisis 3-3 (LR L2967)
        return_to_card(game, counter)
        game.note(f"Economic Setback: {counter} goes back unplayed")
        game.push("action-window")
        return
    game.then({"do": "drawn-choice", "counter": counter}, {"do": "action-window"})


@step("crisis-drawn")
def _crisis_drawn(game: CataclysmGame, current: Step) -> None:
    """The first three Crisis markers roll on a table; later ones check Sudden Death (LR 3.7.4, 3.7.5)."""
    state = game.state
    if not state.sudden_death:
        state.crises_drawn += 1
        if state.crises_drawn >= 3:
            state.sudden_death = True
        next_turn_box(game, "crisis")
        game.then({"do": "crisis-roll", "reroll": True}, {"do": "action-window"})
        return
    own = Counter(counter_power(c) for c in state.cup if counter_power(c) in state.powers)
    commitment = {power: line.commitment for power, line in state.powers.items() if line.active}
    counts = {power: own.get(power, 0) for power in commitment}
    if sudden_death_continues(counts, commitment):
        state.cup.append("crisis")
        state.cup.sort()
        game.note(f"Sudden Death: the turn goes on ({', '.join(f'{p} {n}' for p, n in counts.items() if n)})")
        game.push("action-window")
    else:
        next_turn_box(game, "crisis")
        game.note("Sudden Death: the action phase ends")
        game.push("end-phase")


@step("home-front")
def _home_front(game: CataclysmGame, current: Step) -> None:
    """Home Front (LR 3.7.6): a stability test unless at civilian; then the marker goes to next turn."""
    power = counter_power(current["counter"])
    assert power is not None
    next_turn_box(game, current["counter"])
    line = game.state.powers[power]
    if not line.active:
        return
    if line.posture is not None and not line.posture_changed:  # after the test, a posture change (LR 12.3)
        game.push("home-front-posture", power=power)
    game.push("deploy", power=power, units=None, moved=[], offensive=False)  # then a deployment (LR 3.7.6)
    if line.commitment is not Commitment.CIVILIAN:
        stability_test(game, power, "home front", modifier=home_front_modifier(game, power))


@step("home-front-posture")
def _home_front_posture(game: CataclysmGame, current: Step) -> None:
    power = current["power"]
    if not game.state.powers[power].active:
        return
    options = posture_options(game, power)
    if options:
        game.ask(
            power,
            "home front: change posture? (LR 12.3)",
            ["keep", *options],
            "home-front-posture-answer",
            power=power,
        )


@step("home-front-posture-answer")
def _home_front_posture_answer(game: CataclysmGame, current: Step) -> None:
    if current["choice"] != "keep":
        change_posture(game, current["power"], current["choice"].removeprefix("posture "))


@step("end-phase")
def _end_phase(game: CataclysmGame, current: Step) -> None:
    """End phase (LR 3.8): game end check, leftover cup counters, reserves back, next turn."""
    state = game.state
    state.phase = "end"
    if _game_over(game):
        return
    leftovers = sorted(state.cup)
    state.cup = []
    steps: list[Step] = []
    for counter in leftovers:
        kind, power, _ = parse_counter(counter)
        if kind in ("crisis", "cw-resolution", "a-bomb"):
            next_turn_box(game, counter)
        elif kind == "home-front":
            pass  # resolved below in increasing effectiveness order
        elif power is not None:
            state.cup.append(counter)  # 3. to the holding box once steps 1-2 are resolved (LR 3.8)
    if "cw-resolution" in leftovers:  # 1. civil wars are resolved first (LR 3.8)
        steps.append({"do": "cw-resolution"})
    fronts = {counter_power(c) for c in leftovers if parse_counter(c)[0] == "home-front"}
    for power in power_order(game, decreasing=False):
        if power in fronts:
            steps.append({"do": "home-front", "counter": f"home-front:{power}"})
    steps.append({"do": "end-phase-holding"})
    steps.append({"do": "armistice-window", "powers": None, "asked": []})
    steps.append({"do": "end-phase-finish"})
    game.then(*steps)


@step("end-phase-holding")
def _end_phase_holding(game: CataclysmGame, current: Step) -> None:
    """LR 3.8 step 3: the flags, offensives, units and upgrades left in the cup, with any that came
    into it while the Civil War Resolution and Home Front markers were resolved, go to their
    powers' holding boxes."""
    state = game.state
    left, state.cup = sorted(state.cup), []
    for counter in left:
        power = counter_power(counter)
        if power is not None and power in state.powers:
            state.line_to_change(power).holding_box.append(counter)
        else:
            next_turn_box(game, counter)


@step("armistice-window")
def _armistice_window(game: CataclysmGame, current: Step) -> None:
    """Wars may end by mutual consent (LR 5.6.2): each belligerent, in decreasing effectiveness
    order, may propose an armistice to each of its enemies once per turn, in the end phase."""
    state = game.state
    powers = current["powers"]
    if powers is None:
        powers = [
            p for p in power_order(game, decreasing=True) if state.powers[p].active and belligerent(state, p)
        ]
    if not powers:
        return
    power, asked = powers[0], current["asked"]
    enemies = [
        e
        for e in power_order(game, decreasing=True)
        if state.powers[e].active and at_war(state, power, e) and [power, e] not in asked
    ]
    if not state.powers[power].active or not enemies:
        game.push("armistice-window", powers=powers[1:], asked=asked)
        return
    game.ask(
        power,
        "propose an armistice? (LR 5.6.2)",
        ["no", *(f"armistice with {e}" for e in enemies)],
        "armistice-window-answer",
        powers=powers,
        asked=asked,
    )


@step("armistice-window-answer")
def _armistice_window_answer(game: CataclysmGame, current: Step) -> None:
    powers, asked = current["powers"], current["asked"]
    if current["choice"] == "no":
        game.push("armistice-window", powers=powers[1:], asked=asked)
        return
    enemy = current["choice"].removeprefix("armistice with ")
    game.push("armistice-window", powers=powers, asked=[*asked, [powers[0], enemy]])
    game.note(f"{powers[0]} proposes an armistice to {enemy}")
    game.push("armistice-offer", power=powers[0], enemies=[enemy], accepted=[])


@step("end-phase-finish")
def _end_phase_finish(game: CataclysmGame, current: Step) -> None:
    state = game.state
    for power in list(state.powers):
        line = state.line_to_change(power)
        if line.reserve is not None:
            line.holding_box.append(line.reserve)
            line.reserve = None
        line.escalated_this_turn = False
        line.effectiveness_reduced = False
        line.posture_changed = False
    if state.turn >= max(state.last_turn, state.global_war_turn or 0):  # LR 1.6
        _finish(game, "the last turn is over")
        return
    state.turn += 2
    state.crises_drawn = 0
    state.sudden_death = False
    state.last_ideology = None
    game.push("administration")


def _game_over(game: CataclysmGame) -> bool:
    """Immediate game end (LR 1.6): an ideology all surrendered, or Global War with nobody at war."""
    state = game.state
    for ideology in Ideology:
        members = [p for p in state.powers if game.module.powers[p].ideology is ideology]
        if members and all(not state.powers[p].active for p in members):
            _finish(game, f"every {ideology.value} power has surrendered")
            return True
    if state.war_status is WarStatus.GLOBAL and not state.wars:
        _finish(game, "Global War, and no power is at war any more")
        return True
    return False


def _finish(game: CataclysmGame, how: str) -> None:
    scores = ideology_scores(game.module, game.state)
    won = winner(scores)
    game.state.phase = "over"
    game.state.result = {"winner": won.value, "how": how, "scores": {i.value: s for i, s in scores.items()}}
    game.note(f"game over ({how}): {won.value} wins with {scores[won]}")


@step("check-game-end")
def _check_game_end(game: CataclysmGame, current: Step) -> None:
    """End at once when an ideology holds two Surrender markers or has surrendered whole (LR 1.6)."""
    held = Counter(ideology for marker in game.state.surrenders for ideology in marker.split("+"))
    for ideology, count in held.items():
        if count >= 2:
            _finish(game, f"{ideology} holds two Surrender markers")
            return
    _game_over(game)
