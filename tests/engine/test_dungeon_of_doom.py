"""The Dungeon of Doom engine: acceptance scenarios S1–S21 of the rules file and the rulings.

Maps and scenarios are those of ``docs/rules/dungeon-of-doom.md`` section 11.
"""

from __future__ import annotations

import json
import random

import pytest

import rules_engine
from rules_engine import IllegalAction, InvalidAction
from tests.helpers.engine import refused

dod = rules_engine.get("dungeon-of-doom")
parse_map = dod.parse_map

LANTERN_GALLERY = """name Lantern Gallery
win 1
###########
#G...#...E#
#.#.....#.#
#...H.S...#
#.#.#.#.#.#
#...L.A...#
#.#.#.#.#.#
#.........#
#.#..G..#.#
#.........#
###########
"""
DUELLING_HALL = """name Duelling Hall
win 2
#######
#G.H.E#
#.S.A.#
#G...L#
#######
"""
QUICK_ESCAPE = "name Quick Escape\nwin 1\n#####\n#G.E#\n#...#\n#####\n"
ARMOURY = "name Armoury\nwin 1\n#######\n#SS.G.#\n#...#E#\n#######\n"
OPEN_DOOR = "name Open Door\nwin 0\n#####\n#E..#\n#####\n"
LEDGE = "name Ledge\nwin 0\nE.."
SUNKEN_VAULT = """name The Sunken Vault
win 3
############
#..G...#..E#
#.##.S.#.#.#
#.H#...G.#.#
#..#.##..L.#
#A...G..#G.#
############
"""


# --- helpers -------------------------------------------------------------------------------------


def game(text: str, starts: dict, *, players=None, dice=None, seed=1, **options):
    """A game on ``text`` with forced start positions; players default to the keys of ``starts``."""
    opts = {"map": text, "start_positions": {k: list(v) for k, v in starts.items()}, **options}
    if dice is not None:
        opts["dice"] = dice
    return dod.new_game(seed, list(players if players is not None else starts), opts)


def act(state, seat, kind, direction=None):
    action = {"type": kind}
    if direction is not None:
        action["dir"] = direction
    assert action in dod.legal_actions(state, seat) or kind in ("timeout", "drop")
    before = dod.dump(state)
    after = dod.apply(state, seat, action)
    assert dod.dump(state) == before, "apply mutated its input"
    return after


def run(state, *steps):
    """Apply ``(seat, type[, dir])`` steps in order."""
    for step in steps:
        state = act(state, *step)
    return state


def illegal(state, seat, action, match=None):
    refused(dod, state, seat, action, match=match)
    assert action not in dod.legal_actions(state, seat)


def player(state, seat):
    return next(p for p in state["players"] if p["seat"] == seat)


def ap(state, seat):
    return player(state, seat)["ap"]


def turn(state):
    return (state["turn"]["number"], state["turn"]["seat"])


def item_at(state, pos):
    return next(
        ({"kind": i["kind"], "amount": i["amount"]} for i in state["map"]["items"] if i["pos"] == list(pos)),
        None,
    )


def events(state, seat, kind=None):
    return [e for e in dod.view(state, seat)["events"] if kind is None or e["type"] == kind]


def new_events(before, after, seat, kind=None):
    """Events ``seat`` receives from the actions between ``before`` and ``after``."""
    step = before["step"]
    return [e for e in events(after, seat, kind) if e["seq"] > step]


def cells(view):
    return {tuple(c["pos"]) for c in view["visible"]}


# --- S1, S2: map files --------------------------------------------------------------------------


class TestMapLoading:
    def test_s1_loading_a_map(self):
        dungeon = parse_map(SUNKEN_VAULT)
        assert (dungeon.name, dungeon.target, dungeon.width, dungeon.height) == ("The Sunken Vault", 3, 12, 7)
        gold = sorted(i.pos for i in dungeon.items if i.kind == "gold")
        assert gold == [(1, 3), (3, 7), (5, 5), (5, 9)]
        assert dungeon.exits == [(1, 10)]
        kinds = {i.kind: i.pos for i in dungeon.items if i.kind != "gold"}
        assert kinds == {"sword": (2, 5), "potion": (3, 2), "lantern": (4, 9), "armour": (5, 1)}
        variants = [
            SUNKEN_VAULT.replace("\n", "\r\n"),
            SUNKEN_VAULT.rstrip("\n"),
            SUNKEN_VAULT + "\n\n",
            "\ufeff" + SUNKEN_VAULT,
            ("\ufeff" + SUNKEN_VAULT).encode("utf-8"),
        ]
        for text in variants:
            assert parse_map(text) == dungeon
        ledge = parse_map("name Ledge\nwin 0\nE..")
        assert (ledge.width, ledge.height, ledge.target, ledge.exits) == (3, 1, 0, [(0, 0)])

    @pytest.mark.parametrize(
        ("text", "where"),
        [
            ("name Short\nwin 0\n###\n#E\n###\n", "line 4: "),
            ("name Zed\nwin 0\n###\n#EZ\n###\n", "line 4, column 3: "),
            ("name Half\nwin 1.5\n#E#\n", "line 2: "),
            ("name Poor\nwin 2\n#GE#\n", "line 2: "),
            ("name Closed\nwin 0\n###\n#.#\n###\n", "lines 3-5: "),
            ("Name Bad\nwin 0\n#E#\n", "line 1: "),
            ("name Headless\nwin 0\n", "line 3: "),
        ],
    )
    def test_s2_rejecting_a_map(self, text, where):
        with pytest.raises(dod.MapError) as caught:
            parse_map(text)
        assert str(caught.value).startswith(where)
        with pytest.raises(InvalidAction, match=where):
            dod.new_game(1, ["p1"], {"map": text})


# --- S3, S4: vision -----------------------------------------------------------------------------


def gallery_three(**kw):
    return game(LANTERN_GALLERY, {"p1": (5, 5), "p2": (7, 5), "p3": (9, 1)}, **kw)


