"""Attacks on neutrals (S3:L242, the neutral table at S3:L246): the attacked neutral joins the
other team at its end of the track, its army enters the game for the power of that team with
the closest held capital and defends, and the territory is then land like any other."""

from __future__ import annotations

import pytest
from tests.axis_allies.aarhe.helpers import at, fresh, profile
from tests.axis_allies.game_helpers import choose, options, put, roll

from grandstrategy.axis_allies.aarhe import economy, neutrals, turns
from grandstrategy.axis_allies.game.engine import AAGame, key
from grandstrategy.axis_allies.game.invariants import conservation_problems, problems, unit_counts
from grandstrategy.axis_allies.game.policy import choose as policy_choose

SPAIN_ARMY = {
    key("british", "infantry", 1): 5,
    key("british", "artillery", 1): 1,
    key("british", "armour", 2): 1,
    key("british", "fighter", 4): 1,
}


def _germans_attack_spain() -> AAGame:
    game = fresh()
    at(game, "germans", "combat-move")
    before = unit_counts(game)
    assert "attack neutral spain" in options(game)  # German units stand in Western Europe
    choose(game, "germans", "attack neutral spain")
    # the army entering the game for a side is no unit appearing from nowhere
    assert not conservation_problems(before, unit_counts(game), "germans: attack neutral spain")
    return game


def test_an_attack_on_spain_brings_its_army_for_the_closest_capital_power() -> None:
    # S3:L242: attacked by the Axis, Spain joins the Allies at +5; its army (S3:L246) enters the
    # game under the Allied power whose held capital is closest: London (3 steps) before Moscow
    game = _germans_attack_spain()
    tables = profile(game).tables
    assert neutrals.defender(game, tables, "spain", "allies") == "british"
    assert game.owner("spain") == "british"
    assert game.d["aarhe"]["neutrals"]["spain"] == 5
    assert game.units("spain") == SPAIN_ARMY
    assert game.units("sz-12") == {key("british", "destroyer", 2): 1, key("british", "transport", 2): 1}
    # the neutral is enemy land now: the German moves into it are combat moves, no second attack
    moves = [o for o in options(game) if o.endswith("-> spain")]
    assert "move 2 infantry western-europe -> spain" in moves and "move 1 fighter germany -> spain" in moves
    assert "attack neutral spain" not in options(game) and not problems(game)


def test_the_neutral_fleet_appears_off_a_coast_free_of_the_attackers() -> None:
    # reconstructed: the ships go to the first sea zone (by name) off the coast with no unit of
    # the attacking team; here a German submarine holds sz-12, so they appear in sz-13
    game = fresh()
    at(game, "germans", "combat-move")
    put(game, "sz-12", ("germans", "submarine", 1))
    choose(game, "germans", "attack neutral spain")
    assert game.units("sz-13")[key("british", "destroyer", 2)] == 1
    assert game.units("sz-13")[key("british", "transport", 2)] == 1
    assert game.units("sz-12") == {key("germans", "submarine", 2): 1}


def test_rio_de_oro_is_spain() -> None:
    # S3:L246: an attack on Rio de Oro is an attack on Spain: both join the Axis at -5 under the
    # closest Axis capital (Berlin); the army stands in Spain, Rio de Oro is German and empty
    game = fresh()
    at(game, "british", "combat-move")
    put(game, "french-west-africa", ("british", "infantry", 2))
    assert "attack neutral rio-de-oro" in options(game)
    choose(game, "british", "attack neutral rio-de-oro")
    assert game.owner("spain") == game.owner("rio-de-oro") == "germans"
    positions = game.d["aarhe"]["neutrals"]
    assert positions["spain"] == positions["rio-de-oro"] == -5
    assert game.units("spain")[key("germans", "infantry", 1)] == 5
    assert game.units("rio-de-oro") == {}
    assert "attack neutral spain" not in options(game)
    choose(game, "british", "move 2 infantry french-west-africa -> rio-de-oro")
    assert "rio-de-oro" in game.d["battles"]  # enemy land now: a combat move like any other


