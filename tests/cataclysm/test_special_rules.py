"""Special power rules (LR 12) through the rules functions and the engine."""

from __future__ import annotations

from grandstrategy.cataclysm.engine import CataclysmGame
from grandstrategy.cataclysm.engine.politics import political_options
from grandstrategy.cataclysm.module import load_module
from grandstrategy.cataclysm.rules.control import production_sites, victory_points
from grandstrategy.cataclysm.rules.economy import collectable
from grandstrategy.cataclysm.rules.politics import effectiveness
from grandstrategy.cataclysm.rules.special import TSR_IN_PLAY
from grandstrategy.cataclysm.rules.supply import trace_loc
from grandstrategy.cataclysm.state import new_state

MODULE = load_module()


def game(scenario: str = "campaign-1933") -> CataclysmGame:
    return CataclysmGame(MODULE, new_state(MODULE, scenario))


def succeed(g: CataclysmGame, power: str, action: str) -> None:
    """Resolve a political action as if its check succeeded."""
    g.push("political-result", power=power, action=action, target="", success=True, dice=[6])
    g.run()


def test_rhineland_denies_the_ruhr_until_remilitarized_lr_12_1_1() -> None:
    g = game()
    assert production_sites(MODULE, g.state, "germany") == ["berlin"]
    assert "ruhr" not in {c.area for c in collectable(MODULE, g.state, "germany")}
    assert "rhineland" in political_options(g, "germany")
    succeed(g, "germany", "rhineland")
    assert "rhineland" not in g.state.markers
    assert sorted(production_sites(MODULE, g.state, "germany")) == ["berlin", "ruhr"]
    ruhr = [c for c in collectable(MODULE, g.state, "germany") if c.area == "ruhr"]
    assert sorted(str(c.limited_marker) for c in ruhr) == ["None", "Ruhr"]
    assert g.pending is not None and g.pending["power"] == "france"  # France is provoked


def test_abyssinian_adventure_lr_12_1_2() -> None:
    g = game()
    before = victory_points(MODULE, g.state, "italy")
    succeed(g, "italy", "abyssinian-adventure")
    assert g.state.cubes["rome"] == {"italy": 1}
    assert victory_points(MODULE, g.state, "italy") == before + 1
    assert "Rome" in {c.limited_marker for c in collectable(MODULE, g.state, "italy")}
    assert g.pending is not None and g.pending["power"] in ("france", "united-kingdom")


def test_general_winter_and_the_railroad_lr_12_3_1() -> None:
    g = game()
    state = g.state
    assert trace_loc(
        MODULE, state, "soviet-union", "byelorussia", sources=["moscow"]
    )  # through restricted Smolensk
    assert not trace_loc(MODULE, state, "soviet-union", "irkutsk")  # cut off until the railroad
    state.markers.append(TSR_IN_PLAY)
    assert trace_loc(MODULE, state, "soviet-union", "irkutsk")


def test_za_rodinu_adds_a_die_to_soviet_stability_tests_lr_12_3_1() -> None:
    g = game()
    g.push("stability-test", power="soviet-union", reason="test", modifier=0)
    g.run()
    dice = 0
    while g.pending is not None and g.pending["type"] == "chance":
        dice += 1
        g.apply_chance("6")
    assert dice == effectiveness(MODULE, g.state, "soviet-union") + 1


def test_us_special_actions_lr_12_2_2() -> None:
    g = game()
    options = political_options(g, "united-states")
    assert "end-us-japan-trade" in options and "lend-lease" not in options  # no war yet
    succeed(g, "united-states", "end-us-japan-trade")
    assert "us-japan-trade" not in g.state.markers
    assert g.pending is not None and g.pending["power"] == "japan"


def test_night_of_the_long_knives_two_flags_lr_12_1_1() -> None:
    g = game()
    g.state.phase = "administration"
    flags = g.state.powers["germany"].available_flags
    g.push("gain-admin-flags", power="germany")
    g.run()
    assert g.state.powers["germany"].holding_box == ["flag:germany", "flag:germany"]
    assert g.state.powers["germany"].available_flags == flags - 2


def test_status_quo_flags_lr_12_2() -> None:
    g = game()
    g.state.phase = "administration"
    g.push("gain-admin-flags", power="united-states")
    g.run()
    assert g.pending is None and g.state.powers["united-states"].holding_box == []  # the US gets none
    g.push("gain-admin-flags", power="france")
    g.run()
    assert g.pending is not None and g.pending["options"] == ["decline", "take"]


def test_communist_posture_penalties_lr_12_3() -> None:
    from grandstrategy.cataclysm.engine.counters import playable
    from grandstrategy.cataclysm.engine.posture import posture_penalty

    g = game()
    line = g.state.powers["soviet-union"]
    assert line.posture == "military-reforms"  # the campaign's reconstructed opening posture
    assert posture_penalty(g, "soviet-union", "propaganda") == -1
    assert posture_penalty(g, "soviet-union", "diplomacy") == -1
    line.posture = "political-purges"
    assert posture_penalty(g, "soviet-union", "propaganda") == 0
    assert posture_penalty(g, "soviet-union", "diplomacy") == -1
    line.posture = "collective-security"
    assert posture_penalty(g, "soviet-union", "diplomacy") == 0
    assert posture_penalty(g, "soviet-union", "escalation") == -1
    line.commitment = line.commitment.__class__("rearmament")
    assert not playable(
        g, "soviet-union", "offensive:soviet-union"
    )  # offensives must be rejected or reserved


