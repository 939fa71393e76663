"""The background loops (turn timeouts, slow turns' reminders, absent seats, bots) read the games in
play, never the history: every process asks them every second or quarter second, and a deployment
keeps every finished and abandoned game (issue 24's capacity model)."""

from __future__ import annotations

import time

import pytest
from sqlalchemy import event, insert, select, update

import rules_engine
from tests.web.test_bots import play_now
from webapp.domain import play
from webapp.storage.schema import games, seats
from webapp.storage.store import Store


def history(store, live_game_id: str, count: int = 40) -> None:
    """Games nobody plays any more, copied from a live table's rows: finished tables (their seats
    gone, as the action that ended them left them) and abandoned solo games, still running, without
    a turn, their player's seat gone once the presence loop found it away."""
    with store.engine.begin() as conn:
        game = dict(conn.execute(select(games).where(games.c.id == live_game_id)).mappings().one())
        table_seats = [
            dict(row) for row in conn.execute(select(seats).where(seats.c.game_id == live_game_id)).mappings()
        ]
        for n in range(count):
            finished, abandoned = f"finished-{n}", f"abandoned-{n}"
            cleared = dict(turn_key=None, turn_started_at=None, turn_deadline=None)
            conn.execute(insert(games).values({**game, **cleared, "id": finished, "status": "finished"}))
            conn.execute(
                insert(seats), [{**row, "game_id": finished, "connected": 0, "gone": 1} for row in table_seats]
            )
            conn.execute(insert(games).values({**game, **cleared, "id": abandoned, "slug": "shuffle-and-doom"}))
            solo_seat = {**table_seats[0], "game_id": abandoned, "connected": 0, "bot": None, "gone": 1}
            conn.execute(insert(seats).values(solo_seat))


def statements_of(store, call) -> list[tuple[str, tuple]]:
    seen: list[tuple[str, tuple]] = []

    def note(_conn, _cursor, statement, parameters, *_rest):
        if statement.lstrip().upper().startswith("SELECT"):
            seen.append((statement, parameters))

    event.listen(store.engine, "before_cursor_execute", note)
    try:
        call()
    finally:
        event.remove(store.engine, "before_cursor_execute", note)
    assert seen
    return seen


def test_each_loops_query_starts_from_an_index_of_the_games_in_play(app, store, seat_client):
    player = play_now(seat_client, bots="1")
    history(store, player.game_id)
    now = time.time()
    loops = {
        "bot tables": store.bot_tables,
        "abandoned bots": lambda: store.abandoned_bot_seats(now),
        "absent seats": lambda: store.absent_seats(now + 3600),
        "due turns": lambda: store.due_turns(now + 3600),
        "reminders": lambda: store.claim_reminders(now, from_seconds=1, left_fraction=1.0),
    }
    for name, call in loops.items():
        for statement, parameters in statements_of(store, call):
            with store.engine.connect() as conn:
                plan = [row[3] for row in conn.exec_driver_sql(f"EXPLAIN QUERY PLAN {statement}", parameters)]
            assert any("USING INDEX ix_" in step for step in plan), (name, plan)
            assert not [step for step in plan if step.startswith("SCAN")], (name, plan)


def test_the_loops_find_the_games_in_play_and_nothing_of_the_history(app, store, seat_client):
    player = play_now(seat_client, bots="1")
    history(store, player.game_id)
    assert list(store.bot_tables()) == [player.game_id]
    everyone_away = time.time() + 10 * 24 * 3600
    assert {game for game, _seat in store.absent_seats(everyone_away)} == {player.game_id}
    assert store.abandoned_bot_seats(everyone_away) == []
    store.mark_gone(player.game_id, "p1")  # the only person left the table: its bots are abandoned
    assert {game for game, _seat in store.abandoned_bot_seats(everyone_away)} == {player.game_id}
    with store.engine.begin() as conn:  # every turn timed out long ago
        conn.execute(update(games).values(turn_started_at=1.0, turn_deadline=100.0))
    assert store.due_turns(time.time()) == [player.game_id]


def test_the_action_that_ends_a_table_marks_its_seats_gone(app, store, seat_client):
    player = play_now(seat_client, bots="1")
    game = play.load_game(store, player.game_id)
    assert not any(s.gone for s in store.seats(player.game_id))
    service = app.extensions["delve_service"]
    for seat in ("p1", "p2"):  # everyone leaves the dungeon: the game is over
        assert store.load(player.game_id).status == "running"
        game = service.act(game, seat, {"type": "leave"})
    assert store.load(player.game_id).status == "finished"
    assert all(s.gone for s in store.seats(player.game_id))


def test_a_finished_table_keeps_no_running_turn():
    """What keeps the turns' index to the games in play: the clock an ending action stores is empty."""
    rules = rules_engine.get("dungeon-of-doom")
    state = rules.new_game(7, ["p1", "p2"], {})
    for seat in ("p1", "p2"):
        state = rules.apply(state, seat, dict(rules.absence_action))
    assert rules.result(state) is not None
    assert play.clock_after(rules, state, None, time.time()) == (None, None, None)


@pytest.mark.postgres
def test_the_running_turns_are_read_alike_on_postgresql(postgres_url):
    store = Store(postgres_url)
    try:
        live, _token = play.start_game(store, "dungeon-of-doom", {})
        history(store, live)
        now = time.time()
        with store.engine.begin() as conn:  # a turn of a minute, started now
            running = dict(turn_key="p1:1", turn_started_at=now, turn_deadline=now + 60)
            conn.execute(update(games).where(games.c.id == live).values(**running))
        assert store.bot_tables() == {}  # no bot at that table
        assert store.due_turns(time.time() + 3600) == [live]
        assert store.due_turns(time.time()) == []
        # Its seat has no page open, so the last quarter of its turn is reminded, once.
        assert store.claim_reminders(now + 50, from_seconds=30, left_fraction=0.25) == [(live, "p1", now + 60)]
        assert store.claim_reminders(now + 51, from_seconds=30, left_fraction=0.25) == []
    finally:
        store.engine.dispose()
