"""core.graph.bfs_distances: steps from the nearest start, optional limit."""

from __future__ import annotations

from grandstrategy.core.graph import bfs_distances

LINE = {"a": ["b"], "b": ["a", "c"], "c": ["b", "d"], "d": ["c"], "e": []}


def test_distances_from_the_nearest_start() -> None:
    assert bfs_distances(["a"], LINE.__getitem__) == {"a": 0, "b": 1, "c": 2, "d": 3}
    assert bfs_distances(["a", "d"], LINE.__getitem__) == {"a": 0, "d": 0, "b": 1, "c": 1}


def test_limit_leaves_out_farther_nodes() -> None:
    assert bfs_distances(["a"], LINE.__getitem__, limit=1) == {"a": 0, "b": 1}
    assert bfs_distances(["e"], LINE.__getitem__) == {"e": 0}
