"""Hebrac's Dungeon's presenter on real engine states: stacked deals played through the rules
(the deals of test_hebracs_dungeon_web.py) and exact situations built with ``tests.helpers.hebracs_dungeon.situation``.
What the page prints is asserted on the presenter's output, no page rendered."""

from __future__ import annotations

import pytest

import rules_engine
from rules_engine.games.hebracs_dungeon import trade
from tests.helpers.hebracs_dungeon import situation
from webapp.domain.play import ActionButton
from webapp.pages.presenters import Scene
from webapp.pages.presenters import hebracs_dungeon as presenter

R = rules_engine.get("hebracs-dungeon")

# Deal A of the web and browser tests: a battle won with a strength potion, a merchant, a trade,
# three spells, a black priestess, a descent and four aces on level 2.
DECK_A = (
    "6S 9C 10C 4H 8D JC 2H 2H 3D 2C 2H 2H "
    "AC 10H JS AD AD KH QS 2S AS AC 2S 2S "
    "3H 4D "
    "AH AD AS AC 2H 2H 2H 2H 2H 2H 2H 2H "
    "AD AS AC AH 2S 2S 2S 2S 2S 2S 2S 2S "
    "5D 5D 5D 5D 5D 5D"
)
# Deal G: (1,1) hides a Genie of Death behind an empty chamber; a 5 × 6 level.
DECK_G = " ".join(["KS"] + ["2H"] * 29 + ["AH"] + ["2S"] * 29 + ["5D"] * 10)
ATTACK = {"type": "attack"}


def mv(row: int, col: int) -> dict:
    return {"type": "move", "row": row, "col": col}


def deal(deck: str, *actions: dict, **options) -> dict:
    state = R.new_game(1, ["p1"], {"deck": deck.split(), **options})
    return play(state, *actions)


def play(state: dict, *actions: dict) -> dict:
    for action in actions:
        state = R.apply(state, "p1", action)
    return state


def scene(state: dict, seat: str | None = "p1") -> Scene:
    """The scene the web layer builds: the viewer's view and legal actions as buttons."""
    buttons = [ActionButton(a, R.action_label(state, a), None) for a in R.legal_actions(state, seat)] if seat else []
    return Scene(rules=R, view=R.view(state, seat), seat=seat, buttons=buttons, result=R.result(state))


def present(state: dict, seat: str | None = "p1") -> dict:
    return presenter.present(scene(state, seat))


def cell(page: dict, key: str) -> dict:
    return next(c for c in page["level"]["cells"] if c["key"] == key)


def spell(page: dict, sid: str) -> dict:
    return next(s for s in page["spellbook"]["spells"] if s["id"] == sid)


def ticked(picker: dict) -> list[str]:
    return [item["card"] for item in picker["items"] if item["checked"]]


class TestPayments:
    """The sentence under a payment picker: one case per kind of payment, no change given (6.12)."""

    SAY = presenter.pay_words(10, "points")

    @pytest.mark.parametrize(
        "values,cards,case,text",
        [
            ([], [], "none", "Choose cards worth 10 points."),
            ([3], ["3D"], "short", "3 of 10 points: not enough."),
            ([8, 3], ["JC", "3D"], "over", "11 points for 10: enough (1 lost, no change)."),
            (
                [9, 8, 3],
                ["9C", "JC", "3D"],
                "spare",
                '20 points: 3<span class="suit red">♦</span> is not needed — no change is given.',
            ),
            ([7, 3], ["JC", "3D"], "exact", "10 points: exactly enough."),
        ],
    )
    def test_each_case_has_its_sentence(self, values, cards, case, text):
        assert trade.payment_case(values, 10) == case
        assert str(presenter.pay_text(self.SAY, values, cards, 10)) == text

    def test_each_case_is_one_sentence_with_blanks(self):
        assert self.SAY["short"] == "{total} of 10 points: not enough."
        assert self.SAY["over"] == "{total} points for 10: enough ({lost} lost, no change)."
        assert self.SAY["spare"] == "{total} points: {spare} is not needed — no change is given."

    def test_the_first_of_the_least_worth_cards_is_the_spare_one(self):
        say = presenter.pay_words(4, "gems")
        assert str(presenter.pay_text(say, [2, 5, 2], ["2D", "5D", "2D"], 4)).startswith("9 gems: 2<span")

    @pytest.mark.parametrize(
        "total,per,cap,text",
        [
            (0, 2, 5, "Choose at least one magic potion."),
            (10, 2, 5, "10 points: 5 life points."),
            (3, 2, 5, "3 points: 1 life point, 1 point lost."),
            (14, 2, 5, "14 points: 5 life points, 4 points lost."),
        ],
    )
    def test_a_scaled_spell_buys_whole_steps_up_to_its_cap(self, total, per, cap, text):
        assert presenter.scaled_text(presenter.scaled_words("life point"), total, per, cap) == text

    def test_the_canonical_choice_is_ticked_copies_counted(self):
        assert presenter.checked_flags(["2D", "5D", "2D", "2D"], ["2D", "2D"]) == [True, False, True, False]


