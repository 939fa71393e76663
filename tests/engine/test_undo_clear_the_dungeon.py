"""What counts as a reveal in Clear the Dungeon, and undo through it (rules:
docs/rules/clear-the-dungeon.md, 10.8; the machinery: ``rules_engine.undo``).

The proof that undo never peeks: an action the ``reveals`` hook calls silent does the same to
every game the player cannot tell apart from theirs (the face-down cards dealt otherwise, the
power deck in another order), so taking it back and playing again can show nothing new."""

from __future__ import annotations

import random
import re

import rules_engine
from benchmarks._common import clear_the_dungeon_skilled_choice as skilled_choice
from rules_engine.games import clear_the_dungeon as cd
from rules_engine.games.clear_the_dungeon.solver import determinize
from rules_engine.undo import game_part
from tests.engine.test_clear_the_dungeon import end_turn, face_down, game, play, use
from tests.helpers.engine import refused

SEAT = "p1"
RULES = rules_engine.get("clear-the-dungeon")
UNDO, PRACTICE = {"type": "undo"}, {"type": "practice"}
PEEK_TO_TOP = {"type": "peek_decision", "move_to_top": True}


def twin(state: dict, rng: random.Random) -> dict:
    """A game the player cannot tell from ``state``: the hidden cards drawn anew (the solver's
    ``determinize``: face-down dungeon cards and the power deck's order), under another seed."""
    other = determinize(state, SEAT, rng)
    assert cd.view(other, SEAT) == cd.view(state, SEAT)
    return other


def pick(rng: random.Random, state: dict) -> dict:
    """A legal action, mostly the rough player's (uniform play loses within a few turns, before
    any king is won), sometimes any but resigning."""
    legal = cd.legal_actions(state, SEAT)
    if rng.random() < 0.95:
        return skilled_choice(state, legal, rng)
    return rng.choice([a for a in legal if a["type"] != "resign"])


def why(state: dict, action: dict) -> tuple[dict, str | None]:
    after = cd.apply(state, SEAT, action)
    return after, cd.reveals(state, after, SEAT, action)


# --- a. soundness -----------------------------------------------------------------------------


def silent_actions_checked(seed: int) -> tuple[set[str], int]:
    """Play one game; at every state check each legal action against a twin of the state. Returns
    the kinds of silent actions met (an item's code for ``use_item``) and how many flagged
    actions did look different in the twin."""
    rng, dealer = random.Random(seed), random.Random(-seed)
    state = cd.new_game(seed, [SEAT])
    kinds: set[str] = set()
    told_apart = 0
    while cd.result(state) is None:
        other = twin(state, dealer)
        assert cd.legal_actions(other, SEAT) == cd.legal_actions(state, SEAT)
        for action in cd.legal_actions(state, SEAT):
            after, reason = why(state, action)
            other_after = cd.apply(other, SEAT, action)
            same = cd.view(other_after, SEAT) == cd.view(after, SEAT)
            if reason is None:
                assert same, action
                assert cd.reveals(other, other_after, SEAT, action) is None
                # The converse: nothing turned face up and no new turn drew.
                assert face_down(after) == face_down(state) and after["turn"] == state["turn"], action
                kinds.add(action.get("item", action["type"]))
            elif not same:
                told_apart += 1
        state = cd.apply(state, SEAT, pick(rng, state))
    return kinds, told_apart


def test_a_silent_action_does_the_same_whatever_the_hidden_cards():
    # Seeds 26, 67 and 170 are games the rough player plays long enough to win kings and use them.
    kinds: set[str] = set()
    told_apart = 0
    for seed in (0, 26, 67, 170):
        met, apart = silent_actions_checked(seed)
        kinds |= met
        told_apart += apart
    # Neither half is vacuous: every kind of silent action was checked, and twins do differ where it shows.
    assert kinds == {"play", "KH", "KD", "KS", "peek_decision"}
    assert told_apart


