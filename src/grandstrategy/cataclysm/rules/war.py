"""Wars as the rules group them (LR 5.6) and the Global War end turn (LR 5.6.5)."""

from __future__ import annotations

from collections.abc import Iterable

from grandstrategy.cataclysm.module import Module
from grandstrategy.cataclysm.module.schema import Ideology
from grandstrategy.cataclysm.state import CataclysmState

LATEST_GLOBAL_WAR_END = 1945
"""Global War ends the game no earlier than the 1945-46 turn (LR 5.6.5)."""


def group_wars(module: Module, enemies: Iterable[tuple[str, str]]) -> list[tuple[list[str], list[str]]]:
    """Group pairs of enemies into wars (LR 5.6).

    Powers of one ideology at war with a common enemy share a war, transitively; a war only ever
    holds two ideologies, so Germany's war with the Soviet Union stays apart from its war with the
    UK. Each war is (side, side) with the sides and powers in a stable order.
    """
    parent: dict[tuple[frozenset[Ideology], str], tuple[frozenset[Ideology], str]] = {}

    def find(node: tuple[frozenset[Ideology], str]) -> tuple[frozenset[Ideology], str]:
        while parent.setdefault(node, node) != node:
            node = parent[node]
        return node

    for a, b in enemies:
        pair = frozenset((module.powers[a].ideology, module.powers[b].ideology))
        if len(pair) != 2:
            raise ValueError(f"{a} and {b} share an ideology and cannot be at war")
        root_a, root_b = find((pair, a)), find((pair, b))
        if root_a != root_b:
            parent[root_b] = root_a
    groups: dict[tuple[frozenset[Ideology], str], set[str]] = {}
    for node in list(parent):
        groups.setdefault(find(node), set()).add(node[1])
    wars = []
    for (pair, _), members in groups.items():
        first, second = sorted(pair, key=lambda ideo: ideo.value)
        side_a = sorted(p for p in members if module.powers[p].ideology is first)
        side_b = sorted(p for p in members if module.powers[p].ideology is second)
        wars.append((side_a, side_b))
    return sorted(wars)


def enemy_pairs(state: CataclysmState) -> list[tuple[str, str]]:
    """Every pair of powers at war, from the state's wars, less those at peace by armistice."""
    return [
        (a, b)
        for side_a, side_b in state.wars
        for a in side_a
        for b in side_b
        if sorted((a, b)) not in state.peace
    ]


def global_war_now(module: Module, state: CataclysmState) -> bool:
    """Whether at least one power of every ideology is belligerent (LR 5.6.5)."""
    fighting = {power for side_a, side_b in state.wars for power in side_a + side_b}
    return {module.powers[power].ideology for power in fighting} == set(Ideology)


def global_war_last_turn(current_turn: int) -> int:
    """The last turn once Global War begins: two turns on, and never before 1945-46 (LR 5.6.5)."""
    return max(current_turn + 4, LATEST_GLOBAL_WAR_END)
