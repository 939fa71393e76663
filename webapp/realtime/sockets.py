"""Socket.IO: a page watches a game and is told when it changes. A page that takes pushed boards
gets its own board, rendered for its socket as its GET would be (``board_push``); any other gets
the doorbell "game g changed, revision N" and fetches its own fragment. Either way hidden
information has one path out (the view, for the page's own seat). Chat is the one thing sent as
data. A seat's page also proves its presence with a signed ticket (never the seat token)."""

from __future__ import annotations

import dataclasses
import functools
import json
import logging
import threading
import time

import orjson
from flask import Flask, current_app, request
from flask_socketio import SocketIO, disconnect, emit, join_room, leave_room, rooms
from socketio import Manager, RedisManager
from socketio.exceptions import ConnectionRefusedError as SocketRefused

from ..pages.tickets import proof_from_ticket
from ..pages.viewer import store as current_store
from .board_push import BoardPushes, Watcher
from .connections import SocketsPerAddress, connections


class PacketJson:
    """How Socket.IO and Engine.IO encode their packets (their ``json`` option): orjson, a
    fraction of the standard library's time for the board every push carries. Their call's
    ``separators`` is what orjson writes anyway; what orjson will not encode (a key that is no
    string, an integer past 64 bits) goes to the standard library as before."""

    @staticmethod
    def dumps(data, **options) -> str:
        try:
            return orjson.dumps(data).decode()
        except TypeError:
            return json.dumps(data, **options)

    @staticmethod
    def loads(text):
        return orjson.loads(text)


socketio = SocketIO(json=PacketJson)
log = logging.getLogger("delve.realtime")

MAX_GAME_ID = 64

# Each message a socket sends costs a thread and, for "watch", a database read, so every socket
# has a token bucket. A page sends "watch" on each (re)connect (a new socket, a full bucket),
# every 30 s, and when its tab comes back into view (static/js/delve.js: at most once a second):
# a few messages a minute. A burst of 20 covers anything a page does at once, and 2 a second
# sustained is more than the most its script can send, so no real page is ever cut off, while
# a flooding socket is, after about 20 messages (one once sent 47,200 in 10 s).
EVENT_BURST = 20
EVENTS_PER_SECOND = 2.0
FLOODED_REASON = "Too many messages from this page; reload it to reconnect."


# The doorbell for this server's own processes: "push the pages you hold of game G their boards".
# Sent to a room no socket joins, so it reaches every process's client manager (through Redis
# when there is one) and no page; the managers below hand it to ``board_pushes``.
PUSH_EVENT = "delve:push"
PUSH_ROOM = "delve:push"


@dataclasses.dataclass
class Listeners:
    """Who in this process hears the doorbell besides its pages: the pushed boards (``board_push``)
    and the other listeners (the classic TCP gateway, ``adapters/classic``): each change listener
    hears (game, revision) after the boards, each chat listener (game, message) for a table's chat,
    from this process or, over Redis, from any other. Called on the emitting thread: a listener
    only hands the news on, it never does the work there. ``create_app`` makes one per app."""

    board_pushes: BoardPushes
    change_listeners: list = dataclasses.field(default_factory=list)
    chat_listeners: list = dataclasses.field(default_factory=list)

    def hear_chat(self, event, data, room) -> None:
        if event == "chat" and isinstance(room, str) and room.startswith("t:") and isinstance(data, dict):
            for listener in self.chat_listeners:
                listener(room[2:], data)


def _hand_over_push(manager: Manager, listeners: Listeners, event: str, data) -> bool:
    """True when this emit was the processes' own doorbell: this process pushes the pages it holds
    their boards (``board_pushes``) and rings, itself, the pages here that fetch their own (one
    message crosses Redis for a change, not two)."""
    if event != PUSH_EVENT:
        return False
    if isinstance(data, dict) and isinstance(data.get("game"), str) and isinstance(data.get("revision"), int):
        listeners.board_pushes.changed(data["game"], data["revision"], data.get("by"))
        for listener in listeners.change_listeners:
            listener(data["game"], data["revision"])
        # Manager.emit: this process's sockets only, whichever manager this is.
        Manager.emit(manager, "changed", {"revision": data["revision"]}, "/", room=room_of(data["game"]))
    return True


class LocalDoorbell(Manager):
    """The in-process client manager (no Redis), which also hears the processes' own doorbell."""

    def __init__(self, listeners: Listeners):
        super().__init__()
        self.listeners = listeners

    def emit(self, event, data, namespace=None, room=None, skip_sid=None, callback=None, to=None, **kwargs):
        if _hand_over_push(self, self.listeners, event, data):
            return None
        self.listeners.hear_chat(event, data, to or room)
        return super().emit(
            event, data, namespace=namespace, room=room, skip_sid=skip_sid, callback=callback, to=to, **kwargs
        )


