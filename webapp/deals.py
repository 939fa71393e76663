"""Shared deals: "beat my score on this deal" challenges, and one deal a day for everybody.

A **challenge** (``/c/<token>``) is made from a finished solo game by its player: whoever opens the
link starts a fresh game on the same deal (the game's seed and options, read from the store; the
token alone travels). A **daily deal** (``/daily/<slug>``) is drawn in secret by the first request
of each UTC day, the same for everybody; The Dungeon of Doom's is a table on the day's random map.

Every game played on a shared deal is an *attempt* (``deal_attempts``): ranked if it is the first
on that deal both of this browser and of this client address (a keyed hash of it, as seats keep:
a fresh cookie is free to make), practice otherwise; one started from another attempt ("the same
deal again") is always practice. A deal's page lists its finished attempts, ranked by score (the
attempt's own seat's), then fewer actions, then the earlier finish; a seat a bot ever played is
never ranked (and a daily table takes no bots at all: ``service.takes_bots``).

No studying the deal first: the replay (and the file) of an attempt opens only to a browser whose
own attempt on that deal is finished, and a daily deal's replays stay closed to everybody until
its day is over (``replay_closed_because``, which ``webapp.replays`` asks). A solo game on a shared
deal — a challenge's source game too — shows its page and board to anyone but its player on the
same terms (``closed_to_onlooker``): a finished game's page shows its whole log. The seed never
leaves the server while a game on the deal runs.
"""

from __future__ import annotations

import json
import secrets
import time
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta

from flask import Blueprint, abort, current_app, make_response, redirect, render_template, request, url_for
from sqlalchemy import and_, insert, or_, select, update
from sqlalchemy.exc import IntegrityError

from . import browsers, play
from . import seats as seat_tokens
from .catalog import BY_SLUG, clean_name, parse_options
from .limits import CREATE_GAME, READ, limiter
from .security import check_csrf
from .store import Store, browser_seats, challenges, daily_deals, deal_attempts, games, seats

bp = Blueprint("deals", __name__)

TOKEN_BYTES = 12
LEADERBOARD_SIZE = 50
HISTORY_DAYS = 30
# The day's deal of each game: the solo games' standard options; The Dungeon of Doom, a table on
# a fresh random map (medium) drawn from the day's seed.
DAILY_FORMS: dict[str, dict[str, str]] = {
    "shuffle-and-doom": {},
    "clear-the-dungeon": {},
    "hebracs-dungeon": {},
    "dungeon-of-doom": {"map_choice": "random-M"},
}
CHALLENGE_GAMES = ("shuffle-and-doom", "clear-the-dungeon", "hebracs-dungeon")


def store() -> Store:
    return current_app.extensions["delve_store"]


def today() -> date:
    """The UTC day (a function, so tests can move the clock)."""
    return datetime.now(UTC).date()


def challenge_deal(token: str) -> str:
    return f"challenge:{token}"


def daily_deal(slug: str, day: date) -> str:
    return f"daily:{slug}:{day.isoformat()}"


@dataclass(frozen=True)
class Attempt:
    game_id: str
    name: str
    score: int
    actions: int
    seconds: float
    finished_at: float
    ranked: bool
    browser: str
    by_bot: bool = False
    """A bot played the attempt's seat (at some point): listed, never ranked."""


@bp.app_template_filter("utc_iso")
def utc_iso(timestamp: float) -> str:
    return datetime.fromtimestamp(timestamp, UTC).isoformat(timespec="seconds")


@bp.app_template_filter("utc_day")
def utc_day(timestamp: float) -> str:
    return datetime.fromtimestamp(timestamp, UTC).strftime("%-d %b %Y, %H:%M UTC")


# ---- the deals' attempts ------------------------------------------------------------------------


def request_origin() -> str:
    """This request's client address, as the keyed hash seats keep (``seats.origin_of``)."""
    return seat_tokens.origin_of(request, current_app.config["SECRET_KEY"])


def add_attempt(deal: str, game_id: str, browser: str, *, practice: bool = False) -> bool:
    """Note ``game_id`` as an attempt on ``deal`` from this request's address; True when it is
    ranked: the first on the deal of this browser and of this address, and not ``practice`` (an
    attempt started from another attempt)."""
    origin = request_origin()
    with store().engine.begin() as conn:
        earlier = conn.execute(
            select(deal_attempts.c.game_id)
            .where(
                deal_attempts.c.deal == deal,
                or_(deal_attempts.c.browser == browser, deal_attempts.c.origin == origin),
            )
            .limit(1)
        ).first()
        ranked = earlier is None and not practice
        conn.execute(
            insert(deal_attempts).values(
                game_id=game_id, deal=deal, browser=browser, ranked=int(ranked), created_at=time.time(), origin=origin
            )
        )
    return ranked


