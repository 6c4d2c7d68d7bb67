"""Research by progress boxes, the diplomacy track and the victory modes (S3:L208, L236-242)."""

from __future__ import annotations

import pytest
from tests.axis_allies.aarhe.helpers import at, choose, fresh, options, profile, roll
from tests.axis_allies.game_helpers import put

from grandstrategy.axis_allies.aarhe import turns
from grandstrategy.axis_allies.aarhe.ruleset import AA_AARHE
from grandstrategy.axis_allies.game.board import key
from grandstrategy.core.errors import UserInputError


def test_research_ticks_a_box_on_each_1_and_works_at_once_when_full() -> None:
    # S3:L240: one technology at a time, 5 IPCs a die, a 1 ticks a box; effective immediately
    game = fresh()
    at(game, "germans", "research")
    assert game.d["aarhe"]["progress"]["germans"]["rockets"] == 1  # head start
    bank = game.d["bank"]["germans"]
    choose(game, "germans", "research rockets")
    for _ in range(3):
        choose(game, "germans", "buy research die")
    assert "buy research die" not in options(game)  # Germany may buy 3 dice
    assert game.d["bank"]["germans"] == bank - 15
    choose(game, "germans", "roll research dice")
    labels = roll(game, 1, 2, 6, 1, 3)  # 2 free dice + 3 bought
    assert "a 1 ticks a box" in labels[0]
    assert game.d["aarhe"]["progress"]["germans"]["rockets"] == 3
    assert "rockets" in game.techs("germans") and game.d["phase"] == "diplomacy"


def test_research_that_falls_short_keeps_its_boxes() -> None:
    game = fresh()
    at(game, "americans", "research")
    choose(game, "americans", "research atomic-weaponry")
    choose(game, "americans", "roll research dice")
    roll(game, 1, 1)
    assert game.d["aarhe"]["progress"]["americans"]["atomic-weaponry"] == 5
    assert "atomic-weaponry" not in game.techs("americans")


def test_a_minor_technology_passes_to_the_ally_at_its_next_turn() -> None:
    # S3:L240: one 3-box technology each way between the US and the UK
    game = fresh()
    game.d["techs"]["americans"] = ["heavy-bomber", "atomic-weaponry"]
    at(game, "americans", "research")
    assert [o for o in options(game) if o.startswith("transfer")] == ["transfer heavy-bomber to british"]
    choose(game, "americans", "transfer heavy-bomber to british")
    assert not [o for o in options(game) if o.startswith("transfer")]
    assert "heavy-bomber" not in game.techs("british")
    at(game, "british")
    assert "heavy-bomber" in game.techs("british")


def test_advanced_production_cuts_prices() -> None:
    # S3:L238
    game = fresh()
    at(game, "germans")
    game.d["techs"]["germans"] = ["advanced-production"]
    bank = game.d["bank"]["germans"]
    choose(game, "germans", "buy battleship")
    assert game.d["bank"]["germans"] == bank - 21


def test_diplomacy_moves_a_neutral_one_step_and_gives_income_at_3() -> None:
    # S3:L242: Spain starts at -2; a hit moves it toward the Axis; at -3 its 4 IPCs go to Germany
    game = fresh()
    at(game, "germans", "diplomacy")
    assert "court spain" in options(game) and "court eire" not in options(game)  # Eire at +3
    choose(game, "germans", "court spain")
    labels = roll(game, 1)
    assert "germans courts spain: hits on 1 or less" in labels[0]
    assert game.d["aarhe"]["neutrals"]["spain"] == -3 and game.d["aarhe"]["neutrals"]["rio-de-oro"] == -3
    assert game.d["aarhe"]["neutral_income"] == {"spain": "germans"}
    assert turns.neutral_income(game, game.profile.tables, "germans") == 4  # type: ignore[attr-defined]
    assert "court spain" not in options(game)  # out of the -2..+2 range now
    choose(game, "germans", "court sweden")
    roll(game, 2)
    assert game.d["aarhe"]["neutrals"]["sweden"] == -2
    assert game.power != "germans" or game.d["phase"] != "diplomacy"  # two rolls used: turn over


def test_diplomacy_modifiers() -> None:
    # S3:L242: +1 per neighbour held that the team did not hold originally, +2 if taken this turn,
    # +3 per enemy capital held
    game = fresh()
    put(game, "caucasus")
    put(game, "russia")
    at(game, "germans", "diplomacy")
    tables = game.profile.tables  # type: ignore[attr-defined]
    assert turns.diplomacy_bonus(game, tables, "turkey") == 0
    game.d["owner"]["caucasus"] = "germans"
    assert turns.diplomacy_bonus(game, tables, "turkey") == 1
    game.d["conquered"] = ["caucasus"]
    assert turns.diplomacy_bonus(game, tables, "turkey") == 2
    game.d["owner"]["russia"] = "germans"
    assert turns.diplomacy_bonus(game, tables, "turkey") == 5
    choose(game, "germans", "court turkey")
    assert game.d["battle"]["dice"] == [["diplomacy", "turkey", 6]]


