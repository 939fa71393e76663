"""Engine tests for Shuffle and Doom! (rules: docs/rules/shuffle-and-doom.md).

One test per acceptance scenario (S1–S19), tests for the section-10 rulings they leave
out, contract checks, and Hypothesis properties of random legal play.
"""

from __future__ import annotations

import json
import random
import re
from collections import deque

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import rules_engine
from rules_engine.cards import rank_value, standard_deck
from rules_engine.errors import IllegalAction, InvalidAction
from rules_engine.games import shuffle_and_doom as sad
from tests.helpers.decks import S1_HEADERS, full_deck
from tests.helpers.engine import refused

SEAT = "p1"
REJECTED = (IllegalAction, InvalidAction)

# Header sets that deal the rules file's three recurring 4×4 maps (section 12).
MAPS = {
    # 000X / 000X / 000X / XXX0: room E = (1,4)(2,4)(3,4), room S = (4,1)(4,2)(4,3)
    "M1": (["AH", "10H", "JH", "AS"], ["AD", "10D", "JD", "KC"]),
    # 0000 / XXXX / 0000 / XXXX: room U = row 2, room L = row 4
    "M2": (["AH", "10H", "JH", "QH"], ["AD", "AC", "10D", "10C"]),
    # XX00 / 00XX / 00XX / 00XX: room A = (1,1)(1,2), room B = rows 2-4 x columns 3-4
    "M3": (["AS", "AC", "AH", "10H"], ["AD", "10S", "10C", "JS"]),
}


def new(deck, size=4, seed=1, **flags):
    return sad.new_game(seed, [SEAT], {"size": size, "deck": list(deck), **flags})


def act(state, kind, **params):
    return sad.apply(state, SEAT, {"type": kind, **params})


def rejected(state, kind, exc=REJECTED, **params):
    """Assert the action is refused and leaves the state exactly as it was."""
    refused(sad, state, SEAT, {"type": kind, **params}, exc)


def room_at(state, r, c):
    return state["map"][r - 1][c - 1]


def status_at(state, r, c):
    return state["room_status"][room_at(state, r, c) - 1]


def given_state(
    name,
    pos,
    *,
    health,
    attack=3,
    intelligence=3,
    gold=0,
    hand=(),
    draw=(),
    returned=(),
    gold_pile=(),
    emptied=(),
    **flags,
):
    """A running game on map M1/M2/M3 in the middle of exploration (a section-12 "given")."""
    top, side = MAPS[name]
    s = sad.new_game(7, [SEAT], {"size": 4, "deck": top + side})
    s["options"].update(flags)
    s["chosen_set"] = "top"
    s["phase"] = "explore"
    s["position"] = list(pos)
    s["stats"] = {
        "health": health,
        "attack": attack,
        "intelligence": intelligence,
        "gold": gold,
        "ward": 0,
        "temp_intelligence": 0,
    }
    s["hand"] = [{"code": c, "value": rank_value(c), "kind": "potion" if c.endswith("H") else "book"} for c in hand]
    s["gold_pile"] = [{"code": c, "value": rank_value(c)} for c in gold_pile]
    s["draw"] = list(draw)
    s["returned"] = list(returned)
    for r, c in emptied:
        s["room_status"][room_at(s, r, c) - 1] = "emptied"
    s["log"] = []
    return s


def enc(state):
    """The encounter's cards as {code: (role, value, strength)}."""
    return {c["code"]: (c["role"], c["value"], c["strength"]) for c in state["encounter"]["cards"]}


def pattern(state):
    return "/".join("".join("X" if cell["filled"] else "0" for cell in row) for row in sad.view(state, SEAT)["cells"])


def room_sizes(state):
    return sorted(room["size"] for room in state["rooms"])


def setup_s1(deck, **flags):
    s = new(deck, **flags)
    s = act(s, "choose_stat_set", set="top")
    return act(s, "assign_diamond_bonus", card="8D", stat="attack")


# ----------------------------------------------------------------------------------------------


