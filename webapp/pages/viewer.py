"""Who is looking, and what the pages reach of the application: the one place the page layer gets
the store, the game service and the process-wide caches (made by ``create_app`` and kept in
``app.extensions``), the game a request names, the seat its cookie holds (or its socket proved,
for a pushed board) and this browser's id. ``web/context.py`` hands the same to the routes."""

from __future__ import annotations

import secrets

from flask import abort, current_app, g, request

from ..domain import play
from ..domain.seat_tokens import hash_token, seat_of_token
from ..domain.service import GameService
from ..storage.store import Store
from .spectator_fragments import SpectatorFragments

SEAT_COOKIE_NAME = "delve_seat"
BROWSER_COOKIE_NAME = "delve_browser"
BROWSER_TOKEN_MIN, BROWSER_TOKEN_MAX = 20, 64
COOKIE_MAX_AGE = 60 * 60 * 24 * 365


def store() -> Store:
    return current_app.extensions["delve_store"]


def service() -> GameService:
    return current_app.extensions["delve_service"]


def spectator_fragments() -> SpectatorFragments:
    return current_app.extensions["delve_spectator_fragments"]


def is_htmx() -> bool:
    return request.headers.get("HX-Request") == "true"


def prefetched_for(game_id: str):
    """For a pushed board (``realtime/board_push.py``): what was read once for every page of this
    game at this revision, and the seat this page's socket proved; None for a request of its own."""
    prefetched = g.get("prefetched")
    return prefetched if prefetched is not None and prefetched.game.id == game_id else None


def game_or_404(game_id: str) -> play.LoadedGame:
    prefetched = prefetched_for(game_id)
    if prefetched is not None:
        return prefetched.game
    game = play.load_game(store(), game_id)
    if game is None:
        abort(404, description="There is no game at this address. It may have been mistyped.")
    return game


def has_seat_cookie() -> bool:
    return bool(request.cookies.get(SEAT_COOKIE_NAME))


def viewer_seat(game: play.LoadedGame) -> str | None:
    """The seat whose token this request's cookie carries, or None for a spectator."""
    prefetched = prefetched_for(game.id)
    if prefetched is not None:
        # A pushed board: its page's socket proved the seat (board_push); the seat cookie, scoped
        # to the game's pages, never reaches the socket.
        return prefetched.seat
    return seat_of_token(request.cookies.get(SEAT_COOKIE_NAME), store().seat_hashes(game.id))


def viewer_seat_and_roster(game: play.LoadedGame) -> tuple[str | None, tuple[list, dict] | None]:
    """``viewer_seat`` and the game's seats with their token hashes (``Store.seats_and_hashes``),
    read with one query: for the action route, which draws the roster after the action and hands
    it on to the pushes the action rings (an action never writes a seat's row, but for the one
    that ends the game, which marks them all gone: its writers keep the Hall of Fame, deals and
    the solver's queue). None for a pushed board's roster, which is not this request's read."""
    prefetched = prefetched_for(game.id)
    if prefetched is not None:
        return prefetched.seat, None
    seats, hashes = store().seats_and_hashes(game.id)
    return seat_of_token(request.cookies.get(SEAT_COOKIE_NAME), hashes), (seats, hashes)


def browser_key(*, create: bool = False) -> str | None:
    """The hash of this browser's id (what the store keeps), or None when it has none yet and
    ``create`` is False. A new id is sent back with this request's response (``seat_cookies``)."""
    if "browser_key" in g:
        return g.browser_key
    token = request.cookies.get(BROWSER_COOKIE_NAME)
    if token and BROWSER_TOKEN_MIN <= len(token) <= BROWSER_TOKEN_MAX:
        g.browser_key = hash_token(token)
    elif create:
        token = secrets.token_urlsafe(32)
        g.new_browser_token = token
        g.browser_key = hash_token(token)
    else:
        return None
    return g.browser_key
