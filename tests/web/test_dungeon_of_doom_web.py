"""The Dungeon of Doom through the web layer: a table of three seats with Flask-SocketIO test
clients — waiting room, turn order, pushes, presence and grace, timeouts, spectators, chat,
and hidden information over random games."""

from __future__ import annotations

import json
import random
import re
import time

import pytest

import rules_engine
from webapp import presence, socketio

rules = rules_engine.get("dungeon-of-doom")
HALL = "duelling-hall"


def received(sio, name="changed"):
    return [e["args"][0] for e in sio.get_received() if e["name"] == name]


class Table:
    """A host and friends at one Dungeon of Doom table, each a browser with a socket."""

    def __init__(self, app, seat_client, *, players=3, map_choice=HALL, max_players=4, turn_seconds=60, start=True):
        self.app = app
        self.store = app.extensions["delve_store"]
        self.host = seat_client()
        self.host.get("/")
        response = self.host.http.post(
            "/games",
            data={"game": "dungeon-of-doom", "csrf_token": self.host.csrf, "name": "Ann",
                  "map_choice": map_choice, "max_players": str(max_players), "turn_seconds": str(turn_seconds)},
        )
        assert response.status_code == 303, response.get_data(as_text=True)
        self.game_id = response.headers["Location"].rsplit("/", 1)[-1]
        self.host.watch(self.game_id)
        self.clients = {"p1": self.host}
        for index, name in enumerate(["Bob", "Cy", "Di", "Ed"][: players - 1], start=2):
            friend = seat_client()
            friend.watch(self.game_id)
            joined = friend.http.post(f"/g/{self.game_id}/join", data={"csrf_token": friend.csrf, "name": name})
            assert joined.status_code == 303
            friend.watch(self.game_id)
            self.clients[f"p{index}"] = friend
        if start:
            self.start()

    def start(self):
        response = self.host.http.post(f"/g/{self.game_id}/start", data={"csrf_token": self.host.csrf})
        assert response.status_code == 303, response.get_data(as_text=True)
        for client in self.clients.values():
            client.watch(self.game_id)

    def socket(self, seat=None):
        client = self.clients[seat].http if seat else self.app.test_client()
        sio = socketio.test_client(self.app, flask_test_client=client)
        page = client.get(f"/g/{self.game_id}").get_data(as_text=True)
        ticket = re.search(r'data-presence="([^"]+)"', page)
        ack = sio.emit("watch", {"game": self.game_id, "version": -1, "presence": ticket.group(1) if ticket else None}, callback=True)
        assert ack["ok"]
        sio.get_received()
        return sio

    def state(self):
        return rules.load(self.store.load(self.game_id).snapshot)

    def turn_seat(self):
        return self.state()["turn"]["seat"]

    def act(self, seat, action):
        client = self.clients[seat]
        client.version = self.store.load(self.game_id).version
        return client.act(action)


@pytest.fixture
def table(app, seat_client):
    return Table(app, seat_client)


class TestWaitingRoom:
    def test_creator_hosts_friends_join_by_link_and_the_host_starts(self, app, seat_client):
        t = Table(app, seat_client, start=False)
        record = t.store.load(t.game_id)
        assert record.status == "waiting" and record.snapshot is None
        assert [s.name for s in t.store.seats(t.game_id)] == ["Ann", "Bob", "Cy"]
        page = t.clients["p2"].get(f"/g/{t.game_id}").get_data(as_text=True)
        assert "Waiting room" in page and "Start the game" not in page  # only the host starts
        refused = t.clients["p2"].http.post(f"/g/{t.game_id}/start", data={"csrf_token": t.clients["p2"].csrf})
        assert refused.status_code == 403
        t.start()
        record = t.store.load(t.game_id)
        assert record.status == "running" and record.players == ["p1", "p2", "p3"]
        assert t.state()["turn"]["seat"] == "p1"

    def test_table_size_limits_seats(self, app, seat_client):
        t = Table(app, seat_client, players=2, max_players=2, start=False)
        late = seat_client()
        late.watch(t.game_id)
        assert "Every seat is taken" in late.bodies[-1]
        response = late.http.post(f"/g/{t.game_id}/join", data={"csrf_token": late.csrf, "name": "Zed"})
        assert response.status_code == 409

    def test_acting_before_the_start_is_refused(self, app, seat_client):
        t = Table(app, seat_client, start=False)
        assert t.act("p1", {"type": "end_turn"}).status_code == 409

    def test_leaving_the_waiting_room_hands_the_host_role_on(self, app, seat_client):
        t = Table(app, seat_client, start=False)
        response = t.host.http.post(f"/g/{t.game_id}/leave-table", data={"csrf_token": t.host.csrf})
        assert response.status_code == 303
        assert t.store.load(t.game_id).lobby["host"] == "p2"
        assert [s.seat for s in t.store.seats(t.game_id)] == ["p2", "p3"]

    def test_waiting_page_refreshes_itself_when_the_game_starts(self, app, seat_client):
        t = Table(app, seat_client, start=False)
        t.start()
        response = t.clients["p2"].http.get(f"/g/{t.game_id}/board?page=waiting", headers={"HX-Request": "true"})
        assert response.headers.get("HX-Refresh") == "true"

    def test_bad_map_names_the_line(self, seat_client):
        host = seat_client()
        host.get("/")
        response = host.http.post(
            "/games",
            data={"game": "dungeon-of-doom", "csrf_token": host.csrf, "map_choice": "custom",
                  "map_text": "name Broken\nwin 1\n#E.G#\n#..X#\n"},
        )
        assert response.status_code == 400
        assert "line 4" in response.get_data(as_text=True)


