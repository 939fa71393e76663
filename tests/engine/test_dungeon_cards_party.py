"""Dungeon Cards acceptance scenarios S17–S28 (party play), one test each (§12)."""

from __future__ import annotations

import pytest

from rules_engine import InvalidAction
from rules_engine.games import dungeon_cards as dc
from tests.helpers.dungeon_cards import act, started_game, stats, where
from tests.helpers.engine import refused


def char(s, name):
    return s["characters"][s["players"].index(name)]


def events(s, kind):
    return [e["text"] for e in s["log"] if e["event"] == kind]


class TestPartyCombat:
    def test_s17_adjacency_helpers_matchup_order_second_wind_void_matchup_shared_rewards(self):
        deck = ["QS", "6D", "9C", "3H", "5C", "8S", "10D", "7H", "8H", "2S", "10C", "4D", "9H", "3D"]
        s = started_game(
            [("A", "ninja"), ("B", "tank"), ("C", "athlete")],
            deck=deck,
            positions={"A": (5, 5), "B": (5, 6), "C": (7, 5)},
        )
        s = act(s, "A", "draw_card")
        assert s["phase"] == "awaiting_join" and s["combat"]["boss_lives"] == 4
        assert s["combat"]["eligible_helpers"] == ["B"]
        assert dc.legal_actions(s, "C") == [{"type": "leave_game"}]
        s = act(s, "B", "join_combat", join=True)
        assert s["combat"]["fighters"] == ["A", "B"] and s["phase"] == "awaiting_combat_draw"
        refused(dc, s, "B", {"type": "combat_draw"})  # only the lead gives the signal
        s = act(s, "A", "combat_draw")
        assert s["combat"]["boss_lives"] == 3 and stats(s, "B")[1] == 14
        s = act(s, "A", "combat_draw")
        assert s["combat"]["boss_lives"] == 1
        s = act(s, "A", "combat_draw")
        last = s["combat"]["last_exchange"]
        assert s["combat"]["second_wind_used"] and last["boss_cards"] == ["10C"]
        assert [(m["fighter"], m["result"]) for m in last["matchups"]] == [("A", "fighter_hit"), ("B", "fighter_hit")]
        assert stats(s, "A")[1] == 9 and stats(s, "B")[1] == 13 and s["combat"]["boss_lives"] == 1
        s = act(s, "A", "combat_draw")
        matchups = s["combat"]["last_exchange"]["matchups"]
        assert [(m["fighter"], m["result"]) for m in matchups] == [("A", "boss_hit"), ("B", "void")]
        assert stats(s, "B")[1] == 13
        assert s["phase"] == "awaiting_reward" and sorted(s["combat"]["pending_rewards"]) == ["A", "B"]
        assert dc.legal_actions(s, "C") == [{"type": "leave_game"}]
        s = act(s, "B", "choose_stat", stat="lives")  # decisions may arrive in any order
        s = act(s, "A", "choose_stat", stat="speed")
        assert stats(s, "A") == (2, 9, 10, 1)
        assert stats(s, "B") == (2, 14, 16, 0)
        assert stats(s, "C") == (1, 10, 10, 0)
        assert s["removed"] == ["QS"]
        assert s["phase"] == "awaiting_turn_action" and s["turn"]["current"] == "B"
        assert where(s, "A") == [5, 5]

    def test_s18_the_challenger_dies_and_the_helper_finishes_the_fight(self):
        deck = ["JD", "9D", "2C", "9S", "3C", "5H", "6D", "8C"]
        s = started_game(
            [("A", "ninja"), ("B", "swordsman"), ("C", "tank")],
            deck=deck,
            lives={"A": 1},
            positions={"A": (3, 3), "B": (3, 4), "C": (9, 9)},
        )
        s = act(s, "A", "draw_card")
        assert s["combat"]["eligible_helpers"] == ["B"]
        s = act(s, "B", "join_combat", join=True)
        s = act(s, "A", "combat_draw")
        assert char(s, "A")["status"] == "dead" and char(s, "A")["position"] is None
        assert s["combat"]["boss_lives"] == 2
        assert s["combat"]["last_exchange"]["matchups"][1]["guard_break"]
        assert dc.view(s, None)["combat"]["lead"] == "B"
        refused(dc, s, "A", {"type": "combat_draw"})
        s = act(s, "B", "combat_draw")
        s = act(s, "B", "combat_draw")
        assert s["combat"]["pending_rewards"] == ["B"]
        s = act(s, "B", "choose_stat", stat="lives")
        assert stats(s, "B")[:3] == (2, 11, 11) and stats(s, "A")[0] == 1
        assert dc.result(s) is None and s["turn"]["current"] == "B"
        assert s["turn"]["round_number"] == 1
        s = act(s, "B", "draw_card")
        assert s["turn"]["current"] == "C"
        s = act(s, "C", "draw_card")
        assert s["turn"]["current"] == "B" and s["turn"]["round_number"] == 2  # A is skipped

    def test_s19_every_fighter_dies_and_the_boss_goes_back_into_circulation(self):
        s = started_game(
            [("A", "rogue"), ("B", "tank")],
            deck=["KD", "8C", "3H"],
            lives={"A": 1},
            positions={"A": (2, 2), "B": (9, 9)},
        )
        s = act(s, "A", "draw_card")
        assert s["phase"] == "awaiting_combat_draw" and s["combat"]["eligible_helpers"] == []
        s = act(s, "A", "combat_draw", critical_hit=False)
        assert char(s, "A")["status"] == "dead"
        # The fight ends as fighters_lost (the only way its boss card goes to the discard pile), not
        # as a victory: nothing is removed and nobody levels up.
        assert events(s, "combat_ended") == ["No fighter is left: the King goes to the discard pile."]
        assert s["removed"] == [] and stats(s, "A")[0] == 1 and char(s, "A")["bosses_defeated"] == []
        assert s["deck"][-3:] == ["8C", "3H", "KD"] and s["discard"] == []
        assert s["combat"] is None and s["turn"]["current"] == "B"
        assert dc.result(s) is None and s["hall_of_fame"] == []

    def test_s20_party_royal_barrage_slot_major_order_and_guard_break(self):
        deck = ["KH", "2C", "5C", "6C", "3C", "7C", "8C", "9D", "4D", "6D", "2H", "4H", "10H", "3S", "AS", "5S"]
        s = started_game([("A", "swordsman"), ("B", "soldier")], deck=deck, positions={"A": (4, 4), "B": (4, 5)})
        s = act(s, "A", "draw_card")
        s = act(s, "B", "join_combat", join=True)
        assert s["combat"]["boss_lives"] == 5
        s = act(s, "A", "combat_draw")
        assert s["combat"]["boss_lives"] == 3
        s = act(s, "A", "combat_draw")
        assert s["combat"]["boss_lives"] == 1 and s["combat"]["barrage"]
        s = act(s, "A", "combat_draw")
        last = s["combat"]["last_exchange"]
        assert last["fighter_cards"] == {"A": ["2H", "4H", "10H"], "B": ["3S", "AS", "5S"]}
        assert [(m["slot"], m["fighter"], m["result"], m["guard_break"]) for m in last["matchups"]] == [
            (1, "A", "fighter_hit", False),
            (1, "B", "fighter_hit", False),
            (2, "A", "boss_hit", True),
            (2, "B", "void", False),
            (3, "A", "void", False),
            (3, "B", "void", False),
        ]
        s = act(s, "A", "choose_stat", stat="speed")
        s = act(s, "B", "choose_stat", stat="speed")
        assert stats(s, "A") == (2, 9, 10, 1) and stats(s, "B") == (2, 9, 10, 1)
        assert not any(events(s, "strong_will"))


