"""Graceful overload: past what this process can serve, actions are refused at the door (503 with
``Retry-After``) instead of queueing until every page's push is seconds late and sockets drop.

One measure says how far behind the process is: the lag of its own loop. A background task asks
to sleep ``INTERVAL`` and notes how much later than asked it woke (under gevent every greenlet
that was ready ran first; under threads, everyone who held the interpreter). A process serving
within its capacity wakes a millisecond or two late; one that takes more work than it can do falls
further behind every second. While the lag is above ``OVERLOAD_LAG_MS`` a new action is refused
before anything is read or written, so the work already accepted (its pushes, the other pages'
boards, the sockets' pings) catches up, and the lag falls back. Only actions are refused: they
are what makes the work (each one renders a board for every page at its table), a refused one
changes nothing and the page says "busy, try again"; pages, boards and sockets are always served.

The lag is followed quickly up and slowly down (a moment's hiccup does not refuse anyone for
long, a busy spell keeps refusing until it is over). ``LoadGauge.report`` is what ``/readyz``
shows: the lag, whether actions are refused, and how many were.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable

from flask import Flask, current_app, request

from ..pages.rendering import refusal

BUSY = "The server is busy right now, so your move was not made. Try again in a moment."
RETRY_AFTER_SECONDS = 1
# Endpoints that apply an action (a click, a key, a bot's seat taken back by its player).
ACTION_ENDPOINTS = frozenset({"games.act"})


class LoadGauge:
    """This process's loop lag, and the actions refused because of it."""

    INTERVAL = 0.05  # seconds between two looks at the clock
    RISE, FALL = 0.5, 0.1  # how much of a new reading moves the gauge up, and down

    def __init__(self, limit_ms: float) -> None:
        self.limit = max(0.0, limit_ms) / 1000
        self.lag = 0.0  # seconds
        self.refused = 0
        self._lock = threading.Lock()

    def note(self, late: float) -> None:
        """A wake-up ``late`` seconds after it was due."""
        weight = self.RISE if late > self.lag else self.FALL
        self.lag += (max(0.0, late) - self.lag) * weight

    def overloaded(self) -> bool:
        return self.limit > 0 and self.lag > self.limit

    def refuse(self) -> None:
        with self._lock:
            self.refused += 1

    def report(self) -> dict:
        return {
            "lag_ms": round(self.lag * 1000, 1),
            "limit_ms": round(self.limit * 1000),
            "refusing_actions": self.overloaded(),
            "actions_refused": self.refused,
        }

    def watch(self, sleep: Callable[[float], object], clock: Callable[[], float] = time.monotonic) -> None:
        """Look at the clock forever (a background task's body)."""
        while True:
            asked = clock()
            sleep(self.INTERVAL)
            self.note(clock() - asked - self.INTERVAL)


def gauge() -> LoadGauge:
    return current_app.extensions["delve_load_gauge"]


def init_app(app: Flask) -> LoadGauge:
    app.extensions["delve_load_gauge"] = load_gauge = LoadGauge(float(app.config.get("OVERLOAD_LAG_MS", 0)))

    @app.before_request
    def refuse_actions_when_overloaded():
        if request.method == "POST" and request.endpoint in ACTION_ENDPOINTS and load_gauge.overloaded():
            load_gauge.refuse()
            response = refusal(503, BUSY)
            response.headers["Retry-After"] = str(RETRY_AFTER_SECONDS)
            response.headers["Cache-Control"] = "no-store"
            return response
        return None

    return load_gauge
