"""Tools the web tests share: reading a page's CSRF token, a browser of Flask's test client, the
messages a Socket.IO test client received, and a table opened through the lobby form.

>>> form_token('<input type="hidden" name="csrf_token" value="abc">')
'abc'
>>> form_token('<body hx-headers=\\'{"X-CSRF-Token": "xyz"}\\'>')
'xyz'
>>> form_token("<p>no form</p>") is None
True
>>> per_request_parts_removed('<body data-viewer="g.p1.1700000000.sig"><i data-presence="x.y">')
'<body data-viewer=""><i data-presence="">'
"""

from __future__ import annotations

import itertools
import re
from typing import Any

import pytest
from itsdangerous import TimestampSigner

import rules_engine
from tests.page import Page
from webapp import socketio
from webapp.pages.viewer import SEAT_COOKIE_NAME as COOKIE_NAME

# A page carries its CSRF token in its forms' hidden field and in htmx's request header.
CSRF_RE = re.compile(r'name="csrf_token" value="([^"]+)"|"X-CSRF-Token": "([^"]+)"')


def form_token(html: str) -> str | None:
    """The CSRF token a page carries, or None."""
    match = CSRF_RE.search(html)
    return (match.group(1) or match.group(2)) if match else None


# What two renders of one page for one seat differ in by design: each request's CSRF token, and the
# presence tickets (data-presence, data-viewer), signed with the second they were made in.
PER_REQUEST_RE = re.compile(r'(name="csrf_token" value=|"X-CSRF-Token": |data-presence=|data-viewer=)"[^"]*"')


def per_request_parts_removed(html: str) -> str:
    """The page without what differs between two requests for the same view of the same state."""
    return PER_REQUEST_RE.sub(r'\1""', html)


def every_signature_a_second_later(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each signed ticket or token from now on is stamped one second after the one before: two
    renders in a test fall in different seconds, as they may by chance on a slow machine."""
    monkeypatch.setattr(TimestampSigner, "get_timestamp", itertools.count(1_900_000_000).__next__)


def received(sio, name="changed") -> list:
    """The payloads of the messages of that name a Socket.IO test client got since last asked."""
    return [event["args"][0] for event in sio.get_received() if event["name"] == name]


class Browser:
    """One browser: its own cookies (the session that holds its CSRF token, its seat cookies)."""

    def __init__(self, app):
        self.http = app.test_client()
        self.csrf = form_token(self.http.get("/").get_data(as_text=True))

    def create(self, **form) -> str:
        response = self.http.post("/games", data={"csrf_token": self.csrf, **form})
        assert response.status_code == 303, response.get_data(as_text=True)[:500]
        return response.headers["Location"].rsplit("/", 1)[-1]

    def post(self, path: str, **form):
        return self.http.post(path, data={"csrf_token": self.csrf, **form})

    def token(self, game_id: str) -> str | None:
        cookie = self.http.get_cookie(COOKIE_NAME, path=f"/g/{game_id}")
        return cookie.value if cookie else None


class Table:
    """A table opened through the lobby form: the host (seat p1) opens it, friends join by its link
    and take the next seats, the host starts. Each seat is a ``SeatClient`` (tests/conftest.py).
    A game's table is a subclass naming the game's ``slug``."""

    slug: str

    def __init__(self, app, seat_client):
        self.app = app
        self.store = app.extensions["delve_store"]
        self.seat_client = seat_client
        self.host = seat_client()
        self.host.get("/")
        self.clients = {"p1": self.host}

    def open(self, form: dict) -> str:
        """Post the lobby form (the game's slug and the host's CSRF token added); the new game's id."""
        response = self.host.http.post("/games", data={"game": self.slug, "csrf_token": self.host.csrf, **form})
        assert response.status_code == 303, response.get_data(as_text=True)
        self.game_id = response.headers["Location"].rsplit("/", 1)[-1]
        return self.game_id

    def join(self, name: str):
        """A friend opens the table's link and takes the next seat under ``name``."""
        friend = self.seat_client()
        friend.watch(self.game_id)
        joined = friend.http.post(f"/g/{self.game_id}/join", data={"csrf_token": friend.csrf, "name": name})
        assert joined.status_code == 303
        friend.watch(self.game_id)
        self.clients[f"p{len(self.clients) + 1}"] = friend
        return friend

    def start(self):
        response = self.host.http.post(f"/g/{self.game_id}/start", data={"csrf_token": self.host.csrf})
        assert response.status_code == 303, response.get_data(as_text=True)
        for client in self.clients.values():
            client.watch(self.game_id)

    def socket(self, seat=None):
        """A socket watching the game, as the page of that seat (or a spectator's) opens it."""
        client = self.clients[seat].http if seat else self.app.test_client()
        sio = socketio.test_client(self.app, flask_test_client=client)
        page = Page(client.get(f"/g/{self.game_id}").get_data(as_text=True))
        tickets = [tag["data-presence"] for tag in page.select("[data-presence]")]
        ack = sio.emit(
            "watch",
            {"game": self.game_id, "revision": -1, "presence": tickets[0] if tickets else None},
            callback=True,
        )
        assert ack["ok"]
        sio.get_received()
        return sio

    @property
    def rules(self) -> Any:
        return rules_engine.get(self.slug)

    @property
    def service(self):
        return self.app.extensions["delve_service"]

    def state(self):
        return self.rules.load(self.store.load(self.game_id).snapshot)


def at_address(client, address: str):
    """``client`` from its own address: a deal ranks one attempt per browser and per address."""
    client.http.environ_base["REMOTE_ADDR"] = address
    return client
