"""Redis down, then back: two processes share PostgreSQL and one Redis (Socket.IO queue and rate
limit counters). With redis-server stopped, actions still apply and persist on both processes
(no 5xx, nothing crashes, pages on the acting process still hear of them); once Redis is back on
the same port, pushes cross between the processes again. And a Redis that hangs instead of
refusing does not hold actions up."""

from __future__ import annotations

import os
import signal
import time

import pytest
import requests
from cluster import action_version, log_records

import rules_engine
from webapp.realtime.sockets import RedisDoorbell
from webapp.web.limits import ACT, REDIS_TIMEOUT

pytestmark = [pytest.mark.postgres, pytest.mark.redis]

rules = rules_engine.get("dungeon-of-doom")


@pytest.fixture
def own_redis(redis_server):
    """A redis-server of this test alone, to stop and start (the session's class, a new instance)."""
    server = type(redis_server)().start()
    yield server
    server.stop()


class Table:
    def __init__(self, store, game_id, by_seat):
        self.store, self.game_id, self.by_seat = store, game_id, by_seat
        self.statuses: list[int] = []

    def seat_to_play(self) -> str:
        return rules.load(self.store.load(self.game_id).snapshot)["turn"]["seat"]

    def end_turn(self) -> int:
        """The seat whose turn it is ends it (through its own process); the new revision."""
        player = self.by_seat[self.seat_to_play()]
        body = player.board(self.game_id).text
        response = player.act(self.game_id, {"type": "end_turn"}, action_version(body))
        self.statuses.append(response.status_code)
        assert response.status_code == 200, response.text[:500]
        return self.store.revision(self.game_id)


def test_actions_survive_a_redis_outage_and_pushes_resume(servers, players, postgres_url, own_redis, store_of):
    # Rate limits on (their counters live in Redis too); JSON logs, as in production.
    a, b = servers(postgres_url, own_redis.url, count=2, env={"LOG_FORMAT": "json"})
    store = store_of(postgres_url)
    ann, bob = players(a.url, "Ann"), players(b.url, "Bob")
    game_id = ann.open_table(max_players=2)
    bob.join(game_id)
    ann.start(game_id)
    on_a, on_b = ann.listen(game_id), bob.listen(game_id)
    table = Table(store, game_id, {"p1": ann, "p2": bob})
    assert table.seat_to_play() == "p1"
    revision = table.end_turn()  # Ann, on A
    assert on_b.wait_revision(revision)  # crossed over through Redis

    own_redis.stop()
    log_before = len(store.actions(game_id))
    for _turn in range(6):  # three on each process
        seat = table.seat_to_play()
        revision = table.end_turn()
        # The page on the acting process still hears at once (the emit is handled locally first).
        assert (on_a if seat == "p1" else on_b).wait_revision(revision)
    assert len(store.actions(game_id)) == log_before + 6
    for server in (a, b):
        assert server.alive()
        assert requests.get(server.url + "/healthz", timeout=5).status_code == 200
        # Degraded, not dead: the balancer keeps sending players, monitoring sees what is missing.
        ready = requests.get(server.url + "/readyz", timeout=5)
        assert ready.status_code == 200 and ready.json()["status"] == "degraded"
        assert ready.json()["checks"]["redis"].startswith("unavailable")
    # A page that (re)connects during the outage is served and told where the game is.
    late = players(b.url, "Watcher").listen(game_id, presence=False)
    assert late.watch_acks[0] == {"ok": True, "revision": store.revision(game_id)}

    own_redis.start()  # same port
    resumed = False
    deadline = time.time() + 45  # the queue's listener retries with a growing back-off
    while not resumed and time.time() < deadline:
        seat = table.seat_to_play()
        revision = table.end_turn()
        listener = on_b if seat == "p1" else on_a  # a page on the other process
        resumed = listener.wait_revision(revision, timeout=2)
    assert resumed, "pushes did not cross between the processes again after Redis came back"
    # Both directions, and every later action.
    for _turn in range(2):
        seat = table.seat_to_play()
        revision = table.end_turn()
        assert (on_b if seat == "p1" else on_a).wait_revision(revision)
    for server in (a, b):
        assert requests.get(server.url + "/readyz", timeout=5).json()["status"] == "ready"
        records, strays = log_records(server.log_text())
        assert strays == []  # the libraries' complaints about Redis came out as JSON lines too
        assert not [r for r in records if r["logger"] == "delve.errors"]  # no unhandled error
        assert any("redis" in r["message"].lower() for r in records)  # the outage was logged
    assert all(status == 200 for status in table.statuses)
    log = store.actions(game_id)
    assert [seq for seq, _s, _a in log] == list(range(1, len(log) + 1))
    assert len(log) == len(table.statuses)


# While Redis hangs, one action waits at most REDIS_TIMEOUT for each of its route's limits and
# RedisDoorbell.TIMEOUT for its publish (then the doorbell pauses): that is the designed worst
# case. A request is failed as hung only past eight times that — a margin no busy two-core
# machine needs, yet below the 15 s and more one action took before the timeouts (redis-py's
# own, several tries, for the limiter and again for the doorbell).
DESIGNED_WORST = len(ACT.split(";")) * REDIS_TIMEOUT + RedisDoorbell.TIMEOUT
HUNG = 8 * DESIGNED_WORST


def test_a_hung_redis_does_not_hold_actions_up(servers, players, postgres_url, own_redis, store_of):
    """Redis that stops answering (SIGSTOP: connections open, no replies) rather than refusing:
    actions are still answered, none waits anywhere near redis-py's own timeouts."""
    a, b = servers(postgres_url, own_redis.url, count=2)
    store = store_of(postgres_url)
    ann, bob = players(a.url, "Ann"), players(b.url, "Bob")
    for player in (ann, bob):
        player.timeout = HUNG  # a hang detector: a request that takes longer fails the test
    game_id = ann.open_table(max_players=2)
    bob.join(game_id)
    ann.start(game_id)
    on_a, on_b = ann.listen(game_id), bob.listen(game_id)
    table = Table(store, game_id, {"p1": ann, "p2": bob})
    assert on_b.wait_revision(table.end_turn())

    os.kill(own_redis.process.pid, signal.SIGSTOP)
    try:
        for _turn in range(4):
            seat = table.seat_to_play()
            revision = table.end_turn()
            assert (on_a if seat == "p1" else on_b).wait_revision(revision)
    finally:
        os.kill(own_redis.process.pid, signal.SIGCONT)
    resumed = False
    deadline = time.time() + 45
    while not resumed and time.time() < deadline:
        seat = table.seat_to_play()
        revision = table.end_turn()
        resumed = (on_b if seat == "p1" else on_a).wait_revision(revision, timeout=2)
    assert resumed
    assert all(status == 200 for status in table.statuses)
    assert len(store.actions(game_id)) == len(table.statuses)
