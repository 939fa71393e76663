"""Server time of one replay step (GET /g/<id>/replay?step=N) of a long finished game.

A game of at least ``--actions`` actions is played by seeded random legal moves in the engine
(never a seat's way out until the length is reached, then out), imported through the route a
browser uses (POST /replays/import: the engine replays and stores it), and its replay is asked for
steps in a seeded random order: the first request of a process rebuilds the history and keeps a
checkpoint every 32 steps, every later step is at most 31 applies away from one. Timed in-process
through the WSGI test client on a real SQLite file; the page (whole HTML) and the htmx block.

    .venv/bin/python benchmarks/replay_speed.py [--actions 500] [--requests 200]
"""

from __future__ import annotations

import argparse
import io
import json
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

import rules_engine  # noqa: E402
from webapp import create_app  # noqa: E402
from webapp.domain import history as replays  # noqa: E402
from webapp.domain.catalog import BY_SLUG, parse_options  # noqa: E402

CSRF = re.compile(r'name="csrf_token" value="([^"]+)"')
WAYS_OUT = {"leave", "leave_game", "resign", "give_up", "exit"}

# (label, slug, options, players)
GAMES = [
    ("Shuffle and Doom! 26 × 26", "shuffle-and-doom", {"size": "26"}, ["p1"]),
    ("Dungeon of Doom, 4 players (Hollow Undercroft)", "dungeon-of-doom", {"map_choice": "hollow-undercroft"}, None),
]


def long_game(slug: str, options: dict, players: list[str], length: int, seed: int) -> dict | None:
    """A finished game of at least ``length`` actions as a replay file, or None if this seed's
    game ended sooner."""
    rules = rules_engine.get(slug)
    rng = random.Random(seed)
    state = rules.new_game(seed, players, options)
    moves: list[dict] = []
    while rules.result(state) is None and len(moves) < length * 4:
        choices = [(seat, a) for seat in players for a in rules.legal_actions(state, seat)]
        if not choices:
            return None
        staying = [(s, a) for s, a in choices if a["type"] not in WAYS_OUT]
        leaving = [(s, a) for s, a in choices if a["type"] in WAYS_OUT]
        pool = staying if len(moves) < length or not leaving else leaving
        seat, action = rng.choice(pool or choices)
        state = rules.apply(state, seat, action)
        moves.append({"seat": seat, "action": action})
    if rules.result(state) is None or len(moves) < length:
        return None
    return {
        "format": replays.EXPORT_FORMAT,
        "version": replays.EXPORT_VERSION,
        "game": slug,
        "options": options,
        "seed": seed,
        "players": players,
        "actions": moves,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--actions", type=int, default=500)
    parser.add_argument("--requests", type=int, default=200)
    args = parser.parse_args()
    workdir = tempfile.mkdtemp(prefix="delve-replay-bench-")
    app = create_app(
        {"TESTING": True, "DATABASE_URL": f"sqlite:///{workdir}/delve.sqlite3", "RATELIMIT_ENABLED": False}
    )
    rows = []
    for label, slug, form, players in GAMES:
        players = players or ["p1", "p2", "p3", "p4"]
        options = parse_options(BY_SLUG[slug], form)
        document = None
        for seed in range(1, 400):
            try:
                document = long_game(slug, options, players, args.actions, seed)
            except rules_engine.InvalidAction as error:
                sys.exit(f"{label}: {error}")
            if document:
                break
        if document is None:
            print(f"{label}: no seed gave a game of {args.actions} actions; skipped")
            continue
        client = app.test_client()
        csrf = CSRF.search(client.get("/replays/import").get_data(as_text=True)).group(1)
        started = time.perf_counter()
        response = client.post(
            "/replays",
            data={"csrf_token": csrf, "file": (io.BytesIO(json.dumps(document).encode()), "game.json")},
            content_type="multipart/form-data",
        )
        imported_s = time.perf_counter() - started
        assert response.status_code == 303, response.get_data(as_text=True)[:500]
        path = response.headers["Location"].split("?")[0]
        steps = len(document["actions"])
        app.extensions["delve_histories"] = replays.Histories()  # the first step below rebuilds, as in a fresh process
        rng = random.Random(7)
        order = [rng.randrange(steps + 1) for _ in range(args.requests)]
        started = time.perf_counter()
        assert client.get(f"{path}?step={order[0]}").status_code == 200
        first_s = time.perf_counter() - started
        timings: dict[str, list[float]] = {"page": [], "htmx block": []}
        for i, step in enumerate(order[1:]):
            kind = "page" if i % 2 else "htmx block"
            headers = {"HX-Request": "true"} if kind == "htmx block" else {}
            started = time.perf_counter()
            response = client.get(f"{path}?step={step}", headers=headers)
            timings[kind].append(time.perf_counter() - started)
            assert response.status_code == 200
        for kind, samples in timings.items():
            s = summary_us(samples)
            rows.append([label, steps, kind, f"{first_s * 1e3:.1f}", s["p50"] / 1e3, s["p95"] / 1e3, s["p99"] / 1e3])
        print(f"{label}: {steps} actions, imported (replayed and stored) in {imported_s * 1e3:.0f} ms")
    print_table(
        "Replay step, server time (ms)",
        ["game", "actions", "answer", "first step (rebuild) ms", "p50", "p95", "p99"],
        rows,
    )


if __name__ == "__main__":
    main()
