"""The contract's ``loss_warning``: a sentence before an action that certainly loses the game.

Three promises, for every game: a warned action does lose (the warning is never a false alarm);
the games' known deadly moves are warned about; and a warning never depends on what the seat
cannot see — changing the hidden parts of a state (the deck's order, the seed) changes no warning.
"""

from __future__ import annotations

import random

import pytest

import rules_engine
from tests.helpers.hebracs_dungeon import situation

SAD = rules_engine.get("shuffle-and-doom")
CTD = rules_engine.get("clear-the-dungeon")
HD = rules_engine.get("hebracs-dungeon")
DC = rules_engine.get("dungeon-cards")
DOD = rules_engine.get("dungeon-of-doom")


def warnings(rules, state: dict, seat: str = "p1") -> dict[str, str]:
    """Every legal action's warning, by the action's JSON."""
    out = {}
    for action in rules.legal_actions(state, seat):
        warning = rules.loss_warning(state, seat, action)
        if warning is not None:
            out[repr(sorted(action.items()))] = warning
    return out


# --- Hidden parts, changed ------------------------------------------------------------------


def sad_hidden_changed(state: dict) -> dict:
    return {**state, "draw": list(reversed(state["draw"])), "seed": state["seed"] + 1}


def ctd_hidden_changed(state: dict) -> dict:
    deck = state["power_deck"]
    # The bottom card may be known (the K♥, a K♦ peek): it stays; the rest is turned over.
    return {**state, "power_deck": list(reversed(deck[:-1])) + deck[-1:], "seed": state["seed"] + 1}


def hd_hidden_changed(state: dict) -> dict:
    known = state["known_top"]
    deck = state["hand_deck"]
    return {**state, "hand_deck": deck[:known] + list(reversed(deck[known:])), "seed": state["seed"] + 1}


def dc_hidden_changed(state: dict) -> dict:
    return {**state, "deck": list(reversed(state["deck"])), "seed": state["seed"] + 1}


GAMES = [
    (SAD, lambda seed: SAD.new_game(seed, ["p1"], {"size": 5}), sad_hidden_changed),
    (CTD, lambda seed: CTD.new_game(seed, ["p1"]), ctd_hidden_changed),
    (HD, lambda seed: HD.new_game(seed, ["p1"], None), hd_hidden_changed),
    (
        DC,
        lambda seed: DC.new_game(seed, ["p1"], {"classes": {"p1": "soldier"}, "turn_mode": "three_card_hand"}),
        dc_hidden_changed,
    ),
]


@pytest.mark.parametrize("rules,start,hide", GAMES, ids=[g[0].slug for g in GAMES])
def test_random_play_warns_only_of_certain_losses_and_never_from_hidden_cards(rules, start, hide):
    warned = 0
    for seed in range(12):
        rng = random.Random(seed)
        state = start(seed)
        for _ in range(300):
            if rules.result(state) is not None:
                break
            legal = [a for a in rules.legal_actions(state, "p1") if a["type"] not in ("resign", "leave_game")]
            if not legal:
                break
            found = warnings(rules, state)
            assert warnings(rules, hide(state)) == found  # the hidden parts changed nothing
            for action in legal:
                warning = rules.loss_warning(state, "p1", action)
                if warning is None:
                    continue
                warned += 1
                assert isinstance(warning, str) and warning.endswith(".")
                after = rules.apply(state, "p1", action)
                ended = rules.result(after)
                assert ended is not None and "p1" not in ended["winners"], (action, warning)
            state = rules.apply(state, "p1", rng.choice(legal))
    # Random play does walk into deadly spots in the card games (no false alarms, and some alarms).
    if rules in (SAD, CTD):
        assert warned > 0


def test_no_warning_reaches_another_seat_or_a_game_without_certain_losses():
    state = SAD.new_game(1, ["p1"], {"size": 4})
    action = SAD.legal_actions(state, "p1")[0]
    assert SAD.loss_warning(state, "p2", action) is None
    dod = DOD.new_game(1, ["p1", "p2"], None)
    assert all(DOD.loss_warning(dod, "p1", a) is None for a in DOD.legal_actions(dod, "p1"))


# --- Shuffle and Doom -----------------------------------------------------------------------


def sad_room(cards: list[dict], *, phase: str, health: int, ward: int = 0, hand: list[dict] | None = None) -> dict:
    state = SAD.new_game(3, ["p1"], {"size": 4})
    state = SAD.apply(state, "p1", {"type": "choose_stat_set", "set": "top"})
    while state["phase"] == "assign_diamonds":
        state = SAD.apply(state, "p1", SAD.legal_actions(state, "p1")[0])
    room = state["encounter"]["room"] if state["encounter"] else 1
    stats = {**state["stats"], "health": health, "ward": ward, "attack": 5, "intelligence": 1}
    return {
        **state,
        "phase": phase,
        "stats": stats,
        "hand": hand or [],
        "encounter": {"room": room, "cards": cards, "stunned": False, "attacked_yet": False},
    }


