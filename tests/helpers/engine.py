"""Assertions the engine tests share: an illegal action is refused and leaves the state as it was."""

from __future__ import annotations

import json
from typing import Any

import pytest

from rules_engine.errors import IllegalAction


def refused(
    rules: Any, state: dict, seat: str, action: dict, error: Any = IllegalAction, match: str | None = None
) -> str:
    """``rules.apply`` raises ``error`` (matching ``match``) and the state's dump is unchanged;
    returns the engine's reason. The dumps are compared as data and as JSON, because in Python
    0 == False and 1 == True, which the engine tells apart."""
    before = rules.dump(state)
    with pytest.raises(error, match=match) as caught:
        rules.apply(state, seat, action)
    after = rules.dump(state)
    assert after == before
    assert json.dumps(after, sort_keys=True) == json.dumps(before, sort_keys=True)
    return str(caught.value)
