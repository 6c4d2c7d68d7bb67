"""The Cataclysm game object: the state, the step machine's run loop, and its one action kind.

The bottom of the engine: every step module imports it; the rule set (:mod:`ruleset`) sits on top."""

from __future__ import annotations

import copy
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from grandstrategy.cataclysm.engine.machine import HANDLERS, PURE_STEPS, WATCHERS, Step, die_outcomes
from grandstrategy.cataclysm.module import Module
from grandstrategy.cataclysm.state import CataclysmState
from grandstrategy.core.actions import Action
from grandstrategy.core.canonical import JSONObject
from grandstrategy.core.chance import ChanceNode
from grandstrategy.core.errors import NotationError
from grandstrategy.core.ids import CHANCE, TERMINAL, Seat, ToAct
from grandstrategy.core.state import GameState

MAX_STEPS = 1_000_000


@dataclass(frozen=True, slots=True)
class Choose(Action):
    """A power picks one of the options it was offered: ``germany: reserve``."""

    power: str
    option: str

    def notation(self) -> str:
        return f"{self.power}: {self.option}"


def parse_choice(text: str) -> Choose:
    """Read ``power: option``.

    :raises NotationError: quoting the text, when it has no ``power:`` prefix or no option.
    """
    power, colon, option = text.partition(":")
    if not colon or not power.strip() or not option.strip():
        raise NotationError(
            f"cannot read {text!r}: write a choice as 'power: option', e.g. 'germany: reserve'"
        )
    return Choose(power.strip().lower(), " ".join(option.split()))