class RedisDoorbell(RedisManager):
    """The Socket.IO message queue on Redis (``REDIS_URL``), safe to ring from inside a request.

    python-socketio publishes inside ``emit``, so inside the request that committed the action.
    With redis-py's defaults a Redis that hangs (stopped, overloaded, cut off: not refusing)
    held that request 5 s a try, three tries: 15 s an action. Here a publish gets short timeouts
    and no retries, and after a failure publishing pauses a few seconds: pages on this process
    were rung already (the local emit comes first), pages on other processes catch up at their
    next push or reconnect (each says which revision it has). The listener thread keeps
    reconnecting on its own; its blocking read is not bound by these timeouts."""

    TIMEOUT = 0.5
    PAUSE = 5.0

    def __init__(self, url: str, listeners: Listeners, channel: str = "flask-socketio"):
        from redis.backoff import NoBackoff
        from redis.retry import Retry

        super().__init__(
            url,
            channel=channel,
            redis_options={
                "socket_timeout": self.TIMEOUT,
                "socket_connect_timeout": self.TIMEOUT,
                "retry": Retry(NoBackoff(), 0),
            },
        )
        self._paused_until = 0.0
        self.listeners = listeners

    def _handle_emit(self, message):
        """Every emit, this process's own and the other processes' (from Redis), lands here."""
        data = message.get("data")
        if _hand_over_push(
            self, self.listeners, message.get("event"), data[0] if isinstance(data, list) and data else data
        ):
            return None
        self.listeners.hear_chat(
            message.get("event"), data[0] if isinstance(data, list) and data else data, message.get("room")
        )
        return super()._handle_emit(message)

    def _publish(self, data):
        if time.monotonic() < self._paused_until:
            return None
        try:
            if not self.connected:
                self._redis_connect()
            return self.redis.publish(self.channel, self.json.dumps(data))
        except Exception as error:  # any Redis trouble: never the request's problem
            self.connected = False
            self._paused_until = time.monotonic() + self.PAUSE
            log.error(
                "cannot publish to Redis (%s): pushes to other processes paused for %.0f s",
                type(error).__name__,
                self.PAUSE,
            )
            return None


def room_of(game_id: str) -> str:
    """The doorbell's room: the pages of a game that fetch their boards themselves."""
    return f"g:{game_id}"


def table_room_of(game_id: str) -> str:
    """Every page of a game, whichever way it gets its boards: the table chat goes here."""
    return f"t:{game_id}"


def notify_changed(game_id: str, revision: int | None, acted_by: str | None = None) -> None:
    """Ring the doorbell of everyone watching the game; call only after the change is committed.

    Pages that take pushed boards get their board (``board_pushes``), the others the doorbell.
    ``acted_by``: the socket of the page whose own action this was."""
    if revision is not None:
        socketio.emit(PUSH_EVENT, {"game": game_id, "revision": revision, "by": acted_by}, to=PUSH_ROOM)


def announce_restart() -> None:
    """Tell every page connected to this process that it is going away (gunicorn's SIGTERM), so
    each says so and, once the connection drops, reconnects and refetches its board.

    Local only (``ignore_queue``): through the Redis queue the message would reach the pages of
    every process, and those are not restarting. Best effort: a page reconnects without it."""
    try:
        socketio.emit("server_restarting", {}, ignore_queue=True)
    except Exception:  # the process is going away anyway; never let this stop the shutdown
        log.exception("could not tell open pages that the server is restarting")


def chat_payload(message: dict) -> dict:
    """What a page is sent of a chat message: public to the table, escaped by the page; the id
    lets a page that reconnects ask for what it missed (``watch``'s ``chat_after``)."""
    return {"id": message["id"], "name": message["name"], "seat": message["seat"], "text": message["text"]}


def push_chat(game_id: str, message: dict) -> None:
    """Chat is the one thing pushed as data."""
    socketio.emit("chat", chat_payload(message), to=table_room_of(game_id))


def board_pushes() -> BoardPushes:
    """This app's pushed boards (made by ``create_app``)."""
    return current_app.extensions["delve_board_pushes"]


def sockets_per_address() -> SocketsPerAddress:
    """This app's count of open sockets per client address (made by ``create_app``)."""
    return current_app.extensions["delve_sockets_per_address"]


ALLOWED, FLOODED, SHUT_OUT = "allowed", "flooded", "shut out"


