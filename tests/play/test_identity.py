"""Speed work keeps games byte-identical: seeded bot games end in the recorded state and log.

The fixture (``tests/play/identity_games.json``) holds, per seeded game, the final state hash and
a hash of the whole log, recorded from the code before any speed work. A quick subset is replayed
here; ``.venv/bin/python tests/play/identity_games.py`` plays them all, and ``--write`` records a
new fixture when a change is meant to alter games.
"""

from __future__ import annotations

import pytest
from tests.play.identity_games import GAMES, QUICK, load_fixture, play_identity

_BY_NAME = {game.name: game for game in GAMES}


def test_the_fixture_records_every_game_and_the_quick_set_is_part_of_it() -> None:
    recorded = load_fixture()
    assert set(recorded) == set(_BY_NAME)
    assert set(QUICK) <= set(_BY_NAME)


@pytest.mark.parametrize("name", QUICK)
def test_a_seeded_game_ends_in_the_recorded_state_with_the_recorded_log(name: str) -> None:
    assert play_identity(_BY_NAME[name]) == load_fixture()[name]
