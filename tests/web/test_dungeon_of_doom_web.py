"""The Dungeon of Doom through the web layer: a table of three seats with Flask-SocketIO test
clients — waiting room, turn order, pushes, presence and grace, timeouts, spectators, chat,
maps (shipped, random, uploaded), the end of the game, the How to play page, and hidden
information over random games.

Every table's seed is fixed by the test (the server draws one with ``secrets``), so a failure
replays the same game."""

from __future__ import annotations

import html
import io
import json
import random
import time

import pytest
from sqlalchemy import update

import rules_engine
from tests.helpers.web import Table as LobbyTable
from tests.helpers.web import received
from tests.page import Page, squash
from webapp import socketio
from webapp.domain import play
from webapp.pages import board
from webapp.pages.presenters import keys_for
from webapp.realtime import presence
from webapp.storage.schema import games as games_table
from webapp.storage.schema import seats as seats_table

rules = rules_engine.get("dungeon-of-doom")
HALL = "duelling-hall"
SEED = 20130228  # recognisable (the original rules' date), so a leak of it is easy to spot


def set_seed(store, game_id, seed):
    """Fix a waiting table's seed: the engine's game begins, from that seed, when the host starts."""
    with store.engine.begin() as conn:
        conn.execute(update(games_table).where(games_table.c.id == game_id).values(seed=seed))


def age_presence(store, game_id, seconds, seat=None):
    """As if the game's seats (or one of them) had last been seen ``seconds`` earlier."""
    where = [seats_table.c.game_id == game_id] + ([seats_table.c.seat == seat] if seat else [])
    with store.engine.begin() as conn:
        conn.execute(update(seats_table).where(*where).values(last_seen=seats_table.c.last_seen - seconds))


def last_seen(store, game_id, seat):
    return next(s.last_seen for s in store.seats(game_id) if s.seat == seat)


class Table(LobbyTable):
    """A host and friends at one Dungeon of Doom table, each a browser with a socket."""

    slug = "dungeon-of-doom"

    def __init__(
        self,
        app,
        seat_client,
        *,
        players=3,
        map_choice=HALL,
        max_players=4,
        turn_seconds=60,
        start=True,
        seed=SEED,
        test_options=None,
        form=None,
    ):
        super().__init__(app, seat_client)
        self.seed = seed
        data = {
            "name": "Ann",
            "map_choice": map_choice,
            "max_players": str(max_players),
            "turn_seconds": str(turn_seconds),
            **(form or {}),
        }
        if test_options is not None:
            app.config["TEST_OPTIONS"] = True  # what DELVE_TEST_OPTIONS=1 turns on (never in production)
            data["test_options"] = json.dumps(test_options)
        self.open(data)
        set_seed(self.store, self.game_id, seed)
        self.host.watch(self.game_id)
        for name in ["Bob", "Cy", "Di", "Ed"][: players - 1]:
            self.join(name)
        if start:
            self.start()

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
            data={
                "game": "dungeon-of-doom",
                "csrf_token": host.csrf,
                "map_choice": "custom",
                "map_text": "name Broken\nwin 1\n#E.G#\n#..X#\n",
            },
        )
        assert response.status_code == 400
        assert "line 4" in response.get_data(as_text=True)


UPLOADED = b"\xef\xbb\xbfname Upload Hall\r\nwin 1\r\n#####\r\n#G.E#\r\n#####"  # a BOM and Windows line ends


def create_form(seat_client, **fields):
    """POST the create form as a browser would (``map_file`` as ``(bytes, filename)``); (client, response)."""
    host = seat_client()
    host.get("/")
    data = {"game": "dungeon-of-doom", "csrf_token": host.csrf, "name": "Ann", **fields}
    if "map_file" in data:
        content, filename = data["map_file"]
        data["map_file"] = (io.BytesIO(content), filename)
    return host, host.http.post("/games", data=data, content_type="multipart/form-data")


