"""The classic gateway: The Dungeon of Doom's old line-based TCP protocol (rules 10.9), so the
Java clients and bots of the course it comes from can take a seat at a Delve table next to
browser players.

A table's host turns it on (``POST /g/<id>/classic``); the table then gets a port of its own from
``CLASSIC_PORTS`` and a join code (recorded in the game's lobby as ``{"classic": {"port": N,
"code": C, "by": H}}``, so every process and every page knows it; ``H`` is the keyed hash of the
host's address, which holds ports for ``TABLES_PER_ADDRESS`` tables at a time). A client takes a
seat only by sending the code, ``HELLO <code> <name>``: the port alone, which a scan finds, seats
nobody. The code is shown to the table's seated players, as the table's link is, never to
spectators. A waiting table nobody has been at for ``IDLE_TABLE_SECONDS`` gives its port up when
another table needs one. One process owns a port: the one whose ``bind`` succeeded. Allocating is
binding, so two processes on one machine never serve one port; a process that starts binds every
port recorded for a table that has not finished (a restart keeps the tables' addresses).

Each connection is a seat like any other, through the same paths as the web: ``GameService.join``
seats it, ``GameService.act`` applies its actions (log, pushes, replays, Redis all follow), the
table chat is the web chat, and an open connection is presence (``connections``, as a page's
socket is). What it is told comes from ``view(state, seat)`` alone: the LOOK rows are the view's
``look``, the turn, hit point and gold lines the view's events.

Every connection has two tasks (threads, or greenlets under gevent, whose patched standard
library makes these plain sockets cooperative): a reader that cuts lines, and a worker that
answers them strictly in order, with the news of the game in between. News arrives by the
processes' doorbell (``realtime.change_listeners``) and the table chat (``realtime.chat_listeners``);
nothing polls the database.
"""

from __future__ import annotations

import dataclasses
import itertools
import json
import logging
import queue
import secrets
import socket
import threading
import time
import unicodedata
from collections.abc import Callable
from types import SimpleNamespace
from typing import Any

from flask import Flask
from sqlalchemy import select, update

import rules_engine
from rules_engine.text import clean_text

from . import play
from . import seats as seat_tokens
from .catalog import clean_name
from .connections import SocketsPerAddress, connections
from .realtime import ALLOWED, EventBudgets, push_chat
from .service import GameService, Refused
from .store import StaleVersion
from .store import games as games_table
from .store import seats as seats_table

log = logging.getLogger("delve.classic")

SLUG = "dungeon-of-doom"
LINE_MAX = 256
"""Bytes in one command line; the longest real command (a SHOUT) is far shorter."""
COMMAND_BURST = 30
COMMANDS_PER_SECOND = 10.0
"""A bot that pipelines a whole turn sends a handful at once; one that polls LOOK sends one a second."""
IDLE_SECONDS = 900.0
"""A connection that says nothing for this long is closed (its seat then has the grace period).
Long: a bot waits silently for its STARTTURN through every other player's turn."""
REPLY_DELAY = 0.01
"""Old clients race: no answer leaves sooner than this after its command arrived."""
TURN_GAP = 2.0
"""Seconds between the line that ended a seat's turn and that seat's next STARTTURN."""
HELLO_WAIT = 30.0
"""How long a new connection has to say ``HELLO <join code>`` before it is told so and closed
(long enough for a person typing into ``nc``)."""
WRITE_SECONDS = 30.0
"""A client that stops reading: a write waits this long, then the connection is closed."""
TABLES_PER_ADDRESS = 2
"""Tables one client address (the host's) may have taking classic clients at a time, unless
``CLASSIC_TABLES_PER_ADDRESS`` says otherwise (0: no cap)."""
IDLE_TABLE_SECONDS = 30 * 60.0
"""A waiting table with classic clients on, nobody connected and nothing done for this long, gives
its port up when another table needs one (its host may turn classic clients on again)."""
CODE_ALPHABET = "abcdefghjkmnpqrstuvwxyz23456789"  # no 0/o, 1/l/i: read off a screen, typed by hand
CODE_LENGTH = 8  # 31**8, about 2**40: not guessed through a port's connections
ALL_X = ["XXXXX"] * 5
DIRECTIONS = {"N", "E", "S", "W"}
SHOUT_MAX = 200
CHAT_BURST, CHAT_WINDOW = 5, 10.0  # as the web chat (webapp/tables.py)


def wire(text: object) -> str:
    """One line fit for the wire: printable ASCII only. Whatever a browser player typed (a name,
    chat) can never start a protocol line of its own here: CR, LF and every other control or
    separator character become spaces, accents are dropped, anything else non-ASCII is ``?``."""
    decomposed = unicodedata.normalize("NFKD", str(text))
    kept = []
    for ch in decomposed:
        if unicodedata.combining(ch):
            continue
        if " " <= ch <= "~":
            kept.append(ch)
        elif ch.isspace() or unicodedata.category(ch)[0] in "CZ":
            kept.append(" ")
        else:
            kept.append("?")
    return " ".join("".join(kept).split())


