"""Dungeon Cards' hooks for the web layer: the public path of every move (for the animation),
the server's ``absent`` action (presence), the party's turn clock and its ``timeout`` defaults,
and the waiting room's class check, with the rules they must not bend."""

from __future__ import annotations

import pytest

from rules_engine import IllegalAction, InvalidAction
from rules_engine.games import dungeon_cards as dc
from rules_engine.games.dungeon_cards import clock
from tests.helpers.dungeon_cards import act, started_game, stats, where
from tests.helpers.engine import refused


def moves(state, seat=None):
    return [e["move"] for e in dc.view(state, seat)["log"] if "move" in e]


class TestMovePayload:
    def test_a_card_move_carries_its_path_direction_distance_and_card(self):
        s = started_game([("P", "swordsman")], deck=["3C", "7C"])
        s = act(s, "P", "draw_card")
        (move,) = moves(s, "P")
        assert move == {
            "who": "P",
            "from": [5, 1],
            "path": [[6, 1], [7, 1], [8, 1]],
            "direction": "right",
            "distance": 3,
            "bounced": False,
            "redirects": [],
            "card": "3C",
            "dash": False,
        }
        s = act(s, "P", "draw_card")  # 7C: blocked by the edge after two steps
        assert moves(s, None)[-1]["path"] == [[9, 1], [10, 1]]

    def test_the_ninjas_bounce_is_flagged_and_the_path_doubles_back(self):
        s = started_game([("N", "ninja")], deck=["7C"])
        s = act(s, "N", "draw_card")
        move = moves(s)[-1]
        assert move["bounced"] is True
        assert move["path"] == [[6, 1], [7, 1], [8, 1], [9, 1], [10, 1], [9, 1], [8, 1]]
        assert where(s, "N") == [8, 1]

    def test_redirects_entered_are_listed(self):
        # S15: the / at (5,3) turns Up into Right.
        s = started_game([("P", "swordsman")], deck=["4D"], redirects=[{"square": [5, 3], "kind": "/"}])
        s = act(s, "P", "draw_card")
        move = moves(s)[-1]
        assert move["path"] == [[5, 2], [5, 3], [6, 3], [7, 3]] and move["redirects"] == [[5, 3]]

    def test_a_move_blocked_at_once_has_an_empty_path(self):
        s = started_game([("P", "swordsman")], deck=["2S"])
        s = act(s, "P", "draw_card")
        assert moves(s)[-1]["path"] == [] and moves(s)[-1]["from"] == [5, 1]

    def test_the_athletes_dash_is_a_move_marked_as_a_dash(self):
        # S11's shape: a Jack beaten, then the dash card 3D and dash(up).
        deck = ["JD", "2C", "9D", "3S", "8H", "4C", "10S", "3D"]
        s = started_game([("A", "athlete")], deck=deck, exits=((5, 4),))
        s = act(s, "A", "draw_card")
        for _ in range(3):
            s = act(s, "A", "combat_draw")
        s = act(s, "A", "choose_stat", stat="speed")
        assert s["phase"] == "awaiting_dash"
        s = act(s, "A", "dash", direction="up")
        move = moves(s)[-1]
        assert move["dash"] is True and move["card"] == "3D" and move["distance"] == 3
        assert move["path"] == [[5, 2], [5, 3], [5, 4]]

    def test_private_hand_draws_stay_private_and_moves_are_public(self):
        deck = ["5C", "2D", "9S", "3H", "4D", "6H", "7C"]
        s = started_game([("A", "rogue"), ("B", "tank")], deck=deck, turn_mode="three_card_hand")
        s = act(s, "A", "draw_card")
        s = act(s, "A", "play_card", card="2D")
        for seat in ("A", "B", None):
            assert moves(s, seat)[-1]["card"] == "2D"
        assert any("You draw" in e["text"] for e in dc.view(s, "A")["log"])
        assert not any("You draw" in e["text"] for e in dc.view(s, "B")["log"])

    def test_payload_survives_dump_and_load(self):
        s = started_game([("P", "swordsman")], deck=["3C"])
        s = act(s, "P", "draw_card")
        assert moves(dc.load(dc.dump(s))) == moves(s)


