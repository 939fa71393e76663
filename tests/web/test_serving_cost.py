"""What an action costs the server (issue 24): the work an action and its pushes share is done
once, and what is remembered to save work gives the same pages as working it out again."""

from __future__ import annotations

import dataclasses
import json

import pytest
from flask.ctx import RequestContext
from sqlalchemy import event

import rules_engine
from tests.page import Page
from tests.web.test_board_pushes import board_socket, events
from tests.web.test_dungeon_of_doom_web import Table
from webapp.domain import play
from webapp.pages.rendering import cached_url_for
from webapp.realtime.sockets import PacketJson
from webapp.storage.records import _json, _state_json


def test_an_action_works_out_each_seats_view_once_for_its_answer_and_every_push(app, seat_client, monkeypatch):
    table = Table(app, seat_client, players=3)
    for seat in ("p1", "p2", "p3"):
        board_socket(table, seat)
    rules = rules_engine.get("dungeon-of-doom")
    viewed: list[str | None] = []

    def counted_view(state, seat):
        viewed.append(seat)
        return rules.view(state, seat)

    counted = dataclasses.replace(rules, view=counted_view)
    real_get = rules_engine.get
    monkeypatch.setattr(rules_engine, "get", lambda slug: counted if slug == rules.slug else real_get(slug))
    mover = table.turn_seat()
    assert table.act(mover, {"type": "end_turn"}).status_code == 200
    # The mover's answer and the push round that follows read one view per seat between them.
    assert sorted(viewed) == ["p1", "p2", "p3"]


def test_a_pushed_boards_route_is_matched_on_its_first_push_only(app, seat_client, monkeypatch):
    table = Table(app, seat_client, players=2)
    other = "p2" if table.turn_seat() == "p1" else "p1"
    sio, _http = board_socket(table, other)
    matched = []
    real_match = RequestContext.match_request

    def counted_match(self):
        matched.append(self.request.path)
        return real_match(self)

    monkeypatch.setattr(RequestContext, "match_request", counted_match)
    for _ in range(2):
        mover = table.turn_seat()
        assert table.act(mover, {"type": "end_turn"}).status_code == 200
    pushed = [board for board in events(sio, "board") if "html" in board]
    assert len(pushed) == 2
    assert matched.count(f"/g/{table.game_id}/board") == 1


@pytest.mark.parametrize("root", ["", "/delve"])
def test_remembered_urls_are_the_urls_of_the_request_root_they_are_made_under(app, root):
    with app.test_request_context("/", base_url=f"http://example.org{root}"):
        assert cached_url_for("games.board", game_id="abc") == f"{root}/g/abc/board"
        assert cached_url_for("games.page", game_id="abc", _external=True) == f"http://example.org{root}/g/abc"
    with app.test_request_context("/", base_url="https://other.example"):
        assert cached_url_for("games.page", game_id="abc", _external=True) == "https://other.example/g/abc"


def test_a_board_under_a_mounted_root_links_its_routes_under_it(app, seat_client):
    table = Table(app, seat_client, players=2)
    http = table.clients["p1"].http
    page = Page(http.get(f"/g/{table.game_id}", environ_overrides={"SCRIPT_NAME": "/delve"}).get_data(as_text=True))
    assert page.one("#game")["hx-get"] == f"/delve/g/{table.game_id}/board"
    plain = Page(http.get(f"/g/{table.game_id}").get_data(as_text=True))
    assert plain.one("#game")["hx-get"] == f"/g/{table.game_id}/board"


def test_a_stored_state_reads_back_as_it_was_whatever_encoded_it():
    state = {"seed": 2**61 + 7, "b": [1.5, "é", None, True], "a": {"nested": [[1, 2], {"x": -3}]}}
    assert json.loads(_state_json(state)) == state
    # orjson refuses integers past 64 bits: the standard library encodes those.
    huge = {"seed": 2**70}
    assert _state_json(huge) == _json(huge) and json.loads(_state_json(huge)) == huge


def test_socket_packets_encode_what_the_standard_library_would():
    board = {"revision": 3, "html": '<p class="x">é & "q"</p>', "same": False}
    assert json.loads(PacketJson.dumps(board, separators=(",", ":"))) == board
    assert PacketJson.loads(json.dumps(board)) == board
    assert PacketJson.dumps({1: "a"}, separators=(",", ":")) == '{"1":"a"}'


