"""Hebrac's Dungeon's card pickers ask the server for the sentence under them (issue 23.3 item 2):
the page script keeps no copy of the payment rule. The picker carries what it asks with
(``ask``: the field, the price or the scaled spell's step, each card's worth) and the read-only
route answers with the sentence the page draws first for the same ticks."""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest

from rules_engine.games.hebracs_dungeon.spells import scaled_units
from rules_engine.games.hebracs_dungeon.trade import PAYMENT_CASES, payment_case
from webapp.pages.presenters.hebracs_dungeon.payments import picker

ROUTE = "/answers/hebracs-dungeon/payment"
SCRIPT = Path(__file__).resolve().parents[2] / "static" / "js" / "hebracs_dungeon.js"

OFFER = [("9C", 9, "9 pts"), ("JC", 8, "8 pts"), ("3D", 3, "3 pts"), ("2D", 2, "2 pts")]
POTIONS = [("10C", 10, "10 pts"), ("3C", 3, "3 pts"), ("2C", 2, "2 pts")]


def asked(client, ask: dict, ticked: list[str]):
    return client.get(ROUTE, query_string={**ask, ask["field"]: ticked})


@pytest.fixture
def client(app):
    return app.test_client()


def test_every_payment_is_worded_as_the_page_first_draws_it(client):
    cases = set()
    for target in (0, 4, 10, 11, 25):
        for n in range(len(OFFER) + 1):
            for chosen in itertools.combinations([card for card, _, _ in OFFER], n):
                drawn = picker("offer-", "a_cards[]", OFFER, list(chosen), target, "points")
                answer = asked(client, drawn["ask"], list(chosen))
                assert answer.status_code == 200
                assert answer.get_data(as_text=True) == str(drawn["text"])
                cases.add(payment_case([w for c, w, _ in OFFER if c in chosen], target))
    assert cases == set(PAYMENT_CASES)


def test_a_spare_card_is_named_with_its_suit(client):
    drawn = picker("offer-", "a_cards[]", OFFER, [], 10, "points")
    answer = asked(client, drawn["ask"], ["9C", "JC", "3D"]).get_data(as_text=True)
    assert answer == '20 points: 3<span class="suit red">♦</span> is not needed — no change is given.'


@pytest.mark.parametrize("per,cap", [(1, 9), (2, 5), (3, 0)])
def test_a_scaled_spell_is_worded_from_the_engines_units(client, per, cap):
    scaled = {"per": per, "cap": cap, "unit": "life point"}
    for n in range(len(POTIONS) + 1):
        for chosen in itertools.combinations([card for card, _, _ in POTIONS], n):
            drawn = picker("spell-healing-p", "a_potions[]", POTIONS, list(chosen), per, "points", scaled=scaled)
            answer = asked(client, drawn["ask"], list(chosen)).get_data(as_text=True)
            assert answer == drawn["text"]
            if chosen:
                units, _ = scaled_units(sum(w for c, w, _ in POTIONS if c in chosen), per, cap)
                assert f": {units} life point" in answer


def test_the_picker_asks_the_route_and_carries_no_sentence_or_rule(app):
    drawn = picker("gem-", "a_gems[]", [("8D", 8, "8")], ["8D"], 8, "gems")
    assert drawn["ask"] == {"field": "a_gems[]", "target": 8, "noun": "gems", "worths": "8D:8"}
    assert "say" not in drawn
    script = SCRIPT.read_text()
    assert "payCase" not in script and "scaledText" not in script and "Math.min" not in script


@pytest.mark.parametrize(
    "query",
    [
        {"field": "a_cards[]", "target": "10", "noun": "<b>", "worths": "9C:9", "a_cards[]": "9C"},
        {"field": "a_cards[]", "target": "10", "noun": "points", "worths": "9C:9", "a_cards[]": "KH"},
        {"field": "a_cards[]", "target": "ten", "noun": "points", "worths": "9C:9"},
        {"field": "a_cards[]", "target": "10", "noun": "points", "worths": "9C"},
        {"field": "a_potions[]", "per": "2", "cap": "5", "unit": "goat", "worths": "9C:9"},
        {"field": "a_potions[]", "per": "0", "cap": "5", "unit": "chamber", "worths": "9C:9", "a_potions[]": "9C"},
        {"target": "10", "noun": "points", "worths": "9C:9"},
    ],
)
def test_a_malformed_question_is_refused(client, query):
    assert client.get(ROUTE, query_string=query).status_code == 400
