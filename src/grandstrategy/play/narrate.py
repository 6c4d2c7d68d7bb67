"""The game told in sentences: each move with the question it answered, then what followed.

The engine's public log (``CataclysmState.log``) records events in a terse, stable form that
saves and fixtures depend on (``france diplomacy yugoslavia: rolls 5, success``), and the kernel's
log records only ``seat: option``. Neither says which question a move answered. This module reads
both in the play layer and writes for people:

- a move becomes a sentence built from the prompt it answered and the option chosen
  (``Italy keeps its flag in reserve (LR 3.3, 3.4, 3.6)``); a prompt with no sentence of its own
  gets ``France answers "…": option``, so a new kind of decision is still told, with its question;
- the engine lines the move caused (dice, results, consequences) follow it, tidied: printed names
  instead of ids (``Yugoslavia``, ``Soviet Union``, ``infantry army``), ``a``/``an``, and
  ``1 loss`` / ``2 losses`` instead of ``loss(es)``;
- combat lines carry the powers of the operation (the attacker and who held the target), so the
  terminal can always show a combat that involves a person's powers.

Nothing here changes the engine's log or the game: narration is read from states the match has
already reached (``Match.play`` leaves the previous state object untouched).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

from grandstrategy.core.chance import ChanceEvent
from grandstrategy.core.log import ActionEntry, LogEntry
from grandstrategy.core.session import Match
from grandstrategy.core.state import GameState
from grandstrategy.play.aa_story import Teller, group_sentence, names_of
from grandstrategy.play.games import as_cataclysm, decision_prompt

if TYPE_CHECKING:
    from grandstrategy.cataclysm.module import Module

Event = tuple[str, str]
"""One line the engine logged: its stamp (``1933 action``) and its tidied text."""


@dataclass(frozen=True)
class Told:
    """One move as told: who, whether a person chose it, the sentence and what followed.

    ``parties`` holds the powers of a combat told in ``events`` (empty when there is none).
    A told move with an empty ``seat`` stands for what happened before the first decision.
    """

    seat: str
    human: bool
    sentence: str
    stamp: str
    events: tuple[Event, ...] = ()
    parties: frozenset[str] = field(default_factory=frozenset)
    private: bool = False
    """The move answered a secret decision (:meth:`GameState.private_decision`)."""
    group: str = ""
    """Moves next to each other with the same non-empty key are told as one (:func:`grouped`):
    an A&A power's purchases in one phase, its casualties in one round, its placements."""
    head: str = ""
    counts: tuple[tuple[str, int], ...] = ()
    tail: str = ""
    cost: int | None = None
    """With ``group``: the pieces the joined sentence is built from (:func:`aa_story.group_sentence`)."""

    def lines(self) -> list[str]:
        """The sentence, then each event indented by two spaces."""
        head = [self.sentence] if self.sentence else []
        return head + [f"  {text}" for _, text in self.events]

    def seen_by(self, seat: str | None) -> Told:
        """The move as ``seat`` may see it: another seat's secret answer is told without its
        choice (what followed, logged by the engine, is public)."""
        if not self.private or seat == self.seat:
            return self
        return replace(self, sentence=secret_sentence(self.seat))


def secret_sentence(seat: str) -> str:
    """The sentence of a secret answer as the other seats read it."""
    return f"{seat} makes a secret choice"


# ---- names ---------------------------------------------------------------------------------------


class Names:
    """Printed names of a rule set's ids: powers, areas, unit types (empty for other rule sets)."""

    def __init__(self, module: Module | None) -> None:
        self.powers: dict[str, str] = {}
        self.areas: dict[str, str] = {}
        self.units: dict[str, str] = {}
        self.area_ids: dict[str, str] = {}
        if module is not None:
            self.powers = {power: spec.name for power, spec in module.powers.items()}
            self.areas = {area: spec.name for area, spec in module.areas.items()}
            self.units = {unit: unit.replace("-", " ") for unit in module.unit_types}
            self.area_ids = {spec.name: area for area, spec in module.areas.items()}
        self._all = {**self.units, **self.areas, **self.powers}

    def power(self, power: str) -> str:
        """``soviet-union`` -> ``Soviet Union``; an unknown id stays as it is."""
        return self.powers.get(power, power)

    def word(self, token: str) -> str:
        """The printed name of an id (power, area, unit type), or the token unchanged."""
        return self._all.get(token, token)


