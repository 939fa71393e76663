"""Dungeon Cards rulings not covered by an acceptance scenario: options, lobby, setup, movement,
combat triggers, party timing, leaving, the safety rule and what each seat may see."""

from __future__ import annotations

import json

import pytest

from rules_engine import InvalidAction
from rules_engine.cards import standard_deck
from rules_engine.games import dungeon_cards as dc
from rules_engine.games.dungeon_cards import deck as dc_deck
from rules_engine.games.dungeon_cards.movement import connected, wall_key
from tests.helpers.dungeon_cards import act, started_game, stats, where
from tests.helpers.engine import refused


def char(s, name):
    return s["characters"][s["players"].index(name)]


def wins(n, boss="2", fighter="9"):
    """Deck cards for ``n`` solo exchanges the fighter wins (one suit per exchange)."""
    return [c for suit in "CDHS"[:n] for c in (boss + suit, fighter + suit)]


class TestOptions:
    @pytest.mark.parametrize(
        "options, message",
        [
            ({"colour": "red"}, "unknown option"),
            ({"board_width": 31}, "board_width"),
            ({"board_height": True}, "board_height"),
            ({"turn_mode": "hand"}, "turn_mode"),
            ({"exit_count": 5}, "exit_count"),
            ({"pit_count": 0}, "pit_count"),
            ({"round_limit": 9}, "round_limit"),
            ({"potion_roll": 1}, "potion_roll"),
            ({"random_stop_walls": -1}, "random_stop_walls"),
            ({"random_stop_walls": 82}, "stop walls fit"),
            ({"stop_walls": [[[1, 1], [2, 2]]]}, "neighbouring"),
            ({"stop_walls": [[[1, 1], [1, 2]], [[1, 2], [1, 1]]]}, "twice"),
            ({"stop_walls": [[[10, 1], [11, 1]]]}, "off the"),
            ({"redirects": [{"square": [3, 3], "kind": "|"}]}, "kind"),
            ({"redirects": [{"square": [3, 3], "kind": "/"}, {"square": [3, 3], "kind": "\\"}]}, "two redirects"),
            ({"random_redirects": 98}, "redirects fit"),
            ({"deck": ["AS", "AS"]}, "more often"),
            ({"deck": ["JK"]}, "more often"),
            ({"deck": "AS KS"}, "list of card codes"),
            ({"shuffles": "rigged"}, "shuffles"),
            ({"d20_rolls": [0]}, "d20_rolls"),
            ({"classes": {"P": "wizard"}}, "unknown class"),
            ({"classes": {"P": "mage"}}, "party of 2"),
            ({"classes": {"Q": "ninja"}}, "not a player"),
        ],
    )
    def test_bad_options_are_invalid(self, options, message):
        with pytest.raises(InvalidAction, match=message):
            dc.new_game(1, ["P"], options)

    def test_bad_players_and_seed(self):
        for players in ([], ["a", "a"], "ann", [1], ["a"] * 6):
            with pytest.raises(InvalidAction):
                dc.new_game(1, players, {})
        with pytest.raises(InvalidAction):
            dc.new_game("1", ["a"], {})

    def test_duplicate_class_in_options(self):
        with pytest.raises(InvalidAction, match="one character only"):
            dc.new_game(1, ["A", "B"], {"classes": {"A": "tank", "B": "tank"}})

    def test_drawn_redirect_on_the_bottom_middle_start_is_rejected_ruling_56(self):
        with pytest.raises(InvalidAction, match="start square"):
            dc.new_game(1, ["P"], {"classes": {"P": "tank"}, "redirects": [{"square": [5, 1], "kind": "/"}]})

    def test_wall_limit_is_w_minus_1_times_h_minus_1_ruling_57(self):
        s = dc.new_game(
            3,
            ["P"],
            {
                "classes": {"P": "tank"},
                "board_width": 6,
                "board_height": 6,
                "random_stop_walls": 25,
                "random_redirects": 33,
            },
        )
        board = s["board"]
        assert len(board["stop_walls"]) == 25 and len(board["redirects"]) == 33
        walls = frozenset(wall_key(a, b) for a, b in board["stop_walls"])
        assert connected(6, 6, walls)
        assert all(k != "3,1" for k in board["redirects"])


