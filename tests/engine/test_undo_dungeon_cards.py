"""Dungeon Cards' undo never peeks (issue 26): what counts as a reveal (``reveals.py``).

Alone, a move the hook calls non-revealing gives the same view whatever the deck's order and
the seed are, so undoing it can show nothing new; every move that draws a card or uses the
random source is a reveal. At a party every move is shared, so none can be undone. Dungeon
Cards alone is a table game dealt to one player that nobody can join, so it is played as a solo
game is: undo back to the last reveal, and practice (undo past reveals) on request.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

import rules_engine
from rules_engine import IllegalAction
from rules_engine.games.dungeon_cards import deck, setup, turns
from rules_engine.games.dungeon_cards.reveals import PARTY, reveals
from rules_engine.undo import game_part
from tests.helpers.dungeon_cards import act, started_game

R = rules_engine.get("dungeon-cards")
UNDO = {"type": "undo"}
SOLO_GAMES = [
    {"classes": {"p1": "swordsman"}, "potion_roll": True},
    {"classes": {"p1": "rogue"}, "turn_mode": "three_card_hand"},
    {"classes": {"p1": "athlete"}, "turn_mode": "three_card_hand", "draw_stats": True},
]


def twin(state: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """The same game as the player sees it, with the deck in another order and another seed
    behind every later shuffle, layout and roll."""
    s = R.load(R.dump(game_part(state)))
    rng.shuffle(s["deck"])
    s["seed"] = rng.randrange(10**9)
    return s


@pytest.fixture
def random_uses(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every draw from the deck and every use of the random source, as it happens."""
    used: list[str] = []
    real_draw, real_rng = deck.draw, deck.seeded_rng

    def drawing(state: dict[str, Any]) -> str | None:
        used.append("draw")
        return real_draw(state)

    def seeding(*args: Any) -> random.Random:
        used.append(f"rng {args[1]}")
        return real_rng(*args)

    monkeypatch.setattr(deck, "draw", drawing)
    for module in (deck, setup, turns):
        monkeypatch.setattr(module, "seeded_rng", seeding)
    return used


@pytest.mark.parametrize("options", SOLO_GAMES)
def test_a_move_called_non_revealing_shows_the_same_whatever_the_deck_and_seed(options, random_uses):
    for seed in (1, 2):
        rng = random.Random(seed)
        state = R.new_game(seed, ["p1"], options)
        checked = flagged = 0
        for _ in range(60):
            if R.result(state) is not None:
                break
            double = twin(state, rng)
            assert R.view(double, "p1") == R.view(state, "p1")
            for action in R.legal_actions(state, "p1"):
                del random_uses[:]
                after = R.apply(state, "p1", action)
                why = reveals(state, after, "p1", action)
                if random_uses:
                    assert why is not None, (action, random_uses)  # the converse: a draw or a roll shows
                if why is None:
                    checked += 1
                    assert R.view(R.apply(double, "p1", action), "p1") == R.view(after, "p1"), action
                else:
                    flagged += 1
            moves = [a for a in R.legal_actions(state, "p1") if a["type"] != "leave_game"]
            state = R.apply(state, "p1", rng.choice(moves))
        assert flagged
        if options.get("turn_mode") == "three_card_hand":
            assert checked  # playing a card from the hand is no news


