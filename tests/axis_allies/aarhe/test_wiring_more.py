"""More of the variant's special combats wired into its turn: air interdiction declared by the
other side when the power on move begins its combat move, its one-cycle attack and the dice of
the units moving into or out of the interdicted place (S3:L230)."""

from __future__ import annotations

from tests.axis_allies.aarhe.helpers import at, fresh, write_convoys
from tests.axis_allies.game_helpers import choose, options, put, roll

from grandstrategy.axis_allies.aarhe import support
from grandstrategy.axis_allies.game.engine import AAGame, key
from grandstrategy.axis_allies.game.invariants import problems
from grandstrategy.axis_allies.game.policy import choose as policy_choose

BOMBS = "west-russia: russians bomber bombs, hits on 4 or less"
MOVER = "west-russia: interdiction die for a moving germans infantry: 1 destroys, 2 stops it"


def _interdict_west_russia(bomb: int) -> AAGame:
    """Germany collects its income; the Soviet bomber in the Caucasus interdicts German-held West
    Russia (2 infantry, no aircraft) before any German move; the others decline. ``bomb``: the
    bomber's one attack die."""
    game = fresh()
    at(game, "germans", "income")
    put(game, "caucasus", ("russians", "bomber", 1), ("russians", "infantry", 1))
    put(game, "west-russia", ("germans", "infantry", 2))
    put(game, "belorussia", ("germans", "infantry", 3))
    game.settle()  # the income is banked; combat move begins with the enemy's declarations
    write_convoys(game)
    assert (game.d["phase"], game.to_act()) == ("combat-move", "russians")
    assert options(game) == [
        "interdict sz-16 with 1 bomber from caucasus",
        "interdict west-russia with 1 bomber from caucasus",
        "done",
    ]  # Ukraine is German but holds a German fighter: no interdiction there
    choose(game, "russians", "interdict west-russia with 1 bomber from caucasus")
    while game.d["battle"] is not None and game.d["battle"].get("kind") == "interdict":
        choose(game, game.to_act(), "done")
    assert game.d["battle"]["kind"] == "interdiction_attack"
    assert game.units("west-russia")[key("russians", "bomber", 6)] == 1
    assert roll(game, bomb) == [BOMBS]  # one cycle: no ID there, the bomber fires once
    assert game.d["battle"] is None and not problems(game)
    assert game.units("caucasus")[key("russians", "bomber", 6)] == 1  # back home
    assert key("russians", "bomber", 6) not in game.units("west-russia")
    return game


def test_air_interdiction_is_declared_before_the_enemy_moves_and_attacks_one_cycle() -> None:
    # S3:L230: in the enemy's turn a bomber attacks an adjacent hostile territory without enemy
    # aircraft for one cycle and flies back to where it came from
    game = _interdict_west_russia(4)
    assert game.units("west-russia") == {key("germans", "infantry", 1): 1}  # the 4 hit
    assert game.to_act() == "germans" and game.d["phase"] == "combat-move"


def test_units_moving_into_an_interdicted_territory_roll_per_bomber() -> None:
    # S3:L230: each unit moving in rolls a die per bomber: 1 destroys, 2 stops it (it goes back
    # where it came from with no moves left, AH-G2), else it arrives
    game = _interdict_west_russia(5)
    choose(game, "germans", "move 3 infantry belorussia -> west-russia")
    assert game.d["battle"]["kind"] == "interdiction"
    assert roll(game, 1, 2, 6) == [MOVER] * 3
    assert game.d["battle"] is None and not problems(game)
    assert game.units("west-russia") == {key("germans", "infantry", 1): 2, key("germans", "infantry", 0): 1}
    assert game.units("belorussia") == {key("germans", "infantry", 0): 1}