def test_actions_that_turn_or_draw_a_card_are_flagged():
    state = game("A")
    after, reason = why(state, {"type": "end_turn"})
    assert after["turn"] == 2 and reason == "3 cards were drawn"
    state = game("A", "10S AC 5H")
    state = play(state, "10S r7c1", "AC r7c1")
    after, reason = why(state, {"type": "play", "card": "5H", "target": "r7c1"})
    assert after["turn"] == 2 and face_down(after) == face_down(state) and reason == "3 cards were drawn"


# --- b. scenarios from the rules -------------------------------------------------------------


class TestScenarios:
    def test_placing_cards_without_a_defeat_shows_nothing(self):
        state = game("A", "9D 2C 3S")
        _, reason = why(state, {"type": "play", "card": "9D", "target": "r7c2"})
        assert reason is None

    def test_s6_a_defeat_that_uncovers_a_monster(self):
        state = play(game("J1", "5S 6D 2C"), "5S r7c1", "6D r7c1")
        after, reason = why(state, {"type": "play", "card": "JK", "target": "r7c1"})
        assert reason == "a monster was turned face up"
        assert after["hand"] == ["2C"]  # no draw: the hand still holds a card

    def test_s3_a_defeat_that_uncovers_nothing_shows_nothing(self):
        state = play(game("A", "9D 2C 3S 4D 7H 8H"), "9D r7c2", "3S r7c2")
        state = end_turn(state)
        after, reason = why(state, {"type": "play", "card": "4D", "target": "r7c2"})
        assert after["defeated"] == 1 and reason is None

    def test_s14_a_joker_found_under_a_defeated_king(self):
        state = play(game("C", "10S 3H 4S 10H 2C AD"), "10S r7c3", "3H r7c3", "4S r7c3", "10H r7c2")
        state = play(state, "2C r7c2", double=True)
        after, reason = why(state, {"type": "play", "card": "AD", "target": "r7c2"})
        assert after["hand"] == ["JK"] and reason == "a joker was found"

    def test_s15_a_cascade_turns_two_monsters_and_finds_a_joker(self):
        state = game("C", "10S 3H 4S 10D 3C 2D 3S 2H 9C 4C 5C 6H")
        state = play(state, "10S r7c3", "3H r7c3", "4S r7c3", "10D r7c2", "3C r7c2", "2D r7c2")
        state = play(state, "JK r7c1", "3S r7c1", "2H r7c1", "9C r6c1", "4C r6c1")
        _, reason = why(state, {"type": "play", "card": "5C", "target": "r6c1"})
        assert reason == "2 monsters were turned face up and a joker was found"

    def s10_turn_2(self) -> dict:
        state = game("C", "10H 3S 2H 10D 3H AC 5D 9S 6C")
        return play(state, "10H r7c1", "3S r7c1", "2H r7c1")

    def test_s10_the_king_of_hearts_shows_nothing_unless_it_empties_the_hand(self):
        state = self.s10_turn_2()
        assert state["hand"] == ["10D", "3H", "AC"]
        _, reason = why(state, {"type": "use_item", "item": "KH", "card": "AC"})
        assert reason is None
        state = play(state, "10D r7c2", "3H r7c2")
        _, reason = why(state, {"type": "use_item", "item": "KH", "card": "AC"})
        assert reason == "3 cards were drawn"

    def test_s11_a_peek_at_the_bottom_card_the_player_put_there_shows_nothing(self):
        state = use(play(self.s10_turn_2(), "10D r7c2", "3H r7c2"), "KH", card="AC")
        state, reason = why(state, {"type": "play", "card": "5D", "target": "r7c2"})
        assert reason == "a monster was turned face up"
        assert state["known_bottom"] == "AC"
        state, reason = why(state, {"type": "use_item", "item": "KD"})
        assert state["pending"]["card"] == "AC" and reason is None
        _, reason = why(state, PEEK_TO_TOP)
        assert reason is None

    def test_a_peek_at_an_unknown_bottom_card_is_a_reveal_and_the_decision_is_not(self):
        state = game("C", "10D 3S 4D")
        state = play(state, "10D r7c2", "3S r7c2", "4D r7c2")
        assert state["inventory"] == ["KD"] and state["known_bottom"] is None
        state, reason = why(state, {"type": "use_item", "item": "KD"})
        assert reason == "the bottom card of the power deck was shown"
        for move_to_top in (True, False):
            _, reason = why(state, {"type": "peek_decision", "move_to_top": move_to_top})
            assert reason is None

    def test_s9_the_king_of_clubs_draws_a_card(self):
        state = play(game("J1", "3D 9C 4S 7D"), "JK r7c3", "3D r7c3", "9C r7c3")
        _, reason = why(state, {"type": "use_item", "item": "KC"})
        assert reason == "a card was drawn"

    def test_s13_the_king_of_spades_shows_nothing(self):
        state = play(game("C", "10S 3H 4S 6C 4H 7H"), "10S r7c3", "3H r7c3", "4S r7c3", "6C r7c1")
        _, reason = why(state, {"type": "use_item", "item": "KS", "target": "r7c1"})
        assert reason is None

    def test_s5_the_fifth_hit_and_resigning_end_the_game(self):
        state = end_turn(game("A"))
        _, reason = why(state, {"type": "end_turn"})
        assert reason == "the game ended"
        _, reason = why(state, {"type": "resign"})
        assert reason == "the game ended"


