"""The front page and the how-to-play pages."""

from __future__ import annotations

import json
import time
from dataclasses import dataclass
from datetime import UTC, datetime

from flask import Blueprint, abort, current_app, make_response, render_template, request
from sqlalchemy import select, text

import rules_engine

from ..domain import browsers, deal_pools
from ..domain.catalog import BY_SLUG, GAMES
from ..domain.deals import DAILY_GAMES
from ..domain.seat_tokens import seat_mark
from ..realtime.sockets import board_pushes
from ..storage.schema import games as games_table
from ..storage.schema import seats as seats_table
from . import overload
from .context import browser_key, store
from .seat_cookies import remembered_games

bp = Blueprint("front_page", __name__)


@dataclass(frozen=True)
class YourGame:
    """One row of the front page's "Your games": what the store says, seen from this browser's seat."""

    game_id: str
    title: str
    state: str  # "your-turn", "waiting", "their-turn", "in-progress", "won", "lost" or "finished"
    label: str
    at: float
    when: str
    time_left: int | None = None
    """Seconds left on this seat's turn clock when it is this seat's turn at a timed table."""

    @property
    def over(self) -> bool:
        return self.state in ("won", "lost", "finished")

    @property
    def iso(self) -> str:
        return datetime.fromtimestamp(self.at, UTC).isoformat(timespec="seconds")


_STATE_LABELS = {
    "your-turn": "Your turn",
    "waiting": "Waiting for players",
    "their-turn": "Waiting for another player",
    "in-progress": "In progress",
    "won": "Won",
    "lost": "Lost",
    "finished": "Finished",
}


