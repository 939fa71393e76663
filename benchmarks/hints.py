"""Hints (issue 27, item 5): how long the background solver takes to answer one, per game and
size, at the first decision and mid-game, with each game's own hint budget
(``webapp/domain/hints.py``: the solver module's ``HINT_SAMPLES`` deals of ``SAMPLE_NODES``).

    .venv/bin/python benchmarks/hints.py [--deals 20] [--sizes 4,5,6,7,8,9,10]

Seeded deals with the default options (Shuffle and Doom!: each size). "Mid-game" is the middle
running state of a game played by a random player that never resigns (Clear the Dungeon's: a
rough skilled player, since random play loses within a few turns). The hint's time is the
worker's: ``hints.advice`` on the state, as the runner calls it. "no hint" counts the answers
without a move (no sampled deal could be won from any move, or none was judged in time).
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from _common import clear_the_dungeon_skilled_choice, percentile, print_table  # noqa: E402

import rules_engine  # noqa: E402
from webapp.domain import hints  # noqa: E402

SEAT = "p1"


def midgame(rules, state, rng: random.Random):
    """The middle running state of a game played on from ``state`` (None: it ended at once)."""
    seen = []
    while rules.result(state) is None:
        seen.append(state)
        legal = [a for a in rules.legal_actions(state, SEAT) if a["type"] != "resign"]
        if not legal:
            break
        if rules.slug == "clear-the-dungeon":
            action = clear_the_dungeon_skilled_choice(state, legal, rng)
        else:
            action = rng.choice(legal)
        state = rules.apply(state, SEAT, action)
    return seen[len(seen) // 2] if len(seen) > 1 else None


def timed(rules, state, seed: int) -> tuple[float, bool]:
    started = time.perf_counter()
    answer = hints.advice(rules, state, SEAT, seed)
    return time.perf_counter() - started, answer["move"] is not None


def row(label: str, when: str, results: list[tuple[float, bool]]) -> list:
    times = [t for t, _ in results]
    return [
        label,
        when,
        len(results),
        f"{percentile(times, 50):.3f}",
        f"{percentile(times, 95):.3f}",
        f"{max(times):.3f}",
        sum(1 for _, moved in results if not moved),
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--deals", type=int, default=20)
    parser.add_argument("--sizes", default="4,5,6,7,8,9,10")
    parser.add_argument("--games", default="shuffle-and-doom,clear-the-dungeon,hebracs-dungeon")
    args = parser.parse_args()
    cases: list[tuple[str, str, dict | None]] = []
    for slug in args.games.split(","):
        if slug == "shuffle-and-doom":
            cases += [(slug, f"{slug} {n}×{n}", {"size": n}) for n in map(int, args.sizes.split(","))]
        else:
            cases.append((slug, slug, None))
    rows = []
    for slug, label, options in cases:
        rules = rules_engine.get(slug)
        samples, nodes = hints.budgets(rules)
        first, middle = [], []
        for deal in range(args.deals):
            state = rules.new_game(seed=deal, players=[SEAT], options=options)
            first.append(timed(rules, state, deal))
            mid = midgame(rules, state, random.Random(deal))
            if mid is not None:
                middle.append(timed(rules, mid, deal))
        budget = f"{samples} × {nodes:,}"
        rows.append([*row(label, "first decision", first), budget])
        if middle:
            rows.append([*row(label, "mid-game", middle), budget])
        print(" · ".join(str(c) for c in rows[-1]), file=sys.stderr, flush=True)
    print_table(
        f"A hint's time in seconds ({args.deals} seeded deals each)",
        ["game", "when", "hints", "p50 s", "p95 s", "max s", "no hint", "budget (deals × nodes)"],
        rows,
    )


if __name__ == "__main__":
    main()
