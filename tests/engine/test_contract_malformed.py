"""Every game's ``apply`` refuses a malformed parameter with ``InvalidAction`` or ``IllegalAction``.

The web layer passes whatever a form or JSON body carries into ``apply``; a list, an object, a
float or a huge number where a string or a small whole number belongs must be refused with a
readable message — never a ``TypeError``/``KeyError`` from deep inside a rule — and must change
nothing. Each game is walked a few random legal steps; at every step each parameter of each legal
action is replaced in turn by every odd value below.
"""

from __future__ import annotations

import copy
import json
import random

import pytest

import rules_engine
from rules_engine import IllegalAction, InvalidAction

ODD_VALUES = [None, True, [], {}, ["N"], {"x": 1}, 1.5, -1, 0, 10**30, "", "x" * 300, "🂡"]

PLAYERS = {"dungeon-of-doom": ["p1", "p2"], "dungeon-cards": ["p1"]}

STEPS = 80
QUITTING = {"resign", "leave"}  # the walk should reach deep states, not end at once


def seats_to_move(rules, state, seats):
    return [(seat, actions) for seat in seats if (actions := rules.legal_actions(state, seat))]


@pytest.mark.parametrize("seed", [7, 8, 9])
@pytest.mark.parametrize("slug", rules_engine.available())
def test_malformed_parameters_are_refused_readably_and_change_nothing(slug, seed):
    rules = rules_engine.get(slug)
    seats = PLAYERS.get(slug, ["p1"])
    state = rules.new_game(seed, seats, {})
    pick = random.Random(f"{slug}-{seed}")
    for _ in range(STEPS):
        movers = seats_to_move(rules, state, seats)
        if not movers:
            break
        before = json.dumps(rules.dump(state), sort_keys=True)
        for seat, actions in movers:
            for action in actions:
                for key in [k for k in action if k != "type"]:
                    for odd in ODD_VALUES:
                        forged = {**copy.deepcopy(action), key: odd}
                        try:
                            rules.apply(state, seat, forged)
                        except (InvalidAction, IllegalAction) as refusal:
                            assert str(refusal), f"{slug}: empty message for {forged}"
                        # A forged value may happen to be legal (0, -1, ""): that is fine, as long
                        # as it did not crash; apply is pure, so the state below is untouched.
                        assert json.dumps(rules.dump(state), sort_keys=True) == before, forged
        seat, actions = pick.choice(movers)
        going_on = [a for a in actions if a["type"] not in QUITTING] or actions
        state = rules.apply(state, seat, pick.choice(going_on))
