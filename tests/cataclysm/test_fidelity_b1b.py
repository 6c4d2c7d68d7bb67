"""Special power rules (LR 12) audited against the Living Rules, through the engine (second pass)."""

from __future__ import annotations

from tests.cataclysm.test_operations import MODULE, bare_game, choose, options, roll, setup

from grandstrategy.cataclysm.engine import CataclysmGame
from grandstrategy.cataclysm.engine.war_start import may_declare_war
from grandstrategy.cataclysm.module.schema import Commitment
from grandstrategy.cataclysm.rules.control import controller, interests
from grandstrategy.cataclysm.rules.economy import collectable


def test_lend_lease_sends_only_home_area_resources_lr_12_2_2() -> None:
    """LR 12.2.2 (L2535): Lend Lease transfers the US's home-area resources. With its home resources
    damaged, the industrial resource the US collects in a controlled country cannot be lent: no
    Lend Lease choice is offered and the US goes straight to conversion."""
    game = bare_game("europe-1939")
    state = game.state
    state.phase = "administration"
    state.markers.append("lend-lease-in-play")
    state.wars = [(["united-kingdom"], ["germany"])]
    state.cubes["benelux"] = {"united-states": 1}
    state.damaged += ["washington-dc"] * 3  # one Damage marker per resource (LR 9.5.2)
    collected = [(c.area, c.industrial) for c in collectable(MODULE, state, "united-states")]
    assert collected == [("benelux", True)]
    game.then({"do": "produce", "power": "united-states"}, {"do": "produce", "power": "united-kingdom"})
    game.run()
    assert game.pending is not None and game.pending["power"] == "united-states"
    assert "of your 1 resources" in game.pending["prompt"]
    assert not any(option.startswith("lend") for option in options(game))


def test_lend_lease_still_sends_home_resources_beside_foreign_ones_lr_12_2_2() -> None:
    """LR 12.2.2 (L2535): the US collecting in Washington DC and a controlled country may lend one
    home resource to each belligerent; what is left after that is not lendable."""
    game = bare_game("europe-1939")
    state = game.state
    state.phase = "administration"
    state.markers.append("lend-lease-in-play")
    state.wars = [(["united-kingdom", "france"], ["germany"])]
    state.cubes["benelux"] = {"united-states": 1}
    assert len(collectable(MODULE, state, "united-states")) == 4  # 3 at home (2 industrial), 1 abroad
    game.then(
        {"do": "produce", "power": "united-states"},
        {"do": "produce", "power": "united-kingdom"},
        {"do": "produce", "power": "france"},
    )
    game.run()
    assert "lend natural to united-kingdom" in options(game)
    choose(game, "united-states", "lend industrial to united-kingdom")
    choose(game, "united-states", "lend industrial to france")
    assert game.pending is not None and "of your 2 resources" in game.pending["prompt"]


def test_the_stresa_front_does_not_bar_a_diplomatic_opportunity_lr_12_1() -> None:
    """LR 12.1 (L2419) bars Germany and Italy from declaring operations and attempting diplomacy (the
    LR 6.3 action) in the other's interests; a diplomatic opportunity (LR 5.7, L1337) is neither, so
    Germany still checks for Albania, in Italy's interests, and takes it on a success."""
    game = bare_game("campaign-1933")
    state = game.state
    assert "stresa-front" in state.markers
    assert "albania" in interests(MODULE, state, "italy") and controller(MODULE, state, "albania") is None
    game.push("opportunity", area="albania", powers=["germany"])
    game.run()
    choose(game, "germany", "attempt")  # the check is Germany's choice (LR 5.7)
    assert game.pending is not None and game.pending["type"] == "chance"
    while game.pending is not None and game.pending["type"] == "chance":
        roll(game, 6)
    assert controller(MODULE, state, "albania") == "germany"


