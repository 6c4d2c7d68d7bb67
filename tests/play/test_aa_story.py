"""A&A moves told as a player would say them (play/aa_story.py through play/narrate.py): a
power's purchases in one sentence with their cost, moves and attacks by the places' names, one
line per battle round with every die, the unknown told as before, secret choices kept secret."""

from __future__ import annotations

import re

from grandstrategy.core.chance import ChanceEvent
from grandstrategy.core.session import Match
from grandstrategy.play.aa_story import counted, new_engine_lines
from grandstrategy.play.games import load_ruleset
from grandstrategy.play.narrate import Narrator, Told, grouped, history, log_lines


def _revised() -> Match:
    return Match(load_ruleset("aa-revised"), seed=7, options={"max_rounds": 1})


def _play(match: Match, *actions: str) -> None:
    for action in actions:
        match.play(action.partition(":")[0], action)


def _russia_opening(match: Match) -> None:
    _play(
        match,
        "russians: done",  # no research
        *["russians: buy infantry"] * 5,
        "russians: buy artillery",
        "russians: buy armour",
        "russians: done",
        "russians: move 1 infantry archangel -> karelia-ssr",
        "russians: move 3 infantry russia -> west-russia",
        "russians: done",
        "russians: fight west-russia",
    )


def test_russias_first_purchases_are_one_sentence_with_their_cost() -> None:
    match = _revised()
    _russia_opening(match)
    lines = log_lines(history(match, lambda seat: True))
    assert "Russians buy 5 infantry, 1 artillery and 1 armour (24 IPC)" in lines
    assert not any("buy infantry" in line or "answers" in line for line in lines)
    assert lines.count("— round 1 russians purchase —") == 1


def test_moves_name_the_places_and_a_move_into_enemy_ground_is_an_attack() -> None:
    match = _revised()
    _russia_opening(match)
    lines = log_lines(history(match, lambda seat: True))
    assert "Russians move 1 infantry from Archangel to Karelia S.S.R." in lines
    assert "Russians attack West Russia with 3 infantry from Russia" in lines
    assert "Russians end their combat move" in lines


def test_a_battle_round_is_one_line_with_the_hits_and_every_die() -> None:
    match = _revised()
    start = match.log_length()
    _russia_opening(match)
    dice = [e for e in match.log[start:] if isinstance(e, ChanceEvent)]
    attack = [int(e.outcome) for e in dice if e.label.startswith("west-russia: russians infantry")]
    defence = [e for e in dice if e.label.startswith("west-russia: defence")]
    assert len(attack) == 3 and defence  # three attacking infantry, then the defence
    lines = log_lines(history(match, lambda seat: True))
    battle = [line for line in lines if "Battle of West Russia" in line]
    assert len(battle) == 1
    hits = sum(1 for die in attack if die <= 1)
    expected = f"  Battle of West Russia, round 1: Russians hit {hits} (infantry at 1: "
    assert battle[0].startswith(expected + ",".join(map(str, attack)) + ")")
    defence_hits = sum(1 for e in defence if int(e.outcome) <= int(re.findall(r"on (\d)", e.label)[0]))
    assert f"; the defence hits {defence_hits} (" in battle[0]
    assert not any("or less" in line for line in lines)  # no die on a line of its own


def test_the_casualties_and_the_end_of_a_battle_are_told() -> None:
    match = _revised()
    _russia_opening(match)
    for _ in range(40):  # casualties, pressing on or retreating, until the battle is over
        if match.state.to_json()["battle"] is None:
            break
        seat = str(match.state.to_act())
        options = [a.option for a in match.state.legal_actions()]
        pick = "press attack" if "press attack" in options else options[0]
        match.play(seat, f"{seat}: {pick}")
    assert match.state.to_json()["battle"] is None
    lines = log_lines(history(match, lambda seat: True))
    holder = match.state.to_json()["owner"]["west-russia"]
    name = {"russians": "Russians", "germans": "Germans"}[holder]
    assert f"  The battle of West Russia ends: West Russia is held by the {name}" in lines or any(
        line.startswith("  Russians take West Russia") for line in lines
    )
    assert any(re.fullmatch(r"(Russians|Germans) lose \d+ [a-z ,]+ in West Russia", line) for line in lines)


def test_an_answer_not_known_is_told_as_before_never_an_error() -> None:
    match = _revised()
    before = match.state.clone()
    told = Narrator(lambda seat: True).tell(before, match.state, "russians", "russians: frobnicate 3")
    assert told.sentence == 'russians answers "round 1 russians research": frobnicate 3'
    assert told.events == () and told.group == ""


def test_a_die_not_known_keeps_its_label_with_its_numbers() -> None:
    match = _revised()
    before = match.state.clone()
    odd = tuple(ChanceEvent(n, "die", "west-russia: something odd", die) for n, die in enumerate("42"))
    told = Narrator(lambda seat: True).tell(before, match.state, "russians", "russians: done", odd)
    assert [text for _, text in told.events] == ["West Russia: something odd: 4, 2"]


def test_a_secret_convoy_route_is_not_told_to_another_seat() -> None:
    match = Match(load_ruleset("aa-aarhe"), seed=1, options={"max_rounds": 3})
    narrator = Narrator(lambda seat: seat == "germans")
    told: list[Told] = []
    for _ in range(200):
        acts = match.state.legal_actions()
        seat = str(match.state.to_act())
        secret = match.state.private_decision()
        options = [a.option for a in acts]
        pick = options[-1] if secret else ("done" if "done" in options else options[0])
        before, start = match.state.clone(), match.log_length()
        match.play(seat, f"{seat}: {pick}")
        told.append(narrator.tell(before, match.state, seat, f"{seat}: {pick}", match.log[start + 1 :]))
        if secret:
            break
    secret_move = told[-1]
    route = secret_move.sentence.rpartition(": ")[2]
    assert secret_move.private and secret_move.seat == "germans" and "convoy via" in route
    assert secret_move.seen_by("germans").sentence == secret_move.sentence
    for seat in ("russians", "british", None):
        seen = [line for _, move in grouped(enumerate(told)) for line in move.seen_by(seat).lines()]
        assert "germans makes a secret choice" in seen
        assert not any(route in line for line in seen)


def test_new_engine_lines_line_up_a_log_that_keeps_only_its_last_lines() -> None:
    before = [f"R1 russians combat: line {i}" for i in range(40)]
    after = [*before[2:], "R1 russians combat: takes west-russia", "R1 russians combat: battle ends"]
    assert new_engine_lines(before, after) == after[-2:]
    assert new_engine_lines(before, before) == []
    assert new_engine_lines(before[:3], before[:5]) == before[3:5]


def test_counts_read_as_words() -> None:
    assert counted(2, "fighter") == "2 fighters" and counted(3, "infantry") == "3 infantry"
    assert counted(2, "factory in Russia") == "2 factories in Russia"
    assert counted(2, "research die") == "2 research dice" and counted(1, "armour") == "1 armour"
