"""``rules <question>`` at the game prompt: the answering fact first, and the open decision as context."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

from grandstrategy.core.replay import open_save
from grandstrategy.play.games import decision_prompt

from .conftest import Cli

NewGame = Callable[..., Path]


def test_rules_at_the_prompt_leads_with_the_fact_and_knows_the_decision(cli: Cli, new_game: NewGame) -> None:
    path = new_game()
    assert cli("play", str(path), "--moves", "quit").code == 0  # the bots move up to our decision
    prompt = decision_prompt(open_save(path).state)
    named = re.findall(r"LR (\d+(?:\.\d+)+)", prompt)
    assert named, prompt  # the decision names its rule
    result = cli(
        "play", str(path), "--moves", "rules how far can my bombers fly from base,rules what now,quit"
    )
    assert result.code == 0, result.err
    out = " ".join(result.out.split())  # the console wraps long lines
    assert "strategic air forces two" in out  # the fact, then the section
    assert out.index("strategic air forces two") < out.index("LR 7.3.2 Air Range")
    assert f"LR {named[-1]} " in out  # "what now" is answered with the decision's own rule
