"""The action log is the game: one row per game, one row per accepted action.

Appending action ``seq = version + 1`` and bumping the game's version happen in one
transaction guarded by ``WHERE version = expected``: two racing actions cannot both land and
none is lost. The state snapshot on the game row is a cache that
replaying the log must reproduce (tested).
"""

from __future__ import annotations

import dataclasses
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
    UniqueConstraint,
    bindparam,
    create_engine,
    delete,
    event,
    func,
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
    # Bumped by every change a viewer can see (actions, seats, lobby, presence); the doorbell's number.
    Column("revision", Integer, nullable=False, default=0),
    # "waiting" (a multiplayer table filling up), "running" or "finished".
    Column("status", String(16), nullable=False, default="running"),
    # The waiting room: host seat and each seat's lobby choices (e.g. a class).
    Column("lobby", Text, nullable=False, default="{}"),
    # Engine state cache; "null" while waiting.
    Column("snapshot", Text, nullable=False),
    # The turn clock (multiplayer): which turn is running, since when, and when it times out.
    Column("turn_key", String(64), nullable=True),
    Column("turn_started_at", Float, nullable=True),
    Column("turn_deadline", Float, nullable=True),
    Column("result", Text, nullable=True),
    Column("created_at", Float, nullable=False),
    Column("updated_at", Float, nullable=False),
    Column("finished_at", Float, nullable=True),
    # The highest seat number ("p<N>") ever given at this table. A seat left in the waiting room is
    # deleted, and its number must go to nobody else: pages and sockets name a seat by its id.
    Column("seats_issued", Integer, nullable=False, server_default="0"),
)

seats = Table(
    "seats",
    metadata,
    Column("game_id", String(64), ForeignKey("games.id"), primary_key=True),
    Column("seat", String(32), primary_key=True),
    Column("name", String(64), nullable=False),
    Column("token_hash", String(128), nullable=False),
    Column("joined_at", Float, nullable=False, default=0.0),
    # Presence (10.6 of the Dungeon of Doom): connected now, and when last seen.
    Column("connected", Integer, nullable=False, default=0),
    Column("last_seen", Float, nullable=False, default=0.0),
    # The absence action was applied (or is pointless): stop watching this seat.
    Column("gone", Integer, nullable=False, default=0),
    # For a seat taken mid-game: a keyed hash of the client address it came from (never the
    # address itself), to cap how many seats one address takes in a running game.
    Column("origin", String(64), nullable=True),
    # Bots (webapp/bots.py): the level of the bot that plays this seat ("easy", "normal"), NULL
    # for a person; ``kept`` 1 while a bot plays a dropped player's seat until they come back.
    Column("bot", String(16), nullable=True),
    Column("kept", Integer, nullable=False, server_default="0"),
    # 1 once a bot has played this seat (its own, or a person's it kept), even after its player is
    # back: such a seat's result is never ranked (Hall of Fame, deals' rankings, browser records).
    Column("bot_played", Integer, nullable=False, server_default="0"),
)

# Which process drives a running table's bots, and until when (webapp/bots.py): exactly one at a
# time; a crashed process's lease runs out and another takes the table over.
bot_leases = Table(
    "bot_leases",
    metadata,
    Column("game_id", String(64), ForeignKey("games.id"), primary_key=True),
    Column("owner", String(64), nullable=False),
    Column("expires_at", Float, nullable=False),
)