_NAMES: dict[str, Names] = {}


def names_for(state: GameState) -> Names:
    """The names of the rule set a state belongs to (built once per module, by content hash)."""
    game = as_cataclysm(state)
    if game is None:
        return Names(None)
    key = game.module.content_hash
    if key not in _NAMES:
        _NAMES[key] = Names(game.module)
    return _NAMES[key]


# ---- tidying a line ------------------------------------------------------------------------------

_TOKEN = re.compile(r"(?<![\w:#-])[a-z][a-z-]*[a-z](?![\w:-])")
_PLURAL = re.compile(r"\b(\d+) ((?:[A-Za-z-]+ ){0,2}?)([A-Za-z-]+)\((e?s)\)")
_ARTICLE = re.compile(r"\b([Aa]) (?=(?!one\b|uni|use|usu|eu)[aeiou])")
_RULE = re.compile(r"\s*\((?:[^()]*?;\s*)?(LR [^()]*)\)")
_ROLL = re.compile(
    r"^(?P<power>[a-z][a-z-]*) (?P<what>.+?): rolls (?P<dice>[\d -]+), (?P<result>success|failure)$"
)
_DRAW = re.compile(r"^draws (?P<counter>\S+)$")
_DECLARE = re.compile(r"^(?P<power>[a-z][a-z-]*) declares an? .*?operation against (?P<area>.+?) \(LR")
_COMBAT = re.compile(
    r"combat|\bloss|dice:|die:|retreats|is destroyed|is flipped|triumph|air superiority|"
    r"operation against|attackers move into|conquers|^(?:attacker|defender) [+-]\d"
)


def plurals(text: str) -> str:
    """``1 loss(es)`` -> ``1 loss``, ``2 military action(s)`` -> ``2 military actions``."""

    def fix(match: re.Match[str]) -> str:
        count, words, noun, suffix = match.groups()
        return f"{count} {words}{noun}{'' if count == '1' else suffix}"

    return _PLURAL.sub(fix, text)


def tidy(text: str, names: Names, *, capital: bool = True) -> str:
    """A log line for people: printed names for ids, ``a``/``an``, singular or plural, capital first.

    Counter notation (``flag:germany``) and unit numbers (``#15``) stay as written: the player
    types them.
    """
    text = plurals(text)
    text = _TOKEN.sub(lambda m: names.word(m.group(0)), text)
    text = _ARTICLE.sub(lambda m: f"{m.group(1)}n ", text)
    return text[:1].upper() + text[1:] if capital else text


def counter_phrase(counter: str, power: str, names: Names) -> str:
    """``flag:italy`` for Italy: ``its flag``; for France: ``Italy's flag``; ``crisis``: ``a crisis``."""
    kind, _, owner = counter.partition(":")
    owner = owner.split(":")[0]
    noun = kind.replace("-", " ")
    if owner and owner == power:
        return f"its {noun}"
    if owner:
        return f"{possessive(names.power(owner))} {noun}"
    return f"{'an' if noun[:1] in 'aeiou' else 'a'} {noun}"


def possessive(name: str) -> str:
    """``Italy`` -> ``Italy's``, ``United States`` -> ``United States'``."""
    return f"{name}'" if name.endswith("s") else f"{name}'s"


def _place(phrase: str, names: Names) -> str:
    """``diplomacy yugoslavia`` -> ``diplomacy in Yugoslavia`` (a verb and an area id)."""
    verb, _, last = phrase.rpartition(" ")
    if verb and last in names.areas and " " not in verb:
        return f"{verb} in {names.areas[last]}"
    return phrase


def event_text(text: str, names: Names) -> str:
    """One engine line as a sentence: rolls and draws get their own wording, the rest is tidied."""
    roll = _ROLL.match(text)
    if roll and roll["power"] in names.powers:
        what = _phrase(_place(roll["what"], names), names)
        return f"{names.power(roll['power'])} rolls {roll['dice']} for {what}: {roll['result']}"
    draw = _DRAW.match(text)
    if draw:
        return f"Drawn from the cup: {counter_phrase(draw['counter'], '', names)}"
    return tidy(text, names)