class TestWhatCountsAsAReveal:
    def test_drawing_a_card_and_the_shuffle_that_feeds_it(self):
        s = started_game([("P", "swordsman")], deck=["3C"], positions={"P": (7, 1)})
        after = act(s, "P", "draw_card")
        assert reveals(s, after, "P", {"type": "draw_card"}) == "a card was drawn"
        empty = {**s, "deck": [], "discard": ["3C", "4D"], "options": {**s["options"], "shuffles": "random"}}
        after = act(empty, "P", "draw_card")
        assert reveals(empty, after, "P", {"type": "draw_card"}) == "the deck was shuffled"

    def test_playing_a_card_from_the_hand_shows_nothing(self):
        s = started_game([("P", "swordsman")], deck=["3C", "4D", "5H", "6S"], turn_mode="three_card_hand")
        s = act(s, "P", "draw_card")
        card = s["characters"][0]["hand"][0]
        action = {"type": "play_card", "card": card}
        assert s["phase"] == "awaiting_play" and reveals(s, R.apply(s, "P", action), "P", action) is None

    def test_the_potion_roll_is_a_reveal(self):
        s = started_game([("P", "swordsman")], deck=["3C"], positions={"P": (7, 1)}, potion_roll=True)
        after = act(s, "P", "draw_card")
        assert after["counters"]["d20"] == 1
        # The card and the roll both came at once; the roll is named first.
        assert reveals(s, after, "P", {"type": "draw_card"}) == "the die was rolled"

    def test_a_random_layout_and_the_end_are_reveals(self):
        lobby = R.new_game(3, ["p1"], {})
        chosen = R.apply(lobby, "p1", {"type": "choose_class", "class": "ninja"})
        assert reveals(lobby, chosen, "p1", {"type": "choose_class", "class": "ninja"}) is None
        started = R.apply(chosen, "p1", {"type": "start_game"})
        assert reveals(chosen, started, "p1", {"type": "start_game"}) == "the dungeon was laid out at random"
        left = R.apply(started, "p1", {"type": "leave_game"})
        assert reveals(started, left, "p1", {"type": "leave_game"}) == "the game ended"

    def test_at_a_party_every_move_is_shared(self):
        s = started_game([("A", "swordsman"), ("B", "tank")], deck=["3C"], positions={"A": (7, 1), "B": (3, 3)})
        after = act(s, "A", "draw_card")
        assert reveals(s, after, "A", {"type": "draw_card"}) == PARTY
        s = started_game([("A", "swordsman"), ("B", "tank")], deck=["3C", "4D", "5H", "6S", "7C", "8D", "9H"])
        s = {**s, "options": {**s["options"], "turn_mode": "three_card_hand"}}
        assert all(reveals(s, s, "A", a) == PARTY for a in R.legal_actions(s, "A"))


def test_a_party_has_no_undo_and_says_why():
    state = R.new_game(5, ["p1", "p2"], {"classes": {"p1": "swordsman", "p2": "tank"}})
    seat = next(p for p in ("p1", "p2") if R.legal_actions(state, p))
    action = next(a for a in R.legal_actions(state, seat) if a["type"] != "leave_game")
    state = R.apply(state, seat, action)
    reach = R.undo_reach(state, seat)
    assert reach.steps == 0 and reach.reason == PARTY and not reach.practice_offered
    dumped = R.dump(state)
    with pytest.raises(IllegalAction, match=f"Nothing to undo: {PARTY}."):
        R.apply(state, seat, UNDO)
    assert R.dump(state) == dumped


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_alone_undo_goes_back_through_the_run_of_moves_to_the_last_reveal(seed):
    rng = random.Random(seed)
    state = R.new_game(seed, ["p1"], {"classes": {"p1": "rogue"}, "turn_mode": "three_card_hand"})
    undoable: list[dict[str, Any]] = []  # the game before each move since the last reveal
    undone = refused = 0
    for _ in range(150):
        if R.result(state) is not None:
            break
        reach = R.undo_reach(state, "p1")
        assert reach.steps == len(undoable) and reach.practice_offered
        if not undoable and "undo" in state:
            dumped = R.dump(state)
            with pytest.raises(IllegalAction, match=f"Nothing to undo: {reach.reason}"):
                R.apply(state, "p1", UNDO)
            assert R.dump(state) == dumped
            refused += 1
        if undoable and rng.random() < 0.4:
            state = R.apply(state, "p1", UNDO)
            assert game_part(state) == undoable.pop()
            undone += 1
            continue
        action = rng.choice([a for a in R.legal_actions(state, "p1") if a["type"] != "leave_game"])
        before = game_part(state)
        state = R.apply(state, "p1", action)
        undoable = [*undoable, before] if reveals(before, game_part(state), "p1", action) is None else []
    assert undone and refused
    if R.result(state) is None:
        practice = R.apply(state, "p1", {"type": "practice"})
        assert R.undo_reach(practice, "p1").steps == len(practice["undo"]["moves"])
