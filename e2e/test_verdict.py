"""A finished solo game's "Your deal" section in the browser (issue 27): a game of Clear the Dungeon on
a deal that can be won (tests/web/test_clear_the_dungeon_web.py's line A) is resigned after the
line's first move; the end page says the solver is working, the test runs the solver's queued job itself on
the server's database (the live server runs no solver worker), and the page, asking every two
seconds, shows the verdict without a reload; its winning line opens as a replay that wins.

Screenshots at 1280 × 800 and 390 × 844: test-artifacts/screens/verdict-<width>x<height>.png."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from playwright.sync_api import expect
from sqlalchemy import update

import rules_engine
from e2e.test_clear_the_dungeon import click_step, start_game
from tests.web.test_clear_the_dungeon_web import LINE_A, LINE_A_DECK
from webapp.domain import solver_jobs, verdicts
from webapp.storage.schema import solver_jobs as jobs_table
from webapp.storage.store import Store

SCREENS = Path(__file__).resolve().parent.parent / "test-artifacts" / "screens"  # git-ignored

pytestmark = pytest.mark.skipif(
    rules_engine.get("clear-the-dungeon").puzzle is None, reason="Clear the Dungeon declares no solver"
)


def run_the_verdict_of(store: Store, game_id: str) -> solver_jobs.Job | None:
    """This game's verdict job, run here: the session's server has no solver of its own, and the
    other finished games of the session wait in the same queue, older than this one."""
    mine = solver_jobs.latest(store, game_id, verdicts.KIND)
    assert mine is not None, "the game's end queued no verdict"
    with store.engine.begin() as conn:
        conn.execute(update(jobs_table).where(jobs_table.c.id == mine.id).values(created_at=0))
    for _ in range(20):  # a queued hint of another test goes first
        current = solver_jobs.job(store, mine.id)
        if current is None or not current.pending:
            return current
        solver_jobs.run_next(store, owner="e2e")
    return solver_jobs.job(store, mine.id)


def test_the_end_page_shows_the_deals_verdict_and_its_winning_line(page, live_server, axe_check, console_watch):
    assert verdicts.KIND in solver_jobs.KINDS
    page.set_viewport_size({"width": 1280, "height": 800})
    start_game(page, LINE_A_DECK)
    click_step(page, LINE_A[0])  # the line's first move: the deal can still be won after it
    page.locator("details.ctd-resign summary").click()
    page.get_by_role("button", name=re.compile("Resign")).click()
    section = page.locator("#verdict")
    expect(section).to_contain_text("Working out whether this deal could be won…")
    with page.expect_response(lambda response: "/verdict" in response.url):
        pass  # one poll while the solver works
    # The poll swaps its own section: an hx-target inherited from the board would replace the board.
    expect(page.locator("#game")).to_have_count(1)
    expect(page.locator("#game #verdict")).to_have_count(1)

    store = Store(f"sqlite:///{live_server.workdir / 'delve.sqlite3'}")
    try:
        done = run_the_verdict_of(store, page.url.rstrip("/").rsplit("/", 1)[-1])
    finally:
        store.engine.dispose()
    assert done is not None and done.status == solver_jobs.DONE, done
    assert done.result["outcome"] == "win"

    expect(section).to_contain_text("This deal could be won.", timeout=10_000)  # the page asked again
    expect(section).to_contain_text("Your game could still be won until move 2 (Resign).")
    expect(section).to_contain_text("of deals like this could be won")
    axe_check(page)
    SCREENS.mkdir(parents=True, exist_ok=True)
    section.scroll_into_view_if_needed()
    page.screenshot(path=str(SCREENS / "verdict-1280x800.png"))
    page.set_viewport_size({"width": 390, "height": 844})
    section.scroll_into_view_if_needed()
    page.screenshot(path=str(SCREENS / "verdict-390x844.png"))
    page.set_viewport_size({"width": 1280, "height": 800})

    section.get_by_role("link", name="Watch a winning line").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("A winning line for Clear the Dungeon's deal")
    page.locator("#replay-last").click()
    expect(page.locator("#game")).to_contain_text(re.compile("cleared|Dungeon cleared", re.IGNORECASE))
    axe_check(page)
    page.screenshot(path=str(SCREENS / "verdict-line-1280x800.png"))