def test_units_moving_out_of_an_interdicted_territory_roll_too() -> None:
    # S3:L230: moving out counts as well; a stopped unit stays where it was
    game = _interdict_west_russia(5)
    choose(game, "germans", "move 1 infantry west-russia -> belorussia")
    assert roll(game, 2) == [
        "belorussia: interdiction die for a moving germans infantry: 1 destroys, 2 stops it"
    ]
    assert game.units("west-russia") == {key("germans", "infantry", 1): 1, key("germans", "infantry", 0): 1}
    assert game.units("belorussia") == {key("germans", "infantry", 1): 3}
    choose(game, "germans", "move 1 infantry west-russia -> belorussia")
    assert roll(game, 3) == [
        "belorussia: interdiction die for a moving germans infantry: 1 destroys, 2 stops it"
    ]
    assert game.units("belorussia") == {key("germans", "infantry", 1): 3, key("germans", "infantry", 0): 1}


def test_moves_elsewhere_roll_no_interdiction_dice() -> None:
    game = _interdict_west_russia(5)
    choose(game, "germans", "move 1 infantry belorussia -> eastern-europe")
    assert game.d["battle"] is None  # neither place is interdicted


def test_a_bomber_on_interdiction_flies_no_defensive_air_support() -> None:
    # S3:L230: interdicting bombers take part in no other combat that turn
    game = _interdict_west_russia(5)
    put(game, "kazakh-ssr", ("russians", "infantry", 1))
    game.d["battles"] = ["kazakh-ssr"]  # a battle next to the bomber's home
    assert not [o for o in support.offers(game, "russians") if "bomber" in o]


def test_the_heuristic_bot_declines_interdiction() -> None:
    game = fresh()
    at(game, "germans", "income")
    put(game, "caucasus", ("russians", "bomber", 1))
    put(game, "west-russia", ("germans", "infantry", 2))
    game.settle()
    write_convoys(game)
    assert policy_choose(game, "russians", options(game)) == "done"


def test_an_interdicted_transport_takes_its_cargo_back_or_down_with_it() -> None:
    # S3:L230 with AH-G2: ships roll too; a stopped transport brings back what it can hold, the
    # cargo of a sunk one is lost (no cargo is left in a zone without transports)
    game = fresh()
    at(game, "germans", "combat-move")
    game.d["aarhe_turn"]["interdiction"] = [["british", "british:bomber:6:0", "united-kingdom", "sz-6", 1]]
    put(game, "sz-5", ("germans", "transport", 2), ("germans", "infantry", 2), ("germans", "armour", 1))
    put(game, "sz-6")
    choose(game, "germans", "move 2 transport sz-5 -> sz-6")
    assert (
        roll(game, 1, 2)
        == ["sz-6: interdiction die for a moving germans transport: 1 destroys, 2 stops it"] * 2
    )
    assert game.d["battle"] is None and not problems(game)
    assert game.units("sz-6") == {}
    assert game.units("sz-5") == {
        key("germans", "transport", 0): 1,
        key("germans", "armour", 2): 1,
        key("germans", "infantry", 1): 1,
    }


# ---- the atomic bomb (S3:L238) ------------------------------------------------------------------


def test_an_atomic_bomb_is_bought_once_per_turn_and_ready_the_turn_after() -> None:
    # S3:L238: with Atomic Weaponry, 1 bomb per turn, 2 turns to build; the cost is reconstructed
    # (30 IPCs, AH-G3); loading needs Heavy Bomber and a bomber (AH-G4)
    game = fresh()
    at(game, "germans")
    game.d["bank"]["germans"] = 70
    assert "buy atomic-bomb" not in options(game)  # no technology yet
    game.d["techs"]["germans"] = ["atomic-weaponry"]
    assert "buy atomic-bomb" in options(game)
    choose(game, "germans", "buy atomic-bomb")
    assert game.d["bank"]["germans"] == 40
    assert "buy atomic-bomb" not in options(game)  # one per turn
    game.d["phase"] = "noncombat-move"
    game.d["techs"]["germans"] = ["atomic-weaponry", "heavy-bomber"]
    assert not [o for o in options(game) if o.startswith("load")]  # still building
    game.d["round"] += 1
    at(game, "germans", "noncombat-move")
    game.d["techs"]["germans"] = ["atomic-weaponry"]
    assert not [o for o in options(game) if o.startswith("load")]  # no Heavy Bomber
    game.d["techs"]["germans"] = ["atomic-weaponry", "heavy-bomber"]
    assert "load atomic-bomb at germany" in options(game)
    choose(game, "germans", "load atomic-bomb at germany")
    assert game.d["aarhe"]["atomic"]["germans"] == {"building": [], "loaded": {"germany": 1}}
    assert game.units("germany")[key("germans", "bomber", 0)] == 1  # it stays for the phase
    assert not [o for o in options(game) if o.startswith("load")]  # one bomb per bomber


