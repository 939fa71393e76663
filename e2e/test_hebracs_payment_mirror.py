"""The payment rules have one home, the engine (``trade.payment_case``, ``spells.scaled_units``),
worded by the presenter: the page script keeps no copy of them. As the player ticks cards, the
picker asks the server (htmx) and shows its answer, which must be the sentence the server draws
for the same ticks."""

from __future__ import annotations

import itertools
import re

from markupsafe import Markup
from playwright.sync_api import expect

from webapp.pages.presenters.hebracs_dungeon.payments import picker

# Deal A of e2e/test_hebracs_dungeon.py: the trade in (1,3) wants 10 points for 9♣, J♣ (8) and 3♦.
DECK_A = (
    "6S 9C 10C 4H 8D JC 2H 2H 3D 2C 2H 2H "
    "AC 10H JS AD AD KH QS 2S AS AC 2S 2S "
    "3H 4D "
    "AH AD AS AC 2H 2H 2H 2H 2H 2H 2H 2H "
    "AD AS AC AH 2S 2S 2S 2S 2S 2S 2S 2S "
    "5D 5D 5D 5D 5D 5D"
)
OFFER = [("9C", 9, "9 pts"), ("JC", 8, "8 pts"), ("3D", 3, "3 pts")]
NAMES = {"9C": "9 of clubs", "JC": "jack of clubs", "3D": "3 of diamonds"}


def press(page, name):
    before = int(page.locator("#game").get_attribute("data-revision"))
    page.get_by_role("button", name=name, exact=True).first.click()
    expect(page.locator("#game")).to_have_attribute("data-revision", str(before + 1))


def test_the_offer_picker_shows_the_servers_sentence_for_every_choice(page, console_errors):
    page.goto("/")
    card = page.locator("#game-hebracs-dungeon")
    card.get_by_text("Options").click()
    card.get_by_label("Stacked deal").fill(DECK_A)
    card.get_by_role("button", name="Play Hebrac's Dungeon").click()
    page.wait_for_url(re.compile(r".*/g/[A-Za-z0-9_-]{20,}$"))
    for name in ("Enter chamber (1,1)", "Enter chamber (1,2)", "Attack", "Drink 6♠", "Attack"):
        press(page, name)
    for name in ("Enter chamber (2,1)", "Enter chamber (2,2)", "Buy with the ticked gems"):
        press(page, name)
    for name in ("Enter chamber (3,1)", "Enter chamber (1,3)", "Propose a trade"):
        press(page, name)
    offer = page.locator("#encounter [data-pay-out]")
    for n in (0, 3, 1, 2):
        for chosen in itertools.combinations([code for code, _, _ in OFFER], n):
            for code, _, _ in OFFER:
                page.get_by_role("checkbox", name=re.compile(NAMES[code])).set_checked(code in chosen)
            expected = picker("offer-", "a_cards[]", OFFER, list(chosen), 10, "points")["text"]
            expect(offer).to_have_text(Markup(expected).striptags())
    assert not console_errors