class TestSetup:
    def test_s1_map_orientation_stats_and_automatic_entry(self):
        s = new(full_deck(*S1_HEADERS, "6S"))
        assert pattern(s) == "X00X/0XX0/0XX0/X00X"
        assert room_sizes(s) == [1, 1, 1, 1, 4]
        assert s["phase"] == "choose_set"
        side = act(act(s, "choose_stat_set", set="side"), "assign_diamond_bonus", card="7D", stat="health")
        assert {k: side["stats"][k] for k in ("health", "attack", "intelligence")} == {
            "health": 15,
            "attack": 17,
            "intelligence": 3,
        }
        s = act(s, "choose_stat_set", set="top")
        assert s["phase"] == "assign_diamonds"
        s = act(s, "assign_diamond_bonus", card="8D", stat="attack")
        st_ = s["stats"]
        assert (st_["health"], st_["attack"], st_["intelligence"], st_["gold"]) == (14, 11, 10, 0)
        assert s["position"] == [1, 1]
        assert s["phase"] == "combat"
        assert enc(s) == {"6S": ("enemy", 6, 6)}
        s = act(s, "attack", card="6S")
        assert s["stats"]["health"] == 14
        assert status_at(s, 1, 1) == "emptied"
        assert s["phase"] == "explore"

    def test_s2_headers_return_to_the_bottom_in_order_books_and_gold(self):
        s = setup_s1(S1_HEADERS + ["6S"])
        # "After setup the draw pile is 6S + headers": the automatic entry has just drawn 6S.
        assert enc(s) == {"6S": ("enemy", 6, 6)}
        assert s["draw"] == S1_HEADERS
        s = act(s, "attack", card="6S")
        s = act(s, "move", dir="E")
        s = act(s, "move", dir="E")
        assert len(s["draw"]) == 8
        s = act(s, "move", dir="E")
        assert s["hand"] == [{"code": "5C", "value": 5, "kind": "book"}]
        assert s["phase"] == "explore" and status_at(s, 1, 4) == "emptied"
        for _ in range(3):
            s = act(s, "move", dir="S")
        assert s["position"] == [4, 4]
        assert s["stats"]["gold"] == 8 and s["gold_pile"] == [{"code": "8D", "value": 8}]
        s = act(s, "exit")
        res = sad.result(s)
        assert res["reason"] == "exited" and res["score"] == 8
        assert res["winners"] == [SEAT] and res["scores"] == {SEAT: 8}

    def test_s3_all_empty_map_is_redealt(self):
        reds = [f"{r}H" for r in ("A", "2", "3", "4", "5", "6", "7", "8")]
        deck = full_deck(*reds)
        s = new(deck, seed=11)
        assert s["phase"] == "choose_set"
        assert "X" in pattern(s)
        assert s["top"] + s["side"] != reds
        assert any("dealt again" in line for line in s["log"])
        assert new(deck, seed=11) == s

    def test_s15a_base_stats_7(self):
        s = new(full_deck(*S1_HEADERS), base_stats_7=True)
        s = act(s, "choose_stat_set", set="top")
        s = act(s, "assign_diamond_bonus", card="8D", stat="health")
        assert (s["stats"]["health"], s["stats"]["attack"], s["stats"]["intelligence"]) == (15, 14, 14)

    def test_s17a_merge_single_rooms_swap(self):
        s = new(full_deck(*S1_HEADERS), merge_single_rooms=True)
        assert s["phase"] == "swap"
        assert sad.view(s, SEAT)["swaps_required"] == 1
        rejected(s, "choose_stat_set", set="top")
        rejected(s, "swap_headers", set="top", i=2, j=3)
        s = act(s, "swap_headers", set="top", i=1, j=3)
        assert s["top"] == ["3H", "8D", "5C", "9S"]
        assert pattern(s) == "00XX/XX00/XX00/00XX"
        assert room_sizes(s) == [2, 2, 4]
        assert s["phase"] == "choose_set"
        s = act(s, "choose_stat_set", set="top")
        s = act(s, "assign_diamond_bonus", card="8D", stat="attack")
        assert (s["stats"]["health"], s["stats"]["attack"], s["stats"]["intelligence"]) == (14, 11, 10)
        assert s["position"] == [1, 1] and s["encounter"] is None and s["phase"] == "explore"
        expected_bottom = ["3H", "8D", "5C", "9S", "7D", "KS", "JS", "QH"]
        assert s["draw"][-8:] == expected_bottom and len(s["draw"]) == 52
        assert sad.view(s, SEAT)["bottom_headers"] == expected_bottom

    def test_s17b_split_large_rooms_swap(self):
        deck = ["2H", "3H", "4H", "5H", "6H", "2C", "3C", "4C", "5C", "7H"]
        s = new(deck, size=5, split_large_rooms=True)
        assert room_sizes(s) == [20]
        assert s["phase"] == "swap"
        rejected(s, "swap_headers", set="top", i=1, j=2)
        s = act(s, "swap_headers", set="side", i=2, j=5)
        assert s["side"] == ["2C", "7H", "4C", "5C", "3C"]
        assert room_sizes(s) == [5, 15]
        assert s["phase"] == "choose_set"

    def test_s18_bonus_by_size_and_diamond_limits(self):
        chosen = ["AH", "2H", "3S", "4C", "5C", "6C", "7D", "8S", "9S"]
        other = ["2D", "3D", "4D", "5D", "6D", "8D", "9D", "10D", "JD"]
        s = new(chosen + other, size=9)
        s = act(s, "choose_stat_set", set="top")
        assert (s["stats"]["health"], s["stats"]["attack"], s["stats"]["intelligence"]) == (15, 15, 15)
        rejected(s, "assign_diamond_bonus", card="7D", stat="gold")
        rejected(s, "assign_diamond_bonus", card="2D", stat="attack")  # not in the chosen set
        s = act(s, "assign_diamond_bonus", card="7D", stat="attack")
        assert s["stats"]["attack"] == 16
        for size in (15, 26):
            deck = full_deck()
            s = act(sad.new_game(5, [SEAT], {"size": size, "deck": deck}), "choose_stat_set", set="top")
            top = deck[:size]
            count = {suit: sum(c.endswith(suit) for c in top) for suit in "SHC"}
            assert s["stats"]["health"] == 7 + count["H"]
            assert s["stats"]["attack"] == 3 + count["S"]
            assert s["stats"]["intelligence"] == 3 + count["C"]

    @pytest.mark.parametrize("size", [4, 15, 26])
    def test_ruling2_each_diamond_gives_plus_one_at_every_size(self, size):
        s = act(new(full_deck("2D", "3D"), size=size, seed=5), "choose_stat_set", set="top")
        top = s["top"]
        bonus = sad.size_bonus(size)
        count = {suit: sum(c.endswith(suit) for c in top) for suit in "SHC"}
        # The diamonds gave nothing yet (not the size bonus B): only hearts, spades and clubs count.
        assert (s["stats"]["health"], s["stats"]["attack"], s["stats"]["intelligence"]) == (
            7 + bonus * count["H"],
            3 + bonus * count["S"],
            3 + bonus * count["C"],
        )
        assert s["diamonds"] == ["2D", "3D"]
        before = dict(s["stats"])
        s = act(s, "assign_diamond_bonus", card="2D", stat="intelligence")
        s = act(s, "assign_diamond_bonus", card="3D", stat="intelligence")
        assert s["stats"]["intelligence"] == before["intelligence"] + 2
        assert (s["stats"]["health"], s["stats"]["attack"], s["stats"]["gold"]) == (
            before["health"],
            before["attack"],
            0,
        )

    def test_ruling3_setup_arithmetic_follows_the_formula(self):
        # 7×7, B = 5, two clubs in the chosen set: intelligence 3 + 2×5 = 13 (the source wrote 8).
        top = ["4H", "9S", "KS", "2C", "3C", "5D", "8H"]
        side = ["2S", "3S", "4S", "5S", "6S", "7S", "8S"]
        s = act(new(full_deck(*top, *side), size=7), "choose_stat_set", set="top")
        assert (s["stats"]["health"], s["stats"]["attack"], s["stats"]["intelligence"]) == (17, 13, 13)

    def test_ruling27_a_room_of_exactly_16_cells_needs_no_split(self):
        # Rows 1-4 (black) x columns 1-4 (red): 16 cells, plus (5,5). "Larger than 4×4" is > 16.
        s = new(["2H", "3H", "4H", "5H", "2S", "3S", "4S", "5S", "6S", "6H"], size=5, split_large_rooms=True)
        assert room_sizes(s) == [1, 16]
        assert s["phase"] == "choose_set" and s["swap_for"] is None
        # Rows 1-3 (black) x all six columns (red): 18 cells, so the swap is required.
        s = new(
            ["2H", "3H", "4H", "5H", "6H", "7H", "2S", "3S", "4S", "8H", "9H", "10H"], size=6, split_large_rooms=True
        )
        assert room_sizes(s) == [18]
        assert s["phase"] == "swap" and s["swap_for"] == "split_large_rooms"

    def test_ruling27_swap_waived_when_no_set_holds_both_colours(self):
        deck = ["2H", "3H", "4H", "5H", "6H", "2C", "3C", "4C", "5C", "6C"]
        s = new(deck, size=5, split_large_rooms=True)
        assert room_sizes(s) == [25]
        assert s["phase"] == "choose_set"
        assert any("waived" in line for line in s["log"])

    def test_one_swap_per_option_then_merge_is_checked(self):
        deck = ["2H", "3H", "4H", "5H", "6H", "2C", "3C", "4C", "5C", "7H"]
        s = new(deck, size=5, split_large_rooms=True, merge_single_rooms=True)
        s = act(s, "swap_headers", set="side", i=1, j=5)  # still 20 cells: no second split swap
        assert room_sizes(s) == [20]
        assert s["phase"] == "choose_set"
        # A merge swap after the split swap, when a one-cell room appears.
        deck = ["2H", "3H", "4H", "5H", "6H", "2C", "7H", "8H", "3C", "4C", "5C", "6C"]
        s = new(deck, size=6, split_large_rooms=True, merge_single_rooms=True)
        assert s["swap_for"] == "split_large_rooms" and room_sizes(s) == [2, 20]
        s = act(s, "swap_headers", set="side", i=1, j=4)
        assert room_sizes(s) == [1, 1, 5, 5, 10]
        assert s["phase"] == "swap" and s["swap_for"] == "merge_single_rooms"

    def test_setup_actions_out_of_phase(self):
        s = new(full_deck(*S1_HEADERS))
        rejected(s, "swap_headers", set="top", i=1, j=3)
        rejected(s, "assign_diamond_bonus", card="8D", stat="attack")
        rejected(s, "move", dir="E")
        rejected(s, "drink", card="3H")
        s = act(s, "choose_stat_set", set="top")
        rejected(s, "choose_stat_set", set="side")


