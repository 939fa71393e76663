"""Slow tables (issue 29, item 1): turn limits of an hour to three days at The Dungeon of Doom and
a Dungeon Cards party, through the web layer. The forms take them and refuse the values between;
a slow table is played over simulated days on a frozen clock (``time.time``, which the presence
loop's sweeper, the turn clock and the pages read): the turn passes at its deadline, and nobody is
dropped or handed to a bot for being away; countdowns read in hours and days."""

from __future__ import annotations

import time

import pytest

from tests.page import Page
from tests.web.test_dungeon_cards_web import Table as CardsTable
from tests.web.test_dungeon_of_doom_web import Table as DoomTable
from tests.web.test_dungeon_of_doom_web import statuses
from webapp.pages.rendering import time_left
from webapp.realtime import presence

HOUR = 3600
DAY = 24 * HOUR


class FrozenClock:
    """The server's clock, moved on by hand (``time.time`` for everything in the process)."""

    def __init__(self, start: float):
        self.now = start

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


@pytest.fixture
def frozen(monkeypatch):
    clock = FrozenClock(float(int(time.time())))
    monkeypatch.setattr(time, "time", clock)
    return clock


@pytest.mark.parametrize("seconds", ["3600", "43200", "86400", "259200"])
def test_both_table_forms_take_the_slow_limits(app, seat_client, seconds):
    doom = DoomTable(app, seat_client, players=2, turn_seconds=seconds, start=False)
    cards = CardsTable(app, seat_client, ("ninja", "tank"), start=False, markers=None, turn_seconds=seconds)
    for table in (doom, cards):
        assert table.store.load(table.game_id).options["turn_seconds"] == int(seconds)
        page = Page(table.host.get(f"/g/{table.game_id}").get_data(as_text=True))
        assert page.select("#main")  # the waiting room of a slow table opens


@pytest.mark.parametrize("seconds", ["7200", "601", "259201"])
def test_both_table_forms_refuse_a_limit_between_the_offered_ones(seat_client, seconds):
    host = seat_client()
    host.get("/")
    for slug in ("dungeon-of-doom", "dungeon-cards"):
        refused = host.http.post(
            "/games", data={"game": slug, "csrf_token": host.csrf, "name": "Ann", "turn_seconds": seconds}
        )
        assert refused.status_code == 400, slug


@pytest.mark.parametrize(
    ("seconds", "words"),
    [
        (0, "0:00"),
        (59, "0:59"),
        (3599, "59:59"),
        (3600, "1:00:00"),
        (43170, "11:59:30"),
        (86399, "23:59:59"),
        (86400, "1 d 00 h"),
        (2 * DAY + 3 * HOUR + 59 * 60, "2 d 03 h"),
        (3 * DAY, "3 d 00 h"),
    ],
)
def test_time_left_reads_in_minutes_hours_or_days(seconds, words):
    assert time_left(seconds) == words


def countdown(table, seat):
    return Page(table.clients[seat].get(f"/g/{table.game_id}").get_data(as_text=True)).one(
        "#turn-timer [data-countdown]"
    )


def test_a_slow_table_over_days_passes_turns_at_deadlines_and_drops_nobody_who_is_away(app, seat_client, frozen):
    t = DoomTable(app, seat_client, players=2, turn_seconds=DAY)
    store = t.store
    record = store.load(t.game_id)
    assert (record.turn_key, record.turn_deadline) == ("p1:1", frozen.now + DAY)
    assert countdown(t, "p2").get_text() == "1 d 00 h"

    # Nobody has a page open. Six hours on: at a short table Bob would have been dropped (or his
    # seat handed to a bot) a minute after his page closed; here the clock alone moves the game.
    frozen.advance(6 * HOUR)
    presence.tick(t.service)
    assert statuses(t) == {"p1": "alive", "p2": "alive"}
    assert not any(s.kept or s.gone or s.bot for s in store.seats(t.game_id))
    assert countdown(t, "p2").get_text() == "18:00:00"
    roster = Page(t.clients["p2"].get(f"/g/{t.game_id}").get_data(as_text=True)).text("#roster-title ~ ul")
    assert "connection lost" not in roster and "removed in" not in roster

    frozen.now = record.turn_deadline - 1
    presence.tick(t.service)
    assert t.turn_seat() == "p1"  # a second before the deadline: still Ann's turn
    frozen.advance(2)
    presence.tick(t.service)
    assert t.turn_seat() == "p2"  # the deadline passed Ann's turn on
    assert store.actions(t.game_id)[-1][1:] == ("p1", {"type": "timeout"})
    assert store.load(t.game_id).turn_deadline == frozen.now + DAY  # Bob has a whole day

    frozen.advance(20 * HOUR)  # Bob plays his turn the next evening
    assert t.act("p2", {"type": "end_turn"}).status_code == 200
    assert t.turn_seat() == "p1"

    # Ann never comes back: each of her turns ends at its deadline, and the third timeout in a row
    # takes her out as idle (4.2), days later; never as disconnected.
    for _day in range(3):
        frozen.now = store.load(t.game_id).turn_deadline + 1
        presence.tick(t.service)
        if t.turn_seat() == "p2" and statuses(t)["p1"] == "alive":
            frozen.now = store.load(t.game_id).turn_deadline + 1
            presence.tick(t.service)
        assert statuses(t)["p2"] == "alive"
    assert statuses(t)["p1"] == "idle"
    assert not any(s.kept or s.bot for s in store.seats(t.game_id))