class TestMaps:
    def test_an_uploaded_map_file_is_the_games_map(self, seat_client):
        host, response = create_form(seat_client, map_choice="custom", map_file=(UPLOADED, "upload-hall.txt"))
        assert response.status_code == 303, response.get_data(as_text=True)
        game_id = response.headers["Location"].rsplit("/", 1)[-1]
        record = host.app.extensions["delve_store"].load(game_id)
        assert rules.parse_map(record.options["map"]) == rules.parse_map(UPLOADED)
        assert host.http.post(f"/g/{game_id}/start", data={"csrf_token": host.csrf}).status_code == 303
        page = Page(host.watch(game_id).get_data(as_text=True))
        assert page.one("h2#map-title").get_text() == "Upload Hall (custom map)"

    @pytest.mark.parametrize(
        ("content", "where"),
        [
            (b"name Bad\nwin 0\n###\n#EZ\n###\n", "line 4, column 3: unexpected character"),
            (b"name Bad\nwin 0\n###\n#E\xff\n###\n", "line 4: the file is not UTF-8 text"),
            (b"name Bad\r\nwin 2\r\n#G.E#\r\n", "line 2:"),
        ],
    )
    def test_a_broken_map_file_is_refused_naming_the_line(self, seat_client, content, where):
        _host, response = create_form(seat_client, map_choice="custom", map_file=(content, "bad.txt"))
        assert response.status_code == 400
        assert where in html.unescape(response.get_data(as_text=True))

    def test_a_random_map_from_the_create_form_is_labelled_random(self, app, seat_client):
        t = Table(app, seat_client, players=2, map_choice="random-M")
        record = t.store.load(t.game_id)
        assert record.options.get("map") is None and record.options["random_map"] == "M"  # no text to replay
        state = t.state()
        assert (state["map"]["width"], state["map"]["height"]) == rules.SIZES["M"][:2]
        assert state["map"] == rules.parse_map(rules.generate_map(SEED, "M")).as_state()  # drawn from the seed
        for client in t.clients.values():
            page = Page(client.get(f"/g/{t.game_id}").get_data(as_text=True))
            assert page.one("h2#map-title").get_text() == f"{state['map']['name']} (random medium map)"

    def test_play_again_after_a_random_map_draws_a_fresh_map_of_the_same_size(self, app, seat_client):
        t = Table(app, seat_client, players=2, map_choice="random-S")
        first = t.state()["map"]
        for seat in ["p1", "p2"]:
            assert t.act(seat, {"type": "leave"}).status_code == 200
        again = t.host.http.post(f"/g/{t.game_id}/again", data={"csrf_token": t.host.csrf})
        new_id = again.headers["Location"].rsplit("/", 1)[-1]
        assert t.store.load(new_id).options["random_map"] == "S"
        set_seed(t.store, new_id, SEED + 1)
        assert t.host.http.post(f"/g/{new_id}/start", data={"csrf_token": t.host.csrf}).status_code == 303
        second = rules.load(t.store.load(new_id).snapshot)["map"]
        assert (second["width"], second["height"]) == (first["width"], first["height"])
        assert second["terrain"] != first["terrain"]  # everyone saw the first one whole at the end


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
        assert not Page(watcher.bodies[-1]).select('[name="action"]')
        assert watcher.act({"type": "end_turn"}).status_code == 403

    def test_leaving_has_no_key_and_asks_for_a_second_click(self, table):
        # One stray keypress must not kill an adventurer: no shortcut, and the leave button sits
        # inside a closed disclosure as an explicit "Yes, leave the dungeon".
        for seat in ["p1", "p2"]:  # on and off their turn
            page = Page(table.clients[seat].get(f"/g/{table.game_id}").get_data(as_text=True))
            details = page.one("details.leave")
            assert [summary.get_text() for summary in details.select("summary")] == ["Leave the game…"], seat
            button = page.one("#act-leave")  # the only one, and inside the disclosure
            assert button.find_parent("details") is details, seat
            assert button.get_text().strip() == "Yes, leave the dungeon", seat
            assert not button.has_attr("data-key") and not button.has_attr("aria-keyshortcuts"), seat
            assert not page.select('[data-key="1"], [data-alt-key="1"]'), seat  # it had the first choice key
            game = play.load_game(table.store, table.game_id)
            keys = {
                (b.key, b.alt_key)
                for b in play.action_buttons(game, seat, keys_for("dungeon_of_doom"))
                if b.action["type"] == "leave"
            }
            assert keys == {(None, None)}, seat
        assert statuses(table) == {"p1": "alive", "p2": "alive", "p3": "alive"}

    def test_server_actions_are_refused_from_players(self, table):
        for action in [{"type": "timeout"}, {"type": "drop"}]:
            response = table.act("p1", action)
            assert response.status_code == 400
            assert "server" in response.get_data(as_text=True)
        assert table.store.load(table.game_id).version == 0

    def test_pushes_reach_exactly_the_games_room(self, app, seat_client, table):
        other = Table(app, seat_client, players=2)
        in_room = {seat: table.socket(seat) for seat in table.clients}
        elsewhere = other.socket("p1")
        assert table.act("p1", {"type": "end_turn"}).status_code == 200
        revision = table.store.revision(table.game_id)
        for seat, sio in in_room.items():
            messages = sio.get_received()  # read once: get_received() empties the queue
            assert messages, seat
            assert all(
                m["name"] == "changed" and m["args"] == [{"revision": m["args"][0]["revision"]}] for m in messages
            ), messages
            assert max(m["args"][0]["revision"] for m in messages) == revision, seat
        assert elsewhere.get_received() == []

    def test_timeouts_end_turns_and_three_in_a_row_remove_the_seat(self, table):
        for expected_turn in ["p1", "p2", "p3", "p1", "p2", "p3", "p1"]:
            assert table.turn_seat() == expected_turn
            presence.expire_turns(table.service, now=time.time() + 3600)
        state = table.state()
        p1 = next(p for p in state["players"] if p["seat"] == "p1")
        assert p1["status"] == "dead" and p1["cause"] == "idle"

    def test_a_turn_is_not_timed_out_early(self, table):
        presence.expire_turns(table.service, now=time.time() + 30)
        assert table.turn_seat() == "p1"