def test_posture_change_needs_no_check_and_happens_once_a_turn_lr_12_3() -> None:
    g = game()
    assert "posture political-purges" in political_options(g, "soviet-union")
    g.push("political-action", power="soviet-union", choice="posture political-purges")
    g.run()
    assert g.pending is None and g.state.powers["soviet-union"].posture == "political-purges"
    assert not any(option.startswith("posture") for option in political_options(g, "soviet-union"))


def test_military_reforms_flag_costs_a_stability_test_lr_12_3() -> None:
    g = game()
    g.state.phase = "administration"
    g.push("gain-admin-flags", power="soviet-union")
    g.run()
    assert g.pending is not None and g.pending["prompt"].startswith("Military Reforms")


def test_il_duce_flag_rolls_one_more_die_lr_12_1_2() -> None:
    g = game()
    g.state.phase = "administration"
    g.push("gain-admin-flags", power="italy")
    g.run()
    assert g.pending is not None and g.pending["options"] == ["flag", "il-duce flag"]
    g.apply(g.legal_actions()[1])
    assert g.state.powers["italy"].holding_box == ["flag:italy:il-duce"]
    g.state.phase = "action"
    g.push("play-counter", counter="flag:italy:il-duce", source="cup")
    g.run()
    option = "diplomacy albania"
    assert g.pending is not None and option in g.pending["options"]
    g.apply(g.legal_actions()[g.pending["options"].index(option)])
    dice = 0
    while g.pending is not None and g.pending["type"] == "chance":
        dice += 1
        g.apply_chance("1")
    assert dice == effectiveness(MODULE, g.state, "italy") + 1
    g.state.markers.remove("il-duce")  # cancelled for good when Italy collapses
    g.state.phase = "administration"
    g.push("gain-admin-flags", power="italy")
    g.run()
    assert g.pending is None  # no choice any more: an ordinary flag


def test_us_japan_trade_moves_one_industrial_resource_lr_12_2_2() -> None:
    g = game()
    g.state.phase = "administration"
    collected = len(collectable(MODULE, g.state, "united-states"))
    g.push("produce", power="united-states")
    g.run()
    assert g.pending is not None and f"of your {collected - 1} resources" in g.pending["prompt"]  # 1 shipped
    g.stack.clear()
    g.pending = None
    g.push("produce", power="japan")
    g.run()
    japan = [line for line in g.state.log if "japan receives a resource from the US" in line]
    assert japan and g.pending is not None
    assert g.state.powers["japan"].holding_box.count("resource:japan") >= 2  # Tokyo's and the shipment


def test_japan_may_end_the_naval_treaty_before_any_draw_lr_12_1_3() -> None:
    g = game()
    g.push("action-window")
    g.run()
    assert g.pending is not None and g.pending["power"] == "japan" and g.pending["options"] == ["keep", "end"]
    g.apply(g.legal_actions()[1])
    assert "wnt" not in g.state.markers
    gainers = []
    while (
        g.pending is not None
        and g.pending["type"] == "decide"
        and g.pending["prompt"].startswith("place the flag")
    ):
        gainers.append(g.pending["power"])
        g.apply(g.legal_actions()[0])
    assert sorted(gainers) == ["united-kingdom", "united-states"]


def test_no_new_fleets_for_the_treaty_powers_lr_12_1_3() -> None:
    g = game()
    uk = g.state.powers["united-kingdom"]
    uk.commitment = uk.commitment.__class__("rearmament")
    g.push("top-up-force-pool", power="united-kingdom")
    g.run()
    assert g.pending is not None and "add fleet" not in g.pending["options"]


def test_lend_lease_sends_a_resource_to_a_belligerent_lr_12_2_2() -> None:
    g = game("europe-1939")
    state = g.state
    state.phase = "administration"
    state.markers.append("lend-lease-in-play")
    state.wars = [(["united-kingdom"], ["germany"])]
    us_collected = len(collectable(MODULE, state, "united-states"))
    uk_collected = len(collectable(MODULE, state, "united-kingdom"))
    g.then({"do": "produce", "power": "united-states"}, {"do": "produce", "power": "united-kingdom"})
    g.run()
    assert g.pending is not None and g.pending["prompt"].startswith("Lend Lease")
    assert "lend industrial to united-kingdom" in g.pending["options"]
    assert not any("germany" in option for option in g.pending["options"])  # Germany produces no later here
    g.apply(g.legal_actions()[g.pending["options"].index("lend industrial to united-kingdom")])
    assert (
        g.pending is not None and f"of your {us_collected - 1} resources" in g.pending["prompt"]
    )  # one per power
    while g.pending is not None and g.pending["power"] == "united-states":
        options = g.pending["options"]
        g.apply(g.legal_actions()[options.index("done") if "done" in options else 0])
    assert g.pending is not None and f"of your {uk_collected + 1} resources" in g.pending["prompt"]
    assert "Lend Lease: united-kingdom receives a resource from the US" in state.log[-1]
