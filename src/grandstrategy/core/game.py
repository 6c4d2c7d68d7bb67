"""Rule sets (OpenSpiel's ``Game``) and the registry that finds them by name or alias.

A rule set is immutable and shared: its name and aliases, the data module it was built from
(:class:`ModuleInfo`: id, version, content hash), and factories for states and actions. A save
names the rule set and module, so loading can check that the same rules and data are installed.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Protocol, runtime_checkable

from grandstrategy.core.actions import Action
from grandstrategy.core.canonical import JSONObject, JSONValue
from grandstrategy.core.errors import UserInputError
from grandstrategy.core.state import GameState


@dataclass(frozen=True, slots=True)
class ModuleInfo:
    """The data module a rule set plays with: id, version and ``"sha256:<hex>"`` content hash."""

    id: str
    version: str
    hash: str

    def to_json(self) -> JSONObject:
        """Return ``{"id", "version", "hash"}``."""
        return {"id": self.id, "version": self.version, "hash": self.hash}


@runtime_checkable
class RuleSet(Protocol):
    """What the kernel needs from a rule set. Implementations are immutable."""

    @property
    def name(self) -> str:
        """The canonical name, e.g. ``"cataclysm"``; saves record it."""

    @property
    def aliases(self) -> tuple[str, ...]:
        """Other names that :func:`find_ruleset` accepts."""

    @property
    def module(self) -> ModuleInfo:
        """The data module in use."""

    def new_state(self, options: Mapping[str, JSONValue]) -> GameState:
        """The initial state for these options (which may be empty: defaults).

        :raises UserInputError: an unknown option or a bad value, named in the message.
        """

    def parse_action(self, text: str) -> Action:
        """The action whose notation is ``text``.

        :raises NotationError: quoting ``text``, when it names no action of this rule set.
        """

    def state_from_json(self, data: JSONObject) -> GameState:
        """The state written by :meth:`GameState.to_json`.

        :raises ValueError: ``data`` is not such a state (the save loader reports it).
        """


_REGISTRY: dict[str, RuleSet] = {}
_NAMES: dict[str, str] = {}  # folded name or alias -> canonical name


def _fold(name: str) -> str:
    return name.strip().casefold()


def register_ruleset(ruleset: RuleSet) -> RuleSet:
    """Make ``ruleset`` findable by its name and aliases; return it (usable as a decorator target).

    Registering the same object again is a no-op.

    :raises ValueError: another rule set already uses the name or one of the aliases.
    """
    keys = [_fold(ruleset.name), *(_fold(a) for a in ruleset.aliases)]
    for key in keys:
        owner = _NAMES.get(key)
        if owner is not None and _REGISTRY[owner] is not ruleset:
            raise ValueError(f"rule set name {key!r} is already used by {owner!r}")
    _REGISTRY[ruleset.name] = ruleset
    for key in keys:
        _NAMES[key] = ruleset.name
    return ruleset


def unregister_ruleset(name: str) -> None:
    """Remove a rule set and its aliases (for tests); unknown names are ignored."""
    canonical = _NAMES.get(_fold(name))
    if canonical is None:
        return
    del _REGISTRY[canonical]
    for key in [k for k, v in _NAMES.items() if v == canonical]:
        del _NAMES[key]


def find_ruleset(name: str) -> RuleSet:
    """Return the rule set called ``name`` or one of its aliases (case-insensitive).

    :raises UserInputError: no such rule set; the message lists the known names.
    """
    canonical = _NAMES.get(_fold(name)) if isinstance(name, str) else None
    if canonical is None:
        known = ", ".join(sorted(_REGISTRY)) or "none registered"
        raise UserInputError(f"unknown rule set {name!r} (known: {known})")
    return _REGISTRY[canonical]


def ruleset_names() -> tuple[str, ...]:
    """The canonical names of every registered rule set, sorted."""
    return tuple(sorted(_REGISTRY))
