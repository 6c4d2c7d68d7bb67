"""Byte-identity fixture: seeded bot games whose final state hash and log hash must never change.

Speed work on the engine and the bots must leave every game exactly as it was: the same seed and
the same seats give the same actions, the same dice, the same log and the same final state. This
module plays a fixed set of seeded games and compares (or records) per game the state hash
(``GameState.state_hash``) and a SHA-256 of the whole match log (actions and chance events).

Run from the repository root::

    .venv/bin/python tests/play/identity_games.py            # play every game, compare with the fixture
    .venv/bin/python tests/play/identity_games.py --write    # record the fixture from the current code

The fixture is ``tests/play/identity_games.json``. Regenerate it with ``--write`` only when a change
is *meant* to alter games (new rules, other bot odds, new log lines), from the code that is
correct. ``tests/play/test_identity.py`` replays a quick subset in the test suite.
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import dataclass
from pathlib import Path

from grandstrategy.core.canonical import content_hash
from grandstrategy.core.session import Match
from grandstrategy.play.bots import Bot, bot_seed, make_bot
from grandstrategy.play.games import load_ruleset
from grandstrategy.play.simulate import game_seed

FIXTURE = Path(__file__).with_name("identity_games.json")

IDENTITY_SEED = 2026
"""Game ``i`` of every group is seeded ``game_seed(IDENTITY_SEED, i)`` (plus the group's offset)."""


@dataclass(frozen=True)
class IdentityGame:
    """One fixture game: scenario, game index, which seats are heuristic, and a decision cap.

    ``heuristic`` names the seats played by the heuristic bot (``"*"`` for every seat); the others
    are random bots. ``max_decisions`` stops a long game early (0: play to the end), so heuristic
    games stay short; the hashes are then those of the position reached.
    """

    name: str
    scenario: str
    index: int
    heuristic: tuple[str, ...] = ()
    max_decisions: int = 0


def _games() -> list[IdentityGame]:
    games = [IdentityGame(f"random-1933-{i}", "campaign-1933", i) for i in range(12)]
    games += [IdentityGame(f"random-1939-{i}", "europe-1939", 100 + i) for i in range(6)]
    games += [
        IdentityGame("heuristic-1933-all-0", "campaign-1933", 200, ("*",)),
        IdentityGame("heuristic-1933-fascist-1", "campaign-1933", 201, ("germany", "italy", "japan"), 1500),
        IdentityGame(
            "heuristic-1933-allies-2",
            "campaign-1933",
            202,
            ("france", "united-kingdom", "soviet-union"),
            1500,
        ),
        IdentityGame("heuristic-1939-all-3", "europe-1939", 203, ("*",)),
    ]
    return games


GAMES = _games()

QUICK = (
    "random-1933-0",
    "random-1933-1",
    "random-1933-2",
    "random-1933-3",
    "random-1939-0",
    "random-1939-1",
    "heuristic-1933-fascist-1",
    "heuristic-1939-all-3",
)
"""The games the test suite replays (the script plays them all)."""


def play_identity(game: IdentityGame) -> dict[str, object]:
    """Play one fixture game; return its decision count, state hash and log hash."""
    seed = game_seed(IDENTITY_SEED, game.index)
    match = Match(load_ruleset("cataclysm"), seed=seed, options={"scenario": game.scenario})
    bots: dict[str, Bot] = {}
    for seat in match.state.seats():
        kind = "bot:heuristic" if ("*" in game.heuristic or seat in game.heuristic) else "bot:random"
        bots[seat] = make_bot(kind, bot_seed(seed, seat))
    decisions = 0
    while (decision := match.decision()) is not None:
        if game.max_decisions and decisions >= game.max_decisions:
            break
        action = bots[decision.seat].choose(match.state, decision, ply=len(match.log))
        match.play(decision.seat, action)
        decisions += 1
    return {
        "decisions": decisions,
        "state_hash": match.state_hash(),
        "log_hash": content_hash([entry.to_json() for entry in match.log]),
    }


def load_fixture() -> dict[str, dict[str, object]]:
    """The recorded results, by game name."""
    data = json.loads(FIXTURE.read_text(encoding="utf-8"))
    games: dict[str, dict[str, object]] = data["games"]
    return games


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--write", action="store_true", help="record the fixture from the current code")
    parser.add_argument("--only", nargs="*", help="play only these games (names)")
    args = parser.parse_args(argv)
    chosen = [g for g in GAMES if not args.only or g.name in args.only]
    recorded = {} if args.write else load_fixture()
    results: dict[str, dict[str, object]] = {}
    failed = 0
    for game in chosen:
        result = play_identity(game)
        results[game.name] = result
        if args.write:
            status = "recorded"
        elif recorded.get(game.name) == result:
            status = "same"
        else:
            status = "DIFFERENT"
            failed += 1
        print(f"{game.name:28} {result['decisions']:6} decisions  {status}", flush=True)
    if args.write:
        FIXTURE.write_text(
            json.dumps({"seed": IDENTITY_SEED, "games": results}, indent=2, sort_keys=True) + "\n",
            encoding="utf-8",
        )
        print(f"wrote {FIXTURE}")
        return 0
    print("all identical" if not failed else f"{failed} game(s) differ from {FIXTURE.name}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
