"""Seat tokens: who may act in a game. A seat is a random token (the browser keeps it in a cookie,
``web/seat_cookies.py``); the store keeps only its hash. The link alone lets anyone watch."""

from __future__ import annotations

import hashlib
import hmac
import secrets

# Enough of the seat token's hash to tell, against the store, whether this browser still holds the
# seat (a seat left or replaced drops off the list); the hash is not a credential.
SEAT_MARK_LENGTH = 16
TOKEN_MAX = 200


def new_token() -> str:
    return secrets.token_urlsafe(32)


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def seat_of_token(token: str | None, seat_hashes: dict[str, str]) -> str | None:
    """The seat whose token this is, or None (no token, or not one of this game's)."""
    if not token or len(token) > TOKEN_MAX:
        return None
    presented = hash_token(token)
    for seat, stored in seat_hashes.items():
        if hmac.compare_digest(presented, stored):
            return seat
    return None


def origin_hash(address: str, secret: str) -> str:
    """Where a seat comes from, for counting seats per client address: a keyed hash of the address,
    so the database never holds an address and the hash cannot be reversed by trying every
    address without the key."""
    return hmac.new(secret.encode(), b"seat-origin:" + address.encode(), hashlib.sha256).hexdigest()[:32]


def seat_mark(token_hash: str) -> str:
    return token_hash[:SEAT_MARK_LENGTH]
