"""The Dungeon of Doom by typed commands (issue 28): ``rules_engine/games/dungeon_of_doom/speech.py``.

Along random games every legal action of every seat is exactly one command in the classic words
(``move n``, ``pickup``, ``attack e``, ``end``) with its own typed form, and reading that form
gives the action back; every question gets a sentence; ``look`` reads the seat's field by
direction and distance; and nothing hidden is said: with every other player out of sight moved
and every tile the seat never saw changed (the undo tests' changer), the view is the same and so
is every answer and every cell of the grid.
"""

from __future__ import annotations

import random

import pytest

import rules_engine
from rules_engine import speech
from rules_engine.games.dungeon_of_doom import speech as dod_speech
from tests.engine.test_undo_dungeon_of_doom import _hidden_changed
from tests.helpers.speech import checked_commands

R = rules_engine.get("dungeon-of-doom")
ANSWERED = ("status", "where", "board", "score")
SEATS = ["p1", "p2", "p3"]
STEPS = 150


def states_along_a_game(seed: int, random_map: str | None = None) -> list[dict]:
    """The states of one random game of three seats (never leaving; picking up and attacking
    whenever they can, so that kits, lanterns and deaths come), at most ``STEPS`` of them."""
    rng = random.Random(seed)
    options = {"random_map": random_map} if random_map else {}
    state = R.new_game(seed, SEATS, options)
    states = [state]
    for _ in range(STEPS):
        if state["result"] is not None:
            break
        seat = state["turn"]["seat"]
        legal = [a for a in R.legal_actions(state, seat) if a["type"] != "leave"]
        eager = [a for a in legal if a["type"] in ("pickup", "attack")]
        state = R.apply(state, seat, rng.choice(eager or legal))
        states.append(state)
    return states


def check_answers(view: dict) -> None:
    for topic in speech.TOPICS:
        answer = R.speech.describe(view, topic)
        if topic in ("help", "log", "hand"):
            assert answer is None
        else:
            assert isinstance(answer, str) and answer.strip(), (topic, answer)
    grid = R.speech.grid(view)
    if grid is not None:
        assert len(grid.rows) == view["map"]["height"] and {len(r) for r in grid.rows} == {view["map"]["width"]}


@pytest.mark.parametrize(("seed", "random_map"), [(1, None), (2, "S")])
def test_every_legal_action_is_one_classic_command_that_reads_back(seed, random_map):
    words = set()
    for state in states_along_a_game(seed, random_map):
        for seat in [*SEATS, "p9"]:
            words |= {c.word for c in checked_commands(R, state, seat)}
            check_answers(R.view(state, seat))
        check_answers(R.view(state, None))
    assert {"move", "end", "leave", "join"} <= words


@pytest.mark.parametrize(("seed", "random_map"), [(1, None), (3, "S")])
def test_nothing_unseen_is_said(seed, random_map):
    """Other players out of sight moved and every never-seen tile changed: the same view, and the
    same words for every question, the same grid and the same commands."""
    states = states_along_a_game(seed, random_map)
    for before, after in list(zip(states, states[1:], strict=False))[::6]:
        if before["result"] is not None:
            continue
        for seat in SEATS:
            twin = _hidden_changed(before, after, seat)
            view = R.view(before, seat)
            assert twin != before and R.view(twin, seat) == view
            for topic in ANSWERED:
                assert R.speech.describe(R.view(twin, seat), topic) == R.speech.describe(view, topic)
            assert R.speech.grid(R.view(twin, seat)) == R.speech.grid(view)
            assert R.speech.commands(R.view(twin, seat), R.legal_actions(twin, seat)) == checked_commands(
                R, before, seat
            )


LEDGE = "name Ledge\nwin 1\n#....\n#.G..\n#E#.S\n#...."


def test_look_reads_each_way_by_distance_then_the_rest_in_sight():
    state = R.new_game(1, ["p1", "p2"], {"map": LEDGE, "start_positions": {"p1": [1, 1], "p2": [2, 3]}})
    view = R.view(state, "p1")
    assert R.speech.describe(view, "where") == (
        "North: the edge of the map 2 steps away. East: 1 gold next to you. South: the exit next to you. "
        "West: a wall next to you. Also in sight: p2 1 step south and 2 steps east of you."
    )
    assert [c.typed for c in checked_commands(R, state, "p1")] == ["move n", "move e", "move s", "end", "leave game"]
    grid = R.speech.grid(view)
    assert speech.cell_words(grid, 1, 1) == "row 2, column 2: floor, you are here"
    assert speech.cell_words(grid, 2, 4) == "row 3, column 5: unseen"
    moved = R.apply(state, "p1", {"type": "move", "dir": "E"})
    assert R.speech.describe(R.view(moved, "p1"), "where").startswith("Here: 1 gold.")
    assert [c.says for c in checked_commands(R, moved, "p1") if c.word == "pickup"] == ["Pick up 1 gold."]


def test_the_how_to_play_table_names_every_word_and_question():
    forms = [typed for typed, _says in dod_speech.COMMAND_HELP]
    assert {typed.split()[0] for typed in forms} == R.speech.VERBS
    assert [topic for topic, _ in dod_speech.QUESTIONS] == list(speech.TOPICS)
