"""The Dungeon of Doom's presenter on real engine states: what its page is told to draw.

Small maps in the classic text format, with the start positions the engine accepts for tests,
put the players exactly where each case needs them.
"""

from __future__ import annotations

import rules_engine
from tests.page import Page
from webapp.domain.play import ActionButton
from webapp.pages.presenters import Scene, present
from webapp.pages.presenters.dungeon_map import dungeon_svg
from webapp.pages.presenters.dungeon_of_doom import token_marks

RULES = rules_engine.get("dungeon-of-doom")
NAMES = {"p1": "Ada", "p2": "Bob"}
LEDGE = "name Ledge\nwin 0\n#E..#"
"""One row: Bob (p2) stands next to the exit with Ada (p1) east of him: she can only attack or wait."""
PURSE = "name Purse\nwin 1\n#.GG.E#"
"""Ada starts on the first gold, Bob west of her; one gold wins."""


def ledge() -> dict:
    return RULES.new_game(7, ["p1", "p2"], {"map": LEDGE, "start_positions": {"p1": [0, 3], "p2": [0, 2]}})


def purse() -> dict:
    return RULES.new_game(7, ["p1", "p2"], {"map": PURSE, "start_positions": {"p1": [0, 2], "p2": [0, 1]}})


def after(state: dict, *moves: tuple[str, dict]) -> dict:
    for seat, action in moves:
        state = RULES.apply(state, seat, action)
    return state


def scene(state: dict, seat: str | None, names: dict[str, str] = NAMES) -> Scene:
    actions = RULES.legal_actions(state, seat) if seat else []
    buttons = [ActionButton(action, RULES.action_label(state, action), None) for action in actions]
    return Scene(
        rules=RULES, view=RULES.view(state, seat), seat=seat, buttons=buttons, result=RULES.result(state), names=names
    )


def page(state: dict, seat: str | None, names: dict[str, str] = NAMES) -> dict:
    return present("dungeon_of_doom", scene(state, seat, names))


def actions_of(buttons: list[ActionButton]) -> list[dict]:
    return [b.action for b in buttons]


ADA_WINS = (
    ("p1", {"type": "pickup"}),
    ("p1", {"type": "move", "dir": "E"}),
    ("p1", {"type": "move", "dir": "E"}),
    ("p1", {"type": "move", "dir": "E"}),
)
"""On the purse map: Ada takes her gold and walks onto the exit (rule 10.8: she escapes)."""


class TestWhoseTurn:
    def test_the_seat_whose_turn_it_is_is_told_so(self):
        context = page(ledge(), "p1")
        assert context["my_turn"]
        assert context["root_attrs"] == ' data-your-turn="true"'
        assert context["turn_name"] == "Ada"
        assert context["turn_note"] is None
        assert context["current_seat"] == "p1"
        assert context["status_tone"] == ""
        assert context["acting"]

    def test_another_seat_waits(self):
        context = page(ledge(), "p2")
        assert not context["my_turn"]
        assert context["root_attrs"] == ' data-your-turn="false"'
        assert context["turn_name"] == "Ada"
        assert context["turn_note"] == "Wait for your turn."

    def test_a_spectator_watches_without_the_dungeon_and_may_join(self):
        context = page(ledge(), None)
        assert context["status_tone"] == "watching"
        assert context["turn_note"] == "Watching live."
        assert not context["acting"] and not context["my_turn"]
        assert context["can_join"]
        assert context["field"] is None and context["adventurer"] is None
        assert context["blind_note"] == (
            "Spectators see the dungeon when the game ends, and then its replay shows the whole map and "
            "every move; follow the table and the log meanwhile."
        )

    def test_a_seat_without_a_name_is_called_by_its_seat(self):
        assert page(ledge(), "p2", names={})["turn_name"] == "p1"

    def test_the_roster_tags_everyone_alive(self):
        assert page(ledge(), None)["statuses"] == {"p1": "alive", "p2": "alive"}


class TestActions:
    def test_blocked_all_round_ada_can_attack_wait_or_leave(self):
        context = page(ledge(), "p1")
        assert context["move_pad"] is None  # a wall east, Bob west, the map's edge north and south
        assert [(act["button"].action, act["cls"]) for act in context["turn_actions"]] == [
            ({"type": "attack", "dir": "W"}, "danger"),
            ({"type": "end_turn"}, ""),
        ]
        assert actions_of(context["leave_buttons"]) == [{"type": "leave"}]

    def test_the_pad_keeps_its_shape_and_the_other_actions_come_attack_first(self):
        context = page(purse(), "p1")
        pad = context["move_pad"]
        assert [(way["place"], way["arrow"]) for way in pad["ways"]] == [("e", "→")]
        assert pad["blocked"] == ["n", "s", "w"]  # Bob stands west: that way is an attack, not a move
        assert [(act["button"].action, act["cls"]) for act in context["turn_actions"]] == [
            ({"type": "attack", "dir": "W"}, "danger"),
            ({"type": "pickup"}, "primary"),
            ({"type": "end_turn"}, ""),
        ]

    def test_between_turns_a_seat_can_only_leave(self):
        context = page(ledge(), "p2")
        assert context["move_pad"] is None and context["turn_actions"] == []
        assert actions_of(context["leave_buttons"]) == [{"type": "leave"}]
        assert context["acting"]


