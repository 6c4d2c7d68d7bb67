"""Where many independent games run: in this process, in local worker processes, or on Ray.

:func:`run_all` maps a picklable function over picklable game specs and returns the results in
the specs' order. Each game is a pure function of its spec (seeded chance, seeded bots), so the
backend changes only where and how fast the games run, never their results.

- ``local``: ``jobs == 1`` plays in this process; more jobs start ``spawn`` worker processes;
- ``ray``: each game is one Ray task. ``address`` names a running cluster (``"auto"``, or
  ``"ray://host:10001"``); without it a local Ray instance is started for the run (``jobs`` CPUs)
  and stopped afterwards. If Ray is already initialised in this process (a notebook, a test
  fixture) that instance is used and left running. Every node needs grandstrategy installed.
"""

from __future__ import annotations

import logging
import multiprocessing
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from typing import Any, TypeVar

from grandstrategy.core.errors import GrandStrategyError, UserInputError

S = TypeVar("S")
R = TypeVar("R")

BACKENDS = ("local", "ray")


def run_all(
    play: Callable[[S], R],
    specs: Sequence[S],
    *,
    backend: str = "local",
    jobs: int = 1,
    address: str | None = None,
    progress: Callable[[R], None] | None = None,
) -> list[R]:
    """``[play(spec) for spec in specs]``, on the chosen backend; ``progress`` sees each result as
    it arrives (in finishing order when games run in parallel).

    :raises UserInputError: an unknown backend, ``jobs`` below 1, ``address`` without Ray, or Ray
        not installed.
    """
    if backend not in BACKENDS:
        raise UserInputError(f"unknown backend {backend!r} (backends: {', '.join(BACKENDS)})")
    if jobs < 1:
        raise UserInputError(f"--jobs must be at least 1, not {jobs}")
    if backend == "ray":
        return _run_ray(play, specs, jobs, address, progress)
    if address is not None:
        raise UserInputError("--address names a Ray cluster; use it with --backend ray")
    if jobs == 1 or len(specs) <= 1:
        return _run_here(play, specs, progress)
    return _run_processes(play, specs, jobs, progress)


def _run_here(play: Callable[[S], R], specs: Sequence[S], progress: Callable[[R], None] | None) -> list[R]:
    results = []
    for spec in specs:
        result = play(spec)
        results.append(result)
        if progress is not None:
            progress(result)
    return results


def _run_processes(
    play: Callable[[S], R], specs: Sequence[S], jobs: int, progress: Callable[[R], None] | None
) -> list[R]:
    context = multiprocessing.get_context("spawn")
    results: dict[int, R] = {}
    with ProcessPoolExecutor(max_workers=min(jobs, len(specs)), mp_context=context) as pool:
        futures = {pool.submit(play, spec): index for index, spec in enumerate(specs)}
        try:
            for future in as_completed(futures):
                result = future.result()
                results[futures[future]] = result
                if progress is not None:
                    progress(result)
        except BaseException:
            for future in futures:
                future.cancel()
            raise
    return [results[index] for index in range(len(specs))]


def _import_ray() -> Any:
    try:
        import ray
    except ImportError:
        raise UserInputError(
            "the ray backend needs Ray: pip install 'grandstrategy[ray]' (or: pip install ray)"
        ) from None
    return ray


def _run_ray(
    play: Callable[[S], R],
    specs: Sequence[S],
    jobs: int,
    address: str | None,
    progress: Callable[[R], None] | None,
) -> list[R]:
    ray = _import_ray()
    started = False
    if not ray.is_initialized():
        try:
            if address is None:
                ray.init(
                    num_cpus=jobs, include_dashboard=False, log_to_driver=False, logging_level=logging.WARNING
                )
            else:
                ray.init(address=address, log_to_driver=False, logging_level=logging.WARNING)
        except (ConnectionError, ValueError, RuntimeError) as error:
            where = address or "this machine"
            raise UserInputError(f"cannot start or reach Ray at {where}: {error}") from None
        started = True
    try:
        task = ray.remote(play)
        refs = [task.remote(spec) for spec in specs]
        index_of = {ref: index for index, ref in enumerate(refs)}
        results: dict[int, R] = {}
        pending = list(refs)
        while pending:
            done, pending = ray.wait(pending, num_returns=1)
            for ref in done:
                result = _ray_get(ray, ref)
                results[index_of[ref]] = result
                if progress is not None:
                    progress(result)
        return [results[index] for index in range(len(specs))]
    finally:
        if started:
            ray.shutdown()


def _ray_get(ray: Any, ref: Any) -> Any:
    """The task's result; an error the library raises on purpose comes back as itself."""
    try:
        return ray.get(ref)
    except ray.exceptions.RayTaskError as error:
        cause = getattr(error, "cause", None)
        if isinstance(cause, GrandStrategyError):
            raise cause from None
        raise