class CataclysmGame(GameState):
    """One position of a Cataclysm game: the state data, the pending steps and the open request."""

    def __init__(
        self,
        module: Module,
        state: CataclysmState,
        stack: list[Step] | None = None,
        pending: Step | None = None,
    ) -> None:
        self.module = module
        self.state = state
        self.stack: list[Step] = stack if stack is not None else []
        self.pending = pending
        self._legal: tuple[Step, tuple[Choose, ...]] | None = None
        """The legal actions of the open request, built once per request (requests never change)."""
        self._outcomes: tuple[Step, tuple[tuple[str, Fraction], ...]] | None = None
        """The open chance request's outcomes with their probabilities as :meth:`chance` got them,
        so :meth:`chance_node` need not read them back from text."""

    # ---- the machine -------------------------------------------------------------------------

    def push(self, do: str, /, **fields: Any) -> None:
        """Run this step next (the stack is last in, first out)."""
        self.stack.append({"do": do, **fields})

    def then(self, *steps: Step) -> None:
        """Run these steps next, in the order given."""
        self.stack.extend(reversed(steps))

    def ask(self, power: str, prompt: str, options: Sequence[str], then: str, /, **context: Any) -> None:
        """Stop for ``power`` to pick one of ``options``; it comes back as ``choice`` in step ``then``."""
        if not options:
            raise RuntimeError(f"asked {power} to choose with no options ({prompt})")
        self.pending = {
            "type": "decide",
            "power": power,
            "prompt": prompt,
            "options": list(options),
            "then": {"do": then, **context},
        }

    def chance(
        self, kind: str, label: str, outcomes: Sequence[tuple[str, Fraction]], then: str, /, **context: Any
    ) -> None:
        """Stop for a chance outcome; it comes back as ``outcome`` in step ``then``."""
        exact = tuple((name, p) for name, p in outcomes)
        self.pending = pending = {
            "type": "chance",
            "kind": kind,
            "label": label,
            "outcomes": [[name, str(p)] for name, p in exact],
            "then": {"do": then, **context},
        }
        self._outcomes = (pending, exact)

    def chance_weighted(
        self, kind: str, label: str, weights: Sequence[tuple[str, int]], then: str, /, **context: Any
    ) -> None:
        """:meth:`chance` with whole-number weights: each outcome's probability is its weight over
        their sum. The same request as ``chance`` with those fractions; the fractions and their
        text are worked out once per set of weights (a die, the cup's makeup), since a look-ahead
        meets the same ones over and over."""
        key = tuple(weights)
        made = _WEIGHTED.get(key)
        if made is None:
            total = sum(weight for _, weight in key)
            exact = tuple((name, Fraction(weight, total)) for name, weight in key)
            if len(_WEIGHTED) >= _WEIGHTED_KEPT:
                _WEIGHTED.clear()
            made = _WEIGHTED[key] = (exact, tuple((name, str(p)) for name, p in exact))
        exact, texts = made
        self.pending = pending = {
            "type": "chance",
            "kind": kind,
            "label": label,
            "outcomes": [[name, text] for name, text in texts],
            "then": {"do": then, **context},
        }
        self._outcomes = (pending, exact)

    def roll(self, count: int, label: str, then: str, /, **context: Any) -> None:
        """Roll ``count`` dice one at a time; the faces come back as ``dice`` in step ``then``."""
        self.push("roll-die", left=count, dice=[], label=label, then={"do": then, **context})

    def note(self, text: str) -> None:
        """Add a line to the public game log."""
        self.state.log.append(f"{self.state.turn} {self.state.phase}: {text}")

    def run(self) -> None:
        """Process steps until a power must decide, chance must speak, or the game ends."""
        settled = False  # the watchers ran on the state as it stands and did nothing
        for _ in range(MAX_STEPS):
            if self.pending is not None or self.state.result is not None or not self.stack:
                return
            current = self.stack.pop()
            do = current["do"]
            HANDLERS[do](self, current)
            if settled and do in PURE_STEPS:
                continue  # the state is unchanged since the watchers found nothing to do
            log, markers = self.state.log, self.state.markers
            noted, marked = len(log), len(markers)
            for watcher in WATCHERS:
                watcher(self)
            settled = self.state.log is log and len(log) == noted and len(markers) == marked
        raise RuntimeError("the step machine did not stop")

    def _resume(self, key: str, value: Any) -> None:
        request = self.pending
        assert request is not None
        self.pending = None
        self.stack.append({**request["then"], key: value})
        self.run()

    # ---- GameState ---------------------------------------------------------------------------

    def seats(self) -> tuple[Seat, ...]:
        return tuple(Seat(power) for power in self.state.powers)

    def to_act(self) -> ToAct:
        if self.state.result is not None:
            return TERMINAL
        if self.pending is None:
            return TERMINAL
        return CHANCE if self.pending["type"] == "chance" else Seat(self.pending["power"])

    def legal_actions(self) -> Sequence[Action]:
        pending = self.pending
        if pending is None or pending["type"] != "decide" or self.state.result is not None:
            return []
        cached = self._legal
        if cached is None or cached[0] is not pending:
            power = pending["power"]
            cached = self._legal = (pending, tuple(Choose(power, option) for option in pending["options"]))
        return list(cached[1])

    def phase(self) -> str:
        prompt = f" ({self.pending['prompt']})" if self.pending and self.pending["type"] == "decide" else ""
        return f"{self.state.turn}-{(self.state.turn + 1) % 100:02d} {self.state.phase}{prompt}"

    def apply(self, action: Action) -> None:
        assert isinstance(action, Choose)
        self._resume("choice", action.option)

    def chance_node(self) -> ChanceNode:
        pending = self.pending
        assert pending is not None and pending["type"] == "chance"
        outcomes = tuple((name, p) for name, p in pending["outcomes"])
        stashed = self._outcomes
        exact = stashed[1] if stashed is not None and stashed[0] is pending else None
        return _chance_node(pending["kind"], pending["label"], outcomes, exact)

    def apply_chance(self, outcome: str) -> None:
        self._resume("outcome", outcome)

    def returns(self) -> Mapping[Seat, float]:
        result = self.state.result
        if result is None:
            return {seat: 0.0 for seat in self.seats()}
        winner = result["winner"]
        return {
            Seat(power): 1.0 if self.module.powers[power].ideology.value == winner else -1.0
            for power in self.state.powers
        }

    def clone(self) -> CataclysmGame:
        return self._copy_game(share_units=False)

    def fork(self) -> CataclysmGame:
        """A copy for a bot's look-ahead: like :meth:`clone`, but the units are copied on write
        (``CataclysmState.clone(share_units=True)``): a unit object taken from either game is
        left behind once that game changes the unit (read units again from ``state.units``).
        Cheaper when, as in a look-ahead, most copies move few units. The copy's log starts
        empty: it holds only what happens in the look-ahead (no rule reads the log)."""
        return self._copy_game(share_units=True)

    def _copy_game(self, *, share_units: bool) -> CataclysmGame:
        pending = self.pending
        if pending is not None:
            # a fork shares the request's option and outcome lists, which nothing changes (a
            # request is replaced, never edited); its context is copied as the steps are
            pending = {**pending, "then": _copy(pending["then"])} if share_units else _copy(pending)
        state = self.state.clone(share_units=share_units, keep_log=not share_units)
        game = CataclysmGame(self.module, state, [_copy(step) for step in self.stack], pending)
        stashed = self._outcomes
        if pending is not None and stashed is not None and stashed[0] is self.pending:
            game._outcomes = (pending, stashed[1])
        return game

    def to_json(self) -> JSONObject:
        return {
            "state": self.state.to_json(),
            "stack": copy.deepcopy(self.stack),
            "pending": copy.deepcopy(self.pending),
        }

    def view(self, seat: Seat | None) -> JSONObject:
        """Everything is open except the contents of the cup (LR 1.4): the cup shows only its size."""
        data = self.state.to_json()
        data["cup"] = {"counters": len(self.state.cup)}
        pending: dict[str, Any] | None = None
        if self.pending is not None:
            pending = {key: value for key, value in self.pending.items() if key not in ("then", "outcomes")}
        return {"state": data, "pending": pending}