def attempts(deal: str, *, finished_only: bool = True) -> list[Attempt]:
    """The deal's attempts, best first (finished ones, unless asked otherwise)."""
    query = (
        select(
            games.c.id,
            games.c.result,
            games.c.version,
            games.c.created_at,
            games.c.finished_at,
            deal_attempts.c.ranked,
            deal_attempts.c.browser,
            browser_seats.c.seat,
        )
        .join(deal_attempts, deal_attempts.c.game_id == games.c.id)
        # The attempt's own seat: the one its browser took (a solo game's player; a table's host).
        .outerjoin(
            browser_seats,
            and_(browser_seats.c.game_id == games.c.id, browser_seats.c.browser == deal_attempts.c.browser),
        )
        .where(deal_attempts.c.deal == deal)
    )
    if finished_only:
        query = query.where(games.c.status == "finished")
    with store().engine.connect() as conn:
        rows = conn.execute(query).all()
        names: dict[tuple[str, str], str] = {}
        played_by_bot: set[tuple[str, str]] = set()
        ids = [row.id for row in rows]
        if ids:
            for game_id, seat, name, bot_played in conn.execute(
                select(seats.c.game_id, seats.c.seat, seats.c.name, seats.c.bot_played).where(seats.c.game_id.in_(ids))
            ):
                names[(game_id, seat)] = name
                if bot_played:
                    played_by_bot.add((game_id, seat))
    found = []
    for row in rows:
        result = json.loads(row.result) if row.result else {}
        scores = result.get("scores") or {}
        seat = row.seat or play.SOLO_SEAT
        by_bot = (row.id, seat) in played_by_bot
        finished_at = row.finished_at or 0.0
        found.append(
            Attempt(
                game_id=row.id,
                name=names.get((row.id, seat)) or "Adventurer",
                score=int(scores.get(seat, 0) or 0),
                actions=row.version,
                seconds=max(0.0, finished_at - row.created_at) if row.finished_at else 0.0,
                finished_at=finished_at,
                ranked=bool(row.ranked) and not by_bot,
                browser=row.browser,
                by_bot=by_bot,
            )
        )
    found.sort(key=lambda a: (-a.score, a.actions, a.finished_at))
    return found


def deal_of(game_id: str) -> str | None:
    with store().engine.connect() as conn:
        return conn.execute(select(deal_attempts.c.deal).where(deal_attempts.c.game_id == game_id)).scalar()


def has_finished_attempt(deal: str, browser: str | None) -> bool:
    if browser is None:
        return False
    with store().engine.connect() as conn:
        row = conn.execute(
            select(games.c.id)
            .join(deal_attempts, deal_attempts.c.game_id == games.c.id)
            .where(deal_attempts.c.deal == deal, deal_attempts.c.browser == browser, games.c.status == "finished")
            .limit(1)
        ).first()
    return row is not None


def replay_closed_because(game_id: str) -> tuple[int, str] | None:
    """Why this finished game's replay (and file) stays closed to this browser, as (status,
    sentence), or None when it is open.

    A daily deal's games open once their UTC day is over, to everybody (409: not yet); a
    challenge's attempts open to a browser whose own attempt on that deal is finished (403: not
    to you, yet)."""
    deal = deal_of(game_id)
    if deal is None:
        return None
    if deal.startswith("daily:"):
        day = deal.rsplit(":", 1)[1]
        if day >= today().isoformat():
            return 409, "This is today's daily deal: its replays open for everybody when the day ends (midnight UTC)."
        return None
    if has_finished_attempt(deal, browsers.browser_key()):
        return None
    return 403, (
        "This game was played on a challenge's deal: its replay opens once your own attempt on that deal is over."
    )


def closed_to_onlooker(game: play.LoadedGame, seat: str | None) -> str | None:
    """Why this viewer may not see this game's page or board, or None when they may.

    A solo game on a shared deal (a challenge's source game too) shows what a player needs to
    beat the deal — a finished one, its whole log — so its page opens to anyone but its player on
    its replay's terms: a challenge's once the viewer's own attempt on it is over, a daily deal's
    once its day ends. A daily deal's table stays open: its link is how friends sit down."""
    if seat is not None or not BY_SLUG[game.record.slug].solo:
        return None
    deal = deal_of(game.id)
    if deal is None:
        return None
    if deal.startswith("daily:"):
        if deal.rsplit(":", 1)[1] >= today().isoformat():
            return "This game is on today's daily deal: only its player sees it until the day ends (midnight UTC)."
        return None
    if has_finished_attempt(deal, browsers.browser_key()):
        return None
    return "This game was played on a challenge's deal: it opens to you once your own attempt on that deal is over."


