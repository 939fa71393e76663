"""The cookies of seats and browsers: the seat token in an HttpOnly cookie scoped to the game's
path, the signed list of this browser's games for the front page, this browser's own id, and the
keyed hash of a request's address that seats and attempts are counted by."""

from __future__ import annotations

from flask import Flask, Request, current_app, g, request
from itsdangerous import BadSignature, URLSafeSerializer
from werkzeug.wrappers import Response

from ..domain.seat_tokens import hash_token, origin_hash, seat_mark
from ..pages.viewer import BROWSER_COOKIE_NAME, COOKIE_MAX_AGE, SEAT_COOKIE_NAME

# The front page cannot read the seat cookies (each is scoped to its game's path), so taking a seat
# also notes the game in one signed root-path cookie: this browser's games, newest first.
GAMES_COOKIE_NAME = "delve_games"
GAMES_REMEMBERED = 20


def origin_of(request: Request, secret: str) -> str:
    """Where a request comes from (``remote_addr``, which ProxyFix sets from ``TRUSTED_PROXIES``),
    as the keyed hash seats keep (``seat_tokens.origin_hash``)."""
    return origin_hash(request.remote_addr or "unknown", secret)


def request_origin() -> str:
    """This request's client address, as the keyed hash seats and deal attempts keep."""
    return origin_of(request, current_app.config["SECRET_KEY"])


def give_seat(response: Response, game_id: str, token: str, *, secure: bool) -> None:
    response.set_cookie(
        SEAT_COOKIE_NAME,
        token,
        max_age=COOKIE_MAX_AGE,
        path=f"/g/{game_id}",
        httponly=True,
        samesite="Lax",
        secure=secure,
    )
    remember_game(response, game_id, token, secure=secure)


def _games_serializer() -> URLSafeSerializer:
    return URLSafeSerializer(current_app.config["SECRET_KEY"], salt="delve-games")


def remembered_games(request: Request) -> list[tuple[str, str]]:
    """(game id, seat mark) of the games this browser took a seat in, newest first; [] when the
    cookie is missing or not signed by us."""
    raw = request.cookies.get(GAMES_COOKIE_NAME)
    if not raw or len(raw) > 4096:
        return []
    try:
        entries = _games_serializer().loads(raw)
    except BadSignature:
        return []
    if not isinstance(entries, list):
        return []
    remembered = []
    for entry in entries[:GAMES_REMEMBERED]:
        if isinstance(entry, str) and entry.count(".") == 1:
            game_id, mark = entry.split(".")
            remembered.append((game_id, mark))
    return remembered


def remember_game(response: Response, game_id: str, token: str, *, secure: bool) -> None:
    # Game ids are URL-safe base64, which never holds a dot: "id.mark" splits back unambiguously.
    entry = f"{game_id}.{seat_mark(hash_token(token))}"
    earlier = [f"{known}.{mark}" for known, mark in remembered_games(request) if known != game_id]
    response.set_cookie(
        GAMES_COOKIE_NAME,
        _games_serializer().dumps([entry, *earlier][:GAMES_REMEMBERED]),
        max_age=COOKIE_MAX_AGE,
        path="/",
        httponly=True,
        samesite="Lax",
        secure=secure,
    )


def _send_new_browser_id(response: Response) -> Response:
    """A browser given its id during this request (``viewer.browser_key(create=True)``) gets it back."""
    token = g.get("new_browser_token")
    if token:
        response.set_cookie(
            BROWSER_COOKIE_NAME,
            token,
            max_age=COOKIE_MAX_AGE,
            path="/",
            httponly=True,
            samesite="Lax",
            secure=current_app.config["SESSION_COOKIE_SECURE"],
        )
    return response


def init_app(app: Flask) -> None:
    app.after_request(_send_new_browser_id)
