"""This browser, without an account: an unguessable id in an HttpOnly cookie, and what it played.

The id is made the first time a browser takes a seat (or opens a daily deal or a challenge) and
sent back in a root-path cookie (``pages/viewer.py``: browser_key; ``web/seat_cookies.py``); the
store keeps only its hash, against each game this browser took a seat in (``browser_seats``).
From those rows come the browser's record per game: played, won, best score, current streak. It
survives a cleared page cache (the server keeps it), but not a new browser or cleared cookies:
there is nothing else to know a person by. A game in which a bot played this browser's seat
(kept it while its player was away) is not in the record: it counts what a person played; nor is
a practice game (``games.practice``: undo past reveals) or an assisted one (``games.assisted``:
a hint was asked), which count nothing. Games dealt from a pool of deals the solver proved
winnable (``games.deal_kind``, ``deal_pools``) keep a record of their own: a win there is never
mixed with wins on any deal (``records(..., deal_kind=...)``; the front page shows it on a line of
its own, and such a game's end states where it leaves that record).
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass

from sqlalchemy import and_, insert, or_, select
from sqlalchemy.exc import IntegrityError

from ..storage.schema import browser_seats, games, seats
from ..storage.store import Store


def note_seat(store: Store, key: str, game_id: str, seat: str) -> None:
    """The browser ``key`` (its id's hash) took ``seat`` in the game: it counts in its record."""
    try:
        with store.engine.begin() as conn:
            conn.execute(insert(browser_seats).values(browser=key, game_id=game_id, seat=seat, created_at=time.time()))
    except IntegrityError:
        pass  # the same browser seated again in that game (a rejoin): it is counted once


@dataclass(frozen=True)
class Record:
    """One game's figures for this browser."""

    played: int = 0
    won: int = 0
    best: int | None = None
    streak: int = 0

    def after(self, result: dict, seat: str) -> Record:
        """This record with one more finished game, ``seat``'s in ``result``."""
        won = seat in (result.get("winners") or [])
        score = (result.get("scores") or {}).get(seat)
        best = self.best
        if isinstance(score, int | float) and (best is None or score > best):
            best = int(score)
        return Record(self.played + 1, self.won + int(won), best, self.streak + 1 if won else 0)


def _played_by_this_browser(query):
    """``query`` (over games joined with browser_seats) without the games in which a bot played
    the browser's seat, and without practice or assisted games: the record counts what a person
    played without undoing past a reveal or asking for a hint."""
    return (
        query.outerjoin(seats, and_(seats.c.game_id == browser_seats.c.game_id, seats.c.seat == browser_seats.c.seat))
        .where(or_(seats.c.bot_played.is_(None), seats.c.bot_played == 0))
        .where(games.c.practice == 0, games.c.assisted == 0)
    )


def records(store: Store, key: str | None, deal_kind: str = "any") -> dict[str, Record]:
    """This browser's record per game slug, from its finished games (oldest first) dealt as
    ``deal_kind`` ("any", or "winnable": from a pool)."""
    return records_by_deal(store, key).get(deal_kind, {})


def records_by_deal(store: Store, key: str | None) -> dict[str, dict[str, Record]]:
    """This browser's records, deal kind -> game slug -> record, in one query (the front page's)."""
    if key is None:
        return {}
    with store.engine.connect() as conn:
        rows = conn.execute(
            _played_by_this_browser(
                select(games.c.slug, games.c.result, browser_seats.c.seat, games.c.deal_kind).join(
                    browser_seats, browser_seats.c.game_id == games.c.id
                )
            )
            .where(browser_seats.c.browser == key, games.c.status == "finished", games.c.result.is_not(None))
            .order_by(games.c.finished_at)
        ).all()
    found: dict[str, dict[str, Record]] = {}
    for slug, raw, seat, deal_kind in rows:
        kind = found.setdefault(deal_kind, {})
        kind[slug] = kind.get(slug, Record()).after(json.loads(raw), seat)
    return found


def standing(store: Store, key: str | None, slug: str, game_id: str, deal_kind: str = "any") -> dict | None:
    """Where this finished game leaves its player's record at ``slug`` (on deals drawn as the
    game's ``deal_kind`` was): the record, the score, and the best of this browser's other finished
    games before it (``new_best`` when beaten); None when this browser did not play this game."""
    if key is None:
        return None
    with store.engine.connect() as conn:
        rows = conn.execute(
            _played_by_this_browser(
                select(games.c.id, games.c.result, browser_seats.c.seat).join(
                    browser_seats, browser_seats.c.game_id == games.c.id
                )
            )
            .where(
                browser_seats.c.browser == key,
                games.c.slug == slug,
                games.c.status == "finished",
                games.c.result.is_not(None),
                games.c.deal_kind == deal_kind,
            )
            .order_by(games.c.finished_at)
        ).all()
    if not any(row.id == game_id for row in rows):
        return None
    before = Record()
    for row in rows:
        result = json.loads(row.result)
        if row.id == game_id:
            score = (result.get("scores") or {}).get(row.seat)
            record = before.after(result, row.seat)
            break
        before = before.after(result, row.seat)
    return {
        "record": record,
        "best_before": before.best,
        "new_best": before.best is not None and isinstance(score, int | float) and score > before.best,
        "best": record.best,
    }