class TestVision:
    def test_s3_normal_field_seeing_through_walls(self):
        state = gallery_three()
        v1 = dod.view(state, "p1")
        assert v1["look"] == ["XH.SX", ".#.#.", ".L.A.", ".#.#.", "X.P.X"]
        assert len(v1["visible"]) == 21
        assert all(3 <= r <= 7 and 3 <= c <= 7 for r, c in cells(v1))
        by_pos = {tuple(c["pos"]): c for c in v1["visible"]}
        assert by_pos[3, 4]["item"] == {"kind": "potion", "amount": 1}
        assert by_pos[4, 4]["tile"] == "wall"
        assert by_pos[7, 5]["player"] == "p2"
        assert by_pos[5, 5]["player"] == "p1"
        assert "p3" not in json.dumps(v1["visible"])
        assert dod.view(state, "p3")["look"] == ["X#..X", "##.#.", "##...", "#####", "X###X"]

    def test_s4_lantern_sight_at_once_ap_penalty_next_turn(self):
        state = act(gallery_three(), "p1", "move", "W")
        assert player(state, "p1")["pos"] == [5, 4] and ap(state, "p1") == 5
        state = act(state, "p1", "pickup")
        me = dod.view(state, "p1")["me"]
        assert (me["ap"], me["ap_next_turn"], me["kit"], me["vision"]) == (4, 5, ["lantern"], "lantern")
        v1 = dod.view(state, "p1")
        assert v1["look"] == ["XX...XX", "X..H.SX", "X#.#.#X", ".....A.", "X#.#.#X", "X...P.X", "XX..GXX"]
        assert len(v1["visible"]) == 33 and (8, 5) in cells(v1)
        state = run(state, ("p1", "end_turn"), ("p2", "end_turn"), ("p3", "end_turn"))
        assert turn(state) == (4, "p1") and ap(state, "p1") == 5

    def test_lantern_field_is_the_drawing_not_a_diamond(self):
        # Ruling 1: rows of 3, 5, 5, 7, 5, 5, 3.
        state = act(act(gallery_three(), "p1", "move", "W"), "p1", "pickup")
        seen = cells(dod.view(state, "p1"))
        rows = [sum(1 for r, _ in seen if r == row) for row in range(2, 9)]
        assert rows == [3, 5, 5, 7, 5, 5, 3]
        assert (3, 2) in seen and (4, 7) not in seen  # 5x5 corners yes, diamond tips at dr=1 no

    def test_memory_keeps_last_seen_cells_without_players(self):
        state = gallery_three()
        state = run(state, ("p1", "move", "N"), ("p1", "move", "N"), ("p1", "move", "N"))  # p1 at [2,5]
        v1 = dod.view(state, "p1")
        remembered = {tuple(c["pos"]): c for c in v1["memory"]}
        assert remembered[7, 5] == {"pos": [7, 5], "tile": "floor", "item": None}  # p2 not remembered
        assert not cells(v1) & set(remembered)
        assert remembered[5, 4]["item"] == {"kind": "lantern", "amount": 1}
        # p2 takes the remembered lantern out of p1's sight: p1's memory keeps the old picture.
        state = run(
            state, ("p1", "end_turn"), ("p2", "move", "N"), ("p2", "move", "N"), ("p2", "move", "W"), ("p2", "pickup")
        )
        assert item_at(state, (5, 4)) is None
        remembered = {tuple(c["pos"]): c for c in dod.view(state, "p1")["memory"]}
        assert remembered[5, 4]["item"] == {"kind": "lantern", "amount": 1}
        # Seeing the cell again updates it.
        state = run(state, ("p2", "end_turn"), ("p3", "end_turn"), ("p1", "move", "S"))
        v1 = dod.view(state, "p1")
        assert {"pos": [5, 4], "tile": "floor", "item": None, "player": "p2"} in v1["visible"]
        state = act(state, "p1", "move", "N")
        remembered = {tuple(c["pos"]): c for c in dod.view(state, "p1")["memory"]}
        assert remembered[5, 4]["item"] is None


# --- S5–S7: action points and legality ----------------------------------------------------------


class TestActionPoints:
    def test_s5_two_kit_items(self):
        state = game(DUELLING_HALL, {"p1": (2, 1), "p2": (3, 4)})
        state = act(state, "p1", "move", "E")
        assert player(state, "p1")["pos"] == [2, 2] and ap(state, "p1") == 5
        state = act(state, "p1", "pickup")
        assert ap(state, "p1") == 4 and player(state, "p1")["kit"] == ["sword"]
        state = run(state, ("p1", "move", "E"), ("p1", "move", "E"))
        assert player(state, "p1")["pos"] == [2, 4] and ap(state, "p1") == 2
        state = act(state, "p1", "pickup")
        assert ap(state, "p1") == 1 and player(state, "p1")["kit"] == ["armour", "sword"]
        illegal(state, "p1", {"type": "move", "dir": "S"}, match="p2 is standing there")
        state = act(state, "p1", "move", "N")
        assert player(state, "p1")["pos"] == [1, 4] and ap(state, "p1") is None
        assert turn(state) == (2, "p2")
        state = act(state, "p2", "end_turn")
        assert turn(state) == (3, "p1") and ap(state, "p1") == 4

    def test_s6_potion_with_the_last_ap(self):
        state = game(DUELLING_HALL, {"p1": (1, 2), "p2": (3, 3)})
        state = run(state, *[("p1", "move", d) for d in "WEWE"])
        assert player(state, "p1")["pos"] == [1, 2] and ap(state, "p1") == 2
        state = act(state, "p1", "move", "E")
        assert ap(state, "p1") == 1
        after = act(state, "p1", "pickup")
        assert player(after, "p1")["hp"] == 4
        assert item_at(after, (1, 3)) is None
        assert turn(after) == (2, "p2")
        assert new_events(state, after, "p1", "picked_up")[0]["ap"] == 0
        assert new_events(state, after, "p1", "hp_changed")[0] | {"text": ""} == {
            "seq": after["step"],
            "type": "hp_changed",
            "delta": 1,
            "hp": 4,
            "text": "",
        }

    def test_s7_illegal_actions_change_nothing(self):
        state = game(ARMOURY, {"p1": (1, 1), "p2": (2, 3)})
        state = act(state, "p1", "pickup")
        assert ap(state, "p1") == 5
        state = act(state, "p1", "move", "E")
        assert player(state, "p1")["pos"] == [1, 2] and ap(state, "p1") == 4
        illegal(state, "p1", {"type": "pickup"}, match="already carry a sword")
        illegal(state, "p1", {"type": "move", "dir": "N"}, match="wall")
        illegal(state, "p2", {"type": "move", "dir": "W"}, match="not your turn")
        assert ap(state, "p1") == 4
        state = act(state, "p1", "move", "S")
        assert player(state, "p1")["pos"] == [2, 2] and ap(state, "p1") == 3
        illegal(state, "p1", {"type": "move", "dir": "E"}, match="p2")
        illegal(state, "p1", {"type": "attack", "dir": "W"}, match="nobody")
        illegal(state, "p1", {"type": "pickup"}, match="nothing here")
        legal = dod.legal_actions(state, "p1")
        assert {"type": "attack", "dir": "E"} in legal and {"type": "attack", "dir": "W"} not in legal
        assert ap(state, "p1") == 3

        ledge = game(LEDGE, {"p1": (0, 2)})
        for direction in "ENS":
            illegal(ledge, "p1", {"type": "move", "dir": direction}, match="edge of the map")
        assert dod.view(ledge, "p1")["look"] == ["X###X", "#####", "E..##", "#####", "X###X"]

    def test_kit_counts_from_the_next_turn_for_every_kind(self):
        state = game(ARMOURY, {"p1": (1, 1)})
        state = act(state, "p1", "pickup")
        assert ap(state, "p1") == 5
        state = act(state, "p1", "end_turn")
        assert turn(state) == (2, "p1") and ap(state, "p1") == 5

    def test_attack_into_a_wall_or_off_the_map_is_not_allowed(self):
        state = game(LEDGE, {"p1": (0, 1)})
        illegal(state, "p1", {"type": "attack", "dir": "N"}, match="nobody")  # off the map
        state = game(DUELLING_HALL, {"p1": (1, 1), "p2": (3, 5)})
        illegal(state, "p1", {"type": "attack", "dir": "W"}, match="nobody")  # a wall

    def test_an_illegal_action_costs_nothing_and_a_turn_continues(self):
        state = game(DUELLING_HALL, {"p1": (1, 1), "p2": (3, 5)})
        illegal(state, "p1", {"type": "move", "dir": "N"})
        assert ap(state, "p1") == 6 and turn(state) == (1, "p1")


