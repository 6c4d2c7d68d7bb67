"""Small graph helpers shared by the games: breadth-first distances over any adjacency."""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Hashable, Iterable
from typing import TypeVar

N = TypeVar("N", bound=Hashable)


def bfs_distances(
    starts: Iterable[N], neighbours: Callable[[N], Iterable[N]], limit: int | None = None
) -> dict[N, int]:
    """Steps from the nearest start to every node reachable through ``neighbours``.

    Starts are at distance 0. ``neighbours`` decides which moves are allowed (a caller keeps to
    sea zones, say, by yielding only those). With ``limit``, nodes farther than it are left out.
    """
    distance: dict[N, int] = {}
    queue: deque[N] = deque()
    for node in starts:
        if node not in distance:
            distance[node] = 0
            queue.append(node)
    while queue:
        node = queue.popleft()
        step = distance[node] + 1
        if limit is not None and step > limit:
            continue
        for other in neighbours(node):
            if other not in distance:
                distance[other] = step
                queue.append(other)
    return distance
