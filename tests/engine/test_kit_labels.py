"""An action is declared once (issue 23 item 2): its parameters, its handler and its button's
words (``kit.ActionKind.label``); ``kit.Engine.action_label`` gives every game's labels."""

from __future__ import annotations

import importlib

import pytest

from rules_engine import kit
from rules_engine.errors import InvalidAction

GAMES = ("clear_the_dungeon", "dungeon_cards", "dungeon_of_doom", "hebracs_dungeon", "shuffle_and_doom")


@pytest.mark.parametrize("game", GAMES)
def test_each_games_labels_come_from_its_declared_actions(game):
    module = importlib.import_module(f"rules_engine.games.{game}")
    engine = getattr(module.action_label, "__self__", None)
    assert isinstance(engine, kit.Engine), f"{game}.action_label is a function of its own"
    assert all(declared.label is not None for declared in engine.actions.values())


def _engine(**kwargs) -> kit.Engine:
    def nothing(_working, _seat, _action):
        return None

    actions = {
        "wait": kit.ActionKind({}, nothing, "Wait"),
        "move": kit.ActionKind({"dir": ("N", "S")}, nothing, lambda state, a: f"Move {a['dir']} from {state['at']}"),
        "shrug": kit.ActionKind({}, nothing),
    }
    return kit.Engine(actions, kit.WORDING, lambda *_: None, dict, "not a state", (), **kwargs)


def test_a_label_is_a_text_or_worded_from_the_state_and_the_action():
    engine = _engine()
    assert engine.action_label({"at": 3}, {"type": "wait"}) == "Wait"
    assert engine.action_label({"at": 3}, {"type": "move", "dir": "N"}) == "Move N from 3"
    assert engine.action_label({}, {"type": "shrug"}) == "shrug"
    assert engine.action_label({}, {"type": "fly"}) == "fly"


def test_labels_of_parsed_actions_refuse_a_malformed_one():
    engine = _engine(label_parsed=True)
    with pytest.raises(InvalidAction):
        engine.action_label({}, {"type": "fly"})
    with pytest.raises(InvalidAction):
        engine.action_label({"at": 1}, {"type": "move", "dir": "E"})