class TestMalformedActions:
    @pytest.mark.parametrize(
        "action",
        [
            None,
            "move",
            {},
            {"type": "fly"},
            {"type": 3},
            {"type": "move"},
            {"type": "move", "dir": "NE"},
            {"type": "move", "dir": "n"},
            {"type": "attack", "dir": 1},
            {"type": "pickup", "what": "gold"},
            {"type": "end_turn", "dir": "N"},
            {"type": "look"},  # ruling 35: looking is not an action
        ],
    )
    def test_malformed_actions_raise_invalid_action(self, action):
        state = gallery_three()
        before = dod.dump(state)
        with pytest.raises(InvalidAction):
            dod.apply(state, "p1", action)
        assert dod.dump(state) == before

    def test_a_seat_that_is_not_a_string_is_malformed(self):
        with pytest.raises(InvalidAction):
            dod.apply(gallery_three(), 1, {"type": "end_turn"})

    def test_an_outsider_cannot_act(self):
        illegal(gallery_three(), "p9", {"type": "end_turn"}, match="not playing")


# --- S8–S13: combat and death -------------------------------------------------------------------


class TestCombat:
    def test_s8_unarmed_hit(self):
        before = game(DUELLING_HALL, {"p1": (2, 3), "p2": (1, 3)}, dice=[3])
        after = act(before, "p1", "attack", "N")
        assert player(after, "p2")["hp"] == 2
        assert item_at(after, (1, 3)) == {"kind": "potion", "amount": 1}  # p2 stands on it; it stays
        assert turn(after) == (2, "p2") and ap(after, "p2") == 6 and ap(after, "p1") is None
        (to_p2,) = new_events(before, after, "p2", "attack")
        assert {k: to_p2[k] for k in ("attacker", "target", "dir", "hit", "damage", "hp")} == {
            "attacker": "p1",
            "target": "p2",
            "dir": "N",
            "hit": True,
            "damage": 1,
            "hp": 2,
        }
        (hp,) = new_events(before, after, "p2", "hp_changed")
        assert (hp["delta"], hp["hp"]) == (-1, 2)
        (to_p1,) = new_events(before, after, "p1", "attack")
        assert (to_p1["hit"], to_p1["damage"]) == (True, 1) and "hp" not in to_p1
        assert new_events(before, after, "p1", "hp_changed") == []
        assert after["dice_used"] == 1

    def test_s9_miss(self):
        state = game(DUELLING_HALL, {"p1": (2, 3), "p2": (1, 3)}, dice=[4])
        after = act(state, "p1", "attack", "N")
        assert player(after, "p2")["hp"] == 3
        assert turn(after) == (2, "p2")
        (to_p1,) = new_events(state, after, "p1", "attack")
        assert (to_p1["hit"], to_p1["damage"]) == (False, 0)
        assert new_events(state, after, "p2", "hp_changed") == []

    def test_s10_armour_and_sword(self):
        state = game(DUELLING_HALL, {"p1": (2, 2), "p2": (2, 3)}, dice=[1, 2])
        state = act(state, "p1", "end_turn")
        state = act(state, "p2", "move", "E")
        assert ap(state, "p2") == 5
        state = act(state, "p2", "pickup")
        assert ap(state, "p2") == 4 and player(state, "p2")["kit"] == ["armour"]
        state = act(state, "p2", "move", "W")
        assert ap(state, "p2") == 3 and player(state, "p2")["pos"] == [2, 3]
        state = act(state, "p2", "end_turn")
        before = state
        state = act(state, "p1", "attack", "E")
        (seen,) = new_events(before, state, "p1", "attack")
        assert (seen["hit"], seen["damage"]) == (True, 0)
        assert player(state, "p2")["hp"] == 3 and turn(state) == (4, "p2")
        assert ap(state, "p2") == 5
        state = act(state, "p2", "end_turn")
        state = act(state, "p1", "pickup")
        assert ap(state, "p1") == 5
        state = act(state, "p1", "attack", "E")
        assert player(state, "p2")["hp"] == 2

    def test_s11_death_on_a_potion_tile_with_gold(self):
        state = game(DUELLING_HALL, {"p1": (2, 2), "p2": (1, 1)}, dice=[1, 2])
        state = run(state, ("p1", "pickup"), ("p1", "end_turn"))
        state = act(state, "p2", "pickup")
        assert player(state, "p2")["gold"] == 1
        state = run(state, ("p2", "move", "E"), ("p2", "move", "E"), ("p2", "end_turn"))
        assert item_at(state, (1, 3)) == {"kind": "potion", "amount": 1}  # not drunk
        assert ap(state, "p1") == 5
        state = run(state, ("p1", "move", "E"), ("p1", "attack", "N"))
        assert player(state, "p2")["hp"] == 1
        state = act(state, "p2", "end_turn")
        before = state
        state = act(state, "p1", "attack", "N")
        assert item_at(state, (1, 3)) == {"kind": "gold", "amount": 1}
        p2 = player(state, "p2")
        assert (p2["status"], p2["cause"], p2["pos"], p2["kit"], p2["gold"]) == ("dead", "slain", None, [], 0)
        for seat in ("p1", "p2", None):
            (died,) = new_events(before, state, seat, "died")
            assert (died["seat"], died["cause"]) == ("p2", "slain") and "pos" not in died
        assert turn(state) == (6, "p1") and ap(state, "p1") == 5
        assert dod.view(state, "p1")["look"] == ["X###X", "..G.E", "...A.", "G...L", "X###X"]
        dead = dod.view(state, "p2")
        assert dead["visible"] == dead["look"] == dead["memory"] == []
        assert dead["me"] == {"seat": "p2", "status": "dead"}
        state = run(state, ("p1", "move", "N"), ("p1", "pickup"), ("p1", "move", "E"), ("p1", "move", "E"))
        assert player(state, "p1")["pos"] == [1, 5] and player(state, "p1")["gold"] == 1
        assert dod.result(state) is None

    def test_s12_both_players_attack_death_without_gold(self):
        state = game(DUELLING_HALL, {"p1": (2, 2), "p2": (1, 3)}, dice=[1, 2, 1])
        state = act(state, "p1", "pickup")
        assert ap(state, "p1") == 5
        state = act(state, "p1", "move", "E")
        assert ap(state, "p1") == 4
        state = act(state, "p1", "attack", "N")
        assert player(state, "p2")["hp"] == 1
        state = act(state, "p2", "attack", "S")
        assert player(state, "p1")["hp"] == 2 and turn(state) == (3, "p1")
        assert ap(state, "p1") == 5
        state = act(state, "p1", "attack", "N")
        assert player(state, "p2")["status"] == "dead"
        assert item_at(state, (1, 3)) == {"kind": "potion", "amount": 1}  # ruling 21
        assert turn(state) == (4, "p1")

    def test_s13_gold_merges_a_whole_game_to_the_exit(self):
        state = game(DUELLING_HALL, {"p1": (2, 2), "p2": (1, 1)}, dice=[3, 1])
        state = run(state, ("p1", "pickup"), ("p1", "end_turn"))
        state = run(state, ("p2", "pickup"), ("p2", "move", "S"), ("p2", "move", "S"), ("p2", "end_turn"))
        assert item_at(state, (3, 1)) == {"kind": "gold", "amount": 1}
        state = act(state, "p1", "move", "W")
        assert ap(state, "p1") == 4
        state = act(state, "p1", "attack", "S")
        assert player(state, "p2")["hp"] == 1
        state = run(state, ("p2", "end_turn"), ("p1", "attack", "S"))
        assert player(state, "p2")["status"] == "dead"
        assert item_at(state, (3, 1)) == {"kind": "gold", "amount": 2}
        assert turn(state) == (6, "p1") and ap(state, "p1") == 5
        state = act(state, "p1", "move", "S")
        state = act(state, "p1", "pickup")
        assert player(state, "p1")["gold"] == 2 and ap(state, "p1") == 3
        state = run(state, *[("p1", "move", "E")] * 3)
        assert player(state, "p1")["pos"] == [3, 4] and turn(state) == (7, "p1")
        state = run(state, ("p1", "move", "E"), ("p1", "move", "N"))
        assert item_at(state, (3, 5)) == {"kind": "lantern", "amount": 1}
        assert dod.result(state) is None
        state = act(state, "p1", "move", "N")
        assert dod.result(state) == {
            "winners": ["p1"],
            "scores": {"p1": 2, "p2": 0},
            "reason": "escaped",
            "text": "p1 escaped with the gold!",
        }

    def test_sword_against_no_armour_does_two_damage(self):
        state = game(DUELLING_HALL, {"p1": (2, 2), "p2": (1, 2)}, dice=[1])
        state = run(state, ("p1", "pickup"), ("p1", "attack", "N"))
        assert player(state, "p2")["hp"] == 1

    def test_attack_audiences_onlookers_see_it_without_damage(self):
        state = game(LANTERN_GALLERY, {"p1": (7, 4), "p2": (7, 5), "p3": (9, 3)}, dice=[2])
        after = act(state, "p1", "attack", "E")
        (seen,) = new_events(state, after, "p3", "attack_seen")
        assert seen | {"text": ""} == {
            "seq": 1,
            "type": "attack_seen",
            "attacker": "p1",
            "target": "p2",
            "hit": True,
            "text": "",
        }
        assert new_events(state, after, None, "attack_seen") == []
        far = game(LANTERN_GALLERY, {"p1": (7, 4), "p2": (7, 5), "p3": (1, 1)}, dice=[2])
        assert new_events(far, act(far, "p1", "attack", "E"), "p3", "attack_seen") == []

    def test_random_rolls_come_from_the_seed_after_the_forced_ones(self):
        outcomes = set()
        for seed in range(40):
            state = game(DUELLING_HALL, {"p1": (2, 3), "p2": (1, 3)}, seed=seed)
            after = act(state, "p1", "attack", "N")
            outcomes.add(player(after, "p2")["hp"])
            assert after["dice_used"] == 0
            again = act(game(DUELLING_HALL, {"p1": (2, 3), "p2": (1, 3)}, seed=seed), "p1", "attack", "N")
            assert again == after
        assert outcomes == {2, 3}


