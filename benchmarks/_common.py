"""Small helpers shared by the benchmark scripts: percentiles, table printing, and the players
that make random games last (the engine tests play with the same ones)."""

from __future__ import annotations

import random
import statistics


def percentile(samples: list[float], p: float) -> float:
    ordered = sorted(samples)
    if not ordered:
        return float("nan")
    index = min(len(ordered) - 1, max(0, round(p / 100 * (len(ordered) - 1))))
    return ordered[index]


def summary_us(samples_s: list[float]) -> dict:
    us = [s * 1e6 for s in samples_s]
    return {
        "n": len(us),
        "p50": statistics.median(us),
        "p95": percentile(us, 95),
        "p99": percentile(us, 99),
    }


def print_table(title: str, header: list[str], rows: list[list]) -> None:
    print(f"\n## {title}\n")
    print("| " + " | ".join(header) + " |")
    print("|" + "|".join("---" for _ in header) + "|")
    for row in rows:
        print("| " + " | ".join(f"{c:,.1f}" if isinstance(c, float) else str(c) for c in row) + " |")


def clear_the_dungeon_skilled_choice(state: dict, legal: list[dict], rng: random.Random) -> dict:
    """A rough Clear the Dungeon player: finish monsters, complete power, use items, open
    sensibly, end turns last. Never resigns.

    Uniform random play loses within a few turns (about eight actions), so figures and tests
    built on it would only ever see openings; this player reaches items, peeks and wins.
    """
    from rules_engine.games import clear_the_dungeon as cd  # here: _common stays light for the HTTP scripts

    def merit(action: dict) -> float:
        bonus = rng.random()
        if action["type"] == "play":
            slot = state["dungeon"][action["target"]]
            placed = len(slot["attack"])
            value = cd.power_value(action["card"]) * (2 if action.get("double") else 1)
            if placed == 2:
                return bonus + 10 - 3 * (action["card"] == "JK")
            if placed == 1:
                overshoot = cd.attack_sum(slot) + value - cd.POWER[slot["card"][:-1]]
                return bonus + 8 - 0.3 * overshoot - 2 * bool(action.get("double"))
            return bonus + 5 - 3 * bool(action.get("double"))
        if action["type"] == "use_item":
            return bonus + {"KC": 6, "KD": 4, "KS": 2, "KH": 1}[action["item"]]
        return bonus + 0.5

    return max((a for a in legal if a["type"] != "resign"), key=merit)
