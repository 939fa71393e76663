"""The Dungeon of Doom's views hand out copies: no list or dict of a view is one of the state's, so
a page that edits its view (or a template that sorts a list in place) cannot change the game; and
no two views share one, so one seat's page cannot change another's.

Two short random games (a shipped map and a random one, three players, one of whom leaves) are
checked at every step, for every seat, a spectator and the replay's full view, to the end.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

import rules_engine

dod = rules_engine.get("dungeon-of-doom")
SEATS = ["p1", "p2", "p3"]


def containers(obj: Any, found: dict[int, Any] | None = None) -> dict[int, Any]:
    """Every list and dict inside ``obj`` (itself included), by id; the objects are kept so that
    no id is reused while the caller holds the result."""
    found = {} if found is None else found
    if isinstance(obj, (list, dict)):
        if id(obj) in found:
            return found
        found[id(obj)] = obj
        for value in obj.values() if isinstance(obj, dict) else obj:
            containers(value, found)
    return found


def check_step(state: dict[str, Any]) -> None:
    owned = containers(state)
    views = [(f"view of {seat}", dod.view(state, seat)) for seat in [*SEATS, None]]
    views.append(("full view", dod.full_view(state)))
    seen: dict[int, str] = {}
    for name, view in views:
        inside = containers(view)
        shared = [owned[i] for i in inside.keys() & owned.keys()]
        assert not shared, f"the {name} shares {shared[:3]} with the state"
        for i in inside:
            assert i not in seen, f"the {name} shares {inside[i]} with the {seen[i]}"
            seen[i] = name


@pytest.mark.parametrize("options", [{"max_players": 3}, {"max_players": 3, "random_map": "S"}])
def test_no_view_shares_a_list_or_dict_with_the_state_or_another_view(options):
    pick = random.Random(3)
    state = dod.new_game(11, SEATS, options)
    check_step(state)
    for step in range(400):
        movers = [(seat, actions) for seat in SEATS if len(actions := dod.legal_actions(state, seat)) > 1]
        if not movers:
            break
        seat, actions = pick.choice(movers)
        staying = [a for a in actions if a["type"] != "leave"]
        # Mostly not a move, so that gold is picked up and fights happen (uniform play mostly walks).
        non_moves = [a for a in staying if a["type"] != "move"] if pick.random() < 0.67 else []
        action = {"type": "leave"} if step == 120 else pick.choice(non_moves or staying)
        state = dod.apply(state, seat, action)
        check_step(state)
    for seat in dod.living_seats(state):  # a game still running ends: its final map is checked too
        state = dod.apply(state, seat, {"type": "leave"})
        check_step(state)
    assert dod.result(state) is not None
