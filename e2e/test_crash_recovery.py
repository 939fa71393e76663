"""A crash in the middle of a game, seen from the browser: the server is SIGKILLed (master and
worker) and restarted on the same port and database; the page reconnects by itself over
Socket.IO, shows the board as it now stands, and the player acts again. And a graceful restart
(SIGTERM, as a deploy sends): the open page says the server is restarting, then carries on."""

from __future__ import annotations

import os
import re
import signal

import psutil
import pytest
from playwright.sync_api import expect

S2_DECK = "5C 8D 3H 9S 7D KS JS QH 6S"  # a short, known game (see test_shuffle_and_doom.py)
RECONNECT = 30_000  # ms: the Socket.IO client backs off up to 5 s between attempts


@pytest.fixture
def crashable_server(live_server, tmp_path, monkeypatch):
    """This test's own server (the session's LiveServer class, a fresh SQLite file); kill() is a
    crash of the whole server: the master and its worker, by their process ids."""

    class CrashableServer(type(live_server)):
        def kill(self):
            if self.process and self.process.poll() is None:
                children = psutil.Process(self.process.pid).children(recursive=True)
                for pid in [self.process.pid, *(child.pid for child in children)]:
                    try:
                        os.kill(pid, signal.SIGKILL)
                    except ProcessLookupError:
                        pass
                self.process.wait(10)
                psutil.wait_procs(children, timeout=10)

        def stop(self):
            super().stop()
            self.kill()

    # A short drain: with a page's websocket open, a graceful stop waits it out in full.
    monkeypatch.setenv("GRACEFUL_TIMEOUT", "2")
    server = CrashableServer(tmp_path).start()
    yield server
    server.stop()


def open_s2_game(page):
    page.goto("/")
    card = page.locator("#game-shuffle-and-doom")
    card.get_by_text("Options").click()
    card.get_by_label("Grid size").fill("4")
    card.get_by_label("Stacked deal").fill(S2_DECK)
    card.get_by_role("button", name="Play Shuffle and Doom!").click()
    page.wait_for_url(re.compile(r".*/g/[A-Za-z0-9_-]{20,}$"))


def connected_s2_game_with_top_set(context):
    """A new page on the S2 deal, live, with the top set chosen (version 1); and its page errors."""
    page = context.new_page()
    page_errors: list[str] = []
    page.on("pageerror", lambda error: page_errors.append(str(error)))
    open_s2_game(page)
    expect(page.locator("html")).to_have_attribute("data-live", "connected")
    page.get_by_role("button", name=re.compile("top set", re.I)).first.click()
    expect(page.locator("#game")).to_have_attribute("data-revision", "1")
    return page, page_errors


def test_the_page_reconnects_by_itself_after_a_crash_and_play_goes_on(browser, crashable_server, console_watch):
    console_watch.allow(
        r"^Failed to load resource: net::ERR_CONNECTION_REFUSED", "the server is down on purpose until it restarts"
    )
    server = crashable_server
    context = browser.new_context(base_url=server.url)
    try:
        page, page_errors = connected_s2_game_with_top_set(context)
        game_url = page.url
        game = page.locator("#game")
        live = page.locator("html")
        page.get_by_role("button", name=re.compile(r"8♦.*attack|attack.*8♦", re.I)).first.click()
        expect(game).to_have_attribute("data-revision", "2")
        expect(page.locator("#room-title")).to_have_text("Combat")

        server.kill()  # mid-game: no graceful goodbye, no "server_restarting" message
        expect(live).to_have_attribute("data-live", "disconnected", timeout=RECONNECT)
        server.start()  # the same port and database

        # The same player in another tab acts on the restarted server …
        other_tab = context.new_page()
        other_tab.goto(game_url)
        expect(other_tab.locator("#game")).to_have_attribute("data-revision", "2")
        other_tab.get_by_role("button", name=re.compile(r"Attack 6♠")).first.click()
        expect(other_tab.locator("#game")).to_have_attribute("data-revision", "3")

        # … and the first page, untouched, reconnected by itself and shows the board as it stands.
        expect(live).to_have_attribute("data-live", "connected", timeout=RECONNECT)
        expect(game).to_have_attribute("data-revision", "3", timeout=RECONNECT)
        expect(page.locator("#room-title")).to_have_count(0)  # the fight is won: no room panel
        expect(page.locator("#status")).to_have_text(other_tab.locator("#status").inner_text())
        map_label = other_tab.get_by_role("img", name=re.compile("^Map ")).get_attribute("aria-label")
        expect(page.get_by_role("img", name=re.compile("^Map "))).to_have_attribute("aria-label", map_label)

        # The player acts again from the first page, successfully.
        page.get_by_role("button", name=re.compile("Move east", re.I)).first.click()
        expect(game).to_have_attribute("data-revision", "4")
        expect(page.locator("#flash .alert")).to_have_count(0)
        assert page_errors == []
    finally:
        context.close()


def test_a_graceful_restart_is_announced_and_play_goes_on(browser, crashable_server, console_watch):
    console_watch.allow(
        r"^Failed to load resource: net::ERR_CONNECTION_REFUSED", "the server is down on purpose until it restarts"
    )
    server = crashable_server
    context = browser.new_context(base_url=server.url)
    try:
        page, page_errors = connected_s2_game_with_top_set(context)
        game = page.locator("#game")
        live = page.locator("html")

        server.process.terminate()  # SIGTERM: what a deploy sends
        # Told at once, while the process still drains (before its connection drops).
        expect(page.locator("#flash")).to_contain_text("The server is restarting", timeout=RECONNECT)
        expect(live).to_have_attribute("data-live", "disconnected", timeout=RECONNECT)
        server.process.wait(30)
        server.start()  # the same port and database

        expect(live).to_have_attribute("data-live", "connected", timeout=RECONNECT)
        page.get_by_role("button", name=re.compile(r"8♦.*attack|attack.*8♦", re.I)).first.click()
        expect(game).to_have_attribute("data-revision", "2")
        assert page_errors == []
    finally:
        context.close()