class TestLobby:
    def test_choose_classes_then_the_host_starts(self):
        s = dc.new_game(5, ["A", "B"], {})
        assert s["status"] == "lobby" and dc.legal_actions(s, "A")[-1] == {"type": "leave_game"}
        refused(dc, s, "A", {"type": "start_game"}, match="choose a class")
        s = act(s, "A", "choose_class", **{"class": "mage"})
        s = act(s, "B", "choose_class", **{"class": "healer"})
        refused(dc, s, "B", {"type": "start_game"}, match="host")
        assert {"type": "start_game"} in dc.legal_actions(s, "A")
        s = act(s, "A", "start_game")
        assert s["status"] == "playing" and [c["class"] for c in s["characters"]] == ["mage", "healer"]
        refused(dc, s, "A", {"type": "choose_class", "class": "tank"})
        refused(dc, s, "C", {"type": "join_game"})

    def test_join_and_update_options(self):
        s = dc.new_game(5, ["A"], {})
        assert dc.legal_actions(s, "B") == [{"type": "join_game"}]
        s = act(s, "B", "join_game")
        assert s["players"] == ["A", "B"]
        refused(dc, s, "B", {"type": "update_options", "options": {"board_width": 20}}, match="host")
        refused(dc, s, "A", {"type": "update_options", "options": {"board_width": 40}}, InvalidAction)
        s = act(s, "A", "update_options", options={"board_width": 20, "potion_roll": True})
        assert s["options"]["board_width"] == 20 and s["options"]["potion_roll"]

    def test_leaving_the_lobby_passes_the_host_and_clears_a_lonely_mage_ruling_55(self):
        s = dc.new_game(5, ["A", "B"], {})
        s = act(s, "B", "choose_class", **{"class": "mage"})
        s = act(s, "A", "leave_game")
        assert s["players"] == ["B"] and s["host"] == "B" and s["classes"] == {"B": None}
        refused(dc, s, "B", {"type": "choose_class", "class": "mage"})
        s = act(s, "B", "leave_game")
        assert dc.result(s) == {
            "winners": [],
            "scores": {},
            "reason": "everyone left",
            "result": "abandoned",
            "text": "Everyone left: the game is abandoned.",
            "escaped": [],
            "hall_of_fame": [],
        }

    def test_leaving_during_setup_returns_a_lonely_healer_to_the_lobby(self):
        s = dc.new_game(5, ["A", "B"], {"classes": {"A": "tank", "B": "healer"}, "start_square": "chosen"})
        assert s["phase"] == "placing_markers"
        s = act(s, "A", "leave_game")
        assert s["status"] == "lobby" and s["classes"] == {"B": None} and s["host"] == "B"


class TestSetup:
    @pytest.mark.parametrize("seed", range(12))
    def test_random_placement_follows_the_rules(self, seed):
        s = dc.new_game(
            seed,
            ["P"],
            {
                "classes": {"P": "ninja"},
                "start_square": "random_edge",
                "exit_count": 4,
                "pit_count": 6,
                "random_redirects": 10,
                "redirects": [{"square": [2, 1], "kind": "/"}],
            },
        )
        board = s["board"]
        x, y = board["start"]
        assert x in (1, 10) or y in (1, 10)
        markers = [tuple(m) for m in board["exits"] + board["pits"]]
        assert len(board["exits"]) == 4 and len(board["pits"]) == 6 and len(set(markers)) == 10
        assert tuple(board["start"]) not in markers
        assert not any(f"{mx},{my}" in board["redirects"] for mx, my in markers)
        assert f"{x},{y}" not in board["redirects"]

    def test_chosen_start_square(self):
        s = dc.new_game(
            1,
            ["P"],
            {"classes": {"P": "ninja"}, "start_square": "chosen", "redirects": [{"square": [1, 5], "kind": "/"}]},
        )
        assert s["phase"] == "placing_markers"
        refused(dc, s, "P", {"type": "choose_start", "square": [5, 5]}, match="edge")
        refused(dc, s, "P", {"type": "choose_start", "square": [1, 5]}, match="redirect")
        for off in ([1, 11], [0, 4], [11, 1]):  # "on an edge" only counts on the board
            refused(dc, s, "P", {"type": "choose_start", "square": off}, match="off the 10×10 board")
        assert {"type": "choose_start", "square": [1, 5]} not in dc.legal_actions(s, "P")
        s = act(s, "P", "choose_start", square=[10, 4])
        assert s["status"] == "playing" and where(s, "P") == [10, 4]

    def test_manual_markers_exits_first(self):
        s = dc.new_game(1, ["P"], {"classes": {"P": "ninja"}, "marker_placement": "manual", "exit_count": 2})
        refused(dc, s, "P", {"type": "place_marker", "kind": "pit", "square": [2, 2]}, match="Exit first")
        for off in ([10, 11], [0, 0], [-3, 2]):
            refused(dc, s, "P", {"type": "place_marker", "kind": "exit", "square": off}, match="off the 10×10 board")
        s = act(s, "P", "place_marker", kind="exit", square=[2, 2])
        s = act(s, "P", "place_marker", kind="exit", square=[3, 2])
        assert all(a["kind"] == "pit" for a in dc.legal_actions(s, "P") if a["type"] == "place_marker")
        s = act(s, "P", "place_marker", kind="pit", square=[4, 2])
        assert s["status"] == "playing" and s["board"]["exits"] == [[2, 2], [3, 2]]