class TestDeath:
    def test_death_on_an_exit_drops_gold_there_and_picking_it_up_wins(self):
        # Ruling 20; the win check after a pickup (7.1).
        text = "name Exit Fight\nwin 2\n######\n#GEG.#\n######\n"
        state = game(text, {"p1": (1, 4), "p2": (1, 1)}, dice=[1, 1, 1])
        state = run(state, ("p1", "move", "W"), ("p1", "pickup"), ("p1", "end_turn"))
        state = run(state, ("p2", "pickup"), ("p2", "move", "E"), ("p2", "end_turn"))
        assert player(state, "p2")["pos"] == [1, 2] and dod.result(state) is None  # 1 < 2
        state = run(
            state,
            ("p1", "attack", "W"),
            ("p2", "end_turn"),
            ("p1", "attack", "W"),
            ("p2", "end_turn"),
            ("p1", "attack", "W"),
        )
        assert player(state, "p2")["status"] == "dead"
        assert item_at(state, (1, 2)) == {"kind": "gold", "amount": 1}
        assert state["map"]["terrain"][1][2] == "E"
        assert {"pos": [1, 2], "tile": "exit", "item": {"kind": "gold", "amount": 1}, "player": None} in (
            dod.view(state, "p1")["visible"]
        )
        state = act(state, "p1", "move", "W")
        assert dod.result(state) is None  # on the exit, but only 1 gold
        state = act(state, "p1", "pickup")
        assert dod.result(state) == {
            "winners": ["p1"],
            "scores": {"p1": 2, "p2": 0},
            "reason": "escaped",
            "text": "p1 escaped with the gold!",
        }
        assert dod.view(state, "p1")["final"]["rows"][1] == "#.E..#"

    def test_the_final_terrain_keeps_an_exit_under_dropped_gold(self):
        # final.rows shows the gold (G) on top; final.terrain keeps the exit beneath (ruling 20).
        text = "name Exit Fight\nwin 2\n######\n#GEG.#\n######\n"
        state = game(text, {"p1": (1, 3), "p2": (1, 1)})
        state = run(state, ("p1", "end_turn"), ("p2", "pickup"), ("p2", "move", "E"), ("p2", "leave"), ("p1", "leave"))
        final = dod.view(state, None)["final"]
        assert final["rows"][1] == "#.GG.#" and final["terrain"][1] == "#.E..#"
        assert {"pos": [1, 2], "kind": "gold", "amount": 1} in final["items"]

    def test_kit_is_destroyed_and_gold_replaces_an_item(self):
        state = game(DUELLING_HALL, {"p1": (2, 2), "p2": (3, 5)})
        state = run(state, ("p1", "pickup"), ("p1", "end_turn"), ("p2", "pickup"), ("p2", "leave"))
        assert player(state, "p2")["kit"] == [] and item_at(state, (3, 5)) is None  # lantern gone
        assert state["map"]["items"] and all(i["kind"] != "lantern" for i in state["map"]["items"])

    def test_death_with_gold_destroys_the_kit_item_under_it(self):
        state = game(DUELLING_HALL, {"p1": (1, 1), "p2": (3, 4)})
        state = run(state, ("p1", "pickup"), ("p1", "move", "S"), ("p1", "move", "E"))
        assert player(state, "p1")["pos"] == [2, 2] and item_at(state, (2, 2))["kind"] == "sword"
        state = act(state, "p1", "leave")
        assert item_at(state, (2, 2)) == {"kind": "gold", "amount": 1}  # the sword is gone
        assert turn(state) == (2, "p2")

    def test_last_player_standing_does_not_win(self):
        state = game(DUELLING_HALL, {"p1": (2, 1), "p2": (3, 4)})
        state = act(state, "p1", "leave")
        assert dod.result(state) is None and turn(state) == (2, "p2")
        assert [a["type"] for a in dod.legal_actions(state, "p1")] == []


