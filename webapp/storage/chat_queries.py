"""The store's table chat."""

from __future__ import annotations

import time

from sqlalchemy import func, insert, select
from sqlalchemy.engine import Engine

from .schema import chat


class ChatQueries:
    """Part of ``Store``: a table's chat messages."""

    engine: Engine

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
            return [_message(row) for row in reversed(list(rows))]

    def chat_after(self, game_id: str, after: int, limit: int = 50) -> list[dict]:
        """The game's messages newer than message ``after``, oldest first (at most ``limit``)."""
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(chat).where(chat.c.game_id == game_id, chat.c.id > after).order_by(chat.c.id).limit(limit)
            ).mappings()
            return [_message(row) for row in rows]

    def recent_chat_count(self, game_id: str, seat: str, since: float) -> int:
        with self.engine.connect() as conn:
            return conn.execute(
                select(func.count())
                .select_from(chat)
                .where(chat.c.game_id == game_id, chat.c.seat == seat, chat.c.created_at >= since)
            ).scalar_one()


def _message(row) -> dict:
    """A chat row as the pages and pushes read it."""
    return {"id": row["id"], "seat": row["seat"], "name": row["name"], "text": row["text"], "at": row["created_at"]}
