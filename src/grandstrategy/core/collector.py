"""Garbage-collector settings for long runs of play: self-play, tournaments, benchmarks.

A game allocates many short-lived objects (state copies, menus, snapshots) that reference counting
frees at once; almost none form cycles. Python's default collector still runs its youngest
generation every 700 net allocations and, every so often, a full collection that walks every
object alive, the loaded rules data included: about a tenth of the time of a heuristic bot's game
(5 % of a random one) in the issue-15 measurements. :func:`tune_for_play` moves what is alive
now (modules and loaded data, which are never garbage) out of the collector's sight and collects
the youngest generation less often. Games are unchanged: the collector decides when cyclic garbage
is freed, never what a rule or a bot computes.
"""

from __future__ import annotations

import gc

PLAY_THRESHOLD = 20_000
"""Net allocations between two collections of the youngest generation during play (default 700)."""

_tuned = False


def tune_for_play() -> None:
    """Freeze the objects alive now and raise the youngest generation's threshold, once per process.

    Call it after the rule set is loaded, in each process that plays many games. Later calls do
    nothing, so the objects of a game in progress are never frozen.
    """
    global _tuned
    if _tuned:
        return
    _tuned = True
    gc.collect()
    gc.freeze()
    first, second, third = gc.get_threshold()
    gc.set_threshold(max(first, PLAY_THRESHOLD), second, third)
