"""What the background loops cost a process as the stored history grows: every second each server
process asks which turns are due or nearly due (timeouts, slow turns' reminders), which seats are
away and which bots were left alone, and four times a second which tables have bots to play.

A store holds ``--tables`` live four-seat Dungeon of Doom tables (one seat each a bot's, every turn
running) and ``--history`` games nobody plays any more: two in three finished solo games, one in
six finished tables, one in six abandoned solo games (still running, their player's seat gone),
with their seats as the app leaves them. Each loop's query is timed (best of ``--repeat``) and the
CPU a second the loops take is printed: it should stay flat whatever the history.

    .venv/bin/python benchmarks/background_loops.py [--history 220000] [--tables 60] [--database-url URL]
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from sqlalchemy import insert, select, update  # noqa: E402

from webapp.domain import play  # noqa: E402
from webapp.storage.schema import games, seats  # noqa: E402
from webapp.storage.store import Store  # noqa: E402

BATCH = 5000
BOT_TICKS_PER_SECOND = 4  # webapp/domain/bots.py TICK_SECONDS = 0.25


def fill(store: Store, tables: int, history: int) -> None:
    now = time.time()
    model_id, _token = play.start_game(store, "dungeon-of-doom", {})
    with store.engine.begin() as conn:
        model = dict(conn.execute(select(games).where(games.c.id == model_id)).mappings().one())
        seat = dict(conn.execute(select(seats).where(seats.c.game_id == model_id)).mappings().one())
        model["snapshot"] = "{}"
        live = dict(turn_key="p1:1", turn_started_at=now, turn_deadline=now + 3600)
        cleared = dict(turn_key=None, turn_started_at=None, turn_deadline=None)
        for n in range(tables):
            conn.execute(insert(games).values({**model, **live, "id": f"table-{n}"}))
            conn.execute(
                insert(seats),
                [
                    {
                        **seat,
                        "game_id": f"table-{n}",
                        "seat": f"p{k}",
                        "connected": 1,
                        "bot": "easy" if k == 4 else None,
                    }
                    for k in range(1, 5)
                ],
            )
        game_rows, seat_rows = [], []
        for n in range(history):
            kind = ("solo", "solo", "solo", "solo", "table", "abandoned")[n % 6]
            game_id = f"past-{kind}-{n}"
            status = "running" if kind == "abandoned" else "finished"
            game_rows.append({**model, **cleared, "id": game_id, "status": status})
            count = 4 if kind == "table" else 1
            seat_rows += [{**seat, "game_id": game_id, "seat": f"p{k}", "gone": 1} for k in range(1, count + 1)]
            if len(game_rows) >= BATCH or n == history - 1:
                conn.execute(insert(games), game_rows)
                conn.execute(insert(seats), seat_rows)
                game_rows, seat_rows = [], []
        conn.execute(update(games).where(games.c.id == model_id).values(status="finished"))


def timed(call, repeat: int) -> float:
    call()
    best = float("inf")
    for _ in range(repeat):
        start = time.process_time()
        call()
        best = min(best, time.process_time() - start)
    return best * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--history", type=int, default=220_000, help="games nobody plays any more (default 220000)")
    parser.add_argument("--tables", type=int, default=60, help="live four-seat tables (default 60)")
    parser.add_argument("--repeat", type=int, default=20, help="timed runs of each query; the best is kept")
    parser.add_argument("--database-url", help="an empty database (default: a new SQLite file)")
    args = parser.parse_args()
    url = args.database_url or f"sqlite:///{tempfile.mkdtemp(prefix='delve-loops-')}/delve.sqlite3"
    store = Store(url)
    started = time.perf_counter()
    fill(store, args.tables, args.history)
    print(
        f"stored {args.tables} live tables and {args.history} games of history in {time.perf_counter() - started:.0f} s"
    )
    now = time.time()
    loops = [
        ("bot tables (4 a second)", BOT_TICKS_PER_SECOND, store.bot_tables),
        ("due turns", 1, lambda: store.due_turns(now)),
        ("absent seats", 1, lambda: store.absent_seats(now - 120)),
        ("abandoned bots", 1, lambda: store.abandoned_bot_seats(now - 3600)),
        ("slow turns' reminders", 1, lambda: store.claim_reminders(now, from_seconds=3600, left_fraction=0.25)),
    ]
    total = 0.0
    print("| loop query | ms CPU a call | ms CPU a second |")
    print("|---|---|---|")
    for name, per_second, call in loops:
        cost = timed(call, args.repeat)
        total += cost * per_second
        print(f"| {name} | {cost:.2f} | {cost * per_second:.2f} |")
    print(f"| **all loops** | | **{total:.1f}** ({total / 10:.1f} % of a core) |")
    store.engine.dispose()


if __name__ == "__main__":
    main()
