"""Cataclysm as a kernel rule set: the top of the engine, where every step is registered.

It imports :mod:`turn` (which imports every step module, registering its handlers with the machine),
so nothing below may import this module: the steps reach each other through the machine's handler
table, never through the rule set.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping

from grandstrategy.cataclysm.engine import turn
from grandstrategy.cataclysm.engine.game import CataclysmGame, parse_choice
from grandstrategy.cataclysm.module import Module, load_module
from grandstrategy.cataclysm.state import CataclysmState, new_state
from grandstrategy.core.actions import Action
from grandstrategy.core.canonical import JSONObject, JSONValue
from grandstrategy.core.errors import UserInputError
from grandstrategy.core.game import ModuleInfo, register_ruleset


class CataclysmRuleSet:
    """The Cataclysm rule set over one module; options: ``scenario`` (default ``campaign-1933``)."""

    name = "cataclysm"
    aliases: tuple[str, ...] = ("cataclysm-lr", "cataclysm-living-rules")

    def __init__(self, module: Module | None = None) -> None:
        self._module = module

    @property
    def world(self) -> Module:
        if self._module is None:
            self._module = load_module()
        return self._module

    @property
    def module(self) -> ModuleInfo:
        return ModuleInfo(self.world.id, self.world.info.version, self.world.content_hash)

    def new_state(self, options: Mapping[str, JSONValue]) -> CataclysmGame:
        unknown = sorted(set(options) - {"scenario"})
        if unknown:
            raise UserInputError(f"unknown option(s) {', '.join(unknown)} (options: scenario)")
        scenario = options.get("scenario", "campaign-1933")
        if not isinstance(scenario, str):
            raise UserInputError(f"option scenario must be a scenario id, not {scenario!r}")
        game = CataclysmGame(self.world, new_state(self.world, scenario))
        turn.start(game)
        game.run()
        return game

    def parse_action(self, text: str) -> Action:
        return parse_choice(text)

    def state_from_json(self, data: JSONObject) -> CataclysmGame:
        if not isinstance(data, dict) or set(data) != {"state", "stack", "pending"}:
            raise ValueError("not a Cataclysm game: expected 'state', 'stack' and 'pending'")
        state_data = data["state"]
        if not isinstance(state_data, dict):
            raise ValueError("not a Cataclysm game: 'state' is not an object")
        stack = data["stack"]
        pending = data["pending"]
        if not isinstance(stack, list) or not (pending is None or isinstance(pending, dict)):
            raise ValueError("not a Cataclysm game: bad 'stack' or 'pending'")
        return CataclysmGame(
            self.world,
            CataclysmState.from_json(copy.deepcopy(state_data)),
            copy.deepcopy(stack),
            copy.deepcopy(pending),
        )


CATACLYSM = register_ruleset(CataclysmRuleSet())
