"""The shared deals' pages: a challenge made from a finished solo game, the deal of the day, and
playing either (``domain/deals.py`` keeps the attempts, the daily seeds and who may see what)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from flask import Blueprint, abort, current_app, make_response, redirect, render_template, request, url_for

from rules_engine.text import clean_text

from ..domain import deal_pools, deals, play
from ..domain.catalog import BY_SLUG, NAME_MAX, clean_name
from .context import browser_key, game_or_404, note_seat, store, viewer_seat
from .limits import CREATE_GAME, READ, limiter
from .seat_cookies import give_seat, request_origin
from .security import check_csrf

bp = Blueprint("deals", __name__)


@bp.app_template_filter("utc_iso")
def utc_iso(timestamp: float) -> str:
    return datetime.fromtimestamp(timestamp, UTC).isoformat(timespec="seconds")


@bp.app_template_filter("utc_day")
def utc_day(timestamp: float) -> str:
    return datetime.fromtimestamp(timestamp, UTC).strftime("%-d %b %Y, %H:%M UTC")


def _private(body: str):
    """A page with this browser's own rows (its attempts, its streak): never kept by a shared cache."""
    response = make_response(body)
    response.headers["Cache-Control"] = "private, no-cache"
    response.headers["Vary"] = "Cookie"
    return response


@bp.post("/g/<game_id>/challenge")
@limiter.limit(CREATE_GAME)
def create_challenge(game_id: str):
    """The player of a finished solo game offers its deal: one challenge per game, made once."""
    check_csrf()
    game = game_or_404(game_id)
    if not BY_SLUG[game.record.slug].rules.challenges:
        abort(409, description="Challenges are for the solo games.")
    if viewer_seat(game) is None:
        abort(403, description="Only this game's player can challenge friends with its deal.")
    if game.record.status != "finished":
        abort(409, description="Finish the game first: a challenge shows the score to beat.")
    played_on = deals.deal_of(store(), game_id)
    if played_on is not None and played_on.startswith("daily:"):
        # Today's deal is everybody's already (and its games stay closed until the day ends).
        return redirect(url_for("deals.daily", slug=game.record.slug), code=303)
    if played_on is not None and played_on.startswith("challenge:"):
        return redirect(url_for("deals.challenge", token=played_on.removeprefix("challenge:")), code=303)
    sender = _sender_name(request.form.get("name", ""), game)
    token = deals.make_challenge(store(), game_id, browser_key(create=True) or "", request_origin(), sender)
    return redirect(url_for("deals.challenge", token=token), code=303)


def _sender_name(raw: str, game: play.LoadedGame) -> str:
    """The name a challenge goes by ("Ann's challenge"): the one typed, else the game's player's."""
    if len(raw) > 4 * NAME_MAX:
        abort(400, description=f"Your name: at most {NAME_MAX} characters.")
    name = clean_text(raw, NAME_MAX + 1)
    if len(name) > NAME_MAX:
        abort(400, description=f"Your name: at most {NAME_MAX} characters.")
    if raw.strip() and not name:
        abort(400, description="Your name: letters, digits or signs, please (it had none of them).")
    return name or next((s.name for s in store().seats(game.id) if s.seat == play.SOLO_SEAT), play.DEFAULT_SOLO_NAME)


@bp.get("/c/<token>")
@limiter.shared_limit(READ, scope="read")
def challenge(token: str):
    found = deals.challenge_of(store(), token)
    if found is None:
        abort(404, description="There is no challenge at this address. It may have been mistyped.")
    source = play.load_game(store(), found.game_id)
    if source is None:
        abort(404, description="This challenge's game is gone.")
    deal = deals.challenge_deal(token)
    entry = BY_SLUG[source.record.slug]
    # A challenge made from a game dealt from a pool of winnable deals deals that seed to all.
    proven = deal_pools.winnable_deal(source.record)
    ranked = deals.attempts(store(), deal)
    me = browser_key()
    body = render_template(
        "deal.html",
        kind="challenge",
        entry=entry,
        ranking_order=deals.RANKING_ORDER,
        title=f"{found.sender}'s challenge: {entry.title}",
        play_url=url_for("deals.play_challenge", token=token),
        share_url=url_for("deals.challenge", token=token, _external=True),
        attempts=ranked,
        challenger=next((a for a in ranked if a.game_id == found.game_id), None),
        replays_open=deals.has_finished_attempt(store(), deal, me),
        me=me,
        playing=len(deals.attempts(store(), deal, finished_only=False)) - len(ranked),
        proven=proven,
    )
    return _private(body)


