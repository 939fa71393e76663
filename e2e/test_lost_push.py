"""A doorbell that never rang: the game changes in the database with no push at all (as when a
Redis blip drops a publish between two server processes). An open page must not stay stale: it
tells the server its revision again when the tab comes back into view (and every 30 s)."""

from __future__ import annotations

import re

from playwright.sync_api import expect

from webapp.domain import play
from webapp.storage.store import Store


def test_a_page_catches_up_on_a_change_whose_push_was_lost(page, new_page, live_server, console_errors):
    page.goto("/")
    page.get_by_role("button", name="Play Shuffle and Doom!").click()
    page.wait_for_url(re.compile(r".*/g/[A-Za-z0-9_-]{20,}$"))
    game_id = page.url.rsplit("/", 1)[-1]
    watcher = new_page()
    watcher.goto(f"/g/{game_id}")
    for open_page in (page, watcher):
        expect(open_page.locator("html")).to_have_attribute("data-live", "connected")
    expect(watcher.locator("#status")).to_contain_text("Choose the set")
    version = int(page.locator("#game").get_attribute("data-revision"))

    # The player's move reaches the store from outside the server process: nobody is rung.
    store = Store(f"sqlite:///{live_server.workdir / 'delve.sqlite3'}")
    try:
        game = play.load_game(store, game_id)
        play.act(store, game, play.SOLO_SEAT, {"type": "choose_stat_set", "set": "top"})
    finally:
        store.engine.dispose()
    page.wait_for_timeout(1000)
    expect(watcher.locator("#game")).to_have_attribute("data-revision", str(version))  # no push came

    for open_page in (watcher, page):  # both tabs come back into view
        open_page.evaluate("document.dispatchEvent(new Event('visibilitychange'))")
        expect(open_page.locator("#game")).to_have_attribute("data-revision", str(version + 1))
        expect(open_page.locator("#status")).not_to_contain_text("Choose the set")
    assert console_errors == []