class TestMovementRulings:
    def test_a_move_starting_on_a_redirect_is_not_turned_by_it(self):
        s = started_game(
            [("P", "swordsman")], deck=["2D"], redirects=[{"square": [5, 3], "kind": "\\"}], positions={"P": (5, 3)}
        )
        s = act(s, "P", "draw_card")
        assert where(s, "P") == [5, 5]

    def test_a_move_may_end_on_a_redirect(self):
        s = started_game([("P", "swordsman")], deck=["2D"], redirects=[{"square": [5, 3], "kind": "\\"}])
        s = act(s, "P", "draw_card")
        assert where(s, "P") == [5, 3]

    def test_ninja_blocked_both_ways_at_once_stays(self):
        s = started_game([("P", "ninja")], deck=["4H"], stop_walls=[[[1, 1], [2, 1]]], positions={"P": (1, 1)})
        s = act(s, "P", "draw_card")
        assert where(s, "P") == [1, 1]

    def test_ninja_reflex_is_not_triggered_by_a_redirect(self):
        s = started_game([("P", "ninja")], deck=["3D"], redirects=[{"square": [5, 2], "kind": "/"}])
        s = act(s, "P", "draw_card")
        assert where(s, "P") == [7, 2]

    def test_characters_share_squares_and_are_adjacent_there_ruling_5(self):
        s = started_game([("A", "ninja"), ("B", "tank")], deck=["JD", "2C"])
        s = act(s, "A", "draw_card")
        assert s["combat"]["eligible_helpers"] == ["B"]

    def test_a_stop_wall_breaks_adjacency(self):
        s = started_game(
            [("A", "ninja"), ("B", "tank")], deck=["JD"], stop_walls=[[[5, 1], [6, 1]]], positions={"B": (6, 1)}
        )
        s = act(s, "A", "draw_card")
        assert s["combat"]["eligible_helpers"] == [] and s["phase"] == "awaiting_combat_draw"


class TestCombatRulings:
    def test_guard_break_on_the_queens_last_life_triggers_second_wind(self):
        deck = ["QC"] + wins(3) + ["5C", "5D", "8S"]
        s = act(started_game([("P", "swordsman")], deck=deck), "P", "draw_card")
        for _ in range(4):
            s = act(s, "P", "combat_draw")
        assert s["combat"]["second_wind_used"] and s["combat"]["boss_lives"] == 1
        assert stats(s, "P")[1] == 9

    def test_strong_will_in_a_barrage_replaces_the_fatal_card(self):
        deck = ["KC"] + wins(4) + ["10C", "10D", "10H", "3C", "4C", "5C", "10S"]
        s = act(started_game([("P", "soldier")], deck=deck, lives={"P": 1}), "P", "draw_card")
        for _ in range(5):
            s = act(s, "P", "combat_draw")
        last = s["combat"]["last_exchange"] if s["combat"] else None
        assert char(s, "P")["status"] == "dead"
        texts = [e["text"] for e in s["log"] if e["event"] in ("strong_will", "matchup_resolved")]
        assert "Strong Will! P replaces 3♣ with 10♠." in texts
        assert texts[-3:] == [
            "Slot 1, P: 10♠ against 10♣: tie, no damage.",
            "Slot 2, P: 4♣ against 10♦: P is hit (0/10 lives).",
            "Slot 3, P: void.",
        ]
        assert last is None

    def test_critical_hit_of_a_rogue_helper_is_awaited_in_either_order(self):
        deck = ["JD", "5C", "6C", "2D", "3D", "9D", "4C"]
        base = started_game([("A", "ninja"), ("B", "rogue")], deck=deck)
        base = act(act(base, "A", "draw_card"), "B", "join_combat", join=True)
        assert dc.view(base, None)["awaiting"] == [
            {"seat": "A", "actions": ["combat_draw"]},
            {"seat": "B", "actions": ["critical_hit"]},
        ]
        refused(dc, base, "A", {"type": "combat_draw", "critical_hit": True}, match="only the Rogue")
        one = act(base, "A", "combat_draw")
        assert one["combat"]["exchange_number"] == 1 and one["combat"]["draw_signal"]
        one = act(one, "B", "critical_hit", use=True)
        two = act(act(base, "B", "critical_hit", use=True), "A", "combat_draw")
        assert one == two
        last = one["combat"]["last_exchange"]
        assert last["fighter_cards"] == {"A": ["6C"], "B": ["9D"]} and last["crit_cards"] == ["2D", "3D", "9D"]
        assert one["combat"]["boss_lives"] == 1
        assert "critical_hit" not in [a["type"] for a in dc.legal_actions(one, "B")]

    def test_a_helper_dying_in_a_barrage_ruling_50(self):
        deck = ["KD", "2C", "9C", "9D", "2D", "9H", "9S", "10C", "10D", "3H", "3C", "8D", "7H", "4C", "4D", "5H"]
        s = started_game([("B", "ninja"), ("A", "swordsman")], deck=deck, lives={"B": 1})
        s = act(act(s, "B", "draw_card"), "A", "join_combat", join=True)
        for _ in range(3):
            s = act(s, "B" if char(s, "B")["status"] == "active" else "A", "combat_draw")
        matchups = s["combat"]["last_exchange"]["matchups"]
        assert [(m["slot"], m["fighter"], m["result"]) for m in matchups] == [
            (1, "B", "fighter_hit"),
            (1, "A", "fighter_hit"),
            (2, "B", "void"),
            (2, "A", "fighter_hit"),
            (3, "B", "void"),
            (3, "A", "boss_hit"),
        ]
        assert char(s, "B")["status"] == "dead" and s["combat"]["pending_rewards"] == ["A"]
        s = act(s, "A", "choose_stat", stat="lives")
        assert s["turn"]["current"] == "A" and stats(s, "A") == (2, 9, 11, 0)

    def test_a_king_going_from_2_to_0_in_one_exchange_never_barrages(self):
        deck = ["KD", "2C", "9C", "9D", "5C", "9H", "5D", "2D", "9S", "8C"]
        s = started_game([("A", "ninja"), ("B", "tank")], deck=deck)
        s = act(act(s, "A", "draw_card"), "B", "join_combat", join=True)
        for _ in range(3):
            s = act(s, "A", "combat_draw")
        assert s["phase"] == "awaiting_reward"
        last = s["combat"]["last_exchange"]
        assert not last["barrage"] and last["boss_cards"] == ["2D"]

    def test_face_cards_drawn_in_combat_are_redrawn_not_bosses_ruling_10(self):
        deck = ["JD", "QC", "2C", "KS", "9C", "2D", "9D", "2H", "9H"]
        s = act(started_game([("P", "tank")], deck=deck), "P", "draw_card")
        assert s["combat"]["boss_cards"] == ["2C"] and s["discard"] == ["QC"]
        s = act(s, "P", "combat_draw")
        assert s["combat"]["boss_lives"] == 2 and s["discard"][:2] == ["QC", "KS"]

    def test_hand_is_discarded_when_a_character_dies_in_hand_mode(self):
        deck = ["2C", "3C", "4C", "JD", "9C", "8D"]
        s = started_game([("P", "rogue")], deck=deck, turn_mode="three_card_hand", lives={"P": 1})
        s = act(act(s, "P", "draw_card"), "P", "combat_draw")
        assert char(s, "P")["status"] == "dead" and char(s, "P")["hand"] == []
        assert {"2C", "3C", "4C"} <= set(s["deck"] + s["discard"])


