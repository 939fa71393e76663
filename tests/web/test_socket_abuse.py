"""Sockets that misbehave, with Flask-SocketIO's test client: one socket proving seats in several
games (each is released when it closes), and one flooding the server with messages (told why and
disconnected after a burst, its messages never reaching the database).

Where a test counts messages exactly, the rate limit's clock is frozen (``event_budgets.clock``),
so "within one second" never depends on how fast a shared machine sends them; the one flood on
the real clock asserts only a bound that a slow machine cannot miss."""

from __future__ import annotations

import re
import time

import pytest

from tests.helpers.decks import SHORT_DEAL
from webapp import socketio
from webapp.realtime import connections, presence
from webapp.realtime import sockets as realtime
from webapp.realtime.connections import Connections

PRESENCE_RE = re.compile(r'data-presence="([^"]+)"')
FLOODED_REASON = "Too many messages from this page; reload it to reconnect."  # what the page shows
FLOOD = 200


def received(sio, name):
    """The messages of that name the socket got, read even after the server closed it (which
    ``get_received`` refuses to do); each is read once."""
    got = [event for event in sio.queue if event["name"] == name]
    sio.queue[:] = [event for event in sio.queue if event["name"] != name]
    return [event["args"][0] for event in got]


def open_table(app, seat_client, host, *, start=True):
    """A running Dungeon of Doom table without a turn limit (host p1, a friend p2): the kind of
    game that waits on a seat for as long as it shows connected."""
    host.get("/")
    response = host.http.post(
        "/games",
        data={
            "game": "dungeon-of-doom",
            "csrf_token": host.csrf,
            "name": "Ann",
            "map_choice": "duelling-hall",
            "max_players": "4",
            "turn_seconds": "0",
        },
    )
    assert response.status_code == 303, response.get_data(as_text=True)
    game_id = response.headers["Location"].rsplit("/", 1)[-1]
    friend = seat_client()
    friend.watch(game_id)
    assert friend.http.post(f"/g/{game_id}/join", data={"csrf_token": friend.csrf, "name": "Bob"}).status_code == 303
    if start:
        host.watch(game_id)
        assert host.http.post(f"/g/{game_id}/start", data={"csrf_token": host.csrf}).status_code == 303
    return game_id


def ticket(client, game_id):
    return PRESENCE_RE.search(client.get(f"/g/{game_id}").get_data(as_text=True)).group(1)


def connected(store, game_id, seat="p1"):
    return next(s.connected for s in store.seats(game_id) if s.seat == seat)


def watch(sio, game_id, presence_ticket=None):
    ack = sio.emit("watch", {"game": game_id, "revision": -1, "presence": presence_ticket}, callback=True)
    assert ack["ok"], ack
    return ack


@pytest.fixture
def two_tables(app, seat_client):
    """One browser hosting two tables: its page's socket can prove p1 in both."""
    host = seat_client()
    games = [open_table(app, seat_client, host) for _ in range(2)]
    return host, games


# ---- Finding 6: one socket keeps a seat online forever ----------------------------------------