class TestSpells:
    def test_s21_reversal_lasts_exactly_one_round_including_the_mage(self):
        s = started_game(
            [("M", "mage"), ("X", "swordsman"), ("Y", "tank")],
            deck=["4D", "2H", "3S", "2C"],
            positions={"M": (5, 1), "X": (3, 3), "Y": (8, 2)},
        )
        deck_before = list(s["deck"])
        s = act(s, "M", "cast_spell", spell="reversal")
        assert s["deck"] == deck_before and s["turn"]["current"] == "X"
        assert [c["pending_effects"] for c in s["characters"]] == [["reversal"], [], ["reversal"]]
        assert char(s, "X")["active_effects"] == ["reversal"]  # X's turn has begun
        s = act(s, "X", "draw_card")
        assert where(s, "X") == [3, 1]
        s = act(s, "Y", "draw_card")
        assert where(s, "Y") == [10, 2]
        s = act(s, "M", "draw_card")
        assert where(s, "M") == [5, 4]
        s = act(s, "X", "draw_card")
        assert where(s, "X") == [5, 1]

    def test_s22_haste_and_fortune_telling_basic_mode(self):
        s = started_game(
            [("M", "mage"), ("X", "athlete")],
            deck=["3C", "2D", "2C", "9H", "4D", "5C", "2S"],
            positions={"M": (1, 1), "X": (1, 5)},
        )
        s = act(s, "M", "cast_spell", spell="haste")
        s = act(s, "X", "draw_card")
        assert where(s, "X") == [5, 5]
        s = act(s, "M", "draw_card")
        assert where(s, "M") == [1, 4]
        s = act(s, "X", "draw_card")
        assert where(s, "X") == [7, 5]
        s = act(s, "M", "cast_spell", spell="fortune_telling")
        s = act(s, "X", "draw_card")
        assert s["phase"] == "awaiting_fortune" and s["turn"]["movement_card"] == "9H"
        refused(dc, s, "X", {"type": "fortune_telling", "card": "5C"})  # only the movement card
        s = act(s, "X", "fortune_telling", card="9H")
        assert where(s, "X") == [7, 9] and s["discard"][-2:] == ["9H", "4D"]
        s = act(s, "M", "draw_card")
        assert s["phase"] == "awaiting_fortune"
        s = act(s, "M", "fortune_telling", card=None)
        assert where(s, "M") == [6, 4]
        s = act(s, "X", "draw_card")
        assert where(s, "X") == [7, 7] and s["turn"]["current"] == "M"
        assert not any(e["text"].startswith("X keeps") for e in s["log"])
        refused(dc, s, "M", {"type": "cast_spell", "spell": "good_luck"})

    def test_s23_good_luck_and_the_hand_limit_hand_mode(self):
        deck = ["2C", "3C", "4C", "5D", "6D", "7D", "8S", "AH", "9C", "JH", "2D", "10H", "3D", "10D", "4H", "10C"]
        s = started_game(
            [("M", "mage"), ("X", "rogue")],
            deck=deck,
            turn_mode="three_card_hand",
            positions={"M": (1, 1), "X": (10, 1)},
        )
        assert char(s, "M")["hand"] == ["2C", "3C", "4C"] and char(s, "X")["hand"] == ["5D", "6D", "7D"]
        s = act(s, "M", "cast_spell", spell="good_luck")
        assert char(s, "M")["hand"] == ["2C", "3C", "4C"]
        s = act(s, "X", "draw_card")
        assert char(s, "X")["hand"] == ["5D", "6D", "7D", "8S", "AH"]
        s = act(s, "X", "play_card", card="AH")
        assert where(s, "X") == [9, 1] and s["phase"] == "awaiting_hand_discard"
        refused(dc, s, "X", {"type": "discard_to_limit", "cards": ["8S", "5D"]})
        refused(dc, s, "X", {"type": "discard_to_limit", "cards": ["AS"]})
        s = act(s, "X", "discard_to_limit", cards=["8S"])
        assert char(s, "X")["hand"] == ["5D", "6D", "7D"] and s["discard"] == ["AH", "8S"]
        s = act(s, "M", "draw_card")
        assert s["combat"]["boss_card"] == "JH" and char(s, "M")["hand"] == ["2C", "3C", "4C", "9C"]
        assert s["combat"]["eligible_helpers"] == [] and s["phase"] == "awaiting_combat_draw"
        assert s["deck"][-2:] == ["AH", "8S"]
        s = act(s, "M", "combat_draw")
        s = act(s, "M", "combat_draw")
        s = act(s, "M", "combat_draw")
        s = act(s, "M", "choose_stat", stat="speed")
        assert stats(s, "M") == (2, 10, 10, 1) and where(s, "M") == [1, 1]
        assert s["phase"] == "awaiting_hand_discard"
        s = act(s, "M", "discard_to_limit", cards=["2C"])
        assert char(s, "M")["hand"] == ["3C", "4C", "9C"]
        assert s["turn"]["current"] == "X" and char(s, "X")["active_effects"] == []
        s = act(s, "X", "draw_card")
        assert len(char(s, "X")["hand"]) == 4 and s["phase"] == "awaiting_play"

    def test_s26_hand_mode_a_fortune_telling_replacement_is_a_boss(self):
        deck = ["2C", "3C", "4C", "2H", "5S", "9D", "6C", "JD", "2D", "9C", "3D", "10H", "4D", "8H"]
        s = started_game(
            [("M", "mage"), ("X", "ninja")],
            deck=deck,
            turn_mode="three_card_hand",
            positions={"M": (1, 1), "X": (10, 10)},
        )
        s = act(s, "M", "cast_spell", spell="fortune_telling")
        s = act(s, "X", "draw_card")
        assert char(s, "X")["hand"] == ["2H", "5S", "9D", "6C"] and s["phase"] == "awaiting_fortune"
        s = act(s, "X", "fortune_telling", card="2H")
        assert s["combat"]["boss_card"] == "JD" and s["combat"]["eligible_helpers"] == []
        assert s["deck"][-1:] == ["2H"]
        for _ in range(3):
            s = act(s, "X", "combat_draw")
        s = act(s, "X", "choose_stat", stat="lives")
        assert stats(s, "X")[0] == 2 and where(s, "X") == [10, 10]
        assert char(s, "X")["hand"] == ["5S", "9D", "6C"]
        assert s["turn"]["current"] == "M"


