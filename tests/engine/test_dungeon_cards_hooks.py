"""Dungeon Cards' hooks for the web layer: the public path of every move (for the animation)
and the server's ``absent`` action (presence), with the rules they must not bend."""

from __future__ import annotations

import pytest

from rules_engine import IllegalAction, InvalidAction
from rules_engine.games import dungeon_cards as dc
from rules_engine.games.dungeon_cards.testing import act, given, where


def moves(state, seat=None):
    return [e["move"] for e in dc.view(state, seat)["log"] if "move" in e]


class TestMovePayload:
    def test_a_card_move_carries_its_path_direction_distance_and_card(self):
        s = given([("P", "swordsman")], deck=["3C", "7C"])
        s = act(s, "P", "draw_card")
        (move,) = moves(s, "P")
        assert move == {"who": "P", "from": [5, 1], "path": [[6, 1], [7, 1], [8, 1]], "direction": "right",
                        "distance": 3, "bounced": False, "redirects": [], "card": "3C", "dash": False}
        s = act(s, "P", "draw_card")  # 7C: blocked by the edge after two steps
        assert moves(s, None)[-1]["path"] == [[9, 1], [10, 1]]

    def test_the_ninjas_bounce_is_flagged_and_the_path_doubles_back(self):
        s = given([("N", "ninja")], deck=["7C"])
        s = act(s, "N", "draw_card")
        move = moves(s)[-1]
        assert move["bounced"] is True
        assert move["path"] == [[6, 1], [7, 1], [8, 1], [9, 1], [10, 1], [9, 1], [8, 1]]
        assert where(s, "N") == [8, 1]

    def test_redirects_entered_are_listed(self):
        # S15: the / at (5,3) turns Up into Right.
        s = given([("P", "swordsman")], deck=["4D"], redirects=[{"square": [5, 3], "kind": "/"}])
        s = act(s, "P", "draw_card")
        move = moves(s)[-1]
        assert move["path"] == [[5, 2], [5, 3], [6, 3], [7, 3]] and move["redirects"] == [[5, 3]]

    def test_a_move_blocked_at_once_has_an_empty_path(self):
        s = given([("P", "swordsman")], deck=["2S"])
        s = act(s, "P", "draw_card")
        assert moves(s)[-1]["path"] == [] and moves(s)[-1]["from"] == [5, 1]

    def test_the_athletes_dash_is_a_move_marked_as_a_dash(self):
        # S11's shape: a Jack beaten, then the dash card 3D and dash(up).
        deck = ["JD", "2C", "9D", "3S", "8H", "4C", "10S", "3D"]
        s = given([("A", "athlete")], deck=deck, exits=((5, 4),))
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
        s = given([("A", "rogue"), ("B", "tank")], deck=deck, turn_mode="three_card_hand")
        s = act(s, "A", "draw_card")
        s = act(s, "A", "play_card", card="2D")
        for seat in ("A", "B", None):
            assert moves(s, seat)[-1]["card"] == "2D"
        assert any("You draw" in e["text"] for e in dc.view(s, "A")["log"])
        assert not any("You draw" in e["text"] for e in dc.view(s, "B")["log"])

    def test_payload_survives_dump_and_load(self):
        s = given([("P", "swordsman")], deck=["3C"])
        s = act(s, "P", "draw_card")
        assert moves(dc.load(dc.dump(s))) == moves(s)


class TestAbsent:
    def test_hooks_are_declared_and_there_is_no_turn_clock(self):
        assert dc.absence_action == {"type": "absent"}
        assert "absent" in dc.server_actions
        assert not hasattr(dc, "turn_clock")  # the rules give turns no time limit
        assert not hasattr(dc, "join_action")  # newcomers join in the lobby only

    def test_a_solo_game_waits_for_its_player(self):
        s = given([("P", "swordsman")], deck=["3C"])
        before = dc.dump(s)
        with pytest.raises(IllegalAction, match="solo"):
            dc.apply(s, "P", dc.absence_action)
        assert dc.dump(s) == before

    def test_an_absent_party_member_leaves_and_the_others_play_on(self):
        s = given([("A", "ninja"), ("B", "tank"), ("C", "rogue")], deck=["3C", "2D"])
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
        s = given([("A", "swordsman"), ("B", "tank")], deck=deck)
        s = act(s, "A", "draw_card")
        assert s["phase"] == "awaiting_join"
        s = dc.apply(s, "B", dc.absence_action)
        assert s["phase"] == "awaiting_combat_draw" and s["combat"]["fighters"] == ["A"]

    def test_absent_is_refused_when_it_cannot_apply(self):
        s = given([("A", "ninja"), ("B", "tank")], deck=["3C"])
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
        s = given([("A", "ninja"), ("B", "tank")], deck=["3C"])
        for seat in ("A", "B"):
            assert all(a["type"] != "absent" for a in dc.legal_actions(s, seat))

    def test_absent_in_the_engine_lobby_drops_the_player(self):
        s = dc.new_game(3, ["A", "B"], {})
        s = dc.apply(s, "B", dc.absence_action)
        assert s["players"] == ["A"]
