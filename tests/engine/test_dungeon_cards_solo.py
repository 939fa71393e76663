"""Dungeon Cards acceptance scenarios S1–S16 and S28 (solo play), one test each (§12)."""

from __future__ import annotations

import pytest

from rules_engine import IllegalAction
from rules_engine.cards import standard_deck
from rules_engine.games import dungeon_cards as dc
from tests.helpers.dungeon_cards import act, started_game, stats, where


def draw(s, seat="P"):
    return act(s, seat, "draw_card")


def fight(s, seat="P", exchanges=1, crit=False):
    for _ in range(exchanges):
        s = act(s, seat, "combat_draw", critical_hit=crit)
    return s


def events(s, kind):
    return [e["text"] for e in s["log"] if e["event"] == kind]


class TestMovement:
    def test_s1_movement_by_suit_and_stopping_at_the_edge(self):
        s = started_game([("P", "swordsman")], deck=["3C", "7C", "AD", "4H", "2S"])
        expected = [[8, 1], [10, 1], [10, 2], [6, 2], [6, 1]]
        for square in expected:
            s = draw(s)
            assert where(s, "P") == square
        assert s["discard"] == ["3C", "7C", "AD", "4H", "2S"]
        assert len(s["deck"]) == 47
        assert stats(s, "P")[:2] == (1, 10)

    def test_s2_passing_over_the_exit_has_no_effect_landing_wins(self):
        s = started_game([("P", "rogue")], deck=["5D", "2S"], exits=[(5, 4)], pits=[(9, 9)])
        s = draw(s)
        assert where(s, "P") == [5, 6]
        assert s["characters"][0]["status"] == "active"
        assert (
            "column 5, row 2 → column 5, row 3 → column 5, row 4 → column 5, row 5 → column 5, row 6"
            in events(s, "moved")[-1]
        )
        s = draw(s)
        assert s["characters"][0]["status"] == "escaped"
        res = dc.result(s)
        assert res["result"] == "victory" and res["winners"] == ["P"]
        [entry] = res["hall_of_fame"]
        assert entry["class"] == "rogue" and entry["outcome"] == "escaped"
        assert (entry["level"], entry["lives"], entry["max_lives"], entry["speed"], entry["turns_taken"]) == (
            1,
            10,
            10,
            0,
            2,
        )

    def test_s3_passing_over_the_pit_is_safe_landing_loses(self):
        s = started_game([("P", "tank")], deck=["4D", "2S"], pits=[(5, 3)], exits=[(1, 10)])
        s = draw(s)
        assert where(s, "P") == [5, 5]
        assert stats(s, "P")[1:3] == (15, 15)
        s = draw(s)
        assert s["characters"][0]["status"] == "fallen"
        assert dc.result(s)["result"] == "defeat"
        assert s["hall_of_fame"] == []


