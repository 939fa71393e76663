"""Dungeon Cards' presenter: real engine states (stacked decks through ``tests.helpers.dungeon_cards.started_game``, and
seeded games) turned into what the page draws, asserted on the presenter's output."""

from __future__ import annotations

from types import SimpleNamespace

import rules_engine
from tests.helpers.dungeon_cards import act, started_game
from webapp.domain import play
from webapp.domain.catalog import BY_SLUG
from webapp.pages.presenters import Scene, keys_for, presenter_for
from webapp.pages.presenters.dungeon_cards import FIGHT_EVENTS, Chip, FameLine, Fresh, Helper, Step, fresh_in, present

rules = rules_engine.get("dungeon-cards")
KEYS = keys_for("dungeon_cards")


def scene(state: dict, seat: str | None, names: dict | None = None) -> Scene:
    """The scene ``render_game`` builds for ``seat``: its view, its buttons (with the catalog's keys)."""
    buttons = play.action_buttons(SimpleNamespace(rules=rules, state=state), seat, KEYS)
    return Scene(
        rules=rules,
        view=rules.view(state, seat),
        seat=seat,
        buttons=buttons,
        result=rules.result(state),
        names=names or {},
    )


def shown(state: dict, seat: str | None, names: dict | None = None) -> dict:
    return present(scene(state, seat, names))


def at(board, x: int, y: int):
    """The square (x, y) of a presented board (y counts up from the bottom row; squares run top row first)."""
    return board.squares[(board.height - y) * board.width + (x - 1)]


def new_entries(before: dict, after: dict) -> list[dict]:
    """The log lines ``after`` adds to ``before``: what a page that showed ``before`` has not shown yet."""
    return rules.view(after, None)["log"][len(rules.view(before, None)["log"]) :]


def test_the_platform_finds_the_presenter_by_the_template_dir():
    assert presenter_for(BY_SLUG["dungeon-cards"].template_dir) is present


class TestStatus:
    def test_your_move_on_your_turn(self):
        out = shown(started_game([("P", "swordsman")], deck=["3C"]), "P")
        status = out["status"]
        assert out["your_turn"] and out["action_form"]
        assert (status.css, status.headline, status.turn_of, status.text) == ("", "Your move.", None, "Draw a card.")
        assert status.waiting_for is None and status.note is None and status.timed
        assert status.round_hint == "Round 1 of at most 200 · turn 1"
        assert out["turn_panel"].title == "Your turn" and out["turn_panel"].draw.action == {"type": "draw_card"}

    def test_a_spectator_watches_whoever_has_the_turn(self):
        out = shown(started_game([("P", "swordsman")], deck=["3C"]), None, {"P": "Ann"})
        status = out["status"]
        assert not out["your_turn"] and not out["action_form"]
        assert (status.css, status.headline, status.turn_of) == ("watching", "Ann's turn.", "Ann")
        assert status.waiting_for == "Ann" and status.note == "Watching live."
        assert out["turn_panel"] is None and out["leave"] is None

    def test_another_seat_waits_for_the_named_player(self):
        s = started_game([("A", "ninja"), ("B", "tank")], deck=["2D"])
        out = shown(s, "B", {"A": "Ann", "B": "Bob"})
        assert not out["your_turn"]
        assert out["status"].turn_of == "Ann" and out["status"].waiting_for == "Ann"
        assert out["leave"].summary == "Leave the game"

    def test_only_the_mage_on_its_turn_is_told_about_spells(self):
        s = started_game([("M", "mage"), ("X", "swordsman")], deck=["3C", "2D"])
        mage = shown(s, "M")
        assert mage["status"].text == "Draw a card or cast a spell."
        spells = rules.data.SPELLS
        offered = mage["turn_panel"].spells
        assert {b.action["spell"] for b, _ in offered} >= {"reversal", "haste"}
        assert all(summary == spells[b.action["spell"]]["summary"] for b, summary in offered)
        assert shown(s, "X")["status"].text == "Draw a card."

    def test_a_dead_character_can_keep_watching(self):
        s = started_game(
            [("A", "ninja"), ("B", "swordsman"), ("C", "tank")],
            deck=["JD", "9D", "2C", "9S"],
            lives={"A": 1},
            positions={"A": (3, 3), "B": (3, 4), "C": (9, 9)},
        )
        s = act(act(s, "A", "draw_card"), "B", "join_combat", join=True)
        s = act(s, "A", "combat_draw")
        assert shown(s, "A")["status"].note == "Your character is out (dead); you can keep watching."
        assert shown(s, "C")["status"].note is None

    def test_draw_your_stats_warns_during_the_first_round_only(self):
        s = started_game([("P", "tank")], deck=["AS", "7H", "KD", "3C", "2D", "2C"], draw_stats=True)
        assert shown(s, "P")["setup_warnings"] == rules.view(s, "P")["warnings"] != []
        s = act(s, "P", "draw_card")
        assert s["turn"]["round_number"] == 2
        assert shown(s, "P")["setup_warnings"] == []


