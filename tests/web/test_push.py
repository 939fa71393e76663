"""'Your turn' notifications by Web Push (issue 29, items 2 and 5), against a push service of our
own: a tiny HTTP server on the loopback started by each test, which decrypts every message with
the subscription's private keys (RFC 8291, aes128gcm, as a browser does), checks its VAPID
authorization (RFC 8292), and answers as a test tells it (a status, or after a gate opens)."""

from __future__ import annotations

import base64
import json
import os
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import http_ece
import pytest
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature
from sqlalchemy import select

from tests.helpers.web import Browser
from tests.web.test_dungeon_of_doom_web import Table
from webapp import create_app
from webapp.domain import push
from webapp.storage.schema import push_subscriptions

PAGE_LIMIT_SECONDS = 300


def b64url(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


def unb64url(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


class BrowserKeys:
    """What a browser makes when it subscribes: an ECDH P-256 key pair and a 16-byte auth secret."""

    def __init__(self):
        self.private = ec.generate_private_key(ec.SECP256R1())
        point = self.private.public_key().public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
        )
        self.p256dh = b64url(point)
        self.auth_secret = os.urandom(16)
        self.auth = b64url(self.auth_secret)

    def decrypt(self, body: bytes) -> bytes:
        return http_ece.decrypt(body, private_key=self.private, auth_secret=self.auth_secret, version="aes128gcm")


class PushService:
    """A push service on 127.0.0.1: records each POST; answers ``statuses`` in turn (then 201); a
    closed ``gate`` holds every answer until it opens (or 20 s pass)."""

    def __init__(self):
        self.received: list[dict] = []
        self.statuses: list[int] = []
        self.gate = threading.Event()
        self.gate.set()
        self.entered = threading.Event()
        self.answered = 0
        service = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):
                body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
                service.received.append({"path": self.path, "headers": dict(self.headers), "body": body})
                service.entered.set()
                service.gate.wait(20)
                status = service.statuses.pop(0) if service.statuses else 201
                self.send_response(status)
                self.send_header("Content-Length", "0")
                self.end_headers()
                service.answered += 1

            def log_message(self, *args):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.origin = f"http://127.0.0.1:{self.server.server_address[1]}"
        threading.Thread(target=self.server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True).start()

    def close(self):
        self.gate.set()
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def service():
    running = PushService()
    yield running
    running.close()


@pytest.fixture
def pushes(app):
    app.config["PUSH_ALLOW_LOCAL_ENDPOINTS"] = True
    sender = app.extensions["delve_push"]
    sender._sleep = lambda seconds: None  # retries at once: the waits are RETRY_SECONDS in production
    yield sender
    sender.wait_idle()


def subscribe(client, endpoint: str, keys: BrowserKeys, csrf=None):
    return client.http.post(
        "/push/subscription",
        data={"csrf_token": csrf or client.csrf, "endpoint": endpoint, "p256dh": keys.p256dh, "auth": keys.auth},
    )


def two_seat_table(app, seat_client, service, *, turn_seconds=300):
    """Ann (p1) and Bob (p2) at a Dungeon of Doom table; Bob's browser subscribed, no page of his open."""
    table = Table(app, seat_client, players=2, turn_seconds=turn_seconds)
    keys = BrowserKeys()
    assert subscribe(table.clients["p2"], f"{service.origin}/push/bob", keys).status_code == 204
    assert table.turn_seat() == "p1"
    return table, keys


def vapid_claims(authorization: str, server_key: str) -> dict:
    """The claims of a ``vapid t=<JWT>,k=<key>`` header (RFC 8292), its ES256 signature checked
    against ``server_key``, the key it names."""
    scheme, _, params = authorization.partition(" ")
    assert scheme == "vapid"
    fields = dict(part.strip().split("=", 1) for part in params.split(","))
    assert fields["k"] == server_key
    header, claims, signature = fields["t"].split(".")
    assert json.loads(unb64url(header)) == {"typ": "JWT", "alg": "ES256"}
    raw = unb64url(signature)
    public = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), unb64url(server_key))
    public.verify(
        encode_dss_signature(int.from_bytes(raw[:32], "big"), int.from_bytes(raw[32:], "big")),
        f"{header}.{claims}".encode(),
        ec.ECDSA(hashes.SHA256()),
    )
    return json.loads(unb64url(claims))