# --- S14, S15, S20: winning and the end of the game ---------------------------------------------


class TestEndOfGame:
    def test_s14_exit_without_enough_gold_game_over(self):
        state = game(QUICK_ESCAPE, {"p1": (2, 1), "p2": (2, 3)})
        state = run(state, ("p1", "end_turn"), ("p2", "move", "N"))
        assert player(state, "p2")["pos"] == [1, 3] and dod.result(state) is None
        state = run(state, ("p2", "move", "S"), ("p2", "end_turn"), ("p1", "move", "N"))
        assert ap(state, "p1") == 5
        state = act(state, "p1", "pickup")
        assert ap(state, "p1") == 4 and player(state, "p1")["gold"] == 1
        state = act(state, "p1", "move", "E")
        assert ap(state, "p1") == 3
        state = act(state, "p1", "move", "E")
        assert dod.result(state) == {
            "winners": ["p1"],
            "scores": {"p1": 1, "p2": 0},
            "reason": "escaped",
            "text": "p1 escaped with the gold!",
        }
        for seat in ("p1", "p2", None, "p9"):
            v = dod.view(state, seat)
            assert v["result"] == dod.result(state) and v["status"] == "finished" and v["turn"] is None
            final = {p["seat"]: p for p in v["final"]["players"]}
            assert final["p1"]["pos"] == [1, 3] and final["p1"]["gold"] == 1
            assert final["p2"]["pos"] == [2, 3] and final["p2"]["hp"] == 3
            assert v["final"]["rows"] == ["#####", "#..E#", "#...#", "#####"]
        illegal(state, "p2", {"type": "move", "dir": "N"}, match="the game is over")
        for action in ({"type": "leave"}, {"type": "timeout"}, {"type": "drop"}, {"type": "join"}):
            with pytest.raises(IllegalAction, match="the game is over"):
                dod.apply(state, "p2" if action["type"] != "join" else "p3", action)
        assert dod.legal_actions(state, "p1") == dod.legal_actions(state, "p2") == []
        assert dod.legal_actions(state, "p3") == []
        won = [e for e in events(state, None) if e["type"] in ("won", "game_over")]
        assert [e["type"] for e in won] == ["won", "game_over"]

    def test_s15_win_0_starting_on_the_exit_solo(self):
        state = game(OPEN_DOOR, {"p1": (1, 1)})
        assert dod.result(state) is None
        state = act(state, "p1", "move", "E")
        assert ap(state, "p1") == 5 and dod.result(state) is None
        state = act(state, "p1", "move", "W")
        assert dod.result(state) == {
            "winners": ["p1"],
            "scores": {"p1": 0},
            "reason": "escaped",
            "text": "p1 escaped with the gold!",
        }

    def test_s20_everyone_leaves(self):
        state = game(DUELLING_HALL, {"p1": (2, 1), "p2": (3, 4)})
        state = act(state, "p1", "leave")
        assert turn(state) == (2, "p2")
        state = act(state, "p2", "leave")
        assert dod.result(state) == {
            "winners": [],
            "scores": {"p1": 0, "p2": 0},
            "reason": "no_one_left",
            "text": "Nobody escaped.",
        }
        for seat in ("p1", "p2", None):
            final = dod.view(state, seat)["final"]
            assert final["rows"] == parse_map(DUELLING_HALL).to_text().splitlines()[2:]
            assert len(final["items"]) == 6
            assert [p["cause"] for p in final["players"]] == ["left", "left"]

    def test_solo_leave_ends_the_game(self):
        state = act(game(OPEN_DOOR, {"p1": (1, 2)}), "p1", "leave")
        assert dod.result(state)["reason"] == "no_one_left" and state["turn"] is None


# --- S16–S18: joins, presence and time ----------------------------------------------------------


