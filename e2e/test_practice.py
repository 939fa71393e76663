"""Practice mode in the browser (issue 26): a solo game opened as practice from the front page's
checkbox undoes past a reveal and the same cards come again (the deal is fixed), and it says
"Practice" on its page, its end page and its replay; a ranked-eligible game is switched to
practice from its page through the switch's two deliberate clicks (a summary, then a plain form
button), after which its Undo goes back past the reveal that stopped it.

Clear the Dungeon on line A's stacked deal (its first turn ends with four hits, one short of the
fifth): ending a turn draws three power cards, a reveal; its hand shows them.

Screenshots at 1280 × 800, 390 × 844 and 360 × 740 go to
test-artifacts/screens/practice-<state>-<width>x<height>.png (git-ignored)."""

from __future__ import annotations

import re
from pathlib import Path

from playwright.sync_api import expect

from e2e.test_clear_the_dungeon import GAME_URL, expect_version, version
from e2e.test_clear_the_dungeon import start_game as start_clear_the_dungeon
from tests.web.test_clear_the_dungeon_web import LINE_A_DECK

SCREENS = Path(__file__).resolve().parent.parent / "test-artifacts" / "screens"  # git-ignored
SIZES = [(1280, 800), (390, 844), (360, 740)]
SETTLED = """() => Promise.all(document.getAnimations()
                 .filter(a => a.effect && a.effect.getComputedTiming().iterations !== Infinity)
                 .map(a => a.finished.catch(() => null)))"""
"""The page's finite animations (cards flying to their place) have ended: a shot shows the layout."""


def hand(page) -> list[str]:
    return page.locator(".ctd-hand .ctd-hand-card").evaluate_all("cards => cards.map(c => c.dataset.card)")


def end_turn(page) -> None:
    before = version(page)
    page.locator("#ctd-end-turn").click()
    expect_version(page, before + 1)


def undo(page) -> None:
    before = version(page)
    page.locator("#undo").click()
    expect_version(page, before + 1)
    expect(page.locator("#flash")).to_contain_text("Undone: End turn")


def shoot(page, state: str, show: str, focus: str | None = None) -> None:
    """The page at every size with ``show`` (a selector) scrolled into view and, if given,
    ``focus`` focused from the keyboard (its focus ring drawn, as after a Tab)."""
    SCREENS.mkdir(parents=True, exist_ok=True)
    page.evaluate(SETTLED)
    for width, height in SIZES:
        page.set_viewport_size({"width": width, "height": height})
        if focus:
            page.locator(focus).focus()
            page.keyboard.press("Shift+Tab")
            page.keyboard.press("Tab")
        page.locator(show).scroll_into_view_if_needed()
        page.screenshot(path=str(SCREENS / f"practice-{state}-{width}x{height}.png"))
    page.set_viewport_size({"width": SIZES[0][0], "height": SIZES[0][1]})


def test_a_game_opened_as_practice_undoes_past_a_reveal_and_says_practice_to_the_end(page, axe_check):
    page.goto("/")
    entry = page.locator("#game-clear-the-dungeon")
    entry.get_by_label("Practice: undo anything, never ranked").check()
    entry.get_by_text("Options").click()
    entry.get_by_label("Stacked deal").fill(LINE_A_DECK)
    entry.get_by_role("button", name="Play Clear the Dungeon").click()
    page.wait_for_url(GAME_URL)
    expect(page.locator("#practice .practice-tag")).to_have_text("Practice")
    expect(page.locator("#practice")).to_contain_text("this game is never ranked")
    expect(page.get_by_text("Switch to practice…")).to_have_count(0)
    expect(page.locator("#undo")).to_be_disabled()
    dealt = hand(page)

    end_turn(page)
    drawn = hand(page)
    assert drawn != dealt
    expect(page.locator("#undo")).to_have_text(re.compile(r"^Undo \(1\)"))
    shoot(page, "label", "#practice", focus="#undo")
    axe_check(page)

    undo(page)
    assert hand(page) == dealt
    end_turn(page)
    assert hand(page) == drawn, "the same cards come again: the deal is fixed"

    before = version(page)
    page.get_by_text("Give up this game…").click()
    page.once("dialog", lambda dialog: dialog.accept())
    page.locator(".ctd-resign button").click()
    expect_version(page, before + 1)
    expect(page.locator("#practice-note")).to_contain_text("Practice")
    expect(page.locator("#practice-note")).to_contain_text("not ranked")
    expect(page.locator("#undo")).to_have_count(0)
    replay = page.get_by_role("link", name="Watch the replay").get_attribute("href")
    shoot(page, "end", "#practice-note")
    axe_check(page)

    page.goto(replay)
    expect(page.locator("#replay-note .practice-tag")).to_have_text("Practice")
    expect(page.locator("#replay-note")).to_contain_text("not ranked")


def test_a_ranked_eligible_game_is_switched_to_practice_behind_a_second_click(page, axe_check):
    start_clear_the_dungeon(page, LINE_A_DECK)
    expect(page.locator("#practice .practice-tag")).to_have_count(0)
    end_turn(page)
    expect(page.locator("#undo")).to_be_disabled()
    expect(page.locator("#undo-why")).to_have_text("Can't undo: 3 cards were drawn.")
    shoot(page, "undo-disabled", "#undo-why")

    switch = page.locator("#practice details.practice-switch")
    confirm = switch.get_by_role("button", name="Yes, switch to practice")
    expect(confirm).to_be_hidden()  # the switch takes a second, deliberate click
    switch.locator("summary").click()
    expect(confirm).to_be_visible()
    shoot(page, "switch-open", "#practice", focus="#practice form button")
    axe_check(page)

    drawn = hand(page)
    before = version(page)
    confirm.click()
    expect_version(page, before + 1)
    expect(page.locator("#practice .practice-tag")).to_have_text("Practice")
    expect(page.locator("#practice details")).to_have_count(0)
    expect(page.locator("#undo")).to_have_text(re.compile(r"^Undo \(1\)"))
    shoot(page, "undo-alive", "#undo", focus="#undo")
    axe_check(page)
    undo(page)
    end_turn(page)
    assert hand(page) == drawn
