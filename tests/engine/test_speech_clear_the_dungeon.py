"""Clear the Dungeon by typed commands (issue 28): ``rules_engine/games/clear_the_dungeon/speech.py``.

Along random games every legal action is exactly one command with its own typed form, and
reading that form gives the action back; every question gets a sentence; the answers hang on
the view alone (hidden cards changed, same words); the king items and the K♦ decision get their
own words; the How to play table names every word the game uses.
"""

from __future__ import annotations

import random
import re

import pytest

import rules_engine
from rules_engine import speech
from rules_engine.games.clear_the_dungeon import speech as ctd_speech
from tests.engine.test_loss_warnings import ctd_hidden_changed
from tests.helpers.speech import checked_commands

R = rules_engine.get("clear-the-dungeon")
SEEDS = tuple(range(8))
ANSWERED = ("status", "where", "hand", "board", "score")


def states_along_a_game(seed: int) -> list[dict]:
    """Every state of one random game, first to last: it never resigns, and ends a turn only
    when nothing else is legal (so that monsters fall, kings become items and the game lasts)."""
    rng = random.Random(seed)
    state = R.new_game(seed, ["p1"])
    states = [state]
    while legal := R.legal_actions(state, "p1"):
        acting = [a for a in legal if a["type"] not in ("resign", "end_turn")]
        state = R.apply(state, "p1", rng.choice(acting or [{"type": "end_turn"}]))
        states.append(state)
    return states


def with_every_king(state: dict) -> dict:
    """The same game with the four king items in hand and a card on the lowest monster, so that
    every item is usable (the K♠ doubles a monster's only card)."""
    state = R.load(R.dump(state))
    state["inventory"] = ["KH", "KD", "KS", "KC"]
    pos = next(p for p in reversed(list(state["dungeon"])) if state["dungeon"][p] is not None)
    state["dungeon"][pos]["attack"] = [{"card": state["power_deck"].pop(), "doubled": False}]
    return state


def check_answers(view: dict) -> None:
    for topic in speech.TOPICS:
        answer = R.speech.describe(view, topic)
        assert answer is None if topic in ("help", "log") else isinstance(answer, str) and answer.strip()
    grid = R.speech.grid(view)
    assert [len(row) for row in grid.rows] == list(R.ROW_SIZES)
    assert all(cell for row in grid.rows for cell in row)


@pytest.mark.parametrize("seed", SEEDS)
def test_every_legal_action_is_one_command_that_reads_back(seed):
    for state in states_along_a_game(seed):
        checked_commands(R, state)
        check_answers(R.view(state, "p1"))
        check_answers(R.view(state, None))


def test_the_king_items_and_the_peek_decision_have_their_own_words():
    state = with_every_king(R.new_game(5, ["p1"]))
    words = {c.word for c in checked_commands(R, state)}
    assert {"bury", "peek", "double", "draw", "play", "end"} <= words
    peeked = R.apply(state, "p1", {"type": "use_item", "item": "KD"})
    assert [c.typed for c in checked_commands(R, peeked)] == ["top", "leave", "resign"]
    card = R.view(peeked, "p1")["pending"]["card"]
    assert rules_engine.cards.Card.parse(card).name in R.speech.describe(R.view(peeked, "p1"), "status")
    refused = speech.read(
        "play 1 qh", R.speech.commands(R.view(peeked, "p1"), R.legal_actions(peeked, "p1")), R.speech.VERBS
    )
    assert refused.action is None and refused.text == "You cannot play now. You can: top, leave, resign."


def test_cards_are_named_as_the_page_numbers_the_hand_and_monsters_by_their_card():
    state = R.new_game(1, ["p1"])
    view = R.view(state, "p1")
    command = next(c for c in checked_commands(R, state) if c.word == "play")
    number, monster = command.argument.split()
    assert view["hand"][int(number) - 1] == command.action["card"]
    target = next(d for d in view["dungeon"] if d["pos"] == command.action["target"])
    assert monster == target["card"].lower()
    assert f"{number}: " in R.speech.describe(view, "hand")
    assert f"({monster})" in R.speech.describe(view, "where")


@pytest.mark.parametrize("seed", SEEDS)
def test_the_answers_read_the_view_alone(seed):
    """The hidden cards changed (the power deck turned over), the view is the same and so is
    every word: the command line says nothing the page could not show."""
    for state in states_along_a_game(seed)[::4]:
        twin = ctd_hidden_changed(state)
        assert twin != state and R.view(twin, "p1") == R.view(state, "p1")
        for topic in ANSWERED:
            assert R.speech.describe(R.view(twin, "p1"), topic) == R.speech.describe(R.view(state, "p1"), topic)
        assert R.speech.commands(R.view(twin, "p1"), R.legal_actions(twin, "p1")) == checked_commands(R, state)


def test_the_how_to_play_table_names_every_word_and_question():
    forms = [typed for typed, _says in ctd_speech.COMMAND_HELP]
    assert {typed.split()[0] for typed in forms} == R.speech.VERBS
    shapes = {re.sub(r"\d+", "N", re.sub(r"\b[jqk][shdc]\b", "M", typed)) for typed in forms}
    for seed in SEEDS:
        for state in states_along_a_game(seed)[:30]:
            for command in checked_commands(R, state):
                shape = re.sub(r"\d+", "N", re.sub(r"\b[jqk][shdc]\b", "M", command.typed))
                assert shape in shapes, command.typed
    assert [topic for topic, _ in ctd_speech.QUESTIONS] == list(speech.TOPICS)
