"""What players hit, in the browser: key presses faster than the server answers all count (and a
press that no longer fits stops the rest, saying why), Hebrac's spell book shows what can be
cast now and folds the rest, The Dungeon of Doom's final map says whose token is whose, and no
page speaks in the engines' internal codes."""

from __future__ import annotations

import re

from playwright.sync_api import expect

from e2e.test_clear_the_dungeon import click_step
from e2e.test_clear_the_dungeon import start_game as start_clear_the_dungeon
from e2e.test_dungeon_of_doom import join, open_table
from e2e.test_hebracs_dungeon import DECK_A, enter
from e2e.test_hebracs_dungeon import start_game as start_hebracs_dungeon
from tests.web.test_clear_the_dungeon_web import stacked
from tests.web.test_plain_words import INTERNAL_CODES

PRESS_GAP_MS = 30
SLOW_REQUESTS = """() => {
  // A slow network: every request leaves 500 ms late, so all six presses meet the first in flight.
  const send = XMLHttpRequest.prototype.send;
  XMLHttpRequest.prototype.send = function (body) { setTimeout(() => send.call(this, body), 500); };
}"""


def assert_plain_page(page) -> None:
    """The page's visible text and its read-out labels hold no engine code."""
    texts = [page.locator("body").inner_text()]
    texts += page.eval_on_selector_all("[aria-label], [title]", "els => els.map(e => e.ariaLabel || e.title || '')")
    for text in texts:
        found = INTERNAL_CODES.search(text)
        assert found is None, f"internal code {found.group(0)!r} in {text[:300]!r}"


def my_token_column(page) -> int:
    """The column of this seat's own token on the map (tiles are 10 units wide)."""
    return (int(float(page.locator("svg.dungeon g.player.you circle").first.get_attribute("cx"))) - 5) // 10


def press_quickly(page, key: str, times: int) -> None:
    for _ in range(times):
        page.keyboard.press(key)
        page.wait_for_timeout(PRESS_GAP_MS)


def start_table(page, name, start_positions):
    url = open_table(page, name, {"dice": [1, 1, 1], "start_positions": start_positions})
    return url


def test_four_quick_presses_make_four_steps_and_the_final_map_says_who_is_who(page, new_page, axe_check):
    # The Duelling Hall: Ann starts on the gold at [1,1], the second gold two steps south of her,
    # the exit four steps east along the top row; Bob waits by the lantern.
    ann = page
    url = start_table(ann, "Ann", {"p1": [1, 1], "p2": [3, 5]})
    bob = new_page()
    join(bob, url, "Bob")
    ann.get_by_role("button", name=re.compile("Start the game")).click()
    expect(ann.locator("#game")).to_have_attribute("data-your-turn", "true")
    for p in (ann, bob):
        expect(p.locator("html")).to_have_attribute("data-live", "connected")  # its scripts run
    for key, ap in (("p", 5), ("ArrowDown", 4), ("ArrowDown", 3), ("p", 2), ("ArrowUp", 1)):
        ann.keyboard.press(key)
        expect(ann.locator(".stats dd").nth(2)).to_have_text(str(ap))
    ann.keyboard.press("ArrowUp")  # the last action point: Bob's turn
    expect(bob.locator("#game")).to_have_attribute("data-your-turn", "true")
    assert_plain_page(ann)
    bob.keyboard.press("e")
    expect(ann.locator("#game")).to_have_attribute("data-your-turn", "true")
    assert my_token_column(ann) == 1

    press_quickly(ann, "ArrowRight", 4)  # each applied on top of the last: out through the exit
    expect(ann.locator("#status")).to_contain_text("Ann escaped with the gold!")

    # The whole map at the end: each token carries its player's initial, a legend names them.
    for viewer, you in ((ann, "A: Ann (you)"), (bob, "B: Bob (you)")):
        expect(viewer.locator("svg.dungeon g.player text")).to_have_count(2)
        expect(viewer.locator(".token-legend li")).to_have_count(2)
        expect(viewer.locator(".token-legend")).to_contain_text(you)
        assert_plain_page(viewer)
    expect(ann.locator(".token-legend")).to_contain_text("B: Bob")
    exit_token = ann.locator("svg.dungeon g.player.you text")
    expect(exit_token).to_have_text("A")
    axe_check(ann)


def test_a_press_that_no_longer_fits_stops_the_queue_and_says_why(page):
    # Ann alone at [2,1]: four steps east reach [2,5], and the wall stops the fifth.
    start_table(page, "Ann", {"p1": [2, 1]})
    page.get_by_role("button", name=re.compile("Start the game")).click()
    expect(page.locator("#game")).to_have_attribute("data-your-turn", "true")
    expect(page.locator("html")).to_have_attribute("data-live", "connected")
    page.evaluate(SLOW_REQUESTS)
    posts: list[str] = []
    page.on("request", lambda r: posts.append(r.url) if r.method == "POST" and r.url.endswith("/act") else None)
    press_quickly(page, "ArrowRight", 6)
    expect(page.locator("#flash")).to_have_text(
        "Stopped: “Move east” is not possible any more, and the key press after it was dropped.", timeout=15000
    )
    assert my_token_column(page) == 5
    expect(page.locator(".stats dd").nth(2)).to_have_text("2")
    assert len(posts) == 4


def test_hebracs_spell_book_folds_what_cannot_be_cast_now(page, axe_check):
    heights = {}
    start_hebracs_dungeon(page, DECK_A)
    enter(page, 1, 1)
    spells = page.locator("#spellbook")
    expect(spells.locator("#spells-others")).not_to_have_attribute("open", "")
    expect(spells.locator("#spells-others > summary")).to_contain_text(re.compile(r"Other spells \(\d+\)"))
    # Nothing castable yet: no "Not now" in sight until the fold is opened.
    expect(spells.locator(".sp-state:visible")).to_have_count(0)
    heights["folded"] = page.evaluate("document.documentElement.scrollHeight")
    spells.locator("#spells-others > summary").click()
    expect(spells.locator("#book-teleport .sp-state")).to_be_visible()
    expect(spells.locator("#book-teleport .sp-state")).to_have_text("Not now: you have no magic potion")
    heights["unfolded"] = page.evaluate("document.documentElement.scrollHeight")
    assert heights["folded"] < heights["unfolded"], heights
    print(f"Hebrac's Dungeon page height at 1280 wide, spell book folded/unfolded: {heights}")
    assert_plain_page(page)
    axe_check(page)


def test_clear_the_dungeon_speaks_of_places_and_a_lone_card_in_words(page):
    start_clear_the_dungeon(page, stacked("A", "10S AC 5H"))
    assert_plain_page(page)
    expect(page.locator("#ctd-hint")).to_contain_text("Pick a card (1–3)")
    click_step(page, "10S r7c1")
    click_step(page, "AC r7c1")
    expect(page.locator("#ctd-hint")).to_contain_text("Pick your card (key 1)")
    page.locator("#ctd-moves summary").click()
    expect(page.get_by_role("button", name="Play 5♥ on the J♥")).to_be_visible()
    assert_plain_page(page)
