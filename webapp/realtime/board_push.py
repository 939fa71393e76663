"""Boards pushed over each page's socket: when a game changes, this process renders each page it
holds open its own board and sends it down that page's socket, instead of ringing a doorbell that
makes every page GET its board.

Every HTTP round trip that a doorbell caused (routing, the rate limiter, the session, three
database reads, the render) becomes one render here, and the game is read once for all the pages
of a revision, not once per page. Hidden information keeps its one path out: each board is the
very response ``GET /g/<id>/board`` gives that page (``pages.board.board_response``) — rendered
for the seat its socket proved with the page's presence ticket (signed, and only ever put in
that seat's own page: the seat cookie is scoped to the game's pages and never reaches the
socket), with the session its socket connected with — and is sent to that socket alone.
Spectators at one revision share one render (``pages/spectator_fragments.py``).

Each process pushes to its own sockets. The doorbell ("game G is at revision R") still crosses
the Redis message queue to every process (``sockets``), and each process hears it here.

A page opts in by saying ``boards: true`` when it watches (``static/js/delve.js``); it keeps the
doorbell-and-GET way for anything it misses: it re-announces its revision every 30 s and on
reconnect, and the server then pushes again or rings.
"""

from __future__ import annotations

import dataclasses
import logging
import re
import threading
import time
from collections import deque
from collections.abc import Callable
from typing import Any
from urllib.parse import urlencode

from flask import Flask, g
from flask.ctx import RequestContext
from werkzeug.test import EnvironBuilder

from ..domain import play
from ..pages import board
from ..pages.tickets import SeatProof, still_held

log = logging.getLogger("delve.pushes")

LOG_MARK = re.compile(r'id="log-seen" name="log_seen" value="(\d+)"')


@dataclasses.dataclass
class Watcher:
    """One page that takes pushed boards: the game it shows, what it shows of it, and the request
    facts its board is rendered with: the seat its socket proved (its presence ticket, which only
    that seat's own page carries; None: a spectator) and the cookies its socket connected with
    (its session: the form token its board's forms carry)."""

    game_id: str
    seat: str | None
    cookie: str
    base_url: str
    page: str  # "" (the game page) or "waiting" (the waiting room)
    shown: int  # the revision its board shows
    log_seen: int | None  # how much of the log it has shown (its announcer reads out the rest)
    remote_addr: str = "127.0.0.1"
    environ: dict | None = None  # the WSGI environ of its board's request, built once
    # The session its cookie carries (its form token), opened once: the cookie is the one its
    # socket connected with, so every render would decode and check the same signature again.
    session: Any = None
    # The seat holder's mark its ticket carried (connections.SeatProof): once the seat is left or
    # held by someone else, the page is pushed a spectator's board.
    seat_mark: str | None = None
    # What its board was last drawn from (``board.board_inputs``): a board drawn from the same
    # inputs is the same board, so the page is told the new revision and version instead.
    inputs: Any = None
    # The route its board's request matched (rule, view arguments): the same on every push.
    route: tuple | None = None


class PushedBoardRequest(RequestContext):
    """The request context a pushed board is rendered in: ``GET /g/<id>/board`` from its page,
    whose route is matched on the first push and remembered (``Watcher.route``): matching it
    again on every push cost a twentieth of a push."""

    def __init__(self, app: Flask, watcher: Watcher, environ: dict) -> None:
        super().__init__(app, environ, session=watcher.session)
        self.watcher = watcher

    def match_request(self) -> None:
        route = self.watcher.route
        if route is None:
            super().match_request()
            if self.request.routing_exception is None:
                self.watcher.route = (self.request.url_rule, dict(self.request.view_args or {}))
            return
        rule, view_args = route
        self.request.url_rule, self.request.view_args = rule, dict(view_args)


def request_environ(watcher: Watcher) -> dict:
    """The environ of ``GET /g/<id>/board`` from this page (its query string aside)."""
    builder = EnvironBuilder(
        path=f"/g/{watcher.game_id}/board",
        base_url=watcher.base_url,
        headers=[("HX-Request", "true"), ("Cookie", watcher.cookie)],
        environ_base={"REMOTE_ADDR": watcher.remote_addr},
    )
    try:
        return builder.get_environ()
    finally:
        builder.close()


@dataclasses.dataclass(frozen=True)
class Prefetched:
    """What every page's board of one revision reads from the store, read once for all of them,
    and the seat of the page being rendered."""

    game: Any  # play.LoadedGame
    seats: list
    seat: str | None = None


