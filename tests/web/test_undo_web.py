"""Undo on the page (issue 26): the Undo control a seat's page draws from its own reach, the
undo posted through the ordinary action route (optimistic lock, refusals with their reason,
spectators refused, the no-JavaScript redirect), and the boards pushed after one.

Nothing here leans on what a particular game counts as a reveal: each test finds, in the game
as dealt, a move that can be taken back by trying the seat's legal moves with the engine."""

from __future__ import annotations

import json
import re
from types import SimpleNamespace

import pytest

import rules_engine
from tests.page import Page, squash
from tests.web.test_board_pushes import board_socket, events
from tests.web.test_clear_the_dungeon_web import LINE_A_DECK
from tests.web.test_dungeon_of_doom_web import Table

SOLO_GAMES = ("shuffle-and-doom", "clear-the-dungeon", "hebracs-dungeon")
SEARCH_DEPTH = 4
"""How many moves deep a search for an undoable move looks (the first moves of a game)."""


def undoable_path(rules, state, seat: str, depth: int = SEARCH_DEPTH) -> list[dict] | None:
    """Moves of ``seat`` from ``state`` after which it can undo at least one: a few first moves
    tried breadth first (the seat's own, while the game goes on), or None."""
    frontier: list[tuple[dict, list[dict]]] = [(state, [])]
    for _level in range(depth):
        deeper = []
        for here, path in frontier:
            for action in rules.legal_actions(here, seat)[:12]:
                after = rules.apply(here, seat, action)
                if rules.undo_reach(after, seat).steps:
                    return [*path, action]
                if rules.result(after) is None:
                    deeper.append((after, [*path, action]))
        frontier = deeper[:40]
    return None


def stored_state(store, game_id: str):
    record = store.load(game_id)
    return rules_engine.get(record.slug).load(record.snapshot)


@pytest.fixture
def undone_solo(seat_client, store):
    """A solo game whose player has just played moves it can take back: (client, rules, the
    state before the last move, the state after it, that move). The first solo game with such a move in
    its opening moves (each game says what its moves reveal)."""
    for slug in SOLO_GAMES:
        client = seat_client()
        client.start(slug)
        rules = rules_engine.get(slug)
        path = undoable_path(rules, stored_state(store, client.game_id), "p1")
        if path is None:
            continue
        for action in path[:-1]:
            assert client.act(action).status_code == 200
        before = stored_state(store, client.game_id)
        assert client.act(path[-1]).status_code == 200
        return client, rules, before, stored_state(store, client.game_id), path[-1]
    pytest.fail(f"none of {SOLO_GAMES} has a move that can be undone in its first {SEARCH_DEPTH} moves")


def undo_button(html: str):
    return Page(html).one("#game #undo")


def test_the_page_shows_how_far_back_undo_goes(undone_solo):
    client, rules, _before, after, _move = undone_solo
    steps = rules.undo_reach(after, "p1").steps
    page = Page(client.get(f"/g/{client.game_id}").get_data(as_text=True))
    button = page.one("#undo")
    assert squash(button.get_text()).startswith(f"Undo ({steps})")
    assert button.get("data-key") == "u" and "Control+Z" in button["aria-keyshortcuts"]
    assert not button.has_attr("disabled")
    # It posts {"type": "undo"} through its own form: the action route, its version and CSRF token.
    form = page.one("form#undo-form")
    assert form["action"] == f"/g/{client.game_id}/act" and form["method"] == "post"
    assert button["form"] == "undo-form"
    assert json.loads(page.one("#undo-form input[name=action]")["value"]) == {"type": "undo"}
    assert page.one("#undo-form input[name=version]")["value"] == str(client.version)
    assert page.one("#undo-form input[name=csrf_token]")["value"]


def test_posting_undo_restores_the_board_and_says_what_was_undone(undone_solo, store):
    client, rules, before, _after, move = undone_solo
    log_before = Page(client.board().get_data(as_text=True)).select("#log li")
    response = client.act({"type": "undo"})
    assert response.status_code == 200
    restored = stored_state(store, client.game_id)
    assert rules.view(restored, "p1") == rules.view(before, "p1")
    page = Page(response.get_data(as_text=True))
    # The log is drawn again as a whole: the undone move's lines are gone.
    assert [squash(li.get_text()) for li in page.select("#log li")] == [
        squash(li.get_text()) for li in Page(client.board().get_data(as_text=True)).select("#log li")
    ]
    assert len(page.select("#log li")) <= len(log_before)
    assert page.one("#log-seen")["value"] == str(rules.view(before, "p1")["log"][-1]["seq"])
    label = rules.action_label(before, move).rstrip(".")
    assert squash(page.one("#flash").get_text()) == f"Undone: {label}."
    # Every undo is an action in the log: versions only grow.
    assert store.load(client.game_id).version == client.version


def test_an_undo_on_a_stale_version_is_409_and_changes_nothing(undone_solo, store):
    client, _rules, _before, after, _move = undone_solo
    version = store.load(client.game_id).version
    response = client.act({"type": "undo"}, version=version - 1)
    assert response.status_code == 409
    assert "moved on" in Page(response.get_data(as_text=True)).text("#flash")
    assert store.load(client.game_id).version == version
    assert stored_state(store, client.game_id) == after


