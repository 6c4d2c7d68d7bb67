"""Any kernel rule set as an OpenSpiel game (needs the ``research`` extra: ``open_spiel``).

Importing this module registers the Python game ``grandstrategy`` with ``pyspiel``; its parameters
are ``ruleset`` (a registered rule set's name) and ``options`` (the rule set's options as JSON
text)::

    import pyspiel
    import grandstrategy.research.openspiel_game  # registers "grandstrategy"
    game = pyspiel.load_game("grandstrategy", {"ruleset": "cataclysm",
                                               "options": '{"scenario": "europe-1939"}'})

or, with an explicit :class:`~grandstrategy.research.encoding.ResearchSpec` (another codec, a
rule set that is not registered): ``KernelGame(spec=spec)``.

The game is sequential with explicit stochastic chance: the rule set's chance nodes are
OpenSpiel chance nodes, outcome ``i`` being the ``i``-th outcome the rule set lists, with its exact
probability as a float. Players are the seats in the rule set's order. Information is imperfect
(a rule set may hide a cup's contents or a seat's private draws): the observation of a player is
its kernel view, and its information state is its own record of the game, where another seat's
private chance outcomes, and its answers to secret decisions, read ``?`` (as in
:func:`grandstrategy.core.view.log_view`). Other actions are public. The information-state
string is ``"<seat> <digest>"``, where the digest chains SHA-256 over that record, so perfect
recall costs constant time per move; there is no information-state tensor (a fixed-size one
cannot hold a game of unbounded length).
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

import numpy as np
import pyspiel

from grandstrategy.core.canonical import JSONObject, canonical_json
from grandstrategy.core.errors import UserInputError
from grandstrategy.core.ids import CHANCE, TERMINAL, Seat
from grandstrategy.core.state import GameState
from grandstrategy.core.view import HIDDEN, view
from grandstrategy.research.encoding import ResearchSpec, research_spec

SHORT_NAME = "grandstrategy"
MAX_PLAYERS = 16
PARAMETERS: dict[str, Any] = {"ruleset": "cataclysm", "options": "{}"}


def _game_type(spec: ResearchSpec | None) -> Any:
    """The registered type (``spec=None``: any player count) or one instance's exact type."""
    players = len(spec.seats) if spec is not None else None
    utility = pyspiel.GameType.Utility.GENERAL_SUM
    if spec is not None and spec.zero_sum:
        utility = pyspiel.GameType.Utility.ZERO_SUM
    return pyspiel.GameType(
        short_name=SHORT_NAME,
        long_name="grandstrategy kernel rule set",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=utility,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=players or MAX_PLAYERS,
        min_num_players=players or 1,
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=PARAMETERS,
    )


def spec_from_parameters(params: dict[str, Any]) -> ResearchSpec:
    """The spec for OpenSpiel parameters ``{"ruleset", "options"}``.

    :raises UserInputError: an unknown rule set, options that are not a JSON object, bad options.
    """
    from grandstrategy.play.games import load_ruleset

    ruleset = load_ruleset(str(params.get("ruleset", PARAMETERS["ruleset"])))
    text = str(params.get("options", PARAMETERS["options"]))
    try:
        options = json.loads(text)
    except json.JSONDecodeError as error:
        raise UserInputError(f"options must be a JSON object, not {text!r} ({error})") from None
    if not isinstance(options, dict):
        raise UserInputError(f"options must be a JSON object, not {text!r}")
    return research_spec(ruleset, options)


class KernelGame(pyspiel.Game):  # type: ignore[misc]
    """A kernel rule set with options, as an OpenSpiel game."""

    def __init__(self, params: dict[str, Any] | None = None, *, spec: ResearchSpec | None = None) -> None:
        self.spec = spec if spec is not None else spec_from_parameters(dict(params or {}))
        info = pyspiel.GameInfo(
            num_distinct_actions=self.spec.actions.size,
            max_chance_outcomes=self.spec.max_chance_outcomes,
            num_players=len(self.spec.seats),
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=0.0 if self.spec.zero_sum else None,
            max_game_length=self.spec.max_game_length,
        )
        given = dict(params or {})
        if spec is not None:
            given = {"ruleset": spec.ruleset.name, "options": canonical_json(spec.options)}
        super().__init__(_game_type(self.spec), info, {**PARAMETERS, **given})
        self._initial = self.spec.ruleset.new_state(self.spec.options)

    def new_initial_state(self) -> KernelState:
        """A fresh game (a copy of the rule set's initial state, which may be a chance node)."""
        return KernelState(self)

    def make_py_observer(
        self, iig_obs_type: Any = None, params: dict[str, Any] | None = None
    ) -> KernelObserver:
        """The observer: perfect recall gives information states, otherwise per-seat views."""
        if params:
            raise ValueError(f"observation parameters are not supported: {params}")
        return KernelObserver(self.spec, iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False))


class _Holder:
    """The kernel state inside an OpenSpiel state; OpenSpiel's clone deep-copies attributes, and
    this copies the kernel state through its own :meth:`GameState.clone` (no shared data)."""

    def __init__(self, state: GameState) -> None:
        self.state = state
        self.views: dict[Seat | None, JSONObject] = {}

    def view(self, seat: Seat | None) -> JSONObject:
        """The kernel view for ``seat``, built once per position."""
        if seat not in self.views:
            self.views[seat] = view(self.state, seat)
        return self.views[seat]

    def changed(self) -> None:
        self.views.clear()

    def __deepcopy__(self, memo: dict[int, Any]) -> _Holder:
        return _Holder(self.state.clone())


class _Shared:
    """Immutable game data (the spec) held by every state: clones share it instead of copying."""

    def __init__(self, spec: ResearchSpec) -> None:
        self.spec = spec

    def __deepcopy__(self, memo: dict[int, Any]) -> _Shared:
        return self


