"""Several server processes on one PostgreSQL: games with people and bots, moves sent alternately
to two uvicorn processes (and raced at both at once): every game's log replays, no action is
stored twice or lost, and the bots moved exactly when it was their turn and as they choose."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import httpx
from sqlalchemy import select, update
from sqlalchemy.orm import Session

from grandstrategy.core.committed import CommittedRng
from grandstrategy.core.ids import Seat
from grandstrategy.core.session import Match
from grandstrategy.play.bots import bot_seed, make_bot
from grandstrategy.play.games import load_ruleset
from grandstrategy.play.seats import HUMAN
from grandstrategy.web.service import _rebuild
from grandstrategy.web.storage import ActionRow, GameRow, SeatRow, open_database

from .helpers import create_pig, free_port, move, seat_state, start_server


def check_stored_game(url: str, game_id: str, accepted: list[tuple[str, str, str]]) -> int:
    """The stored game replays (every chance outcome checked), its people's actions are exactly
    the moves the clients saw accepted (``(seat, action, move_id)``, in order, each once), and
    every bot action is the bot's own choice at that point, made as soon as it was the bot's turn."""
    engine = open_database(url, upgrade=False)
    try:
        with Session(engine) as session:
            game = session.get(GameRow, game_id)
            assert game is not None
            _rebuild(session, game)  # raises if a stored outcome or the log length disagrees
            kinds = {
                r.seat: r.kind for r in session.scalars(select(SeatRow).where(SeatRow.game_id == game_id))
            }
            rows = session.scalars(
                select(ActionRow).where(ActionRow.game_id == game_id).order_by(ActionRow.idx)
            )
            actions = list(rows)
            seed, secret = int(game.seed), bytes.fromhex(game.secret)
            options: Any = json.loads(game.options)
            log_length = game.log_length
    finally:
        engine.dispose()
    people = [(r.seat, r.action, r.move_id) for r in actions if kinds[r.seat] == HUMAN]
    assert people == accepted
    ids = [r.move_id for r in actions if r.move_id is not None]
    assert len(ids) == len(set(ids))
    match = Match(load_ruleset("pig"), seed=seed, options=options, rng=CommittedRng(secret))
    for row in actions:
        decision = match.decision()
        assert decision is not None and decision.seat == row.seat
        if kinds[row.seat] != HUMAN:
            bot = make_bot(kinds[row.seat], bot_seed(seed, row.seat))
            assert str(bot.choose(match.state, decision, ply=len(match.log))) == row.action
        match.play(Seat(row.seat), row.action)
    assert len(match.log) == log_length
    decision = match.decision()
    assert decision is None or kinds[decision.seat] == HUMAN  # no bot left waiting
    return sum(1 for row in actions if kinds[row.seat] != HUMAN)


def _race(
    clients: list[httpx.Client], game: dict[str, Any], seat: str, seen: int, action: str, ids: list[str]
) -> list[httpx.Response]:
    """The same move sent to both processes at once (with the given move ids)."""
    with ThreadPoolExecutor(2) as pool:
        futures = [
            pool.submit(move, c, game, seat, seen, action, i) for c, i in zip(clients, ids, strict=True)
        ]
        return [f.result() for f in futures]


def test_two_processes_on_postgresql_lose_and_double_no_move(pg_url: str) -> None:
    ports = [free_port(), free_port()]
    servers = [start_server(pg_url, ports[0])]
    servers.append(start_server(pg_url, ports[1]))
    try:
        clients = [httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=60) for port in ports]
        games = [
            create_pig(clients[0], {"north": "human", "south": "random"}, max_turns=6),
            create_pig(clients[1], {"north": "human", "south": "heuristic"}, max_turns=6),
            create_pig(clients[0], {"north": "human", "south": "human"}, max_turns=6),
        ]
        accepted: dict[str, list[tuple[str, str, str]]] = {g["game_id"]: [] for g in games}
        over = set()
        for n in range(400):
            for g, game in enumerate(games):
                gid = game["game_id"]
                if gid in over:
                    continue
                via = clients[(n + g) % 2]  # alternate the processes
                state = seat_state(via, game, next(iter(game["tokens"])))
                if state["over"]:
                    over.add(gid)
                    continue
                seat = state["to_act"]
                assert game["seats"][seat] == HUMAN  # a bot's turn is never left waiting
                action = "hold" if n % 3 == 2 else "roll"
                mid = f"{gid}-{n}"
                if n % 4 == 1:  # two different moves raced at both processes: one is played
                    results = _race(clients, game, seat, state["log_length"], action, [mid, mid + "x"])
                    codes = sorted(r.status_code for r in results)
                    assert codes == [200, 409], [r.text for r in results]
                    winner = next(i for i, r in enumerate(results) if r.status_code == 200)
                    accepted[gid].append((seat, action, [mid, mid + "x"][winner]))
                elif n % 4 == 3:  # the same move (one id) sent to both: played once
                    results = _race(clients, game, seat, state["log_length"], action, [mid, mid])
                    assert {r.status_code for r in results} <= {200, 409}
                    assert any(r.status_code == 200 and not r.json().get("repeated") for r in results)
                    accepted[gid].append((seat, action, mid))
                else:
                    response = move(via, game, seat, state["log_length"], action, mid)
                    assert response.status_code == 200, response.text
                    accepted[gid].append((seat, action, mid))
            if len(over) == len(games):
                break
        assert len(over) == len(games)
        bot_moves = [check_stored_game(pg_url, g["game_id"], accepted[g["game_id"]]) for g in games]
        assert bot_moves[0] > 0 and bot_moves[1] > 0 and bot_moves[2] == 0
        for client in clients:
            client.close()
    finally:
        for server in servers:
            server.kill()
            server.wait()


def test_a_bot_due_is_played_once_when_both_processes_notice_it(pg_url: str) -> None:
    ports = [free_port(), free_port()]
    servers = [start_server(pg_url, port) for port in ports]
    try:
        clients = [httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=60) for port in ports]
        game = create_pig(clients[0], {"north": "human", "south": "human"}, max_turns=4, target=1000)
        gid = game["game_id"]
        state = seat_state(clients[0], game, "north")
        bot_seat = state["to_act"]
        # The person on move leaves the game to a bot (as the database would show it after an
        # operator's change): nothing has moved yet, and both processes are asked at once.
        engine = open_database(pg_url, upgrade=False)
        with Session(engine) as session, session.begin():
            session.execute(
                update(SeatRow)
                .where(SeatRow.game_id == gid, SeatRow.seat == bot_seat)
                .values(kind="bot:random", token_hash=None)
            )
        engine.dispose()
        with ThreadPoolExecutor(6) as pool:
            views = list(pool.map(lambda i: clients[i % 2].get(f"/api/games/{gid}").json(), range(6)))
        person = "south" if bot_seat == "north" else "north"
        after = seat_state(clients[1], game, person)
        assert after["to_act"] in (person, None)  # the bot played its turn on a read
        assert after["log_length"] > state["log_length"]
        assert all(v["log_length"] in (state["log_length"], after["log_length"]) for v in views)
        assert check_stored_game(pg_url, gid, []) > 0  # the bot's own choices, each stored once
        for client in clients:
            client.close()
    finally:
        for server in servers:
            server.kill()
            server.wait()


def test_serve_workers_starts_several_processes_on_one_port(tmp_path: Path) -> None:
    """``serve --workers 2``: both processes answer (their ids differ) from one database."""
    port = free_port()
    db = f"sqlite:///{tmp_path / 'w.db'}"
    program = [
        sys.executable,
        "-m",
        "grandstrategy",
        "serve",
        "--db",
        db,
        "--port",
        str(port),
        "--workers",
        "2",
    ]
    server = subprocess.Popen(program, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=30) as client:
            for _ in range(600):
                try:
                    if client.get("/").status_code == 200:
                        break
                except httpx.TransportError:
                    assert server.poll() is None, server.stderr.read() if server.stderr else ""
                    time.sleep(0.1)  # wait for the workers to listen (no timing is asserted)
            made = client.post("/api/games", json={"ruleset": "cataclysm", "seats": {"germany": "human"}})
            assert made.status_code == 201, made.text
            assert client.get(f"/api/games/{made.json()['game_id']}/version").status_code == 200
        children = Path(f"/proc/{server.pid}/task/{server.pid}/children").read_text().split()
        assert len(children) >= 2  # the two workers of the supervisor (the process started)
    finally:
        server.terminate()
        server.wait(timeout=60)


def test_the_game_lock_keeps_a_second_process_from_playing_its_bots(pg_url: str) -> None:
    """While another connection holds a game's advisory lock, a process that notices a bot due
    leaves it alone (the holder is playing it); once the lock is free it plays the bot."""
    from sqlalchemy import text

    from grandstrategy.web.service import GameService, _lock_key

    engine = open_database(pg_url)
    service = GameService(engine)
    created = service.create("pig", {"max_turns": 4, "target": 1000}, {"north": "human", "south": "human"})
    gid = created.game_id
    to_act = service.state(gid, None)["to_act"]
    with Session(engine) as session, session.begin():
        session.execute(
            update(SeatRow).where(SeatRow.game_id == gid, SeatRow.seat == to_act).values(kind="bot:random")
        )
    before = service.version(gid)["log_length"]
    holder = engine.connect()
    try:
        holder.execute(text("SELECT pg_advisory_lock(:key)"), {"key": _lock_key(gid)})
        assert service.play_due_bots(gid) is False
        assert service.version(gid)["log_length"] == before  # left to the lock's holder
        holder.execute(text("SELECT pg_advisory_unlock(:key)"), {"key": _lock_key(gid)})
        holder.commit()
    finally:
        holder.close()
    assert service.play_due_bots(gid) is True
    assert service.version(gid)["log_length"] > before
    engine.dispose()