def test_a_neutral_committed_to_a_team_cannot_be_attacked_by_it() -> None:
    # S3:L242: at +5 a neutral is fully committed to the Allies: the Allies cannot attack it;
    # one committed by an attack is simply the team's land (and the other team's enemy land)
    game = fresh()
    at(game, "russians", "combat-move")
    assert "attack neutral turkey" in options(game)  # Soviet units stand in the Caucasus
    game.d["aarhe"]["neutrals"]["turkey"] = 5
    assert "attack neutral turkey" not in options(game)
    game.d["aarhe"]["neutrals"]["turkey"] = 4  # pro-Allies, not committed: still open to attack
    assert "attack neutral turkey" in options(game)
    game = _germans_attack_spain()
    at(game, "british", "combat-move")
    put(game, "gibraltar", ("british", "infantry", 1))
    assert not {"attack neutral spain", "attack neutral rio-de-oro"} & set(options(game))
    at(game, "british", "noncombat-move")
    assert "move 1 infantry gibraltar -> spain" in options(game)  # friendly land now


def test_the_army_defends_in_the_attack_and_the_captor_takes_control_and_income() -> None:
    # S3:L242: the army fights in this combat; won, the neutral is held like any territory, its
    # income (S3:L246, Sweden 2) the captor's from its next Collect Income (S3:L208)
    game = fresh()
    at(game, "germans", "combat-move")
    game.d["aarhe"]["queue"] = [["germans", "second"]]
    put(game, "norway", ("germans", "infantry", 3), ("germans", "armour", 2))
    choose(game, "germans", "attack neutral sweden")
    assert game.units("sweden") == {key("british", "infantry", 1): 3, key("british", "artillery", 1): 1}
    choose(game, "germans", "move 3 infantry norway -> sweden")
    choose(game, "germans", "move 2 armour norway -> sweden")
    choose(game, "germans", "done")
    choose(game, "germans", "fight sweden")
    assert roll(game, 1, 1, 1, 1, 6, 6, 6, 6, 6) == [
        *["sweden: germans armour hits on 3 or less"] * 2,
        *["sweden: germans infantry hits on 1 or less"] * 3,
        "sweden: defence artillery hits on 2 or less",
        *["sweden: defence infantry hits on 2 or less"] * 3,
    ]
    assert game.d["battle"] is None and game.owner("sweden") == "germans" and not problems(game)
    assert game.units("sweden") == {key("germans", "infantry", 0): 3, key("germans", "armour", 0): 2}
    tables = profile(game).tables
    assert neutrals.territory_income(game, tables, "sweden") == 2
    assert "sweden" in economy.income_routes(game, tables, "germans")
    held = turns.territory_ipcs(game, tables, "axis")
    game.d["owner"]["sweden"] = "british"
    assert turns.territory_ipcs(game, tables, "axis") == held - 2


def test_the_neutral_income_goes_to_the_power_that_took_it_in() -> None:
    # S3:L242: the income of a neutral attacked by the Axis is the closest Allied power's from
    # then on (its ±3 diplomacy income, if any, ends); Spain's 4 IPCs reach London by convoy
    game = fresh()
    game.d["aarhe"]["neutral_income"]["spain"] = "germans"
    at(game, "germans", "combat-move")
    choose(game, "germans", "attack neutral spain")
    tables = profile(game).tables
    assert "spain" not in game.d["aarhe"]["neutral_income"]
    assert turns.neutral_income(game, tables, "germans") == 0
    assert neutrals.territory_income(game, tables, "spain") == 4
    assert economy.income_routes(game, tables, "british")["spain"]  # a convoy's sea zones
    assert "spain" not in economy.income_routes(game, tables, "germans")


def test_the_heuristic_bot_attacks_a_neutral_only_when_its_odds_say_so() -> None:
    # the base calculator's odds of everything that could attack, against the neutral's army
    game = fresh()
    at(game, "germans", "combat-move")
    assert "attack neutral switzerland" in options(game)
    assert not policy_choose(game, "germans", options(game)).startswith("attack neutral")  # its attacks first
    put(game, "norway", ("germans", "infantry", 1))
    for where, here in list(game.d["units"].items()):  # no German aircraft to send along
        for stack in [
            s for s in here if s.startswith("germans:") and game.stats[s.split(":")[1]].domain == "air"
        ]:
            game.add(where, stack, -here[stack])
    tables = profile(game).tables

    def sweden() -> list[str]:
        return [o for o in options(game) if "sweden" in o or o == "done"]

    assert neutrals.attack_odds(game, tables, "sweden") < 0.65  # 1 infantry against 3 and artillery
    assert policy_choose(game, "germans", sweden()) == "done"
    put(game, "norway", ("germans", "infantry", 6), ("germans", "armour", 4))
    assert neutrals.attack_odds(game, tables, "sweden") >= 0.65
    assert policy_choose(game, "germans", sweden()) == "attack neutral sweden"