def split_stamp(line: str) -> Event:
    """``1933 action: text`` -> ``("1933 action", "text")``; a line without a stamp keeps ``""``."""
    head, sep, rest = line.partition(": ")
    if sep and re.fullmatch(r"\d{4} [a-z-]+", head):
        return head, rest
    return "", line


# ---- a move as a sentence ------------------------------------------------------------------------

Template = Callable[[re.Match[str], str, str, Names], str | None]
_TEMPLATES: list[tuple[re.Pattern[str], Template]] = []


def _template(pattern: str) -> Callable[[Template], Template]:
    def register(function: Template) -> Template:
        _TEMPLATES.append((re.compile(pattern), function))
        return function

    return register


@_template(r"^you drew (?P<counter>\S+): play, reserve or reject it")
def _drawn(m: re.Match[str], who: str, option: str, names: Names) -> str | None:
    counter = counter_phrase(m["counter"], _power_of(who, names), names)
    return {
        "play": f"{who} plays {counter}, just drawn",
        "reserve": f"{who} keeps {counter} in reserve",
        "reject": f"{who} rejects {counter}",
    }.get(option)


@_template(r"^interrupt with your reserved (?P<counter>\S+) before the next draw")
def _interrupt(m: re.Match[str], who: str, option: str, names: Names) -> str | None:
    counter = counter_phrase(m["counter"], _power_of(who, names), names)
    return {
        "pass": f"{who} keeps {counter} in reserve and lets the draw go on",
        "interrupt": f"{who} interrupts with {counter}",
    }.get(option)


@_template(r"^(?P<other>[a-z-]+) will interrupt; go first with your reserve")
def _interrupt_first(m: re.Match[str], who: str, option: str, names: Names) -> str | None:
    other = names.power(m["other"])
    return {
        "pass": f"{who} lets {other} interrupt first",
        "interrupt": f"{who} interrupts before {other}",
    }.get(option)


@_template(r"^political action")
def _political(m: re.Match[str], who: str, option: str, names: Names) -> str | None:
    if option == "forfeit":
        return f"{who} forfeits its political action"
    return f"{who} chooses the political action {_phrase(_place(option, names), names)}"


@_template(r"^military action \((?P<left>\d+) left")
def _military(m: re.Match[str], who: str, option: str, names: Names) -> str | None:
    if option == "forfeit":
        return f"{who} forfeits its military actions"
    if option == "deploy":
        return f"{who} uses a military action to deploy"
    return f"{who} uses a military action: {_phrase(option, names)}"


@_template(r"^deployment: move a unit, or done")
def _deploy_pick(m: re.Match[str], who: str, option: str, names: Names) -> str | None:
    if option == "done":
        return f"{who} ends its deployment"
    unit = re.sub(r"^move #\d+ ", "", option)
    return f"{who} picks its {_phrase(unit, names)} to deploy" if unit != option else None


@_template(r"^deployment: where does (?P<unit>.+) go\?")
def _deploy_to(m: re.Match[str], who: str, option: str, names: Names) -> str | None:
    return f"{who} deploys {_phrase(m['unit'], names)} to {_phrase(option, names)}"


@_template(r"^activate units for the operation, or done")
def _activate(m: re.Match[str], who: str, option: str, names: Names) -> str | None:
    if option == "done":
        return f"{who} activates no more units"
    unit = re.sub(r"^activate #\d+ ", "", option)
    return f"{who} activates its {_phrase(unit, names)}" if unit != option else None


@_template(r"^commit support \((?P<side>\w+);")
def _support(m: re.Match[str], who: str, option: str, names: Names) -> str | None:
    if option == "done":
        return f"{who} commits no more support to the {m['side']}"
    unit = re.sub(r"^support with #\d+ ", "", option)
    own = f"{_power_of(who, names)} "
    unit = f"its {unit.removeprefix(own)}" if unit.startswith(own) else unit
    return f"{who} supports the {m['side']} with {_phrase(unit, names)}" if unit != option else None


