"""Remembered answers are the answers: the frozen-state memo and the recall by field contents.

Speed work (``rules/frozen.py``, ``rules/recall.py``) keeps answers about states; these tests pin
that a remembered answer never outlives a change of what it reads (LR 2.2.4 control, LR 5.1
interests) and that two states whose cubes differ only in the order of an area's holders, which
decides who controls the area, are not confused.
"""

from __future__ import annotations

from grandstrategy.cataclysm.module import load_module
from grandstrategy.cataclysm.rules.control import controller, ideology_scores, interests
from grandstrategy.cataclysm.rules.frozen import frozen, memo_of
from grandstrategy.cataclysm.state import new_state

MODULE = load_module()


def test_interests_follow_a_change_of_control_on_the_same_state() -> None:
    state = new_state(MODULE, "campaign-1933")
    assert "yugoslavia" not in interests(MODULE, state, "germany")
    state.cubes["austria"] = {"germany": 1}  # Germany controls Austria: its neighbours interest it
    assert "yugoslavia" in interests(MODULE, state, "germany")
    del state.cubes["austria"]
    assert "yugoslavia" not in interests(MODULE, state, "germany")


def test_the_first_of_two_holders_controls_and_the_recall_keeps_the_orders_apart() -> None:
    italy_first = new_state(MODULE, "campaign-1933")
    germany_first = italy_first.clone()
    italy_first.cubes["austria"] = {"italy": 1, "germany": 1}
    germany_first.cubes["austria"] = {"germany": 1, "italy": 1}
    assert italy_first.cubes == germany_first.cubes  # equal as dicts: only the order differs
    for _ in range(2):  # the second round is answered from the recall
        assert controller(MODULE, italy_first, "austria") == "italy"
        assert controller(MODULE, germany_first, "austria") == "germany"
        assert "yugoslavia" not in interests(MODULE, italy_first, "germany")
        assert "yugoslavia" in interests(MODULE, germany_first, "germany")


def test_a_frozen_state_remembers_only_inside_the_block() -> None:
    state = new_state(MODULE, "campaign-1933")
    assert memo_of(state) is None
    with frozen(state):
        memo = memo_of(state)
        assert memo is not None
        assert controller(MODULE, state, "paris") == "france"
        assert memo[("controller", "paris")] == "france"
        with frozen(state):  # a nested block shares the outer memo
            assert memo_of(state) is memo
        assert memo_of(state.clone()) is None  # a copy is another state
    assert memo_of(state) is None
    state.cubes["paris"] = {"germany": 2}
    assert controller(MODULE, state, "paris") == "germany"


def test_recalled_scores_are_fresh_dicts_that_follow_the_cubes() -> None:
    state = new_state(MODULE, "campaign-1933")
    first = ideology_scores(MODULE, state)
    first.clear()  # a caller's change does not reach the remembered answer
    again = ideology_scores(MODULE, state)
    assert again and sum(again.values()) > 0
    democracy = again[next(ideo for ideo in again if ideo.value == "democracy")]
    state.cubes["paris"] = {"germany": 2}  # France loses 2 VP to cubes in its home (LR 1.7.1)
    after = ideology_scores(MODULE, state)
    assert after[next(ideo for ideo in after if ideo.value == "democracy")] == democracy - 2


def test_units_are_copied_on_write_so_a_copy_and_its_original_never_share_a_move() -> None:
    """A fork (a bot's look-ahead copy) shares its unit objects until one side changes a unit
    (set_area, an upgrade, a flip): that side then works on its own copy and the other keeps the
    unit as it was. A plain clone copies the units, so unit objects held from the original stay
    the original's units."""
    from grandstrategy.cataclysm.engine.common import set_area
    from grandstrategy.cataclysm.engine.game import CataclysmGame

    game = CataclysmGame(MODULE, new_state(MODULE, "europe-1939"))
    unit = game.state.units[0]
    start = unit.area
    target = next(a for a in MODULE.areas if a != start and not MODULE.area(a).coasts)
    copy = game.fork()
    set_area(copy, copy.state.units[0], target)
    assert copy.state.units[0].area == target and game.state.units[0].area == start
    assert unit.area == start and game.state.units[0] is unit  # the original's object untouched
    later = game.fork()
    set_area(game, unit, target)  # the original moves its unit (given the shared object)
    assert game.state.units[0].area == target and later.state.units[0].area == start
    again = game.state.units[0]
    set_area(game, again, start)  # a unit the state already holds alone is changed in place
    assert game.state.units[0] is again and again.area == start
    assert copy.state.units[0].area == target and later.state.units[0].area == start
    plain = CataclysmGame(MODULE, new_state(MODULE, "europe-1939"))
    held = plain.state.units[0]
    plain.clone()
    set_area(plain, held, target)
    assert held.area == target and plain.state.units[0] is held  # never forked: changed in place


def test_states_pickled_together_still_copy_their_shared_units_on_write() -> None:
    """A state and its copy pickled together (as a parallel backend may send them) share their
    units after unpickling too; changing a unit in one must still leave the other's alone."""
    import pickle

    from grandstrategy.cataclysm.engine.common import set_area
    from grandstrategy.cataclysm.engine.game import CataclysmGame

    game = CataclysmGame(MODULE, new_state(MODULE, "europe-1939"))
    game.state.unit_to_change(game.state.units[0])  # held alone before the copy
    states = pickle.loads(pickle.dumps((game.state, game.fork().state)))
    first, second = (CataclysmGame(MODULE, state) for state in states)
    assert first.state.units[0] is second.state.units[0]  # shared, as before pickling
    start = first.state.units[0].area
    target = next(a for a in MODULE.areas if a != start and not MODULE.area(a).coasts)
    set_area(first, first.state.units[0], target)
    assert first.state.units[0].area == target and second.state.units[0].area == start


def test_a_recall_shares_each_areas_holders_and_follows_an_area_given_new_holders() -> None:
    """The recalls that read the cubes keep a shallow copy (each area's holders are shared, never
    changed in place): the entry holds the state's own holder dicts, and a copy of the state that
    puts new holders in an area is answered afresh while the original keeps its answer."""
    from grandstrategy.cataclysm.rules.control import _SCORES

    state = new_state(MODULE, "campaign-1933")
    state.cubes["austria"] = {"italy": 1}  # an entry no earlier test made
    before = ideology_scores(MODULE, state)
    kept = _SCORES._entries[0][1][0]
    assert kept == state.cubes and kept is not state.cubes
    assert all(kept[area] is held for area, held in state.cubes.items())
    copy = state.clone()
    copy.cubes["paris"] = {"germany": 2}  # France loses 2 VP (LR 1.7.1)
    after = ideology_scores(MODULE, copy)
    democracy = next(ideo for ideo in before if ideo.value == "democracy")
    assert after[democracy] == before[democracy] - 2
    assert ideology_scores(MODULE, state) == before
    assert controller(MODULE, copy, "paris") == "germany" and controller(MODULE, state, "paris") == "france"