class TestCombat:
    def test_s4_full_jack_fight_face_redraw_tie_reward_no_move_then_speed(self):
        deck = ["JH", "9C", "4D", "3S", "7H", "QS", "6C", "6D", "2H", "8S", "5D", "10C", "3C"]
        s = started_game([("P", "ninja")], deck=deck)
        s = draw(s)
        assert s["phase"] == "awaiting_combat_draw" and s["combat"]["boss_lives"] == 3
        s = fight(s)  # 9C vs 4D
        assert stats(s, "P")[1] == 9
        s = fight(s)  # 3S vs 7H
        assert s["combat"]["boss_lives"] == 2
        assert s["combat"]["boss_cards"] == ["6C"]  # QS went to the discard pile, not a new boss
        s = fight(s)  # 6C vs 6D tie
        assert s["combat"]["boss_lives"] == 2 and stats(s, "P")[1] == 9
        s = fight(s, exchanges=2)
        assert s["phase"] == "awaiting_reward"
        assert s["removed"] == ["JH"]
        assert s["deck"][:1] == ["3C"]
        assert s["deck"][-11:] == ["9C", "4D", "3S", "7H", "QS", "6C", "6D", "2H", "8S", "5D", "10C"]
        s = act(s, "P", "choose_stat", stat="speed")
        assert stats(s, "P") == (2, 9, 10, 1)
        assert where(s, "P") == [5, 1]
        assert s["turn"]["turn_number"] == 2 and s["phase"] == "awaiting_turn_action"
        s = draw(s)
        assert where(s, "P") == [9, 1]
        assert s["discard"] == ["3C"]

    def test_s5_queen_second_wind_and_the_tank(self):
        deck = ["QD", "2C", "9H", "3D", "8C", "4S", "10D", "5H", "7S", "9D", "6C", "7D"]
        s = started_game([("P", "tank")], deck=deck)
        s = draw(s)
        assert s["combat"]["boss_lives"] == 4
        s = fight(s, exchanges=3)
        assert s["combat"]["boss_lives"] == 1
        s = fight(s)  # 5H vs 7S: Second Wind draws 9D
        assert s["combat"]["boss_lives"] == 1 and s["combat"]["second_wind_used"]
        assert stats(s, "P")[1] == 14
        last = s["combat"]["last_exchange"]
        assert last["boss_cards"] == ["9D"] and last["matchups"][0]["result"] == "fighter_hit"
        # 5H leaves the table at once; the clean-up follows in draw order (7S, then the new 9D).
        assert s["discard"] == ["2C", "9H", "3D", "8C", "4S", "10D", "5H", "7S", "9D"]
        assert events(s, "second_wind")
        s = fight(s)
        assert s["phase"] == "awaiting_reward"
        s = act(s, "P", "choose_stat", stat="lives")
        assert stats(s, "P") == (2, 15, 16, 0)
        assert s["removed"] == ["QD"]

    def test_s6_king_royal_barrage_with_a_void_matchup(self):
        deck = [
            "KC",
            "2D",
            "9S",
            "3H",
            "10H",
            "4C",
            "8D",
            "5S",
            "6S",
            "10S",
            "9C",
            "7D",
            "4H",
            "9H",
            "2S",
            "8C",
            "2H",
            "9D",
            "5C",
            "6C",
            "3C",
        ]
        s = started_game([("P", "ninja")], deck=deck)
        s = draw(s)
        assert s["combat"]["boss_lives"] == 5
        s = fight(s, exchanges=4)
        assert s["combat"]["boss_lives"] == 1
        assert s["combat"]["barrage"] and s["combat"]["boss_cards"] == ["10S", "9C", "7D"]
        s = fight(s)
        assert stats(s, "P")[1] == 8 and s["combat"]["boss_lives"] == 1
        assert [m["result"] for m in s["combat"]["last_exchange"]["matchups"]] == ["fighter_hit", "tie", "fighter_hit"]
        assert s["combat"]["boss_cards"] == ["8C", "2H", "9D"]
        s = fight(s)
        assert s["phase"] == "awaiting_reward"
        matchups = s["combat"]["last_exchange"]["matchups"]
        assert [m["result"] for m in matchups] == ["fighter_hit", "boss_hit", "void"]
        assert matchups[2]["fighter_card"] == "3C" and matchups[2]["boss_card"] == "9D"
        s = act(s, "P", "choose_stat", stat="speed")
        assert stats(s, "P") == (2, 7, 10, 1)
        assert s["removed"] == ["KC"]

    def test_s7_soldier_saving_draw_once_per_combat(self):
        s = started_game([("P", "soldier")], deck=["JS", "8H", "3C", "10D", "7C", "2D"], lives={"P": 1})
        s = draw(s)
        s = fight(s)
        assert s["combat"]["strong_will_used"] and s["combat"]["boss_lives"] == 2
        assert stats(s, "P")[1] == 1
        assert s["combat"]["last_exchange"]["fighter_cards"] == {"P": ["10D"]}
        assert events(s, "strong_will")
        s = fight(s)
        assert s["characters"][0]["status"] == "dead"
        assert dc.result(s)["result"] == "defeat" and dc.result(s)["reason"] == "died"
        assert s["hall_of_fame"] == [] and "JS" not in s["removed"]

    def test_s8_rogue_critical_hit_with_a_face_card_among_the_three(self):
        deck = ["JD", "9S", "3C", "KD", "7H", "10C", "4D", "6S", "2C", "2H", "5C", "8C"]
        s = started_game([("P", "rogue")], deck=deck)
        s = draw(s)
        assert s["combat"]["boss_cards"] == ["9S"]
        s = fight(s, crit=True)
        last = s["combat"]["last_exchange"]
        assert last["crit_cards"] == ["3C", "7H", "10C"] and last["fighter_cards"] == {"P": ["10C"]}
        assert s["combat"]["boss_lives"] == 2
        # KD went to the discard pile at once, then the exchange's cards in draw order.
        assert s["discard"] == ["KD", "9S", "3C", "7H", "10C"]
        before = dc.dump(s)
        with pytest.raises(IllegalAction):
            act(s, "P", "combat_draw", critical_hit=True)
        assert dc.dump(s) == before
        assert {"type": "combat_draw", "critical_hit": True} not in dc.legal_actions(s, "P")
        s = fight(s)
        assert s["combat"]["boss_lives"] == 1
        s = fight(s)  # 2C vs 2H: tie, no damage
        assert s["combat"]["boss_lives"] == 1 and stats(s, "P")[1] == 10
        s = fight(s)
        s = act(s, "P", "choose_stat", stat="speed")
        assert stats(s, "P") == (2, 10, 10, 1)

    def test_s9_swordsman_guard_break(self):
        s = started_game([("P", "swordsman")], deck=["JC", "7D", "7S", "4H", "4C", "10D", "10H"])
        s = draw(s)
        s = fight(s)
        assert s["combat"]["boss_lives"] == 2
        assert s["combat"]["last_exchange"]["matchups"][0]["guard_break"]
        s = fight(s, exchanges=2)
        assert s["phase"] == "awaiting_reward"
        s = act(s, "P", "choose_stat", stat="speed")
        assert stats(s, "P") == (2, 10, 10, 1)


