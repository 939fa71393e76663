"""Clear the Dungeon's solver (``rules_engine/games/clear_the_dungeon/solver.py``) on the generic
search of ``rules_engine.solving``: its lines win through the rules, its verdicts are honest, its
pruning never hides a win, and what it says from a player's view never depends on hidden cards."""

from __future__ import annotations

import json
import random

import rules_engine
from benchmarks._common import clear_the_dungeon_skilled_choice as skilled_choice
from rules_engine import solving
from rules_engine.games import clear_the_dungeon as cd
from rules_engine.games.clear_the_dungeon import solver
from rules_engine.undo import game_part
from tests.engine.test_clear_the_dungeon import game, play, use

SEAT = "p1"
RULES = rules_engine.get("clear-the-dungeon")
PUZZLE = solver.PUZZLE


def played(seed: int) -> list[dict]:
    """The states of one game of the rough player."""
    rng = random.Random(seed)
    state = cd.new_game(seed, [SEAT])
    states = [state]
    while cd.result(state) is None:
        state = cd.apply(state, SEAT, skilled_choice(state, cd.legal_actions(state, SEAT), rng))
        states.append(state)
    return states


def hidden(state: dict) -> tuple:
    return tuple(state["power_deck"]), tuple(
        slot["card"] for slot in state["dungeon"].values() if slot is not None and not slot["face_up"]
    )


def test_the_game_declares_its_puzzle():
    assert RULES.puzzle is PUZZLE


def test_step_gives_the_states_apply_gives_and_leaves_its_input_alone():
    # Seed 130: a game of the rough player in which every king is used and a peek decided.
    kinds = set()
    for state in played(130):
        before = json.dumps(state, sort_keys=True)
        for action in cd.legal_actions(state, SEAT):
            assert PUZZLE.step(state, action) == cd.apply(state, SEAT, action), action
            kinds.add(action.get("item", action["type"]))
        assert json.dumps(state, sort_keys=True) == before
    assert kinds == {"play", "KH", "KD", "KS", "KC", "peek_decision", "end_turn", "resign"}


def test_a_winning_line_wins_through_the_rules():
    # Seed 3 is a deal the search wins in a couple of thousand nodes.
    state = RULES.new_game(3, [SEAT], {})
    verdict = solving.solve(PUZZLE, state, max_nodes=solver.SOLVE_NODES)
    assert verdict.outcome == solving.WIN and verdict.line
    for action in verdict.line:
        assert action in cd.legal_actions(game_part(state), SEAT)
        state = RULES.apply(state, SEAT, action)
    assert RULES.result(state)["reason"] == "cleared"


def test_line_a_of_the_rules_is_found_winnable():
    deck = (
        "3H 2S 10C AD 4H 9D 2C 5D 7C 6H 3C 8H 5S 10D 2D 4C 9H 4D 6S AH 5C 7H 8D 3S 8C 9C 10S 3D 6D 10H 2H 7S 9S 5H"
    ).split()
    state = game("W", " ".join(deck))
    verdict = solving.solve(PUZZLE, state, max_nodes=solver.SOLVE_NODES)
    assert verdict.outcome == solving.WIN
    for action in verdict.line:
        state = cd.apply(state, SEAT, action)
    assert cd.result(state)["reason"] == "cleared"


def test_a_deal_no_line_survives():
    # Three kings in the bottom row and nothing but aces and twos for two hands: neither can
    # open a king without the K♠, so both hands are lost as hits, the second one fatal.
    state = game("C", "AS AH 2S AD 2H 2D")
    verdict = solving.solve(PUZZLE, state, max_nodes=solver.SOLVE_NODES)
    assert verdict.outcome == solving.NO_WIN and not verdict.line


def test_a_budget_too_small_says_unknown():
    verdict = solving.solve(PUZZLE, cd.new_game(2, [SEAT]), max_nodes=50)
    assert verdict.outcome == solving.UNKNOWN and verdict.nodes > 50


def reference_moves(state: dict) -> list[dict]:
    return [action for action in cd.legal_actions(state, SEAT) if action["type"] != "resign"]


