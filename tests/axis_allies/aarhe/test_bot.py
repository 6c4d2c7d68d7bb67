"""The heuristic bot at the variant's own decisions (``aarhe/bot.py``) and its amphibious assaults
under the variant: positions built by hand, then a seeded game."""

from __future__ import annotations

from tests.axis_allies.aarhe.helpers import at, choose, fresh, options
from tests.axis_allies.game_helpers import put
from tests.axis_allies.test_game_assaults import _seeded_game, heuristic_landings

from grandstrategy.axis_allies.aarhe import atomic, interdiction, lendlease
from grandstrategy.axis_allies.aarhe.ruleset import AA_AARHE
from grandstrategy.axis_allies.game.engine import AAGame
from grandstrategy.axis_allies.game.policy import choose as policy


def _empty(power: str, phase: str) -> AAGame:
    game = fresh()
    game.d["units"] = {}
    at(game, power, phase)
    return game


def test_amphibious_assault_under_the_variant() -> None:
    game = _empty("british", "combat-move")
    for where, owner in game.d["owner"].items():
        if owner is not None and game.alliance(owner) == "axis" and where != "western-europe":
            game.d["owner"][where] = "british"  # only Western Europe is hostile
    put(game, "united-kingdom", ("british", "infantry", 2), ("british", "armour", 1))
    put(game, "sz-8", ("british", "transport", 1))
    put(game, "western-europe", ("germans", "infantry", 1))
    chosen = []
    while (option := policy(game, "british", options(game))) != "done":
        chosen.append(option)
        choose(game, "british", option)
        assert len(chosen) < 20
    assert chosen[:3] == [
        "move 1 armour united-kingdom -> sz-8",
        "move 1 infantry united-kingdom -> sz-8",
        "move 1 transport sz-8 -> sz-7",
    ]
    landed = ["move 1 armour sz-7 -> western-europe", "move 1 infantry sz-7 -> western-europe"]
    assert sorted(chosen[3:]) == landed
    assert game.d["amphibious"]["western-europe"] == {"armour": 1, "infantry": 1}


def test_lend_lease_is_loaded_nearest_an_unload_zone_sailed_and_delivered() -> None:
    game = _empty("americans", "purchase")
    put(game, "sz-10", ("americans", "transport", 1))
    put(game, "sz-55", ("americans", "transport", 1))
    game.d["bank"]["americans"] = 40
    menu = options(game)
    assert {"lend-lease 6 at sz-10", "lend-lease 6 at sz-55", "buy armour"} <= set(menu)
    assert policy(game, "americans", menu) == "lend-lease 6 at sz-10"  # 5 zones from sz-4, sz-55 is 6
    choose(game, "americans", "lend-lease 6 at sz-10")
    assert policy(game, "americans", options(game)) == "lend-lease 6 at sz-55"  # up to 12 a turn
    choose(game, "americans", "lend-lease 6 at sz-55")
    assert not any(o.startswith("lend-lease") for o in options(game))
    assert game.d["bank"]["americans"] == 28

    # A laden transport one zone from an unload zone sails there and delivers.
    game = _empty("americans", "noncombat-move")
    put(game, "sz-3", ("americans", "transport", 1))
    lendlease.shipments(game).append({"zone": "sz-3", "ipc": 6})
    assert policy(game, "americans", options(game)) == "move 1 transport sz-3 -> sz-4"
    choose(game, "americans", "move 1 transport sz-3 -> sz-4")
    deliver = policy(game, "americans", options(game))
    assert deliver.startswith("deliver lend-lease sz-4 to ")
    choose(game, "americans", deliver)
    assert game.d["aarhe"]["aid"] == {deliver.split()[-1]: 6}


def test_diplomacy_courts_the_neutral_with_the_best_expected_gain() -> None:
    game = fresh()
    at(game, "british", "diplomacy")
    neutrals = game.d["aarhe"]["neutrals"]
    for name in neutrals:
        neutrals[name] = -3  # out of reach (the roll aims at -2..+2)
    neutrals["argentina"], neutrals["peru"] = 0, 1
    assert sorted(options(game)) == ["court argentina", "court peru", "done"]
    # Argentina is worth more (income 2, two infantry) but two hits from its first threshold;
    # Peru (income 1, one infantry) one hit from it.
    assert policy(game, "british", options(game)) == "court peru"
    neutrals["argentina"] = 1  # now one hit from it too: the worthier neutral wins
    assert policy(game, "british", options(game)) == "court argentina"
    neutrals["argentina"] = -2  # the Axis' side: one hit takes away their overflight
    assert policy(game, "british", options(game)) == "court argentina"


