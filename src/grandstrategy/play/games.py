"""What the play layer needs to know about a rule set's state, in one place.

Seats, bots, the terminal and the simulator are written against the kernel (``GameState``,
``Match``); this module adds what only a particular rule set can say: the groups a SEATS text may
name (Cataclysm's ideologies), printed names, a one-screen summary, the result of a finished game,
a position's value for a bot, and the invariant check. Every function works for any rule set and
gives a neutral answer (empty, zero) for one it does not know, so a new decision kind or a new
rule set never breaks play.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from grandstrategy.core.game import RuleSet, find_ruleset
from grandstrategy.core.ids import Seat
from grandstrategy.core.state import GameState

if TYPE_CHECKING:
    from grandstrategy.cataclysm.chances import Chance, PendingCheck
    from grandstrategy.cataclysm.engine.game import CataclysmGame
    from grandstrategy.cataclysm.module import Module
    from grandstrategy.cataclysm.module.schema import Ideology
    from grandstrategy.cataclysm.state import CataclysmState


RULESET_PACKAGES = (
    "grandstrategy.cataclysm.engine",
    "grandstrategy.axis_allies.game",
    "grandstrategy.axis_allies.aarhe.ruleset",
)
"""Packages that register a playable rule set when imported."""


def register_rulesets() -> None:
    """Import the packages that register the shipped rule sets (needed before loading a save)."""
    import importlib

    for package in RULESET_PACKAGES:
        importlib.import_module(package)


def load_ruleset(name: str) -> RuleSet:
    """The rule set called ``name``, after registering the shipped rule sets.

    :raises UserInputError: no such rule set (the known ones are listed).
    """
    register_rulesets()
    return find_ruleset(name)


def as_cataclysm(state: GameState) -> CataclysmGame | None:
    """The state as a Cataclysm game, or ``None`` for another rule set (imported lazily, once: the
    bot's look-ahead asks at every step, and an import statement costs more than the test)."""
    if not _GAME_CLASS:
        from grandstrategy.cataclysm.engine.game import CataclysmGame

        _GAME_CLASS.append(CataclysmGame)
    return state if isinstance(state, _GAME_CLASS[0]) else None


_GAME_CLASS: list[type[CataclysmGame]] = []
"""``CataclysmGame`` once :func:`as_cataclysm` has imported it (the CLI starts without the engine)."""


def _hook(state: GameState, name: str) -> Any:
    """A rule set's optional play-layer method (``play_groups``, ``play_value`` ...), or ``None``.

    A rule set other than Cataclysm answers the play layer through these few methods on its state;
    one without them gets the neutral answers.
    """
    return getattr(state, name, None)


def seat_groups(state: GameState) -> dict[str, list[str]]:
    """Named groups of seats a SEATS text may use: Cataclysm's ideologies, in the rules' order."""
    game = as_cataclysm(state)
    if game is None:
        hook = _hook(state, "play_groups")
        return dict(hook()) if hook is not None else {}
    groups: dict[str, list[str]] = {}
    for ideology in ("democracy", "fascism", "communism"):
        groups[ideology] = [p for p in game.state.powers if game.module.powers[p].ideology.value == ideology]
    return groups


def seat_names(state: GameState) -> dict[str, str]:
    """Printed names of the seats (``soviet-union`` -> ``Soviet Union``)."""
    game = as_cataclysm(state)
    if game is None:
        return {}
    return {p: game.module.powers[p].name for p in game.state.powers}


def seat_group(state: GameState, seat: str) -> str:
    """The group a seat plays for (its ideology in Cataclysm; the seat itself elsewhere)."""
    game = as_cataclysm(state)
    if game is None:
        for group, members in seat_groups(state).items():
            if seat in members:
                return group
        return seat
    if seat not in game.module.powers:
        return seat
    return game.module.powers[seat].ideology.value


def invariant_problems(state: GameState) -> list[str]:
    """Broken invariants of the position (Cataclysm's ``engine/invariants.py``); empty elsewhere."""
    game = as_cataclysm(state)
    if game is None:
        hook = _hook(state, "play_problems")
        return list(hook()) if hook is not None else []
    from grandstrategy.cataclysm.engine.invariants import problems

    return problems(game)


# ---- results ---------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Outcome:
    """How a game stands or ended: winner (ideology), score per ideology, turns, how it ended."""

    winner: str | None
    vp: dict[str, int]
    turns: int
    end: str | None


def outcome(state: GameState) -> Outcome:
    """The result of a finished game (or the standing of one in progress)."""
    game = as_cataclysm(state)
    hook = _hook(state, "play_outcome")
    if game is None and hook is not None:
        winner, scores, turns, end = hook()
        return Outcome(winner, dict(scores), turns, end)
    if game is None:
        returns = state.returns()
        best = max(returns.values(), default=0.0)
        winners = [s for s, v in returns.items() if v == best and state.is_terminal()]
        return Outcome(winners[0] if len(winners) == 1 else None, {}, 0, None)
    from grandstrategy.cataclysm.rules.control import ideology_scores

    result = game.state.result
    start = game.module.scenarios[game.state.scenario].start
    turns = (game.state.turn - start) // 2 + 1
    if result is not None:
        return Outcome(result.get("winner"), dict(result.get("scores") or {}), turns, result.get("how"))
    scores = {ideology.value: score for ideology, score in ideology_scores(game.module, game.state).items()}
    return Outcome(None, scores, turns, None)


# ---- the one-screen summary ------------------------------------------------------------------------


@dataclass(frozen=True)
class PowerLine:
    """One power's line in the summary table."""

    power: str
    name: str
    ideology: str
    commitment: str
    effectiveness: int
    stability: str
    vp: int
    active: bool
    reserve: str | None
    posture: str | None


@dataclass(frozen=True)
class Summary:
    """What the terminal shows above every decision."""

    title: str
    turn: str
    phase: str
    war: str
    cup: int | None
    powers: list[PowerLine] = field(default_factory=list)
    vp: dict[str, int] = field(default_factory=dict)
    events: list[str] = field(default_factory=list)
    markers: list[str] = field(default_factory=list)
    result: str | None = None


def summary(state: GameState, *, events: int = 8) -> Summary:
    """A short picture of the position: turn, war status, each power's record line, VP, cup, events."""
    game = as_cataclysm(state)
    if game is None:
        hook = _hook(state, "play_summary")
        if hook is None:
            return Summary(title="game", turn="", phase=state.phase(), war="", cup=None)
        facts = hook()
        return Summary(
            title=str(facts["title"]),
            turn=str(facts["turn"]),
            phase=str(facts["phase"]),
            war=str(facts["war"]),
            cup=None,
            events=list(facts["events"])[-events:] if events > 0 else [],
            result=facts.get("result"),
        )
    from grandstrategy.cataclysm.markers import describe_marker
    from grandstrategy.cataclysm.rules.control import ideology_scores, victory_points
    from grandstrategy.cataclysm.rules.politics import effectiveness

    data, module = game.state, game.module
    lines = []
    for power, line in data.powers.items():
        lines.append(
            PowerLine(
                power=power,
                name=module.powers[power].name,
                ideology=module.powers[power].ideology.value,
                commitment=line.commitment.value,
                effectiveness=effectiveness(module, data, power),
                stability=line.stability.value if line.active else "surrendered",
                vp=victory_points(module, data, power),
                active=line.active,
                reserve=line.reserve,
                posture=line.posture,
            )
        )
    scores = {ideology.value: score for ideology, score in ideology_scores(module, data).items()}
    result = None
    if data.result is not None:
        result = f"{data.result.get('winner')} wins ({data.result.get('how')})"
    title = module.scenarios[data.scenario].title if data.scenario in module.scenarios else data.scenario
    war = data.war_status.value
    if data.wars:
        war += "; at war: " + "; ".join(f"{'+'.join(a)} v {'+'.join(b)}" for a, b in data.wars)
    return Summary(
        title=f"{title} ({data.scenario})",
        turn=f"{data.turn}-{(data.turn + 1) % 100:02d}",
        phase=data.phase,
        war=war,
        cup=len(data.cup),
        powers=lines,
        vp=scores,
        events=list(data.log[-events:]) if events > 0 else [],
        markers=[describe_marker(marker).name for marker in data.markers],  # in words
        result=result,
    )


def game_log(state: GameState) -> list[str]:
    """The rule set's readable log of events (Cataclysm's public log), oldest first."""
    game = as_cataclysm(state)
    if game is None:
        hook = _hook(state, "play_log")
        return list(hook()) if hook is not None else []
    return list(game.state.log)


def decision_prompt(state: GameState) -> str:
    """The prompt of the open decision, naming its rule (``military action (2 left; LR 8.0)``)."""
    game = as_cataclysm(state)
    if game is not None and game.pending is not None and game.pending.get("type") == "decide":
        return str(game.pending.get("prompt", ""))
    return state.phase()


# ---- a position's value, for the heuristic bot ------------------------------------------------------

_STABILITY_VALUE: Mapping[str, float] = {"steady": 0.0, "wavering": -0.8, "unstable": -2.0}
_ORDER = ("democracy", "fascism", "communism")


def cataclysm_value(game: CataclysmGame, ideology: str) -> float:
    """How good the position is for ``ideology`` (higher is better), from open information only.

    Victory points decide the game (LR 1.7), so the lead in VP weighs most, with a bonus when the
    ideology would win if the game ended now; then each power's standing: stability (a collapse
    can mean surrender, LR 5.5), effectiveness (the dice of every check, LR 5.3), flags and
    offensives in play (actions to come) and failed-action cubes (LR 5.4). Own powers count in
    full, opponents' standing counts against at a lower weight. A finished game is worth ±40.
    """
    state, module = game.state, game.module
    facts, stability_value, ideologies, (ideology_scores, winner) = _value_tables(module)
    own = ideologies[ideology]
    raw = ideology_scores(module, state)
    mine = raw.get(own, 0)
    others = sorted((score for ideo, score in raw.items() if ideo is not own), reverse=True)
    value = 2.0 * mine - 1.2 * (others[0] if others else 0) - 0.4 * sum(others[1:])
    if state.result is not None:
        value += 40.0 if state.result.get("winner") == ideology else -40.0
    elif winner(raw) is own:
        value += 1.5
    for power, line in state.powers.items():
        side, flags, offensives, effect = facts[power]
        if not line.active:
            strength = -8.0
        else:
            full, reduced = effect[line.commitment]
            strength = (
                stability_value[line.stability]
                + 0.3 * (reduced if line.effectiveness_reduced else full)
                + 0.6 * (flags - line.available_flags)
                + 0.1 * (offensives - line.available_offensives)
                + 0.1 * sum(line.failed_actions.values())
            )
        value += strength if side == ideology else -0.4 * strength
    return value


_Scoring = tuple[
    Callable[["Module", "CataclysmState"], dict["Ideology", int]],
    Callable[[Mapping["Ideology", int]], "Ideology"],
]
_ValueTables = tuple[
    dict[str, tuple[str, int, int, dict[Any, tuple[int, int]]]],
    dict[Any, float],
    dict[str, "Ideology"],
    _Scoring,
]

_VALUE_TABLES: dict[int, tuple[Any, _ValueTables]] = {}
""":func:`_value_tables` by module (its id, with the module held so the id is not reused)."""


def _value_tables(module: Any) -> _ValueTables:
    """What :func:`cataclysm_value` reads of the module, per power: its ideology's name, its flags
    and offensives, and its effectiveness at each commitment as printed and when reduced (LR 5.3:
    one less, never below 1); the value of each stability level; each ideology by name; and the
    scoring functions (imported here once, not at every call). Worked out once."""
    hit = _VALUE_TABLES.get(id(module))
    if hit is not None and hit[0] is module:
        return hit[1]
    from grandstrategy.cataclysm.module.schema import Ideology, Stability
    from grandstrategy.cataclysm.rules.control import ideology_scores, winner

    facts = {
        power: (
            spec.ideology.value,
            spec.counters.flags,
            spec.counters.offensives,
            {
                commitment: (card.effectiveness, max(1, card.effectiveness - 1))
                for commitment, card in spec.status_card.items()
            },
        )
        for power, spec in module.powers.items()
    }
    stability = {level: _STABILITY_VALUE.get(level.value, -1.0) for level in Stability}
    tables = (facts, stability, {member.value: member for member in Ideology}, (ideology_scores, winner))
    _VALUE_TABLES[id(module)] = (module, tables)
    return tables


def position_value(state: GameState, seat: str) -> float:
    """The value of a position for a seat: Cataclysm's evaluation, else the rule set's returns."""
    game = as_cataclysm(state)
    if game is not None and seat in game.module.powers:
        return cataclysm_value(game, game.module.powers[seat].ideology.value)
    hook = _hook(state, "play_value")
    if game is None and hook is not None:
        return float(hook(seat))
    return float(state.returns().get(Seat(seat), 0.0))


def check_chain(state: GameState) -> tuple[list[int], int, int] | None:
    """At a die of an effectiveness check: ``(dice so far, dice left, modifier)``.

    Reads the Cataclysm step machine's pending roll (``grandstrategy.cataclysm.chances.pending_check``);
    ``None`` for any other chance node, so a change in the engine only makes the bot sample instead
    of branching.
    """
    game = as_cataclysm(state)
    if game is None:
        return None
    if not _PENDING_CHECK:
        from grandstrategy.cataclysm.chances import pending_check

        _PENDING_CHECK.append(pending_check)
    check = _PENDING_CHECK[0](game)
    return None if check is None else (list(check.dice), check.left, check.modifier)


_PENDING_CHECK: list[Callable[[CataclysmGame], PendingCheck | None]] = []
"""``chances.pending_check`` once :func:`check_chain` has imported it."""


# ---- chances before the dice -------------------------------------------------------------------------


def option_chances(state: GameState) -> dict[str, Chance]:
    """The exact chance of each option of the open decision whose outcome depends on dice: a
    check's success, an operation's win, triumph and losses (``grandstrategy.cataclysm.chances``);
    empty for a rule set without them."""
    game = as_cataclysm(state)
    if game is None:
        return _rule_set_chances(state)
    from grandstrategy.cataclysm.chances import option_chances as cataclysm_chances

    return cataclysm_chances(game)


def policy_choice(state: GameState, seat: str, options: list[str]) -> str | None:
    """The rule set's own heuristic choice among ``options`` (its state's ``play_policy``), or
    ``None`` when it has none. A rule set whose turns hold too many decisions for the heuristic
    bot's look-ahead (Axis & Allies) answers here instead; Cataclysm has none."""
    if as_cataclysm(state) is not None:
        return None
    hook = _hook(state, "play_policy")
    return None if hook is None else str(hook(seat, options))


def has_option_odds(state: GameState) -> bool:
    """Whether a rule set other than Cataclysm answers :func:`attack_odds` for its options
    (its state has a ``play_odds`` method: Axis & Allies' battle odds)."""
    return as_cataclysm(state) is None and _hook(state, "play_odds") is not None


def _rule_set_chances(state: GameState) -> dict[str, Chance]:
    """Another rule set's chances through its state's ``play_chances()`` (``option -> (chance,
    text)``; Axis & Allies: the exact odds of the battle an option opens or shapes)."""
    hook = _hook(state, "play_chances")
    if hook is None:
        return {}
    from fractions import Fraction

    from grandstrategy.cataclysm.chances import Chance

    return {
        option: Chance("combat", Fraction(p).limit_denominator(10**6), text)
        for option, (p, text) in hook().items()
    }


def attack_odds(state: GameState, seat: str, option: str) -> float | None:
    """The win chance of the operation a military-action menu option declares (for the heuristic
    bot's prior), or None for any other option or rule set. Another rule set answers through its
    state's ``play_odds(seat, option)`` (in A&A: the chance the battle an option opens or shapes
    goes the seat's way)."""
    game = as_cataclysm(state)
    if game is None:
        hook = _hook(state, "play_odds")
        return None if hook is None else hook(seat, option)
    from grandstrategy.cataclysm.chances import option_odds

    return option_odds(game, seat, option)


def ideology_order(groups: Mapping[str, Any]) -> list[str]:
    """Ideologies in the rules' order, then any other group names."""
    return [g for g in _ORDER if g in groups] + [g for g in groups if g not in _ORDER]
