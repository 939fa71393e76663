"""Hebrac's Dungeon's undo never peeks (issue 26): what counts as a reveal (``reveals.py``).

Soundness: a move the hook calls non-revealing gives the same view whatever the hidden cards
are (the Hand Deck below the known top, the face-down cards the player has not seen), so
undoing it can show nothing the player had not seen. Converse: every move that draws a card the
player did not know is a reveal. Then the rules' scenarios, and undo through the real rules.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

import rules_engine
from rules_engine import IllegalAction
from rules_engine.games.hebracs_dungeon import battle, spells, treasures
from rules_engine.games.hebracs_dungeon import state as state_module
from rules_engine.games.hebracs_dungeon.reveals import reveals
from rules_engine.games.hebracs_dungeon.solver import determinize
from rules_engine.undo import game_part
from tests.helpers.hebracs_dungeon import situation

R = rules_engine.get("hebracs-dungeon")
OPTION_SETS = [{}, {"strength_after_attack": True, "alignment": "evil"}, {"inventory_limit": 4, "max_life": 30}]
UNDO, PRACTICE = {"type": "undo"}, {"type": "practice"}


def twin(state: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """The same game as the player sees it, its hidden cards dealt anew (the solver's
    ``determinize``: the Hand Deck below the known top, every unseen face-down card)."""
    return determinize(state, "p1", rng)


def progress_pick(state: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """A random legal move, never giving up, that mostly goes on exploring the level."""
    legal = [a for a in R.legal_actions(state, "p1") if a["type"] != "resign"]
    grid = state["grid"]
    fresh = [a for a in legal if a["type"] == "move" and grid[a["row"] - 1][a["col"] - 1]["enemy"]]
    if fresh and rng.random() < 0.8:
        legal = [a for a in legal if a["type"] != "move" or a in fresh]
    return rng.choice(legal)


@pytest.fixture
def unseen_draws(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every card drawn from the Hand Deck that the player did not know (below the known top)."""
    drawn: list[str] = []
    real = state_module.draw

    def tracking(state: dict[str, Any]) -> str:
        unseen = state["known_top"] == 0
        card = real(state)
        if unseen:
            drawn.append(card)
        return card

    for module in (state_module, battle, treasures, spells):
        monkeypatch.setattr(module, "draw", tracking)
    return drawn


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_move_called_non_revealing_shows_the_same_whatever_is_hidden(seed, unseen_draws):
    rng = random.Random(seed)
    state = R.new_game(seed, ["p1"], OPTION_SETS[seed % len(OPTION_SETS)])
    checked = flagged = 0
    for _ in range(120):
        if R.result(state) is not None:
            break
        game = game_part(state)
        double = twin(game, rng)
        assert R.view(double, "p1") == R.view(game, "p1")
        for action in R.legal_actions(game, "p1"):
            del unseen_draws[:]
            after = R.apply(game, "p1", action)
            why = reveals(game, after, "p1", action)
            if unseen_draws:
                assert why is not None, (action, unseen_draws)  # the converse: a draw is a reveal
            if why is None:
                checked += 1
                assert R.view(R.apply(double, "p1", action), "p1") == R.view(after, "p1"), action
            else:
                flagged += 1
        state = R.apply(state, "p1", progress_pick(game, rng))
    assert checked and flagged


# Below the cards a scenario names, a Hand Deck that never repeats itself: in the helper's filler
# (30 × 5D) a card drawn and put back under cannot be told from no draw at all, so there every
# move counts as a reveal (``reveals._drew_unseen``).
VARIED = [f"{rank}{suit}" for suit in "CDHS" for rank in ("2", "3", "4", "5", "6", "7", "8", "9", "10")][:30]


def given(*, hand: tuple[str, ...] = (), **given: Any) -> dict[str, Any]:
    return situation(hand=[*hand, *VARIED], filler=False, **given)


def cast(spell: str, *potions: str, **params: Any) -> dict[str, Any]:
    return {"type": "cast", "spell": spell, "potions": list(potions), **params}


def why(state: dict[str, Any], *actions: dict[str, Any]) -> tuple[dict[str, Any], str | None]:
    """Play ``actions`` from ``state``; the state after them and what the last one revealed."""
    before = state
    for action in actions:
        before, state = state, R.apply(state, "p1", action)
    return state, reveals(before, state, "p1", actions[-1])


def move(row: int, col: int) -> dict[str, Any]:
    return {"type": "move", "row": row, "col": col}


