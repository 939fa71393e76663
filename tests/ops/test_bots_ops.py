"""Bots on real servers (issue 16): a table's bots carry on after a SIGKILL and a restart, and two
processes on PostgreSQL + Redis drive one table's bots exactly once between them.

The tables are "Play now with bots" tables whose person leaves at once, so the bots play on
alone on a small open hall, at a fast pace (BOT_DELAY_SECONDS=0.02)."""

from __future__ import annotations

import time

from cluster import HALL_MAP, Server

import rules_engine
from webapp.domain import bots

BOT_ENV = {"BOT_DELAY_SECONDS": "0.02", "RATE_LIMITS": "0"}


def bots_only_table(player) -> str:
    """A Play-now table with three bots whose person has left: only the bots play it."""
    response = player.post(
        "/games/with-bots",
        {
            "game": "dungeon-of-doom",
            "name": player.name,
            "bots": "3",
            "map_choice": "custom",
            "map_text": HALL_MAP,
            "max_players": "4",
            "turn_seconds": "0",
        },
        htmx=False,
    )
    assert response.status_code == 303, response.text[:500]
    game_id = response.headers["Location"].rsplit("/", 1)[-1]
    player.get(f"/g/{game_id}")
    left = player.act(game_id, {"type": "leave"}, 0)
    assert left.status_code == 200, left.text[:300]
    return game_id


def wait_for(predicate, timeout: float) -> bool:
    deadline = time.time() + timeout
    while time.time() < deadline:
        if predicate():
            return True
        time.sleep(0.05)
    return predicate()


def check_log(store, game_id: str) -> list[tuple[int, str, dict]]:
    """One action a version, no gap, every one after the person's leave a bot's, and the
    snapshot what replaying the log gives."""
    from webapp.domain import play

    log = store.actions(game_id)
    assert [seq for seq, _seat, _action in log] == list(range(1, len(log) + 1))
    assert log[0][1:] == ("p1", {"type": "leave"})
    assert {seat for _seq, seat, _action in log[1:]} <= {"p2", "p3", "p4"}
    record = store.load(game_id)
    # Compared as stored: a run of undoable steps keeps its start as differences (rules_engine/undo.py).
    assert rules_engine.get(record.slug).dump(play.replay(store, game_id)) == record.snapshot
    return log


def test_a_bot_table_carries_on_after_a_sigkill_and_a_restart(servers, players, sqlite_url, store_of, tmp_path):
    (server,) = servers(sqlite_url, env=BOT_ENV)
    store = store_of(sqlite_url)
    game_id = bots_only_table(players(server.url, "Ann"))
    assert wait_for(lambda: (store.version(game_id) or 0) >= 8, 30), "the bots did not play"
    server.kill()
    at_kill = store.version(game_id)
    assert store.load(game_id).status == "running", "the game ended before the crash: nothing to carry on"
    # The same database, a new process (a new lease owner): it waits out the dead one's lease.
    again = Server(tmp_path / "again", database_url=sqlite_url, env=BOT_ENV, name="again")
    servers.started.append(again)
    again.start()
    assert wait_for(
        lambda: store.load(game_id).status == "finished" or store.version(game_id) >= at_kill + 8,
        bots.LEASE_SECONDS + 30,
    ), f"the bots stopped at version {store.version(game_id)} (killed at {at_kill})"
    log = check_log(store, game_id)
    print(f"killed at version {at_kill}; after the restart: version {len(log)}, {store.load(game_id).status}")


def test_two_processes_drive_one_tables_bots_exactly_once(servers, players, postgres_url, redis_server, store_of):
    a, b = servers(postgres_url, redis_server.url, count=2, env=BOT_ENV)
    store = store_of(postgres_url)
    tables = [bots_only_table(players(server.url, f"P{i}")) for i, server in enumerate([a, b, a, b])]
    owners: dict[str, set[str]] = {game_id: set() for game_id in tables}

    def progressed() -> bool:
        for game_id in tables:
            lease = store.lease_owner(game_id)
            if lease is not None:
                owners[game_id].add(lease[0])
        return all(store.load(g).status == "finished" or store.version(g) >= 30 for g in tables)

    assert wait_for(progressed, 60), {g: store.version(g) for g in tables}
    for game_id in tables:
        check_log(store, game_id)
        # One process held the table the whole time (neither crashed: its lease never ran out).
        assert len(owners[game_id]) == 1, owners[game_id]
    print(
        "tables per process:", sorted(len([g for g in tables if o in owners[g]]) for o in set().union(*owners.values()))
    )
