"""Security issue 22, second pass over the sockets: a presence ticket kept after its seat was left
proves nothing (seat ids are never given twice in a game, and a ticket is bound to the seat's
holder); Engine.IO handshakes that never connect a namespace are counted per client address; a
socket that watches a new game leaves the rooms of the one it watched before."""

from __future__ import annotations

import re

from sqlalchemy import update

from tests.page import Page
from tests.web.test_dungeon_of_doom_web import Table
from tests.web.test_socket_abuse import open_table
from webapp import socketio
from webapp.pages.tickets import seat_from_ticket, ticket_for
from webapp.storage.schema import seats

PRESENCE_RE = re.compile(r'data-presence="([^"]+)"')


def events(sio, name):
    return [event["args"][0] for event in sio.get_received() if event["name"] == name]


def join(client, game_id, name):
    client.watch(game_id)
    response = client.http.post(f"/g/{game_id}/join", data={"csrf_token": client.csrf, "name": name})
    assert response.status_code == 303, response.get_data(as_text=True)
    client.watch(game_id)


def leave(client, game_id):
    response = client.http.post(f"/g/{game_id}/leave-table", data={"csrf_token": client.csrf})
    assert response.status_code == 303, response.get_data(as_text=True)


def seat_of(store, game_id, name):
    return next(s.seat for s in store.seats(game_id) if s.name == name)


def presence_ticket(client, game_id):
    return PRESENCE_RE.search(client.get(f"/g/{game_id}").get_data(as_text=True)).group(1)


def spectator_board(http, game_id, log_seen):
    response = http.get(f"/g/{game_id}/board", query_string={"log_seen": log_seen}, headers={"HX-Request": "true"})
    assert response.status_code == 200
    return response.get_data(as_text=True)


def watch_for_boards(sio, http, game_id, presence):
    """Watch as a page that takes pushed boards, with ``presence`` as its ticket, as the page's
    script does (static/js/delve.js); its log mark (None in the waiting room)."""
    page = Page(http.get(f"/g/{game_id}").get_data(as_text=True))
    message = {"game": game_id, "revision": -1, "boards": True, "presence": presence}
    marks = page.select("#log-seen")
    if marks:
        message["log_seen"] = int(marks[0]["value"])
    if '"page": "waiting"' in page.one("#game").get("hx-vals", ""):
        message["page"] = "waiting"
    assert sio.emit("watch", message, callback=True)["ok"]
    return message.get("log_seen")


# ---- Finding 1: a kept presence ticket proves the next joiner's seat ------------------------------


class TestSeatIdsAreNeverGivenTwice:
    def test_a_seat_left_in_the_waiting_room_goes_to_nobody_else(self, app, seat_client, store):
        table = Table(app, seat_client, players=1, start=False)
        mallory, alice = seat_client(), seat_client()
        join(mallory, table.game_id, "Mallory")
        assert seat_of(store, table.game_id, "Mallory") == "p2"
        leave(mallory, table.game_id)
        join(alice, table.game_id, "Alice")
        assert seat_of(store, table.game_id, "Alice") == "p3"

    def test_the_hosts_seat_of_a_room_left_empty_goes_to_nobody_else(self, app, seat_client, store):
        table = Table(app, seat_client, players=1, start=False)
        leave(table.host, table.game_id)
        alice = seat_client()
        join(alice, table.game_id, "Alice")
        assert seat_of(store, table.game_id, "Alice") == "p2"

    def test_seats_taken_after_a_leave_still_start_the_game(self, app, seat_client, store):
        table = Table(app, seat_client, players=2, start=False)
        leave(table.clients["p2"], table.game_id)
        alice = seat_client()
        join(alice, table.game_id, "Alice")
        table.clients = {"p1": table.host, "p3": alice}
        table.start()
        assert [p["seat"] for p in table.state()["players"]] == ["p1", "p3"]


