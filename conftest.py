"""Real services for the tests that need them: PostgreSQL (initdb in a temporary directory, run
as the `postgres` user) and redis-server, each on loopback and a free port, stopped afterwards.

`scripts/test.sh` installs Debian's `postgresql` and `redis-server`; tests needing them are
marked `postgres` / `redis` and fail (not skip) if the service cannot start, because the
README's test command promises to run them all."""

from __future__ import annotations

import glob
import os
import shutil
import socket
import subprocess
import tempfile
import time

import pytest
from hypothesis import settings

# Property tests draw the same examples on every run by default, so the README's test command
# (and CI) gives the same verdict twice; HYPOTHESIS_PROFILE=explore draws fresh ones each run
# to hunt for new cases (a failure prints the blob that reproduces it).
settings.register_profile("repeatable", derandomize=True, database=None, print_blob=True)
settings.register_profile("explore", database=None, print_blob=True)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "repeatable"))


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _wait_port(port: int, seconds: float = 20.0) -> bool:
    deadline = time.time() + seconds
    while time.time() < deadline:
        with socket.socket() as s:
            if s.connect_ex(("127.0.0.1", port)) == 0:
                return True
        time.sleep(0.1)
    return False


def _pg_bin(name: str) -> str:
    found = sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{name}"))
    if not found:
        pytest.fail(f"PostgreSQL's {name} is not installed: run scripts/test.sh, which installs Debian's postgresql")
    return found[-1]


def _as_postgres(args: list[str], **kwargs):
    if os.geteuid() == 0:
        return ["runuser", "-u", "postgres", "--", *args]
    return args


class PostgresServer:
    def __init__(self):
        self.dir = tempfile.mkdtemp(prefix="delve-pg-")
        self.port = free_port()
        self.process = None

    def start(self):
        if os.geteuid() == 0:
            shutil.chown(self.dir, "postgres", "postgres")
        data = os.path.join(self.dir, "data")
        subprocess.run(
            _as_postgres([_pg_bin("initdb"), "-D", data, "-U", "postgres", "--auth=trust", "-E", "UTF8", "--no-sync"]),
            check=True,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.STDOUT,
        )
        self.process = subprocess.Popen(
            _as_postgres(
                [
                    _pg_bin("postgres"),
                    "-D",
                    data,
                    "-p",
                    str(self.port),
                    "-h",
                    "127.0.0.1",
                    "-k",
                    self.dir,
                    "-c",
                    "fsync=off",
                    "-c",
                    "max_connections=200",
                ]
            ),
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        if not _wait_port(self.port):
            pytest.fail("PostgreSQL did not start")
        time.sleep(0.3)
        return self

    def create_database(self, name: str) -> str:
        import psycopg

        with psycopg.connect(f"postgresql://postgres@127.0.0.1:{self.port}/postgres", autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{name}"')
        return f"postgresql+psycopg://postgres@127.0.0.1:{self.port}/{name}"

    def stop(self):
        if self.process:
            self.process.terminate()
            try:
                self.process.wait(15)
            except subprocess.TimeoutExpired:
                self.process.kill()
        shutil.rmtree(self.dir, ignore_errors=True)


class RedisServer:
    def __init__(self):
        self.port = free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.process = None

    def start(self):
        binary = shutil.which("redis-server")
        if not binary:
            pytest.fail("redis-server is not installed: run scripts/test.sh, which installs Debian's redis-server")
        self.process = subprocess.Popen(
            [binary, "--bind", "127.0.0.1", "--port", str(self.port), "--save", "", "--appendonly", "no"],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        if not _wait_port(self.port):
            pytest.fail("redis-server did not start")
        return self

    def stop(self):
        if self.process and self.process.poll() is None:
            self.process.terminate()
            self.process.wait(10)


@pytest.fixture(scope="session")
def postgres_server():
    server = PostgresServer().start()
    yield server
    server.stop()


@pytest.fixture
def postgres_url(postgres_server, request):
    """A fresh, empty PostgreSQL database for one test."""
    name = "t_" + "".join(ch if ch.isalnum() else "_" for ch in request.node.name.lower())[:40] + f"_{free_port()}"
    return postgres_server.create_database(name)


@pytest.fixture(scope="session")
def redis_server():
    server = RedisServer().start()
    yield server
    server.stop()