class EventBudgets:
    """Token buckets per socket, in this process's memory (a socket lives on one process)."""

    def __init__(self, burst: int, per_second: float, clock=time.monotonic):
        self.burst = burst
        self.per_second = per_second
        self.clock = clock  # monotonic: a wall clock set back would refill nothing for a while
        self._lock = threading.Lock()
        self._by_sid: dict[str, list[float]] = {}  # sid -> [tokens, when they were counted]

    def open(self, sid: str) -> None:
        with self._lock:
            self._by_sid[sid] = [float(self.burst), self.clock()]

    def close(self, sid: str) -> None:
        with self._lock:
            self._by_sid.pop(sid, None)

    def spend(self, sid: str) -> str:
        """ALLOWED; FLOODED for the first message over the limit (say why, cut the socket off);
        SHUT_OUT for the messages still in flight from a socket cut off or closed already, so a
        flood is answered once and a closed socket never gets a fresh bucket."""
        with self._lock:
            bucket = self._by_sid.get(sid)
            if bucket is None:
                return SHUT_OUT
            now = self.clock()
            tokens = min(float(self.burst), bucket[0] + (now - bucket[1]) * self.per_second)
            if tokens < 1.0:
                del self._by_sid[sid]
                return FLOODED
            bucket[0], bucket[1] = tokens - 1.0, now
            return ALLOWED

    def __len__(self) -> int:
        with self._lock:
            return len(self._by_sid)


# A module global, as ``socketio`` is: one bucket per socket id of this process's Socket.IO server.
event_budgets = EventBudgets(EVENT_BURST, EVENTS_PER_SECOND)


def _shut_out_flooder() -> None:
    sid = request.sid  # type: ignore[attr-defined]  # Flask-SocketIO sets it on the request
    # Local only: the socket is on this process, and a message queue would deliver the reason
    # after the disconnect below.
    emit("flooded", {"reason": FLOODED_REASON}, to=sid, ignore_queue=True)
    transport = socketio.server.eio.sockets.get(socketio.server.manager.eio_sid_from_sid(sid, "/"))
    log.warning(
        "socket %s went over its message budget (%d at once, %g a second): disconnected",
        sid,
        EVENT_BURST,
        EVENTS_PER_SECOND,
    )
    disconnect(sid)
    if transport is not None:
        # The transport too: after the namespace's DISCONNECT alone, a client could CONNECT
        # again over the same transport and get a fresh budget without a new handshake.
        # wait=False: never hold this thread for a client that stopped reading.
        transport.close(wait=False)


def handles(event: str):
    """``socketio.on`` for a client's messages: each spends the socket's budget before its handler
    runs, and a socket over budget is told why and disconnected, its message never handled.
    Every handler of a client message registers through this (connect and disconnect, the
    bookkeeping, do not); a test holds every registered handler to it."""

    def register(handler):
        @functools.wraps(handler)
        def limited(*args):
            verdict = event_budgets.spend(request.sid)
            if verdict == FLOODED:
                _shut_out_flooder()
            if verdict != ALLOWED:
                return None
            return handler(*args)

        limited.rate_limited = True
        return socketio.on(event)(limited)

    return register


def _mark_away(pairs: list[tuple[str, str]]) -> None:
    """These seats have no socket left on this process: show them disconnected."""
    store = current_store()
    for game_id, seat in pairs:
        notify_changed(game_id, store.set_connected(game_id, seat, False))


TOO_MANY_PAGES = "Too many pages of Delve are open from your address. Close a few and reload this one."

# Engine.IO sessions an address may hold, per open page it may hold (SOCKETS_PER_ADDRESS).
SESSIONS_PER_PAGE = 2


def count_sessions(app: Flask) -> None:
    """Count Engine.IO sessions per client address from their handshake, as well as open pages.

    A handshake that never connects a namespace is no page, yet its session holds memory until it
    times out: uncounted, one address opened 20,000 in 50 s (~100 MB). An address may hold
    ``SESSIONS_PER_PAGE`` times its cap of pages in sessions: a page needs one, and the slack lets
    the page over its cap connect and be told why it is refused (``on_connect``). A handshake past
    that is refused (401) and its session dropped at once."""
    sessions = app.extensions["delve_sessions_per_address"] = SocketsPerAddress()
    engine_io = socketio.server.eio
    open_session, close_session = engine_io.handlers["connect"], engine_io.handlers["disconnect"]

    def admit(eio_sid, environ):
        cap = app.config.get("SOCKETS_PER_ADDRESS", 0) * SESSIONS_PER_PAGE
        address = environ.get("REMOTE_ADDR") or ""
        if not sessions.admit(eio_sid, address, cap):
            log.warning("refused a handshake: %s holds its cap of Socket.IO sessions", address)
            return TOO_MANY_PAGES
        return open_session(eio_sid, environ)

    def release(eio_sid, *reason):
        try:
            return close_session(eio_sid, *reason)
        finally:
            sessions.release(eio_sid)

    engine_io.on("connect", admit)
    engine_io.on("disconnect", release)


