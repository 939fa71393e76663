"""The same store and web code on PostgreSQL: migrations, a whole game, the optimistic lock."""

from __future__ import annotations

import pytest

import rules_engine
from tests.helpers.decks import SHORT_DEAL
from webapp import create_app
from webapp.domain import play
from webapp.storage.records import StaleVersion

pytestmark = pytest.mark.postgres


@pytest.fixture
def app(postgres_url):
    """Every test here runs the real app on its own fresh PostgreSQL database."""
    app = create_app({"TESTING": True, "DATABASE_URL": postgres_url})
    yield app
    app.extensions["delve_store"].engine.dispose()


def test_a_whole_game_on_postgres_and_replay_equals_the_snapshot(app, seat_client):
    store = app.extensions["delve_store"]
    player = seat_client()
    player.start(size="4", deck=SHORT_DEAL)
    for action in [
        {"type": "choose_stat_set", "set": "top"},
        {"type": "assign_diamond_bonus", "card": "8D", "stat": "attack"},
        {"type": "attack", "card": "6S"},
        *[{"type": "move", "dir": d} for d in "EEESSS"],
        {"type": "exit"},
    ]:
        assert player.act(action).status_code == 200
    record = store.load(player.game_id)
    assert record.result["score"] == 8 and record.status == "finished"
    rules = rules_engine.get("shuffle-and-doom")
    assert rules.dump(play.replay(store, player.game_id)) == record.snapshot


def test_stale_version_is_refused_on_postgres(app):
    store = app.extensions["delve_store"]
    game_id, _token = play.start_game(store, "shuffle-and-doom", {"size": 4, "deck": SHORT_DEAL})
    game = play.load_game(store, game_id)
    play.act(store, game, "p1", {"type": "choose_stat_set", "set": "top"})
    with pytest.raises(StaleVersion):
        play.act(store, game, "p1", {"type": "choose_stat_set", "set": "side"})
    assert [seq for seq, _s, _a in store.actions(game_id)] == [1]


def test_a_table_with_presence_on_postgres(app, seat_client):
    store = app.extensions["delve_store"]
    host = seat_client()
    host.get("/")
    response = host.http.post(
        "/games",
        data={"game": "dungeon-of-doom", "csrf_token": host.csrf, "name": "Ann", "map_choice": "duelling-hall"},
    )
    game_id = response.headers["Location"].rsplit("/", 1)[-1]
    host.watch(game_id)
    friend = seat_client()
    friend.watch(game_id)
    assert friend.http.post(f"/g/{game_id}/join", data={"csrf_token": friend.csrf, "name": "Bob"}).status_code == 303
    assert host.http.post(f"/g/{game_id}/start", data={"csrf_token": host.csrf}).status_code == 303
    assert store.load(game_id).status == "running"
    store.after_restart(60)
    assert store.absent_seats(0) == []


def test_two_players_pressing_play_again_at_once_reach_one_table_on_postgres(app, seat_client, monkeypatch):
    """The compare-and-set that picks the next table holds on PostgreSQL's row locks too."""
    from tests.web.test_dungeon_of_doom_web import Table
    from tests.web.test_security_findings import race_play_again

    store = app.extensions["delve_store"]
    t = Table(app, seat_client, players=2)
    for seat in ("p1", "p2"):
        assert t.act(seat, {"type": "leave"}).status_code == 200
    answers = race_play_again(t, monkeypatch)
    targets = {answers[s].headers["Location"].rsplit("/", 1)[-1] for s in ("p1", "p2")}
    assert len(targets) == 1 and store.load(t.game_id).lobby["next"] in targets
    assert sorted(s.name for s in store.seats(targets.pop())) == ["Ann", "Bob"]
    assert store.count_games() == 2


def test_a_pooled_connection_that_died_while_idle_is_replaced_not_used(app, monkeypatch):
    # The server ends the pool's idle connection (a restart, a proxy's timeout): the next request
    # still reads, through a fresh connection, because an idle connection is pinged before use.
    import psycopg
    from sqlalchemy import text

    from webapp.storage import engine as engines

    store = app.extensions["delve_store"]
    with store.engine.connect() as conn:
        pid = conn.execute(text("SELECT pg_backend_pid()")).scalar()
    with store.engine.connect() as conn:  # the same pooled connection, in steady use: not pinged
        assert conn.execute(text("SELECT pg_backend_pid()")).scalar() == pid
    monkeypatch.setattr(engines, "PING_AFTER_IDLE_SECONDS", 0.0)
    with psycopg.connect(store.engine.url.set(drivername="postgresql").render_as_string(False)) as other:
        other.execute("SELECT pg_terminate_backend(%s)", (pid,))
    with store.engine.connect() as conn:
        assert conn.execute(text("SELECT pg_backend_pid()")).scalar() != pid
