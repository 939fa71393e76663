"""Shuffle and Doom!'s presenter on real engine states: what its page is told to draw.

States come from the engine itself: a stacked deal for exact positions (the engine's own
docstring deal), and seeded random play for situations a deal cannot reach in a few moves.
"""

from __future__ import annotations

import random

import pytest

import rules_engine
from tests.helpers.decks import SHORT_DEAL as DEAL
from webapp.domain.play import ActionButton
from webapp.pages.presenters import Scene, present

RULES = rules_engine.get("shuffle-and-doom")
# DEAL on a 4 × 4 map: top headers 5♣ 8♦ 3♥ 9♠, side headers 7♦ K♠ J♠ Q♥; room 1, the corner the
# adventurer enters first, holds the 6♠ alone.


def scene(state: dict, seat: str | None = "p1") -> Scene:
    actions = RULES.legal_actions(state, seat) if seat else []
    buttons = [ActionButton(action, RULES.action_label(state, action), None) for action in actions]
    return Scene(rules=RULES, view=RULES.view(state, seat), seat=seat, buttons=buttons, result=RULES.result(state))


def page(state: dict, seat: str | None = "p1") -> dict:
    return present("shuffle_and_doom", scene(state, seat))


def dealt(*actions: dict) -> dict:
    state = RULES.new_game(1, ["p1"], {"size": 4, "deck": DEAL})
    for action in actions:
        state = RULES.apply(state, "p1", action)
    return state


CHOSE_TOP = {"type": "choose_stat_set", "set": "top"}
GAVE_ATTACK = {"type": "assign_diamond_bonus", "card": "8D", "stat": "attack"}
KILLED_6S = {"type": "attack", "card": "6S"}


def played_until(wanted, seed: int, **options) -> dict:
    """The first state of a seeded random game where ``wanted(view, state)`` holds."""
    state = RULES.new_game(seed, ["p1"], options)
    rng = random.Random(seed)
    for _ in range(5000):
        if wanted(RULES.view(state, "p1"), state):
            return state
        actions = RULES.legal_actions(state, "p1")
        if not actions:
            break
        state = RULES.apply(state, "p1", rng.choice(actions))
    pytest.fail(f"seed {seed} never reached the wanted state")


def actions_of(buttons: list[ActionButton]) -> list[dict]:
    return [b.action for b in buttons]


class TestStatusLine:
    def test_the_player_is_told_what_the_phase_asks(self):
        context = page(dealt())
        assert context["status_line"] == {
            "tone": "",
            "lead": "Your turn.",
            "detail": "Choose the set of cards that makes your adventurer.",
        }
        assert context["acting"]

    def test_a_spectator_watches_the_same_phase_and_cannot_act(self):
        context = page(dealt(CHOSE_TOP, GAVE_ATTACK), seat=None)
        assert context["status_line"] == {
            "tone": "watching",
            "lead": "Watching live.",
            "detail": "Only the player who started this game can act. Fight! Attack an enemy — the survivors hit back.",
        }
        assert not context["acting"]

    def test_the_end_shows_the_result_text(self):
        state = played_until(lambda view, _: view["result"] is not None, seed=1)
        context = page(state)
        assert context["status_line"] == {"tone": "over", "lead": "Game over.", "detail": RULES.result(state)["text"]}
        assert not context["acting"]


