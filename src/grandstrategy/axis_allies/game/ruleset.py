"""Axis & Allies Revised with LHTR 1.3 as a kernel rule set, registered as ``aa-revised``."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from grandstrategy.axis_allies.game.bids import check_bid
from grandstrategy.axis_allies.game.engine import AAGame, new_game, parse_choice
from grandstrategy.axis_allies.game.profile import Profile, revised_profile
from grandstrategy.axis_allies.module import MapModule, load_module
from grandstrategy.core.actions import Action
from grandstrategy.core.canonical import JSONObject, JSONValue
from grandstrategy.core.errors import UserInputError
from grandstrategy.core.game import ModuleInfo, register_ruleset

OPTIONS = ("scenario", "max_rounds", "bid")
MAX_ROUNDS_LIMIT = 1000


class AARuleSet:
    """Revised + LHTR 1.3 over the shipped Revised map module.

    Options: ``scenario`` (only ``1942``, the Revised start: spring 1942) and ``max_rounds``
    (0 for none; default :attr:`Profile.default_max_rounds`), after which the game is a draw;
    ``bid`` (``{power: IPCs}`` or ``"russians=8"``): the bid placed before round 1 (:mod:`.bids`).
    """

    name = "aa-revised"
    aliases: tuple[str, ...] = ("revised", "aa-lhtr", "axis-allies-revised", "aa")

    def __init__(self, module: MapModule | None = None, profile: type[Profile] | None = None) -> None:
        """``profile``: a :class:`Profile` subclass for a variant (default: Revised + LHTR 1.3)."""
        self._module = module
        self._profile_class = profile
        self._profile: Profile | None = None

    @property
    def profile(self) -> Profile:
        if self._profile is None:
            module = self._module or load_module()
            self._profile = self._profile_class(module) if self._profile_class else revised_profile(module)
        return self._profile

    @property
    def module(self) -> ModuleInfo:
        world = self.profile.module
        return ModuleInfo(world.info.id, world.info.game_version, world.content_hash)

    def new_state(self, options: Mapping[str, JSONValue]) -> AAGame:
        unknown = sorted(set(options) - set(OPTIONS))
        if unknown:
            raise UserInputError(f"unknown option(s) {', '.join(unknown)} (options: {', '.join(OPTIONS)})")
        scenario = options.get("scenario", "1942")
        if scenario != "1942":
            raise UserInputError(f"option scenario must be '1942' (the Revised start), not {scenario!r}")
        rounds: Any = options.get("max_rounds", self.profile.default_max_rounds)
        if isinstance(rounds, bool) or not isinstance(rounds, int) or not 0 <= rounds <= MAX_ROUNDS_LIMIT:
            raise UserInputError(
                f"option max_rounds must be a whole number 0..{MAX_ROUNDS_LIMIT}, not {rounds!r}"
            )
        bid = check_bid(options.get("bid"), [p.id for p in self.profile.module.turn_order()])
        return new_game(self.profile, rounds, bid)

    def parse_action(self, text: str) -> Action:
        return parse_choice(text)

    def state_from_json(self, data: JSONObject) -> AAGame:
        need = {"round", "turn", "phase", "owner", "units", "bank", "battle", "result"}
        if not isinstance(data, dict) or not need <= set(data):
            raise ValueError("not an Axis & Allies game: fields missing")
        import copy

        return AAGame(self.profile, copy.deepcopy(dict(data)))


AA_REVISED = register_ruleset(AARuleSet())
