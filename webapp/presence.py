"""Presence and the turn clock for multiplayer games (the Dungeon of Doom's 10.6, shared by
every multiplayer game): who has a page open, when an absent seat is dropped, when a turn times
out. The engine knows nothing of time; this module applies the game's server actions.

A seat counts as present while one of its pages holds a Socket.IO connection (proved by a
signed presence ticket — never the seat token) or it made a request in the last GRACE seconds.
"""

from __future__ import annotations

import logging
import threading
import time

from flask import Flask
from itsdangerous import BadSignature, URLSafeTimedSerializer

import rules_engine

from . import play
from .store import StaleVersion, Store

log = logging.getLogger("delve.presence")

GRACE_SECONDS = 60.0
REQUEST_SEEN_EVERY = 5.0
"""A seated request refreshes ``last_seen`` only when it is older than this (webapp.games.seat_rows)."""
HEARTBEAT_SECONDS = 10.0
TICK_SECONDS = 1.0
TICKET_MAX_AGE = 7 * 24 * 3600


def _serializer(app: Flask) -> URLSafeTimedSerializer:
    return URLSafeTimedSerializer(app.config["SECRET_KEY"], salt="delve-presence")


def ticket_for(app: Flask, game_id: str, seat: str) -> str:
    """A signed note "this page belongs to seat S of game G", for the socket to prove presence."""
    return _serializer(app).dumps([game_id, seat])


def seat_from_ticket(app: Flask, game_id: str, ticket: object) -> str | None:
    if not isinstance(ticket, str) or len(ticket) > 400:
        return None
    try:
        ticket_game, seat = _serializer(app).loads(ticket, max_age=TICKET_MAX_AGE)
    except (BadSignature, ValueError, TypeError):
        return None
    return seat if ticket_game == game_id else None


class Connections:
    """This process's open sockets and the seats each proved.

    One socket may prove seats of several games (a page that watched game A, then game B), so
    each socket keeps a set of (game, seat) pairs, and each pair a count of the sockets holding
    it: a seat is released when its last socket here closes, and connect and disconnect cost the
    same with one socket open or thousands."""

    def __init__(self):
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


connections = Connections()


def apply_server_action(store: Store, game_id: str, seat: str, action: dict, *, expected_clock: str | None = None) -> bool:
    """Apply a server action (timeout, drop) through the same optimistic lock as players' actions.

    Returns True if it landed. A stale version means a player acted first: the next tick decides."""
    from .realtime import notify_changed

    game = play.load_game(store, game_id)
    if game is None or game.record.status != "running":
        return False
    if expected_clock is not None and game.record.turn_key != expected_clock:
        return False
    try:
        version, _state = play.act(store, game, seat, action, by_server=True)
    except (rules_engine.IllegalAction, rules_engine.InvalidAction) as error:
        log.info("server action %s for %s in %s not applied: %s", action.get("type"), seat, game_id, error)
        return False
    except StaleVersion:
        return False
    notify_changed(game_id, store.revision(game_id))
    return True


def expire_turns(store: Store, now: float) -> None:
    """End every turn whose time is up (the game's timeout action for the seat whose turn it is)."""
    for game_id in store.due_turns(now):
        game = play.load_game(store, game_id)
        if game is None:
            continue
        clock = play.turn_clock(game.rules, game.state)
        action = getattr(game.rules, "timeout_action", None)
        if clock and action:
            apply_server_action(store, game_id, clock["seat"], dict(action), expected_clock=game.record.turn_key)


def drop_absent(store: Store, now: float) -> None:
    """Apply the game's absence action to every seat away for longer than the grace period."""
    for game_id, seat in store.absent_seats(now - GRACE_SECONDS):
        game = play.load_game(store, game_id)
        action = getattr(game.rules, "absence_action", None) if game else None
        landed = bool(action) and apply_server_action(store, game_id, seat, dict(action))
        if not landed:
            # Nothing to do for that seat (already dead, left, or the game has no such rule).
            store.mark_gone(game_id, seat)


def tick(store: Store, now: float | None = None) -> None:
    """One pass of the clock: time out overdue turns, drop seats absent beyond the grace period."""
    now = time.time() if now is None else now
    expire_turns(store, now)
    drop_absent(store, now)


def heartbeat(store: Store) -> None:
    store.seen(connections.pairs())


def start_background_jobs(app: Flask, socketio) -> None:
    """One loop per server process: heartbeat every HEARTBEAT_SECONDS, clock tick every second."""
    store: Store = app.extensions["delve_store"]
    store.after_restart(GRACE_SECONDS)

    def loop():
        last_beat = 0.0
        while True:
            socketio.sleep(TICK_SECONDS)
            try:
                with app.app_context():
                    if time.time() - last_beat >= HEARTBEAT_SECONDS:
                        heartbeat(store)
                        last_beat = time.time()
                    tick(store)
            except Exception:  # the loop must outlive any one bad game or database hiccup
                log.exception("presence/clock tick failed")

    socketio.start_background_task(loop)
