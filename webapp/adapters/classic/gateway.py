"""The classic gateway of this process: a port per table (allocated by binding), its listeners,
who may connect (per address, per table), and the page's "Classic clients" panel."""

from __future__ import annotations

import dataclasses
import itertools
import json
import logging
import socket
import threading
import time
from collections.abc import Callable

from flask import Flask, current_app
from sqlalchemy import select, update

import rules_engine

from ...domain import play
from ...domain.service import GameService, Refused
from ...pages.viewer import game_or_404
from ...realtime.connections import SocketsPerAddress
from ...realtime.sockets import EventBudgets, Listeners, socketio
from ...storage.schema import games as games_table
from ...storage.schema import seats as seats_table
from .protocol import (
    COMMAND_BURST,
    COMMANDS_PER_SECOND,
    HELLO_WAIT,
    IDLE_SECONDS,
    IDLE_TABLE_SECONDS,
    TABLES_PER_ADDRESS,
    TURN_GAP,
    WRITE_SECONDS,
    new_code,
    public_host,
    recorded_code,
    recorded_port,
)
from .session import ClassicConnection

log = logging.getLogger("delve.classic")


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
        listeners: Listeners | None = None,
    ):
        self.app = app
        # Where init_app registered this gateway's change and chat listeners (close() removes them).
        self.listeners = listeners
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
        if self.listeners is not None:
            for listeners, mine in (
                (self.listeners.change_listeners, self.changed),
                (self.listeners.chat_listeners, self.chat),
            ):
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


def init_app(app: Flask, listeners: Listeners) -> ClassicGateway | None:
    """The gateway when ``CLASSIC_PORTS`` is set (None: classic clients are off); it hears the
    doorbell and the chat, and, when ``serve`` is true, serves the ports recorded for tables."""
    ports = app.config.get("CLASSIC_PORTS")
    if not ports:
        return None
    gateway = ClassicGateway(
        app,
        ports,
        bind=app.config.get("CLASSIC_BIND", "0.0.0.0"),
        host=public_host(app.config),
        per_address=app.config.get("CLASSIC_CONNECTIONS_PER_ADDRESS", 8),
        tables_per_address=app.config.get("CLASSIC_TABLES_PER_ADDRESS", TABLES_PER_ADDRESS),
        spawn=socketio.start_background_task,
        listeners=listeners,
    )
    listeners.change_listeners.append(gateway.changed)
    listeners.chat_listeners.append(gateway.chat)
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
    gateway = current_app.extensions.get("delve_classic")
    if gateway is None or not rules_engine.get(slug).classic_clients:
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
