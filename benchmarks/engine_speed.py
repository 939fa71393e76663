"""Engine speed: random whole games per game; apply, legal_actions and view timings.

    .venv/bin/python benchmarks/engine_speed.py [--games 30] [--game shuffle-and-doom]
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import rules_engine  # noqa: E402
from _common import print_table, summary_us  # noqa: E402

PARTY = ["p1", "p2", "p3", "p4", "p5"]
CONFIGS = {
    "shuffle-and-doom": [({"size": n}, ["p1"]) for n in (4, 7, 13, 26)],
    "clear-the-dungeon": [({}, ["p1"])],
    "hebracs-dungeon": [({}, ["p1"])],
    "dungeon-cards": [
        ({"classes": {"p1": "ninja"}}, ["p1"]),
        ({"classes": dict(zip(PARTY, ["mage", "healer", "soldier", "rogue", "tank"]))}, PARTY),
    ],
    "dungeon-of-doom": [({"max_players": 4}, ["p1", "p2", "p3", "p4"])],
}


def play(rules, seed, options, players, rng, max_steps=3000):
    apply_t, legal_t, view_t = [], [], []
    state = rules.new_game(seed=seed, players=players, options=options)
    steps = 0
    while rules.result(state) is None and steps < max_steps:
        for seat in players:
            t0 = time.perf_counter()
            actions = rules.legal_actions(state, seat)
            legal_t.append(time.perf_counter() - t0)
            if actions:
                break
        else:
            break
        # Bias towards non-moves so that games end; any legal choice is valid.
        actions = [a for a in actions if a.get("type") not in ("leave", "leave_game", "resign")] or actions
        non_moves = [a for a in actions if a.get("type") != "move"]
        action = rng.choice(non_moves if non_moves and rng.random() < 0.6 else actions)
        t0 = time.perf_counter()
        state = rules.apply(state, seat, action)
        apply_t.append(time.perf_counter() - t0)
        if steps % 5 == 0:
            t0 = time.perf_counter()
            rules.view(state, seat)
            view_t.append(time.perf_counter() - t0)
        steps += 1
    return apply_t, legal_t, view_t, rules.result(state) is not None


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=30)
    parser.add_argument("--game", action="append")
    args = parser.parse_args()
    rows = []
    for slug in args.game or [s for s in CONFIGS if s in rules_engine.GAMES]:
        rules = rules_engine.get(slug)
        for options, players in CONFIGS[slug]:
            rng = random.Random(1)
            apply_t, legal_t, view_t, ended = [], [], [], 0
            started = time.perf_counter()
            for seed in range(args.games):
                a, l, v, done = play(rules, seed, options, players, rng)
                apply_t += a
                legal_t += l
                view_t += v
                ended += done
            wall = time.perf_counter() - started
            label = f"{slug} {options} ×{len(players)}" if options else slug
            rows.append([
                label, len(apply_t), f"{ended}/{args.games}", len(apply_t) / sum(apply_t),
                summary_us(apply_t)["p50"], summary_us(apply_t)["p95"],
                summary_us(legal_t)["p50"], summary_us(view_t)["p50"], wall,
            ])
    print_table(
        "Engine speed (random whole games)",
        ["game", "actions", "games ended", "apply/s", "apply p50 µs", "apply p95 µs", "legal p50 µs", "view p50 µs", "wall s"],
        rows,
    )


if __name__ == "__main__":
    main()
