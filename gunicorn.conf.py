"""gunicorn settings for Delve (read automatically from the working directory).

One gevent worker: every open page (its websocket or long-poll) and every slow client costs a
greenlet, not a thread, so a process holds thousands of open pages and one busy client cannot
starve the others. The worker is gunicorn's own, with two guards for a hostile network (below).
Run more processes behind a load balancer with sticky sessions and REDIS_URL for more (README,
"Deploy"). ``WORKER_CLASS=gthread`` (with ``THREADS``) is the thread worker, for comparison."""

import os
import resource

from gunicorn.workers.base_async import AsyncWorker
from gunicorn.workers.ggevent import GeventWorker

bind = f"{os.environ.get('HOST', '127.0.0.1')}:{os.environ.get('PORT', '8000')}"
workers = 1
threads = int(os.environ.get("THREADS", "100"))  # the gthread worker only
# A greenlet per connection: this caps the connections the process holds at once.
worker_connections = int(os.environ.get("WORKER_CONNECTIONS", "20000"))
# Between requests on a kept-alive connection, and for a request's headers to arrive: a client
# that dribbles its headers is cut off after this many seconds.
keepalive = int(os.environ.get("KEEPALIVE", "20"))
# In-flight actions finish; after this, remaining websocket threads are cut and clients reconnect.
graceful_timeout = int(os.environ.get("GRACEFUL_TIMEOUT", "10"))
timeout = 60
control_socket_disable = True
accesslog = None  # Delve writes its own structured request log (webapp/logs.py)

# Per client address, the connections held at once (0: no cap). Behind a proxy every connection
# comes from the proxy's address, so the proxy caps them instead (README's nginx sample) and
# TRUSTED_PROXIES turns this off.
CONNECTIONS_PER_ADDRESS = int(os.environ.get("CONNECTIONS_PER_ADDRESS", "256"))
# A read that waits longer than this fails and closes its connection: a request body that
# stops arriving, or a websocket that went silent (pages answer the server's ping every 25 s).
READ_TIMEOUT = float(os.environ.get("READ_TIMEOUT", "60"))
TOO_MANY = (
    b"HTTP/1.1 429 Too Many Requests\r\nContent-Type: text/plain; charset=utf-8\r\nConnection: close\r\n"
    b"Content-Length: 69\r\n\r\nToo many connections from your address. Close a few pages and retry.\n"
)


class DelveWorker(GeventWorker):
    """gunicorn's gevent worker, with a cap on connections per client address and a read timeout."""

    def init_process(self):
        self.connections = None  # counted per address once the worker runs (see handle)
        self.address_cap = 0 if int(os.environ.get("TRUSTED_PROXIES", "0") or 0) else CONNECTIONS_PER_ADDRESS
        super().init_process()

    def handle(self, listener, client, addr):
        if self.connections is None:
            # Imported here, not at the top: the application's modules load only after gevent has
            # patched the standard library (init_process); the same count as for open pages.
            from webapp.realtime.connections import SocketsPerAddress

            self.connections = SocketsPerAddress()
        key = str(id(client))
        if not self.connections.admit(key, addr[0] if isinstance(addr, tuple) else str(addr), self.address_cap):
            try:
                client.sendall(TOO_MANY)
            except OSError:
                pass
            client.close()
            return
        try:
            # Not blocking mode (gevent's worker sets it): a timeout, so a stalled read ends.
            client.settimeout(READ_TIMEOUT)
            AsyncWorker.handle(self, listener, client, addr)
        finally:
            self.connections.release(key)


def on_starting(server):
    """Each open page is a file descriptor: allow as many as the system lets this process have
    (the soft limit is often 1,024), for the master and the worker it forks."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = hard if hard != resource.RLIM_INFINITY else 1 << 20
    if soft != resource.RLIM_INFINITY and soft < wanted:
        resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))


worker_class = "gthread" if os.environ.get("WORKER_CLASS") == "gthread" else DelveWorker


# Graceful shutdown (SIGTERM from a deploy or from the master's own stop): the worker stops
# accepting, lets in-flight requests finish, and waits up to `graceful_timeout` for the rest.
# Open pages must hear "server_restarting" at the start of that, not at its end: gunicorn's
# worker_exit hook runs once the wait is over, when the master is already SIGKILLing the worker
# (both wait `graceful_timeout`), so a message sent from there never reached a page. gunicorn
# has no hook for a worker's SIGTERM, hence the handler wrapped in post_worker_init.


def post_worker_init(worker):
    import gc
    import signal
    import threading

    # What the worker loaded to start (modules, templates, the app) lives as long as it does:
    # out of the collector's sight, and a young generation large enough that a render's
    # short-lived objects die before a collection walks them.
    gc.freeze()
    gc.set_threshold(50_000, 20, 100)

    from webapp.realtime.sockets import announce_restart

    begin_graceful_stop = signal.getsignal(signal.SIGTERM)

    def on_sigterm(signum, frame):
        begin_graceful_stop(signum, frame)
        # Not from the signal handler itself: it interrupts the main thread, which may hold
        # a lock the emit needs (and under gevent it runs in the event loop, which must not block).
        if isinstance(worker, GeventWorker):
            import gevent

            gevent.spawn(announce_restart)
        else:
            threading.Thread(target=announce_restart, name="announce-restart", daemon=True).start()

    signal.signal(signal.SIGTERM, on_sigterm)
    signal.siginterrupt(signal.SIGTERM, False)  # as gunicorn set it: no EINTR for in-flight requests


def worker_int(worker):
    """SIGINT/SIGQUIT, the quick stop: tell pages at once (gunicorn gives the worker 0.1 s)."""
    from webapp.realtime.sockets import announce_restart

    announce_restart()