def test_a_nuclear_attack_cuts_income_for_good_and_strikes_the_picked_group() -> None:
    # S3:L238: no return fire; a die of permanent income loss; Russia (8 IPCs) splits its units
    # into 8 // 3 = 2 groups, the attacker picks one, each unit in it dies on 5 or less
    game = fresh()
    game.d["techs"]["germans"] = ["atomic-weaponry", "heavy-bomber"]
    at(game, "germans", "combat-move")
    game.d["aarhe"]["atomic"] = {"germans": {"building": [], "loaded": {"eastern-europe": 1}}}
    put(game, "eastern-europe", ("germans", "bomber", 1))
    put(game, "russia", ("russians", "infantry", 2), ("russians", "armour", 1))
    assert "atomic strike russia from eastern-europe" in options(game)  # 3 spaces: half of 6
    assert "atomic strike novosibirsk from eastern-europe" not in options(game)  # too far
    choose(game, "germans", "atomic strike russia from eastern-europe")
    assert roll(game, 3) == ["russia: atomic bomb: the territory loses the die in income for good"]
    choose(game, "russians", "put russians armour in group 1")
    choose(game, "russians", "put russians infantry in group 2")
    choose(game, "russians", "put russians infantry in group 2")
    choose(game, "germans", "strike group 2")
    blast = "russia: atomic blast at a russians infantry, destroys on 5 or less"
    assert roll(game, 5, 6) == [blast, blast]
    assert game.d["battle"] is None and not problems(game)
    assert game.units("russia") == {key("russians", "infantry", 1): 1, key("russians", "armour", 2): 1}
    assert game.units("eastern-europe") == {key("germans", "bomber", 0): 1}  # no combat this turn
    assert game.d["aarhe"]["atomic"]["germans"]["loaded"] == {}  # the bomb is spent
    assert game.d["aarhe_atomic_loss"] == {"russia": 3}
    assert not [o for o in options(game) if o.startswith("atomic")]
    # the loss is permanent: Russia's income is 3 less at every later Collect Income
    plain = fresh()
    at(game, "russians", "income")
    at(plain, "russians", "income")
    before, plain_before = game.d["bank"]["russians"], plain.d["bank"]["russians"]
    game.settle()
    write_convoys(game)
    plain.settle()
    assert (plain.d["bank"]["russians"] - plain_before) - (game.d["bank"]["russians"] - before) == 3


# ---- neutrals (S3:L242) -------------------------------------------------------------------------


def test_land_units_enter_a_neutral_four_steps_toward_their_team() -> None:
    # S3:L242: at -4 Axis land units may enter; at -3 not yet; entering changes no control (AH-G5)
    game = fresh()
    at(game, "germans", "noncombat-move")
    put(game, "norway", ("germans", "infantry", 2))
    game.d["aarhe"]["neutrals"]["sweden"] = -3
    assert "move 1 infantry norway -> sweden" not in options(game)
    game.d["aarhe"]["neutrals"]["sweden"] = -4
    choose(game, "germans", "move 1 infantry norway -> sweden")
    assert game.units("sweden") == {key("germans", "infantry", 0): 1}
    assert game.owner("sweden") is None and not problems(game)
    at(game, "british", "noncombat-move")  # a neutral leaning to the Axis stays closed to the Allies
    put(game, "norway", ("british", "infantry", 1))
    assert "move 1 infantry norway -> sweden" not in options(game)