class TestClasses:
    def test_s10_ninja_active_reflex(self):
        s = started_game([("P", "ninja")], deck=["8C", "10S", "3H"])
        s = draw(s)
        assert where(s, "P") == [7, 1]
        s = draw(s)
        assert where(s, "P") == [7, 10]
        s = draw(s)
        assert where(s, "P") == [4, 10]

    def test_s10_variant_ninja_bounces_onto_the_exit(self):
        s = started_game([("P", "ninja")], deck=["3C"], exits=[(9, 1)], positions={"P": (8, 1)})
        s = draw(s)
        assert "column 9, row 1 → column 10, row 1 → column 9, row 1" in events(s, "moved")[-1]
        assert s["characters"][0]["status"] == "escaped"
        assert dc.result(s)["result"] == "victory"

    def test_s11_athlete_controlled_dash_ends_on_the_exit(self):
        deck = ["JH", "2S", "9D", "3S", "8H", "4S", "7C", "QC", "3D"]
        s = started_game([("P", "athlete")], deck=deck, exits=[(5, 4)])
        s = draw(s)
        s = fight(s, exchanges=3)
        s = act(s, "P", "choose_stat", stat="speed")
        assert s["phase"] == "awaiting_dash"
        assert s["combat"]["dash"] == {"athlete": "P", "card": "3D"}
        assert "QC" in s["discard"]
        s2 = act(s, "P", "dash", direction="up")
        assert "column 5, row 2 → column 5, row 3 → column 5, row 4" in events(s2, "moved")[-1]
        assert s2["characters"][0]["status"] == "escaped"
        assert s2["discard"][-1] == "3D"
        [entry] = s2["hall_of_fame"]
        assert (entry["class"], entry["level"], entry["lives"], entry["max_lives"], entry["speed"]) == (
            "athlete",
            2,
            10,
            10,
            1,
        )
        # Variant: declining leaves the Athlete where it is; the card is still discarded.
        s3 = act(s, "P", "dash", direction=None)
        assert where(s3, "P") == [5, 1] and s3["discard"][-1] == "3D"
        assert s3["phase"] == "awaiting_turn_action" and s3["turn"]["turn_number"] == 2

    def test_s12_draw_your_stats_with_the_tank(self):
        s = started_game([("P", "tank")], deck=["AS", "7H", "KD", "3C", "2D"], draw_stats=True)
        assert stats(s, "P") == (1, 12, 12, 3)
        assert s["deck"][0] == "2D" and s["deck"][-4:] == ["AS", "7H", "KD", "3C"]
        s = draw(s)
        assert where(s, "P") == [5, 6]


class TestDeck:
    def test_s13_deck_exhaustion(self):
        rest = [c for c in standard_deck() if c not in ("4C", "6H")]
        s = started_game([("P", "swordsman")], deck_exact=["4C"], discard=["6H"] + rest)
        s = draw(s)
        assert where(s, "P") == [9, 1]
        assert len(s["deck"]) == 0 and len(s["discard"]) == 52
        assert not any("ran out" in t for t in events(s, "deck_shuffled"))
        s = draw(s)
        assert any("ran out" in t for t in events(s, "deck_shuffled"))
        assert where(s, "P") == [3, 1]
        assert len(s["deck"]) == 51 and s["discard"] == ["6H"]

    def test_s14_three_card_hand_forming_drawing_choosing_and_a_boss(self):
        deck = ["5C", "QH", "2D", "9S", "3H", "JC", "4D", "6H", "5S", "8D", "7C", "10S", "4C"]
        s = dc.new_game(
            1,
            ["P"],
            {
                "classes": {"P": "rogue"},
                "deck": deck,
                "shuffles": "stacked",
                "turn_mode": "three_card_hand",
                "marker_placement": "manual",
            },
        )
        s = act(s, "P", "place_marker", kind="exit", square=[5, 8])
        s = act(s, "P", "place_marker", kind="pit", square=[8, 8])
        assert s["characters"][0]["hand"] == ["5C", "2D", "9S"]
        assert s["discard"] == ["QH"]
        s = draw(s)
        assert s["characters"][0]["hand"] == ["5C", "2D", "9S", "3H"] and s["phase"] == "awaiting_play"
        s = act(s, "P", "play_card", card="2D")
        assert where(s, "P") == [5, 3]
        assert s["characters"][0]["hand"] == ["5C", "9S", "3H"] and s["discard"] == ["QH", "2D"]
        s = draw(s)
        assert s["combat"]["boss_card"] == "JC" and "JC" not in s["characters"][0]["hand"]
        assert s["deck"][-2:] == ["QH", "2D"]
        s = fight(s, exchanges=3)
        s = act(s, "P", "choose_stat", stat="lives")
        assert stats(s, "P")[:3] == (2, 11, 11)
        assert where(s, "P") == [5, 3] and s["characters"][0]["hand"] == ["5C", "9S", "3H"]
        s = draw(s)
        assert s["characters"][0]["hand"] == ["5C", "9S", "3H", "4C"]
        before = dc.dump(s)
        with pytest.raises(IllegalAction):
            act(s, "P", "play_card", card="QH")
        assert dc.dump(s) == before
        s = act(s, "P", "play_card", card="3H")
        assert where(s, "P") == [2, 3] and s["characters"][0]["hand"] == ["5C", "9S", "4C"]


