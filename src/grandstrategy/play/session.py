"""A game on disk: the save, its seats, the bots, and the player's undo.

:class:`PlaySession` wraps a kernel :class:`~grandstrategy.core.session.Match`. It writes the save
with the kernel's atomic :func:`~grandstrategy.core.save.write_save` after every action, so
killing the process loses at most the action in progress and the file always loads (bots'
choices are a function of the position, so a resumed game continues exactly as it would have).
The seats live beside the save (:func:`grandstrategy.play.seats.seats_path`).

Undo takes back the last choice a person made, with any bot moves after it, but only when no
chance event (a die, a cup draw) happened since: new information cannot be unseen (STYLE.md,
"undo stops at new information"). It returns to an in-memory checkpoint when there is one and
otherwise replays the log up to that choice from the seed.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from grandstrategy.core.actions import Action
from grandstrategy.core.chance import ChanceEvent
from grandstrategy.core.errors import SaveError, UserInputError
from grandstrategy.core.files import FileLock, atomic_write, check_file_name, remove_stale_temporaries
from grandstrategy.core.log import ActionEntry, LogEntry, describe
from grandstrategy.core.replay import open_save
from grandstrategy.core.save import save_game, write_save
from grandstrategy.core.session import Checkpoint, DecisionPoint, Match
from grandstrategy.play.bots import Bot, bot_seed, make_bot
from grandstrategy.play.games import as_cataclysm, load_ruleset, register_rulesets, seat_groups, seat_names
from grandstrategy.play.narrate import Narrator, Told, entries_after, extend_history, names_for, plurals, tidy
from grandstrategy.play.seats import HUMAN, parse_seats, read_seats, seats_path, write_seats


class UndoError(UserInputError):
    """Undo is not possible now; the message says why."""


@dataclass(frozen=True)
class Move:
    """One action as it was played: by whom, of which kind of seat, in notation, and as told."""

    seat: str
    kind: str
    action: str
    told: Told | None = None


class PlaySession:
    """A match with its save file, its seats and their bots."""

    def __init__(self, path: str | os.PathLike[str], match: Match, seats: dict[str, str]) -> None:
        self.path = Path(path)
        self.match = match
        self.seats = seats
        self.bots: dict[str, Bot] = {
            seat: make_bot(kind, bot_seed(match.seed, seat)) for seat, kind in seats.items() if kind != HUMAN
        }
        self._marks: dict[int, Checkpoint] = {}
        self.narrator = Narrator(self.is_human)
        self.recent: list[Told] = []
        """The moves told since a person last chose (that choice first): what the screen shows."""
        self._shadow: Match | None = None
        self._history: list[Told] = []
        self._history_narrator = Narrator(self.is_human)
        self._lock: FileLock | None = None

    # ---- one writer per save ----------------------------------------------------------------------

    @staticmethod
    def _take_lock(path: Path) -> FileLock:
        return lock_save(path)

    def close(self) -> None:
        """Release the save's lock (if this session took one); the session may still be read."""
        if self._lock is not None:
            self._lock.release()
            self._lock = None

    def __enter__(self) -> PlaySession:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # ---- creating and opening ---------------------------------------------------------------

    @classmethod
    def create(
        cls,
        path: str | os.PathLike[str],
        ruleset: str,
        *,
        options: dict[str, Any],
        seed: int,
        seats: str | None,
        force: bool = False,
        lock: bool = False,
    ) -> PlaySession:
        """Start a new game, write its save and seats file, and return the session.

        With ``lock`` the session holds the save's :class:`~grandstrategy.core.files.FileLock`
        until :meth:`close` (the command line always asks for it), so a new game is never
        written over a save that another process is playing, even with ``force``.

        :raises UserInputError: the file exists (without ``force``), its name is too long, it
            is locked by another process, a bad rule set, option or SEATS text.
        :raises SaveError: the files cannot be written.
        """
        target = Path(path)
        check_file_name(target)
        match = Match(load_ruleset(ruleset), seed=seed, options=options)
        state = match.state
        parsed = parse_seats(seats, list(state.seats()), groups=seat_groups(state), names=seat_names(state))
        if not target.parent.is_dir():
            raise UserInputError(f"{target}: cannot write: the folder {target.parent} does not exist")
        held = cls._take_lock(target) if lock else None
        try:
            if target.is_dir():
                raise UserInputError(f"{target} is a directory; --save needs a file name")
            if os.path.lexists(target) and not force:
                raise UserInputError(f"{target} already exists; choose another --save or add --force")
            session = cls(target, match, parsed)
            session._lock = held
            session.save()
            write_seats(target, parsed)
        except BaseException:
            if held is not None:
                held.release()
            raise
        return session

    @classmethod
    def open(
        cls, path: str | os.PathLike[str], *, seats: str | None = None, lock: bool = False
    ) -> PlaySession:
        """Load a save (replaying and checking its log) with its seats.

        ``seats`` (a SEATS text) replaces the stored seats and is stored; a save without a seats
        file and without ``seats`` gives every seat to a person (a hot-seat game). With ``lock``
        the session holds the save's :class:`~grandstrategy.core.files.FileLock` until
        :meth:`close`, taken before anything is read, and temporary files a killed writer left
        beside the save are removed.

        :raises SaveError: the save or its seats file is unreadable or does not replay.
        :raises UserInputError: a bad SEATS text; the save is locked by another process.
        """
        register_rulesets()
        held = cls._take_lock(Path(path)) if lock else None
        try:
            match = open_save(path)
            state = match.state
            names = list(state.seats())
            if seats is not None:
                parsed = parse_seats(seats, names, groups=seat_groups(state), names=seat_names(state))
                write_seats(path, parsed)
            else:
                parsed = read_seats(path, names) or dict.fromkeys(names, HUMAN)
        except BaseException:
            if held is not None:
                held.release()
            raise
        session = cls(path, match, parsed)
        session._lock = held
        return session

    # ---- state ----------------------------------------------------------------------------------

    def decision(self) -> DecisionPoint | None:
        """The open decision, or ``None`` when the game is over."""
        return self.match.decision()

    def is_over(self) -> bool:
        """Whether the game has ended."""
        return self.match.is_terminal()

    def is_human(self, seat: str) -> bool:
        """Whether a person plays ``seat``."""
        return self.seats.get(seat) == HUMAN

    def human_on_move(self) -> bool:
        """Whether a person must decide now."""
        decision = self.decision()
        return decision is not None and self.seats.get(decision.seat) == HUMAN

    def save(self, *, durable: bool = True) -> None:
        """Write the save atomically (the kernel format; loads with ``grandstrategy replay``).

        ``durable`` (the default, used for a person's choices) also flushes the file to the disk
        (the kernel's :func:`~grandstrategy.core.save.write_save`). After a bot's move the file is
        only swapped in atomically: a killed process still leaves a complete save, and only a
        power cut could lose the bots' last moves, which replaying the game would make again.

        :raises SaveError: the file cannot be written.
        """
        save = save_game(self.match)
        if durable:
            write_save(self.path, save)
            return
        directory = self.path.parent
        tmp_name: str | None = None
        try:
            fd, tmp_name = tempfile.mkstemp(prefix=f".{self.path.name}.", suffix=".tmp", dir=directory)
            mask = os.umask(0)
            os.umask(mask)
            os.chmod(tmp_name, 0o666 & ~mask)  # an ordinary file, as the kernel's writer makes
            with os.fdopen(fd, "wb") as handle:
                handle.write(save.dumps().encode("utf-8"))
            os.replace(tmp_name, self.path)
            tmp_name = None
        except OSError as error:
            raise SaveError(f"{self.path}: cannot write: {error.strerror or error}") from None
        finally:
            if tmp_name is not None:
                with contextlib.suppress(OSError):
                    os.unlink(tmp_name)

    # ---- moving ---------------------------------------------------------------------------------

    def bot_moves(self, limit: int | None = None) -> Iterator[Move]:
        """Let bots play until a person must decide or the game ends (at most ``limit`` moves).

        Saves after every move and yields it, so a caller can show the moves as they happen.
        """
        played = 0
        while limit is None or played < limit:
            decision = self.decision()
            if decision is None or self.seats.get(decision.seat) == HUMAN:
                if played:
                    self.save()  # durable before a person is asked, and at the end
                return
            bot = self.bots[decision.seat]
            action = bot.choose(self.match.state, decision, ply=self.match.log_length())
            before = self.match.state.clone()  # play changes the state in place
            start = self.match.log_length()
            self.match.play(decision.seat, action)
            self.save(durable=False)
            played += 1
            chances = entries_after(self.match, start)
            told = self.narrator.tell(before, self.match.state, decision.seat, str(action), chances)
            self.recent.append(told)
            yield Move(decision.seat, bot.kind, str(action), told)

    def play(self, choice: Action | str | int) -> Move:
        """Play a person's choice: an action, its notation, its option text or its number (1-based).

        :raises UserInputError: nobody human is on move, or the choice is not one of the legal
            ones (the state is unchanged).
        """
        decision = self.decision()
        if decision is None:
            raise UserInputError("the game is over")
        if self.seats.get(decision.seat) != HUMAN:
            raise UserInputError(f"it is {decision.seat}'s turn, and a bot plays {decision.seat}")
        action = self._resolve(decision, choice)
        mark = self.match.checkpoint()
        before = self.match.state.clone()  # play changes the state in place
        self.match.play(decision.seat, action)
        self._marks[mark.log_length] = mark
        self.save()
        chances = entries_after(self.match, mark.log_length)
        told = self.narrator.tell(before, self.match.state, decision.seat, str(action), chances)
        self.recent = [told]
        return Move(decision.seat, HUMAN, str(action), told)

    @staticmethod
    def _resolve(decision: DecisionPoint, choice: Action | str | int) -> Action | str:
        legal = decision.legal
        if isinstance(choice, int):
            if not 1 <= choice <= len(legal):
                raise UserInputError(f"choose a number from 1 to {len(legal)}, not {choice}")
            return legal[choice - 1]
        if isinstance(choice, str):
            text = " ".join(choice.split())
            for action in legal:
                option = getattr(action, "option", None)
                if text == str(action) or (isinstance(option, str) and text == option):
                    return action
            return text if ":" in text else f"{decision.seat}: {text}"
        return choice

    # ---- undo -------------------------------------------------------------------------------------

    def undo(self) -> str:
        """Take back the last choice a person made (and any bot moves after it); say what was undone.

        :raises UndoError: no person has chosen yet, or a chance event happened since that choice.
        """
        log = self.match.log
        index = _last_human_action(log, self.seats)
        if index is None:
            raise UndoError("nothing to undo: no choice of yours is in the log yet")
        entry = log[index]
        assert isinstance(entry, ActionEntry)
        since = [e for e in log[index + 1 :] if isinstance(e, ChanceEvent)]
        if since:
            spoken = tidy(describe(since[0]), names_for(self.match.state), capital=False)
            raise UndoError(
                f"cannot undo '{entry.seat}: {entry.action.partition(': ')[2] or entry.action}': "
                f"chance has spoken since ({spoken}); undo stops at dice and draws"
            )
        mark = self._marks.get(index)
        if mark is not None:
            self.match.rollback(mark)
        else:
            self.match = _replay_prefix(self.match, log[:index])
        for length in [k for k in self._marks if k >= index]:
            del self._marks[length]
        self.recent = []
        self.save()
        after = len(log) - index - 1
        return f"undone: {entry.action}" + (
            f" and {plurals(f'{after} bot move(s)')} after it" if after else ""
        )

    # ---- the story so far ------------------------------------------------------------------------

    def history(self) -> list[Told]:
        """Every move of the game told, from the start (bots' moves before your first turn too).

        The first call replays the log from the seed once (as loading does); later calls only
        tell the moves played since. After an undo the replay starts again.
        """
        log = self.match.log
        shadow = self._shadow
        if shadow is None or shadow.log != log[: len(shadow.log)]:
            shadow = Match(self.match.ruleset, seed=self.match.seed, options=self.match.options)
            self._shadow, self._history = shadow, []
            self._history_narrator = Narrator(self.is_human)
        return list(extend_history(shadow, log, self._history_narrator, self._history))

    # ---- the map ------------------------------------------------------------------------------------

    def map_path(self) -> Path:
        """Where ``map`` writes the SVG: beside the save, ``game.json`` -> ``game-map.svg``."""
        stem = self.path.name[: -len(self.path.suffix)] if self.path.suffix else self.path.name
        return self.path.with_name(f"{stem}-map.svg")

    def write_map(self) -> Path:
        """Draw the current position as SVG beside the save; return the path.

        :raises UserInputError: the rule set has no map, or the file cannot be written.
        """
        svg = render_position(self.match)
        target = self.map_path()
        try:
            atomic_write(target, svg.encode("utf-8"))
        except OSError as error:
            raise UserInputError(f"cannot write {target}: {error.strerror or error}") from None
        return target