# --- c. undo through the rules object ---------------------------------------------------------


def undo_at_random(seed: int) -> tuple[int, int]:
    """One game with undos mixed in: each lands on the game as it was before the move it takes
    back, the reach counts the moves since the last reveal, and at the horizon an undo is refused
    with the reveal's words, changing nothing. Returns how many undos and refusals were made."""
    rng = random.Random(seed)
    state = RULES.new_game(seed, [SEAT], {})
    before: list[dict] = []  # the game part before each move since the last reveal
    last_reason = None
    undos = refusals = 0
    while RULES.result(state) is None:
        reach = RULES.undo_reach(state, SEAT)
        assert reach.steps == len(before)
        if before and rng.random() < 0.4:
            state = RULES.apply(state, SEAT, UNDO)
            assert game_part(state) == before.pop()
            undos += 1
            continue
        if not before and last_reason is not None:
            assert reach.reason == last_reason
            refused(RULES, state, SEAT, UNDO, match=re.escape(f"Nothing to undo: {last_reason}."))
            refusals += 1
        action = pick(rng, game_part(state))
        previous = game_part(state)
        state = RULES.apply(state, SEAT, action)
        reason = cd.reveals(previous, game_part(state), SEAT, action)
        if reason is None:
            before.append(previous)
        else:
            before, last_reason = [], reason
    return undos, refusals


def test_random_games_undo_exactly_back_to_the_last_reveal():
    undos = refusals = 0
    for seed in (0, 26, 67):
        done, refused_here = undo_at_random(seed)
        undos += done
        refusals += refused_here
    assert undos and refusals


def test_practice_undoes_past_reveals_and_the_same_cards_come_again():
    rng = random.Random(5)
    state = RULES.new_game(5, [SEAT], {})
    start = game_part(state)
    state = RULES.apply(state, SEAT, PRACTICE)
    moves, seen, reveals = [], [], 0
    while len(moves) < 25:
        action = pick(rng, game_part(state))
        if cd.result(cd.apply(game_part(state), SEAT, action)) is not None:
            break  # a finished game has no undo, practice or not
        previous = game_part(state)
        state = RULES.apply(state, SEAT, action)
        moves.append(action)
        seen.append(game_part(state))
        reveals += cd.reveals(previous, seen[-1], SEAT, action) is not None
    assert reveals and RULES.undo_reach(state, SEAT).steps == len(moves)
    for _ in moves:
        state = RULES.apply(state, SEAT, UNDO)
    assert game_part(state) == start
    for action, expected in zip(moves, seen):
        state = RULES.apply(state, SEAT, action)
        assert game_part(state) == expected
