"""The shared encoding: action codecs, masks and the observation layout (no optional dependency)."""

from __future__ import annotations

import numpy as np
import pytest

from core.toy_game import PIG, Hold, Roll, Spend
from grandstrategy.core.session import Match
from grandstrategy.play.games import load_ruleset
from grandstrategy.research.encoding import EncodingError, LegalIndexCodec, VocabularyCodec, research_spec

from .toy import PIG_VOCABULARY


def test_a_vocabulary_gives_each_action_one_id_for_good() -> None:
    assert PIG_VOCABULARY.ids([Spend("gold"), Roll(), Hold()]) == [4, 0, 1]  # copper, gold, silver
    with pytest.raises(EncodingError, match="not in the vocabulary"):
        VocabularyCodec(("roll",)).ids([Hold()])
    with pytest.raises(ValueError, match="no repeats"):
        VocabularyCodec(("roll", "roll"))


def test_a_legal_index_numbers_the_offered_options_and_refuses_too_many() -> None:
    codec = LegalIndexCodec(2)
    assert codec.ids([Hold(), Roll()]) == [0, 1]
    assert codec.slot_texts([Hold()]) == ["hold", ""]
    with pytest.raises(EncodingError, match="3 legal actions but only 2"):
        codec.ids([Hold(), Roll(), Spend("gold")])


def test_masks_and_the_slot_part_belong_to_the_seat_on_move_only() -> None:
    spec = research_spec(PIG, {})  # legal-index codec: slots describe the options
    match = Match(PIG, seed=1)
    mover = match.decision().seat  # type: ignore[union-attr]
    other = next(seat for seat in spec.seats if seat != mover)
    assert spec.mask(match.state, mover)[:4].tolist() == [1, 1, 1, 0]
    assert not spec.mask(match.state, other).any()
    start, length = spec.encoder.layout()["slots"]
    mine, theirs = spec.observe(match.state, mover), spec.observe(match.state, other)
    assert mine[start : start + length].any() and not theirs[start : start + length].any()
    seat_start, _ = spec.encoder.layout()["seat"]
    assert mine[seat_start + spec.seats.index(mover)] == 1.0


def test_the_layout_covers_the_vector_and_observations_repeat() -> None:
    spec = research_spec(load_ruleset("cataclysm"), {"scenario": "europe-1939"})
    layout = spec.encoder.layout()
    assert list(layout) == ["seat", "to_act", "view", "slots"]
    assert sum(length for _, length in layout.values()) == spec.encoder.size == 6 + 8 + 512 + 64 * 16
    assert spec.actions.size == 64  # Cataclysm: a legal-index codec of 64 slots
    match = Match(spec.ruleset, seed=3, options=spec.options)
    seat = spec.seats[0]
    first = spec.observe(match.state, seat)
    assert first.dtype == np.float32 and np.array_equal(first, spec.observe(match.state, seat))
    start, length = layout["view"]
    assert first[start : start + length].any()
