"""Live updates: who is watching which game in this process, and how they learn of a change.

A page keeps one server-sent events stream open per game (``GET /api/games/{id}/events``); the
stream waits on a :class:`Watch` and, when woken, reads the game's version and sends it if it
changed. What wakes the watches is a :class:`Notifier`:

- :class:`LocalNotifier` (SQLite): the transaction that stores a move schedules a wake-up of this
  process's watches after it commits, so nothing is announced for a move that was rolled back.
- :class:`PostgresNotifier`: the transaction that stores a move also issues ``NOTIFY`` (PostgreSQL
  delivers it only if that transaction commits), and each process keeps one connection that
  ``LISTEN``s and wakes its own watches, so a move stored by any server process reaches the
  streams held by every other one. After (re)connecting, the listener wakes every watch, since
  notifications sent while it was away are lost.

Watches are created and woken on the event loop's thread only; other threads (the synchronous
routes that store moves) hand wake-ups over with ``call_soon_threadsafe``. A stream also rereads
the version at every keep-alive, which covers several processes on one SQLite file.

A stream never ends by itself, and uvicorn waits for open responses before it stops; so the
first watch in a server's main thread also chains a handler onto SIGINT and SIGTERM that ends
every stream (the browsers reconnect to whatever serves next) before uvicorn's own handler runs.
"""

from __future__ import annotations

import asyncio
import contextlib
import signal
import threading
from abc import ABC, abstractmethod
from types import FrameType
from typing import Any

from sqlalchemy import event, func, select
from sqlalchemy.engine import Engine
from sqlalchemy.orm import Session

CHANNEL = "grandstrategy_games"
"""The PostgreSQL notification channel; the payload is the game id."""
MAX_WATCHES_PER_GAME = 64
"""Open streams one process serves for one game (a game has a handful of seats and spectators)."""
MAX_WATCHES = 2000
"""Open streams one process serves in all."""
RECONNECT_SECONDS = 1.0
"""Wait before the PostgreSQL listener connects again after losing its connection."""


class TooManyWatchers(Exception):
    """This process already serves as many live streams as it allows (for the game or in all)."""


class Watch:
    """One open stream's wake-up flag for one game."""

    def __init__(self, hub: Notifier, game_id: str) -> None:
        self.hub = hub
        self.game_id = game_id
        self._flag = asyncio.Event()

    def wake(self) -> None:
        """Mark that the game may have changed (on the loop's thread)."""
        self._flag.set()

    async def wait(self, timeout: float) -> bool:
        """Wait until woken or ``timeout`` seconds pass; True when woken (the flag is then reset)."""
        try:
            await asyncio.wait_for(self._flag.wait(), timeout)
        except TimeoutError:
            return False
        self._flag.clear()
        return True

    @property
    def ended(self) -> bool:
        """Whether the server is stopping: the stream should end now."""
        return self.hub.stopping

    def close(self) -> None:
        """Stop watching (the stream ended or its client went away)."""
        self.hub.forget(self)


