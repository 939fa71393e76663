"""What only matters with several characters: who may help in a fight and the Healer's healing
(§3.3, §9); casting a spell and leaving the party are ``turn_actions``.

>>> board = {"width": 10, "height": 10, "stop_walls": [[[7, 1], [8, 1]]], "redirects": {}}
>>> from .movement import adjacent
>>> adjacent(board, [5, 5], [5, 6]), adjacent(board, [5, 5], [6, 6]), adjacent(board, [7, 1], [8, 1])
(True, False, False)
"""

from __future__ import annotations

from typing import Any

from .core import active, log
from .movement import adjacent


def eligible_helpers(state: dict[str, Any], challenger: dict[str, Any]) -> list[str]:
    """§5.3: active characters adjacent to the challenger, in fighter order (seat order after it)."""
    n = len(state["characters"])
    seat = challenger["seat_number"] - 1
    order = [state["characters"][(seat + i) % n] for i in range(1, n)]
    board = state["board"]
    return [
        c["id"] for c in order if c["status"] == "active" and adjacent(board, c["position"], challenger["position"])
    ]


def _heal(state: dict[str, Any], healer: dict[str, Any], target: dict[str, Any], when: str) -> None:
    if target["lives"] < target["max_lives"]:
        target["lives"] += 1
        log(
            state,
            "healed",
            f"{healer['id']}'s Healing Touch ({when}): {target['id']} heals to "
            f"{target['lives']}/{target['max_lives']}.",
        )
    else:
        log(state, "healed", f"{healer['id']}'s Healing Touch ({when}): {target['id']} is already at full lives.")


def heal_at_start(state: dict[str, Any], healer: dict[str, Any]) -> None:
    """§3.3 Healer: every other adjacent active character heals 1 and counts as healed this turn."""
    healed = state["turn"]["healed"]
    for c in active(state):
        if c is not healer and adjacent(state["board"], c["position"], healer["position"]):
            _heal(state, healer, c, "start of turn")
            healed.append(c["id"])


def heal_at_end(state: dict[str, Any], healer: dict[str, Any]) -> None:
    """Those adjacent now that were not adjacent at the start heal 1 (ruling 48)."""
    healed = state["turn"]["healed"]
    for c in active(state):
        if c is not healer and c["id"] not in healed and adjacent(state["board"], c["position"], healer["position"]):
            _heal(state, healer, c, "end of turn")
            healed.append(c["id"])