class TestAbsent:
    def test_the_server_actions_are_absent_and_timeout(self):
        assert dc.absence_action == {"type": "absent"} and dc.timeout_action == {"type": "timeout"}
        assert set(dc.server_actions) == {"absent", "timeout"}
        assert not hasattr(dc, "join_action")  # newcomers join in the lobby only

    def test_a_solo_game_waits_for_its_player(self):
        s = started_game([("P", "swordsman")], deck=["3C"])
        before = dc.dump(s)
        with pytest.raises(IllegalAction, match="solo"):
            dc.apply(s, "P", dc.absence_action)
        assert dc.dump(s) == before

    def test_an_absent_party_member_leaves_and_the_others_play_on(self):
        s = started_game([("A", "ninja"), ("B", "tank"), ("C", "rogue")], deck=["3C", "2D"])
        s = dc.apply(s, "A", dc.absence_action)  # the current character: play moves on
        assert dc.view(s, None)["characters"][0]["status"] == "left"
        assert s["turn"]["current"] == "B" and s["status"] == "playing"
        assert any("A has lost the connection" in e["text"] for e in s["log"])
        s = dc.apply(s, "C", dc.absence_action)  # not the current one
        assert s["turn"]["current"] == "B"
        s = act(s, "B", "draw_card")
        assert where(s, "B") == [8, 1]

    def test_absent_during_a_join_decision_counts_as_declining(self):
        deck = ["JH", "2C", "9D", "3S", "7H", "4D", "8S"]
        s = started_game([("A", "swordsman"), ("B", "tank")], deck=deck)
        s = act(s, "A", "draw_card")
        assert s["phase"] == "awaiting_join"
        s = dc.apply(s, "B", dc.absence_action)
        assert s["phase"] == "awaiting_combat_draw" and s["combat"]["fighters"] == ["A"]

    def test_absent_is_refused_when_it_cannot_apply(self):
        s = started_game([("A", "ninja"), ("B", "tank")], deck=["3C"])
        with pytest.raises(InvalidAction):
            dc.apply(s, "A", {"type": "absent", "now": True})
        with pytest.raises(IllegalAction):
            dc.apply(s, "Z", dc.absence_action)
        s = dc.apply(s, "A", dc.absence_action)
        with pytest.raises(IllegalAction):  # already gone
            dc.apply(s, "A", dc.absence_action)
        s = dc.apply(s, "B", dc.absence_action)
        assert s["status"] == "finished"
        with pytest.raises(IllegalAction, match="over"):
            dc.apply(s, "B", dc.absence_action)

    def test_absent_is_never_a_legal_action_for_players(self):
        s = started_game([("A", "ninja"), ("B", "tank")], deck=["3C"])
        for seat in ("A", "B"):
            assert all(a["type"] != "absent" for a in dc.legal_actions(s, seat))

    def test_absent_in_the_engine_lobby_drops_the_player(self):
        s = dc.new_game(3, ["A", "B"], {})
        s = dc.apply(s, "B", dc.absence_action)
        assert s["players"] == ["A"]


def timed_out(s, seat=None):
    """The server's timeout, sent as the clock's seat; the input state is left as it was."""
    before = dc.dump(s)
    new = dc.apply(s, seat or dc.turn_clock(s)["seat"], dc.timeout_action)
    assert dc.dump(s) == before
    return new