class TestTurns:
    def test_turn_order_and_out_of_turn_refusal(self, table):
        assert table.turn_seat() == "p1"
        out_of_turn = table.act("p2", {"type": "end_turn"})
        assert out_of_turn.status_code == 422
        assert table.act("p1", {"type": "end_turn"}).status_code == 200
        assert table.turn_seat() == "p2"
        assert table.act("p2", {"type": "end_turn"}).status_code == 200
        assert table.turn_seat() == "p3"

    def test_spectators_cannot_act(self, table, seat_client):
        watcher = seat_client()
        watcher.watch(table.game_id)
        assert 'name="action"' not in watcher.bodies[-1]
        assert watcher.act({"type": "end_turn"}).status_code == 403

    def test_server_actions_are_refused_from_players(self, table):
        for action in [{"type": "timeout"}, {"type": "drop"}]:
            response = table.act("p1", action)
            assert response.status_code == 400
            assert "server" in response.get_data(as_text=True)
        assert table.store.load(table.game_id).version == 0

    def test_pushes_reach_exactly_the_games_room(self, app, seat_client, table):
        other = Table(app, seat_client, players=2)
        in_room = table.socket("p2")
        elsewhere = other.socket("p1")
        table.act("p1", {"type": "end_turn"})
        assert received(in_room) and all(set(m) == {"version"} for m in received(in_room) or [{"version": 0}])
        assert received(elsewhere) == []

    def test_timeouts_end_turns_and_three_in_a_row_remove_the_seat(self, table):
        store = table.store
        for expected_turn in ["p1", "p2", "p3", "p1", "p2", "p3", "p1"]:
            assert table.turn_seat() == expected_turn
            presence.expire_turns(store, now=time.time() + 3600)
        state = table.state()
        p1 = next(p for p in state["players"] if p["seat"] == "p1")
        assert p1["status"] == "dead" and p1["cause"] == "idle"

    def test_a_turn_is_not_timed_out_early(self, table):
        presence.expire_turns(table.store, now=time.time() + 30)
        assert table.turn_seat() == "p1"


class TestPresence:
    def test_reconnect_within_grace_keeps_the_seat(self, table):
        store = table.store
        sio = table.socket("p2")
        assert [s.connected for s in store.seats(table.game_id) if s.seat == "p2"] == [True]
        sio.disconnect()
        assert [s.connected for s in store.seats(table.game_id) if s.seat == "p2"] == [False]
        presence.tick(store, now=time.time() + 30)  # inside the grace period
        sio = table.socket("p2")
        presence.tick(store, now=time.time() + 30)
        state = table.state()
        assert next(p for p in state["players"] if p["seat"] == "p2")["status"] == "alive"

    def test_grace_expiry_drops_the_seat(self, table):
        store = table.store
        sio = table.socket("p3")
        sio.disconnect()
        page = table.host.get(f"/g/{table.game_id}").get_data(as_text=True)
        assert "connection lost" in page
        presence.tick(store, now=time.time() + presence.GRACE_SECONDS + 5)
        state = table.state()
        p3 = next(p for p in state["players"] if p["seat"] == "p3")
        assert p3["status"] == "dead" and p3["cause"] == "disconnected"

    def test_a_restart_grants_fresh_grace(self, table):
        store = table.store
        table.socket("p2").disconnect()
        store.after_restart(presence.GRACE_SECONDS)
        presence.tick(store, now=time.time() + 30)
        state = table.state()
        assert all(p["status"] == "alive" for p in state["players"])

    def test_forged_presence_ticket_is_ignored(self, app, table):
        sio = socketio.test_client(app)
        ack = sio.emit("watch", {"game": table.game_id, "version": 0, "presence": "forged"}, callback=True)
        assert ack["ok"]
        assert all(not s.connected for s in table.store.seats(table.game_id))


