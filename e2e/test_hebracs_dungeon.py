"""Hebrac's Dungeon played through the UI in Debian's Chromium against gunicorn, on stacked deals."""

from __future__ import annotations

import re

from playwright.sync_api import expect

# Treasures of level 1 in reading order, then their enemies, then the Hand Deck (see the web test).
DECK_A = (
    "6S 9C 10C 4H 8D JC 2H 2H 3D 2C 2H 2H "
    "AC 10H JS AD AD KH QS 2S AS AC 2S 2S "
    "3H 4D "
    "AH AD AS AC 2H 2H 2H 2H 2H 2H 2H 2H "
    "AD AS AC AH 2S 2S 2S 2S 2S 2S 2S 2S "
    "5D 5D 5D 5D 5D 5D"
)
# A 5 × 6 level whose first corner hides a Genie of Death behind an empty chamber.
DECK_G = " ".join(["KS"] + ["2H"] * 29 + ["AH"] + ["2S"] * 29 + ["5D"] * 10)


def start_game(page, deck, **numbers):
    page.goto("/")
    card = page.locator("#game-hebracs-dungeon")
    card.get_by_text("Options").click()
    for label, value in numbers.items():
        card.get_by_label(label).fill(str(value))
    card.get_by_label("Stacked deal").fill(deck)
    card.get_by_role("button", name="Play Hebrac's Dungeon").click()
    page.wait_for_url(re.compile(r".*/g/[A-Za-z0-9_-]{20,}$"))
    expect(page.locator("#game")).to_be_visible()
    return page.url


def version(page):
    return int(page.locator("#game").get_attribute("data-revision"))


def press(page, name):
    """Click a button by its accessible name and wait for the board of the next version."""
    before = version(page)
    page.get_by_role("button", name=name, exact=True).first.click()
    expect(page.locator("#game")).to_have_attribute("data-revision", str(before + 1))


def enter(page, row, col):
    press(page, f"Enter chamber ({row},{col})")


def chamber(page, row, col):
    return page.locator(f'.chamber .pair[aria-label^="Chamber ({row},{col})"]')


def open_spell(page, sid):
    # A spell that cannot be cast now waits in the spell book's fold "Other spells".
    fold = page.locator(f"#spells-others:has(#book-{sid})")
    if fold.count() and fold.get_attribute("open") is None:
        fold.locator("> summary").click()
    page.locator(f"#book-{sid} summary").click()
    expect(page.locator(f"#book-{sid}")).to_have_attribute("open", "")


