"""Verifiable dice: the secret is hidden until the end, then every draw checks against it."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner
from fastapi.testclient import TestClient

from grandstrategy.cli import app, main
from grandstrategy.core.committed import CommittedRng, commitment
from grandstrategy.core.errors import SaveError
from grandstrategy.core.replay import replay
from grandstrategy.core.save import loads_save

from .helpers import create_pig, play_out, seat_state


def _finished(client: TestClient) -> tuple[dict, str]:
    game = create_pig(client, max_turns=4)
    export_before = client.get(f"/api/games/{game['game_id']}/export").text
    assert '"secret"' not in export_before  # no secret while the game is going
    with pytest.raises(SaveError, match="not revealed yet"):
        replay(loads_save(export_before))
    final = play_out(client, game)
    assert final["over"] is True
    return final, client.get(f"/api/games/{game['game_id']}/export").text


def test_the_revealed_secret_matches_the_commitment_and_replays_every_draw(client: TestClient) -> None:
    final, export = _finished(client)
    data = json.loads(export)
    secret = bytes.fromhex(final["dice_secret"])
    assert commitment(secret) == final["dice_commitment"] == data["dice"]["commitment"]
    assert data["dice"]["secret"] == final["dice_secret"]
    chance = [e for e in data["log"] if e["type"] == "chance"]
    assert len(chance) >= 4
    match = replay(loads_save(export))  # raises if any draw differs from the secret's
    assert match.is_terminal()


def test_grandstrategy_replay_verify_checks_the_export(client: TestClient, tmp_path: Path) -> None:
    _, export = _finished(client)
    good = tmp_path / "game.json"
    good.write_text(export)
    result = CliRunner().invoke(app, ["replay", str(good), "--verify"])
    assert result.exit_code == 0, result.output


def test_a_tampered_outcome_fails_verification(
    client: TestClient, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _, export = _finished(client)
    data = json.loads(export)
    index = next(i for i, e in enumerate(data["log"]) if e["type"] == "chance" and e["kind"] == "die")
    face = data["log"][index]["outcome"]
    data["log"][index]["outcome"] = "6" if face != "6" else "5"
    bad = tmp_path / "tampered.json"
    bad.write_text(json.dumps(data))
    with pytest.raises(SaveError, match=rf"log\[{index}\].*committed dice secret"):
        replay(loads_save(bad.read_text()))
    with pytest.raises(SystemExit) as leaving:
        main(["replay", str(bad), "--verify"])
    assert leaving.value.code != 0
    assert "committed dice secret" in capsys.readouterr().err


def test_a_secret_that_does_not_match_the_commitment_is_refused(client: TestClient) -> None:
    _, export = _finished(client)
    data = json.loads(export)
    data["dice"]["secret"] = "00" * 32
    with pytest.raises(SaveError, match=r"does not hash to dice\.commitment"):
        replay(loads_save(json.dumps(data)))


def test_committed_draws_are_hmac_of_the_word_index() -> None:
    import hashlib
    import hmac

    secret = bytes(range(32))
    rng = CommittedRng(secret)
    words = [rng.next_u64() for _ in range(3)]
    for index, word in enumerate(words):
        digest = hmac.new(secret, index.to_bytes(8, "big"), hashlib.sha256).digest()
        assert word == int.from_bytes(digest[:8], "big")
    assert rng.getstate() == "hmac:3"
    rng.setstate("hmac:1")
    assert rng.next_u64() == words[1]
    with pytest.raises(ValueError):
        rng.setstate("0" * 64)


def test_the_spectator_sees_the_secret_only_at_the_end(client: TestClient) -> None:
    game = create_pig(client, max_turns=2)
    assert "dice_secret" not in client.get(f"/api/games/{game['game_id']}").json()
    play_out(client, game)
    assert len(client.get(f"/api/games/{game['game_id']}").json()["dice_secret"]) == 64
    assert seat_state(client, game, "north")["over"] is True


@pytest.mark.parametrize(
    ("dice", "message"),
    [
        ({"scheme": "dice-cup", "commitment": "0" * 64}, "dice.scheme"),
        ({"scheme": "hmac-sha256", "commitment": "xyz"}, "dice.commitment"),
        ({"scheme": "hmac-sha256", "commitment": "0" * 64, "secret": 5}, "dice.secret"),
        ({"scheme": "hmac-sha256", "commitment": "0" * 64, "salt": "x"}, "unknown field"),
        ("yes", "'dice' must be an object"),
    ],
)
def test_a_malformed_dice_field_is_one_clear_error(client: TestClient, dice: object, message: str) -> None:
    game = create_pig(client)
    data = json.loads(client.get(f"/api/games/{game['game_id']}/export").text)
    data["dice"] = dice
    with pytest.raises(SaveError, match=re.escape(message)):
        loads_save(json.dumps(data))


def test_the_same_secret_gives_the_same_game() -> None:
    from core.toy_game import PIG
    from grandstrategy.core.session import Match

    def game(secret: bytes) -> tuple[object, ...]:
        match = Match(PIG, seed=0, rng=CommittedRng(secret))
        for _ in range(6):
            decision = match.decision()
            assert decision is not None
            match.play(decision.seat, "roll")
            if match.is_terminal():
                break
        return match.log

    assert game(bytes(32)) == game(bytes(32))
    assert game(bytes(32)) != game(bytes([1] * 32))
