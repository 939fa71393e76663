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
processes' doorbell (``realtime.sockets.Listeners``: its change and chat listeners);
nothing polls the database.

The package: ``protocol`` (the wire's words and limits), ``session`` (one connection),
``gateway`` (ports, listeners, seating, the page's panel).
"""

from __future__ import annotations

from .gateway import ClassicGateway, ClassicPanel, init_app, panel_for
from .protocol import (
    COMMAND_BURST,
    IDLE_TABLE_SECONDS,
    LINE_MAX,
    REPLY_DELAY,
    TABLES_PER_ADDRESS,
    TURN_GAP,
    public_host,
    recorded_code,
    recorded_port,
    wire,
    wire_name,
)
from .session import ClassicConnection

__all__ = [
    "COMMAND_BURST",
    "IDLE_TABLE_SECONDS",
    "LINE_MAX",
    "REPLY_DELAY",
    "TABLES_PER_ADDRESS",
    "TURN_GAP",
    "ClassicConnection",
    "ClassicGateway",
    "ClassicPanel",
    "init_app",
    "panel_for",
    "public_host",
    "recorded_code",
    "recorded_port",
    "wire",
    "wire_name",
]
