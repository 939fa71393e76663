"""Every game's view shares one envelope (``rules_engine.contract``): ``status``, ``seat``, ``log``;
a replay's ``full_view`` carries the spectator's.

Each game is played at random from a few seeds; at every step each seat's and a spectator's view
is checked: ``status`` is one of three words and moves only forward, it is ``finished`` exactly
when ``result()`` says the game is over, ``seat`` is the viewer's own seat (None for a
spectator), and the log's entries carry a non-decreasing ``seq`` and a sentence (``text``).
"""

from __future__ import annotations

import json
import random

import pytest

import rules_engine

ORDER = {"setup": 0, "playing": 1, "finished": 2}
PLAYERS = {"dungeon-of-doom": ["p1", "p2"], "dungeon-cards": ["p1", "p2"]}
STEPS = 400
QUITTING = {"resign", "leave", "leave_game"}  # a seat that quits is a spectator from then on


def check_envelope(rules, state, seats):
    # The web layer shares one loaded state between requests (webapp.domain.play.LoadedStates): reading
    # it must never change it.
    before = json.dumps(rules.dump(state), sort_keys=True)
    over = rules.result(state) is not None
    statuses = set()
    for viewer in [*seats, None]:
        view = rules.view(state, viewer)
        assert view["status"] in ORDER, view["status"]
        assert (view["status"] == "finished") == over
        assert view["seat"] == viewer
        numbers = [entry["seq"] for entry in view["log"]]
        assert numbers == sorted(numbers) and all(isinstance(n, int) for n in numbers)
        assert all(isinstance(entry["text"], str) and entry["text"] for entry in view["log"])
        statuses.add(view["status"])
    for seat in seats:
        rules.legal_actions(state, seat)
    # A replay's full view carries the spectator's envelope (it reveals, never re-tells, the game).
    full, spectator = rules.full_view(state), rules.view(state, None)
    assert (full["status"], full["seat"], full["log"]) == (spectator["status"], None, spectator["log"])
    assert isinstance(full["revealed"], list)
    assert json.dumps(rules.dump(state), sort_keys=True) == before, "reading a state changed it"
    assert len(statuses) == 1, "every viewer sees the same status"
    return statuses.pop()


@pytest.mark.parametrize("seed", [1, 2, 3])
@pytest.mark.parametrize("slug", rules_engine.available())
def test_every_view_carries_status_seat_and_log(slug, seed):
    rules = rules_engine.get(slug)
    seats = PLAYERS.get(slug, ["p1"])
    state = rules.new_game(seed, seats, {})
    pick = random.Random(f"{slug}-{seed}")
    seen = [check_envelope(rules, state, seats)]
    for _ in range(STEPS):
        movers = [(seat, actions) for seat in seats if (actions := rules.legal_actions(state, seat))]
        if not movers:
            break
        seat, actions = pick.choice(movers)
        staying = [a for a in actions if a["type"] not in QUITTING] or actions
        if staying is actions and len(seats) > 1:
            break
        state = rules.apply(state, seat, pick.choice(staying))
        seen.append(check_envelope(rules, state, seats))
    assert [ORDER[s] for s in seen] == sorted(ORDER[s] for s in seen), "status only moves forward"
    assert "playing" in seen


def test_a_stranger_is_a_spectator():
    """A seat string that holds no seat in the game is shown as a spectator (``seat`` None)."""
    for slug in rules_engine.available():
        rules = rules_engine.get(slug)
        seats = PLAYERS.get(slug, ["p1"])
        state = rules.new_game(5, seats, {})
        assert rules.view(state, "stranger")["seat"] is None, slug
