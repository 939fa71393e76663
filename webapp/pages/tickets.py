"""Presence tickets: the signed note a seat's page carries to prove its seat to its socket (never
the seat token, whose cookie is scoped to the game's pages and never reaches the socket)."""

from __future__ import annotations

import hmac
from typing import NamedTuple

from flask import Flask
from itsdangerous import BadSignature, URLSafeTimedSerializer

from ..domain.seat_tokens import seat_mark

TICKET_MAX_AGE = 7 * 24 * 3600


def _serializer(app: Flask) -> URLSafeTimedSerializer:
    return URLSafeTimedSerializer(app.config["SECRET_KEY"], salt="delve-presence")


def _seat_hashes(app: Flask, game_id: str) -> dict[str, str]:
    return app.extensions["delve_store"].seat_hashes(game_id)


def ticket_for(app: Flask, game_id: str, seat: str) -> str:
    """A signed note "this page belongs to seat S of game G, held by the token whose hash starts
    M", for the socket to prove presence. The mark binds the ticket to the seat's holder: a ticket
    kept after its seat was left proves nothing, whoever holds a seat of that id later."""
    mark = seat_mark(_seat_hashes(app, game_id).get(seat, ""))
    return _serializer(app).dumps([game_id, seat, mark])


class SeatProof(NamedTuple):
    seat: str
    mark: str  # the holder's mark the ticket carried (seats.seat_mark of its token's hash)


def still_held(seat_hashes: dict[str, str], proof: SeatProof) -> bool:
    """Whether the seat still has the holder the ticket was issued to."""
    held = seat_hashes.get(proof.seat)
    return held is not None and hmac.compare_digest(seat_mark(held), proof.mark)


def proof_from_ticket(app: Flask, game_id: str, ticket: object) -> SeatProof | None:
    """The seat a ticket proves in this game, if its holder still holds it. A forged or foreign
    ticket costs no database read."""
    if not isinstance(ticket, str) or len(ticket) > 400:
        return None
    try:
        ticket_game, seat, mark = _serializer(app).loads(ticket, max_age=TICKET_MAX_AGE)
    except (BadSignature, ValueError, TypeError):
        return None
    if ticket_game != game_id or not isinstance(seat, str) or not isinstance(mark, str):
        return None
    proof = SeatProof(seat, mark)
    return proof if still_held(_seat_hashes(app, game_id), proof) else None


def seat_from_ticket(app: Flask, game_id: str, ticket: object) -> str | None:
    proof = proof_from_ticket(app, game_id, ticket)
    return proof.seat if proof is not None else None
