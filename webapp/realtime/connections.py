"""Who holds a page open: this process's open sockets with the seats each proved (with a presence
ticket, ``pages/tickets.py``), and the cap on sockets per client address. The Socket.IO handlers
(``sockets``) fill it; the presence loop (``presence``) reads it for its heartbeat."""

from __future__ import annotations

import threading


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


# A module global, not one per app: it mirrors the sockets of this process's one Socket.IO server
# (``sockets.socketio``, itself module-wide: its handlers register on it when imported), which the
# classic gateway's connections join as well.
connections = Connections()
