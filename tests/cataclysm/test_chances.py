"""Chances before the dice (``grandstrategy.cataclysm.chances``), held against the engine itself.

A check's chance is compared with the fraction of every die outcome that succeeds when each is
fed to a copy of the game; an operation's with every combat roll played through the engine, or
with the exact odds of the situation the rules describe.
"""

from __future__ import annotations

from fractions import Fraction
from itertools import product

from grandstrategy.cataclysm.chances import Chance, option_chances, option_odds, percent
from grandstrategy.cataclysm.engine import CataclysmGame
from grandstrategy.cataclysm.engine.operations import limited_supply
from grandstrategy.cataclysm.odds import parse_situation, situation_odds
from grandstrategy.cataclysm.rules.dice import success_chance
from grandstrategy.cataclysm.rules.politics import check_dice

from .test_operations import bare_game, choose, choose_starting, offensive, roll, settle, setup


def political_decision(italy_reserve: str | None = None) -> CataclysmGame:
    """Europe 1939: Germany's flag is drawn and it chooses a political action (LR 6)."""
    game = bare_game()
    if italy_reserve is not None:  # a flag from Italy's available box into its reserve
        game.state.powers["italy"].available_flags -= 1
        game.state.powers["italy"].reserve = italy_reserve
    game.state.cup.remove("flag:germany")
    game.push("play-counter", counter="flag:germany", source="cup")
    game.run()
    assert game.pending is not None and game.pending["prompt"] == "political action (LR 6)"
    return game


def enumerated_successes(
    game: CataclysmGame, power: str, option: str, consent: str | None = None
) -> Fraction:
    """The fraction of all die outcomes for which the engine logs the option's check a success."""
    trial = game.clone()
    choose(trial, power, option)
    if consent is not None:
        choose(trial, consent, "agree")
    assert trial.pending is not None and trial.pending["type"] == "chance"
    count = trial.pending["then"]["left"]
    hits = 0
    for faces in product(range(1, 7), repeat=count):
        copy = trial.clone()
        before = len(copy.state.log)
        roll(copy, *faces)
        results = [line for line in copy.state.log[before:] if ": rolls " in line]
        assert results, copy.state.log[before:]
        hits += results[0].endswith("success")
    return Fraction(hits, 6**count)


def test_a_political_actions_chance_is_the_fraction_of_die_outcomes_the_engine_counts_a_success() -> None:
    game = political_decision()
    chances = option_chances(game)
    assert "forfeit" not in chances
    for option in ("maneuvers", "diplomacy poland", "diplomacy denmark"):
        chance = chances[option]
        assert chance.kind == "check"
        assert chance.success == enumerated_successes(game, "germany", option), option
    # three dice at effectiveness 3 (LR 5.3); diplomacy in Poland rolls at -1 (LR 6.6)
    assert chances["maneuvers"].success == 1 - Fraction(4, 6) ** 3 == Fraction(19, 27)
    assert chances["diplomacy poland"].success < chances["diplomacy denmark"].success
    assert chances["maneuvers"].text == "success 70%"


def test_a_failed_action_cube_raises_the_chance_as_the_engine_does_lr_5_4() -> None:
    game = political_decision()
    before = option_chances(game)["maneuvers"].success
    game.state.powers["germany"].failed_actions["maneuvers"] = 1
    after = option_chances(game)["maneuvers"]
    assert after.success == enumerated_successes(game, "germany", "maneuvers")
    assert after.success == success_chance(3, 1) > before


def test_an_alliance_shows_its_check_if_the_partners_agree_lr_6_1() -> None:
    game = political_decision(italy_reserve="flag:italy")
    options = list(game.pending["options"]) if game.pending else []
    assert "alliance italy" in options
    chance = option_chances(game)["alliance italy"]
    assert chance.condition == "if partners agree" and chance.text.endswith("if partners agree")
    assert chance.success == enumerated_successes(game, "germany", "alliance italy", consent="italy")
    weakest = min(check_dice(game.module, game.state, p) for p in ("germany", "italy"))
    assert chance.success == success_chance(*weakest)
    choose(game, "germany", "alliance italy")  # Italy's consent comes first: agreeing leads to the roll
    consent = option_chances(game)
    assert set(consent) == {"agree"} and consent["agree"].success == chance.success