def _chance_node(
    kind: str,
    label: str,
    outcomes: tuple[tuple[str, str], ...],
    exact: tuple[tuple[str, Fraction], ...] | None = None,
) -> ChanceNode:
    """A chance node from its JSON form (``exact``: the same outcomes with their probabilities, when
    known). The same outcomes recur under many labels (every die), so each set is parsed and checked
    once (:meth:`ChanceNode.relabelled`)."""
    key = (kind, outcomes)
    node = _NODES.get(key)
    if node is None:
        if exact is None:
            exact = tuple((name, _fraction(p)) for name, p in outcomes)
        if len(_NODES) >= _NODES_KEPT:
            _NODES.clear()
        node = _NODES[key] = ChanceNode(kind, "", exact)
    return node if node.label == label else node.relabelled(label)


_NODES: dict[tuple[str, tuple[tuple[str, str], ...]], ChanceNode] = {}
_NODES_KEPT = 4096

_WEIGHTED: dict[
    tuple[tuple[str, int], ...], tuple[tuple[tuple[str, Fraction], ...], tuple[tuple[str, str], ...]]
] = {}
""":meth:`CataclysmGame.chance_weighted`'s outcomes, exact and as text, by their weights."""
_WEIGHTED_KEPT = 4096
_DIE_WEIGHTS = tuple((face, 1) for face, _ in die_outcomes())
"""A die as whole-number weights: each face once (the same request as ``die_outcomes()``)."""


def _fraction(text: str) -> Fraction:
    """``Fraction(text)`` for the ``"n/d"`` or ``"n"`` that ``str(Fraction)`` writes, without a regex."""
    numerator, slash, denominator = text.partition("/")
    if numerator.isdigit() and (not slash or denominator.isdigit()):
        return Fraction(int(numerator), int(denominator) if slash else 1)
    return Fraction(text)


def _copy(value: Any) -> Any:
    """A copy of JSON-like data (dicts, lists, scalars): steps and requests hold nothing else.

    Scalars (most of the values) are shared without a call.
    """
    if isinstance(value, dict):
        return {key: item if type(item) in _SCALARS else _copy(item) for key, item in value.items()}
    if isinstance(value, list):
        return [item if type(item) in _SCALARS else _copy(item) for item in value]
    return value


_SCALARS = frozenset({str, int, bool, float, type(None)})


def _die_step(game: CataclysmGame, current: Step) -> None:
    if current["left"] == 0:
        game.stack.append({**current["then"], "dice": current["dice"]})
        return
    game.chance_weighted(
        "die",
        current["label"],
        _DIE_WEIGHTS,
        "roll-die-face",
        **{k: v for k, v in current.items() if k != "do"},
    )


def _die_face(game: CataclysmGame, current: Step) -> None:
    dice = [*current["dice"], int(current["outcome"])]
    game.push("roll-die", left=current["left"] - 1, dice=dice, label=current["label"], then=current["then"])


HANDLERS["roll-die"] = _die_step
HANDLERS["roll-die-face"] = _die_face