def test_status_quo_ends_the_moment_italy_mobilizes_lr_12_2() -> None:
    """LR 12.2 (L2494, L2498): Status Quo is removed immediately when Italy escalates to mobilization
    and each Democracy gains its flag at once: the Democracies place those flags before Italy tops up
    its force pool or takes its escalation offensives (LR 6.4.1, 6.4.2)."""
    game = bare_game("campaign-1933")
    state = game.state
    state.powers["italy"].commitment = Commitment.REARMAMENT
    game.push("political-result", power="italy", action="escalation", target="", success=True, dice=[6])
    game.run()
    assert state.powers["italy"].commitment is Commitment.MOBILIZATION
    assert "status-quo" not in state.markers
    prompts = []
    while game.pending is not None:
        assert game.pending["type"] == "decide", game.pending
        prompts.append((game.pending["power"], game.pending["prompt"]))
        choose(game, game.pending["power"], game.pending["options"][0])
    democracies = {"france", "united-kingdom", "united-states"}
    first_italian = next(i for i, (power, _) in enumerate(prompts) if power == "italy")
    placed = [p for p, prompt in prompts[:first_italian] if "place the flag" in prompt]
    assert set(placed) == democracies, prompts


def test_an_undone_declaration_leaves_no_steps_behind_lr_6_2() -> None:
    """LR 6.2 (L1435) with LR 12.2 (L2496-2498): the UK declares war on Italy with its only
    army in an ally's area; Status Quo ends (three Democracy flags), Italy gains its flag and France
    breaks the alliance, which sends the army to the cup, so no operation can follow. Every step the
    declaration queued has run before the operation is asked for, so undoing the declaration from its
    snapshot leaves exactly the steps that were waiting beneath it, with the state as it was."""
    game = setup("campaign-1933", [("united-kingdom", "infantry-army", "provence")], [])
    state = game.state
    state.alliances["democracy"] = ["france", "united-kingdom"]
    game.push("check-game-end")  # what the declaration interrupts
    waiting = [dict(frame) for frame in game.stack]
    before = state.to_json()
    game.push(
        "political-result",
        power="united-kingdom",
        action="declare-war",
        target="italy",
        success=True,
        dice=[6],
    )
    game.run()
    prompts = []
    while game.pending is not None and options(game) != ["cancel"]:
        prompts.append(game.pending["prompt"])
        pick = "break the alliance" if "break the alliance" in options(game) else "cup"
        choose(game, game.pending["power"], pick)
    assert sum("Status Quo ends" in prompt for prompt in prompts) == 3
    assert any("war declared by united-kingdom" in prompt for prompt in prompts)
    assert "status-quo" not in game.state.markers and "democracy" not in game.state.alliances
    assert game.stack == waiting  # the operation being asked for is all that stood above them
    choose(game, "united-kingdom", "cancel")
    assert game.pending is None and game.stack == []  # the waiting check has run, nothing else
    restored = game.state.to_json()
    assert {**restored, "log": []} == {**before, "log": []}


def _collapse_and_survive(game: CataclysmGame, power: str) -> None:
    """The power collapses and survives its surrender roll; every choice that follows takes the first
    option."""
    game.push("collapse", power=power)
    game.run()
    roll(game, 6)
    while game.pending is not None:
        if game.pending["type"] == "decide":
            choose(game, game.pending["power"], game.pending["options"][0])
        else:
            roll(game, 6)


def test_germany_collapsing_ends_the_night_of_the_long_knives_lr_12_1_1() -> None:
    """LR 12.1.1 (L2427): the extra administration flag is cancelled for good once Germany collapses;
    the next administration phase gives Germany one flag, not two."""
    game = bare_game("campaign-1933")
    state = game.state
    _collapse_and_survive(game, "germany")
    assert "night-of-the-long-knives" not in state.markers
    state.phase = "administration"
    state.powers["germany"].holding_box.clear()
    game.push("gain-admin-flags", power="germany")
    game.run()
    assert state.powers["germany"].holding_box == ["flag:germany"]


def test_italy_collapsing_ends_il_duce_lr_12_1_2() -> None:
    """LR 12.1.2 (L2445): Il Duce is cancelled for good once Italy collapses: no Il Duce flag is offered
    in the administration phase, Italy gains an ordinary flag."""
    game = bare_game("campaign-1933")
    state = game.state
    _collapse_and_survive(game, "italy")
    assert "il-duce" not in state.markers
    state.phase = "administration"
    state.powers["italy"].holding_box.clear()
    game.push("gain-admin-flags", power="italy")
    game.run()
    assert game.pending is None and state.powers["italy"].holding_box == ["flag:italy"]


