"""The Socket.IO doorbell with Flask-SocketIO's test client: rooms, versions, no game data."""

from __future__ import annotations

from tests.helpers.decks import S1_DECK as DECK
from tests.helpers.web import received
from webapp import socketio


def test_watcher_is_rung_after_each_committed_action_with_only_a_version(app, seat_client):
    player = seat_client()
    player.start(size="4", deck=DECK)
    watcher = seat_client()
    watcher.watch(player.game_id)
    sio = socketio.test_client(app, flask_test_client=watcher.http)
    ack = sio.emit("watch", {"game": player.game_id, "revision": 0}, callback=True)
    assert ack == {"ok": True, "revision": 0}
    assert received(sio) == []  # up to date: nothing to fetch

    player.act({"type": "choose_stat_set", "set": "top"})
    assert received(sio) == [{"revision": 1}]
    player.act({"type": "move", "dir": "N"})  # illegal: nothing is committed, nobody is rung
    assert received(sio) == []


def test_a_client_behind_is_told_at_once_on_reconnect(app, seat_client):
    player = seat_client()
    player.start(size="4", deck=DECK)
    player.act({"type": "choose_stat_set", "set": "top"})
    player.act({"type": "assign_diamond_bonus", "card": "8D", "stat": "attack"})
    sio = socketio.test_client(app)
    sio.emit("watch", {"game": player.game_id, "revision": 0}, callback=True)
    assert received(sio) == [{"revision": 2}]


def test_pushes_reach_only_the_games_room(app, seat_client):
    first, second = seat_client(), seat_client()
    first.start(size="4", deck=DECK)
    second.start(size="4", deck=DECK)
    sio = socketio.test_client(app)
    sio.emit("watch", {"game": second.game_id, "revision": 0}, callback=True)
    first.act({"type": "choose_stat_set", "set": "top"})
    assert received(sio) == []
    second.act({"type": "choose_stat_set", "set": "side"})
    assert received(sio) == [{"revision": 1}]


def test_watch_rejects_unknown_or_malformed_games(app):
    sio = socketio.test_client(app)
    assert sio.emit("watch", {"game": "nope", "revision": 0}, callback=True)["ok"] is False
    assert sio.emit("watch", "not a dict", callback=True)["ok"] is False
    assert sio.emit("watch", {"game": "x" * 500}, callback=True)["ok"] is False
    assert received(sio) == []
