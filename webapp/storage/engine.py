"""Opening the database: SQLite (WAL, foreign keys, a patient busy timeout) or PostgreSQL (a pool)."""

from __future__ import annotations

import time
from pathlib import Path

from sqlalchemy import create_engine, event
from sqlalchemy.engine import Engine
from sqlalchemy.exc import DisconnectionError


def _sqlite_pragmas(dbapi_connection, _record):
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute("PRAGMA busy_timeout=30000")
    cursor.close()


# A pooled PostgreSQL connection unused this long is checked with a ping before it is lent again
# (a database restart, a proxy's idle timeout); one in steady use is not: SQLAlchemy's pre-ping
# pinged before every statement's connection, a round trip that was a tenth of a busy process.
PING_AFTER_IDLE_SECONDS = 5.0


def _note_checkin(_dbapi_connection, record) -> None:
    record.info["idle_since"] = time.monotonic()


def _ping_if_idle(dbapi_connection, record, _proxy) -> None:
    idle_since = record.info.get("idle_since")
    if idle_since is None or time.monotonic() - idle_since < PING_AFTER_IDLE_SECONDS:
        return
    try:
        cursor = dbapi_connection.cursor()
        try:
            cursor.execute("SELECT 1")
        finally:
            cursor.close()
    except Exception as error:  # any failure: this connection is gone; the pool opens a new one
        raise DisconnectionError(f"a pooled connection did not answer its ping: {error}") from error


def make_engine(url: str) -> Engine:
    if url.startswith("sqlite"):
        engine = create_engine(url, connect_args={"timeout": 30, "check_same_thread": False})
        event.listen(engine, "connect", _sqlite_pragmas)
        return engine
    engine = create_engine(url, pool_size=10, max_overflow=20)
    event.listen(engine, "checkin", _note_checkin)
    event.listen(engine, "checkout", _ping_if_idle)
    return engine


def open_engine(url: str) -> Engine:
    """The database at ``url``, an SQLite file's folder made first if it does not exist yet."""
    if url.startswith("sqlite:///") and not url.startswith("sqlite:///:memory:"):
        Path(url.removeprefix("sqlite:///")).parent.mkdir(parents=True, exist_ok=True)
    return make_engine(url)