class TestATicketDiesWithItsSeat:
    def test_a_ticket_kept_after_leaving_proves_nothing_once_the_game_runs(self, app, seat_client, store):
        """The finding as reported: Mallory keeps her page's ticket, leaves; Alice joins; after the
        start Mallory's socket must be pushed a spectator's board, and Alice must not show online."""
        table = Table(app, seat_client, players=1, start=False)
        mallory, alice = seat_client(), seat_client()
        join(mallory, table.game_id, "Mallory")
        kept = presence_ticket(mallory, table.game_id)
        leave(mallory, table.game_id)
        join(alice, table.game_id, "Alice")
        table.clients["alice"] = alice
        table.start()

        sio = socketio.test_client(app, flask_test_client=mallory.http)
        mark = watch_for_boards(sio, mallory.http, table.game_id, kept)
        pushed = events(sio, "board")
        assert [p["html"] for p in pushed] == [spectator_board(mallory.http, table.game_id, mark)]
        alice_seat = seat_of(store, table.game_id, "Alice")
        assert next(s.connected for s in store.seats(table.game_id) if s.seat == alice_seat) is False

    def test_a_socket_that_proved_a_seat_before_leaving_it_is_pushed_a_spectators_board(self, app, seat_client, store):
        """Her socket proved p2 while she held it, and asked for game boards (not the waiting
        room's, which the start turns into a reload): the start must push it a spectator's."""
        table = Table(app, seat_client, players=1, start=False)
        mallory, alice = seat_client(), seat_client()
        join(mallory, table.game_id, "Mallory")
        sio = socketio.test_client(app, flask_test_client=mallory.http)
        message = {"game": table.game_id, "revision": -1, "boards": True}
        assert sio.emit("watch", {**message, "presence": presence_ticket(mallory, table.game_id)}, callback=True)["ok"]
        leave(mallory, table.game_id)
        join(alice, table.game_id, "Alice")
        sio.get_received()
        table.clients["alice"] = alice
        table.start()

        pushed = events(sio, "board")
        assert pushed, "the start pushed the open page nothing"
        mark = int(Page(pushed[-1]["html"]).one("#log-seen")["value"])
        assert pushed[-1]["html"] == spectator_board(mallory.http, table.game_id, mark)

    def test_a_ticket_proves_its_seat_only_while_the_seat_has_the_holder_it_was_issued_to(
        self, app, seat_client, store
    ):
        table = Table(app, seat_client, players=2, start=True)
        issued = presence_ticket(table.clients["p2"], table.game_id)
        assert seat_from_ticket(app, table.game_id, issued) == "p2"
        with store.engine.begin() as conn:  # the seat given to someone else (another token)
            conn.execute(
                update(seats).where(seats.c.game_id == table.game_id, seats.c.seat == "p2").values(token_hash="0" * 64)
            )
        assert seat_from_ticket(app, table.game_id, issued) is None
        sio = socketio.test_client(app, flask_test_client=table.clients["p2"].http)
        assert sio.emit("watch", {"game": table.game_id, "revision": -1, "presence": issued}, callback=True)["ok"]
        assert next(s.connected for s in store.seats(table.game_id) if s.seat == "p2") is False

    def test_a_fresh_ticket_still_proves_its_seat(self, app, seat_client, store):
        table = Table(app, seat_client, players=2, start=True)
        assert seat_from_ticket(app, table.game_id, ticket_for(app, table.game_id, "p2")) == "p2"
        assert seat_from_ticket(app, table.game_id, ticket_for(app, table.game_id, "p9")) is None


# ---- Finding 14: Engine.IO handshakes that never connect a namespace ----------------------------


def handshake(http, address):
    return http.get(
        "/socket.io/", query_string={"EIO": "4", "transport": "polling"}, environ_base={"REMOTE_ADDR": address}
    )