def test_deal_a_from_the_first_corner_to_victory_with_a_spectator(page, new_page, console_errors, axe_check):
    url = start_game(page, DECK_A)
    expect(page.locator("#status")).to_contain_text("choose a corner chamber")
    expect(page.get_by_role("button", name=re.compile(r"^Enter chamber"))).to_have_count(4)
    axe_check(page)

    watcher = new_page()
    watcher.goto(url)
    expect(watcher.locator("#status")).to_contain_text("Watching live")
    expect(watcher.locator("html")).to_have_attribute("data-live", "connected")

    # A battle: one attack falls short, a strength potion makes the next one enough.
    enter(page, 1, 1)
    enter(page, 1, 2)
    expect(page.locator("#enc-title")).to_have_text("Battle in chamber (1,2)")
    press(page, "Attack")
    expect(page.locator("#encounter")).to_contain_text("3 = 3 against 10: you lost 7 life (10 − 3).")
    axe_check(page)
    expect(watcher.locator("#game")).to_have_attribute("data-revision", str(version(page)))
    expect(watcher.locator("#enc-title")).to_have_text("Battle in chamber (1,2)")
    expect(watcher.locator("form.play")).to_have_count(0)
    expect(
        watcher.locator("#game button[name=action], #game button[name=compose], #game input:not([type=hidden])")
    ).to_have_count(0)
    page.reload()  # the game resumes where it was
    expect(page.locator("#enc-title")).to_have_text("Battle in chamber (1,2)")
    press(page, "Drink 6♠")
    expect(page.locator("#encounter")).to_contain_text("Strength potions +6 (next attack)")
    press(page, "Attack")
    expect(page.locator("#log")).to_contain_text("scores 10 against 10: the enemy is defeated")

    # A merchant: the gems that would be spent are ticked; no change is given.
    enter(page, 2, 1)
    enter(page, 2, 2)
    expect(page.locator("#enc-title")).to_have_text("A merchant in (2,2)")
    expect(page.get_by_role("checkbox", name=re.compile("8 of diamonds"))).to_be_checked()
    expect(page.locator("#encounter [data-pay-out]")).to_have_text("8 gems: exactly enough.")
    axe_check(page)
    press(page, "Buy with the ticked gems")
    expect(page.locator(".g-prisoners")).to_contain_text("1 × +3 per attack")

    # A trade: pick the cards to offer and see whether they are enough.
    enter(page, 3, 1)
    enter(page, 1, 3)
    press(page, "Propose a trade")
    offer = page.locator("#encounter [data-pay-out]")
    expect(offer).to_have_text("11 points for 10: enough (1 lost, no change).")
    page.get_by_role("checkbox", name=re.compile("jack of clubs")).uncheck()
    expect(offer).to_have_text("3 of 10 points: not enough.")
    page.get_by_role("checkbox", name=re.compile("9 of clubs")).check()
    expect(offer).to_have_text("12 points for 10: enough (2 lost, no change).")
    page.get_by_role("checkbox", name=re.compile("9 of clubs")).uncheck()
    page.get_by_role("checkbox", name=re.compile("jack of clubs")).check()
    axe_check(page)
    press(page, "Offer the ticked cards")
    expect(page.locator("#log")).to_contain_text("with the adventurer")
    enter(page, 3, 2)
    enter(page, 1, 4)

    # Spells: Remote Vision (peek on the map), Healing (the potion chosen), Teleport (a chamber).
    open_spell(page, "remote_vision")
    expect(page.locator("#book-remote_vision")).to_contain_text("2 points: 2 chambers.")
    press(page, "Cast Remote Vision")
    press(page, "Peek into (2,3)")
    expect(chamber(page, 2, 3)).to_have_attribute("aria-label", re.compile("you saw queen of spades"))
    expect(watcher.locator("#game")).to_have_attribute("data-revision", str(version(page)))
    expect(chamber(watcher, 2, 3)).to_have_attribute("aria-label", re.compile(r"enemy face down, treasure face down$"))
    press(page, "Stop peeking")

    open_spell(page, "healing")
    book = page.locator("#book-healing")
    book.get_by_role("checkbox", name=re.compile("9 of clubs")).uncheck()
    book.get_by_role("checkbox", name=re.compile("10 of clubs")).check()
    expect(book.locator("[data-pay-out]")).to_have_text("10 points: 5 life points.")
    press(page, "Cast Healing")
    expect(page.locator(".hd-life .big")).to_contain_text("13 / 15")

    open_spell(page, "teleport")
    page.get_by_role("button", name="Cast Teleport").click()
    expect(page.locator("#book-teleport [data-need-msg]")).to_have_text("Choose the chamber on the map first.")
    page.get_by_label("Go to (2,3) by Teleport").check()
    axe_check(page)
    press(page, "Cast Teleport")
    expect(page.locator("#log")).to_contain_text(re.compile(r"The black priestess \(Q.\) steals 4."))
    expect(page.locator(".g-life")).to_contain_text("2 life in all")

    # Down a level, then the four aces.
    press(page, "Go down to the next level")
    expect(page.locator("#level-title")).to_contain_text("Level 2")
    for col in (1, 2, 3, 4):
        enter(page, 1, col)
    expect(page.locator("#status")).to_contain_text("Victory! You hold the four legendary treasures.")
    expect(page.locator(".result .score")).to_have_text("2306")
    axe_check(page)
    expect(watcher.locator("#status")).to_contain_text("Game over")

    page.get_by_role("button", name="Play the same deal again").click()
    page.wait_for_url(re.compile(r".*/g/[A-Za-z0-9_-]{20,}$"))
    expect(page.locator("#status")).to_contain_text("Level 1: choose a corner chamber")
    assert console_errors == []


def test_phone_width_genie_of_death_on_a_wide_level(new_page, axe_check):
    phone = new_page(viewport={"width": 375, "height": 800}, is_mobile=True, has_touch=True)
    start_game(phone, DECK_G, **{"Rows of chambers": 5, "Columns of chambers": 6})

    def fits():
        assert phone.evaluate("document.documentElement.scrollWidth") <= 375
        box = phone.locator(".chambers").bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= 375

    fits()
    enter(phone, 1, 1)
    expect(phone.locator("#enc-title")).to_have_text("The Genie of Death")
    picks = phone.locator("#encounter [data-pick-out]")
    expect(picks).to_have_text("3 of 3 chosen.")
    phone.get_by_label("Destroy the enemy of (1,4)").uncheck()
    expect(picks).to_have_text("2 of 3 chosen.")
    phone.get_by_label("Destroy the enemy of (5,6)").check()
    expect(picks).to_have_text("3 of 3 chosen.")
    fits()
    axe_check(phone)
    press(phone, "Destroy the ticked enemies")
    expect(phone.locator("#log")).to_contain_text("(5,6) is destroyed by the Genie of Death")
    expect(chamber(phone, 1, 4)).to_have_attribute("aria-label", re.compile("enemy face down"))
    expect(chamber(phone, 5, 6)).to_have_attribute("aria-label", re.compile("no enemy"))
    open_spell(phone, "teleport")
    expect(phone.locator("#book-teleport .sp-state")).to_have_text("Not now: you have no magic potion")
    fits()
    enter(phone, 2, 1)
    expect(phone.locator("#enc-title")).to_have_text("Battle in chamber (2,1)")
    fits()
    axe_check(phone)

    phone.goto("/how-to-play/hebracs-dungeon")
    expect(phone.get_by_role("heading", name="How to play Hebrac's Dungeon")).to_be_visible()
    assert phone.evaluate("document.documentElement.scrollWidth") <= 375
    axe_check(phone)
