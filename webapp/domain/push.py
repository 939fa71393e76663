"""'Your turn' notifications by Web Push (issue 29): who is told, what they are told, and sending
it off the request path.

- **Subscriptions** are kept per browser (its id's hash, ``viewer.browser_key``): one row per
  browser, replaced when it subscribes again. A subscription reaches the seats its browser holds
  (``browser_seats``, written whenever a browser takes a seat), at every table, until the page's
  "Stop notifications" deletes it or the push service answers 404/410 (the browser dropped it).
- **When**: a seat's turn starts (``GameService`` tells ``turn_started``: the turn clock names
  another seat than before, or the game just started) and none of that seat's pages is open
  (``seats.connected``, which every process's sockets keep), and no bot plays it.
- **Reminders**: at a slow table whose turn lasts ``REMINDER_FROM_SECONDS`` (12 hours) or more,
  a turn with a quarter of its time left (``REMINDER_WHEN_LEFT``) and its seat still away gets
  one more push, ``Reminder: your turn at Ann's table (The Dungeon of Doom), about 6 hours left``
  (the same tag: it replaces the first in the tray). The turn clock's pass (``remind_due``, run by
  ``realtime/presence.tick`` on its time) claims it in the database from the stored deadline
  (``games.turn_reminded``), so it is sent once per turn, across restarts and processes. An
  hour-long turn gets none: its "your turn" is recent enough.
- **What**: one push, ``Your turn at Ann's table (The Dungeon of Doom)`` and the table's address:
  never a word of the game (a push passes through the browser vendor's push service, so it is
  not hidden-information-safe). Its TTL is the time left in the turn (a stale "your turn" is
  worth nothing), at most a day; its urgency is high (a turn is on a clock).
- **How**: ``turn_started`` only queues (it runs inside an action's request or the presence loop);
  ``SENDERS`` background workers (greenlets under gevent) read the seat and its subscriptions and
  send through ``pywebpush`` (RFC 8291 encryption by ``http_ece``, RFC 8292 VAPID by ``py_vapid``)
  with a timeout and retries. A slow or dead push service holds a worker, never a request.
- **VAPID keys**: ``VAPID_PRIVATE_KEY`` when set (base64url raw key or PEM); else one key pair is
  made by the first process that needs it and kept in the database (``vapid_keys``), so every
  process and machine of a deployment signs with the same key, and subscriptions survive restarts.
- **Endpoints** are the browser's word: only ``https`` to a named host is accepted (no address
  literal, no ``localhost``), so the server cannot be made to post to its own network by a
  forged subscription; tests allow local endpoints (``allow_local``).
"""

from __future__ import annotations

import base64
import binascii
import ipaddress
import json
import logging
import queue
import re
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from urllib.parse import urlsplit

import requests
from cryptography.hazmat.primitives import serialization
from py_vapid import Vapid
from pywebpush import WebPushException, webpush
from sqlalchemy import and_, delete, insert, select
from sqlalchemy.exc import IntegrityError

from ..storage.schema import browser_seats, push_subscriptions, seats, vapid_keys
from ..storage.store import Store
from . import play
from .catalog import BY_SLUG

log = logging.getLogger("delve.push")

TIMEOUT_SECONDS = 5.0
"""One POST to a push service: connect and read."""
ATTEMPTS = 3
RETRY_SECONDS = (2.0, 10.0)
"""Waits before the second and third attempt (network errors, 429, 5xx)."""
TTL_MIN_SECONDS, TTL_MAX_SECONDS = 60, 24 * 60 * 60
URGENCY = "high"
QUEUE_MAX = 1000
"""Turns waiting to be told; past it a turn is not told (and logged): play never waits."""
SENDERS = 4
REMINDER_FROM_SECONDS = 12 * 60 * 60
"""Turns this long or longer get a reminder."""
REMINDER_WHEN_LEFT = 0.25
"""The share of the turn's time left when its reminder is due."""
LOOK_SECONDS = 60.0
ENDPOINT_MAX = 1024
DEFAULT_SUBJECT = "mailto:delve@localhost"
_BASE64URL = re.compile(r"^[A-Za-z0-9_-]+={0,2}$")


class BadSubscription(ValueError):
    """A subscription the server will not keep; the message says why."""


@dataclass(frozen=True)
class Subscription:
    endpoint: str
    p256dh: str
    auth: str

    def info(self) -> dict:
        """As the Push API's ``PushSubscription.toJSON()`` gives it (what pywebpush takes)."""
        return {"endpoint": self.endpoint, "keys": {"p256dh": self.p256dh, "auth": self.auth}}


