"""Request limits: a rate limit on game creation per client address and a hard cap on body size.

The rate limiter lives in the memory of one server process: with ``--workers N`` (or several
hosts) each process counts on its own, so an address may create up to N times the limit per
window. That is enough to stop one client filling the database by accident or on purpose; a
limit shared by every process would need a table or a proxy in front (docs/web.md).
"""

from __future__ import annotations

import json
import threading
import time
from collections import OrderedDict, deque
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

CREATE_LIMIT = 20
"""Games one client address may create per window, by default (in one server process)."""
CREATE_WINDOW = 600.0
"""The rate limit's window in seconds (ten minutes)."""
TRACKED_ADDRESSES = 4096
"""Client addresses remembered at once (the oldest is forgotten first), so memory stays bounded."""


class RateLimiter:
    """At most ``limit`` events per ``window`` seconds per key (a sliding window), thread-safe."""

    def __init__(self, limit: int, window: float, clock: Callable[[], float] = time.monotonic) -> None:
        if limit < 1 or window <= 0:
            raise ValueError("a rate limit needs a positive count and window")
        self.limit = limit
        self.window = window
        self._clock = clock
        self._events: OrderedDict[str, deque[float]] = OrderedDict()
        self._guard = threading.Lock()

    def allow(self, key: str) -> float | None:
        """Count one event for ``key`` and return None, or, when over the limit, count nothing and
        return how many seconds until the next event would be allowed."""
        now = self._clock()
        with self._guard:
            events = self._events.setdefault(key, deque())
            self._events.move_to_end(key)
            while events and events[0] <= now - self.window:
                events.popleft()
            if len(events) >= self.limit:
                return max(0.0, events[0] + self.window - now)
            events.append(now)
            while len(self._events) > TRACKED_ADDRESSES:
                self._events.popitem(last=False)
            return None


def parse_rate(text: str) -> tuple[int, float]:
    """``"20/600"`` (count per seconds) as ``(20, 600.0)``; raises ValueError with a message."""
    count, _, seconds = text.partition("/")
    try:
        limit, window = int(count), float(seconds or CREATE_WINDOW)
    except ValueError:
        raise ValueError(f"{text!r} is not COUNT/SECONDS, e.g. 20/600") from None
    if limit < 1 or not 0 < window < 10**7:
        raise ValueError(f"{text!r}: the count and the seconds must be positive")
    return limit, window


class BodyLimit:
    """ASGI middleware: a request body over ``limit`` bytes gets 413 before the app sees it.

    The body is read (up to the limit) and handed on whole, so a chunked upload without a
    Content-Length header is bounded too, not only one that declares its size.
    """

    def __init__(self, app: ASGIApp, limit: int) -> None:
        self.app = app
        self.limit = limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        chunks: list[bytes] = []
        size = 0
        while True:
            message = await receive()
            if message["type"] != "http.request":  # the client left: let the app see it
                await self.app(scope, _replay([], message, receive), send)
                return
            body = message.get("body", b"")
            size += len(body)
            if size > self.limit:
                await _json_response(send, 413, f"the request body is over {self.limit} bytes")
                return
            chunks.append(body)
            if not message.get("more_body", False):
                break
        whole: Message = {"type": "http.request", "body": b"".join(chunks), "more_body": False}
        await self.app(scope, _replay([whole], None, receive), send)


def _replay(first: list[Message], extra: Message | None, receive: Receive) -> Receive:
    """A receive callable that gives ``first`` (and ``extra``) before the real ``receive``."""
    pending = [*first, *([extra] if extra is not None else [])]

    async def replayed() -> Message:
        if pending:
            return pending.pop(0)
        return await receive()

    return replayed


async def _json_response(send: Send, status: int, detail: str) -> None:
    body = json.dumps({"detail": detail}).encode("utf-8")
    headers = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})
