"""The PettingZoo environment: PettingZoo's API and seed tests on the toy game and on Cataclysm,
masks, hidden information, and episodes that repeat with their seed."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("pettingzoo")

from pettingzoo.test import api_test, seed_test

from core.toy_game import PIG
from grandstrategy.core.errors import UserInputError
from grandstrategy.core.rng import Rng
from grandstrategy.research.pettingzoo_env import KernelEnv

from .toy import PIG_VOCABULARY


def pig_env() -> KernelEnv:
    return KernelEnv(PIG, actions=PIG_VOCABULARY)


def play_out(env: KernelEnv, seed: int) -> tuple[list[int], dict[str, float]]:
    """One whole seeded episode with seeded uniform choices; the actions taken and the total rewards."""
    env.reset(seed=seed)
    rng, taken, totals = Rng(seed), [], dict.fromkeys(env.possible_agents, 0.0)
    for agent in env.agent_iter():
        observation, reward, terminated, truncated, _ = env.last()
        totals[agent] += reward
        if terminated or truncated:
            env.step(None)
            continue
        legal = np.flatnonzero(observation["action_mask"])
        action = int(legal[rng.below(len(legal))])
        taken.append(action)
        env.step(action)
    return taken, totals


def test_toy_game_passes_pettingzoos_api_and_seed_tests() -> None:
    api_test(pig_env(), num_cycles=300)
    seed_test(pig_env, num_cycles=100)


def test_cataclysm_passes_pettingzoos_api_test() -> None:
    env = KernelEnv("cataclysm", {"scenario": "europe-1939"})
    api_test(env, num_cycles=200)
    assert env.possible_agents == [
        "france",
        "united-kingdom",
        "united-states",
        "germany",
        "italy",
        "soviet-union",
    ]


def test_an_episode_ends_with_each_seats_return_and_repeats_with_its_seed() -> None:
    first, totals = play_out(pig_env(), seed=3)
    again, _ = play_out(pig_env(), seed=3)
    assert first == again
    assert sorted(totals.values()) == [-1.0, 1.0]  # zero-sum: one winner, one loser


def test_only_the_seat_on_move_has_a_mask_and_an_illegal_id_is_refused() -> None:
    env = pig_env()
    env.reset(seed=1)
    mover = env.agent_selection
    other = next(agent for agent in env.agents if agent != mover)
    assert env.observe(mover)["action_mask"].tolist() == [1, 1, 1, 0, 0, 0]  # roll, hold, draw
    assert not env.observe(other)["action_mask"].any()
    with pytest.raises(ValueError, match="not legal"):
        env.step(4)  # spend gold: no chit in hand
    assert env.agent_selection == mover and env.match is not None and not env.match.log[1:]


def test_another_seats_private_draw_does_not_change_what_a_seat_observes() -> None:
    """Seat A draws from the cup: A's observation changes with the chit drawn, B's does not."""
    seen: dict[str, list[np.ndarray]] = {}
    for seed in range(40):
        env = pig_env()
        env.reset(seed=seed)
        mover = env.agent_selection
        other = next(agent for agent in env.agents if agent != mover)
        env.step(2)  # draw
        assert env.agent_selection == mover
        chit = env.match.state.d["hands"][mover][0] if env.match is not None else ""
        seen.setdefault(chit, []).append(env.observe(other)["observation"])
        seen.setdefault(f"{chit} own", []).append(env.observe(mover)["observation"])
    chits = [name for name in seen if not name.endswith(" own")]
    assert len(chits) >= 2
    # the other seat's view depends on who moved first, so compare within each first mover
    others = {tuple(obs) for name in chits for obs in seen[name]}
    owns = {tuple(obs) for name in chits for obs in seen[f"{name} own"]}
    assert len(others) == 2 and len(owns) > 2


def test_an_unknown_rule_set_is_one_clear_error() -> None:
    with pytest.raises(UserInputError, match="unknown rule set"):
        KernelEnv("chess")


def test_max_steps_truncates_every_seat_without_rewards() -> None:
    env = KernelEnv(PIG, actions=PIG_VOCABULARY, max_steps=3)
    env.reset(seed=5)
    decisions = 0
    for agent in env.agent_iter():
        _, reward, terminated, truncated, _ = env.last()
        if terminated or truncated:
            assert truncated and not terminated and reward == 0.0
            env.step(None)
            continue
        env.step(1 if env.observe(agent)["action_mask"][1] else 0)  # hold: the turn passes
        decisions += 1
    assert decisions == 3 and env.agents == []