def _decoded(value: str, length: int, what: str) -> bytes:
    if not _BASE64URL.match(value or ""):
        raise BadSubscription(f"{what} is not base64url")
    try:
        raw = base64.urlsafe_b64decode(value + "=" * (-len(value) % 4))
    except (binascii.Error, ValueError):
        raise BadSubscription(f"{what} is not base64url") from None
    if len(raw) != length:
        raise BadSubscription(f"{what} must be {length} bytes")
    return raw


def _is_address(host: str) -> bool:
    try:
        ipaddress.ip_address(host)
    except ValueError:
        return False
    return True


def checked_subscription(endpoint: str, p256dh: str, auth: str, *, allow_local: bool = False) -> Subscription:
    """The subscription a page posted, checked: an https endpoint on a named host (``allow_local``:
    any http(s) endpoint, for tests), a P-256 public key (65 bytes, uncompressed) and a 16-byte
    auth secret. Raises BadSubscription."""
    if not endpoint or len(endpoint) > ENDPOINT_MAX:
        raise BadSubscription("the endpoint is missing or too long")
    parts = urlsplit(endpoint)
    host = parts.hostname or ""
    if parts.scheme not in ({"https", "http"} if allow_local else {"https"}) or not host:
        raise BadSubscription("the endpoint must be an https address")
    if parts.username is not None or parts.password is not None:
        raise BadSubscription("the endpoint must not carry credentials")
    if not allow_local:
        if _is_address(host):
            raise BadSubscription("the endpoint must name a host, not an address")
        if host == "localhost" or host.endswith((".localhost", ".local", ".internal")) or "." not in host:
            raise BadSubscription("the endpoint must be a public push service")
    if _decoded(p256dh, 65, "p256dh")[0] != 4:
        raise BadSubscription("p256dh must be an uncompressed P-256 point")
    _decoded(auth, 16, "auth")
    return Subscription(endpoint, p256dh, auth)


# ---- storage ---------------------------------------------------------------------------------------


def subscribe(store: Store, browser: str, subscription: Subscription) -> None:
    """This browser's subscription is ``subscription`` (its earlier one, if any, is replaced; an
    endpoint another browser id had moves here: the endpoint is this browser's install)."""
    with store.engine.begin() as conn:
        conn.execute(
            delete(push_subscriptions).where(
                (push_subscriptions.c.browser == browser) | (push_subscriptions.c.endpoint == subscription.endpoint)
            )
        )
        conn.execute(
            insert(push_subscriptions).values(
                endpoint=subscription.endpoint,
                browser=browser,
                p256dh=subscription.p256dh,
                auth=subscription.auth,
                created_at=time.time(),
            )
        )


def unsubscribe(store: Store, browser: str) -> None:
    """This browser's subscription is deleted ("Stop notifications")."""
    with store.engine.begin() as conn:
        conn.execute(delete(push_subscriptions).where(push_subscriptions.c.browser == browser))


def forget_endpoint(store: Store, endpoint: str) -> None:
    with store.engine.begin() as conn:
        conn.execute(delete(push_subscriptions).where(push_subscriptions.c.endpoint == endpoint))


def subscriptions_of_seat(store: Store, game_id: str, seat: str) -> list[Subscription]:
    """The subscriptions of the browsers that took ``seat`` in the game."""
    with store.engine.connect() as conn:
        rows = conn.execute(
            select(push_subscriptions.c.endpoint, push_subscriptions.c.p256dh, push_subscriptions.c.auth)
            .join(browser_seats, browser_seats.c.browser == push_subscriptions.c.browser)
            .where(browser_seats.c.game_id == game_id, browser_seats.c.seat == seat)
            .order_by(push_subscriptions.c.endpoint)
        ).all()
    return [Subscription(*row) for row in rows]


def away_without_bot(store: Store, game_id: str, seat: str) -> bool:
    """Whether the seat is in the game, a person's, and none of its pages is open."""
    with store.engine.connect() as conn:
        row = conn.execute(
            select(seats.c.connected, seats.c.gone, seats.c.bot).where(
                and_(seats.c.game_id == game_id, seats.c.seat == seat)
            )
        ).first()
    return row is not None and not row.connected and not row.gone and row.bot is None


# ---- VAPID -------------------------------------------------------------------------------------------


def _raw_private(vapid: Vapid) -> str:
    value = vapid.private_key.private_numbers().private_value.to_bytes(32, "big")
    return base64.urlsafe_b64encode(value).decode().rstrip("=")


def public_key_of(vapid: Vapid) -> str:
    """The application server key a page subscribes with (base64url, uncompressed point)."""
    point = vapid.public_key.public_bytes(serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)
    return base64.urlsafe_b64encode(point).decode().rstrip("=")


