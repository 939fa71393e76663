"""The spectators' shared fragments: every spectator of a game at one revision gets the same
board, rendered once (``create_app`` makes the one cache of a process; ``viewer.spectator_fragments``
reaches it)."""

from __future__ import annotations

import threading
from collections import OrderedDict

from flask import g, make_response


class SpectatorFragments:
    """Every spectator of a game at one revision gets the same fragment: render it once.

    When a push reaches fifty spectators, fifty GETs arrive together; without this each would
    render the same board. Keyed by (game, revision, log mark) — the only inputs a spectator's
    fragment depends on. The first request for a key renders it while the others arriving at the
    same moment wait for that render rather than all missing the cache together. Seated players
    always get their own render (their view differs)."""

    WAIT_SECONDS = 5.0

    def __init__(self, size: int = 256, max_bytes: int = 32 * 1024 * 1024):
        self._lock = threading.Lock()
        self._items: OrderedDict = OrderedDict()
        self._rendering: dict = {}
        self._size = size
        # Bounded by bytes as well as entries: one finished 100 × 100 map is over a megabyte, and
        # the cache must not hold a worker's memory hostage whatever the keys.
        self._max_bytes = max_bytes
        self._bytes = 0

    @property
    def held_bytes(self) -> int:
        return self._bytes

    def get(self, key):
        with self._lock:
            return self._items.get(key)

    def put(self, key, value: bytes) -> None:
        if len(value) > self._max_bytes // 8:
            return  # a body this large would push out most of the others: render it each time
        with self._lock:
            old = self._items.pop(key, None)
            if old is not None:
                self._bytes -= len(old)
            self._items[key] = value
            self._bytes += len(value)
            while len(self._items) > self._size or self._bytes > self._max_bytes:
                _key, evicted = self._items.popitem(last=False)
                self._bytes -= len(evicted)

    def shared(self, key, render):
        """The cached body for ``key`` as a response, else ``render()``'s response; ``render``
        returns (response, body to share or None when this answer must not be shared)."""
        with self._lock:
            body = self._items.get(key)
            rendering = self._rendering.get(key) if body is None else None
            leader = body is None and rendering is None
            if leader:
                rendering = self._rendering[key] = threading.Event()
        if body is not None:
            return _cached_response(body)
        if not leader:
            rendering.wait(self.WAIT_SECONDS)
            body = self.get(key)
            return _cached_response(body) if body is not None else render()[0]
        try:
            response, body = render()
            if body is not None:
                self.put(key, body)
            return response
        finally:
            with self._lock:
                self._rendering.pop(key, None)
            rendering.set()


def _cached_response(body: bytes):
    g.served_from_cache = True
    return _fragment_response(body)


def _fragment_response(body: bytes):
    response = make_response(body, 200)
    response.headers["Vary"] = "HX-Request, Cookie"
    response.headers["Cache-Control"] = "no-store"
    return response
