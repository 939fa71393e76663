"""The engine kit every game is built on (``rules_engine.kit.Engine``) and the contract's shapes.

Each game's ``apply``, ``dump`` and ``load`` come from one ``kit.Engine``: ``load`` refuses data
that is not one of the game's states (Clear the Dungeon's checked nothing before), ``apply``
checks the action's shape before the seat and never changes its input, and every view and result
carries the keys the contract's TypedDicts name.
"""

from __future__ import annotations

import json
import random

import pytest

import rules_engine
from rules_engine import kit
from rules_engine.contract import GameResult, LogEntry, ViewEnvelope
from rules_engine.errors import IllegalAction, InvalidAction

PLAYERS = {"dungeon-of-doom": ["p1", "p2"], "dungeon-cards": ["p1", "p2"]}
SLUGS = rules_engine.available()


@pytest.mark.parametrize("slug", SLUGS)
def test_load_refuses_what_is_not_a_state(slug):
    rules = rules_engine.get(slug)
    for junk in ({}, {"log": []}, {"type": "move"}, ["not", "a", "state"]):
        with pytest.raises(InvalidAction):
            rules.load(junk)


@pytest.mark.parametrize("slug", SLUGS)
def test_load_after_dump_is_the_same_state_and_shares_nothing(slug):
    rules = rules_engine.get(slug)
    state = rules.new_game(3, PLAYERS.get(slug, ["p1"]), {})
    saved = json.dumps(rules.dump(state), sort_keys=True)
    loaded = rules.load(json.loads(saved))
    assert loaded == state
    for value in loaded.values():  # a copy: changing its containers leaves the state alone
        if isinstance(value, list):
            value.append("changed")
        elif isinstance(value, dict):
            value["changed"] = True
    assert json.dumps(rules.dump(state), sort_keys=True) == saved


@pytest.mark.parametrize("slug", SLUGS)
def test_every_game_module_is_built_on_one_engine(slug):
    rules = rules_engine.get(slug)
    engines = {type(getattr(rules.module, name).__self__) for name in ("dump", "load")}
    assert engines == {kit.Engine}


@pytest.mark.parametrize("slug", SLUGS)
def test_a_malformed_action_is_refused_before_the_seat_and_nothing_changes(slug):
    rules = rules_engine.get(slug)
    state = rules.new_game(3, PLAYERS.get(slug, ["p1"]), {})
    before = json.dumps(rules.dump(state), sort_keys=True)
    with pytest.raises(InvalidAction):
        rules.apply(state, "nobody", {"type": "no-such-action"})
    with pytest.raises((InvalidAction, IllegalAction)):
        rules.apply(state, "nobody", rules.legal_actions(state, PLAYERS.get(slug, ["p1"])[0])[0])
    assert json.dumps(rules.dump(state), sort_keys=True) == before


@pytest.mark.parametrize("slug", SLUGS)
def test_views_and_results_carry_the_contract_typed_dicts_keys(slug):
    rules = rules_engine.get(slug)
    seats = PLAYERS.get(slug, ["p1"])
    state = rules.new_game(5, seats, {})
    pick = random.Random(slug)
    for _ in range(300):
        for viewer in [*seats, None]:
            view = rules.view(state, viewer)
            assert ViewEnvelope.__required_keys__ <= view.keys()
            assert all(LogEntry.__required_keys__ <= entry.keys() for entry in view["log"])
        if rules.result(state) is not None:
            break
        movers = [(seat, actions) for seat in seats if (actions := rules.legal_actions(state, seat))]
        seat, actions = pick.choice(movers)
        state = rules.apply(state, seat, pick.choice(actions))
    resign = [a for a in rules.legal_actions(state, seats[0]) if a["type"] in ("resign", "leave", "leave_game")]
    if rules.result(state) is None and resign:
        state = rules.apply(state, seats[0], resign[0])
    result = rules.result(state)
    if result is not None:
        assert GameResult.__required_keys__ <= result.keys()
