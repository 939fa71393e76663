"""Measure which engine and web tests are too slow for the quick set (`pytest -m fast`) and write
them to ``tests/slow_measured.txt``, which ``tests/conftest.py`` marks ``slow``.

The quick set is for a loop a developer runs after every change: it keeps every test that takes
at most ``BUDGET`` seconds (setup, call and teardown together, on the machine that measured them);
the rest still runs in the README's whole test command. Re-run it when the quick set drifts past a
minute, and commit the file:

    .venv/bin/python scripts/measure_quick_set.py            # runs the tests, about 4 minutes
    .venv/bin/python scripts/measure_quick_set.py REPORT     # or reads a saved --durations=0 report
"""

from __future__ import annotations

import collections
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "tests" / "slow_measured.txt"
BUDGET = 0.2
DURATION = re.compile(r"\s*([\d.]+)s (?:setup|call|teardown)\s+(tests/(?:engine|web)/\S+)")


def durations(report: str) -> dict[str, float]:
    spent: collections.Counter[str] = collections.Counter()
    for line in report.splitlines():
        if found := DURATION.match(line):
            spent[found.group(2)] += float(found.group(1))
    return spent


def main() -> None:
    if len(sys.argv) > 1:
        report = Path(sys.argv[1]).read_text()
    else:
        command = [sys.executable, "-m", "pytest", "tests/engine", "tests/web", "-m", "not postgres and not redis"]
        command += ["-q", "-p", "no:cacheprovider", "--durations=0"]
        report = subprocess.run(command, cwd=ROOT, capture_output=True, text=True).stdout
    slow = sorted(node for node, seconds in durations(report).items() if seconds > BUDGET)
    header = f"# Engine and web tests over {BUDGET} s, left out of the quick set (scripts/measure_quick_set.py)\n"
    OUT.write_text(header + "".join(f"{node}\n" for node in slow))
    print(f"{len(slow)} tests over {BUDGET} s written to {OUT.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
