"""The quick set (`pytest -m fast`, tests/conftest.py): every test it leaves out by name still
exists, so a renamed or moved slow test cannot quietly come back into the quick loop."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.conftest import SLOW

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("listed", SLOW)
def test_every_test_left_out_of_the_quick_set_still_exists(listed):
    path, _, names = listed.partition("::")
    source = (ROOT / path).read_text(encoding="utf-8")
    for name in re.split(r"::", names) if names else []:
        name = name.split("[")[0]
        assert re.search(rf"\b(def|class) {re.escape(name)}|\"{re.escape(name)}", source), (
            f"{listed}: no {name} in {path}; update SLOW in tests/conftest.py"
        )


def test_a_test_not_listed_is_in_the_quick_set(request):
    assert request.node.get_closest_marker("fast") and not request.node.get_closest_marker("slow")