def load_vapid(store: Store, configured: str | None) -> Vapid:
    """The deployment's VAPID key: ``configured`` (VAPID_PRIVATE_KEY: base64url raw, DER, or PEM),
    else the one in the database, made now if there is none (two processes racing: one insert
    wins and both use it)."""
    if configured:
        if "BEGIN" in configured:
            return Vapid.from_pem(configured.encode())
        return Vapid.from_string(configured)
    with store.engine.connect() as conn:
        stored = conn.execute(select(vapid_keys.c.private_key).where(vapid_keys.c.id == 1)).scalar()
    if stored is None:
        made = Vapid()
        made.generate_keys()
        try:
            with store.engine.begin() as conn:
                conn.execute(insert(vapid_keys).values(id=1, private_key=_raw_private(made), created_at=time.time()))
            log.info("made this deployment's VAPID key pair (stored in the database)")
            return made
        except IntegrityError:
            with store.engine.connect() as conn:
                stored = conn.execute(select(vapid_keys.c.private_key).where(vapid_keys.c.id == 1)).scalar_one()
    return Vapid.from_raw(stored.encode())


# ---- what a push says ------------------------------------------------------------------------------


def turn_message(store: Store, game_id: str) -> dict | None:
    """The push for a turn at this table: its title names the table (by its host) and the game,
    nothing of the game's content; None when the game is gone."""
    table = _table_words(store, game_id)
    if table is None:
        return None
    return {"title": f"Your turn at {table}", "url": f"/g/{game_id}", "tag": f"delve-turn-{game_id}"}


def reminder_message(store: Store, game_id: str, seconds_left: float) -> dict | None:
    """The reminder of a turn with ``seconds_left`` on its clock: the turn's push, its title saying
    so and the time left (the same tag: it replaces the first notification)."""
    table = _table_words(store, game_id)
    if table is None:
        return None
    return {
        "title": f"Reminder: your turn at {table}, {about_left(seconds_left)}",
        "url": f"/g/{game_id}",
        "tag": f"delve-turn-{game_id}",
    }


def _table_words(store: Store, game_id: str) -> str | None:
    """``Ann's table (The Dungeon of Doom)``: the table by its host, and the game; None when gone."""
    record = store.load(game_id, snapshot=False)
    if record is None:
        return None
    seated = store.seats(game_id)
    host = play.host_of(record.lobby, seated)
    name = next((s.name for s in seated if s.seat == host), None)
    entry = BY_SLUG.get(record.slug)
    game_title = entry.title if entry else "Delve"
    table = f"{name}'s table" if name else "your table"
    return f"{table} ({game_title})"


def about_left(seconds: float) -> str:
    """The time left on a turn's clock in round words.

    >>> about_left(6 * 3600 - 1), about_left(3600), about_left(18 * 3600 + 1200), about_left(2400), about_left(20)
    ('about 6 hours left', 'about 1 hour left', 'about 18 hours left', 'about 40 minutes left', 'about 1 minute left')
    """
    minutes = max(1, round(seconds / 60))
    if minutes < 60:
        return f"about {minutes} minute{'s' if minutes > 1 else ''} left"
    hours = round(seconds / 3600)
    return f"about {hours} hour{'s' if hours > 1 else ''} left"


def ttl_for(deadline: float | None, now: float) -> int:
    """How long the push service may keep the message: the turn's time left, within bounds.

    >>> ttl_for(None, 0.0), ttl_for(30.0, 0.0), ttl_for(7200.0, 0.0), ttl_for(10**9, 0.0)
    (86400, 60, 7200, 86400)
    """
    if deadline is None:
        return TTL_MAX_SECONDS
    return int(min(TTL_MAX_SECONDS, max(TTL_MIN_SECONDS, deadline - now)))


# ---- sending ---------------------------------------------------------------------------------------


