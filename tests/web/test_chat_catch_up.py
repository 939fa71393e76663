"""A table's chat is pushed as it is said; a page whose socket (re)connects after a message was said
gets what it missed: its "watch" names the last message it shows (``chat_after``), and the server
sends the newer ones to that page alone. Found by a browser test on a busy machine: Bob's page was
drawn, Ann spoke, then Bob's socket connected, and Bob never saw the message until a reload."""

from __future__ import annotations

import pytest
from flask_socketio import SocketIO

from tests.helpers.web import received
from tests.web.test_dungeon_of_doom_web import Table


@pytest.fixture
def table(app, seat_client):
    return Table(app, seat_client)


def say(table, seat: str, text: str) -> None:
    client = table.clients[seat]
    response = client.http.post(f"/g/{table.game_id}/chat", data={"csrf_token": client.csrf, "text": text})
    assert response.status_code in (204, 303)


def late_page(table, seat: str, chat_after):
    """``seat``'s page whose socket connects now, naming the last chat message it shows."""
    socketio: SocketIO = table.app.extensions["socketio"]
    sio = socketio.test_client(table.app, flask_test_client=table.clients[seat].http)
    revision = table.store.revision(table.game_id)
    message = {"game": table.game_id, "revision": revision, "boards": True}
    if chat_after is not None:
        message["chat_after"] = chat_after
    assert sio.emit("watch", message, callback=True)["ok"]
    return sio


def test_a_page_that_connects_late_gets_the_messages_it_missed_once(table):
    say(table, "p1", "hello Bob")
    say(table, "p3", "hi all")
    (first, second) = table.store.chat(table.game_id)
    caught_up = received(late_page(table, "p2", 0), "chat")
    assert caught_up == [
        {"id": first["id"], "name": "Ann", "seat": "p1", "text": "hello Bob"},
        {"id": second["id"], "name": "Cy", "seat": "p3", "text": "hi all"},
    ]
    # A page showing the first message gets only the second; one showing both, nothing.
    assert [m["text"] for m in received(late_page(table, "p2", first["id"]), "chat")] == ["hi all"]
    assert received(late_page(table, "p2", second["id"]), "chat") == []
    # The periodic watch names no message: it costs no chat read and sends nothing.
    assert received(late_page(table, "p2", None), "chat") == []


@pytest.mark.parametrize("bad", [-1, "3", 1.5, True, 2**63, None])
def test_a_malformed_chat_mark_is_ignored(table, bad):
    say(table, "p1", "hello")
    sio = late_page(table, "p2", bad)
    assert received(sio, "chat") == []


def test_the_page_draws_each_message_with_its_id(table):
    say(table, "p1", "hello Bob")
    (message,) = table.store.chat(table.game_id)
    page = table.clients["p2"].get(f"/g/{table.game_id}").get_data(as_text=True)
    assert f'data-chat-id="{message["id"]}"' in page
