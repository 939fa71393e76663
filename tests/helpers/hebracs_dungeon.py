"""Hebrac's Dungeon situations for tests, in the words of section 14.0 of
``docs/rules/hebracs-dungeon.md`` (its acceptance scenarios' "Given").

>>> s = situation(cells={(1, 1): "AC/3H"}, inventory=["4C"], hand=["9H"])
>>> s["grid"][0][0]["enemy"], s["grid"][0][1]["enemy"], s["hand_deck"][:2], s["phase"]
('AC', '2S', ['9H', '5D'], 'start_level')
>>> bottom(s, ["9H"] + 30 * ["5D"])
[]
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from rules_engine.games.hebracs_dungeon import flow
from rules_engine.games.hebracs_dungeon.state import empty_cell, new_state, refresh_max_life

FILLER = ("2S", "2H")


def situation(
    *,
    cells: dict[tuple[int, int], str] | None = None,
    inventory: Iterable[str] = (),
    life: int | None = None,
    hand: Iterable[str] = (),
    filler: bool = True,
    position: Sequence[int] | None = None,
    effects: Iterable[str] = (),
    options: dict[str, Any] | None = None,
    counters: dict[str, Any] | None = None,
    seed: int = 20050704,
) -> dict[str, Any]:
    """A state as 14.0 describes one.

    ``cells`` maps ``(row, col)`` to ``"ENEMY/TREASURE"`` (either side may be empty) or
    ``"cleared"`` (no card, visited); every other chamber holds the filler 2S over 2H.
    The Hand Deck is ``hand`` followed by 30 × 5D unless ``filler`` is false.
    """
    opts = dict(options or {})
    rows, cols = opts.get("rows", 3), opts.get("cols", 4)
    state = new_state(seed, "p1", {**opts, "deck": ["2H"] * (2 * rows * cols)})
    for row in state["grid"]:
        for cell in row:
            cell.update(empty_cell())
            cell["enemy"], cell["treasure"] = FILLER
    for (r, c), spec in (cells or {}).items():
        cell = state["grid"][r - 1][c - 1]
        if spec == "cleared":
            cell.update(empty_cell())
            cell["visited"] = True
        else:
            enemy, treasure = spec.split("/")
            cell["enemy"] = enemy or None
            cell["treasure"] = treasure or None
    state["hand_deck"] = list(hand) + (["5D"] * 30 if filler else [])
    state["inventory"] = list(inventory)
    state["position"] = list(position) if position else None
    for effect in effects:
        state["level_effects"][effect] = True
    state["counters"].update(counters or {})
    refresh_max_life(state)
    if life is not None:
        state["life"] = life
    state["log"] = []
    state["phase"] = flow.phase_of(state)
    return state


def bottom(state: dict[str, Any], start_deck: list[str]) -> list[str]:
    """The cards put under the Hand Deck since it was ``start_deck``, oldest first.

    The Hand Deck is always what is left of the start deck (top cards drawn away) followed by
    what went under; the shortest such split is taken.
    """
    deck: list[str] = state["hand_deck"]
    for drawn in range(len(start_deck) + 1):
        kept = len(start_deck) - drawn
        if kept <= len(deck) and deck[:kept] == start_deck[drawn:]:
            return deck[kept:]
    raise AssertionError("the Hand Deck no longer starts with what is left of the start deck")
