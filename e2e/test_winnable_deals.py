"""Winnable deals only in the browser (webapp/domain/deal_pools.py): Shuffle and Doom!'s creation
form offers "Clearable deals only"; with a clearable deal in the pool (proved here by the real
solver, through the server's database: the e2e server runs no solver worker), ticking it opens a
game at once on that deal, and its page says "A clearable deal".

Screenshots of the form at 1280 × 800 and 390 × 844 go to
test-artifacts/screens/winnable-deals-form-<width>x<height>.png (git-ignored)."""

from __future__ import annotations

from pathlib import Path

from playwright.sync_api import expect

from webapp.domain import deal_pools
from webapp.domain.solver_jobs import Job
from webapp.storage.store import Store

SLUG = "shuffle-and-doom"
SCREENS = Path(__file__).resolve().parent.parent / "test-artifacts" / "screens"  # git-ignored


def test_ticking_clearable_deals_only_opens_a_game_on_a_proved_deal(page, live_server, axe_check):
    store = Store(f"sqlite:///{live_server.workdir / 'delve.sqlite3'}")
    standard = deal_pools.POOL_GAMES[SLUG].keys[0]
    params = {"slug": SLUG, "options": standard, "target": 1}
    job = Job(0, None, deal_pools.KIND, params, "running", None, 1, "e2e", None, 0.0, None)
    assert deal_pools.run_pool(store, job)["held"] == 1  # the pool job's own proof, in-process
    store.engine.dispose()

    page.goto("/")
    card = page.locator(f"#game-{SLUG}")
    box = card.get_by_label("Clearable deals only")
    expect(box).not_to_be_checked()
    SCREENS.mkdir(parents=True, exist_ok=True)
    for width, height in ((1280, 800), (390, 844)):
        page.set_viewport_size({"width": width, "height": height})
        card.scroll_into_view_if_needed()
        card.screenshot(path=str(SCREENS / f"winnable-deals-form-{width}x{height}.png"))
    axe_check(page)

    box.check()
    card.get_by_role("button", name="Play Shuffle and Doom!").click()
    page.wait_for_url("**/g/*")
    expect(page.locator("#deal-kind")).to_have_text("A clearable deal")
    axe_check(page)
