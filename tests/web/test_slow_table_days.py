"""A slow table played over simulated days with its pages closed (issue 29: "two browsers can play
a Dungeon of Doom table over days, each told when it is their turn while their page is closed").

The clock is frozen (``time.time``, which the turn clock, the presence loop's pass and the push
sender read) and moved on by hand; both seats' browsers are subscribed to a local push service
(tests/web/test_push.py) that decrypts what it is sent. Each seat is pushed "Your turn" as its turn
begins, reminded once with a quarter of the turn left, never while a page of its seat is open (a
connected socket), never dropped for being away; the turn passes at its deadline; a reminder due
while the server was down is sent once by the next process on the same database."""

from __future__ import annotations

import json
import time

import pytest

from tests.web.test_dungeon_of_doom_web import Table, statuses
from tests.web.test_push import BrowserKeys, PushService, subscribe, vapid_claims
from tests.web.test_slow_tables import DAY, HOUR, FrozenClock
from webapp import create_app
from webapp.domain import push
from webapp.realtime import presence


@pytest.fixture
def frozen(monkeypatch):
    clock = FrozenClock(float(int(time.time())))
    monkeypatch.setattr(time, "time", clock)
    return clock


@pytest.fixture
def service():
    running = PushService()
    yield running
    running.close()


class Phones:
    """What each seat's browser was shown: the decrypted pushes, by seat, in order."""

    def __init__(self, service: PushService, keys: dict[str, BrowserKeys]):
        self.service = service
        self.keys = keys
        self.read = 0

    def new(self, sender: push.TurnPushes) -> list[tuple[str, str]]:
        """(seat, title) of every push received since the last look, once ``sender`` is idle."""
        sender.wait_idle()
        received = self.service.received[self.read :]
        self.read = len(self.service.received)
        told = []
        for message in received:
            seat = message["path"].rsplit("/", 1)[-1]
            told.append((seat, json.loads(self.keys[seat].decrypt(message["body"]))["title"]))
        return told


def slow_table(app, seat_client, service, *, turn_seconds):
    """Ann (p1) and Bob (p2) at a Dungeon of Doom table, both browsers subscribed, no page open."""
    app.config["PUSH_ALLOW_LOCAL_ENDPOINTS"] = True
    table = Table(app, seat_client, players=2, turn_seconds=turn_seconds, start=False)
    keys = {seat: BrowserKeys() for seat in ("p1", "p2")}
    for seat, seat_keys in keys.items():
        assert subscribe(table.clients[seat], f"{service.origin}/push/{seat}", seat_keys).status_code == 204
    table.start()
    return table, Phones(service, keys)


def nobody_dropped(table) -> bool:
    seated = table.store.seats(table.game_id)
    return statuses(table) == {"p1": "alive", "p2": "alive"} and not any(s.kept or s.gone or s.bot for s in seated)


TURN = "Your turn at Ann's table (The Dungeon of Doom)"


def reminder(hours: int) -> str:
    return f"Reminder: your turn at Ann's table (The Dungeon of Doom), about {hours} hours left"


