"""Clear the Dungeon played through the UI in Debian's Chromium against gunicorn.

The two winning games are the rules file's complete lines (engine scenarios S18 and S19, kept
with the web tests): one played with the mouse (hand card, then a lit monster; item buttons),
one with the keyboard only.
"""

from __future__ import annotations

import re

from playwright.sync_api import expect

from rules_engine.cards import Card
from rules_engine.games import clear_the_dungeon as cd
from tests.web.test_clear_the_dungeon_web import LINE_A, LINE_A_DECK, LINE_B, LINE_B_DECK, stacked

GAME_URL = re.compile(r".*/g/[A-Za-z0-9_-]{20,}$")


def start_game(page, deck: str | None = None) -> str:
    page.goto("/")
    entry = page.locator("#game-clear-the-dungeon")
    if deck:
        entry.get_by_text("Options").click()
        entry.get_by_label("Stacked deal").fill(deck)
    entry.get_by_role("button", name="Play Clear the Dungeon").click()
    page.wait_for_url(GAME_URL)
    expect(page.locator("#game.ctd")).to_be_visible()
    return page.url


def version(page) -> int:
    return int(page.locator("#game").get_attribute("data-revision"))


def expect_version(page, number: int) -> None:
    """The board of that version is on the page and settled (htmx's settle takes ~20 ms: a person
    does not press the next key inside it, and a test that does races the page's own set-up)."""
    expect(page.locator("#game")).to_have_attribute("data-revision", str(number))
    expect(page.locator("#game.htmx-settling, #game.htmx-swapping")).to_have_count(0)


def act_posts(page) -> list[str]:
    """Every POST the page sends to /g/<id>/act from now on, as the browser sends it.

    A refused click must send none: checking the version alone would pass while a request is
    still on its way, so the tests count the requests, then let a later action prove the count
    is complete (it must add exactly one)."""
    posts: list[str] = []
    page.on(
        "request",
        lambda request: (
            posts.append(request.url) if request.method == "POST" and request.url.endswith("/act") else None
        ),
    )
    return posts


def monster(page, pos: str):
    return page.locator(f'button.ctd-monster[data-target="{pos}"]')


def hand_card(page, code: str):
    return page.locator(f'button.ctd-hand-card[data-card="{code}"]').first


def pretty(code: str) -> str:
    return cd.pretty(code)


def assert_not_shown(page, code: str) -> None:
    """The card appears nowhere in the page: not as a code, a name or rank and suit."""
    text = re.sub(r"[A-Za-z0-9_-]{20,}", " ", page.content())  # game ids and tokens are random text
    for needle in (code, cd.pretty(code), Card.parse(code).name):
        assert needle not in text, needle


def click_step(page, step: str) -> None:
    """One step of a line, with the mouse: a hand card then a lit monster, or an item button."""
    words = step.split()
    before = version(page)
    if words[0] == "end":
        page.locator("#ctd-end-turn").click()
    elif words[0] in ("top", "leave"):
        page.get_by_role("button", name=re.compile("to the top" if words[0] == "top" else "at the bottom")).click()
    elif words[0] == "KC":
        page.get_by_role("button", name="K♣: draw a card").click()
    elif words[0] == "KD":
        page.get_by_role("button", name="K♦: look at the bottom card").click()
    elif words[0] == "KH":
        page.get_by_role("button", name=f"K♥: put {pretty(words[1])} under the power deck").click()
    else:
        card, target = words[0], words[1]
        hand_card(page, card).click()
        expect(hand_card(page, card)).to_have_attribute("aria-pressed", "true")
        if len(words) > 2:
            page.get_by_label(re.compile("Double the card with the K♠")).check()
        expect(monster(page, target)).to_have_class(re.compile(r"\bis-target\b"))
        monster(page, target).click()
    expect_version(page, before + 1)


