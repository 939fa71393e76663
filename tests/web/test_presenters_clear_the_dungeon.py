"""Clear the Dungeon's presenter: what its page draws, worked out from real engine states.

States come from stacked deals and the winning lines of ``test_clear_the_dungeon_web`` (rules
scenarios S18 and S19); an edited state stands in only where no short deal reaches (a hand of
ten, a one-card deck, the unreachable out-of-power ending)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from markupsafe import Markup

import rules_engine
from webapp.domain.play import ActionButton
from webapp.pages.presenters import Scene, present
from webapp.pages.presenters import clear_the_dungeon as presenter

from .test_clear_the_dungeon_web import LINE_A, LINE_A_DECK, LINE_B, LINE_B_DECK, action_of, stacked

cd = rules_engine.get("clear-the-dungeon")
ROOT = Path(__file__).resolve().parents[2]


def new_game(deck: str) -> dict:
    return cd.new_game(1, ["p1"], {"deck": deck.split()})


def played(deck: str, steps: list[str]) -> dict:
    state = new_game(deck)
    for step in steps:
        state = cd.apply(state, "p1", action_of(step))
    return state


def edited(state: dict, **changes) -> dict:
    new = cd.load(cd.dump(state))
    new.update(changes)
    return new


def scene(state: dict, seat: str | None = "p1") -> Scene:
    """What ``render_game`` hands the presenter: the seat's view, its legal actions as buttons, the result."""
    actions = cd.legal_actions(state, seat) if seat else []
    buttons = [ActionButton(a, cd.action_label(state, a), None) for a in actions]
    return Scene(rules=cd, view=cd.view(state, seat), seat=seat, buttons=buttons, result=cd.result(state))


def shown(state: dict, seat: str | None = "p1") -> dict:
    return presenter.present(scene(state, seat))


def actions(buttons: list[ActionButton]) -> list[dict]:
    return [b.action for b in buttons]


FRESH_A = stacked("A")  # bottom row J♥ Q♦ K♣, hand A♠ 2♠ 3♠
KD_STEP = LINE_A.index("KD")


class TestFound:
    def test_the_platform_finds_it_by_the_template_folder(self):
        s = scene(new_game(FRESH_A))
        assert present("clear_the_dungeon", s) == presenter.present(s)

    def test_the_template_gets_values_not_the_rules(self):
        page = (ROOT / "templates/clear_the_dungeon/game.html").read_text()
        game_block = page[page.index("{% block game %}") : page.index("{% block announce %}")]
        assert "rules." not in game_block and "{% set" not in game_block


class TestPlayerAndSpectator:
    def test_the_player_acts_in_the_attack_phase(self):
        out = shown(new_game(FRESH_A))
        assert (out["acting"], out["attacking"]) == (True, True)
        assert out["root_attrs"] == ' data-status="playing"' and isinstance(out["root_attrs"], Markup)
        assert out["status_line"] == {
            "tone": "",
            "lead": "Turn 1.",
            "detail": "Pick a card from your hand, then a monster that lights up. "
            "Cards still in your hand when you end the turn become hits.",
        }
        assert out["final_result"] is None and out["peek"] is None

    def test_a_spectator_sees_the_same_board_without_controls(self):
        state = new_game(FRESH_A)
        player, spectator = shown(state), shown(state, None)
        assert (spectator["acting"], spectator["attacking"]) == (False, False)
        assert spectator["status_line"] == {
            "tone": "watching",
            "lead": "Watching live.",
            "detail": "Only the player who started this game can act. Turn 1.",
        }
        assert spectator["placements"] == spectator["resign_buttons"] == []
        assert spectator["end_turn_button"] is None and spectator["offer_double"] is False
        assert [h["code"] for h in spectator["hand"]] == [h["code"] for h in player["hand"]] == ["AS", "2S", "3S"]
        assert all(slot["key"] is None for slot in spectator["dungeon_slots"])
        assert [{k: v for k, v in slot.items() if k != "key"} for slot in player["dungeon_slots"]] == [
            {k: v for k, v in slot.items() if k != "key"} for slot in spectator["dungeon_slots"]
        ]