def test_a_short_table_still_drops_an_absent_seat_after_the_grace(app, seat_client, frozen):
    t = DoomTable(app, seat_client, players=2, turn_seconds=600)
    frozen.advance(presence.GRACE_SECONDS + 5)
    presence.tick(t.service)
    assert [s.seat for s in t.store.seats(t.game_id) if s.kept or s.gone] != []


def test_a_slow_dungeon_cards_party_keeps_an_absent_player_and_times_out_at_the_deadline(app, seat_client, frozen):
    t = CardsTable(app, seat_client, ("ninja", "tank"), deck="3C 2D", turn_seconds=str(12 * HOUR))
    record = t.store.load(t.game_id)
    assert record.turn_deadline - record.turn_started_at == 12 * HOUR
    frozen.advance(11 * HOUR)
    presence.tick(t.service)
    assert not any(s.kept or s.gone for s in t.store.seats(t.game_id))
    assert t.state()["turn"]["current"] == "p1"
    frozen.advance(HOUR + 1)
    presence.tick(t.service)
    assert t.state()["turn"]["current"] == "p2"
    assert not any(s.kept or s.gone for s in t.store.seats(t.game_id))


def open_table(host, friend, *, turn_seconds):
    """``host`` opens a Dungeon of Doom table, ``friend`` takes the second seat, the host starts."""
    host.get("/")
    game_id = (
        host.http.post(
            "/games",
            data={
                "game": "dungeon-of-doom",
                "csrf_token": host.csrf,
                "name": "Host",
                "turn_seconds": str(turn_seconds),
            },
        )
        .headers["Location"]
        .rsplit("/", 1)[-1]
    )
    friend.watch(game_id)
    assert friend.http.post(f"/g/{game_id}/join", data={"csrf_token": friend.csrf, "name": "Friend"}).status_code == 303
    host.watch(game_id)
    assert host.http.post(f"/g/{game_id}/start", data={"csrf_token": host.csrf}).status_code == 303
    return game_id


def test_your_games_lists_your_turns_first_with_the_time_left_and_the_title_counts_them(seat_client, frozen):
    me, friend = seat_client(), seat_client()
    solo = me.start("shuffle-and-doom")
    an_hour = open_table(me, friend, turn_seconds=HOUR)
    a_day = open_table(me, friend, turn_seconds=DAY)
    theirs = open_table(friend, me, turn_seconds=600)  # the newest: the friend's turn
    frozen.advance(60)

    page = Page(me.get("/").get_data(as_text=True))
    assert page.text("title").startswith("(2) Delve")
    rows = page.select("#your-games li.yg-row")
    listed = [row.select_one("a.button")["href"].rsplit("/", 1)[-1] for row in rows]
    assert listed == [an_hour, a_day, theirs, solo]
    assert [row["class"][1] for row in rows] == ["yg-your-turn", "yg-your-turn", "yg-their-turn", "yg-in-progress"]
    left = [row.select_one(".yg-left [data-countdown]") for row in rows]
    assert [tag.get_text() if tag else None for tag in left] == ["59:00", "23:59:00", None, None]

    # My hour-long turn ends: one of my turns is left, and the title says so.
    frozen.advance(HOUR)
    presence.tick(me.app.extensions["delve_service"])
    page = Page(me.get("/").get_data(as_text=True))
    assert page.text("title").startswith("(1) Delve")
    assert page.select("#your-games li.yg-row")[0].select_one("a.button")["href"].endswith(a_day)


def test_the_title_counts_nothing_without_a_turn_of_yours(seat_client):
    me = seat_client()
    me.start("shuffle-and-doom")
    assert Page(me.get("/").get_data(as_text=True)).text("title").startswith("Delve")