@bp.post("/c/<token>/play")
@limiter.limit(CREATE_GAME)
def play_challenge(token: str):
    check_csrf()
    found = deals.challenge_of(store(), token)
    if found is None:
        abort(404, description="There is no challenge at this address. It may have been mistyped.")
    source = store().load(found.game_id, snapshot=False)
    if source is None:
        abort(404, description="This challenge's game is gone.")
    name = clean_name(request.form.get("name"), deals.CHALLENGER_NAME)
    return _start_attempt(
        deals.challenge_deal(token),
        source.slug,
        source.options,
        source.seed,
        name,
        lobby={"challenge": token},
        deal_kind=source.deal_kind,
    )


def _daily_entry(slug: str):
    entry = BY_SLUG.get(slug)
    if entry is None or slug not in deals.DAILY_GAMES:
        abort(404, description="There is no daily deal for that game.")
    return entry


@bp.get("/daily/<slug>")
@limiter.shared_limit(READ, scope="read")
def daily(slug: str):
    entry = _daily_entry(slug)
    day = deals.today()
    yesterday = day - timedelta(days=1)
    me = browser_key()
    board = deals.attempts(store(), deals.daily_deal(slug, day))
    history, streak = deals.daily_history(store(), slug, me, day)
    # The page says whether the day's deal was proved winnable: it is drawn now if it was not yet.
    drawn = deals.daily_seed(store(), slug, day, pool_target=current_app.config["DEAL_POOL_SIZE"])
    mine_today = next((h for h in history if h["day"] == day.isoformat()), None)
    body = render_template(
        "deal.html",
        kind="daily",
        entry=entry,
        ranking_order=deals.RANKING_ORDER,
        title=f"Daily deal: {entry.title}",
        day=day,
        play_url=url_for("deals.play_daily", slug=slug),
        share_url=url_for("deals.daily", slug=slug, _external=True),
        attempts=[a for a in board if a.ranked][: deals.LEADERBOARD_SIZE],
        yesterday=yesterday,
        yesterdays=[a for a in deals.attempts(store(), deals.daily_deal(slug, yesterday)) if a.ranked][
            : deals.LEADERBOARD_SIZE
        ],
        history=history,
        streak=streak,
        mine_today=mine_today,
        me=me,
        replays_open=False,
        proven=deal_pools.POOL_GAMES.get(slug) if drawn.deal_kind == deal_pools.WINNABLE else None,
    )
    return _private(body)


@bp.post("/daily/<slug>/play")
@limiter.limit(CREATE_GAME)
def play_daily(slug: str):
    check_csrf()
    entry = _daily_entry(slug)
    day = deals.today()
    drawn = deals.daily_seed(store(), slug, day, pool_target=current_app.config["DEAL_POOL_SIZE"])
    name = clean_name(request.form.get("name"), play.DEFAULT_SOLO_NAME if entry.solo else "Host")
    return _start_attempt(
        deals.daily_deal(slug, day),
        slug,
        drawn.options,
        drawn.seed,
        name,
        lobby={"daily": day.isoformat()},
        deal_kind=drawn.deal_kind,
    )


def _start_attempt(
    deal: str, slug: str, options: dict, seed: int, name: str, *, lobby: dict, deal_kind: str = deal_pools.ANY
):
    """A fresh game (or, for a table game, a waiting room) on the deal, seated for this browser;
    ``deal_kind``: how the deal's seed was drawn (a winnable deal's games say so)."""
    entry = BY_SLUG[slug]
    if entry.solo:
        game_id, token = play.start_game(store(), slug, options, seed=seed, name=name, lobby=lobby, deal_kind=deal_kind)
    else:
        game_id, token = play.open_table(store(), slug, options, name=name, seed=seed, lobby=lobby)
    deals.add_attempt(store(), deal, game_id, browser_key(create=True) or "", request_origin())
    note_seat(game_id, play.SOLO_SEAT)
    response = redirect(url_for("games.page", game_id=game_id), code=303)
    give_seat(response, game_id, token, secure=current_app.config["SESSION_COOKIE_SECURE"])
    return response