def wire_name(name: object) -> str:
    """A name for a line that puts ``name: text`` on the wire (MESSAGE): its ``:`` become ``;``, so
    the first ``:`` of such a line always ends the name and a seat named "Host: psst" cannot speak
    as someone else. Names keep their ``:`` everywhere else (the web shows them as typed)."""
    return wire(name).replace(":", ";")


def recorded_port(lobby: dict) -> int | None:
    classic = lobby.get("classic")
    port = classic.get("port") if isinstance(classic, dict) else None
    return port if isinstance(port, int) else None


def recorded_code(lobby: dict) -> str | None:
    classic = lobby.get("classic")
    code = classic.get("code") if isinstance(classic, dict) else None
    return code if isinstance(code, str) and code else None


def new_code() -> str:
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


def public_host(config) -> str:
    """The host name tables show classic clients: ``CLASSIC_HOST``, else ``SERVER_NAME``'s host,
    else ``CLASSIC_BIND`` when it names one interface, else this machine's name. Configuration
    alone, never a request's Host header: the panel sits in fragments shared by every spectator."""
    if config.get("CLASSIC_HOST"):
        return str(config["CLASSIC_HOST"])
    if config.get("SERVER_NAME"):
        return str(config["SERVER_NAME"]).rsplit(":", 1)[0]
    bind = config.get("CLASSIC_BIND") or "0.0.0.0"
    if bind not in ("0.0.0.0", "::", ""):
        return str(bind)
    return socket.gethostname()


