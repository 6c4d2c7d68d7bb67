"""The game kernel shared by every rule set: chance, decisions, actions, saves, views.

Nothing in ``core`` imports a rule set, a bot or the command line. The names most callers need
are re-exported here; each lives in a small module of its own (see ``docs/kernel.md``).
"""

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
