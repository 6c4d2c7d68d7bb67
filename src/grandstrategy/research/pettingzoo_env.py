"""Any kernel rule set as a PettingZoo AEC environment (needs the ``research`` extra).

Agents are the seats, in the rule set's order; the agent selected is always the seat on move.
A game is a :class:`~grandstrategy.core.session.Match`, so chance is drawn by the kernel's seeded
chance service and never by the agents or the environment: ``reset(seed=s)`` starts the game with
seed ``s`` and a whole episode is a pure function of that seed and the actions. ``reset()``
without a seed starts the next game of a fixed sequence (seed 0 first, then seeds derived from
the previous one), so runs repeat.

Spaces (see :mod:`grandstrategy.research.encoding` for the layouts):

- action: ``Discrete(n)`` with ``n`` the codec's size; an action not legal now is refused;
- observation: ``{"observation": Box(float32, encoder size), "action_mask": Box(int8, n)}``; the
  mask is all zeros for a seat that is not on move.

Rewards are 0 until the end, then each seat's final return; the episode is truncated for every
seat after ``max_steps`` decisions when that is set.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

import gymnasium
import numpy as np
from pettingzoo import AECEnv

from grandstrategy.core.canonical import JSONValue
from grandstrategy.core.game import RuleSet
from grandstrategy.core.ids import Seat
from grandstrategy.core.session import Match
from grandstrategy.research.encoding import ActionCodec, EncodingError, ResearchSpec, research_spec

DEFAULT_SEED = 0


def _next_seed(seed: int) -> int:
    from grandstrategy.play.bots import derive_seed

    return derive_seed(seed, "next episode")


class KernelEnv(AECEnv):  # type: ignore[misc]
    """A kernel rule set with options as an AEC environment (agents = seats)."""

    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": ["ansi"],
        "name": "grandstrategy_v0",
        "is_parallelizable": False,
    }

    def __init__(
        self,
        ruleset: RuleSet | str,
        options: Mapping[str, JSONValue] | None = None,
        *,
        actions: ActionCodec | None = None,
        spec: ResearchSpec | None = None,
        max_steps: int | None = None,
        render_mode: str | None = None,
    ) -> None:
        """``ruleset`` is a rule set or a registered name; ``spec`` overrides everything else.

        :raises UserInputError: an unknown rule set, bad options.
        """
        super().__init__()
        if spec is None:
            if isinstance(ruleset, str):
                from grandstrategy.play.games import load_ruleset

                ruleset = load_ruleset(ruleset)
            spec = research_spec(ruleset, options, actions=actions)
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render mode {render_mode!r} is not one of {self.metadata['render_modes']}")
        self.spec = spec
        self.render_mode = render_mode
        self.max_steps = max_steps
        self.possible_agents: list[str] = [str(seat) for seat in spec.seats]
        size = spec.encoder.size
        self._observation_space = gymnasium.spaces.Dict(
            {
                "observation": gymnasium.spaces.Box(-np.inf, np.inf, (size,), np.float32),
                "action_mask": gymnasium.spaces.Box(0, 1, (spec.actions.size,), np.int8),
            }
        )
        self._action_space = gymnasium.spaces.Discrete(spec.actions.size)
        self._seed: int | None = None
        self.match: Match | None = None

    # ---- spaces ----------------------------------------------------------------------------------

    def observation_space(self, agent: str) -> gymnasium.spaces.Space[Any]:
        """The same for every seat (the seat is one-hot inside the vector)."""
        return self._observation_space

    def action_space(self, agent: str) -> gymnasium.spaces.Space[Any]:
        """``Discrete(codec size)``."""
        return self._action_space

    # ---- episodes --------------------------------------------------------------------------------

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Start a game seeded ``seed`` (else the next seed of the fixed sequence).

        ``options`` is accepted for the PettingZoo signature and ignored: the rule set's options
        are fixed when the environment is made.
        """
        if seed is None:
            seed = DEFAULT_SEED if self._seed is None else _next_seed(self._seed)
        self._seed = seed
        self.match = Match(self.spec.ruleset, seed=seed, options=self.spec.options)
        self.agents = list(self.possible_agents)
        self.rewards = {agent: 0.0 for agent in self.agents}
        self._cumulative_rewards = {agent: 0.0 for agent in self.agents}
        self.terminations = {agent: False for agent in self.agents}
        self.truncations = {agent: False for agent in self.agents}
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self.steps = 0
        self._select()

    def _select(self) -> None:
        """Select the seat on move; at the end, set rewards and terminations for everybody."""
        assert self.match is not None
        decision = self.match.decision()
        if decision is not None:
            self.agent_selection = str(decision.seat)
            return
        results = self.match.returns()
        for agent in self.agents:
            self.rewards[agent] = float(results.get(Seat(agent), 0.0))
            self.terminations[agent] = True
        self.agent_selection = self.agents[0] if self.agents else ""

    def observe(self, agent: str) -> dict[str, Any]:
        """``{"observation", "action_mask"}`` of ``agent`` now."""
        assert self.match is not None, "call reset() first"
        state, seat = self.match.state, Seat(agent)
        return {"observation": self.spec.observe(state, seat), "action_mask": self.spec.mask(state, seat)}

    def step(self, action: int | None) -> None:
        """Play ``action`` (an id) for the selected seat; ``None`` for a seat whose game is over.

        :raises ValueError: the id is not legal now (the message names the legal ids).
        """
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        assert self.match is not None
        if action is None:
            raise ValueError(f"{agent} is on move and must act; None is only for a finished seat")
        state = self.match.state
        try:
            chosen = self.spec.action_for(state, int(action))
        except EncodingError:
            raise ValueError(
                f"action {action} is not legal for {agent} now; legal ids: {self.spec.legal_ids(state)}"
            ) from None
        self._cumulative_rewards[agent] = 0.0
        self.match.play(Seat(agent), chosen)
        self.steps += 1
        self._select()
        if self.max_steps is not None and self.steps >= self.max_steps and not self.match.is_terminal():
            for name in self.agents:
                self.truncations[name] = True
        self._accumulate_rewards()

    def render(self) -> str | None:
        """With ``render_mode="ansi"``: the phase and who is on move."""
        if self.render_mode != "ansi" or self.match is None:
            return None
        decision = self.match.decision()
        who = decision.seat if decision is not None else "nobody (game over)"
        return f"{self.match.state.phase()}: {who} to act"

    def close(self) -> None:
        """Nothing to release."""
