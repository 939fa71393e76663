"""What counts as a reveal in Shuffle and Doom!, and undo through it (rules:
docs/rules/shuffle-and-doom.md, section 11 "Undo"; the machinery: ``rules_engine.undo``).

The proof that undo never peeks: an action the ``reveals`` hook calls silent does the same to
every game the player cannot tell apart from theirs (the draw pile's unseen cards in another
order, another seed for the reshuffles), so taking it back and playing again shows nothing new."""

from __future__ import annotations

import random
import re

import rules_engine
from rules_engine.cards import standard_deck
from rules_engine.games import shuffle_and_doom as sad
from rules_engine.games.shuffle_and_doom.solver import determinize
from rules_engine.undo import game_part
from tests.engine.test_shuffle_and_doom import act, choose, given_state, setup_s1
from tests.helpers.decks import S1_DECK, S1_HEADERS
from tests.helpers.engine import refused

SEAT = "p1"
RULES = rules_engine.get("shuffle-and-doom")
UNDO, PRACTICE = {"type": "undo"}, {"type": "practice"}


def twin(state: dict, rng: random.Random) -> dict:
    """A game the player cannot tell from ``state``: the draw pile's unseen cards in another order
    (the header cards the view lists at its bottom stay), under another seed (the solver's
    ``determinize``)."""
    other = determinize(state, SEAT, rng)
    assert sad.view(other, SEAT) == sad.view(state, SEAT)
    return other


def why(state: dict, action: dict) -> tuple[dict, str | None]:
    after = sad.apply(state, SEAT, action)
    return after, sad.reveals(state, after, SEAT, action)


def headers_only(rng: random.Random) -> list[str]:
    """A stacked deck of just the ten header cards of a 5×5 map: the draw pile is the headers,
    so it runs out and is reshuffled within a short game."""
    while True:
        deck = rng.sample(standard_deck(), 10)
        if {code[-1] in "HD" for code in deck} == {True, False}:
            return deck


# --- a. soundness -----------------------------------------------------------------------------


def silent_actions_checked(seed: int, options: dict) -> tuple[set[str], int, int]:
    """Play one game; at every state check each legal action against a twin of the state. Returns
    the kinds of silent actions met, how many flagged actions looked different in the twin, and
    how many actions reshuffled the deck."""
    rng, dealer = random.Random(seed), random.Random(-seed)
    state = sad.new_game(seed, [SEAT], options)
    kinds: set[str] = set()
    told_apart = shuffles = steps = 0
    while sad.result(state) is None:
        other = twin(state, dealer)
        assert sad.legal_actions(other, SEAT) == sad.legal_actions(state, SEAT)
        for action in sad.legal_actions(state, SEAT):
            after, reason = why(state, action)
            other_after = sad.apply(other, SEAT, action)
            same = sad.view(other_after, SEAT) == sad.view(after, SEAT)
            if reason is None:
                assert same, action
                assert sad.reveals(other, other_after, SEAT, action) is None
                # The converse: no card was drawn (the setup only adds the headers) and no reshuffle.
                assert len(after["draw"]) >= len(state["draw"]), action
                assert after["exhaustions"] == state["exhaustions"], action
                kinds.add(action["type"])
            else:
                told_apart += not same
                shuffles += "the deck was shuffled" in reason
        state = sad.apply(state, SEAT, choose(state, rng, steps))
        steps += 1
    return kinds, told_apart, shuffles


def test_a_silent_action_does_the_same_whatever_the_hidden_cards():
    kinds: set[str] = set()
    told_apart = shuffles = 0
    games = [(seed, {"size": 5}) for seed in range(3)]
    # Seeds 3, 5 and 7 are games that run out of cards and reshuffle.
    games += [(seed, {"size": 5, "deck": headers_only(random.Random(seed))}) for seed in (3, 5, 7)]
    games += [(7, {"size": 4, "retreat_from_combat": True, "retreat_keeps_traps": True, "merge_single_rooms": True})]
    for seed, options in games:
        met, apart, shuffled = silent_actions_checked(seed, options)
        kinds |= met
        told_apart += apart
        shuffles += shuffled
    # Neither half is vacuous: the silent kinds were checked, and flagged moves do differ in a twin.
    assert {"move", "attack", "drink", "retreat", "choose_stat_set", "swap_headers"} <= kinds
    assert told_apart and shuffles


