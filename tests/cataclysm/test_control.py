"""Control, relations, interests, production sites and victory (LR 1.7, 2.2.4, 2.3.9, 5.1)."""

from __future__ import annotations

import pytest

from grandstrategy.cataclysm.module import load_module
from grandstrategy.cataclysm.module.schema import Ideology
from grandstrategy.cataclysm.rules.control import (
    controller,
    ideology_scores,
    interests,
    production_sites,
    victory_points,
    win_margin,
    winner,
)
from grandstrategy.cataclysm.state import CataclysmState, new_state

MODULE = load_module()


@pytest.fixture
def campaign() -> CataclysmState:
    return new_state(MODULE, "campaign-1933")


def test_starting_victory_points_match_the_record_display(campaign: CataclysmState) -> None:
    scenario = MODULE.scenarios["campaign-1933"]
    for power, line in scenario.powers.items():
        assert victory_points(MODULE, campaign, power) == line.vp


def test_home_areas_and_cubes_give_control_lr_2_2_4(campaign: CataclysmState) -> None:
    assert controller(MODULE, campaign, "paris") == "france"
    assert controller(MODULE, campaign, "poland") == "france"
    assert controller(MODULE, campaign, "austria") is None
    assert controller(MODULE, campaign, "north-sea") is None
    campaign.cubes["paris"] = {"germany": 2}
    assert controller(MODULE, campaign, "paris") == "germany"
    assert victory_points(MODULE, campaign, "france") == 4 - 2
    campaign.cubes["paris"] = {"neutral": 2}
    assert controller(MODULE, campaign, "paris") is None


def test_a_same_ideology_cube_does_not_take_a_home_area_but_costs_vp_lr_1_7_1(
    campaign: CataclysmState,
) -> None:
    campaign.cubes["bavaria"] = {"italy": 1}
    assert controller(MODULE, campaign, "bavaria") == "germany"
    assert victory_points(MODULE, campaign, "germany") == -1
    assert victory_points(MODULE, campaign, "italy") == 1


def test_a_surrendered_power_controls_nothing_but_still_scores(campaign: CataclysmState) -> None:
    campaign.powers["france"].active = False
    assert controller(MODULE, campaign, "paris") is None
    assert controller(MODULE, campaign, "poland") is None
    assert victory_points(MODULE, campaign, "france") == 4


def test_interests_across_one_sea_lr_l1069(campaign: CataclysmState) -> None:
    uk = interests(MODULE, campaign, "united-kingdom")
    assert {"benelux", "denmark", "paris", "brittany", "norway"} <= uk
    assert {"ireland", "portugal", "spain"} <= uk
    assert {"guangdong", "jiangsu"} <= interests(MODULE, campaign, "united-states")


def test_allies_share_interests_lr_l1073(campaign: CataclysmState) -> None:
    assert "rumania" not in interests(MODULE, campaign, "united-kingdom")
    campaign.alliances["democracy"] = ["france", "united-kingdom"]
    assert "rumania" in interests(MODULE, campaign, "united-kingdom")


def test_soviet_interest_in_poland_by_adjacency_lr_l1925(campaign: CataclysmState) -> None:
    assert "poland" in interests(MODULE, campaign, "soviet-union")


def test_production_sites_lr_2_3_9(campaign: CataclysmState) -> None:
    assert production_sites(MODULE, campaign, "italy") == [
        "lombardy"
    ]  # LR L522: Rome's limited resource is not one
    assert "paris" in production_sites(MODULE, campaign, "france")
    campaign.cubes["paris"] = {"germany": 2}
    assert "paris" not in production_sites(MODULE, campaign, "france")  # LR L524
    assert "paris" not in production_sites(MODULE, campaign, "germany")
    assert "volga" not in production_sites(MODULE, campaign, "soviet-union")
    campaign.powers["soviet-union"].commitment = campaign.powers["soviet-union"].commitment.__class__(
        "mobilization"
    )
    assert "volga" in production_sites(MODULE, campaign, "soviet-union")  # LR 12.3.1: special resources


