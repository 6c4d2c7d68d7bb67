"""The game kernel shared by every rule set: chance, decisions, actions, saves, views.

Nothing in ``core`` imports a rule set, a bot or the command line. The names most callers need
are re-exported here; each lives in a small module of its own (see ``docs/kernel.md``). They are
imported on first use, so a caller that needs one module (the command line needs ``core.errors``)
does not pay for the others. ``replay`` and ``view`` are also sub-module names: once such a sub-module has
been imported, the package attribute is the module, so import those two functions from their modules.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from grandstrategy.core.actions import Action, no_args, parse_with
    from grandstrategy.core.chance import ChanceEvent, ChanceNode, ChanceService
    from grandstrategy.core.errors import (
        DataError,
        GrandStrategyError,
        IllegalActionError,
        NotationError,
        SaveError,
        UserInputError,
    )
    from grandstrategy.core.game import ModuleInfo, RuleSet, find_ruleset, register_ruleset, ruleset_names
    from grandstrategy.core.ids import CHANCE, TERMINAL, Seat, ToAct, Turn
    from grandstrategy.core.log import ActionEntry, LogEntry
    from grandstrategy.core.replay import open_save, replay, restore
    from grandstrategy.core.rng import Rng
    from grandstrategy.core.save import SaveGame, load_save, loads_save, save_game, write_save
    from grandstrategy.core.session import DecisionPoint, Match
    from grandstrategy.core.state import GameState
    from grandstrategy.core.view import log_view, view

_HOME: dict[str, str] = {
    "Action": "grandstrategy.core.actions",
    "ActionEntry": "grandstrategy.core.log",
    "CHANCE": "grandstrategy.core.ids",
    "ChanceEvent": "grandstrategy.core.chance",
    "ChanceNode": "grandstrategy.core.chance",
    "ChanceService": "grandstrategy.core.chance",
    "DataError": "grandstrategy.core.errors",
    "DecisionPoint": "grandstrategy.core.session",
    "GameState": "grandstrategy.core.state",
    "GrandStrategyError": "grandstrategy.core.errors",
    "IllegalActionError": "grandstrategy.core.errors",
    "LogEntry": "grandstrategy.core.log",
    "Match": "grandstrategy.core.session",
    "ModuleInfo": "grandstrategy.core.game",
    "NotationError": "grandstrategy.core.errors",
    "Rng": "grandstrategy.core.rng",
    "RuleSet": "grandstrategy.core.game",
    "SaveError": "grandstrategy.core.errors",
    "SaveGame": "grandstrategy.core.save",
    "Seat": "grandstrategy.core.ids",
    "TERMINAL": "grandstrategy.core.ids",
    "ToAct": "grandstrategy.core.ids",
    "Turn": "grandstrategy.core.ids",
    "UserInputError": "grandstrategy.core.errors",
    "find_ruleset": "grandstrategy.core.game",
    "load_save": "grandstrategy.core.save",
    "loads_save": "grandstrategy.core.save",
    "log_view": "grandstrategy.core.view",
    "no_args": "grandstrategy.core.actions",
    "open_save": "grandstrategy.core.replay",
    "parse_with": "grandstrategy.core.actions",
    "register_ruleset": "grandstrategy.core.game",
    "replay": "grandstrategy.core.replay",
    "restore": "grandstrategy.core.replay",
    "ruleset_names": "grandstrategy.core.game",
    "save_game": "grandstrategy.core.save",
    "view": "grandstrategy.core.view",
    "write_save": "grandstrategy.core.save",
}

__all__ = [
    "CHANCE",
    "TERMINAL",
    "Action",
    "ActionEntry",
    "ChanceEvent",
    "ChanceNode",
    "ChanceService",
    "DataError",
    "DecisionPoint",
    "GameState",
    "GrandStrategyError",
    "IllegalActionError",
    "LogEntry",
    "Match",
    "ModuleInfo",
    "NotationError",
    "Rng",
    "RuleSet",
    "SaveError",
    "SaveGame",
    "Seat",
    "ToAct",
    "Turn",
    "UserInputError",
    "find_ruleset",
    "load_save",
    "loads_save",
    "log_view",
    "no_args",
    "open_save",
    "parse_with",
    "register_ruleset",
    "replay",
    "restore",
    "ruleset_names",
    "save_game",
    "view",
    "write_save",
]


def __getattr__(name: str) -> Any:
    """Import a re-exported name's module on first use (PEP 562)."""
    module = _HOME.get(name)
    if module is None:
        raise AttributeError(f"module 'grandstrategy.core' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value