def card(code: str, role: str, value: int) -> dict:
    return {"code": code, "role": role, "value": value, "strength": value if role == "enemy" else None}


class TestShuffleAndDoom:
    def test_taking_an_item_under_traps_that_outdo_health_is_warned(self):
        state = sad_room(
            [card("9H", "potion", 9), card("KC", "trap", 14)],
            phase="traps",
            health=13,
            hand=[{"code": "5H", "value": 5, "kind": "potion"}],
        )
        take = {"type": "take", "card": "9H"}
        assert SAD.loss_warning(state, "p1", take) == (
            "Taking 9♥ kills you: the traps deal 14 and you have 13 health. You still hold a potion."
        )
        assert SAD.result(SAD.apply(state, "p1", take))["reason"] == "died"
        # The potion in hand would save the hero: drinking it first makes the take safe.
        drunk = SAD.apply(state, "p1", {"type": "drink", "card": "5H"})
        assert SAD.loss_warning(drunk, "p1", take) is None

    def test_exactly_zero_health_left_is_alive_and_the_ward_counts(self):
        traps = [card("9H", "potion", 9), card("KC", "trap", 14)]
        assert SAD.loss_warning(sad_room(traps, phase="traps", health=14), "p1", {"type": "take", "card": "9H"}) is None
        warded = sad_room(traps, phase="traps", health=10, ward=3)
        assert SAD.loss_warning(warded, "p1", {"type": "take", "card": "9H"}) == (
            "Taking 9♥ kills you: the traps deal 14 and you have 10 health and a ward of 3."
        )

    def test_an_attack_that_leaves_enemies_hitting_back_too_hard_is_warned(self):
        enemies = [card("KS", "enemy", 13), card("9S", "enemy", 9)]
        state = sad_room(enemies, phase="combat", health=12)
        # Attack 5: the K♠ drops to 8 and hits back with the 9♠, 17 in all.
        assert SAD.loss_warning(state, "p1", {"type": "attack", "card": "KS"}) == (
            "Attacking K♠ kills you: the enemies left hit back for 17 and you have 12 health."
        )
        assert SAD.result(SAD.apply(state, "p1", {"type": "attack", "card": "KS"}))["reason"] == "died"
        stunned = {**state, "encounter": {**state["encounter"], "stunned": True}}
        assert SAD.loss_warning(stunned, "p1", {"type": "attack", "card": "KS"}) is None

    def test_a_death_says_why(self):
        state = sad_room([card("9H", "potion", 9), card("KC", "trap", 14)], phase="traps", health=13)
        text = SAD.result(SAD.apply(state, "p1", {"type": "take", "card": "9H"}))["text"]
        assert text.endswith("Killed by the traps: 14 damage against 13 health.")

    def test_moving_into_an_unexplored_room_is_never_certain(self):
        state = SAD.new_game(3, ["p1"], {"size": 4})
        state = SAD.apply(state, "p1", {"type": "choose_stat_set", "set": "top"})
        state = {**state, "phase": "explore", "encounter": None, "stats": {**state["stats"], "health": 0}}
        assert all(SAD.loss_warning(state, "p1", a) is None for a in SAD.legal_actions(state, "p1"))


# --- Clear the Dungeon ----------------------------------------------------------------------


class TestClearTheDungeon:
    def test_ending_the_turn_on_the_fifth_hit_is_warned(self):
        deck = ["JH", "QH"] + [c for c in CTD.ALL_CARDS if c not in ("JH", "QH")]
        state = CTD.new_game(1, ["p1"], {"deck": deck})
        assert CTD.loss_warning(state, "p1", {"type": "end_turn"}) == (
            "Ending the turn now is the fifth hit and loses the game."
        )
        assert CTD.loss_warning(state, None, {"type": "end_turn"}) is None

    def test_a_safe_end_of_turn_and_a_resignation_are_not_warned(self):
        state = CTD.new_game(5, ["p1"])
        assert CTD.loss_warning(state, "p1", {"type": "end_turn"}) is None
        assert CTD.loss_warning(state, "p1", {"type": "resign"}) is None

    def test_ending_the_turn_with_no_power_deck_left_is_warned(self):
        state = {**CTD.new_game(5, ["p1"]), "power_deck": [], "known_bottom": None}
        assert CTD.loss_warning(state, "p1", {"type": "end_turn"}) == (
            "Ending the turn now loses the game: the power deck is empty, so no new hand can be drawn."
        )
        assert CTD.result(CTD.apply(state, "p1", {"type": "end_turn"}))["reason"] == "out_of_power"


