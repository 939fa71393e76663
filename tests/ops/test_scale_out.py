"""Scale-out: two server processes on one PostgreSQL and one Redis serve one Dungeon of Doom
table; players connected to different processes see each other's actions live."""

from __future__ import annotations

import pytest
from cluster import action_version, page_revision, your_turn

import rules_engine

pytestmark = [pytest.mark.postgres, pytest.mark.redis]

rules = rules_engine.get("dungeon-of-doom")


def test_players_on_two_processes_see_each_others_actions_live(servers, players, postgres_url, redis_server, store_of):
    a, b = servers(postgres_url, redis_server.url, count=2)
    store = store_of(postgres_url)
    # Seats alternate between the processes: p1, p3 on A; p2, p4 on B.
    ann, bob, cy, di = (players(server.url, name) for server, name in zip([a, b, a, b], ["Ann", "Bob", "Cy", "Di"]))
    game_id = ann.open_table(max_players=4)
    for friend in (bob, cy, di):
        friend.join(game_id)
    listeners = {seat: p.listen(game_id) for seat, p in zip(["p1", "p2", "p3", "p4"], [ann, bob, cy, di])}
    spectator = players(b.url, "Watcher").listen(game_id, presence=False)

    before = store.revision(game_id)
    ann.start(game_id)
    started = store.revision(game_id)
    assert started > before
    # The start happened on A; the sockets on B heard it through Redis.
    assert listeners["p2"].wait_revision(started) and listeners["p4"].wait_revision(started)
    assert spectator.wait_revision(started)

    by_seat = {"p1": ann, "p2": bob, "p3": cy, "p4": di}
    for turn in range(8):
        record = store.load(game_id)
        seat = rules.load(record.snapshot)["turn"]["seat"]
        actor = by_seat[seat]
        body = actor.board(game_id).text
        assert your_turn(body)
        response = actor.act(game_id, {"type": "end_turn"}, action_version(body))
        assert response.status_code == 200, response.text[:500]
        revision = store.revision(game_id)
        after = rules.load(store.load(game_id).snapshot)
        next_seat = after["turn"]["seat"]
        for other_seat, listener in listeners.items():
            if other_seat == seat:
                continue
            # A push reached every other page, on its own process, with nothing but a revision …
            assert listener.wait_revision(revision), (turn, seat, other_seat, listener.revisions())
            # … and its own board fetch (from its own process) shows the change.
            board = by_seat[other_seat].board(game_id).text
            assert page_revision(board) >= revision
            assert your_turn(board) == (other_seat == next_seat)
        assert spectator.wait_revision(revision)

    for listener in [*listeners.values(), spectator]:
        for _at, name, data in listener.messages:
            assert name == "changed" and set(data) == {"revision"}
    # Both processes served sockets: A holds p1/p3, B holds p2/p4 and the spectator.
    assert {listener.client.connection_url for listener in listeners.values()} == {a.url, b.url}


def board_messages(listener) -> list[dict]:
    return [data for _at, name, data in listener.messages if name == "board"]


def test_pages_on_two_processes_are_pushed_their_own_boards(servers, players, postgres_url, redis_server, store_of):
    """Pages that take pushed boards (as the browser's script does) get, from their own process,
    each its own board: exactly what its GET brings, for its own seat, and never the doorbell."""
    a, b = servers(postgres_url, redis_server.url, count=2)
    store = store_of(postgres_url)
    ann, bob, cy = (players(server.url, name) for server, name in zip([a, b, b], ["Ann", "Bob", "Cy"]))
    game_id = ann.open_table(max_players=3)
    for friend in (bob, cy):
        friend.join(game_id)
    ann.start(game_id)
    by_seat = {"p1": ann, "p2": bob, "p3": cy}
    listeners = {seat: p.listen(game_id, boards=True) for seat, p in by_seat.items()}
    watcher = players(b.url, "Watcher")
    spectator = watcher.listen(game_id, presence=False, boards=True)
    seed = str(store.load(game_id).seed)

    for turn in range(6):
        seat = rules.load(store.load(game_id).snapshot)["turn"]["seat"]
        actor = by_seat[seat]
        body = actor.board(game_id).text
        response = actor.act(game_id, {"type": "end_turn"}, action_version(body))
        assert response.status_code == 200, response.text[:500]
        revision = store.revision(game_id)
        for other_seat, listener in [*listeners.items(), ("spectator", spectator)]:
            if other_seat == seat:
                continue
            arrived = listener.wait(
                lambda lst=listener, rev=revision: any(m["revision"] >= rev for m in board_messages(lst)), 15
            )
            assert arrived, (turn, other_seat)
            pushed = [m for m in board_messages(listener) if m["revision"] >= revision][-1]
            assert seed not in pushed["html"]
            reader = by_seat.get(other_seat, watcher)
            fetched = reader.board(game_id).text
            if page_revision(fetched) == pushed["revision"]:
                # The same seat's view: whose turn it is, as its own GET says.
                assert your_turn(pushed["html"]) == your_turn(fetched)
    for listener in [*listeners.values(), spectator]:
        assert all(name != "changed" for _at, name, _data in listener.messages)
    assert {listener.client.connection_url for listener in listeners.values()} == {a.url, b.url}