def key_step(page, step: str) -> None:
    """One step with the keyboard only: 1–9 for the hand card, the monster's letter, X, Enter, D.

    The test reads the digit and the letter off the page, as a player reads them on screen."""
    words = step.split()
    before = version(page)
    if words[0] == "end":
        page.keyboard.press("d")
    else:
        card, target = words[0], words[1]
        codes = page.locator("button.ctd-hand-card").evaluate_all("els => els.map(e => e.dataset.card)")
        page.keyboard.press(str(codes.index(card) + 1))
        if len(words) > 2:
            page.keyboard.press("x")
        page.keyboard.press(monster(page, target).get_attribute("data-ctd-key"))
        expect(monster(page, target)).to_have_class(re.compile(r"\bis-chosen\b"))
        page.keyboard.press("Enter")
    expect_version(page, before + 1)


def test_line_a_won_with_the_mouse(page, console_errors, axe_check):
    page.emulate_media(reduced_motion="reduce")
    start_game(page, LINE_A_DECK)
    expect(page.locator("#status")).to_contain_text("Turn 1")
    expect(page.locator(".ctd-slot.is-hidden")).to_have_count(11)
    expect(page.locator(".ctd-hand .ctd-hand-card")).to_have_count(4)  # the joker found at r7c3, then 3 drawn
    expect(page.locator("#ctd-deck")).to_have_attribute("aria-label", re.compile("37 cards"))
    axe_check(page)

    # A card lights up only the monsters that can take it; the others refuse it.
    posts = act_posts(page)
    hand_card(page, "2S").click()
    expect(monster(page, "r7c1")).to_have_class(re.compile(r"\bis-target\b"))  # J♥ 11: 2 + 10 can reach it
    expect(monster(page, "r7c2")).to_have_class(re.compile(r"\bis-refused\b"))  # K♠ 13: 2 + 10 cannot
    monster(page, "r7c2").click(force=True)  # aria-disabled: a click is refused with a message
    expect(page.locator("#ctd-hint")).to_contain_text("cannot take")
    expect_version(page, 0)
    axe_check(page)
    page.keyboard.press("Escape")

    for index, step in enumerate(LINE_A):
        click_step(page, step)
        if index == 0:  # the first real play is the first request: the refused click sent none
            assert len(posts) == 1, posts
        if step == "JK r7c2":
            expect(monster(page, "r7c2")).to_contain_text("10/13")
        if step == "2S r7c2":  # the K♠ is beaten: it becomes an item, Q♦ turns up
            expect(page.locator(".ctd-item[data-item=KS]")).to_be_visible()
            expect(monster(page, "r6c2")).to_be_visible()
        if step == "2C r6c2 double":
            expect(monster(page, "r6c2").locator(".ctd-mini.doubled")).to_have_count(1)
            expect(monster(page, "r6c2")).to_contain_text("13/12")
        if step == "KD":  # the peek, with the player's two choices
            expect(page.locator(".ctd-peek")).to_contain_text("Move it to the top to draw it next")
            expect(page.locator(".ctd-peeked .card")).to_have_attribute("aria-label", "7 of hearts")
            axe_check(page)
    expect(page.locator("#status")).to_contain_text("Game over")
    expect(page.locator(".result .score")).to_have_text("2250")
    expect(page.locator(".result")).to_contain_text("Cleared in 12 turns with 0 hits")
    expect(page.locator(".ctd-slot.is-empty")).to_have_count(14)
    axe_check(page)
    page.get_by_role("button", name="Play the same deal again").click()
    page.wait_for_url(GAME_URL)
    expect(page.locator("#status")).to_contain_text("Turn 1")
    expect_version(page, 0)
    assert console_errors == []


def tab_to(page, locator, limit=60):
    """Press Tab until the element has keyboard focus (the keyboard-only way to reach it)."""
    handle = locator.element_handle()
    for _ in range(limit):
        if page.evaluate("el => document.activeElement === el", handle):
            return
        page.keyboard.press("Tab")
    raise AssertionError("could not reach the element with Tab")