def test_a_turn_begun_while_the_seat_is_away_is_pushed_encrypted_and_signed(app, seat_client, service, pushes):
    table, keys = two_seat_table(app, seat_client, service)
    before = time.time()
    assert table.act("p1", {"type": "end_turn"}).status_code == 200
    pushes.wait_idle()

    assert len(service.received) == 1
    message = service.received[0]
    headers = {name.lower(): value for name, value in message["headers"].items()}
    assert message["path"] == "/push/bob"
    assert headers["content-encoding"] == "aes128gcm"
    assert headers["urgency"] == "high"
    assert 250 <= int(headers["ttl"]) <= 300  # the turn's time left: a stale "your turn" is worth nothing
    claims = vapid_claims(headers["authorization"], pushes.public_key())
    assert claims["aud"] == service.origin
    assert claims["sub"] == app.config["VAPID_SUBJECT"]
    assert before < claims["exp"] <= time.time() + 24 * 60 * 60

    payload = json.loads(keys.decrypt(message["body"]))
    # The table and the game, never a word of the game's content (a push is not hidden-information-safe).
    assert payload == {
        "title": "Your turn at Ann's table (The Dungeon of Doom)",
        "url": f"/g/{table.game_id}",
        "tag": f"delve-turn-{table.game_id}",
    }


def test_no_push_while_a_page_of_the_seat_is_open_nor_for_the_seat_that_acted(app, seat_client, service, pushes):
    table, _keys = two_seat_table(app, seat_client, service)
    table.store.set_connected(table.game_id, "p2", True)
    assert table.act("p1", {"type": "end_turn"}).status_code == 200
    pushes.wait_idle()
    assert service.received == []

    table.store.set_connected(table.game_id, "p2", False)
    assert table.act("p2", {"type": "end_turn"}).status_code == 200  # p1's turn: p1 has no subscription
    pushes.wait_idle()
    assert service.received == []


@pytest.mark.parametrize("gone", [404, 410])
def test_a_subscription_the_push_service_dropped_is_deleted(app, seat_client, service, pushes, gone):
    table, _keys = two_seat_table(app, seat_client, service)
    service.statuses = [gone]
    table.act("p1", {"type": "end_turn"})
    pushes.wait_idle()
    assert len(service.received) == 1  # no retry: the subscription is gone
    with table.store.engine.connect() as conn:
        assert conn.execute(select(push_subscriptions)).all() == []


def test_a_failing_push_service_is_tried_again(app, seat_client, service, pushes):
    table, keys = two_seat_table(app, seat_client, service)
    service.statuses = [503, 429]
    table.act("p1", {"type": "end_turn"})
    pushes.wait_idle()
    assert len(service.received) == push.ATTEMPTS == 3
    assert pushes.sent == 1
    assert {json.loads(keys.decrypt(m["body"]))["url"] for m in service.received} == {f"/g/{table.game_id}"}


def test_a_slow_push_service_does_not_hold_up_play(app, seat_client, service, pushes):
    table, _keys = two_seat_table(app, seat_client, service)
    service.gate.clear()  # the push service takes its time
    assert table.act("p1", {"type": "end_turn"}).status_code == 200
    assert service.entered.wait(10)  # the push is on its way, and held there …
    assert table.act("p2", {"type": "end_turn"}).status_code == 200  # … while play goes on
    assert service.answered == 0
    service.gate.set()
    pushes.wait_idle()
    assert pushes.sent == 1


def test_stop_notifications_deletes_this_browsers_subscription_only(app, seat_client, service, pushes):
    table, _keys = two_seat_table(app, seat_client, service)
    ann = table.clients["p1"]
    assert subscribe(ann, f"{service.origin}/push/ann", BrowserKeys()).status_code == 204
    bob = table.clients["p2"]
    assert bob.http.post("/push/subscription/delete", data={"csrf_token": bob.csrf}).status_code == 204
    with table.store.engine.connect() as conn:
        assert [row.endpoint for row in conn.execute(select(push_subscriptions))] == [f"{service.origin}/push/ann"]
    table.act("p1", {"type": "end_turn"})
    pushes.wait_idle()
    assert service.received == []


def test_a_browser_subscribing_again_replaces_its_subscription(app, seat_client, service, pushes):
    table, _keys = two_seat_table(app, seat_client, service)
    new_keys = BrowserKeys()
    assert subscribe(table.clients["p2"], f"{service.origin}/push/bob-again", new_keys).status_code == 204
    table.act("p1", {"type": "end_turn"})
    pushes.wait_idle()
    assert [m["path"] for m in service.received] == ["/push/bob-again"]
    assert json.loads(new_keys.decrypt(service.received[0]["body"]))["url"] == f"/g/{table.game_id}"