def test_city_victory_at_45_vcp_at_the_end_of_a_round() -> None:
    # S3:L208: the Axis win with 45 VCP; Moscow 6 + Stalingrad 4 + Leningrad 3 on top of 33 is 46
    game = fresh()
    for t in ("russia", "caucasus", "karelia-ssr"):
        game.d["owner"][t] = "germans"
        put(game, t)
    assert game.vcs("axis") == 46
    turns.end_round(game, game.profile.tables)  # type: ignore[attr-defined]
    assert game.d["result"] == {"winner": "axis", "how": "46 VCP", "round": 1}


def test_city_victory_needs_the_full_target() -> None:
    game = fresh()
    game.d["owner"]["russia"] = "germans"
    game.d["owner"]["caucasus"] = "germans"
    assert game.vcs("axis") == 43
    turns.end_round(game, game.profile.tables)  # type: ignore[attr-defined]
    assert game.d["result"] is None


def test_economic_victory_goes_to_the_majority_of_territory_ipcs_at_the_bid() -> None:
    # S3:L208: the game lasts the winning bid's rounds
    game = AA_AARHE.new_state({"victory": "economic", "max_rounds": 1})
    turns.end_round(game, game.profile.tables)  # type: ignore[attr-defined]
    assert game.d["result"]["winner"] == "allies"
    assert game.d["result"]["how"].startswith("majority of territory IPCs")


def test_total_victory_needs_every_territory() -> None:
    game = AA_AARHE.new_state({"victory": "total"})
    for t, owner in list(game.d["owner"].items()):
        if owner is not None:
            game.d["owner"][t] = "americans"
    turns.end_round(game, game.profile.tables)  # type: ignore[attr-defined]
    assert game.d["result"]["winner"] == "allies"


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"victory": "glory"}, "option victory must be one of city, total, economic"),
        ({"victory": "economic", "max_rounds": 0}, "economic victory needs max_rounds"),
        ({"colour": 1}, "unknown option"),
    ],
)
def test_bad_options_get_one_clear_message(options: dict[str, object], message: str) -> None:
    with pytest.raises(UserInputError, match=message):
        AA_AARHE.new_state(options)  # type: ignore[arg-type]


def test_aircraft_fly_over_a_neutral_two_steps_toward_their_team() -> None:
    # S3:L242: Spain starts at -2, so Axis aircraft may pass over it, Allied ones may not
    game = fresh()
    p = game.profile
    at(game, "germans", "combat-move")
    assert p.air_passable(game, "spain") and not p.air_passable(game, "turkey")  # Turkey at -1
    assert not p.air_passable(game, "himalaya")
    at(game, "british", "combat-move")
    assert not p.air_passable(game, "spain") and p.air_passable(game, "eire")  # Eire at +3
    game.d["aarhe"]["neutrals"]["turkey"] = 2
    assert p.air_passable(game, "turkey")


def test_rockets_fire_once_from_every_id_built_in_ones_included() -> None:
    # S3:L238: with Rockets each ID fires at an enemy IC within 3; S3:L246: an IC holds 3 IDs, a
    # victory city 1. Germany: its AA gun (an ID), its factory's 3 and Berlin's 1 = 5 rockets.
    game = fresh()
    game.d["techs"]["germans"] = ["rockets"]
    at(game, "germans", "combat")
    assert profile(game).rocket_launchers(game, "germans")["germany"] == 5
    books = game.d["aarhe"]["damage"]
    game.d["bank"]["british"] = 30
    for shot in range(5):
        assert "rocket united-kingdom from germany" in options(game), shot
        choose(game, "germans", "rocket united-kingdom from germany")
        roll(game, 2)
    assert "rocket united-kingdom from germany" not in options(game)
    assert books["united-kingdom"] == 8  # next income cut to 0 (its value) ...
    assert game.d["bank"]["british"] == 28  # ... and the 2 beyond it off the stored IPCs (S3:L230)
    assert "rocket united-kingdom from western-europe" in options(game)  # its ID and Paris: 2 more


def test_without_rockets_no_id_fires() -> None:
    game = fresh()
    at(game, "germans", "combat")
    assert not [o for o in options(game) if o.startswith("rocket")]


def test_long_range_aircraft_received_from_the_ally_counts_from_that_turn() -> None:
    # S3:L238, L240: the British aircraft start the turn they receive it with its full moves
    # (they have not flown, so a ferry flight is open to them)
    game = fresh()
    game.d["techs"]["americans"] = ["long-range-aircraft"]
    at(game, "americans", "research")
    choose(game, "americans", "transfer long-range-aircraft to british")
    put(game, "united-kingdom", ("british", "fighter", 1))
    assert game.units("united-kingdom")[key("british", "fighter", 4)] == 1
    at(game, "british")
    assert game.units("united-kingdom")[key("british", "fighter", 6)] == 1
    assert game.movement("british", "fighter") == 6