class TestDungeon:
    def test_face_up_monsters_get_letters_in_reading_order(self):
        slots = shown(new_game(FRESH_A))["dungeon_slots"]
        assert [s["pos"] for s in slots] == list(cd.POSITIONS)
        assert [(s["pos"], s["key"]) for s in slots if s["state"] == "monster"] == [
            ("r7c1", "a"),
            ("r7c2", "b"),
            ("r7c3", "c"),
        ]
        assert all(s["key"] is None for s in slots if s["state"] != "monster")
        first = next(s for s in slots if s["pos"] == "r7c1")
        assert (first["card"], first["power"], first["sum"]) == ("JH", 11, 0)  # the engine's monster view, kept

    def test_later_monsters_skip_d_and_x_which_end_the_turn_and_double(self):
        state = played(LINE_A_DECK, LINE_A[:20])
        keys = [s["key"] for s in shown(state)["dungeon_slots"] if s["state"] == "monster"]
        assert keys == list(presenter.MONSTER_KEYS[: len(keys)]) and len(keys) >= 3
        assert "d" not in presenter.MONSTER_KEYS and "x" not in presenter.MONSTER_KEYS

    def test_the_page_script_reads_the_same_letters(self):
        script = (ROOT / "static/js/clear_the_dungeon.js").read_text()
        assert re.search(r'var LETTERS = "([a-z]+)"', script).group(1) == presenter.MONSTER_KEYS

    def test_the_legend_gives_the_engines_values(self):
        out = shown(new_game(FRESH_A))
        assert out["power_legend"] == "J 11, Q 12, K 13; ace 1, joker 10"
        assert out["monster_total"] == 12 and out["max_hits"] == 5


class TestHand:
    def test_each_card_has_its_digit_and_worth(self):
        assert shown(new_game(FRESH_A))["hand"] == [
            {"code": "AS", "index": 1, "key": "1", "label": "Ace of spades, worth 1"},
            {"code": "2S", "index": 2, "key": "2", "label": "2 of spades, worth 2"},
            {"code": "3S", "index": 3, "key": "3", "label": "3 of spades, worth 3"},
        ]

    def test_a_joker_is_worth_ten(self):
        state = played(LINE_A_DECK, [])
        assert shown(state)["hand"][0] == {"code": "JK", "index": 1, "key": "1", "label": "Joker, worth 10"}

    def test_only_the_first_nine_cards_have_a_key(self):
        hand = ["AS", "2S", "3S", "4S", "5S", "6S", "7S", "8S", "9S", "10S"]
        out = shown(edited(new_game(FRESH_A), hand=hand))
        assert [h["key"] for h in out["hand"]] == [str(i) for i in range(1, 10)] + [None]
        assert out["hand"][-1]["index"] == 10

    def test_the_double_switch_is_offered_while_the_k_spades_is_held(self):
        assert shown(played(LINE_A_DECK, LINE_A[:5]))["offer_double"] is True
        assert shown(new_game(FRESH_A))["offer_double"] is False


class TestEndTurn:
    def test_the_button_and_its_forecast(self):
        out = shown(new_game(FRESH_A))
        assert out["end_turn_button"].action == {"type": "end_turn"}
        assert out["end_turn_button"].label == "End turn: 3 cards become hits (3/5)"
        assert out["end_turn_fatal"] is False

    def test_a_fifth_hit_is_marked_fatal(self):
        # Both jokers in the bottom row: they join the opening hand, five cards that would all be hits.
        deck = " ".join(["JH", "QH"] + [c for c in cd.ALL_CARDS if c not in ("JH", "QH")])
        state = new_game(deck)
        assert shown(state)["end_turn_fatal"] is True
        assert shown(state, None)["end_turn_fatal"] is False

    def test_the_last_hit_but_one_is_warned_about(self):
        state = played(LINE_B_DECK, LINE_B[:-1])
        out = shown(state)
        assert (out["hits_danger"], out["hits_warning"]) == (True, "4 hits: one more loses the game.")
        early = shown(new_game(FRESH_A))
        assert (early["hits_danger"], early["hits_warning"]) == (False, None)

    def test_the_hit_row_names_each_hit_and_counts_the_free_places(self):
        state = cd.apply(new_game(FRESH_A), "p1", {"type": "end_turn"})
        assert shown(state)["hit_slots"] == [
            {"number": 1, "card": "AS", "label": "Hit 1: ace of spades"},
            {"number": 2, "card": "2S", "label": "Hit 2: 2 of spades"},
            {"number": 3, "card": "3S", "label": "Hit 3: 3 of spades"},
            {"number": 4, "card": None, "label": "Hit 4: free"},
            {"number": 5, "card": None, "label": "Hit 5: free"},
        ]


class TestPiles:
    def test_deck_and_clear_pile_counts_in_words(self):
        state = played(LINE_A_DECK, LINE_A[:4])
        out = shown(state)
        assert out["deck_label"] == "Power deck: 34 cards, face down"
        assert out["clear_pile_summary"] == "Clear pile: 3 cards"
        assert shown(new_game(FRESH_A))["clear_pile_summary"] is None

    def test_one_card_is_singular(self):
        state = edited(new_game(FRESH_A), power_deck=["4S"], clear_pile=["QH"])
        out = shown(state)
        assert out["deck_label"] == "Power deck: 1 card, face down"
        assert out["clear_pile_summary"] == "Clear pile: 1 card"