class TestEnding:
    def test_an_escape_is_a_victory_with_its_hall_of_fame_line(self):
        s = started_game([("P", "rogue")], deck=["5D", "2S"], exits=[(5, 4)], pits=[(9, 9)])
        s = act(act(s, "P", "draw_card"), "P", "draw_card")
        out = shown(s, "P", {"P": "Ann"})
        assert (out["status"].css, out["status"].headline) == ("over", "Game over.")
        assert out["status"].text == "Victory: Ann escaped the dungeon!"
        assert out["ending"].title == "Escaped!"
        assert out["ending"].fame == [FameLine("Ann", "Rogue", 1, 10, 10, 0, 2, "escaped")]
        [member] = out["party"].members
        assert member.status == Chip("tag won", "escaped") and member.css == "member" and not member.turn
        assert out["roster_marks"] is None  # a solo game has no roster

    def test_falling_into_the_pit_is_a_defeat_without_fame(self):
        s = started_game([("P", "tank")], deck=["4D", "2S"], pits=[(5, 3)], exits=[(1, 10)])
        s = act(act(s, "P", "draw_card"), "P", "draw_card")
        out = shown(s, None)
        assert out["status"].css == "over" and out["status"].text == "Defeat: fell into the Pit."
        assert out["ending"].title == "Defeat" and out["ending"].fame == []
        assert out["party"].members[0].css == "member out"

    def test_a_team_victory_names_who_escaped(self):
        s = started_game([("A", "ninja"), ("B", "tank")], deck=["AD", "3D"], positions={"A": (5, 7), "B": (8, 5)})
        s = act(s, "A", "draw_card")
        out = shown(s, "B", {"A": "Ann", "B": "Bob"})
        assert out["ending"].title == "Team victory!"
        assert out["status"].text == "Team victory: Ann escaped."
        assert [(line.player, line.outcome) for line in out["ending"].fame] == [
            ("Ann", "escaped"),
            ("Bob", "team victory"),
        ]
        assert out["roster_marks"].current is None  # nobody has the turn once it is over


