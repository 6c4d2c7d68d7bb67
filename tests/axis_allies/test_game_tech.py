"""Weapons development: research dice, breakthroughs at the end of the turn (LHTR 1.3), effects."""

from __future__ import annotations

from tests.axis_allies.game_helpers import at, choose, fresh, options, put, roll

from grandstrategy.axis_allies.game.engine import key


def test_research_breakthrough_takes_effect_at_the_end_of_the_turn() -> None:
    game = fresh()
    at(game, "germans", "research")
    bank = game.d["bank"]["germans"]
    assert options(game)[-1] == "done"
    choose(game, "germans", "research long-range-aircraft")
    assert options(game) == ["buy research die"]  # at least one die before rolling
    choose(game, "germans", "buy research die")
    choose(game, "germans", "buy research die")
    assert game.d["bank"]["germans"] == bank - 10
    choose(game, "germans", "roll research dice")
    labels = roll(game, 3, 6)
    assert "a 6 is a breakthrough" in labels[0]
    assert game.d["phase"] == "purchase"
    assert game.d["new_techs"] == ["long-range-aircraft"] and game.techs("germans") == []
    put(game, "germany", ("germans", "fighter", 1))
    assert game.units("germany") == {key("germans", "fighter", 4): 1}  # not yet this turn
    for _ in range(3):
        choose(game, "germans", "done")  # purchase, combat move (no battles), non-combat move
    assert game.power == "british"
    assert game.techs("germans") == ["long-range-aircraft"]
    assert game.units("germany") == {key("germans", "fighter", 6): 1}


def test_failed_research_spends_the_dice() -> None:
    game = fresh()
    at(game, "germans", "research")
    bank = game.d["bank"]["germans"]
    choose(game, "germans", "research jet-power")
    choose(game, "germans", "buy research die")
    choose(game, "germans", "roll research dice")
    roll(game, 5)
    assert game.d["new_techs"] == [] and game.d["bank"]["germans"] == bank - 5
    assert any("research into jet-power fails" in line for line in game.d["log"])


def test_jet_fighters_defend_on_five_and_super_subs_attack_on_three() -> None:
    game = fresh()
    game.d["techs"] = {"germans": ["jet-power"], "russians": ["super-submarines"]}
    at(game, "russians", "combat-move")
    put(game, "caucasus", ("russians", "infantry", 1))
    put(game, "ukraine-ssr", ("germans", "fighter", 1))
    choose(game, "russians", "move 1 infantry caucasus -> ukraine-ssr")
    choose(game, "russians", "done")
    choose(game, "russians", "fight ukraine-ssr")
    assert game.chance_node().label.endswith("russians infantry hits on 1 or less")
    roll(game, 6)
    assert game.chance_node().label.endswith("defence fighter hits on 5 or less")
    assert game.profile.attack_value("submarine", False, game.techs("russians")) == 3
    assert game.profile.defence("submarine", game.techs("russians")) == 3


def test_heavy_bombers_roll_two_dice_and_count_the_best_lhtr() -> None:
    game = fresh()
    game.d["techs"] = {"germans": ["heavy-bombers"]}
    at(game, "germans", "combat-move")
    put(game, "west-russia", ("germans", "bomber", 1))
    put(game, "russia", ("russians", "infantry", 2))
    choose(game, "germans", "move 1 bomber west-russia -> russia")
    choose(game, "germans", "done")
    choose(game, "germans", "fight russia")
    labels = roll(game, 2, 3, 6, 6)  # both bomber dice hit, but one bomber scores one hit
    assert all("bomber hits on 4" in label for label in labels[:2])
    assert game.units("russia")[key("russians", "infantry", 1)] == 1


def test_heavy_bomber_raid_damage_is_the_best_die_plus_one_lhtr() -> None:
    game = fresh()
    game.d["techs"] = {"germans": ["heavy-bombers"]}
    at(game, "germans", "combat-move")
    put(game, "west-russia", ("germans", "bomber", 1))
    put(game, "russia", ("russians", "factory", 1))
    bank = game.d["bank"]["russians"]
    choose(game, "germans", "raid 1 bomber west-russia -> russia")
    choose(game, "germans", "done")
    choose(game, "germans", "bomb russia")
    roll(game, 2, 5)  # no AA gun: the two damage dice; best 5, plus 1
    assert game.d["bank"]["russians"] == bank - 6


def test_rockets_fire_once_per_aa_gun_territory_at_a_factory_within_three() -> None:
    game = fresh()
    game.d["techs"] = {"germans": ["rockets"]}
    at(game, "germans", "combat-move")
    for where in ("ukraine-ssr", "eastern-europe", "belorussia", "balkans", "karelia-ssr", "caucasus"):
        put(game, where)
    put(game, "west-russia", ("germans", "aagun", 1))
    bank = game.d["bank"]["russians"]
    choose(game, "germans", "done")
    mine = [o for o in options(game) if o.endswith("from west-russia")]
    assert mine == ["rocket russia from west-russia"]  # Caucasus was emptied of its factory
    assert options(game)[-1] == "done"
    choose(game, "germans", "rocket russia from west-russia")
    assert "rocket bombs the factory" in roll(game, 4)[0]
    assert game.d["bank"]["russians"] == bank - 4
    assert not any(o.endswith("from west-russia") for o in options(game))  # once a turn
    choose(game, "germans", "done")
    assert game.d["phase"] == "noncombat-move"
