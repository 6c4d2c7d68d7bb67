"""Random playouts of the toy game, driven by the kernel's own seeded Rng (never ``random``)."""

from __future__ import annotations

from collections.abc import Iterator

from grandstrategy.core.rng import Rng
from grandstrategy.core.session import Match

from .toy_game import PIG


def playout(seed: int, *, policy_seed: int | None = None, max_steps: int = 500, **options: object) -> Match:
    """Play one game with uniformly random legal choices; return the finished (or capped) match."""
    match = Match(PIG, seed=seed, options=options)
    for _ in steps(match, Rng(seed if policy_seed is None else policy_seed), max_steps):
        pass
    return match


def steps(match: Match, rng: Rng, max_steps: int = 500) -> Iterator[Match]:
    """Play random legal choices, yielding the match after each one."""
    for _ in range(max_steps):
        point = match.decision()
        if point is None:
            return
        match.play(point.seat, point.legal[rng.below(len(point.legal))])
        yield match