@pytest.mark.parametrize(
    "endpoint",
    [
        "http://push.example.com/x",  # not https
        "https://127.0.0.1/x",  # an address: the server's own network
        "https://[::1]/x",
        "https://localhost/x",
        "https://metadata.internal/x",
        "https://user:pw@push.example.com/x",
        "https://push.example.com/" + "x" * 1100,
        "",
    ],
)
def test_a_subscription_that_would_make_the_server_post_anywhere_is_refused(app, endpoint):
    browser = Browser(app)
    keys = BrowserKeys()
    answer = browser.post("/push/subscription", endpoint=endpoint, p256dh=keys.p256dh, auth=keys.auth)
    assert answer.status_code == 400
    with app.extensions["delve_store"].engine.connect() as conn:
        assert conn.execute(select(push_subscriptions)).all() == []


def test_subscription_keys_and_csrf_are_checked(app):
    browser = Browser(app)
    keys = BrowserKeys()
    good = {"endpoint": "https://push.example.com/abc", "p256dh": keys.p256dh, "auth": keys.auth}
    assert browser.post("/push/subscription", **{**good, "p256dh": keys.p256dh[:-4]}).status_code == 400
    assert browser.post("/push/subscription", **{**good, "auth": b64url(b"x" * 15)}).status_code == 400
    assert browser.post("/push/subscription", **{**good, "p256dh": "A" * 87}).status_code == 400  # not 0x04…
    assert browser.http.post("/push/subscription", data=good).status_code == 400  # no CSRF token
    assert browser.post("/push/subscription", **good).status_code == 204


def test_the_vapid_key_is_made_once_per_deployment_and_shown_to_seated_pages(app, db_url, seat_client):
    table = Table(app, seat_client, players=2)
    key = app.extensions["delve_push"].public_key()
    assert len(unb64url(key)) == 65
    page = table.clients["p2"].get(f"/g/{table.game_id}").get_data(as_text=True)
    assert f'data-push-key="{key}"' in page and "Notify me when it is my turn" in page
    # Another process on the same database signs with the same key; a set VAPID_PRIVATE_KEY wins.
    other = create_app({"TESTING": True, "DATABASE_URL": db_url})
    assert other.extensions["delve_push"].public_key() == key
    configured = push.load_vapid(app.extensions["delve_store"], None)
    assert push.public_key_of(configured) == key


def test_a_vapid_private_key_from_the_environment_is_used(db_url, monkeypatch):
    from py_vapid import Vapid

    own = Vapid()
    own.generate_keys()
    raw = own.private_key.private_numbers().private_value.to_bytes(32, "big")
    monkeypatch.setenv("VAPID_PRIVATE_KEY", b64url(raw))
    made = create_app({"TESTING": True, "DATABASE_URL": db_url})
    assert made.extensions["delve_push"].public_key() == push.public_key_of(own)
    monkeypatch.setenv("VAPID_PRIVATE_KEY", "not a key")
    from webapp import ConfigError

    with pytest.raises(ConfigError, match="VAPID_PRIVATE_KEY"):
        create_app({"TESTING": True, "DATABASE_URL": db_url})


def test_the_service_worker_and_manifest_are_served_and_allowed_by_the_csp(app):
    client = app.test_client()

    def fetched(path):
        with client.get(path) as response:
            response.get_data()
            return response

    worker = fetched("/sw.js")
    assert worker.status_code == 200
    assert worker.headers["Content-Type"].startswith("text/javascript")
    assert worker.headers["Cache-Control"] == "no-cache"
    policy = worker.headers["Content-Security-Policy"]
    assert "worker-src 'self'" in policy and "manifest-src 'self'" in policy
    source = worker.get_data(as_text=True)
    assert "showNotification" in source and "notificationclick" in source
    manifest = fetched("/static/manifest.webmanifest")
    assert manifest.headers["Content-Type"] == "application/manifest+json"
    described = json.loads(manifest.get_data(as_text=True))
    assert described["display"] == "standalone" and described["start_url"] == "/"
    for icon in described["icons"]:
        assert fetched(icon["src"]).status_code == 200, icon
    assert {"192x192", "512x512"} <= {icon["sizes"] for icon in described["icons"]}
    assert any(icon.get("purpose") == "maskable" for icon in described["icons"])
    page = fetched("/").get_data(as_text=True)
    assert 'rel="manifest"' in page and 'rel="apple-touch-icon"' in page
    offline = fetched("/static/offline.html").get_data(as_text=True)
    assert "Delve needs a connection: games are played on the server" in offline
