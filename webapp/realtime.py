"""Socket.IO doorbell: "game g changed, revision N". Messages never carry game data (chat aside);
each client then fetches its own redacted fragment, so hidden information has one path out
(the view). A seat's page also proves its presence with a signed ticket (never the seat token)."""

from __future__ import annotations

from flask import current_app, request
from flask_socketio import SocketIO, emit, join_room, leave_room

socketio = SocketIO()

MAX_GAME_ID = 64


def room_of(game_id: str) -> str:
    return f"g:{game_id}"


def notify_changed(game_id: str, revision: int | None) -> None:
    """Ring the doorbell of everyone watching the game; call only after the change is committed."""
    if revision is not None:
        socketio.emit("changed", {"version": revision}, to=room_of(game_id))


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