def statuses(table):
    return {p["seat"]: p["cause"] or p["status"] for p in table.state()["players"]}


class OneTick:
    """Stands in for Socket.IO under presence.start_background_jobs: runs its loop for exactly one
    pass (the first sleep returns after ``before_pass``, the second ends the loop)."""

    class Stop(Exception):
        pass

    def __init__(self, before_pass):
        self.before_pass = before_pass
        self.sleeps = 0

    def sleep(self, _seconds):
        self.sleeps += 1
        if self.sleeps > 1:
            raise self.Stop
        self.before_pass()

    def start_background_task(self, target):
        with pytest.raises(self.Stop):
            target()


class TestPresence:
    def test_reconnect_within_grace_keeps_the_seat(self, table):
        store = table.store
        sockets = {seat: table.socket(seat) for seat in table.clients}
        assert [s.connected for s in store.seats(table.game_id) if s.seat == "p2"] == [True]
        sockets["p2"].disconnect()
        assert [s.connected for s in store.seats(table.game_id) if s.seat == "p2"] == [False]
        presence.tick(table.service, now=time.time() + 30)  # inside the grace period
        assert statuses(table)["p2"] == "alive"
        table.socket("p2")  # the page reconnects
        # Past the grace of the first absence: only the reconnection keeps p2 in the game.
        presence.tick(table.service, now=time.time() + presence.GRACE_SECONDS + 5)
        assert statuses(table) == {"p1": "alive", "p2": "alive", "p3": "alive"}

    def test_a_seated_request_counts_as_presence(self, table):
        # 10.6: present while a socket is open *or* a request came in the last 60 s. No sockets here.
        store = table.store
        age_presence(store, table.game_id, 50)
        assert table.act("p1", {"type": "end_turn"}).status_code == 200  # POST /act
        table.clients["p2"].board()  # GET /board, the fragment a page fetches after each push
        presence.tick(table.service, now=time.time() + 30)  # p3: 80 s away; p1 and p2: 30 s since their requests
        # p3 alone is away past the grace: a bot keeps p3's seat until p3 is back (issue 16).
        assert statuses(table) == {"p1": "alive", "p2": "alive", "p3": "alive"}
        assert [s.seat for s in store.seats(table.game_id) if s.kept] == ["p3"]

    def test_a_request_writes_presence_only_when_the_last_is_a_few_seconds_old(self, table, monkeypatch):
        store = table.store
        monkeypatch.setattr(board, "REQUEST_SEEN_EVERY", 3600.0)  # where the roster reads it
        age_presence(store, table.game_id, 60, seat="p2")
        before = last_seen(store, table.game_id, "p2")
        table.clients["p2"].board()
        assert last_seen(store, table.game_id, "p2") == before  # recent enough: no write on the hot path
        age_presence(store, table.game_id, 3600, seat="p2")
        table.clients["p2"].board()
        assert last_seen(store, table.game_id, "p2") > before

    def test_the_servers_loop_times_out_and_drops_with_no_page_open(self, app, seat_client):
        t = Table(app, seat_client, turn_seconds=30)
        store = t.store

        def time_passes():
            # After the (re)start grace the loop grants: p1's turn is over and p2 is long gone.
            with store.engine.begin() as conn:
                conn.execute(
                    update(games_table).where(games_table.c.id == t.game_id).values(turn_deadline=time.time() - 1)
                )
            age_presence(store, t.game_id, presence.GRACE_SECONDS + 1, seat="p2")

        presence.start_background_jobs(app, OneTick(time_passes))
        state = t.state()
        # p2 is long gone: a bot keeps p2's seat (issue 16), and the turn the clock ended passes to it.
        assert statuses(t) == {"p1": "alive", "p2": "alive", "p3": "alive"}
        assert [s.seat for s in store.seats(t.game_id) if s.kept] == ["p2"]
        assert next(p for p in state["players"] if p["seat"] == "p1")["timeouts"] == 1
        assert state["turn"] == {"seat": "p2", "number": 2}

    def test_grace_expiry_drops_the_seat(self, table):
        sio = table.socket("p3")
        sio.disconnect()
        page = table.host.get(f"/g/{table.game_id}").get_data(as_text=True)
        assert "connection lost" in page
        presence.tick(table.service, now=time.time() + presence.GRACE_SECONDS + 5)
        state = table.state()
        p3 = next(p for p in state["players"] if p["seat"] == "p3")
        assert p3["status"] == "dead" and p3["cause"] == "disconnected"

    def test_a_restart_grants_fresh_grace(self, table):
        store = table.store
        table.socket("p2").disconnect()
        # The server went down: everyone was last seen 50 s before it came back, and the turn is due soon.
        age_presence(store, table.game_id, 50)
        with store.engine.begin() as conn:
            conn.execute(
                update(games_table).where(games_table.c.id == table.game_id).values(turn_deadline=time.time() + 5)
            )
        store.after_restart(presence.GRACE_SECONDS)
        # 80 s after they were last seen and past the old deadline, but 30 s after the restart.
        presence.tick(table.service, now=time.time() + 30)
        assert statuses(table) == {"p1": "alive", "p2": "alive", "p3": "alive"}
        assert table.state()["turn"] == {"seat": "p1", "number": 1}

    def test_forged_presence_ticket_is_ignored(self, app, table):
        sio = socketio.test_client(app)
        ack = sio.emit("watch", {"game": table.game_id, "revision": 0, "presence": "forged"}, callback=True)
        assert ack["ok"]
        assert all(not s.connected for s in table.store.seats(table.game_id))


