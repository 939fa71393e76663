"""Crowds and hostile connections against a real gunicorn server (gevent worker): many idle open
pages from many client addresses (the loopback range, 127.0.0.x) do not stall the server; one
address is capped in the pages (sockets) it may hold, told why when it goes over, and other
addresses carry on; a client that dribbles its headers, or opens connections without end, is cut
off. Waits are bounded polls; nothing asserts on wall-clock time (benchmarks/crowd.py measures)."""

from __future__ import annotations

import json
import socket
import time
import urllib.request

import websocket
from cluster import action_version, buttons

WAIT = 15.0
S2_DECK = "5C 8D 3H 9S 7D KS JS QH 6S"
TOO_MANY_PAGES = "Too many pages of Delve are open from your address. Close a few and reload this one."


def connect_from(address: str, port: int, timeout: float = WAIT) -> socket.socket:
    raw = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    raw.settimeout(timeout)
    raw.bind((address, 0))
    raw.connect(("127.0.0.1", port))
    return raw


class Page:
    """One open page's Socket.IO connection over a websocket, from a given loopback address,
    spoken by hand (Engine.IO 4): the open packet, then the namespace's CONNECT and its answer."""

    def __init__(self, port: int, address: str):
        self.ws = websocket.create_connection(
            f"ws://127.0.0.1:{port}/socket.io/?EIO=4&transport=websocket",
            socket=connect_from(address, port),
            timeout=WAIT,
        )
        opened = self.ws.recv()
        assert opened.startswith("0{"), opened  # Engine.IO open
        self.ws.send("40")  # Socket.IO CONNECT to "/"
        self.answer = self.ws.recv()

    @property
    def connected(self) -> bool:
        return self.answer.startswith("40")

    @property
    def refusal(self) -> str | None:
        if not self.answer.startswith("44"):
            return None
        return json.loads(self.answer[2:]).get("message")

    def close(self) -> None:
        try:
            self.ws.close()
        except Exception:
            pass


def healthz(server) -> int:
    with urllib.request.urlopen(server.url + "/healthz", timeout=WAIT) as response:
        return response.status


def test_one_address_is_capped_in_open_pages_and_told_why_while_others_carry_on(servers, sqlite_url):
    (server,) = servers(sqlite_url, env={"SOCKETS_PER_ADDRESS": "5"})
    pages = [Page(server.port, "127.0.0.2") for _ in range(5)]
    try:
        assert all(page.connected for page in pages)
        over = Page(server.port, "127.0.0.2")
        pages.append(over)
        assert not over.connected and over.refusal == TOO_MANY_PAGES
        other = Page(server.port, "127.0.0.3")
        pages.append(other)
        assert other.connected  # another address is not held back
        assert healthz(server) == 200
        pages[0].close()  # a page closes: its address may open one again
        deadline = time.monotonic() + WAIT
        while time.monotonic() < deadline:
            again = Page(server.port, "127.0.0.2")
            pages.append(again)
            if again.connected:
                break
            time.sleep(0.1)
        assert again.connected
    finally:
        for page in pages:
            page.close()


def test_hundreds_of_idle_pages_do_not_stall_the_server_or_a_player(servers, players, sqlite_url, store_of):
    (server,) = servers(sqlite_url)
    store = store_of(sqlite_url)
    pages = []
    try:
        # 16 addresses × 40 pages: under the default cap of 50 per address.
        for index in range(640):
            pages.append(Page(server.port, f"127.0.1.{index % 16 + 1}"))
        assert all(page.connected for page in pages)
        assert healthz(server) == 200
        ann = players(server.url, "Ann")
        game_id = ann.create("shuffle-and-doom", size="4", deck=S2_DECK)
        board = ann.board(game_id).text
        version = action_version(board)
        response = ann.act(game_id, buttons(board)[0], version)
        assert response.status_code == 200
        assert store.load(game_id).version == version + 1
    finally:
        for page in pages:
            page.close()


def test_a_client_that_dribbles_its_headers_is_cut_off(servers, sqlite_url):
    (server,) = servers(sqlite_url, env={"KEEPALIVE": "1"})
    slow = connect_from("127.0.0.4", server.port)
    try:
        slow.sendall(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n")  # and never the blank line
        assert slow.recv(1024) == b""  # closed by the server (a hang would raise a timeout here)
        assert healthz(server) == 200
    finally:
        slow.close()


def test_one_address_cannot_hold_connections_without_end(servers, sqlite_url):
    (server,) = servers(sqlite_url, env={"CONNECTIONS_PER_ADDRESS": "10", "KEEPALIVE": "30"})
    held = [connect_from("127.0.0.5", server.port) for _ in range(10)]
    try:
        # Each is counted once the worker accepted it; a connection over the cap is answered 429.
        deadline = time.monotonic() + WAIT
        answer = b""
        while time.monotonic() < deadline:
            extra = connect_from("127.0.0.5", server.port)
            extra.sendall(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
            answer = extra.recv(4096)
            extra.close()
            if answer.startswith(b"HTTP/1.1 429"):
                break
            time.sleep(0.1)
        assert answer.startswith(b"HTTP/1.1 429") and b"Too many connections from your address" in answer
        assert healthz(server) == 200  # other addresses are served
    finally:
        for raw in held:
            raw.close()