class TestPartyRulings:
    def test_an_athlete_helper_escaping_by_dash_ends_the_game_at_once(self):
        deck = ["JD", "2C", "9C", "9H", "2S", "9S", "8H", "2D"]
        s = started_game([("A", "swordsman"), ("B", "athlete")], deck=deck, positions={"A": (5, 5), "B": (5, 6)})
        s = act(act(s, "A", "draw_card"), "B", "join_combat", join=True)
        s = act(act(s, "A", "combat_draw"), "A", "combat_draw")
        s = act(act(s, "A", "choose_stat", stat="speed"), "B", "choose_stat", stat="speed")
        assert s["combat"]["dash"] == {"athlete": "B", "card": "2D"}
        refused(dc, s, "A", {"type": "dash", "direction": "up"}, match="Athlete")
        s = act(s, "B", "dash", direction="up")
        res = dc.result(s)
        assert res["result"] == "team_victory" and res["escaped"] == ["B"]
        assert {e["player"]: e["outcome"] for e in s["hall_of_fame"]} == {"B": "escaped", "A": "team victory"}

    def test_reversal_does_not_turn_the_dash(self):
        deck = ["JD", "2C", "9C", "2D", "9D", "2H", "9H", "3S"]
        s = started_game([("M", "mage"), ("X", "athlete")], deck=deck, positions={"M": (1, 1), "X": (1, 5)})
        s = act(act(s, "M", "cast_spell", spell="reversal"), "X", "draw_card")
        for _ in range(3):
            s = act(s, "X", "combat_draw")
        s = act(act(s, "X", "choose_stat", stat="lives"), "X", "dash", direction="up")
        assert where(s, "X") == [1, 8]

    def test_the_healer_heals_nobody_during_combat_and_counts_full_lives_as_healed_ruling_48(self):
        deck = ["JD", "8C", "9C", "2C", "2D", "9D", "9H"]
        s = started_game([("H", "healer"), ("P", "tank")], deck=deck, positions={"H": (5, 5), "P": (5, 6)})
        s = act(act(s, "H", "draw_card"), "P", "join_combat", join=True)
        s = act(s, "H", "combat_draw")
        assert stats(s, "P")[1] == 14
        s = act(s, "H", "combat_draw")
        s = act(act(s, "H", "choose_stat", stat="speed"), "P", "choose_stat", stat="speed")
        assert s["turn"]["current"] == "P" and stats(s, "P")[1] == 14

    def test_the_healer_heals_newcomers_at_the_end_but_not_itself(self):
        s = started_game(
            [("H", "healer"), ("P", "tank")], deck=["AD"], positions={"H": (5, 5), "P": (5, 7)}, lives={"H": 5, "P": 10}
        )
        s = act(s, "H", "draw_card")
        assert stats(s, "P")[1] == 11 and stats(s, "H")[1] == 5

    def test_effects_handed_out_survive_the_mage_leaving_ruling_49(self):
        s = started_game(
            [("M", "mage"), ("X", "tank"), ("Y", "ninja")], deck=["2C", "2D"], positions={"X": (1, 1), "Y": (1, 2)}
        )
        s = act(s, "M", "cast_spell", spell="haste")
        s = act(s, "M", "leave_game")
        assert char(s, "M")["status"] == "left" and char(s, "M")["pending_effects"] == []
        assert char(s, "Y")["pending_effects"] == ["haste"]
        s = act(s, "X", "draw_card")
        assert where(s, "X") == [4, 1]
        s = act(s, "Y", "draw_card")
        assert where(s, "Y") == [1, 5]
        assert s["turn"]["current"] == "X" and s["turn"]["round_number"] == 2

    def test_a_mage_casting_again_forfeits_its_own_effect_and_spells_never_stack(self):
        s = started_game([("M", "mage"), ("X", "tank")], deck=["2C", "3C"], positions={"X": (1, 1)})
        s = act(act(s, "M", "cast_spell", spell="reversal"), "X", "draw_card")
        assert char(s, "M")["active_effects"] == ["reversal"]
        s = act(s, "M", "cast_spell", spell="haste")
        assert char(s, "M")["pending_effects"] == ["haste"]
        assert char(s, "X")["active_effects"] == ["haste"]
        s = act(s, "X", "draw_card")
        assert where(s, "X") == [5, 1]  # 2C was spent going left; 3C + Haste goes right 4

    def test_potion_rolls_on_spell_and_fight_turns(self):
        s = started_game(
            [("M", "mage"), ("X", "tank")],
            deck=["JD"] + wins(3),
            lives={"M": 8, "X": 12},
            potion_roll=True,
            d20_rolls=[20, 19],
            positions={"X": (9, 9)},
        )
        s = act(s, "M", "cast_spell", spell="haste")
        assert stats(s, "M")[1] == 9
        s = act(s, "X", "draw_card")
        for _ in range(3):
            s = act(s, "X", "combat_draw")
        s = act(s, "X", "choose_stat", stat="speed")
        assert stats(s, "X")[1] == 13


