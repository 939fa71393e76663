"""Who holds a page open: the signed presence tickets pages prove their seat with (never the
seat token), and this process's open sockets with the seats each proved. The Socket.IO
handlers (``realtime``) fill it; the presence loop (``presence``) reads it for its heartbeat."""

from __future__ import annotations

import hmac
import threading
from typing import NamedTuple

from flask import Flask
from itsdangerous import BadSignature, URLSafeTimedSerializer

from .seats import seat_mark

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


class Connections:
    """This process's open sockets and the seats each proved.

    One socket may prove seats of several games (a page that watched game A, then game B), so
    each socket keeps a set of (game, seat) pairs, and each pair a count of the sockets holding
    it: a seat is released when its last socket here closes, and connect and disconnect cost the
    same with one socket open or thousands."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._pairs_by_sid: dict[str, set[tuple[str, str]]] = {}
        self._sockets_per_pair: dict[tuple[str, str], int] = {}

    def open(self, sid: str) -> None:
        with self._lock:
            self._pairs_by_sid.setdefault(sid, set())

    def add(self, sid: str, game_id: str, seat: str) -> bool:
        """Register; True if this is the seat's first socket here."""
        pair = (game_id, seat)
        with self._lock:
            held = self._pairs_by_sid.get(sid)
            # A socket that closed already: its watch was still in flight (event handlers run on
            # their own threads). Registering it now would hold the seat with nobody to release it.
            if held is None:
                return False
            if pair in held:  # the page's periodic re-announcement
                return False
            held.add(pair)
            sockets = self._sockets_per_pair.get(pair, 0) + 1
            self._sockets_per_pair[pair] = sockets
            return sockets == 1

    def holds(self, game_id: str, seat: str) -> bool:
        with self._lock:
            return (game_id, seat) in self._sockets_per_pair

    def release_game(self, sid: str, game_id: str) -> list[tuple[str, str]]:
        """The socket no longer shows the game; the (game, seat) pairs it held there that no
        other socket here holds."""
        with self._lock:
            held = self._pairs_by_sid.get(sid)
            if not held:
                return []
            leaving = {pair for pair in held if pair[0] == game_id}
            held -= leaving
            return self._drop(leaving)

    def remove(self, sid: str) -> list[tuple[str, str]]:
        """Unregister the socket; every (game, seat) pair it held that no other socket here holds."""
        with self._lock:
            return self._drop(self._pairs_by_sid.pop(sid, set()))

    def _drop(self, pairs: set[tuple[str, str]]) -> list[tuple[str, str]]:
        """(Under the lock.) Count one socket fewer for each pair; the pairs no socket holds now."""
        released = []
        for pair in sorted(pairs):
            sockets = self._sockets_per_pair[pair] - 1
            if sockets:
                self._sockets_per_pair[pair] = sockets
            else:
                del self._sockets_per_pair[pair]
                released.append(pair)
        return released

    def pairs(self) -> list[tuple[str, str]]:
        with self._lock:
            return sorted(self._sockets_per_pair)


class SocketsPerAddress:
    """How many sockets each client address holds open on this process, so one address cannot
    hold them all (a process holds thousands; a tab holds one, a classroom behind one address
    a few dozen). Open pages are counted with it by socket id, and the worker's TCP connections
    by connection (gunicorn.conf.py)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._address_of: dict[str, str] = {}
        self._count: dict[str, int] = {}

    def admit(self, sid: str, address: str, cap: int) -> bool:
        """Count the socket in; False (and nothing counted) when its address holds ``cap`` already."""
        with self._lock:
            held = self._count.get(address, 0)
            if cap and held >= cap:
                return False
            self._address_of[sid] = address
            self._count[address] = held + 1
            return True

    def release(self, sid: str) -> None:
        with self._lock:
            address = self._address_of.pop(sid, None)
            if address is None:
                return
            left = self._count[address] - 1
            if left:
                self._count[address] = left
            else:
                del self._count[address]

    def held(self, address: str) -> int:
        with self._lock:
            return self._count.get(address, 0)


connections = Connections()
