"""Delve's web application: routes, seats, storage, realtime and rendering. No rule is decided here.

``create_app(config=None)`` is the factory; ``socketio`` the Socket.IO instance.
"""

from __future__ import annotations

import logging

from flask import Flask

from . import errors, rendering, security
from .config import PROJECT_ROOT, from_environment
from .realtime import socketio
from .store import Store

__all__ = ["create_app", "socketio"]


def create_app(config: dict | None = None) -> Flask:
    app = Flask(
        __name__,
        template_folder=str(PROJECT_ROOT / "templates"),
        static_folder=str(PROJECT_ROOT / "static"),
    )
    app.config.update(from_environment())
    if config:
        app.config.update(config)
    logging.basicConfig(level=app.config["LOG_LEVEL"], format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    app.jinja_env.trim_blocks = True
    app.jinja_env.lstrip_blocks = True

    app.extensions["delve_store"] = Store(app.config["DATABASE_URL"])

    from . import games, lobby, tables

    app.register_blueprint(lobby.bp)
    app.register_blueprint(games.bp)
    app.register_blueprint(tables.bp)
    security.init_app(app)
    rendering.init_app(app)
    errors.init_app(app)

    # async_mode is explicit: with gevent merely installed, Flask-SocketIO would pick it even
    # under gunicorn's thread worker and websocket upgrades would hang (PLATFORM-NOTES.md).
    socketio.init_app(
        app,
        async_mode="threading",
        message_queue=app.config["SOCKETIO_MESSAGE_QUEUE"],
        logger=False,
        engineio_logger=False,
    )
    if app.config.get("BACKGROUND_JOBS", not app.testing):
        from .presence import start_background_jobs

        start_background_jobs(app, socketio)
    return app
