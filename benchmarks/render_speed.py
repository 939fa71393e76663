"""Server time of one viewer's board fragment (GET /g/<id>/board with HX-Request) per game, and
the part of it spent rendering the Jinja blocks, with the SQL statements each request runs.

Every action costs one such render for the player who acts and one for each other seated player
when the push makes their pages refetch (spectators share one cached render), so this is most of
an action's server time. Timed in-process through the WSGI test client on a real SQLite file.
Each game is made with a fixed seed, its other seats join through the routes a browser uses, and
it is advanced by seeded random legal actions (never a seat's way out): the boards are mid-game
and the same on every run, so figures from two versions of the templates compare.

    .venv/bin/python benchmarks/render_speed.py [--renders 100]
"""

from __future__ import annotations

import argparse
import os
import random
import re
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))
os.environ.setdefault("SECRET_KEY", "benchmark")

from _common import print_table, summary_us  # noqa: E402
from push_latency import PARTY_CLASSES  # noqa: E402
from sqlalchemy import event  # noqa: E402

from webapp import create_app  # noqa: E402
from webapp.domain import play  # noqa: E402
from webapp.domain.catalog import BY_SLUG, parse_options  # noqa: E402
from webapp.pages import board, viewer  # noqa: E402

CSRF = re.compile(r'name="csrf_token" value="([^"]+)"|"X-CSRF-Token": "([^"]+)"')
LOG_SEEN = re.compile(r'id="log-seen" name="log_seen" value="(\d+)"')
HX = {"HX-Request": "true"}
EXITS = {"leave", "leave_game", "resign"}

# (label, slug, creation form, seated players (0: a solo game), random actions before timing,
#  whether everyone then leaves: a finished game's page, where every viewer sees the whole map)
FRAGMENTS = [
    (
        "Dungeon of Doom, 8 players (Flooded Crypt), a player",
        "dungeon-of-doom",
        {"map_choice": "flooded-crypt", "max_players": "8", "turn_seconds": "0"},
        8,
        24,
    ),
    (
        "Dungeon of Doom, 4 players (Hollow Undercroft), a player",
        "dungeon-of-doom",
        {"map_choice": "hollow-undercroft", "max_players": "4", "turn_seconds": "120"},
        4,
        24,
    ),
    (
        "Dungeon of Doom, game over: the whole 41 × 27 map",
        "dungeon-of-doom",
        {"map_choice": "hollow-undercroft", "max_players": "4", "turn_seconds": "0"},
        4,
        24,
        True,
    ),
    ("Dungeon Cards, party of 5, a player", "dungeon-cards", {"turn_seconds": "90"}, 5, 15),
    (
        "Dungeon Cards, solo 20 × 18 with walls",
        "dungeon-cards",
        {
            "board_size": "custom",
            "board_width": "20",
            "board_height": "18",
            "random_stop_walls": "12",
            "random_redirects": "8",
        },
        1,
        6,
    ),
    ("Shuffle and Doom! 7 × 7", "shuffle-and-doom", {"size": "7"}, 0, 6),
    ("Shuffle and Doom! 13 × 13", "shuffle-and-doom", {"size": "13"}, 0, 6),
    ("Clear the Dungeon", "clear-the-dungeon", {}, 0, 4),
    ("Hebrac's Dungeon", "hebracs-dungeon", {}, 0, 4),
]


def csrf_of(html: str) -> str:
    match = CSRF.search(html)
    return match.group(1) or match.group(2)


def open_game(app, slug: str, form: dict, players: int, seed: int):
    """The game's id and one test client per seat (p1 first). The game is created with a fixed
    seed (the creation route draws a secret one), the other seats join through the routes."""
    store = app.extensions["delve_store"]
    entry = BY_SLUG[slug]
    options = parse_options(entry, form)
    if entry.solo:
        game_id, token = play.start_game(store, slug, options, seed=seed)
    else:
        game_id, token = play.open_table(store, slug, options, name="P1", seed=seed)
    host = app.test_client()
    host.set_cookie(viewer.SEAT_COOKIE_NAME, token, path=f"/g/{game_id}")
    clients = [host]
    for i in range(2, players + 1):
        client = app.test_client()
        csrf = csrf_of(client.get(f"/g/{game_id}").get_data(as_text=True))
        client.post(f"/g/{game_id}/join", data={"csrf_token": csrf, "name": f"P{i}"})
        clients.append(client)
    if slug == "dungeon-cards":
        for client, cls in zip(clients, PARTY_CLASSES if players > 1 else ["ninja"]):
            csrf = csrf_of(client.get(f"/g/{game_id}").get_data(as_text=True))
            client.post(f"/g/{game_id}/lobby", data={"csrf_token": csrf, "classes": cls})
    if not entry.solo:
        csrf = csrf_of(host.get(f"/g/{game_id}").get_data(as_text=True))
        host.post(f"/g/{game_id}/start", data={"csrf_token": csrf})
    return game_id, clients