class TestBoard:
    def test_markers_start_and_tokens_on_their_squares(self):
        board = shown(started_game([("P", "swordsman")], deck=["3C"]), "P")["board"]
        assert (board.width, board.height, len(board.squares)) == (10, 10, 100)
        assert board.css == "dc-board cols-10" and not board.clickable
        exit_square, pit, start = at(board, 5, 8), at(board, 8, 8), at(board, 5, 1)
        assert (exit_square.css, exit_square.marker) == ("sq exit", "exit")
        assert (pit.css, pit.marker) == ("sq alt pit", "pit")
        assert start.css == "sq alt start" and start.tokens_css == "toks n1"
        [token] = start.tokens
        assert (token.css, token.letters, token.arrive) == ("tok seat-1 you current", "Sw", None)
        assert at(board, 1, 10).plain and at(board, 1, 10).css == "sq"
        assert at(board, 2, 10).plain and at(board, 2, 10).css == "sq alt"
        assert board.description == (
            "The board, 10 by 10 squares. Exit at column 5, row 8. Pit at column 8, row 8. "
            "P the Swordsman at column 5, row 1. "
        )
        assert [(t.name, t.letters) for t in board.legend_tokens] == [("P", "Sw")]

    def test_a_spectator_sees_no_you_mark(self):
        board = shown(started_game([("P", "swordsman")], deck=["3C"]), None, {"P": "Ann"})["board"]
        assert at(board, 5, 1).tokens[0].css == "tok seat-1 current"
        assert "Ann the Swordsman at column 5, row 1." in board.description

    def test_the_last_move_leaves_a_trail(self):
        before = started_game([("P", "swordsman")], deck=["3C", "2D"])
        after = act(before, "P", "draw_card")
        out = shown(after, "P")
        board = out["board"]
        assert [at(board, x, 1).steps for x in (6, 7, 8)] == [
            (Step(1, "→", False),),
            (Step(2, "→", False),),
            (Step(3, "→", True),),
        ]
        assert at(board, 6, 1).css == "sq trail" and at(board, 5, 1).move_start
        assert at(board, 8, 1).tokens[0].arrive == "arrive st-3"
        move = out["last_move"]
        assert (move.card, move.badge, move.who, move.verb) == ("3C", "→ 3", "P", "moved")
        assert (move.direction, move.distance, move.route) == ("right", 3, "column 5, row 1 → column 8, row 1")
        assert not move.bounced and move.redirects == []
        assert fresh_in(new_entries(before, after)) == Fresh(move=True, boss=False)
        assert fresh_in([]) == Fresh(move=False, boss=False)

    def test_the_ninja_turns_around_where_its_path_doubles_back(self):
        s = act(started_game([("P", "ninja")], deck=["3C"], exits=[(1, 10)], positions={"P": (8, 1)}), "P", "draw_card")
        board = shown(s, "P")["board"]
        assert at(board, 10, 1).bounce and not at(board, 9, 1).bounce
        assert [st.order for st in at(board, 9, 1).steps] == [1, 3]
        assert shown(s, "P")["last_move"].bounced

    def test_walls_and_redirects(self):
        s = started_game(
            [("P", "swordsman")],
            deck=["2D"],
            stop_walls=[[[3, 3], [3, 4]], [[7, 2], [6, 2]]],
            redirects=[{"square": [2, 5], "kind": "/"}, {"square": [9, 6], "kind": "\\"}],
        )
        board = shown(s, "P")["board"]
        assert " wt" in at(board, 3, 3).css and " wb" in at(board, 3, 4).css
        assert " wr" in at(board, 6, 2).css and " wl" in at(board, 7, 2).css
        assert (at(board, 2, 5).redirect, at(board, 9, 6).redirect) == ("/", "\\")
        assert board.stop_walls and board.redirects
        assert "2 stop walls. 2 redirecting walls. " in board.description

    def test_a_big_board_is_marked_big(self):
        s = rules.new_game(3, ["P"], {"classes": {"P": "tank"}, "board_width": 20, "board_height": 10})
        board = shown(s, "P")["board"]
        assert board.css == "dc-board cols-20 big" and len(board.squares) == 200

    def test_the_host_places_markers_by_clicking_squares(self):
        s = rules.new_game(1, ["P"], {"classes": {"P": "swordsman"}, "marker_placement": "manual"})
        host = shown(s, "P")
        assert host["board"].clickable
        targets = [sq.target.action for sq in host["board"].squares if sq.target]
        assert targets and all(a["type"] == "place_marker" and a["kind"] == "exit" for a in targets)
        placing = host["turn_panel"].placing
        assert (host["turn_panel"].title, placing.prompt, placing.compose) == (
            "Set up the board",
            "an Exit",
            "place_marker",
        )
        assert (placing.marker_kind, placing.submit_label) == ("exit", "Place the Exit")
        assert (placing.columns, placing.rows) == (range(1, 11), range(1, 11))
        s = act(s, "P", "place_marker", kind="exit", square=[5, 8])
        placing = shown(s, "P")["turn_panel"].placing
        assert (placing.prompt, placing.marker_kind, placing.submit_label) == ("a Pit", "pit", "Place the Pit")
        watcher = shown(s, None)
        assert not watcher["board"].clickable and watcher["turn_panel"] is None
        assert watcher["status"].headline == "Setting up."

    def test_a_chosen_start_is_an_edge_square(self):
        s = rules.new_game(1, ["P"], {"classes": {"P": "swordsman"}, "start_square": "chosen"})
        placing = shown(s, "P")["turn_panel"].placing
        assert (placing.prompt, placing.compose, placing.marker_kind, placing.submit_label) == (
            "the start square (an edge square)",
            "choose_start",
            None,
            "Start here",
        )


