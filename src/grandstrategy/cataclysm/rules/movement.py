"""Movement (LR 7.2, 8.4), range (LR 7.3), support (LR 10.2), invasion paths (LR 9.3.2), retreat
(LR 10.10) and regroup (LR 10.11), as pure functions of the module and the state: one import path
for the modules that hold them.

- :mod:`entry`: whether a unit may enter one area now (LR 7.2), one move at a time, and the coast
  it arrives on (LR 2.2.1);
- :mod:`deployment_reach`: every area a deployment could reach (LR 8.4, 7.2), before occupation;
- :mod:`deployment`: where a deployment may end, on which coast, and withdrawals (LR 8.4, 8.4.1);
- :mod:`op_range`: operation range, support and invasion paths (LR 7.3, 9.1.2, 9.3.2, 10.2);
- :mod:`retreat`: retreat and regroup (LR 10.10, 10.11).
"""

from __future__ import annotations

from grandstrategy.cataclysm.rules.deployment import (
    deployment_coasts,
    deployment_destinations,
    deployment_map,
    deployment_movers,
    may_withdraw,
)
from grandstrategy.cataclysm.rules.entry import (
    MOVES,
    Mode,
    arrival_coast,
    coast_on_arrival,
    friendly_airfields,
    friendly_port_areas,
    is_friendly_area,
    step_moves,
)
from grandstrategy.cataclysm.rules.op_range import (
    RANGE,
    CombatKind,
    in_op_range,
    invasion_paths,
    op_arrival_coasts,
    support_possible,
)
from grandstrategy.cataclysm.rules.retreat import regroup_destinations, retreat_destinations

__all__ = [
    "MOVES",
    "RANGE",
    "CombatKind",
    "Mode",
    "arrival_coast",
    "coast_on_arrival",
    "deployment_coasts",
    "deployment_destinations",
    "deployment_map",
    "deployment_movers",
    "friendly_airfields",
    "friendly_port_areas",
    "in_op_range",
    "invasion_paths",
    "is_friendly_area",
    "may_withdraw",
    "op_arrival_coasts",
    "regroup_destinations",
    "retreat_destinations",
    "step_moves",
    "support_possible",
]
