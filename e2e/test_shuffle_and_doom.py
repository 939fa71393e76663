"""Shuffle and Doom! played through the UI in Debian's Chromium against gunicorn."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from rules_engine.cards import standard_deck

S2_DECK = "5C 8D 3H 9S 7D KS JS QH 6S"  # S1's header cards + one card: a whole short game
FULL_S1 = S2_DECK.split() + [c for c in standard_deck() if c not in S2_DECK.split()]


def start_game(page, *, size=None, deck=None, options=()):
    page.goto("/")
    card = page.locator("#game-shuffle-and-doom")
    if size or deck or options:
        card.get_by_text("Options").click()
        if size:
            card.get_by_label("Grid size").fill(str(size))
        if deck:
            card.get_by_label("Stacked deal").fill(deck if isinstance(deck, str) else " ".join(deck))
        for label in options:
            card.get_by_label(label).check()
    card.get_by_role("button", name="Play Shuffle and Doom!").click()
    page.wait_for_url(re.compile(r".*/g/[A-Za-z0-9_-]{20,}$"))
    expect(page.locator("#game")).to_be_visible()
    return page.url


def click_action(page, name):
    version = int(page.locator("#game").get_attribute("data-revision"))
    page.get_by_role("button", name=name).first.click()
    expect(page.locator("#game")).to_have_attribute("data-revision", str(version + 1))


def stat(page, name):
    return page.locator(".stats div", has_text=name).locator("dd")


def test_whole_game_on_a_stacked_deal_by_mouse(page, console_errors, axe_check):
    start_game(page, size=4, deck=S2_DECK)
    expect(page.locator("#status")).to_contain_text("Choose the set")
    axe_check(page)
    click_action(page, re.compile(r"top set", re.I))
    click_action(page, re.compile(r"8♦.*attack|attack.*8♦", re.I))
    expect(stat(page, "Attack")).to_have_text("11")
    expect(page.locator("#room-title")).to_have_text("Combat")
    axe_check(page)
    click_action(page, re.compile(r"Attack 6♠"))
    for direction in ["east", "east", "east", "south", "south", "south"]:
        click_action(page, re.compile(f"Move {direction}", re.I))
    expect(stat(page, "Gold")).to_have_text("8")
    expect(page.locator("#log")).to_contain_text("5")
    click_action(page, re.compile(r"exit|leave", re.I))
    expect(page.locator("#status")).to_contain_text("Game over")
    expect(page.locator(".result .score")).to_have_text("8")
    axe_check(page)
    page.get_by_role("button", name="Play the same deal again").click()
    page.wait_for_url(re.compile(r".*/g/[A-Za-z0-9_-]{20,}$"))
    expect(page.locator("#status")).to_contain_text("Choose the set")
    assert console_errors == []


def tab_to(page, locator, limit=80):
    """Press Tab until the element has keyboard focus (the keyboard-only way to reach it)."""
    handle = locator.element_handle()
    for _ in range(limit):
        if page.evaluate("el => document.activeElement === el", handle):
            return
        page.keyboard.press("Tab")
    raise AssertionError("could not reach the element with Tab")


def test_whole_game_with_the_keyboard_only(page, console_errors):
    page.goto("/")
    card = page.locator("#game-shuffle-and-doom")
    tab_to(page, card.locator("summary"))
    page.keyboard.press("Enter")
    tab_to(page, card.get_by_label("Grid size"))
    page.keyboard.press("Control+A")
    page.keyboard.type("4")
    tab_to(page, card.get_by_label("Stacked deal"))
    page.keyboard.type(S2_DECK)
    page.keyboard.press("Enter")  # submits the form
    page.wait_for_url(re.compile(r".*/g/[A-Za-z0-9_-]{20,}$"))

    def press(key):
        version = int(page.locator("#game").get_attribute("data-revision"))
        page.keyboard.press(key)
        expect(page.locator("#game")).to_have_attribute("data-revision", str(version + 1))

    press("1")  # the top set
    press("2")  # 8♦'s +1 to attack (health 1, attack 2, intelligence 3)
    expect(stat(page, "Attack")).to_have_text("11")
    press("1")  # attack 6♠
    for key in ["ArrowRight", "d", "ArrowRight", "ArrowDown", "s", "ArrowDown"]:
        press(key)
    expect(stat(page, "Gold")).to_have_text("8")
    press("1")  # the exit
    expect(page.locator(".result .score")).to_have_text("8")
    assert console_errors == []


def test_spectator_follows_live_without_controls(page, new_page, axe_check):
    url = start_game(page, size=4, deck=FULL_S1)
    watcher = new_page()
    watcher.goto(url)
    expect(watcher.locator("#status")).to_contain_text("Watching live")
    expect(watcher.locator("form.play")).to_have_count(0)
    expect(watcher.locator("button[name=action]")).to_have_count(0)
    expect(watcher.locator("html")).to_have_attribute("data-live", "connected")
    axe_check(watcher)

    click_action(page, re.compile(r"top set", re.I))
    expect(watcher.locator("#game")).to_have_attribute("data-revision", "1")
    click_action(page, re.compile(r"8♦.*attack|attack.*8♦", re.I))
    expect(watcher.locator("#game")).to_have_attribute("data-revision", "2")
    expect(stat(watcher, "Attack")).to_have_text("11")
    expect(watcher.locator("#room-title")).to_have_text("Combat")
    expect(watcher.locator("#log")).to_contain_text("6")
    expect(watcher.locator("button[name=action]")).to_have_count(0)


def test_reload_mid_room_resumes(page):
    start_game(page, size=4, deck=FULL_S1)
    click_action(page, re.compile(r"top set", re.I))
    click_action(page, re.compile(r"8♦.*attack|attack.*8♦", re.I))
    expect(page.locator("#room-title")).to_have_text("Combat")
    before = page.locator(".col-side").inner_text()
    page.reload()
    expect(page.locator("#room-title")).to_have_text("Combat")
    assert page.locator(".col-side").inner_text() == before
    click_action(page, re.compile(r"Attack 6♠"))
    expect(page.locator("#status")).to_contain_text("Explore")


def test_forged_and_stale_actions_show_readable_errors(page, console_watch):
    console_watch.allow_4xx_answers("the forged and the stale action are refused with 4xx answers")
    start_game(page, size=4, deck=FULL_S1)
    forged = page.get_by_role("button", name=re.compile("top set", re.I)).first
    forged.evaluate("b => b.value = JSON.stringify({type: 'move', dir: 'N'})")
    forged.click()
    expect(page.locator("#flash .alert")).to_contain_text("Not allowed")
    expect(page.locator("#game")).to_have_attribute("data-revision", "0")

    page.locator("form.play:not(#undo-form) input[name=version]").evaluate("i => i.value = '7'")
    page.get_by_role("button", name=re.compile("side set", re.I)).first.click()
    expect(page.locator("#flash .alert")).to_contain_text("moved on")
    expect(page.locator("#game")).to_have_attribute("data-revision", "0")
    # the refreshed board still works
    click_action(page, re.compile(r"top set", re.I))


TOUCH_TARGET = 44  # CSS px: the min-height / min-width delve.css gives every button and control


def layout_problems(page, width):
    """Sideways scrolling, and controls a thumb cannot hit (smaller than TOUCH_TARGET a side)."""
    return page.evaluate(
        """([width, least]) => {
             const problems = [];
             if (document.documentElement.scrollWidth > width)
               problems.push(`page is ${document.documentElement.scrollWidth}px wide`);
             for (const el of document.querySelectorAll(
                  "button, summary, select, input:not([type=hidden]), [role=button]")) {
               const box = el.getBoundingClientRect();
               if (!box.width && !box.height) continue;  // not rendered (a closed panel)
               // The screen-reader switch, while off, shows only when focused (as the skip link).
               if (el.closest(".reader-switch:not(.on)") && el !== document.activeElement) continue;
               if (box.left < 0 || box.right > width) problems.push(`${el.id || el.textContent.trim()} off screen`);
               if (box.width < least || box.height < least)
                 problems.push(`${el.id || el.textContent.trim()}: ${box.width}x${box.height}`);
             }
             return problems;
           }""",
        [width, TOUCH_TARGET],
    )


@pytest.mark.parametrize("size", [7, 26])
def test_phone_layout_fits_and_keeps_touch_targets_during_play(new_page, size, axe_check):
    phone = new_page(viewport={"width": 375, "height": 800}, is_mobile=True, has_touch=True)
    phone.on("dialog", lambda dialog: dialog.accept())  # the blind walk may tap into certain death, which asks first
    start_game(phone, size=size, deck=FULL_S1)
    assert layout_problems(phone, 375) == []
    rooms_seen = 0
    # Play on by tapping the first offered action (a fixed deal, so a fixed walk through rooms).
    for _ in range(14):
        if phone.locator(".result").count():
            break
        version = int(phone.locator("#game").get_attribute("data-revision"))
        phone.locator("form.play button[name=action]").first.tap()
        expect(phone.locator("#game")).to_have_attribute("data-revision", str(version + 1))
        rooms_seen += phone.locator("#room-title", has_text=re.compile("Combat|Traps")).count()
        assert layout_problems(phone, 375) == [], phone.locator("#status").inner_text()
        box = phone.locator(".map").bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= 375
    assert rooms_seen, "the walk never showed a room's cards"
    axe_check(phone)


def test_copy_link_puts_the_game_url_on_the_clipboard(new_page):
    page = new_page(permissions=["clipboard-read", "clipboard-write"])
    url = start_game(page, size=4, deck=FULL_S1)
    assert page.locator("#share-link").input_value() == url
    page.get_by_role("button", name="Copy link").click()
    expect(page.locator("#share-status")).to_have_text("Link copied.")
    assert page.evaluate("navigator.clipboard.readText()") == url


def test_how_to_play_opens_from_the_game_page_with_card_pictures(page, axe_check):
    start_game(page, size=4, deck=FULL_S1)
    with page.context.expect_page() as opened:
        page.get_by_role("link", name="How to play").click()
    rules_page = opened.value
    rules_page.wait_for_load_state()
    assert rules_page.url.endswith("/how-to-play/shuffle-and-doom")
    expect(rules_page.get_by_role("heading", level=1)).to_contain_text("How to play")
    for name in ("queen of spades", "6 of hearts", "8 of diamonds", "9 of clubs"):
        picture = rules_page.get_by_role("img", name=name, exact=True).first
        expect(picture).to_be_visible()
        expect(picture).to_have_class(re.compile(r"\bcard\b"))
    axe_check(rules_page)