class TestLeaving:
    def test_leaving_with_a_movement_card_on_the_table(self):
        s = started_game([("M", "mage"), ("X", "tank")], deck=["5C"], positions={"X": (1, 1)})
        s = act(act(s, "M", "cast_spell", spell="fortune_telling"), "X", "draw_card")
        assert s["phase"] == "awaiting_fortune"
        s = act(s, "X", "leave_game")
        assert s["discard"] == ["5C"] and s["turn"]["current"] == "M"
        assert dc.legal_actions(s, "X") == []
        refused(dc, s, "X", {"type": "leave_game"})

    def test_a_pending_join_lapses_as_declined(self):
        s = started_game([("A", "ninja"), ("B", "tank"), ("C", "rogue")], deck=["JD", "2C"])
        s = act(act(s, "A", "draw_card"), "B", "join_combat", join=True)
        s = act(s, "C", "leave_game")
        assert s["combat"]["fighters"] == ["A", "B"] and s["phase"] == "awaiting_combat_draw"

    def test_the_challenger_leaving_before_the_join_decisions(self):
        deck = ["JD", "2C", "9C", "2D", "9D", "2H", "9H"]
        s = started_game([("A", "ninja"), ("B", "tank"), ("C", "rogue")], deck=deck)
        s = act(act(s, "A", "draw_card"), "A", "leave_game")
        assert s["phase"] == "awaiting_join"
        lost = act(act(s, "B", "join_combat", join=False), "C", "join_combat", join=False)
        assert lost["combat"] is None and "JD" in lost["deck"] and lost["turn"]["current"] == "B"
        s = act(act(s, "B", "join_combat", join=True), "C", "join_combat", join=False)
        assert s["combat"]["fighters"] == ["B"]
        for _ in range(3):
            s = act(s, "B", "combat_draw")
        s = act(s, "B", "choose_stat", stat="lives")
        assert s["removed"] == ["JD"] and s["turn"]["current"] == "B"

    def test_a_reward_owed_lapses(self):
        deck = ["JD", "2C", "9C", "9D", "2D", "9H", "9S"]
        s = started_game([("A", "ninja"), ("B", "tank")], deck=deck)
        s = act(act(s, "A", "draw_card"), "B", "join_combat", join=True)
        s = act(act(s, "A", "combat_draw"), "A", "combat_draw")
        assert s["phase"] == "awaiting_reward"
        s = act(s, "B", "leave_game")
        s = act(s, "A", "choose_stat", stat="speed")
        assert s["turn"]["current"] == "A" and s["turn"]["round_number"] == 2
        assert stats(s, "B")[0] == 1

    def test_the_lead_leaving_hands_the_lead_on(self):
        s = started_game([("A", "ninja"), ("B", "tank")], deck=["JD", "2C", "9C"])
        s = act(act(s, "A", "draw_card"), "B", "join_combat", join=True)
        s = act(s, "A", "leave_game")
        assert dc.view(s, None)["combat"]["lead"] == "B"
        assert {"type": "combat_draw", "critical_hit": False} in dc.legal_actions(s, "B")

    def test_giving_up_solo_is_a_defeat(self):
        s = act(started_game([("P", "tank")], deck=["JD"]), "P", "draw_card")
        s = act(s, "P", "leave_game")
        res = dc.result(s)
        assert res["result"] == "defeat" and res["reason"] == "gave up" and res["winners"] == []
        assert "JD" in s["deck"] and s["combat"] is None

    def test_the_last_fighter_leaving_ends_the_combat_and_the_party_game(self):
        s = started_game(
            [("A", "ninja"), ("B", "tank")],
            deck=["JD", "2C"],
            lives={"B": 1},
            positions={"B": (9, 9)},
            after_first_escape="continue",
        )
        s = act(s, "A", "draw_card")
        s = act(s, "A", "leave_game")
        assert s["turn"]["current"] == "B" and s["combat"] is None
        s = act(s, "B", "leave_game")
        assert dc.result(s)["result"] == "defeat" and dc.result(s)["winners"] == []


