"""Axis & Allies moves told as a player would say them (the terminal's story, the page's "since").

The A&A rule sets record a move as its notation (``russians: move 3 infantry russia ->
west-russia``), every die as a chance event of its own (``west-russia: russians infantry hits on
1 or less``) and a short engine log (``R1 russians combat: takes west-russia``). This module reads
those, with the states before and after the move, and writes sentences:

- ``Russians move 3 infantry from Russia to West Russia``; a combat move into a hostile place is
  an attack (``Russians attack West Russia with 3 infantry from Caucasus``);
- purchases, casualties and placements carry a group key and counts, so that the narrator can
  join a power's consecutive purchases into one sentence (``Russians buy 5 infantry and 1
  armour (20 IPC)``; the cost is what left the bank);
- a battle's dice become one line per round and side, hits first, every die still shown by unit
  type and the number it needed (``Battle of West Russia, round 1: Russians hit 1 (armour at 3:
  2; artillery at 2: 2); the defence hits 1 (...)``), and its end names who holds the place;
- an option or a die it does not know is told as before (the question and the answer, or the
  die's label with its numbers), never an error.

Only public facts are read (the names the state gives through ``play_names``, its JSON, the
public chance events); nothing here changes the game. Secret answers stay secret: the narrator
replaces the sentence of another seat's secret choice, and a secret move is never grouped.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from grandstrategy.core.state import GameState

MAX_DICE_SHOWN = 60
"""At most this many dice of one side in one round are listed (the count of hits is always exact)."""

_MOVE = re.compile(r"^move (\d+) (\S+) (\S+) -> (\S+)(?: with (\d+) (\S+))?$")
_ARROW = re.compile(r"(\S+) -> (\S+)")
_DIE = re.compile(
    r"^(?P<where>[a-z0-9-]+): (?P<side>[a-z-]+) (?P<unit>[a-z-]+) "
    r"(?P<kind>hits|dogfights, hits) on (?P<value>\d+) or less$"
)
_RESEARCH = re.compile(r"^([a-z-]+) researches ([a-z-]+): (.+)$")
_ENGINE = re.compile(r"^R(?P<round>\d+) (?P<power>[a-z-]+) (?P<phase>[a-z-]+): (?P<text>.*)$")
_TOKEN = re.compile(r"(?<![\w-])[a-z][a-z0-9-]*[a-z0-9](?![\w-])")
_SUBJECT_VERBS = frozenset(
    [
        "collects",
        "scorches",
        "takes",
        "captures",
        "retreats",
        "buys",
        "loads",
        "delivers",
        "sends",
        "attacks",
        "deploys",
        "begins",
    ]
)
"""Engine log lines that begin with a verb whose subject is the power on move."""
_PLAIN_VERBS = frozenset(
    [
        "attack",
        "court",
        "scorch",
        "support",
        "interdict",
        "airlift",
        "deploy",
        "screen",
        "search",
        "aim",
        "hold",
        "remain",
        "let",
        "keep",
    ]
)
"""Options (mostly the Historical Edition's) that read as a sentence after the power's name."""
_UNCOUNTED = frozenset({"infantry", "artillery", "armour"})


@dataclass(frozen=True)
class Story:
    """One A&A move told: its sentence and the lines that followed (dice, results).

    A move that may join its neighbours (a purchase, a casualty, a placement) has a ``group`` key;
    ``head``, ``counts``, ``tail`` and ``cost`` rebuild the sentence of the joined moves
    (:func:`group_sentence`).
    """

    sentence: str
    events: tuple[str, ...] = ()
    group: str = ""
    head: str = ""
    counts: tuple[tuple[str, int], ...] = ()
    tail: str = ""
    cost: int | None = None


class AANames:
    """The printed names an A&A state gives for its ids (``play_names``)."""

    def __init__(self, names: Mapping[str, Mapping[str, str]]) -> None:
        self.powers = dict(names.get("powers", {}))
        self.places = dict(names.get("places", {}))
        self.units = dict(names.get("units", {}))
        self.alliances = dict(names.get("alliances", {}))
        self._all = {**self.units, **self.places, **self.powers}

    def power(self, power: str) -> str:
        return self.powers.get(power, power)

    def place(self, place: str) -> str:
        return self.places.get(place, place)

    def unit(self, unit: str) -> str:
        return self.units.get(unit, unit.replace("-", " "))

    def text(self, text: str) -> str:
        """Every id in ``text`` replaced by its printed name; ``A -> B`` read as ``from A to B``."""
        text = _ARROW.sub(lambda m: f"from {m[1]} to {m[2]}", text)
        return _TOKEN.sub(lambda m: self._all.get(m[0], _words(m[0])), text)


def names_of(state: GameState) -> AANames | None:
    """The names of an A&A state (one with the ``play_names`` hook), else ``None``."""
    hook = getattr(state, "play_names", None)
    return AANames(hook()) if hook is not None else None


def counted(count: int, noun: str) -> str:
    """``1 fighter``, ``2 fighters``, ``3 infantry``, ``2 research dice``, ``2 factories in Russia``."""
    head, sep, rest = noun.partition(" at ")
    if not sep:
        head, sep, rest = noun.partition(" in ")
    return f"{count} {head if count == 1 else _plural(head)}{sep}{rest}"


def _plural(noun: str) -> str:
    last = noun.rsplit(" ", 1)[-1]
    if last in _UNCOUNTED:
        return noun
    if noun.endswith("die"):
        return f"{noun[:-3]}dice"
    if noun.endswith("y") and not noun.endswith(("ay", "ey", "oy")):
        return f"{noun[:-1]}ies"
    return f"{noun}s"


def listing(parts: Sequence[str]) -> str:
    """``a``, ``a and b``, ``a, b and c``."""
    if len(parts) <= 1:
        return "".join(parts)
    return f"{', '.join(parts[:-1])} and {parts[-1]}"


def group_sentence(head: str, counts: Sequence[tuple[str, int]], tail: str, cost: int | None) -> str:
    """The sentence of joined moves: ``Russians buy 5 infantry and 1 armour (20 IPC)``."""
    if not counts:
        return f"{head} nothing{tail}"
    told = listing([counted(n, noun) for noun, n in counts])
    price = f" ({cost} IPC)" if cost else ""
    return f"{head} {told}{tail}{price}"


def _stack_power(stack: str) -> str:
    return stack.split(":", 1)[0]


def _hostile(data: Mapping[str, Any], names: AANames, power: str, place: str) -> bool:
    """Whether ``place`` is enemy ground or holds enemy units for ``power`` (a combat move there
    is an attack)."""
    side = names.alliances.get(power)
    owner = data.get("owner", {}).get(place)
    if owner is not None and names.alliances.get(owner) not in (None, side):
        return True
    units: Mapping[str, int] = data.get("units", {}).get(place, {})
    return any(n > 0 and names.alliances.get(_stack_power(s)) not in (None, side) for s, n in units.items())


def new_engine_lines(before: Sequence[str], after: Sequence[str]) -> list[str]:
    """The engine log lines ``after`` adds to ``before`` (the A&A log keeps only its last lines,
    so the two are lined up on their overlap)."""
    if list(after[: len(before)]) == list(before):
        return list(after[len(before) :])
    for shift in range(len(before) + 1):
        overlap = list(before[shift:])
        if list(after[: len(overlap)]) == overlap:
            return list(after[len(overlap) :])
    return list(after)


class Teller:
    """Tells A&A moves; one per state pair (cheap)."""

    def __init__(self, names: AANames) -> None:
        self.names = names

    def tell(
        self,
        before: GameState,
        after: GameState,
        seat: str,
        option: str,
        chances: Sequence[tuple[str, str]],
        fallback: str,
    ) -> Story:
        """The move ``option`` by ``seat`` told (``fallback`` when the option is not known),
        with the dice ``chances`` (label, outcome) and the engine lines it caused."""
        b, a = before.to_json(), after.to_json()
        events = [*self.dice(chances, b), *self.engine(b, a)]
        story = self.sentence(b, a, seat, option)
        if story is None:
            return Story(fallback, tuple(events))
        events = [line for line in events if line != story.sentence]  # a retreat is told once
        return Story(
            story.sentence, tuple(events), story.group, story.head, story.counts, story.tail, story.cost
        )

    # ---- the move itself ---------------------------------------------------------------------

    def sentence(self, b: Mapping[str, Any], a: Mapping[str, Any], seat: str, option: str) -> Story | None:
        """The move's sentence (with its group for purchases, casualties, placements), or ``None``."""
        n = self.names
        who = n.power(seat)
        words = option.split()
        if not words:
            return None
        phase = str(b.get("phase", ""))
        battle = b.get("battle") or {}
        where = n.place(str(battle.get("where", "")))
        key = f"{seat}|{b.get('round')}|{b.get('turn')}"
        spent = int(b.get("bank", {}).get(seat, 0)) - int(a.get("bank", {}).get(seat, 0))
        verb = words[0]
        if option == "buy research die":
            return Story(
                "", group=f"dice|{key}", head=f"{who} buy", counts=(("research die", 1),), cost=spent
            )
        if verb == "buy" and len(words) >= 2:
            noun = n.unit(words[1])
            if len(words) >= 4 and words[2] == "at":
                noun = f"{noun} at {n.place(words[3])}"
            elif len(words) > 2:
                return None
            return Story("", group=f"buy|{key}", head=f"{who} buy", counts=((noun, 1),), cost=spent)
        if option == "done" and phase == "purchase" and not battle:
            return Story("", group=f"buy|{key}", head=f"{who} buy", cost=0)
        if option == "done":
            return Story(f"{who} end their {phase.replace('-', ' ')}" if phase else f"{who} are done")
        if verb == "move":
            return self.move(b, seat, option, phase)
        if verb in ("lose", "damage") and len(words) == 3 and battle:
            unit = n.unit(words[2])
            if words[1] != seat:
                unit = f"{n.power(words[1])} {unit}"
            if verb == "damage":
                return Story(f"{who} take a hit on a {unit} in {where}")
            group = f"lose|{key}|{battle.get('where')}|{battle.get('round')}"
            return Story("", group=group, head=f"{who} lose", counts=((unit, 1),), tail=f" in {where}")
        if verb == "place" and len(words) in (3, 4):
            at = n.place(words[3] if len(words) == 4 else words[2])
            return Story(
                "", group=f"place|{key}", head=f"{who} place", counts=((f"{n.unit(words[1])} in {at}", 1),)
            )
        simple = self.simple(who, words, option, where)
        return Story(simple) if simple is not None else None

    def move(self, b: Mapping[str, Any], seat: str, option: str, phase: str) -> Story | None:
        """``move N TYPE FROM -> TO [with K TYPE]`` as a move, or an attack where TO is hostile."""
        found = _MOVE.match(option)
        if found is None:
            return None
        n = self.names
        count, unit, origin, target, riders, rider = found.groups()
        what = counted(int(count), n.unit(unit))
        carrying = f" carrying {counted(int(riders), n.unit(rider))}" if riders else ""
        who = n.power(seat)
        if phase == "combat-move" and _hostile(b, n, seat, target):
            return Story(f"{who} attack {n.place(target)} with {what}{carrying} from {n.place(origin)}")
        return Story(f"{who} move {what}{carrying} from {n.place(origin)} to {n.place(target)}")

    def simple(self, who: str, words: list[str], option: str, where: str) -> str | None:
        """Short sentences for the other answers; ``None`` for one not known."""
        n = self.names
        verb, rest = words[0], words[1:]
        if verb == "fight" and len(rest) == 1:
            return f"{who} fight the battle of {n.place(rest[0])}"
        if verb == "bomb" and len(rest) == 1:
            return f"{who} bomb the factory in {n.place(rest[0])}"
        if verb == "raid":
            return f"{who} send {n.text(' '.join(rest))} on a bombing raid"
        if verb == "rocket" and len(rest) == 3:
            return f"{who} fire a rocket from {n.place(rest[0])} at {n.place(rest[2])}"
        if verb == "research" and len(rest) == 1:
            return f"{who} research {n.unit(rest[0])}"
        if option == "roll research dice":
            return f"{who} roll their research dice"
        if option == "press attack":
            return f"{who} press the attack in {where}"
        if verb == "retreat" and rest[:1] == ["to"] and len(rest) == 2:
            return f"{who} retreat from {where} to {n.place(rest[1])}"
        if option == "retreat aircraft":
            return f"{who} withdraw their aircraft from {where}"
        if option == "break off":
            return f"{who} break off the battle in {where}"
        if option == "submerge submarines":
            return f"{who} submerge their submarines in {where}"
        if option == "no screen":
            return f"{who} screen nothing"
        if verb == "lend-lease" and len(rest) == 3:
            return f"{who} load {rest[0]} IPCs of lend-lease in {n.place(rest[2])}"
        if verb in _PLAIN_VERBS:
            return f"{who} {n.text(option)}"
        return None

    # ---- what followed -----------------------------------------------------------------------

    def dice(self, chances: Sequence[tuple[str, str]], b: Mapping[str, Any]) -> list[str]:
        """Battle dice one line per round and side, every other die as its label and numbers."""
        lines: list[str] = []
        battle = b.get("battle") or {}
        rounds: dict[str, int] = {}
        if battle.get("where") is not None and isinstance(battle.get("round"), int):
            rounds[str(battle["where"])] = int(battle["round"])
        block: list[tuple[str, str, str, int, int]] = []  # side, unit, kind, value, die
        block_where = ""
        other: list[tuple[str, list[str]]] = []

        def flush_block() -> None:
            nonlocal block
            if block:
                lines.append(self.battle_line(block_where, block, rounds))
            block = []

        def flush_other() -> None:
            for label, outcomes in other:
                lines.append(f"{_capital(self.names.text(label))}: {', '.join(outcomes)}")
            other.clear()

        for label, outcome in chances:
            die = _DIE.match(label)
            research = _RESEARCH.match(label)
            if research is not None:
                who, tech, rule = research.groups()
                label = f"{self.names.power(who)} roll for {_words(tech)} ({rule})"
            if die is None or not outcome.isdigit():
                flush_block()
                if other and other[-1][0] == label:
                    other[-1][1].append(outcome)
                else:
                    other.append((label, [outcome]))
                continue
            flush_other()
            side, kind = die["side"], die["kind"]
            starts_again = any(s == "defence" for s, *_ in block) and side != "defence"
            if block and (die["where"] != block_where or block[-1][2] != kind or starts_again):
                flush_block()
            block_where = die["where"]
            block.append((side, die["unit"], kind, int(die["value"]), int(outcome)))
        flush_block()
        flush_other()
        return lines

    def battle_line(
        self, where: str, block: list[tuple[str, str, str, int, int]], rounds: dict[str, int]
    ) -> str:
        """``Battle of West Russia, round 1: Russians hit 1 (armour at 3: 2); the defence hits 0 (...)``."""
        n = self.names
        place = n.place(where)
        if block[0][2] != "hits":
            head = f"Dogfight over {place}"
        else:
            rounds[where] = rounds.get(where, 0) + 1
            head = f"Battle of {place}, round {rounds[where]}"
        sides: list[str] = []
        for side in dict.fromkeys(s for s, *_ in block):
            dice = [(unit, value, die) for s, unit, _, value, die in block if s == side]
            hits = sum(1 for _, value, die in dice if die <= value)
            by_unit: dict[tuple[str, int], list[str]] = {}
            for unit, value, die in dice[:MAX_DICE_SHOWN]:
                by_unit.setdefault((unit, value), []).append(str(die))
            shown = "; ".join(f"{n.unit(u)} at {v}: {','.join(ds)}" for (u, v), ds in by_unit.items())
            more = f"; {len(dice) - MAX_DICE_SHOWN} more dice" if len(dice) > MAX_DICE_SHOWN else ""
            name = "the defence" if side == "defence" else n.power(side)
            verb = "hits" if side == "defence" else "hit"
            sides.append(f"{name} {verb} {hits} ({shown}{more})")
        return f"{head}: {'; '.join(sides)}"

    def engine(self, b: Mapping[str, Any], a: Mapping[str, Any]) -> list[str]:
        """The engine log lines the move added, as sentences."""
        n = self.names
        lines: list[str] = []
        for line in new_engine_lines(b.get("log", []), a.get("log", [])):
            found = _ENGINE.match(line)
            if found is None:
                lines.append(_capital(n.text(line)))
                continue
            text = found["text"]
            first, _, rest = text.partition(" ")
            ended = re.fullmatch(r"battle at (\S+) ends", text)
            if ended:
                place = ended[1]
                holder = a.get("owner", {}).get(place)
                held = f": {n.place(place)} is held by the {n.power(holder)}" if holder else ""
                lines.append(f"The battle of {n.place(place)} ends{held}")
            elif first in _SUBJECT_VERBS:
                lines.append(f"{n.power(found['power'])} {_plural_verb(first)} {n.text(rest)}")
            elif first in n.powers and rest.partition(" ")[0] in _SUBJECT_VERBS:
                verb, _, rest = rest.partition(" ")
                lines.append(f"{n.power(first)} {_plural_verb(verb)} {n.text(rest)}")
            else:
                lines.append(_capital(n.text(text)))
        return lines


def _plural_verb(verb: str) -> str:
    """``collects`` -> ``collect``, ``scorches`` -> ``scorch`` (the powers' names are plural)."""
    return verb[:-2] if verb.endswith(("ches", "shes", "sses")) else verb[:-1]


def _words(token: str) -> str:
    """An id the names do not know, in words: ``super-submarines`` -> ``super submarines`` (ids
    with digits, such as sea zones, stay as written)."""
    return token if any(c.isdigit() for c in token) else token.replace("-", " ")


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]