def on_shared_solo_deal(game: play.LoadedGame) -> bool:
    """Whether who may see this game depends on the viewer (``closed_to_onlooker``)."""
    return BY_SLUG[game.record.slug].solo and deal_of(game.id) is not None


def _private(body: str):
    """A page with this browser's own rows (its attempts, its streak): never kept by a shared cache."""
    response = make_response(body)
    response.headers["Cache-Control"] = "private, no-cache"
    response.headers["Vary"] = "Cookie"
    return response


# ---- challenges ---------------------------------------------------------------------------------


def challenge_of(token: str):
    if not isinstance(token, str) or not (8 <= len(token) <= 32):
        return None
    with store().engine.connect() as conn:
        return conn.execute(select(challenges).where(challenges.c.token == token)).first()


@bp.post("/g/<game_id>/challenge")
@limiter.limit(CREATE_GAME)
def create_challenge(game_id: str):
    """The player of a finished solo game offers its deal: one challenge per game, made once."""
    from .games import game_or_404, viewer_seat

    check_csrf()
    game = game_or_404(game_id)
    if game.record.slug not in CHALLENGE_GAMES:
        abort(409, description="Challenges are for the solo games.")
    if viewer_seat(game) is None:
        abort(403, description="Only this game's player can challenge friends with its deal.")
    if game.record.status != "finished":
        abort(409, description="Finish the game first: a challenge shows the score to beat.")
    played_on = deal_of(game_id)
    if played_on is not None and played_on.startswith("daily:"):
        # Today's deal is everybody's already (and its games stay closed until the day ends).
        return redirect(url_for("deals.daily", slug=game.record.slug), code=303)
    if played_on is not None and played_on.startswith("challenge:"):
        return redirect(url_for("deals.challenge", token=played_on.removeprefix("challenge:")), code=303)
    with store().engine.connect() as conn:
        token = conn.execute(select(challenges.c.token).where(challenges.c.game_id == game_id)).scalar()
    if token is None:
        token = secrets.token_urlsafe(TOKEN_BYTES)
        now = time.time()
        try:
            with store().engine.begin() as conn:
                conn.execute(insert(challenges).values(token=token, game_id=game_id, created_at=now))
                # The challenger's own game is the score to beat: the deal's first attempt.
                conn.execute(
                    insert(deal_attempts).values(
                        game_id=game_id,
                        deal=challenge_deal(token),
                        browser=browsers.browser_key(create=True) or "",
                        ranked=1,
                        created_at=now,
                        origin=request_origin(),
                    )
                )
                # The game is closed to onlookers from now on (closed_to_onlooker): a new revision
                # retires the board spectators may have been shared before (games.spectator_fragments).
                conn.execute(update(games).where(games.c.id == game_id).values(revision=games.c.revision + 1))
        except IntegrityError:  # a second press at the same moment made it first
            with store().engine.connect() as conn:
                token = conn.execute(select(challenges.c.token).where(challenges.c.game_id == game_id)).scalar_one()
    return redirect(url_for("deals.challenge", token=token), code=303)


@bp.get("/c/<token>")
@limiter.shared_limit(READ, scope="read")
def challenge(token: str):
    found = challenge_of(token)
    if found is None:
        abort(404, description="There is no challenge at this address. It may have been mistyped.")
    source = play.load_game(store(), found.game_id)
    if source is None:
        abort(404, description="This challenge's game is gone.")
    deal = challenge_deal(token)
    entry = BY_SLUG[source.record.slug]
    ranked = attempts(deal)
    me = browsers.browser_key()
    body = render_template(
        "deal.html",
        kind="challenge",
        entry=entry,
        title=f"Challenge: {entry.title}",
        play_url=url_for("deals.play_challenge", token=token),
        share_url=url_for("deals.challenge", token=token, _external=True),
        attempts=ranked,
        challenger=next((a for a in ranked if a.game_id == found.game_id), None),
        replays_open=has_finished_attempt(deal, me),
        me=me,
        playing=len(attempts(deal, finished_only=False)) - len(ranked),
    )
    return _private(body)


@bp.post("/c/<token>/play")
@limiter.limit(CREATE_GAME)
def play_challenge(token: str):
    check_csrf()
    found = challenge_of(token)
    if found is None:
        abort(404, description="There is no challenge at this address. It may have been mistyped.")
    source = store().load(found.game_id, snapshot=False)
    if source is None:
        abort(404, description="This challenge's game is gone.")
    name = clean_name(request.form.get("name"), "Challenger")
    return _start_attempt(
        challenge_deal(token), source.slug, source.options, source.seed, name, lobby={"challenge": token}
    )


# ---- daily deals --------------------------------------------------------------------------------


