"""The optional bid before round 1 (LHTR tournament play): units bought with bid IPCs and placed
where the power has units, unspent IPCs to the bank, then round 1; bad bids refused clearly."""

from __future__ import annotations

from pathlib import Path

import pytest
from tests.axis_allies.game_helpers import choose, options

from grandstrategy.axis_allies.game import AA_REVISED
from grandstrategy.axis_allies.game.engine import key
from grandstrategy.axis_allies.game.invariants import problems
from grandstrategy.cli import main
from grandstrategy.core.errors import UserInputError
from grandstrategy.core.replay import open_save


def test_bidders_place_units_in_turn_order_then_round_one_starts() -> None:
    game = AA_REVISED.new_state({"bid": {"germans": 5, "russians": 8}})
    assert game.d["phase"] == "bid" and game.power == "russians"
    menu = options(game)
    assert "bid infantry caucasus" in menu and "bid artillery caucasus" in menu
    assert "bid infantry germany" not in menu  # not a Russian territory
    assert not any(o.startswith("bid factory") for o in menu)
    assert "bid battleship caucasus" not in menu and "done" in menu
    before = game.units("caucasus").get(key("russians", "infantry", 1), 0)
    choose(game, "russians", "bid infantry caucasus")
    choose(game, "russians", "bid artillery caucasus")  # 3 + 4 of 8 IPCs
    assert game.units("caucasus")[key("russians", "infantry", 1)] == before + 1
    assert options(game) == ["done"]  # 1 IPC buys nothing
    bank = game.d["bank"]["russians"]
    choose(game, "russians", "done")
    assert game.d["bank"]["russians"] == bank + 1  # the unspent IPC
    assert game.power == "germans" and game.d["phase"] == "bid"
    assert "bid armour germany" in options(game) and "bid infantry germany" in options(game)
    choose(game, "germans", "bid armour germany")
    assert options(game) == ["done"]
    choose(game, "germans", "done")
    assert game.power == "russians" and game.d["phase"] == "research" and game.d["round"] == 1
    assert not problems(game)


def test_ships_are_bid_only_into_zones_with_the_powers_ships() -> None:
    game = AA_REVISED.new_state({"bid": "british=12"})
    menu = options(game)
    ship_zones = {o.split()[2] for o in menu if o.startswith("bid destroyer ")}
    assert ship_zones and all(z.startswith("sz-") for z in ship_zones)
    assert all(any(s.startswith("british:") for s in game.units(z)) for z in ship_zones)


@pytest.mark.parametrize(
    ("bid", "message"),
    [
        ("prussians=8", "not a power"),
        ({"russians": 0}, "whole number 1..1000"),
        ("russians=eight", "write POWER=IPCS"),
        ([8], "must map powers to IPCs"),
    ],
)
def test_a_bad_bid_is_one_clear_error(bid: object, message: str) -> None:
    with pytest.raises(UserInputError, match=message):
        AA_REVISED.new_state({"bid": bid})  # type: ignore[dict-item]


def test_new_with_a_bid_from_the_command_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    save = tmp_path / "bid.json"
    with pytest.raises(SystemExit) as done:
        main(["new", "aa", "--rules", "lhtr", "--bid", "russians=8", "--seed", "1", "--save", str(save)])
    assert done.value.code in (0, None)
    state = open_save(save).state
    assert state.d["phase"] == "bid" and state.d["bid"] == {"russians": 8}  # type: ignore[attr-defined]
    with pytest.raises(SystemExit) as refused:
        main(["new", "aa", "--bid", "russians=x", "--save", str(tmp_path / "x.json")])
    assert refused.value.code != 0
    err = capsys.readouterr().err
    assert "write POWER=IPCS" in err and "Traceback" not in err
    assert not (tmp_path / "x.json").exists()