class TestDealA:
    def test_the_first_page_offers_the_four_corners(self):
        page = present(deal(DECK_A))
        assert page["status_line"] == {
            "tone": "",
            "lead": "Your move.",
            "text": "Level 1: choose a corner chamber to enter.",
        }
        enterable = [c["key"] for c in page["level"]["cells"] if c["enter"]]
        assert enterable == ["1,1", "1,4", "3,1", "3,4"]
        assert cell(page, "1,1")["classes"] == "chamber reachable corner"
        assert cell(page, "1,1")["label"] == (
            "Chamber (1,1): unexplored, enemy face down, treasure face down; you can enter"
        )
        assert cell(page, "2,2")["classes"] == "chamber"
        assert page["encounter"] is None and page["give_up"] is not None
        assert page["bag"]["under_map"] and page["bag"]["count"] == "0 treasures"
        assert page["spellbook"]["hint"] == "0 magic points in potions"
        assert spell(page, "healing")["state"] == "Not now: you have no magic potion"
        # Nothing castable: the book is only its fold of the rest, each with its reason.
        book = page["spellbook"]
        assert book["ready"] == [] and book["others"] == book["spells"]
        assert book["others_title"] == f"Other spells ({len(book['spells'])})"
        assert spell(page, "healing")["cost"] == "2 per life point" and spell(page, "teleport")["cost"] == "8 points"

    def test_a_battle_forecasts_the_card_that_wins_and_tells_the_last_attack(self):
        page = present(deal(DECK_A, mv(1, 1), mv(1, 2)))
        fight = page["encounter"]["battle"]
        assert page["encounter"]["kind"] == "battle" and fight["title"] == "Battle in chamber (1,2)"
        assert fight["foe_name"] == "Amazon warrior" and fight["enemy_life"] == 10
        assert str(fight["forecast"]["verdict"]) == (
            "A card worth <strong>10</strong> or more wins; less costs you the difference."
        )
        assert fight["spell_chip"] == {"cls": "free", "text": "One spell allowed in this battle"}
        assert fight["helps"] == []
        assert [str(d["words"]) for d in fight["prep"]] == ['Drink 6<span class="suit black">♠</span> (+6)']
        assert cell(page, "1,2")["classes"] == "chamber visited here active"

        page = present(deal(DECK_A, mv(1, 1), mv(1, 2), ATTACK))
        last = page["encounter"]["battle"]["last"]
        assert (last["sum"], last["total"], last["against"]) == ("3", 3, 10)
        assert str(last["verdict"]) == 'you lost <strong class="dmg">7</strong> life (10 − 3).'

        page = present(deal(DECK_A, mv(1, 1), mv(1, 2), ATTACK, {"type": "drink", "card": "6S"}))
        fight = page["encounter"]["battle"]
        assert fight["helps"] == ["Strength potions +6 (next attack)"]
        assert fight["forecast"]["lead"] == "Next attack: the top card of the Hand Deck + 6."
        assert "<strong>4</strong>" in str(fight["forecast"]["verdict"])

    def test_the_merchant_gems_are_ticked_and_priced(self):
        state = deal(DECK_A, mv(1, 1), mv(1, 2), ATTACK, {"type": "drink", "card": "6S"}, ATTACK, mv(2, 1), mv(2, 2))
        merchant = present(state)["encounter"]["merchant"]
        assert merchant["title"] == "A merchant in (2,2)"
        assert str(merchant["price_text"]) == "Price <strong>8 gems</strong>. You hold 8 gems."
        picker = merchant["picker"]
        assert ticked(picker) == ["8D"] and str(picker["text"]) == "8 gems: exactly enough."
        assert picker["ask"] == {"field": "a_gems[]", "target": 8, "noun": "gems", "worths": "8D:8"}
        assert picker["target"] == 8
        assert [item["id"] for item in picker["items"]] == ["gem-1"]
        assert merchant["can_buy"] and merchant["steal_hint"] and not merchant["free_buys"]

        watched = present(state, None)["encounter"]["merchant"]
        assert watched["picker"] is None and not watched["no_gems"] and not watched["steal_hint"]

    def test_a_trade_offer_is_ticked_and_says_what_is_lost(self):
        state = deal(
            DECK_A,
            mv(1, 1),
            mv(1, 2),
            ATTACK,
            {"type": "drink", "card": "6S"},
            ATTACK,
            mv(2, 1),
            mv(2, 2),
            {"type": "buy", "gems": ["8D"]},
            mv(3, 1),
            mv(1, 3),
            {"type": "propose_trade"},
        )
        adventurer = present(state)["encounter"]["adventurer"]
        assert adventurer["mode"] == "picker" and adventurer["badge"] == "worth 10"
        picker = adventurer["picker"]
        assert ticked(picker) == ["JC", "3D"]
        assert str(picker["text"]) == "11 points for 10: enough (1 lost, no change)."
        assert [item["caption"] for item in picker["items"]] == ["worth 9", "worth 8", "worth 3"]

        watched = present(state, None)["encounter"]["adventurer"]
        assert watched["mode"] == "watching" and watched["text"] == "He wants cards worth 10."

    def test_the_spell_book_ticks_the_potions_and_marks_the_map(self):
        state = deal(DECK_A, mv(1, 1), mv(1, 2), ATTACK, {"type": "drink", "card": "6S"}, ATTACK)
        page = present(state)
        assert page["spellbook"]["hint"] == "9 magic points in potions"
        teleport = spell(page, "teleport")
        assert teleport["ready"] and teleport["needs"] == "target" and teleport["aim"] == "teleport"
        assert str(teleport["picker"]["text"]) == "9 points for 8: enough (1 lost, no change)."
        healing = spell(page, "healing")["picker"]
        assert healing["ask"] == {"field": "a_potions[]", "per": 2, "cap": 7, "unit": "life point", "worths": "9C:9"}
        assert spell(page, "genie_of_luck")["state"] == "Not now: needs 11 points, your potions give 9"
        # What can be cast now is listed first; the rest is folded, in the book's own order.
        book = page["spellbook"]
        assert "teleport" in [s["id"] for s in book["ready"]] and all(s["ready"] for s in book["ready"])
        assert [s["id"] for s in book["others"]] == [s["id"] for s in book["spells"] if not s["ready"]]
        assert "genie_of_luck" in [s["id"] for s in book["others"]]
        aims = [a["id"] for c in page["level"]["cells"] for a in c["aims"]]
        assert "aim-teleport-2-3" in aims
        assert "t-teleport" in cell(page, "2,3")["classes"]

    def test_the_victory_ends_with_the_details_of_the_result(self):
        state = deal(
            DECK_A,
            mv(1, 1),
            mv(1, 2),
            ATTACK,
            {"type": "drink", "card": "6S"},
            ATTACK,
            mv(2, 1),
            mv(2, 2),
            {"type": "buy", "gems": ["8D"]},
            mv(3, 1),
            mv(1, 3),
            {"type": "propose_trade"},
            {"type": "offer", "cards": ["JC", "3D"]},
            mv(3, 2),
            mv(1, 4),
            {"type": "cast", "spell": "teleport", "potions": ["10C"], "target": "next_level"},
            mv(1, 1),
            mv(1, 2),
            mv(1, 3),
            mv(1, 4),
        )
        page = present(state)
        assert page["status_line"]["tone"] == "over"
        assert page["status_line"]["text"].startswith("Victory! You hold the four legendary treasures. Score ")
        assert page["result_details"].endswith(" · a stacked deal (not ranked)")
        assert page["spellbook"] is None and page["give_up"] is None and page["encounter"] is None
        assert [ace["state"] for ace in page["hero"]["aces"]] == ["found"] * 4
        assert page["hero"]["life_note"] == "Maximum 15 + 5 Ruby of Gaza"


