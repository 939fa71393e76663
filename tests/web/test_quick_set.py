"""The quick set (`pytest -m fast`, tests/conftest.py): every test it leaves out by name still
exists, so a renamed or moved slow test cannot quietly come back into the quick loop."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.conftest import SLOW, measured_slow

ROOT = Path(__file__).resolve().parents[2]


def named_test_exists(listed: str) -> bool:
    path, _, names = listed.partition("::")
    if not (ROOT / path).exists():
        return False
    source = (ROOT / path).read_text(encoding="utf-8")
    return all(
        re.search(rf"\b(def|class) {re.escape(bare)}|\"{re.escape(bare)}|^{re.escape(bare)} = ", source, re.M)
        for bare in (name.split("[")[0] for name in (names.split("::") if names else []))
    )


@pytest.mark.parametrize("listed", SLOW)
def test_every_test_left_out_of_the_quick_set_still_exists(listed):
    assert named_test_exists(listed), f"{listed}: no such test; update SLOW in tests/conftest.py"


def test_every_measured_slow_test_still_exists():
    gone = sorted(node for node in measured_slow() if not named_test_exists(node))
    assert gone == [], "run scripts/measure_quick_set.py again"


def test_a_test_not_listed_is_in_the_quick_set(request):
    assert request.node.get_closest_marker("fast") and not request.node.get_closest_marker("slow")