class ClassicGateway:
    """This process's classic listeners (a port per table) and connections."""

    def __init__(
        self,
        app: Flask,
        ports: tuple[int, int],
        *,
        bind: str = "0.0.0.0",
        host: str = "localhost",
        per_address: int = 8,
        tables_per_address: int = TABLES_PER_ADDRESS,
        spawn: Callable[..., object] | None = None,
        idle_seconds: float = IDLE_SECONDS,
        turn_gap: float = TURN_GAP,
        hello_wait: float = HELLO_WAIT,
        write_seconds: float = WRITE_SECONDS,
    ):
        self.app = app
        self.ports = range(ports[0], ports[1] + 1)
        self.bind = bind
        self.host = host
        self.per_address = per_address
        self.tables_per_address = tables_per_address
        self.idle_seconds = idle_seconds
        self.turn_gap = turn_gap
        self.hello_wait = hello_wait
        self.write_seconds = write_seconds
        self._spawn = spawn
        self._lock = threading.Lock()
        self._allocating = threading.Lock()  # one table at a time picks a port in this process
        self._listeners: dict[int, tuple[str, socket.socket]] = {}  # port -> (game, listening socket)
        self._by_game: dict[str, set[ClassicConnection]] = {}
        self._numbers = itertools.count(1)
        self.addresses = SocketsPerAddress()
        self.budgets = EventBudgets(COMMAND_BURST, COMMANDS_PER_SECOND)

    # ---- plumbing ----------------------------------------------------------------------------

    @property
    def service(self) -> GameService:
        return self.app.extensions["delve_service"]

    @property
    def store(self):
        return self.app.extensions["delve_store"]

    def spawn(self, function, *args) -> None:
        if self._spawn is not None:
            self._spawn(function, *args)
        else:
            threading.Thread(target=function, args=args, daemon=True).start()

    def listening(self) -> dict[int, str]:
        with self._lock:
            return {port: game_id for port, (game_id, _sock) in self._listeners.items()}

    def connections_of(self, game_id: str) -> list[ClassicConnection]:
        with self._lock:
            return list(self._by_game.get(game_id, ()))

    # ---- the doorbell and the chat -----------------------------------------------------------

    def changed(self, game_id: str, revision: int) -> None:
        """A game changed (any process): its connections here catch up, each on its own task."""
        for connection in self.connections_of(game_id):
            connection.inbox.put(("changed", revision))
        if game_id in self.listening().values():
            self.spawn(self._check_listener, game_id)

    def chat(self, game_id: str, message: dict) -> None:
        for connection in self.connections_of(game_id):
            connection.inbox.put(("chat", message))

    # ---- ports -------------------------------------------------------------------------------

    def start(self) -> None:
        """Serve every port recorded for a table that has not finished (after a restart)."""
        with self.store.engine.connect() as conn:
            rows = conn.execute(
                select(games_table.c.id, games_table.c.lobby).where(
                    games_table.c.status != "finished", games_table.c.lobby.like('%"classic"%')
                )
            ).all()
        for game_id, raw in rows:
            port = recorded_port(json.loads(raw or "{}"))
            if port is not None and port in self.ports:
                listener = self._bind(port)
                if listener is not None:
                    self._serve(port, game_id, listener)

    def _classic_tables(self) -> dict[str, dict]:
        """Every table that has not finished and takes classic clients: {game: its lobby}."""
        with self.store.engine.connect() as conn:
            rows = conn.execute(
                select(games_table.c.id, games_table.c.lobby).where(
                    games_table.c.status != "finished", games_table.c.lobby.like('%"classic"%')
                )
            ).all()
        tables = {game_id: json.loads(raw or "{}") for game_id, raw in rows}
        return {game_id: lobby for game_id, lobby in tables.items() if recorded_port(lobby) is not None}

    def _idle_tables(self, candidates: list[str]) -> list[str]:
        """Of ``candidates``, the waiting tables nobody is connected to and nothing happened at
        (the game changed, a seat joined or was seen) for ``IDLE_TABLE_SECONDS``."""
        if not candidates:
            return []
        since = time.time() - IDLE_TABLE_SECONDS
        with self.store.engine.connect() as conn:
            waiting = conn.execute(
                select(games_table.c.id).where(
                    games_table.c.id.in_(candidates),
                    games_table.c.status == "waiting",
                    games_table.c.updated_at < since,
                )
            ).all()
            busy = conn.execute(
                select(seats_table.c.game_id)
                .where(
                    seats_table.c.game_id.in_(candidates),
                    (seats_table.c.connected == 1)
                    | (seats_table.c.joined_at >= since)
                    | (seats_table.c.last_seen >= since),
                )
                .distinct()
            ).all()
        return sorted({game_id for (game_id,) in waiting} - {game_id for (game_id,) in busy})

    def _release_idle_ports(self, tables: dict[str, dict]) -> dict[str, dict]:
        """Idle waiting tables give their ports up (every process hears it by the doorbell and
        stops serving it); the classic tables that remain."""
        for game_id in self._idle_tables(list(tables)):
            port = recorded_port(tables[game_id])

            def without_port(lobby: dict, port: int | None = port) -> dict:
                # Only the port read above: a table given a new one meanwhile keeps it.
                return {k: v for k, v in lobby.items() if k != "classic"} if recorded_port(lobby) == port else lobby

            revision = self._write_lobby(game_id, without_port)
            if revision is not None and port is not None:
                log.info("classic: idle game %s gave up port %d", game_id, port)
                self._close_listener(port, game_id)
                self.service.ring(game_id, revision)
                del tables[game_id]
        return tables

    def _bind(self, port: int) -> socket.socket | None:
        listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            listener.bind((self.bind, port))
            listener.listen(64)
        except OSError:
            listener.close()
            return None
        return listener

    def _serve(self, port: int, game_id: str, listener: socket.socket) -> None:
        with self._lock:
            self._listeners[port] = (game_id, listener)
        self.spawn(self._accept_loop, port, game_id, listener)
        log.info("classic clients of game %s: port %d", game_id, port)

    def _close_listener(self, port: int, game_id: str | None = None) -> None:
        """Stop serving ``port`` (only while it serves ``game_id``, when given: a finished table's
        check must not close the port its next table was just given)."""
        with self._lock:
            held = self._listeners.get(port)
            if held is None or (game_id is not None and held[0] != game_id):
                return
            del self._listeners[port]
        if held is not None:
            try:
                held[1].shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
            held[1].close()

    def _write_lobby(self, game_id: str, change: Callable[[dict], dict]) -> int | None:
        """A compare-and-set on the game's lobby text (any status: the game page's toggle works
        mid-game too); the new revision, or None if the game is gone."""
        for _attempt in range(5):
            with self.store.engine.begin() as conn:
                row = conn.execute(select(games_table.c.lobby).where(games_table.c.id == game_id)).first()
                if row is None:
                    return None
                lobby = json.loads(row[0] or "{}")
                new = change(dict(lobby))
                if new == lobby:
                    return None
                revision = conn.execute(
                    update(games_table)
                    .where(games_table.c.id == game_id, games_table.c.lobby == row[0])
                    .values(
                        lobby=json.dumps(new, separators=(",", ":"), sort_keys=True),
                        revision=games_table.c.revision + 1,
                    )
                    .returning(games_table.c.revision)
                ).scalar()
            if revision is not None:
                return revision
        raise Refused(409, "The table changed at the same moment; try again.")

    def enable(self, game_id: str, by: str) -> int:
        """Give the table a port and a join code (this process binds the port and serves it); its
        port. ``by``: the keyed hash of the host's address (``TABLES_PER_ADDRESS``)."""
        with self._allocating:
            return self._enable(game_id, by)

    def carry_over(self, finished: play.LoadedGame, next_id: str) -> int | None:
        """ "Play again" at a table that took classic clients: the next table takes them too, on
        the same port when it is free (old clients cannot be told a new one; the ones connected
        move over by themselves, ``ClassicConnection._move``). The next table's port, or None."""
        port = recorded_port(finished.record.lobby)
        if port is None:
            return None
        by = str(finished.record.lobby["classic"].get("by", ""))
        with self._allocating:
            # The finished table may still hold it here, its check not run yet: hand it over.
            self._close_listener(port, finished.id)
            try:
                # The same code too: a client that reconnects says what it was told.
                return self._enable(next_id, by, preferred=port, code=recorded_code(finished.record.lobby))
            except Refused as refusal:  # the next table is over already, or no port is free
                log.info("classic clients not carried to game %s: %s", next_id, refusal.message)
                return None

    def _enable(self, game_id: str, by: str, preferred: int | None = None, code: str | None = None) -> int:
        record = self.store.load(game_id, snapshot=False)
        if record is None:
            raise Refused(404, "There is no game at this address.")
        if record.status == "finished":
            raise Refused(409, "This game is over.")
        port = recorded_port(record.lobby)
        if port is not None:
            if port not in self.listening():
                listener = self._bind(port)  # a port whose process went away: serve it here
                if listener is not None:
                    self._serve(port, game_id, listener)
            return port
        tables = self._release_idle_ports(self._classic_tables())
        cap = self.tables_per_address
        if cap and sum(1 for lobby in tables.values() if lobby["classic"].get("by") == by) >= cap:
            raise Refused(
                409,
                f"Your address already has {cap} tables taking classic clients: "
                "stop taking them at one of those first.",
            )
        used = {recorded_port(lobby) for lobby in tables.values()} | set(self.listening())
        candidates = [preferred] if preferred in self.ports else []
        for candidate in [*candidates, *self.ports]:
            if candidate in used:
                continue
            listener = self._bind(candidate)
            if listener is not None:
                break
        else:
            raise Refused(409, "Every classic port is taken right now; try again later.")
        chosen, given = candidate, {"port": candidate, "code": code or new_code(), "by": by}
        revision = self._write_lobby(game_id, lambda lobby: {**lobby, "classic": given})
        record = self.store.load(game_id, snapshot=False)
        if record is None or recorded_port(record.lobby) != chosen:
            listener.close()  # another request gave it a port meanwhile: that one stands
            return (recorded_port(record.lobby) or chosen) if record else chosen
        self._serve(chosen, game_id, listener)
        self.service.ring(game_id, revision)
        return chosen

    def disable(self, game_id: str) -> None:
        """No more classic connections (the ones open stay: they are seats)."""
        revision = self._write_lobby(game_id, lambda lobby: {k: v for k, v in lobby.items() if k != "classic"})
        self.service.ring(game_id, revision)
        for port, held in self.listening().items():
            if held == game_id:
                self._close_listener(port)

    def _check_listener(self, game_id: str) -> None:
        """A finished table, or one whose host turned the gateway off, frees its port."""
        try:
            with self.app.app_context():
                record = self.store.load(game_id, snapshot=False)
        except Exception:
            log.exception("classic: checking the port of game %s failed", game_id)
            return
        for port, held in self.listening().items():
            if held != game_id:
                continue
            if record is None or record.status == "finished" or recorded_port(record.lobby) != port:
                self._close_listener(port, game_id)

    def close(self) -> None:
        """Stop listening and close every connection (tests, shutdown)."""
        from . import realtime

        for listeners, mine in ((realtime.change_listeners, self.changed), (realtime.chat_listeners, self.chat)):
            if mine in listeners:
                listeners.remove(mine)
        for port in list(self.listening()):
            self._close_listener(port)
        with self._lock:
            everyone = [c for group in self._by_game.values() for c in group]
        for connection in everyone:
            connection.inbox.put(("closed",))
            connection.shut()

    def _accept_loop(self, port: int, game_id: str, listener: socket.socket) -> None:
        while True:
            try:
                client, address = listener.accept()
            except OSError:
                return  # closed
            with self._lock:
                still = self._listeners.get(port)
            if still is None or still[1] is not listener:
                client.close()
                return
            self.spawn(self._handle, game_id, client, address[0] if isinstance(address, tuple) else str(address))

    def _handle(self, game_id: str, client: socket.socket, address: str) -> None:
        key = f"classic:{next(self._numbers)}"
        if not self.addresses.admit(key, address, self.per_address):
            try:
                client.settimeout(1.0)
                client.sendall(b"FAIL too many connections from your address\n")
            except OSError:
                pass
            client.close()
            return
        connection = ClassicConnection(self, game_id, client, address, key)
        with self._lock:
            self._by_game.setdefault(game_id, set()).add(connection)
        try:
            self.spawn(connection.read_loop)
            connection.run()
        finally:
            self.regroup(connection, connection.game_id, None)
            self.addresses.release(key)

    def regroup(self, connection: ClassicConnection, old: str, new: str | None) -> None:
        """The connection hears ``new``'s doorbell and chat from now on, no longer ``old``'s."""
        with self._lock:
            group = self._by_game.get(old)
            if group is not None:
                group.discard(connection)
                if not group:
                    del self._by_game[old]
            if new is not None:
                self._by_game.setdefault(new, set()).add(connection)