class TestSafetyRule:
    def test_a_number_draw_with_only_face_cards_left_produces_nothing(self):
        s = {
            "deck": ["KS"],
            "discard": ["QH"],
            "options": {"shuffles": "stacked"},
            "counters": {"shuffle": 0},
            "seed": 1,
            "log": [],
        }
        assert dc_deck.draw_number(s) is None
        assert s["discard"] == ["QH", "KS"]

    def test_a_turn_draw_with_both_piles_empty_ends_the_turn(self):
        s = started_game([("A", "ninja"), ("B", "tank")], deck_exact=[], discard=[])
        s = act(s, "A", "draw_card")
        assert s["turn"]["current"] == "B" and where(s, "A") == [5, 1]


class TestView:
    DECK = ["2C", "3C", "4C", "5D", "6D", "7D", "8S"]

    def test_hands_are_seen_by_their_owner_only(self):
        s = started_game([("M", "mage"), ("X", "rogue")], deck=self.DECK, turn_mode="three_card_hand", seed=987654321)
        s = act(s, "M", "draw_card")
        mine, theirs, spectator = dc.view(s, "M"), dc.view(s, "X"), dc.view(s, None)
        assert mine["characters"][0]["hand"] == ["2C", "3C", "4C", "8S"]
        assert theirs["characters"][0]["hand"] is None and theirs["characters"][0]["hand_count"] == 4
        assert theirs["characters"][1]["hand"] == ["5D", "6D", "7D"]
        assert mine["turn"]["drawn_this_turn"] == ["8S"] and theirs["turn"]["drawn_this_turn"] == []
        assert "You draw 8♠." in [e["text"] for e in mine["log"]]
        for v in (theirs, spectator):
            text = json.dumps(v, ensure_ascii=False)
            assert "8S" not in text and "8♠" not in text and "987654321" not in text
        assert spectator["seat"] is None and spectator["actions"] == []
        assert "deck" not in spectator["options"] and "d20_rolls" not in spectator["options"]

    def test_the_deck_order_never_shows(self):
        s = started_game([("P", "tank")], deck=["2C", "KH", "9D"])
        text = json.dumps(dc.view(s, "P"))
        assert '"9D"' not in text and '"KH"' not in text and dc.view(s, "P")["deck_count"] == 52

    def test_draw_your_stats_warning(self):
        assert dc.view(dc.new_game(1, ["P"], {"draw_stats": True}), "P")["warnings"]
        assert dc.view(dc.new_game(1, ["P"], {}), "P")["warnings"] == []

    def test_every_legal_action_has_a_label(self):
        deck = ["2C", "3C", "4C", "5D", "6D", "7D", "8S", "AH"]
        s = started_game(
            [("M", "mage"), ("X", "rogue")], deck=deck, turn_mode="three_card_hand", positions={"X": (10, 1)}
        )
        labels = [dc.action_label(s, a) for a in dc.legal_actions(s, "M")]
        assert labels == [
            "Draw a card",
            "Cast Reversal",
            "Cast Fortune Telling",
            "Cast Haste",
            "Cast Good Luck",
            "Leave the game",
        ]
        s = act(act(s, "M", "cast_spell", spell="haste"), "X", "draw_card")
        assert [dc.action_label(s, a) for a in dc.legal_actions(s, "X")][:2] == ["Play 5♦: up 6", "Play 6♦: up 7"]

    def test_dump_load_round_trip(self):
        s = started_game([("P", "tank")], deck=["JD"])
        s = act(s, "P", "draw_card")
        assert dc.load(json.loads(json.dumps(dc.dump(s)))) == s
        with pytest.raises(InvalidAction):
            dc.load({"nothing": 1})

    def test_malformed_actions_are_invalid(self):
        s = started_game([("P", "tank")], deck=["JD"])
        for action in (
            {},
            {"type": "fly"},
            {"type": "draw_card", "extra": 1},
            "draw_card",
            {"type": "play_card"},
            {"type": "play_card", "card": "XX"},
            {"type": "dash", "direction": 3},
            {"type": "join_combat", "join": "yes"},
            {"type": "place_marker", "kind": "exit", "square": [1]},
            {"type": "discard_to_limit", "cards": "AS"},
            {"type": "fortune_telling", "card": "JK"},
        ):
            refused(dc, s, "P", action, InvalidAction)
        refused(dc, s, "Q", {"type": "draw_card"}, match="not a player")
        assert sorted(standard_deck()) == sorted(dc_deck.all_cards(s))


