"""Small helpers shared by the benchmark scripts: percentiles and table printing."""

from __future__ import annotations

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
