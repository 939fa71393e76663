"""Pushed boards (webapp/realtime/board_push.py): a page that watches with ``boards: true`` gets its own
board over its socket — the very body its GET would bring, for its own seat — and no doorbell."""

from __future__ import annotations

import json
import re

import rules_engine
from tests.page import Page
from tests.web.test_dungeon_of_doom_web import Table
from webapp import socketio
from webapp.domain import play


def events(sio, name):
    return [event["args"][0] for event in sio.get_received() if event["name"] == name]


def board_socket(table, seat=None, *, client=None, log_seen=None):
    """A page of the table (``seat``'s, or a spectator's) that takes pushed boards, up to date."""
    http = client or (table.clients[seat].http if seat else table.app.test_client())
    sio = socketio.test_client(table.app, flask_test_client=http)
    page = Page(http.get(f"/g/{table.game_id}").get_data(as_text=True))
    tickets = [tag["data-viewer"] for tag in page.select("body[data-viewer]")]
    revision = int(page.one("#game")["data-revision"])
    mark = int(page.one("#log-seen")["value"]) if log_seen is None else log_seen
    message = {"game": table.game_id, "revision": revision, "boards": True, "log_seen": mark}
    if tickets:
        message["viewer"] = tickets[0]
    assert sio.emit("watch", message, callback=True)["ok"]
    sio.get_received()
    return sio, http


def socket_id(sio):
    """The socket id the page's script knows (``socket.id``), as the server's handlers see it."""
    return sio.socketio.server.manager.sid_from_eio_sid(sio.eio_sid, "/")


def get_board(table, http, log_seen):
    response = http.get(
        f"/g/{table.game_id}/board", query_string={"log_seen": log_seen}, headers={"HX-Request": "true"}
    )
    assert response.status_code == 200
    return response.get_data(as_text=True)


def test_each_page_is_pushed_its_own_board_exactly_as_its_get_would_bring(app, seat_client):
    table = Table(app, seat_client, players=3)
    pages = {seat: board_socket(table, seat) for seat in ("p2", "p3")}
    watcher, watcher_http = board_socket(table)
    marks = {
        key: int(Page(get_board(table, http, 0)).one("#log-seen")["value"])
        for key, (_sio, http) in [*pages.items(), ("watcher", (watcher, watcher_http))]
    }
    for sio, _http in [*pages.values(), (watcher, watcher_http)]:
        sio.get_received()  # the boards each later page's arrival brought (its seat shows present)
    mover = table.turn_seat()
    assert table.act(mover, {"type": "end_turn"}).status_code == 200
    revision = table.store.load(table.game_id).revision
    for key, (sio, http) in [*pages.items(), ("watcher", (watcher, watcher_http))]:
        received = sio.get_received()
        assert [e["name"] for e in received] == ["board"], key  # a board, and never the doorbell
        pushed = received[0]["args"][0]
        assert pushed["revision"] == revision
        # Exactly what this page's GET brings, for its own seat (or as a spectator).
        assert pushed["html"] == get_board(table, http, marks[key]), key
    spectator = watcher_http.get(f"/g/{table.game_id}/board", headers={"HX-Request": "true"})
    assert Page(spectator.get_data(as_text=True)).select("form.play") == []


def test_a_seats_pushed_board_shows_only_what_that_seat_sees(app, seat_client):
    table = Table(app, seat_client, players=2)
    sio, _ = board_socket(table, "p2")
    spectator, _ = board_socket(table)
    sio.get_received()
    assert table.act(table.turn_seat(), {"type": "end_turn"}).status_code == 200
    mine = Page(events(sio, "board")[0]["html"])
    watched = Page(events(spectator, "board")[0]["html"])
    # The seat's board has its own controls; the spectator's has none, and neither holds the seed.
    assert mine.select("#game form.play") and not watched.select("#game form.play")
    for board in (mine, watched):
        assert str(table.seed) not in str(board.soup)