class TestDuel:
    def test_a_jack_fight_from_the_first_draw_to_the_reward(self):
        deck = ["JH", "9C", "4D", "3S", "7H", "QS", "6C", "6D", "2H", "8S", "5D", "10C", "3C"]
        before = started_game([("P", "ninja")], deck=deck)
        s = act(before, "P", "draw_card")
        assert fresh_in(new_entries(before, s)).boss
        duel = shown(s, "P")["duel"]
        assert (duel.challenger, duel.boss_name, duel.boss_card) == ("P", "Jack", "JH")
        assert (duel.boss_card_css, duel.boss_card_label) == ("boss-card", "Jack, jack of hearts")
        assert (duel.boss_pips.label, duel.boss_pips.hearts) == ("The Jack", (True, True, True))
        assert duel.boss_chips == []  # a Jack has no special
        [slot] = duel.exchange.slots
        assert slot.label == "The Jack draws" and duel.exchange.waiting == ["P"]
        [fighter] = duel.fighters
        assert (fighter.lead, fighter.challenger, fighter.css, fighter.chips) == (True, True, "fighter", [])
        # The single draw stays the likely choice; the whole fight in one press is beside it.
        assert [(c.button.action["type"], c.css, c.button.key) for c in duel.buttons] == [
            ("combat_draw", "primary", "1"),
            ("draw_until_decided", "", "2"),
        ]
        assert duel.has_actions and not duel.dashing and not duel.stat_hint
        s = act(s, "P", "combat_draw")
        [matchup] = shown(s, "P")["duel"].last_exchange.matchups
        assert (matchup.css, matchup.outcome, matchup.slot_label) == (
            "matchup fighter_hit",
            "P loses a life (9 left)",
            None,
        )
        assert matchup.fighter_label == "P's 4 of diamonds" and matchup.boss_label == "the Jack's 9 of clubs"
        s = act(act(s, "P", "combat_draw"), "P", "combat_draw")
        assert shown(s, "P")["duel"].last_exchange.matchups[0].outcome == "Tie: no damage"
        for _ in range(2):
            s = act(s, "P", "combat_draw")
        out = shown(s, "P", {"P": "Ann"})
        duel = out["duel"]
        assert duel.rewarding and duel.still_choosing == "Ann" and duel.stat_hint
        assert duel.boss_card_css == "boss-card defeated" and Chip("chip good", "Defeated") in duel.boss_chips
        assert [c.button.action["stat"] for c in duel.buttons] == ["lives", "speed"]
        assert not duel.fighters[0].lead  # the fight is over
        assert out["piles"].removed == ["JH"]

    def test_helpers_second_wind_and_a_void_matchup(self):
        deck = ["QS", "6D", "9C", "3H", "5C", "8S", "10D", "7H", "8H", "2S", "10C", "4D", "9H", "3D"]
        s = started_game(
            [("A", "ninja"), ("B", "tank"), ("C", "athlete")],
            deck=deck,
            positions={"A": (5, 5), "B": (5, 6), "C": (7, 5)},
        )
        s = act(s, "A", "draw_card")
        names = {"A": "Ann", "B": "Bob", "C": "Cy"}
        duel = shown(s, "C", names)["duel"]
        assert duel.asking_helpers and duel.helpers == [Helper("Bob", None)]
        assert duel.boss_chips == [Chip("chip", "Second Wind ready")] and not duel.has_actions
        s = act(s, "B", "join_combat", join=True)
        duel = shown(s, "A", names)["duel"]
        assert not duel.asking_helpers and duel.exchange.waiting == ["Ann", "Bob"]
        for _ in range(3):
            s = act(s, "A", "combat_draw")
        duel = shown(s, "A", names)["duel"]
        assert Chip("chip used", "Second Wind used") in duel.boss_chips
        assert duel.blow_by_blow_open and "second_wind" in [line.event for line in duel.blow_by_blow]
        s = act(s, "A", "combat_draw")
        matchups = shown(s, "A", names)["duel"].last_exchange.matchups
        assert [(m.fighter, m.css) for m in matchups] == [("Ann", "matchup boss_hit"), ("Bob", "matchup void")]
        assert matchups[1].outcome == "Void: not played out"
        assert shown(s, "A", names)["duel"].still_choosing == "Ann, Bob"

    def test_the_blow_by_blow_names_the_seats(self):
        deck = ["JH", "9C", "4D", "3S", "7H"]
        s = started_game([("p1", "ninja"), ("p2", "tank")], deck=deck, positions={"p1": (5, 5), "p2": (9, 9)})
        s = act(act(s, "p1", "draw_card"), "p1", "combat_draw")
        lines = shown(s, "p2", {"p1": "Ann", "p2": "Bob"})["duel"].blow_by_blow
        assert any("Ann" in line.text for line in lines) and not any("p1" in line.text for line in lines)

    def test_the_fight_shows_at_most_fourteen_lines_blow_by_blow(self):
        deck = ["QS", "6D", "9C", "3H", "5C", "8S", "10D", "7H", "8H", "2S", "10C", "4D", "9H", "3D"]
        s = started_game([("A", "ninja"), ("B", "tank")], deck=deck, positions={"A": (5, 5), "B": (5, 6)})
        s = act(act(s, "A", "draw_card"), "B", "join_combat", join=True)
        for _ in range(4):
            s = act(s, "A", "combat_draw")
        fight = [e for e in rules.view(s, "A")["log"] if e["event"] in FIGHT_EVENTS]
        assert len(fight) > 14
        assert [(line.event, line.text) for line in shown(s, "A")["duel"].blow_by_blow] == [
            (e["event"], e["text"]) for e in fight[-14:]
        ]

    def test_the_kings_royal_barrage_and_guard_break(self):
        deck = ["KH", "2C", "5C", "6C", "3C", "7C", "8C", "9D", "4D", "6D", "2H", "4H", "10H", "3S", "AS", "5S"]
        s = started_game([("A", "swordsman"), ("B", "soldier")], deck=deck, positions={"A": (4, 4), "B": (4, 5)})
        s = act(act(s, "A", "draw_card"), "B", "join_combat", join=True)
        duel = shown(s, "A")["duel"]
        assert duel.boss_chips == [Chip("chip", "Royal Barrage at 1 life")]
        assert [f.chips for f in duel.fighters] == [
            [Chip("chip", "Guard Break: ties hurt the boss")],
            [Chip("chip", "Strong Will ready")],
        ]
        s = act(act(s, "A", "combat_draw"), "A", "combat_draw")
        duel = shown(s, "A")["duel"]
        assert duel.boss_chips == [Chip("chip hot", "Royal Barrage! 3 cards each")]
        assert [slot.label for slot in duel.exchange.slots] == ["Slot 1", "Slot 2", "Slot 3"]
        assert duel.exchange.barrage
        s = act(s, "A", "combat_draw")
        matchups = shown(s, "A")["duel"].last_exchange.matchups
        guard_break = matchups[2]
        assert (guard_break.slot_label, guard_break.css) == ("Slot 2", "matchup boss_hit guard-break")
        assert guard_break.outcome == "Guard Break! The King loses a life (0 left)"

    def test_the_rogues_critical_hit(self):
        deck = ["JD", "9S", "3C", "KD", "7H", "10C", "4D", "6S", "2C", "2H", "5C", "8C"]
        s = act(started_game([("P", "rogue")], deck=deck), "P", "draw_card")
        duel = shown(s, "P")["duel"]
        assert duel.fighters[0].chips == [Chip("chip", "Critical Hit ready")]
        assert [c.css for c in duel.buttons] == ["primary"] + [""] * (len(duel.buttons) - 1)
        s = act(s, "P", "combat_draw", critical_hit=True)
        duel = shown(s, "P")["duel"]
        assert duel.last_exchange.crit_cards == ["3C", "7H", "10C"]
        assert duel.fighters[0].chips == [Chip("chip used", "Critical Hit used")]

    def test_the_athletes_dash_pad(self):
        deck = ["JH", "2S", "9D", "3S", "8H", "4S", "7C", "QC", "3D"]
        s = act(started_game([("P", "athlete")], deck=deck, exits=[(5, 4)]), "P", "draw_card")
        for _ in range(3):
            s = act(s, "P", "combat_draw")
        s = act(s, "P", "choose_stat", stat="speed")
        out = shown(s, "P", {"P": "Ann"})
        duel = out["duel"]
        assert (duel.dash.card, duel.dash.athlete, duel.dash.distance) == ("3D", "Ann", "3 squares")
        pad = [
            (way["button"].action["direction"], way["place"], way["button"].key, way["arrow"]) for way in duel.dash_pad
        ]
        assert pad == [
            ("up", "n", "ArrowUp", "↑"),
            ("down", "s", "ArrowDown", "↓"),
            ("left", "w", "ArrowLeft", "←"),
            ("right", "e", "ArrowRight", "→"),
        ]
        assert [way["button"].label for way in duel.dash_pad] == [
            "Dash up 3",
            "Dash down 3",
            "Dash left 3",
            "Dash right 3",
        ]
        assert [(b.action, b.key) for b in duel.no_dash] == [({"type": "dash", "direction": None}, "0")]
        assert duel.dashing and duel.has_actions and duel.buttons == []
        assert out["status"].text == "Controlled Dash: the Athlete picks a direction, or stays."
        s = act(s, "P", "dash", direction="up")
        move = shown(s, "P")["last_move"]
        assert (move.card, move.verb, move.route) == ("3D", "dashed", "column 5, row 1 → column 5, row 4")