class TestWhatASeatSees:
    def test_a_living_seat_sees_its_field_and_its_numbers(self):
        state = purse()
        context = page(state, "p1")
        view = RULES.view(state, "p1")
        assert context["field"] == {
            "cells": view["visible"],
            "remembered": view["memory"],
            "look": "\n".join(view["look"]),
        }
        assert context["adventurer"] == {
            "hp": 3,
            "gold": 0,
            "target_gold": 1,
            "ap": 6,
            "ap_next_turn": 6,
            "kit": "none",
            "lantern": False,
        }
        assert context["final_cells"] is None

    def test_action_points_only_exist_on_your_turn(self):
        assert page(purse(), "p2")["adventurer"]["ap"] == "—"

    def test_kit_costs_next_turns_points_and_a_lantern_widens_the_view(self):
        shop = RULES.new_game(7, ["p1"], {"map": "name Shop\nwin 0\n#.L.E#", "start_positions": {"p1": [0, 2]}})
        adventurer = page(after(shop, ("p1", {"type": "pickup"})), "p1")["adventurer"]
        assert adventurer["kit"] == "lantern"
        assert adventurer["lantern"]
        assert adventurer["ap_next_turn"] == 5

    def test_a_seat_that_left_is_out_and_blind(self):
        context = page(after(ledge(), ("p2", {"type": "leave"})), "p2")
        assert context["statuses"] == {"p1": "alive", "p2": "left"}
        assert context["turn_note"] == "You are out of this game; you can keep watching."
        assert context["field"] is None and context["adventurer"] is None
        assert context["blind_note"] == "You can no longer see the dungeon."
        assert not context["can_join"]  # already seated


class TestMapTitle:
    def test_a_custom_map_says_so(self):
        assert page(ledge(), None)["map_title"] == "Ledge (custom map)"

    def test_a_random_map_names_its_size(self):
        state = RULES.new_game(7, ["p1"], {"random_map": "S"})
        title = page(state, None)["map_title"]
        assert title == f"{RULES.view(state, None)['map']['name']} (random small map)"

    def test_a_shipped_map_is_only_named(self):
        state = RULES.new_game(7, ["p1"], {})
        assert page(state, None)["map_title"] == RULES.view(state, None)["map"]["name"]


class TestTheEnd:
    def test_the_winner_is_named_and_told(self):
        state = after(purse(), *ADA_WINS)
        assert page(state, "p1")["result_title"] == "You won!"
        assert page(state, "p2")["result_title"] == "Game over"
        watching = page(state, None)
        assert watching["result_title"] == "Game over"
        assert watching["outcome"] == "Ada escaped with the gold!"
        assert watching["status_tone"] == "over"
        assert watching["statuses"] == {"p1": "won", "p2": "alive"}
        assert not watching["can_join"]
        assert watching["move_pad"] is None and watching["turn_actions"] == []

    def test_every_adventurer_is_listed_most_gold_first(self):
        rows = page(after(purse(), *ADA_WINS), "p2")["final_rows"]
        assert rows == [
            {"who": "Ada", "winner": True, "outcome": "escaped", "hp": 3, "gold": 1, "kit": "none"},
            {"who": "Bob (you)", "winner": False, "outcome": "still inside", "hp": 3, "gold": 0, "kit": "none"},
        ]

    def test_the_whole_map_is_revealed_with_the_exit_under_the_winner(self):
        cells = page(after(purse(), *ADA_WINS), None)["final_cells"]
        # Each token says whose it is: the initial of the player's name.
        assert cells == [
            {"pos": [0, 0], "tile": "wall", "item": None, "player": None, "mark": None},
            {"pos": [0, 1], "tile": "floor", "item": None, "player": "p2", "mark": "B"},
            {"pos": [0, 2], "tile": "floor", "item": None, "player": None, "mark": None},
            {"pos": [0, 3], "tile": "floor", "item": {"kind": "gold", "amount": 1}, "player": None, "mark": None},
            {"pos": [0, 4], "tile": "floor", "item": None, "player": None, "mark": None},
            {"pos": [0, 5], "tile": "exit", "item": None, "player": "p1", "mark": "A"},
            {"pos": [0, 6], "tile": "wall", "item": None, "player": None, "mark": None},
        ]

    def test_the_final_map_labels_each_token_and_names_it_in_a_legend(self):
        cells = page(after(purse(), *ADA_WINS), "p2")["final_cells"]
        svg = Page(str(dungeon_svg(cells, "p2", NAMES)))
        assert svg.texts("svg.dungeon g.player text") == ["B", "A"]
        assert svg.texts(".token-legend li > span") == ["B: Bob (you)", "A: Ada"]

    def test_clashing_initials_get_a_second_letter_then_the_seat_number(self):
        final = {"players": [{"seat": s} for s in ("p1", "p2", "p3", "p4")]}
        names = {"p1": "Ann", "p2": "Bob", "p3": "Abe", "p4": "Abe"}
        assert token_marks(final, names) == {"p1": "An", "p2": "B", "p3": "A3", "p4": "A4"}

    def test_when_everyone_leaves_nobody_escaped(self):
        state = after(ledge(), ("p1", {"type": "leave"}), ("p2", {"type": "leave"}))
        context = page(state, "p1")
        assert context["outcome"] == "Nobody escaped."
        assert context["statuses"] == {"p1": "left", "p2": "left"}
        assert [row["outcome"] for row in context["final_rows"]] == ["left", "left"]