class TestMakingTheAdventurer:
    def test_each_set_offers_its_own_choice_and_no_statistics_yet(self):
        context = page(dealt())
        setup = context["setup"]
        assert [s["title"] for s in setup["sets"]] == ["Top set (columns)", "Side set (rows)"]
        assert [s["cards"] for s in setup["sets"]] == [DEAL[:4], DEAL[4:8]]
        assert [actions_of(s["buttons"]) for s in setup["sets"]] == [
            [{"type": "choose_stat_set", "set": "top"}],
            [{"type": "choose_stat_set", "set": "side"}],
        ]
        assert setup["heart_bonus"] == 7  # a 4 × 4 map's bonus (setup step 6)
        assert setup["swap_positions"] == [] and setup["diamond_buttons"] == []
        assert not context["show_stats"]

    def test_the_chosen_set_is_marked_and_its_diamond_is_given_with_the_sets_not_the_cards(self):
        context = page(dealt(CHOSE_TOP))
        setup = context["setup"]
        assert [s["title"] for s in setup["sets"]] == ["Top set (columns) — chosen", "Side set (rows)"]
        assert actions_of(setup["diamond_buttons"]) == [
            {"type": "assign_diamond_bonus", "card": "8D", "stat": stat}
            for stat in ("health", "attack", "intelligence")
        ]
        assert context["show_stats"]
        assert context["room"] is None and context["hand"] == []

    def test_a_required_swap_offers_every_position_starting_on_the_first_two(self):
        state = played_until(lambda view, _: view["phase"] == "swap", seed=1, merge_single_rooms=True)
        context = page(state)
        assert context["setup"]["swap_positions"] == [1, 2, 3, 4, 5, 6, 7]
        assert context["setup"]["swap_second"] == 2
        assert not context["show_stats"]

    def test_the_sets_are_gone_once_exploring(self):
        assert page(dealt(CHOSE_TOP, GAVE_ATTACK, KILLED_6S))["setup"] is None


class TestMap:
    def test_each_square_is_drawn_as_the_rules_see_it(self):
        context = page(dealt(CHOSE_TOP, GAVE_ATTACK, KILLED_6S))
        cells = context["map_cells"]
        assert len(cells) == 16
        assert cells[0] == {"classes": "cell emptied", "you": True}  # room 1, emptied, keeps its shade
        assert cells[1] == {"classes": "cell", "you": False}  # a corridor
        assert cells[3] == {"classes": "cell filled unvisited", "you": False}
        assert cells[15] == {"classes": "cell filled unvisited exit", "you": False}
        assert sum(cell["you"] for cell in cells) == 1
        assert context["map_label"] == (
            "Map 4 by 4: 5 rooms, 1 emptied. You are at row 1, column 1. The exit is at row 4, column 4."
        )

    def test_before_entering_nobody_is_on_the_map(self):
        context = page(dealt())
        assert not any(cell["you"] for cell in context["map_cells"])
        assert "You have not entered yet." in context["map_label"]

    def test_the_room_being_fought_in_is_active(self):
        cells = page(dealt(CHOSE_TOP, GAVE_ATTACK))["map_cells"]
        assert cells[0] == {"classes": "cell filled active", "you": True}

    def test_header_cards_show_rank_and_suit_on_maps_up_to_13(self):
        headers = page(dealt())["headers"]
        assert headers["top"] == [
            {"colour": "black", "short": "5♣"},
            {"colour": "red", "short": "8♦"},
            {"colour": "red", "short": "3♥"},
            {"colour": "black", "short": "9♠"},
        ]
        assert [h["short"] for h in headers["side"]] == ["7♦", "K♠", "J♠", "Q♥"]

    def test_header_cards_of_a_larger_map_show_only_their_colour(self):
        state = RULES.new_game(1, ["p1"], {"size": 14})
        headers = page(state)["headers"]
        assert len(headers["top"]) == len(headers["side"]) == 14
        assert {h["short"] for h in headers["top"] + headers["side"]} == {""}
        assert {h["colour"] for h in headers["top"] + headers["side"]} <= {"red", "black"}