class TestChat:
    def test_chat_is_pushed_escaped_and_limited(self, app, table):
        listener = table.socket("p3")
        bob = table.clients["p2"]
        response = bob.http.post(
            f"/g/{table.game_id}/chat",
            data={"csrf_token": bob.csrf, "text": "<script>x</script> hi"},
            headers={"HX-Request": "true"},
        )
        assert response.status_code == 204
        assert [{k: m[k] for k in ("name", "seat", "text")} for m in received(listener, "chat")] == [
            {"name": "Bob", "seat": "p2", "text": "<script>x</script> hi"}
        ]
        page = table.host.get(f"/g/{table.game_id}").get_data(as_text=True)
        assert "&lt;script&gt;x&lt;/script&gt; hi" in page and "<script>x</script>" not in page
        too_long = bob.http.post(f"/g/{table.game_id}/chat", data={"csrf_token": bob.csrf, "text": "x" * 201})
        assert too_long.status_code == 400
        responses = [
            bob.http.post(f"/g/{table.game_id}/chat", data={"csrf_token": bob.csrf, "text": f"m{i}"}) for i in range(6)
        ]
        refused = [r for r in responses if r.status_code == 429]
        assert refused
        assert "Slow down a little" in refused[0].get_data(as_text=True)  # our reason, not the generic one

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


