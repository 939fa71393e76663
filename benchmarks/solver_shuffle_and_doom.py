"""Shuffle and Doom!'s solver: how fast each question is answered over seeded deals.

    .venv/bin/python benchmarks/solver_shuffle_and_doom.py [--deals 30] [--size 4 --size 9 ...]

For each size (default options otherwise): can the hero survive (``PUZZLE``, the game's win), can
every room be cleared (``CLEAR_PUZZLE``) and the best score (``best_score``), each from the deal
(before the stat set is chosen) within the solver's default budgets; then ``odds`` and ``hint``
from the player's view at that first decision (odds: can every room be cleared; hint: the stat set
that keeps the hero alive in most samples). Nodes are the states a search tried.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from _common import percentile, print_table  # noqa: E402

import rules_engine  # noqa: E402
from rules_engine.games.shuffle_and_doom import solver  # noqa: E402
from rules_engine.solving import UNKNOWN, WIN, hint, odds, solve  # noqa: E402

SIZES = (4, 6, 8, 9, 10)
PROTOTYPE_BAR_S = 0.09  # issue 27: the prototype answered every deal up to 9×9 within it


def timed(run, *args, **kwargs):
    started = time.perf_counter()
    answer = run(*args, **kwargs)
    return answer, time.perf_counter() - started


def secs(samples, p=None):
    return f"{max(samples) if p is None else percentile(samples, p):.3f}"


def row(label, size, seconds, nodes, answered, won, deals):
    return [
        label,
        f"{size}×{size}",
        f"{answered}/{deals}",
        f"{sum(s <= PROTOTYPE_BAR_S for s in seconds)}/{deals}",
        secs(seconds, 50),
        secs(seconds, 95),
        secs(seconds),
        f"{percentile(nodes, 50):,}" if nodes else "–",
        f"{max(nodes):,}" if nodes else "–",
        f"{won}/{answered}" if answered and won is not None else "–",
    ]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--deals", type=int, default=30)
    parser.add_argument("--size", type=int, action="append")
    args = parser.parse_args()
    rules = rules_engine.get("shuffle-and-doom")
    searches, views = [], []
    for size in args.size or SIZES:
        deals = [rules.new_game(seed=seed, players=["p1"], options={"size": size}) for seed in range(args.deals)]
        for label, puzzle in (("survive", solver.PUZZLE), ("clear", solver.CLEAR_PUZZLE)):
            seconds, nodes, answered, won = [], [], 0, 0
            for state in deals:
                verdict, elapsed = timed(solve, puzzle, state, max_nodes=solver.SOLVE_NODES)
                seconds.append(elapsed)
                nodes.append(verdict.nodes)
                answered += verdict.outcome != UNKNOWN
                won += verdict.outcome == WIN
            searches.append(row(label, size, seconds, nodes, answered, won, args.deals))
        seconds, proved = [], 0
        for state in deals:
            (_, _, best), elapsed = timed(solver.best_score, state)
            seconds.append(elapsed)
            proved += best
        searches.append(
            row(
                f"best score ({solver.SCORE_NODES:,} nodes; answered = proved)",
                size,
                seconds,
                [],
                proved,
                None,
                args.deals,
            )
        )
        odds_s, hint_s = [], []
        for state in deals:
            legal = rules.legal_actions(state, "p1")
            _, elapsed = timed(odds, solver.CLEAR_PUZZLE, state, "p1", samples=10, max_nodes=solver.SAMPLE_NODES)
            odds_s.append(elapsed)
            _, elapsed = timed(
                hint, solver.PUZZLE, state, "p1", legal, samples=solver.HINT_SAMPLES, max_nodes=solver.SAMPLE_NODES
            )
            hint_s.append(elapsed)
        views.append(
            [
                f"{size}×{size}",
                secs(odds_s, 50),
                secs(odds_s, 95),
                secs(odds_s),
                secs(hint_s, 50),
                secs(hint_s, 95),
                secs(hint_s),
            ]
        )
    print_table(
        f"Shuffle and Doom! solver: {args.deals} deals a size, budget {solver.SOLVE_NODES:,} nodes (seconds)",
        [
            "question",
            "size",
            "answered",
            f"≤ {PROTOTYPE_BAR_S} s",
            "p50",
            "p95",
            "max",
            "nodes p50",
            "nodes max",
            "won / answered",
        ],
        searches,
    )
    print_table(
        f"From the player's view at the first decision: 10 samples, {solver.SAMPLE_NODES:,} nodes each (seconds)",
        ["size", "odds p50", "odds p95", "odds max", "hint p50", "hint p95", "hint max"],
        views,
    )


if __name__ == "__main__":
    main()
