"""Dungeon Cards in Debian's Chromium against gunicorn: a solo escape on a stacked deal with a
boss fight, a two-player party where one helps the other, the Hall of Fame, and a phone."""

from __future__ import annotations

import re

from playwright.sync_api import expect

ESCAPE = "JH 2C 9D 3S 7H 4D 8S 6D"  # a Jack in three exchanges, +1 Speed, then 6♦ up 7 onto the Exit
HELP = "JH 2C 9D 8D 3S 7H 8S"  # Ann draws the Jack; Bob, beside her, helps: two exchanges


def settle(page):
    """Wait until the page's socket is connected and its doorbell has stopped ringing."""
    expect(page.locator("html")).to_have_attribute("data-live", "connected")
    last = None
    for _ in range(40):
        page.wait_for_timeout(200)
        now = page.locator("#game").get_attribute("data-version")
        if now == last:
            return
        last = now


def open_table(page, name, *, deck=None, selects=()):
    page.goto("/")
    entry = page.locator("#game-dungeon-cards")
    entry.get_by_label("Your name").fill(name)
    if deck or selects:
        entry.get_by_text("Options").click()
        for label, value in selects:
            entry.get_by_label(label).select_option(value)
        if deck:
            entry.get_by_label("Stacked deal").fill(deck)
            entry.get_by_label("Shuffles").select_option("stacked")
    entry.get_by_role("button", name="Open a Dungeon Cards table").click()
    page.wait_for_url(re.compile(r".*/g/[A-Za-z0-9_-]{20,}$"))
    return page.url


def choose_class(page, value):
    """The waiting room's class choice (retried if a doorbell swap reset the select meanwhile)."""
    for _attempt in range(3):
        settle(page)
        page.get_by_label("Class").select_option(value)
        page.get_by_role("button", name="Save").click()
        page.wait_for_load_state()
        settle(page)
        if page.get_by_label("Class").input_value() == value:
            return
    raise AssertionError(f"the class {value} did not stick")


def start(page):
    page.get_by_role("button", name=re.compile("Start the game")).click()
    page.wait_for_selector("section#game.dc")
    settle(page)


def act(page, name):
    version = int(page.locator("#game").get_attribute("data-version"))
    page.get_by_role("button", name=name).first.click()
    expect(page.locator("#game")).not_to_have_attribute("data-version", str(version))


def test_solo_escape_on_a_stacked_deal_with_a_boss_fight(page, console_errors, axe_check):
    open_table(page, "Ann", deck=ESCAPE, selects=[("Exit and Pit markers", "manual")])
    expect(page.locator("#status")).to_contain_text("Waiting room")
    choose_class(page, "swordsman")
    start(page)
    # The host places the Exit by clicking the board, the Pit with the select form.
    expect(page.locator("#status")).to_contain_text("setting up the board")
    act(page, "Put an Exit on (5,8)")
    page.get_by_label("Column (x)").select_option("8")
    page.get_by_label("Row (y, from the bottom)").select_option("8")
    act(page, "Place the Pit")
    expect(page.locator(".dc-board .sq.exit")).to_have_count(1)
    axe_check(page)

    version = int(page.locator("#game").get_attribute("data-version"))
    page.keyboard.press("1")  # the shortcut shown on "Draw a card"
    expect(page.locator("#game")).to_have_attribute("data-version", str(version + 1))
    expect(page.locator("#duel-title")).to_have_text("Boss fight: Ann against the Jack")
    expect(page.get_by_role("img", name="The Jack: 3 of 3 lives")).to_be_visible()
    axe_check(page)
    act(page, re.compile("^Draw"))
    expect(page.locator(".exchange.done")).to_contain_text("The Jack loses a life (2 left)")
    act(page, re.compile("^Draw"))
    act(page, re.compile("^Draw"))
    expect(page.locator(".duel")).to_contain_text("The Jack is defeated!")
    act(page, "+1 Speed")
    expect(page.locator(".member")).to_contain_text("Level2")
    act(page, re.compile("Draw a card"))
    expect(page.locator("#status")).to_contain_text("Victory: Ann escaped the dungeon!")
    expect(page.locator(".last-move")).to_contain_text("moved up 7: (5,1) → (5,8)")
    expect(page.locator(".dc-result")).to_contain_text("Ann the Swordsman — level 2")
    axe_check(page)

    game_url = page.url
    page.locator(".dc-result").get_by_role("link", name="Hall of Fame").click()
    expect(page.locator("h1")).to_contain_text("Hall of Fame")
    row = page.locator(".fame-table tbody tr", has_text="Ann")
    expect(row).to_contain_text("Swordsman")
    expect(row.get_by_role("link", name=re.compile("the game"))).to_have_attribute("href", "/g/" + game_url.rsplit("/", 1)[1])
    axe_check(page)
    assert console_errors == []