class BoardPushes:
    """This process's pages that take pushed boards, and the pushes in flight (one per game at a
    time; doorbells that ring meanwhile fold into one more round once it ends)."""

    def __init__(
        self,
        app: Flask | None = None,
        emit: Callable[[str, dict, str], Any] | None = None,
        spawn: Callable[..., Any] | None = None,
    ) -> None:
        self._lock = threading.Lock()
        self._by_sid: dict[str, Watcher] = {}
        self._by_game: dict[str, set[str]] = {}
        self._wanted: dict[str, tuple[int, str | None]] = {}  # game -> (revision, the acting page's socket)
        self._running: set[str] = set()
        # What the pushes came to: boards rendered, pages told their board is unchanged (a few
        # bytes, no render), doorbells folded into a round already due, and pages that moved past a
        # revision before its board was drawn for them (they get the newer one instead).
        self.counts = {"rendered": 0, "unchanged": 0, "coalesced": 0, "skipped": 0}
        # From a doorbell to each of its pushes leaving this process (the newest ones): what the
        # server adds to a push's way, without the network or the page.
        self._rung: dict[str, float] = {}
        self._delays: deque[float] = deque(maxlen=4096)
        self.app = app
        self.emit = emit  # (event, data, sid)
        # (function, *args): a background task (a thread or a greenlet); None renders at once.
        self.spawn = spawn

    def watch(self, sid: str, watcher: Watcher) -> None:
        with self._lock:
            old = self._by_sid.get(sid)
            if old is not None and old.game_id != watcher.game_id:
                self._leave(sid, old.game_id)
            elif old is not None and (old.seat, old.page, old.shown, old.log_seen) == (
                watcher.seat,
                watcher.page,
                watcher.shown,
                watcher.log_seen,
            ):
                watcher.inputs = old.inputs  # the page re-announced the board it shows
            self._by_sid[sid] = watcher
            self._by_game.setdefault(watcher.game_id, set()).add(sid)
        if watcher.inputs is None and watcher.shown >= 0:
            inputs = self._inputs_now(watcher)
            with self._lock:
                if self._by_sid.get(sid) is watcher and watcher.inputs is None:
                    watcher.inputs = inputs

    def _inputs_now(self, watcher: Watcher) -> Any:
        """What the board a page shows was drawn from, when that board is the game's current one
        (it watched with the revision it shows): its first push can then be a light one."""
        app = self.app
        if app is None:
            return None
        with app.app_context():
            record, seats, _hashes = app.extensions["delve_store"].game_and_seats(watcher.game_id)
            if record is None or record.revision != watcher.shown:
                return None
            game = play.loaded(record)
            return board.board_inputs(Prefetched(game, seats if game.rules.table else [], watcher.seat), watcher.page)

    def forget(self, sid: str, game_id: str | None = None) -> None:
        with self._lock:
            old = self._by_sid.get(sid)
            if old is None or (game_id is not None and old.game_id != game_id):
                return
            del self._by_sid[sid]
            self._leave(sid, old.game_id)

    def _leave(self, sid: str, game_id: str) -> None:
        """(Under the lock.) The socket no longer shows the game."""
        sids = self._by_game.get(game_id)
        if sids is not None:
            sids.discard(sid)
            if not sids:
                del self._by_game[game_id]

    def oldest_waiting(self) -> float:
        """Seconds the oldest doorbell not yet pushed has waited (0: none waits). A push round is
        a greenlet's callback, which gevent runs after the sockets' reads once it has spent its
        switch interval: past capacity the rounds wait here long before the loop's own timers
        look late, so the load gauge reads both."""
        with self._lock:
            oldest = min(self._rung.values(), default=None)
        return 0.0 if oldest is None else time.monotonic() - oldest

    def _count(self, what: str) -> None:
        with self._lock:
            self.counts[what] += 1

    def report(self) -> dict:
        with self._lock:
            delays = sorted(self._delays)
            report: dict[str, int | float | None] = {
                **self.counts,
                "pages": len(self._by_sid),
                "games_behind": len(self._wanted),
            }
        for p in (50, 95):
            report[f"delay_p{p}_ms"] = (
                round(delays[min(len(delays) - 1, len(delays) * p // 100)] * 1000, 1) if delays else None
            )
        return report

    def __len__(self) -> int:
        with self._lock:
            return len(self._by_sid)

    def changed(self, game_id: str, revision: int, acted_by: str | None = None) -> None:
        """The doorbell rang for ``game_id`` (at ``revision``): push its pages here their boards.
        ``acted_by``: the socket of the page whose own action this was (its POST's answer is its
        new board already)."""
        with self._lock:
            if game_id not in self._by_game:
                return
            previous = self._wanted.get(game_id)
            if previous is None or previous[0] < revision:
                self._wanted[game_id] = (revision, acted_by)
            self._rung.setdefault(game_id, time.monotonic())
            if previous is not None:
                self.counts["coalesced"] += 1
            if game_id in self._running:
                return
            self._running.add(game_id)
        if self.spawn is None:
            self._drain(game_id)
        else:
            self.spawn(self._drain, game_id)

    def _drain(self, game_id: str) -> None:
        while True:
            with self._lock:
                wanted = self._wanted.pop(game_id, None)
                rung = self._rung.pop(game_id, time.monotonic())
                if wanted is None:
                    self._running.discard(game_id)
                    return
            try:
                self._push(game_id, *wanted, rung=rung)
            except Exception:  # a page recovers by itself (its next watch); never kill the loop
                log.exception("pushing the boards of game %s failed", game_id)

    def _push(self, game_id: str, revision: int, acted_by: str | None, rung: float | None = None) -> None:
        app = self.app
        if app is None:
            return
        with self._lock:
            sids = sorted(self._by_game.get(game_id, ()))
            watchers = [(sid, dataclasses.replace(self._by_sid[sid])) for sid in sids]
        watchers = [(sid, w) for sid, w in watchers if w.shown < revision]
        if not watchers:
            return
        with app.app_context():
            store = app.extensions["delve_store"]
            # The game as the action that rang left it, when it was stored by this process (no
            # read), with the seats its request read (``LoadedGame.roster``); else the game and
            # its seats through one connection.
            game = play.recent_games.get(game_id, revision)
            if game is not None:
                seats, seat_hashes = game.roster or store.seats_and_hashes(game_id)
            else:
                record, seats, seat_hashes = store.game_and_seats(game_id)
                if record is None:
                    return
                game = play.loaded(record)
            # A solo game's board has no roster.
            prefetched = Prefetched(game, seats if game.rules.table else [])
            if any(watcher.seat is not None for _sid, watcher in watchers):
                watchers = self._still_seated(seat_hashes, watchers)
            for sid, watcher in watchers:
                acted = sid == acted_by
                # The page that acted shows the revision its own action made (its POST's answer),
                # however far the game has moved since: a later change rings again and pushes it
                # that one. Pushing it the newer board from here would race its next request.
                shown = revision if acted else game.record.revision
                if watcher.shown >= shown:
                    self._count("skipped")
                    continue
                pushed = self._render(app, prefetched, watcher, acted=acted, own_revision=revision)
                if pushed is None:
                    continue
                event, data, log_mark = pushed
                with self._lock:
                    current = self._by_sid.get(sid)
                    if current is None or current.game_id != game_id or current.shown >= shown:
                        continue
                    current.shown = shown
                    current.inputs = watcher.inputs
                    current.environ = current.environ or watcher.environ
                    current.session = current.session or watcher.session
                    current.route = current.route or watcher.route
                    if log_mark is not None:
                        current.log_seen = log_mark
                if event is not None and self.emit is not None:
                    self.emit(event, data, sid)
                    if rung is not None:
                        self._delays.append(time.monotonic() - rung)

    @staticmethod
    def _still_seated(seat_hashes: dict[str, str], watchers: list[tuple[str, Watcher]]) -> list[tuple[str, Watcher]]:
        """The watchers, those whose seat has left its holder (left the table, or held by someone
        else) made spectators: a socket proved its seat once, when it watched."""
        return [
            (sid, watcher)
            if watcher.seat is None or still_held(seat_hashes, SeatProof(watcher.seat, watcher.seat_mark or ""))
            else (sid, dataclasses.replace(watcher, seat=None, seat_mark=None))
            for sid, watcher in watchers
        ]

    def _render(self, app: Flask, prefetched: Prefetched, watcher: Watcher, *, acted: bool, own_revision: int):
        """(event, data, log mark) for one page, or None when it gets nothing this time.

        A page whose board would be drawn from the very inputs it was last drawn from (another
        seat's move out of its sight, say) is sent the new revision and version alone: its page
        keeps the board and moves its forms to the new version. Its ``watcher.inputs`` is set to
        what the board it shows now is drawn from."""
        game = prefetched.game
        inputs = board.board_inputs(dataclasses.replace(prefetched, seat=watcher.seat), watcher.page)
        same = inputs is not None and inputs == watcher.inputs
        watcher.inputs = inputs
        if acted:
            # The page that acted has its board already (its POST's answer): follow its log,
            # when the state here is the one that answer showed.
            if game.state is None or game.record.revision != own_revision:
                watcher.inputs = None
                return None, None, None
            view = board.seat_parts(game, watcher.seat)[0]
            return None, None, board.log_mark(view["log"])
        if same:
            self._count("unchanged")
            return "board", {"revision": game.record.revision, "version": game.version, "same": True}, None
        query = {"page": watcher.page} if watcher.page else {}
        if watcher.log_seen is not None:
            query["log_seen"] = str(watcher.log_seen)
        if watcher.environ is None:
            watcher.environ = request_environ(watcher)
        environ = dict(watcher.environ, QUERY_STRING=urlencode(query))
        context = PushedBoardRequest(app, watcher, environ)
        with context:
            watcher.session = context.session
            g.prefetched = dataclasses.replace(prefetched, seat=watcher.seat)
            response = board.board_response(game.id)
            if response.headers.get("HX-Refresh"):
                return "board", {"revision": game.record.revision, "refresh": True}, None
            if response.status_code != 200:
                return None
            self._count("rendered")
            html = response.get_data(as_text=True)
            found = LOG_MARK.search(html)  # the game root's log mark, which the page's next GET would send
            mark = int(found.group(1)) if found else None
            return "board", {"revision": game.record.revision, "html": html}, mark