class TestMods:
    WALLS = {"stop_walls": [[[7, 1], [8, 1]]], "redirects": [{"square": [5, 3], "kind": "/"}]}

    def test_s15_walls_stop_wall_and_redirect_square(self):
        s = started_game([("P", "swordsman")], deck=["4D", "5S", "6C"], **self.WALLS)
        s = draw(s)
        assert where(s, "P") == [7, 3]
        assert "Redirected at column 5, row 3" in events(s, "moved")[-1]
        s = draw(s)
        assert where(s, "P") == [7, 1]
        s = draw(s)
        assert where(s, "P") == [7, 1]
        assert "cannot move right" in events(s, "moved")[-1]

    def test_s15_variant_ninja_reverses_at_a_stop_wall(self):
        s = started_game([("P", "ninja")], deck=["3C"], positions={"P": (7, 1)}, **self.WALLS)
        s = draw(s)
        assert where(s, "P") == [4, 1]

    def test_s15_invalid_layout_board_not_connected(self):
        walls = {"stop_walls": [[[1, 10], [2, 10]], [[1, 10], [1, 9]]]}
        with pytest.raises(dc.InvalidAction, match="board not connected"):
            dc.new_game(1, ["P"], {"classes": {"P": "ninja"}, **walls})
        lobby = dc.new_game(1, ["P"], walls)
        lobby = act(lobby, "P", "choose_class", **{"class": "ninja"})
        before = dc.dump(lobby)
        with pytest.raises(IllegalAction, match="board not connected"):
            act(lobby, "P", "start_game")
        assert dc.dump(lobby) == before
        assert {"type": "start_game"} not in dc.legal_actions(lobby, "P")

    def test_s16_potions(self):
        s = started_game(
            [("P", "swordsman")],
            deck=["2C", "2H", "3C", "3H"],
            lives={"P": 8},
            potion_roll=True,
            d20_rolls=[1, 19, 20, 20, 18],
        )
        expected = [([7, 1], 9), ([5, 1], 10), ([8, 1], 10), ([5, 1], 10)]
        for square, lives in expected:
            s = draw(s)
            assert where(s, "P") == square and stats(s, "P")[1] == lives
        rolls = events(s, "potion_roll")
        assert rolls[0].endswith("1, 19. A potion! Lives 9/10.")
        assert "already full" in rolls[2] and rolls[3].endswith("18. Nothing.")


class TestRoundLimit:
    def test_s28_round_limit(self):
        deck = ["AC", "AH", "2C", "2H", "3C", "3H", "4C", "4H", "5C", "5H"]
        s = started_game([("P", "swordsman")], deck=deck, round_limit=10)
        squares = [[6, 1], [5, 1], [7, 1], [5, 1], [8, 1], [5, 1], [9, 1], [5, 1], [10, 1], [5, 1]]
        for i, square in enumerate(squares):
            assert dc.result(s) is None and s["turn"]["round_number"] == i + 1
            s = draw(s)
            if i < 9:
                assert where(s, "P") == square
        assert [e["text"] for e in s["log"] if e["event"] == "moved"][-1].endswith("ending at column 5, row 1.")
        assert s["characters"][0]["status"] == "lost" and s["characters"][0]["position"] is None
        assert dc.result(s)["result"] == "defeat" and s["hall_of_fame"] == []
        assert s["turn"]["turn_number"] == 10