def test_two_seats_play_a_day_long_table_over_days_told_of_each_turn_and_reminded(
    app, db_url, seat_client, service, frozen
):
    t, phones = slow_table(app, seat_client, service, turn_seconds=DAY)
    sender = app.extensions["delve_push"]
    started = frozen.now
    assert t.store.load(t.game_id).turn_deadline == started + DAY
    assert phones.new(sender) == [("p1", TURN)]  # the game's first turn is Ann's

    # Day 1. Nobody's page is open. A second before three quarters of Ann's day: nothing.
    frozen.now = started + 18 * HOUR - 1
    presence.tick(t.service)
    assert phones.new(sender) == []
    frozen.advance(1)
    presence.tick(t.service)
    assert phones.new(sender) == [("p1", reminder(6))]
    message = service.received[-1]
    headers = {name.lower(): value for name, value in message["headers"].items()}
    assert int(headers["ttl"]) == 6 * HOUR and headers["urgency"] == "high"
    assert vapid_claims(headers["authorization"], sender.public_key())["aud"] == service.origin
    payload = json.loads(phones.keys["p1"].decrypt(message["body"]))
    assert payload == {"title": reminder(6), "url": f"/g/{t.game_id}", "tag": f"delve-turn-{t.game_id}"}
    frozen.advance(HOUR)
    presence.tick(t.service)
    assert phones.new(sender) == []  # once per turn
    assert nobody_dropped(t)

    # Ann plays in the evening (no page kept open); Bob is told at once.
    frozen.advance(3 * HOUR)
    assert t.act("p1", {"type": "end_turn"}).status_code == 200
    bob_began = frozen.now
    assert phones.new(sender) == [("p2", TURN)]

    # Day 2. Bob has his page open at three quarters of his turn: no reminder while it is open …
    bob_page = t.socket("p2")
    frozen.now = bob_began + 18 * HOUR
    presence.tick(t.service)
    assert phones.new(sender) == []
    # … and one when he closes it with his turn still running.
    frozen.advance(2 * HOUR)
    bob_page.disconnect()
    presence.tick(t.service)
    assert phones.new(sender) == [("p2", reminder(4))]
    assert nobody_dropped(t)

    # Bob never plays it: the turn passes at the deadline, and Ann is told it is hers.
    frozen.now = bob_began + DAY - 1
    presence.tick(t.service)
    assert t.turn_seat() == "p2" and phones.new(sender) == []
    frozen.now = bob_began + DAY
    presence.tick(t.service)
    assert t.turn_seat() == "p1"
    assert t.store.actions(t.game_id)[-1][1:] == ("p2", {"type": "timeout"})
    assert phones.new(sender) == [("p1", TURN)]
    assert nobody_dropped(t)

    # Day 3. The server is down from noon until past Ann's reminder; the next process on the same
    # database sends the reminder it finds due, once, and the old one (were it still running, as a
    # second process) finds it claimed.
    ann_began = frozen.now
    frozen.now = ann_began + 12 * HOUR
    presence.tick(t.service)
    frozen.now = ann_began + 20 * HOUR
    restarted = create_app({"TESTING": True, "DATABASE_URL": db_url})
    try:
        restarted.extensions["delve_store"].after_restart(presence.GRACE_SECONDS)
        new_sender = restarted.extensions["delve_push"]
        new_service = restarted.extensions["delve_service"]
        presence.tick(new_service)
        assert phones.new(new_sender) == [("p1", reminder(4))]
        presence.tick(t.service)
        frozen.advance(HOUR)
        presence.tick(new_service)
        assert phones.new(sender) == [] and phones.new(new_sender) == []

        frozen.now = ann_began + DAY
        presence.tick(new_service)
        assert t.turn_seat() == "p2"
        assert phones.new(new_sender) == [("p2", TURN)]
        assert nobody_dropped(t)
    finally:
        restarted.extensions["delve_store"].engine.dispose()


@pytest.mark.parametrize(
    ("turn_seconds", "reminded_at", "words"), [(12 * HOUR, 9 * HOUR, reminder(3)), (HOUR, 0, None)]
)
def test_a_twelve_hour_turn_is_reminded_with_three_hours_left_an_hour_long_one_never(
    app, seat_client, service, frozen, turn_seconds, reminded_at, words
):
    t, phones = slow_table(app, seat_client, service, turn_seconds=turn_seconds)
    sender = app.extensions["delve_push"]
    started = frozen.now
    assert phones.new(sender) == [("p1", TURN)]
    for seconds in range(0, turn_seconds, 15 * 60):  # every quarter of an hour of the turn
        frozen.now = started + seconds
        presence.tick(t.service)
        told = phones.new(sender)
        assert told == ([("p1", words)] if words and seconds == reminded_at else []), seconds