class TestTurnClock:
    def test_a_party_decision_is_timed_by_the_option_and_the_default_is_90_seconds(self):
        s = started_game([("A", "ninja"), ("B", "tank")], deck=["3C", "2D"])
        assert dc.turn_clock(s) == {"seat": "A", "number": "1.turn", "seconds": 90}
        s = started_game([("A", "ninja"), ("B", "tank")], deck=["3C", "2D"], turn_seconds=30)
        assert dc.turn_clock(s)["seconds"] == 30
        s = act(s, "A", "draw_card")
        assert dc.turn_clock(s) == {"seat": "B", "number": "2.turn", "seconds": 30}

    @pytest.mark.parametrize("seconds", [29, 301, -1, "90", 90.0, True, None])
    def test_the_time_limit_is_no_limit_or_30_to_300_seconds(self, seconds):
        with pytest.raises(InvalidAction, match="turn_seconds"):
            dc.new_game(1, ["A", "B"], {"turn_seconds": seconds})
        for fine in (0, 30, 300):
            assert dc.new_game(1, ["A", "B"], {"turn_seconds": fine})["options"]["turn_seconds"] == fine

    def test_solo_games_the_lobby_and_finished_games_are_never_timed(self):
        solo = started_game([("P", "swordsman")], deck=["3C"])
        assert dc.turn_clock(solo) is None
        refused(dc, solo, "P", dc.timeout_action, match="timed")
        lobby = dc.new_game(1, ["A", "B"], {})
        assert lobby["status"] == "lobby" and dc.turn_clock(lobby) is None
        refused(dc, lobby, "A", dc.timeout_action, match="timed")
        setup = dc.new_game(1, ["A", "B"], {"classes": {"A": "ninja", "B": "tank"}, "marker_placement": "manual"})
        assert setup["phase"] == "placing_markers" and dc.turn_clock(setup) is None
        over = started_game([("A", "ninja"), ("B", "tank")], deck=["7D"])  # up 7 onto the Exit: a team victory
        over = act(over, "A", "draw_card")
        assert over["status"] == "finished" and dc.turn_clock(over) is None
        refused(dc, over, "A", dc.timeout_action, match="over")

    def test_no_limit_keeps_the_clock_but_never_times_out(self):
        s = started_game([("A", "ninja"), ("B", "tank")], deck=["3C"], turn_seconds=0)
        assert dc.turn_clock(s)["seconds"] == 0
        refused(dc, s, "A", dc.timeout_action, match="no time limit")

    def test_only_the_clocks_seat_times_out_and_players_are_never_offered_it(self):
        s = started_game([("A", "mage"), ("B", "tank")], deck=["3C"])
        refused(dc, s, "B", dc.timeout_action, match="whose turn")
        refused(dc, s, "Z", dc.timeout_action)
        refused(dc, s, "A", {"type": "timeout", "seconds": 0}, InvalidAction)
        for seat in ("A", "B"):
            assert all(a["type"] not in dc.server_actions for a in dc.legal_actions(s, seat))

    def test_a_timed_out_turn_is_the_basic_draw_even_for_the_mage(self):
        s = started_game([("A", "mage"), ("B", "tank")], deck=["3C", "2D"])
        s = timed_out(s)
        assert where(s, "A") == [8, 1] and s["last_spell"] is None and s["discard"] == ["3C"]
        assert s["turn"]["current"] == "B"
        assert [e["text"] for e in s["log"] if e["event"] == "timed_out"] == [
            "Time is up for A: the default choice is made."
        ]

    def test_one_clock_for_the_join_decisions_and_the_ones_still_owed_stay_out(self):
        deck = ["JH", "2C", "9D", "8D", "3S", "7H", "8S"]
        s = started_game([("A", "swordsman"), ("B", "tank"), ("C", "rogue")], deck=deck)
        s = act(s, "A", "draw_card")
        clock_before = dc.turn_clock(s)
        assert clock_before == {"seat": "A", "number": "1.join.0", "seconds": 90}
        s = act(s, "B", "join_combat", join=True)
        assert dc.turn_clock(s) == clock_before  # the group's clock does not restart
        refused(dc, s, "B", dc.timeout_action, match="whose turn")
        s = timed_out(s)
        assert s["combat"]["join_answers"] == {"B": True, "C": False}
        assert s["combat"]["fighters"] == ["A", "B"] and s["phase"] == "awaiting_combat_draw"
        assert dc.turn_clock(s)["number"] == "1.draw.1"

    def test_the_draw_signal_and_a_helpers_critical_hit_default_to_a_plain_draw(self):
        deck = ["JH", "2C", "9D", "8D", "3S", "7H", "8S"]
        s = started_game([("A", "swordsman"), ("B", "rogue")], deck=deck)
        s = act(s, "A", "draw_card")
        s = act(s, "B", "join_combat", join=True)
        assert {a["seat"]: a["actions"] for a in dc.view(s, None)["awaiting"]} == {
            "A": ["combat_draw"],
            "B": ["critical_hit"],
        }
        s = timed_out(s)
        c = s["combat"]
        assert c["exchange_number"] == 2 and not c["crit_used"] and c["last_exchange"]["crit_cards"] == []
        assert c["last_exchange"]["fighter_cards"] == {"A": ["9D"], "B": ["8D"]} and c["boss_lives"] == 1

    def test_every_reward_still_owed_is_lives_and_the_athletes_dash_is_declined(self):
        deck = ["JH", "2C", "9D", "8D", "3S", "7H", "8S", "4C"]
        s = started_game([("A", "swordsman"), ("B", "athlete")], deck=deck)
        s = act(s, "A", "draw_card")
        s = act(s, "B", "join_combat", join=True)
        s = act(s, "A", "combat_draw")
        s = act(s, "A", "combat_draw")
        assert s["phase"] == "awaiting_reward" and s["combat"]["pending_rewards"] == ["A", "B"]
        number = dc.turn_clock(s)["number"]
        s = act(s, "A", "choose_stat", stat="speed")
        assert dc.turn_clock(s)["number"] == number
        s = timed_out(s)
        assert stats(s, "A") == (2, 10, 10, 1) and stats(s, "B") == (2, 11, 11, 0)
        assert s["phase"] == "awaiting_dash" and s["combat"]["dash"] == {"athlete": "B", "card": "4C"}
        assert dc.turn_clock(s)["seat"] == "A"  # still the challenger's turn
        s = timed_out(s)
        assert where(s, "B") == [5, 1] and s["discard"][-1] == "4C"
        assert s["combat"] is None and s["turn"]["current"] == "B"

    def test_fortune_telling_keeps_the_drawn_card(self):
        s = started_game([("M", "mage"), ("X", "tank")], deck=["9H", "4D"])
        s = act(s, "M", "cast_spell", spell="fortune_telling")
        s = act(s, "X", "draw_card")
        assert s["phase"] == "awaiting_fortune"
        s = timed_out(s)
        assert where(s, "X") == [1, 1] and "4D" in s["deck"][:1]  # moved left 9 (to the edge) with 9H

    def test_hand_mode_plays_the_oldest_card_and_discards_the_newest(self):
        deck = ["2C", "3C", "4C", "5D", "6D", "7D", "8S", "AH"]
        s = started_game([("M", "mage"), ("X", "rogue")], deck=deck, turn_mode="three_card_hand")
        s = act(s, "M", "cast_spell", spell="good_luck")
        s = act(s, "X", "draw_card")
        assert s["characters"][1]["hand"] == ["5D", "6D", "7D", "8S", "AH"] and s["phase"] == "awaiting_play"
        s = timed_out(s)
        assert where(s, "X") == [5, 6] and s["phase"] == "awaiting_hand_discard"
        s = timed_out(s)
        assert s["characters"][1]["hand"] == ["6D", "7D", "8S"] and s["discard"][-1] == "AH"
        assert s["turn"]["current"] == "M"

    def test_the_default_of_every_awaited_seat_is_one_of_its_legal_actions(self):
        deck = ["JH", "2C", "9D", "8D", "3S", "7H", "8S", "4C"]
        s = started_game([("A", "rogue"), ("B", "athlete"), ("C", "mage")], deck=deck)
        for step in [
            ("A", "draw_card", {}),
            ("B", "join_combat", {"join": True}),
            ("C", "join_combat", {"join": True}),
            ("A", "combat_draw", {"critical_hit": False}),
        ]:
            for entry in dc.view(s, None)["awaiting"]:
                assert clock.default_action(s, entry["seat"]) in dc.legal_actions(s, entry["seat"])
            s = act(s, step[0], step[1], **step[2])


class TestLobbyChoices:
    def test_mage_and_healer_need_a_second_player_at_the_table(self):
        assert dc.lobby_choice_problem("classes", "mage", 1) == "the Mage can only be chosen in a party of 2 or more"
        assert dc.lobby_choice_problem("classes", "healer", 1)
        assert dc.lobby_choice_problem("classes", "healer", 2) is None
        assert dc.lobby_choice_problem("classes", "tank", 1) is None
        assert dc.lobby_choice_problem("colour", "mage", 1) is None