@dataclasses.dataclass
class Told:
    """What one connection has told its client so far, to tell it only what is new."""

    version: int = -1  # the game version whose events it has translated (-1: none, before the start)
    look: list[str] | None = None
    my_turn: bool = False
    done: bool = False  # WIN or LOSE sent
    turn_ended_at: float = 0.0


class ClassicConnection:
    """One classic client: its seat, its socket, and the queue its worker answers in order."""

    def __init__(self, gateway: ClassicGateway, game_id: str, sock: socket.socket, address: str, key: str):
        self.gateway = gateway
        self.game_id = game_id
        self.sock = sock
        # Writes have a timeout of their own (a socket object has one timeout, and the reader's is
        # the idle one): the same connection through a second descriptor.
        self.writer = sock.dup()
        self.writer.settimeout(gateway.write_seconds)
        self.address = address
        self.key = key
        self.inbox: queue.Queue = queue.Queue()
        self.seat = ""  # until seated
        self.seat_hash = ""  # the seat's token hash: a seat number freed and taken again is not ours
        self.name = ""
        self.told = Told()
        self._closed = False

    # ---- the socket --------------------------------------------------------------------------

    def read_loop(self) -> None:
        """Cut the stream into lines (``\\n`` or ``\\r\\n``) for the worker, enforcing the line
        length, the command budget and the idle timeout; the worker hears how reading ended."""
        budgets = self.gateway.budgets
        budgets.open(self.key)
        buffer = b""
        ending = ("closed",)
        try:
            try:
                self.sock.settimeout(self.gateway.idle_seconds)
            except OSError:
                return  # closed before reading began (a full table's refusal hangs up at once)
            while True:
                try:
                    chunk = self.sock.recv(4096)
                except TimeoutError:
                    ending = ("idle",)
                    return
                except OSError:
                    return
                if not chunk:
                    return
                buffer += chunk
                while b"\n" in buffer:
                    line, buffer = buffer.split(b"\n", 1)
                    if len(line) > LINE_MAX:
                        ending = ("too long",)
                        return
                    if budgets.spend(self.key) != ALLOWED:
                        ending = ("flooded",)
                        return
                    try:
                        text = line.rstrip(b"\r").decode("utf-8")
                    except UnicodeDecodeError:
                        self.inbox.put(("not text", time.monotonic()))
                        continue
                    self.inbox.put(("line", text, time.monotonic()))
                if len(buffer) > LINE_MAX:
                    ending = ("too long",)
                    return
        finally:
            budgets.close(self.key)
            self.inbox.put(ending)

    def send(self, *lines: str) -> None:
        if self._closed or not lines:
            return
        try:
            self.writer.sendall("".join(wire(line) + "\n" for line in lines).encode("ascii"))
        except OSError:  # a timeout too: a client that stops reading is closed
            self.shut()

    def shut(self) -> None:
        if self._closed:
            return
        self._closed = True
        try:
            self.sock.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
        self.sock.close()
        self.writer.close()

    # ---- the worker --------------------------------------------------------------------------

    def run(self) -> None:
        sid = self.key
        connections.open(sid)
        try:
            with self.gateway.app.app_context():
                if not self._greet():
                    return
                while not self._closed:
                    item = self.inbox.get()
                    if not self._handle(item):
                        return
        except Exception:
            log.exception("classic connection to game %s failed", self.game_id)
        finally:
            released = connections.remove(sid)
            self.shut()
            self._mark_away(released)
            self._leave_waiting_room()

    def _still_seated(self) -> bool:
        """Whether this connection's seat is still its own (the host may have removed it)."""
        return bool(self.seat) and self.gateway.store.seat_hashes(self.game_id).get(self.seat) == self.seat_hash

    def _leave_waiting_room(self) -> None:
        """A closed connection's seat in a waiting room is free again: a client that hung up
        before the start holds no seat (the seat of one closed mid-game has the grace period)."""
        try:
            with self.gateway.app.app_context():
                game = self._game()
                if game is not None and game.record.status == "waiting" and self._still_seated():
                    self.gateway.service.leave_waiting_room(self.game_id, self.seat)
        except Exception:
            log.exception("classic: freeing the waiting-room seat of a closed connection failed")

    def _mark_away(self, released: list[tuple[str, str]]) -> None:
        if not released:
            return
        try:
            with self.gateway.app.app_context():
                for game_id, seat in released:
                    self.gateway.service.ring(game_id, self.gateway.store.set_connected(game_id, seat, False))
        except Exception:
            log.exception("classic: marking a closed connection away failed")

    def _game(self) -> play.LoadedGame | None:
        return play.load_game(self.gateway.store, self.game_id)

    def _no_seat(self, game: play.LoadedGame | None) -> str | None:
        """The FAIL line of a table with no seat for this connection; None when it has one."""
        if game is None:
            return "FAIL there is no such game"
        if game.record.status == "finished":
            return "FAIL the game is over"
        if table_full(game, self.gateway.store):
            return "FAIL the table is full"
        return None

    def _greet(self) -> bool:
        """GOLD first, then a seat for a client that says ``HELLO <join code> [name]`` (named
        "Classic N" when it gives no name or a taken one). Any other command is answered with how
        to say it; a wrong code, or no HELLO within ``hello_wait``, closes the connection. False
        (and the client told why) when it is not seated."""
        game = self._game()
        refusal = self._no_seat(game)
        if game is None or refusal is not None:
            self.send(refusal or "FAIL there is no such game")
            return False
        self.send(f"GOLD {target_gold(game)}")
        deadline = time.monotonic() + self.gateway.hello_wait
        while not self._closed:
            try:
                item = self.inbox.get(timeout=max(0.0, deadline - time.monotonic()))
            except queue.Empty:
                self.send("FAIL no HELLO <join code> <your name> in time")
                return False
            kind = item[0]
            if kind in ("changed", "chat"):
                continue  # not at the table yet
            if kind == "not text":
                self._answer(item[1], ["FAIL lines must be UTF-8 text"])
                continue
            if kind != "line":
                return self._handle(item)  # told why, and closed
            verb, rest = command_of(item[1])
            if verb != "HELLO":
                self._answer(item[2], ["FAIL say HELLO <join code> <your name> first"])
                continue
            code, name = (rest.split(None, 1) + [""])[:2]
            current = self._game()
            expected = recorded_code(current.record.lobby) if current is not None else None
            if expected is None or not secrets.compare_digest(code.encode(), expected.encode()):
                self._answer(item[2], ["FAIL wrong join code"])
                return False
            if not self._sit(current or game, clean_name(name, "") or None):
                return False
            self._answer(item[2], [f"HELLO {self.name}"])
            return True
        return False

    def _sit(self, game: play.LoadedGame, name: str | None) -> bool:
        """Take a seat at ``game`` under ``name`` (or "Classic N" when it has none or it is
        taken); False (and the client told why) when the table refuses."""
        seats = self.gateway.store.seats(self.game_id)
        if name is None or play.name_taken(seats, name):
            name = next(f"Classic {n}" for n in itertools.count(1) if not play.name_taken(seats, f"Classic {n}"))
        address: Any = SimpleNamespace(remote_addr=self.address)  # all origin_of reads of a request
        origin = seat_tokens.origin_of(address, self.gateway.app.config["SECRET_KEY"])
        try:
            seated = self.gateway.service.join(game, name=name, origin=origin)
        except Refused as refusal:
            # Someone took the last seat since the check above, or the address has its seats.
            self.send("FAIL the table is full" if table_full(game, self.gateway.store) else f"FAIL {refusal.message}")
            return False
        self.seat, self.name = seated.seat, name
        self.seat_hash = seat_tokens.hash_token(seated.token)
        # An open connection is presence, as a page's socket is (the heartbeat keeps it fresh).
        if connections.add(self.key, self.game_id, self.seat):
            self.gateway.service.ring(self.game_id, self.gateway.store.set_connected(self.game_id, self.seat, True))
        joined = self._game()
        if joined is not None and joined.state is not None:
            # Joined a running game: what happened before is not news to this seat.
            view = joined.rules.view(joined.state, self.seat)
            self.told.version = joined.version
            self.told.look = list(view["look"]) or None
            if view["turn"] and view["turn"]["seat"] == self.seat:
                self.told.my_turn = True
                self.send("STARTTURN")
        return True

    def _move(self, next_id: str) -> bool:
        """ "Play again" opened the next table: this connection (an old client cannot be sent to
        another address) takes a seat there under the same name and is told the new game's
        ``GOLD``; the finished table's seat is no longer present. False when there is no seat."""
        game = play.load_game(self.gateway.store, next_id)
        if game is None:
            return True  # nowhere to go: it stays at the finished table
        self.gateway.regroup(self, self.game_id, next_id)
        self._mark_away(connections.release_game(self.key, self.game_id))
        self.game_id, self.seat = next_id, ""
        # A new game tells everything anew; only the pause before a STARTTURN carries over.
        self.told = Told(turn_ended_at=self.told.turn_ended_at)
        refusal = self._no_seat(game)
        if refusal is not None:
            self.send(refusal)
            return False
        self.send(f"GOLD {target_gold(game)}")
        return self._sit(game, self.name)

    def _handle(self, item: tuple) -> bool:
        """One inbox item; False when the connection is to close."""
        kind = item[0]
        if kind == "line":
            self._command(item[1], item[2])
            return True
        if kind == "changed":
            game = self._game()
            if game is not None and game.record.status == "waiting" and not self._still_seated():
                self.send("FAIL you are no longer seated at this table")  # the host removed it
                return False
            if game is not None and game.state is not None:
                self._catch_up(game, own=False)
            following = game.record.lobby.get("next") if game is not None and game.record.status == "finished" else None
            if isinstance(following, str):
                return self._move(following)
            return True
        if kind == "chat":
            message = item[1]
            if message.get("seat") != self.seat:
                self.send(f"MESSAGE {wire_name(message.get('name', ''))}: {message.get('text', '')}")
            return True
        if kind == "not text":
            self._answer(item[1], ["FAIL lines must be UTF-8 text"])
            return True
        if kind == "too long":
            self.send(f"FAIL lines are at most {LINE_MAX} characters")
        elif kind == "flooded":
            self.send("FAIL too many commands: slow down")
        return False  # closed, idle, or cut off

    def _answer(self, received_at: float, lines: list[str]) -> None:
        wait = received_at + REPLY_DELAY - time.monotonic()
        if wait > 0:
            time.sleep(wait)
        self._send_paced(lines)

    def _send_paced(self, lines: list[str]) -> None:
        """Send, holding each STARTTURN until TURN_GAP after the line that ended this seat's turn."""
        pending: list[str] = []
        for line in lines:
            if line == "STARTTURN":
                self.send(*pending)
                pending = []
                wait = self.told.turn_ended_at + self.gateway.turn_gap - time.monotonic()
                if wait > 0:
                    time.sleep(wait)
            pending.append(line)
            if line == "ENDTURN":
                self.send(*pending)
                pending = []
                self.told.turn_ended_at = time.monotonic()
        self.send(*pending)

    # ---- commands ----------------------------------------------------------------------------

    def _command(self, line: str, received_at: float) -> None:
        verb, rest = command_of(line)
        if verb == "HELLO":
            self._answer(received_at, [f"HELLO {self._rename(rest)}"])
        elif verb == "LOOK" and not rest:
            self._answer(received_at, ["LOOKREPLY", *self._look(), ""])
        elif verb in ("MOVE", "ATTACK") and rest.upper() in DIRECTIONS:
            self._act(received_at, {"type": verb.lower(), "dir": rest.upper()})
        elif verb == "PICKUP" and not rest:
            self._act(received_at, {"type": "pickup"})
        elif verb == "ENDTURN" and not rest:
            self._act(received_at, {"type": "end_turn"})
        elif verb == "SHOUT":
            self._shout(received_at, rest)
        else:
            self._answer(received_at, ["FAIL invalid command"])

    def _rename(self, raw: str) -> str:
        """HELLO after the seat is taken: a new name in the waiting room (when nobody has it);
        the name stays once the game runs. The name the seat goes by. A client that says its
        first HELLO again, join code and all, is not renamed after its code."""
        game = self._game()
        code, rest = (raw.split(None, 1) + [""])[:2]
        if game is not None and code == recorded_code(game.record.lobby):
            raw = rest
        name = clean_name(raw, "")
        if name and name != self.name and game is not None and game.record.status == "waiting":
            try:
                self.gateway.service.choose(game, self.seat, name=name, choices={})
                self.name = name
            except Refused:
                pass
        return self.name

    def _look(self) -> list[str]:
        game = self._game()
        if game is None or game.state is None:
            return ALL_X
        look = game.rules.view(game.state, self.seat)["look"]
        return list(look) or ALL_X

    def _act(self, received_at: float, action: dict) -> None:
        for _attempt in range(5):
            game = self._game()
            if game is None:
                return self._answer(received_at, ["FAIL there is no such game"])
            if game.record.status == "finished":
                return self._answer(received_at, ["FAIL the game is over"])
            if game.state is None:
                return self._answer(received_at, ["FAIL not your turn"])
            view = game.rules.view(game.state, self.seat)
            alive = view["me"] is not None and view["me"].get("status") == "alive"
            if alive and (view["turn"] is None or view["turn"]["seat"] != self.seat):
                return self._answer(received_at, ["FAIL not your turn"])
            try:
                after = self.gateway.service.act(game, self.seat, action)
            except rules_engine.IllegalAction as refusal:
                return self._answer(received_at, [f"FAIL {refusal}"])
            except rules_engine.InvalidAction:
                return self._answer(received_at, ["FAIL invalid command"])
            except StaleVersion:
                continue  # someone else's action (a timeout, a join) landed first: on theirs
            news = self._news(after, own=True)
            if action["type"] != "end_turn":
                return self._answer(received_at, ["SUCCESS", *news])
            # ENDTURN has no reply (issue 17): the end of the turn this client asked for is not
            # told back to it; the gap before its next STARTTURN still counts from here.
            if "ENDTURN" in news:
                news.remove("ENDTURN")
                self.told.turn_ended_at = time.monotonic()
            return self._answer(received_at, news)
        return self._answer(received_at, ["FAIL the game was too busy; try again"])

    def _shout(self, received_at: float, text: str) -> None:
        store = self.gateway.store
        text = clean_text(text, SHOUT_MAX)  # the web chat's sanitiser and limit
        if not text:
            return self._answer(received_at, ["FAIL invalid command"])
        if store.recent_chat_count(self.game_id, self.seat, time.time() - CHAT_WINDOW) >= CHAT_BURST:
            return self._answer(received_at, ["FAIL slow down: a few messages every ten seconds"])
        push_chat(self.game_id, store.add_chat(self.game_id, seat=self.seat, name=self.name, text=text))

    # ---- news ----------------------------------------------------------------------------------

    def _catch_up(self, game: play.LoadedGame, *, own: bool) -> None:
        self._send_paced(self._news(game, own=own))

    def _news(self, game: play.LoadedGame, *, own: bool) -> list[str]:
        """The lines this seat has not been told of the game at ``game``'s version: CHANGE when
        its field of view changed by someone else's doing, then its events in order."""
        told = self.told
        if game.state is None or game.version < told.version or (game.version == told.version and told.version >= 0):
            return []
        view = game.rules.view(game.state, self.seat)
        lines: list[str] = []
        look = list(view["look"]) or None
        if not own and look != told.look and not told.done:
            lines.append("CHANGE")
        told.look = look
        for event in view["events"]:
            if event["seq"] <= told.version:
                continue
            kind = event["type"]
            if kind == "turn_started" and not told.done:
                if told.my_turn:
                    lines.append("ENDTURN")
                    told.my_turn = False
                if event.get("seat") == self.seat:
                    lines.append("STARTTURN")
                    told.my_turn = True
            elif kind == "hp_changed":
                lines.append(f"HITMOD {event['delta']}")
            elif kind == "gold_changed":
                lines.append(f"TREASUREMOD {event['delta']}")
            elif kind == "died" and event.get("seat") == self.seat and not told.done:
                lines.append("LOSE")
                told.done, told.my_turn = True, False
            elif kind == "game_over" and not told.done:
                lines.append("WIN" if self.seat in event.get("winners", []) else "LOSE")
                told.done, told.my_turn = True, False
        if not told.done:
            # More than the view's latest events happened since: the turn as it stands decides.
            mine_now = view["turn"] is not None and view["turn"]["seat"] == self.seat
            if told.my_turn and not mine_now:
                lines.append("ENDTURN")
                told.my_turn = False
            elif mine_now and not told.my_turn:
                lines.append("STARTTURN")
                told.my_turn = True
        told.version = game.version
        return lines