def test_party_of_two_where_one_helps_the_other(page, new_page, console_errors, axe_check):
    url = open_table(page, "Ann", deck=HELP)
    bob = new_page()
    bob.goto(url)
    bob.get_by_label("Your name").fill("Bob")
    bob.get_by_role("button", name="Join the table").click()
    bob.wait_for_url(url)
    choose_class(bob, "tank")
    choose_class(page, "swordsman")
    expect(page.get_by_label("Class").locator("option[value=tank]")).to_be_disabled()  # distinct classes
    start(page)
    bob.wait_for_selector("section#game.dc")  # the waiting room turned into the game by itself
    settle(bob)
    expect(bob.locator("#status")).to_contain_text("Ann's turn")

    act(page, re.compile("Draw a card"))
    # Bob stands beside Ann (the start square), so his page is asked, live.
    expect(bob.get_by_role("button", name=re.compile("Join the fight"))).to_be_visible()
    expect(page.locator(".duel")).to_contain_text("Bob is next to Ann: deciding")
    axe_check(bob)
    act(bob, re.compile("Join the fight"))
    expect(page.locator(".duel-fighters .fighter")).to_have_count(2)
    act(page, re.compile("^Draw"))
    expect(bob.locator(".exchange.done .matchup")).to_have_count(2)
    act(page, re.compile("^Draw"))
    expect(page.locator(".duel")).to_contain_text("The Jack is defeated!")
    act(bob, "+1 Lives")
    act(page, "+1 Speed")
    expect(bob.locator(".member", has_text="Bob")).to_contain_text("Lives16/16")
    expect(bob.locator(".member", has_text="Ann")).to_contain_text("Level2")
    expect(page.locator("#status")).to_contain_text("Bob's turn")  # next in join order
    expect(bob.locator("#game")).to_have_attribute("data-your-turn", "true")
    expect(bob.locator("#status")).to_contain_text("Your move")
    axe_check(page)
    assert console_errors == []


def test_phone_sized_game_fits_and_respects_reduced_motion(page, console_errors, axe_check):
    page.set_viewport_size({"width": 375, "height": 800})
    page.emulate_media(reduced_motion="reduce")
    open_table(page, "Ann", deck="5C 2D 9S 3H 4H",
               selects=[("Turn mode", "three_card_hand"), ("Exit and Pit markers", "manual")])
    choose_class(page, "soldier")
    start(page)
    for x in ("1", "10"):  # Exit and Pit in the top corners, out of the way
        page.get_by_label("Column (x)").select_option(x)
        page.get_by_label("Row (y, from the bottom)").select_option("10")
        act(page, re.compile("^Place the"))
    expect(page.locator(".hand .card")).to_have_count(3)
    act(page, re.compile("Draw a card"))
    expect(page.locator(".hand .card")).to_have_count(4)
    act(page, "Play 2♦: up 2")
    steps = page.locator(".dc-board .step")
    expect(steps).to_have_count(2)
    assert steps.first.evaluate("el => getComputedStyle(el).animationName") == "none"  # a still trail
    assert page.evaluate("document.documentElement.scrollWidth") <= 375
    axe_check(page)
    page.emulate_media(reduced_motion="no-preference")
    act(page, re.compile("Draw a card"))
    act(page, re.compile("^Play 9♠"))  # down 9 from (5,3): two steps, then the edge
    assert page.locator(".dc-board .step").first.evaluate("el => getComputedStyle(el).animationName") == "dc-step"
    for path in ("/hall-of-fame", "/how-to-play/dungeon-cards"):
        page.goto(path)
        assert page.evaluate("document.documentElement.scrollWidth") <= 375, path
    assert console_errors == []
