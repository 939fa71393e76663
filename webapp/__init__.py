"""Delve's web application: routes, seats, storage, realtime and rendering. No rule is decided here.

``create_app(config=None)`` is the factory and the one composition root: the only module that
imports every layer (``web`` and ``adapters`` above ``realtime`` above ``pages`` above ``domain``
above ``storage``) and wires them, making the process-wide caches and keeping them in
``app.extensions``. ``socketio`` is the Socket.IO instance.
"""

from __future__ import annotations

from flask import Flask
from jinja2 import FileSystemLoader
from sqlalchemy.exc import SQLAlchemyError
from werkzeug.middleware.proxy_fix import ProxyFix

from . import logs, solver_worker
from .adapters import classic
from .config import PROJECT_ROOT, ConfigError, async_mode, from_environment
from .domain import deals as shared_deals
from .domain import hall_of_fame, verdicts
from .domain.bots import delay_from_environment
from .domain.catalog import TEMPLATE_FOLDERS
from .domain.history import Histories
from .domain.service import GameService
from .pages import rendering
from .pages.spectator_fragments import SpectatorFragments
from .realtime import presence
from .realtime.board_push import BoardPushes
from .realtime.connections import SocketsPerAddress
from .realtime.sockets import (
    Listeners,
    LocalDoorbell,
    RedisDoorbell,
    count_sessions,
    notify_changed,
    socketio,
)
from .storage.migrate import database_error
from .storage.store import Store
from .web import (
    deals,
    errors,
    front_page,
    games,
    hints,
    limits,
    overload,
    push,
    replays,
    seat_cookies,
    security,
    tables,
)
from .web import hall_of_fame as hall_of_fame_page
from .web import reader as reader_pages
from .web import verdicts as verdict_pages

__all__ = ["create_app", "socketio", "ConfigError"]


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
        app.config["BOT_DELAY_SECONDS"] = delay_from_environment()
    logs.init_app(app)
    app.jinja_loader = FileSystemLoader([str(folder) for folder in TEMPLATE_FOLDERS])
    app.jinja_env.trim_blocks = True
    app.jinja_env.lstrip_blocks = True
    try:
        store = app.extensions["delve_store"] = Store(app.config["DATABASE_URL"])
    except (SQLAlchemyError, OSError) as error:  # OSError: an SQLite file's folder cannot be made
        raise database_error(app.config["DATABASE_URL"], error) from None
    # "Your turn" by Web Push (domain/push.py): the service tells it of each turn begun, and the
    # turn clock of each pass (reminders of slow turns); it sends from background workers, never
    # in the request.
    turn_pushes = push.init_app(app)
    # Every change to a game goes through this one service: it stores, then rings the doorbell;
    # the Hall of Fame's entries land inside the transaction of the action that earned them.
    # A switch to practice is marked (or refused, on a ranked attempt) in its action's transaction.
    # The action that ends a solo game queues the solver's verdict on its deal in its transaction.
    app.extensions["delve_service"] = GameService(
        store,
        ring=notify_changed,
        writers=[
            shared_deals.note_practice_switch,
            hall_of_fame.record_escapes,
            verdicts.VerdictQueue(store, app.config["SOLVER_QUEUE_MAX"]),
        ],
        turn_listeners=[turn_pushes.turn_started],
        clock_listeners=[turn_pushes.remind_due],
    )
    # This process's caches, one per app (pages/viewer.py and web/context.py reach them).
    app.extensions["delve_spectator_fragments"] = SpectatorFragments()
    app.extensions["delve_histories"] = Histories()

    app.register_blueprint(front_page.bp)
    app.register_blueprint(games.bp)
    app.register_blueprint(tables.bp)
    app.register_blueprint(hall_of_fame_page.bp)
    app.register_blueprint(replays.bp)
    app.register_blueprint(verdict_pages.bp)
    app.register_blueprint(deals.bp)
    app.register_blueprint(hints.bp)
    app.register_blueprint(reader_pages.bp)
    seat_cookies.init_app(app)
    security.init_app(app)
    rendering.init_app(app)
    errors.init_app(app)
    limits.init_app(app)
    load_gauge = overload.init_app(app)

    # Boards are pushed from a background task, so an action's answer never waits for the other
    # pages' renders; tests render them at once, where they can see them.
    board_pushes = app.extensions["delve_board_pushes"] = BoardPushes(
        app,
        emit=lambda event, data, sid: socketio.emit(event, data, to=sid, ignore_queue=True),
        spawn=None if app.testing else socketio.start_background_task,
    )
    listeners = app.extensions["delve_doorbell_listeners"] = Listeners(board_pushes)
    # async_mode is explicit: gevent when this process runs on it (gunicorn's gevent worker, the
    # production default, patches the standard library before it imports us), threads otherwise
    # (tests, the gthread worker). Left to guess, Flask-SocketIO picks gevent whenever it is
    # installed, and under threads its websocket upgrades then hang.
    socketio.init_app(
        app,
        async_mode=async_mode(),
        # The Redis message queue when several processes share the doorbell (None: in process).
        client_manager=(
            RedisDoorbell(app.config["REDIS_URL"], listeners) if app.config["REDIS_URL"] else LocalDoorbell(listeners)
        ),
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
    logs.adopt_library_loggers()
    # The classic TCP gateway (CLASSIC_PORTS; off when unset): it hears the doorbell and the chat
    # like the pages do, and serves the ports recorded for open tables.
    app.add_template_global(classic.panel_for, "classic_panel")
    gateway = classic.init_app(app, listeners)
    if gateway is not None and app.config.get("BACKGROUND_JOBS", not app.testing):
        gateway.start()
    if app.config.get("BACKGROUND_JOBS", not app.testing):
        presence.start_background_jobs(app, socketio)
        # The bots' own loop (domain/bots.py): a pass every quarter second, beside the clock's.
        presence.start_bot_loop(app, socketio)
        socketio.start_background_task(load_gauge.watch, socketio.sleep, waiting=board_pushes.oldest_waiting)
    if app.config["SOLVER_WORKER"] and app.config.get("BACKGROUND_JOBS", not app.testing):
        # The solver's own process (never a request's work): verdicts, hints.
        app.extensions["delve_solver_worker"] = solver_worker.start(app.config)
    return app
