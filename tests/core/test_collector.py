"""The collector settings for long runs of play: applied once per process, games unchanged."""

from __future__ import annotations

import gc

import pytest

from grandstrategy.core import collector


def test_tuning_raises_the_threshold_and_freezes_once(monkeypatch: pytest.MonkeyPatch) -> None:
    before = gc.get_threshold()
    monkeypatch.setattr(collector, "_tuned", False)
    try:
        collector.tune_for_play()
        assert gc.get_threshold()[0] >= collector.PLAY_THRESHOLD
        frozen = gc.get_freeze_count()
        assert frozen > 0
        gc.set_threshold(700, *before[1:])
        collector.tune_for_play()  # a second call does nothing: nothing more frozen, threshold kept
        assert gc.get_freeze_count() == frozen and gc.get_threshold()[0] == 700
    finally:
        gc.unfreeze()
        gc.set_threshold(*before)