class TestMovement:
    def test_s4_movement_limits(self):
        s = given_state("M2", (1, 1), health=7, draw=["2D", "3D", "4H", "KS", "9C"])
        rejected(s, "move", dir="N")
        rejected(s, "move", dir="W")
        rejected(s, "exit")
        s = act(s, "move", dir="E")
        assert s["position"] == [1, 2] and len(s["draw"]) == 5
        s = act(s, "move", dir="S")
        assert s["position"] == [2, 2]
        assert set(enc(s)) == {"2D", "3D", "4H", "KS"}
        assert s["phase"] == "combat" and s["draw"] == ["9C"]
        rejected(s, "move", dir="N")

    def test_ruling26_exit_only_from_the_corner_outside_an_encounter(self):
        s = given_state("M2", (3, 4), health=30, attack=20, draw=["KS", "2D", "3D", "4D"])
        s = act(s, "move", dir="S")
        assert s["position"] == [4, 4] and s["phase"] == "combat"
        rejected(s, "exit")
        s = act(s, "attack", card="KS")
        assert s["phase"] == "explore" and sad.result(s) is None  # stepping on (N,N) ends nothing
        s = act(s, "move", dir="N")
        s = act(s, "move", dir="S")
        assert sad.result(s) is None
        assert act(s, "exit")["result"]["reason"] == "exited"

    def test_emptied_room_cells_are_empty(self):
        s = given_state("M1", (3, 3), health=30, attack=20, draw=["2S", "3S", "4S", "5S"])
        s = act(s, "move", dir="E")
        s = act(s, "attack", card="2S")
        s = act(s, "attack", card="3S")
        s = act(s, "attack", card="4S")
        s = act(s, "move", dir="N")
        s = act(s, "move", dir="S")
        assert s["phase"] == "explore" and s["draw"] == ["5S"]
        assert not sad.view(s, SEAT)["cells"][2][3]["filled"]


class TestRooms:
    def test_ruling23_rooms_are_numbered_by_first_entry(self):
        # S1's map: rooms 1 (1,1), 2 (1,4), 3 the centre, 4 (4,1), 5 (4,4) in reading order.
        s = setup_s1(full_deck(*S1_HEADERS, "6S", "2D", "3D", "4D", "5D", "6D"))
        s = act(s, "attack", card="6S")
        for d in "ES":  # (1,2), then the centre: four cells, so exactly four cards
            s = act(s, "move", dir=d)
        assert sorted(g["code"] for g in s["gold_pile"]) == ["2D", "3D", "4D", "5D"]
        for d in "ENE":  # (2,3), (1,3), then room 2 at (1,4)
            s = act(s, "move", dir=d)
        assert s["gold_pile"][-1]["code"] == "6D" and s["stats"]["gold"] == 20
        orders = {room["id"]: room["order"] for room in sad.view(s, SEAT)["rooms"]}
        centre, corner = room_at(s, 2, 2), room_at(s, 1, 4)
        assert (centre, corner) == (3, 2)  # ids follow the map; the numbering follows the visits
        assert orders == {1: 1, centre: 2, corner: 3, 4: None, 5: None}

    def test_ruling19_gold_counts_j_q_k_a_as_11_to_14_times_the_multiplier(self):
        for multiplier in (1, 2):
            s = given_state("M2", (1, 2), health=10, draw=["JD", "QD", "KD", "AD"])
            s["multiplier"] = multiplier
            s = act(s, "move", dir="S")  # room U: four gold cards, no enemy, no trap: looted at once
            assert [g["value"] for g in s["gold_pile"]] == [
                11 * multiplier,
                12 * multiplier,
                13 * multiplier,
                14 * multiplier,
            ]
            assert s["stats"]["gold"] == 50 * multiplier


class TestCombat:
    def test_s5_partial_damage_reduced_counterattack_health_zero_and_drinking(self):
        s = given_state("M1", (3, 3), health=9, attack=8, hand=["6H"], draw=["QS", "5S", "4D"])
        s = act(s, "move", dir="E")
        assert enc(s) == {"QS": ("enemy", 12, 12), "5S": ("enemy", 5, 5), "4D": ("gold", 4, None)}
        rejected(s, "take", card="4D")
        s = act(s, "attack", card="QS")
        assert enc(s)["QS"][2] == 4
        assert s["stats"]["health"] == 0 and sad.result(s) is None
        s = act(s, "drink", card="6H")
        assert s["stats"]["health"] == 6
        s = act(s, "attack", card="5S")
        assert s["stats"]["health"] == 2
        s = act(s, "attack", card="QS")
        assert s["stats"]["gold"] == 4
        assert status_at(s, 3, 4) == "emptied"
        assert s["position"] == [3, 4]
        assert s["returned"] == ["6H", "5S", "QS"]

    def test_s6_death(self):
        s = given_state("M1", (3, 3), health=3, attack=5, gold=20, draw=["7S", "2S", "9H"])
        s = act(s, "move", dir="E")
        s = act(s, "attack", card="2S")
        assert s["stats"]["health"] == -4
        res = sad.result(s)
        assert res["reason"] == "died" and res["score"] == 0
        assert res["winners"] == [] and res["scores"] == {SEAT: 0}
        assert s["phase"] == "over" and sad.legal_actions(s, SEAT) == []
        rejected(s, "attack", card="7S")
        rejected(s, "move", dir="W")
        rejected(s, "exit")

    def test_s10_separately_no_retreat_in_combat(self):
        s = given_state("M1", (3, 3), health=10, draw=["KS", "9C", "8D"])
        s = act(s, "move", dir="E")
        assert s["phase"] == "combat"
        rejected(s, "retreat", to=[4, 4])
        rejected(s, "retreat", to=[3, 3])

    def test_ruling10_enemies_act_only_after_attacks(self):
        s = given_state("M1", (3, 3), health=30, attack=2, hand=["5H"], draw=["9S", "8S", "7S"])
        s = act(s, "move", dir="E")
        assert s["stats"]["health"] == 30  # no damage on entry
        s = act(s, "drink", card="5H")
        assert s["stats"]["health"] == 35  # no counterattack after a free action
        s = act(s, "attack", card="7S")
        assert s["stats"]["health"] == 35 - (9 + 8 + 5)

    def test_ruling8_free_actions_any_time_between_actions_never_mid_resolution(self):
        s = given_state("M1", (3, 3), health=20, attack=3, hand=["2H", "3H", "4H", "2C"], draw=["9S", "5C", "4D"])
        s = act(s, "move", dir="E")
        assert s["phase"] == "combat"
        s = act(s, "drink", card="2H")  # in combat, before the first attack
        assert s["stats"]["health"] == 22
        s = act(s, "attack", card="9S")
        # The attack and its counterattack are one action: no window to drink in between.
        assert enc(s)["9S"][2] == 6 and s["stats"]["health"] == 16
        s = act(s, "drink", card="3H")  # after a counterattack
        assert s["stats"]["health"] == 19
        s = act(s, "attack", card="9S")
        s = act(s, "attack", card="9S")
        assert s["phase"] == "traps" and s["stats"]["health"] == 16
        s = act(s, "read", card="2C")  # in the traps step
        s = act(s, "deactivate", card="5C")
        assert s["phase"] == "explore" and s["encounter"] is None
        s = act(s, "drink", card="4H")  # out of any encounter
        assert s["stats"]["health"] == 20 and s["hand"] == []
        over = given_state("M1", (3, 3), health=3, attack=5, hand=["5H"], draw=["7S", "2S", "9H"])
        over = act(act(over, "move", dir="E"), "attack", card="2S")
        assert sad.result(over)["reason"] == "died"
        rejected(over, "drink", card="5H")  # not after the game ends (nor before setup ends)

    def test_attack_params_checked(self):
        s = given_state("M1", (3, 3), health=10, draw=["KS", "9C", "8D"])
        s = act(s, "move", dir="E")
        rejected(s, "attack", card="8D", exc=IllegalAction)
        rejected(s, "attack", card="AS", exc=IllegalAction)
        with pytest.raises(IllegalAction, match="A♠ is not an enemy"):
            act(s, "attack", card="AS")


