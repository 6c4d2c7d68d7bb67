"""The driver of one game: state, seeded chance, decision points and the action log.

A :class:`Match` owns a rule set's state, a :class:`~grandstrategy.core.chance.ChanceService`
and the log. Chance is a player: whenever the state is at a chance node, the match samples one
of the listed outcomes through the service, records it and applies it, until a seat must decide
or the game ends. People, bots, the command line and tests all drive the same two calls:
:meth:`Match.decision` (who must decide, and the legal choices) and :meth:`Match.play`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from grandstrategy.core.actions import Action
from grandstrategy.core.canonical import JSONObject, JSONValue, canonical_json
from grandstrategy.core.chance import ChanceCheckpoint, ChanceEvent, ChanceService, RandomSource
from grandstrategy.core.errors import IllegalActionError, UserInputError
from grandstrategy.core.game import RuleSet
from grandstrategy.core.ids import CHANCE, TERMINAL, Seat, ToAct, Turn
from grandstrategy.core.log import ActionEntry, LogEntry
from grandstrategy.core.state import GameState
from grandstrategy.core.view import log_view, view

MAX_CHANCE_STEPS = 100_000
"""Chance nodes resolved in a row before the match calls the rule set broken (a loop)."""

_SHOW_LEGAL = 12  # legal actions quoted in an error message before "... and N more"

BASE_SPAN = 64
"""Log entries a match lets pass before it copies its state again as the base that a failed
:meth:`Match.play` is rebuilt from (one state copy every few plays instead of one per play)."""


@dataclass(frozen=True, slots=True)
class DecisionPoint:
    """A seat that must decide now, and its legal choices in the rule set's stable order."""

    seat: Seat
    legal: tuple[Action, ...]
    phase: str = ""

    def notations(self) -> tuple[str, ...]:
        """The legal choices as notation text."""
        return tuple(str(a) for a in self.legal)


@dataclass(frozen=True, slots=True)
class Checkpoint:
    """Everything :meth:`Match.rollback` needs to return to an earlier moment (an undo hook)."""

    state: GameState
    chance: ChanceCheckpoint
    log_length: int


def _list_legal(legal: tuple[Action, ...]) -> str:
    shown = ", ".join(str(a) for a in legal[:_SHOW_LEGAL])
    if len(legal) > _SHOW_LEGAL:
        shown += f", ... and {len(legal) - _SHOW_LEGAL} more"
    return shown or "nothing"


