"""Axis & Allies Revised (LHTR 1.3) as a playable rule set on the kernel (docs/aa-game.md).

Importing this package registers the rule set ``aa-revised``.
"""

from grandstrategy.axis_allies.game.engine import AAGame, Choose
from grandstrategy.axis_allies.game.profile import Profile
from grandstrategy.axis_allies.game.ruleset import AA_REVISED, AARuleSet

__all__ = ["AA_REVISED", "AAGame", "AARuleSet", "Choose", "Profile"]
