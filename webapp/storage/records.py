"""What the store hands back (a game's row, a seat's row), its one error, and the statements and
helpers its parts share."""

from __future__ import annotations

import dataclasses
import json
import secrets
from dataclasses import dataclass

import orjson
from sqlalchemy import bindparam, insert, select, update

from .driver_statements import DriverStatement
from .schema import actions, games, seats


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
    deal_kind: str = "any"
    """How the deal was drawn: "any" or "winnable" (from a pool the solver keeps: deal_pools)."""


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
    bot_played: bool = False
    """A bot has played this seat (its own, or its player's while it kept it)."""
    bot_since: int | None = None
    """The game's version when a bot began keeping the seat, until its player has read what the
    bot did for them."""


def _seat_number(seat: str) -> int:
    """N of a seat "pN"; 0 for any other id (a solo game's seat)."""
    return int(seat[1:]) if seat[:1] == "p" and seat[1:].isdigit() else 0


def _bump(conn, game_id: str) -> int:
    """Bump the game's revision inside the caller's transaction; the new revision."""
    return conn.execute(
        update(games).where(games.c.id == game_id).values(revision=games.c.revision + 1).returning(games.c.revision)
    ).scalar_one()


# The games whose turn is running: what the turn timeouts, the slow turns' reminders and the
# bots look at (each needs a running turn), as a list their queries start from. Read through
# ``ix_games_turn_key``, never the history of finished and abandoned games: a finished game's turn
# key is cleared, and a solo game without a turn clock has none. ``> ''`` (a key is
# "<seat>:<number>") is a range SQLite reads the index for, where it scans for ``IS NOT NULL``; and
# as a list of ids the joins start from it, where SQLite would scan every seat first.
_turning = games.alias("turning")
_RUNNING_TURNS = select(_turning.c.id).where(_turning.c.turn_key > "", _turning.c.status == "running")


# Built once: the statements every request runs (constructing one costs more than running it).
# An action's own statements (its game read, its seats read, its append) run on the driver's
# cursor (``DriverStatement``): SQLAlchemy's execution cost several times the driver's.
_LOAD_GAME = DriverStatement(select(games).where(games.c.id == bindparam("game_id")))
_LOAD_GAME_HEAD = DriverStatement(
    select(*[column for column in games.c if column.name != "snapshot"]).where(games.c.id == bindparam("game_id"))
)
_REVISION = select(games.c.revision).where(games.c.id == bindparam("game_id"))
_SEAT_HASHES = select(seats.c.seat, seats.c.token_hash).where(seats.c.game_id == bindparam("game_id"))
# A seat's record's fields in ``SeatRecord``'s order, then its token hash.
_SEATS = DriverStatement(
    select(
        seats.c.seat,
        seats.c.name,
        seats.c.joined_at,
        seats.c.connected,
        seats.c.last_seen,
        seats.c.gone,
        seats.c.bot,
        seats.c.kept,
        seats.c.bot_played,
        seats.c.bot_since,
        seats.c.token_hash,
    )
    .where(seats.c.game_id == bindparam("game_id"))
    .order_by(seats.c.joined_at, seats.c.seat)
)
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
_APPEND = DriverStatement(update(games).where(*_APPEND_WHERE).values(**_APPEND_VALUES).returning(games.c.revision))
_APPEND_WITH_CLOCK = DriverStatement(
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
# The columns an action's row is written with; the others keep their defaults (``bot`` 0).
_LOG_ACTION = DriverStatement(
    insert(actions).values({name: bindparam(name) for name in ("game_id", "seq", "seat", "action", "created_at")})
)
_SEEN = (
    update(seats)
    .where(seats.c.game_id == bindparam("the_game"), seats.c.seat == bindparam("the_seat"))
    .values(last_seen=bindparam("now"))
)


def _json(value) -> str:
    return json.dumps(value, separators=(",", ":"), sort_keys=True)


_STATE_JSON = orjson.OPT_SORT_KEYS | orjson.OPT_NON_STR_KEYS


def _state_json(snapshot) -> str:
    """A game's state as stored with every action: the largest value written, encoded by orjson
    (a tenth of the standard library's time) as JSON that reads back the same. What orjson will
    not take (an integer past 64 bits) is encoded by ``_json``. Only the state: ``_json``'s text
    also keys lookups (a solver job's parameters), which must stay byte for byte as written."""
    try:
        return orjson.dumps(snapshot, option=_STATE_JSON).decode()
    except TypeError:
        return _json(snapshot)


def new_game_id() -> str:
    """An unguessable, URL-safe public id (128 bits)."""
    return secrets.token_urlsafe(16)
