"""The Historical Edition variant (``aa-aarhe``) in the play layer: a person's seat in the
terminal fights a battle of the variant's combat machine, the bots finish the game to a variant
victory (VCP), the save replays, and ``simulate`` of heuristic against random bots ends in a
victory the same way twice."""

from __future__ import annotations

from pathlib import Path

from grandstrategy.core.log import ActionEntry
from grandstrategy.core.replay import open_save

from .conftest import Cli

ATTACK = [
    "buy infantry at russia",
    "done",
    "move 3 infantry karelia-ssr -> belorussia",
    "move 1 fighter karelia-ssr -> belorussia",
    "done",
    "fight belorussia",
]
"""The Soviet Union's first turn (round 1 is its alone, S3:L206): an infantry raised at Moscow,
an attack on Belorussia's three German infantry."""


def _human_actions(path: Path) -> list[str]:
    return [e.action for e in open_save(path).log if isinstance(e, ActionEntry) and e.seat == "russians"]


def test_a_person_fights_a_variant_battle_and_the_bots_finish_to_a_victory(cli: Cli, tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    made = cli(
        "new", "aa", "--rules", "aarhe", "--seats", "russians,axis=heuristic,*=random", "--seed", "4",
        "--save", str(path),
    )  # fmt: skip
    assert made.code == 0, made.err
    assert "new aa-aarhe game" in made.out
    first = cli("play", str(path), "--moves", ",".join(ATTACK))
    assert first.code == 0, first.err
    # the variant's battle asks the person whether to press on after the first cycle (S3:L222)
    assert "russians combat at belorussia (aarhe)" in first.out
    assert "retreat to karelia-ssr" in first.out and "retreat aircraft" in first.out
    state = open_save(path).state
    assert state.d["battle"]["machine"] == "aarhe"  # type: ignore[attr-defined]
    pressed = cli("play", str(path), "--moves", "press attack")
    assert pressed.code == 0, pressed.err
    assert _human_actions(path) == [f"russians: {m}" for m in [*ATTACK, "press attack"]]
    handed = cli("play", str(path), "--seats", "russians=random", stdin="")
    assert handed.code == 0, handed.err
    assert "Game over: axis wins (" in handed.out and "VCP)" in handed.out
    final = open_save(path).state
    result = final.d["result"]  # type: ignore[attr-defined]
    assert result["winner"] == "axis" and final.vcs("axis") >= 45  # type: ignore[attr-defined]
    verified = cli("replay", "--verify", str(path))
    assert verified.code == 0, verified.err
    assert "replays" in verified.out and "axis wins" in verified.out


def test_simulate_heuristic_against_random_ends_in_a_variant_victory_the_same_way_twice(cli: Cli) -> None:
    args = (
        "simulate",
        "aa-aarhe",
        "--games",
        "1",
        "--seed",
        "6",
        "--bots",
        "axis=heuristic",
        "--check",
        "--json",
    )
    first, second = cli(*args), cli(*args)
    assert first.code == 0 and second.code == 0, first.err + second.err
    a, b = first.json()["games"][0], second.json()["games"][0]
    assert a["winner"] == "axis" and a["end"].endswith("VCP") and a["vp"]["axis"] >= 45
    assert {k: v for k, v in a.items() if k != "seconds"} == {k: v for k, v in b.items() if k != "seconds"}


def test_a_person_sees_the_attack_on_a_neutral_in_the_combat_move_menu(cli: Cli, tmp_path: Path) -> None:
    # S3:L242: Soviet units in the Caucasus may attack Turkey; the menu names it plainly
    path = tmp_path / "game.json"
    made = cli(
        "new", "aa", "--rules", "aarhe", "--seats", "russians,*=random", "--seed", "4", "--save", str(path)
    )
    assert made.code == 0, made.err
    shown = cli("play", str(path), "--moves", "buy infantry at russia,done", stdin="")
    assert shown.code == 0, shown.err
    assert ". attack neutral turkey" in shown.out