class TestTraps:
    def test_s7_traps_intelligence_and_books(self):
        s = given_state("M1", (3, 3), health=10, intelligence=6, hand=["5C"], draw=["9C", "4C", "7H"])
        s = act(s, "move", dir="E")
        assert enc(s) == {"9C": ("trap", 9, None), "4C": ("trap", 4, None), "7H": ("potion", 7, None)}
        assert s["phase"] == "traps"
        s = act(s, "deactivate", card="4C")
        rejected(s, "deactivate", card="9C")
        s = act(s, "read", card="5C")
        assert s["stats"]["intelligence"] == 11
        s = act(s, "deactivate", card="9C")
        assert s["hand"] == [{"code": "7H", "value": 7, "kind": "potion"}]
        assert s["stats"]["health"] == 10
        assert status_at(s, 3, 4) == "emptied"
        assert s["returned"] == ["4C", "5C", "9C"]

    def test_s8_books_as_loot(self):
        s = given_state("M1", (3, 3), health=10, attack=5, draw=["8C", "2S", "KC"])
        s = act(s, "move", dir="E")
        assert enc(s)["8C"][0] == "book" and enc(s)["KC"][0] == "book"
        assert s["phase"] == "combat"
        s = act(s, "attack", card="2S")
        assert [(c["code"], c["kind"]) for c in s["hand"]] == [("8C", "book"), ("KC", "book")]
        assert s["stats"]["intelligence"] == 3
        s = act(s, "read", card="KC")
        assert s["stats"]["intelligence"] == 16
        assert [c["code"] for c in s["hand"]] == ["8C"]

    def test_s9_taking_an_item_under_active_traps(self):
        start = given_state("M2", (1, 2), health=10, intelligence=4, draw=["9C", "3C", "8D", "5H"])
        s = act(start, "move", dir="S")
        assert s["phase"] == "traps"
        rejected(s, "deactivate", card="9C")
        entered = s
        s = act(s, "deactivate", card="3C")
        s = act(s, "take", card="8D")
        assert s["stats"]["health"] == 1 and s["stats"]["gold"] == 8
        assert "5H" in s["returned"] and "9C" in s["returned"]
        assert s["hand"] == []
        assert status_at(s, 2, 1) == "emptied" and status_at(s, 4, 1) == "unvisited"
        assert s["phase"] == "explore"
        dead = act(entered, "take", card="8D")
        assert dead["stats"]["health"] == -2 and sad.result(dead)["reason"] == "died"

    def test_s10_standard_retreat_then_exit(self):
        s = given_state("M1", (3, 3), health=10, intelligence=4, gold=6, draw=["9C", "8D", "5H"])
        s = act(s, "move", dir="E")
        assert s["phase"] == "traps"
        rejected(s, "retreat", to=[1, 1])
        rejected(s, "retreat", to=[2, 4])
        s = act(s, "retreat", to=[4, 4])
        assert s["position"] == [4, 4]
        assert s["stats"]["health"] == 10 and s["stats"]["gold"] == 6
        assert s["returned"] == ["9C", "8D", "5H"]
        assert status_at(s, 3, 4) == "emptied" and status_at(s, 4, 1) == "unvisited"
        s = act(s, "exit")
        assert sad.result(s)["reason"] == "exited" and sad.result(s)["score"] == 6

    def test_ruling14_fallbacks_allowed_even_when_deactivation_is_possible(self):
        s = given_state("M1", (3, 3), health=10, intelligence=10, draw=["2C", "8D", "5H"])
        s = act(s, "move", dir="E")
        kinds = {a["type"] for a in sad.legal_actions(s, SEAT)}
        assert {"deactivate", "take", "retreat"} <= kinds
        s = act(s, "take", card="5H")
        assert s["stats"]["health"] == 8 and s["hand"][0]["code"] == "5H"

    def test_ruling18_taken_potion_cannot_save_you(self):
        s = given_state("M1", (3, 3), health=5, intelligence=3, draw=["9C", "9H", "2D"])
        s = act(s, "move", dir="E")
        s = act(s, "take", card="9H")
        assert sad.result(s)["reason"] == "died" and s["stats"]["health"] == -4

    def test_ruling12_club_role_fixed_by_the_whole_draw(self):
        s = given_state("M1", (3, 3), health=10, attack=20, draw=["5C", "KS", "2H"])
        s = act(s, "move", dir="E")
        assert enc(s)["5C"][0] == "trap"
        s = act(s, "attack", card="KS")
        assert s["phase"] == "traps"


class TestTrapOpener:
    def test_s11_trap_opener_and_full_clear(self):
        s = given_state(
            "M3", (2, 2), health=20, attack=6, hand=["4H"], draw=["6C", "5S", "9S", "KS", "7D", "2H"], emptied=[(1, 1)]
        )
        s = act(s, "move", dir="E")
        assert s["phase"] == "combat" and len(enc(s)) == 6
        s = act(s, "drink", card="4H")
        assert s["stats"]["health"] == 24
        s = act(s, "use_trap_opener", card="7D")
        assert s["stats"]["gold"] == 7 and s["stats"]["health"] == 18
        assert enc(s) == {"9S": ("enemy", 9, 3), "KS": ("enemy", 13, 7)}
        assert {"6C", "2H", "5S"} <= set(s["returned"])
        assert s["encounter"]["stunned"]
        s = act(s, "attack", card="KS")
        assert enc(s)["KS"][2] == 1 and s["stats"]["health"] == 18
        s = act(s, "attack", card="9S")
        assert s["stats"]["health"] == 17
        s = act(s, "attack", card="KS")
        res = sad.result(s)
        assert res["reason"] == "cleared" and res["score"] == 14 and res["winners"] == [SEAT]
        assert s["position"] == [2, 3]

    def test_s12_opener_refused(self):
        base = dict(health=30, attack=6, intelligence=3)
        a = act(given_state("M1", (3, 3), draw=["KS", "9C", "3S"], **base), "move", dir="E")
        assert enc(a)["9C"][0] == "book"
        rejected(a, "use_trap_opener", card="9C")
        assert not any(x["type"] == "use_trap_opener" for x in sad.legal_actions(a, SEAT))
        b = act(given_state("M1", (3, 3), draw=["9S", "6C", "7D"], **base), "move", dir="E")
        assert any(x["type"] == "use_trap_opener" for x in sad.legal_actions(b, SEAT))
        b = act(b, "attack", card="9S")
        assert enc(b)["9S"][2] == 3 and b["stats"]["health"] == 27
        rejected(b, "use_trap_opener", card="7D")
        c = act(given_state("M1", (3, 3), draw=["6C", "7D", "2H"], **base), "move", dir="E")
        assert c["phase"] == "traps"
        rejected(c, "use_trap_opener", card="7D")
        c = act(c, "take", card="7D")
        assert c["stats"]["health"] == 24 and c["stats"]["gold"] == 7 and "2H" in c["returned"]

    def test_opener_that_defeats_every_enemy_empties_the_room(self):
        s = given_state("M1", (3, 3), health=30, draw=["3S", "5C", "4H"])
        s = act(s, "move", dir="E")
        s = act(s, "use_trap_opener", card="4H")
        assert s["stats"]["health"] == 25 and s["hand"][0]["code"] == "4H"
        assert status_at(s, 3, 4) == "emptied" and s["phase"] == "explore"
        assert sorted(s["returned"]) == ["3S", "5C"]

    def test_ruling17_no_opener_after_an_attack_on_an_earlier_visit(self):
        s = given_state("M1", (3, 3), health=40, attack=3, draw=["KS", "5C", "4D"], retreat_from_combat=True)
        s = act(s, "move", dir="E")
        s = act(s, "attack", card="KS")
        s = act(s, "retreat", to=[3, 3])
        s = act(s, "move", dir="E")
        assert s["encounter"]["attacked_yet"]
        rejected(s, "use_trap_opener", card="4D")


