"""AARHE as a playable rule set: registered, plays to its end with every invariant, saves and loads."""

from __future__ import annotations

from tests.axis_allies.aarhe.helpers import fresh

from grandstrategy.axis_allies.aarhe.ruleset import AA_AARHE
from grandstrategy.axis_allies.game.engine import AAGame
from grandstrategy.axis_allies.game.invariants import conservation_problems, problems, unit_counts
from grandstrategy.core.game import find_ruleset
from grandstrategy.core.rng import Rng
from grandstrategy.core.session import Match


def test_registered_under_its_name_and_aliases() -> None:
    for name in ("aa-aarhe", "aarhe", "AARHE"):
        assert find_ruleset(name) is AA_AARHE


def test_a_random_game_plays_to_its_round_limit_with_every_invariant() -> None:
    match = Match(AA_AARHE, seed=7, options={"max_rounds": 3})
    chooser = Rng(7)
    game = match.state
    assert isinstance(game, AAGame)
    counts, seen = unit_counts(game), set()
    while (decision := match.decision()) is not None:
        action = decision.legal[chooser.below(len(decision.legal))]
        match.play(decision.seat, action)
        game = match.state
        assert isinstance(game, AAGame)
        now = unit_counts(game)
        broken = problems(game) + conservation_problems(counts, now, action.notation())
        assert not broken, (game.phase(), action.notation(), broken)
        counts = now
        seen.add(game.d["phase"])
    result = game.d["result"]
    assert set(result["national_goals"]) <= set(game.order)  # goals met, reported at the end
    if result["winner"] is None:
        assert (result["how"], result["round"]) == ("round limit 3", 3)
    else:  # a city victory: the winner holds its VCP target at the end of a round
        assert game.vcs(result["winner"]) >= game.profile.victory_cities_needed(result["winner"])
        assert result["how"] == f"{game.vcs(result['winner'])} VCP"
    assert {
        "purchase",
        "combat-move",
        "combat",
        "noncombat-move",
        "mobilize",
        "research",
        "diplomacy",
    } <= seen
    again = AA_AARHE.state_from_json(game.to_json())
    assert again.to_json() == game.to_json() and not problems(again)


def test_the_variants_own_invariants_are_checked() -> None:
    game = fresh()
    assert not problems(game)
    game.d["aarhe"]["neutrals"]["spain"] = -6
    game.d["aarhe"]["progress"]["germans"]["rockets"] = 4
    assert problems(game) == ["spain at -6 on the track", "germans has 4 boxes of rockets"]


def test_italy_is_off_so_five_nations_play() -> None:
    # S3:L246-248: the Italy option needs a map the document does not give (docs/decisions.md)
    game = fresh()
    assert sorted(game.seats()) == ["americans", "british", "germans", "japanese", "russians"]
    assert "Italy off" in game.profile.title
