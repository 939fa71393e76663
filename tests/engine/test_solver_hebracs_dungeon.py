"""Hebrac's Dungeon's solver (issue 27): wins that really win, an honest "no win" and
"unknown", the solver's step equal to the engine's, the best score, and a seat's odds and
hints that never depend on the cards it cannot see."""

from __future__ import annotations

import random
from typing import Any

import pytest

import rules_engine
from rules_engine.games.hebracs_dungeon.solver import PUZZLE, best_score, determinize
from rules_engine.solving import NO_WIN, UNKNOWN, WIN, hint, odds, solve
from rules_engine.undo import game_part

R = rules_engine.get("hebracs-dungeon")


def replay(state: dict[str, Any], line: list[dict[str, Any]]) -> dict[str, Any]:
    for action in line:
        state = R.apply(state, "p1", action)
    return state


def played(seed: int, steps: int) -> dict[str, Any]:
    """A standard deal a few moves in, along the solver's own line (a battle or two behind)."""
    state = R.new_game(seed, ["p1"], {})
    return replay(state, solve(PUZZLE, state, max_nodes=2_000).line[:steps])


def test_the_solver_is_the_game_s_puzzle():
    assert R.puzzle is PUZZLE


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_found_line_wins_when_the_engine_plays_it(seed):
    state = R.new_game(seed, ["p1"], {})
    verdict = solve(PUZZLE, state, max_nodes=5_000)
    assert verdict.outcome == WIN
    assert R.result(replay(state, verdict.line))["reason"] == "victory"


def test_a_deal_without_the_scepter_cannot_be_won():
    deck = [f"{rank}{suit}" for rank in "A 2 3 4 5 6 7 8 9 10 J Q K".split() for suit in "SHDC"]
    state = R.new_game(1, ["p1"], {"deck": [c for c in deck + deck if c != "AC"]})
    assert solve(PUZZLE, state, max_nodes=5_000).outcome == NO_WIN


def test_a_budget_too_small_says_unknown():
    verdict = solve(PUZZLE, R.new_game(1, ["p1"], {}), max_nodes=5)
    assert (verdict.outcome, verdict.line) == (UNKNOWN, [])


@pytest.mark.parametrize("seed", [4, 5])
def test_the_solver_s_step_is_the_engine_s_apply(seed):
    """On every legal action (hints step those) along a game, with and without the undo trail."""
    state = R.new_game(seed, ["p1"], {})
    for action in solve(PUZZLE, state, max_nodes=2_000).line[:40]:
        for legal in R.legal_actions(state, "p1"):
            expected = game_part(R.apply(state, "p1", legal))
            assert PUZZLE.step(state, legal) == expected, legal
            assert PUZZLE.step(game_part(state), legal) == expected, legal
        state = R.apply(state, "p1", action)


def test_determinize_keeps_the_view_and_deals_the_hidden_cards_anew():
    state = played(6, 12)
    twin = determinize(state, "p1", random.Random(1))
    assert R.view(twin, "p1") == R.view(state, "p1")
    assert twin["hand_deck"] != game_part(state)["hand_deck"]
    assert sorted(twin["hand_deck"]) != sorted(game_part(state)["hand_deck"]) or twin["grid"] != state["grid"]


def test_odds_and_hints_never_depend_on_the_hidden_cards():
    state = game_part(played(7, 10))
    other = determinize(state, "p1", random.Random(99))  # the same view, other hidden cards
    assert R.view(other, "p1") == R.view(state, "p1") and other["hand_deck"] != state["hand_deck"]
    legal = [a for a in R.legal_actions(state, "p1") if a["type"] != "resign"]
    ask = {"samples": 2, "max_nodes": 200, "seed": 5}
    assert odds(PUZZLE, state, "p1", **ask) == odds(PUZZLE, other, "p1", **ask)
    assert hint(PUZZLE, state, "p1", legal, **ask) == hint(PUZZLE, other, "p1", legal, **ask)


def test_the_best_score_beats_the_quick_win_and_is_what_the_engine_scores():
    state = R.new_game(2, ["p1"], {})
    quick = R.result(replay(state, solve(PUZZLE, state, max_nodes=2_000).line))["scores"]["p1"]
    score, line, exhausted = best_score(state, 1_500)
    assert not exhausted  # a further level can always come: no bound is finite
    assert score is not None and score >= quick
    assert R.result(replay(state, line))["scores"] == {"p1": score}


def test_a_small_endgame_is_searched_to_the_end():
    """Chambers guarded by aces (empty chambers) over potions and the four legendary treasures,
    an empty Hand Deck; four chambers left: 8H, 9H, AS, AC. The best line takes both potions
    before the fourth ace (each chamber cleared is worth 5, its turn costs 3)."""
    treasures = ["2H", "3H", "4H", "5H", "6H", "7H", "AH", "AD", "8H", "9H", "AS", "AC"]
    state = R.new_game(1, ["p1"], {"deck": treasures + ["AS"] * 12})
    walk = [(1, 1), (1, 2), (1, 3), (1, 4), (2, 1), (2, 2), (2, 3), (2, 4)]
    state = replay(state, [{"type": "move", "row": r, "col": c} for r, c in walk])
    score, line, exhausted = best_score(state, 1_000)
    assert exhausted
    final = replay(state, line)
    assert final["status"] == "won" and R.result(final)["scores"]["p1"] == score == 2274
    assert len(line) == 4 and final["counters"]["chambers_cleared"] == 12