class Notifier(ABC):
    """The watches of this process and how a stored change reaches them."""

    def __init__(self) -> None:
        self._games: dict[str, set[Watch]] = {}
        self._count = 0
        self._loop: asyncio.AbstractEventLoop | None = None
        self.stopping = False
        self._hooked = False

    # ---- watching (on the event loop) ---------------------------------------------------------------

    def watch(self, game_id: str) -> Watch:
        """A new watch on ``game_id`` (call from the event loop).

        :raises TooManyWatchers: the game or the process has as many open streams as allowed.
        """
        self._loop = asyncio.get_running_loop()
        if self.stopping:
            raise TooManyWatchers("the server is stopping; the page will reconnect")
        self._end_on_signals()
        watches = self._games.get(game_id, set())
        if len(watches) >= MAX_WATCHES_PER_GAME:
            raise TooManyWatchers(f"this game already has {MAX_WATCHES_PER_GAME} live pages open here")
        if self._count >= MAX_WATCHES:
            raise TooManyWatchers("the server has too many live pages open; try again in a moment")
        self.started()
        created = Watch(self, game_id)
        self._games.setdefault(game_id, set()).add(created)
        self._count += 1
        return created

    def forget(self, watch: Watch) -> None:
        """Remove a watch (idempotent)."""
        watches = self._games.get(watch.game_id)
        if watches is not None and watch in watches:
            watches.discard(watch)
            self._count -= 1
            if not watches:
                del self._games[watch.game_id]

    def watching(self, game_id: str) -> int:
        """How many streams of this process watch ``game_id``."""
        return len(self._games.get(game_id, ()))

    def wake(self, game_id: str) -> None:
        """Wake every watch on ``game_id`` (on the loop's thread)."""
        for watch in tuple(self._games.get(game_id, ())):
            watch.wake()

    def wake_all(self) -> None:
        """Wake every watch (after a gap in which notifications may have been lost)."""
        for game_id in tuple(self._games):
            self.wake(game_id)

    def wake_from_any_thread(self, game_id: str) -> None:
        """Wake the watches on ``game_id`` from any thread (a no-op before anyone watched)."""
        loop = self._loop
        if loop is None or loop.is_closed():
            return
        with contextlib.suppress(RuntimeError):  # the loop is shutting down
            loop.call_soon_threadsafe(self.wake, game_id)

    def stop(self) -> None:
        """End every stream (on the loop's thread): the server is stopping."""
        self.stopping = True
        self.wake_all()

    def _end_on_signals(self) -> None:
        """Chain :meth:`stop` before the handlers of SIGINT and SIGTERM the server installed (once;
        only in the main thread, where signal handlers live)."""
        if self._hooked or threading.current_thread() is not threading.main_thread():
            return
        self._hooked = True
        loop = asyncio.get_running_loop()
        for number in (signal.SIGINT, signal.SIGTERM):
            previous = signal.getsignal(number)
            if not callable(previous):
                continue  # the default action or ignored: nobody stops gracefully on it

            def handler(signum: int, frame: FrameType | None, previous: Any = previous) -> None:
                with contextlib.suppress(RuntimeError):  # the loop is already closed
                    loop.call_soon_threadsafe(self.stop)
                previous(signum, frame)

            signal.signal(number, handler)

    def started(self) -> None:
        """Hook run on the loop at each new watch (the PostgreSQL listener starts here once)."""
        return None

    # ---- announcing (inside the storing transaction) -------------------------------------------------

    @abstractmethod
    def announce(self, session: Session, game_id: str) -> None:
        """Arrange that watchers of ``game_id`` learn of the change ``session`` is about to commit
        (and hear nothing if it rolls back)."""

    async def close(self) -> None:
        """Release what the notifier holds (the listening connection)."""
        return None


class LocalNotifier(Notifier):
    """Wake-ups within this process only (SQLite, or a single server process)."""

    def announce(self, session: Session, game_id: str) -> None:
        def committed(_session: Session) -> None:
            self.wake_from_any_thread(game_id)

        event.listen(session, "after_commit", committed, once=True)


class PostgresNotifier(Notifier):
    """``NOTIFY`` in the storing transaction; one ``LISTEN`` connection per process."""

    def __init__(self, dsn: str) -> None:
        super().__init__()
        self.dsn = dsn
        self._task: asyncio.Task[None] | None = None

    def announce(self, session: Session, game_id: str) -> None:
        session.execute(select(func.pg_notify(CHANNEL, game_id)))

    def started(self) -> None:
        loop = asyncio.get_running_loop()
        if self._task is None or self._task.done() or self._task.get_loop() is not loop:
            self._task = loop.create_task(self._listen())

    async def _listen(self) -> None:
        """Listen for the channel until cancelled, reconnecting after a lost connection."""
        import psycopg

        while True:
            try:
                connection = await psycopg.AsyncConnection.connect(self.dsn, autocommit=True)
                async with connection:
                    await connection.execute(f"LISTEN {CHANNEL}")
                    self.wake_all()  # anything sent before this connection listened is lost
                    async for note in connection.notifies():
                        self.wake(note.payload)
            except (psycopg.Error, OSError):
                await asyncio.sleep(RECONNECT_SECONDS)

    async def close(self) -> None:
        task, self._task = self._task, None
        if task is not None:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task


def notifier_for(engine: Engine) -> Notifier:
    """The notifier that fits the database: LISTEN/NOTIFY on PostgreSQL, in-process otherwise."""
    if engine.dialect.name == "postgresql":
        url: Any = engine.url.set(drivername="postgresql")
        return PostgresNotifier(url.render_as_string(hide_password=False))
    return LocalNotifier()