@_template(r"^you lost the (?P<kind>\w+) combat with (?P<losses>\d+) loss")
def _lost(m: re.Match[str], who: str, option: str, names: Names) -> str | None:
    losses = int(m["losses"])
    return {
        "retreat": f"{who} retreats from the lost {m['kind']} combat to take one loss fewer",
        "stand": f"{who} stands after the lost {m['kind']} combat and takes "
        + ("its loss" if losses == 1 else f"all {losses} losses"),
    }.get(option)


@_template(r"^retreat your (?P<unit>\S+) from (?P<area>.+?) to\b")
def _retreat(m: re.Match[str], who: str, option: str, names: Names) -> str | None:
    return f"{who} retreats its {names.word(m['unit'])} from {m['area']} to {_phrase(option, names)}"


@_template(r"^place the flag gained \((?P<reason>.+?); LR")
def _flag_gained(m: re.Match[str], who: str, option: str, names: Names) -> str | None:
    reason = _phrase(m["reason"], names)
    return {
        "cup": f"{who} puts the flag it gained ({reason}) into the cup",
        "reserve": f"{who} keeps the flag it gained ({reason}) in reserve",
    }.get(option)


@_template(r"^diplomatic opportunity in (?P<area>.+?): ")
def _opportunity(m: re.Match[str], who: str, option: str, names: Names) -> str | None:
    return {
        "attempt": f"{who} takes the diplomatic opportunity in {m['area']}",
        "decline": f"{who} lets the diplomatic opportunity in {m['area']} pass",
    }.get(option)


@_template(r"^home front: change posture\?")
def _posture(m: re.Match[str], who: str, option: str, names: Names) -> str | None:
    return f"{who} keeps its posture" if option == "keep" else f"{who} changes its posture: {option}"


@_template(r"^end the Washington Naval Treaty now\?")
def _wnt(m: re.Match[str], who: str, option: str, names: Names) -> str | None:
    return {
        "keep": f"{who} keeps the Washington Naval Treaty",
        "end": f"{who} ends the Washington Naval Treaty",
    }.get(option)


@_template(r"^final disposition: keep one counter in reserve\?")
def _disposition(m: re.Match[str], who: str, option: str, names: Names) -> str | None:
    if option == "none":
        return f"{who} keeps no counter in reserve for the next turn"
    counter = option.removeprefix("keep ")
    return f"{who} keeps {counter_phrase(counter, _power_of(who, names), names)} in reserve for the next turn"


@_template(r"^production: how many of your (?P<total>\d+) resources become offensives\?")
def _production(m: re.Match[str], who: str, option: str, names: Names) -> str | None:
    count = option.removeprefix("offensives ")
    if not count.isdigit():
        return None
    return f"{who} turns {plurals(f'{count} resource(s)')} of its {m['total']} into offensives"


@_template(r"^propose an armistice\?")
def _armistice(m: re.Match[str], who: str, option: str, names: Names) -> str | None:
    if option == "no":
        return f"{who} proposes no armistice"
    return f"{who} proposes an armistice to {names.power(option.removeprefix('armistice with '))}"


@_template(r"^(?P<other>[a-z-]+) offers an armistice: accept\?")
def _armistice_answer(m: re.Match[str], who: str, option: str, names: Names) -> str | None:
    verb = {"accept": "accepts", "decline": "declines"}.get(option)
    return f"{who} {verb} {possessive(names.power(m['other']))} offer of an armistice" if verb else None


@_template(r"^regroup a unit, or done")
def _regroup(m: re.Match[str], who: str, option: str, names: Names) -> str | None:
    return f"{who} regroups no more units" if option == "done" else None


def _power_of(who: str, names: Names) -> str:
    for power, name in names.powers.items():
        if name == who:
            return power
    return who


def _phrase(text: str, names: Names) -> str:
    """A piece of an option or prompt inside a sentence: tidied, no capital added."""
    return tidy(text, names, capital=False)


def sentence(power: str, prompt: str, option: str, names: Names) -> str:
    """The move as one sentence that names the question it answered and the rule.

    ``("italy", "you drew flag:italy: play, reserve or reject it (LR 3.3, 3.4, 3.6)", "reserve")``
    -> ``Italy keeps its flag in reserve (LR 3.3, 3.4, 3.6)``.
    """
    who = names.power(power)
    rule_match = next(reversed(list(_RULE.finditer(prompt))), None)  # the last rule cited
    rule = f" ({rule_match.group(1)})" if rule_match else ""
    for pattern, template in _TEMPLATES:
        found = pattern.search(prompt)
        if found:
            told = template(found, who, option, names)
            if told is not None:
                return told + rule
    question = prompt[: rule_match.start()] + prompt[rule_match.end() :] if rule_match else prompt
    return f'{who} answers "{_phrase(question, names)}": {_phrase(option, names)}{rule}'


