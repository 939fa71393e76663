"""Dungeon Cards by typed commands (issue 28): ``rules_engine/games/dungeon_cards/speech.py``.

Along random solo and party games (lobby, hand-placed markers, a chosen start, fights, a hand of
three cards) every legal action of every seat is exactly one command with its own typed form, and
reading that form gives the action back; every question gets a sentence; the answers hang on the
view alone (the deck and the other hands changed, same words); the How to play table names every
word the game uses.
"""

from __future__ import annotations

import random
import re

import pytest

import rules_engine
from rules_engine import speech
from rules_engine.games.dungeon_cards import speech as dc_speech
from tests.helpers.speech import checked_commands

R = rules_engine.get("dungeon-cards")
ANSWERED = ("status", "where", "hand", "board", "score")
GAMES = (
    # (seed, players, options): a solo game from its lobby, a party in hand mode with a mage and
    # a rogue, and a party whose host picks the start square and places the markers.
    (1, ["ann"], {"board_width": 6, "board_height": 6}),
    (
        2,
        ["ann", "bob", "cy"],
        {
            "classes": {"ann": "mage", "bob": "rogue", "cy": "athlete"},
            "turn_mode": "three_card_hand",
            "board_width": 6,
            "board_height": 6,
            "random_stop_walls": 6,
            "random_redirects": 3,
        },
    ),
    (
        3,
        ["ann", "bob"],
        {
            "classes": {"ann": "healer", "bob": "soldier"},
            "start_square": "chosen",
            "marker_placement": "manual",
            "board_width": 6,
            "board_height": 6,
        },
    ),
)
STEPS = 120


def states_along_a_game(seed: int, players: list[str], options: dict) -> list[dict]:
    """The states of one random game (never leaving, classes chosen from the lobby when the
    options give none), at most ``STEPS`` of them."""
    rng = random.Random(seed)
    state = R.new_game(seed, players, options)
    states = [state]
    for _ in range(STEPS):
        moves = [(p, a) for p in players for a in R.legal_actions(state, p) if a["type"] != "leave_game"]
        if not moves:
            break
        seat, action = rng.choice(moves)
        state = R.apply(state, seat, action)
        states.append(state)
    return states


def check_answers(view: dict) -> None:
    for topic in speech.TOPICS:
        answer = R.speech.describe(view, topic)
        assert answer is None or (isinstance(answer, str) and answer.strip()), (topic, answer)
    assert R.speech.describe(view, "status")
    grid = R.speech.grid(view)
    if view["board"] is not None:
        assert len(grid.rows) == view["board"]["height"] and {len(r) for r in grid.rows} == {view["board"]["width"]}
        assert all(cell for row in grid.rows for cell in row)


def hidden_changed(state: dict, seat: str) -> dict:
    """``state`` with what ``seat`` cannot see made different: the deck turned over and the other
    seats' hands swapped with its top cards (as the properties test's non-interference check)."""
    other = R.load(R.dump(state))
    other["deck"].reverse()
    for c in other["characters"]:
        if c["id"] != seat:
            for i in range(min(len(c["hand"]), len(other["deck"]))):
                c["hand"][i], other["deck"][i] = other["deck"][i], c["hand"][i]
    return other


@pytest.mark.parametrize(("seed", "players", "options"), GAMES)
def test_every_legal_action_is_one_command_that_reads_back(seed, players, options):
    kinds = set()
    for state in states_along_a_game(seed, players, options):
        for seat in players:
            kinds |= {c.action["type"] for c in checked_commands(R, state, seat)}
            check_answers(R.view(state, seat))
        check_answers(R.view(state, None))
    assert {"draw_card", "leave_game"} <= kinds


@pytest.mark.parametrize(("seed", "players", "options"), GAMES)
def test_the_answers_read_the_view_alone(seed, players, options):
    """The deck and the other hands changed, the view is the same and so is every word."""
    for state in states_along_a_game(seed, players, options)[::5]:
        for seat in players:
            twin = hidden_changed(state, seat)
            view = R.view(state, seat)
            assert R.view(twin, seat) == view
            for topic in ANSWERED:
                assert R.speech.describe(R.view(twin, seat), topic) == R.speech.describe(view, topic)
            assert R.speech.grid(R.view(twin, seat)) == R.speech.grid(view)
            assert R.speech.commands(R.view(twin, seat), R.legal_actions(twin, seat)) == checked_commands(
                R, state, seat
            )


