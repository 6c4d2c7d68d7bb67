"""A new A&A Revised game, purchase, mobilize and income (the economy of a turn)."""

from __future__ import annotations

import pytest
from tests.axis_allies.game_helpers import at, choose, fresh, options, put

from grandstrategy.axis_allies.game import AA_REVISED
from grandstrategy.axis_allies.game.engine import unit_total
from grandstrategy.axis_allies.module import load_module
from grandstrategy.core import IllegalActionError, Match, UserInputError, find_ruleset
from grandstrategy.play.games import load_ruleset

MODULE = load_module()


def test_registered_under_its_name_and_aliases() -> None:
    assert load_ruleset("aa-revised") is AA_REVISED
    assert find_ruleset("Revised") is AA_REVISED
    assert AA_REVISED.module.id == "revised"


def test_new_game_has_the_module_setup() -> None:
    game = fresh()
    for power in MODULE.powers:
        want: dict[str, int] = {}
        for p in MODULE.setup:
            if p.power == power:
                want[p.type] = want.get(p.type, 0) + p.count
        assert unit_total(game, power) == want, power
        assert game.d["bank"][power] == MODULE.powers[power].starting_ipcs
    for t in MODULE.territories.values():
        if t.type.value == "land":
            assert game.owner(t.id) == t.original_owner
    assert (game.power, game.d["phase"], game.d["round"]) == ("russians", "research", 1)
    assert game.to_act() == "russians"


def test_bad_options_are_refused() -> None:
    with pytest.raises(UserInputError, match="unknown option"):
        AA_REVISED.new_state({"speed": 1})
    with pytest.raises(UserInputError, match="max_rounds"):
        AA_REVISED.new_state({"max_rounds": -1})
    with pytest.raises(UserInputError, match="scenario"):
        AA_REVISED.new_state({"scenario": "1939"})


def test_purchase_refuses_overspending() -> None:
    match = Match(AA_REVISED, seed=1)
    assert match.state.d["bank"]["russians"] == 24
    match.play("russians", "russians: done")  # no research
    match.play("russians", "russians: buy battleship")  # 24 IPCs: the whole bank
    assert match.state.d["bank"]["russians"] == 0
    before = match.state_hash()
    assert options(match.state) == ["done"]  # type: ignore[arg-type]
    with pytest.raises(IllegalActionError, match="not legal"):
        match.play("russians", "russians: buy infantry")
    assert match.state_hash() == before


def test_mobilize_is_limited_by_the_factory_territory_ipc() -> None:
    game = fresh()
    game.d["bank"]["russians"] = 39
    choose(game, "russians", "done")  # research
    for _ in range(13):
        choose(game, "russians", "buy infantry")
    assert game.d["bank"]["russians"] == 0
    choose(game, "russians", "done")  # purchase
    choose(game, "russians", "done")  # combat move: no battles, so on to non-combat
    choose(game, "russians", "done")  # non-combat move
    assert game.d["phase"] == "mobilize"
    factories = game.d["start_factories"]
    assert factories == ["caucasus", "russia"]
    limits = {f: MODULE.territories[f].ipc or 0 for f in factories}
    before = unit_total(game, "russians").get("infantry", 0)
    while game.d["phase"] == "mobilize" and game.power == "russians":
        choose(game, "russians", options(game)[-1])
    placed = unit_total(game, "russians").get("infantry", 0) - before
    assert placed == sum(limits.values()) == 12  # Russia 8 + Caucasus 4; the 13th is lost
    assert any("could not be placed" in line for line in game.d["log"])


def test_income_is_collected_at_the_end_of_the_turn() -> None:
    game = fresh()
    for _ in range(4):
        choose(game, "russians", "done")
    assert game.power == "germans"
    assert game.d["bank"]["russians"] == 24 + MODULE.income("russians")


def test_no_income_while_the_capital_is_held_by_the_enemy() -> None:
    game = fresh()
    game.d["owner"]["russia"] = "germans"
    put(game, "russia", ("germans", "infantry", 1))
    for _ in range(4):
        choose(game, "russians", "done")
    assert game.d["bank"]["russians"] == 24


def test_axis_win_with_their_victory_cities_at_the_end_of_a_round() -> None:
    game = fresh()
    needed = AA_REVISED.profile.victory_cities_needed("axis")
    assert needed == 9
    for t in ("india", "karelia-ssr", "russia"):
        game.d["owner"][t] = "germans"
        put(game, t, ("germans", "infantry", 1))
    assert game.vcs("axis") == 9
    at(game, "americans", "noncombat-move")
    choose(game, "americans", "done")
    assert game.is_terminal()
    assert game.d["result"]["winner"] == "axis"
    assert game.returns()["germans"] == 1.0 and game.returns()["americans"] == -1.0


def test_round_limit_ends_in_a_draw() -> None:
    game = fresh(max_rounds=1)
    at(game, "americans", "noncombat-move")
    choose(game, "americans", "done")
    assert game.is_terminal() and game.d["result"]["winner"] is None
    assert set(game.returns().values()) == {0.0}


def test_new_fighters_may_be_placed_on_a_carrier_next_to_the_factory_lhtr() -> None:
    game = fresh()
    at(game, "germans", "mobilize")
    put(game, "sz-5", ("germans", "carrier", 1))
    game.d["purchased"] = {"fighter": 3}
    assert "place fighter germany sz-5" in options(game)
    choose(game, "germans", "place fighter germany sz-5")
    choose(game, "germans", "place fighter germany sz-5")
    assert "place fighter germany sz-5" not in options(game)  # the carrier holds two
    assert "place fighter germany" in options(game)


def test_a_variant_overrides_a_profile_hook_instead_of_copying_the_engine() -> None:
    from grandstrategy.axis_allies.game import AARuleSet, Profile

    class LowTarget(Profile):
        name = "test-variant"

        def victory_cities_needed(self, alliance: str) -> int:
            return 6

    game = AARuleSet(profile=LowTarget).new_state({})
    at(game, "americans", "noncombat-move")
    choose(game, "americans", "done")
    assert game.is_terminal() and game.d["result"]["winner"] == "allies"  # 6 each; allies checked first
    assert not fresh().is_terminal()