@pytest.mark.parametrize(
    ("democracy", "fascism", "communism", "expected"),
    [
        (3, 17, 6, Ideology.FASCISM),  # public account: a 1933 campaign's final score
        (10, 4, 5, Ideology.DEMOCRACY),  # beats Fascist + Communist (9)
        (9, 4, 5, Ideology.COMMUNISM),  # does not: highest of the other two
        (9, 5, 5, Ideology.COMMUNISM),  # tie between the other two: Communists
        (8, 8, -1, Ideology.FASCISM),  # tie without Communists: Fascists
        (6, -2, 6, Ideology.COMMUNISM),  # tie including Communists
        (2, 2, 2, Ideology.COMMUNISM),
    ],
)
def test_winner_lr_1_7_2(democracy: int, fascism: int, communism: int, expected: Ideology) -> None:
    scores = {Ideology.DEMOCRACY: democracy, Ideology.FASCISM: fascism, Ideology.COMMUNISM: communism}
    assert winner(scores) is expected


@pytest.mark.parametrize(
    ("scores", "ideology", "margin"),
    [
        ((10, 4, 5), Ideology.DEMOCRACY, 1),  # wins by beating 9, loses at 9
        ((9, 4, 5), Ideology.DEMOCRACY, 0),  # one more VP wins
        ((5, 4, 5), Ideology.DEMOCRACY, -4),  # needs 10: five more
        ((5, 4, 0), Ideology.DEMOCRACY, 1),  # Communism at 0: only the highest score counts
        ((9, 4, 5), Ideology.COMMUNISM, 1),  # wins; at 4 the Democracies' 9 beat 4 + 4
        ((9, 4, 5), Ideology.FASCISM, -1),  # needs 6 to beat Communism's 5 (a tie goes to Communism)
        (
            (12, 4, 5),
            Ideology.FASCISM,
            -2,
        ),  # needs 7 (three more): then the Democracies' 12 is no more than 7 + 5
        ((3, 17, 6), Ideology.FASCISM, 11),  # still wins at 7 (over 6, and 3 is no more than 7 + 6)
    ],
)
def test_win_margin_counts_the_winner_test_in_vp_lr_1_7_2(
    scores: tuple[int, int, int], ideology: Ideology, margin: int
) -> None:
    by_ideology = dict(zip((Ideology.DEMOCRACY, Ideology.FASCISM, Ideology.COMMUNISM), scores, strict=True))
    assert win_margin(by_ideology, ideology) == margin
    assert list(by_ideology.values()) == list(scores)  # the caller's scores are not touched


def test_ideology_scores_sum_powers(campaign: CataclysmState) -> None:
    assert ideology_scores(MODULE, campaign) == {
        Ideology.DEMOCRACY: 6,
        Ideology.FASCISM: 1,
        Ideology.COMMUNISM: 1,
    }


def test_new_state_pieces_and_cup(campaign: CataclysmState) -> None:
    scenario = MODULE.scenarios["campaign-1933"]
    assert len(campaign.units) == sum(p.count for p in scenario.units)
    assert campaign.cup.count("crisis") == 4 and campaign.cup.count("cw-resolution") == 1
    assert sum(1 for c in campaign.cup if c.startswith("home-front:")) == 7
    assert campaign.powers["germany"].reserve == "flag:germany"
    mix = MODULE.powers["germany"].counters.flags
    assert campaign.powers["germany"].available_flags == mix - 2  # one in the cup, one in reserve
    limit = MODULE.powers["germany"].status_card["civilian"].force_pool
    on_map = sum(1 for u in campaign.units if u.power == "germany")
    assert on_map + sum(campaign.powers["germany"].force_pool.values()) <= limit
    data = campaign.to_json()
    assert data["turn"] == 1933 and data["scenario"] == "campaign-1933"
    clone = campaign.clone()
    clone.cubes["paris"] = {"germany": 2}
    assert "paris" not in campaign.cubes
