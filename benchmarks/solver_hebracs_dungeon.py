"""Hebrac's Dungeon's solver: how quickly a deal is won, the best score within a budget, and the
odds and hint from the player's view at the first decision.

    .venv/bin/python benchmarks/solver_hebracs_dungeon.py [--deals 30] [--score-nodes 20000]

Seeded deals with the default options. ``solve`` answers "can it be won" (with the line it
found: its length, the levels and turns it takes, the score it makes); ``best_score`` looks for
a better-scoring win within its budget (``exhausted``: the whole tree was searched).
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
from rules_engine.games.hebracs_dungeon import solver  # noqa: E402
from rules_engine.solving import WIN, hint, odds, solve  # noqa: E402

R = rules_engine.get("hebracs-dungeon")


def spread(values: list[float], digits: int = 2) -> list[str]:
    return [f"{value:.{digits}f}" for value in (percentile(values, 50), percentile(values, 95), max(values))]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--deals", type=int, default=30)
    parser.add_argument("--score-nodes", type=int, default=solver.SCORE_NODES)
    args = parser.parse_args()

    times, nodes, lengths, levels, turns, scores = [], [], [], [], [], []
    answered = wins = 0
    best_times, best_scores, gains, exhausted = [], [], [], 0
    odds_times, hint_times = [], []
    for seed in range(1, args.deals + 1):
        state = R.new_game(seed, ["p1"], {})
        t0 = time.perf_counter()
        verdict = solve(solver.PUZZLE, state, max_nodes=solver.SOLVE_NODES)
        times.append(time.perf_counter() - t0)
        nodes.append(verdict.nodes)
        answered += verdict.outcome != "unknown"
        if verdict.outcome == WIN:
            wins += 1
            end = state
            for action in verdict.line:
                end = R.apply(end, "p1", action)
            result = R.result(end)
            lengths.append(len(verdict.line))
            levels.append(result["level"])
            turns.append(result["turns"])
            scores.append(result["scores"]["p1"])
        t0 = time.perf_counter()
        best, _line, whole = solver.best_score(state, args.score_nodes)
        best_times.append(time.perf_counter() - t0)
        exhausted += whole
        if best is not None:
            best_scores.append(best)
            if verdict.outcome == WIN:
                gains.append(best - scores[-1])
        legal = [a for a in R.legal_actions(state, "p1") if a["type"] != "resign"]
        t0 = time.perf_counter()
        odds(solver.PUZZLE, state, "p1", samples=10, max_nodes=solver.SAMPLE_NODES)
        odds_times.append(time.perf_counter() - t0)
        t0 = time.perf_counter()
        hint(solver.PUZZLE, state, "p1", legal, samples=solver.HINT_SAMPLES, max_nodes=solver.SAMPLE_NODES)
        hint_times.append(time.perf_counter() - t0)

    n = args.deals
    print_table(
        f"Hebrac's Dungeon: can the deal be won? ({n} deals, standard options, {solver.SOLVE_NODES:,} nodes)",
        ["s p50", "s p95", "s max", "nodes p50", "nodes p95", "nodes max", "answered", "won"],
        [[*spread(times), *spread(nodes, 0), f"{answered}/{n}", f"{wins}/{n}"]],
    )
    print_table(
        "The winning line found first",
        ["", "p50", "p95", "max", "min"],
        [
            [name, *spread(values, 0), str(min(values))]
            for name, values in (("actions", lengths), ("level", levels), ("turns", turns), ("score", scores))
        ],
    )
    print_table(
        f"best_score within {args.score_nodes:,} nodes",
        ["s p50", "s p95", "s max", "score p50", "score max", "gain over the first win p50", "exhausted"],
        [
            [
                *spread(best_times),
                percentile(best_scores, 50),
                max(best_scores),
                percentile(gains, 50),
                f"{exhausted}/{n}",
            ]
        ],
    )
    print_table(
        f"From the player's view at the first decision ({solver.SAMPLE_NODES:,} nodes a sample)",
        ["question", "samples", "s p50", "s p95", "s max"],
        [
            ["odds", 10, *spread(odds_times)],
            ["hint", solver.HINT_SAMPLES, *spread(hint_times)],
        ],
    )


if __name__ == "__main__":
    main()
