"""The store's seats: taking and leaving one, presence (connected, last seen, gone), the turn
clock's due games, and a bot keeping a dropped player's seat until they are back."""

from __future__ import annotations

import time

from sqlalchemy import delete, func, insert, select, update
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError

from rules_engine import turn_limits

from .records import _RUNNING_TURNS, _SEAT_HASHES, _SEATS, _SEEN, SeatRecord, _bump, _seat_number
from .schema import games, new_seat, seats


class SeatQueries:
    """Part of ``Store``: every query about a game's seats."""

    engine: Engine

    def seat_hashes(self, game_id: str) -> dict[str, str]:
        with self.engine.connect() as conn:
            rows = conn.execute(_SEAT_HASHES, {"game_id": game_id})
            return {seat: token_hash for seat, token_hash in rows}

    def seats(self, game_id: str) -> list[SeatRecord]:
        return self.seats_and_hashes(game_id)[0]

    def seats_and_hashes(self, game_id: str) -> tuple[list[SeatRecord], dict[str, str]]:
        """The seats (``seats``) and their token hashes (``seat_hashes``), read at once."""
        with self.engine.connect() as conn:
            return self._seats_and_hashes(conn, game_id)

    @staticmethod
    def _seats_and_hashes(conn, game_id: str) -> tuple[list[SeatRecord], dict[str, str]]:
        rows = _SEATS.rows(conn, {"game_id": game_id})
        return [
            SeatRecord(
                seat,
                name,
                joined_at,
                bool(connected),
                last_seen,
                bool(gone),
                bot,
                bool(kept),
                bool(bot_played),
                bot_since,
            )
            for seat, name, joined_at, connected, last_seen, gone, bot, kept, bot_played, bot_since, _token_hash in rows
        ], {seat: token_hash for seat, *_record, token_hash in rows}

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
                    row = new_seat(
                        game_id, seat, name, token_hash, now, origin=origin, bot=bot, bot_played=int(bool(bot))
                    )
                    conn.execute(insert(seats).values(row))
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
        socket connects (webapp/domain/bots.py)."""
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

    def absent_seats(
        self, older_than: float, *, slow_turns_from: float = turn_limits.SLOW_FROM
    ) -> list[tuple[str, str]]:
        """(game, seat) of running games whose seat has been away since before ``older_than``,
        but for games whose running turn lasts ``slow_turns_from`` seconds or more (slow tables:
        there only the turn clock moves the game on)."""
        turn_length = games.c.turn_deadline - games.c.turn_started_at
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
                    games.c.turn_deadline.is_(None)
                    | games.c.turn_started_at.is_(None)
                    | (turn_length < slow_turns_from),
                )
            )
            return [(g, s) for g, s in rows]

    def due_turns(self, now: float) -> list[str]:
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(games.c.id).where(
                    games.c.id.in_(_RUNNING_TURNS), games.c.turn_deadline.is_not(None), games.c.turn_deadline <= now
                )
            )
            return [r[0] for r in rows]

    def claim_reminders(self, now: float, *, from_seconds: float, left_fraction: float) -> list[tuple[str, str, float]]:
        """(game, seat, deadline) of every running turn lasting ``from_seconds`` or more with at most
        ``left_fraction`` of its time left at ``now``, whose seat is a person's with no page open,
        and not reminded yet: each is marked reminded here (``games.turn_reminded``), by an update
        that lands only once per turn key, so of two processes one claims it."""
        turn_length = games.c.turn_deadline - games.c.turn_started_at
        not_reminded = games.c.turn_reminded.is_(None) | (games.c.turn_reminded != games.c.turn_key)
        with self.engine.begin() as conn:
            due = conn.execute(
                select(games.c.id, games.c.turn_key, games.c.turn_deadline, seats.c.seat)
                # A turn key is "<seat>:<number>"; seats are "p<N>", with no LIKE wildcard in them.
                .join(seats, (seats.c.game_id == games.c.id) & games.c.turn_key.like(seats.c.seat.concat(":%")))
                .where(
                    games.c.id.in_(_RUNNING_TURNS),
                    games.c.turn_deadline.is_not(None),
                    games.c.turn_started_at.is_not(None),
                    turn_length >= from_seconds,
                    games.c.turn_deadline > now,
                    games.c.turn_deadline - now <= turn_length * left_fraction,
                    not_reminded,
                    seats.c.connected == 0,
                    seats.c.gone == 0,
                    seats.c.bot.is_(None),
                )
            ).all()
            claimed = []
            for game_id, turn_key, deadline, seat in due:
                marked = conn.execute(
                    update(games)
                    .where(games.c.id == game_id, games.c.turn_key == turn_key, not_reminded)
                    .values(turn_reminded=turn_key)
                ).rowcount
                if marked:
                    claimed.append((game_id, seat, deadline))
            return claimed

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

    # ---- bots (webapp/domain/bots.py) ---------------------------------------------------------------------

    def take_over(self, game_id: str, seat: str, level: str) -> int | None:
        """A bot of ``level`` plays a person's seat until they come back; the new revision, or
        None if the seat is not a person's any more (a bot, gone, or taken over already)."""
        version = select(games.c.version).where(games.c.id == game_id).scalar_subquery()
        with self.engine.begin() as conn:
            changed = conn.execute(
                update(seats)
                .where(seats.c.game_id == game_id, seats.c.seat == seat, seats.c.bot.is_(None), seats.c.gone == 0)
                # An earlier stint's report not read yet stays in: the player reads both at once.
                .values(bot=level, kept=1, bot_since=func.coalesce(seats.c.bot_since, version))
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