class TestHealer:
    def test_s24_healer_start_and_end_of_turn_at_most_once_each_capped(self):
        s = started_game(
            [("H", "healer"), ("P", "tank"), ("Q", "soldier"), ("R", "rogue")],
            deck=["AC"],
            positions={"H": (5, 5), "P": (6, 5), "Q": (7, 5), "R": (5, 4)},
            lives={"H": 9, "P": 12, "Q": 8},
        )
        assert [stats(s, n)[1] for n in "HPQR"] == [9, 13, 8, 10]
        s = act(s, "H", "draw_card")
        assert where(s, "H") == [6, 5]
        assert [stats(s, n)[1] for n in "HPQR"] == [9, 13, 9, 10]


class TestEndings:
    def test_s25a_team_victory_under_end(self):
        s = started_game([("A", "ninja"), ("B", "tank")], deck=["AD", "3D"], positions={"A": (5, 7), "B": (8, 5)})
        s = act(s, "A", "draw_card")
        res = dc.result(s)
        assert res["result"] == "team_victory" and res["escaped"] == ["A"]
        assert sorted(res["winners"]) == ["A", "B"]
        entries = {e["player"]: e for e in s["hall_of_fame"]}
        assert entries["A"]["outcome"] == "escaped" and entries["B"]["outcome"] == "team victory"
        assert (entries["A"]["level"], entries["A"]["lives"], entries["A"]["max_lives"], entries["A"]["speed"]) == (
            1,
            10,
            10,
            0,
        )
        assert (entries["B"]["level"], entries["B"]["lives"], entries["B"]["max_lives"], entries["B"]["speed"]) == (
            1,
            15,
            15,
            0,
        )

    def test_s25b_play_continuing_under_continue(self):
        s = started_game(
            [("A", "ninja"), ("B", "tank")],
            deck=["AD", "3D"],
            positions={"A": (5, 7), "B": (8, 5)},
            after_first_escape="continue",
        )
        s = act(s, "A", "draw_card")
        assert dc.result(s) is None and [e["player"] for e in s["hall_of_fame"]] == ["A"]
        s = act(s, "B", "draw_card")
        assert char(s, "B")["status"] == "fallen"
        assert dc.result(s)["result"] == "team_victory"
        assert [e["player"] for e in s["hall_of_fame"]] == ["A"]

    def test_s28_variant_party_round_limit_under_continue(self):
        deck = ["AD", "AC", "AH", "2C", "2H", "3C", "3H", "4C", "4H", "5C", "5H"]
        s = started_game(
            [("A", "ninja"), ("B", "swordsman")],
            deck=deck,
            round_limit=10,
            after_first_escape="continue",
            positions={"A": (5, 7), "B": (5, 1)},
        )
        s = act(s, "A", "draw_card")
        assert char(s, "A")["status"] == "escaped"
        squares = [[6, 1], [5, 1], [7, 1], [5, 1], [8, 1], [5, 1], [9, 1], [5, 1], [10, 1], [5, 1]]
        for rnd, square in enumerate(squares, start=1):
            assert s["turn"]["round_number"] == rnd and s["turn"]["current"] == "B"
            s = act(s, "B", "draw_card")
            if rnd < 10:
                assert where(s, "B") == square
        assert char(s, "B")["status"] == "lost"
        assert dc.result(s)["result"] == "team_victory"
        assert [e["player"] for e in s["hall_of_fame"]] == ["A"]


