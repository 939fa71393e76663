"""Dungeon Cards in Debian's Chromium against gunicorn: a solo escape on a stacked deal with a
boss fight, a two-player party where one helps the other, the Hall of Fame, and a phone."""

from __future__ import annotations

import re

from playwright.sync_api import expect

ESCAPE = "JH 2C 9D 3S 7H 4D 8S 6D"  # a Jack in three exchanges, +1 Speed, then 6♦ up 7 onto the Exit
HELP = "JH 2C 9D 8D 3S 7H 8S"  # Ann draws the Jack; Bob, beside her, helps: two exchanges


MOVED_ON = "The game had moved on"  # the flash of a refused (409) click


def present(page, name):
    """This page's socket is connected and its own arrival has been rung and shown: the roster marks
    the seat online, so no doorbell of this page's own connection is still on its way."""
    expect(page.locator("html")).to_have_attribute("data-live", "connected")
    expect(page.locator(".roster li", has_text=name).locator(".dot.on")).to_have_count(1)


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
    present(page, name)
    return page.url


def class_button(page, value):
    return page.locator(f'button[name="classes"][value="{value}"]')


def choose_class(page, name, value):
    """The waiting room's class button, pressed: the page the server sends back marks it as this
    seat's class (``aria-pressed`` and the confirmation line, which only the server writes)."""
    present(page, name)
    class_button(page, value).click()
    expect(class_button(page, value)).to_have_attribute("aria-pressed", "true")
    expect(page.locator("#choice-classes-state")).to_contain_text("Your class:")
    present(page, name)


def start(page):
    page.get_by_role("button", name=re.compile("Start the game")).click()
    page.wait_for_selector("section#game.dc")
    expect(page.locator("html")).to_have_attribute("data-live", "connected")


def clock_text(page):
    """The status line's countdown as shown: always m:ss."""
    text = page.locator("#status .countdown").inner_text().strip()
    assert re.fullmatch(r"\d+:[0-5]\d", text), text
    return text


def act(page, name, then):
    """Click an action once its button is there, and wait for what it visibly does (``then``
    expects it). A click the server refused as stale (409) fails here, by name."""
    button = page.get_by_role("button", name=name).first
    expect(button).to_be_visible()
    button.click()
    then()
    expect(page.locator("#flash")).not_to_contain_text(MOVED_ON)


def shows(locator, text):
    """``then`` for ``act``: the locator comes to contain the text."""
    return lambda: expect(locator).to_contain_text(text)


def counts(locator, n):
    """``then`` for ``act``: the locator comes to match n elements."""
    return lambda: expect(locator).to_have_count(n)


