"""A sixth game is its declarations: Coin Flip (``tests/fixtures/sixth_game/``, an add-on package
named by ``DELVE_GAME_PACKAGES``) is played through the web with nothing in the platform changed.

The games are read once, when ``rules_engine`` is imported, so the playthrough runs in a pytest
of its own with the add-on named (``tests/fixtures/sixth_game/playthrough.py``)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PLAYTHROUGH = "tests/fixtures/sixth_game/playthrough.py"


def test_a_sixth_game_added_by_its_declarations_is_played_through_the_web():
    env = {**os.environ, "DELVE_GAME_PACKAGES": "tests.fixtures.sixth_game", "PYTHONPATH": str(ROOT)}
    env.pop("PYTEST_XDIST_WORKER", None)
    run = subprocess.run(
        [sys.executable, "-m", "pytest", PLAYTHROUGH, "-q", "-p", "no:cacheprovider"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert run.returncode == 0, run.stdout[-6000:] + run.stderr[-2000:]
    assert "4 passed" in run.stdout, run.stdout[-2000:]