class TurnPushes:
    """Tells seats whose turn started while they are away; ``turn_started`` only queues."""

    def __init__(
        self,
        store: Store,
        *,
        private_key: str | None = None,
        subject: str = DEFAULT_SUBJECT,
        sleep: Callable[[float], None] = time.sleep,
    ):
        self.store = store
        self.subject = subject
        self._configured_key = private_key
        self._vapid: Vapid | None = None
        self._vapid_lock = threading.Lock()
        self._sleep = sleep
        # (game, seat, deadline, whether it is the turn's reminder)
        self._queue: queue.Queue[tuple[str, str, float | None, bool]] = queue.Queue(maxsize=QUEUE_MAX)
        self._started = False
        self._start_lock = threading.Lock()
        # Whether any browser has subscribed (then stays so); looked up at most every LOOK_SECONDS
        # until then, so a deployment nobody subscribed on costs its turns no query and no worker.
        self._subscribers = False
        self._next_look = 0.0
        self.sent = 0

    @property
    def configured(self) -> bool:
        """Whether the key comes from VAPID_PRIVATE_KEY (not the database)."""
        return self._configured_key is not None

    def vapid(self) -> Vapid:
        with self._vapid_lock:
            if self._vapid is None:
                self._vapid = load_vapid(self.store, self._configured_key)
            return self._vapid

    def public_key(self) -> str:
        return public_key_of(self.vapid())

    def subscribe(self, browser: str, subscription: Subscription) -> None:
        subscribe(self.store, browser, subscription)
        self._subscribers = True

    def _anyone_subscribed(self) -> bool:
        if not self._subscribers and time.monotonic() >= self._next_look:
            self._next_look = time.monotonic() + LOOK_SECONDS
            with self.store.engine.connect() as conn:
                self._subscribers = conn.execute(select(push_subscriptions.c.endpoint).limit(1)).first() is not None
        return self._subscribers

    def turn_started(self, game_id: str, seat: str, deadline: float | None) -> None:
        """``seat``'s turn began (its clock runs out at ``deadline``, None: no limit): queue it."""
        if self._anyone_subscribed():
            self._enqueue(game_id, seat, deadline, reminder=False)

    def remind_due(self, now: float) -> None:
        """The turn clock's pass at ``now``: claim every slow turn due its reminder (its seat away)
        and queue it; a claimed reminder is never claimed again, by this process or another."""
        if not self._anyone_subscribed():
            return
        due = self.store.claim_reminders(now, from_seconds=REMINDER_FROM_SECONDS, left_fraction=REMINDER_WHEN_LEFT)
        for game_id, seat, deadline in due:
            self._enqueue(game_id, seat, deadline, reminder=True)

    def _enqueue(self, game_id: str, seat: str, deadline: float | None, *, reminder: bool) -> None:
        self._start_senders()
        try:
            self._queue.put_nowait((game_id, seat, deadline, reminder))
        except queue.Full:
            log.warning("push queue full: the turn of %s in %s is not told", seat, game_id)

    def wait_idle(self) -> None:
        """Until every queued turn has been handled (tests)."""
        self._queue.join()

    def _start_senders(self) -> None:
        with self._start_lock:
            if self._started:
                return
            self._started = True
        for number in range(SENDERS):
            threading.Thread(target=self._work, name=f"delve-push-{number}", daemon=True).start()

    def _work(self) -> None:
        while True:
            game_id, seat, deadline, reminder = self._queue.get()
            try:
                self.tell(game_id, seat, deadline, reminder=reminder)
            except Exception:  # a database hiccup must not end the sender
                log.exception("telling %s in %s of their turn failed", seat, game_id)
            finally:
                self._queue.task_done()

    def tell(self, game_id: str, seat: str, deadline: float | None, *, reminder: bool = False) -> int:
        """Send the turn's push (``reminder``: its reminder) to the seat's subscriptions if none of
        its pages is open; how many were delivered."""
        if not away_without_bot(self.store, game_id, seat):
            return 0
        subscriptions = subscriptions_of_seat(self.store, game_id, seat)
        now = time.time()
        message = None
        if subscriptions:
            if reminder and deadline is not None:
                message = reminder_message(self.store, game_id, deadline - now)
            else:
                message = turn_message(self.store, game_id)
        if message is None:
            return 0
        payload = json.dumps(message)
        ttl = ttl_for(deadline, now)
        delivered = sum(self.send(subscription, payload, ttl) for subscription in subscriptions)
        self.sent += delivered
        return delivered

    def send(self, subscription: Subscription, payload: str, ttl: int) -> bool:
        """One push, tried up to ATTEMPTS times (network errors, 429 and 5xx are retried); a 404 or
        410 deletes the subscription. True if the push service took it."""
        service = urlsplit(subscription.endpoint).netloc  # never the whole endpoint: it is the browser's
        for attempt in range(ATTEMPTS):
            try:
                webpush(
                    subscription.info(),
                    data=payload,
                    vapid_private_key=self.vapid(),
                    vapid_claims={"sub": self.subject},  # a fresh dict: webpush fills in aud and exp
                    ttl=ttl,
                    headers={"Urgency": URGENCY},
                    timeout=TIMEOUT_SECONDS,
                )
                return True
            except WebPushException as error:
                status = error.response.status_code if error.response is not None else None
                if status in (404, 410):
                    forget_endpoint(self.store, subscription.endpoint)
                    log.info("push service %s dropped a subscription (%s): deleted", service, status)
                    return False
                if status is not None and status != 429 and status < 500:
                    log.warning("push service %s refused a push: %s", service, status)
                    return False
                reason = f"status {status}"
            except requests.RequestException as error:
                reason = type(error).__name__
            if attempt + 1 < ATTEMPTS:
                self._sleep(RETRY_SECONDS[attempt])
        log.warning("push service %s: no push after %d attempts (%s)", service, ATTEMPTS, reason)
        return False
