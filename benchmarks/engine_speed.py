"""Engine speed: whole games per game; apply, legal_actions and view timings.

    .venv/bin/python benchmarks/engine_speed.py [--games 30] [--game shuffle-and-doom]

Each step, the seat that acts is one whose input the game needs now (the one whose turn it is;
any of them when several must answer), never by way of its exit action: a seat whose only
legal action is to leave is waiting, and choosing it would turn a table into a solo game. The
"actions per seat" column shows the spread. Clear the Dungeon is played by a skilled player,
because uniform random play loses in about eight actions and would time only openings.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from _common import clear_the_dungeon_skilled_choice, print_table, summary_us  # noqa: E402

import rules_engine  # noqa: E402

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


# Each game's way out for a seat (leaving a table, giving up): legal at any time, never chosen.
EXITS = {"leave", "leave_game", "resign"}


def random_choice(state, actions, rng):
    """Any legal action, biased towards non-moves so that games end."""
    non_moves = [a for a in actions if a.get("type") != "move"]
    return rng.choice(non_moves if non_moves and rng.random() < 0.6 else actions)


POLICIES = {"clear-the-dungeon": clear_the_dungeon_skilled_choice}


def play(rules, seed, options, players, rng, choose, max_steps=3000):
    apply_t, legal_t, view_t = [], [], []
    per_seat: Counter = Counter()
    state = rules.new_game(seed=seed, players=players, options=options)
    steps = 0
    while rules.result(state) is None and steps < max_steps:
        waiting_on = {}
        for seat in players:
            t0 = time.perf_counter()
            actions = rules.legal_actions(state, seat)
            elapsed = time.perf_counter() - t0
            actions = [a for a in actions if a.get("type") not in EXITS]
            if actions:
                waiting_on[seat] = (actions, elapsed)
        if not waiting_on:
            break
        seat = rng.choice(sorted(waiting_on))
        actions, elapsed = waiting_on[seat]
        legal_t.append(elapsed)  # the acting seat's list: a waiting seat's one exit says nothing
        action = choose(state, actions, rng)
        t0 = time.perf_counter()
        state = rules.apply(state, seat, action)
        apply_t.append(time.perf_counter() - t0)
        per_seat[seat] += 1
        if steps % 5 == 0:
            t0 = time.perf_counter()
            rules.view(state, seat)
            view_t.append(time.perf_counter() - t0)
        steps += 1
    return apply_t, legal_t, view_t, rules.result(state) is not None, per_seat


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
            choose = POLICIES.get(slug, random_choice)
            apply_t, legal_t, view_t, ended, per_seat = [], [], [], 0, Counter()
            started = time.perf_counter()
            for seed in range(args.games):
                a, legal, v, done, seats = play(rules, seed, options, players, rng, choose)
                apply_t += a
                legal_t += legal
                view_t += v
                ended += done
                per_seat += seats
            wall = time.perf_counter() - started
            label = f"{slug} {options} ×{len(players)}" if options else slug
            rows.append(
                [
                    label,
                    len(apply_t),
                    f"{ended}/{args.games}",
                    " / ".join(f"{per_seat[p]:,}" for p in players),
                    len(apply_t) / sum(apply_t),
                    summary_us(apply_t)["p50"],
                    summary_us(apply_t)["p95"],
                    summary_us(legal_t)["p50"],
                    summary_us(view_t)["p50"],
                    wall,
                ]
            )
    print_table(
        "Engine speed (whole games)",
        [
            "game",
            "actions",
            "games ended",
            "actions per seat",
            "apply/s",
            "apply p50 µs",
            "apply p95 µs",
            "legal p50 µs",
            "view p50 µs",
            "wall s",
        ],
        rows,
    )


if __name__ == "__main__":
    main()