def test_a_move_into_a_new_room_is_flagged_and_a_move_through_empty_cells_is_not():
    state = given_state("M2", (1, 1), health=7, draw=["2D", "3D", "4H", "KS", "9C"])
    state, reason = why(state, {"type": "move", "dir": "E"})
    assert reason is None
    state, reason = why(state, {"type": "move", "dir": "S"})
    assert state["phase"] == "combat" and reason == "a room was turned face up"


# --- b. scenarios from the rules -------------------------------------------------------------


class TestScenarios:
    def test_s1_setup_reveals_only_when_the_first_cell_draws_a_room(self):
        state = sad.new_game(1, [SEAT], {"size": 4, "deck": S1_DECK})
        state, reason = why(state, {"type": "choose_stat_set", "set": "top"})
        assert reason is None  # a diamond is still to assign: nothing entered yet
        _, reason = why(state, {"type": "assign_diamond_bonus", "card": "8D", "stat": "attack"})
        assert reason == "a room was turned face up"  # (1,1) is filled: its room is drawn for

    def test_s17a_a_header_swap_and_a_setup_ending_on_an_empty_cell_show_nothing(self):
        state = sad.new_game(1, [SEAT], {"size": 4, "deck": S1_DECK, "merge_single_rooms": True})
        state, reason = why(state, {"type": "swap_headers", "set": "top", "i": 1, "j": 3})
        assert reason is None
        state, reason = why(state, {"type": "choose_stat_set", "set": "top"})
        assert reason is None
        state, reason = why(state, {"type": "assign_diamond_bonus", "card": "8D", "stat": "attack"})
        assert state["encounter"] is None and reason is None

    def test_s2_a_fight_and_walking_through_empty_cells_show_nothing_the_exit_ends_the_game(self):
        state = setup_s1([*S1_HEADERS, "6S"])
        state, reason = why(state, {"type": "attack", "card": "6S"})
        assert reason is None
        state, reason = why(state, {"type": "move", "dir": "E"})
        assert reason is None
        state, reason = why(state, {"type": "move", "dir": "E"})
        assert reason is None
        state, reason = why(state, {"type": "move", "dir": "E"})
        assert reason == "a room was turned face up"
        for _ in range(2):
            state = act(state, "move", dir="S")
        state, reason = why(state, {"type": "move", "dir": "S"})
        assert reason == "a room was turned face up"
        _, reason = why(state, {"type": "exit"})
        assert reason == "the game ended"

    def test_s5_combat_and_drinking_show_nothing(self):
        state = given_state("M1", (3, 3), health=9, attack=8, hand=["6H"], draw=["QS", "5S", "4D"])
        state = act(state, "move", dir="E")
        for action in (
            {"type": "attack", "card": "QS"},
            {"type": "drink", "card": "6H"},
            {"type": "attack", "card": "5S"},
            {"type": "attack", "card": "QS"},
        ):
            state, reason = why(state, action)
            assert reason is None, action

    def test_s6_death_ends_the_game(self):
        state = act(given_state("M1", (3, 3), health=3, attack=5, draw=["7S", "2S", "9H"]), "move", dir="E")
        _, reason = why(state, {"type": "attack", "card": "2S"})
        assert reason == "the game ended"

    def test_s7_traps_and_books_show_nothing(self):
        state = given_state("M1", (3, 3), health=10, intelligence=6, hand=["5C"], draw=["9C", "4C", "7H"])
        state = act(state, "move", dir="E")
        for action in (
            {"type": "deactivate", "card": "4C"},
            {"type": "read", "card": "5C"},
            {"type": "deactivate", "card": "9C"},
        ):
            state, reason = why(state, action)
            assert reason is None, action

    def test_s9_s10_taking_and_retreating_show_nothing(self):
        state = act(
            given_state("M2", (1, 2), health=10, intelligence=4, draw=["9C", "3C", "8D", "5H"]), "move", dir="S"
        )
        _, reason = why(act(state, "deactivate", card="3C"), {"type": "take", "card": "8D"})
        assert reason is None
        state = act(given_state("M1", (3, 3), health=10, intelligence=4, draw=["9C", "8D", "5H"]), "move", dir="E")
        _, reason = why(state, {"type": "retreat", "to": [4, 4]})
        assert reason is None

    def test_s11_the_trap_opener_shows_nothing_and_the_last_blow_ends_the_game(self):
        draw = ["6C", "5S", "9S", "KS", "7D", "2H"]
        state = given_state("M3", (2, 2), health=20, attack=6, hand=["4H"], draw=draw, emptied=[(1, 1)])
        state = act(state, "move", dir="E")
        state, reason = why(state, {"type": "use_trap_opener", "card": "7D"})
        assert reason is None
        state = act(act(state, "attack", card="KS"), "attack", card="9S")
        _, reason = why(state, {"type": "attack", "card": "KS"})
        assert reason == "the game ended"

    def test_s13_an_exhaustion_shuffles_the_deck(self):
        state = given_state(
            "M2",
            (3, 2),
            health=10,
            attack=14,
            intelligence=4,
            gold=4,
            gold_pile=["4D"],
            hand=["5H", "3C"],
            returned=["QS"],
            emptied=[(2, 1)],
        )
        _, reason = why(state, {"type": "move", "dir": "S"})
        assert reason == "the deck was shuffled and a room was turned face up"

    def test_s15b_going_back_into_a_suspended_room_shows_nothing(self):
        draw = ["9S", "4S", "6D", "2C"]
        state = given_state("M1", (3, 3), health=14, attack=5, draw=draw, retreat_from_combat=True)
        state = act(act(state, "move", dir="E"), "attack", card="9S")
        state, reason = why(state, {"type": "retreat", "to": [3, 3]})
        assert reason is None
        state, reason = why(state, {"type": "move", "dir": "E"})
        assert state["phase"] == "combat" and reason is None