REFERENCE = solving.Puzzle(
    key=lambda state: json.dumps([state[name] for name in ("dungeon", "power_deck", "hand", "hit_row", "inventory")]),
    moves=reference_moves,
    step=lambda state, action: cd.apply(state, SEAT, action),
    won=PUZZLE.won,
    over=PUZZLE.over,
)


def test_the_pruned_search_agrees_with_trying_every_legal_action():
    # Late states of a won deal, and one legal step aside from its winning line at each: the
    # search over every legal action and the pruned one give the same verdict.
    state = cd.new_game(3, [SEAT])
    line = solving.solve(PUZZLE, state, max_nodes=solver.SOLVE_NODES).line
    states = [state]
    for action in line:
        states.append(PUZZLE.step(states[-1], action))
    rng = random.Random(3)
    verdicts = []
    for state in states[-12:-1]:
        aside = rng.choice(reference_moves(state))
        for candidate in (state, cd.apply(state, SEAT, aside)):
            if cd.result(candidate) is not None:
                continue
            expected = solving.solve(REFERENCE, candidate, max_nodes=20_000).outcome
            assert expected != solving.UNKNOWN
            assert solving.solve(PUZZLE, candidate, max_nodes=solver.SOLVE_NODES).outcome == expected
            verdicts.append(expected)
    assert solving.WIN in verdicts and solving.NO_WIN in verdicts


class TestDeterminize:
    def test_the_view_stays_and_the_hidden_cards_change(self):
        rng = random.Random(1)
        changed = 0
        for state in played(26)[::7]:
            other = solver.determinize(state, SEAT, rng)
            assert cd.view(other, SEAT) == cd.view(state, SEAT)
            assert sorted(other["power_deck"]) == sorted(state["power_deck"])
            changed += hidden(other) != hidden(state)
        assert changed

    def test_the_undo_trail_is_left_out(self):
        state = RULES.apply(RULES.new_game(4, [SEAT], {}), SEAT, {"type": "practice"})
        other = solver.determinize(state, SEAT, random.Random(0))
        assert other.keys() == game_part(state).keys()

    def k_diamond_open(self) -> dict:
        """Scenario S11 up to the K♦: AC was put under the deck by the K♥, then shown again."""
        state = game("C", "10H 3S 2H 10D 3H AC 5D 9S 6C")
        state = play(state, "10H r7c1", "3S r7c1", "2H r7c1", "10D r7c2", "3H r7c2")
        state = play(use(state, "KH", card="AC"), "5D r7c2")
        return use(state, "KD")

    def test_a_card_the_k_diamond_moved_up_stays_on_top(self):
        state = cd.apply(self.k_diamond_open(), SEAT, {"type": "peek_decision", "move_to_top": True})
        assert state["power_deck"][0] == "AC" and state["known_bottom"] is None
        rng = random.Random(2)
        for _ in range(5):
            other = solver.determinize(state, SEAT, rng)
            assert other["power_deck"][0] == "AC" and other["power_deck"] != state["power_deck"]

    def test_a_known_bottom_card_stays_at_the_bottom(self):
        rng = random.Random(3)
        for state in (
            self.k_diamond_open(),
            cd.apply(self.k_diamond_open(), SEAT, {"type": "peek_decision", "move_to_top": False}),
        ):
            for _ in range(5):
                other = solver.determinize(state, SEAT, rng)
                assert other["power_deck"][-1] == "AC"
                assert cd.view(other, SEAT) == cd.view(state, SEAT)


def test_odds_and_hint_never_depend_on_the_hidden_cards():
    rng = random.Random(5)
    for state in (cd.new_game(3, [SEAT]), played(67)[12]):
        twin = solver.determinize(state, SEAT, rng)
        assert hidden(twin) != hidden(state)
        legal = cd.legal_actions(state, SEAT)
        answers = [
            (
                solving.odds(PUZZLE, s, SEAT, samples=4, max_nodes=400, seed=9),
                solving.hint(PUZZLE, s, SEAT, legal, samples=2, max_nodes=150, seed=9),
            )
            for s in (state, twin)
        ]
        assert answers[0] == answers[1]