TILE = 'rect[width="10"], rect[width="9.4"]'  # a cell's own square (not an item's, nor the background)


def dungeon(body):
    """The first dungeon picture (SVG) of ``body``, or None."""
    pictures = Page(body).select("svg.dungeon")
    return pictures[0] if pictures else None


def allowed_cells(state, seat):
    view = rules.view(state, seat)
    return {tuple(c["pos"]) for c in view["visible"]} | {tuple(c["pos"]) for c in view["memory"]}


def drawn_cells(body):
    svg = dungeon(body)
    if svg is None:
        return set()
    return {(int(float(tile["y"])) // 10, int(float(tile["x"])) // 10) for tile in svg.select(TILE)}


_KIT_GLYPH = {"S": "sword", "A": "armour", "L": "lantern"}


def drawn_map(body):
    """Every cell the first dungeon picture of ``body`` draws, read back from its SVG:
    ``{(row, col): {"tile", "item": (kind, amount) or None, "player": its tooltip or None}}``."""
    svg = dungeon(body)
    if svg is None:
        return {}
    cells = {}
    for group in svg.select("g.dod-cell"):
        square = group.select(TILE)[0]
        item = None
        if group.select('[stroke="#8a6414"]'):  # the gold coin (the player's own disc has another stroke)
            amount = group.select("text.glyph.small")
            item = ("gold", int(amount[0].get_text()) if amount else 1)
        elif group.select('[fill="#e5484d"]'):
            item = ("potion", 1)
        elif kit := group.select("text.glyph.kit"):
            item = (_KIT_GLYPH[kit[0].get_text()], 1)
        player = group.select("g.player > title:first-child")
        tile = "wall" if group.select('[fill="#6d5a45"]') else ("exit" if group.select("text.glyph.exit") else "floor")
        cells[int(float(square["y"])) // 10, int(float(square["x"])) // 10] = {
            "tile": tile,
            "item": item,
            "player": player[0].get_text() if player else None,
        }
    return cells


def known_cells(state, seat):
    """What ``seat`` may know of each cell (its view: visible now, else remembered), as drawn_map reads."""
    view = rules.view(state, seat)
    known = {}
    for cell in view["memory"] + view["visible"]:  # a visible cell is never also remembered
        item = cell["item"]
        known[tuple(cell["pos"])] = {
            "tile": cell["tile"],
            "item": (item["kind"], item["amount"]) if item else None,
            "player": cell.get("player") is not None,
        }
    return known


def assert_draws_only_what_it_knows(body, state, seat, note=""):
    drawn = {pos: dict(cell, player=cell["player"] is not None) for pos, cell in drawn_map(body).items()}
    known = known_cells(state, seat)
    assert set(drawn) <= set(known), f"{seat} is drawn unseen cells {sorted(set(drawn) - set(known))[:5]} {note}"
    wrong = {pos: (cell, known[pos]) for pos, cell in drawn.items() if cell != known[pos]}
    assert not wrong, f"{seat} is drawn cells unlike its view (drawn, view): {list(wrong.items())[:3]} {note}"
    assert set(drawn) == set(known), f"{seat} misses cells of its view {note}"


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_no_payload_shows_a_seat_more_than_it_may_know(app, seat_client, seed):
    """Random 3-player games: every board a seat receives draws exactly the cells, items and players
    of its view and memory, spectators get no cells until the end, and no body or push carries the
    seed or the map text."""
    t = Table(app, seat_client, map_choice="flooded-crypt", seed=SEED + seed)
    note = f"(game seed {t.seed}, action seed {seed})"
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
            if rules.result(state) is None:
                assert_draws_only_what_it_knows(body, state, viewer, note)
            assert str(record.seed) not in body, note
            assert not any(row in body for row in map_rows), note
        spectator_body = watcher.board().get_data(as_text=True)
        if rules.result(state) is None:
            assert drawn_cells(spectator_body) == set(), note
    for sio in sockets.values():
        for message in sio.get_received():
            assert message["name"] in {"changed", "chat"}
            assert str(record.seed) not in json.dumps(message), note


def test_s19_seed_dice_and_start_positions_never_reach_a_client(app, seat_client):
    """S19's web part: with a recognisable seed, forced dice and forced starts, no page, fragment,
    action answer or socket message names them; p1 never learns where p3 stands."""
    forced = {"dice": [4, 3, 2, 1], "start_positions": {"p1": [5, 5], "p2": [7, 5], "p3": [9, 1]}}
    t = Table(app, seat_client, map_choice="lantern-gallery", test_options=forced)
    sockets = {seat: t.socket(seat) for seat in t.clients}
    spectator_socket = t.socket()
    watcher = seat_client()
    watcher.watch(t.game_id)
    bodies = {seat: [] for seat in [*t.clients, None]}

    def look_everywhere():
        for seat, client in [*t.clients.items(), (None, watcher)]:
            bodies[seat].append(client.get(f"/g/{t.game_id}").get_data(as_text=True))
            bodies[seat].append(client.board().get_data(as_text=True))

    look_everywhere()
    for seat, action in [
        ("p1", {"type": "end_turn"}),
        ("p2", {"type": "move", "dir": "S"}),
        ("p2", {"type": "move", "dir": "N"}),
    ]:
        bodies[seat].append(t.act(seat, action).get_data(as_text=True))
        look_everywhere()
    assert [e["type"] for e in rules.view(t.state(), "p1")["events"]][-2:] == ["left_view", "came_into_view"]

    messages = [json.dumps(m) for sio in [*sockets.values(), spectator_socket] for m in sio.get_received()]
    assert messages
    forbidden = [str(SEED), "dice", "start_positions", json.dumps(forced["dice"])]
    for seat, texts in [*bodies.items(), ("socket", messages)]:
        for text in texts:
            for word in forbidden:
                assert word not in text, f"{seat} receives {word!r}"
    for text in bodies["p1"]:
        assert (9, 1) not in drawn_cells(text)
        assert "[9, 1]" not in text and "9, 1" not in text


PILES = "name Piles\nwin 1\n########\n#GG.SGE#\n########\n"


def final_table(body):
    """The end-of-game table: {player name: (outcome, hit points, gold, kit)}."""
    rows = {}
    for name in Page(body).select('table.final-stats tr > th[scope="row"]:first-child'):
        cells = name.find_next_siblings("td")
        rows[squash(name.get_text()).removesuffix(" (you)")] = tuple(squash(cell.get_text()) for cell in cells)
    return rows


def test_the_end_shows_every_viewer_every_player_and_the_whole_map(app, seat_client):
    # Rule 7.3. Bob dies on a coin with a coin (a pile of 2); Ann escapes onto the exit with the sword.
    t = Table(
        app,
        seat_client,
        players=2,
        map_choice="custom",
        form={"map_text": PILES},
        test_options={"start_positions": {"p1": [1, 4], "p2": [1, 1]}},
    )
    for seat, action in [
        ("p1", "pickup"),
        ("p1", "end_turn"),
        ("p2", "pickup"),
        ("p2", "move E"),
        ("p2", "leave"),
        ("p1", "move E"),
        ("p1", "pickup"),
        ("p1", "move E"),
    ]:
        kind, _, direction = action.partition(" ")
        assert t.act(seat, {"type": kind, **({"dir": direction} if direction else {})}).status_code == 200
    assert rules.result(t.state())["winners"] == ["p1"]
    watcher = seat_client()
    watcher.watch(t.game_id)
    for viewer, client in [("p1", t.clients["p1"]), ("p2", t.clients["p2"]), (None, watcher)]:
        body = client.board().get_data(as_text=True)
        assert final_table(body) == {"Ann": ("escaped", "3", "1", "sword"), "Bob": ("left", "3", "0", "none")}, viewer
        assert "won" in Page(body).texts("span.tag")  # the roster too, not "alive"
        drawn = drawn_map(body)
        assert len(drawn) == 8 * 3
        assert drawn[1, 6] == {"tile": "exit", "item": None, "player": "You" if viewer == "p1" else "Ann"}
        assert drawn[1, 2]["item"] == ("gold", 2)  # Bob's coin on the one beneath
        assert drawn[1, 1]["item"] is None and drawn[1, 4]["item"] is None and drawn[1, 5]["item"] is None


def fov_drawing(rows):
    """Offsets of the '+' and '@' cells of a field drawn as in the rules file (6.1)."""
    middle = len(rows) // 2
    return {(r - middle, c - middle) for r, row in enumerate(rows) for c, ch in enumerate(row.split()) if ch in "+@"}


NORMAL_FIELD = fov_drawing(["· + + + ·", "+ + + + +", "+ + @ + +", "+ + + + +", "· + + + ·"])
LANTERN_FIELD = fov_drawing(
    [
        "· · + + + · ·",
        "· + + + + + ·",
        "· + + + + + ·",
        "+ + + @ + + +",
        "· + + + + + ·",
        "· + + + + + ·",
        "· · + + + · ·",
    ]
)


def test_how_to_play_draws_the_rules_fields_and_states_the_rules(app):
    page = Page(app.test_client().get("/how-to-play/dungeon-of-doom").get_data(as_text=True))
    for name, field, count in [("fov-normal", NORMAL_FIELD, 21), ("fov-lantern", LANTERN_FIELD, 33)]:
        figure = page.one(f"figure#{name}")
        drawn = drawn_map(str(figure))
        assert len(drawn) == count, name  # ruling 1: not the Manhattan 13 and 25
        centre = next(pos for pos, cell in drawn.items() if cell["player"] == "You")
        assert {(r - centre[0], c - centre[1]) for r, c in drawn} == field, name
        assert f"{count} tiles" in figure.get_text(), name
    text = page.text()
    assert "diamond" not in text and "more often" not in text
    for fact in [
        "it uses all your remaining AP and ends your turn",  # a potion (5.3)
        "An attack uses all your remaining AP , so it ends your turn, hit or miss",  # 5.4, ruling 13
        "It hits three times in four",
        "whatever anyone carries",  # 5.4, ruling 15
        "a sword adds 1 , and armour takes 1 off the damage its wearer takes",  # 5.4
        "kit you pick up counts from your next turn on",  # ruling 16
        "A already means west, so the two-key attack uses F",
    ]:
        assert fact in text, fact
    example = page.select("pre.mono")[0].get_text()
    assert example + "\n" == rules.shipped_maps()["duelling-hall"]


def test_spectators_share_one_rendered_board_that_carries_no_form_token(table, seat_client):
    first, second = seat_client(), seat_client()
    first.watch(table.game_id)
    second.watch(table.game_id)
    table.act("p1", {"type": "end_turn"})
    one = first.board().get_data(as_text=True)
    two = second.board().get_data(as_text=True)
    assert one == two
    assert not Page(one).select('[name="csrf_token"]')
    assert first.csrf != second.csrf  # each browser still has its own token, outside the fragment


def test_spectators_arriving_together_wait_for_one_render(app, table, seat_client, monkeypatch):
    """A push sends every spectator's GET at once: the first renders, the others wait for it."""
    import threading

    renders, started, release = [], threading.Event(), threading.Event()
    real_render = board.render_game

    def slow_render(game, seat, **kwargs):
        renders.append(seat)
        started.set()
        release.wait(5)
        return real_render(game, seat, **kwargs)

    watchers = [seat_client() for _ in range(4)]
    for watcher in watchers:
        watcher.watch(table.game_id)
    table.act("p1", {"type": "end_turn"})
    monkeypatch.setattr(board, "render_game", slow_render)
    bodies = [None] * len(watchers)

    def fetch(index):
        bodies[index] = watchers[index].board().get_data(as_text=True)

    threads = [threading.Thread(target=fetch, args=(0,))]
    threads[0].start()
    assert started.wait(5)
    threads += [threading.Thread(target=fetch, args=(i,)) for i in range(1, len(watchers))]
    for thread in threads[1:]:
        thread.start()
    release.set()
    for thread in threads:
        thread.join(10)
    assert renders == [None]  # one spectator render for four pages
    assert len(set(bodies)) == 1 and Page(bodies[0]).select("[data-revision]")