class TestWhatCountsAsAReveal:
    def test_walking_and_drinking_show_nothing(self):
        s = given(cells={(1, 1): "cleared", (1, 2): "cleared"}, position=(1, 1), inventory=["5H"], life=9)
        assert why(s, move(1, 2))[1] is None
        assert why(s, {"type": "drink", "card": "5H"})[1] is None

    def test_entering_a_face_down_chamber_turns_its_card(self):
        s = given(cells={(1, 1): "9S/4H"})
        assert why(s, move(1, 1))[1] == "a card was turned"

    def test_re_entering_a_remembered_guardian_shows_nothing(self):
        # A26: an escape leaves the mercenary face down but remembered; meeting him again is no news.
        s = given(cells={(1, 1): "cleared", (1, 2): "10S/4H"}, position=(1, 1), inventory=["3C"], hand=("2D",))
        s, _ = why(s, move(1, 2), {"type": "attack"}, cast("escape", "3C"))
        assert why(s, move(1, 2))[1] is None

    def test_an_attack_draws_a_card_unless_it_was_foreseen(self):
        s = given(cells={(1, 1): "10D/4C"}, inventory=["2C"], hand=("7S", "KD", "3H"))
        s, foreseen = why(s, cast("future_perception", "2C"))
        assert foreseen == "the top of the Hand Deck was foreseen"
        s, _ = why(s, move(1, 1))
        s, first = why(s, {"type": "attack"})  # 7S, foreseen: 10 - 7 = 3 damage, no news
        assert first is None and s["life"] == 12
        s, second = why(s, {"type": "attack"})  # KD, foreseen: wins, and the face-down 4C is taken
        assert second == "a face-down treasure was taken"
        s, third = why(given(cells={(1, 1): "10D/4C"}, hand=("7S",)), move(1, 1), {"type": "attack"})
        assert third == "a card was drawn"

    def test_a_card_drawn_and_put_back_under_a_short_deck_still_counts(self):
        # The only card of the Hand Deck is drawn and goes back under: the deck looks the same.
        s = situation(cells={(1, 1): "9S/4H"}, hand=["2H"], filler=False)
        s, _ = why(s, move(1, 1))
        after, reason = why(s, {"type": "attack"})
        assert after["hand_deck"] == s["hand_deck"] == ["2H"] and reason == "a card was drawn"

    def test_hebrac_s_game_turns_a_card(self):
        s = given(cells={(1, 1): "JK/10D"}, hand=("7H",))
        assert why(s, move(1, 1), {"type": "play"})[1] == "a card was drawn"
        assert why(s, move(1, 1), {"type": "decline"})[1] == "a face-down treasure was taken"

    def test_proposing_a_trade_turns_the_treasure(self):
        s = given(cells={(1, 1): "JD/6S"})
        assert why(s, move(1, 1), {"type": "propose_trade"})[1] == "a card was turned"
        assert why(s, move(1, 1), {"type": "fight"})[1] is None

    def test_remote_vision_shows_a_card_peek_by_peek(self):
        s = given(cells={(1, 1): "cleared"}, position=(1, 1), inventory=["3C"])
        s, cast_it = why(s, cast("remote_vision", "3C"))
        assert cast_it is None
        assert why(s, {"type": "peek", "row": 2, "col": 3})[1] == "a face-down card was seen"
        assert why(s, {"type": "stop_peeking"})[1] is None

    def test_revelation_turns_the_level(self):
        assert why(given(inventory=["9C"]), cast("revelation", "9C"))[1] == "a card was turned"

    def test_the_genie_of_death_destroys_unseen_and_shows_nothing(self):
        s = given(cells={(1, 1): "AH/KS"}, inventory=["6H"])
        s, entered = why(s, move(1, 1))
        assert entered == "a card was turned" and s["phase"] == "genie_of_death"
        assert why(s, {"type": "destroy", "targets": [[1, 2], [1, 3], [1, 4]]})[1] is None

    def test_a_white_priestess_s_healing_takes_the_face_down_treasure(self):
        # The treasure goes under unseen; counted as a reveal all the same, on the safe side.
        s = given(cells={(1, 1): "QH/9D"}, life=5)
        assert why(s, move(1, 1), {"type": "priestess", "choice": "heal"})[1] == "a face-down treasure was taken"

    def test_a_descent_deals_a_new_level_and_the_end_shows_everything(self):
        cleared = {(r, c): "cleared" for r in (1, 2) for c in (1, 2, 3)}
        s = given(cells=cleared, position=(1, 1))
        assert why(s, {"type": "descend"})[1] == "a new level was dealt"
        assert why(s, {"type": "resign"})[1] == "the game ended"


def random_game_with_undos(seed: int, steps: int) -> None:
    """Random play through the real rules with undos mixed in: each undo lands on the state
    before the move it takes back, the reach counts back to the last reveal, and at the
    horizon an undo is refused with the reason and changes nothing."""
    rng = random.Random(seed)
    state = R.new_game(seed, ["p1"], {})
    undoable: list[dict[str, Any]] = []  # the game before each move since the last reveal
    for _ in range(steps):
        if R.result(state) is not None:
            break
        reach = R.undo_reach(state, "p1")
        assert reach.steps == len(undoable)
        if not undoable and state["undo"]["moves"]:
            with pytest.raises(IllegalAction, match=f"Nothing to undo: {reach.reason}"):
                R.apply(state, "p1", UNDO)
        if undoable and rng.random() < 0.4:
            state = R.apply(state, "p1", UNDO)
            assert game_part(state) == undoable.pop()
            continue
        action = progress_pick(game_part(state), rng)
        before = game_part(state)
        state = R.apply(state, "p1", action)
        undoable = [*undoable, before] if reveals(before, game_part(state), "p1", action) is None else []


@pytest.mark.parametrize("seed", [4, 5])
def test_undo_through_the_rules_goes_back_to_the_last_reveal_and_no_further(seed):
    random_game_with_undos(seed, 150)


def test_a_refused_undo_says_why_and_changes_nothing():
    state = R.apply(R.new_game(7, ["p1"], {}), "p1", move(1, 1))
    reach = R.undo_reach(state, "p1")
    assert reach.steps == 0 and reach.reason == "a card was turned"
    dumped = R.dump(state)
    with pytest.raises(IllegalAction, match="Nothing to undo: a card was turned."):
        R.apply(state, "p1", UNDO)
    assert R.dump(state) == dumped


def test_practice_undoes_past_reveals_and_the_same_cards_come_again():
    start = R.new_game(11, ["p1"], {})
    first = R.apply(start, "p1", move(1, 1))
    practice = R.apply(first, "p1", PRACTICE)
    assert R.undo_reach(practice, "p1").steps == 1
    back = R.apply(practice, "p1", UNDO)
    assert game_part(back) == game_part(start)
    again = R.apply(back, "p1", move(1, 1))
    assert game_part(again) == game_part(first)
    assert R.view(again, "p1")["grid"][0][0]["enemy"] == R.view(first, "p1")["grid"][0][0]["enemy"]