class TestTurnPanel:
    def test_a_hand_of_cards_with_their_directions_and_play_buttons(self):
        deck = ["2C", "3C", "4C", "5D", "6D", "7D", "8S", "AH"]
        s = act(started_game([("P", "swordsman")], deck=deck, turn_mode="three_card_hand"), "P", "draw_card")
        panel = shown(s, "P")["turn_panel"]
        assert panel.title == "Your turn" and panel.hand_heading
        assert [(h.code, h.badge) for h in panel.hand] == [
            ("2C", "→ right"),
            ("3C", "→ right"),
            ("4C", "→ right"),
            ("5D", "↑ up"),
        ]
        assert all(
            [(c.button.action["type"], c.css) for c in h.choices] == [("play_card", "primary")] for h in panel.hand
        )
        member = shown(s, "P")["party"].members[0]
        assert member.details == "Guard Break · at column 5, row 1 · 4 cards in hand"

    def test_another_seats_hand_stays_hidden(self):
        deck = ["2C", "3C", "4C", "5D", "6D", "7D", "8S", "AH"]
        s = started_game([("A", "swordsman"), ("B", "tank")], deck=deck, turn_mode="three_card_hand")
        panel = shown(s, "B")["turn_panel"]
        assert panel.title == "Your hand" and not panel.hand_heading
        assert [h.code for h in panel.hand] == ["5D", "6D", "7D"]  # B's own, A's 2C 3C 4C nowhere
        assert all(h.choices == [] for h in panel.hand)
        assert shown(s, None)["turn_panel"] is None

    def test_fortune_telling_in_basic_mode(self):
        s = started_game(
            [("M", "mage"), ("X", "athlete")],
            deck=["3C", "2D", "2C", "9H", "4D", "5C", "2S"],
            positions={"M": (1, 1), "X": (1, 5)},
        )
        s = act(s, "M", "cast_spell", spell="haste")
        assert shown(s, "X")["turn_panel"].active_spells == "Haste"
        for seat in ("X", "M", "X"):
            s = act(s, seat, "draw_card")
        s = act(s, "M", "cast_spell", spell="fortune_telling")
        s = act(s, "X", "draw_card")
        panel = shown(s, "X")["turn_panel"]
        assert (panel.fortune_card.code, panel.fortune_card.badge) == ("9H", "← left")
        assert [b.action["card"] for b in panel.fortune_swaps] == ["9H"]
        assert [(c.button.action["card"], c.css) for c in panel.fortune_keep] == [(None, "primary")]
        assert shown(s, "X")["status"].text == "Fortune Telling: swap a card for a new one, or keep it."
        assert shown(s, "M")["turn_panel"] is None  # the card is only shown to the mover

    def test_discarding_down_to_three(self):
        deck = ["2C", "3C", "4C", "5D", "6D", "7D", "8S", "AH", "9C", "JH"]
        s = started_game(
            [("M", "mage"), ("X", "rogue")],
            deck=deck,
            turn_mode="three_card_hand",
            positions={"M": (1, 1), "X": (10, 1)},
        )
        s = act(s, "M", "cast_spell", spell="good_luck")
        s = act(act(s, "X", "draw_card"), "X", "play_card", card="AH")
        panel = shown(s, "X")["turn_panel"]
        assert [b.action["cards"] for b in panel.discards] == [["5D"], ["6D"], ["7D"], ["8S"]]
        party = shown(s, "M")["party"]
        chips = {m.name: m.chips for m in party.members}
        assert chips["X"] == [Chip("chip hot", "Good Luck (this turn)")]

    def test_choosing_a_class_in_the_lobby(self):
        s = rules.new_game(1, ["p1", "p2"])
        s = act(s, "p1", "choose_class", **{"class": "tank"})
        out = shown(s, "p1")
        assert out["turn_panel"].title == "Choose your class"
        chosen = [c.button.action["class"] for c in out["turn_panel"].class_choices if c.css == "primary"]
        assert chosen == ["tank"]
        # Each class has its own key and says what it does, whichever are still free.
        s = act(s, "p2", "choose_class", **{"class": "athlete"})
        choices = shown(s, "p1")["turn_panel"].class_choices
        keys = {c.button.action["class"]: c.button.key for c in choices}
        assert keys == {
            "ninja": "1",
            "soldier": "3",
            "tank": "4",
            "rogue": "5",
            "swordsman": "6",
            "mage": "7",
            "healer": "8",
        }
        healer = next(c for c in choices if c.button.action["class"] == "healer")
        assert healer.what.startswith("At the start and at the end of your turn, every other character adjacent")
        assert [b.key for b in scene(s, "p1").buttons if b.action["type"] == "start_game"] == [None]
        assert out["board"] is None and out["party"] is None and out["piles"] is None
        assert shown(s, None)["status"].headline == "Choosing classes."