def test_the_page_that_acted_is_not_pushed_the_board_its_answer_brought(app, seat_client):
    table = Table(app, seat_client, players=2)
    mover = table.turn_seat()
    sio, http = board_socket(table, mover)
    other = "p2" if mover == "p1" else "p1"
    other_sio, _ = board_socket(table, other)
    sio.get_received()
    client = table.clients[mover]
    client.version = table.store.load(table.game_id).version
    response = http.post(
        f"/g/{table.game_id}/act",
        data={"csrf_token": client.csrf, "version": str(client.version), "action": json.dumps({"type": "end_turn"})},
        headers={"HX-Request": "true", "X-Delve-Socket": socket_id(sio)},
    )
    assert response.status_code == 200
    assert events(sio, "board") == []  # its answer was its new board
    assert [e["revision"] for e in events(other_sio, "board")] == [table.store.load(table.game_id).revision]


def test_a_page_behind_on_watch_is_pushed_its_board_and_one_up_to_date_nothing(app, seat_client):
    table = Table(app, seat_client, players=2)
    http = table.app.test_client()
    sio = socketio.test_client(table.app, flask_test_client=http)
    revision = table.store.load(table.game_id).revision
    assert sio.emit("watch", {"game": table.game_id, "revision": revision, "boards": True}, callback=True)["ok"]
    assert sio.get_received() == []
    assert sio.emit("watch", {"game": table.game_id, "revision": 0, "boards": True}, callback=True)["ok"]
    assert [e["revision"] for e in events(sio, "board")] == [revision]


def test_pages_without_boards_still_get_the_doorbell_and_chat_reaches_everyone(app, seat_client):
    table = Table(app, seat_client, players=2)
    pushed, _ = board_socket(table)
    rung = socketio.test_client(table.app)
    assert rung.emit("watch", {"game": table.game_id, "revision": -1}, callback=True)["ok"]
    rung.get_received()
    assert table.act(table.turn_seat(), {"type": "end_turn"}).status_code == 200
    revision = table.store.load(table.game_id).revision
    assert events(rung, "changed") == [{"revision": revision}]
    assert [e["revision"] for e in events(pushed, "board")] == [revision]
    host = table.clients["p1"]
    said = host.http.post(f"/g/{table.game_id}/chat", data={"csrf_token": host.csrf, "text": "hello"})
    assert said.status_code == 303
    assert [m["text"] for m in events(pushed, "chat")] == ["hello"]
    assert [m["text"] for m in events(rung, "chat")] == ["hello"]


def test_a_closed_socket_is_forgotten(app, seat_client):
    board_pushes = app.extensions["delve_board_pushes"]
    table = Table(app, seat_client, players=2)
    before = len(board_pushes)
    sio, _ = board_socket(table)
    assert len(board_pushes) == before + 1
    sio.disconnect()
    assert len(board_pushes) == before


def test_only_a_valid_ticket_for_this_game_makes_a_pushed_board_a_seats(app, seat_client):
    """A socket is shown a seat's board only with that seat's signed ticket for this very game."""
    from webapp.pages.tickets import ticket_for

    table = Table(app, seat_client, players=2)
    other = Table(app, seat_client, players=2)
    signed = ticket_for(app, table.game_id, "p1")
    # A changed signature character (not the last: its low bits are padding a decoder ignores, so
    # changing it could leave the same signature now and then).
    tampered = signed[:-5] + ("A" if signed[-5] != "A" else "B") + signed[-4:]
    forged = [None, "p1", ticket_for(app, other.game_id, "p1"), tampered]
    for ticket in forged:
        sio = socketio.test_client(app, flask_test_client=table.clients["p1"].http)
        message = {"game": table.game_id, "revision": 0, "boards": True, "viewer": ticket}
        assert sio.emit("watch", message, callback=True)["ok"]
        board = Page(events(sio, "board")[-1]["html"])
        assert not board.select("#game form.play"), ticket  # a spectator's board
        sio.disconnect()
    sio = socketio.test_client(app, flask_test_client=table.clients["p1"].http)
    message = {"game": table.game_id, "revision": 0, "boards": True, "viewer": ticket_for(app, table.game_id, "p1")}
    assert sio.emit("watch", message, callback=True)["ok"]
    assert Page(events(sio, "board")[-1]["html"]).select("#game form.play")