def test_line_b_won_with_the_keyboard_only(page, console_errors):
    page.emulate_media(reduced_motion="reduce")
    page.goto("/")
    entry = page.locator("#game-clear-the-dungeon")
    tab_to(page, entry.locator("summary"))
    page.keyboard.press("Enter")
    tab_to(page, entry.get_by_label("Stacked deal"))
    page.keyboard.type(LINE_B_DECK)
    page.keyboard.press("Enter")  # submits the form
    page.wait_for_url(GAME_URL)
    # The arrows pick monsters too: 10♥ is card 1; → lands on the first monster that takes it.
    page.keyboard.press("1")
    page.keyboard.press("ArrowRight")
    expect(monster(page, "r7c1")).to_have_class(re.compile(r"\bis-chosen\b"))
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("Enter")
    expect_version(page, 1)
    expect(monster(page, "r7c1").locator('[data-attack-card="10H"]')).to_have_count(1)
    for step in LINE_B[1:]:
        key_step(page, step)
        if step == "4D r5c1":  # 7♥ fits nowhere: it lights up no monster
            page.keyboard.press("1")
            expect(page.locator("#ctd-hint")).to_contain_text("fits no monster")
            expect(page.locator("button.ctd-monster.is-target")).to_have_count(0)
            page.keyboard.press("Escape")
    expect(page.locator(".result .score")).to_have_text("2210")
    expect(page.locator("#ctd-hits")).to_have_text("4/5")
    expect(page.locator(".ctd-hand .card")).to_have_count(2)  # the two jokers found at the very end
    assert console_errors == []


def test_loss_by_the_fifth_hit(page, console_errors, axe_check):
    start_game(page, stacked("A"))  # motion on: the hit animations run too
    expect(page.locator("#ctd-fatal")).to_have_count(0)  # no warning while ending a turn is safe
    expect(page.locator("#ctd-end-turn")).to_have_attribute("data-fatal", "0")
    click_step(page, "end")
    expect(page.locator("#ctd-hits")).to_have_text("3/5")
    expect(page.locator(".ctd-hits li.hit")).to_have_count(3)
    expect(page.locator("#ctd-fatal")).to_be_visible()
    expect(page.locator("#ctd-fatal")).to_contain_text("fifth hit and loses the game")
    expect(page.locator("#ctd-end-turn")).to_contain_text("fatal")
    expect(page.locator("#ctd-end-turn")).to_have_attribute("data-fatal", "1")
    # D asks again before the fatal fifth hit, sending nothing; the second D confirms.
    posts = act_posts(page)
    page.keyboard.press("d")
    expect(page.locator("#ctd-hint")).to_contain_text("fifth hit")
    expect(page.locator("#ctd-end-turn")).to_be_focused()  # the confirming button, ready for Enter
    expect_version(page, 1)
    page.keyboard.press("d")
    expect_version(page, 2)
    assert len(posts) == 1, posts  # only the confirmed end of turn was posted
    expect(page.locator("#status")).to_contain_text("The fifth hit")
    expect(page.locator(".result .score")).to_have_text("0")
    expect(page.locator(".ctd-hits li.hit")).to_have_count(5)
    expect(page.locator("form.play")).to_have_count(0)
    axe_check(page)
    assert console_errors == []


