"""Clear the Dungeon: every acceptance scenario of section 11 and the rulings they leave out.

Rules: docs/rules/clear-the-dungeon.md (section, ruling and scenario numbers refer to it).

Given states come from stacked decks (section 11.0) or, for the few situations no short deal
reaches, from a state edited directly by ``edited``.
"""

from __future__ import annotations

import json
import random
import re
from collections import Counter
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import rules_engine
from benchmarks._common import clear_the_dungeon_skilled_choice as skilled_choice  # one player for both
from rules_engine.errors import IllegalAction, InvalidAction
from rules_engine.games import clear_the_dungeon as cd
from tests.helpers.engine import refused

LAYOUTS = {
    "A": "KH JK QS JD KD QH JC JK QC KS JS JH QD KC",
    "C": "QS JD JC QH JS QC JH QD JK KC JK KH KD KS",
    "J1": "KH QS JD KD QH JC JS JK QC KS QD JH JK KC",
    "J2": "KH QS JD KD QH JC JS QC JH KS KC JK JK QD",
    "W": "QH KD QS JC KH JD QC JS JK KC QD JH KS JK",
    "B": "JK JK KH QH KD JC QS JD QC KC JS JH KS QD",
}


def texts(log: list[dict]) -> list[str]:
    """A view's log as its lines of text."""
    return [entry["text"] for entry in log]


def stacked(layout: str, power_top: str = "") -> list[str]:
    """The 54-card deck of 11.0: dungeon in reading order, listed power cards, standard rest."""
    top = power_top.split()
    return LAYOUTS[layout].split() + top + [c for c in cd.POWER_DECK if c not in top]


def game(layout: str, power_top: str = "") -> dict:
    return cd.new_game(1, ["p1"], {"deck": stacked(layout, power_top)})


def act(state: dict, action: dict) -> dict:
    new = cd.apply(state, "p1", action)
    assert action_in(action, cd.legal_actions(state, "p1")), f"{action} missing from legal_actions"
    return new


def action_in(action: dict, actions: list[dict]) -> bool:
    def norm(a: dict) -> dict:
        # "double": false is a play's default; on any other action the parameter is malformed
        if a.get("type") != "play":
            return a
        return {k: v for k, v in a.items() if not (k == "double" and v is False)}

    # compared as JSON, because in Python 0 == False and 1 == True, which the engine tells apart
    def key(a: dict) -> str:
        return json.dumps(norm(a), sort_keys=True)

    return key(action) in {key(a) for a in actions}


def play(state: dict, *moves: str, double: bool = False) -> dict:
    """``play(s, "10S r7c1", "AC r7c1")``: place cards in order."""
    for move in moves:
        card, target = move.split()
        action = {"type": "play", "card": card, "target": target}
        if double:
            action["double"] = True
        state = act(state, action)
    return state


def use(state: dict, item: str, **params) -> dict:
    return act(state, {"type": "use_item", "item": item, **params})


def end_turn(state: dict) -> dict:
    return act(state, {"type": "end_turn"})


def illegal(state: dict, action: dict, match: str | None = None) -> None:
    """The action raises IllegalAction, changes nothing and is not listed as legal."""
    refused(cd, state, "p1", action, match=match)
    assert not action_in(action, cd.legal_actions(state, "p1"))


def illegal_play(state: dict, move: str, match: str | None = None, double: bool = False) -> None:
    card, target = move.split()
    action = {"type": "play", "card": card, "target": target}
    if double:
        action["double"] = True
    illegal(state, action, match)


def face_up(state: dict) -> dict[str, str]:
    return {p: s["card"] for p, s in state["dungeon"].items() if s is not None and s["face_up"]}


def face_down(state: dict) -> set[str]:
    return {p for p, s in state["dungeon"].items() if s is not None and not s["face_up"]}


def empty(state: dict) -> set[str]:
    return {p for p, s in state["dungeon"].items() if s is None}


def attack(state: dict, pos: str) -> list[str]:
    return [a["card"] for a in state["dungeon"][pos]["attack"]]


def score(state: dict) -> int:
    return cd.result(state)["scores"]["p1"]


def all_cards(state: dict) -> Counter:
    """Every card of the 54, wherever it is (10.2's invariant)."""
    cards: list[str] = []
    for slot in state["dungeon"].values():
        if slot is not None:
            cards.append(slot["card"])
            cards.extend(a["card"] for a in slot["attack"])
    for zone in ("power_deck", "hand", "hit_row", "clear_pile", "inventory"):
        cards.extend(state[zone])
    return Counter(cards)


def edited(state: dict, **changes) -> dict:
    """A copy of ``state`` with some fields replaced (for situations no short deal reaches)."""
    new = cd.load(cd.dump(state))
    new.update(changes)
    return new


# --- Contract and setup ---------------------------------------------------------------------


class TestContract:
    def test_registered_under_its_slug(self):
        rules = rules_engine.get("clear-the-dungeon")
        assert rules.module is cd
        assert (cd.slug, cd.title, cd.min_players, cd.max_players) == (
            "clear-the-dungeon",
            "Clear the Dungeon",
            1,
            1,
        )

    def test_same_seed_same_deal(self):
        assert cd.new_game(99, ["p1"]) == cd.new_game(99, ["p1"])
        assert len({json.dumps(cd.new_game(seed, ["p1"])["power_deck"]) for seed in range(5)}) == 5

    def test_canonical_shuffle(self):
        """10.1: one generator from the seed shuffles the monster deck, then the power deck."""
        state = cd.new_game(99, ["p1"])
        rng = cd.seeded_rng(99, "deal")
        monsters = cd.shuffled(cd.MONSTER_DECK, rng)
        power = cd.shuffled(cd.POWER_DECK, rng)
        for (_pos, slot), dealt in zip(state["dungeon"].items(), monsters):
            assert (slot["card"] if slot is not None else "JK") == dealt
        jokers = state["hand"].count("JK")
        assert state["hand"][jokers:] == power[:3] and state["power_deck"] == power[3:]

    def test_canonical_orders(self):
        assert cd.MONSTER_DECK == "JS QS KS JH QH KH JD QD KD JC QC KC JK JK".split()
        assert cd.POWER_DECK[:11] == "AS 2S 3S 4S 5S 6S 7S 8S 9S 10S AH".split()
        assert cd.POWER_DECK[-1] == "10C" and len(cd.POWER_DECK) == 40

    def test_stacked_deck_keeps_relative_order(self):
        deck = stacked("A", "9D 2C 3S")
        shuffled_in = deck[14:17] + deck[:14] + deck[17:]  # power cards first: same separation
        assert cd.new_game(1, ["p1"], {"deck": shuffled_in}) == {
            **game("A", "9D 2C 3S"),
            "options": {"deck": shuffled_in},
        }

    @pytest.mark.parametrize(
        "options, message",
        [
            ({"colour": "red"}, "unknown option"),
            ({"deck": "AS 2S"}, "list of card codes"),
            ({"deck": cd.ALL_CARDS[:-1]}, "exactly the 54"),
            ({"deck": cd.ALL_CARDS + ["AS"]}, "more often"),
            ({"deck": ["AS"] + cd.ALL_CARDS[:-1]}, "more often"),
            ({"deck": ["1X"] + cd.ALL_CARDS[1:]}, "not a card code"),
            ({"deck": ["JK"] + cd.ALL_CARDS[1:]}, "more often"),
            ("deck", "dictionary"),
        ],
    )
    def test_bad_options_are_rejected(self, options, message):
        with pytest.raises(InvalidAction, match=message):
            cd.new_game(1, ["p1"], options)

    @pytest.mark.parametrize("players", [[], ["p1", "p2"], [""], [3], "p1"])
    def test_exactly_one_player(self, players):
        with pytest.raises(InvalidAction):
            cd.new_game(1, players, None)

    def test_seed_must_be_an_integer(self):
        with pytest.raises(InvalidAction):
            cd.new_game("42", ["p1"])  # type: ignore[arg-type]

    def test_other_seats_cannot_act(self):
        state = game("A")
        assert cd.legal_actions(state, "p2") == []
        with pytest.raises(IllegalAction):
            cd.apply(state, "p2", {"type": "end_turn"})

    @pytest.mark.parametrize(
        "action",
        [
            "end_turn",
            {},
            {"type": 3},
            {"type": "draw"},
            {"type": "play", "card": "AS"},
            {"type": "play", "target": "r7c1"},
            {"type": "play", "card": "A♠", "target": "r7c1"},
            {"type": "play", "card": "AS", "target": "r8c1"},
            {"type": "play", "card": "AS", "target": "r7c1", "double": "yes"},
            {"type": "play", "card": "AS", "target": "r7c1", "colour": "red"},
            {"type": "use_item"},
            {"type": "use_item", "item": "QS"},
            {"type": "use_item", "item": "KH"},
            {"type": "use_item", "item": "KS"},
            {"type": "use_item", "item": "KC", "card": "AS"},
            {"type": "peek_decision"},
            {"type": "peek_decision", "move_to_top": 1},
            {"type": "end_turn", "card": "AS"},
        ],
    )
    def test_malformed_actions(self, action):
        state = game("A")
        before = cd.dump(state)
        with pytest.raises(InvalidAction):
            cd.apply(state, "p1", action)
        assert cd.dump(state) == before

    def test_apply_is_pure(self):
        state = game("A", "10S AC 5H")
        before = json.dumps(cd.dump(state), sort_keys=True)
        after = play(state, "10S r7c1", "AC r7c1", "5H r7c1")
        assert json.dumps(cd.dump(state), sort_keys=True) == before
        assert after["defeated"] == 1 and state["defeated"] == 0