chat = Table(
    "chat",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("game_id", String(64), ForeignKey("games.id"), nullable=False, index=True),
    Column("seat", String(32), nullable=True),
    Column("name", String(64), nullable=False),
    Column("text", String(400), nullable=False),
    Column("created_at", Float, nullable=False),
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


# This browser's seats (webapp/browsers.py): what a browser without an account has played, keyed
# by the hash of its own unguessable cookie, for its record (played, won, best, streak).
browser_seats = Table(
    "browser_seats",
    metadata,
    Column("browser", String(64), primary_key=True),
    Column("game_id", String(64), ForeignKey("games.id"), primary_key=True),
    Column("seat", String(32), nullable=False),
    Column("created_at", Float, nullable=False),
)

# A finished solo game's deal offered to friends (webapp/deals.py): /c/<token>. The seed and options
# stay on the game row; the token alone travels.
challenges = Table(
    "challenges",
    metadata,
    Column("token", String(32), primary_key=True),
    Column("game_id", String(64), ForeignKey("games.id"), nullable=False, unique=True),
    Column("created_at", Float, nullable=False),
)

# The deal of the day for each game, drawn in secret by the first request of the (UTC) day.
daily_deals = Table(
    "daily_deals",
    metadata,
    Column("day", String(10), primary_key=True),
    Column("slug", String(64), primary_key=True),
    Column("seed", BigInteger, nullable=False),
    Column("options", Text, nullable=False),
    Column("created_at", Float, nullable=False),
)

# A game played on a shared deal: "challenge:<token>" or "daily:<slug>:<day>". Ranked unless this
# browser had already played that deal (further attempts are practice).
deal_attempts = Table(
    "deal_attempts",
    metadata,
    Column("game_id", String(64), ForeignKey("games.id"), primary_key=True),
    Column("deal", String(96), nullable=False, index=True),
    Column("browser", String(64), nullable=False, index=True),
    Column("ranked", Integer, nullable=False),
    Column("created_at", Float, nullable=False),
    # The keyed hash of the client address it came from (webapp/seats.py: origin_of): a deal ranks
    # one attempt per address as well as per browser (a fresh cookie is free to make).
    Column("origin", String(64), nullable=True),
)


# The Hall of Fame of Dungeon Cards (webapp/hall_of_fame.py): one row per escape, kept across games.
hall_of_fame = Table(
    "hall_of_fame",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("game_id", String(64), ForeignKey("games.id"), nullable=False, index=True),
    Column("seat", String(32), nullable=False),
    Column("name", String(64), nullable=False),
    Column("character_class", String(16), nullable=False),
    Column("level", Integer, nullable=False),
    Column("lives", Integer, nullable=False),
    Column("max_lives", Integer, nullable=False),
    Column("speed", Integer, nullable=False),
    Column("bosses", Text, nullable=False),  # JSON list of ranks, e.g. ["J", "Q"]
    Column("turns", Integer, nullable=False),
    Column("outcome", String(16), nullable=False),  # "escaped" or "team victory"
    Column("turn_mode", String(24), nullable=False),
    Column("board", String(16), nullable=False),  # "10x10"
    Column("mods", Text, nullable=False),  # JSON list of the mods in use
    Column("party_size", Integer, nullable=False),
    Column("created_at", Float, nullable=False),
    # 1: the game was dealt from a stacked deck or stacked shuffles; kept out of the ranking.
    Column("set_deal", Integer, nullable=False, server_default="0"),
    # 1: a bot played the escaping seat (seats.bot_played); kept out of the ranking.
    Column("bot", Integer, nullable=False, server_default="0"),
    # One entry per character and game: recording is idempotent.
    UniqueConstraint("game_id", "seat", name="uq_hall_of_fame_game_seat"),
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
    snapshot: dict | None
    result: dict | None
    created_at: float
    finished_at: float | None
    revision: int = 0
    status: str = "running"
    lobby: dict = dataclasses.field(default_factory=dict)
    turn_key: str | None = None
    turn_started_at: float | None = None
    turn_deadline: float | None = None


@dataclass(frozen=True)
class SeatRecord:
    seat: str
    name: str
    joined_at: float
    connected: bool
    last_seen: float
    gone: bool
    bot: str | None = None
    """The level of the bot that plays this seat, or None for a person."""
    kept: bool = False
    """A bot plays this seat until its player comes back (a take-over)."""


def _seat_number(seat: str) -> int:
    """N of a seat "pN"; 0 for any other id (a solo game's seat)."""
    return int(seat[1:]) if seat[:1] == "p" and seat[1:].isdigit() else 0


def _bump(conn, game_id: str) -> int:
    """Bump the game's revision inside the caller's transaction; the new revision."""
    return conn.execute(
        update(games).where(games.c.id == game_id).values(revision=games.c.revision + 1).returning(games.c.revision)
    ).scalar_one()


# Built once: the statements every request runs (constructing one costs more than running it).
_LOAD_GAME = select(games).where(games.c.id == bindparam("game_id"))
_LOAD_GAME_HEAD = select(*[column for column in games.c if column.name != "snapshot"]).where(
    games.c.id == bindparam("game_id")
)
_REVISION = select(games.c.revision).where(games.c.id == bindparam("game_id"))
_SEAT_HASHES = select(seats.c.seat, seats.c.token_hash).where(seats.c.game_id == bindparam("game_id"))
_SEATS = select(seats).where(seats.c.game_id == bindparam("game_id")).order_by(seats.c.joined_at, seats.c.seat)
_APPEND_VALUES = dict(
    version=bindparam("new_version"),
    revision=games.c.revision + 1,
    snapshot=bindparam("new_snapshot"),
    result=bindparam("new_result"),
    updated_at=bindparam("now"),
    finished_at=bindparam("finished"),
    status=bindparam("new_status"),
)
_APPEND_WHERE = (games.c.id == bindparam("the_game"), games.c.version == bindparam("expected_version"))
_APPEND = update(games).where(*_APPEND_WHERE).values(**_APPEND_VALUES).returning(games.c.revision)
_APPEND_WITH_CLOCK = (
    update(games)
    .where(*_APPEND_WHERE)
    .values(
        **_APPEND_VALUES,
        turn_key=bindparam("new_turn_key"),
        turn_started_at=bindparam("new_turn_started_at"),
        turn_deadline=bindparam("new_turn_deadline"),
    )
    .returning(games.c.revision)
)
_LOG_ACTION = insert(actions)
_SEEN = (
    update(seats)
    .where(seats.c.game_id == bindparam("the_game"), seats.c.seat == bindparam("the_seat"))
    .values(last_seen=bindparam("now"))
)


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
        from .migrate import upgrade

        upgrade(self.engine)

    # ---- games -------------------------------------------------------------------------------

    def create_game(
        self,
        *,
        slug: str,
        options: dict,
        seed: int,
        players: list[str],
        snapshot: dict | None,
        seat_tokens: dict[str, tuple[str, str]],
        status: str = "running",
        lobby: dict | None = None,
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
                    revision=0,
                    status=status,
                    lobby=_json(lobby or {}),
                    snapshot=_json(snapshot),
                    result=None,
                    created_at=now,
                    updated_at=now,
                    finished_at=None,
                    seats_issued=max(map(_seat_number, seat_tokens), default=0),
                )
            )
            for seat, (name, token_hash) in seat_tokens.items():
                conn.execute(
                    insert(seats).values(
                        game_id=game_id,
                        seat=seat,
                        name=name,
                        token_hash=token_hash,
                        joined_at=now,
                        connected=0,
                        last_seen=now,
                        gone=0,
                    )
                )
        return game_id

    @staticmethod
    def _record(row) -> GameRecord:
        return GameRecord(
            id=row["id"],
            slug=row["slug"],
            options=json.loads(row["options"]),
            seed=row["seed"],
            players=json.loads(row["players"]),
            version=row["version"],
            snapshot=json.loads(row["snapshot"]) if "snapshot" in row else None,
            result=json.loads(row["result"]) if row["result"] else None,
            created_at=row["created_at"],
            finished_at=row["finished_at"],
            revision=row["revision"],
            status=row["status"],
            lobby=json.loads(row["lobby"] or "{}"),
            turn_key=row["turn_key"],
            turn_started_at=row["turn_started_at"],
            turn_deadline=row["turn_deadline"],
        )

    def load(self, game_id: str, *, snapshot: bool = True) -> GameRecord | None:
        """The game's row; without its ``snapshot`` (None then) when the caller has that state
        already (``play.load_game``'s cache): the largest column, and the costliest to parse."""
        statement = _LOAD_GAME if snapshot else _LOAD_GAME_HEAD
        with self.engine.connect() as conn:
            row = conn.execute(statement, {"game_id": game_id}).mappings().first()
        return None if row is None else self._record(row)

    def version(self, game_id: str) -> int | None:
        with self.engine.connect() as conn:
            return conn.execute(select(games.c.version).where(games.c.id == game_id)).scalar()

    def revision(self, game_id: str) -> int | None:
        with self.engine.connect() as conn:
            return conn.execute(_REVISION, {"game_id": game_id}).scalar()

    def append(
        self,
        game_id: str,
        *,
        expected_version: int,
        seat: str,
        action: dict,
        snapshot: dict,
        result: dict | None,
        clock: tuple[str | None, float | None, float | None] | None = None,
        also=None,
    ) -> tuple[int, int]:
        """Append one action as ``seq = expected_version + 1``; (new version, new revision), or StaleVersion.

        ``clock`` = (turn key, turn started at, deadline) to store with it, for multiplayer games;
        ``also(conn, now)`` writes more rows in the same transaction (all land, or none)."""
        now = time.time()
        new_version = expected_version + 1
        params = {
            "the_game": game_id,
            "expected_version": expected_version,
            "new_version": new_version,
            "new_snapshot": _json(snapshot),
            "new_result": _json(result) if result is not None else None,
            "now": now,
            "finished": now if result is not None else None,
            "new_status": "finished" if result is not None else "running",
        }
        if clock is not None:
            params.update(new_turn_key=clock[0], new_turn_started_at=clock[1], new_turn_deadline=clock[2])
        try:
            with self.engine.begin() as conn:
                revision = conn.execute(_APPEND if clock is None else _APPEND_WITH_CLOCK, params).scalar()
                if revision is None:
                    conn.rollback()
                    raise StaleVersion(-1)
                conn.execute(
                    _LOG_ACTION,
                    {"game_id": game_id, "seq": new_version, "seat": seat, "action": _json(action), "created_at": now},
                )
                if also is not None:
                    also(conn, now)
        except (IntegrityError, StaleVersion):
            raise StaleVersion(self.version(game_id) or 0) from None
        return new_version, revision

    def import_finished(
        self,
        *,
        slug: str,
        options: dict,
        seed: int,
        players: list[str],
        names: dict[str, str],
        moves: list[tuple[str, dict]],
        snapshot: dict,
        result: dict,
        placeholder_hash: str,
    ) -> str:
        """Store a finished game replayed from a file, with its whole action log, in one
        transaction. Its seats hold ``placeholder_hash``, a hash of a token nobody was given: an
        imported game is watched, never played."""
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
                    version=len(moves),
                    revision=len(moves),
                    status="finished",
                    lobby=_json({"imported": True}),
                    snapshot=_json(snapshot),
                    result=_json(result),
                    created_at=now,
                    updated_at=now,
                    finished_at=now,
                )
            )
            for index, seat in enumerate(players):
                conn.execute(
                    insert(seats).values(
                        game_id=game_id,
                        seat=seat,
                        name=names[seat],
                        token_hash=placeholder_hash,
                        joined_at=now + index * 1e-6,
                        connected=0,
                        last_seen=now,
                        gone=1,
                    )
                )
            if moves:
                conn.execute(
                    _LOG_ACTION,
                    [
                        {"game_id": game_id, "seq": seq, "seat": seat, "action": _json(action), "created_at": now}
                        for seq, (seat, action) in enumerate(moves, start=1)
                    ],
                )
        return game_id

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
        with self.engine.connect() as conn:
            return conn.execute(select(func.count()).select_from(games)).scalar_one()

    # ---- the waiting room ----------------------------------------------------------------------

    def set_lobby(self, game_id: str, lobby: dict, *, expected_revision: int) -> int:
        """Replace the waiting room's state if nobody changed the game meanwhile; the new revision."""
        with self.engine.begin() as conn:
            bumped = conn.execute(
                update(games)
                .where(games.c.id == game_id, games.c.revision == expected_revision, games.c.status == "waiting")
                .values(lobby=_json(lobby), revision=games.c.revision + 1, updated_at=time.time())
            )
            if bumped.rowcount != 1:
                conn.rollback()
                raise StaleVersion(-1)
        return expected_revision + 1

    def update_waiting_seat(
        self, game_id: str, seat: str, *, name: str | None, lobby: dict, expected_revision: int
    ) -> int:
        """A seat's new name (None: unchanged) and the waiting room's new state, in one transaction,
        if nobody changed the game meanwhile (else StaleVersion, and nothing is written); the new
        revision."""
        with self.engine.begin() as conn:
            revision = conn.execute(
                update(games)
                .where(games.c.id == game_id, games.c.revision == expected_revision, games.c.status == "waiting")
                .values(lobby=_json(lobby), revision=games.c.revision + 1, updated_at=time.time())
                .returning(games.c.revision)
            ).scalar()
            if revision is None:
                conn.rollback()
                raise StaleVersion(-1)
            if name is not None:
                conn.execute(update(seats).where(seats.c.game_id == game_id, seats.c.seat == seat).values(name=name))
        return revision

    def claim_next_game(self, game_id: str, next_id: str) -> tuple[str | None, int | None]:
        """Record ``next_id`` as the table that follows the finished game, unless one is recorded
        already: (the next table that stands, the game's new revision if ours was recorded);
        (None, None) if the game is gone.

        A compare-and-set on the lobby text, one UPDATE: SQLite runs writers one at a time, and
        PostgreSQL re-checks the WHERE on the row a concurrent writer just changed, so of two
        players pressing "Play again" at once exactly one table wins, on either database."""
        for _attempt in range(5):
            with self.engine.begin() as conn:
                row = conn.execute(select(games.c.lobby).where(games.c.id == game_id)).first()
                if row is None:
                    return None, None
                lobby = json.loads(row[0] or "{}")
                if lobby.get("next"):
                    return lobby["next"], None
                revision = conn.execute(
                    update(games)
                    .where(games.c.id == game_id, games.c.lobby == row[0])
                    .values(lobby=_json(dict(lobby, next=next_id)), revision=games.c.revision + 1)
                    .returning(games.c.revision)
                ).scalar()
            if revision is not None:
                return next_id, revision
        record = self.load(game_id)
        return (record.lobby.get("next") if record else None), None

    def delete_waiting_table(self, game_id: str) -> None:
        """Remove a waiting room nobody has been shown (the loser of a "Play again" race)."""
        with self.engine.begin() as conn:
            waiting = conn.execute(select(games.c.status).where(games.c.id == game_id)).scalar()
            if waiting != "waiting":
                return
            conn.execute(delete(chat).where(chat.c.game_id == game_id))
            conn.execute(delete(seats).where(seats.c.game_id == game_id))
            conn.execute(delete(games).where(games.c.id == game_id))

    def start(
        self,
        game_id: str,
        *,
        expected_revision: int,
        players: list[str],
        options: dict,
        snapshot: dict,
        clock: tuple[str | None, float | None, float | None],
    ) -> int:
        """The waiting room becomes a running game (version stays 0: no action yet)."""
        now = time.time()
        with self.engine.begin() as conn:
            bumped = conn.execute(
                update(games)
                .where(games.c.id == game_id, games.c.revision == expected_revision, games.c.status == "waiting")
                .values(
                    status="running",
                    players=_json(players),
                    options=_json(options),
                    snapshot=_json(snapshot),
                    revision=games.c.revision + 1,
                    updated_at=now,
                    turn_key=clock[0],
                    turn_started_at=clock[1],
                    turn_deadline=clock[2],
                )
            )
            if bumped.rowcount != 1:
                conn.rollback()
                raise StaleVersion(-1)
            # Everyone seated starts present, with a fresh grace period.
            conn.execute(update(seats).where(seats.c.game_id == game_id).values(last_seen=now))
        return expected_revision + 1

    # ---- seats ---------------------------------------------------------------------------------

    def seat_hashes(self, game_id: str) -> dict[str, str]:
        with self.engine.connect() as conn:
            rows = conn.execute(_SEAT_HASHES, {"game_id": game_id})
            return {seat: token_hash for seat, token_hash in rows}

    def seats(self, game_id: str) -> list[SeatRecord]:
        with self.engine.connect() as conn:
            rows = conn.execute(_SEATS, {"game_id": game_id}).mappings()
            return [
                SeatRecord(
                    r["seat"],
                    r["name"],
                    r["joined_at"],
                    bool(r["connected"]),
                    r["last_seen"],
                    bool(r["gone"]),
                    r["bot"],
                    bool(r["kept"]),
                )
                for r in rows
            ]

    def add_seat(
        self,
        game_id: str,
        *,
        name: str,
        token_hash: str,
        limit: int,
        origin: str | None = None,
        counted=None,
        bot: str | None = None,
    ) -> tuple[str, int] | None:
        """Take the next free seat ("p2", "p3", …) if fewer than ``limit`` are taken: (seat, the
        game's new revision); None if full.

        ``counted(seats)`` picks which seat ids count against the limit (default: all of them; a
        running game counts only the living). The seat number never reuses one that has been
        given, even to a seat since deleted (left in the waiting room): a seat that left stays in
        the log, and a page kept open names its seat by its id."""
        now = time.time()
        for _attempt in range(5):
            with self.engine.connect() as conn:
                taken = [r[0] for r in conn.execute(select(seats.c.seat).where(seats.c.game_id == game_id))]
                issued = conn.execute(select(games.c.seats_issued).where(games.c.id == game_id)).scalar() or 0
            active = len(counted(taken)) if counted is not None else len(taken)
            if active >= limit:
                return None
            number = max([issued, *map(_seat_number, taken)]) + 1
            seat = f"p{number}"
            try:
                with self.engine.begin() as conn:
                    # Only past the highest number given so far: a number read before someone else
                    # took it (and maybe left it since, deleting its row) is never given again.
                    claimed = conn.execute(
                        update(games)
                        .where(games.c.id == game_id, games.c.seats_issued < number)
                        .values(seats_issued=number)
                    )
                    if claimed.rowcount != 1:
                        continue  # nothing written yet: try the next number
                    conn.execute(
                        insert(seats).values(
                            game_id=game_id,
                            seat=seat,
                            name=name,
                            token_hash=token_hash,
                            joined_at=now,
                            connected=0,
                            last_seen=now,
                            gone=0,
                            origin=origin,
                            bot=bot,
                            bot_played=1 if bot else 0,
                        )
                    )
                    revision = _bump(conn, game_id)
                return seat, revision
            except IntegrityError:
                continue  # someone else took that number at the same moment: try the next one
        return None

    def seats_from(self, game_id: str, origin: str) -> int:
        """How many seats of the game were taken mid-game from one client address (its hash); a
        bot the host seated carries the host's address for ``bot_tables_from`` and is not one."""
        with self.engine.connect() as conn:
            return conn.execute(
                select(func.count())
                .select_from(seats)
                .where(
                    seats.c.game_id == game_id,
                    seats.c.origin == origin,
                    seats.c.bot.is_(None) | (seats.c.kept == 1),
                )
            ).scalar_one()

    def bot_tables_from(self, origin: str) -> int:
        """How many running games have a bot still in play that a host at one client address
        (its hash) seated."""
        with self.engine.connect() as conn:
            return conn.execute(
                select(func.count(func.distinct(seats.c.game_id)))
                .select_from(seats.join(games, games.c.id == seats.c.game_id))
                .where(
                    games.c.status == "running",
                    seats.c.origin == origin,
                    seats.c.bot.is_not(None),
                    seats.c.kept == 0,
                    seats.c.gone == 0,
                )
            ).scalar_one()

    def remove_seat(self, game_id: str, seat: str) -> int:
        """A seat leaves a waiting room (before the game starts); the new revision."""
        with self.engine.begin() as conn:
            conn.execute(delete(seats).where(seats.c.game_id == game_id, seats.c.seat == seat))
            return _bump(conn, game_id)

    # ---- presence ------------------------------------------------------------------------------

    def set_connected(self, game_id: str, seat: str, connected: bool) -> int | None:
        """Record a seat's connection state; the new revision if it changed (viewers should be
        told), else None. A player whose seat a bot was keeping has it back as their page's
        socket connects (webapp/bots.py)."""
        now = time.time()
        with self.engine.begin() as conn:
            if connected:
                self._reclaim(conn, game_id, seat, now)
            changed = conn.execute(
                update(seats)
                .where(seats.c.game_id == game_id, seats.c.seat == seat, seats.c.connected == (0 if connected else 1))
                .values(connected=1 if connected else 0, last_seen=now)
            ).rowcount
            if not changed:
                conn.execute(
                    update(seats).where(seats.c.game_id == game_id, seats.c.seat == seat).values(last_seen=now)
                )
                return None
            return _bump(conn, game_id)

    def seen(self, pairs: list[tuple[str, str]]) -> None:
        """Heartbeat: these (game, seat) pairs are connected right now."""
        if not pairs:
            return
        now = time.time()
        with self.engine.begin() as conn:
            conn.execute(_SEEN, [{"the_game": game_id, "the_seat": seat, "now": now} for game_id, seat in pairs])

    def mark_gone(self, game_id: str, seat: str) -> None:
        with self.engine.begin() as conn:
            conn.execute(update(seats).where(seats.c.game_id == game_id, seats.c.seat == seat).values(gone=1))

    def absent_seats(self, older_than: float) -> list[tuple[str, str]]:
        """(game, seat) of running games whose seat has been away since before ``older_than``."""
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(seats.c.game_id, seats.c.seat)
                .join(games, games.c.id == seats.c.game_id)
                .where(
                    games.c.status == "running",
                    seats.c.connected == 0,
                    seats.c.gone == 0,
                    seats.c.bot.is_(None),  # a bot is never away; a kept seat is a bot's meanwhile
                    seats.c.last_seen < older_than,
                )
            )
            return [(g, s) for g, s in rows]

    def due_turns(self, now: float) -> list[str]:
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(games.c.id).where(
                    games.c.status == "running", games.c.turn_deadline.is_not(None), games.c.turn_deadline <= now
                )
            )
            return [r[0] for r in rows]

    def after_restart(self, grace: float) -> None:
        """A server (re)start: every seat of a running game gets a fresh grace period, and every
        running turn at least ``grace`` seconds before it times out (10.6)."""
        now = time.time()
        with self.engine.begin() as conn:
            running = select(games.c.id).where(games.c.status == "running").scalar_subquery()
            conn.execute(update(seats).where(seats.c.game_id.in_(running)).values(connected=0, last_seen=now))
            conn.execute(
                update(games)
                .where(
                    games.c.status == "running", games.c.turn_deadline.is_not(None), games.c.turn_deadline < now + grace
                )
                .values(turn_deadline=now + grace)
            )

    # ---- bots (webapp/bots.py) ---------------------------------------------------------------------

    def take_over(self, game_id: str, seat: str, level: str) -> int | None:
        """A bot of ``level`` plays a person's seat until they come back; the new revision, or
        None if the seat is not a person's any more (a bot, gone, or taken over already)."""
        with self.engine.begin() as conn:
            changed = conn.execute(
                update(seats)
                .where(seats.c.game_id == game_id, seats.c.seat == seat, seats.c.bot.is_(None), seats.c.gone == 0)
                .values(bot=level, kept=1)
            ).rowcount
            return _bump(conn, game_id) if changed else None

    def reclaim(self, game_id: str, seat: str) -> int | None:
        """The player of a kept seat is back: the seat is theirs again (the new revision), or None
        if it was not kept for them."""
        with self.engine.begin() as conn:
            if not self._reclaim(conn, game_id, seat, time.time()):
                return None
            return _bump(conn, game_id)

    @staticmethod
    def _reclaim(conn, game_id: str, seat: str, now: float) -> bool:
        return bool(
            conn.execute(
                update(seats)
                .where(seats.c.game_id == game_id, seats.c.seat == seat, seats.c.kept == 1)
                .values(bot=None, kept=0, last_seen=now)
            ).rowcount
        )

    def seat_is_bot(self, conn, game_id: str, seat: str) -> bool:
        """Inside an action's transaction: whether a bot still plays ``seat`` (its player may have
        come back since the bot read the board)."""
        played_by = conn.execute(select(seats.c.bot).where(seats.c.game_id == game_id, seats.c.seat == seat)).scalar()
        return played_by is not None

    def mark_bot_played(self, conn, game_id: str, seat: str) -> None:
        """Inside a bot's action's transaction: the seat has been played by a bot, for good."""
        conn.execute(update(seats).where(seats.c.game_id == game_id, seats.c.seat == seat).values(bot_played=1))

    def bot_tables(self) -> dict[str, tuple[int, float, list[str]]]:
        """Running games where a bot plays a seat still in the game and a person is present:
        {game: (version, when it last changed, the bot seats in join order)}; one read for every
        table a process may drive. A person is present while a seat a person plays (not a bot's,
        nor kept by one) is still at the table: the presence loop drops a seat GRACE_SECONDS
        after its pages closed, so bots with nobody left to play for wait, at no cost."""
        person = seats.alias("person")
        person_present = (
            select(person.c.seat)
            .where(person.c.game_id == games.c.id, person.c.bot.is_(None), person.c.gone == 0)
            .exists()
        )
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(games.c.id, games.c.version, games.c.updated_at, seats.c.seat)
                .join(seats, seats.c.game_id == games.c.id)
                .where(games.c.status == "running", seats.c.bot.is_not(None), seats.c.gone == 0, person_present)
                .order_by(games.c.id, seats.c.joined_at, seats.c.seat)
            )
            tables: dict[str, tuple[int, float, list[str]]] = {}
            for game_id, version, updated_at, seat in rows:
                tables.setdefault(game_id, (version, updated_at, []))[2].append(seat)
            return tables

    def abandoned_bot_seats(self, older_than: float) -> list[tuple[str, str]]:
        """(game, seat) of the bots still in running games that no person has been present at
        since before ``older_than``: no seat a person plays is left, and none of the people's
        seats (dropped, or kept by a bot) was seen since."""
        person = seats.alias("person")
        person_since = (
            select(person.c.seat)
            .where(
                person.c.game_id == games.c.id,
                (person.c.bot.is_(None) & (person.c.gone == 0)) | (person.c.last_seen >= older_than),
                person.c.bot.is_(None) | (person.c.kept == 1),
            )
            .exists()
        )
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(seats.c.game_id, seats.c.seat)
                .join(games, games.c.id == seats.c.game_id)
                .where(games.c.status == "running", seats.c.bot.is_not(None), seats.c.gone == 0, ~person_since)
                .order_by(seats.c.game_id, seats.c.joined_at, seats.c.seat)
            )
            return [(g, s) for g, s in rows]

    def take_lease(self, game_id: str, owner: str, now: float, seconds: float) -> bool:
        """Hold (or renew) the lease on a game's bots until ``now + seconds``: True if ``owner``
        holds it now. One conditional UPDATE (ours, or run out) or, for a game never leased, one
        INSERT: PostgreSQL re-checks the UPDATE's WHERE on a row a concurrent writer just changed,
        SQLite runs writers one at a time, and the primary key lets one of two INSERTs in, so two
        processes never both hold a game."""
        with self.engine.begin() as conn:
            renewed = conn.execute(
                update(bot_leases)
                .where(
                    bot_leases.c.game_id == game_id,
                    (bot_leases.c.owner == owner) | (bot_leases.c.expires_at < now),
                )
                .values(owner=owner, expires_at=now + seconds)
            ).rowcount
            if renewed:
                return True
            if conn.execute(select(bot_leases.c.owner).where(bot_leases.c.game_id == game_id)).first() is not None:
                return False  # another process holds it
        try:
            with self.engine.begin() as conn:
                conn.execute(insert(bot_leases).values(game_id=game_id, owner=owner, expires_at=now + seconds))
            return True
        except IntegrityError:
            return False  # another process took it at the same moment

    def release_lease(self, game_id: str, owner: str) -> None:
        """Give up our lease on a game (it is over, or has no bot left to drive)."""
        with self.engine.begin() as conn:
            conn.execute(delete(bot_leases).where(bot_leases.c.game_id == game_id, bot_leases.c.owner == owner))

    def lease_owner(self, game_id: str) -> tuple[str, float] | None:
        with self.engine.connect() as conn:
            row = conn.execute(
                select(bot_leases.c.owner, bot_leases.c.expires_at).where(bot_leases.c.game_id == game_id)
            ).first()
            return None if row is None else (row[0], row[1])

    # ---- chat ----------------------------------------------------------------------------------

    def add_chat(self, game_id: str, *, seat: str | None, name: str, text: str) -> dict:
        now = time.time()
        with self.engine.begin() as conn:
            result = conn.execute(insert(chat).values(game_id=game_id, seat=seat, name=name, text=text, created_at=now))
            inserted = result.inserted_primary_key
            assert inserted is not None  # an INSERT always reports its key
            message_id = inserted[0]
        return {"id": message_id, "seat": seat, "name": name, "text": text, "at": now}

    def chat(self, game_id: str, limit: int = 50) -> list[dict]:
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(chat).where(chat.c.game_id == game_id).order_by(chat.c.id.desc()).limit(limit)
            ).mappings()
            return [
                {"id": r["id"], "seat": r["seat"], "name": r["name"], "text": r["text"], "at": r["created_at"]}
                for r in reversed(list(rows))
            ]

    def recent_chat_count(self, game_id: str, seat: str, since: float) -> int:
        with self.engine.connect() as conn:
            return conn.execute(
                select(func.count())
                .select_from(chat)
                .where(chat.c.game_id == game_id, chat.c.seat == seat, chat.c.created_at >= since)
            ).scalar_one()