class TestTableTalk:
    def test_chat_and_the_turn_sound_are_for_a_party_only(self):
        assert not shown(started_game([("P", "ninja")], deck=["3C"]), "P")["table_talk"]
        party = started_game([("A", "ninja"), ("B", "tank")], deck=["3C"])
        assert shown(party, "A")["table_talk"] and shown(party, None)["table_talk"]


class TestPartyAndPiles:
    def test_members_turn_and_roster_marks(self):
        s = started_game(
            [("A", "ninja"), ("B", "swordsman"), ("C", "tank")],
            deck=["JD", "9D", "2C", "9S"],
            lives={"A": 1},
            positions={"A": (3, 3), "B": (3, 4), "C": (9, 9)},
        )
        s = act(act(s, "A", "draw_card"), "B", "join_combat", join=True)
        s = act(s, "A", "combat_draw")
        out = shown(s, "B", {"A": "Ann", "B": "Bob", "C": "Cy"})
        members = {m.name: m for m in out["party"].members}
        assert out["party"].title == "The party"
        assert members["Ann"].css == "member current out"  # a dead challenger's turn ends with the fight
        assert members["Ann"].status == Chip("tag", "dead")
        assert members["Bob"].you and not members["Ann"].you
        current = out["roster_marks"].current
        assert members[{"A": "Ann", "B": "Bob", "C": "Cy"}[current]].turn
        assert out["roster_marks"].statuses == {"A": "dead"}
        assert [f.name for f in out["duel"].fighters if f.lead] == ["Bob"]
        assert [f.status for f in out["duel"].fighters] == ["dead", None]

    def test_the_cards_piles(self):
        s = started_game([("P", "swordsman")], deck=["3C", "2D"])
        assert shown(s, "P")["piles"].discard_top is None
        s = act(s, "P", "draw_card")
        piles = shown(s, "P")["piles"]
        assert (piles.discard_top, piles.discard_top_label, piles.discard_count) == (
            "3C",
            "top of the discard pile: 3 of clubs",
            1,
        )
        assert piles.deck_count == rules.view(s, "P")["deck_count"] and piles.removed == []

    def test_a_lone_character_gives_up(self):
        out = shown(started_game([("P", "swordsman")], deck=["3C"]), "P")
        assert out["party"].title == "Your character"
        assert (out["leave"].summary, out["leave"].text) == ("Give up", "The game ends in defeat.")
        assert out["leave"].button.action == {"type": "leave_game"}


