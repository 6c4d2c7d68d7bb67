"""Shared pieces of the research-interface tests: the toy rule set and its full action vocabulary."""

from __future__ import annotations

from core.toy_game import CHIT_VALUES
from grandstrategy.research.encoding import VocabularyCodec

PIG_VOCABULARY = VocabularyCodec(("roll", "hold", "draw", *(f"spend {chit}" for chit in sorted(CHIT_VALUES))))
"""Every action of the toy game, so its ids mean the same in every state."""