def test_a_diplomatic_opportunity_attempt_has_its_chance_and_decline_none_lr_5_7() -> None:
    game = bare_game()
    game.push("opportunity", area="yugoslavia", powers=["italy"])
    game.run()
    assert game.pending is not None and game.pending["options"] == ["attempt", "decline"]
    chances = option_chances(game)
    assert set(chances) == {"attempt"}
    assert chances["attempt"].success == enumerated_successes(game, "italy", "attempt")


def poland_menu() -> CataclysmGame:
    """Europe 1939: Germany's one military action, with Poland a target (the LR's Fall Weiss)."""
    game = bare_game()
    offensive(game, "germany", 1)
    return game


def odds_of(situation: dict[str, object]) -> Fraction:
    return situation_odds(parse_situation(situation)).attacker_wins


def test_the_menu_entry_gives_the_forces_the_power_could_bring_lr_9_1_10_2() -> None:
    game = poland_menu()
    chance = option_chances(game)["land operation against Poland"]
    assert chance.kind == "combat"
    # the two armies in Silesia (one action: one area of origin), the tactical air force supports
    odds = situation_odds(
        parse_situation(
            {
                "combat": "land",
                "attacker": {"units": ["tank-army", "infantry-army"], "air": ["tactical-air"]},
                "defender": {"units": ["minor-army"]},
            }
        )
    )
    assert chance.success == odds.attacker_wins
    assert chance.triumph == odds.attacker_triumph and chance.disaster == odds.defender_triumph
    assert chance.no_defender_support == chance.success  # nobody can support Poland
    # expected losses: each side's losses capped at its steps (tank 2 + infantry 1; the minor army 1)
    assert chance.loss == sum(p * min(n, 3) for n, p in odds.attacker_losses.items())
    assert chance.inflicted == sum(p * min(n, 1) for n, p in odds.defender_losses.items())
    assert chance.text.startswith(f"win {percent(chance.success)} · triumph ")
    assert option_odds(game, "germany", "land operation against Poland") == float(chance.success)
    assert "forfeit" not in option_chances(game)


def test_each_activation_shows_the_chance_with_that_unit_added_lr_9_2() -> None:
    game = poland_menu()
    choose(game, "germany", "land operation against Poland")
    first = option_chances(game)
    tank = next(o for o in first if o.startswith("activate #2 tank-army"))
    infantry = next(o for o in first if o.startswith("activate #1 infantry-army"))
    assert "done" not in first  # nothing is activated yet: done is not offered (LR 9.1)
    air = ["tactical-air"]
    assert first[tank].success == odds_of(
        {
            "combat": "land",
            "attacker": {"units": ["tank-army"], "air": air},
            "defender": {"units": ["minor-army"]},
        }
    )
    assert first[infantry].success == odds_of(
        {
            "combat": "land",
            "attacker": {"units": ["infantry-army"], "air": air},
            "defender": {"units": ["minor-army"]},
        }
    )
    assert first[tank].success > first[infantry].success  # armour superiority (LR 10.4)
    choose(game, "germany", tank)
    second = option_chances(game)
    assert second["done"].success == first[tank].success
    with_infantry = next(o for o in second if o.startswith("activate #1 infantry-army"))
    # a second army adds no die but one more step to lose: the disaster chance drops (LR 10.12)
    assert second[with_infantry].disaster is not None and second["done"].disaster is not None
    assert second[with_infantry].disaster < second["done"].disaster