class TestLayout:
    def test_positions_and_reading_order(self):
        assert cd.POSITIONS == tuple("r1c1 r2c1 r2c2 r3c1 r3c2 r3c3 r4c1 r4c2 r5c1 r6c1 r6c2 r7c1 r7c2 r7c3".split())
        assert cd.SETTLE_ORDER == tuple("r7c1 r7c2 r7c3 r6c1 r6c2 r5c1 r4c1 r4c2 r3c1 r3c2 r3c3 r2c1 r2c2 r1c1".split())

    def test_cover_table_matches_the_centred_half_offset_shape(self):
        """3.2: covered by every card of the next row down whose extent overlaps its own."""

        def x(row: int, col: int) -> Fraction:
            return col - Fraction(cd.ROW_SIZES[row - 1] + 1, 2)

        derived = {}
        for row, size in enumerate(cd.ROW_SIZES, 1):
            for col in range(1, size + 1):
                below = []
                if row < len(cd.ROW_SIZES):
                    below = [
                        f"r{row + 1}c{c}"
                        for c in range(1, cd.ROW_SIZES[row] + 1)
                        if abs(x(row + 1, c) - x(row, col)) < 1
                    ]
                derived[f"r{row}c{col}"] = below
        assert derived == cd.COVERED_BY
        assert list(cd.COVERED_BY) == list(cd.POSITIONS)

    def test_only_row_7_starts_uncovered_and_r1c1_opens_last(self):
        uncovered = [p for p, cover in cd.COVERED_BY.items() if not cover]
        assert uncovered == ["r7c1", "r7c2", "r7c3"]
        # r1c1 is covered, directly or not, by every other position.
        reach = {"r1c1"}
        frontier = ["r1c1"]
        while frontier:
            for pos in cd.COVERED_BY[frontier.pop()]:
                if pos not in reach:
                    reach.add(pos)
                    frontier.append(pos)
        assert reach == set(cd.POSITIONS)


# --- Acceptance scenarios (section 11) -----------------------------------------------------


class TestSetup:
    def test_s1_setup_and_hidden_information(self):
        s = game("A")
        assert face_up(s) == {"r7c1": "JH", "r7c2": "QD", "r7c3": "KC"}
        assert len(face_down(s)) == 11 and not empty(s)
        assert s["hand"] == ["AS", "2S", "3S"] and len(s["power_deck"]) == 37
        assert (s["turn"], len(s["hit_row"]), s["defeated"], s["status"]) == (1, 0, 0, "playing")
        assert s["inventory"] == [] and s["clear_pile"] == []
        illegal_play(s, "AS r6c1", "face down")
        illegal_play(s, "AS r1c1", "face down")
        for seat in ("p1", None):
            text = json.dumps(cd.view(s, seat), ensure_ascii=False)
            for code in "KH JK QS JD KD QH JC QC KS JS 4S".split():
                assert code not in text
                if code != "JK" and code != "4S":
                    assert cd.pretty(code) not in text
            assert cd.view(s, seat)["deck_count"] == 37

    def test_s6_joker_revealed_at_setup_and_wild_finisher(self):
        s = game("J1", "5S 6D 2C")
        assert "r7c2" in empty(s)
        assert s["hand"] == ["JK", "5S", "6D", "2C"] and len(s["power_deck"]) == 37
        assert face_up(s) == {"r7c1": "JH", "r7c3": "KC"}
        assert {"r6c1", "r6c2"} <= face_down(s)
        s = play(s, "5S r7c1", "6D r7c1", "JK r7c1")
        assert "r7c1" in empty(s) and s["defeated"] == 1
        assert face_up(s) == {"r6c1": "KS", "r7c3": "KC"}
        assert "r6c2" in face_down(s)
        assert s["hand"] == ["2C"] and s["turn"] == 1
        assert Counter(s["clear_pile"]) == Counter(["5S", "6D", "JK", "JH"])

    def test_s7_two_jokers_in_the_bottom_row_cascade(self):
        s = game("J2")
        assert {"r7c1", "r7c2"} == empty(s)
        assert s["hand"] == ["JK", "JK", "AS", "2S", "3S"] and len(s["power_deck"]) == 37 and s["turn"] == 1
        assert face_up(s) == {"r6c1": "KS", "r7c3": "QD"}
        assert face_down(s) == set(cd.POSITIONS[:9]) | {"r6c2"}