class TestSeededGames:
    def test_every_seat_of_a_seeded_party_game_presents(self):
        """Seeded shuffles, random markers and seeded random legal play: the presenter handles every
        state a real table reaches, for every seat and a spectator."""
        import random

        rng = random.Random(7)
        players = ["p1", "p2", "p3"]
        s = rules.new_game(
            11,
            players,
            {
                "classes": {"p1": "athlete", "p2": "mage", "p3": "rogue"},
                "random_stop_walls": 6,
                "random_redirects": 3,
                "turn_mode": "three_card_hand",
            },
        )
        for _ in range(80):
            for seat in [*players, None]:
                out = shown(s, seat)
                view = rules.view(s, seat)
                assert out["your_turn"] == (seat in [a["seat"] for a in view["awaiting"]])
                assert len(out["board"].squares) == view["board"]["width"] * view["board"]["height"]
                if out["turn_panel"] and seat:
                    me = next(c for c in view["characters"] if c["id"] == seat)
                    assert [h.code for h in out["turn_panel"].hand] == (me["hand"] or [])
            if rules.result(s):
                break
            moves = [(p, a) for p in players for a in rules.legal_actions(s, p) if a["type"] != "leave_game"]
            seat, action = rng.choice(moves)
            s = rules.apply(s, seat, action)
