"""An action's own statements run on the driver's cursor (webapp/storage/driver_statements.py):
what they read equals what SQLAlchemy Core reads, what they write is committed before the action
is acknowledged, and a driver error is SQLAlchemy's, on SQLite and on PostgreSQL."""

from __future__ import annotations

import psycopg
import pytest
from sqlalchemy import insert, select, text, update
from sqlalchemy.exc import DBAPIError

from webapp.storage.records import _LOAD_GAME, _SEATS, GameRecord, SeatRecord, StaleVersion
from webapp.storage.schema import actions, games, seats
from webapp.storage.store import Store


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def store(request, db_url):
    url = request.getfixturevalue("postgres_url") if request.param == "postgres" else db_url
    made = Store(url)
    yield made
    made.engine.dispose()


def a_table(store: Store) -> str:
    """A running game with a turn clock, a result, and seats whose flags are all set some way."""
    game_id = store.create_game(
        slug="dungeon-of-doom",
        options={"map": "hollow"},
        seed=2**40 + 3,
        players=["p1", "p2", "p3"],
        snapshot={"turn": {"seat": "p1"}, "cells": [1.5, None, True]},
        seat_tokens={"p1": ("Ann", "hash-1"), "p2": ("Bob", "hash-2"), "p3": ("Cy", "hash-3")},
        lobby={"host": "p1"},
        deal_kind="winnable",
    )
    with store.engine.begin() as conn:
        conn.execute(update(seats).where(seats.c.seat == "p2").values(connected=1, bot="easy", kept=1, bot_since=4))
        conn.execute(update(seats).where(seats.c.seat == "p3").values(gone=1, bot_played=1, origin="o"))
        conn.execute(update(games).values(turn_key="p1:2", turn_started_at=10, turn_deadline=70.5))
    return game_id


def core_reads(store: Store, game_id: str) -> tuple[GameRecord, list[SeatRecord], dict[str, str]]:
    """The game and its seats as SQLAlchemy Core reads them, its rows' values converted as Core converts them."""
    with store.engine.connect() as conn:
        game = store._record(conn.execute(_LOAD_GAME.statement, {"game_id": game_id}).mappings().one())
        rows = conn.execute(_SEATS.statement, {"game_id": game_id}).mappings().all()
    flags = ("connected", "gone", "kept", "bot_played")
    seat_records = [
        SeatRecord(**{name: bool(row[name]) if name in flags else row[name] for name in row if name != "token_hash"})
        for row in rows
    ]
    return game, seat_records, {row["seat"]: row["token_hash"] for row in rows}


def test_a_game_and_its_seats_read_as_sqlalchemy_core_reads_them(store):
    game_id = a_table(store)
    store.append(
        game_id, expected_version=0, seat="p1", action={"type": "end_turn"}, snapshot={"x": 1}, result={"winner": "p1"}
    )
    with store.engine.begin() as conn:  # the ending action marked every seat gone: the mix of flags again
        conn.execute(update(seats).where(seats.c.seat != "p3").values(gone=0))
    game, seat_records, hashes = core_reads(store, game_id)
    assert store.load(game_id) == game
    assert store.game_and_seats(game_id) == (game, seat_records, hashes)
    assert store.seats_and_hashes(game_id) == (seat_records, hashes)
    assert store.load(game_id, snapshot=False) == GameRecord(**{**game.__dict__, "snapshot": None})
    assert [(s.connected, s.kept, s.gone, s.bot_played) for s in seat_records] == [
        (False, False, False, False),
        (True, True, False, False),
        (False, False, True, True),
    ]
    assert all(type(flag) is bool for s in seat_records for flag in (s.connected, s.gone, s.kept, s.bot_played))
    assert game.turn_started_at == 10.0 and type(game.turn_started_at) is float
    assert (game.result, game.status, game.seed, game.deal_kind) == (
        {"winner": "p1"},
        "finished",
        2**40 + 3,
        "winnable",
    )
    assert store.load("no-such-game") is None
    assert store.game_and_seats("no-such-game") == (None, [], {})


def test_an_appended_action_is_committed_when_append_returns(store):
    game_id = a_table(store)
    elsewhere = Store(store.engine.url.render_as_string(hide_password=False))  # another process's pool
    try:
        version, revision = store.append(
            game_id,
            expected_version=0,
            seat="p1",
            action={"type": "move", "to": [1, 2]},
            snapshot={"turn": {"seat": "p2"}},
            result=None,
            clock=("p2:1", 100, 160.0),
        )
        seen = elsewhere.load(game_id)
        assert seen is not None
        assert (seen.version, seen.revision, seen.snapshot) == (version, revision, {"turn": {"seat": "p2"}})
        assert (seen.turn_key, seen.turn_started_at, seen.turn_deadline) == ("p2:1", 100.0, 160.0)
        assert elsewhere.actions(game_id) == [(1, "p1", {"type": "move", "to": [1, 2]})]
        with elsewhere.engine.connect() as conn:
            # The columns an action is not written with keep their defaults.
            assert conn.execute(select(actions.c.bot, actions.c.log_span)).all() == [(0, None)]
    finally:
        elsewhere.engine.dispose()


def test_a_clash_in_the_log_is_a_stale_version_and_writes_nothing(store):
    game_id = a_table(store)
    with store.engine.begin() as conn:  # seq 1 logged already, the game's version not bumped
        conn.execute(insert(actions).values(game_id=game_id, seq=1, seat="p2", action="{}", created_at=0.0))
    with pytest.raises(StaleVersion):
        store.append(game_id, expected_version=0, seat="p1", action={"type": "end_turn"}, snapshot={}, result=None)
    record = store.load(game_id)
    assert record is not None and (record.version, record.revision) == (0, 0)
    assert store.actions(game_id) == [(1, "p2", {})]


@pytest.mark.postgres
def test_a_connection_lost_mid_read_is_not_lent_again(postgres_url):
    store = Store(postgres_url)
    try:
        game_id = a_table(store)
        with store.engine.connect() as conn:
            pid = conn.execute(text("SELECT pg_backend_pid()")).scalar()
        with psycopg.connect(store.engine.url.set(drivername="postgresql").render_as_string(False)) as other:
            other.execute("SELECT pg_terminate_backend(%s)", (pid,))
        with pytest.raises(DBAPIError) as raised:
            store.load(game_id, snapshot=False)
        assert raised.value.connection_invalidated
        record = store.load(game_id, snapshot=False)
        assert record is not None and record.id == game_id
    finally:
        store.engine.dispose()