def test_nothing_to_undo_is_refused_with_the_reason_and_the_game_untouched(seat_client, store):
    client = seat_client()
    client.start(SOLO_GAMES[0])
    rules = rules_engine.get(SOLO_GAMES[0])
    state = stored_state(store, client.game_id)
    reason = rules.undo_reach(state, "p1").reason
    page = Page(client.get(f"/g/{client.game_id}").get_data(as_text=True))
    button = page.one("#undo")
    assert button.has_attr("disabled") and squash(button.get_text()) == "Undo"
    assert squash(page.one("#undo-why").get_text()) == f"Can't undo: {reason}."
    assert button["aria-describedby"] == "undo-why"
    version = store.load(client.game_id).version
    response = client.act({"type": "undo"})
    assert response.status_code == 422
    assert reason in response.get_data(as_text=True)
    assert store.load(client.game_id).version == version
    assert store.actions(client.game_id) == []


def test_a_spectator_cannot_undo_and_sees_no_undo(undone_solo, seat_client, store):
    client, _rules, _before, after, _move = undone_solo
    watcher = seat_client()
    page = Page(watcher.watch(client.game_id).get_data(as_text=True))
    assert page.select("#undo") == [] and page.select("#undo-form") == []
    response = watcher.act({"type": "undo"}, version=store.load(client.game_id).version)
    assert response.status_code == 403
    assert stored_state(store, client.game_id) == after


def test_without_javascript_an_undo_redirects_to_the_restored_page(undone_solo, store):
    client, rules, before, _after, _move = undone_solo
    response = client.act({"type": "undo"}, htmx=False)
    assert response.status_code == 303
    assert response.headers["Location"].endswith(f"/g/{client.game_id}")
    assert rules.view(stored_state(store, client.game_id), "p1") == rules.view(before, "p1")


def test_a_finished_game_draws_no_undo(seat_client, store):
    client = seat_client()
    client.start("clear-the-dungeon")  # a game its player can end at once, by giving up
    rules = rules_engine.get("clear-the-dungeon")
    resign = next(a for a in rules.legal_actions(stored_state(store, client.game_id), "p1") if a["type"] == "resign")
    assert client.act(resign).status_code == 200
    page = Page(client.get(f"/g/{client.game_id}").get_data(as_text=True))
    assert page.select("#undo") == [] and page.select("#undo-form") == []


def comparable(html: str) -> dict:
    """What a seat's board shows of the game, without what changes with every revision."""
    page = Page(html)
    return {
        part: squash(page.one(part).get_text())
        for part in ("#game .p-map", "#game #log", "#game .roster")
        if page.select(part)
    } | {"map": str(page.select("#game .p-map svg"))}


def test_after_an_undo_at_a_table_the_other_seat_is_pushed_the_restored_board_and_nothing_hidden(app, seat_client):
    table = Table(app, seat_client, players=2)
    rules = table.rules
    mover = table.turn_seat()
    other = "p2" if mover == "p1" else "p1"
    path = undoable_path(rules, table.state(), mover)
    assert path is not None, "no move of the first turn can be undone"
    for action in path[:-1]:
        assert table.act(mover, action).status_code == 200
    sio, http = board_socket(table, other)
    shown_before = comparable(
        http.get(f"/g/{table.game_id}/board", headers={"HX-Request": "true"}).get_data(as_text=True)
    )
    before = table.state()
    assert table.act(mover, path[-1]).status_code == 200
    sio.get_received()
    assert table.act(mover, {"type": "undo"}).status_code == 200
    assert rules.view(table.state(), mover) == rules.view(before, mover)
    assert rules.view(table.state(), other) == rules.view(before, other)
    pushed = events(sio, "board")
    assert pushed, "the other seat's page heard nothing of the undo"
    last = pushed[-1]
    assert last["revision"] == table.store.load(table.game_id).revision
    if "html" in last:
        assert comparable(last["html"]) == shown_before
        assert str(table.seed) not in last["html"]
        assert not re.search(r'"undo"\s*:', last["html"])  # the trail never leaves the server
    else:
        assert last.get("same") is True  # nothing the other seat sees changed


def test_a_second_page_of_the_seat_is_drawn_again_when_only_its_undo_changed(app, seat_client):
    """Switching to practice after a reveal changes neither the seat's view nor its buttons, only
    how far it can undo: the seat's other page must be pushed the board drawn again (the reach is
    one of ``board.board_inputs``), not told "same" and left offering a switch already made."""
    client = seat_client()
    client.start("clear-the-dungeon", deck=LINE_A_DECK)  # a first turn ended with four hits, not five
    assert client.act({"type": "end_turn"}).status_code == 200  # three power cards drawn: a reveal
    other_page, _http = board_socket(SimpleNamespace(app=app, game_id=client.game_id), client=client.http)
    shown = Page(client.board().get_data(as_text=True))
    assert shown.one("#undo").has_attr("disabled") and shown.select("#practice details")

    assert client.act({"type": "practice"}).status_code == 200
    pushed = events(other_page, "board")
    assert pushed, "the seat's other page heard nothing of the switch"
    assert "html" in pushed[-1], "the other page was told its board is the same"
    redrawn = Page(pushed[-1]["html"])
    assert squash(redrawn.one("#undo").get_text()).startswith("Undo (1)")
    assert redrawn.select("#practice .practice-on") and not redrawn.select("#practice details")
