"""The action log is the game: one row per game, one row per accepted action.

Appending action ``seq = version + 1`` and bumping the game's version happen in one
transaction guarded by ``WHERE version = expected``: two racing actions cannot both land and
none is lost (ARCHITECTURE.md, "Storage"). The state snapshot on the game row is a cache that
replaying the log must reproduce (tested).
"""

from __future__ import annotations

import json
import secrets
import time
from dataclasses import dataclass

from sqlalchemy import (
    BigInteger,
    Column,
    Float,
    ForeignKey,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    create_engine,
    event,
    insert,
    select,
    update,
)
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError

metadata = MetaData()

games = Table(
    "games",
    metadata,
    Column("id", String(64), primary_key=True),
    Column("slug", String(64), nullable=False),
    Column("options", Text, nullable=False),
    Column("seed", BigInteger, nullable=False),
    Column("players", Text, nullable=False),
    Column("version", Integer, nullable=False, default=0),
    Column("snapshot", Text, nullable=False),
    Column("result", Text, nullable=True),
    Column("created_at", Float, nullable=False),
    Column("updated_at", Float, nullable=False),
    Column("finished_at", Float, nullable=True),
)

seats = Table(
    "seats",
    metadata,
    Column("game_id", String(64), ForeignKey("games.id"), primary_key=True),
    Column("seat", String(32), primary_key=True),
    Column("name", String(64), nullable=False),
    Column("token_hash", String(128), nullable=False),
)

actions = Table(
    "actions",
    metadata,
    Column("game_id", String(64), ForeignKey("games.id"), primary_key=True),
    Column("seq", Integer, primary_key=True),
    Column("seat", String(32), nullable=False),
    Column("action", Text, nullable=False),
    Column("created_at", Float, nullable=False),
)


class StaleVersion(Exception):
    """The game moved on since the version the client based its action on."""

    def __init__(self, current_version: int):
        super().__init__(f"the game is at version {current_version}")
        self.current_version = current_version


@dataclass(frozen=True)
class GameRecord:
    id: str
    slug: str
    options: dict
    seed: int
    players: list[str]
    version: int
    snapshot: dict
    result: dict | None
    created_at: float
    finished_at: float | None


def _json(value) -> str:
    return json.dumps(value, separators=(",", ":"), sort_keys=True)


def new_game_id() -> str:
    """An unguessable, URL-safe public id (128 bits)."""
    return secrets.token_urlsafe(16)


def _sqlite_pragmas(dbapi_connection, _record):
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute("PRAGMA busy_timeout=30000")
    cursor.close()


def make_engine(url: str) -> Engine:
    if url.startswith("sqlite"):
        engine = create_engine(url, connect_args={"timeout": 30, "check_same_thread": False})
        event.listen(engine, "connect", _sqlite_pragmas)
        return engine
    return create_engine(url, pool_pre_ping=True, pool_size=10, max_overflow=20)


class Store:
    def __init__(self, url: str):
        if url.startswith("sqlite:///") and not url.startswith("sqlite:///:memory:"):
            from pathlib import Path

            Path(url.removeprefix("sqlite:///")).parent.mkdir(parents=True, exist_ok=True)
        self.engine = make_engine(url)
        metadata.create_all(self.engine)

    def create_game(
        self,
        *,
        slug: str,
        options: dict,
        seed: int,
        players: list[str],
        snapshot: dict,
        seat_tokens: dict[str, tuple[str, str]],
    ) -> str:
        """Store a new game; ``seat_tokens`` maps seat -> (display name, token hash)."""
        game_id = new_game_id()
        now = time.time()
        with self.engine.begin() as conn:
            conn.execute(
                insert(games).values(
                    id=game_id,
                    slug=slug,
                    options=_json(options),
                    seed=seed,
                    players=_json(players),
                    version=0,
                    snapshot=_json(snapshot),
                    result=None,
                    created_at=now,
                    updated_at=now,
                    finished_at=None,
                )
            )
            for seat, (name, token_hash) in seat_tokens.items():
                conn.execute(insert(seats).values(game_id=game_id, seat=seat, name=name, token_hash=token_hash))
        return game_id

    def load(self, game_id: str) -> GameRecord | None:
        with self.engine.connect() as conn:
            row = conn.execute(select(games).where(games.c.id == game_id)).mappings().first()
        if row is None:
            return None
        return GameRecord(
            id=row["id"],
            slug=row["slug"],
            options=json.loads(row["options"]),
            seed=row["seed"],
            players=json.loads(row["players"]),
            version=row["version"],
            snapshot=json.loads(row["snapshot"]),
            result=json.loads(row["result"]) if row["result"] else None,
            created_at=row["created_at"],
            finished_at=row["finished_at"],
        )

    def version(self, game_id: str) -> int | None:
        with self.engine.connect() as conn:
            return conn.execute(select(games.c.version).where(games.c.id == game_id)).scalar()

    def seat_hashes(self, game_id: str) -> dict[str, str]:
        with self.engine.connect() as conn:
            rows = conn.execute(select(seats.c.seat, seats.c.token_hash).where(seats.c.game_id == game_id))
            return {seat: token_hash for seat, token_hash in rows}

    def append(
        self,
        game_id: str,
        *,
        expected_version: int,
        seat: str,
        action: dict,
        snapshot: dict,
        result: dict | None,
    ) -> int:
        """Append one action as ``seq = expected_version + 1``; the new version, or StaleVersion."""
        now = time.time()
        new_version = expected_version + 1
        try:
            with self.engine.begin() as conn:
                bumped = conn.execute(
                    update(games)
                    .where(games.c.id == game_id, games.c.version == expected_version)
                    .values(
                        version=new_version,
                        snapshot=_json(snapshot),
                        result=_json(result) if result is not None else None,
                        updated_at=now,
                        finished_at=now if result is not None else None,
                    )
                )
                if bumped.rowcount != 1:
                    conn.rollback()
                    raise StaleVersion(-1)
                conn.execute(
                    insert(actions).values(
                        game_id=game_id, seq=new_version, seat=seat, action=_json(action), created_at=now
                    )
                )
        except (IntegrityError, StaleVersion):
            raise StaleVersion(self.version(game_id) or 0) from None
        return new_version

    def actions(self, game_id: str) -> list[tuple[int, str, dict]]:
        """The game's log: (seq, seat, action), in order."""
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(actions.c.seq, actions.c.seat, actions.c.action)
                .where(actions.c.game_id == game_id)
                .order_by(actions.c.seq)
            )
            return [(seq, seat, json.loads(action)) for seq, seat, action in rows]

    def count_games(self) -> int:
        from sqlalchemy import func

        with self.engine.connect() as conn:
            return conn.execute(select(func.count()).select_from(games)).scalar_one()