def test_the_us_may_not_join_an_alliance_before_lend_lease_lr_12_2_2() -> None:
    """LR 12.2.2 (L2533): before Lend Lease comes into play, alliances are closed to the US: its
    flag offers no alliance action, though France and the UK are allied."""
    game = bare_game("europe-1939")
    state = game.state
    assert state.alliances["democracy"] == ["france", "united-kingdom"]
    state.powers["united-states"].available_flags -= 1
    game.push("play-counter", counter="flag:united-states", source="cup")
    game.run()
    assert not any(option.startswith(("alliance", "join-alliance")) for option in options(game))


def test_us_japan_trade_bars_the_us_and_its_allies_from_war_on_japan_lr_12_2_2() -> None:
    """LR 12.2.2 (L2521) and LR 6.2 (L1424): while US-Japan Trade is in play neither the US nor an ally
    of the US may declare war on Japan; a Democracy outside the US's alliance still may."""
    game = bare_game("campaign-1933")
    state = game.state
    for power in ("united-states", "united-kingdom", "france"):
        state.powers[power].commitment = Commitment.MOBILIZATION
    state.alliances["democracy"] = ["united-kingdom", "united-states"]
    assert may_declare_war(game, "united-states", "japan") is not None
    assert may_declare_war(game, "united-kingdom", "japan") is not None
    assert may_declare_war(game, "france", "japan") is None
    assert may_declare_war(game, "united-kingdom", "germany") is None
    state.markers.remove("us-japan-trade")
    assert may_declare_war(game, "united-states", "japan") is None


def _trade_without_us_industry() -> CataclysmGame:
    """1933 in the administration phase, both US industrial areas damaged: the US collects no
    industrial resource while US-Japan Trade is in play."""
    game = bare_game("campaign-1933")
    state = game.state
    state.phase = "administration"
    state.damaged += ["washington-dc"] * 2 + ["california"]  # each industrial resource (LR 9.5.2)
    assert "us-japan-trade" in state.markers
    assert not any(c.industrial for c in collectable(MODULE, state, "united-states"))
    return game


def test_us_japan_trade_ships_nothing_without_a_us_industrial_resource_lr_12_2_2() -> None:
    """LR 12.2.2 (L2520) with LR 4.4.1 (L969): the trade transfers one of the US's industrial
    resources; with none collected there is nothing to transfer, and Japan, producing after the US,
    receives nothing."""
    game = _trade_without_us_industry()
    japan_collects = len(collectable(MODULE, game.state, "japan"))
    game.then({"do": "produce", "power": "united-states"}, {"do": "produce", "power": "japan"})
    game.run()
    while game.pending is not None and game.pending["power"] == "united-states":
        choose(game, "united-states", options(game)[0])
    assert game.pending is not None and f"of your {japan_collects} resources" in game.pending["prompt"]
    assert not any("japan receives a resource" in line for line in game.state.log)


def test_us_japan_trade_before_the_us_produces_lr_12_2_2() -> None:
    """LR 12.2.2 (L2520): Japan producing before the US receives the trade resource only if the US
    will have an industrial resource to give: none here; with Washington DC repaired it does, the US
    then ships it and nothing is left owed."""
    game = _trade_without_us_industry()
    japan_collects = len(collectable(MODULE, game.state, "japan"))
    game.then({"do": "produce", "power": "japan"}, {"do": "produce", "power": "united-states"})
    game.run()
    assert game.pending is not None and f"of your {japan_collects} resources" in game.pending["prompt"]

    game = _trade_without_us_industry()
    game.state.damaged.remove("washington-dc")
    us_collects = len(collectable(MODULE, game.state, "united-states"))
    game.then({"do": "produce", "power": "japan"}, {"do": "produce", "power": "united-states"})
    game.run()
    assert game.pending is not None and f"of your {japan_collects + 1} resources" in game.pending["prompt"]
    while game.pending is not None and game.pending["power"] == "japan":
        choose(game, "japan", options(game)[0])
    assert game.pending is not None and f"of your {us_collects - 1} resources" in game.pending["prompt"]
    assert game.state.transfers == []