def _step(digest: str, entry: str) -> str:
    return hashlib.sha256(f"{digest}\n{entry}".encode()).hexdigest()


class KernelState(pyspiel.State):  # type: ignore[misc]
    """One position: a kernel state plus each seat's chained record digest."""

    def __init__(self, game: KernelGame) -> None:
        super().__init__(game)
        self._shared = _Shared(game.spec)
        self._kernel = _Holder(game._initial.clone())
        self._records = [_step("", seat) for seat in game.spec.seats]
        self._path = _step("", "start")  # every move and true outcome: names the position

    @property
    def _spec(self) -> ResearchSpec:
        return self._shared.spec

    @property
    def kernel(self) -> GameState:
        """The kernel state (read-only for callers)."""
        return self._kernel.state

    def current_player(self) -> int:
        """The seat's index, or OpenSpiel's CHANCE / TERMINAL."""
        who = self.kernel.to_act()
        if who is TERMINAL:
            return int(pyspiel.PlayerId.TERMINAL)
        if who is CHANCE:
            return int(pyspiel.PlayerId.CHANCE)
        return self._spec.seats.index(Seat(str(who)))

    def _legal_actions(self, player: int) -> list[int]:
        return self._spec.legal_ids(self.kernel)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """``(outcome index, probability)`` for each outcome of the chance node."""
        return [(index, p) for index, _, p in self._spec.chance_outcomes(self.kernel)]

    def _apply_action(self, action: int) -> None:
        state = self.kernel
        if state.to_act() is CHANCE:
            node = state.chance_node()
            text = node.outcomes[action][0]
            state.apply_chance(text)
            self._path = _step(self._path, f"chance {node.label}: {text}")
            for i, seat in enumerate(self._spec.seats):
                shown = text if node.private_to is None or node.private_to == seat else HIDDEN
                self._records[i] = _step(self._records[i], f"chance {node.label}: {shown}")
        else:
            mover = state.to_act()
            chosen = self._spec.action_for(state, action)
            private = state.private_decision()  # a secret answer: ``?`` in the other seats' records
            state.apply(chosen)
            entry = f"{mover}: {chosen}"
            hidden = f"{mover}: {HIDDEN}"
            self._path = _step(self._path, entry)
            self._records = [
                _step(record, entry if not private or seat == mover else hidden)
                for record, seat in zip(self._records, self._spec.seats, strict=True)
            ]
        self._kernel.changed()

    def _action_to_string(self, player: int, action: int) -> str:
        state = self.kernel
        if player == pyspiel.PlayerId.CHANCE:
            if state.to_act() is CHANCE:
                node = state.chance_node()
                if 0 <= action < len(node.outcomes):
                    return f"{node.label}: {node.outcomes[action][0]}"
            return f"chance outcome {action}"
        vocabulary = getattr(self._spec.actions, "vocabulary", None)
        if vocabulary is not None and 0 <= action < len(vocabulary):
            return str(vocabulary[action])
        if self.current_player() == player:
            legal = state.legal_actions()
            for candidate, found in zip(legal, self._spec.actions.ids(legal), strict=True):
                if found == action:
                    return str(candidate)
        return f"action {action}"

    def is_terminal(self) -> bool:
        """Whether the game is over."""
        return bool(self.kernel.is_terminal())

    def returns(self) -> list[float]:
        """Each seat's result, in seat order (0 until the end)."""
        results = self.kernel.returns()
        return [float(results.get(seat, 0.0)) for seat in self._spec.seats]

    def record(self, player: int) -> str:
        """The information-state digest of ``player`` (see the module docstring)."""
        return self._records[player]

    def view_of(self, seat: Seat | None) -> JSONObject:
        """The kernel view of ``seat`` (cached for this position)."""
        return self._kernel.view(seat)

    def __str__(self) -> str:
        """The phase and a digest of the moves and outcomes so far (which fix the position; a
        state hash would cost a full serialisation per call)."""
        return f"{self.kernel.phase() or 'position'} [{self._path[:24]}]"


class KernelObserver:
    """OpenSpiel's Python observer: per-seat view vectors, or information-state digests."""

    def __init__(self, spec: ResearchSpec, iig_obs_type: Any) -> None:
        self.spec = spec
        if iig_obs_type.private_info == pyspiel.PrivateInfoType.ALL_PLAYERS:
            raise ValueError("observations of every seat's private information are not offered")
        self.perfect_recall = bool(iig_obs_type.perfect_recall)
        # one seat's view, or (no private information) the spectator's view
        self.private = iig_obs_type.private_info == pyspiel.PrivateInfoType.SINGLE_PLAYER
        size = 0 if self.perfect_recall else spec.encoder.size
        self.tensor = np.zeros(size, np.float32)
        self.dict: dict[str, Any] = {}
        if size:
            for name, (offset, length) in spec.encoder.layout().items():
                self.dict[name] = self.tensor[offset : offset + length]

    def _seat(self, player: int) -> Seat | None:
        return self.spec.seats[player] if self.private else None

    def set_from(self, state: KernelState, player: int) -> None:
        """Fill :attr:`tensor` with ``player``'s observation of ``state``."""
        if self.perfect_recall:
            return
        seat = self._seat(player)
        self.tensor[:] = self.spec.observe(state.kernel, seat, seen=state.view_of(seat))

    def string_from(self, state: KernelState, player: int) -> str:
        """The information-state string, or the view as canonical JSON."""
        seat = self.spec.seats[player]
        if self.perfect_recall:
            return f"{seat} {state.record(player)}"
        return canonical_json(state.view_of(self._seat(player)))


pyspiel.register_game(_game_type(None), KernelGame)