def test_idle_bombers_interdict_a_territory_full_of_enemy_land_units() -> None:
    def asked(infantry: int) -> str:
        game = _empty("germans", "combat-move")
        put(game, "anglo-egypt", ("british", "bomber", 1))
        put(game, "libya", ("germans", "infantry", infantry))
        assert interdiction.open_declarations(game)
        assert game.to_act() == "british"
        menu = options(game)
        assert "interdict libya with 1 bomber from anglo-egypt" in menu
        assert any(o.startswith("interdict sz-") for o in menu)  # sea zones are offered, never chosen
        return policy(game, "british", menu)

    assert asked(3) == "interdict libya with 1 bomber from anglo-egypt"
    assert asked(2) == "done"


def test_the_atomic_bomb_is_bought_with_a_bomber_to_carry_it_and_dropped_where_worth_most() -> None:
    game = _empty("americans", "purchase")
    game.d["bank"]["americans"] = 60
    game.d["techs"]["americans"] = ["atomic-weaponry"]
    assert "buy atomic-bomb" in options(game)
    assert policy(game, "americans", options(game)) != "buy atomic-bomb"  # no Heavy Bomber: no carrier
    game.d["techs"]["americans"] = ["atomic-weaponry", "heavy-bomber"]
    assert policy(game, "americans", options(game)) == "buy atomic-bomb"

    game = _empty("americans", "combat-move")
    game.d["techs"]["americans"] = ["atomic-weaponry", "heavy-bomber"]
    put(game, "united-kingdom", ("americans", "bomber", 1))
    put(game, "norway", ("germans", "infantry", 1))
    put(game, "western-europe", ("germans", "infantry", 6))
    atomic.record(game, "americans")["loaded"] = {"united-kingdom": 1}
    strikes = [o for o in options(game) if o.startswith("atomic strike ")]
    assert "atomic strike norway from united-kingdom" in strikes
    income = {o: game.module.territories[o.split()[2]].ipc or 0 for o in strikes}
    best = policy(game, "americans", options(game))
    assert best in strikes and income[best] == max(income.values())


def test_a_seeded_variant_game_has_heuristic_landings_and_replays_the_same() -> None:
    match, seats = _seeded_game(AA_AARHE, 1, "axis=heuristic")
    assert heuristic_landings(AA_AARHE, match.log, seats) >= 1
    again, _ = _seeded_game(AA_AARHE, 1, "axis=heuristic")
    assert [e.to_json() for e in again.log] == [e.to_json() for e in match.log]  # type: ignore[attr-defined]
    assert again.state_hash() == match.state_hash()


def test_the_bot_deploys_an_id_lying_on_its_side_where_it_stands() -> None:
    # S3:L236: an ID mobilized on its side fires only once deployed; the bot deploys it in place
    game = fresh()
    at(game, "russians", "mobilize")
    game.d["purchased"] = {"aagun": 1}
    choose(game, "russians", "place aagun russia")
    at(game, "russians", "noncombat-move")
    assert policy(game, "russians", options(game)) == "deploy aagun at russia"


def test_the_bot_fires_heavy_artillery_into_its_battle_next_door() -> None:
    # S3:L248 (optional units): heavy artillery next to the power's land battle fires into it
    game = fresh(optional_units=True)
    at(game, "germans", "combat-move")
    game.d["aarhe"]["queue"] = [["germans", "second"]]
    put(game, "ukraine-ssr", ("germans", "infantry", 1), ("germans", "heavy-artillery", 1))
    put(game, "caucasus", ("russians", "infantry", 1))
    choose(game, "germans", "move 1 infantry ukraine-ssr -> caucasus")
    assert policy(game, "germans", options(game)) == "shell caucasus from ukraine-ssr"