def test_spectator_follows_live_and_sees_the_peek_without_choices(page, new_page, console_errors, axe_check):
    page.emulate_media(reduced_motion="reduce")
    url = start_game(page, stacked("C", "10D 3H 2D"))
    watcher = new_page()
    watcher_errors: list[str] = []
    watcher.on("pageerror", lambda error: watcher_errors.append(str(error)))
    watcher.goto(url)
    expect(watcher.locator("#status")).to_contain_text("Watching live")
    expect(watcher.locator("html")).to_have_attribute("data-live", "connected")
    expect(watcher.locator("form.play")).to_have_count(0)
    expect(watcher.locator("#game button")).to_have_count(0)
    axe_check(watcher)

    page.set_viewport_size({"width": 1280, "height": 1100})  # a drag cannot scroll: both ends in view
    hand_card(page, "10D").drag_to(monster(page, "r7c2"))  # drag and drop works as well as clicks
    expect_version(page, 1)
    click_step(page, "3H r7c2")
    expect(watcher.locator("#game")).to_have_attribute("data-revision", "2")
    expect(watcher.locator('.ctd-monster[data-target="r7c2"]')).to_contain_text("13/13")
    click_step(page, "2D r7c2")  # K♦ beaten: an item; the hand was empty, turn 2 draws
    expect(watcher.locator("#game")).to_have_attribute("data-revision", "3")
    expect(watcher.locator(".ctd-item[data-item=KD]")).to_be_visible()
    expect(watcher.locator(".ctd-items button")).to_have_count(0)

    click_step(page, "KD")
    expect(page.locator(".ctd-peeked .card")).to_have_attribute("aria-label", "10 of clubs")
    expect(watcher.locator("#game")).to_have_attribute("data-revision", "4")
    # Rules 10.3: the spectator's view equals the player's, the peeked card included.
    expect(watcher.locator(".ctd-peek")).to_contain_text("The player is choosing")
    expect(watcher.locator(".ctd-peeked .card")).to_have_attribute("aria-label", "10 of clubs")
    expect(watcher.locator("#game button")).to_have_count(0)
    assert_not_shown(watcher, "QS")  # r1c1 of layout C, still face down
    axe_check(watcher)

    click_step(page, "leave")
    expect(page.locator(".ctd-bottom")).to_contain_text("Known bottom card")
    expect(watcher.locator("#game")).to_have_attribute("data-revision", "5")
    expect(watcher.locator(".ctd-bottom .card")).to_have_attribute("aria-label", "10 of clubs")

    # A reload resumes exactly where the game is.
    board = page.locator(".ctd-dungeon").inner_html()
    page.reload()
    expect_version(page, 5)
    assert page.locator(".ctd-dungeon").inner_html() == board
    assert console_errors == [] and watcher_errors == []


def test_phone_layout_fits_without_sideways_scrolling(new_page, axe_check):
    phone = new_page(viewport={"width": 375, "height": 740}, is_mobile=True, has_touch=True, reduced_motion="reduce")
    start_game(phone, LINE_A_DECK)
    for step in LINE_A[:6]:  # an item, attack cards on two monsters
        click_step(phone, step)
    hand_card(phone, "9D").click()
    assert phone.evaluate("document.documentElement.scrollWidth") <= 375
    for selector in (".ctd-dungeon", ".ctd-hand", ".ctd-hits"):
        box = phone.locator(selector).bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= 375, selector
    for element in phone.locator("button.ctd-hand-card, button.ctd-monster, #ctd-end-turn").all():
        box = element.bounding_box()
        assert box["width"] >= 44 and box["height"] >= 44
    axe_check(phone)


def test_without_javascript_the_plain_buttons_play(new_page):
    plain = new_page(java_script_enabled=False)
    start_game(plain, stacked("A", "10S AC 5H"))
    expect(plain.locator("#ctd-moves")).to_have_attribute("open", "")
    plain.get_by_role("button", name="Play 10♠ on the J♥").click()
    expect_version(plain, 1)
    expect(monster(plain, "r7c1")).to_contain_text("10/11")
    plain.get_by_role("button", name="Play A♣ on the J♥").click()
    plain.get_by_role("button", name="Play 5♥ on the J♥").click()
    expect_version(plain, 3)
    expect(plain.locator(".ctd-clear summary")).to_contain_text("4 cards")


def test_how_to_play_page(page, console_errors, axe_check):
    page.goto("/how-to-play/clear-the-dungeon")
    expect(page.get_by_role("heading", name="How to play Clear the Dungeon")).to_be_visible()
    expect(page.locator(".ctd-dungeon .ctd-slot")).to_have_count(14)
    expect(page.locator(".ctd-example .ctd-monster").first).to_be_visible()
    axe_check(page)
    page.set_viewport_size({"width": 375, "height": 740})
    assert page.evaluate("document.documentElement.scrollWidth") <= 375
    assert console_errors == []
