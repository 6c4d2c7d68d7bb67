"""Pig with a cup: a tiny synthetic game that exercises every part of the kernel (tests only).

Two seats, ``north`` and ``south``. Who goes first is determined randomly. On your turn:

- ``roll``: roll one die; a 1 loses your turn total and ends your turn, 2-6 adds to it;
- ``hold``: bank your turn total; reaching the target wins, otherwise the turn passes;
- ``draw``: once per turn, draw a chit from the hidden cup into your hand (only you see it);
- ``spend <chit>``: play a chit from your hand, adding its value to your turn total.

After ``max_turns`` turns the higher score wins (equal scores: a draw). Returns are +1 / -1 / 0.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from grandstrategy.core.actions import Action, no_args, parse_with
from grandstrategy.core.canonical import JSONObject, JSONValue, content_hash
from grandstrategy.core.chance import ChanceNode
from grandstrategy.core.errors import UserInputError
from grandstrategy.core.game import ModuleInfo
from grandstrategy.core.ids import CHANCE, TERMINAL, Seat, ToAct
from grandstrategy.core.state import GameState

NORTH = Seat("north")
SOUTH = Seat("south")
SEATS = (NORTH, SOUTH)
CHIT_VALUES = {"copper": 1, "silver": 2, "gold": 3}
MODULE_DATA: JSONObject = {"chits": CHIT_VALUES, "seats": list(SEATS)}
DEFAULTS: JSONObject = {"target": 20, "max_turns": 30, "cup": {"copper": 3, "silver": 2, "gold": 1}}


@dataclass(frozen=True, slots=True)
class Roll(Action):
    def notation(self) -> str:
        return "roll"


@dataclass(frozen=True, slots=True)
class Hold(Action):
    def notation(self) -> str:
        return "hold"


@dataclass(frozen=True, slots=True)
class Draw(Action):
    def notation(self) -> str:
        return "draw"


@dataclass(frozen=True, slots=True)
class Spend(Action):
    chit: str

    def notation(self) -> str:
        return f"spend {self.chit}"


def _parse_spend(args: Sequence[str]) -> Action:
    if len(args) != 1:
        raise ValueError("spend takes one chit name")
    chit = args[0].lower()
    if chit not in CHIT_VALUES:
        raise ValueError(f"unknown chit {args[0]!r} (chits: {', '.join(sorted(CHIT_VALUES))})")
    return Spend(chit)


_PARSERS = {"roll": no_args(Roll), "hold": no_args(Hold), "draw": no_args(Draw), "spend": _parse_spend}


class PigState(GameState):
    """All data lives in one JSON-ready dict, so to_json, clone and hashing are trivial."""

    def __init__(self, data: JSONObject) -> None:
        self.d = data

    # who moves
    def seats(self) -> tuple[Seat, ...]:
        return SEATS

    def to_act(self) -> ToAct:
        if self.d["over"]:
            return TERMINAL
        if self.d["pending"] is not None:
            return CHANCE
        return Seat(self.d["current"])

    def phase(self) -> str:
        return f"turn {self.d['turn']}"

    def legal_actions(self) -> list[Action]:
        who = self.to_act()
        if who is TERMINAL or who is CHANCE:
            return []
        actions: list[Action] = [Roll(), Hold()]
        if not self.d["drew"] and sum(self.d["cup"].values()) > 0:
            actions.append(Draw())
        actions.extend(Spend(c) for c in sorted(set(self.d["hands"][who])))
        return actions

    # moving
    def apply(self, action: Action) -> None:
        d = self.d
        me = d["current"]
        if isinstance(action, Roll):
            d["pending"] = "roll"
        elif isinstance(action, Draw):
            d["pending"] = "draw"
        elif isinstance(action, Spend):
            d["hands"][me].remove(action.chit)
            d["turn_total"] += CHIT_VALUES[action.chit]
        elif isinstance(action, Hold):
            d["scores"][me] += d["turn_total"]
            if d["scores"][me] >= d["target"]:
                d["over"] = True
            else:
                self._end_turn()
        else:
            raise AssertionError(f"not a Pig action: {action!r}")

    def _end_turn(self) -> None:
        d = self.d
        d["turn_total"] = 0
        d["drew"] = False
        d["current"] = SOUTH if d["current"] == NORTH else NORTH
        d["turn"] += 1
        if d["turn"] > d["max_turns"]:
            d["over"] = True

    def chance_node(self) -> ChanceNode:
        d = self.d
        if d["pending"] == "first":
            return ChanceNode.uniform("who goes first", SEATS)
        if d["pending"] == "roll":
            return ChanceNode.die(f"{d['current']} rolls")
        if d["pending"] == "draw":
            return ChanceNode.from_counts(f"{d['current']} draws", d["cup"], private_to=Seat(d["current"]))
        raise AssertionError("not a chance node")

    def apply_chance(self, outcome: str) -> None:
        d = self.d
        pending, d["pending"] = d["pending"], None
        if pending == "first":
            d["current"] = outcome
            d["turn"] = 1
        elif pending == "roll":
            face = int(outcome)
            if face == 1:
                self._end_turn()
            else:
                d["turn_total"] += face
        elif pending == "draw":
            d["cup"][outcome] -= 1
            d["hands"][d["current"]] = sorted([*d["hands"][d["current"]], outcome])
            d["drew"] = True
        else:
            raise AssertionError("not a chance node")

    # results, copies, views
    def returns(self) -> dict[Seat, float]:
        if not self.d["over"]:
            return {NORTH: 0.0, SOUTH: 0.0}
        n, s = self.d["scores"][NORTH], self.d["scores"][SOUTH]
        sign = (n > s) - (n < s)
        return {NORTH: float(sign), SOUTH: float(-sign)}

    def clone(self) -> PigState:
        return PigState(copy.deepcopy(self.d))

    def to_json(self) -> JSONObject:
        return copy.deepcopy(self.d)

    def view(self, seat: Seat | None) -> JSONObject:
        d = self.d
        return {
            "scores": dict(d["scores"]),
            "turn_total": d["turn_total"],
            "current": d["current"],
            "turn": d["turn"],
            "target": d["target"],
            "max_turns": d["max_turns"],
            "drew": d["drew"],
            "cup_size": sum(d["cup"].values()),
            "hands": {s: list(h) if s == seat else len(h) for s, h in d["hands"].items()},
        }


class PigRuleSet:
    """The rule set object: immutable metadata plus factories."""

    name = "toy-pig"
    aliases: tuple[str, ...] = ("pig", "pig-with-a-cup")
    module = ModuleInfo("toy-pig-module", "1", content_hash(MODULE_DATA))

    def new_state(self, options: Mapping[str, JSONValue]) -> PigState:
        unknown = sorted(set(options) - set(DEFAULTS))
        if unknown:
            raise UserInputError(f"unknown option(s) {', '.join(unknown)} (options: target, max_turns, cup)")
        opts: dict[str, Any] = {**DEFAULTS, **options}
        for key in ("target", "max_turns"):
            if not isinstance(opts[key], int) or isinstance(opts[key], bool) or opts[key] < 1:
                raise UserInputError(f"option {key} must be a positive integer, not {opts[key]!r}")
        cup = opts["cup"]
        if not isinstance(cup, dict) or any(
            c not in CHIT_VALUES or not isinstance(n, int) or isinstance(n, bool) or n < 0
            for c, n in cup.items()
        ):
            raise UserInputError(f"option cup must map chit names to counts, not {cup!r}")
        return PigState(
            {
                "target": opts["target"],
                "max_turns": opts["max_turns"],
                "scores": {NORTH: 0, SOUTH: 0},
                "turn_total": 0,
                "current": None,
                "turn": 0,
                "cup": {c: cup.get(c, 0) for c in sorted(CHIT_VALUES)},
                "hands": {NORTH: [], SOUTH: []},
                "drew": False,
                "pending": "first",
                "over": False,
            }
        )

    def parse_action(self, text: str) -> Action:
        return parse_with(text, _PARSERS)

    def state_from_json(self, data: JSONObject) -> PigState:
        if not isinstance(data, dict) or set(data) != set(self.new_state({}).d):
            raise ValueError("not a Pig state")
        return PigState(copy.deepcopy(data))


PIG = PigRuleSet()