class TestPresence:
    def test_s16_joining_mid_game(self):
        state = game(LANTERN_GALLERY, {"p1": (5, 5), "p2": (7, 5), "p3": (9, 1)}, players=["p1", "p2"])
        state = act(state, "p1", "move", "N")
        assert ap(state, "p1") == 5
        assert dod.legal_actions(state, "p3") == [{"type": "join"}]
        before = state
        state = act(state, "p3", "join")
        assert [p["seat"] for p in state["players"]] == ["p1", "p2", "p3"]
        p3 = player(state, "p3")
        assert (p3["pos"], p3["hp"], p3["ap"], p3["status"]) == ([9, 1], 3, None, "alive")
        assert ap(state, "p1") == 5 and turn(state) == (1, "p1")
        for seat in ("p1", "p2", "p3", None):
            (joined,) = new_events(before, state, seat, "joined")
            assert joined["seat"] == "p3"
            assert new_events(before, state, seat, "came_into_view") == []
        state = run(state, ("p1", "end_turn"), ("p2", "end_turn"))
        assert turn(state) == (3, "p3") and ap(state, "p3") == 6
        state = act(state, "p3", "end_turn")
        assert turn(state) == (4, "p1")

    def test_join_is_refused_when_the_table_is_full_or_the_seat_is_known(self):
        state = game(LANTERN_GALLERY, {"p1": (5, 5), "p2": (7, 5)}, max_players=2)
        illegal(state, "p3", {"type": "join"}, match="table is full")
        illegal(state, "p1", {"type": "join"}, match="already playing")
        state = act(state, "p2", "leave")
        state = act(state, "p3", "join")
        assert player(state, "p3")["status"] == "alive"
        illegal(state, "p2", {"type": "join"}, match="cannot come back")  # ruling 27

    def test_join_is_refused_when_no_tile_is_free(self):
        state = game("name Pair\nwin 0\n#E.#\n", {"p1": (0, 1), "p2": (0, 2)})
        illegal(state, "p3", {"type": "join"}, match="no free tile")

    def test_s17_disconnection_and_leaving(self):
        state = game(LANTERN_GALLERY, {"p1": (5, 5), "p2": (1, 1), "p3": (9, 1)})
        state = run(state, ("p1", "end_turn"), ("p2", "pickup"), ("p2", "end_turn"), ("p3", "move", "E"))
        assert ap(state, "p3") == 5
        before = state
        state = act(state, "p2", "drop")
        assert (player(state, "p2")["status"], player(state, "p2")["cause"]) == ("dead", "disconnected")
        assert item_at(state, (1, 1)) == {"kind": "gold", "amount": 1}
        assert turn(state) == (3, "p3") and ap(state, "p3") == 5  # ruling 22
        assert [e["seat"] for e in new_events(before, state, "p1", "died")] == ["p2"]
        state = act(state, "p3", "end_turn")
        assert turn(state) == (4, "p1")
        state = act(state, "p1", "end_turn")
        assert turn(state) == (5, "p3")
        state = run(state, ("p3", "end_turn"))
        assert turn(state) == (6, "p1")
        state = act(state, "p1", "leave")
        assert (player(state, "p1")["status"], player(state, "p1")["cause"]) == ("dead", "left")
        assert turn(state) == (7, "p3") and ap(state, "p3") == 6

    def test_drop_and_leave_need_a_living_seat(self):
        state = act(game(DUELLING_HALL, {"p1": (2, 1), "p2": (3, 4), "p3": (1, 1)}), "p2", "drop")
        illegal(state, "p2", {"type": "drop"})
        illegal(state, "p2", {"type": "leave"})
        illegal(state, "p9", {"type": "drop"}, match="not playing")
        assert dod.legal_actions(state, "p2") == []

    def test_s18_timeouts(self):
        state = game(LANTERN_GALLERY, {"p1": (5, 5), "p2": (7, 5)})
        state = act(state, "p1", "timeout")
        assert turn(state) == (2, "p2") and player(state, "p1")["timeouts"] == 1
        state = run(state, ("p2", "end_turn"), ("p1", "timeout"), ("p2", "end_turn"))
        assert turn(state) == (5, "p1")
        variant = act(state, "p1", "move", "N")
        assert player(variant, "p1")["timeouts"] == 0
        variant = run(variant, ("p1", "timeout"), ("p2", "end_turn"))
        assert player(variant, "p1")["timeouts"] == 1 and player(variant, "p1")["status"] == "alive"
        before = state
        state = act(state, "p1", "timeout")
        assert (player(state, "p1")["status"], player(state, "p1")["cause"]) == ("dead", "idle")
        for seat in ("p1", "p2", None):
            (died,) = new_events(before, state, seat, "died")
            assert (died["seat"], died["cause"]) == ("p1", "idle")
        assert turn(state) == (6, "p2") and dod.result(state) is None

    def test_timeout_only_for_the_seat_whose_turn_it_is(self):
        state = game(LANTERN_GALLERY, {"p1": (5, 5), "p2": (7, 5)})
        illegal(state, "p2", {"type": "timeout"}, match="whose turn it is")
        assert {"type": "timeout"} not in dod.legal_actions(state, "p1")
        assert {"type": "drop"} not in dod.legal_actions(state, "p1")

    def test_a_turn_in_between_where_the_player_acted_resets_the_count(self):
        state = game(LANTERN_GALLERY, {"p1": (5, 5), "p2": (7, 5)})
        state = run(
            state,
            ("p1", "timeout"),
            ("p2", "end_turn"),
            ("p1", "end_turn"),
            ("p2", "end_turn"),
            ("p1", "timeout"),
            ("p2", "end_turn"),
            ("p1", "timeout"),
        )
        assert player(state, "p1")["status"] == "alive" and player(state, "p1")["timeouts"] == 2


# --- S19: hidden information --------------------------------------------------------------------