# ---- telling moves, live or from the start ---------------------------------------------------------


def _stamp(state: GameState) -> str:
    game = as_cataclysm(state)
    if game is not None:
        return f"{game.state.turn} {game.state.phase}"
    return re.sub(r" at \S+ \([^()]*\)$", "", state.phase())  # A&A: not a heading per battle step


def _engine_lines(state: GameState) -> list[str]:
    game = as_cataclysm(state)
    return game.state.log if game is not None else []


class Narrator:
    """Tells moves one after another; remembers the operation under way across moves."""

    def __init__(self, human: Callable[[str], bool]) -> None:
        self.human = human
        self._parties: frozenset[str] = frozenset()
        self._teller: tuple[object, Teller] | None = None
        """The A&A teller with its names, by the module they were read from (asked once a game)."""

    def opening(self, state: GameState) -> Told | None:
        """What the engine logged before the first decision (``None`` when nothing)."""
        lines = _engine_lines(state)
        if not lines:
            return None
        names = names_for(state)
        events = tuple((stamp, event_text(text, names)) for stamp, text in map(split_stamp, lines))
        return Told("", False, "", _stamp(state), events)

    def tell(
        self,
        before: GameState,
        after: GameState,
        seat: str,
        action: str,
        chances: Iterable[LogEntry] = (),
    ) -> Told:
        """The move ``action`` by ``seat`` that led from ``before`` to ``after``, told.

        ``chances`` are the log entries the match added after the action (its dice): a rule set
        told by :mod:`.aa_story` shows its public dice among the move's events.
        """
        names = names_for(before)
        option = action.partition(": ")[2] if action.startswith(f"{seat}: ") else action
        prompt = decision_prompt(before)
        private = before.private_decision()
        teller = self._aa_teller(before)
        if teller is not None:
            fallback = sentence(seat, prompt, option, names)
            return self._tell_aa(teller, before, after, seat, option, chances, private, fallback)
        new = _engine_lines(after)[len(_engine_lines(before)) :]
        events: list[Event] = []
        combat = False
        for stamp, text in map(split_stamp, new):
            declared = _DECLARE.match(text)
            if declared:
                self._parties = _operation_parties(before, declared["power"], declared["area"], names)
            combat = combat or bool(_COMBAT.search(text))
            events.append((stamp, event_text(text, names)))
        human = self.human(seat)
        # a secret answer is told only where its own seat reads it (a person's seat here)
        said = sentence(seat, prompt, option, names) if human or not private else secret_sentence(seat)
        return Told(
            seat=seat,
            human=human,
            sentence=said,
            stamp=_stamp(before),
            events=tuple(events),
            parties=self._parties if combat else frozenset(),
            private=private,
        )

    def _aa_teller(self, state: GameState) -> Teller | None:
        """The A&A teller for ``state``'s rule set (its names read once per module), or ``None``
        for a rule set told here (Cataclysm) or without names."""
        if as_cataclysm(state) is not None:
            return None
        module = getattr(state, "module", None)
        if self._teller is not None and self._teller[0] is module:
            return self._teller[1]
        names = names_of(state)
        if names is None:
            return None
        teller = Teller(names)
        self._teller = (module, teller)
        return teller

    def _tell_aa(
        self,
        teller: Teller,
        before: GameState,
        after: GameState,
        seat: str,
        option: str,
        chances: Iterable[LogEntry],
        private: bool,
        fallback: str,
    ) -> Told:
        """An A&A move told by :mod:`.aa_story` (a secret answer without its choice, never grouped)."""
        dice = [
            (entry.label, entry.outcome)
            for entry in chances
            if isinstance(entry, ChanceEvent) and entry.private_to is None
        ]
        human = self.human(seat)
        story = teller.tell(before, after, seat, option, dice, fallback)
        stamp = _stamp(before)
        events = tuple((stamp, text) for text in story.events)
        if private:
            said = (story.sentence or fallback) if human else secret_sentence(seat)
            return Told(seat, human, said, stamp, events, private=True)
        said = story.sentence or group_sentence(story.head, story.counts, story.tail, story.cost)
        return Told(
            seat,
            human,
            said,
            stamp,
            events,
            group=story.group,
            head=story.head,
            counts=story.counts,
            tail=story.tail,
            cost=story.cost,
        )


