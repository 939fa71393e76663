"""Races: many clients post actions on the same game at the same moment. Exactly one action per
version lands, the others get 409, the action log has no gap and no duplicate, and replaying it
gives the stored snapshot — on SQLite (one process) and on PostgreSQL (two processes)."""

from __future__ import annotations

import threading

import pytest
from cluster import action_version, buttons, page_revision

import rules_engine
from webapp.domain import play

rules = rules_engine.get("shuffle-and-doom")
CLIENTS = 8
ROUNDS = 15
FREE_FOR_ALL = 6  # attempts per client in the unsynchronised phase


def seat_sharing_clients(players, servers, owner, game_id):
    """CLIENTS browsers holding the same seat (one person, many tabs), spread over the servers."""
    clients = []
    for index in range(CLIENTS):
        client = players(servers[index % len(servers)].url, f"tab{index}")
        client.get("/")  # its own session and CSRF token
        owner.share_seat(client, game_id)
        clients.append(client)
    return clients


def run_together(functions):
    barrier = threading.Barrier(len(functions))
    results = [None] * len(functions)
    errors = []

    def run(index, function):
        try:
            barrier.wait(10)
            results[index] = function()
        except Exception as error:  # reported below, with the thread's index
            errors.append((index, repr(error)))

    threads = [threading.Thread(target=run, args=(i, f)) for i, f in enumerate(functions)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert not errors, errors
    return results


def prove_one_action_per_version(players, store, servers):
    owner = players(servers[0].url, "Owner")
    game_id = owner.create("shuffle-and-doom", size="7")
    clients = seat_sharing_clients(players, servers, owner, game_id)
    acknowledged: dict[int, dict] = {}

    # 1. Lock-step rounds: every client posts a different legal action on the same version.
    for _round in range(ROUNDS):
        record = store.load(game_id)
        state = rules.load(record.snapshot)
        if rules.result(state) is not None:
            break
        legal = rules.legal_actions(state, "p1")
        version = record.version
        picks = [legal[i % len(legal)] for i in range(CLIENTS)]
        responses = run_together(
            [(lambda c=c, a=a, version=version: c.act(game_id, a, version)) for c, a in zip(clients, picks)]
        )
        statuses = [r.status_code for r in responses]
        assert statuses.count(200) == 1 and statuses.count(409) == CLIENTS - 1, statuses
        winner = statuses.index(200)
        assert page_revision(responses[winner].text) == version + 1  # Shuffle and Doom's page version is the game's
        acknowledged[version + 1] = picks[winner]
        for loser in (r for r in responses if r.status_code == 409):
            assert "moved on" in loser.text  # a readable message and the fresh board

    # 2. Free for all: each client reads its board and clicks one of its buttons, unsynchronised.
    def free_for_all(client):
        landed = []
        for _attempt in range(FREE_FOR_ALL):
            body = client.board(game_id).text
            choices = buttons(body)
            if not choices:
                break
            action = choices[len(landed) % len(choices)]
            response = client.act(game_id, action, action_version(body))
            assert response.status_code in (200, 409), (response.status_code, response.text[:300])
            if response.status_code == 200:
                landed.append((page_revision(response.text), action))
        return landed

    for landed in run_together([(lambda c=c: free_for_all(c)) for c in clients]):
        for version, action in landed:
            assert version not in acknowledged, f"version {version} acknowledged twice"
            acknowledged[version] = action

    log = store.actions(game_id)
    assert [seq for seq, _seat, _action in log] == list(range(1, len(log) + 1))  # no gap, no duplicate
    assert {seq: action for seq, _seat, action in log} == acknowledged  # every 200 is in it, nothing else
    record = store.load(game_id)
    assert record.version == len(log)
    assert rules.dump(play.replay(store, game_id)) == record.snapshot


def test_races_on_sqlite_one_process(servers, players, sqlite_url, store_of):
    (server,) = servers(sqlite_url, env={"RATE_LIMITS": "0"})  # one address posts everything
    prove_one_action_per_version(players, store_of(sqlite_url), [server])


@pytest.mark.postgres
def test_races_on_postgres_two_processes(servers, players, postgres_url, store_of):
    pair = servers(postgres_url, count=2, env={"RATE_LIMITS": "0"})
    prove_one_action_per_version(players, store_of(postgres_url), pair)