class TestItems:
    def test_a_usable_king_has_its_buttons(self):
        out = shown(played(LINE_A_DECK, LINE_A[:4]))
        [spade] = out["items"]
        assert (spade["item"], spade["title"], spade["idle_hint"]) == ("KS", "K♠", None)
        assert actions(spade["buttons"]) == [{"type": "use_item", "item": "KS", "target": "r7c1"}]

    def test_an_idle_k_spades_says_why_and_how_it_still_doubles(self):
        state = played(LINE_A_DECK, LINE_A[:5])
        [spade] = shown(state)["items"]
        assert spade["buttons"] == []
        assert spade["idle_hint"] == (
            "Not usable right now: no face-up monster holds exactly one card. To double while placing, switch on ×2 "
            "next to your hand (or pick a “doubled” placement from the list)."
        )
        [watched] = shown(state, None)["items"]
        assert watched["idle_hint"] is None  # only the player is told what to do

    def test_an_idle_king_other_than_the_spade_only_says_why(self):
        state = edited(played(LINE_A_DECK, LINE_A[:13]), power_deck=[])
        [club] = shown(state)["items"]
        assert (club["title"], club["buttons"]) == ("K♣", [])
        assert club["idle_hint"] == "Not usable right now: the power deck is empty."

    def test_no_kings_no_items(self):
        assert shown(new_game(FRESH_A))["items"] == []


class TestPeek:
    def test_the_player_decides_where_the_peeked_card_goes(self):
        state = played(LINE_A_DECK, LINE_A[: KD_STEP + 1])
        out = shown(state)
        assert out["peek"]["card"] == "7H"
        assert out["peek"]["prompt"] == "Move it to the top to draw it next, or leave it at the bottom."
        assert [(c["button"].action["move_to_top"], c["cls"]) for c in out["peek"]["choices"]] == [
            (True, "primary"),
            (False, ""),
        ]
        assert out["status_line"]["lead"] == "Turn 11: your K♦ decision."
        assert (out["acting"], out["attacking"]) == (True, False)
        assert out["end_turn_button"] is None and out["offer_double"] is False
        assert [c.action["type"] for c in out["resign_buttons"]] == ["resign"]

    def test_a_spectator_sees_the_card_but_no_choice(self):
        out = shown(played(LINE_A_DECK, LINE_A[: KD_STEP + 1]), None)
        assert out["peek"] == {
            "card": "7H",
            "choices": [],
            "prompt": "The player is choosing whether this card goes to the top of the power deck.",
        }


class TestPlacements:
    def test_every_legal_placement_is_listed_in_the_engines_order(self):
        state = new_game(FRESH_A)
        plays = [a for a in cd.legal_actions(state, "p1") if a["type"] == "play"]
        assert actions(shown(state)["placements"]) == plays and plays


class TestResult:
    def test_cleared(self):
        out = shown(played(LINE_A_DECK, LINE_A))
        assert out["root_attrs"] == ' data-status="won"'
        assert out["status_line"] == {"tone": "over", "lead": "Game over.", "detail": "The dungeon is cleared!"}
        assert out["final_result"]["scores"] == {"p1": 2250}
        assert out["final_result"]["text"] == (
            "Cleared in 12 turns with 0 hits: 12 monsters × 100, +1000 for the win, "
            "+10 for each of the 5 hits to spare."
        )
        assert (out["acting"], out["placements"], out["resign_buttons"]) == (False, [], [])

    def test_cleared_with_one_hit(self):
        state = edited(played(LINE_A_DECK, LINE_A), hit_row=["4S"])
        assert shown(state)["final_result"]["text"] == (
            "Cleared in 12 turns with 1 hit: 12 monsters × 100, +1000 for the win, +10 for each of the 4 hits to spare."
        )

    @pytest.mark.parametrize(
        ("ending", "headline", "opening"),
        [
            ("five_hits", "The fifth hit — the monsters win.", "Five hits after 2 turns."),
            ("resigned", "The player gave up.", "Resigned on turn 1."),
            ("out_of_power", "The power deck ran out.", "Out of power on turn 1."),
        ],
    )
    def test_lost(self, ending, headline, opening):
        state = new_game(FRESH_A)
        if ending == "five_hits":
            state = cd.apply(cd.apply(state, "p1", {"type": "end_turn"}), "p1", {"type": "end_turn"})
        elif ending == "resigned":
            state = cd.apply(state, "p1", {"type": "resign"})
        else:  # the engine's seventh rule: unreachable in play, so edited
            state = edited(state, status="lost_power")
        for seat in ("p1", None):
            out = shown(state, seat)
            assert out["final_result"]["reason"] == ending
            assert out["status_line"] == {"tone": "over", "lead": "Game over.", "detail": headline}
            assert out["final_result"]["text"] == f"{opening} 0 of 12 monsters defeated, 100 points each."
