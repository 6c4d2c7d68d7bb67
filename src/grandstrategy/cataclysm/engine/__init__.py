"""The Cataclysm sequence of play on the kernel: a resumable machine of steps.

The game advances by popping *steps* (plain JSON records) off a stack and running their handlers.
A handler may push further steps, ask a power to choose among legal options, or ask for a chance
outcome (a die, a cup draw); the answer comes back as a new step that carries it. Because every
pending step is data, a game can be saved, copied and replayed at any point.
"""

from grandstrategy.cataclysm.engine.game import CataclysmGame, Choose
from grandstrategy.cataclysm.engine.ruleset import CATACLYSM, CataclysmRuleSet

__all__ = ["CATACLYSM", "CataclysmGame", "CataclysmRuleSet", "Choose"]
