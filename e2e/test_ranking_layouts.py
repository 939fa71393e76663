"""The rankings of a challenge and of a daily deal fit a phone's screen (issue 25.4): no sideways
scroll of the page, and no column of the table cut off inside its own scroll box."""

from __future__ import annotations

import re

from playwright.sync_api import expect

from e2e.test_phone_layouts import PHONES
from e2e.test_replays import play_the_short_game

# Every element whose right edge is past the screen's (visually hidden text aside), by tag and id.
WIDER_THAN_THE_SCREEN = """() => [...document.querySelectorAll('body *')]
  .filter(el => !el.closest('.visually-hidden, .skip-link'))
  .filter(el => { const r = el.getBoundingClientRect(); return r.width > 0 && r.right > innerWidth + 0.5; })
  .map(el => el.tagName.toLowerCase() + (el.id ? '#' + el.id : '') + ' ' + el.getBoundingClientRect().right)"""


def fits_the_screen(page, width, height):
    page.set_viewport_size({"width": width, "height": height})
    expect(page.locator("#board tbody tr").first).to_be_visible()
    page_width = page.evaluate("document.scrollingElement.scrollWidth")
    assert page_width <= width, f"the page is {page_width} px wide on a {width} px screen"
    assert page.evaluate(WIDER_THAN_THE_SCREEN) == []


def test_a_challenges_ranking_fits_a_phone(page):
    play_the_short_game(page)
    page.get_by_role("button", name="Challenge a friend").click()
    page.wait_for_url(re.compile(r".*/c/[A-Za-z0-9_-]+$"))
    expect(page.locator("#board tr.mine")).to_contain_text("you")
    for width, height in PHONES:
        fits_the_screen(page, width, height)


def test_a_daily_ranking_fits_a_phone(page):
    page.goto("/daily/clear-the-dungeon")
    page.get_by_label("Your name").fill("Adventurer-Dee")
    page.locator(".deal-form button[type=submit]").click()
    page.wait_for_url(re.compile(r".*/g/[A-Za-z0-9_-]{20,}$"))
    page.get_by_text("Give up this game…").click()
    page.once("dialog", lambda dialog: dialog.accept())
    page.locator(".ctd-resign button").first.click()
    expect(page.locator(".result")).to_be_visible()
    page.goto("/daily/clear-the-dungeon")  # ranked, or practice if this address played today's deal already
    for width, height in PHONES:
        fits_the_screen(page, width, height)
