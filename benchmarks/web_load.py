"""Load on the web server (issue 17): many concurrent games and clients on loopback, bounded in time.

    .venv/bin/python benchmarks/web_load.py --seconds 120                      # 1 process, SQLite
    .venv/bin/python benchmarks/web_load.py --seconds 120 --processes 2 --pg   # 2 processes, PostgreSQL

Starts the server processes itself (``run_server`` in a subprocess each, on its own port, as two
hosts behind a proxy would be; the toy Pig rule set of ``tests/core/toy_game.py`` registered), a
throwaway PostgreSQL cluster with ``--pg`` (``initdb``/``pg_ctl``, as the tests' fixture does), then
runs ``--games`` games (``--cataclysm`` of them Cataclysm 1933 campaigns with two people and bots,
the others Pig: half between two people, half a person against a bot) with ``--clients`` clients
in all: one per person's seat, the rest spectators; like the game page, every client polls the game's
version about once a second and reads its state when it changed. Each client talks to the server
processes in turn. People think 0.1-0.5 s, then move; bots play on the server in the same request.

Reported: move latency p50/p95 (client side, per rule set), people's moves and all actions (bots
included) per second, 409s, errors, lost and duplicated moves (every game's stored log, read back
through its export, against the moves the clients saw accepted: each accepted move must sit at the
log index it was played on, and every person's action stored must be one a client saw accepted),
and each server process's resident memory (now and peak, from /proc).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import glob
import json
import os
import platform
import pwd
import random
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx

ROOT = Path(__file__).resolve().parents[1]
SERVER = """
import sys
sys.path.insert(0, {tests!r})
from core.toy_game import PIG
from grandstrategy.core.game import register_ruleset
from grandstrategy.web.cli import run_server
register_ruleset(PIG)
run_server({db!r}, "127.0.0.1", {port}, create_limit="100000/60")
"""
ENDLESS_PIG: dict[str, Any] = {"target": 10**6, "max_turns": 10**6}


def free_port() -> int:
    """A TCP port free on this machine now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