class TestHandshakesAreCountedPerAddress:
    def test_bare_handshakes_over_the_cap_are_refused_and_not_kept(self, app):
        app.config["SOCKETS_PER_ADDRESS"] = 2
        http = app.test_client()
        held = [handshake(http, "10.0.0.1") for _ in range(4)]  # twice the cap: see the README
        assert [r.status_code for r in held] == [200] * 4
        sessions = len(socketio.server.eio.sockets)
        over = handshake(http, "10.0.0.1")
        assert over.status_code == 401
        assert len(socketio.server.eio.sockets) == sessions  # nothing kept for it
        assert handshake(http, "10.0.0.2").status_code == 200  # another address carries on

    def test_a_closed_handshake_frees_its_place(self, app):
        app.config["SOCKETS_PER_ADDRESS"] = 1
        http = app.test_client()
        opened = [handshake(http, "10.0.0.3") for _ in range(2)]
        assert handshake(http, "10.0.0.3").status_code == 401
        sid = re.search(r'"sid":"([^"]+)"', opened[0].get_data(as_text=True)).group(1)
        closed = http.post(
            "/socket.io/",
            query_string={"EIO": "4", "transport": "polling", "sid": sid},
            data=b"1",  # Engine.IO close
            environ_base={"REMOTE_ADDR": "10.0.0.3"},
        )
        assert closed.status_code == 200
        assert handshake(http, "10.0.0.3").status_code == 200

    def test_behind_a_trusted_proxy_handshakes_are_counted_per_forwarded_address(self, db_url):
        from webapp import create_app

        proxied = create_app({"TESTING": True, "DATABASE_URL": db_url, "TRUSTED_PROXIES": 1, "SOCKETS_PER_ADDRESS": 1})
        try:
            http = proxied.test_client()

            def through_proxy(client_address):
                return http.get(
                    "/socket.io/",
                    query_string={"EIO": "4", "transport": "polling"},
                    environ_base={"REMOTE_ADDR": "10.0.0.9"},  # the proxy
                    headers={"X-Forwarded-For": client_address},
                )

            assert [through_proxy("203.0.113.5").status_code for _ in range(3)] == [200, 200, 401]
            assert through_proxy("203.0.113.6").status_code == 200  # another client of the same proxy
        finally:
            proxied.extensions["delve_store"].engine.dispose()

    def test_no_cap_holds_no_handshake_back(self, app):
        app.config["SOCKETS_PER_ADDRESS"] = 0
        http = app.test_client()
        assert all(handshake(http, "10.0.0.4").status_code == 200 for _ in range(10))


# ---- Finding 17a: a socket stays in every table room it ever watched -----------------------------


class TestOneTablesRoomPerSocket:
    def test_a_socket_that_moved_on_to_another_game_no_longer_hears_the_first(self, app, seat_client):
        host = seat_client()
        game_a, game_b = (open_table(app, seat_client, host) for _ in range(2))
        sio = socketio.test_client(app)
        for game_id in (game_a, game_b):
            assert sio.emit("watch", {"game": game_id, "revision": -1}, callback=True)["ok"]
        sio.get_received()

        said = host.http.post(f"/g/{game_a}/chat", data={"csrf_token": host.csrf, "text": "only for A"})
        assert said.status_code == 303
        host_page = socketio.test_client(app, flask_test_client=host.http)  # A changes: p1 shows online
        assert host_page.emit(
            "watch", {"game": game_a, "revision": -1, "presence": presence_ticket(host, game_a)}, callback=True
        )["ok"]
        assert sio.get_received() == []

        said = host.http.post(f"/g/{game_b}/chat", data={"csrf_token": host.csrf, "text": "for B"})
        assert said.status_code == 303
        assert [m["text"] for m in events(sio, "chat")] == ["for B"]

    def test_a_socket_taking_pushed_boards_moves_on_too(self, app, seat_client):
        host = seat_client()
        game_a, game_b = (open_table(app, seat_client, host) for _ in range(2))
        sio = socketio.test_client(app)
        for game_id in (game_a, game_b):
            assert sio.emit("watch", {"game": game_id, "revision": -1, "boards": True}, callback=True)["ok"]
        sio.get_received()
        said = host.http.post(f"/g/{game_a}/chat", data={"csrf_token": host.csrf, "text": "only for A"})
        assert said.status_code == 303
        host_page = socketio.test_client(app, flask_test_client=host.http)
        assert host_page.emit(
            "watch", {"game": game_a, "revision": -1, "presence": presence_ticket(host, game_a)}, callback=True
        )["ok"]
        assert sio.get_received() == []