def test_solo_escape_on_a_stacked_deal_with_a_boss_fight(page, console_errors, axe_check):
    open_table(page, "Ann", deck=ESCAPE, selects=[("Exit and Pit markers", "manual")])
    expect(page.locator("#status")).to_contain_text("Waiting room")
    # Alone at the table: the party classes are offered but cannot be picked (ruling 55).
    expect(class_button(page, "mage")).to_be_disabled()
    expect(class_button(page, "mage")).to_contain_text("needs more players")
    # One Start, held back with its reason until the class is chosen.
    start_button = page.get_by_role("button", name=re.compile("Start the game"))
    expect(start_button).to_be_disabled()
    expect(page.locator("#start-blocked")).to_have_text("Waiting for Ann to choose a class.")
    axe_check(page)
    page.keyboard.press("6")  # the Swordsman's key, shown on its button
    expect(class_button(page, "swordsman")).to_have_attribute("aria-pressed", "true")
    expect(page.locator("#choice-classes-state")).to_contain_text("Your class: Swordsman")
    expect(start_button).to_be_enabled()
    start(page)
    # Alone, the page has no table talk.
    expect(page.locator("#chat-title")).to_have_count(0)
    expect(page.locator("[data-turn-sound]")).to_have_count(0)
    # The host places the Exit by clicking the board, the Pit with the select form.
    expect(page.locator("#status")).to_contain_text("setting up the board")
    act(page, "Put an Exit on column 5, row 8", counts(page.locator(".dc-board .sq.exit"), 1))
    page.get_by_label("Column (x)").select_option("8")
    page.get_by_label("Row (y, from the bottom)").select_option("8")
    act(page, "Place the Pit", counts(page.locator(".dc-board .sq.pit"), 1))
    expect(page.locator("#status")).to_contain_text("Your move")
    expect(page.locator("#status .countdown")).to_have_count(0)  # a solo game is never timed
    axe_check(page)

    expect(page.get_by_role("button", name=re.compile("Draw a card"))).to_be_visible()
    page.keyboard.press("1")  # the shortcut shown on "Draw a card"
    expect(page.locator("#duel-title")).to_have_text("Boss fight: Ann against the Jack")
    expect(page.get_by_role("img", name="The Jack: 3 of 3 lives")).to_be_visible()
    axe_check(page)
    duel = page.locator(".duel")
    act(page, re.compile("^Draw"), shows(page.locator(".exchange.done"), "The Jack loses a life (2 left)"))
    act(page, re.compile("^Draw"), shows(duel, "Exchange 2: what happened"))
    act(page, re.compile("^Draw"), shows(duel, "The Jack is defeated!"))
    act(page, "+1 Speed", shows(page.locator(".member"), "Level2"))
    act(page, re.compile("Draw a card"), shows(page.locator("#status"), "Victory: Ann escaped the dungeon!"))
    expect(page.locator(".last-move")).to_contain_text("moved up 7: column 5, row 1 → column 5, row 8")
    expect(page.locator(".dc-result")).to_contain_text("Ann the Swordsman — level 2")
    axe_check(page)

    game_url = page.url
    page.locator(".dc-result").get_by_role("link", name="Hall of Fame").click()
    expect(page.locator("h1")).to_contain_text("Hall of Fame")
    # A stacked deal is kept out of the ranking, and listed on request with its tag.
    expect(page.locator(".fame-table tbody tr", has_text="Ann")).to_have_count(0)
    page.get_by_role("link", name="Show set deals too").click()
    row = page.locator(".fame-table tbody tr", has_text="Ann")
    expect(row).to_contain_text("Swordsman")
    expect(row).to_contain_text("set deal")
    expect(row.get_by_role("link", name=re.compile("the game"))).to_have_attribute(
        "href", "/g/" + game_url.rsplit("/", 1)[1]
    )
    axe_check(page)
    assert console_errors == []


def test_party_of_two_where_one_helps_the_other(page, new_page, console_errors, axe_check):
    url = open_table(page, "Ann", deck=HELP)
    bob = new_page()
    bob.goto(url)
    bob.get_by_label("Your name").fill("Bob")
    bob.get_by_role("button", name="Join the table").click()
    bob.wait_for_url(url)
    # The host's class buttons follow the table live: with two seated, the Mage is open to Ann too.
    expect(class_button(page, "mage")).to_be_enabled()
    choose_class(bob, "Bob", "tank")
    expect(class_button(page, "tank")).to_be_disabled()  # the buttons follow, saying by whom
    expect(class_button(page, "tank")).to_contain_text("taken by Bob")
    expect(page.locator("#start-blocked")).to_have_text("Waiting for Ann to choose a class.")
    expect(bob.locator("#ready-title ~ p")).to_contain_text("Waiting for Ann to choose a class.")
    choose_class(page, "Ann", "swordsman")
    expect(class_button(bob, "swordsman")).to_contain_text("taken by Ann")  # distinct classes
    expect(class_button(page, "mage")).to_be_enabled()  # two at the table
    expect(page.locator("#start-blocked")).to_have_count(0)
    start(page)
    present(page, "Ann")
    bob.wait_for_selector("section#game.dc")  # the waiting room turned into the game by itself
    present(bob, "Bob")
    expect(bob.locator("#status")).to_contain_text("Ann's turn")
    expect(bob.locator("#status .countdown")).to_be_visible()  # the party's time per decision
    first_paint = clock_text(bob)
    bob.wait_for_function(  # one format while it ticks too
        "first => { const t = document.querySelector('#status .countdown').textContent.trim();"
        " return t !== first && /^\\d+:[0-5]\\d$/.test(t); }",
        arg=first_paint,
        timeout=5000,
    )
    expect(bob.locator("#chat-title")).to_have_text("Table chat")  # a party keeps its table talk
    expect(bob.locator("[data-turn-sound]")).to_have_count(1)

    act(page, re.compile("Draw a card"), shows(page.locator(".duel"), "Bob is next to Ann: deciding"))
    # Bob stands beside Ann (the start square), so his page is asked, live.
    act(bob, re.compile("Join the fight"), counts(bob.locator(".duel-fighters .fighter"), 2))
    axe_check(bob)
    expect(page.locator(".duel-fighters .fighter")).to_have_count(2)
    act(page, re.compile("^Draw"), counts(page.locator(".exchange.done .matchup"), 2))
    expect(bob.locator(".exchange.done .matchup")).to_have_count(2)
    act(page, re.compile("^Draw"), shows(page.locator(".duel"), "The Jack is defeated!"))
    # Both owe a reward: each page first shows the other's choice, so neither click is stale.
    expect(bob.locator(".duel")).to_contain_text("The Jack is defeated!")
    act(bob, "+1 Lives", shows(bob.locator(".member", has_text="Bob"), "Lives16/16"))
    expect(page.locator(".member", has_text="Bob")).to_contain_text("Lives16/16")
    act(page, "+1 Speed", shows(page.locator("#status"), "Bob's turn"))  # next in join order
    expect(bob.locator(".member", has_text="Ann")).to_contain_text("Level2")
    expect(bob.locator("#game")).to_have_attribute("data-your-turn", "true")
    expect(bob.locator("#status")).to_contain_text("Your move")
    axe_check(page)
    assert console_errors == []