def test_the_support_decisions_chance_matches_every_combat_roll_through_the_engine() -> None:
    """Tank army against Poland's minor army, no air: 2 dice against 1 (armour), 216 rolls."""
    game = poland_menu()
    choose(game, "germany", "land operation against Poland")
    choose_starting(game, "germany", "activate #2 tank-army")
    choose(game, "germany", "done")
    settle(game)
    assert game.pending is not None and game.pending["prompt"].startswith("commit support (attacker")
    chance = option_chances(game)["done"]
    fight = game.clone()
    choose(fight, "germany", "done")
    wins = triumphs = 0
    inflicted = Fraction(0)
    for faces in product(range(1, 7), repeat=3):
        copy = fight.clone()
        before = len(copy.state.log)
        roll(copy, *faces)
        lines = copy.state.log[before:]
        won = [line for line in lines if "the attacker wins; the defender takes" in line]
        wins += bool(won)
        # more losses than the minor army's one step: a triumph (LR 10.12.1), decided later
        triumphs += bool(won) and int(won[0].split(" takes ")[1].split()[0]) > 1
        inflicted += "poland" not in copy.state.minor_armies
    assert chance.success == Fraction(wins, 216)
    assert chance.triumph == Fraction(triumphs, 216)
    assert chance.inflicted == inflicted / 216  # one step: a loss removes the minor army
    assert chance.success == odds_of(
        {"combat": "land", "attacker": {"units": ["tank-army"]}, "defender": {"units": ["minor-army"]}}
    )


def test_the_defenders_possible_support_is_counted_and_shown_apart_lr_10_2() -> None:
    """German infantry from the Ruhr against Lorraine's army and fortress; French air in Paris may
    support the defence (see docs/decisions.md: both sides' possible support counts as sent)."""
    game = setup(
        "europe-1939",
        [
            ("germany", "infantry-army", "ruhr"),
            ("france", "infantry-army", "lorraine"),
            ("france", "fortress", "lorraine"),
            ("france", "tactical-air", "paris"),
        ],
        [("germany", "france")],
    )
    offensive(game, "germany", 1)
    chance = option_chances(game)["land operation against Lorraine"]
    assert not limited_supply(game, game.state.units)
    lorraine: dict[str, object] = {
        "combat": "land",
        "attacker": {"units": ["infantry-army"]},
        "adverse_terrain": game.module.area("lorraine").adverse,
        "fortress": True,
    }
    alone = odds_of({**lorraine, "defender": {"units": ["infantry-army", "fortress"]}})
    supported = odds_of(
        {**lorraine, "defender": {"units": ["infantry-army", "fortress"], "air": ["tactical-air"]}}
    )
    assert chance.success == supported < alone == chance.no_defender_support
    assert f"win {percent(supported)} ({percent(alone)} no def. support)" in chance.text


def test_an_attack_across_a_strait_counts_the_defenders_plus_one_lr_10_4() -> None:
    game = setup("europe-1939", [("germany", "infantry-army", "denmark")], [])
    assert "sweden" not in game.state.minor_armies  # a neutral country defends with one die (LR 10.4)
    offensive(game, "germany", 1)
    chance = option_chances(game)["land operation against Sweden"]
    # the army in neutral Denmark traces no line of communication: limited supply (LR 9.6)
    limited = bool(limited_supply(game, game.state.units))
    sweden = {
        "combat": "land",
        "attacker": {"units": ["infantry-army"], "limited_supply": limited},
        "defender": {"units": []},
        "adverse_terrain": game.module.area("sweden").adverse,
    }
    assert chance.success == odds_of({**sweden, "strait": True})
    if not game.module.area("sweden").adverse:
        assert chance.success < odds_of(sweden)


