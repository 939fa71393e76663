"""Graceful overload: past what this process can serve, actions are refused at the door (503 with
``Retry-After``) instead of queueing until every page's push is seconds late and sockets drop.

One measure says how far behind the process is: the lag of its own loop, or the age of the oldest
push round still waiting to start, whichever is later. A background task asks to sleep
``INTERVAL`` and notes how much later than asked it woke (under gevent every greenlet that was
ready ran first; under threads, everyone who held the interpreter); gevent runs spawned greenlets
(the push rounds) only for a switch interval between two polls of the sockets, so past capacity
they fall behind before the timers do, and the gauge asks the pushes too. A process serving
within its capacity wakes a millisecond or two late; one that takes more work than it can do falls
further behind every second. While the lag is above ``OVERLOAD_LAG_MS`` a new action is refused
before anything is read or written, so the work already accepted (its pushes, the other pages'
boards, the sockets' pings) catches up, and the lag falls back. Only actions are refused: they
are what makes the work (each one renders a board for every page at its table), a refused one
changes nothing and the page says "busy, try again"; pages, boards and sockets are always served.

The loop's lag is followed quickly up and slowly down (a moment's hiccup does not refuse anyone for
long, a busy spell keeps refusing until it is over); the oldest waiting push is read as it is (an
age is smooth already). ``LoadGauge.report`` is what ``/readyz``
shows: the lag, whether actions are refused, and how many were.
"""

from __future__ import annotations

import logging
import re
import threading
import time
from collections.abc import Callable

from flask import Flask, current_app, request

from ..pages.rendering import refusal
from .security import secure_headers

log = logging.getLogger("delve.overload")

BUSY = "The server is busy right now, so your move was not made. Try again in a moment."
RETRY_AFTER_SECONDS = 1
# Endpoints that apply an action (a click, a key, a bot's seat taken back by its player).
ACTION_ENDPOINTS = frozenset({"games.act"})


class LoadGauge:
    """This process's loop lag, and the actions refused because of it."""

    INTERVAL = 0.05  # seconds between two looks at the clock
    # How much of a new reading moves the loop's lag up, and down: a hiccup under twice the limit
    # refuses nobody, a busy spell does at the next look and until a few looks on time. (Slower to
    # rise, a quarter of a reading, let pushes at 300 busy tables reach 2.8 s at p95, not 1.4 s.)
    RISE, FALL = 0.5, 0.1

    def __init__(self, limit_ms: float) -> None:
        self.limit = max(0.0, limit_ms) / 1000
        self.lag = 0.0  # seconds, smoothed
        self.waiting = 0.0  # seconds the oldest accepted work has waited to start, over the last two looks
        self._last_waiting = 0.0
        self.refused = 0
        self._was = False  # overloaded at the last look (for the log line when that changes)
        self._lock = threading.Lock()

    def note(self, late: float) -> None:
        """A wake-up ``late`` seconds after it was due (and the waiting work looked at with it)."""
        weight = self.RISE if late > self.lag else self.FALL
        was, self.lag = self._was, self.lag + (max(0.0, late) - self.lag) * weight
        self._was = self.overloaded()
        if self._was != was:
            behind = max(self.lag, self.waiting) * 1000
            if was:
                log.warning("taking actions again: %.0f ms behind", behind)
            else:
                log.warning("refusing actions: %.0f ms behind (limit %.0f ms)", behind, self.limit * 1000)

    def overloaded(self) -> bool:
        return self.limit > 0 and max(self.lag, self.waiting) > self.limit

    def refuse(self) -> None:
        with self._lock:
            self.refused += 1

    def report(self) -> dict:
        return {
            "lag_ms": round(self.lag * 1000, 1),
            "waiting_ms": round(self.waiting * 1000, 1),
            "limit_ms": round(self.limit * 1000),
            "refusing_actions": self.overloaded(),
            "actions_refused": self.refused,
        }

    def watch(
        self,
        sleep: Callable[[float], object],
        clock: Callable[[], float] = time.monotonic,
        waiting: Callable[[], float] = lambda: 0.0,
    ) -> None:
        """Look at the clock forever (a background task's body). ``waiting``: how long the oldest
        piece of accepted work has waited to start (``BoardPushes.oldest_waiting``); the process
        is as far behind as the later of the two."""
        while True:
            asked = clock()
            sleep(self.INTERVAL)
            # The lower of two looks in a row: a push round held up by one slow moment runs at
            # the next look; rounds that keep waiting are a process behind.
            now_waiting = waiting()
            self.waiting, self._last_waiting = min(now_waiting, self._last_waiting), now_waiting
            self.note(clock() - asked - self.INTERVAL)


def gauge() -> LoadGauge:
    return current_app.extensions["delve_load_gauge"]


ACTION_PATH = re.compile(r"/g/[^/]{1,64}/act")


class RefuseAtTheDoor:
    """WSGI middleware: while the process is overloaded, an htmx action (a page's click or key) is
    answered here, before Flask opens its session, runs its hooks and logs it: the same 503 answer
    every time, built once. A refusal that cost as much as a request would add to the very load it
    turns away (at 300 busy tables, three refusals a second per core's worth of tables). Anything
    else (a form without htmx) goes through Flask, which refuses it too (``init_app``)."""

    def __init__(self, app: Flask, wsgi_app, load_gauge: LoadGauge) -> None:
        self.app = app
        self.wsgi_app = wsgi_app
        self.gauge = load_gauge
        self._answer: tuple[str, list[tuple[str, str]], bytes] | None = None

    def __call__(self, environ, start_response):
        if (
            environ.get("REQUEST_METHOD") == "POST"
            and environ.get("HTTP_HX_REQUEST") == "true"
            and self.gauge.overloaded()
            and ACTION_PATH.fullmatch(environ.get("PATH_INFO", ""))
        ):
            self.gauge.refuse()
            status, headers, body = self._answer or self._build()
            start_response(status, list(headers))
            return [body]
        return self.wsgi_app(environ, start_response)

    def _build(self) -> tuple[str, list[tuple[str, str]], bytes]:
        with self.app.test_request_context(headers={"HX-Request": "true"}):
            response = busy_answer()
            secure_headers(response)
            headers = [(k, v) for k, v in response.headers.items() if k.lower() != "set-cookie"]
            self._answer = (response.status, headers, response.get_data())
        return self._answer


def busy_answer():
    response = refusal(503, BUSY)
    response.headers["Retry-After"] = str(RETRY_AFTER_SECONDS)
    response.headers["Cache-Control"] = "no-store"
    return response


def init_app(app: Flask) -> LoadGauge:
    app.extensions["delve_load_gauge"] = load_gauge = LoadGauge(float(app.config.get("OVERLOAD_LAG_MS", 0)))
    app.wsgi_app = RefuseAtTheDoor(app, app.wsgi_app, load_gauge)  # type: ignore[method-assign]

    @app.before_request
    def refuse_actions_when_overloaded():
        if request.method == "POST" and request.endpoint in ACTION_ENDPOINTS and load_gauge.overloaded():
            load_gauge.refuse()
            return busy_answer()
        return None

    return load_gauge
