"""This browser, without an account: an unguessable id in an HttpOnly cookie, and what it played.

The id is made the first time a browser takes a seat (or opens a daily deal or a challenge) and
sent back in a root-path cookie; the store keeps only its hash, against each game this browser
took a seat in (``browser_seats``). From those rows come the browser's record per game: played,
won, best score, current streak. It survives a cleared page cache (the server keeps it), but
not a new browser or cleared cookies: there is nothing else to know a person by. A game in which a
bot played this browser's seat (kept it while its player was away) is not in the record: it
counts what a person played.
"""

from __future__ import annotations

import json
import secrets
import time
from dataclasses import dataclass

from flask import Flask, current_app, g, request
from sqlalchemy import and_, insert, or_, select
from sqlalchemy.exc import IntegrityError
from werkzeug.wrappers import Response

from .seats import COOKIE_MAX_AGE, hash_token
from .store import Store, browser_seats, games, seats

COOKIE_NAME = "delve_browser"
TOKEN_MAX = 64


def browser_key(*, create: bool = False) -> str | None:
    """The hash of this browser's id (what the store keeps), or None when it has none yet and
    ``create`` is False. A new id is sent back with this request's response."""
    if "browser_key" in g:
        return g.browser_key
    token = request.cookies.get(COOKIE_NAME)
    if token and 20 <= len(token) <= TOKEN_MAX:
        g.browser_key = hash_token(token)
    elif create:
        token = secrets.token_urlsafe(32)
        g.new_browser_token = token
        g.browser_key = hash_token(token)
    else:
        return None
    return g.browser_key


def _send_new_id(response: Response) -> Response:
    token = g.get("new_browser_token")
    if token:
        response.set_cookie(
            COOKIE_NAME,
            token,
            max_age=COOKIE_MAX_AGE,
            path="/",
            httponly=True,
            samesite="Lax",
            secure=current_app.config["SESSION_COOKIE_SECURE"],
        )
    return response


def init_app(app: Flask) -> None:
    app.after_request(_send_new_id)


def note_seat(store: Store, game_id: str, seat: str) -> None:
    """This browser took ``seat`` in the game: it counts in its record."""
    key = browser_key(create=True)
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
    the browser's seat: the record counts what a person played."""
    return query.outerjoin(
        seats, and_(seats.c.game_id == browser_seats.c.game_id, seats.c.seat == browser_seats.c.seat)
    ).where(or_(seats.c.bot_played.is_(None), seats.c.bot_played == 0))


def records(store: Store, key: str | None) -> dict[str, Record]:
    """This browser's record per game slug, from its finished games (oldest first)."""
    if key is None:
        return {}
    with store.engine.connect() as conn:
        rows = conn.execute(
            _played_by_this_browser(
                select(games.c.slug, games.c.result, browser_seats.c.seat).join(
                    browser_seats, browser_seats.c.game_id == games.c.id
                )
            )
            .where(browser_seats.c.browser == key, games.c.status == "finished", games.c.result.is_not(None))
            .order_by(games.c.finished_at)
        ).all()
    found: dict[str, Record] = {}
    for slug, raw, seat in rows:
        found[slug] = found.get(slug, Record()).after(json.loads(raw), seat)
    return found


def standing(store: Store, key: str | None, slug: str, game_id: str) -> dict | None:
    """Where this finished game leaves its player's record at ``slug``: the record, the score,
    and the best of this browser's other finished games before it (``new_best`` when beaten);
    None when this browser did not play this game."""
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
