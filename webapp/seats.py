"""Seats: who may act in a game. A seat is a random token kept in an HttpOnly cookie scoped to
the game's path; the store keeps only its hash. The link alone lets anyone watch."""

from __future__ import annotations

import hashlib
import hmac
import secrets

from flask import Request, current_app, request
from itsdangerous import BadSignature, URLSafeSerializer
from werkzeug.wrappers import Response

COOKIE_NAME = "delve_seat"
COOKIE_MAX_AGE = 60 * 60 * 24 * 365

# The front page cannot read the seat cookies (each is scoped to its game's path), so taking a seat
# also notes the game in one signed root-path cookie: this browser's games, newest first.
GAMES_COOKIE_NAME = "delve_games"
GAMES_REMEMBERED = 20
# Enough of the seat token's hash to tell, against the store, whether this browser still holds the
# seat (a seat left or replaced drops off the list); the hash is not a credential.
SEAT_MARK_LENGTH = 16


def new_token() -> str:
    return secrets.token_urlsafe(32)


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def seat_for(request: Request, seat_hashes: dict[str, str]) -> str | None:
    """The seat whose token the request's cookie carries, or None for a spectator."""
    token = request.cookies.get(COOKIE_NAME)
    if not token or len(token) > 200:
        return None
    presented = hash_token(token)
    for seat, stored in seat_hashes.items():
        if hmac.compare_digest(presented, stored):
            return seat
    return None


def origin_of(request: Request, secret: str) -> str:
    """Where a request comes from, for counting seats per client address: a keyed hash of the
    address (``remote_addr``, which ProxyFix sets from ``TRUSTED_PROXIES``), so the database never
    holds an address and the hash cannot be reversed by trying every address without the key."""
    address = (request.remote_addr or "unknown").encode()
    return hmac.new(secret.encode(), b"seat-origin:" + address, hashlib.sha256).hexdigest()[:32]


def give_seat(response: Response, game_id: str, token: str, *, secure: bool) -> None:
    response.set_cookie(
        COOKIE_NAME,
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


def seat_mark(token_hash: str) -> str:
    return token_hash[:SEAT_MARK_LENGTH]


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
