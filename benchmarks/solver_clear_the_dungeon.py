"""Clear the Dungeon's solver: whether a deal can be won, how fast the search says so, and the
odds and hint from the player's view at the first decision.

    .venv/bin/python benchmarks/solver_clear_the_dungeon.py [--deals 60] [--long-nodes 1000000]

Seeded deals with the default options. ``solve`` answers "can every monster be defeated" within
``SOLVE_NODES``; the deals it leaves unknown are tried again with ``--long-nodes`` (0: not
retried). For scale, the rough player of ``benchmarks/_common.py`` plays each deal once.
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
from rules_engine.games.clear_the_dungeon import solver  # noqa: E402
from rules_engine.solving import UNKNOWN, WIN, hint, odds, solve  # noqa: E402

R = rules_engine.get("clear-the-dungeon")
SEAT = "p1"


def spread(values: list[float], digits: int = 2) -> list[str]:
    return [f"{value:.{digits}f}" for value in (percentile(values, 50), percentile(values, 95), max(values))]


def rough_player_wins(seed: int) -> bool:
    rng = random.Random(seed)
    state = R.new_game(seed, [SEAT], {})
    while R.result(state) is None:
        state = R.apply(state, SEAT, clear_the_dungeon_skilled_choice(state, R.legal_actions(state, SEAT), rng))
    return bool(R.result(state)["winners"])


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--deals", type=int, default=60)
    parser.add_argument("--long-nodes", type=int, default=1_000_000)
    args = parser.parse_args()

    times, nodes, outcomes = [], [], []
    long_times, long_outcomes = [], []
    odds_times, hint_times, hints_given = [], [], 0
    rough_wins = 0
    for seed in range(1, args.deals + 1):
        state = R.new_game(seed, [SEAT], {})
        t0 = time.perf_counter()
        verdict = solve(solver.PUZZLE, state, max_nodes=solver.SOLVE_NODES)
        times.append(time.perf_counter() - t0)
        nodes.append(verdict.nodes)
        outcomes.append(verdict.outcome)
        if verdict.outcome == WIN:
            end = state
            for action in verdict.line:
                end = R.apply(end, SEAT, action)
            assert R.result(end)["reason"] == "cleared"
        if verdict.outcome == UNKNOWN and args.long_nodes:
            t0 = time.perf_counter()
            long_outcomes.append(solve(solver.PUZZLE, state, max_nodes=args.long_nodes).outcome)
            long_times.append(time.perf_counter() - t0)
        legal = [a for a in R.legal_actions(state, SEAT) if a["type"] != "resign"]
        t0 = time.perf_counter()
        odds(solver.PUZZLE, state, SEAT, samples=10, max_nodes=solver.SAMPLE_NODES)
        odds_times.append(time.perf_counter() - t0)
        t0 = time.perf_counter()
        given = hint(solver.PUZZLE, state, SEAT, legal, samples=solver.HINT_SAMPLES, max_nodes=solver.HINT_NODES)
        hint_times.append(time.perf_counter() - t0)
        hints_given += given.move is not None
        rough_wins += rough_player_wins(seed)

    n = args.deals
    answered = [t for t, outcome in zip(times, outcomes) if outcome != UNKNOWN]
    print_table(
        f"Clear the Dungeon: can the deal be won? ({n} deals, standard options, {solver.SOLVE_NODES:,} nodes)",
        ["s p50", "s p95", "s max", "nodes p50", "nodes p95", "nodes max", "answered", "answered ≤ 2 s", "won"],
        [
            [
                *spread(times),
                *spread(nodes, 0),
                f"{len(answered)}/{n}",
                f"{sum(t <= 2 for t in answered)}/{n}",
                f"{outcomes.count(WIN)}/{n}",
            ]
        ],
    )
    if long_times:
        print_table(
            f"The unknown ones again with {args.long_nodes:,} nodes",
            ["deals", "s max", "answered", "won"],
            [
                [
                    len(long_times),
                    f"{max(long_times):.2f}",
                    sum(o != UNKNOWN for o in long_outcomes),
                    long_outcomes.count(WIN),
                ]
            ],
        )
    print_table(
        "From the player's view at the first decision",
        ["question", "samples", "nodes a solve", "s p50", "s p95", "s max"],
        [
            ["odds", 10, solver.SAMPLE_NODES, *spread(odds_times)],
            [f"hint (a move in {hints_given}/{n})", solver.HINT_SAMPLES, solver.HINT_NODES, *spread(hint_times)],
        ],
    )
    print(f"\nThe rough player of benchmarks/_common.py wins {rough_wins}/{n} of these deals.")


if __name__ == "__main__":
    main()