def test_only_a_games_newest_revision_keeps_its_seats_views(app, seat_client):
    table = Table(app, seat_client, players=2)
    for seat in ("p1", "p2"):
        board_socket(table, seat)
    assert table.act(table.turn_seat(), {"type": "end_turn"}).status_code == 200
    first = table.store.load(table.game_id).revision
    assert play.recent_games.get(table.game_id, first).parts  # the answer and its pushes shared them
    assert table.act(table.turn_seat(), {"type": "end_turn"}).status_code == 200
    second = table.store.load(table.game_id).revision
    assert play.recent_games.get(table.game_id, first).parts == {}
    assert play.recent_games.get(table.game_id, second).parts


def acted_with_seat_reads(table, seat: str, action: dict):
    """The response to ``seat``'s action, and the reads of the seats it made (pushes included)."""
    reads: list[str] = []

    def count(_conn, _cursor, statement, *_args):
        if statement.lstrip().upper().startswith("SELECT") and "FROM seats" in statement:
            reads.append(statement)

    event.listen(table.store.engine, "before_cursor_execute", count)
    try:
        return table.act(seat, action), reads
    finally:
        event.remove(table.store.engine, "before_cursor_execute", count)


def test_an_action_reads_its_tables_seats_once(app, seat_client):
    table = Table(app, seat_client, players=3)
    response, reads = acted_with_seat_reads(table, table.turn_seat(), {"type": "end_turn"})
    assert response.status_code == 200
    # Who acts (the seat cookie's token) and the roster its answer draws come from one read.
    assert len(reads) == 1, reads
    names = [row.select_one(".who").get_text() for row in Page(response.get_data(as_text=True)).select(".roster li")]
    assert names == ["Ann", "Bob", "Cy"]


def test_an_action_and_the_boards_it_pushes_read_the_tables_seats_once(app, seat_client):
    table = Table(app, seat_client, players=3)
    mover = table.turn_seat()
    watchers = [seat for seat in ("p1", "p2", "p3") if seat != mover]
    sockets = [board_socket(table, seat)[0] for seat in watchers]
    response, reads = acted_with_seat_reads(table, mover, {"type": "end_turn"})
    assert response.status_code == 200
    assert len(reads) == 1, reads
    for sio in sockets:
        (pushed,) = [board for board in events(sio, "board") if "html" in board]
        names = [row.select_one(".who").get_text() for row in Page(pushed["html"]).select(".roster li")]
        assert names == ["Ann", "Bob", "Cy"]


def test_a_game_changed_between_an_actions_read_and_its_write_hands_no_seats_on(app, seat_client):
    table = Table(app, seat_client, players=2)
    game = play.load_game(table.store, table.game_id)
    roster = table.store.seats_and_hashes(table.game_id)
    mover = game.state["turn"]["seat"]
    applied = play.act(table.store, game, mover, {"type": "end_turn"})
    # As if a seat had been taken meanwhile: that write bumps the revision too.
    skipped = dataclasses.replace(applied, revision=applied.revision + 1)
    assert game.advanced(skipped, roster).roster is None
    assert play.recent_games.get(table.game_id, skipped.revision) is None
    assert game.advanced(applied, roster).roster == roster


def test_a_share_link_behind_a_proxy_names_the_host_each_request_came_to(db_url):
    from webapp import create_app

    proxied = create_app({"TESTING": True, "DATABASE_URL": db_url, "TRUSTED_PROXIES": 1})
    game_id, _token = play.start_game(proxied.extensions["delve_store"], "shuffle-and-doom", {"size": 4})
    client = proxied.test_client()
    for host, scheme in [("a.example", "https"), ("b.example", "http"), ("a.example", "http")]:
        headers = {"X-Forwarded-For": "203.0.113.9", "X-Forwarded-Host": host, "X-Forwarded-Proto": scheme}
        page = Page(client.get(f"/g/{game_id}", headers=headers).get_data(as_text=True))
        assert page.one("#share-link")["value"] == f"{scheme}://{host}/g/{game_id}"
    proxied.extensions["delve_store"].engine.dispose()