class TestAttack:
    def test_s2_one_hand_kill_automatic_new_turn_partial_uncovering(self):
        s = play(game("A", "10S AC 5H"), "10S r7c1", "AC r7c1", "5H r7c1")
        assert "r7c1" in empty(s)
        assert {"r6c1", "r6c2"} <= face_down(s)
        assert Counter(s["clear_pile"]) == Counter(["10S", "AC", "5H", "JH"]) and s["defeated"] == 1
        assert s["turn"] == 2 and s["hand"] == ["AS", "2S", "3S"] and len(s["power_deck"]) == 34
        assert s["hit_row"] == []

    def test_s3_threshold_exact_sum_finisher_suit_kept_across_turns_chosen_hit(self):
        s = game("A", "9D 2C 3S 4D 7H 8H")
        assert s["hand"] == ["9D", "2C", "3S"]
        s = play(s, "9D r7c2")
        illegal_play(s, "2C r7c2", r"9 \+ 2 = 11 is short of the Q♦'s 12")
        s = play(s, "3S r7c2")
        illegal_play(s, "2C r7c2", "finisher on the Q♦ must be a diamond or a joker")
        assert action_in({"type": "play", "card": "2C", "target": "r7c1"}, cd.legal_actions(s, "p1"))
        s = end_turn(s)
        assert s["hit_row"] == ["2C"] and s["turn"] == 2
        assert s["hand"] == ["4D", "7H", "8H"] and len(s["power_deck"]) == 34
        assert attack(s, "r7c2") == ["9D", "3S"]
        s = play(s, "4D r7c2")
        assert "r7c2" in empty(s)
        assert Counter(s["clear_pile"]) == Counter(["9D", "3S", "4D", "QD"])
        assert s["hand"] == ["7H", "8H"]
        assert {"r6c1", "r6c2"} <= face_down(s)

    def test_s4_opening_guard(self):
        s = game("A", "AS 2H 3C")
        assert s["hand"] == ["AS", "2H", "3C"] and "KS" not in s["inventory"]
        illegal_play(s, "AS r7c2", "an ace cannot open on a queen")
        illegal_play(s, "AS r7c3", "an ace cannot open on a king: even a 10 would leave it short")
        illegal_play(s, "2H r7c3", "a 2 cannot open on a king")
        s = play(s, "3C r7c3", "AS r7c1")
        assert attack(s, "r7c3") == ["3C"] and attack(s, "r7c1") == ["AS"] and s["hand"] == ["2H"]

    def test_s16_placement_order_decides_the_finisher(self):
        s = play(game("A", "5H 6S 3D"), "5H r7c1", "6S r7c1")
        illegal_play(s, "3D r7c1", "must be a heart")
        illegal_play(s, "3D r6c1", "face down")
        assert s["hand"] == ["3D"]

    def test_empty_position_cannot_be_targeted(self):
        s = game("J1", "5S 6D 2C")
        illegal_play(s, "5S r7c2", "the place in row 7, middle is empty")

    def test_card_not_in_hand(self):
        illegal_play(game("A"), "10H r7c1", "not in your hand")

    def test_equal_is_enough_and_suit_ignored_for_power_cards(self):
        s = play(game("A", "5H 7S 6S"), "5H r7c3", "7S r7c2")
        illegal_play(s, "6S r7c3", r"5 \+ 6 = 11 is short of the K♣'s 13")
        s = play(game("A", "10S AS 2S"), "10S r7c1", "AS r7c1")  # a spade counts as power
        assert [a["card"] for a in s["dungeon"]["r7c1"]["attack"]] == ["10S", "AS"]

    def test_joker_as_opening_and_second_power_card(self):
        s = game("J1", "3D 9C 4S 7D")
        s = play(s, "JK r7c3", "3D r7c3")
        assert cd.view(s, "p1")["dungeon"][-1]["sum"] == 13

    def test_legal_actions_list_a_joker_once(self):
        s = game("J2")
        plays = [a for a in cd.legal_actions(s, "p1") if a["type"] == "play" and a["card"] == "JK"]
        assert len(plays) == len({a["target"] for a in plays}) == 2


class TestHits:
    def test_s5_fifth_hit_ends_the_game_mid_discard(self):
        s = end_turn(game("A"))
        assert s["hit_row"] == ["AS", "2S", "3S"] and s["turn"] == 2
        assert s["hand"] == ["4S", "5S", "6S"] and len(s["power_deck"]) == 34
        s = end_turn(s)
        assert s["hit_row"] == ["AS", "2S", "3S", "4S", "5S"]
        assert s["hand"] == ["6S"] and len(s["power_deck"]) == 34 and s["turn"] == 2
        assert s["status"] == "lost_hits"
        assert cd.result(s) == {
            "winners": [],
            "scores": {"p1": 0},
            "reason": "five_hits",
            "text": "Five hits after 2 turns. 0 of 12 monsters defeated, 100 points each.",
            "defeated": 0,
            "hits": 5,
            "turns": 2,
        }
        assert cd.legal_actions(s, "p1") == []
        for action in (
            {"type": "play", "card": "6S", "target": "r7c1"},
            {"type": "end_turn"},
            {"type": "resign"},
        ):
            illegal(s, action, "the game is over")

    def test_four_hits_and_the_game_goes_on(self):
        s = end_turn(game("A", "4S 5S 6S 10S AC 2S"))
        s = play(s, "10S r7c1", "AC r7c1")
        s = end_turn(s)  # 2S: hit 4
        assert len(s["hit_row"]) == 4 and s["status"] == "playing" and s["turn"] == 3

    def test_end_turn_always_listed_while_running(self):
        s = game("A")
        assert {"type": "end_turn"} in cd.legal_actions(s, "p1")


class TestEndTurnCost:
    """``end_turn_cost``: what ending the turn now would cost, said before it happens (UI hint of 10.7)."""

    def test_every_card_in_hand_is_a_hit(self):
        assert cd.end_turn_cost(game("A")) == {"hits": 3, "hits_after": 3, "fatal": False}

    def test_s5_the_discard_stops_at_the_fifth_hit(self):
        s = end_turn(game("A"))
        # Three cards in hand and three hits: only two become hits, the fifth ends the game (4.4).
        assert cd.end_turn_cost(s) == {"hits": 2, "hits_after": 5, "fatal": True}
        assert cd.action_label(s, {"type": "end_turn"}) == "End turn: 2 cards become hits (5/5) — fatal"
        assert end_turn(s)["hand"] == ["6S"]

    def test_four_hits_after_ending_is_not_fatal(self):
        s = play(end_turn(game("A", "4S 5S 6S 10S AC 2S")), "10S r7c1", "AC r7c1")
        assert cd.end_turn_cost(s) == {"hits": 1, "hits_after": 4, "fatal": False}

    def test_jokers_in_hand_are_hits_too(self):
        s = game("J2")  # S7: hand JK JK AS 2S 3S
        assert cd.end_turn_cost(s) == {"hits": 5, "hits_after": 5, "fatal": True}

    def test_the_king_of_hearts_saves_a_hit(self):
        s = play(game("C", "10H 3S 2H 10D AC 3H"), "10H r7c1", "3S r7c1", "2H r7c1", "10D r7c2")
        assert s["hand"] == ["AC", "3H"] and s["inventory"] == ["KH"]
        assert cd.end_turn_cost(s) == {"hits": 2, "hits_after": 2, "fatal": False}
        assert cd.end_turn_cost(use(s, "KH", card="AC")) == {"hits": 1, "hits_after": 1, "fatal": False}

    def test_none_while_end_turn_is_not_legal(self):
        pending = TestJokersAndKings().s11_pending()
        assert cd.end_turn_cost(pending) is None and cd.view(pending, "p1")["end_turn_cost"] is None
        over = act(game("A"), {"type": "resign"})
        assert cd.end_turn_cost(over) is None