def ago(seconds: float) -> str:
    """A coarse, readable age: "just now", "5 minutes ago", "yesterday", "3 weeks ago"."""
    seconds = max(0.0, seconds)
    for size, unit in ((60 * 60 * 24 * 7, "week"), (60 * 60 * 24, "day"), (60 * 60, "hour"), (60, "minute")):
        count = int(seconds // size)
        if count >= 1:
            if unit == "day" and count == 1:
                return "yesterday"
            return f"{count} {unit}{'' if count == 1 else 's'} ago"
    return "just now"


def _state(row, seat: str) -> str:
    if row["status"] == "waiting":
        return "waiting"
    if row["status"] == "finished":
        result = json.loads(row["result"]) if row["result"] else None
        if not isinstance(result, dict) or "winners" not in result:
            return "finished"
        return "won" if seat in result["winners"] else "lost"
    turn_key = row["turn_key"]
    if turn_key:
        # The turn clock's key is "seat:number": whose turn it is, which every viewer is shown anyway.
        return "your-turn" if turn_key.split(":", 1)[0] == seat else "their-turn"
    return "in-progress"


def your_games(now: float | None = None) -> list[YourGame]:
    """This browser's games, newest first, from its signed list (seat_cookies.remember_game): one query
    for all of them. A game whose seat this browser no longer holds (left, or the table is gone) is
    not listed."""
    remembered = remembered_games(request)
    if not remembered:
        return []
    marks = dict(remembered)
    statement = (
        select(
            games_table.c.id,
            games_table.c.slug,
            games_table.c.status,
            games_table.c.result,
            games_table.c.turn_key,
            games_table.c.turn_deadline,
            games_table.c.updated_at,
            games_table.c.finished_at,
            seats_table.c.seat,
            seats_table.c.token_hash,
        )
        .join(seats_table, seats_table.c.game_id == games_table.c.id)
        .where(games_table.c.id.in_(list(marks)))
    )
    with store().engine.connect() as conn:
        rows = conn.execute(statement).mappings().all()
    held = {}
    for row in rows:
        if seat_mark(row["token_hash"]) == marks[row["id"]]:
            held[row["id"]] = row
    now = time.time() if now is None else now
    listed = []
    for game_id, _mark in remembered:
        mine = held.get(game_id)
        entry = BY_SLUG.get(mine["slug"]) if mine is not None else None
        if mine is None or entry is None:
            continue
        state = _state(mine, mine["seat"])
        at = mine["finished_at"] or mine["updated_at"]
        deadline = mine["turn_deadline"] if state == "your-turn" else None
        left = max(0, int(deadline - now)) if deadline is not None else None
        listed.append(YourGame(game_id, entry.title, state, _STATE_LABELS[state], at, ago(now - at), left))
    return your_turns_first(listed)


def your_turns_first(listed: list[YourGame]) -> list[YourGame]:
    """The games where it is this browser's turn first, the least time left first (untimed last),
    then the others as they were (newest first): a slow table's turn waits here for its player."""
    yours = [game for game in listed if game.state == "your-turn"]
    yours.sort(key=lambda game: (game.time_left is None, game.time_left or 0))
    return yours + [game for game in listed if game.state != "your-turn"]


@bp.get("/")
def index():
    mine = your_games()
    # This browser's record per game, kept by the server (domain/browsers.py): every finished game
    # it played, not only the newest the "Your games" list remembers.
    by_deal = browsers.records_by_deal(store(), browser_key())
    records = by_deal.get(deal_pools.ANY, {})
    played = sum(r.played for r in records.values())
    won = sum(r.won for r in records.values())
    response = make_response(
        render_template(
            "index.html",
            games=GAMES,
            your_games=mine,
            # The tab's title counts them: "(2) Delve".
            your_turns=sum(game.state == "your-turn" for game in mine),
            records=records,
            # Games dealt from a pool of winnable deals count apart (domain/deal_pools.py).
            winnable_records=by_deal.get(deal_pools.WINNABLE, {}),
            record={"won": won, "lost": played - won},
            dailies=DAILY_GAMES,
        )
    )
    # The page lists this browser's own games: no shared cache may keep it for another.
    response.headers["Cache-Control"] = "private, no-cache"
    response.headers["Vary"] = "Cookie"
    return response


@bp.get("/how-to-play/<slug>")
def how_to_play(slug: str):
    entry = BY_SLUG.get(slug)
    if entry is None or not entry.playable:
        abort(404, description="There is no such game in Delve.")
    # The engine module is in the context so rules tables render from the engine's own data.
    return render_template(f"{entry.template_dir}/how_to_play.html", entry=entry, rules=rules_engine.get(slug))


@bp.get("/healthz")
def healthz():
    """Liveness: the process answers."""
    return {"status": "ok"}


@bp.get("/readyz")
def readyz():
    """Readiness: 503 when the database does not answer; "degraded" (200) when only Redis does not."""
    checks = {}
    try:
        with store().engine.connect() as conn:
            conn.execute(text("SELECT 1"))
        checks["database"] = "ok"
    except Exception as error:  # any failure means: do not send players here
        checks["database"] = f"unavailable: {error.__class__.__name__}"
    if current_app.config["REDIS_URL"]:
        try:
            import redis

            redis.Redis.from_url(current_app.config["REDIS_URL"], socket_timeout=1).ping()
            checks["redis"] = "ok"
        except Exception as error:
            checks["redis"] = f"unavailable: {error.__class__.__name__}"
    # Without the database nothing can be played: take this process out of the balancer. Without
    # Redis, play goes on (actions apply and persist; only pushes to other processes pause until
    # it is back), so pulling every process out would turn a degraded site into a dead one.
    if checks["database"] != "ok":
        return {"status": "not ready", "checks": checks}, 503
    status = "ready" if all(v == "ok" for v in checks.values()) else "degraded"
    # Past its capacity the process stays ready: it refuses actions itself (web/overload.py), and
    # taking every busy process out of the balancer would refuse everyone.
    return {
        "status": status,
        "checks": checks,
        "load": overload.gauge().report(),
        "pushes": board_pushes().report(),
    }, 200