class TestHiddenInformation:
    @pytest.mark.parametrize("seed", [8_675_309_123_457, "Recognisable-Secret-S19"])
    def test_s19_hidden_information_and_view_events(self, seed):
        state = gallery_three(seed=seed, dice=[1, 2, 3])
        v1 = dod.view(state, "p1")
        assert not [c for c in v1["visible"] if c["pos"][0] >= 8]
        text = json.dumps(v1)
        for secret in (str(seed), "dice", "start_positions", "[9, 1]", "seed"):
            assert secret not in text
        assert [sorted(p) for p in v1["players"]] == [["cause", "seat", "status"]] * 3
        assert v1["me"]["seat"] == "p1" and "p2" not in json.dumps(v1["me"])
        for seat in (None, "p9"):
            spectator = dod.view(state, seat)
            assert spectator["me"] is None
            assert spectator["visible"] == spectator["look"] == spectator["memory"] == []
            assert str(seed) not in json.dumps(spectator)
        state = act(state, "p1", "end_turn")
        before = state
        state = act(state, "p2", "move", "S")
        assert player(state, "p2")["pos"] == [8, 5]
        assert [e["seat"] for e in new_events(before, state, "p1", "left_view")] == ["p2"]
        assert dod.view(state, "p1")["look"][-1] == "X...X"
        assert dod.view(state, "p2")["look"] == ["X#.#X", ".....", "..G..", ".....", "X###X"]
        before = state
        state = act(state, "p2", "move", "N")
        (came,) = new_events(before, state, "p1", "came_into_view")
        assert (came["seat"], came["pos"]) == ("p2", [7, 5])
        # Where from the reader, in words: the map shows no coordinates to look "[7, 5]" up on.
        assert came["text"] == "p2 came into view 2 steps south of you."
        assert new_events(before, state, "p3", "came_into_view") == []
        assert new_events(before, state, "p3", "left_view") == []
        dead = dod.view(act(state, "p3", "drop"), "p3")
        assert dead["visible"] == dead["look"] == dead["memory"] == []

    def test_an_onlookers_memory_records_what_it_saw_taken(self):
        state = game(LANTERN_GALLERY, {"p1": (5, 4), "p2": (7, 4)})
        state = run(state, ("p1", "pickup"), ("p1", "end_turn"), ("p2", "move", "S"), ("p2", "move", "S"))
        assert player(state, "p2")["pos"] == [9, 4]
        remembered = {tuple(c["pos"]): c["item"] for c in dod.view(state, "p2")["memory"]}
        assert (5, 4) in remembered and remembered[5, 4] is None  # seen taken, so remembered empty

    def test_empty_seat_names_are_malformed(self):
        with pytest.raises(InvalidAction):
            dod.apply(gallery_three(), "", {"type": "join"})
        assert dod.legal_actions(gallery_three(), "") == []

    def test_other_players_stats_never_reach_a_seat(self):
        # Ruling 30: p2 drinks to 4 HP and dons armour in p1's sight; p1 learns only what was taken.
        state = game(DUELLING_HALL, {"p1": (2, 2), "p2": (2, 4)})
        state = run(
            state, ("p1", "end_turn"), ("p2", "pickup"), ("p2", "move", "N"), ("p2", "move", "W"), ("p2", "pickup")
        )
        assert player(state, "p2")["hp"] == 4 and player(state, "p2")["kit"] == ["armour"]
        v1 = dod.view(state, "p1")
        assert [(e["seat"], e["item"]) for e in v1["events"] if e["type"] == "item_taken"] == [
            ("p2", "armour"),
            ("p2", "potion"),
        ]
        text = json.dumps({k: v for k, v in v1.items() if k != "me"})
        assert '"hp"' not in text and '"gold":' not in text and '"kit"' not in text

    def test_item_taken_reaches_only_those_who_see_the_tile(self):
        state = game(LANTERN_GALLERY, {"p1": (5, 4), "p2": (7, 4), "p3": (1, 1)})
        after = act(state, "p1", "pickup")
        (taken,) = new_events(state, after, "p2", "item_taken")
        assert (taken["seat"], taken["item"]) == ("p1", "lantern")
        assert new_events(state, after, "p3", "item_taken") == []
        assert new_events(state, after, "p1", "item_taken") == []
        assert new_events(state, after, None, "item_taken") == []

    def test_events_window_is_the_latest_fifty(self):
        state = game(OPEN_DOOR, {"p1": (1, 2)})
        for _ in range(60):
            state = act(state, "p1", "end_turn")
        shown = dod.view(state, "p1")["events"]
        assert len(shown) == 50 and shown[-1]["turn"] == 61
        assert [e["seq"] for e in shown] == sorted(e["seq"] for e in shown)
        assert all(isinstance(e["text"], str) and e["text"] for e in shown)

    def test_the_state_keeps_only_events_a_view_can_still_show(self, monkeypatch):
        """Dropping older events changes no view, ever, and stops the state growing with the game."""
        rng = random.Random(5)
        trimmed = dod.new_game(11, ["p1", "p2", "p3"], {"map": dod.shipped_maps()["lantern-gallery"]})
        whole = trimmed
        keep_all = lambda events: events  # noqa: E731
        for _ in range(600):
            if dod.result(trimmed) is not None:
                break
            seat = trimmed["turn"]["seat"]
            action = rng.choice([a for a in dod.legal_actions(trimmed, seat) if a["type"] != "leave"])
            trimmed = dod.apply(trimmed, seat, action)
            with monkeypatch.context() as m:
                m.setattr(dod.module.transaction, "_still_showable", keep_all)
                whole = dod.apply(whole, seat, action)
            for viewer in ("p1", "p2", "p3", None):
                assert dod.view(trimmed, viewer) == dod.view(whole, viewer)
        assert trimmed["step"] >= 500
        assert len(trimmed["events"]) < len(whole["events"]) / 3

    def test_a_random_map_is_drawn_from_the_game_seed(self):
        # Beyond 10.1: random_map lets the engine draw the map, so "random" cannot be imitated
        # by a pasted text and a new seed (play again) gives a fresh map.
        state = dod.new_game(5, ["p1", "p2"], {"random_map": "M"})
        assert state["map"] == parse_map(dod.generate_map(5, "M")).as_state()
        assert state["map"] == dod.new_game(5, ["p1", "p2"], {"random_map": "M"})["map"]
        assert state["map"] != dod.new_game(6, ["p1", "p2"], {"random_map": "M"})["map"]
        assert (state["map"]["width"], state["map"]["height"]) == dod.SIZES["M"][:2]
        assert state["options"]["map"] is None and state["options"]["random_map"] == "M"
        for viewer in ("p1", None):
            assert dod.view(state, viewer)["map"]["random"] == "M"
            assert dod.view(state, viewer)["map"]["custom"] is False
        assert dod.view(gallery_three(), None)["map"]["random"] is None

    def test_a_state_stored_before_random_map_still_views(self):
        state = dod.new_game(1, ["p1"])
        del state["options"]["random_map"]
        assert dod.view(dod.load(state), "p1")["map"]["random"] is None

    def test_custom_map_label(self):
        assert dod.view(gallery_three(), None)["map"]["custom"] is False
        assert dod.view(dod.new_game(1, ["p1"]), None)["map"]["custom"] is False
        mine = "name Mine\nwin 0\n#E..#\n"
        assert dod.view(dod.new_game(1, ["p1"], {"map": mine}), None)["map"]["custom"] is True

    def test_unnamed_dungeon(self):
        state = dod.new_game(1, ["p1"], {"map": "name \nwin 0\nE.."})
        assert dod.view(state, "p1")["map"]["name"] == "Unnamed dungeon"