class TestJokersAndKings:
    def s8(self) -> dict:
        s = game("J1", "3D 9C 4S 7D")
        assert s["hand"] == ["JK", "3D", "9C", "4S"]
        s = play(s, "JK r7c3", "3D r7c3", "9C r7c3")
        assert s["inventory"] == ["KC"] and s["defeated"] == 1
        assert Counter(s["clear_pile"]) == Counter(["JK", "3D", "9C"])
        assert face_up(s) == {"r6c2": "QD", "r7c1": "JH"}
        assert s["hand"] == ["4S"] and len(s["power_deck"]) == 37
        return s

    def test_s8_joker_as_power_card_king_becomes_item(self):
        self.s8()

    def test_s9_king_of_clubs(self):
        s = self.s8()
        s = use(s, "KC")
        assert s["hand"] == ["4S", "7D"] and len(s["power_deck"]) == 36
        assert s["inventory"] == [] and "KC" in s["clear_pile"] and s["turn"] == 1
        illegal(s, {"type": "use_item", "item": "KC"}, "no K♣")

    def s10(self) -> dict:
        s = game("C", "10H 3S 2H 10D 3H AC 5D 9S 6C")
        assert s["power_deck"][-1] == "10C"
        s = play(s, "10H r7c1", "3S r7c1", "2H r7c1")
        assert s["inventory"] == ["KH"] and "r6c1" in face_down(s)
        assert s["turn"] == 2 and s["hand"] == ["10D", "3H", "AC"]
        s = play(s, "10D r7c2", "3H r7c2")
        illegal_play(s, "AC r7c3", "an ace cannot open on a king")
        illegal_play(s, "AC r7c2", "must be a diamond")
        assert not [a for a in cd.legal_actions(s, "p1") if a["type"] == "play"]
        s = use(s, "KH", card="AC")
        assert s["turn"] == 3 and s["hand"] == ["5D", "9S", "6C"] and s["hit_row"] == []
        assert len(s["power_deck"]) == 32 and s["power_deck"][-1] == "AC" and s["known_bottom"] == "AC"
        assert s["inventory"] == [] and "KH" in s["clear_pile"]
        return s

    def test_s10_king_of_hearts_avoids_a_hit_and_starts_a_new_turn(self):
        self.s10()

    def s11_pending(self) -> dict:
        s = play(self.s10(), "5D r7c2")
        assert s["inventory"] == ["KD"]
        assert face_up(s)["r6c1"] == "KC" and "r6c2" in face_down(s)
        s = use(s, "KD")
        assert s["pending"] == {"kind": "peek", "card": "AC"} and s["inventory"] == []
        illegal_play(s, "9S r6c1", "K♦")
        assert cd.legal_actions(s, "p1") == [
            {"type": "peek_decision", "move_to_top": True},
            {"type": "peek_decision", "move_to_top": False},
            {"type": "resign"},
        ]
        return s

    def test_s11_king_of_diamonds_brings_the_bottom_card_to_the_top(self):
        s = act(self.s11_pending(), {"type": "peek_decision", "move_to_top": True})
        assert s["power_deck"][:3] == ["AC", "AS", "2S"] and len(s["power_deck"]) == 32
        assert s["power_deck"][-1] == "10C" and s["known_bottom"] is None
        s = play(s, "9S r6c1", "6C r6c1")
        assert s["turn"] == 4 and s["hand"] == ["AC", "AS", "2S"] and len(s["power_deck"]) == 29
        s = play(s, "AC r6c1")
        # The K♦ won earlier in S11 was spent on the peek (a used king goes to the clear pile, a
        # defeated one to the inventory), so the inventory holds only the K♣ just defeated.
        assert s["inventory"] == ["KC"] and "KD" in s["clear_pile"] and "KC" not in face_up(s)
        assert "r5c1" in face_down(s) and s["hand"] == ["AS", "2S"]

    def test_s12_king_of_diamonds_leaves_the_card_in_place(self):
        before = self.s11_pending()
        s = act(before, {"type": "peek_decision", "move_to_top": False})
        assert s["power_deck"] == before["power_deck"]
        assert len(s["power_deck"]) == 32 and s["power_deck"][0] == "AS" and s["power_deck"][-1] == "AC"
        assert s["known_bottom"] == "AC" and s["pending"] is None
        assert "KD" not in s["inventory"] and "KD" in s["clear_pile"]

    def test_s13_king_of_spades_on_a_card_already_placed(self):
        s = play(game("C", "10S 3H 4S 6C 4H 7H"), "10S r7c3", "3H r7c3", "4S r7c3")
        assert s["inventory"] == ["KS"] and s["hand"] == ["6C", "4H", "7H"]
        s = play(s, "6C r7c1")
        illegal_play(s, "4H r7c1", r"6 \+ 4 = 10 is short")
        illegal(s, {"type": "use_item", "item": "KS", "target": "r7c2"}, "holds no attack card")
        s = use(s, "KS", target="r7c1")
        assert s["dungeon"]["r7c1"]["attack"] == [{"card": "6C", "doubled": True}] and s["inventory"] == []
        s = play(s, "4H r7c1", "7H r7c1")
        assert s["inventory"] == ["KH"]
        assert Counter(s["clear_pile"]) == Counter("10S 3H 4S KS 6C 4H 7H".split())
        assert s["turn"] == 3 and s["hand"] == ["AS", "2S", "3S"]

    def test_s14_king_of_spades_while_placing_and_a_joker_arriving_in_an_empty_hand(self):
        s = play(game("C", "10S 3H 4S 10H 2C AD"), "10S r7c3", "3H r7c3", "4S r7c3")
        assert s["inventory"] == ["KS"] and s["hand"] == ["10H", "2C", "AD"]
        s = play(s, "10H r7c2")
        assert action_in({"type": "play", "card": "AD", "target": "r7c1"}, cd.legal_actions(s, "p1"))
        illegal_play(s, "2C r7c2", r"10 \+ 2 = 12 is short")
        s = play(s, "2C r7c2", double=True)
        assert s["dungeon"]["r7c2"]["attack"][1] == {"card": "2C", "doubled": True}
        assert "KS" in s["clear_pile"] and s["inventory"] == []
        illegal_play(s, "AD r7c1", "an ace cannot open on a king")
        illegal_play(s, "AD r7c2", "no K♠", double=True)
        s = play(s, "AD r7c2")
        assert s["inventory"] == ["KD"] and s["hand"] == ["JK"] and s["turn"] == 2
        assert len(s["power_deck"]) == 34
        assert face_up(s) == {"r7c1": "KH"} and {"r6c1", "r5c1"} <= face_down(s)

    def test_s15_a_joker_cascade_in_mid_game(self):
        s = game("C", "10S 3H 4S 10D 3C 2D 3S 2H 9C 4C 5C 6H")
        s = play(s, "10S r7c3", "3H r7c3", "4S r7c3", "10D r7c2", "3C r7c2", "2D r7c2")
        assert s["hand"] == ["JK"] and s["turn"] == 2 and len(s["power_deck"]) == 34
        s = play(s, "JK r7c1")
        assert s["turn"] == 3 and s["hand"] == ["3S", "2H", "9C"]
        s = play(s, "3S r7c1", "2H r7c1")
        assert face_up(s)["r6c1"] == "KC"
        s = play(s, "9C r6c1")
        assert s["turn"] == 4 and s["hand"] == ["4C", "5C", "6H"]
        s = play(s, "4C r6c1", "5C r6c1")
        assert s["hand"] == ["6H", "JK"] and s["inventory"] == ["KS", "KD", "KH", "KC"]
        assert s["defeated"] == 4 and s["turn"] == 4 and len(s["power_deck"]) == 28
        assert empty(s) == set(cd.POSITIONS[8:])
        assert face_up(s) == {"r4c1": "JH", "r4c2": "QD"}
        assert face_down(s) == set(cd.POSITIONS[:6])

    def test_king_of_spades_doubles_a_joker_to_20(self):
        s = play(game("C", "10S 3H 4S"), "10S r7c3", "3H r7c3", "4S r7c3")
        s = edited(s, hand=["JK", "AS"], dungeon={**s["dungeon"], "r6c2": None})
        s = play(s, "JK r7c1", double=True)
        assert cd.view(s, "p1")["dungeon"][11]["attack"] == [{"card": "JK", "value": 20, "doubled": True}]

    def test_opening_guard_with_the_king_of_spades(self):
        s = play(game("C", "10S 3H 4S AD 2D 3D"), "10S r7c3", "3H r7c3", "4S r7c3")
        # An ace may open on a king while the K♠ is held (1 + 20 ≥ 13) ...
        assert action_in({"type": "play", "card": "AD", "target": "r7c1"}, cd.legal_actions(s, "p1"))
        # ... but not doubled, since the K♠ is then spent (2 + 10 < 13); a doubled 2 may (4 + 10).
        illegal_play(s, "AD r7c1", "a doubled ace cannot open on a king", double=True)
        s = play(s, "2D r7c1", double=True)
        assert s["dungeon"]["r7c1"]["attack"] == [{"card": "2D", "doubled": True}]

    def test_king_of_spades_never_on_a_finisher_or_a_covered_monster(self):
        s = play(game("C", "10S 3H 4S 10H 3C"), "10S r7c3", "3H r7c3", "4S r7c3", "10H r7c2", "3C r7c2")
        illegal(s, {"type": "use_item", "item": "KS", "target": "r7c2"}, "holds 2 attack cards")
        illegal(s, {"type": "use_item", "item": "KS", "target": "r6c1"}, "face down")
        illegal(s, {"type": "use_item", "item": "KS", "target": "r7c3"}, "empty")

    def test_king_of_hearts_takes_a_joker(self):
        s = game("J1", "4D")
        assert s["hand"] == ["JK", "4D", "AS", "2S"]
        s = edited(s, inventory=["KH"], dungeon={**s["dungeon"], "r1c1": None})
        s = use(s, "KH", card="JK")
        assert s["power_deck"][-1] == "JK" and s["known_bottom"] == "JK" and s["hand"] == ["4D", "AS", "2S"]

    def test_items_unusable_while_pending_resign_allowed(self):
        s = TestJokersAndKings().s11_pending()
        s = edited(s, inventory=["KC"])
        illegal(s, {"type": "use_item", "item": "KC"}, "K♦")
        illegal(s, {"type": "end_turn"}, "K♦")
        s = act(s, {"type": "resign"})
        assert s["status"] == "resigned" and s["pending"] is None

    def test_peek_decision_without_a_peek(self):
        illegal(game("A"), {"type": "peek_decision", "move_to_top": True}, "no K♦ decision")

    @pytest.mark.parametrize("move_to_top", [True, False])
    def test_king_of_diamonds_on_a_one_card_deck(self, move_to_top):
        s = edited(game("A"), inventory=["KD"], power_deck=["4S"])
        s = act(use(s, "KD"), {"type": "peek_decision", "move_to_top": move_to_top})
        assert s["power_deck"] == ["4S"] and s["known_bottom"] == "4S"

    def test_known_bottom_forgotten_when_the_bottom_changes(self):
        s = edited(game("A"), inventory=["KH", "KC"], power_deck=["4S", "5S"])
        s = use(s, "KH", card="AS")
        assert s["known_bottom"] == "AS"
        s = use(s, "KC")  # draws from the top: the bottom is unchanged
        assert s["known_bottom"] == "AS"
        s = edited(s, power_deck=["AS"], inventory=["KC"])
        assert use(s, "KC")["known_bottom"] is None

    def test_king_of_clubs_and_diamonds_need_a_power_card(self):
        s = edited(game("A"), inventory=["KC", "KD"], power_deck=[])
        illegal(s, {"type": "use_item", "item": "KC"}, "power deck is empty")
        illegal(s, {"type": "use_item", "item": "KD"}, "power deck is empty")
        assert cd.item_status(s) == [
            {"item": "KC", "usable": False, "reason": "the power deck is empty"},
            {"item": "KD", "usable": False, "reason": "the power deck is empty"},
        ]

    def test_item_status_says_why_a_king_is_idle(self):
        s = play(game("C", "10S 3H 4S 6C 4H 7H"), "10S r7c3", "3H r7c3", "4S r7c3")
        idle = {"item": "KS", "usable": False, "reason": "no face-up monster holds exactly one card"}
        assert cd.item_status(s) == [idle] and cd.view(s, None)["item_status"] == [idle]
        assert cd.item_status(play(s, "6C r7c1")) == [{"item": "KS", "usable": True, "reason": None}]
        pending = edited(TestJokersAndKings().s11_pending(), inventory=["KC"])
        assert cd.item_status(pending) == [
            {"item": "KC", "usable": False, "reason": "first decide where the K♦ card goes"}
        ]
        over = act(edited(s, inventory=["KC"]), {"type": "resign"})
        assert cd.item_status(over) == [{"item": "KC", "usable": False, "reason": "the game is over"}]

    def test_items_must_be_held(self):
        s = game("A")
        for item, params in (("KH", {"card": "AS"}), ("KD", {}), ("KS", {"target": "r7c1"}), ("KC", {})):
            illegal(s, {"type": "use_item", "item": item, **params}, "you have no K")

    def test_out_of_power_is_a_defensive_loss(self):
        s = edited(game("A"), power_deck=[])
        s = end_turn(s)
        assert s["status"] == "lost_power"
        assert cd.result(s)["reason"] == "out_of_power" and cd.result(s)["winners"] == []

    def test_short_draw_is_played_normally(self):
        s = edited(game("A"), power_deck=["4S", "5S"], known_bottom="5S")
        s = end_turn(s)
        assert s["hand"] == ["4S", "5S"] and s["power_deck"] == [] and s["known_bottom"] is None


