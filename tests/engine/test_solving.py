"""What every game's solver promises the pages (``rules_engine.solving``): a deal drawn for a seat
depends on nothing but what the seat sees, so odds and hints cannot carry a hidden card."""

from __future__ import annotations

import random

import pytest

import rules_engine
from rules_engine.undo import game_part

SOLVED = [slug for slug in rules_engine.available() if rules_engine.get(slug).puzzle is not None]


def test_the_three_solo_card_games_are_solved():
    assert set(SOLVED) >= {"shuffle-and-doom", "clear-the-dungeon", "hebracs-dungeon"}


@pytest.mark.parametrize("slug", SOLVED)
def test_a_drawn_deal_depends_only_on_the_seats_view(slug):
    """Two states the seat cannot tell apart (the second drawn by ``determinize`` itself) give the
    very same drawn deal from the same random source: nothing of the true hidden cards, not even
    their order, reaches a sample."""
    rules = rules_engine.get(slug)
    puzzle = rules.puzzle
    assert puzzle is not None and puzzle.determinize is not None
    checked = 0
    for seed in range(8):
        rng = random.Random(seed)
        state = rules.new_game(seed, ["p1"], {})
        for _ in range(40):
            if rules.result(state) is not None or not rules.legal_actions(state, "p1"):
                break
            twin = puzzle.determinize(state, "p1", random.Random(1000 + seed))
            assert rules.view(twin, "p1") == rules.view(state, "p1")
            drawn = puzzle.determinize(state, "p1", random.Random(7))
            assert game_part(drawn) == game_part(puzzle.determinize(twin, "p1", random.Random(7)))
            checked += 1
            state = rules.apply(state, "p1", rng.choice(rules.legal_actions(state, "p1")))
    assert checked >= 15