@socketio.on("connect")
def on_connect(_auth=None):
    if not sockets_per_address().admit(
        request.sid, request.remote_addr or "", current_app.config.get("SOCKETS_PER_ADDRESS", 0)
    ):
        log.warning("refused a socket: %s holds its cap of open pages", request.remote_addr)
        raise SocketRefused(TOO_MANY_PAGES)
    event_budgets.open(request.sid)
    connections.open(request.sid)


MAX_LOG_SEEN = 10**9
MAX_CHAT_ID = 2**53  # the largest whole number a page's script holds exactly


@handles("watch")
def watch(data):
    """A page says which game it shows and which revision it has; it is told at once if it is behind.

    ``boards: true`` asks for pushed boards (with ``log_seen``, the page's log mark, ``page``,
    "waiting" for the waiting room, and ``viewer``, the seat's ticket on a solo game's page; a
    table's ``presence`` ticket serves for both); without it the page gets the doorbell. python-socketio has no
    connection-state recovery, so every (re)connect sends this again."""
    if not isinstance(data, dict):
        return {"ok": False, "error": "bad request"}
    game_id = data.get("game")
    known = data.get("revision")
    if not isinstance(game_id, str) or not game_id or len(game_id) > MAX_GAME_ID:
        return {"ok": False, "error": "unknown game"}
    store = current_store()
    revision = store.revision(game_id)
    if revision is None:
        return {"ok": False, "error": "unknown game"}
    sid = request.sid  # Flask-SocketIO sets it on the request
    _leave_other_games(game_id)
    join_room(table_room_of(game_id))
    boards = data.get("boards") is True
    presence = proof_from_ticket(current_app, game_id, data.get("presence"))
    seat = presence.seat if presence is not None else None
    viewer = presence or proof_from_ticket(current_app, game_id, data.get("viewer"))
    if boards:
        log_seen = data.get("log_seen")
        page = data.get("page")
        leave_room(room_of(game_id))  # the doorbell is for pages that fetch
        board_pushes().watch(
            sid,
            Watcher(
                game_id=game_id,
                seat=viewer.seat if viewer is not None else None,
                seat_mark=viewer.mark if viewer is not None else None,
                cookie=request.headers.get("Cookie", ""),
                base_url=request.host_url,
                page="waiting" if page == "waiting" else "",
                shown=known if isinstance(known, int) and 0 <= known <= revision else -1,
                log_seen=log_seen if isinstance(log_seen, int) and 0 <= log_seen <= MAX_LOG_SEEN else None,
                remote_addr=request.remote_addr or "",
            ),
        )
    else:
        board_pushes().forget(sid)
        join_room(room_of(game_id))
    if seat is not None and connections.add(sid, game_id, seat):
        changed = store.set_connected(game_id, seat, True)
        if changed is not None:
            revision = changed
            notify_changed(game_id, revision)
        if not connections.holds(game_id, seat):
            # The socket closed while we wrote, and its release may have landed before our
            # write: left so, the seat would show connected with no socket to ever release it.
            _mark_away([(game_id, seat)])
    if not isinstance(known, int) or known != revision:
        if boards:
            board_pushes().changed(game_id, revision)
        else:
            emit("changed", {"revision": revision})
    chat_after = data.get("chat_after")
    if isinstance(chat_after, int) and not isinstance(chat_after, bool) and 0 <= chat_after <= MAX_CHAT_ID:
        # Said while this page had no socket (between its drawing and its connection, or while it
        # was cut off): a (re)connecting page names the last message it shows.
        for message in store.chat_after(game_id, chat_after):
            emit("chat", chat_payload(message))
    return {"ok": True, "revision": revision}


def _leave_other_games(game_id: str) -> None:
    """A page shows one game: a socket that watches a new one leaves the rooms of any it watched
    before, so it hears neither their chat nor their doorbell (``board_pushes.watch`` moves its
    pushed boards over likewise). The seats it proved there stay proved until it closes or
    unwatches them."""
    for room in rooms():
        if room.startswith(("g:", "t:")) and room[2:] != game_id:
            leave_room(room)


@handles("unwatch")
def unwatch(data):
    """A page stops showing a game: it leaves the rooms, and the seats it proved there go with it."""
    if isinstance(data, dict) and isinstance(data.get("game"), str):
        leave_room(room_of(data["game"]))
        leave_room(table_room_of(data["game"]))
        board_pushes().forget(request.sid, data["game"])
        _mark_away(connections.release_game(request.sid, data["game"]))


@handles("*")
def unknown_message(_event, *_args):
    """Messages no handler knows still spend the budget: a flood of them costs a thread each."""


@socketio.on("disconnect")
def on_disconnect(*_reason):
    sockets_per_address().release(request.sid)
    event_budgets.close(request.sid)
    board_pushes().forget(request.sid)
    _mark_away(connections.remove(request.sid))
