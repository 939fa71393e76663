"""Graceful shutdown, the way a deploy does it: SIGTERM to gunicorn's master while a player's
action is in flight and a page is open. The open page is told "server_restarting" at once (not
when the drain is over, by which time the master is SIGKILLing the worker), the in-flight action
finishes, is answered and stored, and its push still goes out; then the process exits by itself.
With several processes on one Redis, only the pages of the process going away are told."""

from __future__ import annotations

import json
import socket
from urllib.parse import urlencode

import pytest
from cluster import action_version, buttons

S2_DECK = "5C 8D 3H 9S 7D KS JS QH 6S"  # a short known deal: its first choice is always offered
EXIT_BOUND = 60  # s: "exits by itself", far above GRACEFUL_TIMEOUT; only a hang reaches it


def restarting(listener) -> bool:
    return any(name == "server_restarting" for _at, name, _data in listener.messages)


def cookie_header(player, game_id: str) -> str:
    """The cookies a browser would send to /g/<id>/act: the session (CSRF) and the seat."""
    return "; ".join(f"{c.name}={c.value}" for c in player.http.cookies if c.path in ("/", f"/g/{game_id}"))


def read_response(raw: socket.socket) -> tuple[int, str]:
    """Status and body of the answer (after the interim 100 Continue); the request said close."""
    data = b""
    while chunk := raw.recv(65536):
        data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    if head.startswith(b"HTTP/1.1 100"):
        head, _, body = body.partition(b"\r\n\r\n")
    return int(head.split()[1]), body.decode(errors="replace")


def test_sigterm_mid_action_finishes_it_and_tells_the_open_page(servers, players, sqlite_url, store_of):
    (server,) = servers(sqlite_url, env={"GRACEFUL_TIMEOUT": "5"})
    store = store_of(sqlite_url)
    ann = players(server.url, "Ann")
    game_id = ann.create("shuffle-and-doom", size="4", deck=S2_DECK)
    board = ann.board(game_id).text
    version, action = action_version(board), buttons(board)[0]
    page = ann.listen(game_id)

    form = urlencode({"csrf_token": ann.csrf, "version": str(version), "action": json.dumps(action)}).encode()
    with socket.create_connection(("127.0.0.1", server.port), timeout=30) as raw:
        raw.sendall(
            f"POST /g/{game_id}/act HTTP/1.1\r\nHost: 127.0.0.1:{server.port}\r\nHX-Request: true\r\n"
            f"Content-Type: application/x-www-form-urlencoded\r\nContent-Length: {len(form)}\r\n"
            f"Cookie: {cookie_header(ann, game_id)}\r\nExpect: 100-continue\r\nConnection: close\r\n\r\n".encode()
        )
        # gunicorn answers 100 Continue from the worker thread that runs the request: from here
        # on the action is in flight, waiting for its body.
        assert raw.recv(64).startswith(b"HTTP/1.1 100 Continue")
        server.process.terminate()  # SIGTERM to the master, which passes it to the worker
        assert page.wait(lambda: restarting(page), 15), "the open page was not told the server is restarting"
        assert store.load(game_id).version == version  # still in flight: nothing applied yet
        raw.sendall(form)
        status, body = read_response(raw)

    assert status == 200, body[:500]
    assert store.actions(game_id) == [(version + 1, "p1", action)]
    assert store.load(game_id).version == version + 1
    # Pushes still go out while the process drains: the page hears of the action it just made.
    assert page.wait_revision(store.revision(game_id))
    server.process.wait(EXIT_BOUND)
    assert server.process.returncode == 0


@pytest.mark.postgres
@pytest.mark.redis
def test_only_the_pages_of_the_stopping_process_are_told(servers, players, postgres_url, redis_server):
    """The message is emitted locally: through the Redis queue it would reach every process.
    (Two processes share PostgreSQL, as deployed: README, "Deploy".)"""
    import socketio

    a, b = servers(postgres_url, redis_server.url, count=2, env={"GRACEFUL_TIMEOUT": "2"})
    ann = players(a.url, "Ann")
    game_id = ann.create("shuffle-and-doom", size="4", deck=S2_DECK)
    on_a = ann.listen(game_id)
    on_b = ann.listen(game_id, base_url=b.url)
    board = ann.board(game_id).text
    assert ann.act(game_id, buttons(board)[0], action_version(board)).status_code == 200
    assert on_b.wait_revision(1)  # the queue does carry pushes between the two processes

    a.process.terminate()
    assert on_a.wait(lambda: restarting(on_a), 15)
    a.process.wait(EXIT_BOUND)
    # A marker sent through the same Redis channel after A is gone (python-socketio's documented
    # way to emit from another process): Redis delivers a channel's messages in order, so once
    # B's page has the marker, anything A put on the queue has reached it too.
    marker = 10**6
    outside = socketio.RedisManager(redis_server.url, channel="flask-socketio", write_only=True)
    outside.emit("changed", {"revision": marker}, room=f"g:{game_id}")
    assert on_b.wait_revision(marker)
    assert not restarting(on_b)
    assert on_b.disconnects == 0