def test_a_democracys_check_before_attacking_a_neutral_weights_the_odds_lr_9_7() -> None:
    game = setup(
        "europe-1939",
        [("france", "infantry-army", "paris"), ("germany", "infantry-army", "ruhr")],
        [("france", "germany")],
    )
    offensive(game, "france", 1)
    entry = next(o for o in option_chances(game) if o.startswith("land operation against Benelux"))
    chance = option_chances(game)[entry]
    check = success_chance(*check_dice(game.module, game.state, "france"))
    assert chance.check == check
    defender: dict[str, object] = {"units": ["minor-army"] if "benelux" in game.state.minor_armies else []}
    adverse = game.module.area("benelux").adverse
    win = odds_of(
        {
            "combat": "land",
            "attacker": {"units": ["infantry-army"]},
            "defender": defender,
            "adverse_terrain": adverse,
        }
    )
    assert chance.success == check * win
    assert chance.text.startswith(f"check {percent(check)} · win {percent(check * win)}")
    assert option_odds(game, "france", entry) == float(check * win)  # the bot's prior: the same figure


def test_augmentation_options_each_show_their_chance_lr_8_2() -> None:
    game = bare_game()
    offensive(game, "germany", 3)
    choose(game, "germany", "land operation against Poland")
    choose_starting(game, "germany", "activate #2 tank-army")
    choose(game, "germany", "done")
    assert game.pending is not None and game.pending["prompt"].startswith("augment")
    chances = option_chances(game)
    assert set(chances) == set(game.pending["options"])
    assert chances["augment 0"].success < chances["augment 1"].success < chances["augment 2"].success


def test_percent_never_rounds_a_possibility_away_and_chance_is_json() -> None:
    assert [percent(Fraction(n, 1000)) for n in (0, 1, 500, 999, 1000)] == [
        "0%",
        "<1%",
        "50%",
        ">99%",
        "100%",
    ]
    chance = Chance(kind="check", success=Fraction(19, 27), text="success 70%")
    assert chance.to_json() == {
        "kind": "check",
        "success": 19 / 27,
        "exact": "19/27",
        "text": "success 70%",
    }


def test_no_chances_without_a_decision() -> None:
    game = bare_game()
    assert game.pending is None and option_chances(game) == {}


def test_the_bots_win_chance_is_the_menus_win_chance_on_a_random_games_positions() -> None:
    """``option_odds`` (the heuristic bot's prior) works out the win alone (``operation_win``); it
    must equal the full chance's ``success`` for every operation of every military-action menu
    met in seeded random games, a Democracy's check (LR 9.7) and an undefended base (LR 9.4.2)
    included."""
    from grandstrategy.core.rng import Rng
    from grandstrategy.core.session import Match
    from grandstrategy.play.games import load_ruleset

    compared = 0
    for seed in (2, 7, 11, 12):
        match = Match(load_ruleset("cataclysm"), seed=seed, options={"scenario": "europe-1939"})
        chooser = Rng(seed)
        for _ in range(700):
            decision = match.decision()
            if decision is None:
                break
            game = match.state
            assert isinstance(game, CataclysmGame)
            pending = game.pending
            if pending is not None and pending["then"].get("do") == "military-action-answer":
                chances = option_chances(game)
                for option in pending["options"]:
                    odds = option_odds(game, pending["power"], option)
                    chance = chances.get(option)
                    combat = chance is not None and chance.kind == "combat"
                    assert odds == (float(chance.success) if chance is not None and combat else None), option
                    compared += odds is not None
            match.play(decision.seat, decision.legal[chooser.below(len(decision.legal))])
    assert compared > 30  # real attacks were compared


def test_an_undefended_base_is_won_for_certain_in_the_menu_and_the_bots_prior_lr_9_4_2() -> None:
    game = setup("campaign-1933", [("japan", "surface-fleet", "marshalls")], [("japan", "united-states")])
    offensive(game, "japan", 1)
    chance = option_chances(game)["base capture at Hawaii"]
    assert chance.success == 1
    assert option_odds(game, "japan", "base capture at Hawaii") == 1.0