# --- c. undo through the rules object ---------------------------------------------------------


def undo_at_random(seed: int, options: dict) -> tuple[int, int]:
    """One game with undos mixed in: each lands on the game as it was before the move it takes
    back, the reach counts the moves since the last reveal, and at the horizon an undo is refused
    with the reveal's words, changing nothing. Returns how many undos and refusals were made."""
    rng = random.Random(seed)
    state = RULES.new_game(seed, [SEAT], options)
    before: list[dict] = []  # the game part before each move since the last reveal
    last_reason = None
    undos = refusals = steps = 0
    while RULES.result(state) is None:
        reach = RULES.undo_reach(state, SEAT)
        assert reach.steps == len(before)
        if before and rng.random() < 0.3:
            state = RULES.apply(state, SEAT, UNDO)
            assert game_part(state) == before.pop()
            undos += 1
            continue
        if not before and last_reason is not None:
            assert reach.reason == last_reason
            refused(RULES, state, SEAT, UNDO, match=re.escape(f"Nothing to undo: {last_reason}."))
            refusals += 1
        action = choose(game_part(state), rng, steps)
        steps += 1
        previous = game_part(state)
        state = RULES.apply(state, SEAT, action)
        reason = sad.reveals(previous, game_part(state), SEAT, action)
        if reason is None:
            before.append(previous)
        else:
            before, last_reason = [], reason
    return undos, refusals


def test_random_games_undo_exactly_back_to_the_last_reveal():
    undos = refusals = 0
    for seed in range(3):
        done, refused_here = undo_at_random(seed, {"size": 5})
        undos += done
        refusals += refused_here
    assert undos and refusals


def test_practice_undoes_past_reveals_and_the_same_cards_come_again():
    rng = random.Random(3)
    state = RULES.new_game(3, [SEAT], {"size": 5})
    start = game_part(state)
    state = RULES.apply(state, SEAT, PRACTICE)
    moves, seen, reveals = [], [], 0
    while len(moves) < 40:
        action = choose(game_part(state), rng, len(moves))
        if RULES.result(RULES.apply(state, SEAT, action)) is not None:
            break  # a finished game has no undo, practice or not
        previous = game_part(state)
        state = RULES.apply(state, SEAT, action)
        moves.append(action)
        seen.append(game_part(state))
        reveals += sad.reveals(previous, seen[-1], SEAT, action) is not None
    assert reveals and RULES.undo_reach(state, SEAT).steps == len(moves)
    for _ in moves:
        state = RULES.apply(state, SEAT, UNDO)
    assert game_part(state) == start
    for action, expected in zip(moves, seen):
        state = RULES.apply(state, SEAT, action)
        assert game_part(state) == expected