@contextlib.contextmanager
def postgres() -> Iterator[str]:
    """A throwaway PostgreSQL cluster in a temporary directory (as the postgres user under root)."""
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin"))
    if not found:
        sys.exit("PostgreSQL is not installed (apt-get install postgresql)")
    bin_dir = found[-1]

    def pg(*cmd: str) -> None:
        pre = ["runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else []
        subprocess.run([*pre, f"{bin_dir}/{cmd[0]}", *cmd[1:]], check=True, stdout=subprocess.DEVNULL)

    base = tempfile.mkdtemp(prefix="gs-bench-pg-")
    data, sock = f"{base}/data", f"{base}/sock"
    os.mkdir(sock)
    if os.geteuid() == 0:
        user = pwd.getpwnam("postgres")
        for path in (base, sock):
            os.chown(path, user.pw_uid, user.pw_gid)
    port = free_port()
    pg("initdb", "-D", data, "-U", "postgres", "-A", "trust", "--no-sync", "-E", "UTF8", "--locale=C")
    options = f"-p {port} -k {sock} -c listen_addresses=127.0.0.1 -c max_connections=200"
    pg("pg_ctl", "-D", data, "-l", f"{base}/log", "-w", "-o", options, "start")
    try:
        yield f"postgresql://postgres@127.0.0.1:{port}/postgres"
    finally:
        pg("pg_ctl", "-D", data, "-m", "fast", "-w", "stop")
        shutil.rmtree(base, ignore_errors=True)


def start_server(db: str, port: int) -> subprocess.Popen[bytes]:
    """One server process, returned once it accepts connections."""
    code = SERVER.format(tests=str(ROOT / "tests"), db=db, port=port)
    process = subprocess.Popen(
        [sys.executable, "-c", code], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
    )
    for _ in range(600):
        try:
            socket.create_connection(("127.0.0.1", port), 0.2).close()
            return process
        except OSError:
            if process.poll() is not None:
                sys.exit(process.stderr.read().decode() if process.stderr else "the server died")
            time.sleep(0.05)
    process.kill()
    sys.exit("the server did not start")


def cpu_seconds(pid: int) -> float:
    """A process's CPU time so far (user and system), from /proc: how much of the machine it got."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text(encoding="ascii").rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def memory_kib(pid: int) -> tuple[int, int]:
    """A process's resident memory now and its peak (KiB), from /proc."""
    values = {"VmRSS": 0, "VmHWM": 0}
    with contextlib.suppress(OSError), open(f"/proc/{pid}/status", encoding="ascii") as status:
        for line in status:
            key, _, rest = line.partition(":")
            if key in values:
                values[key] = int(rest.split()[0])
    return values["VmRSS"], values["VmHWM"]


@dataclass
class Game:
    """A game under load: what the clients saw accepted, by log index."""

    created: dict[str, Any]
    ruleset: str
    accepted: dict[int, tuple[str, str]] = field(default_factory=dict)
    accepted_twice: int = 0


@dataclass
class Tally:
    """What the clients measured."""

    latency: dict[str, list[float]] = field(default_factory=lambda: {"pig": [], "cataclysm": []})
    conflicts: int = 0
    errors: list[str] = field(default_factory=list)
    reads: int = 0


async def send_move(
    client: httpx.AsyncClient, url: str, headers: dict[str, str], body: dict[str, Any]
) -> httpx.Response:
    """Post a move; when the connection fails (a keep-alive connection closed under it), send the
    same body again, as the page would: its move id makes a second delivery harmless."""
    for attempt in range(3):
        try:
            return await client.post(url, headers=headers, json=body)
        except httpx.TransportError:
            if attempt == 2:
                raise
    raise AssertionError("unreachable")


async def player(bases: list[str], game: Game, seat: str, seed: int, stop: float, tally: Tally) -> None:
    """One person, as the page behaves: read the seat's state, and while it is not their turn poll
    the game's version about once a second, reading the state again when it changed; on their turn
    think 0.1-0.5 s and move (a seeded choice); the move's answer is the next state."""
    rng = random.Random(seed)
    token = game.created["tokens"][seat]
    gid = game.created["game_id"]
    headers = {"X-Seat-Token": token}
    turn = 0
    state: dict[str, Any] | None = None
    async with httpx.AsyncClient(timeout=120) as client:
        while time.monotonic() < stop:
            base = bases[turn % len(bases)]
            turn += 1
            try:
                if state is None:
                    state = (await client.get(f"{base}/api/games/{gid}/seats/{seat}", headers=headers)).json()
                    tally.reads += 1
                if state.get("over"):
                    return
                if state.get("to_act") != seat or not state.get("decision"):
                    await asyncio.sleep(rng.uniform(0.7, 1.3))
                    version = (await client.get(f"{base}/api/games/{gid}/version")).json()
                    tally.reads += 1
                    if version["log_length"] != state["log_length"]:
                        state = None
                    continue
                await asyncio.sleep(rng.uniform(0.1, 0.5))
                choices = [c["action"] for c in state["decision"]["choices"]]
                if game.ruleset == "pig":
                    action = "hold" if "hold" in choices and rng.random() < 0.35 else choices[0]
                else:
                    action = rng.choice(choices)
                move_id = f"{gid}-{seat}-{turn}"
                body = {"seen": state["version"], "action": action, "move_id": move_id}
                started = time.perf_counter()
                response = await send_move(
                    client, f"{base}/api/games/{gid}/seats/{seat}/moves", headers, body
                )
                elapsed = time.perf_counter() - started
                if response.status_code == 200:
                    tally.latency[game.ruleset].append(elapsed)
                    if response.json().get("repeated"):
                        game.accepted_twice += 1
                    game.accepted[state["log_length"]] = (seat, action)
                    state = response.json()
                elif response.status_code == 409:
                    tally.conflicts += 1
                    state = response.json().get("state")
                else:
                    tally.errors.append(f"{response.status_code} {response.text[:200]}")
                    state = None
            except httpx.HTTPError as error:
                tally.errors.append(f"{type(error).__name__}: {error}")
                state = None
                await asyncio.sleep(0.5)


async def spectator(bases: list[str], game: Game, seed: int, stop: float, tally: Tally) -> None:
    """A watcher: poll the game's version about once a second and read the state when it changed."""
    rng = random.Random(seed)
    gid = game.created["game_id"]
    seen = -1
    n = 0
    async with httpx.AsyncClient(timeout=120) as client:
        while time.monotonic() < stop:
            base = bases[n % len(bases)]
            n += 1
            try:
                version = (await client.get(f"{base}/api/games/{gid}/version")).json()
                tally.reads += 1
                if version["log_length"] != seen:
                    seen = version["log_length"]
                    await client.get(f"{base}/api/games/{gid}")
                    tally.reads += 1
            except httpx.HTTPError as error:
                tally.errors.append(f"{type(error).__name__}: {error}")
            await asyncio.sleep(rng.uniform(0.7, 1.3))


def audit(game: Game, export: dict[str, Any]) -> tuple[int, int]:
    """Lost and duplicated moves of one game: accepted moves missing from the stored log at their
    index, and people's actions stored that no client saw accepted."""
    log = export["log"]
    people = {seat for seat, kind in game.created["seats"].items() if kind == "human"}
    lost = sum(
        1
        for idx, (seat, action) in game.accepted.items()
        if idx >= len(log) or log[idx] != {"type": "action", "seat": seat, "action": action}
    )
    duplicated = sum(
        1
        for idx, entry in enumerate(log)
        if entry.get("type") == "action" and entry["seat"] in people and idx not in game.accepted
    )
    return lost, duplicated


def percentile(values: list[float], fraction: float) -> float:
    """The ``fraction`` quantile of ``values`` (milliseconds), 0 when empty."""
    if not values:
        return 0.0
    ordered = sorted(values)
    return 1000 * ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


async def run(args: argparse.Namespace, bases: list[str]) -> dict[str, Any]:
    """Create the games, run the clients until the time is up, audit every game."""
    tally = Tally()
    games: list[Game] = []
    async with httpx.AsyncClient(timeout=120) as client:
        for n in range(args.games):
            base = bases[n % len(bases)]
            if n < args.cataclysm:
                body: dict[str, Any] = {
                    "ruleset": "cataclysm",
                    "options": {"scenario": "campaign-1933"},
                    "seats": {"germany": "human", "france": "human"},
                }
            elif n % 2:
                body = {
                    "ruleset": "pig",
                    "options": ENDLESS_PIG,
                    "seats": {"north": "human", "south": "human"},
                }
            else:
                body = {
                    "ruleset": "pig",
                    "options": ENDLESS_PIG,
                    "seats": {"north": "human", "south": "heuristic"},
                }
            made = await client.post(f"{base}/api/games", json=body)
            made.raise_for_status()
            games.append(Game(made.json(), body["ruleset"]))
    async with httpx.AsyncClient(timeout=300) as client:
        before = 0
        for game in games:
            export = (await client.get(f"{bases[0]}/api/games/{game.created['game_id']}/export")).json()
            before += sum(1 for entry in export["log"] if entry.get("type") == "action")
    people = [(game, seat) for game in games for seat in game.created["tokens"]]
    watchers = max(0, args.clients - len(people))
    started = time.monotonic()
    stop = started + args.seconds
    tasks = [player(bases, game, seat, i, stop, tally) for i, (game, seat) in enumerate(people)]
    tasks += [spectator(bases, games[i % len(games)], 10_000 + i, stop, tally) for i in range(watchers)]
    await asyncio.gather(*tasks)
    duration = time.monotonic() - started
    lost = duplicated = 0
    stored_actions = -before  # the actions played during the run (bots' opening moves not counted)
    async with httpx.AsyncClient(timeout=300) as client:
        for game in games:
            export = (await client.get(f"{bases[0]}/api/games/{game.created['game_id']}/export")).json()
            game_lost, game_duplicated = audit(game, export)
            lost += game_lost
            duplicated += game_duplicated
            stored_actions += sum(1 for entry in export["log"] if entry.get("type") == "action")
    accepted = sum(len(game.accepted) for game in games)
    every = tally.latency["pig"] + tally.latency["cataclysm"]
    return {
        "games": len(games),
        "cataclysm_games": args.cataclysm,
        "clients": len(people) + watchers,
        "people": len(people),
        "seconds": round(duration, 1),
        "moves_accepted": accepted,
        "moves_per_second": round(accepted / duration, 2),
        "actions_stored": stored_actions,
        "actions_per_second_with_bots": round(stored_actions / duration, 2),
        "latency_ms": {
            name: {
                "n": len(values),
                "p50": round(percentile(values, 0.5), 1),
                "p95": round(percentile(values, 0.95), 1),
            }
            for name, values in {**tally.latency, "all": every}.items()
        },
        "mean_ms": round(1000 * statistics.fmean(every), 1) if every else 0.0,
        "conflicts_409": tally.conflicts,
        "reads": tally.reads,
        "errors": len(tally.errors),
        "first_errors": tally.errors[:5],
        "lost_moves": lost,
        "duplicated_moves": duplicated,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--seconds", type=float, default=120.0, help="how long the clients play (default 120)"
    )
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--clients", type=int, default=200)
    parser.add_argument("--cataclysm", type=int, default=10, help="how many of the games are Cataclysm")
    parser.add_argument("--processes", type=int, default=1, help="server processes (each on its own port)")
    parser.add_argument("--pg", action="store_true", help="a throwaway PostgreSQL cluster instead of SQLite")
    parser.add_argument("--json", type=Path, default=None, help="also write the results here")
    args = parser.parse_args()
    with contextlib.ExitStack() as stack:
        if args.pg:
            db = stack.enter_context(postgres())
        else:
            folder = stack.enter_context(tempfile.TemporaryDirectory(prefix="gs-bench-"))
            db = f"sqlite:///{folder}/server.db"
        ports = [free_port() for _ in range(args.processes)]
        servers = []
        for port in ports:
            servers.append(start_server(db, port))
        try:
            cpu_before = [cpu_seconds(server.pid) for server in servers]
            load_before = os.getloadavg()[0]
            results = asyncio.run(run(args, [f"http://127.0.0.1:{port}" for port in ports]))
            memory = [memory_kib(server.pid) for server in servers]
            cpu_used = [cpu_seconds(s.pid) - before for s, before in zip(servers, cpu_before, strict=True)]
            load_after = os.getloadavg()[0]
        finally:
            for server in servers:
                server.terminate()
                server.wait(timeout=60)
    cpu = next(
        (
            line.split(":", 1)[1].strip()
            for line in Path("/proc/cpuinfo").read_text().splitlines()
            if "model name" in line
        ),
        platform.processor(),
    )
    results.update(
        {
            "database": "postgresql" if args.pg else "sqlite",
            "processes": args.processes,
            "server_rss_mib": [round(now / 1024, 1) for now, _ in memory],
            "server_peak_rss_mib": [round(peak / 1024, 1) for _, peak in memory],
            "server_cpu_seconds": [round(used, 1) for used in cpu_used],
            "load_average_1min": [round(load_before, 1), round(load_after, 1)],
            "machine": f"{os.cpu_count()} CPUs, {cpu}, Python {platform.python_version()}",
            "date": time.strftime("%Y-%m-%d", time.gmtime()),
        }
    )
    text = json.dumps(results, indent=1)
    print(text)
    if args.json is not None:
        args.json.write_text(text + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
