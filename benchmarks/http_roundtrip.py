"""Server time of POST /g/<id>/act beside a bare Flask route returning a fragment of the same size.

Both are timed in-process through the WSGI test client (no sockets), so the ratio is the
cost of Delve's work per action: load the game, check seat/CSRF/version, apply, append to a
real SQLite file, render this seat's fragments, ring the doorbell.

    .venv/bin/python benchmarks/http_roundtrip.py [--actions 2000]
"""

from __future__ import annotations

import argparse
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
from flask import Flask  # noqa: E402

import rules_engine  # noqa: E402
from webapp import create_app  # noqa: E402

CSRF = re.compile(r'name="csrf_token" value="([^"]+)"')


def delve_samples(n_actions: int, size: int, slug: str = "shuffle-and-doom") -> tuple[list[float], int]:
    workdir = tempfile.mkdtemp()
    # Rate limits off: one client posting as fast as it can is the point here.
    app = create_app(
        {
            "DATABASE_URL": f"sqlite:///{workdir}/bench.sqlite3",
            "LOG_LEVEL": "WARNING",
            "RATE_LIMITS": False,
            "BACKGROUND_JOBS": False,
        }
    )
    store = app.extensions["delve_store"]
    rules = rules_engine.get(slug)
    rng = random.Random(7)
    samples, sizes = [], []
    while len(samples) < n_actions:
        client = app.test_client()
        csrf = CSRF.search(client.get("/").get_data(as_text=True)).group(1)
        form = {"game": slug, "csrf_token": csrf, **({"size": str(size)} if slug == "shuffle-and-doom" else {})}
        location = client.post("/games", data=form).headers["Location"]
        game_id = location.rsplit("/", 1)[-1]
        version = 0
        while len(samples) < n_actions:
            state = rules.load(store.load(game_id).snapshot)
            if rules.result(state) is not None:
                break
            actions = [a for a in rules.legal_actions(state, "p1") if a["type"] not in ("resign", "leave_game")]
            non_moves = [a for a in actions if a["type"] != "move"]
            action = rng.choice(non_moves if non_moves and rng.random() < 0.6 else actions)
            data = {"csrf_token": csrf, "version": str(version), "action": json.dumps(action), "log_seen": "0"}
            t0 = time.perf_counter()
            response = client.post(f"/g/{game_id}/act", data=data, headers={"HX-Request": "true"})
            body = response.get_data()
            samples.append(time.perf_counter() - t0)
            assert response.status_code == 200, body[:300]
            sizes.append(len(body))
            version += 1
    return samples, int(sum(sizes) / len(sizes))


def floor_samples(n: int, size: int) -> list[float]:
    app = Flask("floor")
    fragment = "x" * size

    @app.post("/act")
    def act():
        return fragment

    client = app.test_client()
    samples = []
    for _ in range(n):
        t0 = time.perf_counter()
        client.post("/act", data={"action": '{"type":"move","dir":"E"}', "version": "1"}).get_data()
        samples.append(time.perf_counter() - t0)
    return samples


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--actions", type=int, default=2000)
    parser.add_argument("--size", type=int, default=7)
    parser.add_argument("--game", action="append", help="solo game slugs (default: all three)")
    args = parser.parse_args()
    rows = []
    for slug in args.game or ["shuffle-and-doom", "clear-the-dungeon", "hebracs-dungeon"]:
        delve, fragment_size = delve_samples(args.actions, args.size, slug)
        floor = floor_samples(args.actions, fragment_size)
        d, f = summary_us(delve), summary_us(floor)
        label = f"{slug} ({args.size}x{args.size})" if slug == "shuffle-and-doom" else slug
        rows.append(
            [
                label,
                f"{fragment_size:,}",
                d["p50"],
                d["p95"],
                f["p50"],
                f["p95"],
                f"{d['p50'] / f['p50']:.1f}x",
                f"{d['p95'] / f['p95']:.1f}x",
            ]
        )
    print_table(
        "POST /g/<id>/act server time beside a bare Flask route returning a body of the same size (µs)",
        ["game", "fragment bytes", "Delve p50", "Delve p95", "floor p50", "floor p95", "ratio p50", "ratio p95"],
        rows,
    )
    print("\ntarget ratio ≤ 1.5x")


if __name__ == "__main__":
    main()
