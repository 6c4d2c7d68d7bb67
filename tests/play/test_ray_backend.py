"""The Ray backend: seeded games played as Ray tasks give exactly the local results.

One local Ray instance (two CPUs, no dashboard) serves the whole module; the runner leaves an
instance it did not start running. Its workers register the toy rule set at start-up (see
``ray_hook.py``), so a whole tournament of toy games can run on Ray too.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

ray = pytest.importorskip("ray")

from grandstrategy.core.errors import UserInputError  # noqa: E402
from grandstrategy.play.runner import run_all  # noqa: E402
from grandstrategy.play.simulate import GameSpec, game_seed, play_game  # noqa: E402
from grandstrategy.play.tournament import (  # noqa: E402
    Fixture,
    _play,
    tournament,
)

from .conftest import SCENARIO, Cli  # noqa: E402
from .ray_hook import register_toy  # noqa: E402
from .test_simulate import without_seconds  # noqa: E402

register_toy()


@pytest.fixture(scope="module", autouse=True)
def local_ray() -> Iterator[None]:
    tests = Path(__file__).resolve().parents[1]
    ray.init(
        num_cpus=2,
        include_dashboard=False,
        log_to_driver=False,
        configure_logging=False,
        runtime_env={
            "env_vars": {"PYTHONPATH": os.pathsep.join([str(tests), os.environ.get("PYTHONPATH", "")])},
            "worker_process_setup_hook": "play.ray_hook.register_toy",
        },
    )
    try:
        yield
    finally:
        ray.shutdown()


def test_simulate_on_ray_equals_local(cli: Cli) -> None:
    args = ("simulate", "cataclysm", "--scenario", SCENARIO, "--games", "3", "--seed", "5", "--json")
    local = cli(*args)
    on_ray = cli(*args, "--backend", "ray")
    assert local.code == 0 and on_ray.code == 0, on_ray.err
    assert without_seconds(on_ray.json()) == without_seconds(local.json())
    assert [game["index"] for game in on_ray.json()["games"]] == [0, 1, 2]
    assert ray.is_initialized()  # the fixture's instance is left running


def test_tournament_games_on_ray_equal_local() -> None:
    """The tournament's unit of work (one fixture) gives the same report on Ray and here."""
    powers = ("france", "united-kingdom", "united-states", "germany", "italy", "soviet-union")
    seats = dict.fromkeys(powers, "bot:random")
    work: list[tuple[Fixture, GameSpec]] = []
    for index in range(2):
        seed = game_seed(21, index)
        fixture = Fixture(index, index, "bot:random", "bot:random", "fascism", seats, seed)
        work.append((fixture, GameSpec(index, "cataclysm", {"scenario": SCENARIO}, seed, seats, False)))
    arrived: list[Any] = []
    remote = run_all(_play, work, backend="ray", progress=arrived.append)
    local = run_all(_play, work)
    assert [f for f, _ in remote] == [f for f, _ in local]
    assert [r.log_hash for _, r in remote] == [r.log_hash for _, r in local]
    assert [r.winner for _, r in remote] == [r.winner for _, r in local]
    assert len(arrived) == 2


def test_an_engine_error_in_a_ray_task_comes_back_as_itself() -> None:
    spec = GameSpec(0, "cataclysm", {"scenario": SCENARIO}, 1, {"germany": "human"}, False)
    with pytest.raises(UserInputError, match="germany is human"):
        run_all(play_game, [spec], backend="ray")


def test_a_whole_tournament_on_ray_equals_local(cli: Cli) -> None:
    kinds = ("bot:random", "bot:heuristic")
    local = tournament("toy-pig", options={}, kinds=kinds, rounds=3, seed=8, bootstrap=50)
    on_ray = tournament("toy-pig", options={}, kinds=kinds, rounds=3, seed=8, bootstrap=50, backend="ray")
    assert on_ray.to_json() == local.to_json()
    args = ("tournament", "toy-pig", "--games", "2", "--seed", "3", "--json")
    assert cli(*args, "--backend", "ray").json() == cli(*args).json()