class TestMoreRulings:
    HANDS = ["2C", "3C", "4C", "2H", "5S", "9D", "6C"]

    def test_fortune_telling_in_hand_mode_keep_or_replace_with_a_number(self):
        s = started_game(
            [("M", "mage"), ("X", "ninja")],
            deck=self.HANDS + ["9C"],
            turn_mode="three_card_hand",
            positions={"X": (10, 10)},
        )
        s = act(act(s, "M", "cast_spell", spell="fortune_telling"), "X", "draw_card")
        assert {"type": "fortune_telling", "card": None} in dc.legal_actions(s, "X")
        kept = act(s, "X", "fortune_telling", card=None)
        assert kept["phase"] == "awaiting_play" and char(kept, "X")["hand"] == ["2H", "5S", "9D", "6C"]
        refused(dc, s, "X", {"type": "fortune_telling", "card": "2C"}, match="not in your hand")
        s = act(s, "X", "fortune_telling", card="2H")
        assert s["phase"] == "awaiting_play" and char(s, "X")["hand"] == ["5S", "9D", "6C", "9C"]
        assert s["discard"] == ["2H"]
        assert "9C" not in json.dumps(dc.view(s, "M")) and "9♣" not in json.dumps(dc.view(s, "M"), ensure_ascii=False)
        assert "You draw 9♣." in [e["text"] for e in dc.view(s, "X")["log"]]

    def test_leaving_with_a_dash_card_on_the_table(self):
        deck = ["JH", "2S", "9D", "3S", "8H", "4S", "7C", "3D"]
        s = act(started_game([("P", "athlete")], deck=deck), "P", "draw_card")
        for _ in range(3):
            s = act(s, "P", "combat_draw")
        s = act(act(s, "P", "choose_stat", stat="speed"), "P", "leave_game")
        assert s["discard"][-1] == "3D" and dc.result(s)["reason"] == "gave up"
        assert sorted(dc_deck.all_cards(s)) == sorted(standard_deck())

    def test_hall_of_fame_records_the_mods(self):
        s = started_game(
            [("P", "ninja")],
            deck=["AD"],
            exits=[(10, 2), (6, 6)],
            board_width=20,
            potion_roll=True,
            exit_count=2,
            stop_walls=[[[1, 1], [1, 2]]],
            d20_rolls=[5],
        )
        s = act(s, "P", "draw_card")
        [entry] = s["hall_of_fame"]
        assert entry["mods"] == ["bigger map", "extra exits", "walls", "potions"]
        assert entry["board_size"] == "20x10" and entry["party_size"] == 1 and entry["turn_mode"] == "single_draw"

    def test_decisions_cannot_be_given_twice_or_by_the_wrong_seat(self):
        deck = ["JD", "5C", "6C", "2D", "3D", "9D", "4C", "9H", "9S"]
        s = started_game([("A", "ninja"), ("B", "rogue"), ("C", "tank")], deck=deck, positions={"C": (9, 9)})
        s = act(s, "A", "draw_card")
        refused(dc, s, "C", {"type": "join_combat", "join": True}, match="adjacent")
        refused(dc, s, "A", {"type": "combat_draw"}, match="nobody")
        s = act(s, "B", "join_combat", join=True)
        refused(dc, s, "A", {"type": "critical_hit", "use": True}, match="no Critical Hit")
        s = act(s, "A", "combat_draw")
        refused(dc, s, "A", {"type": "combat_draw"}, match="already been given")
        s = act(s, "B", "critical_hit", use=True)
        assert s["combat"]["crit_used"] and s["combat"]["exchange_number"] == 2
        refused(dc, s, "B", {"type": "critical_hit", "use": True}, match="no Critical Hit")
        refused(dc, s, "B", {"type": "combat_draw", "critical_hit": True}, match="lead")
        s = act(s, "A", "combat_draw")
        assert s["phase"] == "awaiting_reward"
        refused(dc, s, "C", {"type": "choose_stat", "stat": "lives"}, match="no reward")
        s = act(s, "A", "choose_stat", stat="lives")
        refused(dc, s, "A", {"type": "choose_stat", "stat": "lives"}, match="no reward")
        refused(dc, s, "A", {"type": "draw_card"}, match="not your turn|not possible")

    def test_a_turn_in_hand_mode_with_nothing_to_draw_ends(self):
        s = started_game(
            [("A", "ninja"), ("B", "tank")],
            deck=["2C", "3C", "4C", "5C", "6C", "7C"],
            turn_mode="three_card_hand",
            deck_exact=[],
            discard=[],
        )
        s = act(s, "A", "draw_card")
        assert s["turn"]["current"] == "B" and char(s, "A")["hand"] == ["2C", "3C", "4C"]

    def test_random_shuffles_follow_the_seed(self):
        a = dc.new_game(11, ["P"], {"classes": {"P": "tank"}})
        b = dc.new_game(11, ["P"], {"classes": {"P": "tank"}})
        c = dc.new_game(12, ["P"], {"classes": {"P": "tank"}})
        assert a == b and a["deck"] != c["deck"]
        assert sorted(a["deck"]) == sorted(standard_deck())


