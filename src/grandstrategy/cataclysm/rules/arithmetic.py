"""Small rules computations that take numbers and levels, not a game state.

Order of play (LR 3.1), Sudden Death (LR 3.7.5), conversion and military actions by commitment
(LR 4.1, 4.5, 4.6, 8.0).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from grandstrategy.cataclysm.module.schema import Commitment, Ideology

_DECREASING_TIES = {Ideology.FASCISM: 0, Ideology.COMMUNISM: 1, Ideology.DEMOCRACY: 2}
_INCREASING_TIES = {Ideology.DEMOCRACY: 0, Ideology.COMMUNISM: 1, Ideology.FASCISM: 2}


@dataclass(frozen=True, slots=True)
class Standing:
    """What the order of play looks at for one power: its effectiveness and ideology."""

    power: str
    effectiveness: int
    ideology: Ideology


def effectiveness_order(powers: Iterable[Standing], *, decreasing: bool) -> list[list[str]]:
    """Powers in effectiveness order (LR 3.1), as groups that the rules leave tied.

    Ties between ideologies follow the fixed order (Fascist, Communist, Democrat when decreasing;
    the reverse when increasing). Powers of one ideology with equal effectiveness share a group:
    their players agree, or chance decides, so the caller resolves those.
    """
    ties = _DECREASING_TIES if decreasing else _INCREASING_TIES
    sign = -1 if decreasing else 1
    groups: dict[tuple[int, int], list[str]] = {}
    for standing in powers:
        key = (sign * standing.effectiveness, ties[standing.ideology])
        groups.setdefault(key, []).append(standing.power)
    return [sorted(groups[key]) for key in sorted(groups)]


SUDDEN_DEATH_THRESHOLD = {
    Commitment.CIVILIAN: 2,
    Commitment.REARMAMENT: 2,
    Commitment.MOBILIZATION: 3,
    Commitment.EXHAUSTION: 3,
    Commitment.TOTAL_WAR: 4,
}
"""Own counters a power needs left in the cup for the action phase to go on (LR 3.7.5)."""


def sudden_death_continues(counters: Mapping[str, int], commitment: Mapping[str, Commitment]) -> bool:
    """Whether the action phase continues after a Sudden Death check (LR 3.7.5)."""
    return any(count >= SUDDEN_DEATH_THRESHOLD[commitment[power]] for power, count in counters.items())


def _ratio(text: str) -> tuple[int, int]:
    left, right = text.split(":")
    return int(left), int(right)


def builds(resources: int, conversion: str) -> int:
    """Builds from resources kept for construction, fractions dropped (LR 4.5, 4.6).

    ``conversion`` is the status card's "resources : builds" ratio, e.g. "2:1" at Civilian.
    """
    if resources < 0:
        raise ValueError(f"resources cannot be negative ({resources})")
    spent, made = _ratio(conversion)
    return resources * made // spent


def military_actions(offensives: int, rate: str) -> int:
    """Military actions from offensives played together (LR 4.1, 8.0): "2:1" needs two for one."""
    if offensives < 0:
        raise ValueError(f"offensives cannot be negative ({offensives})")
    spent, made = _ratio(rate)
    return offensives * made // spent