class TestRoom:
    def test_an_enemy_shows_its_strength_and_can_be_attacked(self):
        room = page(dealt(CHOSE_TOP, GAVE_ATTACK))["room"]
        assert room["title"] == "Combat"
        [enemy] = room["cards"]
        assert enemy["code"] == "6S"
        assert enemy["badge"] == "enemy 6"
        assert enemy["label"] == "6 of spades: enemy 6"
        assert enemy["extra"] == ""
        assert [(act["button"].action, act["cls"]) for act in enemy["actions"]] == [(KILLED_6S, "primary")]

    def test_a_hurt_enemy_shows_strength_over_value(self):
        def hurt(view, _):
            return view["encounter"] and any(
                c["role"] == "enemy" and c["strength"] != c["value"] for c in view["encounter"]["cards"]
            )

        state = played_until(hurt, seed=1)
        enemies = {c["code"]: c for c in RULES.view(state, "p1")["encounter"]["cards"] if c["role"] == "enemy"}
        [hurt_enemy] = [c for c in page(state)["room"]["cards"] if c["extra"] == "damaged"]
        enemy = enemies[hurt_enemy["code"]]
        assert enemy["strength"] < enemy["value"]
        assert hurt_enemy["badge"] == f"enemy {enemy['strength']}/{enemy['value']}"

    def test_stunned_enemies_are_named_in_the_title(self):
        state = played_until(lambda view, _: view["encounter"] and view["encounter"]["stunned"], seed=4)
        assert page(state)["room"]["title"].endswith(" — enemies stunned")

    def test_traps_show_their_value_and_their_buttons_are_plain(self):
        state = played_until(lambda view, _: view["phase"] == "traps", seed=1)
        room = page(state)["room"]
        assert room["title"] == "Traps"
        traps = [c for c in room["cards"] if c["badge"].startswith("trap ")]
        assert traps
        for card in room["cards"]:
            assert all(act["cls"] == "" for act in card["actions"])
            assert all(act["button"].action["card"] == card["code"] for act in card["actions"])

    def test_no_room_while_walking_the_corridors(self):
        assert page(dealt(CHOSE_TOP, GAVE_ATTACK, KILLED_6S))["room"] is None


class TestHand:
    def test_potions_and_books_show_what_they_give_and_how_to_use_them(self):
        state = played_until(lambda view, _: {"potion", "book"} <= {c["kind"] for c in view["hand"]}, seed=12)
        hand = page(state)["hand"]
        by_kind = {card["kind"]: card for card in RULES.view(state, "p1")["hand"]}
        potion = next(h for h in hand if h["code"] == by_kind["potion"]["code"])
        book = next(h for h in hand if h["code"] == by_kind["book"]["code"])
        assert potion["badge"] == f"potion +{by_kind['potion']['value']}"
        assert book["badge"] == f"book +{by_kind['book']['value']}"
        assert potion["label"].endswith(f": {potion['badge']}")
        assert [b.action["type"] for b in potion["buttons"]] == ["drink"]
        assert [b.action["type"] for b in book["buttons"]] == ["read"]


class TestMoves:
    def test_a_corner_pad_keeps_its_blocked_ways_in_place(self):
        pad = page(dealt(CHOSE_TOP, GAVE_ATTACK, KILLED_6S))["move_pad"]
        assert [(way["place"], way["arrow"], way["button"].action["dir"]) for way in pad["ways"]] == [
            ("e", "→", "E"),
            ("s", "↓", "S"),
        ]
        assert pad["blocked"] == ["n", "w"]

    def test_no_pad_in_a_fight_and_nothing_to_leave_by(self):
        context = page(dealt(CHOSE_TOP, GAVE_ATTACK))
        assert context["move_pad"] is None
        assert context["way_out"] == []

    def test_the_exit_is_the_primary_way_out(self):
        state = played_until(lambda _, s: {"type": "exit"} in RULES.legal_actions(s, "p1"), seed=3)
        way_out = page(state)["way_out"]
        assert [(act["button"].action, act["cls"]) for act in way_out] == [({"type": "exit"}, "primary")]

    def test_retreats_are_offered_plainly(self):
        def can_retreat(view, state):
            return view["phase"] == "combat" and any(a["type"] == "retreat" for a in RULES.legal_actions(state, "p1"))

        way_out = page(played_until(can_retreat, seed=1, retreat_from_combat=True))["way_out"]
        assert way_out and {act["button"].action["type"] for act in way_out} == {"retreat"}
        assert {act["cls"] for act in way_out} == {""}


class TestDeck:
    def test_values_are_marked_multiplied_only_after_the_deck_is_exhausted(self):
        assert not page(dealt(CHOSE_TOP, GAVE_ATTACK))["values_multiplied"]
        state = played_until(lambda view, _: view["multiplier"] > 1, seed=11, size=10)
        assert page(state)["values_multiplied"]
