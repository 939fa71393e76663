"""gunicorn settings for Delve (read automatically from the working directory).

One worker with threads (async_mode="threading" + simple-websocket): each websocket holds a
thread, so `threads` bounds the open pages per process; run more processes behind a load
balancer with sticky sessions and REDIS_URL for more (README, "Deploy")."""

import os

bind = f"{os.environ.get('HOST', '127.0.0.1')}:{os.environ.get('PORT', '8000')}"
workers = 1
worker_class = "gthread"
threads = int(os.environ.get("THREADS", "100"))
# gthread caps the connections a worker holds (websockets + keep-alive ones) at this number; the
# default 1000 would silently refuse pages once THREADS approaches it.
worker_connections = int(os.environ.get("WORKER_CONNECTIONS", max(1000, 2 * threads)))
# In-flight actions finish; after this, remaining websocket threads are cut and clients reconnect.
graceful_timeout = int(os.environ.get("GRACEFUL_TIMEOUT", "10"))
timeout = 60
control_socket_disable = True
accesslog = None  # Delve writes its own structured request log (webapp/logs.py)


# Graceful shutdown (SIGTERM from a deploy or from the master's own stop): the worker stops
# accepting, lets in-flight requests finish, and waits up to `graceful_timeout` for the rest.
# Open pages must hear "server_restarting" at the start of that, not at its end: gunicorn's
# worker_exit hook runs once the wait is over, when the master is already SIGKILLing the worker
# (both wait `graceful_timeout`), so a message sent from there never reached a page. gunicorn
# has no hook for a worker's SIGTERM, hence the handler wrapped in post_worker_init.


def post_worker_init(worker):
    import signal
    import threading

    from webapp.realtime import announce_restart

    begin_graceful_stop = signal.getsignal(signal.SIGTERM)

    def on_sigterm(signum, frame):
        begin_graceful_stop(signum, frame)
        # Not from the signal handler itself: it interrupts the main thread, which may hold
        # a lock the emit needs.
        threading.Thread(target=announce_restart, name="announce-restart", daemon=True).start()

    signal.signal(signal.SIGTERM, on_sigterm)
    signal.siginterrupt(signal.SIGTERM, False)  # as gunicorn set it: no EINTR for in-flight requests


def worker_int(worker):
    """SIGINT/SIGQUIT, the quick stop: tell pages at once (gunicorn gives the worker 0.1 s)."""
    from webapp.realtime import announce_restart

    announce_restart()
