"""A clock the web tests set by hand (the service's ``now``), and an app over it."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime, timedelta
from typing import Any

from fastapi.testclient import TestClient
from sqlalchemy.engine import Engine

from grandstrategy.web.app import create_app
from grandstrategy.web.limits import RateLimiter

START = datetime(2031, 5, 6, 7, 8, 9, tzinfo=UTC)
"""Where the tests' clocks start (any fixed moment would do)."""


class Clock:
    """The time of day as the test says it is: moves only when told."""

    def __init__(self, start: datetime = START) -> None:
        self.moment = start

    def __call__(self) -> datetime:
        return self.moment

    def advance(self, **delta: float) -> datetime:
        """Move on by ``timedelta(**delta)``; the new moment."""
        self.moment += timedelta(**delta)
        return self.moment


@contextmanager
def clocked_client(engine: Engine, clock: Clock, **options: Any) -> Iterator[TestClient]:
    """A test client over ``engine`` whose service reads ``clock`` (and creates games without limit)."""
    app = create_app(engine, now=clock, create_limit=RateLimiter(10_000, 60), **options)
    with TestClient(app) as client:
        yield client