def test_the_closest_capital_is_counted_in_steps_among_capitals_still_held() -> None:
    # S3:L242: "the closest capital ... still holding it": steps on the map's graph from Spain are
    # Berlin 2, London 3, Washington 4, Moscow 5; with London lost, the United States take Spain
    # in; with every Allied capital lost, the closest capital counts again (reconstructed)
    game = fresh()
    tables = profile(game).tables
    assert neutrals.defender(game, tables, "spain", "allies") == "british"
    assert neutrals.defender(game, tables, "spain", "axis") == "germans"
    game.d["owner"]["united-kingdom"] = "germans"
    assert neutrals.defender(game, tables, "spain", "allies") == "americans"
    game.d["owner"]["eastern-united-states"] = game.d["owner"]["russia"] = "germans"
    assert neutrals.defender(game, tables, "spain", "allies") == "british"
    assert neutrals.defender(game, tables, "mongolia", "axis") == "japanese"


def test_sea_zones_off_a_neutral_change_only_with_the_straits_holder() -> None:
    # reading: a neutral's sea zones are open sea before and after; only the Turkish straits,
    # held by whoever holds Turkey (S3:L218, L234), open to the team Turkey joins
    game = fresh()
    at(game, "germans", "noncombat-move")
    put(game, "sz-15", ("germans", "destroyer", 1))
    assert "move 1 destroyer sz-15 -> sz-16" not in options(game)
    at(game, "russians", "combat-move")
    choose(game, "russians", "attack neutral turkey")
    assert game.owner("turkey") == "germans" and game.d["aarhe"]["neutrals"]["turkey"] == -5
    at(game, "germans", "noncombat-move")
    assert "move 1 destroyer sz-15 -> sz-16" in options(game)


def test_the_heuristic_bot_does_not_attack_rio_de_oro_for_spains_income() -> None:
    # Rio de Oro has no income of its own: taking it would hand Spain and its army to the enemy
    game = fresh()
    at(game, "british", "combat-move")
    put(game, "french-west-africa", ("british", "infantry", 3))
    tables = profile(game).tables
    assert neutrals.attack_odds(game, tables, "rio-de-oro") == 1.0  # nothing defends Rio de Oro
    rio = [o for o in options(game) if "rio-de-oro" in o or o == "done"]
    assert rio == ["attack neutral rio-de-oro", "done"]
    assert policy_choose(game, "british", rio) == "done"


@pytest.mark.parametrize(("defenders", "offered"), [(2, True), (3, False)])
def test_a_defence_retreats_into_a_miniature_territory_only_within_its_limit(
    defenders: int, offered: bool
) -> None:
    # S3:L246: at most 3 of a team's units stand in a miniature territory, retreats included:
    # Spain, attacked by Germany, joins the Allies; its British defenders may fall back on
    # Gibraltar (1 British unit there) only while that keeps 3 or fewer
    game = fresh()
    at(game, "germans", "combat-move")
    game.d["aarhe"]["queue"] = [["germans", "second"]]
    put(game, "western-europe", ("germans", "armour", 3))
    choose(game, "germans", "attack neutral spain")
    put(game, "spain", ("british", "infantry", defenders))
    put(game, "gibraltar", ("british", "infantry", 1))
    choose(game, "germans", "move 3 armour western-europe -> spain")
    choose(game, "germans", "done")
    while game.to_act() != "germans":  # defensive air support: declined
        choose(game, game.to_act(), "done")
    choose(game, "germans", "fight spain")
    roll(game, *([6] * (3 + defenders)))
    choose(game, "germans", "press attack")
    if offered:
        assert (game.to_act(), options(game)) == ("british", ["hold", "retreat to gibraltar"])
    else:
        assert game.to_act() != "british"  # holding is the only answer: no question, next cycle
