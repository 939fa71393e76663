"""Shuffle and Doom! by typed commands (issue 28): ``rules_engine/games/shuffle_and_doom/speech.py``.

Along random games (with the options that add a header swap, retreats and trap-keeping) every
legal action is exactly one command with its own typed form, and reading that form gives the
action back; every question gets a sentence; the answers hang on the view alone (the undealt
cards changed, same words); the How to play list names every word the game uses.
"""

from __future__ import annotations

import random

import pytest

import rules_engine
from rules_engine import speech
from rules_engine.games.shuffle_and_doom import speech as sad_speech
from tests.engine.test_loss_warnings import sad_hidden_changed
from tests.helpers.speech import checked_commands

R = rules_engine.get("shuffle-and-doom")
SEEDS = tuple(range(6))
ANSWERED = ("status", "where", "hand", "board", "score")
OPTIONS = (
    {"size": 4},
    {"size": 5, "merge_single_rooms": True, "retreat_from_combat": True, "retreat_keeps_traps": True},
)
STEPS = 120


def states_along_a_game(seed: int, options: dict) -> list[dict]:
    """The states of one random game (at most ``STEPS`` actions): it prefers what is not a move,
    so that rooms are fought and traps met rather than walked around."""
    rng = random.Random(seed)
    state = R.new_game(seed, ["p1"], options)
    states = [state]
    for _ in range(STEPS):
        legal = R.legal_actions(state, "p1")
        if not legal:
            break
        acting = [a for a in legal if a["type"] != "move"] if rng.random() < 0.7 else []
        state = R.apply(state, "p1", rng.choice(acting or legal))
        states.append(state)
    return states


def check_answers(view: dict) -> None:
    for topic in speech.TOPICS:
        answer = R.speech.describe(view, topic)
        if topic in ("help", "log"):
            assert answer is None
        else:
            assert isinstance(answer, str) and answer.strip(), topic
    grid = R.speech.grid(view)
    assert [len(row) for row in grid.rows] == [view["size"]] * view["size"]
    assert all(cell for row in grid.rows for cell in row)
    if view["position"]:
        assert grid.you == (view["position"][0] - 1, view["position"][1] - 1)
        assert speech.cell_words(grid, *grid.you).endswith("you are here")


@pytest.mark.parametrize("options", OPTIONS, ids=["standard", "swaps-and-retreats"])
@pytest.mark.parametrize("seed", SEEDS)
def test_every_legal_action_is_one_command_that_reads_back(seed, options):
    for state in states_along_a_game(seed, options):
        checked_commands(R, state)
        check_answers(R.view(state, "p1"))
        check_answers(R.view(state, None))


def test_the_words_met_along_the_games_cover_the_verbs():
    """Every word of VERBS is met along the games above (no word is dead)."""
    met = set()
    for options in OPTIONS:
        for seed in SEEDS:
            for state in states_along_a_game(seed, options):
                met |= {c.word for c in checked_commands(R, state)}
    assert met == set(R.speech.VERBS)


def test_the_answers_never_hang_on_the_undealt_cards():
    for seed in SEEDS[:3]:
        for state in states_along_a_game(seed, OPTIONS[1])[::7]:
            changed = sad_hidden_changed(state)
            view = R.view(state, "p1")
            assert R.view(changed, "p1") == view
            for topic in ANSWERED:
                assert R.speech.describe(R.view(changed, "p1"), topic) == R.speech.describe(view, topic)
            legal = R.legal_actions(state, "p1")
            assert R.speech.commands(R.view(changed, "p1"), legal) == R.speech.commands(view, legal)


def test_a_status_a_where_and_the_end_in_words():
    state = R.new_game(1, ["p1"], {"size": 4, "deck": "5C 8D 3H 9S 7D KS JS QH 6S".split()})
    view = R.view(state, "p1")
    assert R.speech.describe(view, "status").startswith("Your turn. Choose the set")
    assert R.speech.describe(view, "score") == "No adventurer yet: choose a set first."
    assert R.speech.describe(R.view(state, None), "status").startswith("Watching")
    for action in (
        {"type": "choose_stat_set", "set": "top"},
        {"type": "assign_diamond_bonus", "card": "8D", "stat": "attack"},
        {"type": "attack", "card": "6S"},
        *({"type": "move", "dir": d} for d in "EEESSS"),
    ):
        state = R.apply(state, "p1", action)
    view = R.view(state, "p1")
    assert R.speech.describe(view, "where").endswith("You are on the exit: type exit to leave.")
    assert [c.typed for c in R.speech.commands(view, R.legal_actions(state, "p1"))] == [
        "move n",
        "move w",
        "exit",
        "read 1",
    ]
    state = R.apply(state, "p1", {"type": "exit"})
    view = R.view(state, "p1")
    assert R.speech.describe(view, "status").startswith("Game over. You left the dungeon with 8 gold")
    assert R.speech.describe(view, "score").endswith("Final score: 8.")


def test_the_how_to_play_list_names_every_word():
    listed = {form.split()[0] for form, _meaning in sad_speech.COMMAND_FORMS}
    assert listed == set(sad_speech.VERBS)