# --- S21: determinism ---------------------------------------------------------------------------


class TestDeterminism:
    def test_s21_determinism_and_replay(self):
        seats = ["p1", "p2", "p3", "p4"]
        for seed in range(5):
            a = dod.new_game(seed, seats, {"dice": [2]})
            b = dod.new_game(seed, seats, {"dice": [2]})
            assert a == b
            starts = [tuple(p["pos"]) for p in a["players"]]
            assert len(set(starts)) == 4
            assert all(a["map"]["terrain"][r][c] != "#" for r, c in starts)
            log = []
            state = a
            for i in range(40):
                legal = dod.legal_actions(state, state["turn"]["seat"])
                action = legal[(seed * 7 + i * 3) % len(legal)]
                if action["type"] == "leave":
                    action = {"type": "end_turn"}
                log.append((state["turn"]["seat"], action))
                state = dod.apply(state, *log[-1])
                assert dod.load(json.loads(json.dumps(dod.dump(state)))) == state
                if dod.result(state):
                    break
            replay = dod.new_game(seed, seats, {"dice": [2]})
            for seat, action in log:
                replay = dod.apply(replay, seat, action)
            assert replay == state
        assert len({tuple(dod.new_game(s, seats)["players"][0]["pos"]) for s in range(30)}) > 5

    def test_setup_draws_follow_the_rules_recipe(self):
        # 10.4: random.Random(f"{seed}:setup"), row-major eligible tiles, randrange per seat.
        import random

        state = dod.new_game(99, ["p1", "p2"], {"map": DUELLING_HALL})
        rng = random.Random("99:setup")
        terrain = state["map"]["terrain"]
        tiles = [(r, c) for r, row in enumerate(terrain) for c, ch in enumerate(row) if ch != "#"]
        first = tiles[rng.randrange(len(tiles))]
        tiles.remove(first)
        second = tiles[rng.randrange(len(tiles))]
        assert [tuple(p["pos"]) for p in state["players"]] == [first, second]


# --- options and the contract ------------------------------------------------------------------


class TestOptions:
    @pytest.mark.parametrize(
        ("options", "match"),
        [
            ({"speed": 1}, "unknown option"),
            ({"map": 3}, "text of a map"),
            ({"max_players": 0}, "max_players"),
            ({"max_players": 9}, "max_players"),
            ({"max_players": True}, "max_players"),
            ({"turn_seconds": 29}, "turn_seconds"),
            ({"turn_seconds": 601}, "turn_seconds"),
            ({"turn_seconds": "120"}, "turn_seconds"),
            ({"dice": [5]}, "dice"),
            ({"dice": [0]}, "dice"),
            ({"dice": 3}, "dice"),
            ({"start_positions": {"p1": [0, 0]}}, "is a wall"),
            ({"start_positions": {"p1": [11, 3]}}, "off the map"),
            ({"start_positions": {"p1": [1, 1], "p2": [1, 1]}}, "already p1's"),
            ({"start_positions": {"p1": [1]}}, r"\[row, col\]"),
            ({"start_positions": [1, 1]}, "start_positions"),
            ({"random_map": "XL"}, "random_map must be one of S, M, L"),
            ({"random_map": ["M"]}, "random_map must be one of"),
            ({"random_map": "S", "map": DUELLING_HALL}, "either a map or random_map"),
        ],
    )
    def test_bad_options_are_refused(self, options, match):
        with pytest.raises(InvalidAction, match=match):
            dod.new_game(1, ["p1", "p2"], options)

    def test_options_are_normalised_and_defaults_apply(self):
        state = dod.new_game(1, ["p1"], {"turn_seconds": 0})
        assert state["options"] == {
            "map": None,
            "random_map": None,
            "max_players": 4,
            "turn_seconds": 0,
            "dice": [],
            "start_positions": {},
        }
        assert state["map"]["name"] == "Lantern Gallery"
        assert dod.view(state, "p1")["turn"] == {"number": 1, "seat": "p1", "seconds": 0}
        assert dod.new_game(1, ["p1"], {"turn_seconds": 30})["options"]["turn_seconds"] == 30
        assert dod.new_game(1, ["p1"], None)["options"]["turn_seconds"] == 120

    @pytest.mark.parametrize(
        ("players", "options"),
        [
            ([], None),
            (["p1", "p1"], None),
            (["p1", 2], None),
            ([f"p{i}" for i in range(9)], None),
            (["p1", "p2", "p3"], {"max_players": 2}),
            (["p1", "p2", "p3"], {"map": "name Tiny\nwin 0\nE.\n"}),
        ],
    )
    def test_bad_player_lists_are_refused(self, players, options):
        with pytest.raises(InvalidAction):
            dod.new_game(1, players, options)

    def test_a_forced_start_for_a_later_joiner_is_kept_free(self):
        text = "name Pair\nwin 0\n#E.#\n"
        for seed in range(10):
            state = dod.new_game(seed, ["p1"], {"map": text, "start_positions": {"p2": [0, 1]}})
            assert player(state, "p1")["pos"] == [0, 2]
            assert player(act(state, "p2", "join"), "p2")["pos"] == [0, 1]

    def test_contract_constants_and_registry(self):
        assert (dod.slug, dod.title, dod.min_players, dod.max_players) == (
            "dungeon-of-doom",
            "The Dungeon of Doom",
            1,
            8,
        )
        assert "dungeon-of-doom" in rules_engine.available()

    def test_load_refuses_foreign_data(self):
        with pytest.raises(InvalidAction):
            dod.load({"deck": []})

    def test_dump_is_a_fresh_copy(self):
        state = gallery_three()
        data = dod.dump(state)
        data["players"][0]["hp"] = 99
        assert player(state, "p1")["hp"] == 3


class TestLabels:
    def test_action_labels(self):
        state = game(DUELLING_HALL, {"p1": (1, 1), "p2": (2, 1)})
        labels = {json.dumps(a): dod.action_label(state, a) for a in dod.legal_actions(state, "p1")}
        assert labels == {
            '{"type": "move", "dir": "E"}': "Move east",
            '{"type": "pickup"}': "Pick up 1 gold",
            '{"type": "attack", "dir": "S"}': "Attack p2 (south)",
            '{"type": "end_turn"}': "End turn",
            '{"type": "leave"}': "Leave the game",
        }
        assert dod.action_label(state, {"type": "join"}) == "Join the game"
        potion = game(DUELLING_HALL, {"p1": (1, 3)})
        assert dod.action_label(potion, {"type": "pickup"}) == "Drink the health potion"
