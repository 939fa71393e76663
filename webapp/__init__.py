"""Delve's web application: routes, seats, storage, realtime and rendering. No rule is decided here.

``create_app(config=None)`` is the factory; ``socketio`` the Socket.IO instance.
"""

from __future__ import annotations

import sys

from flask import Flask
from sqlalchemy.exc import SQLAlchemyError
from werkzeug.middleware.proxy_fix import ProxyFix

from . import errors, hall_of_fame, limits, logs, rendering, security
from .board_push import board_pushes
from .config import PROJECT_ROOT, ConfigError, from_environment
from .connections import SocketsPerAddress
from .realtime import LocalDoorbell, RedisDoorbell, count_sessions, notify_changed, socketio
from .service import GameService
from .store import Store, make_engine

__all__ = ["create_app", "socketio", "ConfigError"]


def database_error(url: str, error: Exception) -> ConfigError:
    """What to tell whoever starts the server when its database cannot be used (no password)."""
    try:
        where = make_engine(url).url.render_as_string(hide_password=True)
    except Exception:  # a URL SQLAlchemy cannot even parse
        where = "DATABASE_URL"
    reason = getattr(error, "orig", None) or error
    return ConfigError(f"cannot use the database at {where}: {type(reason).__name__}: {reason}".strip())


def async_mode() -> str:
    """ "gevent" when this process's standard library is patched by gevent, else "threading"."""
    monkey = sys.modules.get("gevent.monkey")
    return "gevent" if monkey is not None and monkey.is_module_patched("socket") else "threading"


def create_app(config: dict | None = None) -> Flask:
    app = Flask(
        __name__,
        template_folder=str(PROJECT_ROOT / "templates"),
        static_folder=str(PROJECT_ROOT / "static"),
    )
    app.config.update(from_environment())
    if config:
        app.config.update(config)
    if "BOT_DELAY_SECONDS" not in app.config:
        from .bots import delay_from_environment

        app.config["BOT_DELAY_SECONDS"] = delay_from_environment()
    logs.init_app(app)
    app.jinja_env.trim_blocks = True
    app.jinja_env.lstrip_blocks = True
    try:
        store = app.extensions["delve_store"] = Store(app.config["DATABASE_URL"])
    except (SQLAlchemyError, OSError) as error:  # OSError: an SQLite file's folder cannot be made
        raise database_error(app.config["DATABASE_URL"], error) from None
    # Every change to a game goes through this one service: it stores, then rings the doorbell;
    # the Hall of Fame's entries land inside the transaction of the action that earned them.
    app.extensions["delve_service"] = GameService(store, ring=notify_changed, writers=[hall_of_fame.record_escapes])

    from . import browsers, deals, games, lobby, replays, tables

    app.register_blueprint(lobby.bp)
    app.register_blueprint(games.bp)
    app.register_blueprint(tables.bp)
    app.register_blueprint(hall_of_fame.bp)
    app.register_blueprint(replays.bp)
    app.register_blueprint(deals.bp)
    browsers.init_app(app)
    security.init_app(app)
    rendering.init_app(app)
    errors.init_app(app)
    limits.init_app(app)

    # async_mode is explicit: gevent when this process runs on it (gunicorn's gevent worker, the
    # production default, patches the standard library before it imports us), threads otherwise
    # (tests, the gthread worker). Left to guess, Flask-SocketIO picks gevent whenever it is
    # installed, and under threads its websocket upgrades then hang.
    socketio.init_app(
        app,
        async_mode=async_mode(),
        # The Redis message queue when several processes share the doorbell (None: in process).
        client_manager=RedisDoorbell(app.config["REDIS_URL"]) if app.config["REDIS_URL"] else LocalDoorbell(),
        logger=False,
        engineio_logger=False,
    )
    app.extensions["delve_sockets_per_address"] = SocketsPerAddress()
    count_sessions(app)
    if app.config["TRUSTED_PROXIES"]:
        # Outside Socket.IO's middleware, which answers /socket.io/ itself: its handshakes and
        # pages are counted per forwarded client address, not as the proxy's.
        n = app.config["TRUSTED_PROXIES"]
        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=n, x_proto=n, x_host=n)  # type: ignore[method-assign]
    # Boards are pushed from a background task, so an action's answer never waits for the other
    # pages' renders; tests render them at once, where they can see them.
    board_pushes.app = app
    board_pushes.emit = lambda event, data, sid: socketio.emit(event, data, to=sid, ignore_queue=True)
    board_pushes.spawn = None if app.testing else socketio.start_background_task
    logs.adopt_library_loggers()
    # The classic TCP gateway (CLASSIC_PORTS; off when unset): it hears the doorbell and the chat
    # like the pages do, and serves the ports recorded for open tables.
    from . import classic

    app.add_template_global(classic.panel_for, "classic_panel")
    gateway = classic.init_app(app)
    if gateway is not None and app.config.get("BACKGROUND_JOBS", not app.testing):
        gateway.start()
    if app.config.get("BACKGROUND_JOBS", not app.testing):
        from . import bots
        from .presence import start_background_jobs

        start_background_jobs(app, socketio)
        # The bots' own loop (webapp/bots.py): a pass every quarter second, beside the clock's.
        bots.start_background_jobs(app, socketio)
    return app