def command_of(line: str) -> tuple[str, str]:
    """(the command word in upper case, the rest of the line stripped)."""
    words = line.strip().split(None, 1)
    if not words:
        return "", ""
    return words[0].upper(), words[1].strip() if len(words) > 1 else ""


def table_full(game: play.LoadedGame, store) -> bool:
    """No seat for a newcomer: every waiting-room seat taken, or the rules refuse a join now."""
    if game.state is None:
        return len(store.seats(game.id)) >= play.table_size(game.rules, game.record.options)
    return game.rules.join_action not in game.rules.legal_actions(game.state, "classic-newcomer")


def target_gold(game: play.LoadedGame) -> int:
    """The map's target gold, public before the start too (rules §8): a spectator's view of the
    game as it would begin."""
    state = game.state
    if state is None:
        state = game.rules.new_game(seed=game.record.seed, players=["p1"], options=game.record.options)
    return int(game.rules.view(state, None)["map"]["target_gold"])


def init_app(app: Flask) -> ClassicGateway | None:
    """The gateway when ``CLASSIC_PORTS`` is set (None: classic clients are off); it hears the
    doorbell and the chat, and, when ``serve`` is true, serves the ports recorded for tables."""
    ports = app.config.get("CLASSIC_PORTS")
    if not ports:
        return None
    from . import realtime

    gateway = ClassicGateway(
        app,
        ports,
        bind=app.config.get("CLASSIC_BIND", "0.0.0.0"),
        host=public_host(app.config),
        per_address=app.config.get("CLASSIC_CONNECTIONS_PER_ADDRESS", 8),
        tables_per_address=app.config.get("CLASSIC_TABLES_PER_ADDRESS", TABLES_PER_ADDRESS),
        spawn=realtime.socketio.start_background_task,
    )
    realtime.change_listeners.append(gateway.changed)
    realtime.chat_listeners.append(gateway.chat)
    app.extensions["delve_classic"] = gateway
    return gateway


@dataclasses.dataclass(frozen=True)
class ClassicPanel:
    """What a table's page shows about classic clients: whether the host may turn them on or off,
    where they connect while they are on, and (to seated players only) the join code."""

    port: int | None
    host: str
    may_toggle: bool
    code: str | None


def panel_for(game_id: str, slug: str, seats: list[dict], seat: str | None) -> ClassicPanel | None:
    """The page's "Classic clients" panel (a template global); None where it has none: other
    games, finished games, and servers without ``CLASSIC_PORTS``."""
    from flask import current_app

    from .games import game_or_404

    gateway = current_app.extensions.get("delve_classic")
    if gateway is None or slug != SLUG:
        return None
    game = game_or_404(game_id)
    if game.record.status == "finished":
        return None
    is_host = seat is not None and any(row["host"] and row["seat"] == seat for row in seats)
    port = recorded_port(game.record.lobby)
    if port is None and not is_host:
        return None
    # The code is for the table, as its link is: seated players see it, spectators never do (and
    # the host comes from configuration: spectators' fragments are shared, so nothing of a request).
    code = recorded_code(game.record.lobby) if seat is not None and port is not None else None
    return ClassicPanel(port=port, host=gateway.host, may_toggle=is_host, code=code)
