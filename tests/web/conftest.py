"""Fixtures for the web app: a database per test, the toy rule set, a PostgreSQL cluster."""

from __future__ import annotations

import glob
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("fastapi")

from fastapi.testclient import TestClient

from core.toy_game import PIG
from grandstrategy.core.game import register_ruleset
from grandstrategy.web.app import create_app
from grandstrategy.web.storage import open_database

register_ruleset(PIG)


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    """A test client over a fresh SQLite file."""
    engine = open_database(f"sqlite:///{tmp_path / 'server.db'}")
    with TestClient(create_app(engine)) as test_client:
        yield test_client
    engine.dispose()


def _pg_bin() -> str | None:
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin"))
    if found:
        return found[-1]
    if os.geteuid() == 0 and shutil.which("apt-get"):
        subprocess.run(["apt-get", "install", "-y", "-q", "postgresql"], check=False, capture_output=True)
        found = sorted(glob.glob("/usr/lib/postgresql/*/bin"))
    return found[-1] if found else None


@pytest.fixture(scope="session")
def pg_url() -> Iterator[str]:
    """A throwaway PostgreSQL cluster (as the postgres user when the tests run as root)."""
    bin_dir = _pg_bin()
    if bin_dir is None:
        pytest.skip("PostgreSQL is not installed and cannot be installed here")

    def pg(*cmd: str) -> None:
        pre = ["runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else []
        subprocess.run([*pre, f"{bin_dir}/{cmd[0]}", *cmd[1:]], check=True, stdout=subprocess.DEVNULL)

    base = tempfile.mkdtemp(prefix="gs-pg-")
    data, sock = f"{base}/data", f"{base}/sock"
    os.mkdir(sock)
    if os.geteuid() == 0:
        user = pwd.getpwnam("postgres")
        for path in (base, sock):
            os.chown(path, user.pw_uid, user.pw_gid)
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    pg("initdb", "-D", data, "-U", "postgres", "-A", "trust", "--no-sync", "-E", "UTF8", "--locale=C")
    pg(
        "pg_ctl", "-D", data, "-l", f"{base}/log", "-w", "-o",
        f"-p {port} -k {sock} -c listen_addresses=127.0.0.1 -c fsync=off", "start",
    )  # fmt: skip
    try:
        yield f"postgresql://postgres@127.0.0.1:{port}/postgres"
    finally:
        pg("pg_ctl", "-D", data, "-m", "fast", "-w", "stop")
        shutil.rmtree(base, ignore_errors=True)