def test_the_hand_is_numbered_as_it_is_read_and_each_card_says_its_move():
    state = R.new_game(
        4,
        ["ann"],
        {
            "classes": {"ann": "swordsman"},
            "turn_mode": "three_card_hand",
            "deck": ["3C", "7H", "5D", "9S"],
            "shuffles": "stacked",
        },
    )
    state = R.apply(state, "ann", {"type": "draw_card"})
    view = R.view(state, "ann")
    hand = view["characters"][0]["hand"]
    plays = [c for c in checked_commands(R, state, "ann") if c.word == "play"]
    for command in plays:
        assert hand[int(command.argument) - 1] == command.action["card"]
    assert R.speech.describe(view, "hand").startswith(
        "Your hand: 1, the 3 of clubs: right 3. 2, the 7 of hearts: left 7."
    )
    assert speech.read("play 9", plays, R.speech.VERBS).text.startswith('There is no "play 9" now. You can: play 1')


def test_where_names_the_exit_and_pit_by_direction_and_distance():
    state = R.new_game(
        7,
        ["ann"],
        {"classes": {"ann": "swordsman"}, "marker_placement": "manual", "deck": ["3C"], "shuffles": "stacked"},
    )
    state = R.apply(state, "ann", {"type": "place_marker", "kind": "exit", "square": [5, 8]})
    assert R.speech.describe(R.view(state, "ann"), "where") == (
        "The board is 10 columns by 10 rows. The start is on column 5, row 1. The Exit is on column 5, row 8."
    )
    assert [c.typed for c in checked_commands(R, state, "ann")][:2] == ["pit 1 1", "pit 2 1"]
    state = R.apply(state, "ann", {"type": "place_marker", "kind": "pit", "square": [8, 8]})
    where = R.speech.describe(R.view(state, "ann"), "where")
    assert where.startswith("You are on column 5, row 1 of a board 10 columns by 10 rows.")
    assert "The Exit: 7 squares up, on column 5, row 8. A Pit: 7 squares up and 3 right, on column 8, row 8." in where
    assert "The edges: 9 up, 0 down, 4 left, 5 right." in where
    grid = R.speech.grid(R.view(state, "ann"))
    assert speech.cell_words(grid, *grid.you) == "row 1, column 5: start, you are here"


def test_the_how_to_play_table_names_every_word_and_question():
    forms = [typed for typed, _says in dc_speech.COMMAND_HELP]
    assert {typed.split()[0] for typed in forms} == R.speech.VERBS
    shapes = {re.sub(r"\d+( \d+)*", "N", typed) for typed in forms}
    for seed, players, options in GAMES:
        for state in states_along_a_game(seed, players, options):
            for seat in players:
                for command in checked_commands(R, state, seat):
                    shape = re.sub(r"\d+( \d+)*", "N", command.typed)
                    assert shape in shapes or command.word in ("class", "cast", "gain", "dash"), command.typed
    assert [topic for topic, _ in dc_speech.QUESTIONS] == list(speech.TOPICS)


def test_an_outsider_joins_and_a_helping_rogue_decides_its_critical_hit():
    lobby = R.new_game(5, ["ann"], {})
    assert [c.typed for c in checked_commands(R, lobby, "zed")] == ["join"]
    decisions = [{"type": "critical_hit", "use": True}, {"type": "critical_hit", "use": False}]
    commands = R.speech.commands(R.view(lobby, "ann"), decisions)
    assert [c.typed for c in commands] == ["crit", "save crit"]
    assert [speech.read(c.typed, commands, R.speech.VERBS).action for c in commands] == decisions


def test_the_rewards_say_what_they_give():
    rewards = [{"type": "choose_stat", "stat": "lives"}, {"type": "choose_stat", "stat": "speed"}]
    commands = R.speech.commands(R.view(R.new_game(5, ["ann"], {}), "ann"), rewards)
    assert [(c.typed, c.says) for c in commands] == [
        ("gain lives", "Take one more life, and one more maximum."),
        ("gain speed", "Take one more Speed."),
    ]