def grouped(moves: Iterable[tuple[int, Told]]) -> list[tuple[int, Told]]:
    """Moves next to each other with the same ``group`` joined into one (the first one's index):
    ``Russians buy 1 infantry``, ``Russians buy 1 infantry`` -> ``Russians buy 2 infantry``."""
    result: list[tuple[int, Told]] = []
    for index, move in moves:
        if result and move.group and result[-1][1].group == move.group:
            first_index, first = result[-1]
            counts = dict(first.counts)
            for noun, count in move.counts:
                counts[noun] = counts.get(noun, 0) + count
            cost = None if first.cost is None or move.cost is None else first.cost + move.cost
            pairs = tuple(counts.items())
            joined = replace(
                first,
                sentence=group_sentence(first.head, pairs, first.tail, cost),
                events=first.events + move.events,
                parties=first.parties | move.parties,
                counts=pairs,
                cost=cost,
            )
            result[-1] = (first_index, joined)
        else:
            result.append((index, move))
    return result


def _operation_parties(state: GameState, attacker: str, area_name: str, names: Names) -> frozenset[str]:
    """The attacker and every power with a stake in the target: units there, its controller, its owner."""
    game = as_cataclysm(state)
    area = names.area_ids.get(area_name)
    parties = {attacker}
    if game is None or area is None:
        return frozenset(parties)
    from grandstrategy.cataclysm.rules.control import controller

    parties |= {unit.power for unit in game.state.units if unit.area == area}
    held = controller(game.module, game.state, area)
    owner = game.module.area(area).owner
    parties |= {p for p in (held, owner) if p is not None and p in game.module.powers}
    return frozenset(parties)


def history(match: Match, human: Callable[[str], bool]) -> list[Told]:
    """Every move of ``match`` told, from the start: replays the log from the seed.

    Costs one replay (as loading a save does); the terminal calls it only for ``log``.
    """
    fresh = Match(match.ruleset, seed=match.seed, options=match.options)
    return extend_history(fresh, match.log, Narrator(human), [])


def extend_history(
    fresh: Match, entries: Iterable[object], narrator: Narrator, told: list[Told]
) -> list[Told]:
    """Play the actions in ``entries`` past ``fresh``'s log on ``fresh``, telling each into ``told``."""
    if not told and not fresh.log:
        opening = narrator.opening(fresh.state)
        if opening is not None:
            told.append(opening)
    for entry in list(entries)[len(fresh.log) :]:
        if isinstance(entry, ActionEntry):
            before = fresh.state.clone()  # play changes the state in place
            start = fresh.log_length()
            fresh.play(entry.seat, entry.action)
            chances = entries_after(fresh, start)
            told.append(narrator.tell(before, fresh.state, entry.seat, entry.action, chances))
    return told


def entries_after(match: Match, action_index: int) -> tuple[LogEntry, ...]:
    """The entries ``match`` logged after its action at ``action_index`` (the dice it led to);
    copies the log only when there are some."""
    return match.log[action_index + 1 :] if match.log_length() > action_index + 1 else ()


def log_lines(told: Iterable[Told]) -> list[str]:
    """The told moves as log lines, with a heading line whenever the turn or phase changes."""
    lines: list[str] = []
    current = ""

    def heading(stamp: str) -> None:
        nonlocal current
        if stamp and stamp != current:
            lines.append(f"— {stamp} —")
            current = stamp

    for _, move in grouped(enumerate(told)):
        if move.sentence:
            heading(move.stamp)
            lines.append(move.sentence)
        for stamp, text in move.events:
            heading(stamp)
            lines.append(f"  {text}")
    return lines


def involves(move: Told, powers: Mapping[str, object] | Iterable[str]) -> bool:
    """Whether a combat told in ``move`` involves any of ``powers``."""
    return bool(move.parties & set(powers))