def test_phone_sized_game_fits_and_respects_reduced_motion(page, console_errors, axe_check):
    page.set_viewport_size({"width": 375, "height": 800})
    page.emulate_media(reduced_motion="reduce")
    open_table(
        page,
        "Ann",
        deck="5C 2D 9S 3H 4H",
        selects=[("Turn mode", "three_card_hand"), ("Exit and Pit markers", "manual")],
    )
    choose_class(page, "Ann", "soldier")
    start(page)
    for x, marker in (("1", ".sq.exit"), ("10", ".sq.pit")):  # Exit and Pit in the top corners, out of the way
        page.get_by_label("Column (x)").select_option(x)
        page.get_by_label("Row (y, from the bottom)").select_option("10")
        act(page, re.compile("^Place the"), counts(page.locator(".dc-board " + marker), 1))
    expect(page.locator(".hand .card")).to_have_count(3)
    act(page, re.compile("Draw a card"), counts(page.locator(".hand .card"), 4))
    act(page, "Play 2♦: up 2", counts(page.locator(".dc-board .step"), 2))
    steps = page.locator(".dc-board .step")
    assert steps.first.evaluate("el => getComputedStyle(el).animationName") == "none"  # a still trail
    assert page.evaluate("document.documentElement.scrollWidth") <= 375
    axe_check(page)
    page.emulate_media(reduced_motion="no-preference")
    act(page, re.compile("Draw a card"), counts(page.locator(".hand .card"), 4))
    act(page, re.compile("^Play 9♠"), shows(page.locator(".last-move"), "moved down 9"))  # two steps, then the edge
    assert page.locator(".dc-board .step").first.evaluate("el => getComputedStyle(el).animationName") == "dc-step"
    for path in ("/hall-of-fame", "/how-to-play/dungeon-cards"):
        page.goto(path)
        assert page.evaluate("document.documentElement.scrollWidth") <= 375, path
    assert console_errors == []


def test_phone_waiting_room_and_a_fight_drawn_out_in_one_press(page, console_errors, axe_check):
    """At phone size: the class buttons (each saying what it does, with its key), the pick confirmed,
    the one Start; then a boss fight decided with one press of "Draw until the fight is decided"."""
    page.set_viewport_size({"width": 390, "height": 844})
    open_table(page, "Ann", deck="QH 2C 9D 3S 7H 4D 8S 5C 10S 6D")
    buttons = page.locator('button[name="classes"]')
    expect(buttons).to_have_count(8)
    expect(class_button(page, "tank")).to_contain_text("Start with 5 extra lives")
    expect(class_button(page, "tank").locator("kbd")).to_have_text("4")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    choose_class(page, "Ann", "ninja")
    expect(class_button(page, "ninja")).to_contain_text("your class")
    axe_check(page)
    start(page)
    expect(page.locator("#status")).to_contain_text("Your move")
    act(page, re.compile("Draw a card"), shows(page.locator("#duel-title"), "against the Queen"))
    until = page.get_by_role("button", name=re.compile("^Draw until the fight is decided"))
    expect(until.locator("kbd")).to_have_text("2")
    expect(page.get_by_role("button", name="Draw", exact=True)).to_be_visible()  # single steps stay
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    act(page, re.compile("^Draw until the fight is decided"), shows(page.locator(".duel"), "The Queen is defeated!"))
    expect(page.locator(".exchange.done")).to_contain_text("The Queen loses a life (0 left)")
    # Every exchange is in the blow by blow, as four single draws would have put it.
    expect(page.locator(".blow-by-blow li.ev-matchup_resolved")).to_have_count(4)
    axe_check(page)
    assert console_errors == []
