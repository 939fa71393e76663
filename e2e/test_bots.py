"""Bots in a real browser (issue 16): "Play now with bots" on The Dungeon of Doom played to the end
of the game, and the waiting room with bots (the host adds one; axe finds nothing serious)."""

from __future__ import annotations

import time

from playwright.sync_api import expect

TINY = "name Tiny Hall\nwin 1\n#######\n#..G..#\n#.....#\n#G...E#\n#######"


def test_play_now_with_bots_to_the_end_of_a_game(page, base_url, console_errors):
    page.goto(base_url + "/")
    card = page.locator("#game-dungeon-of-doom")
    card.get_by_label("Your name").fill("Ann")
    card.locator("summary", has_text="Options").click()
    card.locator("select[name=map_choice]").select_option("custom")
    card.locator("textarea[name=map_text]").fill(TINY)
    card.get_by_label("Bots").select_option("2")
    card.get_by_role("button", name="Play now with bots").click()
    expect(page.locator("#status")).to_be_visible()
    roster = page.locator(".roster")
    expect(roster.locator("li")).to_have_count(3)
    expect(roster).to_contain_text("bot · normal")
    # Ann ends each of her turns; the bots play theirs on their own until the game is over.
    deadline = time.time() + 90
    while time.time() < deadline:
        status = page.locator("#status").inner_text()
        if "escaped" in status or "Nobody escaped" in status:
            break
        end_turn = page.get_by_role("button", name="End turn")
        if end_turn.count() and end_turn.is_enabled():
            end_turn.click()
        page.wait_for_timeout(150)
    expect(page.locator("#status")).to_contain_text("escaped")
    expect(page.locator(".final-stats tbody tr")).to_have_count(3)
    assert console_errors == []


def test_the_waiting_room_with_bots_is_accessible(page, base_url, console_errors, axe_check, new_page):
    page.goto(base_url + "/")
    card = page.locator("#game-dungeon-cards")
    card.get_by_label("Your name").fill("Ann")
    card.get_by_role("button", name="Open a Dungeon Cards table").click()
    expect(page.get_by_role("heading", name="Bots")).to_be_visible()
    page.get_by_label("Level").select_option("easy")
    page.get_by_role("button", name="Add a bot").click()
    roster = page.locator(".roster")
    expect(roster).to_contain_text("Bot 1")
    expect(roster).to_contain_text("bot · easy")
    page.get_by_role("button", name="Add a bot").click()
    expect(roster.locator("li")).to_have_count(3)
    expect(page.get_by_role("button", name="Remove Bot 2")).to_be_visible()
    axe_check(page)
    page.emulate_media(color_scheme="dark")
    axe_check(page)
    # A guest still takes a free seat beside the bots and sees who is a bot.
    guest = new_page()
    guest.goto(page.url)
    expect(guest.locator(".roster")).to_contain_text("bot · easy")
    expect(guest.get_by_role("heading", name="Bots")).to_have_count(0)
    page.get_by_role("button", name="Remove Bot 2").click()
    expect(roster.locator("li")).to_have_count(2)
    for width, height in [(1280, 800), (390, 844), (360, 740)]:
        page.set_viewport_size({"width": width, "height": height})
        page.screenshot(path=f"test-artifacts/bots-waiting-room-{width}x{height}.png", full_page=True)
        assert page.evaluate("document.documentElement.scrollWidth") <= width
    assert console_errors == []