class TestResign:
    def test_s17_resignation(self):
        s = act(game("A"), {"type": "resign"})
        assert s["status"] == "resigned"
        assert cd.result(s)["winners"] == [] and cd.result(s)["reason"] == "resigned"
        assert score(s) == 0
        assert cd.legal_actions(s, "p1") == []
        for action in ({"type": "end_turn"}, {"type": "resign"}, {"type": "play", "card": "AS", "target": "r7c1"}):
            illegal(s, action, "over")

    def test_resigning_keeps_the_defeated_monsters_score(self):
        s = play(game("A", "10S AC 5H"), "10S r7c1", "AC r7c1", "5H r7c1")
        assert score(act(s, {"type": "resign"})) == 100


class TestView:
    def test_face_down_positions_say_nothing(self):
        v = cd.view(game("A"), "p1")
        hidden = [d for d in v["dungeon"] if d["state"] == "hidden"]
        assert len(hidden) == 11
        assert all(set(d) == {"pos", "row", "col", "state"} for d in hidden)
        monster = v["dungeon"][12]
        assert monster == {
            "pos": "r7c2",
            "row": 7,
            "col": 2,
            "state": "monster",
            "card": "QD",
            "suit": "D",
            "power": 12,
            "attack": [],
            "sum": 0,
            "needs": "power",
            "short": 12,
        }

    def test_view_shape(self):
        s = play(game("A", "9D 3S 2C"), "9D r7c2", "3S r7c2")
        v = cd.view(s, "p1")
        assert set(v) == {
            "dungeon",
            "hand",
            "deck_count",
            "known_bottom",
            "hit_row",
            "hits",
            "hits_left",
            "clear_pile",
            "inventory",
            "item_status",
            "end_turn_cost",
            "pending",
            "turn",
            "defeated",
            "status",
            "ending",
            "seat",
            "player",
            "result",
            "log",
        }
        qd = v["dungeon"][12]
        assert (qd["sum"], qd["needs"], qd["short"]) == (12, "finisher", 0)
        assert v["hand"] == ["2C"] and v["deck_count"] == 37 and v["hits_left"] == 5
        assert v["end_turn_cost"] == {"hits": 1, "hits_after": 1, "fatal": False} and v["item_status"] == []
        assert [e["seq"] for e in v["log"]] == list(range(1, len(v["log"]) + 1))  # {seq, text}, as every game
        lines = texts(v["log"])
        assert "9♦ on Q♦ (9/12)" in lines and "3♠ on Q♦ (12/12)" in lines
        assert "seed" not in json.dumps(v)

    def test_the_spectator_view_equals_the_players_peek_included(self):
        """Rules 10.3: the pending K♦ card and the known bottom card are public; the bottom card
        is known only while it stays at the bottom."""
        pending = TestJokersAndKings().s11_pending()
        assert cd.view(pending, "p1")["pending"] == {"kind": "peek", "card": "AC"}
        assert cd.view(pending, None) == cd.view(pending, "p1") | {"seat": None}
        left = act(pending, {"type": "peek_decision", "move_to_top": False})
        assert cd.view(left, "p1")["known_bottom"] == "AC"
        assert cd.view(left, None) == cd.view(left, "p1") | {"seat": None}
        assert "K♦: the bottom card is A♣" in texts(cd.view(left, None)["log"])
        assert "K♦: A♣ left at the bottom" in texts(cd.view(left, None)["log"])
        moved = act(pending, {"type": "peek_decision", "move_to_top": True})
        assert cd.view(moved, "p1")["known_bottom"] is None
        assert "K♦: A♣ moved to the top" in texts(cd.view(moved, None)["log"])

    def test_a_peek_stored_before_it_was_public_still_reads(self):
        # States stored by earlier versions kept a K♦ line as {"text", "public"}: every view reads "text".
        state = edited(game("A"), log=[{"text": "K♦: the bottom card is AC", "public": "K♦: the player looks"}])
        assert cd.view(state, None)["log"] == [{"seq": 1, "text": "K♦: the bottom card is AC"}]

    def test_view_is_json_safe_and_does_not_alias_the_state(self):
        s = game("A")
        v = cd.view(s, "p1")
        assert json.loads(json.dumps(v)) == v
        v["hand"].append("XX")
        assert "XX" not in s["hand"]

    def test_log_events(self):
        s = play(game("J1", "3D 9C 4S 7D"), "JK r7c3", "3D r7c3", "9C r7c3")
        s = use(s, "KC")
        log = texts(cd.view(s, "p1")["log"])
        for line in (
            "Joker found in row 7, middle — added to your hand",
            "J♥ revealed in row 7, left",
            "Turn 1: drew 3♦, 9♣, 4♠",
            "The joker on K♣ (10/13)",
            "9♣ finishes the K♣",
            "K♣ defeated",
            "K♣ becomes an item",
            "Q♦ revealed in row 6, right",
            "K♣: drew 7♦",
        ):
            assert line in log
        s = end_turn(s)
        assert "2 cards discarded: hits 2/5" in s["log"]


