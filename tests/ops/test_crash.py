"""Crash: SIGKILL the server (master and worker at once) while players are acting. Every action
that was acknowledged (a 200 reached the player) is in the log after a restart, the log has no
gap, replaying it gives the snapshot, and the games carry on — on SQLite and on PostgreSQL."""

from __future__ import annotations

import random
import threading
import time

import pytest
import requests
from cluster import Server, action_version, buttons, page_revision

import rules_engine
from webapp.domain import play

rules = rules_engine.get("shuffle-and-doom")
DRIVERS = 3
ACKS_BEFORE_KILL = 8  # each driver's, so every game is well under way


class Driver(threading.Thread):
    """A player clicking as fast as the server answers; starts a new game when one ends."""

    def __init__(self, player, seed: int):
        super().__init__(daemon=True)
        self.player = player
        self.rng = random.Random(seed)
        self.acknowledged: dict[str, dict[int, dict]] = {}  # game -> version -> action
        self.stopped_by: str | None = None

    def acks(self) -> int:
        return sum(len(v) for v in self.acknowledged.values())

    def run(self):
        try:
            while True:
                game_id = self.player.create("shuffle-and-doom", size="7")
                self.acknowledged[game_id] = {}
                body = self.player.board(game_id).text
                while choices := buttons(body):
                    non_moves = [a for a in choices if a["type"] != "move"]
                    action = self.rng.choice(non_moves if non_moves and self.rng.random() < 0.6 else choices)
                    response = self.player.act(game_id, action, action_version(body))
                    assert response.status_code == 200, response.text[:300]
                    body = response.text
                    # Shuffle and Doom's page version is the game version (no form once it is over).
                    self.acknowledged[game_id][page_revision(body)] = action
        except requests.RequestException:  # the server died under us: expected
            self.stopped_by = "crash"
        except Exception as error:  # anything else fails the test, in the main thread
            self.stopped_by = repr(error)


def crash_and_recover(servers, players, store_of, url: str):
    (server,) = servers(url, env={"RATE_LIMITS": "0"})  # three fast players on one address
    drivers = [Driver(players(server.url, f"P{i}"), seed=i) for i in range(DRIVERS)]
    for driver in drivers:
        driver.start()
    deadline = time.time() + 60
    while (
        time.time() < deadline
        and min(d.acks() for d in drivers) < ACKS_BEFORE_KILL
        and all(d.is_alive() for d in drivers)
    ):
        time.sleep(0.02)
    assert min(d.acks() for d in drivers) >= ACKS_BEFORE_KILL, [d.stopped_by for d in drivers]
    server.kill()  # mid-stream: every driver has a request in flight or about to be
    for driver in drivers:
        driver.join(30)
        assert driver.stopped_by == "crash", driver.stopped_by

    store = store_of(url)
    running = []
    for driver in drivers:
        for game_id, acked in driver.acknowledged.items():
            log = store.actions(game_id)
            seqs = [seq for seq, _seat, _action in log]
            assert seqs == list(range(1, len(log) + 1))
            logged = {seq: action for seq, _seat, action in log}
            for version, action in acked.items():
                assert logged.get(version) == action, f"acknowledged action {version} of {game_id} lost"
            # At most the one in-flight action landed without its answer reaching the player.
            assert len(log) - max(acked, default=0) in (0, 1)
            record = store.load(game_id)
            assert record.version == len(log)
            assert rules.dump(play.replay(store, game_id)) == record.snapshot
            if record.result is None:
                running.append((driver.player, game_id, record.version))
    assert running, "no game was left running to carry on"

    # Restart on the same database (and port): the games carry on where the log ends.
    restarted = Server(server.workdir, database_url=url, port=server.port, name="restarted", env={"RATE_LIMITS": "0"})
    servers.started.append(restarted)
    restarted.start()
    for player, game_id, version in running:
        body = player.get(f"/g/{game_id}").text
        assert action_version(body) == version
        action = buttons(body)[0]
        response = player.act(game_id, action, version)
        assert response.status_code == 200, response.text[:300]
        assert store.actions(game_id)[-1] == (version + 1, "p1", action)


def test_sigkill_mid_game_on_sqlite(servers, players, store_of, sqlite_url):
    crash_and_recover(servers, players, store_of, sqlite_url)


@pytest.mark.postgres
def test_sigkill_mid_game_on_postgres(servers, players, store_of, postgres_url):
    crash_and_recover(servers, players, store_of, postgres_url)
