"""The contract a rule set's game state fulfils (OpenSpiel's ``State``).

A state is one mutable position: plain, JSON-serialisable data plus whose move it is. Rules are
methods over that data. The state never draws randomness: at a chance node it lists the
outcomes (:meth:`GameState.chance_node`) and the driver (:class:`~grandstrategy.core.session.Match`)
samples one and calls :meth:`GameState.apply_chance`.

Two doors, as in python-chess: :meth:`GameState.apply` trusts its caller (search, bots, replay of
an already checked action); :meth:`Match.play <grandstrategy.core.session.Match.play>` checks
the seat and legality first and raises.
"""

from __future__ import annotations

import abc
from collections.abc import Mapping, Sequence

from grandstrategy.core.actions import Action
from grandstrategy.core.canonical import JSONObject, content_hash
from grandstrategy.core.chance import ChanceNode
from grandstrategy.core.ids import CHANCE, TERMINAL, Seat, ToAct


class GameState(abc.ABC):
    """One position of one game. Subclasses implement the abstract methods."""

    # ---- who moves, and what may they do ------------------------------------------------------

    @abc.abstractmethod
    def seats(self) -> tuple[Seat, ...]:
        """Every seat of this game, in a fixed order."""

    @abc.abstractmethod
    def to_act(self) -> ToAct:
        """The seat that must decide now, :data:`CHANCE`, or :data:`TERMINAL`."""

    @abc.abstractmethod
    def legal_actions(self) -> Sequence[Action]:
        """The legal actions of the seat on move, in a stable order; empty unless a seat is on move."""

    def phase(self) -> str:
        """A short description of where the game is (phase, step), used in error messages."""
        return ""

    def is_terminal(self) -> bool:
        """Whether the game is over."""
        return self.to_act() is TERMINAL

    def is_chance_node(self) -> bool:
        """Whether the driver must sample a chance outcome now."""
        return self.to_act() is CHANCE

    # ---- moving -------------------------------------------------------------------------------

    @abc.abstractmethod
    def apply(self, action: Action) -> None:
        """Apply a legal action of the seat on move. Trusting: the action is not checked."""

    @abc.abstractmethod
    def chance_node(self) -> ChanceNode:
        """The outcomes possible at this chance node. Only called when :meth:`to_act` is CHANCE."""

    @abc.abstractmethod
    def apply_chance(self, outcome: str) -> None:
        """Apply one outcome of :meth:`chance_node` (its text). Trusting, like :meth:`apply`."""

    # ---- results ------------------------------------------------------------------------------

    @abc.abstractmethod
    def returns(self) -> Mapping[Seat, float]:
        """Each seat's result: final when terminal, the rule set's running value (often 0) before."""

    # ---- copies, data, views ------------------------------------------------------------------

    @abc.abstractmethod
    def clone(self) -> GameState:
        """An independent copy: changing either never changes the other."""

    @abc.abstractmethod
    def to_json(self) -> JSONObject:
        """The whole state as plain JSON data (the rule set's ``state_from_json`` reads it back)."""

    @abc.abstractmethod
    def view(self, seat: Seat | None) -> JSONObject:
        """What ``seat`` may see (``None``: a spectator who sees only public information).

        Hidden information (cup contents, other seats' chits) must not appear in any form.
        Clients receive states only through :func:`grandstrategy.core.view.view`.
        """

    def private_decision(self) -> bool:
        """Whether the open decision is secret: a plan the seat on move writes down unseen (e.g.
        a convoy's route). Its action is logged for that seat alone; every other seat's view of
        the log shows ``?`` in its place (:func:`grandstrategy.core.view.log_view`). Rule sets
        without secret decisions keep this default."""
        return False

    def state_hash(self) -> str:
        """``"sha256:<hex>"`` of the canonical JSON of :meth:`to_json`; equal states, equal hashes."""
        return content_hash(self.to_json())
