"""The FastAPI application: the JSON API, the HTML pages and the static script.

Routes (docs/web.md): ``POST /api/games`` creates a game; ``GET /api/games/{id}`` is the
spectator's view; ``GET``/``POST /api/games/{id}/seats/{seat}[/moves]`` are a person's view and
moves, with the seat's token in the ``X-Seat-Token`` header, and ``.../undo`` takes back the seat's
last choice; ``GET /api/games/{id}/events`` is the live stream (server-sent events) a page keeps
open; ``GET /api/games/{id}/version`` is the game's version; ``GET /api/games/{id}/areas/{name}`` one
area's facts (JSON, or ``format=html`` for the page's side panel); ``GET /api/games/{id}/export`` is the
save file; ``GET /api/rules?q=...`` asks the rules assistant (with ``game=ID``, that game's open
decision is the question's context); ``POST /api/games/{id}/seats/{seat}/name`` sets the seat's
person's display name (with its token); ``GET /api/games?page=N`` is the game listing (unless
turned off). ``/`` has the form that creates a game, ``/games`` the listing, ``/g/{id}`` the
spectator's page and ``/g/{id}/{seat}?token=...`` a person's page (``&part=body``: only the part a
live page swaps in); a page of a game that is not (or no longer) here is a 404 page.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
from collections.abc import AsyncIterator, Callable
from datetime import datetime
from functools import lru_cache
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Form, Header, Query, Request
from fastapi.responses import HTMLResponse, JSONResponse, PlainTextResponse, Response, StreamingResponse
from fastapi.staticfiles import StaticFiles
from fastapi.templating import Jinja2Templates
from sqlalchemy.engine import Engine
from sqlalchemy.exc import SQLAlchemyError
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException as StarletteHTTPException

from grandstrategy.core.errors import UserInputError
from grandstrategy.play.games import load_ruleset, seat_groups, seat_names
from grandstrategy.play.seats import parse_seats
from grandstrategy.web.limits import CREATE_LIMIT, CREATE_WINDOW, BodyLimit, RateLimiter, parse_rate
from grandstrategy.web.live import TooManyWatchers
from grandstrategy.web.lobby import BadPage, list_games, page_number
from grandstrategy.web.names import MAX_PERSON_NAME, parse_names_text
from grandstrategy.web.service import MAX_OPTIONS_CHARS, GameService, WebError, utc_now

MAX_QUESTION_CHARS = 500
"""Longest rules question accepted (a player's question is a sentence or two)."""

MAX_BODY_BYTES = 16_384
"""Largest request body accepted (a move or a new game is a few hundred bytes)."""

KEEPALIVE_SECONDS = 15.0
"""A live stream sends a comment this often when nothing happens (proxies close silent
connections) and rereads the game's version then (a change stored by another process on SQLite)."""

RETRY_MS = 2000
"""How long a browser waits before reconnecting a live stream that broke."""

MAX_DEPTH = 16
"""Deepest nesting of arrays and objects accepted in a request body (options are shallow)."""

SWEEP_SECONDS = 3600.0
"""How often a server with expiry on removes the games past their age (also once at start-up)."""

HERE = Path(__file__).parent
LOG = logging.getLogger(__name__)

FORM_RULESETS = (
    ("cataclysm", "Cataclysm"),
    ("aa-revised", "Axis & Allies Revised"),
    ("aa-aarhe", "Axis & Allies Revised: Historical Edition"),
)
"""The rule sets the new-game form offers (the API takes any registered one)."""


@lru_cache(maxsize=1)
def form_choices() -> tuple[dict[str, Any], ...]:
    """What the new-game form lists for each rule set: its seats, its named groups of seats and
    its scenarios (so a person can fill in the seats and scenario without guessing names)."""
    from grandstrategy.core.session import Match

    choices = []
    for name, label in FORM_RULESETS:
        rules = load_ruleset(name)
        state = Match(rules, seed=0).state
        world = getattr(rules, "world", None)
        choices.append(
            {
                "name": name,
                "label": label,
                "seats": list(state.seats()),
                "groups": seat_groups(state),
                "scenarios": list(getattr(world, "scenarios", ()) or ()),
            }
        )
    return tuple(choices)


def _too_deep(value: object) -> bool:
    """Whether ``value`` nests arrays and objects more than :data:`MAX_DEPTH` deep (no recursion)."""
    level: list[object] = [value]
    for _ in range(MAX_DEPTH):
        level = [
            child
            for item in level
            for child in (item.values() if isinstance(item, dict) else item if isinstance(item, list) else ())
        ]
        if not level:
            return False
    return True


ENV_DB = "GRANDSTRATEGY_DB"
"""The environment variable naming the database of :func:`app_from_environment`."""
ENV_CREATE_LIMIT = "GRANDSTRATEGY_CREATE_LIMIT"
"""The environment variable with the game creation limit, ``COUNT/SECONDS`` per client address."""
ENV_MIGRATED = "GRANDSTRATEGY_MIGRATED"
"""Set to 1 by ``serve`` once it has migrated the database, so that workers only connect."""
ENV_LISTING = "GRANDSTRATEGY_LISTING"
"""0 turns the game listing off (``serve --no-listing``); anything else leaves it on."""
ENV_EXPIRE_DAYS = "GRANDSTRATEGY_EXPIRE_DAYS"
"""Days after which a finished or idle game is removed (``serve --expire-days``; 0: never)."""


def app_from_environment() -> FastAPI:
    """The app factory uvicorn's worker processes import by name (``serve --workers N``): each
    process builds its own app from the environment (``GRANDSTRATEGY_DB``, ``GRANDSTRATEGY_CREATE_LIMIT``)
    and keeps no game only in its memory (every move is in the database before it is answered)."""
    from grandstrategy.web.storage import DEFAULT_DB, open_database

    limit, window = parse_rate(os.environ.get(ENV_CREATE_LIMIT) or f"{CREATE_LIMIT}/{CREATE_WINDOW:g}")
    engine = open_database(os.environ.get(ENV_DB) or DEFAULT_DB, upgrade=os.environ.get(ENV_MIGRATED) != "1")
    expire = os.environ.get(ENV_EXPIRE_DAYS, "0")
    return create_app(
        engine,
        create_limit=RateLimiter(limit, window),
        listing=os.environ.get(ENV_LISTING) != "0",
        expire_days=int(expire) if expire.isdigit() else 0,
    )


def create_app(
    engine: Engine,
    *,
    create_limit: RateLimiter | None = None,
    listing: bool = True,
    expire_days: int = 0,
    now: Callable[[], datetime] = utc_now,
    sweep_seconds: float = SWEEP_SECONDS,
) -> FastAPI:
    """The web app over a database engine whose schema is up to date (see ``storage.open_database``);
    ``create_limit`` bounds the games one client address creates (default 20 per 10 minutes);
    ``listing`` serves the game listing; with ``expire_days`` above 0 the app removes the games
    finished or idle for longer at start-up and then every ``sweep_seconds``; ``now`` is the
    clock (tests hand in their own)."""
    service = GameService(engine, now=now)

    @contextlib.asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        sweeper = None
        if expire_days > 0:
            await _sweep(service, expire_days)
            sweeper = asyncio.create_task(_sweep_every(service, expire_days, sweep_seconds))
        try:
            yield
        finally:
            if sweeper is not None:
                sweeper.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await sweeper

    app = FastAPI(title="grandstrategy", docs_url=None, redoc_url=None, openapi_url=None, lifespan=lifespan)
    limiter = create_limit or RateLimiter(CREATE_LIMIT, CREATE_WINDOW)
    app.add_middleware(BodyLimit, limit=MAX_BODY_BYTES)
    app.state.service = service
    templates = Jinja2Templates(directory=str(HERE / "templates"))
    app.mount("/static", StaticFiles(directory=str(HERE / "static")), name="static")

    @app.middleware("http")
    async def limit_body(request: Request, call_next: Any) -> Response:
        length = request.headers.get("content-length")
        if length is not None and (not length.isdigit() or int(length) > MAX_BODY_BYTES):
            return JSONResponse({"detail": f"the request body is over {MAX_BODY_BYTES} bytes"}, 413)
        response: Response = await call_next(request)
        return response

    @app.exception_handler(WebError)
    async def web_error(_request: Request, error: WebError) -> JSONResponse:
        body: dict[str, Any] = {"detail": error.message}
        if error.state is not None:
            body["state"] = error.state
        return JSONResponse(body, error.status)

    @app.exception_handler(StarletteHTTPException)
    async def http_error(_request: Request, error: StarletteHTTPException) -> JSONResponse:
        return JSONResponse({"detail": str(error.detail)}, error.status_code)

    async def _json(request: Request) -> dict[str, Any]:
        body = await request.body()
        if len(body) > MAX_BODY_BYTES:
            raise WebError(413, f"the request body is over {MAX_BODY_BYTES} bytes")
        try:
            data = json.loads(body or b"null")
        except ValueError:
            raise WebError(400, "the request body is not valid JSON") from None
        except RecursionError:
            data = None  # nested past the parser's depth: refused just below
        if not isinstance(data, dict) or _too_deep(data):
            raise WebError(400, f"the request body must be a JSON object nested at most {MAX_DEPTH} deep")
        return data

    def _may_create(request: Request) -> None:
        """Count a game creation for the client's address, or refuse it with 429."""
        address = request.client.host if request.client else "unknown"
        wait = limiter.allow(address)
        if wait is not None:
            raise WebError(
                429,
                f"too many new games from {address}: at most {limiter.limit} per "
                f"{limiter.window:g} seconds; try again in {int(wait) + 1} seconds",
            )

    # ---- API ------------------------------------------------------------------------------------

    @app.post("/api/games", status_code=201)
    async def create_game(request: Request) -> dict[str, Any]:
        data = await _json(request)
        _may_create(request)
        options = data.get("options", {})
        created = service.create(data.get("ruleset"), options, data.get("seats"), data.get("names"))
        base = str(request.base_url).rstrip("/")
        return {
            "game_id": created.game_id,
            "dice_commitment": created.commitment,
            "seats": created.seats,
            "names": created.names,
            "tokens": created.tokens,
            "links": {
                seat: f"{base}/g/{created.game_id}/{seat}?token={token}"
                for seat, token in created.tokens.items()
            },
            "spectator": f"{base}/g/{created.game_id}",
        }

    def _listing(page: str) -> dict[str, Any]:
        """One page of the listing, or 404 when this server does not list its games."""
        if not listing:
            raise WebError(404, "this server does not list its games (it was started with --no-listing)")
        try:
            return list_games(engine, page_number(page[:16]))
        except BadPage as error:
            raise WebError(400, str(error)) from None

    @app.get("/api/games")
    def games_listing(page: str = "") -> dict[str, Any]:
        """The games on this server, newest activity first, :data:`~grandstrategy.web.lobby.PER_PAGE`
        to a page: public facts only (no token, no secret, nothing of any seat's view)."""
        return _listing(page)

    @app.get("/api/games/{game_id}")
    def spectate(game_id: str) -> dict[str, Any]:
        return service.state(game_id, None)

    @app.get("/api/games/{game_id}/version")
    def version(game_id: str) -> dict[str, Any]:
        return service.version(game_id)

    @app.get("/api/games/{game_id}/export")
    def export(game_id: str) -> PlainTextResponse:
        return PlainTextResponse(service.export(game_id), media_type="application/json")

    @app.get("/api/games/{game_id}/map.svg")
    def map_svg(game_id: str) -> Response:
        return Response(service.map_svg(game_id), media_type="image/svg+xml")

    @app.get("/api/games/{game_id}/areas/{name}")
    def area(
        request: Request,
        game_id: str,
        name: str,
        seat: str = "",
        token: str = "",
        fmt: str = Query("", alias="format"),
        x_seat_token: str | None = Header(None),
    ) -> Response:
        """One area's facts (the terminal's ``area NAME``) for a seat (``seat`` with its token in
        ``X-Seat-Token`` or ``token``) or a spectator: JSON, or with ``format=html`` the page's
        side panel (every text escaped by the template; an A&A territory's in ``territory.html``)."""
        found = service.area(game_id, name, seat or None, x_seat_token or token)
        if fmt == "html":
            template = "territory.html" if found.get("kind") == "territory" else "area.html"
            response = templates.TemplateResponse(request, template, {"area": found["area"]})
            response.headers["Cache-Control"] = "no-store"
            return response
        return JSONResponse(found)

    @app.get("/api/games/{game_id}/seats/{seat}")
    def seat_state(game_id: str, seat: str, x_seat_token: str | None = Header(None)) -> dict[str, Any]:
        return service.look(game_id, seat, x_seat_token)

    @app.post("/api/games/{game_id}/seats/{seat}/name")
    async def rename(
        game_id: str, seat: str, request: Request, x_seat_token: str | None = Header(None)
    ) -> dict[str, Any]:
        """Set the display name of the seat's person (``{"name": "..."}``; blank clears it)."""
        data = await _json(request)
        return await run_in_threadpool(service.rename, game_id, seat, x_seat_token, data.get("name"))

    @app.post("/api/games/{game_id}/seats/{seat}/undo")
    async def undo(
        game_id: str, seat: str, request: Request, x_seat_token: str | None = Header(None)
    ) -> dict[str, Any]:
        data = await _json(request)
        return await run_in_threadpool(service.undo, game_id, seat, x_seat_token, data.get("seen"))

    @app.get("/api/games/{game_id}/events")
    async def events(
        game_id: str, seat: str = "", token: str = "", x_seat_token: str | None = Header(None)
    ) -> StreamingResponse:
        """Server-sent events: ``version`` (the game's version, log length and whether it is over)
        at once and after every change, a comment as keep-alive. A seat's stream needs the seat's
        token (``token`` in the query, since EventSource sends no headers, or ``X-Seat-Token``)."""
        await run_in_threadpool(service.watch_check, game_id, seat or None, x_seat_token or token)
        try:
            watch = service.live.watch(game_id)
        except TooManyWatchers as error:
            raise WebError(503, str(error)) from None

        async def stream() -> AsyncIterator[str]:
            try:
                yield f"retry: {RETRY_MS}\n\n"
                last = None
                while True:
                    try:
                        current = await run_in_threadpool(service.version, game_id)
                    except WebError as error:  # the game was removed (expired) meanwhile
                        yield f"event: gone\ndata: {json.dumps({'detail': error.message})}\n\n"
                        return
                    if (current["version"], current["seats_tag"]) != last:
                        last = (current["version"], current["seats_tag"])
                        yield f"event: version\nid: {current['version']}\ndata: {json.dumps(current)}\n\n"
                    if not await watch.wait(KEEPALIVE_SECONDS):
                        yield ": keep-alive\n\n"
                    if watch.ended:
                        return
            finally:
                watch.close()

        headers = {"Cache-Control": "no-cache", "X-Accel-Buffering": "no"}
        return StreamingResponse(stream(), media_type="text/event-stream", headers=headers)

    @app.post("/api/games/{game_id}/seats/{seat}/moves")
    async def move(
        game_id: str, seat: str, request: Request, x_seat_token: str | None = Header(None)
    ) -> dict[str, Any]:
        data = await _json(request)
        return service.move(
            game_id, seat, x_seat_token, data.get("seen"), data.get("action"), data.get("move_id")
        )

    @app.get("/api/rules")
    def rules(q: str = "", game: str = "") -> dict[str, Any]:
        """The rules assistant's reply, the same library call as ``rules ask`` and the terminal's
        ``rules``: with ``game``, that game's open decision (public) ranks its rule first."""
        question = " ".join(q.split())
        if not question:
            raise WebError(400, "ask a question, e.g. ?q=how many armies fit in one area")
        if len(question) > MAX_QUESTION_CHARS:
            raise WebError(400, f"the question is over {MAX_QUESTION_CHARS} characters")
        context = service.rules_context(game[:64]) if game else None
        from grandstrategy.rulebook import ask

        reply: dict[str, Any] = ask(question, 3, context).to_json()
        return reply

    # ---- pages ----------------------------------------------------------------------------------

    def _form(request: Request, error: str | None, status: int = 200) -> Response:
        context = {
            "error": error,
            "rulesets": form_choices(),
            "listing": listing,
            "max_name": MAX_PERSON_NAME,
        }
        return templates.TemplateResponse(request, "new.html", context, status_code=status)

    @app.get("/", response_class=HTMLResponse)
    def home(request: Request) -> Response:
        return _form(request, None)

    @app.get("/games", response_class=HTMLResponse)
    def games_page(request: Request, page: str = "") -> Response:
        """The listing as a page (every text escaped by the template)."""
        try:
            found = _listing(page)
        except WebError as error:
            return _error_page(request, error)
        return templates.TemplateResponse(request, "games.html", {"listing": found})

    @app.post("/games", response_class=HTMLResponse)
    def new_game(
        request: Request,
        ruleset: str = Form(...),
        scenario: str = Form(""),
        seats: str = Form(...),
        names: str = Form(""),
    ) -> Response:
        options: dict[str, Any] = {"scenario": scenario.strip()} if scenario.strip() else {}
        try:
            _may_create(request)
            if len(seats) > MAX_OPTIONS_CHARS:
                raise WebError(400, "the seats text is too long")
            given = parse_names_text(names)
            rules = load_ruleset(ruleset[:64])
            from grandstrategy.core.session import Match

            state = Match(rules, seed=0, options=options).state
            kinds = parse_seats(seats, state.seats(), groups=seat_groups(state), names=seat_names(state))
            created = service.create(ruleset, options, kinds, given)
        except (WebError, UserInputError) as error:
            message = error.message if isinstance(error, WebError) else str(error)
            status = error.status if isinstance(error, WebError) else 400
            return _form(request, message, status)
        base = str(request.base_url).rstrip("/")
        return templates.TemplateResponse(request, "created.html", {"created": created, "base": base})

    def _error_page(request: Request, error: WebError) -> Response:
        """A page saying why (a missing game's page says that games expire, if they do here)."""
        context = {"status": error.status, "message": error.message, "expire_days": expire_days}
        response = templates.TemplateResponse(request, "error.html", context, status_code=error.status)
        response.headers["Cache-Control"] = "no-store"
        return response

    def _page(request: Request, state: dict[str, Any], token: str, part: str) -> Response:
        """The whole page, or with ``part=body`` only the part a live page swaps in."""
        template = "game_body.html" if part == "body" else "game.html"
        context = {"state": state, "token": token, "max_name": MAX_PERSON_NAME}
        response = templates.TemplateResponse(request, template, context)
        response.headers["Cache-Control"] = "no-store"
        return response

    @app.get("/g/{game_id}", response_class=HTMLResponse)
    def spectator_page(request: Request, game_id: str, part: str = "") -> Response:
        try:
            state = service.state(game_id, None, page=True)
        except WebError as error:
            return _error_page(request, error)
        return _page(request, state, "", part)

    @app.get("/g/{game_id}/{seat}", response_class=HTMLResponse)
    def seat_page(request: Request, game_id: str, seat: str, token: str = "", part: str = "") -> Response:
        try:
            state = service.look(game_id, seat, token, narrate=True, page=True)
        except WebError as error:
            return _error_page(request, error)
        return _page(request, state, token, part)

    return app


async def _sweep(service: GameService, days: int) -> None:
    """Remove the games past their age once, logging what went (a database error is logged and
    the server goes on: the next sweep tries again)."""
    try:
        removed = await run_in_threadpool(service.prune, days)
    except SQLAlchemyError as error:
        LOG.warning("expiry sweep failed: %s", str(error).splitlines()[0])
        return
    if removed:
        LOG.warning("expiry: removed %d game(s) finished or idle over %d days", len(removed), days)


async def _sweep_every(service: GameService, days: int, seconds: float) -> None:
    """Sweep every ``seconds`` until cancelled (the server stops)."""
    while True:
        await asyncio.sleep(seconds)
        await _sweep(service, days)
