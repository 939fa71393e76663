"""The front page and the how-to-play page in a real browser."""

from __future__ import annotations

from playwright.sync_api import expect


def test_lobby_lists_five_games_and_is_accessible(page, base_url, console_errors, axe_check):
    page.goto(base_url + "/")
    # Five games, each with a way to start it, and the guide that fills the grid's sixth slot.
    expect(page.locator(".game-card:has(form button.primary)")).to_have_count(5)
    expect(page.get_by_role("heading", level=3)).to_have_count(6)
    expect(page.get_by_role("heading", level=3, name="How Delve works")).to_be_visible()
    expect(page.get_by_role("button", name="Play Shuffle and Doom!")).to_be_visible()
    axe_check(page)
    page.emulate_media(color_scheme="dark")
    axe_check(page)
    assert console_errors == []


def test_how_to_play_is_accessible(page, base_url, console_errors, axe_check):
    page.goto(base_url + "/how-to-play/shuffle-and-doom")
    expect(page.get_by_role("heading", name="How to play Shuffle and Doom!")).to_be_visible()
    axe_check(page)
    assert console_errors == []


def test_lobby_fits_a_phone(new_page):
    phone = new_page(viewport={"width": 375, "height": 740}, is_mobile=True, has_touch=True)
    phone.goto("/")
    assert phone.evaluate("document.documentElement.scrollWidth") <= 375
    expect(phone.get_by_role("button", name="Theme: system")).to_be_visible()
    for summary in phone.locator("summary", has_text="Options").all():
        summary.click()
    assert phone.evaluate("document.documentElement.scrollWidth") <= 375