class TestLabels:
    def test_labels(self):
        s = play(game("C", "10S 3H 4S 10H 2C AD"), "10S r7c3", "3H r7c3", "4S r7c3", "10H r7c2")
        labels = {json.dumps(a, sort_keys=True): cd.action_label(s, a) for a in cd.legal_actions(s, "p1")}
        assert labels[json.dumps({"type": "play", "card": "2C", "target": "r7c2", "double": True}, sort_keys=True)] == (
            "Play 2♣ doubled by K♠ on the K♦"
        )
        assert labels[json.dumps({"type": "play", "card": "AD", "target": "r7c1"}, sort_keys=True)] == (
            "Play A♦ on the K♥"
        )
        assert cd.action_label(s, {"type": "use_item", "item": "KS", "target": "r7c2"}) == (
            "K♠: double the 10♥ on the K♦"
        )
        assert cd.action_label(s, {"type": "end_turn"}) == "End turn: 2 cards become hits (2/5)"
        assert cd.action_label(s, {"type": "resign"}) == "Resign"
        assert cd.action_label(s, {"type": "use_item", "item": "KH", "card": "JK"}) == (
            "K♥: put the joker under the power deck"
        )
        fatal = edited(s, hit_row=["AS", "2S", "3S", "4S"])
        assert cd.action_label(fatal, {"type": "end_turn"}).endswith("— fatal")

    def test_peek_labels(self):
        s = TestJokersAndKings().s11_pending()
        assert cd.action_label(s, {"type": "peek_decision", "move_to_top": True}) == "Move A♣ to the top"
        assert cd.action_label(s, {"type": "peek_decision", "move_to_top": False}) == "Leave A♣ at the bottom"

    def test_malformed_label(self):
        with pytest.raises(InvalidAction):
            cd.action_label(game("A"), {"type": "fly"})


# --- The two complete lines ------------------------------------------------------------------


def line(state: dict, *steps: str) -> dict:
    """Apply a compact script: ``"9H r3c2"``, ``"2C r6c2 double"``, ``"KC"``, ``"KH 7H"``,
    ``"KS r7c1"``, ``"top"``/``"leave"``, ``"end"``."""
    for step in steps:
        words = step.split()
        if words[0] == "end":
            state = end_turn(state)
        elif words[0] in ("top", "leave"):
            state = act(state, {"type": "peek_decision", "move_to_top": words[0] == "top"})
        elif words[0] in cd.ITEMS:
            params = {}
            if words[0] == "KH":
                params["card"] = words[1]
            if words[0] == "KS":
                params["target"] = words[1]
            state = use(state, words[0], **params)
        else:
            state = play(state, f"{words[0]} {words[1]}", double=len(words) > 2)
        assert all_cards(state) == Counter(cd.ALL_CARDS)
    return state


