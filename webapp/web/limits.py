"""Rate limits (Flask-Limiter): per client address, in memory for one process, in Redis when
several processes share the load (``REDIS_URL``). Over the limit: 429 and a readable message."""

from __future__ import annotations

from flask import Flask, request
from flask_limiter import Limiter
from flask_limiter.util import get_remote_address

limiter = Limiter(key_func=get_remote_address, default_limits=[], headers_enabled=True)

CREATE_GAME = "30 per minute; 300 per hour"
ACT = "20 per second; 900 per minute"
CHAT = "20 per minute"
JOIN = "30 per minute"
# The waiting room's writes (name and class, start, leave, add or remove a bot or a seat, classic
# clients on or off): each one rings every page at the table, so they share one budget per table
# and client address (``table_write``): alternating two of them gets no more through than one.
TABLE = "2 per second; 60 per minute"
# Page and board renders: a page fetches its board once a push (20 actions a second at most), so
# no browser comes near; spectators' boards served from the shared cache are not counted.
READ = "60 per second; 3000 per minute"


def table_and_address() -> str:
    """The waiting-room budget's key: the table (the route's ``game_id``) and the client address."""
    game_id = str((request.view_args or {}).get("game_id", ""))[:32]  # ids are 22 characters
    return f"{game_id}@{get_remote_address()}"


table_write = limiter.shared_limit(TABLE, scope="waiting-room", key_func=table_and_address)
"""The decorator of every waiting-room write: one ``TABLE`` budget per table and address."""

# Seconds the limiter waits on Redis for one counter (connect or reply), with no retry.
REDIS_TIMEOUT = 0.5


def init_app(app: Flask) -> None:
    app.config.setdefault("RATELIMIT_ENABLED", app.config["RATE_LIMITS"] and not app.testing)
    app.config["RATELIMIT_STORAGE_URI"] = app.config["REDIS_URL"] or "memory://"
    if app.config["REDIS_URL"]:
        from redis.backoff import NoBackoff
        from redis.retry import Retry

        # A Redis that hangs must not hold every request for redis-py's default 5 s a try.
        app.config.setdefault(
            "RATELIMIT_STORAGE_OPTIONS",
            {
                "socket_timeout": REDIS_TIMEOUT,
                "socket_connect_timeout": REDIS_TIMEOUT,
                "retry": Retry(NoBackoff(), 0),
            },
        )
    # If Redis is away for a moment, count in memory rather than refuse every request.
    app.config.setdefault("RATELIMIT_IN_MEMORY_FALLBACK_ENABLED", True)
    app.config.setdefault("RATELIMIT_SWALLOW_ERRORS", True)
    limiter.init_app(app)