class TestOneSocketManySeats:
    def test_closing_a_socket_releases_every_seat_it_proved(self, app, store, two_tables):
        host, (game_a, game_b) = two_tables
        sio = socketio.test_client(app, flask_test_client=host.http)
        watch(sio, game_a, ticket(host, game_a))
        watch(sio, game_b, ticket(host, game_b))
        assert connected(store, game_a) and connected(store, game_b)

        sio.disconnect()
        assert (connected(store, game_a), connected(store, game_b)) == (False, False)
        # So the clock can drop them once the grace period is over: the game does not wait forever.
        absent = store.absent_seats(time.time() + presence.GRACE_SECONDS)
        assert {(game_a, "p1"), (game_b, "p1")} <= set(absent)

    def test_the_heartbeat_covers_every_seat_a_socket_proved_while_it_is_open(self, app, two_tables):
        host, (game_a, game_b) = two_tables
        sio = socketio.test_client(app, flask_test_client=host.http)
        watch(sio, game_a, ticket(host, game_a))
        watch(sio, game_b, ticket(host, game_b))
        assert {(game_a, "p1"), (game_b, "p1")} <= set(connections.connections.pairs())
        sio.disconnect()
        assert not {(game_a, "p1"), (game_b, "p1")} & set(connections.connections.pairs())

    def test_unwatch_releases_that_games_seat_only(self, app, store, two_tables):
        host, (game_a, game_b) = two_tables
        sio = socketio.test_client(app, flask_test_client=host.http)
        watch(sio, game_a, ticket(host, game_a))
        watch(sio, game_b, ticket(host, game_b))
        sio.emit("unwatch", {"game": game_a})
        assert (connected(store, game_a), connected(store, game_b)) == (False, True)
        sio.disconnect()
        assert connected(store, game_b) is False

    def test_a_seat_stays_connected_while_another_of_its_sockets_is_open(self, app, store, two_tables):
        host, (game_a, _game_b) = two_tables
        first = socketio.test_client(app, flask_test_client=host.http)
        second = socketio.test_client(app, flask_test_client=host.http)
        watch(first, game_a, ticket(host, game_a))
        watch(second, game_a, ticket(host, game_a))
        watch(first, game_a, ticket(host, game_a))  # the page's re-announcement counts no second time
        first.disconnect()
        assert connected(store, game_a) is True
        second.disconnect()
        assert connected(store, game_a) is False

    def test_a_socket_closing_while_its_watch_is_written_does_not_stay_connected(
        self, app, store, two_tables, monkeypatch
    ):
        # Event handlers run on their own threads: the page may close while its watch is writing
        # "connected", and the close's release may land first. Played here in that order.
        host, (game_a, _game_b) = two_tables
        sio = socketio.test_client(app, flask_test_client=host.http)
        write = store.set_connected

        def close_first(game_id, seat, is_connected):
            if is_connected and sio.is_connected():
                sio.disconnect()  # its release writes "disconnected" before this write lands
            return write(game_id, seat, is_connected)

        monkeypatch.setattr(store, "set_connected", close_first)
        sio.emit("watch", {"game": game_a, "revision": -1, "presence": ticket(host, game_a)}, callback=True)
        assert connected(store, game_a) is False
        assert (game_a, "p1") not in connections.connections.pairs()


class TestConnections:
    def test_pairs_are_counted_per_socket(self):
        connections = Connections()
        for sid in ("s1", "s2"):
            connections.open(sid)
        assert connections.add("s1", "A", "p1") is True
        assert connections.add("s1", "B", "p1") is True
        assert connections.add("s2", "A", "p1") is False  # the seat's second socket
        assert connections.add("s1", "A", "p1") is False  # re-announced
        assert connections.pairs() == [("A", "p1"), ("B", "p1")]
        assert connections.remove("s1") == [("B", "p1")]  # A is still held by s2
        assert connections.release_game("s2", "A") == [("A", "p1")]
        assert connections.pairs() == []
        assert connections.remove("s2") == []

    def test_a_closed_socket_registers_nothing(self):
        connections = Connections()
        connections.open("s1")
        connections.remove("s1")
        assert connections.add("s1", "A", "p1") is False  # a watch still in flight when it closed
        assert connections.add("never-opened", "A", "p1") is False
        assert connections.pairs() == []


# ---- Finding 11: Socket.IO events are not rate limited -----------------------------------------


class FrozenClock:
    def __init__(self):
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


@pytest.fixture
def clock(monkeypatch):
    frozen = FrozenClock()
    monkeypatch.setattr(realtime.event_budgets, "clock", frozen)
    return frozen


@pytest.fixture
def reads(store, monkeypatch):
    """Counts the database reads of "watch" (each reads the game's revision)."""
    counted = []
    revision = store.revision

    def counting(game_id):
        counted.append(game_id)
        return revision(game_id)

    monkeypatch.setattr(store, "revision", counting)
    return counted


@pytest.fixture
def game_id(seat_client):
    player = seat_client()
    return player.start(size="4", deck=SHORT_DEAL)


def flood(sio, event, data, times=FLOOD):
    """Send ``times`` messages as fast as the client can, until the server cuts it off; how many went."""
    for sent in range(times):
        if not sio.is_connected():
            return sent
        sio.emit(event, data)
    return times