def daily_seed(slug: str, day: date) -> tuple[int, dict]:
    """The day's seed and options for ``slug``: drawn by the first request of the day, kept."""
    key = day.isoformat()
    with store().engine.connect() as conn:
        row = conn.execute(
            select(daily_deals.c.seed, daily_deals.c.options).where(
                daily_deals.c.day == key, daily_deals.c.slug == slug
            )
        ).first()
    if row is not None:
        return row.seed, json.loads(row.options)
    options = parse_options(BY_SLUG[slug], DAILY_FORMS[slug])
    seed = secrets.randbits(62)
    try:
        with store().engine.begin() as conn:
            conn.execute(
                insert(daily_deals).values(
                    day=key, slug=slug, seed=seed, options=json.dumps(options), created_at=time.time()
                )
            )
    except IntegrityError:  # another request drew the day's deal first: that one it is
        return daily_seed(slug, day)
    return seed, options


def _daily_entry(slug: str):
    entry = BY_SLUG.get(slug)
    if entry is None or slug not in DAILY_FORMS:
        abort(404, description="There is no daily deal for that game.")
    return entry


def daily_history(slug: str, browser: str | None, day: date) -> tuple[list[dict], int]:
    """This browser's ranked daily attempts at ``slug`` (newest first) and its current streak:
    consecutive days up to today (or up to yesterday, while today's is still to play)."""
    if browser is None:
        return [], 0
    prefix = f"daily:{slug}:"
    with store().engine.connect() as conn:
        rows = conn.execute(
            select(deal_attempts.c.deal, games.c.id, games.c.result, games.c.status)
            .join(games, games.c.id == deal_attempts.c.game_id)
            .where(
                deal_attempts.c.browser == browser,
                deal_attempts.c.ranked == 1,
                deal_attempts.c.deal.startswith(prefix),
            )
        ).all()
    history = []
    for row in rows:
        result = json.loads(row.result) if row.result else None
        history.append(
            {
                "day": row.deal.removeprefix(prefix),
                "game_id": row.id,
                "finished": row.status == "finished",
                "score": max((result or {}).get("scores", {}).values(), default=None) if result else None,
                "text": result["text"] if result else "Still being played.",
            }
        )
    history.sort(key=lambda h: h["day"], reverse=True)
    played = {h["day"] for h in history}
    streak = 0
    cursor = day if day.isoformat() in played else day - timedelta(days=1)
    while cursor.isoformat() in played:
        streak += 1
        cursor -= timedelta(days=1)
    return history[:HISTORY_DAYS], streak


@bp.get("/daily/<slug>")
@limiter.shared_limit(READ, scope="read")
def daily(slug: str):
    entry = _daily_entry(slug)
    day = today()
    yesterday = day - timedelta(days=1)
    me = browsers.browser_key()
    board = attempts(daily_deal(slug, day))
    history, streak = daily_history(slug, me, day)
    mine_today = next((h for h in history if h["day"] == day.isoformat()), None)
    body = render_template(
        "deal.html",
        kind="daily",
        entry=entry,
        title=f"Daily deal: {entry.title}",
        day=day,
        play_url=url_for("deals.play_daily", slug=slug),
        share_url=url_for("deals.daily", slug=slug, _external=True),
        attempts=[a for a in board if a.ranked][:LEADERBOARD_SIZE],
        yesterday=yesterday,
        yesterdays=[a for a in attempts(daily_deal(slug, yesterday)) if a.ranked][:LEADERBOARD_SIZE],
        history=history,
        streak=streak,
        mine_today=mine_today,
        me=me,
        replays_open=False,
    )
    return _private(body)


@bp.post("/daily/<slug>/play")
@limiter.limit(CREATE_GAME)
def play_daily(slug: str):
    check_csrf()
    entry = _daily_entry(slug)
    day = today()
    seed, options = daily_seed(slug, day)
    name = clean_name(request.form.get("name"), play.DEFAULT_SOLO_NAME if entry.solo else "Host")
    return _start_attempt(daily_deal(slug, day), slug, options, seed, name, lobby={"daily": day.isoformat()})


def _start_attempt(deal: str, slug: str, options: dict, seed: int, name: str, *, lobby: dict):
    """A fresh game (or, for a table game, a waiting room) on the deal, seated for this browser."""
    entry = BY_SLUG[slug]
    if entry.solo:
        game_id, token = play.start_game(store(), slug, options, seed=seed, name=name, lobby=lobby)
    else:
        game_id, token = play.open_table(store(), slug, options, name=name, seed=seed, lobby=lobby)
    browser = browsers.browser_key(create=True) or ""
    add_attempt(deal, game_id, browser)
    browsers.note_seat(store(), game_id, play.SOLO_SEAT)
    response = redirect(url_for("games.page", game_id=game_id), code=303)
    seat_tokens.give_seat(response, game_id, token, secure=current_app.config["SESSION_COOKIE_SECURE"])
    return response
