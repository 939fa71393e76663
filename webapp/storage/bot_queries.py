"""The store's bots: which tables have bot seats to drive, and the lease that lets exactly one
process drive a table's bots at a time."""

from __future__ import annotations

import json

from sqlalchemy import delete, insert, select, update
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError

from .records import _RUNNING_TURNS, _json
from .schema import actions, bot_leases, games, seats


class BotQueries:
    """Part of ``Store``: the bot seats' queries and the bot leases."""

    engine: Engine

    def seat_is_bot(self, conn, game_id: str, seat: str) -> bool:
        """Inside an action's transaction: whether a bot still plays ``seat`` (its player may have
        come back since the bot read the board)."""
        played_by = conn.execute(select(seats.c.bot).where(seats.c.game_id == game_id, seats.c.seat == seat)).scalar()
        return played_by is not None

    def mark_bot_played(self, conn, game_id: str, seat: str) -> None:
        """Inside a bot's action's transaction: the seat has been played by a bot, for good."""
        conn.execute(update(seats).where(seats.c.game_id == game_id, seats.c.seat == seat).values(bot_played=1))

    def seat_ids(self, conn, game_id: str) -> list[str]:
        """Inside a transaction: every seat of the game (whose logs a bot's action may write to)."""
        return [r[0] for r in conn.execute(select(seats.c.seat).where(seats.c.game_id == game_id))]

    def mark_bot_action(self, conn, game_id: str, seq: int, log_span: dict[str, list[int]]) -> None:
        """Inside a bot's action's transaction: action ``seq`` is the bot's, and wrote ``log_span``."""
        conn.execute(
            update(actions)
            .where(actions.c.game_id == game_id, actions.c.seq == seq)
            .values(bot=1, log_span=_json(log_span))
        )

    def bot_moves(self, game_id: str, for_seats: list[str]) -> list[tuple[int, str, dict, dict]]:
        """The actions bots played for ``for_seats``: (seq, seat, action, log span), in order."""
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(actions.c.seq, actions.c.seat, actions.c.action, actions.c.log_span)
                .where(actions.c.game_id == game_id, actions.c.bot == 1, actions.c.seat.in_(for_seats))
                .order_by(actions.c.seq)
            )
            return [(seq, seat, json.loads(action), json.loads(span or "{}")) for seq, seat, action, span in rows]

    def bot_report_read(self, game_id: str, seat: str) -> bool:
        """The seat's player has read what a bot did for them: True if there was a report."""
        with self.engine.begin() as conn:
            return bool(
                conn.execute(
                    update(seats)
                    .where(seats.c.game_id == game_id, seats.c.seat == seat, seats.c.bot_since.is_not(None))
                    .values(bot_since=None)
                ).rowcount
            )

    def bot_tables(self) -> dict[str, tuple[int, float, list[str]]]:
        """Running games where a bot plays a seat still in the game and a person is present:
        {game: (version, when it last changed, the bot seats in join order)}; one read for every
        table a process may drive. A person is present while a seat a person plays (not a bot's,
        nor kept by one) is still at the table: the presence loop drops a seat GRACE_SECONDS
        after its pages closed, so bots with nobody left to play for wait, at no cost. Only
        games whose turn runs (``_RUNNING_TURNS``): a bot only ever answers a decision the turn
        clock times, and the bot loop asks four times a second."""
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
                .where(games.c.id.in_(_RUNNING_TURNS), seats.c.bot.is_not(None), seats.c.gone == 0, person_present)
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
