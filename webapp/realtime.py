"""Socket.IO doorbell: "game g changed, revision N". Messages never carry game data (chat aside);
each client then fetches its own redacted fragment, so hidden information has one path out
(the view). A seat's page also proves its presence with a signed ticket (never the seat token)."""

from __future__ import annotations

import logging
import time

from flask import current_app, request
from flask_socketio import SocketIO, emit, join_room, leave_room
from socketio import RedisManager

socketio = SocketIO()
log = logging.getLogger("delve.realtime")

MAX_GAME_ID = 64


class RedisDoorbell(RedisManager):
    """The Socket.IO message queue on Redis (``REDIS_URL``), safe to ring from inside a request.

    python-socketio publishes inside ``emit``, so inside the request that committed the action.
    With redis-py's defaults a Redis that hangs (stopped, overloaded, cut off: not refusing)
    held that request 5 s a try, three tries: 15 s an action. Here a publish gets short timeouts
    and no retries, and after a failure publishing pauses a few seconds: pages on this process
    were rung already (the local emit comes first), pages on other processes catch up at their
    next push or reconnect (each says which revision it has). The listener thread keeps
    reconnecting on its own; its blocking read is not bound by these timeouts."""

    TIMEOUT = 0.5
    PAUSE = 5.0

    def __init__(self, url: str, channel: str = "flask-socketio"):
        from redis.backoff import NoBackoff
        from redis.retry import Retry

        super().__init__(url, channel=channel, redis_options={
            "socket_timeout": self.TIMEOUT, "socket_connect_timeout": self.TIMEOUT, "retry": Retry(NoBackoff(), 0),
        })
        self._paused_until = 0.0

    def _publish(self, data):
        if time.monotonic() < self._paused_until:
            return None
        try:
            if not self.connected:
                self._redis_connect()
            return self.redis.publish(self.channel, self.json.dumps(data))
        except Exception as error:  # any Redis trouble: never the request's problem
            self.connected = False
            self._paused_until = time.monotonic() + self.PAUSE
            log.error("cannot publish to Redis (%s): pushes to other processes paused for %.0f s",
                      type(error).__name__, self.PAUSE)
            return None


def room_of(game_id: str) -> str:
    return f"g:{game_id}"


def notify_changed(game_id: str, revision: int | None) -> None:
    """Ring the doorbell of everyone watching the game; call only after the change is committed."""
    if revision is not None:
        socketio.emit("changed", {"version": revision}, to=room_of(game_id))


def announce_restart() -> None:
    """Tell every page connected to this process that it is going away (gunicorn's SIGTERM), so
    each says so and, once the connection drops, reconnects and refetches its board.

    Local only (``ignore_queue``): through the Redis queue the message would reach the pages of
    every process, and those are not restarting. Best effort: a page reconnects without it."""
    try:
        socketio.emit("server_restarting", {}, ignore_queue=True)
    except Exception:  # the process is going away anyway; never let this stop the shutdown
        log.exception("could not tell open pages that the server is restarting")


def push_chat(game_id: str, message: dict) -> None:
    """Chat is the one thing pushed as data: it is public to the table and escaped by the page."""
    socketio.emit("chat", {"name": message["name"], "seat": message["seat"], "text": message["text"]}, to=room_of(game_id))


def _store():
    return current_app.extensions["delve_store"]


@socketio.on("watch")
def watch(data):
    """A page says which game it shows and which revision it has; it is told at once if it is behind.

    python-socketio has no connection-state recovery, so every (re)connect sends this again."""
    from .presence import connections, seat_from_ticket

    if not isinstance(data, dict):
        return {"ok": False, "error": "bad request"}
    game_id = data.get("game")
    known = data.get("version")
    if not isinstance(game_id, str) or not game_id or len(game_id) > MAX_GAME_ID:
        return {"ok": False, "error": "unknown game"}
    store = _store()
    revision = store.revision(game_id)
    if revision is None:
        return {"ok": False, "error": "unknown game"}
    join_room(room_of(game_id))
    seat = seat_from_ticket(current_app, game_id, data.get("presence"))
    if seat is not None and connections.add(request.sid, game_id, seat):
        if store.set_connected(game_id, seat, True):
            revision = store.revision(game_id)
            notify_changed(game_id, revision)
    if not isinstance(known, int) or known != revision:
        emit("changed", {"version": revision})
    return {"ok": True, "version": revision}


@socketio.on("unwatch")
def unwatch(data):
    if isinstance(data, dict) and isinstance(data.get("game"), str):
        leave_room(room_of(data["game"]))


@socketio.on("disconnect")
def disconnect(*_reason):
    from .presence import connections

    pair = connections.remove(request.sid)
    if pair is None:
        return
    game_id, seat = pair
    store = _store()
    if store.set_connected(game_id, seat, False):
        notify_changed(game_id, store.revision(game_id))