class TestDrawUntilDecided:
    """One press for the draws of a fight that asks nothing of anyone: the lead's ``combat_draw``
    repeated, each exactly as a single press would make it."""

    @staticmethod
    def single_steps(s, seat):
        presses = 0
        while {"type": "combat_draw", "critical_hit": False} in dc.legal_actions(s, seat):
            s = act(s, seat, "combat_draw", critical_hit=False)
            presses += 1
        return s, presses

    @pytest.mark.parametrize("seed", [1, 7, 23, 99, 2026])
    def test_one_press_makes_the_same_game_as_the_single_draws(self, seed):
        # A shuffled deal (not the stacked test shuffle) with a Queen on top: the fight's shuffles
        # and draws come from the seed, and both ways must draw the very same cards.
        s = dc.new_game(seed, ["P"], {"classes": {"P": "swordsman"}, "deck": ["QH"]})
        s = act(s, "P", "draw_card")
        assert {"type": "draw_until_decided"} in dc.legal_actions(s, "P")
        stepped, presses = self.single_steps(s, "P")
        pressed = act(s, "P", "draw_until_decided")
        assert presses >= 2  # a Queen has 4 lives: never one exchange
        assert dc.dump(pressed) == dc.dump(stepped)
        assert pressed["phase"] in ("awaiting_reward", "game_over")
        assert {"type": "draw_until_decided"} not in dc.legal_actions(pressed, "P")
        # The log tells every exchange, as the single draws do.
        exchanges = [e for e in pressed["log"] if e["event"] == "exchange_drawn"]
        assert len(exchanges) == presses

    def test_the_lead_rogue_decides_its_critical_hit_first(self):
        s = started_game([("P", "rogue")], deck=["JH", *wins(3)])
        s = act(s, "P", "draw_card")
        kinds = [a["type"] for a in dc.legal_actions(s, "P")]
        assert "draw_until_decided" not in kinds and "combat_draw" in kinds
        refused(dc, s, "P", {"type": "draw_until_decided"}, match="Critical Hit")
        s = act(s, "P", "combat_draw", critical_hit=True)
        assert s["combat"]["crit_used"] and s["combat"]["boss_lives"] == 2
        s = act(s, "P", "draw_until_decided")
        assert s["phase"] == "awaiting_reward" and s["combat"]["boss_lives"] == 0

    def test_not_while_a_helper_rogue_has_a_critical_hit_to_decide(self):
        deck = ["JD", "5C", "6C", "2D", "3D", "9D", "4C"]
        s = started_game([("A", "ninja"), ("B", "rogue")], deck=deck)
        s = act(act(s, "A", "draw_card"), "B", "join_combat", join=True)
        assert "draw_until_decided" not in [a["type"] for a in dc.legal_actions(s, "A")]
        refused(dc, s, "A", {"type": "draw_until_decided"})

    def test_only_the_lead_and_it_stops_when_the_lead_changes(self):
        deck = ["JD", "9D", "2C", "9S", "3C", "5H", "6D", "8C"]
        s = started_game(
            [("A", "ninja"), ("B", "swordsman"), ("C", "tank")],
            deck=deck,
            lives={"A": 1},
            positions={"A": (3, 3), "B": (3, 4), "C": (9, 9)},
        )
        s = act(act(s, "A", "draw_card"), "B", "join_combat", join=True)
        refused(dc, s, "B", {"type": "draw_until_decided"}, match="lead")
        s = act(s, "A", "draw_until_decided")
        # A died in the first exchange: the fight goes on, but the next draws are B's to make.
        assert char(s, "A")["status"] == "dead" and s["combat"]["exchange_number"] == 2
        assert dc.view(s, None)["combat"]["lead"] == "B" and s["phase"] == "awaiting_combat_draw"
        s = act(s, "B", "draw_until_decided")
        assert s["combat"]["pending_rewards"] == ["B"]

    def test_not_outside_the_fight_and_it_takes_no_parameters(self):
        s = started_game([("P", "tank")], deck=["3C"])
        refused(dc, s, "P", {"type": "draw_until_decided"}, match="drawing for a fight")
        refused(dc, s, "P", {"type": "draw_until_decided", "times": 3}, error=InvalidAction)