def advance(store, game_id: str, seats: list[str], actions: int, rng: random.Random) -> None:
    """Seeded random legal actions of whoever may act, stored as the routes store them."""
    for _ in range(actions):
        game = play.load_game(store, game_id)
        if game.rules.result(game.state) is not None:
            return
        movers = [
            (seat, a) for seat in seats for a in game.rules.legal_actions(game.state, seat) if a["type"] not in EXITS
        ]
        non_moves = [m for m in movers if m[1]["type"] != "move"]
        seat, action = rng.choice(non_moves if non_moves and rng.random() < 0.5 else movers)
        play.act(store, game, seat, action)


def everyone_leaves(store, game_id: str, seats: list[str]) -> None:
    """Each seat in turn takes its way out, which ends the game."""
    for seat in seats:
        game = play.load_game(store, game_id)
        exits = [a for a in game.rules.legal_actions(game.state, seat) if a["type"] in EXITS]
        if exits:
            play.act(store, game, seat, exits[0])


def measure(app, slug: str, form: dict, players: int, actions: int, renders: int, finish: bool = False):
    store = app.extensions["delve_store"]
    game_id, clients = open_game(app, slug, form, players, seed=1)
    seats = [f"p{i + 1}" for i in range(max(players, 1))]
    advance(store, game_id, seats, actions, random.Random(1))
    if finish:
        everyone_leaves(store, game_id, seats)
    # Seat p2 when there is one: the host's page is no different, but p2 is the usual pushed-to page.
    client = clients[1] if len(clients) > 1 else clients[0]
    body = client.get(f"/g/{game_id}/board", headers=HX).get_data(as_text=True)
    log_seen = LOG_SEEN.search(body).group(1)

    render_times: list[float] = []
    real_render = board.render_blocks

    def timed_render(*args, **kwargs):
        t0 = time.perf_counter()
        try:
            return real_render(*args, **kwargs)
        finally:
            render_times.append(time.perf_counter() - t0)

    statements = [0]

    def count(*_args):
        statements[0] += 1

    board.render_blocks = timed_render
    event.listen(store.engine, "before_cursor_execute", count)
    try:
        for _ in range(5):  # warm: templates compiled, caches filled
            client.get(f"/g/{game_id}/board", headers=HX, query_string={"log_seen": log_seen})
        render_times.clear()
        statements[0] = 0
        samples = []
        for _ in range(renders):
            t0 = time.perf_counter()
            response = client.get(f"/g/{game_id}/board", headers=HX, query_string={"log_seen": log_seen})
            body = response.get_data()
            samples.append(time.perf_counter() - t0)
            assert response.status_code == 200, body[:300]
    finally:
        board.render_blocks = real_render
        event.remove(store.engine, "before_cursor_execute", count)
    return summary_us(samples), summary_us(render_times), len(body), statements[0] / renders


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--renders", type=int, default=100)
    args = parser.parse_args()
    workdir = tempfile.mkdtemp()
    app = create_app(
        {
            "DATABASE_URL": f"sqlite:///{workdir}/render.sqlite3",
            "LOG_LEVEL": "WARNING",
            "RATE_LIMITS": False,
            "BACKGROUND_JOBS": False,
        }
    )
    rows = []
    for label, slug, form, players, actions, *finish in FRAGMENTS:
        request, render, size, statements = measure(app, slug, form, players, actions, args.renders, *finish)
        rows.append(
            [
                label,
                f"{size:,}",
                request["p50"] / 1000,
                request["p95"] / 1000,
                render["p50"] / 1000,
                render["p95"] / 1000,
                f"{statements:.1f}",
            ]
        )
    print_table(
        "GET /g/<id>/board (HX-Request) of a seated player: whole request and its Jinja render (ms)",
        ["fragment", "bytes", "request p50", "request p95", "render p50", "render p95", "SQL per request"],
        [[r[0], r[1], *(f"{x:.2f}" for x in r[2:6]), r[6]] for r in rows],
    )


if __name__ == "__main__":
    main()