def test_the_acting_page_gets_the_board_of_a_change_that_landed_after_its_own_action(app, seat_client):
    """A round of pushes for one action can load the game after a later change landed. The page
    that acted then counts as showing its own action's revision (its POST's answer) — never the
    later one — so the later change's round pushes it that board (it stayed behind before)."""
    board_pushes = app.extensions["delve_board_pushes"]
    table = Table(app, seat_client, players=2)
    mover = table.turn_seat()
    other = "p2" if mover == "p1" else "p1"
    sio, http = board_socket(table, mover)
    board_socket(table, other)
    sio.get_received()
    held: list = []
    board_pushes.spawn = lambda function, *args: held.append(args)  # rounds wait, as under load
    try:
        client = table.clients[mover]
        client.version = table.store.load(table.game_id).version
        form = {"csrf_token": client.csrf, "version": str(client.version), "action": json.dumps({"type": "end_turn"})}
        response = http.post(
            f"/g/{table.game_id}/act", data=form, headers={"HX-Request": "true", "X-Delve-Socket": socket_id(sio)}
        )
        assert response.status_code == 200
        acted_at = table.store.load(table.game_id).revision
        assert table.act(other, {"type": "end_turn"}).status_code == 200  # the game moves on
        latest = table.store.load(table.game_id).revision
    finally:
        board_pushes.spawn = None
        board_pushes._running.discard(table.game_id)
        board_pushes._wanted.pop(table.game_id, None)
    board_pushes._push(table.game_id, acted_at, socket_id(sio))  # the round for its own action
    assert events(sio, "board") == []  # its answer was that board
    board_pushes._push(table.game_id, latest, None)  # the round for the later change
    assert [e["revision"] for e in events(sio, "board")] == [latest]


def test_a_move_out_of_a_pages_sight_sends_it_the_new_version_not_a_board(app, seat_client):
    # p1 and p2 at the far ends of the hall: p1's steps and the log lines they make are out of p2's
    # sight, so p2's board would be drawn from exactly what it was drawn from before.
    table = Table(
        app,
        seat_client,
        players=2,
        map_choice="custom",
        form={"map_text": LONG_HALL},
        test_options={"start_positions": {"p1": [1, 2], "p2": [3, 10]}},
    )
    mover = table.turn_seat()
    other = "p2" if mover == "p1" else "p1"
    sio, http = board_socket(table, other)
    before = get_board(table, http, 0)
    sio.get_received()
    rules = rules_engine.get("dungeon-of-doom")
    state = rules.load(table.store.load(table.game_id).snapshot)
    move = next(a for a in rules.legal_actions(state, mover) if a["type"] == "move")
    assert table.act(mover, move).status_code == 200
    game = table.store.load(table.game_id)
    assert events(sio, "board") == [{"revision": game.revision, "version": game.version, "same": True}]
    # What the page keeps is what its GET brings now, but for the revision and the version.
    after = get_board(table, http, 0)
    assert after != before
    assert normalised(after) == normalised(before)
    # The turn passing changes what every page shows: a whole board again.
    assert table.act(mover, {"type": "end_turn"}).status_code == 200
    (pushed,) = events(sio, "board")
    assert pushed["html"] == get_board(table, http, 0)


LONG_HALL = "name Long Hall\nwin 2\n############\n#G.........#\n#..#....#..#\n#..........#\n#....E....G#\n############"


def normalised(board: str) -> str:
    return re.sub(r'(data-revision|name="version" value)="\d+"', r'\1=""', board)


def test_the_pushes_an_action_rings_render_from_the_game_it_stored_without_reading_it_back(
    app, seat_client, monkeypatch
):
    table = Table(app, seat_client, players=3)
    pages = [board_socket(table, seat)[0] for seat in ("p2", "p3")]
    for sio in pages:
        sio.get_received()
    reads = []
    load = table.store.load
    monkeypatch.setattr(table.store, "load", lambda *args, **kwargs: reads.append(args) or load(*args, **kwargs))
    game_and_seats = table.store.game_and_seats
    monkeypatch.setattr(table.store, "game_and_seats", lambda game_id: reads.append(game_id) or game_and_seats(game_id))

    def reads_of_one_action() -> int:
        mover = table.turn_seat()
        reads.clear()
        assert table.act(mover, {"type": "end_turn"}).status_code == 200
        revision = load(table.game_id).revision
        assert all([e["revision"] for e in events(sio, "board")] == [revision] for sio in pages)
        return len(reads)

    with_the_stored_game = reads_of_one_action()
    monkeypatch.setattr(play.recent_games, "get", lambda *_args: None)
    assert reads_of_one_action() == with_the_stored_game + 1  # the pushes' own read of the game
