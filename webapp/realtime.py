"""Socket.IO doorbell: "game g changed, version N". Messages never carry game data; each client
then fetches its own redacted fragment, so hidden information has one path out (the view)."""

from __future__ import annotations

from flask import current_app
from flask_socketio import SocketIO, emit, join_room, leave_room

socketio = SocketIO()

MAX_GAME_ID = 64


def room_of(game_id: str) -> str:
    return f"g:{game_id}"


def notify_changed(game_id: str, version: int) -> None:
    """Ring the doorbell of everyone watching the game; call only after the action is committed."""
    socketio.emit("changed", {"version": version}, to=room_of(game_id))


@socketio.on("watch")
def watch(data):
    """A page says which game it shows and which version it has; it is told at once if it is behind.

    python-socketio has no connection-state recovery, so every (re)connect sends this again."""
    if not isinstance(data, dict):
        return {"ok": False, "error": "bad request"}
    game_id = data.get("game")
    known = data.get("version")
    if not isinstance(game_id, str) or not game_id or len(game_id) > MAX_GAME_ID:
        return {"ok": False, "error": "unknown game"}
    version = current_app.extensions["delve_store"].version(game_id)
    if version is None:
        return {"ok": False, "error": "unknown game"}
    join_room(room_of(game_id))
    if not isinstance(known, int) or known != version:
        emit("changed", {"version": version})
    return {"ok": True, "version": version}


@socketio.on("unwatch")
def unwatch(data):
    if isinstance(data, dict) and isinstance(data.get("game"), str):
        leave_room(room_of(data["game"]))
