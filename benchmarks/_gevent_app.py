"""gunicorn ``-k gevent`` entry point for ``benchmarks/load.py --worker gevent`` only: the same
application with Socket.IO on gevent instead of threads. gevent is not a Delve dependency: the
benchmark installs it apart (``pip install --target``) and puts it on this process's path.

gunicorn's gevent worker monkey-patches the standard library before it imports this module."""

import flask_socketio

_init_app = flask_socketio.SocketIO.init_app


def _init_app_on_gevent(self, app, **kwargs):
    kwargs["async_mode"] = "gevent"  # create_app asks for "threading", the right mode for gthread
    return _init_app(self, app, **kwargs)


flask_socketio.SocketIO.init_app = _init_app_on_gevent

from webapp import create_app  # noqa: E402

app = create_app()