# --- Hebrac's Dungeon -----------------------------------------------------------------------


def hd_battle(**kwargs) -> dict:
    state = situation(cells={(1, 1): "10S/3H"}, **kwargs)
    return HD.apply(state, "p1", {"type": "move", "row": 1, "col": 1})


class TestHebracsDungeon:
    def test_finishing_an_attack_drawn_too_weak_is_warned(self):
        state = hd_battle(life=4, hand=["2C"], inventory=["5S"], options={"strength_after_attack": True})
        assert HD.loss_warning(state, "p1", {"type": "attack"}) is None  # the potion may still save it
        state = HD.apply(state, "p1", {"type": "attack"})
        assert HD.loss_warning(state, "p1", {"type": "finish_attack"}) == (
            "Finishing the attack kills you: 2♣ scores 2 against 10, a loss of 8 life, and you have 4."
        )
        drunk = HD.apply(state, "p1", {"type": "drink", "card": "5S"})
        assert HD.loss_warning(drunk, "p1", {"type": "finish_attack"}) is None  # 7 against 10 costs 3 of 4
        assert HD.result(HD.apply(state, "p1", {"type": "finish_attack"}))["reason"] == "death"

    def test_an_unseen_attack_card_is_never_certain(self):
        state = hd_battle(life=1, hand=["2C"])
        assert HD.loss_warning(state, "p1", {"type": "attack"}) is None
        assert HD.loss_warning(hd_hidden_changed(state), "p1", {"type": "attack"}) is None

    def test_a_foreseen_attack_card_is_read(self):
        state = {**hd_battle(life=3, hand=["2C"]), "known_top": 1}
        assert HD.loss_warning(state, "p1", {"type": "attack"}) == (
            "Attacking now kills you: 2♣ scores 2 against 10, a loss of 8 life, and you have 3."
        )
        assert HD.result(HD.apply(state, "p1", {"type": "attack"}))["reason"] == "death"

    def test_attacking_with_an_empty_hand_deck_strands_you(self):
        state = hd_battle(life=9, hand=[], filler=True)
        state = {**state, "hand_deck": []}
        assert "stranded" in HD.loss_warning(state, "p1", {"type": "attack"})
        assert HD.result(HD.apply(state, "p1", {"type": "attack"}))["reason"] == "stranded"

    def test_hebracs_death_says_why(self):
        state = hd_battle(life=3, hand=["2C"])
        text = HD.result(HD.apply(state, "p1", {"type": "attack"}))["text"]
        assert text == (
            "You died in Hebrac's Dungeon. Killed in battle by a mercenary (10♠): the last round cost 8 life. Score 0."
        )


# --- Dungeon Cards --------------------------------------------------------------------------

DC_HAND = {"classes": {"p1": "soldier"}, "turn_mode": "three_card_hand"}


def dc_choices_to_play(seed: int):
    """States of a solo game with a hand (three-card mode) where a card is to be played."""
    state = DC.new_game(seed, ["p1"], DC_HAND)
    rng = random.Random(seed)
    for _ in range(200):
        if DC.result(state) is not None:
            return
        legal = [a for a in DC.legal_actions(state, "p1") if a["type"] != "leave_game"]
        if state["phase"] == "awaiting_play":
            yield state
        state = DC.apply(state, "p1", rng.choice(legal))


def test_dungeon_cards_warns_of_a_card_that_lands_in_the_pit_and_only_then():
    checked = 0
    for seed in range(6):
        for state in dc_choices_to_play(seed):
            for action in [a for a in DC.legal_actions(state, "p1") if a["type"] == "play_card"]:
                landing = DC.apply(state, "p1", action)["characters"][0]["position"]
                if (
                    landing is None
                    or landing in state["board"]["exits"]
                    or landing == state["characters"][0]["position"]
                ):
                    continue
                assert DC.loss_warning(state, "p1", action) is None  # no pit there
                pitted = {**state, "board": {**state["board"], "pits": [landing]}}
                warning = DC.loss_warning(pitted, "p1", action)
                assert warning is not None and "the Pit" in warning
                after = DC.apply(pitted, "p1", action)
                assert after["characters"][0]["status"] == "fallen" and DC.result(after)["winners"] == []
                checked += 1
    assert checked > 0


def test_dungeon_cards_party_falls_are_not_certain_losses():
    state = DC.new_game(1, ["p1", "p2"], {"classes": {"p1": "soldier", "p2": "mage"}, "turn_mode": "three_card_hand"})
    for seat in ("p1", "p2"):
        assert all(DC.loss_warning(state, seat, a) is None for a in DC.legal_actions(state, seat))
