"""Server CPU per action inside one process, without HTTP, sockets or an event loop: what the app
itself spends on an action of ``benchmarks/load.py``'s table (The Dungeon of Doom, four seats,
every seat's page taking pushed boards) — the POST, its commit and every other page's push.

``load.py`` measures the served process (gunicorn, gevent, real sockets) and is the figure the
goals are stated in; this one isolates the application's share of it, repeats to within a few per
cent, and takes a profile (``--profile``) of exactly that share, so an optimisation of the render
or the read path can be weighed in seconds. Actions are the load generator's: the seat on turn
moves (70 %) or ends its turn, and one in ten is a walk into a wall (refused, 422).

    .venv/bin/python benchmarks/action_cost.py [--actions 2000] [--tables 4] [--profile]
"""

from __future__ import annotations

import argparse
import cProfile
import json
import os
import pstats
import random
import re
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))
os.environ.setdefault("SECRET_KEY", "benchmark")

from render_speed import csrf_of, open_game  # noqa: E402

from webapp import create_app, socketio  # noqa: E402
from webapp.domain import play  # noqa: E402

SEATS = 4
ILLEGAL = 0.10
FORM = {"map_choice": "hollow-undercroft", "max_players": str(SEATS), "turn_seconds": "0"}
VIEWER = re.compile(r'data-viewer="([^"]+)"')
LOG_SEEN = re.compile(r'id="log-seen" name="log_seen" value="(\d+)"')
REVISION = re.compile(r'data-revision="(\d+)"')


class Table:
    """One four-seat table: each seat a browser (HTTP client) with a page that takes pushed boards."""

    def __init__(self, app, seed: int):
        self.app = app
        self.store = app.extensions["delve_store"]
        self.game_id, self.clients = open_game(app, "dungeon-of-doom", FORM, SEATS, seed=seed)
        self.seats = [f"p{i + 1}" for i in range(SEATS)]
        self.sockets = []
        self.csrf = {}
        for seat, client in zip(self.seats, self.clients):
            page = client.get(f"/g/{self.game_id}").get_data(as_text=True)
            self.csrf[seat] = csrf_of(page)
            sio = socketio.test_client(app, flask_test_client=client)
            message = {
                "game": self.game_id,
                "revision": int(REVISION.search(page).group(1)),
                "boards": True,
                "log_seen": int(LOG_SEEN.search(page).group(1)),
                "viewer": VIEWER.search(page).group(1),
            }
            assert sio.emit("watch", message, callback=True)["ok"]
            self.sockets.append(sio)
        self.rng = random.Random(seed)

    def socket_id(self, index: int) -> str:
        sio = self.sockets[index]
        return sio.socketio.server.manager.sid_from_eio_sid(sio.eio_sid, "/")

    def step(self) -> int:
        """One action of the seat on turn, posted as its page posts it: its HTTP status."""
        game = play.load_game(self.store, self.game_id)
        if game.rules.result(game.state) is not None:
            return 0
        seat = game.state["turn"]["seat"]
        index = self.seats.index(seat)
        offered = [a for a in game.rules.legal_actions(game.state, seat) if a["type"] in ("move", "end_turn")]
        moves = [a for a in offered if a["type"] == "move"]
        walls = [d for d in "NESW" if d not in {a["dir"] for a in moves}]
        if walls and self.rng.random() < ILLEGAL:
            action = {"type": "move", "dir": self.rng.choice(walls)}
        else:
            action = self.rng.choice(moves) if moves and self.rng.random() < 0.7 else {"type": "end_turn"}
        response = self.clients[index].post(
            f"/g/{self.game_id}/act",
            data={"version": str(game.version), "action": json.dumps(action), "csrf_token": self.csrf[seat]},
            headers={"HX-Request": "true", "X-Delve-Socket": self.socket_id(index)},
        )
        for sio in self.sockets:
            sio.get_received()
        return response.status_code


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--actions", type=int, default=2000, help="actions posted (default 2000)")
    parser.add_argument("--tables", type=int, default=4, help="tables played in turn (default 4)")
    parser.add_argument("--profile", action="store_true", help="print a cProfile of the measured actions")
    args = parser.parse_args()
    workdir = tempfile.mkdtemp(prefix="delve-action-cost-")
    app = create_app(
        {
            "TESTING": True,  # pushes rendered at once, in this thread (no background task)
            "DATABASE_URL": f"sqlite:///{workdir}/delve.sqlite3",
            "LOG_LEVEL": "WARNING",
            "RATE_LIMITS": False,
            "BACKGROUND_JOBS": False,
            "OVERLOAD_LAG_MS": 0,
        }
    )
    tables = [Table(app, seed=seed) for seed in range(1, args.tables + 1)]
    for table in tables:  # warm: templates compiled, caches filled
        for _ in range(20):
            table.step()
    pushes = app.extensions["delve_board_pushes"]
    counts_before = dict(pushes.counts)
    statuses: dict[int, int] = {}
    profiler = cProfile.Profile() if args.profile else None
    cpu0, wall0 = time.process_time(), time.perf_counter()
    if profiler:
        profiler.enable()
    for i in range(args.actions):
        status = tables[i % len(tables)].step()
        statuses[status] = statuses.get(status, 0) + 1
    if profiler:
        profiler.disable()
    cpu, wall = time.process_time() - cpu0, time.perf_counter() - wall0
    accepted = statuses.get(200, 0)
    counts = {key: pushes.counts[key] - counts_before[key] for key in pushes.counts}
    print(f"actions posted: {args.actions} ({', '.join(f'{k}: {v}' for k, v in sorted(statuses.items()))})")
    print(f"boards pushed: rendered {counts['rendered']}, unchanged {counts['unchanged']}")
    print(f"CPU per accepted action: {cpu / accepted * 1000:.2f} ms (wall {wall / accepted * 1000:.2f} ms)")
    print("(the harness's own reads of the game to choose each move are included, as a client's would not be)")
    if profiler:
        stats = pstats.Stats(profiler)
        stats.sort_stats("cumulative").print_stats(45)
        stats.sort_stats("tottime").print_stats(30)


if __name__ == "__main__":
    main()