def test_the_limits_leave_a_real_page_far_from_them():
    # A page: a watch per (re)connect and every 30 s, and one at most every second on tab switches.
    assert realtime.EVENT_BURST >= 10 and realtime.EVENTS_PER_SECOND > 1 + 1 / 30
    assert realtime.FLOODED_REASON == FLOODED_REASON


def test_a_flooding_socket_is_told_why_and_disconnected_without_the_reads(app, reads, game_id):
    # The real clock: whatever refills while 200 messages go out in a tight loop, the bound
    # leaves a slow machine 40 s to send them.
    sio = socketio.test_client(app)
    flood(sio, "watch", {"game": game_id, "revision": 0}, times=FLOOD)
    assert received(sio, "flooded") == [{"reason": FLOODED_REASON}]
    assert not sio.is_connected()
    assert len(reads) < FLOOD // 2, len(reads)


def test_exactly_the_burst_is_read_then_the_budget_refills_at_its_rate(app, clock, reads, game_id):
    budgets_before = len(realtime.event_budgets)
    sio = socketio.test_client(app)
    for _ in range(realtime.EVENT_BURST):
        watch(sio, game_id)
    assert len(reads) == realtime.EVENT_BURST
    clock.advance(1.0)
    for _ in range(int(realtime.EVENTS_PER_SECOND)):
        watch(sio, game_id)
    assert received(sio, "flooded") == [] and sio.is_connected()
    sio.emit("watch", {"game": game_id, "revision": 0})
    assert received(sio, "flooded") == [{"reason": FLOODED_REASON}]
    assert not sio.is_connected()
    assert len(reads) == realtime.EVENT_BURST + int(realtime.EVENTS_PER_SECOND)  # not the refused one
    assert len(realtime.event_budgets) == budgets_before  # nothing kept for a closed socket


def test_a_page_that_re_announces_every_second_for_ten_minutes_is_never_cut_off(app, clock, game_id):
    sio = socketio.test_client(app)
    for _ in range(600):
        watch(sio, game_id)
        clock.advance(1.0)
    assert received(sio, "flooded") == [] and sio.is_connected()
    sio.disconnect()


@pytest.mark.parametrize("event, data", [("unwatch", {"game": "x"}), ("made-up", {"a": 1}), ("message", "hi")])
def test_every_message_spends_the_budget(app, clock, event, data):
    sio = socketio.test_client(app)
    assert flood(sio, event, data) == realtime.EVENT_BURST + 1  # the burst, then the one cut off
    assert received(sio, "flooded") == [{"reason": FLOODED_REASON}]


def test_every_registered_handler_but_connect_and_disconnect_is_limited(app):
    handlers = socketio.server.handlers["/"]
    assert {"watch", "unwatch", "*"} <= set(handlers)  # "*": messages no handler knows
    for event, handler in handlers.items():
        if event not in ("connect", "disconnect"):
            assert getattr(handler, "rate_limited", False), f"{event!r} is not rate limited"


def test_a_flooder_does_not_hold_up_another_page(app, seat_client, clock):
    player = seat_client()
    player.start(size="4", deck=SHORT_DEAL)
    calm = socketio.test_client(app)
    watch(calm, player.game_id)
    flooder = socketio.test_client(app)
    flood(flooder, "watch", {"game": player.game_id, "revision": 0})
    assert not flooder.is_connected()
    received(calm, "changed")
    player.act({"type": "choose_stat_set", "set": "top"})
    assert received(calm, "changed") == [{"revision": 1}]
    assert watch(calm, player.game_id) == {"ok": True, "revision": 1}
    assert calm.is_connected()


def test_one_address_holds_at_most_its_cap_of_sockets_and_a_closed_one_frees_a_place(app):
    app.config["SOCKETS_PER_ADDRESS"] = 2
    first, second = socketio.test_client(app), socketio.test_client(app)
    assert first.is_connected() and second.is_connected()
    third = socketio.test_client(app)
    assert not third.is_connected()  # refused: the page says why (static/js/delve.js)
    first.disconnect()
    fourth = socketio.test_client(app)
    assert fourth.is_connected()
    app.config["SOCKETS_PER_ADDRESS"] = 0  # no cap
    assert all(socketio.test_client(app).is_connected() for _ in range(5))