class Match:
    """One game in progress under a rule set, with a seed and options.

    Creating a match resolves any chance nodes at the start (e.g. "determine randomly who goes
    first"), so :meth:`decision` is immediately meaningful.

    ``rng`` replaces the seeded generator as the source of chance (a server's committed dice,
    :mod:`grandstrategy.core.committed`); without it the seed decides every draw.

    :raises UserInputError: bad options (from the rule set) or options that are not JSON data.
    :raises ValueError: a bad seed.
    """

    def __init__(
        self,
        ruleset: RuleSet,
        *,
        seed: int,
        options: Mapping[str, JSONValue] | None = None,
        rng: RandomSource | None = None,
    ) -> None:
        opts: dict[str, Any] = dict(options or {})
        try:
            canonical_json(opts)
        except (TypeError, ValueError) as error:
            raise UserInputError(f"options must be plain JSON data: {error}") from None
        self.ruleset = ruleset
        self.seed = seed
        self.options: JSONObject = opts
        self.chance = ChanceService(seed, rng)
        self._state = ruleset.new_state(opts)
        self._log: list[LogEntry] = []
        self._advance(self._state)
        self._keep_base()

    @classmethod
    def resume(
        cls,
        ruleset: RuleSet,
        *,
        seed: int,
        options: Mapping[str, JSONValue],
        state: GameState,
        chance_state: JSONObject,
        log: Sequence[LogEntry],
        rng: RandomSource | None = None,
    ) -> Match:
        """Rebuild a match from a snapshot (state and chance-service state) and its log, without replay.

        :raises ValueError: ``chance_state`` is malformed or does not fit the log's chance events.
        """
        match = cls.__new__(cls)
        match.ruleset = ruleset
        match.seed = seed
        match.options = dict(options)
        match.chance = ChanceService(seed, rng)
        match.chance.restore(chance_state, [e for e in log if isinstance(e, ChanceEvent)])
        match._state = state
        match._log = list(log)
        match._keep_base()
        return match

    # ---- queries ------------------------------------------------------------------------------

    @property
    def state(self) -> GameState:
        """The current state. Treat it as read-only: change it only through :meth:`play`.

        :meth:`play` changes this very object in place, so a caller that wants the position
        before a play (to compare or narrate) keeps a ``clone()`` of it.
        """
        return self._state

    @property
    def log(self) -> tuple[LogEntry, ...]:
        """Every action and chance event so far, in order."""
        return tuple(self._log)

    def log_length(self) -> int:
        """How many entries the log has (``len(match.log)`` without copying the log): the ply a
        bot is seeded with."""
        return len(self._log)

    def to_act(self) -> ToAct:
        """The seat on move or :data:`TERMINAL` (never CHANCE: the match resolves chance itself)."""
        return self._state.to_act()

    def decision(self) -> DecisionPoint | None:
        """Who must decide now and the legal choices; ``None`` when the game is over."""
        who = self._state.to_act()
        if isinstance(who, Turn):
            return None
        return DecisionPoint(who, tuple(self._state.legal_actions()), self._state.phase())

    def is_terminal(self) -> bool:
        """Whether the game is over."""
        return self._state.is_terminal()

    def returns(self) -> Mapping[Seat, float]:
        """Each seat's result (final once the game is over)."""
        return self._state.returns()

    def state_hash(self) -> str:
        """The current state's hash (see :meth:`GameState.state_hash`)."""
        return self._state.state_hash()

    # ---- playing ------------------------------------------------------------------------------

    def parse(self, text: str) -> Action:
        """Parse notation with the rule set.

        :raises NotationError: quoting ``text``.
        """
        return self.ruleset.parse_action(text)

    def play(self, seat: Seat | str, action: Action | str) -> None:
        """Play ``action`` (an action or its notation) for ``seat``, then resolve chance nodes.

        On any error the match (state, chance service, log) is left exactly as it was.

        :raises NotationError: the text names no action.
        :raises IllegalActionError: the game is over, ``seat`` is unknown or not on move, or the
            action is not legal now; the message names the action, the seat, the phase and what
            was legal.
        """
        who = self._state.to_act()
        seats = self._state.seats()
        if seat not in seats:
            raise IllegalActionError(
                f"unknown seat {seat!r} (seats: {', '.join(seats)}); cannot play {str(action)!r}"
            )
        if who is TERMINAL:
            raise IllegalActionError(f"the game is over; {seat} cannot play {str(action)!r}")
        if who != seat:
            raise IllegalActionError(f"it is {who}'s turn, not {seat}'s; cannot play {str(action)!r}")
        parsed = self.parse(action) if isinstance(action, str) else action
        legal = tuple(self._state.legal_actions())
        if parsed not in legal:
            phase = self._state.phase()
            where = f" in {phase}" if phase else ""
            raise IllegalActionError(
                f"{str(parsed)!r} is not legal for {seat}{where}; legal: {_list_legal(legal)}"
            )
        # Play on the state itself (no copy per play). On an error the state is rebuilt from the
        # base copy by replaying the log since it; the chance service and the log are wound back.
        chance_mark, log_length = self.chance.checkpoint(), len(self._log)
        if log_length - self._base[1] >= BASE_SPAN:
            self._keep_base()
        state = self._state
        try:
            private = state.private_decision()
            state.apply(parsed)
            self._log.append(ActionEntry(Seat(seat), str(parsed), private))
            self._advance(state)
        except BaseException:
            self.chance.rollback(chance_mark)
            del self._log[log_length:]
            self._restore()
            raise

    def _advance(self, state: GameState) -> None:
        """Resolve chance nodes through the service until a seat must decide or the game ends."""
        for _ in range(MAX_CHANCE_STEPS):
            if state.to_act() is not CHANCE:
                return
            event = self.chance.resolve(state.chance_node())
            state.apply_chance(event.outcome)
            self._log.append(event)
        raise RuntimeError(f"{MAX_CHANCE_STEPS} chance nodes in a row: the rule set loops")

    def _keep_base(self) -> None:
        """Copy the current state as the base a failed play is rebuilt from."""
        self._base = (self._state.clone(), len(self._log), self.chance.checkpoint())

    def _restore(self) -> None:
        """Rebuild the state at the end of the log from the base copy, replaying the entries since.

        The rule sets are deterministic (a replayed game is the game), so this is the state the
        match held before the failed play. Should the replay itself fail, the match goes back to
        the base: state, log and chance service all at that earlier moment, still consistent.
        """
        base, length, mark = self._base
        state = base.clone()
        try:
            for entry in self._log[length:]:
                if isinstance(entry, ActionEntry):
                    state.apply(self.parse(entry.action))
                else:
                    state.apply_chance(entry.outcome)
        except Exception:
            state = base.clone()
            self.chance.rollback(mark)
            del self._log[length:]
        self._state = state

    # ---- undo hooks ---------------------------------------------------------------------------

    def checkpoint(self) -> Checkpoint:
        """A mark to return to with :meth:`rollback` (costs one state clone)."""
        return Checkpoint(self._state.clone(), self.chance.checkpoint(), len(self._log))

    def rollback(self, mark: Checkpoint) -> None:
        """Return state, chance service and log to ``mark`` (which must come from this match).

        The player-facing undo (which must stop at chance events and reveals) is built on this.
        """
        self._state = mark.state.clone()
        self.chance.rollback(mark.chance)
        del self._log[mark.log_length :]
        self._keep_base()

    # ---- views --------------------------------------------------------------------------------

    def view(self, seat: Seat | None) -> JSONObject:
        """What ``seat`` may see now (see :func:`grandstrategy.core.view.view`)."""
        return view(self._state, seat)

    def log_view(self, seat: Seat | None) -> list[JSONObject]:
        """The log as ``seat`` may see it (see :func:`grandstrategy.core.view.log_view`)."""
        return log_view(self._log, seat)
