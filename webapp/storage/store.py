"""The action log is the game: one row per game, one row per accepted action.

Appending action ``seq = version + 1`` and bumping the game's version happen in one
transaction guarded by ``WHERE version = expected``: two racing actions cannot both land and
none is lost. The state snapshot on the game row is a cache that
replaying the log must reproduce (tested).
"""

from __future__ import annotations

import json
import time

from sqlalchemy import delete, func, insert, select, update
from sqlalchemy.engine import Connection
from sqlalchemy.exc import IntegrityError

from .bot_queries import BotQueries
from .chat_queries import ChatQueries
from .engine import open_engine
from .migrate import upgrade
from .records import (
    _APPEND,
    _APPEND_WITH_CLOCK,
    _LOAD_GAME,
    _LOAD_GAME_HEAD,
    _LOG_ACTION,
    _REVISION,
    GameRecord,
    SeatRecord,
    StaleVersion,
    _json,
    _seat_number,
    _state_json,
    new_game_id,
)
from .schema import actions, chat, games, new_seat, seats
from .seat_queries import SeatQueries
from .solver_queries import SolverQueries


class Store(SeatQueries, BotQueries, ChatQueries, SolverQueries):
    """The database: games and their action logs here; seats, bots, chat and solver jobs in its parts."""

    def __init__(self, url: str):
        self.engine = open_engine(url)
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
        deal_kind: str = "any",
        conn: Connection | None = None,
    ) -> str:
        """Store a new game; ``seat_tokens`` maps seat -> (display name, token hash). ``conn``:
        inside the caller's transaction (a seed taken from a pool of winnable deals with it)."""
        if conn is None:
            with self.engine.begin() as own:
                return self.create_game(
                    slug=slug,
                    options=options,
                    seed=seed,
                    players=players,
                    snapshot=snapshot,
                    seat_tokens=seat_tokens,
                    status=status,
                    lobby=lobby,
                    deal_kind=deal_kind,
                    conn=own,
                )
        game_id = new_game_id()
        now = time.time()
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
                snapshot=_state_json(snapshot),
                result=None,
                created_at=now,
                updated_at=now,
                finished_at=None,
                seats_issued=max(map(_seat_number, seat_tokens), default=0),
                deal_kind=deal_kind,
            )
        )
        for seat, (name, token_hash) in seat_tokens.items():
            conn.execute(insert(seats).values(new_seat(game_id, seat, name, token_hash, now)))
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
            deal_kind=row["deal_kind"],
        )

    def load(self, game_id: str, *, snapshot: bool = True) -> GameRecord | None:
        """The game's row; without its ``snapshot`` (None then) when the caller has that state
        already (``play.load_game``'s cache): the largest column, and the costliest to parse."""
        statement = _LOAD_GAME if snapshot else _LOAD_GAME_HEAD
        with self.engine.connect() as conn:
            row = statement.first(conn, {"game_id": game_id})
        return None if row is None else self._record(dict(zip(statement.columns, row)))

    def game_and_seats(self, game_id: str) -> tuple[GameRecord | None, list[SeatRecord], dict[str, str]]:
        """The game's row (its snapshot included) and its seats with their token hashes, through
        one connection: what a push round reads of a game another process changed."""
        with self.engine.connect() as conn:
            row = _LOAD_GAME.first(conn, {"game_id": game_id})
            if row is None:
                return None, [], {}
            return self._record(dict(zip(_LOAD_GAME.columns, row))), *self._seats_and_hashes(conn, game_id)

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
            "new_snapshot": _state_json(snapshot),
            "new_result": _json(result) if result is not None else None,
            "now": now,
            "finished": now if result is not None else None,
            "new_status": "finished" if result is not None else "running",
        }
        if clock is not None:
            params.update(new_turn_key=clock[0], new_turn_started_at=clock[1], new_turn_deadline=clock[2])
        try:
            with self.engine.begin() as conn:
                bumped = (_APPEND if clock is None else _APPEND_WITH_CLOCK).first(conn, params)
                if bumped is None:
                    conn.rollback()
                    raise StaleVersion(-1)
                _LOG_ACTION.run(
                    conn,
                    {"game_id": game_id, "seq": new_version, "seat": seat, "action": _json(action), "created_at": now},
                )
                if also is not None:
                    also(conn, now)
                if result is not None:
                    # Nothing of a finished game is watched any more: its seats leave the presence
                    # and bot loops' reads (``ix_seats_gone_connected_last_seen``), as an imported
                    # finished game's seats do. After the writers: they read the seats as they were.
                    conn.execute(update(seats).where(seats.c.game_id == game_id).values(gone=1))
        except (IntegrityError, StaleVersion):
            raise StaleVersion(self.version(game_id) or 0) from None
        return new_version, bumped[0]

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
        lobby: dict | None = None,
    ) -> str:
        """Store a finished game replayed from a file, with its whole action log, in one
        transaction. Its seats hold ``placeholder_hash``, a hash of a token nobody was given: an
        imported game is watched, never played. ``lobby`` adds facts about its origin (``line_of``:
        the game whose deal the solver's winning line plays)."""
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
                    lobby=_json({"imported": True, **(lobby or {})}),
                    snapshot=_state_json(snapshot),
                    result=_json(result),
                    created_at=now,
                    updated_at=now,
                    finished_at=now,
                )
            )
            for index, seat in enumerate(players):
                joined = now + index * 1e-6  # seats keep their order
                row = new_seat(game_id, seat, names[seat], placeholder_hash, joined, last_seen=now, gone=1)
                conn.execute(insert(seats).values(row))
            if moves:
                conn.execute(
                    _LOG_ACTION.statement,
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
                    snapshot=_state_json(snapshot),
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
