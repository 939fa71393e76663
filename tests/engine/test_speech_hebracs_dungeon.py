"""Hebrac's Dungeon by typed commands (issue 28): ``rules_engine/games/hebracs_dungeon/speech.py``.

Along random games (options that open the rarer steps) every legal action is exactly one
command with its own typed form, and reading that form gives the action back; every question
gets a sentence; the answers hang on the view alone (hidden cards changed, same words); ``where``
reads the chambers around by direction; the How to play table names every word the game uses.
"""

from __future__ import annotations

import random
import re

import pytest

import rules_engine
from rules_engine import speech
from rules_engine.games.hebracs_dungeon import speech as hd_speech
from tests.engine.test_loss_warnings import hd_hidden_changed
from tests.helpers.hebracs_dungeon import situation
from tests.helpers.speech import checked_commands

R = rules_engine.get("hebracs-dungeon")
GAMES = [(0, {}), (3, {"strength_after_attack": True}), (4, {"inventory_limit": 3}), (5, {"alignment": "evil"})]
STEPS = 120
ANSWERED = ("status", "where", "hand", "board", "score")


def states_along_a_game(seed: int, options: dict) -> list[dict]:
    """The states of one random game (it never resigns), at most ``STEPS`` actions long."""
    rng = random.Random(seed)
    state = R.new_game(seed, ["p1"], options)
    states = [state]
    while (legal := R.legal_actions(state, "p1")) and len(states) <= STEPS:
        state = R.apply(state, "p1", rng.choice([a for a in legal if a["type"] != "resign"]))
        states.append(state)
    return states


def check_answers(view: dict) -> None:
    for topic in speech.TOPICS:
        answer = R.speech.describe(view, topic)
        assert answer is None if topic in ("help", "log") else isinstance(answer, str) and answer.strip()
    grid = R.speech.grid(view)
    assert [len(row) for row in grid.rows] == [view["cols"]] * view["rows"]
    if view["position"]:
        row, col = grid.you
        assert "you are here" in speech.cell_words(grid, row, col)


@pytest.mark.parametrize("seed,options", GAMES)
def test_every_legal_action_is_one_command_that_reads_back(seed, options):
    words = set()
    for state in states_along_a_game(seed, options):
        words |= {c.word for c in checked_commands(R, state)}
        check_answers(R.view(state, "p1"))
        check_answers(R.view(state, None))
    assert {"enter", "attack"} <= words


def test_the_rarer_steps_have_their_words():
    """A strength potion drunk after the attack card, a full bag, the Genie of Death."""
    words = set()
    for seed, options in GAMES:
        for state in states_along_a_game(seed, options):
            words |= {c.word for c in checked_commands(R, state)}
    genie = R.apply(situation(cells={(1, 1): "AC/KS"}), "p1", {"type": "move", "row": 1, "col": 1})
    destroy = checked_commands(R, genie)
    assert [c.word for c in destroy] == ["destroy", "resign"] and "(" in destroy[0].says
    assert {"finish", "drop", "cast", "drink", "descend"} <= words


def test_where_reads_the_chambers_around_by_direction():
    state = situation(cells={(2, 2): "cleared", (1, 2): "7S/5H"}, position=(2, 2))
    where = R.speech.describe(R.view(state, "p1"), "where")
    assert where.startswith("You are in chamber (2,2), cleared.")
    assert "North, (1,2): unexplored, enemy face down, treasure face down; you can enter." in where
    assert "East, (2,3)" in where and "South, (3,2)" in where and "West, (2,1)" in where
    corner = situation(cells={(1, 1): "cleared"}, position=(1, 1))
    assert "North: the wall. East, (1,2)" in R.speech.describe(R.view(corner, "p1"), "where")
    start = R.new_game(7, ["p1"], None)
    assert R.speech.describe(R.view(start, "p1"), "where") == (
        "You stand at the entrance of level 1. You can enter a corner: (1,1), (1,4), (3,1), (3,4)."
    )


@pytest.mark.parametrize("seed,options", GAMES[:2])
def test_the_answers_read_the_view_alone(seed, options):
    """The hidden cards changed (the Hand Deck below the known top turned over), the view is the
    same and so is every word."""
    compared = 0
    for state in states_along_a_game(seed, options)[::10]:
        twin = hd_hidden_changed(state)
        if twin["hand_deck"] == state["hand_deck"]:
            continue
        compared += 1
        assert R.view(twin, "p1") == R.view(state, "p1")
        for topic in ANSWERED:
            assert R.speech.describe(R.view(twin, "p1"), topic) == R.speech.describe(R.view(state, "p1"), topic)
        assert R.speech.commands(R.view(twin, "p1"), R.legal_actions(twin, "p1")) == checked_commands(R, state)
    assert compared


def shape(typed: str) -> str:
    """A typed form with its numbers and card codes as placeholders, spell names kept."""
    typed = re.sub(r"\b(10|[2-9ajqk])[shdc]\b|\bjk\b", "C", typed)
    return re.sub(r"\d+ \d+", "R C", typed)


def test_the_how_to_play_table_names_every_word_and_question():
    forms = [typed for typed, _says in hd_speech.COMMAND_HELP]
    assert {typed.split()[0] for typed in forms} == R.speech.VERBS
    shapes = {shape(typed) for typed in forms if not typed.startswith("cast")}
    for seed, options in GAMES:
        for state in states_along_a_game(seed, options):
            for command in checked_commands(R, state):
                if command.word != "cast":
                    assert shape(command.typed) in shapes, command.typed
    assert [topic for topic, _ in hd_speech.QUESTIONS] == list(speech.TOPICS)