class TestCompleteGames:
    def test_s18_line_a_complete_win_using_every_item(self):
        power = (
            "3H 2S 10C AD 4H 9D 2C 5D 7C 6H 3C 8H 5S 10D 2D 4C 9H 4D 6S AH 5C 7H "
            "8D 3S 8C 9C 10S 3D 6D 10H 2H 7S 9S 5H AS 4S 8S 7D AC 6C"
        )
        s = game("W", power)
        assert "r7c3" in empty(s) and face_up(s) == {"r7c1": "JH", "r7c2": "KS"}
        assert s["hand"] == ["JK", "3H", "2S", "10C"]
        # Turn 1
        s = line(s, "JK r7c2", "3H r7c2", "2S r7c2")
        assert s["inventory"] == ["KS"] and face_up(s)["r6c2"] == "QD"
        s = line(s, "10C r7c1")
        # Turn 2
        assert s["turn"] == 2 and s["hand"] == ["AD", "4H", "9D"]
        s = line(s, "AD r7c1")
        illegal_play(s, "4H r7c1", "finisher cannot be doubled", double=True)
        illegal(s, {"type": "use_item", "item": "KS", "target": "r7c1"}, "2 attack cards")
        s = line(s, "4H r7c1")
        assert face_up(s)["r6c1"] == "KC"
        s = line(s, "9D r6c2")
        # Turn 3
        assert s["hand"] == ["2C", "5D", "7C"]
        s = line(s, "2C r6c2 double")
        assert cd.view(s, "p1")["dungeon"][10]["sum"] == 13 and "KS" in s["clear_pile"]
        s = line(s, "5D r6c2")
        assert "r5c1" in face_down(s)
        s = line(s, "7C r6c1")
        # Turn 4
        assert s["hand"] == ["6H", "3C", "8H"]
        s = line(s, "6H r6c1", "3C r6c1")
        assert s["inventory"] == ["KC"] and face_up(s) == {"r4c1": "QC", "r4c2": "JS"}
        assert s["hand"] == ["8H", "JK"]
        s = line(s, "8H r4c2", "JK r4c2")
        # Turn 5
        assert s["turn"] == 5 and s["hand"] == ["5S", "10D", "2D"]
        s = line(s, "5S r4c2")
        assert face_up(s)["r3c3"] == "JD"
        s = line(s, "10D r4c1", "KC")
        assert s["hand"] == ["2D", "4C"]
        s = line(s, "2D r4c1", "4C r4c1")
        assert face_up(s) == {"r3c1": "JC", "r3c2": "KH", "r3c3": "JD"}
        # Turn 6
        assert s["hand"] == ["9H", "4D", "6S"]
        s = line(s, "9H r3c2", "4D r3c2", "6S r3c3")
        # Turn 7
        assert s["hand"] == ["AH", "5C", "7H"]
        s = line(s, "AH r3c2")
        assert s["inventory"] == ["KH"]
        s = line(s, "5C r3c3", "KH 7H")
        assert s["hit_row"] == [] and s["turn"] == 8 and s["known_bottom"] == "7H"
        # Turn 8
        assert s["hand"] == ["8D", "3S", "8C"]
        s = line(s, "8D r3c3")
        assert face_up(s)["r2c2"] == "QS"
        s = line(s, "3S r3c1", "8C r3c1")
        # Turn 9
        assert s["hand"] == ["9C", "10S", "3D"]
        s = line(s, "9C r3c1")
        assert face_up(s)["r2c1"] == "KD"
        s = line(s, "10S r2c1", "3D r2c1")
        # Turn 10
        assert s["hand"] == ["6D", "10H", "2H"]
        s = line(s, "6D r2c1")
        assert s["inventory"] == ["KD"]
        s = line(s, "10H r2c2", "2H r2c2")
        # Turn 11
        assert s["hand"] == ["7S", "9S", "5H"]
        s = line(s, "7S r2c2")
        assert face_up(s)["r1c1"] == "QH"
        s = line(s, "KD")
        assert s["pending"] == {"kind": "peek", "card": "7H"}
        s = line(s, "top", "9S r1c1", "5H r1c1")
        # Turn 12
        assert s["turn"] == 12 and s["hand"] == ["7H", "AS", "4S"]
        s = line(s, "7H r1c1")
        assert s["status"] == "won" and cd.result(s)["reason"] == "cleared"
        assert cd.result(s)["winners"] == ["p1"]
        assert s["defeated"] == 12 and s["hit_row"] == [] and s["turn"] == 12
        assert s["hand"] == ["AS", "4S"] and s["power_deck"] == ["8S", "7D", "AC", "6C"]
        assert s["inventory"] == [] and len(s["clear_pile"]) == 48 and score(s) == 2250 == cd.PERFECT_SCORE
        assert sum(c != "JK" and c[:-1] in ("J", "Q") for c in s["clear_pile"]) == 8
        assert sum(c[:-1] == "K" for c in s["clear_pile"]) == 4
        assert cd.legal_actions(s, "p1") == []
        illegal(s, {"type": "end_turn"}, "over")
        assert "Dungeon cleared!" in s["log"]

    def test_s19_line_b_winning_on_the_last_card_with_four_hits(self):
        power = (
            "10H AC 2H 9S 4C 5S 8D 4S 3D 10C 3S 7C 2S 9C 6S 8H 4D 7H 3C 10D 3H "
            "7S 6H 5C 5D 10S 8S 9D 4H 6D 9H AD 8C 2D 2C AS 7D 6C 5H AH"
        )
        s = game("B", power)
        s = line(s, "10H r7c1", "AC r7c1", "2H r7c1")  # 1
        assert "r6c1" in face_down(s)
        s = line(s, "9S r7c2", "4C r7c2", "5S r7c2")  # 2
        assert s["inventory"] == ["KS"] and face_up(s)["r6c1"] == "KC"
        s = line(s, "8D r7c3", "4S r7c3", "3D r7c3")  # 3
        assert face_up(s)["r6c2"] == "JS"
        s = line(s, "10C r6c1", "3S r6c1", "7C r6c1")  # 4
        assert s["inventory"] == ["KS", "KC"]
        s = line(s, "2S r6c2", "9C r6c2", "6S r6c2")  # 5
        assert face_up(s) == {"r5c1": "QC"}
        s = line(s, "8H r5c1", "4D r5c1")  # 6
        assert cd.legal_actions(s, "p1") == [
            {"type": "use_item", "item": "KC"},
            {"type": "end_turn"},
            {"type": "resign"},
        ]
        s = line(s, "end")
        assert len(s["hit_row"]) == 1
        s = line(s, "3C r5c1")  # 7
        assert face_up(s) == {"r4c1": "QS", "r4c2": "JD"}
        s = line(s, "10D r4c1", "3H r4c1")
        s = line(s, "7S r4c1")  # 8
        assert face_up(s)["r3c1"] == "QH"
        s = line(s, "6H r4c2", "5C r4c2")
        s = line(s, "5D r4c2")  # 9
        assert face_up(s)["r3c2"] == "KD" and face_up(s)["r3c3"] == "JC"
        s = line(s, "10S r3c1", "8S r3c1")
        s = line(s, "9D r3c2", "4H r3c2", "6D r3c2")  # 10
        assert s["inventory"] == ["KS", "KC", "KD"]
        s = line(s, "9H r3c3", "AD r3c3 double", "8C r3c3")  # 11
        assert face_up(s)["r2c2"] == "KH"
        assert s["hand"] == ["2D", "2C", "AS"]  # 12
        assert cd.legal_actions(s, "p1") == [
            {"type": "use_item", "item": "KD"},
            {"type": "use_item", "item": "KC"},
            {"type": "end_turn"},
            {"type": "resign"},
        ]
        s = line(s, "end")
        assert s["hit_row"] == ["7H", "2D", "2C", "AS"] and s["status"] == "playing"
        s = line(s, "7D r2c2", "6C r2c2", "5H r2c2")  # 13
        assert s["inventory"] == ["KC", "KD", "KH"]
        assert s["turn"] == 14 and s["hand"] == ["AH"] and s["power_deck"] == []  # 14, a short draw
        illegal(s, {"type": "use_item", "item": "KC"}, "empty")
        illegal(s, {"type": "use_item", "item": "KD"}, "empty")
        s = line(s, "AH r3c1")
        assert s["status"] == "won" and cd.result(s)["reason"] == "cleared"
        assert s["defeated"] == 12 and s["hit_row"] == ["7H", "2D", "2C", "AS"] and s["turn"] == 14
        assert s["power_deck"] == [] and s["hand"] == ["JK", "JK"]
        assert s["inventory"] == ["KC", "KD", "KH"] and score(s) == 2210
        assert empty(s) == set(cd.POSITIONS)


# --- Properties (S20) --------------------------------------------------------------------------

SUIT_LETTER = {symbol: letter for letter, symbol in cd.SUIT_SYMBOLS.items()}
CODE_RE = re.compile(r"(?<![0-9A-Za-z])(?:10|[2-9AJQK])[SHDC](?![0-9A-Za-z])")
SYMBOL_RE = re.compile(r"(?<![0-9A-Za-z])(?:10|[2-9AJQK])[♠♥♦♣]")


def named_cards(text: str) -> set[str]:
    """Every card a text names, by code (``QD``) or as people write it (``Q♦``)."""
    return set(CODE_RE.findall(text)) | {m[:-1] + SUIT_LETTER[m[-1]] for m in SYMBOL_RE.findall(text)}


def seen_cards(state: dict) -> tuple[set[str], set[str]]:
    """Cards seen in this state, (by a spectator, by the player): the hand, the hits and a K♦ peek,
    the same for both, since rules 10.3 make the peek public."""
    public = set(state["hand"]) | set(state["hit_row"])
    if state["pending"] is not None:
        public.add(state["pending"]["card"])
    return public, set(public)


def check_invariants(state: dict) -> None:
    assert all_cards(state) == Counter(cd.ALL_CARDS)
    for slot in state["dungeon"].values():
        if slot is not None and slot["face_up"]:
            assert slot["card"] != "JK" and len(slot["attack"]) <= 2
        if slot is not None and not slot["face_up"]:
            assert slot["attack"] == []
    assert len(state["hit_row"]) <= 5
    assert state["known_bottom"] is None or state["known_bottom"] == state["power_deck"][-1]
    actions = cd.legal_actions(state, "p1")
    if state["status"] == "playing":
        if state["pending"] is None:
            assert state["hand"] and {"type": "end_turn"} in actions
        assert {"type": "resign"} in actions
        for action in actions:
            assert isinstance(cd.action_label(state, action), str)
    for status in cd.item_status(state):
        listed = any(a["type"] == "use_item" and a["item"] == status["item"] for a in actions)
        assert status["usable"] == listed and (status["reason"] is None) == listed, status
    if state["status"] != "playing":
        assert actions == [] and cd.result(state) is not None
    assert cd.load(json.loads(json.dumps(cd.dump(state)))) == state


