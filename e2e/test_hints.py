"""Hints in the browser (issue 27, item 5): on a Shuffle and Doom! page the player presses H, the
hint area says "Thinking…", and once the background solver has answered (run here by the test,
through the server's database, as the server runs no solver in the browser tests) it shows the
move in words and rings the hinted move's button; the page passes an axe scan. Screenshots at
1280 × 800 and 390 × 844 go to test-artifacts/screens/hint-<width>x<height>.png (git-ignored)."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest
from playwright.sync_api import expect

from e2e.test_shuffle_and_doom import start_game
from webapp.domain import hints, solver_jobs
from webapp.storage.store import Store

SCREENS = Path(__file__).resolve().parent.parent / "test-artifacts" / "screens"  # git-ignored


@pytest.fixture
def solver(live_server):
    """The background solver, in this process, on the live server's database: runs every queued
    job until the test ends."""
    store = Store(f"sqlite:///{live_server.workdir / 'delve.sqlite3'}")
    assert hints.KIND in solver_jobs.KINDS
    stop = threading.Event()

    def work() -> None:
        while not stop.is_set():
            if solver_jobs.run_next(store, owner="e2e") is None:
                stop.wait(0.1)

    worker = threading.Thread(target=work, name="e2e-solver", daemon=True)
    worker.start()
    yield
    stop.set()
    worker.join(10)
    store.engine.dispose()


def test_pressing_h_shows_a_hint_and_rings_its_move(page, solver, axe_check):
    page.set_viewport_size({"width": 1280, "height": 800})
    start_game(page, size=5)
    button = page.locator("#hint-button")
    expect(button).to_have_text("Hint (this game will not be ranked) H")
    page.locator("body").press("h")
    expect(page.locator("#hint-text")).to_contain_text("likely decks", timeout=10_000)
    hinted = page.locator("#game button.hinted")
    expect(hinted).to_have_count(1)
    expect(hinted).to_have_attribute("aria-describedby", "hint-text")
    expect(button).to_be_disabled()
    expect(page.locator("#hint .assisted-tag")).to_have_text("Assisted")
    axe_check(page)
    SCREENS.mkdir(parents=True, exist_ok=True)
    for width, height in [(1280, 800), (390, 844)]:
        page.set_viewport_size({"width": width, "height": height})
        expect(hinted).to_be_in_viewport()
        page.screenshot(path=str(SCREENS / f"hint-{width}x{height}.png"))