class TestRejectedActions:
    def test_s27_rejected_actions(self):
        # 1. Mage or Healer in a lobby of one.
        solo = dc.new_game(1, ["P"], {})
        refused(dc, solo, "P", {"type": "choose_class", "class": "mage"})
        refused(dc, solo, "P", {"type": "choose_class", "class": "healer"})
        # 2. A class already taken.
        lobby = dc.new_game(1, ["A", "B"], {})
        lobby = act(lobby, "A", "choose_class", **{"class": "tank"})
        refused(dc, lobby, "B", {"type": "choose_class", "class": "tank"})
        # 3. A sixth player.
        full = dc.new_game(1, ["A", "B", "C", "D", "E"], {})
        refused(dc, full, "F", {"type": "join_game"})
        with pytest.raises(InvalidAction):
            dc.new_game(1, ["A", "B", "C", "D", "E", "F"], {})
        # 4. Drawing out of turn.
        s = started_game([("A", "ninja"), ("B", "tank")], deck=["2D"])
        refused(dc, s, "B", {"type": "draw_card"})
        # 5. A non-Mage casting.
        refused(dc, s, "A", {"type": "cast_spell", "spell": "haste"})
        # 6. Manual placement on the start square, or on the Exit.
        setup = dc.new_game(1, ["A"], {"classes": {"A": "ninja"}, "marker_placement": "manual"})
        refused(dc, setup, "A", {"type": "place_marker", "kind": "exit", "square": [5, 1]})
        setup = act(setup, "A", "place_marker", kind="exit", square=[3, 3])
        refused(dc, setup, "A", {"type": "place_marker", "kind": "pit", "square": [3, 3]})
        # 7. A diagonal dash.
        deck = ["JH", "2S", "9D", "3S", "8H", "4S", "7C", "3D"]
        d = act(started_game([("P", "athlete")], deck=deck), "P", "draw_card")
        for _ in range(3):
            d = act(d, "P", "combat_draw")
        d = act(d, "P", "choose_stat", stat="lives")
        assert d["phase"] == "awaiting_dash"
        refused(dc, d, "P", {"type": "dash", "direction": "up-left"}, InvalidAction)
        refused(dc, d, "P", {"type": "dash", "direction": "northeast"}, InvalidAction)
        # 8. discard_to_limit with the wrong number of cards, or a card not in the hand.
        deck = ["2C", "3C", "4C", "5D", "6D", "7D", "8S", "AH"]
        h = started_game(
            [("M", "mage"), ("X", "rogue")], deck=deck, turn_mode="three_card_hand", positions={"X": (10, 1)}
        )
        h = act(h, "M", "cast_spell", spell="good_luck")
        h = act(h, "X", "draw_card")
        h = act(h, "X", "play_card", card="AH")
        refused(dc, h, "X", {"type": "discard_to_limit", "cards": []})
        refused(dc, h, "X", {"type": "discard_to_limit", "cards": ["8S", "7D"]})
        refused(dc, h, "X", {"type": "discard_to_limit", "cards": ["KS"]})
        # 9. combat_draw from a fighter who is not the lead.
        c = started_game([("A", "ninja"), ("B", "tank")], deck=["JD", "2C", "3C", "4C"], positions={"B": (5, 2)})
        c = act(c, "A", "draw_card")
        c = act(c, "B", "join_combat", join=True)
        refused(dc, c, "B", {"type": "combat_draw"})
