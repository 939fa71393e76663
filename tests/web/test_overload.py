"""Graceful overload (webapp/web/overload.py): past its capacity a process refuses new actions at
the door — 503, ``Retry-After``, a sentence the page shows — and changes nothing; everything else
is still served."""

from __future__ import annotations

import json
import time

from tests.page import Page
from tests.web.test_dungeon_of_doom_web import Table
from webapp.web.overload import BUSY, LoadGauge


def overloaded(app) -> LoadGauge:
    gauge = app.extensions["delve_load_gauge"]
    gauge.note(10.0)  # the loop woke ten seconds late
    assert gauge.overloaded()
    return gauge


def test_an_action_is_refused_with_retry_after_and_nothing_is_stored(app, seat_client):
    table = Table(app, seat_client, players=2)
    before = table.store.load(table.game_id)
    gauge = overloaded(app)
    seat = table.turn_seat()
    client = table.clients[seat]
    response = client.http.post(
        f"/g/{table.game_id}/act",
        data={"csrf_token": client.csrf, "version": str(before.version), "action": json.dumps({"type": "end_turn"})},
        headers={"HX-Request": "true"},
    )
    assert response.status_code == 503
    assert response.headers["Retry-After"] == "1"
    # The page keeps its board and shows why in its flash area (base.html lets htmx swap a 503).
    assert response.headers["HX-Retarget"] == "#flash"
    # Answered before Flask (web/overload.py RefuseAtTheDoor), with the headers every answer has.
    assert "Content-Security-Policy" in response.headers and "Set-Cookie" not in response.headers
    assert Page(response.get_data(as_text=True)).text() == f"Busy: {BUSY}"
    after = table.store.load(table.game_id)
    assert (after.version, after.revision, after.snapshot) == (before.version, before.revision, before.snapshot)
    assert gauge.report()["actions_refused"] == 1
    # Pages and boards are still served, and once the loop is back on time the action goes through.
    assert client.http.get(f"/g/{table.game_id}").status_code == 200
    for _ in range(60):
        gauge.note(0.0)
    assert not gauge.overloaded()
    assert table.act(seat, {"type": "end_turn"}).status_code == 200


def test_without_htmx_the_refusal_is_a_page_that_says_so(app, seat_client):
    table = Table(app, seat_client, players=2)
    overloaded(app)
    client = table.clients[table.turn_seat()]
    response = client.http.post(
        f"/g/{table.game_id}/act",
        data={"csrf_token": client.csrf, "version": "0", "action": json.dumps({"type": "end_turn"})},
    )
    assert response.status_code == 503
    assert BUSY in Page(response.get_data(as_text=True)).text()


def test_a_hiccup_refuses_nobody_a_busy_spell_does_and_it_passes():
    gauge = LoadGauge(150)
    gauge.note(0.25)  # one blocking call of 250 ms
    assert not gauge.overloaded()
    for _ in range(60):
        gauge.note(0.0)
    gauge.note(0.4)  # a busy spell: every look 400 ms late
    assert gauge.overloaded()  # at once
    for _ in range(4):
        gauge.note(0.4)
    falls = 0
    while gauge.overloaded():
        gauge.note(0.001)
        falls += 1
    # It keeps refusing a few looks after the spell (each 50 ms apart), then lets actions in again.
    assert 3 < falls < 15
    assert not LoadGauge(0).overloaded() and LoadGauge(0).report()["limit_ms"] == 0


def test_a_round_held_up_once_refuses_nobody():
    looks = iter([0.4])  # one look finds a round that has waited 400 ms (one slow moment)
    now = [0.0]

    def sleep(seconds):
        now[0] += seconds
        if now[0] > 0.09:  # stop right after that look
            raise StopIteration

    gauge = LoadGauge(150)
    try:
        gauge.watch(sleep, clock=lambda: now[0], waiting=lambda: next(looks))
    except StopIteration:
        pass
    assert not gauge.overloaded()


def test_the_gauge_reads_the_loop_lag_from_its_clock():
    now = [0.0]

    def sleep(seconds):
        now[0] += seconds + 0.3  # every sleep overshoots by 300 ms
        if now[0] > 6:
            raise StopIteration

    gauge = LoadGauge(250)
    try:
        gauge.watch(sleep, clock=lambda: now[0])
    except StopIteration:
        pass
    assert 250 < gauge.report()["lag_ms"] <= 300


def test_work_waiting_to_start_counts_as_being_behind():
    # The loop's timers on time, but a push round has waited 400 ms to start: behind all the same.
    now = [0.0]

    def sleep(seconds):
        now[0] += seconds
        if now[0] > 1:
            raise StopIteration

    gauge = LoadGauge(250)
    try:
        gauge.watch(sleep, clock=lambda: now[0], waiting=lambda: 0.4)
    except StopIteration:
        pass
    assert gauge.overloaded()


def test_the_pushes_say_how_long_their_oldest_doorbell_has_waited(app, seat_client):
    pushes = app.extensions["delve_board_pushes"]
    assert pushes.oldest_waiting() == 0.0
    with pushes._lock:
        pushes._rung["a game"] = time.monotonic() - 3
    assert 3 <= pushes.oldest_waiting() < 4
