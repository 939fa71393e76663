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


def worker_exit(server, worker):
    """Tell every open page that this process is going away, so it reconnects at once
    (to a restarted process, or another one behind the load balancer) and refetches its board."""
    try:
        from webapp import socketio

        socketio.emit("server_restarting", {})
    except Exception:  # best effort: pages reconnect on their own anyway
        pass
