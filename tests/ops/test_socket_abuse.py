"""Sockets that misbehave, against a real gunicorn server and python-socketio clients over
websockets: a socket flooding ``watch`` is told why and disconnected after a burst (its transport
closed too) while another page on the same server carries on; and one socket that proved seats
in two games releases both when it closes.

Nothing here asserts on wall-clock time: waits are bounded polls, and the flood's bound (far
fewer reads than messages) holds however slowly a shared machine sends them."""

from __future__ import annotations

import json
import threading
import time
import urllib.request

import pytest
import socketio
import websocket
from cluster import PRESENCE_RE, action_version, buttons

FLOODED_REASON = "Too many messages from this page; reload it to reconnect."  # what the page shows
FLOOD = 200
S2_DECK = "5C 8D 3H 9S 7D KS JS QH 6S"  # a short known deal: its first choice is always offered
WAIT = 15.0  # s: bound of every poll; only a failure waits that long


def poll(predicate, timeout: float = WAIT) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.05)
    return predicate()


class RawSocket:
    """A ``socketio.Client`` that never reconnects by itself and records what the server says."""

    def __init__(self, base_url: str):
        self.client = socketio.Client(reconnection=False)
        self.flooded: list[dict] = []
        self.acks: list[object] = []
        self.closed = threading.Event()
        self._lock = threading.Lock()
        self.client.on("flooded", self.flooded.append)
        self.client.on("disconnect", lambda *_reason: self.closed.set())
        self.client.connect(base_url, transports=["websocket"], wait_timeout=10)

    def _ack(self, *reply):
        with self._lock:
            self.acks.append(reply[0] if reply else None)

    def ok_acks(self) -> int:
        with self._lock:
            return sum(1 for reply in self.acks if isinstance(reply, dict) and reply.get("ok"))

    def watch(self, game_id: str, ticket: str | None = None) -> dict:
        return self.client.call("watch", {"game": game_id, "revision": -1, "presence": ticket}, timeout=10)

    def flood(self, game_id: str, times: int) -> int:
        """Send ``watch`` ``times`` times without waiting for answers; how many went out."""
        for sent in range(times):
            try:
                self.client.emit("watch", {"game": game_id, "revision": -1}, callback=self._ack)
            except socketio.exceptions.BadNamespaceError:  # the server cut it off
                return sent
        return times

    def close(self) -> None:
        try:
            self.client.disconnect()
        except Exception:  # already gone
            pass


@pytest.fixture
def raw_sockets():
    made: list[RawSocket] = []

    def make(base_url: str) -> RawSocket:
        sock = RawSocket(base_url)
        made.append(sock)
        return sock

    yield make
    for sock in made:
        sock.close()


def healthz(server) -> int:
    with urllib.request.urlopen(server.url + "/healthz", timeout=10) as response:
        return response.status


def test_a_flooding_socket_is_cut_off_and_another_page_carries_on(servers, players, raw_sockets, sqlite_url, store_of):
    (server,) = servers(sqlite_url)
    store = store_of(sqlite_url)
    ann = players(server.url, "Ann")
    game_id = ann.create("shuffle-and-doom", size="4", deck=S2_DECK)
    calm = ann.listen(game_id)

    flooder = raw_sockets(server.url)
    flooder.flood(game_id, FLOOD)
    assert flooder.closed.wait(WAIT), "the flooding socket was not disconnected"
    assert poll(lambda: flooder.flooded), "the flooding socket was not told why"
    assert flooder.flooded == [{"reason": FLOODED_REASON}]
    # Watches answered: the burst of 20 and what refilled while the messages arrived (an answer
    # still in flight at the cut is lost), nowhere near 200; the bound leaves a slow machine 40 s.
    # tests/web/test_socket_abuse.py counts the database reads themselves.
    assert flooder.ok_acks() < FLOOD // 2, flooder.ok_acks()
    assert not flooder.client.connected

    # The page next to it: still connected, rung after an action, answered when it watches again.
    assert healthz(server) == 200
    assert calm.disconnects == 0 and calm.client.connected
    version = store.load(game_id).version
    board = ann.board(game_id).text
    response = ann.act(game_id, buttons(board)[0], action_version(board))
    assert response.status_code == 200, response.text[:500]
    assert calm.wait_revision(store.revision(game_id)), "the calm page was not rung"
    assert store.load(game_id).version == version + 1
    assert calm.client.call("watch", {"game": game_id, "revision": -1}, timeout=10)["ok"] is True
    assert server.log_text().count("went over its message budget") == 1


def test_a_flooder_that_ignores_the_disconnect_cannot_carry_on_over_the_same_transport(servers, sqlite_url):
    """Engine.IO spoken by hand: the server's DISCONNECT is only a message, and a client ignoring
    it could CONNECT again over the same websocket with a fresh budget. The server closes the
    transport too: after the reason, the DISCONNECT ("41") and CLOSE ("1"), the connection ends."""
    (server,) = servers(sqlite_url)
    ws = websocket.create_connection(f"ws://127.0.0.1:{server.port}/socket.io/?EIO=4&transport=websocket", timeout=WAIT)
    try:
        assert ws.recv().startswith("0")  # Engine.IO open
        ws.send("40")  # Socket.IO connect
        assert ws.recv().startswith("40")
        for _ in range(FLOOD):
            ws.send('42["watch",{"game":"nope"}]')
        heard = []
        while True:
            try:
                message = ws.recv()
            except (websocket.WebSocketConnectionClosedException, ConnectionError):
                break
            if not message:
                break
            heard.append(message)
        assert heard[-3:] == [
            "42" + json.dumps(["flooded", {"reason": FLOODED_REASON}], separators=(",", ":")),
            "41",
            "1",
        ], heard[-5:]
        with pytest.raises((websocket.WebSocketConnectionClosedException, ConnectionError)):
            ws.send("40")
            ws.recv()
    finally:
        ws.shutdown()  # close() skips the socket of a connection the server already ended


def test_one_socket_proving_seats_in_two_games_releases_both_when_it_closes(
    servers, players, raw_sockets, sqlite_url, store_of
):
    (server,) = servers(sqlite_url)
    store = store_of(sqlite_url)
    ann, bob = players(server.url, "Ann"), players(server.url, "Bob")
    games = []
    for _ in range(2):
        game_id = ann.open_table(turn_seconds=0)  # no turn limit: the game waits on a connected seat
        bob.join(game_id)
        ann.start(game_id)
        games.append(game_id)

    def connected(game_id):
        return next(s.connected for s in store.seats(game_id) if s.seat == "p1")

    page = raw_sockets(server.url)
    for game_id in games:
        ticket = PRESENCE_RE.search(ann.get(f"/g/{game_id}").text).group(1)
        assert page.watch(game_id, ticket)["ok"] is True
    assert poll(lambda: all(connected(g) for g in games)), [connected(g) for g in games]

    page.close()
    assert poll(lambda: not any(connected(g) for g in games)), (
        f"seats still shown connected after their socket closed: {[connected(g) for g in games]}"
    )
