"""Render every page and board fragment of a set of seeded games, for every seat and a spectator
at every step, into a folder: run it before and after a change to the templates, presenters or
views, and ``diff -r`` the two folders. Identical folders mean players see exactly what they saw.

Games are made and advanced as ``benchmarks/render_speed.py`` does (fixed seeds, the other seats
join through the routes, seeded random legal actions, then everyone takes their way out). The
clock is frozen, and what differs between two runs by design (game ids, form tokens, presence
tickets) is replaced by stable names.

    .venv/bin/python scripts/render_snapshots.py OUT_DIR [--seeds 3] [--steps 30]
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

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))
os.environ.setdefault("SECRET_KEY", "render-snapshots")

FROZEN = 1_900_000_000.0
time.time = lambda: FROZEN  # every countdown and timestamp the same on every run

from render_speed import EXITS, open_game  # noqa: E402

from webapp import create_app  # noqa: E402
from webapp.domain import play  # noqa: E402

GAMES = [
    ("shuffle-and-doom", {"size": "7"}, 0),
    ("shuffle-and-doom", {"size": "5", "retreat_from_combat": "on"}, 0),
    ("clear-the-dungeon", {}, 0),
    ("hebracs-dungeon", {}, 0),
    ("dungeon-cards", {"turn_seconds": "90"}, 1),
    ("dungeon-cards", {"turn_seconds": "90", "turn_mode": "three_card_hand"}, 3),
    ("dungeon-of-doom", {"map_choice": "duelling-hall", "max_players": "4", "turn_seconds": "120"}, 3),
    ("dungeon-of-doom", {"map_choice": "random-S", "max_players": "2", "turn_seconds": "0"}, 2),
]
HX = {"HX-Request": "true"}
VOLATILE = [
    (re.compile(r'name="csrf_token" value="[^"]+"'), 'name="csrf_token" value="CSRF"'),
    (re.compile(r'"X-CSRF-Token": "[^"]+"'), '"X-CSRF-Token": "CSRF"'),
    (re.compile(r'data-presence="[^"]+"'), 'data-presence="TICKET"'),
    (re.compile(r'data-viewer="[^"]+"'), 'data-viewer="TICKET"'),
    # Each database makes its own VAPID key pair (domain/push.py): the "notify me" button names it.
    (re.compile(r'data-push-key="[^"]*"'), 'data-push-key="VAPID"'),
]


def normalise(body: str, ids: dict[str, str]) -> str:
    for pattern, stable in VOLATILE:
        body = pattern.sub(stable, body)
    for game_id, name in ids.items():
        body = body.replace(game_id, name)
    return body


def snapshot(app, out: Path, slug: str, form: dict, players: int, seed: int, steps: int) -> int:
    store = app.extensions["delve_store"]
    game_id, clients = open_game(app, slug, form, players, seed=seed)
    ids = {game_id: "GAME"}
    seats = [f"p{i + 1}" for i in range(max(players, 1))]
    viewers = list(zip(seats, clients)) + [("spectator", app.test_client())]
    folder = out / f"{slug}-{len(list(out.glob(slug + '-*')))}"
    folder.mkdir(parents=True)
    rng = random.Random(seed)
    written = 0
    for step in range(steps + len(seats) + 1):
        for name, client in viewers:
            page = client.get(f"/g/{game_id}").get_data(as_text=True)
            board = client.get(f"/g/{game_id}/board?log_seen=0", headers=HX).get_data(as_text=True)
            (folder / f"{step:03d}-{name}-page.html").write_text(normalise(page, ids))
            (folder / f"{step:03d}-{name}-board.html").write_text(normalise(board, ids))
            written += 2
        game = play.load_game(store, game_id)
        if game.rules.result(game.state) is not None:
            break
        if step < steps:
            moves = [(s, a) for s in seats for a in game.rules.legal_actions(game.state, s) if a["type"] not in EXITS]
        else:  # then everyone takes their way out, one a step, to draw the end
            moves = [(s, a) for s in seats for a in game.rules.legal_actions(game.state, s) if a["type"] in EXITS][:1]
        if not moves:
            break
        seat, action = rng.choice(moves)
        play.act(store, game, seat, action)
    return written


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path)
    parser.add_argument("--seeds", type=int, default=3)
    parser.add_argument("--steps", type=int, default=30)
    args = parser.parse_args()
    if args.out.exists() and any(args.out.iterdir()):
        parser.error(f"{args.out} is not empty")
    with tempfile.TemporaryDirectory() as tmp:
        app = create_app(
            {"TESTING": True, "DATABASE_URL": f"sqlite:///{tmp}/snapshots.sqlite3", "RATELIMIT_ENABLED": False}
        )
        written = 0
        for slug, form, players in GAMES:
            for seed in range(1, args.seeds + 1):
                written += snapshot(app, args.out, slug, form, players, seed, args.steps)
        app.extensions["delve_store"].engine.dispose()
    print(f"{written} pages and fragments in {args.out}")


if __name__ == "__main__":
    main()
