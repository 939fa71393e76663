"""Fixtures for the operations proofs: gunicorn processes on real PostgreSQL/SQLite and Redis,
always stopped afterwards, and players (requests + python-socketio) that are always closed."""

from __future__ import annotations

import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

# cluster.py is shared with benchmarks/load.py; tests import it as a plain module.
sys.path.insert(0, str(Path(__file__).resolve().parent))

from cluster import Player, Server  # noqa: E402


@pytest.fixture
def servers(tmp_path):
    """``servers(database_url, redis_url=None, count=1, **options)`` starts that many gunicorn
    processes on one database (and one Redis); all are stopped when the test ends."""
    started: list[Server] = []

    def make(database_url: str, redis_url: str | None = None, count: int = 1, **options) -> list[Server]:
        batch = []
        for _index in range(count):
            server = Server(
                tmp_path / f"s{len(started)}",
                database_url=database_url,
                redis_url=redis_url,
                name=f"server{len(started)}",
                **options,
            )
            started.append(server)
            batch.append(server)
        # Side by side, as a deploy starts them: the migrations serialise themselves.
        with ThreadPoolExecutor(max_workers=4) as pool:
            list(pool.map(Server.start, batch))
        return batch

    make.started = started  # a test may add a server it started itself, to be stopped too
    yield make
    # No graceful drain needed here (tests that want one call stop() themselves): kill at once.
    with ThreadPoolExecutor(max_workers=4) as pool:
        list(pool.map(Server.kill, started))


@pytest.fixture
def players():
    """``players(base_url, name)`` makes a Player; every session and socket is closed at the end."""
    made: list[Player] = []

    def make(base_url: str, name: str = "Ann") -> Player:
        player = Player(base_url, name)
        made.append(player)
        return player

    yield make
    for player in made:
        player.close()


@pytest.fixture
def sqlite_url(tmp_path):
    return f"sqlite:///{tmp_path / 'delve.sqlite3'}"


def open_store(url: str):
    """The test's own view of the database the servers use (migrations are already applied)."""
    from webapp.storage.store import Store

    return Store(url)


@pytest.fixture
def store_of():
    opened = []

    def make(url: str):
        store = open_store(url)
        opened.append(store)
        return store

    yield make
    for store in opened:
        store.engine.dispose()