def lock_save(path: str | os.PathLike[str]) -> FileLock:
    """Lock the save at ``path`` for this process, then remove temporary files a killed writer left.

    A command that may open and replace a save (``play --new``) takes this once for its whole run
    and opens the sessions without ``lock``.

    :raises UserInputError: another process has the save open.
    """
    lock = FileLock(path, what="save")
    for stale in (Path(path), seats_path(path)):
        remove_stale_temporaries(stale)
    return lock


def _last_human_action(log: tuple[LogEntry, ...], seats: dict[str, str]) -> int | None:
    for index in range(len(log) - 1, -1, -1):
        entry = log[index]
        if isinstance(entry, ActionEntry) and seats.get(entry.seat) == HUMAN:
            return index
    return None


def _replay_prefix(match: Match, entries: tuple[LogEntry, ...]) -> Match:
    """A new match with ``match``'s seed and options that has played exactly ``entries``.

    :raises SaveError: replaying does not reproduce the entries (it always should).
    """
    fresh = Match(match.ruleset, seed=match.seed, options=match.options)
    for entry in entries:
        if isinstance(entry, ActionEntry):
            fresh.play(entry.seat, entry.action)
    if fresh.log != entries:
        raise SaveError("undo: replaying the log did not reproduce the game (please report this)")
    return fresh


def render_position(match: Match) -> str:
    """The SVG map of the current position: the module's map with today's cubes and units.

    :raises UserInputError: the rule set draws no map.
    """
    game = as_cataclysm(match.state)
    if game is None:
        raise UserInputError(f"rule set {match.ruleset.name!r} has no map to draw")
    from grandstrategy.cataclysm.module.schema import Placement
    from grandstrategy.cataclysm.render_svg import render_map

    data, module = game.state, game.module
    scenario = module.scenarios[data.scenario]
    units = [
        Placement.model_construct(
            power=unit.power,
            type=unit.type,
            area=unit.area,
            count=1,
            coast=unit.coast,
            provenance="reconstructed",
        )
        for unit in data.units
    ]
    cubes = {area: dict(held) for area, held in data.cubes.items() if held}
    current = scenario.model_copy(
        update={"cubes": cubes, "units": units, "title": f"{scenario.title}, {data.turn} ({data.phase})"}
    )
    return render_map(module, current, maps=list(data.maps))