class TestWatching:
    def test_a_spectator_reads_the_same_board_without_any_control(self):
        state = deal(DECK_A, mv(1, 1), mv(1, 2), ATTACK)
        page = present(state, None)
        assert page["status_line"]["tone"] == "watching"
        assert page["status_line"]["text"].startswith("Only the player who started this game can act. Battle!")
        assert not page["controls"] and page["spellbook"] is None and page["give_up"] is None
        assert not page["bag"]["form"] and not page["bag"]["under_map"] and page["bag"]["title"] == "The bag"
        assert page["encounter"]["form"] is False
        assert all(not c["enter"] and not c["peek"] and not c["aims"] for c in page["level"]["cells"])


class TestPanels:
    def test_the_genie_of_death_ticks_the_engine_choice_on_the_map(self):
        page = present(deal(DECK_G, mv(1, 1), rows=5, cols=6))
        genie = page["encounter"]["genie"]
        assert page["encounter"]["needs"] == "picks"
        assert genie["picks"] == [[1, 2], [1, 3], [1, 4]]
        assert genie["chosen"] == "3 of 3 chosen." and genie["say"] == "{n} of 3 chosen."
        destroy = {c["key"]: c["aims"][0]["checked"] for c in page["level"]["cells"] if c["aims"]}
        assert [key for key, checked in destroy.items() if checked] == ["1,2", "1,3", "1,4"]
        assert len(destroy) == 29  # every chamber of the level but the genie's own

    def test_priestess_hebrac_pause_and_overflow(self):
        deck = "5S 7H 3C JK JC 2H 2H 2H 2H 2H 2H 2H AC QH JK AD JD 2S 2S 2S 2S 2S 2S 2S 4D 9S KD"
        state = deal(deck, mv(1, 1), mv(1, 2), strength_after_attack=True, inventory_limit=3)
        priestess = present(state)["encounter"]["priestess"]
        assert [c["cls"] for c in priestess["choices"]] == ["", "primary"]

        state = play(state, {"type": "priestess", "choice": "treasure"}, mv(1, 3))
        hebrac = present(state)["encounter"]["hebrac"]
        assert hebrac["title"] == "Hebrac himself" and hebrac["also_lost"] == " and the treasure"

        state = play(state, {"type": "play"}, mv(1, 4))
        hebrac = present(state)["encounter"]["hebrac"]
        assert hebrac["prize"] == "the next card of the Hand Deck" and not hebrac["deck_empty"]

        state = play(state, {"type": "decline"}, mv(2, 1), {"type": "fight"}, ATTACK)
        drawn = present(state)["encounter"]["battle"]["drawn"]
        assert (drawn["sum"], drawn["total"], drawn["against"]) == ("9", 9, 10)
        assert drawn["verdict"] == "you would lose 1 life."

        state = play(state, {"type": "finish_attack"}, ATTACK)
        encounter = present(state)["encounter"]
        assert encounter["kind"] == "overflow" and encounter["limit"] == 3
        assert [b.action["card"] for b in encounter["drops"]] == ["5S", "7H", "3C", "JC"]
        assert present(state)["bag"]["form"] is False  # the bag's drinks wait until one is dropped

    def test_a_decision_inside_a_battle_shows_the_battle_paused(self):
        deck = " ".join(["2C"] + ["2H"] * 11 + ["AC", "10H"] + ["2S"] * 10 + ["3H"])
        state = deal(deck, mv(1, 1), mv(1, 2), {"type": "cast", "spell": "remote_vision", "potions": ["2C"]})
        encounter = present(state)["encounter"]
        assert encounter["kind"] == "remote_vision" and encounter["points"] == "2 points"
        assert encounter["paused"] == {
            "enemy": "10H",
            "text": "The battle in chamber (1,2) against life 10 goes on afterwards (spell used: Remote Vision).",
        }

    def test_the_bag_sums_each_kind_and_offers_one_drink_per_card(self):
        state = situation(
            inventory=["3H", "3H", "5D", "AD", "4C", "AC", "JS"], life=5, position=(1, 1), cells={(1, 1): "cleared"}
        )
        bag = present(state)["bag"]
        groups = {g["id"]: g for g in bag["groups"]}
        assert groups["life"]["sum"] == "6 life in all"
        assert [bool(item["drink"]) for item in groups["life"]["items"]] == [True, False]
        assert groups["gems"]["sum"] == "5 gems · Bag of Meres: buy and trade for free"
        assert groups["magic"]["sum"] == "8 points (doubled by the Scepter)"
        assert groups["magic"]["items"][0]["badge"] == "8 pts"
        assert groups["prisoners"]["sum"] == "1 × +3 per attack"
        assert bag["note"] == "Strength potions and prisoners work in battles only. Aces are shown with the goal above."

    def test_a_battle_lists_what_helps_it(self):
        state = situation(cells={(1, 1): "9C/2H"}, inventory=["AS", "JD", "5S"], effects=["anti_magic", "curse"])
        state = play(state, mv(1, 1), {"type": "call_prisoner", "card": "JD"})
        page = present(state)
        fight = page["encounter"]["battle"]
        assert [str(text) for text in fight["helps"]] == [
            "Bracelet of Armok +3",
            'Prisoners J<span class="suit red">♦</span> +3',
            "Anti-Magic: this magician cannot hurt you",
        ]
        assert fight["cursed"] and fight["forecast"]["verdict"] == "Any card wins."
        assert page["level"]["effects"] == ["Anti-Magic", "Curse: enemies' life halved"]

    def test_super_strength_doubles_the_forecast_and_uses_the_battle_spell(self):
        state = situation(cells={(1, 1): "10S/2H"}, inventory=["5C"])
        state = play(state, mv(1, 1), {"type": "cast", "spell": "super_strength", "potions": ["5C"]})
        page = present(state)
        fight = page["encounter"]["battle"]
        assert fight["spell_chip"] == {"cls": "used", "text": "Spell used: Super Strength (one per battle)"}
        assert fight["helps"] == ["Super Strength: card values ×2"]
        assert fight["forecast"]["lead"] == "Next attack: the top card of the Hand Deck × 2."
        assert str(fight["forecast"]["verdict"]) == (
            "A card worth <strong>5</strong> or more wins; less costs you the difference."
        )
        assert page["spellbook"]["hint"] == "0 magic points in potions · this battle's spell is used"