class TestExhaustion:
    def test_s13_exhaustion_between_rooms(self):
        s = given_state(
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
        s = act(s, "move", dir="S")
        st_ = s["stats"]
        assert (st_["health"], st_["intelligence"], st_["gold"]) == (15, 7, 4)
        assert s["multiplier"] == 2 and s["exhaustions"] == 1
        assert s["hand"] == [] and s["gold_pile"] == [] and s["returned"] == []
        assert enc(s) == {
            "QS": ("enemy", 24, 24),
            "5H": ("potion", 10, None),
            "3C": ("trap", 6, None),
            "4D": ("gold", 8, None),
        }
        s = act(s, "attack", card="QS")
        assert enc(s)["QS"][2] == 10 and s["stats"]["health"] == 5
        s = act(s, "attack", card="QS")
        s = act(s, "deactivate", card="3C")
        assert s["hand"] == [{"code": "5H", "value": 10, "kind": "potion"}]
        assert s["stats"]["gold"] == 12
        assert sad.result(s)["reason"] == "cleared" and sad.result(s)["score"] == 24

    def test_s14_exhaustion_while_drawing_a_room(self):
        s = given_state("M2", (3, 2), health=30, attack=10, draw=["6S"], returned=["2D", "9S", "3H"], emptied=[(2, 1)])
        s = act(s, "move", dir="S")
        cards = [(c["code"], c["value"]) for c in s["encounter"]["cards"]]
        assert cards[0] == ("6S", 6)
        assert sorted(cards[1:]) == [("2D", 4), ("3H", 6), ("9S", 18)]
        assert s["multiplier"] == 2 and s["exhaustions"] == 1
        v = given_state("M2", (3, 2), health=30, attack=10, draw=["6S"], returned=["2D"], emptied=[(2, 1)])
        v = act(v, "move", dir="S")
        assert [(c["code"], c["value"]) for c in v["encounter"]["cards"]] == [("6S", 6), ("2D", 4)]
        assert v["multiplier"] == 2 and v["exhaustions"] == 1

    def test_ruling22_repeated_exhaustion_doubles_again(self):
        s = given_state("M1", (3, 3), health=30, attack=50, draw=[], returned=["2S"])
        s["multiplier"], s["exhaustions"] = 2, 1
        s = act(s, "move", dir="E")
        assert s["multiplier"] == 4 and s["exhaustions"] == 2
        assert enc(s) == {"2S": ("enemy", 8, 8)}

    def test_exhaustion_with_nothing_to_reshuffle_empties_the_room(self):
        s = given_state("M1", (3, 3), health=10, draw=[], emptied=[(4, 1)])
        s = act(s, "move", dir="E")
        assert s["multiplier"] == 1 and s["exhaustions"] == 0
        assert sad.result(s)["reason"] == "cleared"

    def test_ruling30_temporary_consumables_stay_in_hand_at_exhaustion(self):
        s = given_state(
            "M1",
            (3, 3),
            health=10,
            attack=50,
            hand=["5H", "3C"],
            returned=["2S"],
            gold_pile=["4D"],
            gold=4,
            temporary_consumables=True,
        )
        s = act(s, "move", dir="E")
        assert [c["code"] for c in s["hand"]] == ["5H", "3C"]
        assert s["stats"]["health"] == 10 and s["stats"]["intelligence"] == 3
        assert sorted(enc(s)) == ["2S", "4D"]
        assert s["stats"]["gold"] == 4

    def test_ruling31_suspended_rooms_are_left_out_of_the_reshuffle(self):
        s = given_state(
            "M1", (3, 3), health=50, attack=3, draw=["KS", "QS", "JS"], returned=["2H"], retreat_from_combat=True
        )
        s = act(s, "move", dir="E")
        s = act(s, "retreat", to=[3, 3])
        s = act(s, "move", dir="S")  # (4,3): room S is drawn from the reshuffled returned pile
        assert s["encounter"] is None and sad.result(s) is None
        assert s["exhaustions"] == 1 and s["multiplier"] == 2
        assert [sus["room"] for sus in s["suspended"]] == [room_at(s, 3, 4)]
        assert {c["code"] for c in s["suspended"][0]["cards"]} == {"KS", "QS", "JS"}
        assert s["hand"] == [{"code": "2H", "value": 4, "kind": "potion"}]


class TestOptions:
    def test_s15b_retreat_from_combat_suspends_the_room(self):
        s = given_state("M1", (3, 3), health=14, attack=5, draw=["9S", "4S", "6D", "2C"], retreat_from_combat=True)
        s = act(s, "move", dir="E")
        s = act(s, "attack", card="9S")
        assert enc(s)["9S"][2] == 4 and s["stats"]["health"] == 6
        s = act(s, "retreat", to=[3, 3])
        assert status_at(s, 3, 4) == "suspended" and s["phase"] == "explore"
        assert all(sad.view(s, SEAT)["cells"][r][3]["filled"] for r in range(3))
        s = act(s, "move", dir="E")
        assert enc(s) == {"9S": ("enemy", 9, 4), "4S": ("enemy", 4, 4), "6D": ("gold", 6, None)}
        assert s["draw"] == ["2C"]
        s = act(s, "attack", card="9S")
        assert s["stats"]["health"] == 2
        s = act(s, "attack", card="4S")
        assert s["stats"]["gold"] == 6 and status_at(s, 3, 4) == "emptied"

    def test_s15c_retreat_keeps_traps(self):
        s = given_state(
            "M1",
            (3, 3),
            health=14,
            attack=5,
            intelligence=4,
            hand=["6C"],
            draw=["9C", "8D", "5H"],
            retreat_keeps_traps=True,
        )
        s = act(s, "move", dir="E")
        s = act(s, "retreat", to=[3, 3], keep=True)
        assert status_at(s, 3, 4) == "suspended" and s["stats"]["health"] == 14
        s = act(s, "read", card="6C")
        assert s["stats"]["intelligence"] == 10
        s = act(s, "move", dir="E")
        assert set(enc(s)) == {"9C", "8D", "5H"} and s["exhaustions"] == 0
        s = act(s, "deactivate", card="9C")
        assert s["stats"]["gold"] == 8 and s["hand"] == [{"code": "5H", "value": 5, "kind": "potion"}]

    def test_keep_needs_its_option_and_the_traps_step(self):
        s = given_state("M1", (3, 3), health=14, draw=["9C", "8D", "5H"])
        s = act(s, "move", dir="E")
        rejected(s, "retreat", to=[3, 3], keep=True)
        c = given_state(
            "M1", (3, 3), health=14, draw=["9S", "8D", "5H"], retreat_from_combat=True, retreat_keeps_traps=True
        )
        c = act(c, "move", dir="E")
        rejected(c, "retreat", to=[3, 3], keep=True)
        assert act(c, "retreat", to=[3, 3])["room_status"][room_at(c, 3, 4) - 1] == "suspended"

    def test_retreat_impossible_when_the_room_covers_the_map(self):
        deck = ["2H", "3H", "4H", "5H", "2C", "3C", "4C", "5C", "9C", "8D", "6D", "7D"]
        s = new(deck, size=4)
        s = act(s, "choose_stat_set", set="side")
        assert s["phase"] == "traps"
        assert not any(a["type"] == "retreat" for a in sad.legal_actions(s, SEAT))
        rejected(s, "retreat", to=[1, 2])

    def test_s16a_flat_consumables(self):
        s = given_state("M1", (3, 3), health=5, hand=["KH", "9C"], flat_consumables=True)
        assert sad.action_label(s, {"type": "drink", "card": "KH"}) == "Drink K♥ (+3 health)"
        s = act(s, "drink", card="KH")
        s = act(s, "read", card="9C")
        assert s["stats"]["health"] == 8 and s["stats"]["intelligence"] == 6

    def test_ruling28_flat_consumables_give_3_whatever_the_multiplier(self):
        s = given_state("M1", (3, 3), health=5, intelligence=3, flat_consumables=True)
        s["multiplier"] = 2
        s["hand"] = [{"code": "KH", "value": 26, "kind": "potion"}, {"code": "9C", "value": 18, "kind": "book"}]
        s = act(s, "drink", card="KH")
        s = act(s, "read", card="9C")
        assert s["stats"]["health"] == 8 and s["stats"]["intelligence"] == 6
        # The hand used automatically at an exhaustion gives 3 too, and a potion drawn at ×2 still 3.
        s = given_state("M1", (3, 3), health=5, attack=50, hand=["KH"], returned=["2S"], flat_consumables=True)
        s = act(s, "move", dir="E")
        assert s["multiplier"] == 2 and s["stats"]["health"] == 8
        s = act(s, "attack", card="2S")
        assert s["hand"] == [{"code": "KH", "value": 26, "kind": "potion"}]
        assert act(s, "drink", card="KH")["stats"]["health"] == 11

    def test_s16b_temporary_potion_is_a_ward(self):
        s = given_state("M1", (3, 3), health=5, hand=["8H"], draw=["9S", "2D", "3D"], temporary_consumables=True)
        s = act(s, "move", dir="E")
        s = act(s, "drink", card="8H")
        assert s["stats"]["ward"] == 8 and s["stats"]["health"] == 5
        s = act(s, "attack", card="9S")
        assert enc(s)["9S"][2] == 6
        assert s["stats"]["health"] == 5 and s["stats"]["ward"] == 0
        s = act(s, "attack", card="9S")
        assert s["stats"]["health"] == 2
        s = act(s, "attack", card="9S")
        assert s["stats"]["gold"] == 5

    def test_s16c_temporary_book_expires_after_one_action(self):
        s = given_state("M1", (3, 3), health=20, hand=["6C"], draw=["8C", "7C", "4D"], temporary_consumables=True)
        s = act(s, "move", dir="E")
        s = act(s, "read", card="6C")
        assert s["stats"]["temp_intelligence"] == 6
        s = act(s, "deactivate", card="8C")
        assert s["stats"]["temp_intelligence"] == 0
        rejected(s, "deactivate", card="7C")
        s = act(s, "take", card="4D")
        assert s["stats"]["health"] == 13 and s["stats"]["gold"] == 4


class TestEnding:
    def test_ruling24_standard_retreat_can_clear_but_suspension_cannot(self):
        s = given_state("M1", (3, 3), health=20, gold=3, draw=["9C", "8D"], emptied=[(4, 1)], retreat_keeps_traps=True)
        s = act(s, "move", dir="E")
        kept = act(s, "retreat", to=[3, 3], keep=True)
        assert sad.result(kept) is None
        cleared = act(s, "retreat", to=[3, 3])
        assert sad.result(cleared) == {
            "winners": [SEAT],
            "scores": {SEAT: 6},
            "reason": "cleared",
            "score": 6,
            "text": sad.result(cleared)["text"],
        }

    def test_free_actions_between_encounters_consume_the_card(self):
        s = given_state("M1", (1, 1), health=5, hand=["4H"])
        s = act(s, "drink", card="4H")
        assert s["stats"]["health"] == 9
        rejected(s, "drink", card="4H")
        rejected(s, "read", card="4H")


class TestContract:
    def test_registry_and_constants(self):
        rules = rules_engine.get("shuffle-and-doom")
        assert rules.module is sad
        assert (sad.slug, sad.title, sad.min_players, sad.max_players) == (
            "shuffle-and-doom",
            "Shuffle and Doom!",
            1,
            1,
        )

    @pytest.mark.parametrize(
        "options, message",
        [
            ({"colour": "red"}, "unknown option"),
            ({"size": 3}, "size"),
            ({"size": 27}, "size"),
            ({"size": True}, "size"),
            ({"size": "seven"}, "size"),
            ({"base_stats_7": "yes"}, "base_stats_7"),
            ({"size": 4, "deck": ["AS", "2S", "3S", "4S", "5S", "6S", "7H"]}, "at least 8"),
            ({"size": 4, "deck": ["AS", "AS", "3S", "4S", "5S", "6S", "7H", "8H"]}, "AS"),
            ({"size": 4, "deck": ["JK", "2S", "3S", "4S", "5S", "6S", "7H", "8H"]}, "JK"),
            ({"size": 4, "deck": ["AS", "2S", "3S", "4S", "5S", "6S", "7S", "8S", "9C"]}, "both red and black"),
            ({"deck": "AS 2S"}, "list"),
        ],
    )
    def test_bad_options(self, options, message):
        with pytest.raises(InvalidAction, match=message):
            sad.new_game(1, [SEAT], options)

    def test_options_defaults_and_numeric_size(self):
        s = sad.new_game(1, [SEAT], None)
        assert s["size"] == 7 and sad.view(s, None)["options"] == {"size": 7, **{f: False for f in sad.FLAGS}}
        assert sad.new_game(1, [SEAT], {"size": " 9 "})["size"] == 9
        with pytest.raises(InvalidAction):
            sad.new_game(1, [SEAT, "p2"], None)

    def test_view_options_never_show_the_stacked_deck(self):
        s = new(full_deck(*S1_HEADERS))
        assert "deck" not in sad.view(s, SEAT)["options"]

    @pytest.mark.parametrize(
        "action",
        [
            "move",
            {"type": "fly"},
            {"dir": "E"},
            {"type": "move"},
            {"type": "move", "dir": "NE"},
            {"type": "move", "dir": "E", "speed": 2},
            {"type": "drink", "card": "6X"},
            {"type": "drink", "card": 6},
            {"type": "drink", "card": "JK"},
            {"type": "retreat", "to": [3]},
            {"type": "retreat", "to": "3,3"},
            {"type": "retreat", "to": [3, True]},
            {"type": "retreat", "to": [3, 3], "keep": "yes"},
            {"type": "exit", "now": True},
            {"type": "swap_headers", "set": "top", "i": "1", "j": 2},
            {"type": "choose_stat_set", "set": "row"},
            {"type": "assign_diamond_bonus", "card": "8D", "stat": "luck"},
        ],
    )
    def test_malformed_actions_are_invalid(self, action):
        s = given_state("M1", (3, 3), health=10, hand=["6H"])
        before = sad.dump(s)
        with pytest.raises(InvalidAction):
            sad.apply(s, SEAT, action)
        assert sad.dump(s) == before

    def test_wrong_seat_gets_nothing(self):
        s = given_state("M1", (3, 3), health=10)
        assert sad.legal_actions(s, "p2") == []
        with pytest.raises(IllegalAction):
            sad.apply(s, "p2", {"type": "move", "dir": "E"})

    def test_card_param_errors_name_the_card(self):
        s = given_state("M1", (3, 3), health=10, hand=["6H"])
        with pytest.raises(IllegalAction, match="7♥ is not a potion"):
            act(s, "drink", card="7H")
        with pytest.raises(IllegalAction, match="6♥ is not a book"):
            act(s, "read", card="6H")

    def test_view_shape(self):
        s = given_state(
            "M1",
            (3, 3),
            health=9,
            attack=8,
            hand=["6H"],
            draw=["QS", "5S", "4D"],
            returned=["2C"],
            retreat_from_combat=True,
        )
        s = act(s, "move", dir="E")
        v = sad.view(s, SEAT)
        assert v == sad.view(s, None) | {"seat": SEAT} and v["player"] == SEAT and v["status"] == "playing"
        json.dumps(v)
        for key in (
            "size",
            "phase",
            "options",
            "top",
            "side",
            "chosen_set",
            "diamonds_to_assign",
            "swaps_required",
            "cells",
            "rooms",
            "position",
            "exit",
            "stats",
            "hand",
            "gold_pile",
            "encounter",
            "suspended",
            "draw_count",
            "bottom_headers",
            "returned_count",
            "returned",
            "multiplier",
            "exhaustions",
            "log",
            "result",
        ):
            assert key in v, key
        assert v["size"] == 4 and v["phase"] == "combat" and v["position"] == [3, 4] and v["exit"] == [4, 4]
        assert len(v["cells"]) == 4 and all(len(row) == 4 for row in v["cells"])
        assert v["cells"][0][0] == {"filled": False, "room": None, "status": None}
        assert v["cells"][0][3] == {"filled": True, "room": room_at(s, 1, 4), "status": "active"}
        assert {r["status"] for r in v["rooms"]} == {"active", "unvisited"}
        assert [r["order"] for r in v["rooms"] if r["status"] == "active"] == [1]
        assert set(v["stats"]) == {"health", "attack", "intelligence", "gold", "ward", "temp_intelligence"}
        assert v["hand"] == [{"code": "6H", "value": 6, "kind": "potion"}]
        assert v["encounter"]["cards"][0] == {"code": "QS", "role": "enemy", "value": 12, "strength": 12}
        assert v["encounter"]["cards"][2]["strength"] is None
        assert v["encounter"]["stunned"] is False and v["encounter"]["attacked_yet"] is False
        assert v["draw_count"] == 0 and v["returned"] == ["2C"] and v["returned_count"] == 1
        assert v["multiplier"] == 1 and v["exhaustions"] == 0 and v["result"] is None
        assert all(set(entry) == {"seq", "text"} and isinstance(entry["text"], str) for entry in v["log"])
        s = act(s, "attack", card="QS")
        assert "You attack Q♠: its strength drops to 4." in s["log"]
        s = act(s, "retreat", to=[3, 3])
        v = sad.view(s, None)
        assert v["suspended"][0]["room"] == room_at(s, 1, 4)
        assert v["suspended"][0]["cards"][0] == {"code": "QS", "role": "enemy", "value": 12, "strength": 4}

    def test_action_labels(self):
        s = given_state("M1", (3, 3), health=9, attack=8, hand=["6H"], draw=["QS", "5S", "4D"])
        assert sad.action_label(s, {"type": "move", "dir": "E"}) == "Move east"
        assert sad.action_label(s, {"type": "drink", "card": "6H"}) == "Drink 6♥ (+6 health)"
        s = act(act(s, "move", dir="E"), "attack", card="QS")
        assert sad.action_label(s, {"type": "attack", "card": "QS"}) == "Attack Q♠ (strength 4)"
        t = act(given_state("M1", (3, 3), health=10, draw=["9C", "8D", "5H"]), "move", dir="E")
        assert sad.action_label(t, {"type": "retreat", "to": [4, 4]}) == "Retreat to row 4, column 4"
        assert sad.action_label(t, {"type": "take", "card": "8D"}) == "Take 8♦ — active traps deal 9"
        for state in (s, t, new(full_deck(*S1_HEADERS), merge_single_rooms=True)):
            for action in sad.legal_actions(state, SEAT):
                assert sad.action_label(state, action) != action["type"]

    def test_legal_actions_order_in_explore(self):
        s = given_state("M1", (2, 2), health=10, hand=["6H", "5C"])
        assert sad.legal_actions(s, SEAT) == [{"type": "move", "dir": d} for d in "NESW"] + [
            {"type": "drink", "card": "6H"},
            {"type": "read", "card": "5C"},
        ]

    def test_s19_hidden_information(self):
        seed = 987654321
        deck = full_deck(*S1_HEADERS, "6S", "10C")
        s = sad.new_game(seed, [SEAT], {"size": 4, "deck": deck})
        s = act(s, "choose_stat_set", set="top")
        s = act(s, "assign_diamond_bonus", card="8D", stat="attack")
        for seat in (SEAT, None):
            v = sad.view(s, seat)
            assert v["draw_count"] == 51
            assert v["bottom_headers"] == S1_HEADERS
            text = json.dumps(v, ensure_ascii=False)
            assert "10C" not in text
            assert str(seed) not in text
            assert not hidden_leaks(s, v)

    def test_apply_never_mutates_and_dump_load_round_trip(self):
        s = given_state(
            "M3", (2, 2), health=20, attack=6, hand=["4H"], draw=["6C", "5S", "9S", "KS", "7D", "2H"], emptied=[(1, 1)]
        )
        for kind, params in [
            ("move", {"dir": "E"}),
            ("drink", {"card": "4H"}),
            ("use_trap_opener", {"card": "7D"}),
            ("attack", {"card": "KS"}),
        ]:
            before = sad.dump(s)
            nxt = act(s, kind, **params)
            assert sad.dump(s) == before
            assert sad.load(json.loads(json.dumps(sad.dump(nxt)))) == nxt
            s = nxt


# ----------------------------------------------------------------------------------------------
# Random play (Hypothesis)

CODE_TOKEN = re.compile(r"(?<![0-9A-Za-z])(?:10|[2-9AJQK])[SHDC](?![0-9A-Za-z])")
MAX_STEPS = 3000
FINISH_AFTER = 400


def hidden_draw(state, v):
    """The draw pile's cards the view may not show: all but the header cards it lists at the bottom."""
    return state["draw"][: len(state["draw"]) - len(v["bottom_headers"])]


def hidden_leaks(state, v):
    """Codes of never-seen draw-pile cards that appear in the view (first pass only).

    After an exhaustion the draw pile holds cards the player has already seen, so their codes
    may rightly appear (old log lines, say); what must stay hidden then is their order, which
    ``blind_view_differs`` checks.
    """
    if state["exhaustions"]:
        return set()
    hidden = set(hidden_draw(state, v))
    if not hidden:  # e.g. 26×26: the whole first-pass draw pile is the public header cards
        return set()
    return hidden & set(CODE_TOKEN.findall(json.dumps(v, ensure_ascii=False)))


def blind_view_differs(state, seat, v):
    """Whether the view depends on what the player cannot know: the hidden draw order or the seed.

    The same game with the hidden part of the draw pile rotated by one place (every position
    then holds another card, so the next card changes) and another seed must look the same,
    on the first pass and after any number of reshuffles.
    """
    hidden = hidden_draw(state, v)
    blind = {**state, "seed": state["seed"] + 1, "draw": hidden[1:] + hidden[:1] + state["draw"][len(hidden) :]}
    return sad.view(blind, seat) != v


def path_to(state, goals):
    """First direction of a shortest walk to any goal cell, or None if standing on one."""
    n = state["size"]
    start = tuple(state["position"])
    if start in goals:
        return None
    seen = {start: None}
    queue = deque([start])
    while queue:
        cur = queue.popleft()
        for d, (dr, dc) in (("N", (-1, 0)), ("E", (0, 1)), ("S", (1, 0)), ("W", (0, -1))):
            nxt = (cur[0] + dr, cur[1] + dc)
            if 1 <= nxt[0] <= n and 1 <= nxt[1] <= n and nxt not in seen:
                seen[nxt] = (cur, d)
                if nxt in goals:
                    while seen[nxt][0] != start:
                        nxt = seen[nxt][0]
                    return seen[nxt][1]
                queue.append(nxt)
    return None


def choose(state, rnd, steps):
    """A legal action, biased so that games end: explore towards rooms, then finish off."""
    actions = sad.legal_actions(state, SEAT)
    assert actions, state["phase"]
    finishing = steps > FINISH_AFTER
    if state["phase"] == "explore":
        if finishing or rnd.random() < 0.85:
            n = state["size"]
            if finishing:
                goals = {(n, n)}
            else:
                goals = {
                    tuple(cell)
                    for room in state["rooms"]
                    if state["room_status"][room["id"] - 1] in ("unvisited", "suspended")
                    for cell in room["cells"]
                } or {(n, n)}
            d = path_to(state, goals)
            if d is None:
                return {"type": "exit"} if [n, n] == state["position"] else rnd.choice(actions)
            return {"type": "move", "dir": d}
        return rnd.choice(actions)
    if finishing:
        for kind in ("attack", "deactivate", "take"):
            picks = [a for a in actions if a["type"] == kind]
            if picks:
                return rnd.choice(picks)
        return next(a for a in actions if a["type"] == "retreat" and not a.get("keep"))
    kinds = sorted({a["type"] for a in actions})
    kind = rnd.choice(kinds)
    return rnd.choice([a for a in actions if a["type"] == kind])


def boost(state):
    """Once set up, give the adventurer huge health (a "given" state that reaches exhaustion).

    Only until the deck has run out twice: values double at each exhaustion, so an immortal hero
    would later need thousands of blows per enemy and the game would outlast MAX_STEPS."""
    if state["position"] is not None and state["stats"]["health"] < 10**5 and state["exhaustions"] < 2:
        return {**state, "stats": {**state["stats"], "health": 10**6}}
    return state


def play(seed, size, flags, rnd, *, each_step=None, hero=False, every_step=False):
    """Play one random game; a ``hero`` gets huge health once set up, to reach deck exhaustion.

    ``each_step`` sees every state up to 13×13 (or with ``every_step``), every 4th on 26×26.
    """
    state = sad.new_game(seed, [SEAT], {"size": size, **flags})
    actions = []
    steps = 0
    stride = 1 if size <= 13 or every_step else 4  # keep the 26×26 runs inside the time budget
    while sad.result(state) is None:
        assert steps < MAX_STEPS, "game did not end"
        if hero:
            state = boost(state)
        if each_step and steps % stride == 0:
            each_step(state)
        action = choose(state, rnd, steps)
        state = sad.apply(state, SEAT, action)
        actions.append(action)
        steps += 1
    if each_step:
        each_step(state)
    assert sad.legal_actions(state, SEAT) == []
    return state, actions


SIZES = [4, 7, 13, 26]
flag_sets = st.fixed_dictionaries({f: st.booleans() for f in sad.FLAGS})
seeds = st.integers(min_value=10**9, max_value=10**12)
RANDOM_SETTINGS = settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@pytest.mark.parametrize("size", SIZES)
@RANDOM_SETTINGS
@given(seed=seeds, flags=flag_sets, choice_seed=st.integers(0, 2**32), hero=st.booleans())
def test_random_play_ends_round_trips_and_replays(size, seed, flags, choice_seed, hero):
    rnd = random.Random(choice_seed)

    def check(state):
        assert sad.load(json.loads(json.dumps(sad.dump(state)))) == state
        for action in sad.legal_actions(state, SEAT):
            sad.action_label(state, action)

    final, actions = play(seed, size, flags, rnd, each_step=check, hero=hero)
    replayed = sad.new_game(seed, [SEAT], {"size": size, **flags})
    for action in actions:
        replayed = sad.apply(boost(replayed) if hero else replayed, SEAT, action)
    assert replayed == final
    res = sad.result(final)
    assert res["reason"] in ("died", "exited", "cleared")
    assert res["scores"] == {SEAT: res["score"]}
    assert res["winners"] == ([] if res["reason"] == "died" else [SEAT])


def random_action(rnd, state):
    kinds = list(sad.ACTIONS) + ["bogus"]
    kind = rnd.choice(kinds)
    codes = standard_deck() + ["JK", "1X", 7, None]
    pool = {
        "set": ["top", "side", "row", 1],
        "i": [0, 1, 2, 3, 4, 30, "2", True],
        "j": [0, 1, 2, 3, 4, 30, "2"],
        "card": codes,
        "stat": ["health", "attack", "intelligence", "gold", "luck"],
        "dir": ["N", "E", "S", "W", "X"],
        "to": [[1, 1], [2, 2], [3, 4], [state["size"], state["size"]], [0, 1], [1], "1,1"],
        "keep": [True, False, "no"],
        "extra": [1],
    }
    action = {"type": kind}
    for key in pool:
        if rnd.random() < 0.45:
            action[key] = rnd.choice(pool[key])
    return action


def normalised(action):
    out = {k: v for k, v in action.items() if not (k == "keep" and v is False)}
    if action.get("type") == "swap_headers":
        out["i"], out["j"] = sorted((action["i"], action["j"]))
    return out


@pytest.mark.parametrize("size", SIZES)
@RANDOM_SETTINGS
@given(seed=seeds, flags=flag_sets, choice_seed=st.integers(0, 2**32), hero=st.booleans())
def test_random_actions_are_refused_cleanly_or_legal(size, seed, flags, choice_seed, hero):
    rnd = random.Random(choice_seed)

    def check(state):
        legal = [normalised(a) for a in sad.legal_actions(state, SEAT)]
        for _ in range(3):
            action = random_action(rnd, state)
            before = sad.dump(state)
            try:
                sad.apply(state, SEAT, action)
            except REJECTED:
                assert sad.dump(state) == before
            else:
                assert normalised(action) in legal, action
                assert sad.dump(state) == before

    play(seed, size, flags, rnd, each_step=check, hero=hero)


def view_hides_the_draw_pile(state):
    v = sad.view(state, SEAT)
    assert sad.view(state, None) == v | {"seat": None}
    assert v["draw_count"] == len(state["draw"])
    assert not hidden_leaks(state, v)
    assert not blind_view_differs(state, SEAT, v)


@pytest.mark.parametrize("size", SIZES)
@RANDOM_SETTINGS
@given(seed=seeds, flags=flag_sets, choice_seed=st.integers(0, 2**32), hero=st.booleans())
def test_view_never_shows_the_seed_or_unseen_cards(size, seed, flags, choice_seed, hero):
    rnd = random.Random(choice_seed)
    # Every step, 26×26 included: a leak may last a single step (a room drawn mid-reshuffle).
    play(seed, size, flags, rnd, each_step=view_hides_the_draw_pile, hero=hero, every_step=True)


@pytest.mark.parametrize("size", [13, 26])
def test_view_hides_the_reshuffled_order_after_exhaustion(size):
    """The property above, on games known to reshuffle, so its after-exhaustion half is never vacuous."""
    passes = set()

    def check(state):
        view_hides_the_draw_pile(state)
        passes.add(state["exhaustions"])

    play(10**9 + size, size, {}, random.Random(size), each_step=check, hero=True, every_step=True)
    assert max(passes) >= 1
