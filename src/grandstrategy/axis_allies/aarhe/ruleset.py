"""The Historical Edition variant as a kernel rule set, registered as ``aa-aarhe``.

``grandstrategy new aa --rules aarhe`` names it too (the family's RULESET-RULES convention).
Options: those of ``aa-revised`` plus ``victory``: ``city`` (45/55 VCP, the default), ``total``
(every territory) or ``economic`` (the majority of territory IPCs when ``max_rounds``, the
winning bid, is reached), S3:L208; ``national_victory`` (false by default): each nation picks
three of its national goals in secret before play, and the nations that met all three are named
at the end (S3:L250); ``optional_units``, ``national_builds``, ``national_attacks`` (false by
default, AH-O1): the optional rules of S3:L248-250 (:mod:`.optional`).
"""

from __future__ import annotations

from collections.abc import Mapping

from grandstrategy.axis_allies.aarhe import goals, optional
from grandstrategy.axis_allies.aarhe.profile import VICTORY_MODES, AarheProfile
from grandstrategy.axis_allies.game.engine import AAGame
from grandstrategy.axis_allies.game.ruleset import AARuleSet
from grandstrategy.core.canonical import JSONObject, JSONValue
from grandstrategy.core.errors import UserInputError
from grandstrategy.core.game import register_ruleset


class AarheRuleSet(AARuleSet):
    """AARHE over the shipped Revised module, with the variant's map changes."""

    name = "aa-aarhe"
    aliases: tuple[str, ...] = ("aarhe", "aa-historical", "historical-edition")

    def __init__(self) -> None:
        super().__init__(profile=AarheProfile)

    def new_state(self, options: Mapping[str, JSONValue]) -> AAGame:
        own = ("victory", "national_victory", *optional.OPTIONS)
        rest = {k: v for k, v in options.items() if k not in own}
        mode = options.get("victory", "city")
        national = options.get("national_victory", False)
        for name in ("national_victory", *optional.OPTIONS):
            value = options.get(name, False)
            if not isinstance(value, bool):
                raise UserInputError(f"option {name} must be true or false, not {value!r}")
        if mode not in VICTORY_MODES:
            raise UserInputError(f"option victory must be one of {', '.join(VICTORY_MODES)}, not {mode!r}")
        if mode == "economic" and not rest.get("max_rounds", self.profile.default_max_rounds):
            raise UserInputError("an economic victory needs max_rounds (the winning bid) above 0")
        game = super().new_state(rest)
        game.d["aarhe"]["victory"] = mode
        game.d["aarhe"]["national_victory"] = national
        optional.record(game, options)
        if national:  # S3:L250: the goals are written down in secret before play
            assert isinstance(game.profile, AarheProfile)
            goals.open_picks(game, game.profile.tables)
        return game

    def state_from_json(self, data: JSONObject) -> AAGame:
        if not isinstance(data, dict) or "aarhe" not in data:
            raise ValueError("not an AARHE game: its variant state is missing")
        return super().state_from_json(data)


AA_AARHE = register_ruleset(AarheRuleSet())