class TestChat:
    def test_chat_is_pushed_escaped_and_limited(self, app, table):
        listener = table.socket("p3")
        bob = table.clients["p2"]
        response = bob.http.post(f"/g/{table.game_id}/chat", data={"csrf_token": bob.csrf, "text": "<script>x</script> hi"},
                                 headers={"HX-Request": "true"})
        assert response.status_code == 204
        assert received(listener, "chat") == [{"name": "Bob", "seat": "p2", "text": "<script>x</script> hi"}]
        page = table.host.get(f"/g/{table.game_id}").get_data(as_text=True)
        assert "&lt;script&gt;x&lt;/script&gt; hi" in page and "<script>x</script>" not in page
        too_long = bob.http.post(f"/g/{table.game_id}/chat", data={"csrf_token": bob.csrf, "text": "x" * 201})
        assert too_long.status_code == 400
        statuses = [bob.http.post(f"/g/{table.game_id}/chat", data={"csrf_token": bob.csrf, "text": f"m{i}"}).status_code
                    for i in range(6)]
        assert statuses.count(429) >= 1

    def test_spectators_cannot_chat(self, table, seat_client):
        watcher = seat_client()
        watcher.watch(table.game_id)
        response = watcher.http.post(f"/g/{table.game_id}/chat", data={"csrf_token": watcher.csrf, "text": "hi"})
        assert response.status_code == 403


class TestJoiningMidGame:
    def test_a_newcomer_joins_a_running_game_and_is_placed(self, app, seat_client):
        t = Table(app, seat_client, players=2, map_choice="sunken-vault", max_players=3)
        late = seat_client()
        late.watch(t.game_id)
        assert "Join this game" in late.bodies[-1]
        response = late.http.post(f"/g/{t.game_id}/join", data={"csrf_token": late.csrf, "name": "Cy"})
        assert response.status_code == 303
        state = t.state()
        assert [p["seat"] for p in state["players"]] == ["p1", "p2", "p3"]
        assert t.store.actions(t.game_id)[-1][1:] == ("p3", {"type": "join"})


class TestPlayAgain:
    def test_play_again_seats_the_same_table(self, app, seat_client):
        t = Table(app, seat_client, players=2)
        for seat in ["p1", "p2"]:
            assert t.act(seat, {"type": "leave"}).status_code == 200
        assert t.store.load(t.game_id).status == "finished"
        first = t.host.http.post(f"/g/{t.game_id}/again", data={"csrf_token": t.host.csrf})
        new_id = first.headers["Location"].rsplit("/", 1)[-1]
        second = t.clients["p2"].http.post(f"/g/{t.game_id}/again", data={"csrf_token": t.clients["p2"].csrf})
        assert second.headers["Location"].endswith(new_id)
        assert [s.name for s in t.store.seats(new_id)] == ["Ann", "Bob"]
        assert t.store.load(new_id).status == "waiting"


ALLOWED_CELL = re.compile(r'<rect x="(-?[\d.]+)" y="(-?[\d.]+)" width="(?:10|9.4)"')


def allowed_cells(state, seat):
    view = rules.view(state, seat)
    return {tuple(c["pos"]) for c in view["visible"]} | {tuple(c["pos"]) for c in view["memory"]}


def drawn_cells(body):
    svg = body.split('class="dungeon"', 1)
    if len(svg) < 2:
        return set()
    cells = set()
    for x, y in ALLOWED_CELL.findall(svg[1].split("</svg>", 1)[0]):
        cells.add((int(float(y)) // 10, int(float(x)) // 10))
    return cells


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_no_payload_shows_a_seat_more_than_it_may_know(app, seat_client, seed):
    """Random 3-player games: every board a seat receives draws only cells in its view or memory,
    spectators get no cells until the end, and no body or push carries the seed or the map text."""
    t = Table(app, seat_client, map_choice="flooded-crypt")
    record = t.store.load(t.game_id)
    map_rows = [row for row in record.options["map"].splitlines()[2:] if len(row) > 12]
    sockets = {seat: t.socket(seat) for seat in t.clients}
    watcher = seat_client()
    watcher.watch(t.game_id)
    rng = random.Random(seed)
    for _step in range(120):
        state = t.state()
        if rules.result(state) is not None:
            break
        seat = state["turn"]["seat"]
        actions = rules.legal_actions(state, seat)
        action = rng.choice([a for a in actions if a["type"] != "leave"] or actions)
        assert t.act(seat, action).status_code == 200
        state = t.state()
        for viewer, client in t.clients.items():
            body = client.board().get_data(as_text=True)
            assert drawn_cells(body) <= allowed_cells(state, viewer), viewer
            assert str(record.seed) not in body
            assert not any(row in body for row in map_rows)
        spectator_body = watcher.board().get_data(as_text=True)
        if rules.result(state) is None:
            assert drawn_cells(spectator_body) == set()
    for sio in sockets.values():
        for message in sio.get_received():
            assert message["name"] in {"changed", "chat"}
            assert str(record.seed) not in json.dumps(message)


def test_spectators_share_one_rendered_board_that_carries_no_form_token(table, seat_client):
    first, second = seat_client(), seat_client()
    first.watch(table.game_id)
    second.watch(table.game_id)
    table.act("p1", {"type": "end_turn"})
    one = first.board().get_data(as_text=True)
    two = second.board().get_data(as_text=True)
    assert one == two
    assert 'name="csrf_token"' not in one
    assert first.csrf != second.csrf  # each browser still has its own token, outside the fragment
