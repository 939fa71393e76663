"""Seats: who may act in a game. A seat is a random token kept in an HttpOnly cookie scoped to
the game's path; the store keeps only its hash. The link alone lets anyone watch."""

from __future__ import annotations

import hashlib
import hmac
import secrets

from flask import Request
from werkzeug.wrappers import Response

COOKIE_NAME = "delve_seat"
COOKIE_MAX_AGE = 60 * 60 * 24 * 365


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