def check_view(state: dict, seen: tuple[set[str], set[str]]) -> None:
    """No view names a face-down card, an unseen power card or the seed; a spectator's view is the
    player's (rules 10.3)."""
    for seat, seen_by in ((None, seen[0]), ("p1", seen[1])):
        view = cd.view(state, seat)
        text = json.dumps(view, ensure_ascii=False)
        assert str(state["seed"]) not in text
        named = named_cards(text)
        for pos, slot in state["dungeon"].items():
            if slot is not None and not slot["face_up"]:
                assert slot["card"] not in named, f"face-down {slot['card']} at {pos} leaked"
        for card in state["power_deck"]:
            if card != "JK":
                assert card not in named or card in seen_by, f"unseen power card {card} leaked to {seat}"
        for entry in view["dungeon"]:
            if entry["state"] != "monster":
                assert set(entry) == {"pos", "row", "col", "state"}
        assert view == cd.view(state, "p1") | {"seat": seat}
        assert view["known_bottom"] == state["known_bottom"]
        assert view["deck_count"] == len(state["power_deck"])
        assert view["end_turn_cost"] == cd.end_turn_cost(state) and view["item_status"] == cd.item_status(state)


def check_draw_bound(before: dict, after: dict) -> None:
    """Section 7: just before a turn's draw the deck holds at least 12 + j − d cards."""
    if after["turn"] == before["turn"] or after["status"] != "playing":
        return
    drawn = next(e for e in reversed(after["log"]) if isinstance(e, str) and e.startswith(f"Turn {after['turn']}:"))
    deck_before_draw = len(after["power_deck"]) + len(drawn.split(": drew ")[1].split())
    hidden_jokers = sum(1 for s in after["dungeon"].values() if s is not None and s["card"] == "JK")
    assert deck_before_draw >= 12 + (2 - hidden_jokers) - after["defeated"]


def replay(state: dict, actions: list[dict]) -> dict:
    replayed = cd.new_game(state["seed"], state["players"], state["options"] or None)
    for action in actions:
        replayed = cd.apply(replayed, "p1", action)
    return replayed


def random_game(rng: random.Random, seed: int, deck: list[str] | None = None, *, skill: float, resign_rate: float):
    """Play random legal actions to the end, checking everything after each one."""
    state = cd.new_game(seed, ["p1"], {"deck": deck} if deck else None)
    seen = seen_cards(state)
    actions: list[dict] = []
    check_invariants(state)
    check_view(state, seen)
    for _ in range(300):
        legal = cd.legal_actions(state, "p1")
        if not legal:
            break
        if rng.random() < resign_rate:
            action = {"type": "resign"}
        elif rng.random() < skill:
            action = skilled_choice(state, legal, rng)
        else:
            action = rng.choice([a for a in legal if a["type"] != "resign"])
        new = cd.apply(state, "p1", action)
        check_draw_bound(state, new)
        state = new
        actions.append(action)
        public, private = seen_cards(state)
        seen = (seen[0] | public, seen[1] | private)
        check_invariants(state)
        check_view(state, seen)
    assert state["status"] in ("won", "lost_hits", "resigned")
    assert replay(state, actions) == state
    return state, actions


def check_end_turn_cost(state: dict, legal: list[dict]) -> dict | None:
    """The forecast agrees with what ``apply(end_turn)`` then does, read off the two states."""
    cost = cd.end_turn_cost(state)
    if not action_in({"type": "end_turn"}, legal):
        assert cost is None
        return None
    after = cd.apply(state, "p1", {"type": "end_turn"})
    before_hits, after_hits = state["hit_row"], after["hit_row"]
    assert after_hits[: len(before_hits)] == before_hits
    moved = after_hits[len(before_hits) :]
    assert moved == state["hand"][: len(moved)]  # in hand order, jokers included
    assert cost["hits"] == len(moved) and cost["hits_after"] == len(after_hits)
    assert cost["fatal"] == (after["status"] == "lost_hits")
    label = cd.action_label(state, {"type": "end_turn"})
    assert label.endswith("— fatal") == cost["fatal"]
    return cost


class TestProperties:
    @settings(max_examples=40, deadline=None)
    @given(
        seed=st.integers(10**12, 10**15),
        policy=st.integers(0, 2**32),
        end_rate=st.sampled_from([0.05, 0.2, 0.5]),
        skill=st.sampled_from([0.0, 0.8]),
    )
    def test_end_turn_cost_predicts_what_end_turn_does(self, seed, policy, end_rate, skill):
        rng = random.Random(policy)
        state = cd.new_game(seed, ["p1"])
        while legal := cd.legal_actions(state, "p1"):
            cost = check_end_turn_cost(state, legal)
            if rng.random() < end_rate:
                action = {"type": "end_turn"} if action_in({"type": "end_turn"}, legal) else legal[0]
            elif rng.random() < skill:
                action = skilled_choice(state, legal, rng)
            else:
                action = rng.choice([a for a in legal if a["type"] != "resign"])
            state = cd.apply(state, "p1", action)
            if state["status"] == "lost_hits":
                # The fifth hit only ever comes from ending a hand, and it was forecast as fatal.
                assert action == {"type": "end_turn"} and cost is not None and cost["fatal"]
        assert state["status"] not in ("playing", "resigned")

    def test_s20_many_seeded_random_games(self):
        statuses, kinds = Counter(), Counter()
        for seed in range(300):
            state, actions = random_game(random.Random(seed), 10**12 + seed, skill=0.8, resign_rate=0.002)
            statuses[state["status"]] += 1
            kinds.update(a["type"] + a.get("item", "") for a in actions)
        assert statuses["lost_power"] == 0 and statuses["lost_hits"] > 0
        # The games went deep enough to exercise every item and the peek decision.
        assert all(kinds[k] > 0 for k in ("use_itemKH", "use_itemKD", "use_itemKS", "use_itemKC", "peek_decision"))

    @settings(max_examples=100, deadline=None)
    @given(
        seed=st.integers(10**12, 10**15),
        policy=st.integers(0, 2**32),
        shuffle=st.booleans(),
        skill=st.sampled_from([0.0, 0.5, 0.9, 1.0]),
    )
    def test_random_legal_play(self, seed, policy, shuffle, skill):
        rng = random.Random(policy)
        deck = None
        if shuffle:  # a stacked deck too: the options path
            deck = list(cd.ALL_CARDS)
            rng.shuffle(deck)
        random_game(rng, seed, deck, skill=skill, resign_rate=0.005)

    @settings(max_examples=300, deadline=None)
    @given(
        seed=st.integers(10**12, 10**15),
        steps=st.integers(0, 60),
        policy=st.integers(0, 2**32),
        action=st.fixed_dictionaries(
            {"type": st.sampled_from(["play", "use_item", "peek_decision", "end_turn", "resign", "draw"])},
            optional={
                "card": st.sampled_from(cd.ALL_CARDS + ["1X", 7, None]),
                "target": st.sampled_from(list(cd.POSITIONS) + ["r0c0", 3]),
                "double": st.sampled_from([True, False, "yes"]),
                "item": st.sampled_from(list(cd.ITEMS) + ["QS"]),
                "move_to_top": st.sampled_from([True, False, 0]),
            },
        ),
    )
    def test_any_action_is_applied_iff_listed_and_refusals_change_nothing(self, seed, steps, policy, action):
        rng = random.Random(policy)
        state = cd.new_game(seed, ["p1"])
        for _ in range(steps):
            legal = [a for a in cd.legal_actions(state, "p1") if a["type"] != "resign"]
            if not legal:
                break
            state = cd.apply(state, "p1", rng.choice(legal))
        before = json.dumps(cd.dump(state), sort_keys=True)
        if action_in(action, cd.legal_actions(state, "p1")):
            assert cd.apply(state, "p1", action) != state
        else:
            with pytest.raises((InvalidAction, IllegalAction)):
                cd.apply(state, "p1", action)
        assert json.dumps(cd.dump(state), sort_keys=True) == before
